//! The `--where` expression language: comparisons of stats columns and PGN tags, joined by `and`, `or` and
//! `not`.
//!
//! ```text
//! expr       := or
//! or         := and ("or" and)*
//! and        := unary ("and" unary)*
//! unary      := "not" unary | "(" expr ")" | comparison
//! comparison := operand ((== | != | < | <= | > | >=) operand | (~ | !~) STRING)?
//! operand    := column | Tag | STRING | NUMBER | true | false
//! ```
//!
//! A name that starts with a lowercase letter is a column of `pgnkit stats` (its CSV name); any other name
//! is a PGN tag, by its exact name (a missing tag is empty). Comparisons are numeric when both sides read as
//! numbers, else by text (code point order); when a side is an unquoted number, the other must read as a
//! number too or the comparison is false (`WhiteElo >= 2500` is false for a game without a rating). An
//! operand on its own is true when its value is neither empty nor `false` nor `0`.
//!
//! An expression is text anyone can pass (a command line, Python's `select(where=...)`), and parsing it
//! compiles its regular expressions: [`parse`] keeps the whole expression within a budget (its length, its
//! comparisons, its regular expressions and what they take compiled) and refuses one beyond it
//! ([`OverBudget`]) before it has cost much time or memory.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use regex::{Regex, RegexBuilder};

use crate::messages::{Explain, Locale};

/// The longest expression, in bytes.
pub(crate) const MAX_TEXT_BYTES: usize = 1 << 20;

/// The most comparisons (and fields on their own, and `~` matches) an expression may hold: each is evaluated
/// for every game.
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
    /// More than `MAX_CLAUSES` comparisons.
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
                "more than {} comparisons: at most {} in one expression",
                "plus de {} comparaisons : au plus {} dans une expression",
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

#[derive(Clone, Debug)]
pub(crate) enum Operand {
    Field(Field),
    Text(Box<str>),
    /// An unquoted number: its value.
    Number(f64),
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

/// Why an expression does not parse: where (1-based, in characters) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub column: usize,
    /// What is wrong, in English.
    pub(crate) message: String,
    /// True when the expression is refused for what it would cost (its length, its comparisons, its regular
    /// expressions), not for its syntax: [`Explain`] says why in the user's language.
    pub over_budget: bool,
    /// What is over the budget, when something is.
    pub(crate) budget: Option<OverBudget>,
}

impl ExprError {
    fn at(column: usize, message: String) -> ExprError {
        ExprError {
            column,
            message,
            over_budget: false,
            budget: None,
        }
    }

