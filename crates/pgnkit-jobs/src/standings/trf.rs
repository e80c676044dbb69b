//! One tournament as FIDE's Tournament Report File, TRF-16 (FIDE Handbook C.04 Annex 2, "Format of TRF
//! (Tournament Report File)", approved in Elista, 10 August 2015): the data-exchange format that rating
//! officers and pairing programs (JaVaFo, bbpPairings, Swiss-Manager) read.
//!
//! What is written:
//! * tournament records, from column 5: `012` Event, `022` Site (the city), `032` EventCountry, `042` and
//!   `052` the first and last day (`EventDate`, else the earliest complete `Date`; the latest `Date`) as
//!   `YYYY/MM/DD`, `062` players, `072` rated players, `082` teams (0: an individual event), `092` the type
//!   (from `EventType`, else "Individual: Round robin" when every two players met at least once, else
//!   "Individual"), `102` Arbiter, `122` TimeControl, `132` each round's date (`YY/MM/DD` at columns 92-99,
//!   102-109...: the earliest complete `Date` of the round's games); a record whose data no tag gives is
//!   left out;
//! * one `001` record per player, in start-rank order, at the fixed columns of `PLAYER_COLUMNS`: sex and
//!   birth date are blank (PGN does not carry them), the title only when it is a FIDE title, the name cut to
//!   33 characters, points and rank from the standings, then one 10-column block per round.
//!
//! Choices, where PGN says less than a TRF needs:
//! * **Start ranks** (the pairing numbers): by rating, highest first, unrated players last, then by name.
//! * **Rounds**: a game goes to the round of its `Round` tag (its first number); when that round is taken for
//!   either player (two games with the same round, such as a match's games or a double round robin written
//!   as one round) or the game has no round (or one above 999), it goes to the first later round free for
//!   both. So both players always show the game in the same round, and a clean file keeps its rounds.
//! * **Results**: a decided game is a played game (`1`, `=`, `0`; no forfeit is read, PGN has no standard
//!   tag for one); an unfinished game (`*`) keeps its opponent and colour with a blank result, which the
//!   format reads as `Z` (no points), as it counts in the standings; a round without a game is `0000 - Z`
//!   (absent: PGN does not say whether a player had a bye).
//! * Lines end with CR LF (the format's Remark 1 asks for a carriage return); columns count characters, in
//!   UTF-8.

use std::collections::BTreeMap;
use std::fmt;

use crate::tournament::{Date, Pairing, PlayerInfo, Standing, Tournament, TournamentKey, decimal};

/// The fixed columns of a `001` record (1-based, inclusive), as the TRF-16 description gives them.
#[cfg(test)]
pub(crate) const PLAYER_COLUMNS: [(&str, usize, usize); 11] = [
    ("record", 1, 3),
    ("start rank", 5, 8),
    ("sex", 10, 10),
    ("title", 11, 13),
    ("name", 15, 47),
    ("rating", 49, 52),
    ("federation", 54, 56),
    ("FIDE id", 58, 68),
    ("birth date", 70, 79),
    ("points", 81, 84),
    ("rank", 86, 89),
];

/// The column of round 1's opponent; each round's block is `ROUND_WIDTH` columns after the previous.
pub(crate) const FIRST_ROUND_COLUMN: usize = 92;
/// The width of a round's block: opponent (4), blank, colour, blank, result, and two blanks.
#[cfg(test)]
pub(crate) const ROUND_WIDTH: usize = 10;
/// More rounds than a report can hold in reason: a tournament that needs more is refused.
pub(crate) const MAX_ROUNDS: usize = 999;

/// The FIDE titles the title field may hold.
const FIDE_TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];

/// Why a tournament cannot be written as TRF-16.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrfError {
    /// More players than the start-rank field (4 digits) can number.
    TooManyPlayers(usize),
    /// A score that does not fit the points field (columns 81-84: at most 99.5).
    PointsTooLarge { player: String, half_points: u64 },
    /// A player with more games than `MAX_ROUNDS` rounds.
    TooManyRounds { player: String, games: usize },
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrfError::TooManyPlayers(n) => write!(
                f,
                "{n} players: a TRF numbers at most 9999 (start rank, columns 5-8)"
            ),
            TrfError::PointsTooLarge {
                player,
                half_points,
            } => write!(
                f,
                "{player} has {} points: a TRF holds at most 99.5 (columns 81-84)",
                decimal(*half_points, false)
            ),
            TrfError::TooManyRounds { player, games } => write!(
                f,
                "{player} has {games} games: more than the {MAX_ROUNDS} rounds a report is written with"
            ),
        }
    }
}

