//! A reader of FIDE's Tournament Report File, TRF-16 and TRF-26: the `001` records (one a player) become a
//! [`CrossTable`], and the few header records the tie-breaks need are kept ([`TrfHeader`]).
//!
//! Columns are counted in characters, from 1, as the specification numbers them (a name in UTF-8 does not
//! shift the columns after it). Lines end with CR, LF or both. Records other than the ones below, and
//! comment lines (`###`), are skipped.
//!
//! * `001`: start rank (5–8), sex (10), title (11–13), name (15–47), rating (49–52), federation (54–56),
//!   FIDE number (58–68), birth date (70–79), points (81–84), rank (86–89), then one block of ten columns a
//!   round from column 92: the opponent's start rank (4 columns; `0000` or blank for none), the colour
//!   (`w`, `b`, `-` or blank) and the result code ([`Outcome::from_code`]). A block with an opponent and
//!   a blank result is a pairing without a result yet ([`Outcome::Unfinished`], as a pairing program writes
//!   the round it has just paired); `-` or `+` without an opponent is an absence or a full-point bye.
//! * `012` the tournament's name; `062` the number of players; `092` the type of tournament in words and
//!   `192` its TRF-26 code; `142` (TRF-26) or `XXR` (the pairing programs' TRF-16 extension) the number of
//!   rounds; `162` (TRF-26) the points of each result; `202` and `212` (TRF-26) the tie-breaks used.
//!
//! Every pairing must be written on both players' lines alike (same round, opposite colours, matching
//! results): the tie-breaks read each side. What is wrong is a [`TrfError`] with its line and column.

use std::collections::HashMap;
use std::fmt;

use pgnkit::Color;

use super::crosstable::{CrossTable, Entrant, Outcome, RoundCell};
use crate::localized;
use crate::messages::{Explain, Locale};

/// The most rounds a file may declare or hold: TRF-26 writes round numbers in three columns.
pub(crate) const MAX_ROUNDS: usize = 999;

/// The column of round 1's block (its opponent); each further round is ten columns on.
const FIRST_ROUND_COLUMN: usize = 92;

/// A tournament read from a TRF.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TrfTournament {
    /// The players (in start-rank order) and their rounds.
    pub(crate) table: CrossTable,
    /// What each player's `001` line says beyond the table, in the table's order.
    pub(crate) players: Vec<TrfPlayer>,
    /// The header records.
    pub(crate) header: TrfHeader,
}

/// What a `001` line says of a player besides the [`Entrant`] and the rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TrfPlayer {
    /// The start rank (the number other lines name the player by).
    pub(crate) start_rank: u16,
    /// The points written in columns 81–84, in hundredths.
    pub(crate) points: Option<i64>,
    /// The rank written in columns 86–89.
    pub(crate) rank: Option<u16>,
    /// The line of the record, from 1.
    pub(crate) line: usize,
}

/// The header records kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TrfHeader {
    /// `012`: the tournament's name.
    pub(crate) name: Option<String>,
    /// `062`: the number of players declared.
    pub(crate) players: Option<u32>,
    /// `142` or `XXR`: the number of rounds declared (the table may hold fewer, while the tournament runs).
    pub(crate) rounds: Option<usize>,
    /// `092`: the type of tournament, in words.
    pub(crate) tournament_type: Option<String>,
    /// `192`: the type of tournament, TRF-26's code.
    pub(crate) encoded_type: Option<String>,
    /// `162`: the points of the results it names, in hundredths (the others keep FIDE's defaults).
    pub(crate) points: Vec<(PointsCode, i64)>,
    /// `202`: the tie-breaks, as written (comma separated codes).
    pub(crate) tiebreaks: Option<String>,
    /// `212`: the tie-breaks that define the standings, `PTS` included.
    pub(crate) standings_tiebreaks: Option<String>,
}

/// A result that TRF-26's `162` record gives points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PointsCode {
    /// `W`: a win over the board or by forfeit, a full-point bye.
    Win,
    /// `D`: a draw, a half-point bye.
    Draw,
    /// `L`: a loss over the board.
    Loss,
    /// `A`: an absence (zero-point bye, forfeit loss).
    Absence,
    /// `P`: the pairing-allocated bye.
    PairingAllocatedBye,
    /// `X`: an unknown result.
    Unknown,
}

impl PointsCode {
    fn from_letter(letter: char) -> Option<PointsCode> {
        Some(match letter.to_ascii_uppercase() {
            'W' => PointsCode::Win,
            'D' => PointsCode::Draw,
            'L' => PointsCode::Loss,
            'A' => PointsCode::Absence,
            'P' => PointsCode::PairingAllocatedBye,
            'X' => PointsCode::Unknown,
            _ => return None,
        })
    }
}