    fn over(column: usize, over: OverBudget) -> ExprError {
        ExprError {
            column,
            message: over.to_string(),
            over_budget: true,
            budget: Some(over),
        }
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ExprError {}

/// Where the expression goes wrong and why: over the budget in the user's language, a syntax error in
/// English (as [`Display`](fmt::Display) says it).
impl Explain for ExprError {
    fn explain(&self, locale: Locale) -> String {
        match self.budget {
            Some(over) => crate::localized!(
                locale,
                "column {}: {}",
                "colonne {} : {}",
                self.column,
                over.explain(locale)
            ),
            None => self.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Text(String),
    Number(f64),
    Open,
    Close,
    Compare(Comparison),
    Match { negated: bool },
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
            Token::End => f.write_str("the end"),
        }
    }
}

/// Splits the text into tokens, each with its 1-based column in characters.
fn tokens(text: &str) -> Result<Vec<(Token, usize)>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let fail = |column: usize, message: String| Err(ExprError::at(column, message));
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
            '=' if next == Some('=') => (Token::Compare(Comparison::Eq), 2),
            '=' => return fail(column, "`=` is not an operator: write `==`".into()),
            '!' if next == Some('=') => (Token::Compare(Comparison::Ne), 2),
            '!' if next == Some('~') => (Token::Match { negated: true }, 2),
            '!' => return fail(column, "`!` is not an operator: write `not`".into()),
            '<' if next == Some('=') => (Token::Compare(Comparison::Le), 2),
            '<' => (Token::Compare(Comparison::Lt), 1),
            '>' if next == Some('=') => (Token::Compare(Comparison::Ge), 2),
            '>' => (Token::Compare(Comparison::Gt), 1),
            '~' => (Token::Match { negated: false }, 1),
            '&' => return fail(column, "`&` is not an operator: write `and`".into()),
            '|' => return fail(column, "`|` is not an operator: write `or`".into()),
            '"' => {
                let mut value = String::new();
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None => {
                            return fail(column, "this string has no closing `\"`".into());
                        }
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
            c if c.is_ascii_digit()
                || (matches!(c, '-' | '+') && next.is_some_and(|n| n.is_ascii_digit())) =>
            {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                    j += 1;
                }
                let literal: String = chars[i..j].iter().collect();
                match number(&literal) {
                    Some(n) => (Token::Number(n), j - i),
                    None => return fail(column, format!("`{literal}` is not a number")),
                }
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut j = i + 1;
                while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                (Token::Name(chars[i..j].iter().collect()), j - i)
            }
            c => return fail(column, format!("unexpected character `{c}`")),
        };
        out.push((token, column));
        i += len;
    }
    out.push((Token::End, chars.len() + 1));
    Ok(out)
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

/// How deeply parentheses and `not` may nest: the parser recurses once per level, and a command line may
/// hold anything.
const MAX_DEPTH: usize = 256;

struct Parser<'c> {
    tokens: Vec<(Token, usize)>,
    at: usize,
    columns: &'c [&'c str],
    depth: usize,
    /// Comparisons so far ([`MAX_CLAUSES`]).
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
        let nests = self.keyword("not") || *self.peek() == Token::Open;
        if nests {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(ExprError::at(
                    self.column(),
                    format!("more than {MAX_DEPTH} levels of `(` and `not`"),
                ));
            }
        }
        let parsed = self.unary_inner();
        if nests {
            self.depth -= 1;
        }
        parsed
    }

    fn unary_inner(&mut self) -> Result<Expr, ExprError> {
        if self.keyword("not") {
            self.next();
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if *self.peek() == Token::Open {
            let (_, open) = self.next();
            let inner = self.or()?;
            return match self.next() {
                (Token::Close, _) => Ok(inner),
                (Token::End, column) => Err(ExprError::at(
                    column,
                    format!("the `(` at column {open} is never closed"),
                )),
                (t, column) => Err(ExprError::at(
                    column,
                    format!("expected `and`, `or` or `)`, found {t}"),
                )),
            };
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        self.clauses += 1;
        if self.clauses > MAX_CLAUSES {
            return Err(ExprError::over(self.column(), OverBudget::Clauses));
        }
        let left = self.operand()?;
        match self.peek().clone() {
            Token::Compare(op) => {
                self.next();
                let right = self.operand()?;
                Ok(Expr::Compare(left, op, right))
            }
            Token::Match { negated } => {
                self.next();
                match self.next() {
                    (Token::Text(pattern), column) => match self.regex(&pattern) {
                        Ok(regex) => Ok(Expr::Matches {
                            operand: left,
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
                            format!(
                                "not a regular expression: {}",
                                e.to_string().lines().last().unwrap_or("")
                            ),
                        )),
                    },
                    (t, column) => Err(ExprError::at(
                        column,
                        format!(
                            "`~` needs a regular expression in double quotes on its right, found {t}"
                        ),
                    )),
                }
            }
            _ => Ok(Expr::Truthy(left)),
        }
    }

    /// Compiles a pattern within its share of the budget.
    fn regex(&self, pattern: &str) -> Result<Regex, regex::Error> {
        RegexBuilder::new(pattern)
            .size_limit(self.regex_size)
            .dfa_size_limit(self.dfa_cache)
            .build()
    }

    fn operand(&mut self) -> Result<Operand, ExprError> {
        let column = self.column();
        match self.next().0 {
            Token::Text(t) => Ok(Operand::Text(t.into())),
            Token::Number(n) => Ok(Operand::Number(n)),
            Token::Name(n) if n == "true" || n == "false" => Ok(Operand::Text(n.into())),
            Token::Name(n) if ["and", "or", "not"].contains(&n.as_str()) => Err(ExprError::at(
                column,
                format!("expected a column, a tag or a value before `{n}`"),
            )),
            Token::Name(n) if n.starts_with(|c: char| c.is_ascii_lowercase()) => {
                match self.columns.iter().position(|c| *c == n) {
                    Some(i) => Ok(Operand::Field(Field::Column(i))),
                    None => Err(ExprError::at(column, unknown_column(&n, self.columns))),
                }
            }
            Token::Name(n) => Ok(Operand::Field(Field::Tag(n.into()))),
            Token::End => Err(ExprError::at(
                column,
                "the expression ends where a column, a tag or a value was expected".into(),
            )),
            t => Err(ExprError::at(
                column,
                format!("expected a column, a tag or a value, found {t}"),
            )),
        }
    }
}

/// The message for a lowercase name that is no column: the nearest columns, and how tags are written.
fn unknown_column(name: &str, columns: &[&str]) -> String {
    let mut near: Vec<(usize, &str)> = columns
        .iter()
        .map(|c| (edit_distance(name, c), *c))
        .filter(|&(d, c)| d <= 2 || c.contains(name) || name.contains(c))
        .collect();
    near.sort();
    let hint = match near.first() {
        Some((_, c)) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    };
    format!(
        "no stats column is called `{name}`{hint}; PGN tags are written as in the file, with a capital (`WhiteElo`)"
    )
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
/// [`ExprError::over_budget`] set.
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
        return Err(ExprError::at(1, "the expression is empty".into()));
    }
    let expr = parser.or()?;
    match parser.next() {
        (Token::End, _) => Ok(expr),
        (Token::Close, column) => Err(ExprError::at(column, "this `)` closes nothing".into())),
        (t, column) => Err(ExprError::at(
            column,
            format!("expected `and`, `or` or the end, found {t}"),
        )),
    }
}

