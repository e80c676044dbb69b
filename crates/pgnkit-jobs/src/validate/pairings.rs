//! The cross-check of a tournament's games against its pairing program's report (`--pairings FILE.trf`, on
//! `validate` and `standings`): every game of the PGN is a pairing of the TRF (same round, same colours, same
//! result), every pairing the TRF says was played has its game, byes and forfeits agree, and every player is
//! known on both sides.
//!
//! The PGN side is a neutral list, one [`PgnGame`] a game, built from what the games' tags say
//! ([`GameEntry`]), whether the game has moves and where it is. What a PGN game is in the TRF's terms (a game
//! played, a forfeit, a bye) is decided in one place, [`pgn_outcome`].
//!
//! Players are matched FIDE id first, else by name ([`name_key`]): a PGN player whose FIDE id no TRF player
//! has is matched by name only to a TRF player without a FIDE id.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use pgnkit::Color;

use super::kind::ProblemKind;
use pgnkit::pgn::{Game, decode, detect_encoding};

use crate::localized;
use crate::messages::{Explain, JobReason, Locale};
use crate::options::{AllocatedBye, UnplayedRules};
use crate::tournament::GameEntry;
use crate::tournament::crosstable::{Outcome, PairingKind, RoundCell};
use crate::tournament::trf_read::{TrfError, TrfTournament, read_trf};
use crate::tournament::unplayed::{Reading, names_a_bye};

/// A pairing program's report of a tournament, read, with its players indexed for matching.
#[derive(Debug)]
pub struct Pairings {
    /// The file's name, as the findings show it.
    file: Arc<str>,
    trf: TrfTournament,
    /// FIDE id → the player's index in the table.
    by_id: HashMap<u64, usize>,
    /// [`name_key`] → the player's index, `None` when two players share it (then it matches neither).
    by_name: HashMap<String, Option<usize>>,
}

/// A TRF that cannot be read: its file and the located error.
#[derive(Clone, Debug)]
struct PairingsError {
    file: String,
    error: TrfError,
}

impl Explain for PairingsError {
    fn explain(&self, locale: Locale) -> String {
        format!("{}: {}", self.file, self.error.explain(locale))
    }
}

impl fmt::Display for PairingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for PairingsError {}

impl Pairings {
    /// The TRF (TRF-16 or TRF-26) of the file called `file`, whose bytes are `bytes` (UTF-8, else read as
    /// Windows-1252), or where it cannot be read (the file, the line and the column).
    pub fn read(file: &str, bytes: &[u8]) -> Result<Pairings, Box<dyn JobReason>> {
        let text = decode(bytes, detect_encoding(bytes));
        let trf = read_trf(&text).map_err(|error| {
            Box::new(PairingsError {
                file: file.to_owned(),
                error,
            }) as Box<dyn JobReason>
        })?;
        let mut by_id = HashMap::new();
        let mut by_name: HashMap<String, Option<usize>> = HashMap::new();
        for (index, entrant) in trf.table.entrants.iter().enumerate() {
            if let Some(id) = entrant.fide_id {
                by_id.entry(id).or_insert(index);
            }
            by_name
                .entry(name_key(&entrant.name))
                .and_modify(|found| *found = None)
                .or_insert(Some(index));
        }
        Ok(Pairings {
            file: file.into(),
            trf,
            by_id,
            by_name,
        })
    }

    /// The TRF player a PGN side names, if any: by FIDE id, else by name when the ids do not differ.
    fn player(&self, side: &PgnSide) -> Option<usize> {
        if let Some(index) = side.fide_id.and_then(|id| self.by_id.get(&id)) {
            return Some(*index);
        }
        let index = (*self.by_name.get(&name_key(&side.name))?)?;
        let theirs = self.trf.table.entrants[index].fide_id;
        match (side.fide_id, theirs) {
            (Some(ours), Some(theirs)) if ours != theirs => None,
            _ => Some(index),
        }
    }

    fn name(&self, player: usize) -> &str {
        &self.trf.table.entrants[player].name
    }

    /// Where the player's `001` record is.
    fn at(&self, player: usize) -> TrfLine {
        TrfLine {
            file: self.file.clone(),
            line: self.trf.players[player].line,
        }
    }

