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
//! Players are ranked by points, then by FIDE's tie-breaks (Handbook C.07) in the order asked
//! ([`crate::options::Tiebreaks`]: codes such as `DE,BH/C1,BH,SB`), computed by [`super::fide_tiebreaks`]
//! over the tournament's cross table ([`CrossTable`]: the rounds as TRF writes them, so that unplayed rounds,
//! forfeits and byes count as C.07's article 16 says); players equal on points and every code share a rank
//! and are listed in start order ([`Tournament::start_ranks`]). Without a list, each tournament is ranked by
//! the list FIDE recommends for its kind ([`super::fide_tiebreaks::default_tiebreaks`]: round robin or
//! Swiss, [`Tournament::kind`]). The standings, `report` and `stats --summary` all take their ranks and
//! tie-breaks from here: one ranking, computed once per output.
//!
//! Beside the tie-breaks, every line has the figures that do not depend on them ([`Standing::figures`]):
//! rating, points, games, wins, unfinished games, the average rating of the opponents met over the board and
//! the performance as FIDE computes it for norms ([`super::perf`]).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use pgnkit::Color;
use pgnkit::pgn::{Game, GameResult};

use super::crosstable::{CrossTable, PairingKind, Placed, Placement};
use super::fide_tiebreaks::{self, TournamentKind, Value, default_tiebreaks, tournament_kind};
use super::identity::{
    Date, EntryTags, NotAPairing, PlayerInfo, TournamentKey, code3, date_of, known, not_a_pairing,
    player_of, round_of,
};
use super::perf::performance;
use super::tiebreak_codes::TiebreakCode;
use super::unplayed::{GameFacts, Reading};
use crate::localized;
use crate::messages::Locale;
use crate::options::{Tiebreaks, UnplayedRules};

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

    /// The players ranked by points, then by `tiebreaks` in order (by default, those FIDE recommends for the
    /// kind of tournament); players sharing a rank in start order.
    pub(crate) fn ranked(&self, tiebreaks: &Tiebreaks) -> Vec<Standing> {
        rank(self, tiebreaks)
    }

    /// Round robin or Swiss, from `EventType` when it says, else from the players and the `rounds`.
    pub(crate) fn kind(&self, rounds: usize) -> TournamentKind {
        tournament_kind(
            self.details.event_type.as_deref(),
            self.players.len(),
            rounds,
        )
    }

    /// The codes `tiebreaks` rank this tournament of `rounds` rounds by.
    fn tiebreak_codes(&self, tiebreaks: &Tiebreaks, rounds: usize) -> Vec<TiebreakCode> {
        tiebreaks
            .chosen()
            .map_or_else(|| default_tiebreaks(self.kind(rounds)), <[_]>::to_vec)
    }

    /// Players' start ranks (1-based), by player index: by rating, highest first, unrated last, then by
    /// name. The TRF numbers the players so, and players sharing a rank are listed so.
    pub(crate) fn start_ranks(&self) -> Vec<usize> {
        let players = &self.players;
        let mut order: Vec<usize> = (0..players.len()).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&players[a], &players[b]);
            pb.rating
                .cmp(&pa.rating)
                .then_with(|| pa.name.cmp(&pb.name))
        });
        let mut rank = vec![0; players.len()];
        for (n, &i) in order.iter().enumerate() {
            rank[i] = n + 1;
        }
        rank
    }

    /// A player's line before ranking: their games, and `half_points` (from the rounds).
    fn line(&self, i: usize, half_points: u64) -> Standing {
        let pairings = self.pairings(i);
        let decided = pairings.iter().filter(|p| p.half_points.is_some());
        // Only games played over the board count for the rating: not forfeits, not games of less than a
        // move.
        let rated: Vec<(u64, u8)> = decided
            .clone()
            .filter(|p| p.kind == PairingKind::Played)
            .filter_map(|p| Some((u64::from(p.opponent_rating?), p.half_points?)))
            .collect();
        let rated_sum: u64 = rated.iter().map(|&(r, _)| r).sum();
        let rated_games = rated.len() as u64;
        let rated_half_points: u64 = rated.iter().map(|&(_, hp)| u64::from(hp)).sum();
        let games = decided.clone().count() as u64;
        Standing {
            rank: 0,
            player_index: i,
            player: self.players[i].name.clone(),
            rating: self.players[i].rating,
            half_points,
            games,
            wins: decided.filter(|p| p.half_points == Some(2)).count() as u64,
            unfinished: pairings.len() as u64 - games,
            rated_games,
            aro: (rated_games > 0)
                .then(|| ((2 * rated_sum + rated_games) / (2 * rated_games)) as i64),
            performance: performance(rated_sum, rated_games, rated_half_points),
            tiebreaks: Vec::new(),
            over_games: OverGames::default(),
        }
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

    /// Every bye as the rounds hold it (the pairing-allocated bye of `--allocated-bye unpaired` included):
    /// the player, the round (from 1) and the bye's TRF code (`F`, `H`, `Z`, `U`), by player then round.
    pub(crate) fn byes_placed(&self) -> Vec<(usize, u32, char)> {
        let placement = self.placement();
        let mut byes = Vec::new();
        for (player, cells) in placement.cells.iter().enumerate() {
            for (&column, cell) in cells {
                if cell.opponent.is_none()
                    && let (Some(code), Ok(round)) =
                        (cell.outcome.code(), u32::try_from(column + 1))
                {
                    byes.push((player, round, code));
                }
            }
        }
        byes
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

/// One player's line of the standings. Points are in half points (exact), shown divided by 2.
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
    /// Points, in half points: games, forfeits and byes, as the rounds' TRF codes score them.
    pub(crate) half_points: u64,
    /// Decided games (forfeits included).
    pub(crate) games: u64,
    /// Decided games won (forfeits included).
    pub(crate) wins: u64,
    /// Unfinished or result-less games (not scored).
    pub(crate) unfinished: u64,
    /// Games played over the board against a rated opponent (those the ARO and the performance count).
    pub(crate) rated_games: u64,
    /// The average rating of the rated opponents met over the board, rounded.
    pub(crate) aro: Option<i64>,
    /// The performance rating ([`super::perf`]).
    pub(crate) performance: Option<i64>,
    /// The tie-breaks the tournament is ranked by after points, in order, with this player's values; empty
    /// when the tournament is too large for them ([`MAX_TABLE_CELLS`]).
    pub(crate) tiebreaks: Vec<(TiebreakCode, Value)>,
    /// Buchholz, Buchholz cut 1, Sonneborn-Berger and direct encounter over the games the file has, without
    /// C.07's article 16: the figures standings gave before the codes, kept as the CSV and JSON columns
    /// scripts read them by (`buchholz`...).
    pub(crate) over_games: OverGames,
}

/// A player's tie-break figures over the decided games with an opponent as the file has them (forfeits
/// included, no virtual opponent for a round without a game): see [`over_games`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OverGames {
    /// The sum of the opponents' points, once per game, in half points.
    pub(crate) buchholz: u64,
    /// `buchholz` without its least contribution, in half points.
    pub(crate) buchholz_cut1: u64,
    /// The sum over games of the player's score times the opponent's points, in quarter points.
    pub(crate) sonneborn_berger_quarters: u64,
    /// The points, in half points, scored against the players with as many points, when all of them have met
    /// each other; `None` otherwise (nobody else on those points, or not all met).
    pub(crate) direct_encounter: Option<u64>,
}

