//! Standings with tie-breaks, and what a crosstable or a FIDE report needs: each player's identity
//! ([`PlayerInfo`]) and games by round ([`Pairing`]), for every tournament of a run.
//!
//! Only decided games count: `1-0`, `0-1`, `1/2-1/2` (from the `Result` tag, else the termination marker);
//! unfinished (`*`) and result-less games are kept as pairings without a result and score nothing, for either
//! player or their opponents. Games that were not played over the board are read as [`super::unplayed`]
//! says, under the run's [`UnplayedRules`]: a forfeit scores as its result says (a double forfeit nothing for
//! either), a bye game is no pairing but the bye of its player (a full point, a half or none), and with
//! `--allocated-bye unpaired` the one player without a game in a round scores the pairing-allocated bye's point.
//!
//! Players are told apart by their FIDE id where the games give one (`WhiteFideId`, `BlackFideId`): the
//! spellings of one id's name are one player, shown under the first met; a game without an id joins the
//! player first met under its name; one name with two ids is two players.
//!
//! Two kinds of games of a tournament are left out of its tables, and counted ([`LeftOut`]): a game that is no
//! pairing of two players ([`super::not_a_pairing`]: White or Black names nobody, or the same name on both
//! sides), and a game already counted: the same game by validate's `duplicate_game` rule (same White and
//! Black, same main line: [`GameEntry::fingerprint`]; a game without moves is never a duplicate), whether it
//! came twice in one file or in two files of the run. Validate warns about each (`unknown_player`,
//! `player_against_self`, `duplicate_game`).
//!
//! Over the games present (FIDE Handbook C.07 definitions, without virtual opponents for unplayed rounds):
//! * points: 1 a win, ½ a draw;
//! * Buchholz: the sum of the final points of the opponents met, once per game;
//! * Buchholz cut 1: Buchholz without the least of those contributions;
//! * Sonneborn-Berger: the sum over games of (the player's score in that game × that opponent's points);
//! * direct encounter (C.07 of 2024, article 6, for players who have all met): among the players still tied
//!   (on points and the tie-breaks before it in the order), the points each scored in the games between them.
//!   It is applied only when every two of them have played at least one decided game together; otherwise it
//!   separates nobody and is shown empty. (C.07 also ranks, when not all have met, a player whose score
//!   among them no other could still reach; PGN files of a partial event cannot say which games were still
//!   to come, so that part is not applied.) The rule is applied once, not again to a subgroup it leaves
//!   tied;
//! * wins; ARO, the average rating of the rated opponents (rounded); performance as FIDE computes it for
//!   norms ([`super::perf`]).
//!
//! Players are ranked by points, then by the tie-breaks in the order asked ([`Tiebreak`]), then by name;
//! players equal on all of them share a rank. The default order ([`Tiebreak::DEFAULT`]) is the one
//! `pgnkit standings` always had (Buchholz cut 1, Buchholz, Sonneborn-Berger, wins) with direct encounter
//! last: existing rankings stay as they were wherever the earlier tie-breaks decide, and players who were
//! sharing a rank are split by their games together. For a round robin FIDE lists direct encounter first
//! (`--tiebreaks direct_encounter,sonneborn_berger,wins`); in a Swiss the tied players have rarely all met.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use pgnkit::Color;
use pgnkit::pgn::{Game, GameResult};

use super::crosstable::{PairingKind, Placed, Placement};
use super::identity::{
    Date, EntryTags, NotAPairing, PlayerInfo, TournamentKey, code3, date_of, known, not_a_pairing,
    player_of, round_of,
};
use super::perf::performance;
use super::unplayed::{GameFacts, Reading};
use crate::localized;
use crate::messages::Locale;
use crate::options::{AllocatedBye, UnplayedRules};

/// One game of a player, seen from that player's side: [`Tournament::pairings`] lists them in input order.
/// A game appears twice, once in each player's list, with the same `game` number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pairing {
    /// The game's number in its tournament, from 0, in input order (bye games take numbers too): the same in
    /// both players' lists.
    pub(crate) game: usize,
    /// The round: the `Round` tag's number ([`super::round_number`]: `5` for `5`, `5.1`
    /// or `5.2`); `None` when there is none, or it is 0 or beyond `u32`.
    pub(crate) round: Option<u32>,
    /// The opponent, an index into [`Tournament::players`] (and [`Standing::player_index`]).
    pub(crate) opponent: usize,
    /// Whether this player had White.
    pub(crate) white: bool,
    /// This player's score in half points (2 a win, 1 a draw, 0 a loss); `None` for an unfinished (`*`) or
    /// result-less game, which counts for nothing.
    pub(crate) half_points: Option<u8>,
    /// The opponent's rating in this game's tags (which may differ from their latest, in [`PlayerInfo`]).
    pub(crate) opponent_rating: Option<u16>,
    /// Whether the game was played over the board, forfeited, or lasted less than a move.
    pub(crate) kind: PairingKind,
}

/// A bye game: a player with no opponent in a round, and what the bye was worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByeGame {
    /// The game's number in its tournament (see [`Pairing::game`]).
    pub(crate) game: usize,
    /// The player, an index into [`Tournament::players`].
    pub(crate) player: usize,
    /// See [`Pairing::round`].
    pub(crate) round: Option<u32>,
    /// The player's score in half points (0 for a bye game without a result).
    pub(crate) half_points: u8,
}

/// What the tags say about the event as a whole, kept from the first game that says it (dates: the span).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct EventDetails {
    /// `EventDate`, when complete, else the earliest complete `Date`.
    pub(crate) start: Option<Date>,
    /// The latest complete `Date`.
    pub(crate) end: Option<Date>,
    /// `TimeControl`.
    pub(crate) time_control: Option<String>,
    /// `Arbiter`.
    pub(crate) arbiter: Option<String>,
    /// `EventCountry`: a three-letter code, in capitals.
    pub(crate) country: Option<String>,
    /// `EventType` (`rr`, `swiss`, `k.o.`, `match`, `team-swiss`... in the PGN standard's words).
    pub(crate) event_type: Option<String>,
    /// The earliest complete `Date` of each round met (by [`Pairing::round`]), in round order.
    pub(crate) round_dates: std::collections::BTreeMap<u32, Date>,
    event_date: Option<Date>,
    first_date: Option<Date>,
}