    /// The player's cell of `round` (from 1); a round the table does not hold is an absence.
    fn cell(&self, player: usize, round: u32) -> RoundCell {
        let index = round as usize - 1;
        self.trf.table.rounds[player]
            .get(index)
            .copied()
            .unwrap_or(RoundCell::ABSENT)
    }
}

/// A name as players are matched by it: lower case, accents taken off the Latin letters that carry them,
/// commas and dots read as spaces, the words in alphabetical order ("Carlsen, Magnus", "carlsen magnus" and
/// "Magnus Carlsen" are one key).
pub(crate) fn name_key(name: &str) -> String {
    let mut plain = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        match c {
            ',' | '.' => plain.push(' '),
            'ß' => plain.push_str("ss"),
            'æ' => plain.push_str("ae"),
            'œ' => plain.push_str("oe"),
            c => plain.push(base_letter(c)),
        }
    }
    let mut words: Vec<&str> = plain.split_whitespace().collect();
    words.sort_unstable();
    words.join(" ")
}

/// The letter without its accent, for the accented Latin letters of European names.
fn base_letter(c: char) -> char {
    const FOLDS: [(&str, char); 16] = [
        ("àáâãäåāăą", 'a'),
        ("çćĉċč", 'c'),
        ("ďđ", 'd'),
        ("èéêëēĕėęě", 'e'),
        ("ĝğġģ", 'g'),
        ("ìíîïĩīĭįı", 'i'),
        ("ķ", 'k'),
        ("ĺļľŀł", 'l'),
        ("ñńņňŉ", 'n'),
        ("òóôõöøōŏő", 'o'),
        ("ŕŗř", 'r'),
        ("śŝşšș", 's'),
        ("ţťŧț", 't'),
        ("ùúûüũūŭůűų", 'u'),
        ("ýÿŷ", 'y'),
        ("źżž", 'z'),
    ];
    FOLDS
        .iter()
        .find(|(accented, _)| accented.contains(c))
        .map_or(c, |&(_, base)| base)
}

/// One side of a PGN game: the name as its tag gives it, and the FIDE id when a tag gives one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PgnSide {
    pub(crate) name: String,
    pub(crate) fide_id: Option<u64>,
}

impl PgnSide {
    /// Whether the side is the bye of the other player: a name the tournament model reads as a bye
    /// ([`names_a_bye`]), or empty.
    fn is_bye(&self) -> bool {
        self.name.trim().is_empty() || names_a_bye(&self.name)
    }
}

/// What the PGN says of one game, as the cross-check reads it.
#[derive(Clone, Debug)]
pub(crate) struct PgnGame {
    /// The file, and the game's number in it (from 1).
    pub(crate) file: Arc<str>,
    pub(crate) game: u64,
    /// The line of its first tag.
    pub(crate) line: u64,
    /// The number before the dot of its Round tag (from 1).
    pub(crate) round: Option<u32>,
    pub(crate) white: PgnSide,
    pub(crate) black: PgnSide,
    /// White's score in half points; `None` unfinished or without a result.
    pub(crate) white_half_points: Option<u8>,
    /// What the game is for the tournament (played, forfeit, bye...), as the tournament model reads it under
    /// the run's rules.
    pub(crate) reading: Reading,
    /// Whether a full-point bye is the pairing-allocated one (the run's `--allocated-bye`).
    pub(crate) allocated_bye: bool,
}

impl PgnGame {
    /// A game of `file` as the cross-check reads it; `None` for a game of no tournament (its Event says
    /// nothing).
    pub(crate) fn of_game(
        game: &Game<'_>,
        file: &Arc<str>,
        rules: UnplayedRules,
    ) -> Option<PgnGame> {
        let entry = GameEntry::of(game)?;
        let at = (file, game.index + 1, game.first_line());
        Some(PgnGame::of(&entry, at, rules))
    }

