//! The `--where` expression language: comparisons of stats columns, PGN tags and arithmetic on them, joined
//! by `and`, `or` and `not`.
//!
//! ```text
//! expr       := or
//! or         := and ("or" and)*
//! and        := unary ("and" unary)*
//! unary      := "not" unary | comparison
//! comparison := sum ((== | != | < | <= | > | >=) sum | (~ | !~) STRING)?
//! sum        := product ((+ | -) product)*
//! product    := sign ((* | /) sign)*
//! sign       := (- | +) sign | atom
//! atom       := column | Tag | STRING | NUMBER | true | false | "abs" "(" expr ")" | "(" expr ")"
//! ```
//!
//! Parentheses group conditions and calculations alike: `(WhiteElo + BlackElo) / 2 >= 2500 and (result ==
//! "1-0" or result == "0-1")`. A group holding a condition is true or false and can be neither compared nor
//! calculated with; a group holding a value is that value.
//!
//! A name that starts with a lowercase letter is a column of `pgnkit stats` (its CSV name); any other name
//! is a PGN tag, by its exact name (a missing tag is empty). A value reads as a number when it is an
//! optional sign, digits and an optional fraction ([`number`]).
//!
//! **Arithmetic** (`+ - * /`, unary `-`, `abs(..)`) works on numbers, in `f64`: exact for whole numbers up
//! to 2^53, and no operation panics. Its result is **missing** when an operand does not read as a number
//! (an empty or absent value, `?`), when it divides by zero, or when it would leave `f64`'s finite range.
//! A quoted string or `true`/`false` in arithmetic is refused when the expression is parsed.
//!
//! **Comparisons** give true, false or unknown:
//! - when a side is a number written in the expression or a calculation, both sides must read as numbers
//!   and compare as numbers; otherwise the comparison is unknown (`WhiteElo >= 2500` for a game without a
//!   rating, `WhiteElo - BlackElo > 200` when either is missing);
//! - two fields (columns or tags) compare as numbers when both read as numbers, as text when neither does;
//!   when one is empty, or only one reads as a number, the comparison is unknown (`white_elo > black_elo`
//!   for a game with one rating);
//! - a field and a quoted string compare as numbers when both read as numbers, else as text (code point
//!   order), an empty field being the empty string: `Annotator == ""` holds for a game without one.
//!
//! Unknown is SQL's NULL: `not` leaves it unknown, `and` is false when a side is false, `or` is true when a
//! side is true, and a game is chosen only when the whole expression is true. So
//! `not (WhiteElo - BlackElo >= 200)` chooses the games where the difference is known and below 200, the
//! same as `WhiteElo - BlackElo < 200`; a game without ratings passes neither (ask for those with
//! `not WhiteElo or not BlackElo`).
//!
//! A `~` (`!~`) matches the text of a field or a value against a regular expression: true or false, an
//! empty field being the empty text. An operand on its own is true when its value is neither empty nor
//! `false` nor `0`; a calculation on its own is true when its result is not zero, unknown when missing.
//!
//! An expression is text anyone can pass (a command line, Python's `select(where=...)`), and parsing it
//! compiles its regular expressions: [`parse`] keeps the whole expression within a budget (its length, its
//! comparisons and operations, its regular expressions and what they take compiled, how deeply it nests)
//! and refuses one beyond it ([`OverBudget`]) before it has cost much time or memory. A flat chain (`a and
//! b and ...`, `1 + 1 + ...`) is kept flat, so only parentheses, `not`, unary `-` and `abs` nest.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use regex::{Regex, RegexBuilder};

use crate::messages::{Explain, Locale};

/// The longest expression, in bytes.
pub(crate) const MAX_TEXT_BYTES: usize = 1 << 20;

/// The most comparisons (and fields on their own, and `~` matches) and arithmetic operations an
/// expression may hold: each is evaluated for every game.
pub(crate) const MAX_CLAUSES: usize = 10_000;
/// The most regular expressions an expression may hold: each keeps its own caches on every thread that
/// matches with it, whatever its size. One `~` with alternatives (`"^(Carlsen|Caruana)"`) replaces many.
pub(crate) const MAX_REGEXES: usize = 256;

/// What all the regular expressions of an expression may take compiled (the regex crate's size limit),
/// shared equally among them; one alone may take what the regex crate allows by default
/// (`MOST_PER_REGEX`). A bounded repetition is compiled as many times as it repeats: 800 patterns such as
/// `(\w+){60}` took gigabytes and a minute to compile before this budget.
pub(crate) const REGEX_BUDGET: usize = 20 << 20;

/// The regex crate's own default limit for one regular expression.
const MOST_PER_REGEX: usize = 10 << 20;

/// The lazy DFA caches of all the regular expressions, on one thread, shared equally among them; one alone
/// keeps the regex crate's default.
const DFA_CACHE_BUDGET: usize = 16 << 20;
const DFA_CACHE_PER_REGEX: usize = 2 << 20;

/// Why an expression is refused for what it would cost rather than for its syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OverBudget {
    /// Longer than `MAX_TEXT_BYTES`.
    Text { bytes: usize },
    /// More than `MAX_CLAUSES` comparisons and operations.
    Clauses,
    /// More than `MAX_REGEXES` regular expressions: `count` of them.
    Regexes { count: usize },
    /// A regular expression needs more than `share` bytes compiled: its part of `REGEX_BUDGET` among
    /// the `regexes` of the expression.
    RegexSize { share: usize, regexes: usize },
}

/// `bytes` as a short figure (`20 MiB`, `512 KiB`; in French `20 Mio`, `512 Kio`).
fn size(bytes: usize, locale: Locale) -> String {
    let (mib, kib, b) = match locale {
        Locale::En => ("MiB", "KiB", "B"),
        Locale::Fr => ("Mio", "Kio", "o"),
    };
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} {mib}", bytes >> 20)
    } else if bytes >= 1 << 10 {
        format!("{} {kib}", bytes >> 10)
    } else {
        format!("{bytes} {b}")
    }
}

impl Explain for OverBudget {
    fn explain(&self, locale: Locale) -> String {
        match *self {
            OverBudget::Text { bytes } => crate::localized!(
                locale,
                "the expression is {} bytes long: at most {}",
                "l'expression fait {} octets : au plus {}",
                bytes,
                size(MAX_TEXT_BYTES, locale)
            ),
            OverBudget::Clauses => crate::localized!(
                locale,
                "more than {} comparisons and operations: at most {} in one expression",
                "plus de {} comparaisons et opérations : au plus {} dans une expression",
                MAX_CLAUSES,
                MAX_CLAUSES
            ),
            OverBudget::Regexes { count } => crate::localized!(
                locale,
                "{} regular expressions: at most {} in one expression (one `~` with alternatives, `\"^(A|B)\"`, replaces several)",
                "{} expressions régulières : au plus {} dans une expression (un seul `~` avec des alternatives, `\"^(A|B)\"`, en remplace plusieurs)",
                count,
                MAX_REGEXES
            ),
            OverBudget::RegexSize { share, regexes: 1 } => crate::localized!(
                locale,
                "this regular expression needs more than {} compiled: a simpler one (a bounded repetition such as `{{100}}` is compiled as many times)",
                "cette expression régulière demande plus de {} une fois compilée : une plus simple (une répétition bornée comme `{{100}}` est compilée autant de fois)",
                size(share, locale)
            ),
            OverBudget::RegexSize { share, regexes } => crate::localized!(
                locale,
                "this regular expression needs more than {} compiled, its share of the {} that the expression's {} regular expressions may take: fewer or simpler ones (a bounded repetition such as `{{100}}` is compiled as many times)",
                "cette expression régulière demande plus de {} une fois compilée, sa part des {} que peuvent prendre les {} expressions régulières de l'expression : moins d'expressions, ou plus simples (une répétition bornée comme `{{100}}` est compilée autant de fois)",
                size(share, locale),
                size(REGEX_BUDGET, locale),
                regexes
            ),
        }
    }
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

/// A value an expression reads from a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    /// A column of the per-game stats CSV, by its index in the header.
    Column(usize),
    /// A PGN tag, by its exact name.
    Tag(Box<str>),
}

/// A side of a comparison, the subject of a `~`, or a value on its own.
#[derive(Clone, Debug)]
pub(crate) enum Operand {
    Field(Field),
    Text(Box<str>),
    /// An unquoted number: its value.
    Number(f64),
    /// A calculation: a number, or missing.
    Arithmetic(Numeric),
}

/// A calculation on numbers (see the module doc for when its result is missing).
#[derive(Clone, Debug)]
pub(crate) enum Numeric {
    /// A field read as a number: missing when it does not read as one.
    Field(Field),
    Literal(f64),
    Negate(Box<Numeric>),
    Abs(Box<Numeric>),
    /// Operations of one precedence, applied left to right: kept flat, so a long chain nests nothing.
    Chain(Box<Numeric>, Vec<(ArithOp, Numeric)>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Subtract,
    Multiply,
    Divide,
}

impl ArithOp {
    /// `None` (missing) for a division by zero and for a result beyond `f64`'s finite range, which no later
    /// operation could bring back to a meaningful number.
    fn apply(self, a: f64, b: f64) -> Option<f64> {
        let result = match self {
            ArithOp::Add => a + b,
            ArithOp::Subtract => a - b,
            ArithOp::Multiply => a * b,
            ArithOp::Divide if b == 0.0 => return None,
            ArithOp::Divide => a / b,
        };
        result.is_finite().then_some(result)
    }