/// What standings need of one game.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// Its tournament.
    pub(crate) key: TournamentKey,
    /// White as this game's tags describe them.
    pub(crate) white: PlayerInfo,
    /// Black as this game's tags describe them.
    pub(crate) black: PlayerInfo,
    /// White's score in half points (2 a win, 1 a draw, 0 a loss); `None` for an unfinished game.
    pub(crate) white_half_points: Option<u8>,
    /// See [`Pairing::round`].
    pub(crate) round: Option<u32>,
    /// The game's `Date`, when complete.
    pub(crate) date: Option<Date>,
    /// The event tags of this game (its dates and round dates filled from `date` and `round` once added).
    pub(crate) details: EventDetails,
    /// validate's fingerprint of the game (`validate::game_fingerprint`): games with the same one are the same game,
    /// counted once; 0 for a game without moves (or no pairing), which is never a duplicate.
    pub(crate) fingerprint: u64,
    /// Whether it was played, forfeited or a bye, as the tags and moves say.
    pub(crate) facts: GameFacts,
}

impl GameEntry {
    /// The entry of a game read from its tags, with no fingerprint (0: the same as no other game); `None` when
    /// it belongs to no tournament. Give it validate's fingerprint of the game with [`GameEntry::fingerprinted`]
    /// when it may be a copy of another ([`GameEntry::needs_fingerprint`]).
    pub(crate) fn of(game: &Game<'_>) -> Option<GameEntry> {
        let tags = EntryTags::of(game);
        let key = tags.key()?;
        let tag = |value: &Option<Cow<'_, str>>| known(value.clone());
        let result = tags
            .result
            .as_deref()
            .and_then(|r| GameResult::from_tag(r.trim()))
            .or(game.result);
        let white_half_points = match result {
            Some(GameResult::WhiteWins) => Some(2),
            Some(GameResult::BlackWins) => Some(0),
            Some(GameResult::Draw) => Some(1),
            _ => None,
        };
        let (white, black) = (player_of(&tags.white), player_of(&tags.black));
        let facts = GameFacts::of(
            tags.white.name_tag(),
            tags.black.name_tag(),
            tags.result.as_deref(),
            tags.termination.as_deref(),
            game.main_line().next().is_some(),
            white_half_points.is_some(),
        );
        Some(GameEntry {
            key,
            white,
            black,
            facts,
            white_half_points,
            round: tag(&tags.round).and_then(|r| round_of(&r)),
            date: tag(&tags.date).and_then(|d| date_of(&d)),
            details: EventDetails {
                time_control: tag(&tags.time_control),
                arbiter: tag(&tags.arbiter),
                country: tag(&tags.event_country).and_then(|c| code3(&c)),
                event_type: tag(&tags.event_type),
                event_date: tag(&tags.event_date).and_then(|d| date_of(&d)),
                ..EventDetails::default()
            },
            fingerprint: 0,
        })
    }

    /// The entry with validate's fingerprint of its game (`validate::game_fingerprint`, or a report's).
    pub(crate) fn fingerprinted(self, fingerprint: u64) -> GameEntry {
        GameEntry {
            fingerprint,
            ..self
        }
    }

    /// Whether the game can count in its tournament, so that whether it repeats another matters: a game that
    /// is no pairing never counts, and its moves need not be replayed for a fingerprint.
    pub(crate) fn needs_fingerprint(&self) -> bool {
        self.facts.bye.is_none() && self.not_a_pairing().is_none()
    }

    /// Why the game is no pairing of two players, if it is not one (a bye game is none: it is a bye).
    pub(crate) fn not_a_pairing(&self) -> Option<NotAPairing> {
        if self.facts.bye.is_some() {
            return None;
        }
        if self.white.fide_id.is_some() && self.white.fide_id == self.black.fide_id {
            return Some(NotAPairing::AgainstSelf);
        }
        not_a_pairing(&self.white.name, &self.black.name)
    }

    /// The player of a bye game (`None`: not a bye game).
    fn bye_player(&self) -> Option<&PlayerInfo> {
        self.facts.bye.map(|side| match side {
            Color::White => &self.black,
            Color::Black => &self.white,
        })
    }
}

/// A tie-break, in `--tiebreaks`' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    /// Buchholz without its least contribution.
    BuchholzCut1,
    /// The sum of the opponents' points.
    Buchholz,
    /// The sum of (score × opponent's points).
    SonnebornBerger,
    /// Decided games won.
    Wins,
    /// Points among the tied players, when they have all met (see the module documentation).
    DirectEncounter,
}

impl Tiebreak {
    /// Every tie-break, in the order `--help` lists them.
    pub(crate) const ALL: [Tiebreak; 5] = [
        Tiebreak::BuchholzCut1,
        Tiebreak::Buchholz,
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::DirectEncounter,
    ];

    /// The order used without `--tiebreaks`: the former default (FIDE's usual Swiss order: Buchholz cut 1,
    /// Buchholz, Sonneborn-Berger, wins), then direct encounter, so that it only splits players who would
    /// otherwise share a rank (the module documentation says why).
    pub(crate) const DEFAULT: [Tiebreak; 5] = Tiebreak::ALL;