    /// The game `game` of `file`, starting on `line`, as its tournament entry reads it.
    pub(crate) fn of(
        entry: &GameEntry,
        (file, game, line): (&Arc<str>, u64, u64),
        rules: UnplayedRules,
    ) -> PgnGame {
        let side = |p: &crate::tournament::PlayerInfo| PgnSide {
            name: p.name.clone(),
            fide_id: p.fide_id,
        };
        PgnGame {
            file: file.clone(),
            game,
            line,
            round: entry.round,
            white: side(&entry.white),
            black: side(&entry.black),
            white_half_points: entry.white_half_points,
            reading: entry.facts.reading(entry.white_half_points, rules.moveless),
            allocated_bye: rules.allocated_bye != AllocatedBye::None,
        }
    }
}

/// What a PGN game is in the TRF's terms, for White and for Black, as the tournament model reads it
/// ([`crate::tournament::unplayed::GameFacts::reading`]: forfeits, double forfeits, games of less than a move and byes under the run's
/// `--moveless` and `--allocated-bye`), so the cross-check and the standings never disagree on a game.
pub(crate) fn pgn_outcome(game: &PgnGame) -> (Outcome, Outcome) {
    let white = game.white_half_points;
    let black = white.map(|hp| 2 - hp.min(2));
    match game.reading {
        Reading::Bye { player } => {
            let points = if player == Color::White { white } else { black };
            let bye = Outcome::of_bye(points.unwrap_or(0), game.allocated_bye);
            match player {
                Color::White => (bye, Outcome::ZeroPointBye),
                Color::Black => (Outcome::ZeroPointBye, bye),
            }
        }
        Reading::DoubleForfeit => (Outcome::ForfeitLoss, Outcome::ForfeitLoss),
        reading => {
            let kind = match reading {
                Reading::Forfeit => PairingKind::Forfeit,
                Reading::Unrated => PairingKind::Unrated,
                _ => PairingKind::Played,
            };
            (
                Outcome::of_pairing(kind, white),
                Outcome::of_pairing(kind, black),
            )
        }
    }
}

/// Whether a PGN outcome and a TRF one say the same: the same points, and both played (rated or not), both
/// forfeits, both unfinished, or both byes.
fn agree(pgn: Outcome, trf: Outcome) -> bool {
    let class = |o: Outcome| match o {
        _ if o.is_played() => 0,
        Outcome::ForfeitWin | Outcome::ForfeitLoss => 1,
        Outcome::Unfinished => 2,
        _ => 3,
    };
    pgn.half_points() == trf.half_points() && class(pgn) == class(trf)
}

/// Where a TRF record is: `tournament.trf:14`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrfLine {
    pub(crate) file: Arc<str>,
    pub(crate) line: usize,
}

impl fmt::Display for TrfLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// What the TRF gives a player in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TrfRound {
    /// A pairing with this opponent.
    Opponent(String),
    /// No opponent: a bye or an absence, with its code.
    Alone(Outcome),
}

/// A difference between the PGN and the TRF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PairingFinding {
    /// A player of a game whom the TRF does not know (said at the first game naming them).
    UnknownPlayer { player: String, trf: Arc<str> },
    /// A game without a round number: the TRF's pairings cannot hold it.
    NoRound { trf: Arc<str> },
    /// The game (`black` empty: a bye of `white`) is no pairing of its round in the TRF: what the TRF gives
    /// each player instead (Black's `None` for a bye), and the round the TRF pairs the two in, if any.
    NotInTrf {
        round: u32,
        white: String,
        black: String,
        at: TrfLine,
        white_has: TrfRound,
        black_has: Option<TrfRound>,
        paired_in: Option<u32>,
    },
    /// The TRF pairs the two the other way round.
    Colours {
        round: u32,
        white: String,
        black: String,
        at: TrfLine,
    },
    /// The same pairing (`black` empty: the same bye), another result: White's outcome in each.
    Result {
        round: u32,
        white: String,
        black: String,
        pgn: Outcome,
        trf: Outcome,
        at: TrfLine,
    },
    /// A pairing the TRF says was played, with no game in the PGN.
    WithoutGame {
        round: u32,
        white: String,
        black: String,
        outcome: Outcome,
        at: TrfLine,
    },
    /// A player of the TRF that no game names.
    PlayerWithoutGames {
        player: String,
        start_rank: u16,
        at: TrfLine,
    },
}