    fn symbol(self) -> char {
        match self {
            ArithOp::Add => '+',
            ArithOp::Subtract => '-',
            ArithOp::Multiply => '*',
            ArithOp::Divide => '/',
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comparison {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparison {
    fn holds(self, order: Ordering) -> bool {
        match self {
            Comparison::Eq => order == Ordering::Equal,
            Comparison::Ne => order != Ordering::Equal,
            Comparison::Lt => order == Ordering::Less,
            Comparison::Le => order != Ordering::Greater,
            Comparison::Gt => order == Ordering::Greater,
            Comparison::Ge => order != Ordering::Less,
        }
    }
}

/// A parsed `--where` expression.
#[derive(Clone, Debug)]
pub(crate) enum Expr {
    /// Every one holds (kept flat: a long chain nests nothing).
    And(Vec<Expr>),
    /// Any one holds.
    Or(Vec<Expr>),
    Not(Box<Expr>),
    Compare(Operand, Comparison, Operand),
    /// `operand ~ "regex"` (or `!~` when `negated`).
    Matches {
        operand: Operand,
        regex: Regex,
        negated: bool,
    },
    /// An operand on its own.
    Truthy(Operand),
}

/// What the parser found where it expected something else.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Found {
    /// A token, as written in the expression (with its quotes or backticks).
    Token(String),
    End,
}

impl Found {
    fn of(token: &Token) -> Found {
        match token {
            Token::End => Found::End,
            t => Found::Token(t.to_string()),
        }
    }

    fn shown(&self, locale: Locale) -> Cow<'_, str> {
        match self {
            Found::Token(t) => Cow::Borrowed(t),
            Found::End => Cow::Borrowed(match locale {
                Locale::En => "the end",
                Locale::Fr => "la fin",
            }),
        }
    }
}

/// Why an expression does not parse, apart from its cost ([`OverBudget`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Mistake {
    /// A character that is an operator in other languages (`=`, `!`, `&`, `|`), and what to write instead.
    Spelling {
        written: char,
        instead: &'static str,
    },
    UnclosedString,
    NotANumber {
        literal: String,
    },
    UnexpectedCharacter {
        character: char,
    },
    Empty,
    /// Something after a whole expression.
    Trailing {
        found: Found,
    },
    ClosesNothing,
    /// A `(` left open, at column `open`.
    NeverClosed {
        open: usize,
    },
    /// Something inside parentheses where they should close.
    ExpectedClose {
        found: Found,
    },
    TooDeep,
    NotARegex {
        reason: String,
    },
    MatchWithoutPattern {
        found: Found,
    },
    /// `and`, `or` or `not` where a value should be.
    KeywordAsValue {
        word: String,
    },
    /// A lowercase name that is no column, and the nearest column.
    UnknownColumn {
        name: String,
        nearest: Option<String>,
    },
    EndsBeforeValue,
    ExpectedValue {
        found: Found,
    },
    AbsWithoutParentheses,
    /// A name followed by `(`, other than `abs`.
    NotAFunction {
        name: String,
    },
    /// A quoted string, `true` or `false` in arithmetic.
    TextInArithmetic,
    /// A condition in parentheses, compared or calculated with.
    ConditionAsValue,
    /// A calculation on the left of `~`.
    MatchOnArithmetic,
    /// A game result without quotes (`1-0`), which would read as a calculation.
    UnquotedResult {
        result: &'static str,
    },
}

impl Explain for Mistake {
    fn explain(&self, locale: Locale) -> String {
        match self {
            Mistake::Spelling { written, instead } => crate::localized!(
                locale,
                "`{}` is not an operator: write `{}`",
                "`{}` n'est pas un opérateur : écrivez `{}`",
                written,
                instead
            ),
            Mistake::UnclosedString => crate::localized!(
                locale,
                "this string has no closing `\"`",
                "cette chaîne n'a pas de `\"` fermant"
            ),
            Mistake::NotANumber { literal } => crate::localized!(
                locale,
                "`{}` is not a number",
                "`{}` n'est pas un nombre",
                literal
            ),
            Mistake::UnexpectedCharacter { character } => crate::localized!(
                locale,
                "unexpected character `{}`",
                "caractère inattendu `{}`",
                character
            ),
            Mistake::Empty => {
                crate::localized!(locale, "the expression is empty", "l'expression est vide")
            }
            Mistake::Trailing { found } => crate::localized!(
                locale,
                "expected an operator, `and`, `or` or the end, found {}",
                "attendu : un opérateur, `and`, `or` ou la fin ; trouvé : {}",
                found.shown(locale)
            ),
            Mistake::ClosesNothing => {
                crate::localized!(locale, "this `)` closes nothing", "cette `)` ne ferme rien")
            }
            Mistake::NeverClosed { open } => crate::localized!(
                locale,
                "the `(` at column {} is never closed",
                "la `(` de la colonne {} n'est jamais fermée",
                open
            ),
            Mistake::ExpectedClose { found } => crate::localized!(
                locale,
                "expected an operator, `and`, `or` or `)`, found {}",
                "attendu : un opérateur, `and`, `or` ou `)` ; trouvé : {}",
                found.shown(locale)
            ),
            Mistake::TooDeep => crate::localized!(
                locale,
                "more than {} levels of `(`, `not`, unary `-` and `abs`",
                "plus de {} niveaux de `(`, `not`, `-` unaire et `abs`",
                MAX_DEPTH
            ),
            Mistake::NotARegex { reason } => crate::localized!(
                locale,
                "not a regular expression: {}",
                "pas une expression régulière : {}",
                reason
            ),
            Mistake::MatchWithoutPattern { found } => crate::localized!(
                locale,
                "`~` needs a regular expression in double quotes on its right, found {}",
                "`~` attend une expression régulière entre guillemets à sa droite ; trouvé : {}",
                found.shown(locale)
            ),
            Mistake::KeywordAsValue { word } => crate::localized!(
                locale,
                "expected a column, a tag or a value before `{}`",
                "une colonne, une balise ou une valeur est attendue avant `{}`",
                word
            ),
            Mistake::UnknownColumn { name, nearest } => {
                let hint = match nearest {
                    Some(near) => crate::localized!(
                        locale,
                        " (did you mean `{}`?)",
                        " (vouliez-vous dire `{}` ?)",
                        near
                    ),
                    None => String::new(),
                };
                crate::localized!(
                    locale,
                    "no stats column is called `{}`{}; PGN tags are written as in the file, with a capital (`WhiteElo`)",
                    "aucune colonne de stats ne s'appelle `{}`{} ; les balises PGN s'écrivent comme dans le fichier, avec une majuscule (`WhiteElo`)",
                    name,
                    hint
                )
            }
            Mistake::EndsBeforeValue => crate::localized!(
                locale,
                "the expression ends where a column, a tag or a value was expected",
                "l'expression s'arrête là où une colonne, une balise ou une valeur était attendue"
            ),
            Mistake::ExpectedValue { found } => crate::localized!(
                locale,
                "expected a column, a tag or a value, found {}",
                "attendu : une colonne, une balise ou une valeur ; trouvé : {}",
                found.shown(locale)
            ),
            Mistake::AbsWithoutParentheses => crate::localized!(
                locale,
                "`abs` takes its value in parentheses: `abs(WhiteElo - BlackElo)`",
                "`abs` prend sa valeur entre parenthèses : `abs(WhiteElo - BlackElo)`"
            ),
            Mistake::NotAFunction { name } => crate::localized!(
                locale,
                "`{}` is not a function: the only one is `abs`",
                "`{}` n'est pas une fonction : la seule est `abs`",
                name
            ),
            Mistake::TextInArithmetic => crate::localized!(
                locale,
                "text cannot be calculated with: a number is written without quotes",
                "on ne calcule pas avec du texte : un nombre s'écrit sans guillemets"
            ),
            Mistake::ConditionAsValue => crate::localized!(
                locale,
                "a condition is true or false, not a value: it cannot be compared or calculated with",
                "une condition est vraie ou fausse, ce n'est pas une valeur : elle ne se compare pas et n'entre pas dans un calcul"
            ),
            Mistake::UnquotedResult { result } => crate::localized!(
                locale,
                "`{}` would be a calculation: a result is written in quotes, `\"{}\"`",
                "`{}` serait un calcul : un résultat s'écrit entre guillemets, `\"{}\"`",
                result,
                result
            ),
            Mistake::MatchOnArithmetic => crate::localized!(
                locale,
                "`~` searches text: its left side is a column, a tag or a value, not a calculation",
                "`~` cherche dans du texte : à sa gauche une colonne, une balise ou une valeur, pas un calcul"
            ),
        }
    }
}

/// What is wrong with an expression.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    Mistake(Mistake),
    OverBudget(OverBudget),
}

/// Why an expression does not parse: where (1-based, in characters) and what.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    pub column: usize,
    /// True when the expression is refused for what it would cost (its length, its comparisons and
    /// operations, its regular expressions), not for its syntax: the caller need not show it again.
    pub over_budget: bool,
    pub(crate) problem: Problem,
}