impl std::error::Error for TrfError {}

/// Players' start ranks (1-based), by player index: by rating, highest first, unrated last, then by name.
pub(crate) fn start_ranks(t: &Tournament) -> Vec<usize> {
    let players: Vec<&PlayerInfo> = t.players().collect();
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (players[a], players[b]);
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

/// One cell of a player's round: opponent index, colour, half points (`None`: unfinished).
#[derive(Clone, Copy, Debug)]
struct Cell {
    opponent: usize,
    white: bool,
    half_points: Option<u8>,
}

/// Each player's games by round column (0-based), and the date of each column.
type Rounds = (Vec<BTreeMap<usize, Cell>>, BTreeMap<usize, Date>);

/// The games placed in rounds (see the module documentation for games without a free round).
fn rounds(t: &Tournament) -> Result<Rounds, TrfError> {
    let n = t.players().len();
    for (i, p) in t.players().enumerate() {
        if t.pairings(i).len() > MAX_ROUNDS {
            return Err(TrfError::TooManyRounds {
                player: p.name.clone(),
                games: t.pairings(i).len(),
            });
        }
    }
    // Each game once, from White's side, in input order; then by round, rounds before no round.
    let mut games = t.games_in_order();
    let round = |p: &Pairing| p.round.map(|r| r as usize).filter(|&r| r <= MAX_ROUNDS);
    games.sort_by_key(|&(_, p)| (round(p).is_none(), round(p), p.game));
    let mut cells: Vec<BTreeMap<usize, Cell>> = vec![BTreeMap::new(); n];
    let mut dates = BTreeMap::new();
    for (w, p) in games {
        let b = p.opponent;
        let mut column = round(p).map_or(0, |r| r - 1);
        // Each player has at most MAX_ROUNDS games, so a free column is found within 2 × MAX_ROUNDS steps.
        while cells[w].contains_key(&column) || cells[b].contains_key(&column) {
            column += 1;
        }
        cells[w].insert(
            column,
            Cell {
                opponent: b,
                white: true,
                half_points: p.half_points,
            },
        );
        cells[b].insert(
            column,
            Cell {
                opponent: w,
                white: false,
                half_points: p.half_points.map(|hp| 2 - hp),
            },
        );
        // A round's date only for games in their own round: a moved game's date says nothing of its column.
        if let Some(&d) = p
            .round
            .filter(|_| round(p) == Some(column + 1))
            .and_then(|r| t.details().round_dates.get(&r))
        {
            dates.insert(column, d);
        }
    }
    Ok((cells, dates))
}

/// Characters safe in a fixed-column record: control characters (a newline in a tag) become spaces.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn slash_date(d: Date, short: bool) -> String {
    let (y, m, day) = (d / 10000, d / 100 % 100, d % 100);
    if short {
        format!("{:02}/{m:02}/{day:02}", y % 100)
    } else {
        format!("{y:04}/{m:02}/{day:02}")
    }
}

/// The tournament type for record 092.
fn kind(t: &Tournament) -> String {
    if let Some(tag) = &t.details().event_type {
        let lower = tag.to_ascii_lowercase();
        let known = match lower.as_str() {
            "rr" | "round robin" | "round-robin" | "tourn" => Some("Individual: Round robin"),
            "swiss" => Some("Individual: Swiss-System"),
            "k.o." | "ko" | "knockout" => Some("Individual: Knockout"),
            "match" => Some("Individual: Match"),
            _ => None,
        };
        return known.map_or_else(|| clean(tag), String::from);
    }
    let n = t.players().len();
    let all_met = n > 2
        && (0..n).all(|i| {
            let mut met: Vec<usize> = t
                .pairings(i)
                .iter()
                .map(|p| p.opponent)
                .filter(|&o| o != i)
                .collect();
            met.sort_unstable();
            met.dedup();
            met.len() == n - 1
        });
    if all_met {
        "Individual: Round robin".into()
    } else {
        "Individual".into()
    }
}