impl PairingFinding {
    /// Its kind (`kind` in JSON).
    pub(crate) fn kind(&self) -> ProblemKind {
        use ProblemKind as K;
        match self {
            PairingFinding::UnknownPlayer { .. } => K::PairingUnknownPlayer,
            PairingFinding::NoRound { .. } | PairingFinding::NotInTrf { .. } => K::PairingNotInTrf,
            PairingFinding::Colours { .. } => K::PairingColours,
            PairingFinding::Result { .. } => K::PairingResult,
            PairingFinding::WithoutGame { .. } => K::PairingWithoutGame,
            PairingFinding::PlayerWithoutGames { .. } => K::PairingPlayerWithoutGames,
        }
    }
}

/// A result of White's outcome in words: `1-0`, `0-1 by forfeit (-/+)`...
fn result_words(white: Outcome, locale: Locale) -> String {
    let (en, fr) = match white {
        Outcome::Win => ("1-0", "1-0"),
        Outcome::Draw => ("1/2-1/2", "1/2-1/2"),
        Outcome::Loss => ("0-1", "0-1"),
        Outcome::ForfeitWin => ("1-0 by forfeit (+/-)", "1-0 par forfait (+/-)"),
        Outcome::ForfeitLoss => ("0-1 by forfeit (-/+)", "0-1 par forfait (-/+)"),
        Outcome::UnratedWin => (
            "1-0 in less than one move (W)",
            "1-0 en moins d'un coup (W)",
        ),
        Outcome::UnratedDraw => (
            "1/2-1/2 in less than one move (D)",
            "1/2-1/2 en moins d'un coup (D)",
        ),
        Outcome::UnratedLoss => (
            "0-1 in less than one move (L)",
            "0-1 en moins d'un coup (L)",
        ),
        Outcome::Unfinished => ("without a result (*)", "sans résultat (*)"),
        bye => return bye_words(bye, locale),
    };
    match locale {
        Locale::En => en.to_owned(),
        Locale::Fr => fr.to_owned(),
    }
}

/// A round without an opponent in words, with its TRF code.
fn bye_words(outcome: Outcome, locale: Locale) -> String {
    let code = outcome.code().unwrap_or(' ');
    match outcome {
        Outcome::FullPointBye | Outcome::PairingAllocatedBye | Outcome::ForfeitWin => localized!(
            locale,
            "a full-point bye ({code})",
            "une exemption à un point ({code})"
        ),
        Outcome::HalfPointBye => localized!(
            locale,
            "a half-point bye ({code})",
            "une exemption à un demi-point ({code})"
        ),
        _ => localized!(
            locale,
            "no game, no point ({code})",
            "ni partie ni point ({code})"
        ),
    }
}

impl Explain for TrfRound {
    fn explain(&self, locale: Locale) -> String {
        match self {
            TrfRound::Opponent(name) => localized!(locale, "meets {name}", "rencontre {name}"),
            TrfRound::Alone(outcome) => {
                localized!(locale, "has {}", "a {}", bye_words(*outcome, locale))
            }
        }
    }
}

