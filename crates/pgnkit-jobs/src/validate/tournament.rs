//! Checks across the games of a run, over all its inputs: duplicate games, a player in two games of one
//! round, and each tournament's round numbers. Runs on the thread that emits results in order, so "earlier
//! game" means earlier in the run (an earlier file, or earlier in the same file).
//!
//! The tournament, its rounds, its players and what is the same game are [`crate::tournament`]'s: a tournament
//! is its `crate::tournament::TournamentKey` (Event, Site and the year of EventDate, else of Date), so a
//! tournament kept as one file per round is checked across its rounds, and a file of one event over many
//! years ("Dortmund" since 1928) is as many tournaments.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use pgnkit::core::Color;

use super::pairings::{PairingCheck, Pairings, PgnGame};
use super::report::{EarlierGame, Finding, GameReport, Problem, RoundGaps, TagText};
use super::tags::TagProblem;
use crate::messages::Locale;
use crate::tournament::unplayed::names_a_bye;
use crate::tournament::{NotAPairing, is_unknown, names_nobody, not_a_pairing, round_number};

/// How many games of a run duplicate, round and round-numbering tracking follow by default before they stop
/// (and say so). Tracking costs about 48 bytes per game (a map entry for the game, one per player and round
/// with the opponent's name hashed, in hash tables that double as they grow): at this limit about 3 MB, which keeps validate at two threads
/// under 16 MiB on any input, JSON output included. A tournament, or a season of one, is far below it.
/// `Tournament::with_limit` sets another.
pub const DEFAULT_TRACKED_GAMES: usize = 50_000;

/// The most games `Tournament::with_limit` takes: an `Ordinal` numbers them.
pub const MAX_TRACKED_GAMES: usize = Ordinal::MAX as usize;

/// The number of games tracked before tracking stops (a type of its own for its default).
#[derive(Clone, Copy, Debug)]
struct Limit(usize);

impl Default for Limit {
    fn default() -> Self {
        Limit(DEFAULT_TRACKED_GAMES)
    }
}

/// Keys here are already 64-bit hashes (or hashed once into one): mixing them again with SipHash is wasted
/// work on a path that runs once per game.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Map<K, V = u64> = HashMap<K, V, BuildHasherDefault<Mix>>;

/// A tracked game's number in the run (0, 1, 2... in the order games are checked): 4 bytes per map entry where
/// its file and game number took 8. [`Tournament::at`] gives back where the game is.
type Ordinal = u32;

/// A 64-bit key kept as two halves, so that a map entry (key, [`Ordinal`]) takes 12 bytes, not 16: the maps
/// hold up to three entries per game of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key([u32; 2]);

impl Key {
    fn new(hash: u64) -> Key {
        Key([hash as u32, (hash >> 32) as u32])
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(u64::from(self.0[0]) | u64::from(self.0[1]) << 32);
    }
}

/// Where a game is, packed in 64 bits: the file's index among the run's files (24 bits) and the game's number
/// in it (40 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At(u64);

impl At {
    const GAME_BITS: u32 = 40;
    /// Files beyond this many, or games beyond a trillion in one file, are not tracked.
    const MAX_FILES: usize = 1 << (64 - Self::GAME_BITS);

    fn new(file: usize, game: u64) -> Option<At> {
        (file < Self::MAX_FILES && game < 1 << Self::GAME_BITS)
            .then_some(At((file as u64) << Self::GAME_BITS | game))
    }

    fn file(self) -> usize {
        (self.0 >> Self::GAME_BITS) as usize
    }

    fn game(self) -> u64 {
        self.0 & ((1 << Self::GAME_BITS) - 1)
    }
}

/// The first game seen of one round of a tournament: where the round-numbering warning points.
#[derive(Clone, Copy, Debug)]
struct FirstGame {
    at: At,
    line: u64,
    record: Option<pgnkit::pgn::Record>,
}

/// One tournament's round numbers, as seen so far.
#[derive(Debug)]
struct Rounds {
    event: String,
    site: String,
    year: String,
    /// Round number (the Round tag's first number) → its first game.
    present: BTreeMap<u64, FirstGame>,
}

/// A finding about a tournament as a whole, known only when every game of the run has been seen; located at
/// one game (the first of the round it concerns).
#[derive(Debug, Clone)]
pub struct RunWarning {
    /// The file of the game the warning points at.
    pub file: Arc<str>,
    /// 1-based index of that game in its file.
    pub game: u64,
    /// That game's round number.
    pub round: TagText,
    /// The warning, located at that game's first line.
    pub problem: Problem,
}