impl ExprError {
    fn at(column: usize, mistake: Mistake) -> ExprError {
        ExprError {
            column,
            over_budget: false,
            problem: Problem::Mistake(mistake),
        }
    }

    fn over(column: usize, over: OverBudget) -> ExprError {
        ExprError {
            column,
            over_budget: true,
            problem: Problem::OverBudget(over),
        }
    }
}

/// In English, as [`Explain`] says it for [`Locale::En`].
impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for ExprError {}

/// Where the expression goes wrong (its column) and why, in the user's language.
impl Explain for ExprError {
    fn explain(&self, locale: Locale) -> String {
        let why = match &self.problem {
            Problem::Mistake(m) => m.explain(locale),
            Problem::OverBudget(o) => o.explain(locale),
        };
        crate::localized!(locale, "column {}: {}", "colonne {} : {}", self.column, why)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Text(String),
    /// An unsigned number: a sign before it is an operator.
    Number(f64),
    Open,
    Close,
    Compare(Comparison),
    Match {
        negated: bool,
    },
    Arith(ArithOp),
    End,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Name(n) => write!(f, "`{n}`"),
            Token::Text(t) => write!(f, "\"{t}\""),
            Token::Number(n) => write!(f, "`{n}`"),
            Token::Open => f.write_str("`(`"),
            Token::Close => f.write_str("`)`"),
            Token::Compare(c) => f.write_str(match c {
                Comparison::Eq => "`==`",
                Comparison::Ne => "`!=`",
                Comparison::Lt => "`<`",
                Comparison::Le => "`<=`",
                Comparison::Gt => "`>`",
                Comparison::Ge => "`>=`",
            }),
            Token::Match { negated: false } => f.write_str("`~`"),
            Token::Match { negated: true } => f.write_str("`!~`"),
            Token::Arith(op) => write!(f, "`{}`", op.symbol()),
            Token::End => f.write_str("the end"),
        }
    }
}

/// Splits the text into tokens, each with its 1-based column in characters.
fn tokens(text: &str) -> Result<Vec<(Token, usize)>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let fail = |column: usize, mistake: Mistake| Err(ExprError::at(column, mistake));
    let spelling = |column: usize, written: char, instead: &'static str| {
        fail(column, Mistake::Spelling { written, instead })
    };
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        let next = chars.get(i + 1).copied();
        let (token, len) = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '(' => (Token::Open, 1),
            ')' => (Token::Close, 1),
            '+' => (Token::Arith(ArithOp::Add), 1),
            '-' => (Token::Arith(ArithOp::Subtract), 1),
            '*' => (Token::Arith(ArithOp::Multiply), 1),
            '/' => (Token::Arith(ArithOp::Divide), 1),
            '=' if next == Some('=') => (Token::Compare(Comparison::Eq), 2),
            '=' => return spelling(column, '=', "=="),
            '!' if next == Some('=') => (Token::Compare(Comparison::Ne), 2),
            '!' if next == Some('~') => (Token::Match { negated: true }, 2),
            '!' => return spelling(column, '!', "not"),
            '<' if next == Some('=') => (Token::Compare(Comparison::Le), 2),
            '<' => (Token::Compare(Comparison::Lt), 1),
            '>' if next == Some('=') => (Token::Compare(Comparison::Ge), 2),
            '>' => (Token::Compare(Comparison::Gt), 1),
            '~' => (Token::Match { negated: false }, 1),
            '&' => return spelling(column, '&', "and"),
            '|' => return spelling(column, '|', "or"),
            '"' => {
                let mut value = String::new();
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None => return fail(column, Mistake::UnclosedString),
                        Some('"') => break,
                        Some('\\') if matches!(chars.get(j + 1), Some('"' | '\\')) => {
                            value.push(chars[j + 1]);
                            j += 2;
                        }
                        Some(&c) => {
                            value.push(c);
                            j += 1;
                        }
                    }
                }
                (Token::Text(value), j + 1 - i)
            }
            c if c.is_ascii_digit() => {
                if let Some(result) = unquoted_result(&chars[i..]) {
                    return fail(column, Mistake::UnquotedResult { result });
                }
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                    j += 1;
                }
                let literal: String = chars[i..j].iter().collect();
                match number(&literal) {
                    Some(n) => (Token::Number(n), j - i),
                    None => return fail(column, Mistake::NotANumber { literal }),
                }
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                (Token::Name(chars[i..j].iter().collect()), j - i)
            }
            character => return fail(column, Mistake::UnexpectedCharacter { character }),
        };
        out.push((token, column));
        i += len;
    }
    out.push((Token::End, chars.len() + 1));
    Ok(out)
}

/// A game result written without quotes at the start of `rest` (`result == 1-0`): before arithmetic it was
/// refused as two numbers; now it would be a calculation comparing `result` with 1 or 0, true for no game.
fn unquoted_result(rest: &[char]) -> Option<&'static str> {
    ["1/2-1/2", "1-0", "0-1"].into_iter().find(|result| {
        let len = result.chars().count();
        rest.len() >= len
            && rest.iter().zip(result.chars()).all(|(&a, b)| a == b)
            && !rest
                .get(len)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_'))
    })
}

/// A value read as a number: an optional sign, digits, and an optional fraction.
pub(crate) fn number(text: &str) -> Option<f64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || digits.ends_with('.') {
        return None;
    }
    text.parse().ok()
}

/// How deeply parentheses, `not`, unary `-` and `abs` may nest: the parser recurses for each level through
/// every level of precedence (ten frames for a `(`), and a command line may hold anything. Real expressions
/// nest a few levels; 64 keep the deepest within 200 KiB of stack in a release build.
const MAX_DEPTH: usize = 64;

/// What a piece of the expression parsed to: a condition is true or false; a value can be compared,
/// calculated with, or stand alone as a condition.
enum Parsed {
    Condition(Expr),
    Value(Operand),
}