    /// The name used by `--tiebreaks` and shown in the text output.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "buchholz_cut1",
            Tiebreak::Buchholz => "buchholz",
            Tiebreak::SonnebornBerger => "sonneborn_berger",
            Tiebreak::Wins => "wins",
            Tiebreak::DirectEncounter => "direct_encounter",
        }
    }

    /// The tie-break of that name, if any.
    pub fn from_name(name: &str) -> Option<Tiebreak> {
        Tiebreak::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The games of a tournament left out of its tables, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Games already counted (validate's `duplicate_game`).
    pub(crate) duplicates: u64,
    /// Games whose White or Black names nobody (validate's `unknown_player`).
    pub(crate) unknown_player: u64,
    /// Games of a player against himself (validate's `player_against_self`).
    pub(crate) against_self: u64,
}

impl LeftOut {
    /// All the games left out.
    pub(crate) fn total(&self) -> u64 {
        self.duplicates + self.unknown_player + self.against_self
    }

    /// What was left out in words, for a note under a table: `None` when nothing was.
    pub fn said(&self, locale: Locale) -> Option<String> {
        let mut parts = Vec::new();
        let plural = |n: u64| crate::messages::plural(locale, n);
        let (d, u, a) = (self.duplicates, self.unknown_player, self.against_self);
        if d > 0 {
            let s = plural(d);
            parts.push(localized!(
                locale,
                "{d} duplicate{s} of a game already counted",
                "{d} doublon{s} d'une partie déjà comptée"
            ));
        }
        if u > 0 {
            let s = plural(u);
            parts.push(localized!(
                locale,
                "{u} game{s} with no player's name on a side",
                "{u} partie{s} sans nom de joueur d'un côté"
            ));
        }
        if a > 0 {
            let s = plural(a);
            parts.push(localized!(
                locale,
                "{a} game{s} of a player against himself",
                "{a} partie{s} d'un joueur contre lui-même"
            ));
        }
        if parts.is_empty() {
            return None;
        }
        let n = self.total();
        let s = plural(n);
        let parts = parts.join(", ");
        Some(localized!(
            locale,
            "{n} game{s} left out: {parts}",
            "{n} partie{s} laissée{s} de côté : {parts}"
        ))
    }
}

/// What [`Standings::add`] did with a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Added {
    /// Counted in its tournament, the `tournament`-th met ([`Standings::tournament`]).
    Counted {
        /// The tournament's index, in the order met.
        tournament: usize,
    },
    /// No tournament (Event missing, empty or `?`).
    NoTournament,
    /// Left out: no pairing of two players.
    NotAPairing(NotAPairing),
    /// Left out: the same game was counted already.
    Duplicate,
    /// Left out: beyond the [`Bounds`].
    BeyondLimit,
}

/// One tournament's players and games, in the order met.
#[derive(Clone, Debug, Default)]
pub struct Tournament {
    players: Vec<PlayerInfo>,
    pairings: Vec<Vec<Pairing>>,
    /// Each name met → the first player met under it.
    index: HashMap<String, usize>,
    /// Each FIDE id met → its player.
    by_id: HashMap<u64, usize>,
    /// The games counted as pairings (bye games are not).
    games: usize,
    /// The bye games counted, in input order.
    byes: Vec<ByeGame>,
    /// How the games that are not played games are read.
    rules: UnplayedRules,
    details: EventDetails,
    /// The fingerprints of the games counted (those with moves).
    seen: HashSet<u64>,
    /// Games counted apart: unfinished or without a result.
    pub(crate) unfinished: u64,
    /// Games left out of the tables.
    pub left_out: LeftOut,
    /// Games not counted for want of room ([`Bounds`]).
    pub(crate) beyond_bounds: u64,
}