/// The checks across the games of a run: fed each report in input order by `Tournament::check`, then asked
/// for the run's findings by [`Tournament::finish`].
#[derive(Default)]
pub struct Tournament {
    /// Fingerprint (players + moves) → the first game.
    seen: Map<Key, Ordinal>,
    /// Hash of (Event, Site, year, round number, player) → the game, and its opponent's name hashed.
    rounds: Map<Key, (Ordinal, u32)>,
    /// Hash of (Event, Site, year, FIDE id) → the first game that gives it, and the name it gives hashed.
    fide_ids: Map<Key, (Ordinal, u32)>,
    /// Hash of (Event, Site, year, name) → the first game that gives it a FIDE id, and that id.
    names_with_id: Map<Key, (Ordinal, u64)>,
    /// Hash of (Event, Site, year, name, FIDE id): each pair judged once, at its first game.
    name_id_pairs: Map<Key, ()>,
    /// Games tracked so far: the next game's [`Ordinal`].
    tracked: Ordinal,
    /// Runs of tracked games that follow one another in one file: (the first one's ordinal, where it is).
    /// Games come file by file and in order, so there are about as many runs as files.
    runs: Vec<(Ordinal, At)>,
    /// Hash of (Event, Site, year) → its index in `tournaments`.
    tournament_index: Map<u64, usize>,
    /// The tournaments with round numbers, in order of first appearance.
    tournaments: Vec<Rounds>,
    /// (tournament, round) pairs kept in `tournaments`: bounded like the games.
    round_entries: usize,
    /// Games (and (tournament, round) pairs) tracked at most.
    limit: Limit,
    /// The files met so far; `At` holds an index into it.
    files: Vec<Arc<str>>,
    /// Set once the limit is reached: the checks above stop, and round numbering is no longer reported
    /// (rounds not recorded would look missing).
    pub saturated: bool,
    /// The cross-check against a pairing program's report, when asked for (`--pairings`).
    pairings: Option<PairingCheck>,
}

/// The warnings about a game's players, for a game of a tournament (its Event tag names one): each side that
/// names nobody (`unknown_player`, at its tag, or at the game's start when the tag is missing), or the same
/// player on both sides (`player_against_self`, at the Black tag). Tags given as [`super::tags::check_tags`]
/// takes them.
pub(crate) fn player_problems<V: AsRef<str>>(tags: &[(&[u8], V)]) -> Vec<TagProblem> {
    let find = |name: &[u8]| {
        tags.iter()
            .position(|(n, _)| *n == name)
            .map(|i| (i, tags[i].1.as_ref()))
    };
    if find(b"Event").is_none_or(|(_, event)| is_unknown(event)) {
        return Vec::new();
    }
    let (white, black) = (find(b"White"), find(b"Black"));
    let mut problems = Vec::new();
    for (color, side) in [(Color::White, white), (Color::Black, black)] {
        let value = match side {
            None => None,
            Some((_, value)) if names_nobody(value) => Some(value.to_owned()),
            Some(_) => continue,
        };
        problems.push(TagProblem {
            tag: side.map(|(i, _)| i),
            finding: Finding::UnknownPlayer { side: color, value },
        });
    }
    if let (Some((_, w)), Some((i, b))) = (white, black)
        && not_a_pairing(w, b) == Some(NotAPairing::AgainstSelf)
    {
        problems.push(TagProblem {
            tag: Some(i),
            finding: Finding::PlayerAgainstSelf {
                player: b.trim().to_owned(),
            },
        });
    }
    problems
}

impl Tournament {
    /// Checks with nothing seen yet: one per run.
    pub(crate) fn new() -> Tournament {
        Tournament::default()
    }

    /// [`Tournament::new`]: its findings carry no words (they are worded when shown, in the language asked
    /// for then), so `locale` changes nothing; kept for the callers that still give one.
    pub(crate) fn new_in(locale: Locale) -> Tournament {
        let _ = locale;
        Tournament::default()
    }

    /// These checks, tracking at most `games` games (at least 1, at most [`MAX_TRACKED_GAMES`]) instead of
    /// [`DEFAULT_TRACKED_GAMES`]: memory grows by about 48 bytes per game tracked.
    pub(crate) fn with_limit(self, games: usize) -> Tournament {
        Tournament {
            limit: Limit(games.clamp(1, MAX_TRACKED_GAMES)),
            ..self
        }
    }

    /// These checks, and the games compared with the pairings of `pairings` (it bounds its own memory: a cell
    /// per player and round of the TRF).
    pub(crate) fn with_pairings(self, pairings: Arc<Pairings>) -> Tournament {
        Tournament {
            pairings: Some(PairingCheck::new(pairings)),
            ..self
        }
    }

    /// Adds to `report` how its game (`game`, as the cross-check reads it) differs from the pairings;
    /// returns whether any was added.
    pub(crate) fn check_pairing(&mut self, report: &mut GameReport, game: &PgnGame) -> bool {
        let Some(check) = self.pairings.as_mut() else {
            return false;
        };
        let findings = check.check(game);
        let added = !findings.is_empty();
        for finding in findings {
            report
                .problems
                .push(game_level(report, Finding::Pairing(Box::new(finding))));
        }
        added
    }