impl Standing {
    /// The figures after the player's name that do not depend on the tie-breaks, as every format shows them
    /// (rating, points, games, wins, unfinished, ARO, performance), `missing` for a value there is none of:
    /// one place, so that the CSV, the text table and the report cannot drift.
    pub(crate) fn figures(&self, missing: &str) -> [String; 7] {
        let or_missing = |v: Option<String>| v.unwrap_or_else(|| missing.to_string());
        [
            or_missing(self.rating.map(|r| r.to_string())),
            decimal(self.half_points, false),
            self.games.to_string(),
            self.wins.to_string(),
            self.unfinished.to_string(),
            or_missing(self.aro.map(|v| v.to_string())),
            or_missing(self.performance.map(|v| v.to_string())),
        ]
    }

    /// This player's value of `code`, if the tournament was ranked by it.
    pub(crate) fn tiebreak(&self, code: TiebreakCode) -> Option<Value> {
        self.tiebreaks
            .iter()
            .find(|(c, _)| *c == code)
            .map(|&(_, v)| v)
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
        tiebreaks: &Tiebreaks,
    ) -> Vec<(&TournamentKey, &Tournament, Vec<Standing>)> {
        self.tournaments
            .iter()
            .map(|(key, t)| (key, t, t.ranked(tiebreaks)))
            .collect()
    }
}

/// The tie-break codes `rows` (one tournament's) were ranked by, in order: every line has the same; none when
/// the tournament was ranked by points alone.
pub(crate) fn codes_of(rows: &[Standing]) -> Vec<TiebreakCode> {
    rows.first()
        .map(|r| r.tiebreaks.iter().map(|&(code, _)| code).collect())
        .unwrap_or_default()
}