impl Tournament {
    /// The players, in the order first met; a player's position is their index everywhere
    /// ([`Pairing::opponent`], [`Standing::player_index`], [`Tournament::pairings`]).
    pub(crate) fn players(&self) -> impl ExactSizeIterator<Item = &PlayerInfo> + '_ {
        self.players.iter()
    }

    /// The player at this index, if any.
    pub(crate) fn player(&self, index: usize) -> Option<&PlayerInfo> {
        self.players.get(index)
    }

    /// A player's games in input order (decided and unfinished alike); empty for an index out of range.
    pub(crate) fn pairings(&self, player: usize) -> &[Pairing] {
        self.pairings.get(player).map_or(&[], Vec::as_slice)
    }

    /// The number of games (each counted once).
    #[cfg(test)]
    pub(crate) fn games(&self) -> usize {
        self.games
    }

    /// Each game counted once, in the order counted: White's index and the game seen from White's side.
    pub(crate) fn games_in_order(&self) -> Vec<(usize, &Pairing)> {
        let mut games: Vec<(usize, &Pairing)> = Vec::with_capacity(self.games);
        for (player, list) in self.pairings.iter().enumerate() {
            games.extend(list.iter().filter(|p| p.white).map(|p| (player, p)));
        }
        games.sort_unstable_by_key(|(_, p)| p.game);
        games
    }

    /// The players ranked by points, then by `tiebreaks` in order, then by name.
    pub(crate) fn ranked(&self, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
        rank(self, tiebreaks)
    }

    /// Every game of the tournament met: counted (decided or not, bye games included), left out, or beyond the
    /// bounds.
    pub(crate) fn games_met(&self) -> u64 {
        (self.games + self.byes.len()) as u64 + self.left_out.total() + self.beyond_bounds
    }

    /// The bye games counted, in input order.
    pub(crate) fn byes(&self) -> &[ByeGame] {
        &self.byes
    }

    /// The games and byes placed in rounds ([`Placement`]).
    pub(crate) fn placement(&self) -> Placement {
        // Black's score in each game, by game number: a double forfeit scores nothing for either.
        let mut black_half_points = vec![None; self.next_game()];
        for p in self.pairings.iter().flatten().filter(|p| !p.white) {
            black_half_points[p.game] = p.half_points;
        }
        let mut items: Vec<(Option<u32>, usize, Placed)> = self
            .games_in_order()
            .into_iter()
            .map(|(white, p)| {
                let game = Placed::Game {
                    white,
                    black: p.opponent,
                    kind: p.kind,
                    white_half_points: p.half_points,
                    black_half_points: black_half_points[p.game],
                };
                (p.round, p.game, game)
            })
            .collect();
        items.extend(self.byes.iter().map(|b| {
            let bye = Placed::Bye {
                player: b.player,
                half_points: b.half_points,
            };
            (b.round, b.game, bye)
        }));
        Placement::of(self.players.len(), items, self.rules.allocated_bye)
    }

    /// The player `info` would be counted as ([`Tournament::intern`]'s rule), if met before.
    fn known(&self, info: &PlayerInfo) -> Option<usize> {
        if let Some(id) = info.fide_id {
            if let Some(&i) = self.by_id.get(&id) {
                return Some(i);
            }
            // A name met before joins this id only if it has none yet: one name with two ids is two players.
            return self
                .index
                .get(&info.name)
                .copied()
                .filter(|&i| self.players[i].fide_id.is_none());
        }
        self.index.get(&info.name).copied()
    }

    /// What the tags say of the event: dates, time control, arbiter, country, type.
    pub(crate) fn details(&self) -> &EventDetails {
        &self.details
    }

    fn intern(&mut self, info: &PlayerInfo) -> usize {
        // A player met before is looked up without copying the name: most games are of players met before.
        let i = match self.known(info) {
            Some(i) => i,
            None => {
                self.players.push(PlayerInfo {
                    name: info.name.clone(),
                    ..PlayerInfo::default()
                });
                self.pairings.push(Vec::new());
                self.players.len() - 1
            }
        };
        if !self.index.contains_key(&info.name) {
            self.index.insert(info.name.clone(), i);
        }
        if let Some(id) = info.fide_id {
            self.by_id.entry(id).or_insert(i);
        }
        let p = &mut self.players[i];
        p.rating = info.rating.or(p.rating);
        if info.title.is_some() {
            p.title.clone_from(&info.title);
        }
        p.fide_id = p.fide_id.or(info.fide_id);
        if info.federation.is_some() {
            p.federation.clone_from(&info.federation);
        }
        i
    }

    /// The number of the next game counted, pairing or bye.
    fn next_game(&self) -> usize {
        self.games + self.byes.len()
    }

    fn add(&mut self, e: &GameEntry) {
        if let Some(player) = e.bye_player() {
            let player = self.intern(player);
            let half_points = match e.facts.bye {
                Some(Color::White) => e.white_half_points.map(|hp| 2 - hp),
                _ => e.white_half_points,
            };
            self.byes.push(ByeGame {
                game: self.next_game(),
                player,
                round: e.round,
                half_points: half_points.unwrap_or(0),
            });
            self.add_details(e);
            return;
        }
        let w = self.intern(&e.white);
        let b = self.intern(&e.black);
        let game = self.next_game();
        self.games += 1;
        let (kind, white_half_points, black_half_points) =
            match e.facts.reading(e.white_half_points, self.rules.moveless) {
                Reading::DoubleForfeit => (PairingKind::Forfeit, Some(0), Some(0)),
                reading => (
                    match reading {
                        Reading::Forfeit => PairingKind::Forfeit,
                        Reading::Unrated => PairingKind::Unrated,
                        _ => PairingKind::Played,
                    },
                    e.white_half_points,
                    e.white_half_points.map(|hp| 2 - hp),
                ),
            };
        self.pairings[w].push(Pairing {
            game,
            round: e.round,
            opponent: b,
            white: true,
            half_points: white_half_points,
            opponent_rating: e.black.rating,
            kind,
        });
        self.pairings[b].push(Pairing {
            game,
            round: e.round,
            opponent: w,
            white: false,
            half_points: black_half_points,
            opponent_rating: e.white.rating,
            kind,
        });
        if white_half_points.is_none() {
            self.unfinished += 1;
        }
        self.add_details(e);
    }

    /// What the game's tags say of the event, kept.
    fn add_details(&mut self, e: &GameEntry) {
        let d = &mut self.details;
        let n = &e.details;
        for (mine, theirs) in [
            (&mut d.time_control, &n.time_control),
            (&mut d.arbiter, &n.arbiter),
            (&mut d.country, &n.country),
            (&mut d.event_type, &n.event_type),
        ] {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        }
        d.event_date = d.event_date.or(n.event_date);
        if let Some(date) = e.date {
            d.first_date = Some(d.first_date.map_or(date, |f| f.min(date)));
            d.end = Some(d.end.map_or(date, |l| l.max(date)));
            if let Some(r) = e.round {
                let slot = d.round_dates.entry(r).or_insert(date);
                *slot = (*slot).min(date);
            }
        }
        d.start = d.event_date.or(d.first_date);
    }
}

/// One player's line of the standings. Points and tie-breaks are in half points (exact), shown divided by 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the first; players equal on points and every tie-break share a rank.
    pub(crate) rank: usize,
    /// The player's index in [`Tournament::players`] and [`Tournament::pairings`].
    pub(crate) player_index: usize,
    /// The player's name.
    pub(crate) player: String,
    /// The latest rating seen.
    pub(crate) rating: Option<u16>,
    /// Points, in half points.
    pub(crate) half_points: u64,
    /// Decided games.
    pub(crate) games: u64,
    /// Decided games won.
    pub(crate) wins: u64,
    /// Unfinished or result-less games (not scored).
    pub(crate) unfinished: u64,
    /// Buchholz, in half points.
    pub(crate) buchholz: u64,
    /// Buchholz cut 1, in half points.
    pub(crate) buchholz_cut1: u64,
    /// Sonneborn-Berger in quarter points (half points × half points).
    pub(crate) sonneborn_berger_quarters: u64,
    /// Direct encounter in half points: the points scored against the players tied with this one, when they
    /// have all met (tied on points and the tie-breaks before it in the order; on points alone when the order
    /// does not use it); `None` when it does not apply (nobody tied, or not all met).
    pub(crate) direct_encounter: Option<u64>,
    /// Decided games against a rated opponent (those the ARO and the performance count).
    pub(crate) rated_games: u64,
    /// The average rating of the rated opponents, rounded.
    pub(crate) aro: Option<i64>,
    /// The performance rating ([`super::perf`]).
    pub(crate) performance: Option<i64>,
}