    /// What the pairings say and no game of the run answered (nothing without `--pairings`), each at its
    /// line of the TRF: to be asked once every game has been checked.
    pub fn pairing_problems(&self) -> Vec<Problem> {
        self.pairings.as_ref().map_or_else(Vec::new, at_trf_lines)
    }

    /// The most games these checks track.
    #[cfg(test)]
    pub(crate) fn limit(&self) -> usize {
        self.limit.0
    }

    /// The index of `file` among the run's files (games come file by file, so the last one is nearly always
    /// it).
    fn file_index(&mut self, file: &Arc<str>) -> usize {
        match self.files.last() {
            Some(last) if Arc::ptr_eq(last, file) || **last == **file => self.files.len() - 1,
            _ => {
                self.files.push(file.clone());
                self.files.len() - 1
            }
        }
    }

    /// Gives the next ordinal to the game at `here`.
    fn track(&mut self, here: At) -> Ordinal {
        let ordinal = self.tracked;
        self.tracked += 1;
        let continues = self.runs.last().is_some_and(|&(first, at)| {
            at.file() == here.file() && at.game() + u64::from(ordinal - first) == here.game()
        });
        if !continues {
            self.runs.push((ordinal, here));
        }
        ordinal
    }

    /// Where the game with this ordinal is.
    fn at(&self, ordinal: Ordinal) -> At {
        let run = self.runs.partition_point(|&(first, _)| first <= ordinal) - 1;
        let (first, at) = self.runs[run];
        // Same file, a later game: the game number is in the low bits, and `track` saw it fit.
        At(at.0 + u64::from(ordinal - first))
    }

    /// The game at `at`, as a warning about a game of file `file` names it: its file only when another.
    fn earlier(&self, at: At, file: usize) -> EarlierGame {
        EarlierGame {
            game: at.game(),
            file: (at.file() != file).then(|| self.files[at.file()].clone()),
        }
    }

    /// Adds the cross-game warnings to `report`; returns whether any was added.
    pub(crate) fn check(&mut self, report: &mut GameReport) -> bool {
        let before = report.problems.len();
        let file = self.file_index(&report.file);
        let here = At::new(file, report.game);
        if self.tracked as usize >= self.limit.0 || here.is_none() {
            self.saturated = true;
        }
        let Some(here) = here.filter(|_| !self.saturated) else {
            return false;
        };
        let ordinal = self.track(here);
        // A fingerprint of 0 is a game without moves: the same as no other (see `game_fingerprint`).
        let mut duplicate = false;
        if report.fingerprint != 0 {
            match self.seen.get(&Key::new(report.fingerprint)) {
                Some(&first) => {
                    duplicate = true;
                    let finding = Finding::DuplicateGame {
                        earlier: self.earlier(self.at(first), file),
                        white: report.white.clone(),
                        black: report.black.clone(),
                    };
                    report.problems.push(game_level(report, finding));
                }
                None => {
                    self.seen.insert(Key::new(report.fingerprint), ordinal);
                }
            }
        }
        // A round only means something inside a named event: collections of games from many events (book
        // files, databases) often have `Event "?"` and round numbers that belong to different tournaments.
        if is_unknown(&report.event) {
            return report.problems.len() > before;
        }
        let event = report.event.trim();
        let site = report.site.trim();
        let mut tournament = Mix::default();
        for part in [event, site, &report.year] {
            tournament.write(part.as_bytes());
            tournament.write_u64(part.len() as u64);
        }
        if !duplicate {
            self.check_fide_ids(report, tournament.finish(), ordinal, file);
        }
        let Some(number) = round_number(&report.round) else {
            return report.problems.len() > before;
        };
        // A copy of a game already said to be one, or a game that is no pairing (said by the tag checks): its
        // players are not said to play twice as well.
        if !duplicate && not_a_pairing(&report.white, &report.black).is_none() {
            self.check_players_in_round(report, tournament.finish(), number, ordinal, file);
        }

        self.record_round(tournament.finish(), report, number, here);
        report.problems.len() > before
    }