/// What an operand of a comparison reads as in one game.
struct Value<'v> {
    text: Cow<'v, str>,
    /// The value as a number, when it reads as one.
    number: Option<f64>,
    /// An unquoted number in the expression: the other side must be a number.
    literal_number: bool,
}

impl Expr {
    /// Whether a game passes, reading its fields through `get`.
    pub(crate) fn eval<'s, 'v: 's>(&'s self, get: &mut impl FnMut(&Field) -> Cow<'v, str>) -> bool {
        match self {
            Expr::And(terms) => terms.iter().all(|e| e.eval(get)),
            Expr::Or(terms) => terms.iter().any(|e| e.eval(get)),
            Expr::Not(e) => !e.eval(get),
            Expr::Compare(left, op, right) => {
                let (l, r) = (value(left, get), value(right, get));
                let order = match (l.number, r.number) {
                    (Some(a), Some(b)) => a.partial_cmp(&b),
                    _ if l.literal_number || r.literal_number => None,
                    _ => Some(l.text.as_ref().cmp(r.text.as_ref())),
                };
                order.is_some_and(|o| op.holds(o))
            }
            Expr::Matches {
                operand,
                regex,
                negated,
            } => regex.is_match(&text(operand, get)) != *negated,
            Expr::Truthy(operand) => !matches!(text(operand, get).as_ref(), "" | "false" | "0"),
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
        let mut operand = |o: &'e Operand| {
            if let Operand::Field(f) = o {
                out.push(f);
            }
        };
        match self {
            Expr::And(terms) | Expr::Or(terms) => {
                for e in terms {
                    e.collect_fields(out);
                }
            }
            Expr::Not(e) => e.collect_fields(out),
            Expr::Compare(l, _, r) => {
                operand(l);
                operand(r);
            }
            Expr::Matches { operand: o, .. } | Expr::Truthy(o) => operand(o),
        }
    }
}