impl Explain for PairingFinding {
    fn explain(&self, locale: Locale) -> String {
        match self {
            PairingFinding::UnknownPlayer { player, trf } => localized!(
                locale,
                "{player} is no player of {trf}: no record there has this FIDE id or name",
                "{player} n'est pas un joueur de {trf} : aucun enregistrement n'y a cet identifiant FIDE ni ce nom"
            ),
            PairingFinding::NoRound { trf } => localized!(
                locale,
                "the game has no round number: it is none of the pairings of {trf}",
                "la partie n'a pas de numéro de ronde : elle n'est aucun des appariements de {trf}"
            ),
            PairingFinding::NotInTrf {
                round,
                white,
                black,
                at,
                white_has,
                black_has,
                paired_in,
            } => {
                let mut text = match black_has {
                    None => localized!(
                        locale,
                        "round {round}: a bye of {white} here, but in {at} {white} {}",
                        "ronde {round} : une exemption de {white} ici, mais dans {at} {white} {}",
                        white_has.explain(locale)
                    ),
                    Some(black_has) => localized!(
                        locale,
                        "round {round}: {at} does not pair {white} with {black} ({white} {}; {black} {})",
                        "ronde {round} : {at} n'apparie pas {white} avec {black} ({white} {} ; {black} {})",
                        white_has.explain(locale),
                        black_has.explain(locale)
                    ),
                };
                if let Some(other) = paired_in {
                    text.push_str(&localized!(
                        locale,
                        "; it pairs them in round {other}",
                        " ; il les apparie à la ronde {other}"
                    ));
                }
                text
            }
            PairingFinding::Colours {
                round,
                white,
                black,
                at,
            } => localized!(
                locale,
                "round {round}: {at} gives White to {black}, not to {white}",
                "ronde {round} : {at} donne les Blancs à {black}, pas à {white}"
            ),
            PairingFinding::Result {
                round,
                white,
                black,
                pgn,
                trf,
                at,
            } => {
                let (pgn, trf) = (result_words(*pgn, locale), result_words(*trf, locale));
                if black.is_empty() {
                    localized!(
                        locale,
                        "round {round}: {white} has {pgn} here, but {trf} in {at}",
                        "ronde {round} : {white} a {pgn} ici, mais {trf} dans {at}"
                    )
                } else {
                    localized!(
                        locale,
                        "round {round}: {white} – {black} is {pgn} here, but {trf} in {at}",
                        "ronde {round} : {white} – {black} est {pgn} ici, mais {trf} dans {at}"
                    )
                }
            }
            PairingFinding::WithoutGame {
                round,
                white,
                black,
                outcome,
                at,
            } => localized!(
                locale,
                "round {round}: {at} has {white} – {black} {}, but no game of the PGN is this pairing",
                "ronde {round} : {at} a {white} – {black} {}, mais aucune partie du PGN n'est cet appariement",
                result_words(*outcome, locale)
            ),
            PairingFinding::PlayerWithoutGames {
                player,
                start_rank,
                at,
            } => localized!(
                locale,
                "{player} (start rank {start_rank}, {at}) is named by no game of the PGN",
                "{player} (numéro de départ {start_rank}, {at}) n'est nommé par aucune partie du PGN"
            ),
        }
    }
}

/// The cross-check as the games come, in input order: what each game says is compared at once, what the TRF
/// says and no game answers once they have all come ([`PairingCheck::finish`]).
#[derive(Debug)]
pub(crate) struct PairingCheck {
    pairings: Arc<Pairings>,
    /// For each TRF player and round, whether a game of the PGN answered the cell.
    answered: Vec<Vec<bool>>,
    /// For each TRF player, whether a game names them.
    named: Vec<bool>,
    /// The [`name_key`]s of the PGN players already said to be unknown.
    unknown_said: HashSet<String>,
}

impl PairingCheck {
    pub(crate) fn new(pairings: Arc<Pairings>) -> PairingCheck {
        let table = &pairings.trf.table;
        PairingCheck {
            answered: table.rounds.iter().map(|r| vec![false; r.len()]).collect(),
            named: vec![false; table.entrants.len()],
            unknown_said: HashSet::new(),
            pairings,
        }
    }

    /// The differences a game shows, located at the game.
    pub(crate) fn check(&mut self, game: &PgnGame) -> Vec<PairingFinding> {
        let mut findings = Vec::new();
        let sides = [&game.white, &game.black];
        let mut players = [None, None];
        let mut unknown = false;
        for (slot, side) in players.iter_mut().zip(sides) {
            if side.is_bye() {
                continue;
            }
            match self.pairings.player(side) {
                Some(index) => {
                    self.named[index] = true;
                    *slot = Some(index);
                }
                None => {
                    unknown = true;
                    if self.unknown_said.insert(name_key(&side.name)) {
                        findings.push(PairingFinding::UnknownPlayer {
                            player: side.name.trim().to_owned(),
                            trf: self.pairings.file.clone(),
                        });
                    }
                }
            }
        }
        if unknown || players == [None, None] {
            return findings;
        }
        let Some(round) = game.round else {
            findings.push(PairingFinding::NoRound {
                trf: self.pairings.file.clone(),
            });
            return findings;
        };
        let (white_outcome, black_outcome) = pgn_outcome(game);
        findings.extend(match players {
            [Some(white), Some(black)] => self.pairing(round, white, black, white_outcome),
            [Some(alone), None] => self.bye(round, alone, white_outcome),
            [None, Some(alone)] => self.bye(round, alone, black_outcome),
            [None, None] => None,
        });
        findings
    }