    /// Warns when a player of `report` (round `number` of the tournament hashed as `tournament`) already met
    /// another opponent in that round. The same two players again in one round are a match's games (a
    /// knockout's `1.1`, `1.2`), not a player in two places at once.
    fn check_players_in_round(
        &mut self,
        report: &mut GameReport,
        tournament: u64,
        number: u64,
        ordinal: Ordinal,
        file: usize,
    ) {
        let name_hash = |name: &str| {
            let mut h = Mix::default();
            h.write(name.trim().as_bytes());
            h.finish() as u32
        };
        // A player is their FIDE id where the game gives one (two players of one name are two), else their
        // name.
        let identity = |name: &str, id: Option<u64>| match id {
            Some(id) => (id ^ 0xF1DE_F1DE_F1DE_F1DE) as u32,
            None => name_hash(name),
        };
        for white in [true, false] {
            let (player, opponent, player_id, opponent_id) = if white {
                (
                    &report.white,
                    &report.black,
                    report.white_fide_id,
                    report.black_fide_id,
                )
            } else {
                (
                    &report.black,
                    &report.white,
                    report.black_fide_id,
                    report.white_fide_id,
                )
            };
            // A bye is no player: two players with a bye in one round do not meet "BYE" twice.
            if names_nobody(player) || names_a_bye(player) {
                continue;
            }
            let opponent = identity(opponent, opponent_id);
            // One 64-bit key per (tournament, round, player): no strings kept per game.
            let mut h = Mix(tournament);
            h.write_u64(number);
            match player_id {
                Some(id) => h.write_u64(id),
                None => h.write(player.trim().as_bytes()),
            }
            let key = Key::new(h.finish());
            match self.rounds.get(&key) {
                Some(&(other, met)) if other != ordinal && met != opponent => {
                    let finding = Finding::PlayerTwiceInRound {
                        player: player.clone(),
                        earlier: self.earlier(self.at(other), file),
                        round: number,
                    };
                    report.problems.push(game_level(report, finding));
                }
                Some(_) => {}
                None => {
                    self.rounds.insert(key, (ordinal, opponent));
                }
            }
        }
    }

    /// Notes a FIDE id that a game of the tournament (hashed as `tournament`) gives under another name (one
    /// player: [`Finding::FideIdNameVariant`]) and warns about a name that a game gave another id
    /// ([`Finding::NameWithTwoFideIds`]: two players); each (name, id) once, at its first game.
    fn check_fide_ids(
        &mut self,
        report: &mut GameReport,
        tournament: u64,
        ordinal: Ordinal,
        file: usize,
    ) {
        let hashed = |parts: &[&[u8]], id: Option<u64>| {
            let mut h = Mix(tournament);
            for part in parts {
                h.write(part);
                h.write_u64(part.len() as u64);
            }
            if let Some(id) = id {
                h.write_u64(id);
            }
            h.finish()
        };
        for (name, id) in [
            (report.white.clone(), report.white_fide_id),
            (report.black.clone(), report.black_fide_id),
        ] {
            let Some(id) = id else { continue };
            let trimmed = name.trim();
            if names_nobody(trimmed) {
                continue;
            }
            let pair = Key::new(hashed(&[b"pair", trimmed.as_bytes()], Some(id)));
            if self.name_id_pairs.insert(pair, ()).is_some() {
                continue;
            }
            let name_hash = hashed(&[trimmed.as_bytes()], None) as u32;
            let by_id = Key::new(hashed(&[b"id"], Some(id)));
            let by_name = Key::new(hashed(&[b"name", trimmed.as_bytes()], None));
            match self.names_with_id.get(&by_name) {
                Some(&(first, other_id)) if other_id != id => {
                    let finding = Finding::NameWithTwoFideIds {
                        name: name.clone(),
                        fide_id: id,
                        other_id,
                        earlier: self.earlier(self.at(first), file),
                    };
                    report.problems.push(game_level(report, finding));
                }
                Some(_) => {}
                None => {
                    self.names_with_id.insert(by_name, (ordinal, id));
                }
            }
            match self.fide_ids.get(&by_id) {
                Some(&(first, other_name)) if other_name != name_hash => {
                    let finding = Finding::FideIdNameVariant {
                        name: name.clone(),
                        fide_id: id,
                        earlier: self.earlier(self.at(first), file),
                    };
                    report.problems.push(game_level(report, finding));
                }
                Some(_) => {}
                None => {
                    self.fide_ids.insert(by_id, (ordinal, name_hash));
                }
            }
        }
    }

    /// Records that `report`'s tournament (hashed as `key`) has a round `number`.
    fn record_round(&mut self, key: u64, report: &GameReport, number: u64, here: At) {
        let index = match self.tournament_index.get(&key) {
            Some(&index) => index,
            None => {
                self.tournaments.push(Rounds {
                    event: report.event.trim().to_string(),
                    site: report.site.trim().to_string(),
                    year: report.year.to_string(),
                    present: BTreeMap::new(),
                });
                self.tournament_index
                    .insert(key, self.tournaments.len() - 1);
                self.tournaments.len() - 1
            }
        };
        let present = &mut self.tournaments[index].present;
        if let std::collections::btree_map::Entry::Vacant(entry) = present.entry(number) {
            if self.round_entries >= self.limit.0 {
                self.saturated = true;
                return;
            }
            self.round_entries += 1;
            entry.insert(FirstGame {
                at: here,
                line: report.line,
                record: report.record,
            });
        }
    }

