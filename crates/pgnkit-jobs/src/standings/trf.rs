//! One tournament as FIDE's Tournament Report File (FIDE Handbook C.04 Annex 2, "Format of TRF (Tournament
//! Report File)"): the data-exchange format that rating officers and pairing programs (JaVaFo, bbpPairings,
//! Swiss-Manager) read, in either edition ([`TrfVersion`]): TRF-16 (approved in Elista, 10 August 2015) or
//! TRF-26 (approved by the FIDE Council on 12 May 2025, in force from 1 September 2025), which keeps TRF-16's
//! records and columns and adds records.
//!
//! What is written:
//! * tournament records, from column 5: `012` Event, `022` Site (the city), `032` EventCountry, `042` and
//!   `052` the first and last day (`EventDate`, else the earliest complete `Date`; the latest `Date`) as
//!   `YYYY/MM/DD`, `062` players, `072` rated players, `082` teams (0: an individual event), `092` the type
//!   ("Individual: Knockout" or "Individual: Match" when `EventType` says so, else the kind the tie-breaks
//!   were computed for: "Individual: Round robin" or "Individual: Swiss-System"), `102` Arbiter, `122` TimeControl, `132` each round's date (`YY/MM/DD` at columns 92-99,
//!   102-109...: the earliest complete `Date` of the round's games); a record whose data no tag gives is
//!   left out;
//! * in TRF-26 only, from column 5 too: `202` the tie-breaks after points, by their FIDE codes (C.07),
//!   comma-separated, and `212` the same after `PTS` (the whole ranking order); `222` the time control
//!   encoded, when the `TimeControl` tag is in PGN's syntax (which is TRF-26's: `40/5400+30:1800+30`,
//!   `5400+30`). TRF-26's other tournament records say what PGN does not: the planned number of rounds
//!   (`142`: a file of part of an event would say a wrong one), the pairing system and program (`192`,
//!   `182`), deputy arbiters (`112`); `152` and `162` are needed only when the first round's colours or the
//!   points of a result differ from what the file shows and from the defaults, which games read from PGN
//!   never do;
//! * one `001` record per player, in start-rank order, at the fixed columns of `PLAYER_COLUMNS`: sex and
//!   birth date are blank (PGN does not carry them), the title only when it is a FIDE title, the name cut to
//!   33 characters, points and rank from the standings, then one 10-column block per round.
//! * in TRF-26 only, after the players: `240` records, one per round and kind of bye that round has, listing
//!   the start ranks of the players given a full-point (`F`) or half-point (`H`) bye (a bye game of the PGN):
//!   the byes a pairing program must know of before it pairs the next round. A round in which a player has
//!   no game stays only in that player's round block (`Z`): a PGN does not say whether it was an announced
//!   absence, a withdrawal or a game left out of the file, so it is not written as a zero-point bye.
//!
//! Choices, where PGN says less than a TRF needs:
//! * **Start ranks** (the pairing numbers): by rating, highest first, unrated players last, then by name.
//! * **Rounds**: the tournament model's (`tournament::crosstable`): a game or bye goes to the round of
//!   its `Round` tag (its first number); when that round is taken for either player (two games with the same
//!   round, such as a match's games or a double round robin written as one round) or the game has no round
//!   (or one above 999), it goes to the first later round free for both. So both players always show the
//!   game in the same round, and a clean file keeps its rounds.
//! * **Results**: each round block is the cross table's cell in the TRF result codes: `1 = 0` for a game
//!   played, `+ -` for a forfeit (both `-` for a double forfeit), `W D L` for a game of less than one move
//!   (`--moveless unrated`), `0000 - F`, `U`, `H` or `Z` for a bye game, `0000 - Z` for a round without a
//!   game (or `0000 - U`, the pairing-allocated bye, with `--allocated-bye unpaired`). An unfinished game
//!   (`*`) is a pairing without a result, which the format has no code for: pairing programs refuse an
//!   opponent without a result (bbpPairings: "Invalid line"), so its block is left blank, which the format
//!   reads as no pairing that round (`0000`, `-`, `Z`) and FIDE's tie-break checker as no game: the game
//!   scores nothing, as in the standings.
//! * Lines end with CR LF (the format's Remark 1 asks for a carriage return); columns count characters, in
//!   UTF-8.

use std::collections::BTreeMap;
use std::fmt;

use crate::options::TrfVersion;
use crate::tournament::crosstable::{CrossTable, Outcome, RoundCell};
use crate::tournament::fide_tiebreaks::TournamentKind;
use crate::tournament::{Date, Standing, Tournament, TournamentKey, codes_of, decimal};

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