/// Why a TRF cannot be read, and where: the line and the column (both from 1) of the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrfError {
    /// The line, from 1.
    pub(crate) line: usize,
    /// The column, from 1, in characters.
    pub(crate) column: usize,
    /// What is wrong there.
    pub(crate) kind: TrfErrorKind,
}

/// What is wrong in a TRF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TrfErrorKind {
    /// A number field holds something else (the field's name, what it holds).
    NotANumber { field: TrfField, text: String },
    /// A start rank of 0 (they start at 1).
    StartRankZero,
    /// Two `001` lines with the same start rank (the line of the first).
    DuplicateStartRank { start_rank: u16, first_line: usize },
    /// A round's colour that is none of `w`, `b`, `-` or blank.
    BadColour(char),
    /// A round's result that is no TRF code.
    BadResult(char),
    /// A game over the board without an opponent.
    MissingOpponent { round: usize },
    /// A bye (`H`, `F`, `U`, `Z`) with an opponent.
    ByeWithOpponent { round: usize, opponent: u16 },
    /// A game over the board without a colour.
    MissingColour { round: usize },
    /// An opponent no `001` line has.
    UnknownOpponent { round: usize, opponent: u16 },
    /// A player paired with themself.
    PairedWithSelf { round: usize },
    /// The opponent's line says otherwise of the same round (a different opponent, the same colour, or a
    /// result that does not answer this one).
    PairingMismatch { round: usize, opponent: u16 },
    /// More rounds than [`MAX_ROUNDS`].
    TooManyRounds(usize),
    /// A `162` entry that is no result letter followed by points.
    BadPointsEntry(String),
    /// Far fewer rounds written than the players times the longest line's rounds: the table would be
    /// mostly blanks (a file made to exhaust memory, or cut off).
    TooFewRoundsWritten { players: usize, rounds: usize },
}

/// A field of a TRF record, named in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TrfField {
    StartRank,
    Rating,
    FideId,
    Points,
    Rank,
    Opponent,
    Players,
    Rounds,
}

impl TrfField {
    fn name(self, locale: Locale) -> &'static str {
        match (self, locale) {
            (TrfField::StartRank, Locale::En) => "start rank",
            (TrfField::StartRank, Locale::Fr) => "numéro de départ",
            (TrfField::Rating, Locale::En) => "rating",
            (TrfField::Rating, Locale::Fr) => "classement Elo",
            (TrfField::FideId, Locale::En) => "FIDE number",
            (TrfField::FideId, Locale::Fr) => "numéro FIDE",
            (TrfField::Points, Locale::En) => "points",
            (TrfField::Points, Locale::Fr) => "points",
            (TrfField::Rank, Locale::En) => "rank",
            (TrfField::Rank, Locale::Fr) => "rang",
            (TrfField::Opponent, Locale::En) => "opponent",
            (TrfField::Opponent, Locale::Fr) => "adversaire",
            (TrfField::Players, Locale::En) => "number of players",
            (TrfField::Players, Locale::Fr) => "nombre de joueurs",
            (TrfField::Rounds, Locale::En) => "number of rounds",
            (TrfField::Rounds, Locale::Fr) => "nombre de rondes",
        }
    }
}