struct Parser<'c> {
    tokens: Vec<(Token, usize)>,
    at: usize,
    columns: &'c [&'c str],
    depth: usize,
    /// Comparisons and operations so far ([`MAX_CLAUSES`]).
    clauses: usize,
    /// The regular expressions of the whole expression, and what each may take ([`REGEX_BUDGET`]).
    regexes: usize,
    regex_size: usize,
    dfa_cache: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.tokens[self.at].0
    }

    fn column(&self) -> usize {
        self.tokens[self.at].1
    }

    fn next(&mut self) -> (Token, usize) {
        let t = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Token::Name(n) if n == word || n.eq_ignore_ascii_case(word) && n.chars().all(|c| c.is_ascii_uppercase()))
    }

    /// Runs `parse` one level deeper, refused at the column of what would nest beyond [`MAX_DEPTH`].
    fn nested<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<T, ExprError>,
    ) -> Result<T, ExprError> {
        if self.depth >= MAX_DEPTH {
            return Err(ExprError::at(self.column(), Mistake::TooDeep));
        }
        self.depth += 1;
        let parsed = parse(self);
        self.depth -= 1;
        parsed
    }

    /// Counts one comparison or operation, starting at `column`, against [`MAX_CLAUSES`].
    fn count_clause(&mut self, column: usize) -> Result<(), ExprError> {
        self.clauses += 1;
        if self.clauses > MAX_CLAUSES {
            return Err(ExprError::over(column, OverBudget::Clauses));
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, ExprError> {
        let mut terms = vec![self.and()?];
        while self.keyword("or") {
            self.next();
            terms.push(self.and()?);
        }
        Ok(if terms.len() == 1 {
            terms.remove(0)
        } else {
            Expr::Or(terms)
        })
    }

    fn and(&mut self) -> Result<Expr, ExprError> {
        let mut terms = vec![self.unary()?];
        while self.keyword("and") {
            self.next();
            terms.push(self.unary()?);
        }
        Ok(if terms.len() == 1 {
            terms.remove(0)
        } else {
            Expr::And(terms)
        })
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        if self.keyword("not") {
            return self.nested(|p| {
                p.next();
                Ok(Expr::Not(Box::new(p.unary()?)))
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        let start = self.column();
        let left = match self.sum()? {
            Parsed::Value(v) => v,
            Parsed::Condition(e) => {
                return match self.peek() {
                    Token::Compare(_) | Token::Match { .. } => {
                        Err(ExprError::at(start, Mistake::ConditionAsValue))
                    }
                    _ => Ok(e),
                };
            }
        };
        self.count_clause(start)?;
        match self.peek().clone() {
            Token::Compare(op) => {
                self.next();
                let column = self.column();
                let right = self.sum()?;
                Ok(Expr::Compare(left, op, value(right, column)?))
            }
            Token::Match { negated } => {
                if matches!(left, Operand::Arithmetic(_)) {
                    return Err(ExprError::at(start, Mistake::MatchOnArithmetic));
                }
                self.next();
                self.pattern(left, negated)
            }
            _ => Ok(Expr::Truthy(left)),
        }
    }

    /// The regular expression after a `~` (or `!~` when `negated`) whose subject is `operand`. Apart from
    /// [`Parser::comparison`], whose frame is on the stack once per level of nesting.
    #[inline(never)]
    fn pattern(&mut self, operand: Operand, negated: bool) -> Result<Expr, ExprError> {
        match self.next() {
            (Token::Text(pattern), column) => match self.regex(&pattern) {
                Ok(regex) => Ok(Expr::Matches {
                    operand,
                    regex,
                    negated,
                }),
                Err(regex::Error::CompiledTooBig(share)) => Err(ExprError::over(
                    column,
                    OverBudget::RegexSize {
                        share,
                        regexes: self.regexes,
                    },
                )),
                Err(e) => Err(ExprError::at(
                    column,
                    Mistake::NotARegex {
                        reason: e.to_string().lines().last().unwrap_or("").to_string(),
                    },
                )),
            },
            (t, column) => Err(ExprError::at(
                column,
                Mistake::MatchWithoutPattern {
                    found: Found::of(&t),
                },
            )),
        }
    }

    /// Compiles a pattern within its share of the budget.
    fn regex(&self, pattern: &str) -> Result<Regex, regex::Error> {
        RegexBuilder::new(pattern)
            .size_limit(self.regex_size)
            .dfa_size_limit(self.dfa_cache)
            .build()
    }

    /// `sum` and `product`: operands of `next` joined by the operators of one precedence (`ops`).
    fn chain(
        &mut self,
        ops: [ArithOp; 2],
        next: fn(&mut Self) -> Result<Parsed, ExprError>,
    ) -> Result<Parsed, ExprError> {
        let start = self.column();
        let first = next(self)?;
        let mut rest = Vec::new();
        while let Token::Arith(op) = *self.peek()
            && ops.contains(&op)
        {
            let at = self.column();
            self.count_clause(at)?;
            self.next();
            let column = self.column();
            let operand = next(self)?;
            rest.push((op, numeric(operand, column)?));
        }
        if rest.is_empty() {
            return Ok(first);
        }
        let first = numeric(first, start)?;
        Ok(Parsed::Value(Operand::Arithmetic(Numeric::Chain(
            Box::new(first),
            rest,
        ))))
    }

    fn sum(&mut self) -> Result<Parsed, ExprError> {
        self.chain([ArithOp::Add, ArithOp::Subtract], Self::product)
    }

    fn product(&mut self) -> Result<Parsed, ExprError> {
        self.chain([ArithOp::Multiply, ArithOp::Divide], Self::sign)
    }

    fn sign(&mut self) -> Result<Parsed, ExprError> {
        let negated = match self.peek() {
            Token::Arith(ArithOp::Subtract) => true,
            Token::Arith(ArithOp::Add) => false,
            _ => return self.atom(),
        };
        let start = self.column();
        self.nested(|p| {
            p.next();
            let column = p.column();
            let operand = p.sign()?;
            // A signed number stays a number written in the expression (`WhiteElo > -5`), no calculation.
            if let Parsed::Value(Operand::Number(n)) = operand {
                return Ok(Parsed::Value(Operand::Number(if negated { -n } else { n })));
            }
            let operand = numeric(operand, column)?;
            Ok(Parsed::Value(Operand::Arithmetic(if negated {
                p.count_clause(start)?;
                Numeric::Negate(Box::new(operand))
            } else {
                operand
            })))
        })
    }

    /// `"(" expr ")"`, its `(` next: a condition, or the value it holds.
    fn group(&mut self) -> Result<Parsed, ExprError> {
        self.nested(|p| {
            let (_, open) = p.next();
            let inner = p.or()?;
            match p.next() {
                (Token::Close, _) => {}
                (Token::End, column) => {
                    return Err(ExprError::at(column, Mistake::NeverClosed { open }));
                }
                (t, column) => {
                    return Err(ExprError::at(
                        column,
                        Mistake::ExpectedClose {
                            found: Found::of(&t),
                        },
                    ));
                }
            }
            Ok(match inner {
                Expr::Truthy(v) => {
                    // Counted as a value on its own, it is counted again where it is compared or used.
                    p.clauses -= 1;
                    Parsed::Value(v)
                }
                e => Parsed::Condition(e),
            })
        })
    }

    fn atom(&mut self) -> Result<Parsed, ExprError> {
        let column = self.column();
        if *self.peek() == Token::Open {
            return self.group();
        }
        let operand = match self.next().0 {
            Token::Text(t) => Operand::Text(t.into()),
            Token::Number(n) => Operand::Number(n),
            Token::Name(n) if n == "true" || n == "false" => Operand::Text(n.into()),
            Token::Name(n) if ["and", "or", "not"].contains(&n.as_str()) => {
                return Err(ExprError::at(column, Mistake::KeywordAsValue { word: n }));
            }
            Token::Name(n) if n == "abs" => {
                if *self.peek() != Token::Open {
                    return Err(ExprError::at(column, Mistake::AbsWithoutParentheses));
                }
                let inside = self.tokens.get(self.at + 1).map_or(column, |t| t.1);
                let value = self.group()?;
                self.count_clause(column)?;
                return Ok(Parsed::Value(Operand::Arithmetic(Numeric::Abs(Box::new(
                    numeric(value, inside)?,
                )))));
            }
            Token::Name(n) if *self.peek() == Token::Open => {
                return Err(ExprError::at(column, Mistake::NotAFunction { name: n }));
            }
            Token::Name(n) if n.starts_with(|c: char| c.is_ascii_lowercase()) => {
                match self.columns.iter().position(|c| *c == n) {
                    Some(i) => Operand::Field(Field::Column(i)),
                    None => {
                        return Err(ExprError::at(column, unknown_column(n, self.columns)));
                    }
                }
            }
            Token::Name(n) => Operand::Field(Field::Tag(n.into())),
            Token::End => return Err(ExprError::at(column, Mistake::EndsBeforeValue)),
            t => {
                return Err(ExprError::at(
                    column,
                    Mistake::ExpectedValue {
                        found: Found::of(&t),
                    },
                ));
            }
        };
        Ok(Parsed::Value(operand))
    }
}

/// A parsed piece that must be a value (a side of a comparison), starting at `column`.
fn value(parsed: Parsed, column: usize) -> Result<Operand, ExprError> {
    match parsed {
        Parsed::Value(v) => Ok(v),
        Parsed::Condition(_) => Err(ExprError::at(column, Mistake::ConditionAsValue)),
    }
}

/// A parsed piece that must be a number (an operand of arithmetic), starting at `column`.
fn numeric(parsed: Parsed, column: usize) -> Result<Numeric, ExprError> {
    match value(parsed, column)? {
        Operand::Field(f) => Ok(Numeric::Field(f)),
        Operand::Number(n) => Ok(Numeric::Literal(n)),
        Operand::Arithmetic(n) => Ok(n),
        Operand::Text(_) => Err(ExprError::at(column, Mistake::TextInArithmetic)),
    }
}

/// The mistake of a lowercase name that is no column: with the nearest column, when one is near.
fn unknown_column(name: String, columns: &[&str]) -> Mistake {
    let mut near: Vec<(usize, &str)> = columns
        .iter()
        .map(|c| (edit_distance(&name, c), *c))
        .filter(|&(d, c)| d <= 2 || c.contains(name.as_str()) || name.contains(c))
        .collect();
    near.sort();
    Mistake::UnknownColumn {
        nearest: near.first().map(|(_, c)| c.to_string()),
        name,
    }
}

/// Levenshtein distance, in characters.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Parses an expression; lowercase names must be among `columns`. An expression beyond the budget
/// (`MAX_TEXT_BYTES`, `MAX_CLAUSES`, `MAX_REGEXES`, `REGEX_BUDGET`) is refused with
/// [`ExprError::over_budget`] true.
pub(crate) fn parse(text: &str, columns: &[&str]) -> Result<Expr, ExprError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ExprError::over(1, OverBudget::Text { bytes: text.len() }));
    }
    let tokens = tokens(text)?;
    // Every `~` is counted before the first pattern is compiled, so each gets its share from the start.
    let matches: Vec<usize> = tokens
        .iter()
        .filter(|(t, _)| matches!(t, Token::Match { .. }))
        .map(|&(_, column)| column)
        .collect();
    if let Some(&column) = matches.get(MAX_REGEXES) {
        return Err(ExprError::over(
            column,
            OverBudget::Regexes {
                count: matches.len(),
            },
        ));
    }
    let regexes = matches.len().max(1);
    let mut parser = Parser {
        tokens,
        at: 0,
        columns,
        depth: 0,
        clauses: 0,
        regexes,
        regex_size: (REGEX_BUDGET / regexes).min(MOST_PER_REGEX),
        dfa_cache: (DFA_CACHE_BUDGET / regexes).min(DFA_CACHE_PER_REGEX),
    };
    if *parser.peek() == Token::End {
        return Err(ExprError::at(1, Mistake::Empty));
    }
    let expr = parser.or()?;
    match parser.next() {
        (Token::End, _) => Ok(expr),
        (Token::Close, column) => Err(ExprError::at(column, Mistake::ClosesNothing)),
        (t, column) => Err(ExprError::at(
            column,
            Mistake::Trailing {
                found: Found::of(&t),
            },
        )),
    }
}

/// SQL's three truth values, in the order that makes `and` the least and `or` the greatest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Truth {
    False,
    Unknown,
    True,
}

impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        if b { Truth::True } else { Truth::False }
    }
}

impl Expr {
    /// Whether a game passes (the expression is true, not false nor unknown), reading its fields through
    /// `get`.
    pub(crate) fn eval<'s, 'v: 's>(&'s self, get: &mut impl FnMut(&Field) -> Cow<'v, str>) -> bool {
        self.truth(get) == Truth::True
    }

    fn truth<'s, 'v: 's>(&'s self, get: &mut impl FnMut(&Field) -> Cow<'v, str>) -> Truth {
        match self {
            Expr::And(terms) => {
                let mut all = Truth::True;
                for e in terms {
                    all = all.min(e.truth(get));
                    if all == Truth::False {
                        break;
                    }
                }
                all
            }
            Expr::Or(terms) => {
                let mut any = Truth::False;
                for e in terms {
                    any = any.max(e.truth(get));
                    if any == Truth::True {
                        break;
                    }
                }
                any
            }
            Expr::Not(e) => match e.truth(get) {
                Truth::True => Truth::False,
                Truth::False => Truth::True,
                Truth::Unknown => Truth::Unknown,
            },
            Expr::Compare(left, op, right) => compare(left, *op, right, get),
            Expr::Matches {
                operand,
                regex,
                negated,
            } => (regex.is_match(&text(operand, get)) != *negated).into(),
            Expr::Truthy(Operand::Arithmetic(n)) => match n.value(get) {
                Some(v) => (v != 0.0).into(),
                None => Truth::Unknown,
            },
            Expr::Truthy(operand) => {
                (!matches!(text(operand, get).as_ref(), "" | "false" | "0")).into()
            }
        }
    }

    /// The tags the expression reads, each once, in the order written.
    pub(crate) fn tags(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.fields()
            .into_iter()
            .filter_map(|f| match f {
                Field::Tag(t) => Some(&**t),
                Field::Column(_) => None,
            })
            .filter(|t| seen.insert(*t))
            .collect()
    }

    /// Every field the expression reads.
    pub(crate) fn fields(&self) -> Vec<&Field> {
        let mut out = Vec::new();
        self.collect_fields(&mut out);
        out
    }

    fn collect_fields<'e>(&'e self, out: &mut Vec<&'e Field>) {
        match self {
            Expr::And(terms) | Expr::Or(terms) => {
                for e in terms {
                    e.collect_fields(out);
                }
            }
            Expr::Not(e) => e.collect_fields(out),
            Expr::Compare(l, _, r) => {
                l.collect_fields(out);
                r.collect_fields(out);
            }
            Expr::Matches { operand: o, .. } | Expr::Truthy(o) => o.collect_fields(out),
        }
    }
}

impl Operand {
    fn collect_fields<'e>(&'e self, out: &mut Vec<&'e Field>) {
        match self {
            Operand::Field(f) => out.push(f),
            Operand::Arithmetic(n) => n.collect_fields(out),
            Operand::Text(_) | Operand::Number(_) => {}
        }
    }

    /// A number written in the expression or a calculation: the other side of a comparison must read as a
    /// number.
    fn is_numeric(&self) -> bool {
        matches!(self, Operand::Number(_) | Operand::Arithmetic(_))
    }

    /// The operand as a number, when it is or reads as one.
    fn number<'s, 'v: 's>(&'s self, get: &mut impl FnMut(&Field) -> Cow<'v, str>) -> Option<f64> {
        match self {
            Operand::Field(f) => number(&get(f)),
            Operand::Text(t) => number(t),
            Operand::Number(n) => Some(*n),
            Operand::Arithmetic(n) => n.value(get),
        }
    }
}

impl Numeric {
    /// The result, or `None` when it is missing.
    fn value<'s, 'v: 's>(&'s self, get: &mut impl FnMut(&Field) -> Cow<'v, str>) -> Option<f64> {
        let finite = |v: f64| v.is_finite().then_some(v);
        match self {
            Numeric::Field(f) => number(&get(f)).and_then(finite),
            Numeric::Literal(n) => finite(*n),
            Numeric::Negate(n) => n.value(get).map(|v| -v),
            Numeric::Abs(n) => n.value(get).map(f64::abs),
            Numeric::Chain(first, rest) => {
                let mut result = first.value(get)?;
                for (op, n) in rest {
                    result = op.apply(result, n.value(get)?)?;
                }
                Some(result)
            }
        }
    }

    fn collect_fields<'e>(&'e self, out: &mut Vec<&'e Field>) {
        match self {
            Numeric::Field(f) => out.push(f),
            Numeric::Literal(_) => {}
            Numeric::Negate(n) | Numeric::Abs(n) => n.collect_fields(out),
            Numeric::Chain(first, rest) => {
                first.collect_fields(out);
                for (_, n) in rest {
                    n.collect_fields(out);
                }
            }
        }
    }
}

/// A comparison's truth, by the rules of the module doc.
fn compare<'s, 'v: 's>(
    left: &'s Operand,
    op: Comparison,
    right: &'s Operand,
    get: &mut impl FnMut(&Field) -> Cow<'v, str>,
) -> Truth {
    let by_order = |order: Option<Ordering>| order.map_or(Truth::Unknown, |o| op.holds(o).into());
    if left.is_numeric() || right.is_numeric() {
        return match (left.number(get), right.number(get)) {
            (Some(a), Some(b)) => by_order(a.partial_cmp(&b)),
            _ => Truth::Unknown,
        };
    }
    let (l, r) = (text(left, get), text(right, get));
    let both_fields = matches!((left, right), (Operand::Field(_), Operand::Field(_)));
    match (number(&l), number(&r)) {
        (Some(a), Some(b)) => by_order(a.partial_cmp(&b)),
        _ if both_fields && (l.is_empty() || r.is_empty()) => Truth::Unknown,
        (None, None) => op.holds(l.as_ref().cmp(r.as_ref())).into(),
        // A field against a string that reads as a number (`Round > "10"`): text, as written.
        _ if !both_fields => op.holds(l.as_ref().cmp(r.as_ref())).into(),
        // A number against text, both from the game: no order between them means anything.
        _ => Truth::Unknown,
    }
}