    /// The findings about whole tournaments, once every game of the run has been checked: for each tournament
    /// whose round numbers skip a round or include a round 0, one `round_numbering` warning, located at the
    /// first game of the round after the first gap (or of round 0). Nothing when tracking saturated.
    pub fn finish(self) -> Vec<RunWarning> {
        if self.saturated {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        for t in &self.tournaments {
            let Some((gaps, round)) = numbering(t) else {
                continue;
            };
            let first = t.present[&round];
            warnings.push(RunWarning {
                file: self.files[first.at.file()].clone(),
                game: first.at.game(),
                round: TagText::new(&round.to_string()),
                problem: Problem {
                    record: first.record,
                    ..Problem::new(Finding::RoundNumbering(Box::new(gaps)), first.line, 1, 0)
                },
            });
        }
        warnings
    }
}

/// What the round-numbering warning of a tournament says and the round it points at (the first after a gap, else round
/// 0), or `None` when its rounds follow each other from the lowest to the highest without a gap and none is 0.
///
/// Rounds before the lowest present are not called missing: a run that holds only round 5 is one round's
/// file, and a weekly collection (TWIC) picks up events in progress; a gap inside the rounds present, or a
/// round 0, is wrong whatever part of the tournament the run holds.
fn numbering(t: &Rounds) -> Option<(RoundGaps, u64)> {
    // Runs of consecutive present rounds: the gaps are between them.
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &n in t.present.keys() {
        match runs.last_mut() {
            Some((_, to)) if to.saturating_add(1) == n => *to = n,
            _ => runs.push((n, n)),
        }
    }
    let gaps: Vec<(u64, u64)> = runs
        .windows(2)
        .map(|pair| (pair[0].1 + 1, pair[1].0 - 1))
        .collect();
    let round_zero = t.present.contains_key(&0);
    let pointed = match runs.get(1) {
        Some(&(after_gap, _)) => after_gap,
        None if round_zero => 0,
        None => return None,
    };
    let missing = gaps
        .iter()
        .fold(0u64, |sum, &(from, to)| sum.saturating_add(to - from + 1));
    let tournament = (t.event.clone(), t.site.clone(), t.year.clone());
    let gaps = RoundGaps::new(tournament, gaps, missing, round_zero, runs);
    Some((gaps, pointed))
}

/// What a cross-check with the pairings found that no game answered, as problems at their lines of the TRF.
pub(crate) fn at_trf_lines(check: &PairingCheck) -> Vec<Problem> {
    check
        .finish()
        .into_iter()
        .map(|(line, finding)| Problem::new(Finding::Pairing(Box::new(finding)), line as u64, 1, 0))
        .collect()
}

/// A warning about the whole game, located at its first line.
fn game_level(report: &GameReport, finding: Finding) -> Problem {
    Problem {
        record: report.record,
        ..Problem::new(finding, report.line, 1, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::Explain;
    use crate::validate::ProblemKind;
    use pgnkit::notation::Language;
    use pgnkit::walk::Confidence;

    /// A report of game `game` of `file` with the tags that matter here; `moves` stands for its fingerprint.
    fn report(
        file: &Arc<str>,
        game: u64,
        (event, year, round): (&str, &str, &str),
        (white, black): (&str, &str),
        moves: u64,
    ) -> GameReport {
        GameReport {
            file: file.clone(),
            game,
            record: None,
            white: white.into(),
            black: black.into(),
            round: round.into(),
            event: event.into(),
            site: "Paris".into(),
            year: year.into(),
            result: "1-0".into(),
            marker: None,
            lang: Language::En,
            lang_confidence: Confidence::Irrelevant,
            lang_equivalents: Vec::new(),
            plies: 20,
            valid: true,
            termination: None,
            claimable: Vec::new(),
            ended_at_ply: None,
            claimable_from_ply: None,
            unchecked_moves: None,
            variant: None,
            final_fen: String::new(),
            problems: Vec::new(),
            variation_moves: 0,
            line: game * 10 + 1,
            fingerprint: moves,
            white_fide_id: None,
            black_fide_id: None,
        }
    }

    fn kinds_and_messages(report: &GameReport) -> Vec<(ProblemKind, String)> {
        report
            .problems
            .iter()
            .map(|p| (p.kind(), p.message(Locale::En)))
            .collect()
    }

    #[test]
    fn boards_of_one_round_are_that_round_for_a_player_twice_in_it() {
        // Round.board, as TWIC and Swiss-Manager number games: 4.1 and 4.2 are both round 4.
        let file: Arc<str> = "r4.pgn".into();
        let mut t = Tournament::new();
        let mut a = report(&file, 1, ("Open", "2024", "4.1"), ("Ann", "Bob"), 11);
        let mut b = report(&file, 2, ("Open", "2024", "4.2"), ("Cy", "Ann"), 12);
        assert!(!t.check(&mut a));
        assert!(t.check(&mut b));
        assert_eq!(
            kinds_and_messages(&b),
            vec![(
                ProblemKind::PlayerTwiceInRound,
                "Ann also plays game 1 in round 4".to_string()
            )]
        );
        // Round 5 is another round.
        let mut c = report(&file, 3, ("Open", "2024", "5.1"), ("Ann", "Dee"), 13);
        assert!(!t.check(&mut c));
    }

    #[test]
    fn a_match_within_a_round_and_a_duplicate_are_no_player_twice_in_a_round() {
        let file: Arc<str> = "ko.pgn".into();
        let mut t = Tournament::new();
        // A knockout's mini-match: games 1.1 and 1.2 of the same two players.
        let mut a = report(&file, 1, ("Cup", "2024", "1.1"), ("Ann", "Bob"), 11);
        let mut b = report(&file, 2, ("Cup", "2024", "1.2"), ("Bob", "Ann"), 12);
        assert!(!t.check(&mut a) && !t.check(&mut b), "{:?}", b.problems);
        // Game 1 copied: one duplicate_game, and no player said to play twice.
        let mut c = report(&file, 3, ("Cup", "2024", "1.1"), ("Ann", "Bob"), 11);
        assert!(t.check(&mut c));
        let kinds: Vec<ProblemKind> = c.problems.iter().map(|p| p.kind()).collect();
        assert_eq!(kinds, [ProblemKind::DuplicateGame]);
        // Nor are the players of a game that is no pairing (the tag checks say why).
        for players in [("Ann", "Ann"), ("?", "Ann"), ("Bob", "NN")] {
            let mut r = report(&file, 9, ("Cup", "2024", "1.3"), players, 0);
            assert!(!t.check(&mut r), "{players:?}: {:?}", r.problems);
        }
        // A game without moves is the same as no other (fingerprint 0): the second game of a double round
        // robin recorded with its result alone.
        let mut d = report(&file, 4, ("Cup", "2024", "2"), ("Cy", "Dee"), 0);
        let mut e = report(&file, 5, ("Cup", "2024", "3"), ("Cy", "Dee"), 0);
        assert!(!t.check(&mut d) && !t.check(&mut e), "{:?}", e.problems);
    }

    #[test]
    fn players_that_name_nobody_or_one_player_on_both_sides() {
        let problems = |tags: &[(&str, &str)]| {
            let tags: Vec<(&[u8], &str)> = tags.iter().map(|(n, v)| (n.as_bytes(), *v)).collect();
            player_problems(&tags)
                .into_iter()
                .map(|p| (p.kind(), p.tag, p.finding.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            problems(&[("Event", "Open"), ("White", "Ann"), ("Black", "Ann")]),
            [(
                ProblemKind::PlayerAgainstSelf,
                Some(2),
                "White and Black are the same player, \"Ann\": the game counts in no standings"
                    .to_string()
            )]
        );
        assert_eq!(
            problems(&[("Event", "Open"), ("Black", "?")]),
            [
                (
                    ProblemKind::UnknownPlayer,
                    None,
                    "no White tag: the game names no player on that side and counts in no standings"
                        .to_string()
                ),
                (
                    ProblemKind::UnknownPlayer,
                    Some(1),
                    "Black \"?\" names no player: the game counts in no standings".to_string()
                )
            ]
        );
        // No tournament, no standings to leave it out of: nothing said.
        assert!(problems(&[("Event", "?"), ("White", "?"), ("Black", "?")]).is_empty());
        assert!(problems(&[("White", "Ann"), ("Black", "Ann")]).is_empty());
        let french =
            player_problems(&[(&b"Event"[..], "Open"), (b"White", "-"), (b"Black", "Bob")]);
        assert_eq!(
            french[0].finding.explain(Locale::Fr),
            "White \"-\" ne nomme aucun joueur : la partie ne compte dans aucun classement"
        );
    }

    #[test]
    fn packed_locations_keep_file_and_game() {
        let at = At::new(3, 1_234_567).unwrap();
        assert_eq!((at.file(), at.game()), (3, 1_234_567));
        let last = At::new(At::MAX_FILES - 1, (1 << At::GAME_BITS) - 1).unwrap();
        assert_eq!(
            (last.file(), last.game()),
            (At::MAX_FILES - 1, (1 << At::GAME_BITS) - 1)
        );
        assert_eq!(At::new(At::MAX_FILES, 1), None);
        assert_eq!(At::new(0, 1 << At::GAME_BITS), None);
    }

    #[test]
    fn tracking_stops_at_its_limit_and_says_so() {
        let file: Arc<str> = "t.pgn".into();
        let ev = ("Open", "2024", "1");
        // Within the limit: game 3 repeats game 1 and Ann plays twice in round 1 (games 1 and 4).
        let run = |limit: usize| {
            let mut t = Tournament::new().with_limit(limit);
            let mut found = Vec::new();
            for (game, players, moves) in [
                (1, ("Ann", "Bob"), 11),
                (2, ("Cy", "Dee"), 12),
                (3, ("Ann", "Bob"), 11),
                (4, ("Ann", "Eve"), 14),
            ] {
                let mut r = report(&file, game, ev, players, moves);
                t.check(&mut r);
                found.extend(r.problems.iter().map(|p| p.kind()));
            }
            (found, t.saturated, t.limit())
        };
        let (found, saturated, limit) = run(4);
        assert_eq!(limit, 4);
        assert!(!saturated);
        assert!(found.contains(&ProblemKind::DuplicateGame));
        assert!(found.contains(&ProblemKind::PlayerTwiceInRound));
        // Two games tracked: the later ones are no longer checked, and the run knows it stopped.
        let (found, saturated, _) = run(2);
        assert!(found.is_empty() && saturated, "{found:?}");
        // The default, and limits out of range brought back into it.
        assert_eq!(Tournament::new().limit(), DEFAULT_TRACKED_GAMES);
        assert_eq!(Tournament::new().with_limit(0).limit(), 1);
        assert_eq!(
            Tournament::new().with_limit(usize::MAX).limit(),
            MAX_TRACKED_GAMES
        );
    }

    #[test]
    fn earlier_games_are_named_right_across_gaps_and_files() {
        // Game numbers with gaps, in two files: each duplicate must name the game it repeats, wherever the runs
        // of consecutive games begin and end.
        let a: Arc<str> = "a.pgn".into();
        let b: Arc<str> = "b.pgn".into();
        let no_event = ("?", "2024", "?");
        let mut t = Tournament::new();
        for (file, game, moves) in [
            (&a, 1, 11),
            (&a, 2, 12),
            (&a, 7, 17),
            (&b, 1, 21),
            (&b, 2, 22),
            (&b, 8, 28),
        ] {
            let mut r = report(file, game, no_event, ("W", "B"), moves);
            assert!(!t.check(&mut r), "{file} {game}");
        }
        let mut said = Vec::new();
        for (game, moves) in [(9, 17), (10, 12), (11, 22), (12, 28), (13, 11)] {
            let mut r = report(&b, game, no_event, ("W", "B"), moves);
            assert!(t.check(&mut r));
            said.push(r.problems[0].message(Locale::En));
        }
        assert_eq!(
            said,
            [
                "same players and same moves as game 7 of a.pgn (W – B)",
                "same players and same moves as game 2 of a.pgn (W – B)",
                "same players and same moves as game 2 (W – B)",
                "same players and same moves as game 8 (W – B)",
                "same players and same moves as game 1 of a.pgn (W – B)",
            ]
        );
    }

    #[test]
    fn checks_run_across_files_and_name_the_other_file() {
        let round4: Arc<str> = "round4.pgn".into();
        let round5: Arc<str> = "round5.pgn".into();
        let ev = ("Club ch", "2024", "4");
        let mut t = Tournament::new();
        let mut a = report(&round4, 1, ev, ("Ann", "Bob"), 11);
        let mut b = report(&round4, 2, ev, ("Cy", "Dee"), 12);
        assert!(!t.check(&mut a) && !t.check(&mut b));
        // Round 4 again in the next file: Ann plays twice, and game 2 is copied.
        let mut c = report(&round5, 1, ev, ("Ann", "Eve"), 13);
        let mut d = report(&round5, 2, ev, ("Cy", "Dee"), 12);
        assert!(t.check(&mut c) && t.check(&mut d));
        assert_eq!(
            kinds_and_messages(&c),
            vec![(
                ProblemKind::PlayerTwiceInRound,
                "Ann also plays game 1 of round4.pgn in round 4".to_string()
            )]
        );
        assert_eq!(d.problems[0].kind(), ProblemKind::DuplicateGame);
        assert_eq!(
            d.problems[0].message(Locale::En),
            "same players and same moves as game 2 of round4.pgn (Cy – Dee)"
        );
        assert_eq!(d.problems[0].line, d.line);
        // In the same file the file is not named.
        let mut e = report(&round5, 3, ev, ("Fay", "Eve"), 14);
        assert!(t.check(&mut e));
        assert_eq!(
            kinds_and_messages(&e),
            vec![(
                ProblemKind::PlayerTwiceInRound,
                "Eve also plays game 1 in round 4".to_string()
            )]
        );
    }

    #[test]
    fn another_year_or_no_event_is_another_tournament() {
        let file: Arc<str> = "dortmund.pgn".into();
        let mut t = Tournament::new();
        let mut a = report(&file, 1, ("Dortmund", "1990", "1"), ("Ann", "Bob"), 1);
        let mut b = report(&file, 2, ("Dortmund", "1991", "1"), ("Ann", "Cy"), 2);
        let mut c = report(&file, 3, ("?", "1991", "1"), ("Ann", "Dee"), 3);
        let mut d = report(&file, 4, ("?", "1991", "1"), ("Ann", "Eve"), 4);
        for r in [&mut a, &mut b, &mut c, &mut d] {
            assert!(!t.check(r), "{:?}", r.problems);
        }
        // One round's file (round 5 alone) says nothing of rounds 1 to 4.
        let mut e = report(&file, 5, ("Open", "1991", "5.1"), ("Fay", "Gil"), 5);
        let mut f = report(&file, 6, ("Open", "1991", "5.2"), ("Hal", "Ivy"), 6);
        assert!(!t.check(&mut e) && !t.check(&mut f));
        assert!(
            t.finish().is_empty(),
            "round 1 alone, each year; round 5 alone"
        );
    }

    #[test]
    fn round_gaps_are_reported_once_per_tournament_at_the_round_after_the_gap() {
        let files: Vec<Arc<str>> = (1..=7).map(|r| format!("r{r}.pgn").into()).collect();
        let mut t = Tournament::new();
        for (i, round) in ["1", "2.1", "2.2", "3", "4", "6.1", "6.2", "7"]
            .into_iter()
            .enumerate()
        {
            let number = round_number(round).unwrap() as usize;
            let mut r = report(
                &files[number - 1],
                i as u64 + 1,
                ("Club ch", "2024", round),
                (&format!("W{i}"), &format!("B{i}")),
                i as u64 + 100,
            );
            assert!(!t.check(&mut r));
        }
        // A clean tournament beside it says nothing.
        for round in ["1", "2"] {
            let mut r = report(&files[0], 50, ("Open", "2024", round), ("X", "Y"), 7);
            t.check(&mut r);
        }
        let warnings = t.finish();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let w = &warnings[0];
        assert_eq!(w.problem.kind(), ProblemKind::RoundNumbering);
        assert_eq!(
            w.problem.message(Locale::En),
            "Club ch (Paris, 2024): round 5 missing; rounds present: 1-4, 6-7"
        );
        assert_eq!(&*w.file, "r6.pgn");
        assert_eq!(
            (w.game, w.problem.line),
            (6, 61),
            "the first game of round 6"
        );
        assert_eq!(w.round, "6");
    }

    #[test]
    fn round_zero_is_reported_and_rounds_before_the_lowest_are_not_missing() {
        let file: Arc<str> = "f.pgn".into();
        let mut t = Tournament::new();
        for (i, round) in ["0", "1", "2"].into_iter().enumerate() {
            let mut r = report(
                &file,
                i as u64 + 1,
                ("A", "2024", round),
                ("W", "B"),
                i as u64,
            );
            t.check(&mut r);
        }
        for (i, round) in ["3", "4", "9", "8.1"].into_iter().enumerate() {
            let mut r = report(
                &file,
                i as u64 + 10,
                ("B", "2024", round),
                ("W", "B"),
                50 + i as u64,
            );
            t.check(&mut r);
        }
        let warnings = t.finish();
        let said: Vec<(String, u64)> = warnings
            .iter()
            .map(|w| (w.problem.message(Locale::En), w.game))
            .collect();
        let messages: Vec<(&str, u64)> = said.iter().map(|(m, g)| (m.as_str(), *g)).collect();
        assert_eq!(
            messages,
            vec![
                (
                    "A (Paris, 2024): a round 0 (rounds count from 1); rounds present: 0-2",
                    1
                ),
                (
                    "B (Paris, 2024): rounds 5-7 missing; rounds present: 3-4, 8-9",
                    13
                ),
            ]
        );
    }

    #[test]
    fn hostile_round_numbers_make_short_messages() {
        let file: Arc<str> = "f.pgn".into();
        let mut t = Tournament::new();
        for i in 0..1000u64 {
            let round = (i * 2 + 1).to_string();
            let mut r = report(&file, i + 1, ("A", "2024", &round), ("W", "B"), i);
            t.check(&mut r);
        }
        let mut r = report(
            &file,
            2000,
            ("A", "2024", "18446744073709551615"),
            ("X", "Y"),
            9,
        );
        t.check(&mut r);
        let warnings = t.finish();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].game, 2, "round 3, after the first gap");
        let message = warnings[0].problem.message(Locale::En);
        assert!(message.len() < 300, "{message}");
        assert!(message.contains('…'));
    }
}