impl Standing {
    /// The figures after the player's name, as every format shows them (rating, points, games, wins,
    /// unfinished, Buchholz, Buchholz cut 1, Sonneborn-Berger, ARO, performance, direct encounter), `missing`
    /// for a value there is none of: one place, so that the CSV, the text table and the report cannot drift.
    pub(crate) fn figures(&self, missing: &str) -> [String; 11] {
        let or_missing = |v: Option<String>| v.unwrap_or_else(|| missing.to_string());
        [
            or_missing(self.rating.map(|r| r.to_string())),
            decimal(self.half_points, false),
            self.games.to_string(),
            self.wins.to_string(),
            self.unfinished.to_string(),
            decimal(self.buchholz, false),
            decimal(self.buchholz_cut1, false),
            decimal(self.sonneborn_berger_quarters, true),
            or_missing(self.aro.map(|v| v.to_string())),
            or_missing(self.performance.map(|v| v.to_string())),
            or_missing(self.direct_encounter.map(|v| decimal(v, false))),
        ]
    }

    fn tiebreak(&self, t: Tiebreak) -> u64 {
        match t {
            // Compared in quarter points, as Sonneborn-Berger is kept.
            Tiebreak::BuchholzCut1 => self.buchholz_cut1 * 2,
            Tiebreak::Buchholz => self.buchholz * 2,
            Tiebreak::SonnebornBerger => self.sonneborn_berger_quarters,
            Tiebreak::Wins => self.wins,
            Tiebreak::DirectEncounter => self.direct_encounter.unwrap_or(0),
        }
    }
}

/// How much [`Standings`] keep, over all tournaments: memory stays bounded whatever the input (a month of
/// online games makes a "tournament" of every game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Tournaments (the first met); the games of later ones are counted in
    /// [`Standings::untracked_tournament_games`].
    pub(crate) tournaments: usize,
    /// Player entries; a game that would add players beyond is left out.
    pub(crate) players: usize,
    /// Games counted (each keeps two [`Pairing`]s and its fingerprint); later games are left out.
    pub(crate) games: usize,
}

impl Bounds {
    /// At most `players` player entries, and no other bound.
    pub(crate) fn players(players: usize) -> Bounds {
        Bounds {
            tournaments: usize::MAX,
            players,
            games: usize::MAX,
        }
    }
}

/// The standings of every tournament met, in bounded memory (`Bounds`).
#[derive(Clone, Debug)]
pub struct Standings {
    tournaments: Vec<(TournamentKey, Tournament)>,
    index: HashMap<TournamentKey, usize>,
    players: usize,
    games: usize,
    bounds: Bounds,
    rules: UnplayedRules,
    /// Games that belong to no tournament (Event missing, empty or `?`).
    pub without_event: u64,
    /// Games of tournaments kept but beyond the players or games bound, or of a new tournament that had no room
    /// for its players.
    pub games_left_out: u64,
    /// Games of tournaments beyond the tournaments bound.
    pub(crate) untracked_tournament_games: u64,
}

impl Standings {
    /// Empty standings that will keep at most `max_players` players over all tournaments.
    pub(crate) fn new(max_players: usize) -> Standings {
        Standings::within(Bounds::players(max_players))
    }

    /// Empty standings kept within `bounds`.
    pub(crate) fn within(bounds: Bounds) -> Standings {
        Standings {
            tournaments: Vec::new(),
            index: HashMap::new(),
            players: 0,
            games: 0,
            bounds,
            rules: UnplayedRules::default(),
            without_event: 0,
            games_left_out: 0,
            untracked_tournament_games: 0,
        }
    }

    /// These standings, reading the games that are not played games by `rules` (before any game is added).
    pub(crate) fn with_rules(self, rules: UnplayedRules) -> Standings {
        Standings { rules, ..self }
    }

    /// Adds one game (`None`: a game without a tournament), and says what became of it: a game that is no
    /// pairing, or the same as one already counted, is counted apart in its tournament's `LeftOut`.
    pub(crate) fn add(&mut self, entry: Option<&GameEntry>) -> Added {
        let Some(e) = entry else {
            self.without_event += 1;
            return Added::NoTournament;
        };
        let i = match self.index.get(&e.key) {
            Some(&i) => i,
            None if self.tournaments.len() >= self.bounds.tournaments => {
                self.untracked_tournament_games += 1;
                return Added::BeyondLimit;
            }
            None => {
                if self.players + 2 > self.bounds.players {
                    self.games_left_out += 1;
                    return Added::BeyondLimit;
                }
                let t = Tournament {
                    rules: self.rules,
                    ..Tournament::default()
                };
                self.tournaments.push((e.key.clone(), t));
                self.index.insert(e.key.clone(), self.tournaments.len() - 1);
                self.tournaments.len() - 1
            }
        };
        let t = &mut self.tournaments[i].1;
        if let Some(why) = e.not_a_pairing() {
            match why {
                NotAPairing::UnknownPlayer => t.left_out.unknown_player += 1,
                NotAPairing::AgainstSelf => t.left_out.against_self += 1,
            }
            return Added::NotAPairing(why);
        }
        if e.fingerprint != 0 && t.seen.contains(&e.fingerprint) {
            t.left_out.duplicates += 1;
            return Added::Duplicate;
        }
        let new = match e.bye_player() {
            Some(player) => usize::from(t.known(player).is_none()),
            None => {
                usize::from(t.known(&e.white).is_none()) + usize::from(t.known(&e.black).is_none())
            }
        };
        if self.players + new > self.bounds.players || self.games >= self.bounds.games {
            self.games_left_out += 1;
            t.beyond_bounds += 1;
            return Added::BeyondLimit;
        }
        if e.fingerprint != 0 {
            t.seen.insert(e.fingerprint);
        }
        self.players += new;
        self.games += 1;
        t.add(e);
        Added::Counted { tournament: i }
    }

    /// The games left out of every tournament's tables, added up.
    pub(crate) fn left_out(&self) -> LeftOut {
        let mut sum = LeftOut::default();
        for (_, t) in &self.tournaments {
            sum.duplicates += t.left_out.duplicates;
            sum.unknown_player += t.left_out.unknown_player;
            sum.against_self += t.left_out.against_self;
        }
        sum
    }

    /// The `index`-th tournament met, if any.
    pub(crate) fn tournament(&self, index: usize) -> Option<(&TournamentKey, &Tournament)> {
        self.tournaments.get(index).map(|(key, t)| (key, t))
    }