/// The widest a text table's line may grow with its tie-break columns, in terminal columns: a list of codes
/// as long as the arbiter likes must not make lines no terminal shows (CSV and JSON keep every code).
pub(crate) const TEXT_TABLE_COLUMNS: usize = 150;

/// The tie-break columns of a text table of `rows`, after `used` terminal columns of other cells: the codes
/// shown, each as wide as its heading or its widest value, the values of each row (as `locale` writes
/// decimals), and the codes left out because the line would pass [`TEXT_TABLE_COLUMNS`] (the last ones:
/// the first codes decide most ties).
pub(crate) struct TiebreakColumns {
    pub(crate) codes: Vec<TiebreakCode>,
    pub(crate) widths: Vec<usize>,
    /// Per row, the values of the codes shown.
    pub(crate) values: Vec<Vec<String>>,
    pub(crate) left_out: Vec<TiebreakCode>,
}

impl TiebreakColumns {
    /// Each column two spaces from the cell before it.
    pub(crate) fn of(rows: &[Standing], locale: Locale, used: usize) -> TiebreakColumns {
        let mut codes = codes_of(rows);
        let mut values: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                r.tiebreaks
                    .iter()
                    .map(|(_, v)| {
                        crate::messages::localized_decimal(locale, &v.to_string()).into_owned()
                    })
                    .collect()
            })
            .collect();
        let mut widths: Vec<usize> = codes
            .iter()
            .enumerate()
            .map(|(k, code)| {
                values
                    .iter()
                    .filter_map(|v| v.get(k).map(String::len))
                    .chain([code.to_string().len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut line = used;
        let shown = widths
            .iter()
            .take_while(|&&w| {
                line += 2 + w;
                line <= TEXT_TABLE_COLUMNS
            })
            .count();
        let left_out = codes.split_off(shown);
        widths.truncate(shown);
        for v in &mut values {
            v.truncate(shown);
        }
        TiebreakColumns {
            codes,
            widths,
            values,
            left_out,
        }
    }

    /// The line saying which codes the table leaves out, if any (with its line end).
    pub(crate) fn left_out_said(&self, locale: Locale) -> Option<String> {
        if self.left_out.is_empty() {
            return None;
        }
        let codes = self
            .left_out
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        Some(localized!(
            locale,
            "  (not shown, for the table's width: {codes}; `pgnkit standings --format csv` or `json` has them)\n",
            "  (non affichés, pour la largeur du tableau : {codes} ; `pgnkit standings --format csv` ou `json` les donne)\n"
        ))
    }
}

/// The most cells (players × rounds) of a tournament's cross table that the tie-breaks are computed over: the
/// table is dense, and a "tournament" of a database (one Event, Site and year for years of casual games) can
/// have thousands of players and rounds. Beyond it the players are ranked by points alone.
pub(crate) const MAX_TABLE_CELLS: usize = 1 << 21;

/// The ranking: points and the tie-breaks of FIDE's C.07 ([`super::fide_tiebreaks`]) over the tournament's
/// cross table, the players in start order ([`Tournament::start_ranks`]).
fn rank(t: &Tournament, tiebreaks: &Tiebreaks) -> Vec<Standing> {
    let n = t.players.len();
    let placement = t.placement();
    let start = t.start_ranks();
    let mut by_start = vec![0; n];
    for (i, &s) in start.iter().enumerate() {
        by_start[s - 1] = i;
    }
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| t.line(i, u64::from(placement.half_points(i))))
        .collect();
    let points: Vec<u64> = rows.iter().map(|r| r.half_points).collect();
    for (row, figures) in rows.iter_mut().zip(over_games(t, &points)) {
        row.over_games = figures;
    }
    let order: Vec<(usize, u32)> = if n.saturating_mul(placement.rounds) <= MAX_TABLE_CELLS {
        let table = CrossTable::of(t.players(), &placement, &start);
        let codes = t.tiebreak_codes(tiebreaks, table.round_count());
        let (values, ranking) =
            fide_tiebreaks::values_and_ranking(&table, t.kind(table.round_count()), &codes);
        for (row, values) in values.into_iter().enumerate() {
            rows[by_start[row]].tiebreaks = codes.iter().copied().zip(values).collect();
        }
        ranking
            .into_iter()
            .map(|(row, rank)| (by_start[row], rank))
            .collect()
    } else {
        let mut order: Vec<usize> = by_start.clone();
        order.sort_by_key(|&i| std::cmp::Reverse(rows[i].half_points));
        let mut ranked: Vec<(usize, u32)> = Vec::with_capacity(n);
        for (k, &i) in order.iter().enumerate() {
            let rank = match ranked.last() {
                Some(&(prev, r)) if rows[prev].half_points == rows[i].half_points => r,
                _ => k as u32 + 1,
            };
            ranked.push((i, rank));
        }
        ranked
    };
    let mut rows: Vec<Option<Standing>> = rows.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|(i, rank)| {
            let row = rows[i].take()?;
            Some(Standing {
                rank: rank as usize,
                ..row
            })
        })
        .collect()
}