/// The TRF-16 text of one tournament, whose ranked players are `rows` (from [`crate::tournament::Standings::ranked`]).
pub(crate) fn write(
    key: &TournamentKey,
    t: &Tournament,
    rows: &[Standing],
) -> Result<String, TrfError> {
    let n = t.players().len();
    if n > 9999 {
        return Err(TrfError::TooManyPlayers(n));
    }
    if let Some(r) = rows.iter().find(|r| r.half_points > 199) {
        return Err(TrfError::PointsTooLarge {
            player: r.player.clone(),
            half_points: r.half_points,
        });
    }
    let (cells, dates) = rounds(t)?;
    let columns = cells
        .iter()
        .filter_map(|c| c.keys().next_back())
        .max()
        .map_or(0, |&c| c + 1);
    let start = start_ranks(t);
    let d = t.details();
    let mut out = String::new();
    let mut record = |code: &str, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            out.push_str(&format!("{code} {}\r\n", clean(&v)));
        }
    };
    record("012", Some(key.event.clone()));
    record("022", Some(key.site.clone()));
    record("032", d.country.clone());
    record("042", d.start.map(|x| slash_date(x, false)));
    record("052", d.end.map(|x| slash_date(x, false)));
    record("062", Some(n.to_string()));
    record(
        "072",
        Some(
            t.players()
                .filter(|p| p.rating.is_some())
                .count()
                .to_string(),
        ),
    );
    record("082", Some("0".into()));
    record("092", Some(kind(t)));
    record("102", d.arbiter.clone());
    record("122", d.time_control.clone());
    if !dates.is_empty() {
        let mut line = format!("132{}", " ".repeat(FIRST_ROUND_COLUMN - 4));
        for c in 0..columns {
            let date = dates
                .get(&c)
                .map_or_else(|| " ".repeat(8), |&x| slash_date(x, true));
            line.push_str(&date);
            if c + 1 < columns {
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push_str("\r\n");
    }
    let mut by_start: Vec<&Standing> = rows.iter().collect();
    by_start.sort_by_key(|r| start.get(r.player_index).copied().unwrap_or(usize::MAX));
    for r in by_start {
        let Some(p) = t.player(r.player_index) else {
            continue;
        };
        let title = p
            .title
            .as_deref()
            .map(str::to_ascii_uppercase)
            .filter(|t| FIDE_TITLES.contains(&t.as_str()))
            .unwrap_or_default();
        let name: String = clean(&p.name).chars().take(33).collect();
        let points = format!(
            "{}.{}",
            r.half_points / 2,
            if r.half_points % 2 == 1 { 5 } else { 0 }
        );
        let mut line = format!(
            "001 {:>4} {}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            start[r.player_index],
            ' ',
            title,
            name,
            p.rating.map(|x| x.to_string()).unwrap_or_default(),
            p.federation.as_deref().unwrap_or(""),
            p.fide_id.map(|x| x.to_string()).unwrap_or_default(),
            "",
            points,
            r.rank.min(9999),
        );
        for c in 0..columns {
            let block = match cells[r.player_index].get(&c) {
                Some(cell) => format!(
                    "{:>4} {} {}",
                    start[cell.opponent],
                    if cell.white { 'w' } else { 'b' },
                    match cell.half_points {
                        Some(2) => '1',
                        Some(1) => '=',
                        Some(_) => '0',
                        None => ' ',
                    }
                ),
                None => "0000 - Z".to_string(),
            };
            line.push_str("  ");
            line.push_str(&block);
        }
        out.push_str(line.trim_end());
        out.push_str("\r\n");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::entry_of;
    use crate::tournament::{Standings, Tiebreak};
    use pgnkit::pgn::parse_all;

    /// The `001` record as the published description lays it out (FIDE Handbook C.04 Annex 2, TRF16,
    /// "Player Section", and "For each round" for the blocks), written here from the document, apart from
    /// [`PLAYER_COLUMNS`] so that a mistake in one is caught by the other: (field, first column, last column).
    const SPEC_001: [(&str, usize, usize); 11] = [
        ("DataIdentificationnumber 001", 1, 3),
        ("Startingrank-Number", 5, 8),
        ("Sex", 10, 10),
        ("Title", 11, 13),
        ("Name", 15, 47),
        ("FIDE Rating", 49, 52),
        ("FIDE Federation", 54, 56),
        ("FIDE Number", 58, 68),
        ("Birth Date", 70, 79),
        ("Points", 81, 84),
        ("Rank", 86, 89),
    ];
    /// Round 1: opponent 92-95, colour 97, result 99; round 2 at 102-105, 107, 109; and so on.
    const SPEC_ROUND: (usize, usize, usize, usize) = (92, 97, 99, 10);

    fn field(line: &[char], first: usize, last: usize) -> String {
        (first..=last)
            .map(|c| line.get(c - 1).copied().unwrap_or(' '))
            .collect::<String>()
            .trim()
            .to_string()
    }

    /// Per player (by start rank): points, rank, and per round (opponent, colour, result).
    type Parsed = BTreeMap<usize, (String, String, usize, Vec<(usize, char, char)>)>;

    fn parse(trf: &str) -> Parsed {
        let mut players = BTreeMap::new();
        for raw in trf.split("\r\n").filter(|l| l.starts_with("001")) {
            let line: Vec<char> = raw.chars().collect();
            // Separating columns are blank: a field spilling over its width would fill one.
            for w in SPEC_001.windows(2) {
                for c in w[0].2 + 1..w[1].1 {
                    assert_eq!(
                        line.get(c - 1).copied().unwrap_or(' '),
                        ' ',
                        "column {c}: {raw}"
                    );
                }
            }
            let start: usize = field(&line, 5, 8).parse().unwrap();
            let name = field(&line, 15, 47);
            let points = field(&line, 81, 84);
            assert!(
                points.len() >= 3 && points.as_bytes()[points.len() - 2] == b'.',
                "points as 11.5: {points:?}"
            );
            let rank: usize = field(&line, 86, 89).parse().unwrap();
            let (id, colour, result, step) = SPEC_ROUND;
            let mut rounds = Vec::new();
            let mut r = 0;
            while line.len() >= id + r * step {
                let at = |c: usize| line.get(c + r * step - 1).copied().unwrap_or(' ');
                assert_eq!((at(id - 2), at(id - 1)), (' ', ' '), "{raw}");
                let opponent = field(&line, id + r * step, id + 3 + r * step);
                rounds.push((opponent.parse().unwrap_or(0), at(colour), at(result)));
                r += 1;
            }
            players.insert(start, (name, points, rank, rounds));
        }
        players
    }

    fn trf_of(pgn: &str) -> (String, Vec<Standing>) {
        let mut s = Standings::new(1000);
        for game in parse_all(pgn.as_bytes()) {
            s.add(entry_of(&game).as_ref());
        }
        let ranked = s.ranked(&Tiebreak::DEFAULT);
        let (key, t, rows) = &ranked[0];
        (write(key, t, rows).unwrap(), rows.clone())
    }

    fn game(w: &str, b: &str, round: &str, result: &str, extra: &str) -> String {
        format!(
            "[Event \"Open\"]\n[Site \"Graz\"]\n[Date \"2024.03.0{}\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n\
             [Black \"{b}\"]\n[Result \"{result}\"]\n{extra}\n{result}\n\n",
            round.chars().next().unwrap()
        )
    }

    #[test]
    fn player_columns_match_the_published_description() {
        for ((ours, a, b), (spec, c, d)) in PLAYER_COLUMNS.iter().zip(SPEC_001) {
            assert_eq!((a, b), (&c, &d), "{ours} / {spec}");
        }
        assert_eq!(
            (FIRST_ROUND_COLUMN, ROUND_WIDTH),
            (SPEC_ROUND.0, SPEC_ROUND.3)
        );
    }

    #[test]
    fn every_001_line_parses_back_with_the_standings_points_and_consistent_rounds() {
        let pgn = [
            game(
                "Carlsen, Magnus",
                "Duda, Jan-Krzysztof Marian Wojciech",
                "1.1",
                "1-0",
                "[WhiteTitle \"GM\"]\n[WhiteElo \"2830\"]\n[WhiteFideId \"1503014\"]\n[WhiteFed \"NOR\"]\n[BlackTitle \"GM\"]\n[BlackElo \"2730\"]\n[BlackFideId \"1170546\"]\n",
            ),
            game("Bot", "Dan", "1.2", "1/2-1/2", "[WhiteTitle \"BOT\"]\n"),
            game("Dan", "Carlsen, Magnus", "2", "0-1", ""),
            game("Duda, Jan-Krzysztof Marian Wojciech", "Bot", "2", "*", ""),
            // A second game in round 2 for both: it moves to round 3, the first free for both.
            game("Bot", "Carlsen, Magnus", "2", "1-0", ""),
            // No round: the first round free for both (Dan and Duda are both free in 3).
            game("Dan", "Duda, Jan-Krzysztof Marian Wojciech", "?", "0-1", ""),
        ]
        .concat();
        let (trf, rows) = trf_of(&pgn);
        let players = parse(&trf);
        assert_eq!(players.len(), 4, "{trf}");
        // Start ranks by rating: Carlsen 2830, Duda 2730, then unrated by name: Bot, Dan.
        let names: Vec<&str> = players.values().map(|p| p.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "Carlsen, Magnus",
                "Duda, Jan-Krzysztof Marian Wojcie",
                "Bot",
                "Dan"
            ],
            "names cut at column 47"
        );
        let line1 = trf
            .split("\r\n")
            .find(|l| l.starts_with("001    1"))
            .unwrap();
        let chars: Vec<char> = line1.chars().collect();
        assert_eq!(field(&chars, 11, 13), "GM");
        assert_eq!(field(&chars, 49, 52), "2830");
        assert_eq!(field(&chars, 54, 56), "NOR");
        assert_eq!(field(&chars, 58, 68), "1503014");
        assert_eq!(field(&chars, 10, 10), "", "sex: not in PGN");
        let bot = trf.split("\r\n").find(|l| l.contains(" Bot ")).unwrap();
        assert_eq!(
            field(&bot.chars().collect::<Vec<_>>(), 11, 13),
            "",
            "BOT is no FIDE title"
        );
        for (start, (name, points, rank, rounds)) in &players {
            let row = rows
                .iter()
                .find(|r| r.player.starts_with(name.as_str()))
                .unwrap();
            assert_eq!(
                points,
                &format!("{:.1}", row.half_points as f64 / 2.0),
                "{name}"
            );
            assert_eq!(*rank, row.rank);
            let mut from_rounds = 0;
            for (r, &(opponent, colour, result)) in rounds.iter().enumerate() {
                if opponent == 0 {
                    assert_eq!((colour, result), ('-', 'Z'));
                    continue;
                }
                let theirs = players[&opponent].3[r];
                let mirrored = match result {
                    '1' => '0',
                    '0' => '1',
                    other => other,
                };
                assert_eq!(theirs.0, *start, "round {}: {name}", r + 1);
                assert_eq!(theirs.2, mirrored, "round {}: {name}", r + 1);
                assert_eq!(
                    (colour, theirs.1),
                    if colour == 'w' {
                        ('w', 'b')
                    } else {
                        ('b', 'w')
                    }
                );
                from_rounds += match result {
                    '1' => 2,
                    '=' => 1,
                    _ => 0,
                };
            }
            assert_eq!(
                from_rounds, row.half_points,
                "{name}: rounds add up to the points"
            );
        }
        // Carlsen: round 1 beat Duda (2) with White, round 2 beat Dan (4) with Black, round 3 lost to Bot (3).
        assert_eq!(players[&1].3, [(2, 'w', '1'), (4, 'b', '1'), (3, 'b', '0')]);
        // Duda: the unfinished game keeps opponent and colour with a blank result; the game without a round
        // went to round 3.
        assert_eq!(players[&2].3, [(1, 'b', '0'), (3, 'w', ' '), (4, 'b', '1')]);
        assert!(trf.starts_with("012 Open\r\n022 Graz\r\n"), "{trf}");
        assert!(
            trf.contains("\r\n042 2024/03/01\r\n052 2024/03/02\r\n062 4\r\n072 2\r\n"),
            "{trf}"
        );
        assert!(trf.contains("\r\n092 Individual: Round robin\r\n"), "{trf}");
        let dates = trf.split("\r\n").find(|l| l.starts_with("132")).unwrap();
        assert_eq!(dates.find("24/03/01"), Some(FIRST_ROUND_COLUMN - 1));
        assert_eq!(
            dates.find("24/03/02"),
            Some(FIRST_ROUND_COLUMN - 1 + ROUND_WIDTH)
        );
    }

    #[test]
    fn what_a_trf_cannot_hold_is_an_error_not_a_broken_line() {
        let pgn: String = (0..200)
            .map(|i| game("A", &format!("P{i}"), "1", "1-0", ""))
            .collect();
        let mut s = Standings::new(1000);
        for g in parse_all(pgn.as_bytes()) {
            s.add(entry_of(&g).as_ref());
        }
        let ranked = s.ranked(&[]);
        let (key, t, rows) = &ranked[0];
        assert_eq!(
            write(key, t, rows),
            Err(TrfError::PointsTooLarge {
                player: "A".into(),
                half_points: 400
            })
        );
        // 99.5 points still fits.
        let pgn: String = (0..100)
            .map(|i| {
                game(
                    "A",
                    &format!("P{i}"),
                    "1",
                    if i == 0 { "1/2-1/2" } else { "1-0" },
                    "",
                )
            })
            .collect();
        let (trf, _) = trf_of(&pgn);
        let a = trf.split("\r\n").find(|l| l.contains(" A ")).unwrap();
        assert_eq!(field(&a.chars().collect::<Vec<_>>(), 81, 84), "99.5");
    }
}