/// The tournament records the writer can write, in the order written: (code, first column of the value,
/// whether TRF-16 has the record too). The rounds' dates of `132` start at [`FIRST_ROUND_COLUMN`].
#[cfg(test)]
pub(crate) const TOURNAMENT_RECORDS: [(&str, usize, bool); 15] = [
    ("012", 5, true),
    ("022", 5, true),
    ("032", 5, true),
    ("042", 5, true),
    ("052", 5, true),
    ("062", 5, true),
    ("072", 5, true),
    ("082", 5, true),
    ("092", 5, true),
    ("102", 5, true),
    ("122", 5, true),
    ("132", FIRST_ROUND_COLUMN, true),
    ("202", 5, false),
    ("212", 5, false),
    ("222", 5, false),
];

/// The column of round 1's opponent; each round's block is `ROUND_WIDTH` columns after the previous.
pub(crate) const FIRST_ROUND_COLUMN: usize = 92;
/// The width of a round's block: opponent (4), blank, colour, blank, result, and two blanks.
#[cfg(test)]
pub(crate) const ROUND_WIDTH: usize = 10;
/// More rounds than a report can hold in reason: a tournament that needs more is refused.
pub(crate) use crate::tournament::crosstable::MAX_ROUNDS;

/// The FIDE titles the title field may hold.
const FIDE_TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];

/// Why a tournament cannot be written as a TRF.
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

/// The tournament round by round (its players in start-rank order), and the date of each round.
type Rounds = (CrossTable, BTreeMap<usize, Date>);

/// The games and byes placed in rounds (see the module documentation for games without a free round).
fn rounds(t: &Tournament, start: &[usize]) -> Result<Rounds, TrfError> {
    for (i, p) in t.players().enumerate() {
        let byes = t.byes().iter().filter(|b| b.player == i).count();
        if t.pairings(i).len() + byes > MAX_ROUNDS {
            return Err(TrfError::TooManyRounds {
                player: p.name.clone(),
                games: t.pairings(i).len() + byes,
            });
        }
    }
    let placement = t.placement();
    // A round's date only for games in their own round: a moved game's date says nothing of its column.
    let dates = placement
        .in_own_round
        .iter()
        .filter_map(|&column| {
            let round = u32::try_from(column + 1).ok()?;
            t.details().round_dates.get(&round).map(|&d| (column, d))
        })
        .collect();
    Ok((CrossTable::of(t.players(), &placement, start), dates))
}