impl Explain for TrfError {
    fn explain(&self, locale: Locale) -> String {
        let (line, column) = (self.line, self.column);
        let what = match &self.kind {
            TrfErrorKind::NotANumber { field, text } => localized!(
                locale,
                "the {} is not a number: {:?}",
                "le champ « {} » n’est pas un nombre : {:?}",
                field.name(locale),
                text
            ),
            TrfErrorKind::StartRankZero => localized!(
                locale,
                "start rank 0 (start ranks begin at 1)",
                "numéro de départ 0 (ils commencent à 1)"
            ),
            TrfErrorKind::DuplicateStartRank {
                start_rank,
                first_line,
            } => localized!(
                locale,
                "start rank {start_rank} again (first on line {first_line})",
                "numéro de départ {start_rank} répété (déjà ligne {first_line})"
            ),
            TrfErrorKind::BadColour(c) => localized!(
                locale,
                "colour {c:?} is none of w, b, - or blank",
                "couleur {c:?} : ni w, ni b, ni -, ni vide"
            ),
            TrfErrorKind::BadResult(c) => localized!(
                locale,
                "result {c:?} is no TRF result code",
                "résultat {c:?} : aucun code de résultat TRF"
            ),
            TrfErrorKind::MissingOpponent { round } => localized!(
                locale,
                "round {round}: a game without an opponent",
                "ronde {round} : une partie sans adversaire"
            ),
            TrfErrorKind::ByeWithOpponent { round, opponent } => localized!(
                locale,
                "round {round}: a bye with an opponent ({opponent})",
                "ronde {round} : une exemption avec un adversaire ({opponent})"
            ),
            TrfErrorKind::MissingColour { round } => localized!(
                locale,
                "round {round}: a game without a colour",
                "ronde {round} : une partie sans couleur"
            ),
            TrfErrorKind::UnknownOpponent { round, opponent } => localized!(
                locale,
                "round {round}: no player has start rank {opponent}",
                "ronde {round} : aucun joueur n’a le numéro de départ {opponent}"
            ),
            TrfErrorKind::PairedWithSelf { round } => localized!(
                locale,
                "round {round}: the player is paired with themself",
                "ronde {round} : le joueur est apparié avec lui-même"
            ),
            TrfErrorKind::PairingMismatch { round, opponent } => localized!(
                locale,
                "round {round}: player {opponent}'s line says otherwise of this game",
                "ronde {round} : la ligne du joueur {opponent} dit autre chose de cette partie"
            ),
            TrfErrorKind::TooManyRounds(n) => localized!(
                locale,
                "{n} rounds: at most {} are read",
                "{n} rondes : {} au plus sont lues",
                MAX_ROUNDS
            ),
            TrfErrorKind::TooFewRoundsWritten { players, rounds } => localized!(
                locale,
                "this line has {rounds} rounds but most of the {players} players' lines are far shorter: refused, as a table of {players} × {rounds} rounds would be mostly blank",
                "cette ligne a {rounds} rondes mais la plupart des lignes des {players} joueurs sont bien plus courtes : refusé, une table de {players} × {rounds} rondes serait presque vide"
            ),
            TrfErrorKind::BadPointsEntry(text) => localized!(
                locale,
                "points of a result: {text:?} is not a result letter (W, D, L, A, P, X) and points",
                "points d’un résultat : {text:?} n’est pas une lettre de résultat (W, D, L, A, P, X) suivie de points"
            ),
        };
        localized!(
            locale,
            "TRF line {line}, column {column}: {what}",
            "TRF ligne {line}, colonne {column} : {what}"
        )
    }
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for TrfError {}

/// One line's characters, read by the specification's columns (from 1; past the end is blank).
struct Columns {
    chars: Vec<char>,
    line: usize,
}

impl Columns {
    fn new(text: &str, line: usize) -> Columns {
        Columns {
            chars: text.chars().collect(),
            line,
        }
    }

    /// Columns `first..=last`, as a string (blank past the line's end).
    fn field(&self, first: usize, last: usize) -> String {
        (first..=last).map(|c| self.at(c)).collect()
    }

    fn at(&self, column: usize) -> char {
        self.chars.get(column - 1).copied().unwrap_or(' ')
    }

    fn error(&self, column: usize, kind: TrfErrorKind) -> TrfError {
        TrfError {
            line: self.line,
            column,
            kind,
        }
    }

    /// A whole number in columns `first..=last`; `None` when blank.
    fn number<T: std::str::FromStr>(
        &self,
        first: usize,
        last: usize,
        field: TrfField,
    ) -> Result<Option<T>, TrfError> {
        let raw = self.field(first, last);
        let text = raw.trim();
        if text.is_empty() {
            return Ok(None);
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(first, not_a_number(field, text)));
        }
        text.parse::<T>()
            .map(Some)
            .map_err(|_| self.error(first, not_a_number(field, text)))
    }

    /// Text in columns `first..=last`, trimmed; `None` when blank.
    fn text(&self, first: usize, last: usize) -> Option<String> {
        let raw = self.field(first, last);
        let t = raw.trim();
        (!t.is_empty()).then(|| t.to_string())
    }
}

fn not_a_number(field: TrfField, text: &str) -> TrfErrorKind {
    TrfErrorKind::NotANumber {
        field,
        text: text.chars().take(40).collect(),
    }
}

