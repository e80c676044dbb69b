//! Tournament standings with tie-breaks, from the games of any number of files.
//!
//! A tournament is keyed by (Event, Site, year): the year is the first four characters of `EventDate`, else of
//! `Date` (`????` when neither says). Games whose `Event` is missing, empty or `?` belong to no tournament and
//! are counted apart. Only decided games count: `1-0`, `0-1`, `1/2-1/2` (from the `Result` tag, else the
//! termination marker); unfinished (`*`) and result-less games are counted apart and score nothing, for
//! either player or their opponents (no forfeit tag is read: PGN has no standard one).
//!
//! Over the games present (FIDE Handbook C.07 definitions, without virtual opponents for unplayed rounds):
//! * points: 1 a win, ½ a draw;
//! * Buchholz: the sum of the final points of the opponents met, once per game;
//! * Buchholz cut 1: Buchholz without the least of those contributions;
//! * Sonneborn-Berger: the sum over games of (the player's score in that game × that opponent's points);
//! * wins; ARO, the average rating of the rated opponents (rounded); performance as FIDE computes it for
//!   norms ([`crate::stats::perf`]).
//!
//! Players are ranked by points, then by the tie-breaks in the order asked ([`Tiebreak`]), then by name;
//! players equal on all of them share a rank.

use std::collections::HashMap;

use pgnkit::pgn::{Game, GameResult};

use crate::stats::perf::{performance, rating_of};

/// A tournament: (Event, Site, year).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentKey {
    pub event: String,
    pub site: String,
    pub year: String,
}

/// What standings need of one game.
#[derive(Clone, Debug)]
pub struct GameEntry {
    pub key: TournamentKey,
    pub white: String,
    pub black: String,
    pub white_rating: Option<u16>,
    pub black_rating: Option<u16>,
    /// White's score in half points (2 a win, 1 a draw, 0 a loss); `None` for an unfinished game.
    pub white_half_points: Option<u8>,
}

impl TournamentKey {
    /// The tournament of a game: `None` when it belongs to none (Event missing, empty or `?`).
    pub fn of(game: &Game<'_>) -> Option<TournamentKey> {
        let tag = |name: &str| game.tag(name).map(|v| v.trim().to_string());
        let event = tag("Event").filter(|e| !e.is_empty() && e != "?")?;
        let date = tag("EventDate")
            .filter(|d| !d.is_empty())
            .or_else(|| tag("Date").filter(|d| !d.is_empty()))
            .unwrap_or_else(|| "????".to_string());
        Some(TournamentKey {
            event,
            site: tag("Site").unwrap_or_default(),
            year: date.chars().take(4).collect(),
        })
    }
}

/// The entry of a game: `None` when it belongs to no tournament (Event missing, empty or `?`).
pub fn entry_of(game: &Game<'_>) -> Option<GameEntry> {
    let tag = |name: &str| game.tag(name).map(|v| v.trim().to_string());
    let key = TournamentKey::of(game)?;
    let result = tag("Result")
        .and_then(|r| GameResult::from_tag(&r))
        .or(game.result);
    let white_half_points = match result {
        Some(GameResult::WhiteWins) => Some(2),
        Some(GameResult::BlackWins) => Some(0),
        Some(GameResult::Draw) => Some(1),
        _ => None,
    };
    Some(GameEntry {
        key,
        white: tag("White").unwrap_or_default(),
        black: tag("Black").unwrap_or_default(),
        white_rating: tag("WhiteElo").and_then(|r| rating_of(&r)),
        black_rating: tag("BlackElo").and_then(|r| rating_of(&r)),
        white_half_points,
    })
}

/// A tie-break, in `--tiebreaks`' names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    BuchholzCut1,
    Buchholz,
    SonnebornBerger,
    Wins,
}

impl Tiebreak {
    /// FIDE's usual order for individual tournaments: Buchholz cut 1, Buchholz, Sonneborn-Berger, wins.
    pub const DEFAULT: [Tiebreak; 4] = [
        Tiebreak::BuchholzCut1,
        Tiebreak::Buchholz,
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::BuchholzCut1 => "buchholz_cut1",
            Tiebreak::Buchholz => "buchholz",
            Tiebreak::SonnebornBerger => "sonneborn_berger",
            Tiebreak::Wins => "wins",
        }
    }

    pub fn from_name(name: &str) -> Option<Tiebreak> {
        [
            Tiebreak::BuchholzCut1,
            Tiebreak::Buchholz,
            Tiebreak::SonnebornBerger,
            Tiebreak::Wins,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }
}

#[derive(Clone, Debug, Default)]
struct Player {
    name: String,
    /// The last rating seen.
    rating: Option<u16>,
    /// Decided games: (opponent, this player's half points, the opponent's rating in that game).
    games: Vec<(usize, u8, Option<u16>)>,
    unfinished: u64,
}

/// One tournament's players and games, in the order met.
#[derive(Clone, Debug, Default)]
pub struct Tournament {
    players: Vec<Player>,
    index: HashMap<String, usize>,
    /// Games counted apart: unfinished or without a result.
    pub unfinished: u64,
}

impl Tournament {
    fn player(&mut self, name: &str, rating: Option<u16>) -> usize {
        let i = *self.index.entry(name.to_string()).or_insert_with(|| {
            self.players.push(Player {
                name: name.to_string(),
                ..Player::default()
            });
            self.players.len() - 1
        });
        if rating.is_some() {
            self.players[i].rating = rating;
        }
        i
    }