    /// The tournaments met, in order.
    pub(crate) fn tournaments(&self) -> impl Iterator<Item = &TournamentKey> + '_ {
        self.tournaments.iter().map(|(key, _)| key)
    }

    /// Whether some tournament's Event is `event` (trimmed, as keys are).
    pub fn has_event(&self, event: &str) -> bool {
        let event = event.trim();
        self.tournaments.iter().any(|(key, _)| key.event == event)
    }

    /// The tournaments, in the order first met, with their ranked players.
    pub fn ranked(
        &self,
        tiebreaks: &[Tiebreak],
    ) -> Vec<(&TournamentKey, &Tournament, Vec<Standing>)> {
        self.tournaments
            .iter()
            .map(|(key, t)| (key, t, t.ranked(tiebreaks)))
            .collect()
    }
}

/// Direct encounter for every player, among the players whose `keys` are equal (see
/// [`Standing::direct_encounter`]).
fn direct_encounter(t: &Tournament, keys: &[Vec<u64>]) -> Vec<Option<u64>> {
    let mut groups: HashMap<&[u64], Vec<usize>> = HashMap::new();
    for (i, k) in keys.iter().enumerate() {
        groups.entry(k.as_slice()).or_default().push(i);
    }
    let mut group_of = vec![usize::MAX; keys.len()];
    let mut out = vec![None; keys.len()];
    for (g, members) in groups.values().enumerate() {
        for &i in members {
            group_of[i] = g;
        }
    }
    for members in groups.values().filter(|m| m.len() > 1) {
        let mut scores = Vec::with_capacity(members.len());
        let mut all_met = true;
        for &i in members {
            let mut met: Vec<usize> = Vec::new();
            let mut score = 0u64;
            for p in t.pairings(i) {
                if let Some(hp) = p.half_points
                    && group_of[p.opponent] == group_of[i]
                    && p.opponent != i
                {
                    met.push(p.opponent);
                    score += u64::from(hp);
                }
            }
            met.sort_unstable();
            met.dedup();
            all_met &= met.len() == members.len() - 1;
            scores.push(score);
        }
        if all_met {
            for (&i, s) in members.iter().zip(scores) {
                out[i] = Some(s);
            }
        }
    }
    out
}

fn rank(t: &Tournament, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    // Decided games only: (opponent, half points, opponent's rating in that game).
    let decided: Vec<Vec<(usize, u8, Option<u16>)>> = t
        .pairings
        .iter()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| p.half_points.map(|hp| (p.opponent, hp, p.opponent_rating)))
                .collect()
        })
        .collect();
    let points = points(t, &decided);
    let mut rows: Vec<Standing> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let games = &decided[i];
            let contributions: Vec<u64> = games.iter().map(|&(o, _, _)| points[o]).collect();
            let buchholz: u64 = contributions.iter().sum();
            let cut = contributions.iter().min().copied().unwrap_or(0);
            let rated: Vec<(u64, u8)> = games
                .iter()
                .filter_map(|&(_, hp, r)| r.map(|r| (u64::from(r), hp)))
                .collect();
            let rated_sum: u64 = rated.iter().map(|&(r, _)| r).sum();
            let rated_games = rated.len() as u64;
            let rated_half_points: u64 = rated.iter().map(|&(_, hp)| u64::from(hp)).sum();
            Standing {
                rank: 0,
                player_index: i,
                player: p.name.clone(),
                rating: p.rating,
                half_points: points[i],
                games: games.len() as u64,
                wins: games.iter().filter(|g| g.1 == 2).count() as u64,
                unfinished: (t.pairings[i].len() - games.len()) as u64,
                buchholz,
                buchholz_cut1: buchholz - cut,
                sonneborn_berger_quarters: games
                    .iter()
                    .map(|&(o, hp, _)| u64::from(hp) * points[o])
                    .sum(),
                direct_encounter: None,
                rated_games,
                aro: (rated_games > 0)
                    .then(|| ((2 * rated_sum + rated_games) / (2 * rated_games)) as i64),
                performance: performance(rated_sum, rated_games, rated_half_points),
            }
        })
        .collect();
    // The sort keys grow one tie-break at a time: direct encounter depends on who is still tied by then.
    let mut keys: Vec<Vec<u64>> = rows.iter().map(|r| vec![r.half_points]).collect();
    let mut shown = false;
    for &tb in tiebreaks {
        if tb == Tiebreak::DirectEncounter {
            let de = direct_encounter(t, &keys);
            for (row, v) in rows.iter_mut().zip(&de) {
                if !shown {
                    row.direct_encounter = *v;
                }
            }
            shown = true;
            for (k, v) in keys.iter_mut().zip(de) {
                k.push(v.unwrap_or(0));
            }
        } else {
            for (k, row) in keys.iter_mut().zip(&rows) {
                k.push(row.tiebreak(tb));
            }
        }
    }
    if !shown {
        let by_points: Vec<Vec<u64>> = rows.iter().map(|r| vec![r.half_points]).collect();
        for (row, v) in rows.iter_mut().zip(direct_encounter(t, &by_points)) {
            row.direct_encounter = v;
        }
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        keys[b]
            .cmp(&keys[a])
            .then_with(|| rows[a].player.cmp(&rows[b].player))
    });
    let mut ranked: Vec<Standing> = Vec::with_capacity(rows.len());
    for (n, &i) in order.iter().enumerate() {
        let mut row = rows[i].clone();
        row.rank = if n > 0 && keys[i] == keys[order[n - 1]] {
            ranked[n - 1].rank
        } else {
            n + 1
        };
        ranked.push(row);
    }
    ranked
}

/// Each player's points in half points: their decided games, their byes, and the pairing-allocated byes of the
/// rounds they alone had no game in when the rules say so (read from the rounds as TRF places them).
fn points(t: &Tournament, decided: &[Vec<(usize, u8, Option<u16>)>]) -> Vec<u64> {
    if t.rules.allocated_bye == AllocatedBye::Unpaired {
        let placement = t.placement();
        return (0..t.players.len())
            .map(|i| u64::from(placement.half_points(i)))
            .collect();
    }
    let mut points: Vec<u64> = decided
        .iter()
        .map(|games| games.iter().map(|&(_, hp, _)| u64::from(hp)).sum())
        .collect();
    for bye in &t.byes {
        points[bye.player] += u64::from(bye.half_points);
    }
    points
}