/// A decimal such as `11.5` or `3,0` in hundredths; `None` when it is not one (at most two decimals).
pub(crate) fn hundredths(text: &str) -> Option<i64> {
    let t = text.trim();
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (whole, fraction) = match t.find(['.', ',']) {
        Some(i) => (&t[..i], &t[i + 1..]),
        None => (t, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > 2
        || whole.len() > 12
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut cents: i64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    if fraction.len() == 1 {
        cents *= 10;
    }
    let value = whole * 100 + cents;
    Some(if negative { -value } else { value })
}

/// One round block of a `001` line, as written.
#[derive(Clone, Copy)]
struct Block {
    opponent: Option<u16>,
    colour: Option<Color>,
    outcome: Outcome,
    /// The block's first column, for errors.
    column: usize,
}

/// A `001` line read, before the opponents are looked up.
struct PlayerLine {
    entrant: Entrant,
    player: TrfPlayer,
    blocks: Vec<Block>,
}

/// Reads a TRF (TRF-16 or TRF-26) held in memory.
pub(crate) fn read_trf(text: &str) -> Result<TrfTournament, TrfError> {
    let mut header = TrfHeader::default();
    let mut lines: Vec<PlayerLine> = Vec::new();
    let mut first_line_of: HashMap<u16, usize> = HashMap::new();
    for (number, line) in lines_of(text) {
        let Some(tag) = line.get(..3) else {
            continue;
        };
        let columns = Columns::new(line, number);
        match tag {
            "001" => {
                let player = read_player(&columns)?;
                let rank = player.player.start_rank;
                if let Some(&first_line) = first_line_of.get(&rank) {
                    return Err(columns.error(
                        5,
                        TrfErrorKind::DuplicateStartRank {
                            start_rank: rank,
                            first_line,
                        },
                    ));
                }
                first_line_of.insert(rank, number);
                lines.push(player);
            }
            "012" => header.name = rest_of(&columns),
            "062" => {
                header.players = first_word_number(&columns, TrfField::Players)?;
            }
            "092" => header.tournament_type = rest_of(&columns),
            "192" => header.encoded_type = rest_of(&columns),
            "142" | "XXR" => {
                let rounds: Option<usize> = first_word_number(&columns, TrfField::Rounds)?;
                if let Some(n) = rounds.filter(|&n| n > MAX_ROUNDS) {
                    return Err(columns.error(5, TrfErrorKind::TooManyRounds(n)));
                }
                header.rounds = rounds;
            }
            "162" => header.points = read_points(&columns)?,
            "202" => header.tiebreaks = rest_of(&columns),
            "212" => header.standings_tiebreaks = rest_of(&columns),
            _ => {}
        }
    }
    build(lines, header, text.len())
}

/// The lines of `text` with their numbers (from 1): a line ends at CR, LF or CRLF (pairing programs write
/// CR alone, as the specification says; editors add LF).
fn lines_of(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut number = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        number += 1;
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let after = &rest[end..];
        rest = after
            .strip_prefix("\r\n")
            .or_else(|| after.strip_prefix('\r'))
            .or_else(|| after.strip_prefix('\n'))
            .unwrap_or(after);
        Some((number, line))
    })
}

/// The words after the tag, trimmed; `None` when blank.
fn rest_of(columns: &Columns) -> Option<String> {
    let last = columns.chars.len().max(5);
    columns.text(5, last)
}

/// The first word after the tag as a number; `None` when blank.
fn first_word_number<T: std::str::FromStr>(
    columns: &Columns,
    field: TrfField,
) -> Result<Option<T>, TrfError> {
    let rest = columns.field(5, columns.chars.len().max(5));
    let Some(word) = rest.split_whitespace().next() else {
        return Ok(None);
    };
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(columns.error(5, not_a_number(field, word)));
    }
    word.parse::<T>()
        .map(Some)
        .map_err(|_| columns.error(5, not_a_number(field, word)))
}

/// TRF-26's `162`: a result letter at column 6, its points at 7–10, and again every nine columns.
fn read_points(columns: &Columns) -> Result<Vec<(PointsCode, i64)>, TrfError> {
    let mut points = Vec::new();
    let mut column = 6;
    while column <= columns.chars.len() {
        let entry = columns.field(column, column + 4);
        if !entry.trim().is_empty() {
            let letter = columns.at(column);
            let value = hundredths(&columns.field(column + 1, column + 4));
            match (PointsCode::from_letter(letter), value) {
                (Some(code), Some(value)) => points.push((code, value)),
                _ => {
                    return Err(columns.error(
                        column,
                        TrfErrorKind::BadPointsEntry(entry.trim().chars().take(20).collect()),
                    ));
                }
            }
        }
        column += 9;
    }
    Ok(points)
}