/// An operand's text, for `~`, for a truth value and for comparing text.
fn text<'s, 'v: 's>(
    operand: &'s Operand,
    get: &mut impl FnMut(&Field) -> Cow<'v, str>,
) -> Cow<'s, str> {
    match operand {
        Operand::Field(f) => get(f),
        Operand::Text(t) => Cow::Borrowed(t),
        Operand::Number(n) => Cow::Owned(n.to_string()),
        // Refused on the left of `~` when parsed; a missing result has no text.
        Operand::Arithmetic(n) => n
            .value(get)
            .map_or(Cow::Borrowed(""), |v| Cow::Owned(v.to_string())),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const COLUMNS: [&str; 6] = [
        "plies",
        "result",
        "termination",
        "white_elo",
        "valid",
        "black_elo",
    ];

    fn check(expr: &str, game: &[(&str, &str)]) -> bool {
        let values: HashMap<&str, &str> = game.iter().copied().collect();
        let e = parse(expr, &COLUMNS).unwrap_or_else(|e| panic!("{expr}: {e}"));
        e.eval(&mut |f| {
            let name = match f {
                Field::Column(i) => COLUMNS[*i],
                Field::Tag(t) => t,
            };
            Cow::Owned(values.get(name).copied().unwrap_or("").to_string())
        })
    }

    fn error(expr: &str) -> ExprError {
        parse(expr, &COLUMNS).expect_err(expr)
    }

    #[test]
    fn numbers_compare_as_numbers_and_text_as_text() {
        assert!(check("plies < 40", &[("plies", "9")]));
        assert!(!check("plies < 40", &[("plies", "100")]));
        // Both sides read as numbers, one quoted: still numeric ("9" > "40" as text).
        assert!(check("plies < \"40\"", &[("plies", "9")]));
        assert!(check("WhiteElo >= 2500", &[("WhiteElo", "2500")]));
        assert!(check("WhiteElo == 2500.0", &[("WhiteElo", "2500")]));
        assert!(check("result == \"1/2-1/2\"", &[("result", "1/2-1/2")]));
        assert!(!check("Round > \"10\"", &[("Round", "9")]));
        assert!(check("White < \"B\"", &[("White", "Anand")]));
        assert!(check("White != \"Carlsen\"", &[("White", "Anand")]));
    }

    #[test]
    fn a_missing_or_non_numeric_value_against_a_number_is_false() {
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            assert!(!check(&format!("WhiteElo {op} 2500"), &[]), "{op}");
            assert!(
                !check(&format!("WhiteElo {op} 2500"), &[("WhiteElo", "?")]),
                "{op}"
            );
        }
        // Against text, an empty value is just text.
        assert!(check("Annotator == \"\"", &[]));
        // Unknown, not false: `not` leaves it unknown (SQL's NULL), so the unrated game is not chosen.
        assert!(!check("not WhiteElo >= 2500", &[]));
        assert!(!check("not WhiteElo >= 2500", &[("WhiteElo", "?")]));
        assert!(check("not WhiteElo >= 2500", &[("WhiteElo", "2400")]));
    }

    #[test]
    fn and_binds_tighter_than_or_and_not_tighter_than_both() {
        let g = [("plies", "10"), ("result", "1-0")];
        assert!(check(
            "plies > 100 and result == \"0-1\" or plies == 10",
            &g
        ));
        assert!(!check(
            "plies > 100 and (result == \"0-1\" or plies == 10)",
            &g
        ));
        assert!(check("not plies > 100 and result == \"1-0\"", &g));
        assert!(!check("not (plies < 100 and result == \"1-0\")", &g));
        assert!(check("NOT plies > 100 AND result == \"1-0\"", &g));
    }

    #[test]
    fn regular_expressions_search_the_value() {
        let g = [("White", "Carlsen, Magnus"), ("ECO", "E60")];
        assert!(check("White ~ \"^Carlsen\"", &g));
        assert!(check("White ~ \"Magnus\"", &g));
        assert!(!check("White !~ \"Magnus\"", &g));
        assert!(check("not (ECO ~ \"^[A-D]\")", &g));
        assert!(check("not (ECO ~ \"^[A-D]\")", &[]));
        assert!(check("White ~ \"\\\"\"", &[("White", "say \"hi\"")]));
    }

    #[test]
    fn an_operand_alone_is_a_truth_value() {
        assert!(check("valid", &[("valid", "true")]));
        assert!(!check("valid", &[("valid", "false")]));
        assert!(check("Annotator", &[("Annotator", "Kasparov")]));
        assert!(!check("Annotator", &[]));
        assert!(!check("plies", &[("plies", "0")]));
        assert!(check("valid == true", &[("valid", "true")]));
    }

    #[test]
    fn mistakes_point_at_their_column() {
        let e = error("WhiteElo = 2500");
        assert_eq!(e.column, 10);
        assert!(e.to_string().contains("=="), "{e}");
        let e = error("plies > ");
        assert_eq!(e.column, 9);
        let e = error("white_elp > 2500");
        assert_eq!(e.column, 1);
        assert!(e.to_string().contains("white_elo"), "{e}");
        let e = error("(plies > 2");
        assert_eq!(e.column, 11);
        assert!(e.to_string().contains("column 1"), "{e}");
        let e = error("plies > 2)");
        assert_eq!(e.column, 10);
        let e = error("White ~ \"(\"");
        assert_eq!(e.column, 9);
        let e = error("White ~ Black");
        assert_eq!(e.column, 9);
        let e = error("White == \"x");
        assert_eq!(e.column, 10);
        let e = error("plies > 2 plies");
        assert_eq!(e.column, 11);
        let e = error("");
        assert_eq!(e.column, 1);
        let e = error("plies && valid");
        assert_eq!(e.column, 7);
        let e = error("and valid");
        assert_eq!(e.column, 1);
        // Columns count characters, not bytes.
        let e = error("White == \"Müller\" oops");
        assert_eq!(e.column, 19);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}plies{}", "(".repeat(100_000), ")".repeat(100_000));
        let e = error(&deep);
        assert_eq!(e.column, MAX_DEPTH + 1);
        let nots = format!("{}valid", "not ".repeat(100_000));
        assert!(error(&nots).to_string().contains("levels"));
        // Long chains nest nothing.
        let chain = vec!["valid"; MAX_CLAUSES].join(" and ");
        assert!(check(&chain, &[("valid", "true")]));
        let chain = vec!["valid"; MAX_CLAUSES].join(" or ");
        assert!(!check(&chain, &[("valid", "false")]));
        // Within the limit, fine.
        let ok = format!(
            "{}plies > 1{}",
            "(".repeat(MAX_DEPTH),
            ")".repeat(MAX_DEPTH)
        );
        assert!(check(&ok, &[("plies", "2")]));
    }

    #[test]
    fn an_expression_beyond_its_budget_is_refused_before_it_costs_much() {
        let over = |text: &str| {
            let started = std::time::Instant::now();
            let e = error(text);
            // Refused at once: before the budget, 1,300 such patterns compiled for 70 s.
            assert!(started.elapsed().as_secs() < 10, "{e}");
            (e.problem, e.column)
        };
        // 1,300 patterns that each compile to megabytes: refused by their number.
        let hostile: Vec<String> = (0..1300)
            .map(|i| format!("White ~ \"(\\w+){{60}}{i}\""))
            .collect();
        let text = hostile.join(" or ");
        let column = text.match_indices('~').nth(MAX_REGEXES).unwrap().0 + 1;
        assert_eq!(
            over(&text),
            (
                Problem::OverBudget(OverBudget::Regexes { count: 1300 }),
                column
            )
        );
        // Fewer, within the count: refused by their size, at the first that is over its share.
        let text = hostile[..100].join(" or ");
        let share = REGEX_BUDGET / 100;
        assert_eq!(
            over(&text),
            (
                Problem::OverBudget(OverBudget::RegexSize {
                    share,
                    regexes: 100
                }),
                9
            )
        );
        let message = error(&text).to_string();
        assert!(message.contains("100 regular expressions"), "{message}");
        // One such pattern alone compiles, as the regex crate allows it by default; so do two, sharing the
        // budget.
        assert!(parse(&hostile[0], &COLUMNS).is_ok());
        assert!(parse(&hostile[..2].join(" or "), &COLUMNS).is_ok());
        // Small patterns, many of them: fine.
        let names: Vec<String> = (0..MAX_REGEXES)
            .map(|i| format!("White ~ \"^Player{i}$\""))
            .collect();
        assert!(check(&names.join(" or "), &[("White", "Player17")]));
        // Too many comparisons, or too much text.
        let clauses = vec!["valid"; MAX_CLAUSES + 1].join(" and ");
        let column = clauses.len() - "valid".len() + 1;
        assert_eq!(
            over(&clauses),
            (Problem::OverBudget(OverBudget::Clauses), column)
        );
        let long = format!("White == \"{}\"", "x".repeat(MAX_TEXT_BYTES));
        assert_eq!(
            over(&long),
            (
                Problem::OverBudget(OverBudget::Text {
                    bytes: MAX_TEXT_BYTES + 11
                }),
                1
            )
        );
        // Said in both languages; syntax errors are not over budget.
        assert!(
            OverBudget::Clauses
                .explain(Locale::Fr)
                .contains("comparaisons")
        );
        assert!(!error("plies >").over_budget);
        assert!(error(&"x".repeat(MAX_TEXT_BYTES + 1)).over_budget);
    }

    #[test]
    fn fields_lists_what_the_expression_reads() {
        let e = parse("plies > 2 and (White ~ \"x\" or not valid)", &COLUMNS).unwrap();
        assert_eq!(
            e.fields(),
            [
                &Field::Column(0),
                &Field::Tag("White".into()),
                &Field::Column(4)
            ]
        );
    }

    #[test]
    fn tags_lists_each_tag_once() {
        let e = parse(
            "WhiteElo > 2 and (plies > 1 or WhiteElo < 9 or Event ~ \"x\") and not Site",
            &COLUMNS,
        )
        .unwrap();
        assert_eq!(e.tags(), ["WhiteElo", "Event", "Site"]);
    }

    #[test]
    fn numbers_are_plain_decimals() {
        assert_eq!(number("2500"), Some(2500.0));
        assert_eq!(number("-1.5"), Some(-1.5));
        for not in [
            "", "-", "1.", ".5", "1e3", "inf", "NaN", "1/2-1/2", " 1", "0x10",
        ] {
            assert_eq!(number(not), None, "{not}");
        }
    }

    /// The games of the arithmetic tests: ratings present, one missing, one not a number, both missing.
    const RATED: [&[(&str, &str)]; 5] = [
        &[("WhiteElo", "2700"), ("BlackElo", "2450")],
        &[("WhiteElo", "2450"), ("BlackElo", "2700")],
        &[("WhiteElo", "2600")],
        &[("WhiteElo", "2600"), ("BlackElo", "?")],
        &[],
    ];

    fn chosen(expr: &str) -> Vec<usize> {
        (0..RATED.len())
            .filter(|&k| check(expr, RATED[k]))
            .collect()
    }

    #[test]
    fn arithmetic_has_the_usual_precedence_and_runs_left_to_right() {
        for (expr, holds) in [
            ("2 + 3 * 4 == 14", true),
            ("(2 + 3) * 4 == 20", true),
            ("10 - 4 - 3 == 3", true),
            ("12 / 2 / 3 == 2", true),
            ("2 * -3 == -6", true),
            ("- - 5 == 5", true),
            ("-(2 + 3) == -5", true),
            ("1 -1 == 0", true),
            ("+4 == 4", true),
            ("7 / 2 == 3.5", true),
            ("abs(3 - 10) == 7", true),
            ("abs(-(2)) * 2 == 4", true),
            ("2 + 2 == 5", false),
        ] {
            assert_eq!(check(expr, &[]), holds, "{expr}");
        }
        let g = [("plies", "80"), ("WhiteElo", "2700"), ("BlackElo", "2450")];
        assert!(check("WhiteElo-BlackElo>200", &g));
        assert!(check("WhiteElo - BlackElo == 250", &g));
        assert!(check("BlackElo - WhiteElo == -250", &g));
        assert!(check("-plies < 0", &g));
        assert!(check("plies / 2 + 1 == 41", &g));
        assert!(check("abs(BlackElo - WhiteElo) >= 200", &g));
        // Calculations on both sides.
        assert!(check("WhiteElo - 250 == BlackElo", &g));
        assert!(check("plies * 10 < WhiteElo - BlackElo * 0.5", &g));
    }

    #[test]
    fn parentheses_group_calculations_and_conditions_alike() {
        let expr = "(WhiteElo + BlackElo) / 2 >= 2500 and (result == \"1-0\" or result == \"0-1\")";
        let strong = [("WhiteElo", "2600"), ("BlackElo", "2500")];
        assert!(check(expr, &[strong[0], strong[1], ("result", "0-1")]));
        assert!(!check(expr, &[strong[0], strong[1], ("result", "1/2-1/2")]));
        assert!(!check(
            expr,
            &[
                ("WhiteElo", "2600"),
                ("BlackElo", "2300"),
                ("result", "1-0")
            ]
        ));
        assert!(check("((plies)) > 1", &[("plies", "2")]));
        assert!(check(
            "(plies) and (valid)",
            &[("plies", "2"), ("valid", "true")]
        ));
        assert!(check("((plies > 1))", &[("plies", "2")]));
        assert!(check("not ((plies) + 1 > 3)", &[("plies", "2")]));
    }

    #[test]
    fn columns_and_tags_compare_with_each_other() {
        let g = [("white_elo", "2500"), ("black_elo", "2400")];
        assert!(check("white_elo > black_elo", &g));
        assert!(!check("white_elo < black_elo", &g));
        // Numbers, not text: "900" > "2400" as text.
        assert!(check(
            "white_elo < black_elo",
            &[("white_elo", "900"), ("black_elo", "2400")]
        ));
        assert!(check("White == Black", &[("White", "A"), ("Black", "A")]));
        assert!(check(
            "White < Black",
            &[("White", "Anand"), ("Black", "Carlsen")]
        ));
        // One side empty, or a number against text: unknown, under `not` too.
        for game in [
            &[("white_elo", "2500")][..],
            &[("black_elo", "2400")],
            &[],
            &[("white_elo", "2500"), ("black_elo", "?")],
        ] {
            for expr in [
                "white_elo > black_elo",
                "white_elo <= black_elo",
                "white_elo != black_elo",
                "not white_elo > black_elo",
            ] {
                assert!(!check(expr, game), "{expr} {game:?}");
            }
        }
    }

    #[test]
    fn a_missing_operand_makes_the_result_missing_and_the_comparison_unknown() {
        // Only game 0 has a difference of 200 or more; games 2 to 4 have none.
        assert_eq!(chosen("WhiteElo - BlackElo >= 200"), [0]);
        assert_eq!(chosen("WhiteElo - BlackElo < 200"), [1]);
        // Unknown stays unknown under `not`: the same games as `< 200`, not the unrated ones.
        assert_eq!(chosen("not (WhiteElo - BlackElo >= 200)"), [1]);
        assert_eq!(chosen("not not (WhiteElo - BlackElo >= 200)"), [0]);
        // What to write for the unrated games.
        assert_eq!(chosen("not WhiteElo or not BlackElo"), [2, 4]);
        // `and` is false when a side is false, `or` true when a side is true, whatever the other.
        assert_eq!(
            chosen("not (WhiteElo - BlackElo >= 200 and WhiteElo > 9999)"),
            [0, 1, 2, 3]
        );
        assert_eq!(
            chosen("WhiteElo - BlackElo >= 200 or WhiteElo >= 2600"),
            [0, 2, 3]
        );
        assert_eq!(
            chosen("not (WhiteElo - BlackElo >= 200 or WhiteElo >= 2600)"),
            [1]
        );
        // `missing - 1` is missing, and so is anything calculated from it (0 times it too).
        for expr in [
            "BlackElo - 1 == 2599",
            "BlackElo - 1 != 2599",
            "0 * BlackElo == 0",
            "BlackElo - BlackElo == 0",
            "abs(BlackElo) >= 0",
            "-BlackElo <= 0",
        ] {
            assert!(!chosen(expr).contains(&2), "{expr}");
            assert!(!chosen(&format!("not ({expr})")).contains(&2), "{expr}");
        }
        // A calculation alone: true when not zero, unknown when missing.
        assert_eq!(chosen("WhiteElo - 2600"), [0, 1]);
        assert_eq!(chosen("not (WhiteElo - 2600)"), [2, 3]);
        assert_eq!(chosen("not (BlackElo + 0)"), Vec::<usize>::new());
    }

    #[test]
    fn division_by_zero_and_overflow_give_missing_not_a_panic() {
        let g = [("plies", "40"), ("Zero", "0"), ("Huge", "1")];
        for expr in [
            "plies / 0 == 0",
            "plies / Zero >= 0",
            "plies / (plies - 40) < 0",
            "0 / 0 == 0",
        ] {
            assert!(!check(expr, &g), "{expr}");
            assert!(!check(&format!("not ({expr})"), &g), "{expr}");
        }
        assert!(check("plies / 8 == 5", &g));
        // Beyond f64's range: missing, never infinity.
        let huge = format!("1{}", "0".repeat(300));
        let g = [("Huge", huge.as_str())];
        assert!(check("Huge > 0", &g));
        assert!(check("Huge * 1 > 0", &g));
        for expr in ["Huge * Huge > 0", "Huge * Huge < 0", "-Huge * Huge < 0"] {
            assert!(!check(expr, &g), "{expr}");
            assert!(!check(&format!("not ({expr})"), &g), "{expr}");
        }
        // A literal beyond the range, in arithmetic.
        let literal = format!("1{}", "0".repeat(400));
        assert!(!check(&format!("{literal} + 1 > 0"), &[]));
        // Negative zero is zero.
        assert!(check("-0 * 5 == 0", &[]));
        // i64 would overflow here; f64 stays exact below 2^53.
        assert!(check("9007199254740992 - 1 == 9007199254740991", &[]));
    }

    #[test]
    fn arithmetic_mistakes_point_at_their_column() {
        let mistake = |expr: &str| {
            let e = error(expr);
            match e.problem {
                Problem::Mistake(m) => (m, e.column),
                Problem::OverBudget(o) => panic!("{expr}: {o}"),
            }
        };
        assert_eq!(
            mistake("abs WhiteElo > 5"),
            (Mistake::AbsWithoutParentheses, 1)
        );
        assert_eq!(mistake("plies > abs"), (Mistake::AbsWithoutParentheses, 9));
        assert_eq!(mistake("\"a\" + 1 > 0"), (Mistake::TextInArithmetic, 1));
        assert_eq!(mistake("1 + \"2\" > 0"), (Mistake::TextInArithmetic, 5));
        assert_eq!(
            mistake("valid == true + 1"),
            (Mistake::TextInArithmetic, 10)
        );
        assert_eq!(mistake("-\"a\" == 1"), (Mistake::TextInArithmetic, 2));
        assert_eq!(mistake("WhiteElo -"), (Mistake::EndsBeforeValue, 11));
        assert_eq!(
            mistake("WhiteElo - > 2"),
            (
                Mistake::ExpectedValue {
                    found: Found::Token("`>`".into())
                },
                12
            )
        );
        assert_eq!(
            mistake("WhiteElo * and"),
            (Mistake::KeywordAsValue { word: "and".into() }, 12)
        );
        assert_eq!(
            mistake("max(WhiteElo) > 1"),
            (Mistake::NotAFunction { name: "max".into() }, 1)
        );
        assert_eq!(mistake("(plies > 1) + 1"), (Mistake::ConditionAsValue, 1));
        assert_eq!(mistake("1 + (plies > 1)"), (Mistake::ConditionAsValue, 5));
        assert_eq!(
            mistake("(plies > 1) == true"),
            (Mistake::ConditionAsValue, 1)
        );
        assert_eq!(
            mistake("plies == (valid or valid)"),
            (Mistake::ConditionAsValue, 10)
        );
        assert_eq!(
            mistake("abs(plies > 1) > 0"),
            (Mistake::ConditionAsValue, 5)
        );
        assert_eq!(
            mistake("plies + 1 ~ \"1\""),
            (Mistake::MatchOnArithmetic, 1)
        );
        assert_eq!(mistake("abs(plies"), (Mistake::NeverClosed { open: 4 }, 10));
        assert_eq!(
            mistake("(plies + 1 2)"),
            (
                Mistake::ExpectedClose {
                    found: Found::Token("`2`".into())
                },
                12
            )
        );
        assert_eq!(
            mistake("plies + 1 2"),
            (
                Mistake::Trailing {
                    found: Found::Token("`2`".into())
                },
                11
            )
        );
        assert_eq!(
            mistake("1.2.3 > 0"),
            (
                Mistake::NotANumber {
                    literal: "1.2.3".into()
                },
                1
            )
        );
        // A result without quotes would be a calculation true for no game.
        for (expr, result, column) in [
            ("result == 1-0", "1-0", 11),
            ("result==0-1", "0-1", 9),
            ("result != 1/2-1/2 and valid", "1/2-1/2", 11),
        ] {
            assert_eq!(mistake(expr), (Mistake::UnquotedResult { result }, column));
        }
        assert!(check("1 - 0 == 1 and 1-0.5 == 0.5", &[]));
        assert!(check("10-1 == 9", &[]));
        assert!(check("1-01 == 0", &[]));
        assert!(
            error("result == 1-0")
                .explain(Locale::Fr)
                .contains("un résultat s'écrit entre guillemets, `\"1-0\"`")
        );
        // Said in both languages, with the column.
        let e = error("abs WhiteElo > 5");
        assert_eq!(
            e.explain(Locale::En),
            "column 1: `abs` takes its value in parentheses: `abs(WhiteElo - BlackElo)`"
        );
        assert_eq!(
            e.explain(Locale::Fr),
            "colonne 1 : `abs` prend sa valeur entre parenthèses : `abs(WhiteElo - BlackElo)`"
        );
        assert!(
            error("\"a\" + 1")
                .explain(Locale::Fr)
                .contains("sans guillemets")
        );
        assert!(error("WhiteElo -").explain(Locale::Fr).contains("s'arrête"));
        assert!(
            error("plies + 1 2")
                .explain(Locale::Fr)
                .contains("trouvé : `2`")
        );
        assert_eq!(
            error("(plies").explain(Locale::Fr),
            "colonne 7 : la `(` de la colonne 1 n'est jamais fermée"
        );
        assert_eq!(
            error("White ~").explain(Locale::Fr),
            "colonne 8 : `~` attend une expression régulière entre guillemets à sa droite ; trouvé : la fin"
        );
        assert!(error("White ~").to_string().ends_with("found the end"));
        assert!(
            error("plies >")
                .explain(Locale::En)
                .ends_with("was expected")
        );
        assert_eq!(
            error("plies +").to_string(),
            error("plies +").explain(Locale::En)
        );
    }

    /// Runs `parse` and an evaluation on a thread with half the stack Rust gives a spawned thread (2 MiB),
    /// so that the deepest accepted expression is known to fit with room to spare on any thread.
    fn parse_on_a_small_stack(text: String) -> Result<bool, ExprError> {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || parse(&text, &COLUMNS).map(|e| e.eval(&mut |_| Cow::Borrowed("3"))))
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn hostile_arithmetic_is_refused_or_handled_never_a_crash() {
        const DEEP: usize = 100_000;
        // 100,000 open parentheses, closed or not, around a calculation: too deep, at the 257th.
        let closed = format!("{}1 + 1{} == 2", "(".repeat(DEEP), ")".repeat(DEEP));
        let e = error(&closed);
        assert_eq!(
            (e.problem, e.column),
            (Problem::Mistake(Mistake::TooDeep), MAX_DEPTH + 1)
        );
        assert_eq!(error(&"(".repeat(DEEP)).column, MAX_DEPTH + 1);
        // Each `-`, `(`, `abs(` and `not` is a level: refused at the first beyond them (an `abs` at its `(`).
        for (prefix, column) in [
            ("-", MAX_DEPTH + 1),
            ("- ", 2 * MAX_DEPTH + 1),
            ("+", MAX_DEPTH + 1),
            ("abs(", 4 * MAX_DEPTH + 4),
            ("-(", MAX_DEPTH + 1),
            ("not ", 4 * MAX_DEPTH + 1),
        ] {
            let e = error(&format!("{}plies", prefix.repeat(DEEP)));
            assert_eq!(
                (e.problem, e.column),
                (Problem::Mistake(Mistake::TooDeep), column),
                "{prefix}"
            );
        }
        // 1 + 1 + ...: flat, so only its size is refused, at the operation beyond the budget.
        let sum = vec!["1"; DEEP].join(" + ");
        let e = error(&sum);
        assert_eq!(e.problem, Problem::OverBudget(OverBudget::Clauses));
        assert_eq!(e.column, 4 * MAX_CLAUSES + 3);
        let product = vec!["plies"; DEEP].join("*");
        assert_eq!(
            error(&product).problem,
            Problem::OverBudget(OverBudget::Clauses)
        );
        // Within the budget: evaluated in a loop, exactly.
        let sum = format!(
            "{} == {}",
            vec!["1"; MAX_CLAUSES - 1].join(" + "),
            MAX_CLAUSES - 1
        );
        assert!(check(&sum, &[]));
        let minus = format!("{} == {}", vec!["plies"; 5000].join(" - "), 2 - 5000);
        assert!(check(&minus, &[("plies", "1")]));
        // The deepest expressions accepted, each kind of level mixed, parse and evaluate on a 2 MiB stack.
        for (opening, levels, closing) in [
            ("(", 1, ")"),
            ("abs(", 1, ")"),
            ("-(", 2, ")"),
            ("not (", 2, ")"),
            ("-abs((", 3, "))"),
        ] {
            let times = MAX_DEPTH / levels;
            let text = format!("{}plies{}", opening.repeat(times), closing.repeat(times));
            assert!(
                parse_on_a_small_stack(text.clone()).is_ok(),
                "{opening}: {:?}",
                parse(&text, &COLUMNS).err()
            );
            let deeper = format!("{opening}{text}{closing}");
            assert!(parse_on_a_small_stack(deeper).is_err(), "{opening}");
        }
    }

    /// Expressions made of random pieces of the language: each parses or is refused at a column inside it
    /// (or just after), and one that parses evaluates, all without a panic.
    #[test]
    fn random_expressions_parse_or_are_refused_never_a_panic() {
        const PIECES: [&str; 32] = [
            "(",
            ")",
            "-",
            "+",
            "*",
            "/",
            "abs",
            "abs(",
            "not ",
            " and ",
            " or ",
            "==",
            "!=",
            "<",
            ">=",
            "~",
            "\"x\"",
            "\"\"",
            "0",
            "1",
            "2.5",
            "1-0",
            "plies",
            "white_elo",
            "WhiteElo",
            "BlackElo",
            "true",
            " ",
            "!",
            "=",
            "9999999999999999999999",
            "\"^[a\"",
        ];
        let games: [&[(&str, &str)]; 3] = [
            &[("plies", "40"), ("WhiteElo", "2500"), ("white_elo", "2500")],
            &[("WhiteElo", "?"), ("BlackElo", "0")],
            &[],
        ];
        // A fixed linear congruential sequence: the same expressions on every run.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let (mut parsed, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::new();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let pieces = 1 + (state >> 60) as usize;
            for _ in 0..pieces {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                text.push_str(PIECES[(state >> 59) as usize % PIECES.len()]);
            }
            match parse(&text, &COLUMNS) {
                Ok(e) => {
                    parsed += 1;
                    for game in games {
                        let values: HashMap<&str, &str> = game.iter().copied().collect();
                        e.eval(&mut |f| {
                            let name = match f {
                                Field::Column(i) => COLUMNS[*i],
                                Field::Tag(t) => t,
                            };
                            Cow::Borrowed(values.get(name).copied().unwrap_or(""))
                        });
                    }
                }
                Err(e) => {
                    refused += 1;
                    let end = text.chars().count() + 1;
                    assert!((1..=end).contains(&e.column), "{text:?}: {e}");
                    assert!(!e.explain(Locale::Fr).is_empty());
                }
            }
        }
        assert!(parsed > 500 && refused > 10_000, "{parsed} {refused}");
    }

    #[test]
    fn a_value_in_parentheses_is_counted_once() {
        let chain = vec!["(valid)"; MAX_CLAUSES].join(" and ");
        assert!(check(&chain, &[("valid", "true")]));
        let chain = vec!["((plies + 1))"; MAX_CLAUSES / 2].join(" and ");
        assert!(check(&chain, &[("plies", "1")]));
        let over = vec!["((plies + 1))"; MAX_CLAUSES / 2 + 1].join(" and ");
        assert!(error(&over).over_budget);
    }

    #[test]
    fn fields_in_calculations_are_read() {
        let e = parse("abs(WhiteElo - black_elo) * 2 > plies", &COLUMNS).unwrap();
        assert_eq!(
            e.fields(),
            [
                &Field::Tag("WhiteElo".into()),
                &Field::Column(5),
                &Field::Column(0)
            ]
        );
        assert_eq!(e.tags(), ["WhiteElo"]);
    }
}