    /// A game of `white` against `black` in `round`, whose result for White is `pgn`.
    fn pairing(
        &mut self,
        round: u32,
        white: usize,
        black: usize,
        pgn: Outcome,
    ) -> Option<PairingFinding> {
        let p = &self.pairings;
        let cell = p.cell(white, round);
        let (white_name, black_name) = (p.name(white).to_owned(), p.name(black).to_owned());
        if cell.opponent != Some(black) {
            let has = |player: usize| {
                let cell = p.cell(player, round);
                match cell.opponent {
                    Some(o) => TrfRound::Opponent(p.name(o).to_owned()),
                    None => TrfRound::Alone(cell.outcome),
                }
            };
            let paired_in = (1..=p.trf.table.round_count() as u32)
                .find(|&r| p.cell(white, r).opponent == Some(black));
            return Some(PairingFinding::NotInTrf {
                round,
                white: white_name,
                black: black_name,
                at: p.at(white),
                white_has: has(white),
                black_has: Some(has(black)),
                paired_in,
            });
        }
        let index = round as usize - 1;
        self.answered[white][index] = true;
        self.answered[black][index] = true;
        if cell.colour == Some(Color::Black) {
            return Some(PairingFinding::Colours {
                round,
                white: white_name,
                black: black_name,
                at: p.at(black),
            });
        }
        (!agree(pgn, cell.outcome)).then(|| PairingFinding::Result {
            round,
            white: white_name,
            black: black_name,
            pgn,
            trf: cell.outcome,
            at: p.at(white),
        })
    }

    /// A bye of `player` in `round`, worth `pgn` to them.
    fn bye(&mut self, round: u32, player: usize, pgn: Outcome) -> Option<PairingFinding> {
        let p = &self.pairings;
        let cell = p.cell(player, round);
        let name = p.name(player).to_owned();
        if let Some(opponent) = cell.opponent {
            return Some(PairingFinding::NotInTrf {
                round,
                white: name,
                black: String::new(),
                at: p.at(player),
                white_has: TrfRound::Opponent(p.name(opponent).to_owned()),
                black_has: None,
                paired_in: None,
            });
        }
        if let Some(answered) = self.answered[player].get_mut(round as usize - 1) {
            *answered = true;
        }
        (pgn.half_points() != cell.outcome.half_points()).then(|| PairingFinding::Result {
            round,
            white: name,
            black: String::new(),
            pgn,
            trf: cell.outcome,
            at: p.at(player),
        })
    }