fn read_player(columns: &Columns) -> Result<PlayerLine, TrfError> {
    let start_rank: u16 = columns
        .number(5, 8, TrfField::StartRank)?
        .ok_or_else(|| columns.error(5, not_a_number(TrfField::StartRank, "")))?;
    if start_rank == 0 {
        return Err(columns.error(5, TrfErrorKind::StartRankZero));
    }
    let rating: Option<u16> = columns.number(49, 52, TrfField::Rating)?;
    let points = match columns.text(81, 84) {
        None => None,
        Some(text) => Some(
            hundredths(&text)
                .ok_or_else(|| columns.error(81, not_a_number(TrfField::Points, &text)))?,
        ),
    };
    let entrant = Entrant {
        name: columns.text(15, 47).unwrap_or_default(),
        rating: rating.filter(|&r| r > 0),
        fide_id: columns
            .number(58, 68, TrfField::FideId)?
            .filter(|&id| id > 0),
        federation: columns.text(54, 56),
        title: columns.text(11, 13),
        sex: Some(columns.at(10)).filter(|c| !c.is_whitespace()),
        birth: columns.text(70, 79),
    };
    let player = TrfPlayer {
        start_rank,
        points,
        rank: columns.number(86, 89, TrfField::Rank)?,
        line: columns.line,
    };
    let mut blocks = Vec::new();
    let mut column = FIRST_ROUND_COLUMN;
    while column <= columns.chars.len() {
        let round = blocks.len() + 1;
        if round > MAX_ROUNDS {
            return Err(columns.error(column, TrfErrorKind::TooManyRounds(round)));
        }
        blocks.push(read_block(columns, column, round)?);
        column += 10;
    }
    // Blank blocks at the end of a line are rounds not yet written, as a missing block is.
    while blocks.last().is_some_and(|b| {
        b.opponent.is_none()
            && b.colour.is_none()
            && b.outcome == Outcome::ZeroPointBye
            && columns.field(b.column, b.column + 7).trim().is_empty()
    }) {
        blocks.pop();
    }
    Ok(PlayerLine {
        entrant,
        player,
        blocks,
    })
}

fn read_block(columns: &Columns, column: usize, round: usize) -> Result<Block, TrfError> {
    let opponent: Option<u16> = columns
        .number(column, column + 3, TrfField::Opponent)?
        .filter(|&n| n > 0);
    let colour = match columns.at(column + 5) {
        'w' | 'W' => Some(Color::White),
        'b' | 'B' => Some(Color::Black),
        '-' | ' ' => None,
        other => return Err(columns.error(column + 5, TrfErrorKind::BadColour(other))),
    };
    let code = columns.at(column + 7);
    let outcome = match (Outcome::from_code(code), opponent) {
        (None, _) => return Err(columns.error(column + 7, TrfErrorKind::BadResult(code))),
        // A pairing written before its result: the round a pairing program has just paired.
        (Some(Outcome::ZeroPointBye), Some(_)) if code == ' ' => Outcome::Unfinished,
        (Some(outcome), _) => outcome,
    };
    if opponent.is_none() && outcome.is_played() {
        return Err(columns.error(column, TrfErrorKind::MissingOpponent { round }));
    }
    if let Some(opponent) = opponent
        && !outcome.has_opponent()
    {
        return Err(columns.error(column, TrfErrorKind::ByeWithOpponent { round, opponent }));
    }
    if opponent.is_some() && outcome.is_played() && colour.is_none() {
        return Err(columns.error(column + 5, TrfErrorKind::MissingColour { round }));
    }
    Ok(Block {
        opponent,
        colour: colour.filter(|_| opponent.is_some()),
        outcome,
        column,
    })
}