    fn add(&mut self, e: &GameEntry) {
        let w = self.player(&e.white, e.white_rating);
        let b = self.player(&e.black, e.black_rating);
        match e.white_half_points {
            Some(hp) => {
                self.players[w].games.push((b, hp, e.black_rating));
                self.players[b].games.push((w, 2 - hp, e.white_rating));
            }
            None => {
                self.unfinished += 1;
                self.players[w].unfinished += 1;
                self.players[b].unfinished += 1;
            }
        }
    }
}

/// One player's line of the standings. Points and tie-breaks are in half points (exact), shown divided by 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub rank: usize,
    pub player: String,
    pub rating: Option<u16>,
    pub half_points: u64,
    pub games: u64,
    pub wins: u64,
    pub unfinished: u64,
    pub buchholz: u64,
    pub buchholz_cut1: u64,
    /// Sonneborn-Berger in quarter points (half points × half points).
    pub sonneborn_berger_quarters: u64,
    pub aro: Option<i64>,
    pub performance: Option<i64>,
}

impl Standing {
    fn tiebreak(&self, t: Tiebreak) -> u64 {
        match t {
            // Compared in quarter points, as Sonneborn-Berger is kept.
            Tiebreak::BuchholzCut1 => self.buchholz_cut1 * 2,
            Tiebreak::Buchholz => self.buchholz * 2,
            Tiebreak::SonnebornBerger => self.sonneborn_berger_quarters,
            Tiebreak::Wins => self.wins,
        }
    }
}

/// The standings of every tournament met, in bounded memory: at most `max_players` player entries over all
/// tournaments are kept (games of players beyond are counted in `games_left_out`).
#[derive(Clone, Debug)]
pub struct Standings {
    tournaments: Vec<(TournamentKey, Tournament)>,
    index: HashMap<TournamentKey, usize>,
    players: usize,
    max_players: usize,
    /// Games that belong to no tournament (Event missing or `?`).
    pub without_event: u64,
    /// Games of tournaments or players beyond the limit.
    pub games_left_out: u64,
}

impl Standings {
    pub fn new(max_players: usize) -> Standings {
        Standings {
            tournaments: Vec::new(),
            index: HashMap::new(),
            players: 0,
            max_players,
            without_event: 0,
            games_left_out: 0,
        }
    }

    /// Adds one game (`None`: a game without a tournament).
    pub fn add(&mut self, entry: Option<&GameEntry>) {
        let Some(e) = entry else {
            self.without_event += 1;
            return;
        };
        let i = match self.index.get(&e.key) {
            Some(&i) => i,
            None => {
                if self.players + 2 > self.max_players {
                    self.games_left_out += 1;
                    return;
                }
                self.tournaments
                    .push((e.key.clone(), Tournament::default()));
                self.index.insert(e.key.clone(), self.tournaments.len() - 1);
                self.tournaments.len() - 1
            }
        };
        let t = &mut self.tournaments[i].1;
        let new = usize::from(!t.index.contains_key(&e.white))
            + usize::from(!t.index.contains_key(&e.black));
        if self.players + new > self.max_players {
            self.games_left_out += 1;
            return;
        }
        self.players += new;
        t.add(e);
    }

    /// The tournaments, in the order first met, with their ranked players.
    pub fn ranked(
        &self,
        tiebreaks: &[Tiebreak],
    ) -> Vec<(&TournamentKey, &Tournament, Vec<Standing>)> {
        self.tournaments
            .iter()
            .map(|(key, t)| (key, t, rank(t, tiebreaks)))
            .collect()
    }
}

fn rank(t: &Tournament, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    let points: Vec<u64> = t
        .players
        .iter()
        .map(|p| p.games.iter().map(|&(_, hp, _)| u64::from(hp)).sum())
        .collect();
    let mut rows: Vec<Standing> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let contributions: Vec<u64> = p.games.iter().map(|&(o, _, _)| points[o]).collect();
            let buchholz: u64 = contributions.iter().sum();
            let cut = contributions.iter().min().copied().unwrap_or(0);
            let rated: Vec<(u64, u8)> = p
                .games
                .iter()
                .filter_map(|&(_, hp, r)| r.map(|r| (u64::from(r), hp)))
                .collect();
            let rated_sum: u64 = rated.iter().map(|&(r, _)| r).sum();
            let rated_games = rated.len() as u64;
            let rated_half_points: u64 = rated.iter().map(|&(_, hp)| u64::from(hp)).sum();
            Standing {
                rank: 0,
                player: p.name.clone(),
                rating: p.rating,
                half_points: points[i],
                games: p.games.len() as u64,
                wins: p.games.iter().filter(|g| g.1 == 2).count() as u64,
                unfinished: p.unfinished,
                buchholz,
                buchholz_cut1: buchholz - cut,
                sonneborn_berger_quarters: p
                    .games
                    .iter()
                    .map(|&(o, hp, _)| u64::from(hp) * points[o])
                    .sum(),
                aro: (rated_games > 0)
                    .then(|| ((2 * rated_sum + rated_games) / (2 * rated_games)) as i64),
                performance: performance(rated_sum, rated_games, rated_half_points),
            }
        })
        .collect();
    let key = |s: &Standing| {
        let mut k = vec![s.half_points];
        k.extend(tiebreaks.iter().map(|&t| s.tiebreak(t)));
        k
    };
    rows.sort_by(|a, b| key(b).cmp(&key(a)).then_with(|| a.player.cmp(&b.player)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

/// Half points (or quarter points with `quarters`) as a decimal: `3`, `2.5`, `6.25`.
pub fn decimal(value: u64, quarters: bool) -> String {
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
            s.add(entry_of(&game).as_ref());
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
            s.add(entry_of(game).as_ref());
        }
        assert_eq!(s.ranked(&[]).len(), 1);
        assert_eq!(s.games_left_out, 5);
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