fn value<'s, 'v: 's>(
    operand: &'s Operand,
    get: &mut impl FnMut(&Field) -> Cow<'v, str>,
) -> Value<'s> {
    match operand {
        Operand::Field(f) => {
            let text = get(f);
            let number = number(&text);
            Value {
                text,
                number,
                literal_number: false,
            }
        }
        Operand::Text(t) => Value {
            text: Cow::Borrowed(t),
            number: number(t),
            literal_number: false,
        },
        // Its text is never compared: against a non-number the comparison is false.
        Operand::Number(n) => Value {
            text: Cow::Borrowed(""),
            number: Some(*n),
            literal_number: true,
        },
    }
}

/// An operand's text, for `~` and for a truth value.
fn text<'s, 'v: 's>(
    operand: &'s Operand,
    get: &mut impl FnMut(&Field) -> Cow<'v, str>,
) -> Cow<'s, str> {
    match operand {
        Operand::Field(f) => get(f),
        Operand::Text(t) => Cow::Borrowed(t),
        Operand::Number(n) => Cow::Owned(n.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const COLUMNS: [&str; 5] = ["plies", "result", "termination", "white_elo", "valid"];

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
        assert!(check("not WhiteElo >= 2500", &[]));
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
        assert!(e.message.contains("=="), "{e}");
        let e = error("plies > ");
        assert_eq!(e.column, 9);
        let e = error("white_elp > 2500");
        assert_eq!(e.column, 1);
        assert!(e.message.contains("white_elo"), "{e}");
        let e = error("(plies > 2");
        assert_eq!(e.column, 11);
        assert!(e.message.contains("column 1"), "{e}");
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
        assert!(error(&nots).message.contains("levels"));
        // Long chains nest nothing.
        let chain = vec!["valid"; MAX_CLAUSES].join(" and ");
        assert!(check(&chain, &[("valid", "true")]));
        let chain = vec!["valid"; MAX_CLAUSES].join(" or ");
        assert!(!check(&chain, &[("valid", "false")]));
        // Within the limit, fine.
        let ok = format!("{}plies > 1{}", "(".repeat(200), ")".repeat(200));
        assert!(check(&ok, &[("plies", "2")]));
    }

    #[test]
    fn an_expression_beyond_its_budget_is_refused_before_it_costs_much() {
        let over = |text: &str| {
            let started = std::time::Instant::now();
            let e = error(text);
            // Refused at once: before the budget, 1,300 such patterns compiled for 70 s.
            assert!(started.elapsed().as_secs() < 10, "{e}");
            (e.budget, e.column)
        };
        // 1,300 patterns that each compile to megabytes: refused by their number.
        let hostile: Vec<String> = (0..1300)
            .map(|i| format!("White ~ \"(\\w+){{60}}{i}\""))
            .collect();
        let text = hostile.join(" or ");
        let column = text.match_indices('~').nth(MAX_REGEXES).unwrap().0 + 1;
        assert_eq!(
            over(&text),
            (Some(OverBudget::Regexes { count: 1300 }), column)
        );
        // Fewer, within the count: refused by their size, at the first that is over its share.
        let text = hostile[..100].join(" or ");
        let share = REGEX_BUDGET / 100;
        assert_eq!(
            over(&text),
            (
                Some(OverBudget::RegexSize {
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
        assert_eq!(over(&clauses), (Some(OverBudget::Clauses), column));
        let long = format!("White == \"{}\"", "x".repeat(MAX_TEXT_BYTES));
        assert_eq!(
            over(&long),
            (
                Some(OverBudget::Text {
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
        assert_eq!(error("plies >").budget, None);
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
}