/// Every player's [`OverGames`], their final points being `points` (half points, by player index).
fn over_games(t: &Tournament, points: &[u64]) -> Vec<OverGames> {
    let decided = |i: usize| {
        t.pairings(i)
            .iter()
            .filter_map(|p| p.half_points.map(|hp| (p.opponent, u64::from(hp))))
    };
    let mut figures: Vec<OverGames> = (0..points.len())
        .map(|i| {
            let contributions: Vec<u64> = decided(i).map(|(o, _)| points[o]).collect();
            let buchholz = contributions.iter().sum::<u64>();
            OverGames {
                buchholz,
                buchholz_cut1: buchholz - contributions.iter().min().copied().unwrap_or(0),
                sonneborn_berger_quarters: decided(i).map(|(o, hp)| hp * points[o]).sum(),
                direct_encounter: None,
            }
        })
        .collect();
    let mut tied: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, &p) in points.iter().enumerate() {
        tied.entry(p).or_default().push(i);
    }
    for group in tied.values().filter(|g| g.len() > 1) {
        let mut all_met = true;
        let mut scores = Vec::with_capacity(group.len());
        for &i in group {
            let mut met: Vec<usize> = Vec::new();
            let mut score = 0;
            for (o, hp) in decided(i).filter(|&(o, _)| o != i && points[o] == points[i]) {
                met.push(o);
                score += hp;
            }
            met.sort_unstable();
            met.dedup();
            all_met &= met.len() == group.len() - 1;
            scores.push(score);
        }
        if all_met {
            for (&i, score) in group.iter().zip(scores) {
                figures[i].direct_encounter = Some(score);
            }
        }
    }
    figures
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
    use crate::tournament::tiebreak_codes::{Kind, parse_list};
    use pgnkit::pgn::parse_all;

    /// Exactly the codes of `list`.
    fn codes(list: &str) -> Tiebreaks {
        Tiebreaks::of(&parse_list(list).unwrap())
    }

    /// A line's value of `code`, in hundredths.
    fn value(row: &Standing, code: &str) -> i64 {
        row.tiebreak(code.parse().unwrap()).unwrap().0
    }

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
        let ranked = s.ranked(&codes("BH/C1,BH,SB"));
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
            (value(&a, "BH"), value(&a, "BH/C1"), value(&a, "SB")),
            (200, 100, 150)
        );
        let b = by("B");
        // B: Buchholz A 1.5 + D 0.5 = 2; SB 0 × 1.5 + 1 × 0.5 = 0.5.
        assert_eq!(
            (b.half_points, value(&b, "BH"), value(&b, "SB")),
            (2, 200, 50)
        );
        let c = by("C");
        // C: Buchholz D 0.5 + A 1.5 = 2; SB ½ × 0.5 + ½ × 1.5 = 1.
        assert_eq!(
            (c.half_points, value(&c, "BH"), value(&c, "SB")),
            (2, 200, 100)
        );
        // B and C tie on points, Buchholz cut 1 (B: 1.5, C: 1.5) and Buchholz (2): SB decides, C first.
        let order: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(order, ["A", "C", "B", "D"]);
        assert_eq!(
            rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        // With points alone, B and C share the second place.
        let plain = s.ranked(&Tiebreaks::of(&[]));
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
        let ranked = s.ranked(&Tiebreaks::default());
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
        assert_eq!(s.ranked(&Tiebreaks::default()).len(), 1);
        assert_eq!(s.games_left_out, 5);
    }

    #[test]
    fn pairings_per_player_with_rounds_colours_and_tags() {
        let s = standings(
            "[Event \"E\"]\n[Round \"3.2\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteTitle \"GM\"]\n[WhiteFideId \"1503014\"]\n\
             [WhiteFed \"nor\"]\n[BlackElo \"2100\"]\n[BlackFideId \"12x\"]\n[Result \"0-1\"]\n\n0-1\n\n\
             [Event \"E\"]\n[Round \"?\"]\n[White \"B\"]\n[Black \"A\"]\n[BlackElo \"2800\"]\n[Result \"*\"]\n\n*\n",
        );
        let ranked = s.ranked(&Tiebreaks::default());
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
    fn text_tables_leave_out_the_last_codes_past_their_width() {
        let pgn = [
            game("A", "B", "1", "1-0", "1. e4 e5"),
            game("B", "C", "2", "1/2-1/2", "1. e4 e5"),
            game("C", "A", "3", "0-1", "1. e4 e5"),
        ]
        .concat();
        let s = standings(&pgn);
        let rows = &s.ranked(&codes("BH,SB,WIN"))[0].2;
        let all = TiebreakColumns::of(rows, Locale::En, 0);
        assert_eq!(all.codes.len(), 3);
        assert!(all.left_out.is_empty() && all.left_out_said(Locale::En).is_none());
        // Room for the first column alone.
        let used = TEXT_TABLE_COLUMNS - 2 - all.widths[0];
        let some = TiebreakColumns::of(rows, Locale::En, used);
        assert_eq!(some.codes, all.codes[..1]);
        assert_eq!(some.left_out, all.codes[1..]);
        assert!(some.values.iter().all(|v| v.len() == 1));
        let said = some.left_out_said(Locale::Fr).unwrap();
        assert!(
            said.contains("SB, WIN") && said.contains("non affichés"),
            "{said}"
        );
    }

    #[test]
    fn direct_encounter_among_tied_players_who_all_met() {
        // A, B, C each beat one of the others (a cycle) and D lost to all: A, B, C tie on 2 points and on
        // everything else; they all met and scored 1 each among themselves, so direct encounter splits nobody.
        // Games with moves: a game without any is a forfeit (`--moveless`' default).
        let game = |w: &str, b: &str, r: &str| {
            format!(
                "[Event \"E\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n1. e4 e5 {r}\n\n"
            )
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
        let rows = &s.ranked(&codes("DE"))[0].2;
        assert_eq!(
            rows.iter()
                .map(|r| (
                    r.rank,
                    r.tiebreak(TiebreakCode::plain(Kind::DirectEncounter))
                        .map(|v| v.0)
                ))
                .collect::<Vec<_>>(),
            // C.07's DE is a rank among the players it compares, 0 where it separates nobody (as FIDE's
            // checker writes it): 0 for the three, and for D, tied with nobody.
            [(1, Some(0)), (1, Some(0)), (1, Some(0)), (4, Some(0))]
        );
        let s = standings(
            &[
                game("Z", "Y", "1-0"),
                game("Y", "X", "1-0"),
                game("X", "Z", "1/2-1/2"),
            ]
            .concat(),
        );
        let rows = &s.ranked(&codes("DE"))[0].2;
        // Z 1.5, Y 1, X 0.5: no tie; direct encounter separates nobody (0).
        assert!(rows.iter().all(|r| {
            r.tiebreak(TiebreakCode::plain(Kind::DirectEncounter))
                .map(|v| v.0)
                == Some(0)
        }));
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
        let rows = &s.ranked(&codes("DE"))[0].2;
        let order: Vec<(&str, usize, Option<i64>)> = rows
            .iter()
            .map(|r| {
                (
                    r.player.as_str(),
                    r.rank,
                    r.tiebreak(TiebreakCode::plain(Kind::DirectEncounter))
                        .map(|v| v.0),
                )
            })
            .collect();
        // DE's value (in hundredths) is the rank it gives within the group: X 1, Y 2; W and Z, not separated, 0.
        assert_eq!(
            order,
            [
                ("W", 1, Some(0)),
                ("Z", 1, Some(0)),
                ("X", 3, Some(100)),
                ("Y", 4, Some(200))
            ]
        );
        // Tied players who have not all met (A and C never played, nor B and D), each with a win and a loss
        // among the others: no one could not be caught, so DE separates nobody (0).
        let s = standings(
            &[
                game("A", "B", "1-0"),
                game("B", "C", "1-0"),
                game("C", "D", "1-0"),
                game("D", "A", "1-0"),
            ]
            .concat(),
        );
        let rows = &s.ranked(&codes("DE"))[0].2;
        assert!(
            rows.iter().all(|r| r
                .tiebreak(TiebreakCode::plain(Kind::DirectEncounter))
                .map(|v| v.0)
                == Some(0)),
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
        let ranked = s.ranked(&Tiebreaks::default());
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