/// Half points (or quarter points with `quarters`) as a decimal: `3`, `2.5`, `6.25`.
pub(crate) fn decimal(value: u64, quarters: bool) -> String {
    let (unit, whole) = if quarters {
        (4, value / 4)
    } else {
        (2, value / 2)
    };
    match value % unit {
        0 => whole.to_string(),
        r if unit == 2 || r == 2 => format!("{whole}.5"),
        1 => format!("{whole}.25"),
        _ => format!("{whole}.75"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::pgn::parse_all;

    fn standings(pgn: &str) -> Standings {
        let mut s = Standings::new(1000);
        for game in parse_all(pgn.as_bytes()) {
            s.add(GameEntry::of(&game).as_ref());
        }
        s
    }

    const ROUND_ROBIN: &str = "\
[Event \"T\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n\
[Event \"T\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n\n\
[Event \"T\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[White \"A\"]\n[Black \"C\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n\n\
[Event \"T\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[White \"D\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n0-1\n\n\
[Event \"T\"]\n[Site \"S\"]\n[Date \"2024.01.03\"]\n[White \"D\"]\n[Black \"A\"]\n[Result \"*\"]\n\n*\n\n\
[Event \"?\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n\n1-0\n";

    #[test]
    fn points_buchholz_and_sonneborn_berger_by_hand() {
        let s = standings(ROUND_ROBIN);
        assert_eq!(s.without_event, 1);
        let ranked = s.ranked(&Tiebreak::DEFAULT);
        assert_eq!(ranked.len(), 1);
        let (key, t, rows) = &ranked[0];
        assert_eq!(
            (key.event.as_str(), key.site.as_str(), key.year.as_str()),
            ("T", "S", "2024")
        );
        assert_eq!(t.unfinished, 1);
        let by = |name: &str| rows.iter().find(|r| r.player == name).unwrap().clone();
        // Points: A 1.5 (beat B, drew C), B 1 (lost to A, beat D), C 1 (two draws), D 0.5.
        let a = by("A");
        assert_eq!((a.half_points, a.games, a.wins, a.unfinished), (3, 2, 1, 1));
        // Buchholz of A: B 1 + C 1 = 2; cut 1: 1; SB: 1 × 1 (B) + ½ × 1 (C) = 1.5.
        assert_eq!(
            (a.buchholz, a.buchholz_cut1, a.sonneborn_berger_quarters),
            (4, 2, 6)
        );
        let b = by("B");
        // B: Buchholz A 1.5 + D 0.5 = 2; SB 0 × 1.5 + 1 × 0.5 = 0.5.
        assert_eq!(
            (b.half_points, b.buchholz, b.sonneborn_berger_quarters),
            (2, 4, 2)
        );
        let c = by("C");
        // C: Buchholz D 0.5 + A 1.5 = 2; SB ½ × 0.5 + ½ × 1.5 = 1.
        assert_eq!(
            (c.half_points, c.buchholz, c.sonneborn_berger_quarters),
            (2, 4, 4)
        );
        // B and C tie on points, Buchholz cut 1 (B: 1.5, C: 1.5) and Buchholz (2): SB decides, C first.
        let order: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(order, ["A", "C", "B", "D"]);
        assert_eq!(
            rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        // With points alone, B and C share the second place.
        let plain = s.ranked(&[]);
        assert_eq!(
            plain[0].2.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 2, 2, 4]
        );
    }

    #[test]
    fn a_tournament_is_event_site_and_year() {
        let s = standings(
            "[Event \"Open\"]\n[Site \"X\"]\n[Date \"1990.05.01\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n\
             [Event \"Open\"]\n[Site \"X\"]\n[Date \"1991.05.01\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n\
             [Event \"Open\"]\n[Site \"X\"]\n[EventDate \"1990.??.??\"]\n[Date \"1991.01.01\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n0-1\n",
        );
        let ranked = s.ranked(&Tiebreak::DEFAULT);
        let years: Vec<&str> = ranked.iter().map(|(k, _, _)| k.year.as_str()).collect();
        assert_eq!(years, ["1990", "1991"]);
        assert_eq!(ranked[0].2.iter().map(|r| r.games).sum::<u64>(), 4);
    }

    #[test]
    fn memory_is_bounded_by_the_player_limit() {
        let mut s = Standings::new(4);
        for game in parse_all(ROUND_ROBIN.replace("\"T\"", "\"U\"").as_bytes())
            .iter()
            .chain(parse_all(ROUND_ROBIN.as_bytes()).iter())
        {
            s.add(GameEntry::of(game).as_ref());
        }
        assert_eq!(s.ranked(&[]).len(), 1);
        assert_eq!(s.games_left_out, 5);
    }

    #[test]
    fn pairings_per_player_with_rounds_colours_and_tags() {
        let s = standings(
            "[Event \"E\"]\n[Round \"3.2\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteTitle \"GM\"]\n[WhiteFideId \"1503014\"]\n\
             [WhiteFed \"nor\"]\n[BlackElo \"2100\"]\n[BlackFideId \"12x\"]\n[Result \"0-1\"]\n\n0-1\n\n\
             [Event \"E\"]\n[Round \"?\"]\n[White \"B\"]\n[Black \"A\"]\n[BlackElo \"2800\"]\n[Result \"*\"]\n\n*\n",
        );
        let ranked = s.ranked(&Tiebreak::DEFAULT);
        let (_, t, rows) = &ranked[0];
        let a = t.players().position(|p| p.name == "A").unwrap();
        let b = t.players().position(|p| p.name == "B").unwrap();
        let info = t.player(a).unwrap();
        assert_eq!(
            (
                info.title.as_deref(),
                info.fide_id,
                info.federation.as_deref(),
                info.rating
            ),
            (Some("GM"), Some(1_503_014), Some("NOR"), Some(2800))
        );
        assert_eq!(t.player(b).unwrap().fide_id, None, "not a number");
        assert_eq!(
            t.pairings(a),
            [
                Pairing {
                    game: 0,
                    round: Some(3),
                    opponent: b,
                    white: true,
                    half_points: Some(0),
                    opponent_rating: Some(2100),
                    // A decided game without moves.
                    kind: PairingKind::Forfeit
                },
                Pairing {
                    game: 1,
                    round: None,
                    opponent: b,
                    white: false,
                    half_points: None,
                    opponent_rating: None,
                    kind: PairingKind::Played
                },
            ]
        );
        assert_eq!(t.pairings(b)[0].half_points, Some(2));
        assert!(t.pairings(99).is_empty());
        assert_eq!(rows[0].player_index, b);
        assert_eq!((rows[0].unfinished, rows[0].games), (1, 1));
    }

    #[test]
    fn direct_encounter_among_tied_players_who_all_met() {
        // A, B, C each beat one of the others (a cycle) and D lost to all: A, B, C tie on 2 points and on
        // everything else; they all met and scored 1 each among themselves, so direct encounter splits nobody.
        let game = |w: &str, b: &str, r: &str| {
            format!("[Event \"E\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n")
        };
        let cycle = [
            game("A", "B", "1-0"),
            game("B", "C", "1-0"),
            game("C", "A", "1-0"),
            game("A", "D", "1-0"),
            game("B", "D", "1-0"),
            game("C", "D", "1-0"),
        ]
        .concat();
        let s = standings(&cycle);
        let rows = &s.ranked(&[Tiebreak::DirectEncounter])[0].2;
        assert_eq!(
            rows.iter()
                .map(|r| (r.rank, r.direct_encounter))
                .collect::<Vec<_>>(),
            [(1, Some(2)), (1, Some(2)), (1, Some(2)), (4, None)]
        );
        let s = standings(
            &[
                game("Z", "Y", "1-0"),
                game("Y", "X", "1-0"),
                game("X", "Z", "1/2-1/2"),
            ]
            .concat(),
        );
        let rows = &s.ranked(&[Tiebreak::DirectEncounter])[0].2;
        // Z 1.5, Y 1, X 0.5: no tie; direct encounter does not apply.
        assert!(rows.iter().all(|r| r.direct_encounter.is_none()));
        let s = standings(
            &[
                game("Z", "Y", "0-1"),
                game("Z", "X", "1-0"),
                game("X", "Y", "1-0"),
                game("X", "W", "0-1"),
                game("Z", "W", "1/2-1/2"),
            ]
            .concat(),
        );
        // Z and W tie on 1.5 and drew (½ each among them: still tied); X and Y tie on 1 and X beat Y, so X
        // goes before Y whatever the names say.
        let rows = &s.ranked(&[Tiebreak::DirectEncounter])[0].2;
        let order: Vec<(&str, usize, Option<u64>)> = rows
            .iter()
            .map(|r| (r.player.as_str(), r.rank, r.direct_encounter))
            .collect();
        assert_eq!(
            order,
            [
                ("W", 1, Some(1)),
                ("Z", 1, Some(1)),
                ("X", 3, Some(2)),
                ("Y", 4, Some(0))
            ]
        );
        // Tied players who have not all met: not applied. A and C tie with B, but A and C never played.
        let s = standings(
            &[
                game("A", "B", "1-0"),
                game("B", "C", "1-0"),
                game("C", "D", "1-0"),
                game("D", "A", "1-0"),
            ]
            .concat(),
        );
        let rows = &s.ranked(&[Tiebreak::DirectEncounter])[0].2;
        assert!(
            rows.iter().all(|r| r.direct_encounter.is_none()),
            "{rows:?}"
        );
        assert!(rows.iter().all(|r| r.rank == 1));
    }

    fn game(white: &str, black: &str, round: &str, result: &str, moves: &str) -> String {
        format!(
            "[Event \"E\"]\n[Site \"S\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    }

    #[test]
    fn games_that_are_no_pairing_are_left_out_and_counted() {
        let pgn = [
            game("A", "B", "1", "1-0", "1. e4 e5"),
            // A player against himself would score both sides of his game.
            game("A", "A", "2", "1-0", "1. d4 d5"),
            // Every unknown name would be one player, ranked.
            game("?", "B", "2", "0-1", "1. c4 c5"),
            game("C", "-", "2", "1-0", "1. f4 f5"),
            game("", "C", "3", "1-0", "1. g3 g6"),
            game("NN", "C", "3", "1-0", "1. b3 b6"),
            "[Event \"E\"]\n[Site \"S\"]\n[White \"C\"]\n[Result \"1-0\"]\n\n1-0\n\n".to_string(),
        ]
        .concat();
        let s = standings(&pgn);
        let ranked = s.ranked(&Tiebreak::DEFAULT);
        let (_, t, rows) = &ranked[0];
        let names: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!((t.games(), rows[0].games, rows[0].half_points), (1, 1, 2));
        assert_eq!(
            t.left_out,
            LeftOut {
                duplicates: 0,
                unknown_player: 5,
                against_self: 1
            }
        );
        assert_eq!(
            t.left_out.said(Locale::En).unwrap(),
            "6 games left out: 5 games with no player's name on a side, 1 game of a player against himself"
        );
        assert_eq!(
            t.left_out.said(Locale::Fr).unwrap(),
            "6 parties laissées de côté : 5 parties sans nom de joueur d'un côté, 1 partie d'un joueur contre lui-même"
        );
        assert_eq!(LeftOut::default().said(Locale::En), None);
    }

    #[test]
    fn decimals_of_half_and_quarter_points() {
        assert_eq!(decimal(5, false), "2.5");
        assert_eq!(decimal(4, false), "2");
        assert_eq!(decimal(9, true), "2.25");
        assert_eq!(decimal(10, true), "2.5");
        assert_eq!(decimal(11, true), "2.75");
    }
}
