//! `pgnkit standings`' outputs over the tournament model ([`crate::tournament`]): a table per tournament for
//! people, CSV rows, JSON objects, and FIDE's report file (`trf`), each through [`write()`]; and the entry
//! of a game with its fingerprint, for a job that has not replayed it.

use std::collections::HashSet;

use pgnkit::pgn::Game;

use crate::localized;
use crate::messages::{Locale, localized_decimal};
use crate::options::StandingsFormat;
use crate::safe_text::{Align, name_column, push_cell, safe};
use crate::tournament::{
    GameEntry, Standing, Standings, TiebreakCode, TiebreakColumns, Tournament, TournamentKey,
    codes_of, decimal,
};
use crate::validate::game_fingerprint;

mod job;
mod trf;

pub use job::{StandingsBatch, StandingsJob, StandingsState};

/// The entry of a game (`GameEntry::of`), with validate's fingerprint of its moves when it can count (a game
/// that is no pairing is not replayed).
pub(crate) fn entry_of(game: &Game<'_>) -> Option<GameEntry> {
    let entry = GameEntry::of(game)?;
    if entry.needs_fingerprint() {
        let fingerprint = game_fingerprint(game);
        return Some(entry.fingerprinted(fingerprint));
    }
    Some(entry)
}

/// Why `--event NAME` chose nothing, for a usage error: no tournament is called that, and the names
/// nearest to it (at most `NEAREST_SHOWN`), or that the inputs hold no tournament at all: `standings`' and
/// `report`'s `--event`.
pub fn no_such_event(standings: &Standings, event: &str, locale: Locale) -> String {
    let names = nearest(
        event.trim(),
        standings.tournaments().map(|k| k.event.as_str()),
    );
    let n = standings.tournaments().count();
    if names.is_empty() {
        return localized!(
            locale,
            "no tournament is called \"{event}\": the inputs hold none (no game has an Event tag other than `?`)",
            "aucun tournoi ne s'appelle \"{event}\" : les entrées n'en contiennent aucun (aucune partie n'a de balise Event autre que `?`)"
        );
    }
    let s = crate::messages::plural(locale, n as u64);
    let names = names
        .iter()
        .map(|name| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ");
    localized!(
        locale,
        "no tournament is called \"{event}\" (the inputs hold {n} tournament{s}); the nearest names: {names}",
        "aucun tournoi ne s'appelle \"{event}\" (les entrées en contiennent {n}) ; les noms les plus proches : {names}"
    )
}

/// Most names [`no_such_event`] suggests.
pub(crate) const NEAREST_SHOWN: usize = 5;

/// The distinct `names` nearest to `wanted`, nearest first, at most [`NEAREST_SHOWN`], case ignored: the same
/// name in other capitals, then a name that holds the other (or is held by it), then by edit distance.
fn nearest<'a>(wanted: &str, names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let mut scored: Vec<(usize, &str)> = Vec::new();
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name) {
            continue;
        }
        let lower = name.to_lowercase();
        let distance = if lower == wanted_lower {
            0
        } else if lower.contains(&wanted_lower) || wanted_lower.contains(&lower) {
            1
        } else {
            2 + crate::select::expr::edit_distance(&wanted_lower, &lower)
        };
        scored.push((distance, name));
    }
    scored.sort();
    scored.truncate(NEAREST_SHOWN);
    scored.into_iter().map(|(_, name)| name).collect()
}

/// A tournament with its players ranked, as [`Standings::ranked`] gives it.
pub type Ranked<'a> = (&'a TournamentKey, &'a Tournament, Vec<Standing>);