/// A round's block (opponent, colour, result), without the blanks before it.
fn round_block(cell: &RoundCell) -> String {
    let Some(code) = cell.outcome.code() else {
        // A pairing without a result (see the module documentation): blank, no pairing that round.
        debug_assert_eq!(cell.outcome, Outcome::Unfinished);
        return " ".repeat(8);
    };
    let opponent = cell
        .opponent
        .map_or_else(|| "0000".to_string(), |o| format!("{:>4}", o + 1));
    let colour = match cell.colour {
        Some(pgnkit::Color::White) => 'w',
        Some(pgnkit::Color::Black) => 'b',
        None => '-',
    };
    format!("{opponent} {colour} {code}")
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

/// The tournament type for record 092: a knockout or a match when the `EventType` tag says so, else the kind
/// the tie-breaks were computed for (`Tournament::kind`: the `EventType` tag, else the numbers of players and
/// rounds), so that a reader applying C.07 to the file (FIDE's checker reads "Swiss" and "Round robin" here)
/// computes them by the same rules as pgnkit.
fn kind(t: &Tournament, rounds: usize) -> String {
    if let Some(tag) = &t.details().event_type {
        match tag.trim().to_ascii_lowercase().as_str() {
            "k.o." | "ko" | "knockout" => return "Individual: Knockout".into(),
            "match" => return "Individual: Match".into(),
            _ => {}
        }
    }
    match t.kind(rounds) {
        TournamentKind::RoundRobin => "Individual: Round robin".into(),
        TournamentKind::Swiss => "Individual: Swiss-System".into(),
    }
}

/// Record 222's encoding of a `TimeControl` tag in PGN's syntax: periods joined by `:`, each `moves/seconds`,
/// `seconds` or `seconds+increment` (PGN standard 9.6.1), or `moves/seconds+increment` as files write a
/// period with an increment. TRF-26 encodes a time control with the same four forms (`M/S`, `M/S+I`, `S`,
/// `S+I`) joined by `:`, so the tag is the record. `None` for anything else: `?` (unknown), `-` (none), a
/// sandclock (`*180`), words, a period of no moves.
fn encoded_time_control(tag: &str) -> Option<String> {
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let period = |p: &str| {
        let (moves, time) = p.split_once('/').map_or((None, p), |(m, t)| (Some(m), t));
        let (seconds, increment) = time
            .split_once('+')
            .map_or((time, None), |(s, i)| (s, Some(i)));
        moves.is_none_or(|m| number(m) && m.bytes().any(|b| b != b'0'))
            && number(seconds)
            && increment.is_none_or(number)
    };
    let tag = tag.trim();
    (!tag.is_empty() && tag.split(':').all(period)).then(|| tag.to_string())
}

/// A tournament record: its code, a space, the value from column 5; nothing when there is no value.
fn push_record(out: &mut String, code: &str, value: Option<String>) {
    if let Some(v) = value.filter(|v| !v.is_empty()) {
        out.push_str(&format!("{code} {}\r\n", clean(&v)));
    }
}

/// The TRF of one tournament in `version`, whose ranked players are `rows` (from
/// [`crate::tournament::Standings::ranked`]); in TRF-26, records 202 and 212 name the codes they were ranked
/// by after points, in order.
pub(crate) fn write(
    key: &TournamentKey,
    t: &Tournament,
    rows: &[Standing],
    version: TrfVersion,
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
    let start = t.start_ranks();
    let (table, dates) = rounds(t, &start)?;
    let columns = table.round_count();
    let d = t.details();
    let mut out = String::new();
    let mut record = |code: &str, value: Option<String>| push_record(&mut out, code, value);
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
    record("092", Some(kind(t, columns)));
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
    if version == TrfVersion::Trf26 {
        let codes: Vec<String> = codes_of(rows).iter().map(ToString::to_string).collect();
        push_record(&mut out, "202", Some(codes.join(",")));
        // The ranking order starts with points, once: `--tiebreaks PTS,...` asks for them again.
        let after_points = codes.iter().skip_while(|c| *c == "PTS").cloned();
        let standings: Vec<String> = std::iter::once("PTS".to_string())
            .chain(after_points)
            .collect();
        push_record(&mut out, "212", Some(standings.join(",")));
        let encoded = d.time_control.as_deref().and_then(encoded_time_control);
        push_record(&mut out, "222", encoded);
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
        for cell in &table.rounds[start[r.player_index] - 1] {
            line.push_str("  ");
            line.push_str(&round_block(cell));
        }
        out.push_str(line.trim_end());
        out.push_str("\r\n");
    }
    if version == TrfVersion::Trf26 {
        push_bye_records(&mut out, &table);
    }
    Ok(out)
}

/// TRF-26's `240` records (see the module documentation): `240 F 003    4    9`, the kind of bye at column
/// 5, the round at 7-9, then each player's start rank in four columns after a space.
fn push_bye_records(out: &mut String, table: &CrossTable) {
    for round in 0..table.round_count() {
        for (code, outcome) in [('F', Outcome::FullPointBye), ('H', Outcome::HalfPointBye)] {
            let players: Vec<usize> = (0..table.rounds.len())
                .filter(|&p| table.rounds[p].get(round).map(|c| c.outcome) == Some(outcome))
                .collect();
            if players.is_empty() {
                continue;
            }
            let mut line = format!("240 {code} {:03}", round + 1);
            for p in players {
                line.push_str(&format!(" {:>4}", p + 1));
            }
            out.push_str(&line);
            out.push_str("\r\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Tiebreaks;
    use crate::standings::entry_of;
    use crate::tournament::Standings;
    use crate::tournament::tiebreak_codes::parse_list;
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
        trf_in(pgn, TrfVersion::Trf26, &Tiebreaks::default())
    }

    fn trf_in(pgn: &str, version: TrfVersion, tiebreaks: &Tiebreaks) -> (String, Vec<Standing>) {
        let mut s = Standings::new(1000);
        for game in parse_all(pgn.as_bytes()) {
            s.add(entry_of(&game).as_ref());
        }
        let ranked = s.ranked(tiebreaks);
        let (key, t, rows) = &ranked[0];
        (write(key, t, rows, version).unwrap(), rows.clone())
    }

    fn game(w: &str, b: &str, round: &str, result: &str, extra: &str) -> String {
        format!(
            "[Event \"Open\"]\n[Site \"Graz\"]\n[Date \"2024.03.0{}\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n\
             [Black \"{b}\"]\n[Result \"{result}\"]\n{extra}\n1. e4 e5 {result}\n\n",
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
                    // Absent, or an unfinished game: blank.
                    assert!(
                        [('-', 'Z'), (' ', ' ')].contains(&(colour, result)),
                        "{colour:?} {result:?}"
                    );
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
        // Duda: the unfinished game is a blank block (no pairing a reader refuses); the game without a round
        // went to round 3.
        assert_eq!(players[&2].3, [(1, 'b', '0'), (0, ' ', ' '), (4, 'b', '1')]);
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
        let ranked = s.ranked(&Tiebreaks::of(&[]));
        let (key, t, rows) = &ranked[0];
        assert_eq!(
            write(key, t, rows, TrfVersion::Trf26),
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

    /// The tournament records as the published descriptions define them (FIDE Handbook C.04 Annex 2: TRF16,
    /// "Tournament Section"; TRF26, "Tournament Section", "Other tournament tags" and "Tag 222"), written here
    /// from the documents apart from [`TOURNAMENT_RECORDS`]: (code, first column of the value, in TRF-16, in
    /// TRF-26). The value of a `??2` record starts at column 5, the dates of `132` at round 1's column.
    const SPEC_TOURNAMENT: [(&str, usize, bool, bool); 22] = [
        ("012", 5, true, true),
        ("022", 5, true, true),
        ("032", 5, true, true),
        ("042", 5, true, true),
        ("052", 5, true, true),
        ("062", 5, true, true),
        ("072", 5, true, true),
        ("082", 5, true, true),
        ("092", 5, true, true),
        ("102", 5, true, true),
        ("112", 5, true, true),
        ("122", 5, true, true),
        ("132", 92, true, true),
        ("142", 5, false, true),
        ("152", 5, false, true),
        ("162", 6, false, true),
        ("172", 5, false, true),
        ("182", 5, false, true),
        ("192", 5, false, true),
        ("202", 5, false, true),
        ("212", 5, false, true),
        ("222", 5, false, true),
    ];

    /// The tie-break codes of FIDE C.07 (2024), articles 6 to 10, and its modifiers (article 14).
    const C07_CODES: [&str; 17] = [
        "DE", "WIN", "WON", "BPG", "BWG", "GE", "PS", "BH", "FB", "AOB", "SB", "KS", "ARO", "TPR",
        "PTP", "APRO", "APPO",
    ];

    /// Every tag a tournament record is filled from, so that each record is written.
    fn full_header_pgn(time_control: &str) -> String {
        let tags = format!(
            "[EventCountry \"AUT\"]\n[EventType \"swiss\"]\n[Arbiter \"Kovacs, Eva\"]\n[TimeControl \"{time_control}\"]\n\
             [WhiteElo \"2100\"]\n"
        );
        [
            game("Anna", "Boris", "1.1", "1-0", &tags),
            game("Chen", "Dana", "1.2", "1/2-1/2", &tags),
            game("Boris", "Chen", "2.1", "0-1", &tags),
            game("Dana", "Anna", "2.2", "1/2-1/2", &tags),
        ]
        .concat()
    }

    /// The tournament records of a TRF: (code, the line as characters).
    fn header_records(trf: &str) -> Vec<(String, Vec<char>)> {
        trf.split("\r\n")
            .filter(|l| !l.is_empty() && !l.starts_with("001"))
            .map(|l| (l.chars().take(3).collect(), l.chars().collect()))
            .collect()
    }

    #[test]
    fn tournament_records_match_the_published_descriptions() {
        for (code, column, in_16) in TOURNAMENT_RECORDS {
            let spec = SPEC_TOURNAMENT.iter().find(|s| s.0 == code);
            assert_eq!(
                spec.map(|s| (s.1, s.2, s.3)),
                Some((column, in_16, true)),
                "{code}"
            );
        }
        let pgn = full_header_pgn("40/5400+30:1800+30");
        for version in [TrfVersion::Trf16, TrfVersion::Trf26] {
            let (trf, _) = trf_in(&pgn, version, &Tiebreaks::default());
            let records = header_records(&trf);
            let codes: Vec<&str> = records.iter().map(|(c, _)| c.as_str()).collect();
            // Every record the tags fill, in the writer's order, and only those of the edition.
            let expected: Vec<&str> = TOURNAMENT_RECORDS
                .iter()
                .filter(|r| r.2 || version == TrfVersion::Trf26)
                .map(|r| r.0)
                .collect();
            assert_eq!(codes, expected, "{version:?}\n{trf}");
            for (code, line) in &records {
                let &(_, column, in_16, in_26) =
                    SPEC_TOURNAMENT.iter().find(|s| s.0 == code).unwrap();
                assert!(
                    if version == TrfVersion::Trf16 {
                        in_16
                    } else {
                        in_26
                    },
                    "{code} in {version:?}"
                );
                // Blank from the code to the value; the value starts at its column.
                for c in 4..column {
                    assert_eq!(line[c - 1], ' ', "{code}: column {c}");
                }
                assert_ne!(line[column - 1], ' ', "{code}: column {column}");
            }
        }
    }

    #[test]
    fn trf26_is_trf16_with_the_new_records() {
        let pgn = full_header_pgn("5400+30");
        let (trf16, _) = trf_in(&pgn, TrfVersion::Trf16, &Tiebreaks::default());
        let (trf26, _) = trf_in(&pgn, TrfVersion::Trf26, &Tiebreaks::default());
        let new_records = ["202", "212", "222"];
        let without: Vec<&str> = trf26
            .split_inclusive("\r\n")
            .filter(|l| !new_records.iter().any(|r| l.starts_with(r)))
            .collect();
        assert_eq!(without.concat(), trf16);
        assert!(trf26.len() > trf16.len());
    }

    #[test]
    fn records_202_and_212_name_the_tiebreaks_by_their_fide_codes() {
        let pgn = full_header_pgn("?");
        // Chosen lists, in their order, and the default of this tournament (its EventType says Swiss: FIDE's
        // list for a Swiss).
        let orders = [
            ("DE,SB,WIN", "DE,SB,WIN"),
            ("BH", "BH"),
            ("BH/C1,BH,SB,ARO/M1,PS#C2", "BH/C1,BH,SB,ARO/M1,PS/C2"),
            ("buchholz_cut1,direct_encounter", "BH/C1,DE"),
        ];
        let default = trf_in(&pgn, TrfVersion::Trf26, &Tiebreaks::default()).0;
        assert!(
            default.contains("\r\n202 BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB\r\n"),
            "{default}"
        );
        for (asked, written) in orders {
            let (trf, _) = trf_in(&pgn, TrfVersion::Trf26, &asked.parse().unwrap());
            let value = |code: &str| {
                trf.split("\r\n")
                    .find(|l| l.starts_with(code))
                    .map(|l| l[4..].to_string())
                    .unwrap_or_else(|| panic!("{code}: {trf}"))
            };
            assert_eq!(value("202"), written);
            assert_eq!(
                parse_list(&value("202")).unwrap(),
                parse_list(written).unwrap()
            );
            for code in value("202").split(',') {
                let (base, _) = code.split_once('/').unwrap_or((code, ""));
                assert!(C07_CODES.contains(&base), "{code}");
            }
            assert_eq!(value("212"), format!("PTS,{}", value("202")));
        }
        // No tie-break: no 202, and 212 ranks by points alone.
        let (trf, _) = trf_in(&pgn, TrfVersion::Trf26, &Tiebreaks::of(&[]));
        assert!(!trf.contains("\r\n202"), "{trf}");
        assert!(trf.contains("\r\n212 PTS\r\n"), "{trf}");
    }

    #[test]
    fn record_222_encodes_a_time_control_in_pgn_syntax_and_nothing_else() {
        // TRF-26's own examples ("Tag 222"): 90'+30" and 100' for 40 moves, then 15', 30" from move 1; then
        // PGN's (standard 9.6.1): moves/seconds periods, sudden death, increment.
        let encoded = [
            ("5400+30", "5400+30"),
            ("40/6000+30:900+30", "40/6000+30:900+30"),
            ("40/7200:3600", "40/7200:3600"),
            ("40/5400:1800+30", "40/5400:1800+30"),
            ("300", "300"),
            ("180+2", "180+2"),
            (" 5400+30 ", "5400+30"),
        ];
        for (tag, record) in encoded {
            assert_eq!(encoded_time_control(tag).as_deref(), Some(record), "{tag}");
        }
        // Unknown (`?`), none (`-`), a sandclock, words and malformed periods have no encoding.
        for tag in [
            "?",
            "-",
            "*180",
            "",
            "90 min",
            "5400+",
            "+30",
            "40/",
            "/5400",
            "0/5400",
            "40/5400::900",
            "1/2/3",
            "5400+30+10",
            "40/5400 : 900",
            "１２０",
        ] {
            assert_eq!(encoded_time_control(tag), None, "{tag:?}");
        }
        for (tag, record) in [
            ("40/5400+30:1800+30", Some("40/5400+30:1800+30")),
            ("G/90", None),
        ] {
            let (trf, _) = trf_in(
                &full_header_pgn(tag),
                TrfVersion::Trf26,
                &Tiebreaks::default(),
            );
            let line = trf.split("\r\n").find(|l| l.starts_with("222"));
            assert_eq!(line.map(|l| &l[4..]), record, "{trf}");
            // 122 keeps the tag as written, either way.
            assert!(trf.contains(&format!("\r\n122 {tag}\r\n")), "{trf}");
        }
    }
}