/// Whether `theirs` is what the opponent's line must say of a game this player's line calls `ours`.
fn answers(ours: Outcome, theirs: Outcome) -> bool {
    use Outcome::*;
    matches!(
        (ours, theirs),
        (Win, Loss)
            | (Loss, Win)
            | (Draw, Draw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
            | (UnratedWin, UnratedLoss)
            | (UnratedLoss, UnratedWin)
            | (UnratedDraw, UnratedDraw)
            | (Unfinished, Unfinished)
    )
}

fn build(
    mut lines: Vec<PlayerLine>,
    header: TrfHeader,
    text_len: usize,
) -> Result<TrfTournament, TrfError> {
    lines.sort_by_key(|l| l.player.start_rank);
    let index_of: HashMap<u16, usize> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.player.start_rank, i))
        .collect();
    let rounds = lines.iter().map(|l| l.blocks.len()).max().unwrap_or(0);
    // Every player gets a cell for every round: a file of short lines and one long one would ask for far
    // more cells than it writes. A file that writes its rounds has ten characters a cell.
    let cells = lines.len().saturating_mul(rounds);
    if cells > text_len / 8 + 4096
        && let Some(longest) = lines.iter().max_by_key(|l| l.blocks.len())
    {
        return Err(TrfError {
            line: longest.player.line,
            column: longest
                .blocks
                .last()
                .map_or(FIRST_ROUND_COLUMN, |b| b.column),
            kind: TrfErrorKind::TooFewRoundsWritten {
                players: lines.len(),
                rounds,
            },
        });
    }
    let mut table = CrossTable {
        entrants: Vec::with_capacity(lines.len()),
        rounds: Vec::with_capacity(lines.len()),
    };
    for line in &lines {
        let mut cells = vec![RoundCell::ABSENT; rounds];
        for (r, block) in line.blocks.iter().enumerate() {
            let opponent = match block.opponent {
                None => None,
                Some(start_rank) => {
                    let error = |kind| TrfError {
                        line: line.player.line,
                        column: block.column,
                        kind,
                    };
                    let Some(&index) = index_of.get(&start_rank) else {
                        return Err(error(TrfErrorKind::UnknownOpponent {
                            round: r + 1,
                            opponent: start_rank,
                        }));
                    };
                    if start_rank == line.player.start_rank {
                        return Err(error(TrfErrorKind::PairedWithSelf { round: r + 1 }));
                    }
                    let theirs = lines[index].blocks.get(r);
                    let agrees = theirs.is_some_and(|t| {
                        t.opponent == Some(line.player.start_rank)
                            && answers(block.outcome, t.outcome)
                            && (block.colour.is_none()
                                || t.colour.is_none()
                                || block.colour != t.colour)
                    });
                    if !agrees {
                        return Err(error(TrfErrorKind::PairingMismatch {
                            round: r + 1,
                            opponent: start_rank,
                        }));
                    }
                    Some(index)
                }
            };
            cells[r] = RoundCell {
                opponent,
                colour: block.colour,
                outcome: block.outcome,
            };
        }
        table.rounds.push(cells);
    }
    let players = lines.iter().map(|l| l.player).collect();
    table.entrants = lines.into_iter().map(|l| l.entrant).collect();
    Ok(TrfTournament {
        table,
        players,
        header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::fide_tiebreaks::{self, Kind, TiebreakCode};

    /// A `001` line: columns 1–91 from `identity` (start rank onwards, from column 5), then the rounds'
    /// blocks (`"   2 w 1"`: opponent, colour, result), ten columns apart.
    fn player(identity: &str, blocks: &[&str]) -> String {
        format!("001 {identity:<87}{}", blocks.join("  "))
    }

    /// Columns 5–89 of a `001` line: start rank, sex, title, name, rating, federation, FIDE number, birth,
    /// points, rank.
    #[allow(clippy::too_many_arguments)]
    fn identity(
        start: u16,
        sex: &str,
        title: &str,
        name: &str,
        rating: &str,
        federation: &str,
        id: &str,
        birth: &str,
        points: &str,
        rank: &str,
    ) -> String {
        format!(
            "{start:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {federation:<3} {id:>11} {birth:<10} {points:>4} {rank:>4}"
        )
    }

    /// A TRF-26 file of three players in two rounds, CRLF, with the header records the reader keeps.
    fn sample() -> String {
        [
            "012 Club Championship".to_string(),
            "062 3".into(),
            "092 Swiss Dutch".into(),
            "142 2".into(),
            "162  W 1.0    D 0.5    P 1.0".into(),
            "202 BH/C1,BH,SB".into(),
            player(
                &identity(
                    1,
                    "m",
                    "GM",
                    "Carlsen, Magnus",
                    "2830",
                    "NOR",
                    "1503014",
                    "1990/11/30",
                    "2.0",
                    "1",
                ),
                &["   3 w 1", "0000 - U"],
            ),
            player(
                &identity(
                    2,
                    "w",
                    "IM",
                    "Dupont, Marie",
                    "2400",
                    "FRA",
                    "123456",
                    "2001/02/03",
                    "0.5",
                    "3",
                ),
                &["0000 - H", "   3 b -"],
            ),
            player(
                &identity(3, "", "", "Newcomer, Nobody", "", "", "", "", "1.0", "2"),
                &["   1 b 0", "   2 w +"],
            ),
            String::new(),
        ]
        .join("\r\n")
    }

    #[test]
    fn reads_players_rounds_and_header() {
        let t = read_trf(&sample()).unwrap();
        assert_eq!(t.header.name.as_deref(), Some("Club Championship"));
        assert_eq!(t.header.players, Some(3));
        assert_eq!(t.header.rounds, Some(2));
        assert_eq!(t.header.tournament_type.as_deref(), Some("Swiss Dutch"));
        assert_eq!(t.header.tiebreaks.as_deref(), Some("BH/C1,BH,SB"));
        assert_eq!(
            t.header.points,
            [
                (PointsCode::Win, 100),
                (PointsCode::Draw, 50),
                (PointsCode::PairingAllocatedBye, 100)
            ]
        );
        let magnus = &t.table.entrants[0];
        assert_eq!(magnus.name, "Carlsen, Magnus");
        assert_eq!(magnus.title.as_deref(), Some("GM"));
        assert_eq!(magnus.sex, Some('m'));
        assert_eq!(magnus.rating, Some(2830));
        assert_eq!(magnus.federation.as_deref(), Some("NOR"));
        assert_eq!(magnus.fide_id, Some(1503014));
        assert_eq!(magnus.birth.as_deref(), Some("1990/11/30"));
        assert_eq!(t.table.entrants[2].rating, None);
        assert_eq!(t.table.entrants[2].title, None);
        assert_eq!(
            t.players[1],
            TrfPlayer {
                start_rank: 2,
                points: Some(50),
                rank: Some(3),
                line: 8
            }
        );
        assert_eq!(t.table.round_count(), 2);
        let cell = |p: usize, r: usize| t.table.rounds[p][r];
        assert_eq!(
            cell(0, 0),
            RoundCell {
                opponent: Some(2),
                colour: Some(Color::White),
                outcome: Outcome::Win
            }
        );
        assert_eq!(cell(0, 1).outcome, Outcome::PairingAllocatedBye);
        assert_eq!(cell(0, 1).opponent, None);
        assert_eq!(cell(1, 0).outcome, Outcome::HalfPointBye);
        assert_eq!(cell(1, 1).outcome, Outcome::ForfeitLoss);
        assert_eq!(cell(2, 1).outcome, Outcome::ForfeitWin);
        assert_eq!(cell(2, 1).opponent, Some(1));
        // The same file with CR or LF alone reads the same.
        for end in ["\r", "\n"] {
            assert_eq!(read_trf(&sample().replace("\r\n", end)).unwrap(), t);
        }
    }

    #[test]
    fn a_pairing_without_a_result_is_unfinished_and_blank_blocks_are_absences() {
        let plain = |n| identity(n, "", "", "X", "", "", "", "", "0.0", "");
        let text = [
            player(&plain(1), &["   2 w 1", "   3 b  "]),
            player(&plain(2), &["   1 b 0", "        "]),
            player(&plain(3), &["        ", "   1 w  "]),
        ]
        .join("\n");
        let text = text.as_str();
        let t = read_trf(text).unwrap();
        assert_eq!(t.table.rounds[0][1].outcome, Outcome::Unfinished);
        assert_eq!(t.table.rounds[0][1].opponent, Some(2));
        assert_eq!(t.table.rounds[2][1].outcome, Outcome::Unfinished);
        // Player 2's second block is blank, player 3's first: absences.
        assert_eq!(t.table.rounds[1][1], RoundCell::ABSENT);
        assert_eq!(t.table.rounds[2][0], RoundCell::ABSENT);
        assert_eq!(t.header, TrfHeader::default());
    }

    fn error_of(text: &str) -> TrfError {
        read_trf(text).unwrap_err()
    }

    #[test]
    fn errors_say_their_line_and_column() {
        let plain = |n| identity(n, "", "", "X", "", "", "", "", "0.0", "");
        let line1 = player(&plain(1), &["   2 w 1"]);
        let line2 = player(&plain(2), &["   1 b 0"]);
        let with = |second: &str| format!("012 T\n{line1}\n{second}\n");
        let e = error_of(&with(&line2.replace("b 0", "b ?")));
        assert_eq!(
            (e.line, e.column, e.kind.clone()),
            (3, 99, TrfErrorKind::BadResult('?'))
        );
        let e = error_of(&with(&line2.replace("b 0", "x 0")));
        assert_eq!(
            (e.line, e.column, e.kind.clone()),
            (3, 97, TrfErrorKind::BadColour('x'))
        );
        let e = error_of(&with(&line2.replace("b 0", "b 1")));
        assert_eq!(
            (e.line, e.column, e.kind.clone()),
            (
                2,
                92,
                TrfErrorKind::PairingMismatch {
                    round: 1,
                    opponent: 2
                }
            )
        );
        let e = error_of(&format!("{}\n{line2}\n", line1.replace("   2 w", "   7 w")));
        assert_eq!(
            (e.line, e.column, e.kind.clone()),
            (
                1,
                92,
                TrfErrorKind::UnknownOpponent {
                    round: 1,
                    opponent: 7
                }
            )
        );
        let e = error_of(&with(&line2.replace("001    2", "001    1")));
        assert_eq!(
            (e.line, e.column, e.kind.clone()),
            (
                3,
                5,
                TrfErrorKind::DuplicateStartRank {
                    start_rank: 1,
                    first_line: 2
                }
            )
        );
        let e = error_of(&with(&line2.replace(" 0.0", " 0.x")));
        assert_eq!((e.line, e.column), (3, 81));
        assert!(matches!(
            e.kind,
            TrfErrorKind::NotANumber {
                field: TrfField::Points,
                ..
            }
        ));
        let e = error_of(&format!("XXR 5000\n{line1}\n{line2}\n"));
        assert_eq!(
            (e.line, e.kind.clone()),
            (1, TrfErrorKind::TooManyRounds(5000))
        );
        let e = error_of("162  W 1.0    Q 2.0\n");
        assert_eq!((e.line, e.column), (1, 15));
        let e = error_of(&format!(
            "{line1}\n{}\n",
            line2.replace("   1 b 0", "0000 - 0")
        ));
        assert_eq!(e.kind, TrfErrorKind::MissingOpponent { round: 1 });
        let e = error_of(&format!("{}\n", line1.replace("   2 w 1", "   2 w H")));
        assert_eq!(
            e.kind,
            TrfErrorKind::ByeWithOpponent {
                round: 1,
                opponent: 2
            }
        );
        let e = error_of(&format!("{}\n", line1.replace("   2 w 1", "   1 w 1")));
        assert_eq!(e.kind, TrfErrorKind::PairedWithSelf { round: 1 });
        assert_eq!(
            e.to_string(),
            "TRF line 1, column 92: round 1: the player is paired with themself"
        );
        assert_eq!(
            e.explain(Locale::Fr),
            "TRF ligne 1, colonne 92 : ronde 1 : le joueur est apparié avec lui-même"
        );
    }

    #[test]
    fn a_file_of_short_lines_and_one_long_one_is_refused_before_the_table_is_made() {
        let plain = |n| identity(n, "", "", "X", "", "", "", "", "0.0", "");
        let mut lines: Vec<String> = (2..=9999).map(|n| player(&plain(n), &[])).collect();
        lines.insert(0, player(&plain(1), &["0000 - Z"; MAX_ROUNDS]));
        let text = lines.join("\n");
        let e = read_trf(&text).unwrap_err();
        assert_eq!(
            (e.line, e.column),
            (1, FIRST_ROUND_COLUMN + 10 * (MAX_ROUNDS - 1))
        );
        assert_eq!(
            e.kind,
            TrfErrorKind::TooFewRoundsWritten {
                players: 9999,
                rounds: MAX_ROUNDS
            }
        );
        // Every round written: read.
        let full: Vec<String> = (1..=40)
            .map(|n| player(&plain(n), &["0000 - Z"; 40]))
            .collect();
        assert_eq!(read_trf(&full.join("\n")).unwrap().table.round_count(), 40);
    }

    #[test]
    fn decimals_in_hundredths() {
        assert_eq!(hundredths("11.5"), Some(1150));
        assert_eq!(hundredths(" 3,25 "), Some(325));
        assert_eq!(hundredths("4"), Some(400));
        assert_eq!(hundredths("-1.5"), Some(-150));
        assert_eq!(hundredths(".5"), Some(50));
        for bad in ["", ".", "1.234", "x", "1.5.", "99999999999999"] {
            assert_eq!(hundredths(bad), None, "{bad}");
        }
    }

    /// Every fixture cut at every place and with characters replaced: an error or a table, never a panic;
    /// and the tie-breaks of every table read.
    #[test]
    fn truncated_and_mutated_files_never_panic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/trf");
        let codes: Vec<TiebreakCode> = Kind::ALL
            .into_iter()
            .map(|k| {
                if k.takes_cuts() {
                    TiebreakCode {
                        kind: k,
                        cut_low: 2,
                        cut_high: 1,
                    }
                } else {
                    TiebreakCode::plain(k)
                }
            })
            .collect();
        let mut read = 0;
        for name in ["rr-8.trf", "swiss-12x5.trf", "swiss-25x7.trf"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let ends: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(5).collect();
            let mut variants: Vec<String> = ends.iter().map(|&i| text[..i].to_string()).collect();
            for (n, &i) in ends.iter().enumerate() {
                let c = ['1', '0', '+', 'w', ' ', '9', 'é', '\r'][n % 8];
                let mut v = text.clone();
                let end = i + text[i..].chars().next().map_or(0, char::len_utf8);
                v.replace_range(i..end, &c.to_string());
                variants.push(v);
            }
            for v in variants {
                if let Ok(t) = read_trf(&v) {
                    read += 1;
                    for kind in [
                        fide_tiebreaks::TournamentKind::Swiss,
                        fide_tiebreaks::TournamentKind::RoundRobin,
                    ] {
                        let values = fide_tiebreaks::values(&t.table, kind, &codes);
                        assert_eq!(values.len(), t.table.entrants.len());
                    }
                }
            }
        }
        assert!(read > 100, "{read} variants read");
    }
}