/// `ranked` written in `format`: the text table in `locale`, each heading naming the tie-break codes its
/// tournament was ranked by (each row carries them: the rows are the one record of what ranked
/// them); a TRF is of the one tournament `ranked` holds (nothing when it holds none; the caller chooses one
/// among several), its records 202 and 212 naming those codes, refused when the format cannot hold it.
pub fn write(
    ranked: &[Ranked<'_>],
    format: StandingsFormat,
    locale: Locale,
) -> Result<String, trf::TrfError> {
    Ok(match format {
        StandingsFormat::Text => text(ranked, locale),
        StandingsFormat::Csv => csv(ranked),
        StandingsFormat::Json => json(ranked),
        StandingsFormat::Trf(version) => match ranked.first() {
            Some((key, t, rows)) => trf::write(key, t, rows, version)?,
            None => String::new(),
        },
    })
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV's columns after the player, before the tie-break codes: the columns of standings before the codes,
/// in their order, so that scripts reading them by name or by position keep working.
const CSV_FIGURE_COLUMNS: [&str; 11] = [
    "rating",
    "points",
    "games",
    "wins",
    "unfinished",
    "buchholz",
    "buchholz_cut1",
    "sonneborn_berger",
    "aro",
    "performance",
    "direct_encounter",
];

/// A player's cells of [`CSV_FIGURE_COLUMNS`]: [`Standing::figures`] with the figures over the games the
/// file has (`OverGames`) where the columns were.
fn csv_figures(r: &Standing) -> [String; 11] {
    let [rating, points, games, wins, unfinished, aro, performance] = r.figures("");
    let g = r.over_games;
    [
        rating,
        points,
        games,
        wins,
        unfinished,
        decimal(g.buchholz, false),
        decimal(g.buchholz_cut1, false),
        decimal(g.sonneborn_berger_quarters, true),
        aro,
        performance,
        g.direct_encounter
            .map_or_else(String::new, |v| decimal(v, false)),
    ]
}

/// The tie-break codes of every tournament of `ranked`, each once, in the order first met: the CSV's last
/// columns.
fn all_codes(ranked: &[Ranked<'_>]) -> Vec<TiebreakCode> {
    let mut codes: Vec<TiebreakCode> = Vec::new();
    for (_, _, rows) in ranked {
        for code in codes_of(rows) {
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    codes
}

/// One CSV row per player, after a header: the tournament, the rank, the player, the figures
/// ([`CSV_FIGURE_COLUMNS`]), then a column per tie-break code named by [`TiebreakCode::column`] (`BH/C1` is
/// `BH_C1`), those of every tournament written, in the order first met; a code a tournament was not ranked
/// by is empty on its rows.
fn csv(ranked: &[Ranked<'_>]) -> String {
    let codes = all_codes(ranked);
    let mut out = format!(
        "event,site,year,rank,player,{}",
        CSV_FIGURE_COLUMNS.join(",")
    );
    for code in &codes {
        out.push(',');
        out.push_str(&code.column());
    }
    out.push('\n');
    for (key, _, rows) in ranked {
        for r in rows {
            out.push_str(&format!(
                "{},{},{},{},{},{}",
                csv_field(&key.event),
                csv_field(&key.site),
                csv_field(&key.year),
                r.rank,
                csv_field(&r.player),
                csv_figures(r).join(",")
            ));
            for &code in &codes {
                out.push(',');
                if let Some(v) = r.tiebreak(code) {
                    out.push_str(&v.to_string());
                }
            }
            out.push('\n');
        }
    }
    out
}

/// One JSON object per tournament, one per line: its `tiebreaks` (the codes it was ranked by, in order) and
/// its `players`, each with the figures and a member per code named by [`TiebreakCode::column`].
fn json(ranked: &[Ranked<'_>]) -> String {
    let mut out = String::new();
    for (key, t, rows) in ranked {
        let players: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                let mut player = serde_json::json!({
                    "rank": r.rank,
                    "player": r.player,
                    "rating": r.rating,
                    "points": r.half_points as f64 / 2.0,
                    "games": r.games,
                    "wins": r.wins,
                    "unfinished": r.unfinished,
                    "buchholz": r.over_games.buchholz as f64 / 2.0,
                    "buchholz_cut1": r.over_games.buchholz_cut1 as f64 / 2.0,
                    "sonneborn_berger": r.over_games.sonneborn_berger_quarters as f64 / 4.0,
                    "aro": r.aro,
                    "performance": r.performance,
                    "direct_encounter": r.over_games.direct_encounter.map(|v| v as f64 / 2.0),
                });
                for &(code, value) in &r.tiebreaks {
                    player[code.column()] = serde_json::json!(value.0 as f64 / 100.0);
                }
                player
            })
            .collect();
        let codes: Vec<String> = codes_of(rows).iter().map(ToString::to_string).collect();
        let record = serde_json::json!({
            "event": key.event,
            "site": key.site,
            "year": key.year,
            "unfinished_games": t.unfinished,
            "duplicate_games": t.left_out.duplicates,
            "unknown_player_games": t.left_out.unknown_player,
            "self_play_games": t.left_out.against_self,
            "tiebreaks": codes,
            "players": players,
        });
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

/// A table per tournament, for people, in `locale`: names cut to a column and shown safe to print; a column
/// per tie-break code, headed by the code (`BH/C1`).
fn text(ranked: &[Ranked<'_>], locale: Locale) -> String {
    let mut out = String::new();
    for (key, t, rows) in ranked {
        // Said whole (it is what `--event` wants), but safe to print.
        let (event, site, year) = (safe(&key.event), safe(&key.site), safe(&key.year));
        let players = rows.len();
        out.push_str(&localized!(
            locale,
            "{event} — {site} — {year}: {players} players",
            "{event} — {site} — {year} : {players} joueurs"
        ));
        if t.unfinished > 0 {
            let n = t.unfinished;
            out.push_str(&localized!(
                locale,
                ", unfinished games (not scored): {n}",
                ", parties inachevées (non comptées) : {n}"
            ));
        }
        let codes = codes_of(rows);
        if codes.is_empty() {
            out.push_str(&localized!(
                locale,
                "; ranked by points\n",
                " ; classés aux points\n"
            ));
        } else {
            let names = codes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            out.push_str(&localized!(
                locale,
                "; ranked by points, then {names}\n",
                " ; classés aux points, puis {names}\n"
            ));
        }
        if let Some(said) = t.left_out.said(locale) {
            out.push_str(&format!("  ({said})\n"));
        }
        // Names are cut to a column of at most NAME_COLUMNS: a row's length does not grow with the longest
        // name of the tournament.
        let player = localized!(locale, "player", "joueur");
        let width = name_column(rows.iter().map(|r| r.player.as_str()), &player);
        // rank, name, then rating, points, games, wins, aro, perf: 8 + 42 columns.
        let columns = TiebreakColumns::of(rows, locale, 8 + width + 42);
        if let Some(said) = columns.left_out_said(locale) {
            out.push_str(&said);
        }
        out.push_str(&match locale {
            Locale::En => "  rank  ".to_string(),
            Locale::Fr => format!("  {:>4}  ", "rang"),
        });
        push_cell(&mut out, &player, width, Align::Left);
        out.push_str(match locale {
            Locale::En => "  rating  points  games  wins    aro  perf",
            // The same widths as the rows: Elo, parties, gains, moyenne des adversaires.
            Locale::Fr => "     Elo  points  part.  gain  m.adv  perf",
        });
        for (code, w) in columns.codes.iter().zip(&columns.widths) {
            out.push_str(&format!("  {:>w$}", code.to_string()));
        }
        out.push('\n');
        for (r, values) in rows.iter().zip(&columns.values) {
            // The unfinished count (f[4]) is said once per tournament above the table.
            let f = r
                .figures("-")
                .map(|v| localized_decimal(locale, &v).into_owned());
            out.push_str(&format!("  {:>4}  ", r.rank));
            push_cell(&mut out, &r.player, width, Align::Left);
            out.push_str(&format!(
                "  {:>6}  {:>6}  {:>5}  {:>4}  {:>5}  {:>4}",
                f[0], f[1], f[2], f[3], f[5], f[6],
            ));
            for (v, w) in values.iter().zip(&columns.widths) {
                out.push_str(&format!("  {v:>w$}"));
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Tiebreaks;
    use crate::tournament::{LeftOut, Standings};
    use pgnkit::pgn::parse_all;

    fn standings(pgn: &str) -> Standings {
        let mut s = Standings::new(1000);
        for game in parse_all(pgn.as_bytes()) {
            s.add(entry_of(&game).as_ref());
        }
        s
    }

    fn game(white: &str, black: &str, round: &str, result: &str, moves: &str) -> String {
        format!(
            "[Event \"E\"]\n[Site \"S\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    }

    #[test]
    fn the_same_game_twice_counts_once_and_games_without_moves_are_never_the_same() {
        let pgn = [
            game("A", "B", "1.1", "1-0", "1. e4 e5 2. Nf3"),
            game("C", "D", "1.2", "1/2-1/2", "1. d4 d5"),
            // Game 1 again (comments and move numbers aside): validate's duplicate_game.
            game("A", "B", "1.1", "1-0", "1. e4 {copied} e5 2. Nf3"),
            // A double round robin recorded without moves: two games of C and D.
            game("C", "D", "2.1", "1-0", ""),
            game("C", "D", "3.1", "0-1", ""),
        ]
        .concat();
        let s = standings(&pgn);
        let ranked = s.ranked(&Tiebreaks::default());
        let (_, t, rows) = &ranked[0];
        assert_eq!(t.games(), 4);
        assert_eq!(t.left_out.duplicates, 1);
        let a = rows.iter().find(|r| r.player == "A").unwrap();
        assert_eq!((a.games, a.half_points), (1, 2));
        let c = rows.iter().find(|r| r.player == "C").unwrap();
        assert_eq!((c.games, c.half_points), (3, 3));
        // Counted once per tournament: the same game in another tournament counts there too.
        let other = pgn.replace("[Event \"E\"]", "[Event \"F\"]");
        let s = standings(&(pgn.clone() + &other));
        assert!(
            s.ranked(&Tiebreaks::default())
                .iter()
                .all(|(_, t, _)| t.games() == 4 && t.left_out.duplicates == 1)
        );
    }

    #[test]
    fn games_that_are_no_pairing_are_not_replayed_and_never_duplicates() {
        let pgn = [
            game("A", "A", "1", "1-0", "1. e4 e5"),
            game("A", "A", "1", "1-0", "1. e4 e5"),
        ]
        .concat();
        let s = standings(&pgn);
        let ranked = s.ranked(&Tiebreaks::default());
        assert_eq!(
            ranked[0].1.left_out,
            LeftOut {
                duplicates: 0,
                unknown_player: 0,
                against_self: 2
            }
        );
    }
    #[test]
    fn an_event_no_tournament_has_is_said_with_the_nearest_names() {
        let s = standings(
            &[
                "ch-CHN 2024",
                "CHN-ch",
                "Tata Steel",
                "ch-CHI",
                "Open",
                "Open",
                "Zurich CC",
                "Biel",
            ]
            .iter()
            .map(|e| format!("[Event \"{e}\"]\n[White \"A\"]\n[Black \"B\"]\n\n1-0\n\n"))
            .collect::<String>(),
        );
        assert!(s.has_event(" Open ") && !s.has_event("open"));
        assert_eq!(
            no_such_event(&s, "ch-CHN", Locale::En),
            "no tournament is called \"ch-CHN\" (the inputs hold 7 tournaments); the nearest names: \
             \"ch-CHN 2024\", \"ch-CHI\", \"CHN-ch\", \"Open\", \"Biel\""
        );
        assert_eq!(
            no_such_event(&Standings::new(10), "x", Locale::Fr),
            "aucun tournoi ne s'appelle \"x\" : les entrées n'en contiennent aucun (aucune partie n'a de balise Event autre que `?`)"
        );
    }
}