    /// What the TRF says and no game answered, once every game has come: each pairing played (over the
    /// board or not: forfeits and byes need no game) without its game, between players some game names; each
    /// player no game names. Each with the line of the TRF it is at.
    pub(crate) fn finish(&self) -> Vec<(usize, PairingFinding)> {
        let p = &self.pairings;
        let mut findings = Vec::new();
        for (player, rounds) in p.trf.table.rounds.iter().enumerate() {
            for (index, cell) in rounds.iter().enumerate() {
                let Some(opponent) = cell.opponent else {
                    continue;
                };
                // Each pairing once, from White's record (the lower start rank when no colour is written).
                let white_side = match cell.colour {
                    Some(colour) => colour == Color::White,
                    None => player < opponent,
                };
                if !white_side
                    || !cell.outcome.is_played()
                    || self.answered[player][index]
                    || !self.named[player]
                    || !self.named[opponent]
                {
                    continue;
                }
                findings.push(PairingFinding::WithoutGame {
                    round: index as u32 + 1,
                    white: p.name(player).to_owned(),
                    black: p.name(opponent).to_owned(),
                    outcome: cell.outcome,
                    at: p.at(player),
                });
            }
        }
        for (player, named) in self.named.iter().enumerate() {
            if !named {
                findings.push(PairingFinding::PlayerWithoutGames {
                    player: p.name(player).to_owned(),
                    start_rank: p.trf.players[player].start_rank,
                    at: p.at(player),
                });
            }
        }
        findings
            .into_iter()
            .map(|finding| match &finding {
                PairingFinding::WithoutGame { at, .. }
                | PairingFinding::PlayerWithoutGames { at, .. } => (at.line, finding),
                _ => (0, finding),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::unplayed::GameFacts;

    fn game(white: &str, black: &str, white_half_points: Option<u8>, has_moves: bool) -> PgnGame {
        let side = |name: &str| PgnSide {
            name: name.into(),
            fide_id: None,
        };
        let result = match white_half_points {
            Some(2) => "1-0",
            Some(1) => "1/2-1/2",
            Some(_) => "0-1",
            None => "*",
        };
        let facts = GameFacts::of(
            Some(white),
            Some(black),
            Some(result),
            None,
            has_moves,
            white_half_points.is_some(),
        );
        PgnGame {
            file: "r.pgn".into(),
            game: 1,
            line: 1,
            round: Some(1),
            white: side(white),
            black: side(black),
            white_half_points,
            reading: facts.reading(white_half_points, UnplayedRules::default().moveless),
            allocated_bye: false,
        }
    }

    #[test]
    fn names_match_without_case_accents_commas_or_word_order() {
        let key = name_key("Arnaud, Élodie");
        for same in [
            "arnaud elodie",
            "Elodie  Arnaud",
            "ARNAUD,ÉLODIE",
            "Arnaud. Elodie",
        ] {
            assert_eq!(name_key(same), key, "{same}");
        }
        assert_eq!(name_key("Weiß, Łukasz"), name_key("Weiss Lukasz"));
        assert_ne!(name_key("Arnaud, Eloise"), key);
        assert_ne!(name_key("So, W"), name_key("So, Wesley"));
    }

    #[test]
    fn a_pgn_game_is_a_game_a_forfeit_or_a_bye() {
        use Outcome::*;
        let cases = [
            (game("A", "B", Some(2), true), (Win, Loss)),
            (game("A", "B", Some(1), true), (Draw, Draw)),
            (game("A", "B", Some(0), false), (ForfeitLoss, ForfeitWin)),
            (game("A", "B", Some(2), false), (ForfeitWin, ForfeitLoss)),
            (game("A", "B", None, true), (Unfinished, Unfinished)),
            (
                game("A", "BYE", Some(2), false),
                (FullPointBye, ZeroPointBye),
            ),
            (
                game("bye", "B", Some(1), false),
                (ZeroPointBye, HalfPointBye),
            ),
            (game("A", " ", Some(0), false), (ZeroPointBye, ZeroPointBye)),
        ];
        for (game, expected) in cases {
            assert_eq!(pgn_outcome(&game), expected, "{game:?}");
        }
        // A forfeit is no game played, whatever its points; a bye agrees with F, U or + alike.
        assert!(!agree(ForfeitWin, Win) && !agree(Win, ForfeitWin));
        assert!(agree(Win, UnratedWin) && agree(Draw, Draw));
        assert!(agree(FullPointBye, PairingAllocatedBye));
        assert!(!agree(HalfPointBye, ZeroPointBye));
    }

    #[test]
    fn every_pairing_finding_has_words_in_both_languages() {
        let at = TrfLine {
            file: "t.trf".into(),
            line: 12,
        };
        let findings = [
            PairingFinding::UnknownPlayer {
                player: "Ann".into(),
                trf: "t.trf".into(),
            },
            PairingFinding::NoRound {
                trf: "t.trf".into(),
            },
            PairingFinding::NotInTrf {
                round: 2,
                white: "Ann".into(),
                black: String::new(),
                at: at.clone(),
                white_has: TrfRound::Opponent("Bob".into()),
                black_has: None,
                paired_in: None,
            },
            PairingFinding::Colours {
                round: 2,
                white: "Ann".into(),
                black: "Bob".into(),
                at: at.clone(),
            },
            PairingFinding::WithoutGame {
                round: 2,
                white: "Ann".into(),
                black: "Bob".into(),
                outcome: Outcome::UnratedDraw,
                at: at.clone(),
            },
            PairingFinding::PlayerWithoutGames {
                player: "Ann".into(),
                start_rank: 3,
                at,
            },
        ];
        for finding in findings {
            let (en, fr) = (finding.explain(Locale::En), finding.explain(Locale::Fr));
            assert!(en != fr && !fr.is_empty(), "{en} / {fr}");
            assert_eq!(finding.kind().severity(), super::super::Severity::Error);
        }
    }
}
