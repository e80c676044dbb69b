//! `--pairings FILE.trf` (validate and standings): the games of a small Swiss (fixtures/pairings: seven
//! players, four rounds, a pairing-allocated bye each round, a half-point bye and a forfeit) against its
//! pairing program's report. The clean pair says nothing; each perturbation of one thing gives exactly its
//! finding, located in the PGN (file:line of the game's first tag) and in the TRF (the line of a player's
//! `001` record: player N is on line 9 + N).

use std::path::{Path, PathBuf};

use crate::util::{pgnkit, records, root, show, temp_dir};

const ROUNDS: [&str; 4] = ["round1.pgn", "round2.pgn", "round3.pgn", "round4.pgn"];

/// The fixture copied into a fresh directory, to be perturbed there.
fn fixture(name: &str) -> PathBuf {
    let dir = temp_dir("pairings", name);
    for file in ROUNDS.iter().chain(&["tournament.trf"]) {
        std::fs::copy(root().join("fixtures/pairings").join(file), dir.join(file)).unwrap();
    }
    dir
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

fn write(dir: &Path, file: &str, text: &str) {
    std::fs::write(dir.join(file), text).unwrap();
}

/// Replaces `from` (which must be there) by `to` in a file of `dir`.
fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let text = read(dir, file);
    assert!(text.contains(from), "{file} has no {from:?}");
    write(dir, file, &text.replacen(from, to, 1));
}

/// The game of `file` whose Round tag is `round`: its text, from its Event tag to the blank line after it.
fn game_text(dir: &Path, file: &str, round: &str) -> String {
    let text = read(dir, file);
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    starts
        .iter()
        .zip(starts.iter().skip(1).chain([&text.len()]))
        .map(|(&from, &to)| &text[from..to])
        .find(|game| game.contains(&format!("[Round \"{round}\"]")))
        .unwrap_or_else(|| panic!("{file} has no round {round}"))
        .to_string()
}

/// `file:line` of the first tag of the game with that Round tag (the fourth tag, after Event, Site, Date).
fn game_at(dir: &Path, file: &str, round: &str) -> String {
    let text = read(dir, file);
    let line = text
        .lines()
        .position(|l| l == format!("[Round \"{round}\"]"))
        .unwrap_or_else(|| panic!("{file} has no round {round}"))
        + 1
        - 3;
    format!("{file}:{line}")
}

/// `tournament.trf:N` for the record of start rank `player`.
fn trf_at(player: usize) -> String {
    format!("tournament.trf:{}", 9 + player)
}

/// A pairing finding as the test compares it: its kind, where in the PGN (when at a game), where in the TRF
/// (when it names a record).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Found {
    kind: String,
    pgn: Option<String>,
    trf: Option<String>,
}

fn found(kind: &str, pgn: Option<String>, trf: Option<String>) -> Found {
    Found {
        kind: kind.to_string(),
        pgn,
        trf,
    }
}

/// The first `NAME.EXT:LINE` of `text` with that extension, without the directory.
fn location(text: &str, extension: &str) -> Option<String> {
    let mut from = 0;
    while let Some(found) = text[from..].find(&format!(".{extension}:")) {
        let at = from + found;
        let after = at + extension.len() + 2;
        let end = text[after..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(text.len(), |i| after + i);
        if end > after {
            let start = text[..at].rfind('/').map_or(0, |i| i + 1);
            return Some(text[start..end].to_string());
        }
        from = after;
    }
    None
}

/// `pgnkit validate --pairings` over the four rounds in `dir` (human output): the exit code and the pairing
/// findings, sorted.
fn validate(dir: &Path) -> (Option<i32>, Vec<Found>, String) {
    let mut args = vec![
        "validate".to_string(),
        "--pairings".to_string(),
        dir.join("tournament.trf").display().to_string(),
    ];
    args.extend(ROUNDS.iter().map(|f| dir.join(f).display().to_string()));
    let out = pgnkit(&args, None);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut findings: Vec<Found> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("error[pairing_"))
        .map(|rest| {
            let (kind, rest) = rest.split_once(']').unwrap();
            found(
                &format!("pairing_{kind}"),
                location(rest, "pgn"),
                location(rest, "trf"),
            )
        })
        .collect();
    findings.sort();
    (out.status.code(), findings, stdout)
}

#[test]
fn the_clean_pair_says_nothing_and_standings_agrees() {
    let dir = fixture("clean");
    let (code, findings, stdout) = validate(&dir);
    assert_eq!((code, findings), (Some(0), vec![]), "{stdout}");
    let mut args = vec![
        "standings".to_string(),
        "--pairings".to_string(),
        dir.join("tournament.trf").display().to_string(),
    ];
    args.extend(ROUNDS.iter().map(|f| dir.join(f).display().to_string()));
    let out = pgnkit(&args, None);
    let shown = show(&[], &out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error"),
        "{shown}"
    );
}

#[test]
fn a_result_changed_is_a_pairing_result() {
    let dir = fixture("result");
    let game = game_text(&dir, "round1.pgn", "1.1");
    edit(&dir, "round1.pgn", &game, &game.replace("1-0", "0-1"));
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found(
            "pairing_result",
            Some(game_at(&dir, "round1.pgn", "1.1")),
            Some(trf_at(1))
        )],
        "{stdout}"
    );
    assert!(
        stdout.contains("round 1: Arnaud, Élodie – Dubois, Marc is 0-1 here, but 1-0 in"),
        "{stdout}"
    );
}

#[test]
fn colours_reversed_are_pairing_colours() {
    let dir = fixture("colours");
    // Round 2, board 2: Dubois (4) had White against Garcia (7) and won.
    let game = game_text(&dir, "round2.pgn", "2.2");
    let swapped = game
        .replace("[White \"Dubois, Marc\"]", "[White \"Garcia, Luis\"]")
        .replace("[Black \"Garcia, Luis\"]", "[Black \"Dubois, Marc\"]")
        .replace("WhiteFideId", "BlackFideId")
        .replace("1-0", "0-1");
    edit(&dir, "round2.pgn", &game, &swapped);
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found(
            "pairing_colours",
            Some(game_at(&dir, "round2.pgn", "2.2")),
            Some(trf_at(4))
        )],
        "{stdout}"
    );
    assert!(
        stdout.contains("gives White to Dubois, Marc, not to Garcia, Luis"),
        "{stdout}"
    );
}

#[test]
fn a_game_removed_is_a_pairing_without_game() {
    let dir = fixture("removed");
    let game = game_text(&dir, "round4.pgn", "4.2");
    edit(&dir, "round4.pgn", &game, "");
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found("pairing_without_game", None, Some(trf_at(2)))],
        "{stdout}"
    );
    assert!(
        stdout.contains("round 4: ")
            && stdout.contains("has Berger, Paul – Dubois, Marc 1/2-1/2, but no game"),
        "{stdout}"
    );
}

#[test]
fn a_game_added_is_a_pairing_not_in_the_trf() {
    let dir = fixture("added");
    // Chen (3) plays Arnaud in round 4, Eriksen (5) has the bye.
    let text = read(&dir, "round4.pgn");
    let added = "[Event \"Spring Swiss\"]\n[Site \"Lyon\"]\n[Date \"2025.03.09\"]\n[Round \"4.5\"]\n\
                 [White \"Chen, Li\"]\n[Black \"Sven Eriksen\"]\n[Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n";
    write(&dir, "round4.pgn", &format!("{text}{added}"));
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found(
            "pairing_not_in_trf",
            Some(game_at(&dir, "round4.pgn", "4.5")),
            Some(trf_at(3))
        )],
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "does not pair Chen, Li with Eriksen, Sven (Chen, Li meets Arnaud, Élodie; Eriksen, Sven has a full-point bye (U)); it pairs them in round 3"
        ),
        "{stdout}"
    );
}

#[test]
fn a_round_number_changed_is_a_game_not_in_the_trf_and_a_pairing_without_game() {
    let dir = fixture("round");
    // Eriksen (5) – Chen (3) of round 3 said to be of round 4, where Eriksen has the bye.
    edit(&dir, "round3.pgn", "[Round \"3.3\"]", "[Round \"4.9\"]");
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    let mut expected = vec![
        found(
            "pairing_not_in_trf",
            Some(game_at(&dir, "round3.pgn", "4.9")),
            Some(trf_at(5)),
        ),
        found("pairing_without_game", None, Some(trf_at(5))),
    ];
    expected.sort();
    assert_eq!(findings, expected, "{stdout}");
    assert!(stdout.contains("it pairs them in round 3"), "{stdout}");
}

#[test]
fn a_forfeit_turned_into_a_played_game_is_a_pairing_result() {
    let dir = fixture("forfeit");
    // Round 3: Garcia (7) did not come, Berger won by forfeit (`-`/`+` in the TRF, no moves in the PGN).
    let game = game_text(&dir, "round3.pgn", "3.2");
    assert!(game.ends_with("\n\n0-1\n\n"), "{game:?}");
    let played = game.replace("\n\n0-1\n", "\n\n1. e4 e5 2. Qh5 Nc6 0-1\n");
    edit(&dir, "round3.pgn", &game, &played);
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found(
            "pairing_result",
            Some(game_at(&dir, "round3.pgn", "3.2")),
            Some(trf_at(7))
        )],
        "{stdout}"
    );
    assert!(
        stdout.contains("Garcia, Luis – Berger, Paul is 0-1 here, but 0-1 by forfeit (-/+) in"),
        "{stdout}"
    );
}

#[test]
fn a_bye_the_trf_does_not_give_is_a_pairing_result_and_a_bye_the_pgn_omits_is_none() {
    let dir = fixture("bye");
    // Chen (3) had the pairing-allocated bye of round 2: the TRF now says absent (Z).
    let trf = read(&dir, "tournament.trf");
    let line = trf.lines().nth(11).unwrap();
    assert!(
        line.starts_with("001    3") && line.contains("0000 - U"),
        "{line}"
    );
    edit(
        &dir,
        "tournament.trf",
        line,
        &line.replacen("0000 - U", "0000 - Z", 1),
    );
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(
        findings,
        [found(
            "pairing_result",
            Some(game_at(&dir, "round2.pgn", "2.4")),
            Some(trf_at(3))
        )],
        "{stdout}"
    );
    assert!(
        stdout.contains("Chen, Li has a full-point bye (F) here, but no game, no point (Z) in"),
        "{stdout}"
    );
    // A bye needs no record in the PGN: the TRF's bye alone says nothing.
    let dir = fixture("bye_omitted");
    let game = game_text(&dir, "round2.pgn", "2.4");
    edit(&dir, "round2.pgn", &game, "");
    let (code, findings, stdout) = validate(&dir);
    assert_eq!((code, findings), (Some(0), vec![]), "{stdout}");
}

#[test]
fn a_player_renamed_beyond_matching_is_unknown_and_ids_match_first() {
    let dir = fixture("renamed");
    let game = game_text(&dir, "round1.pgn", "1.1");
    let renamed = game
        .replace("[Black \"Dubois, Marc\"]", "[Black \"Dupont, Marc\"]")
        .replace("[BlackFideId \"10004\"]\n", "");
    edit(&dir, "round1.pgn", &game, &renamed);
    let (code, findings, stdout) = validate(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    let mut expected = vec![
        found(
            "pairing_unknown_player",
            Some(game_at(&dir, "round1.pgn", "1.1")),
            None,
        ),
        found("pairing_without_game", None, Some(trf_at(1))),
    ];
    expected.sort();
    assert_eq!(findings, expected, "{stdout}");
    assert!(stdout.contains("Dupont, Marc is no player of"), "{stdout}");
    // Another spelling with the player's FIDE id is the same player; names match without accents, in any
    // order of their words, commas or not ("Arnaud, Elodie", "Sven Eriksen", "Berger,Paul" in the fixture).
    let dir = fixture("renamed_with_id");
    let game = game_text(&dir, "round1.pgn", "1.1");
    edit(
        &dir,
        "round1.pgn",
        &game,
        &game.replace("[Black \"Dubois, Marc\"]", "[Black \"Dubois,M\"]"),
    );
    let (code, findings, stdout) = validate(&dir);
    assert_eq!((code, findings), (Some(0), vec![]), "{stdout}");
}

#[test]
fn json_records_carry_the_findings_in_french_and_the_trf_ones_go_to_stderr() {
    let dir = fixture("json");
    let game = game_text(&dir, "round4.pgn", "4.2");
    edit(&dir, "round4.pgn", &game, "");
    let game = game_text(&dir, "round1.pgn", "1.1");
    edit(&dir, "round1.pgn", &game, &game.replace("1-0", "0-1"));
    let mut args = vec![
        "validate".to_string(),
        "--format".into(),
        "json".into(),
        "--messages".into(),
        "fr".into(),
        "--pairings".into(),
        dir.join("tournament.trf").display().to_string(),
    ];
    args.extend(ROUNDS.iter().map(|f| dir.join(f).display().to_string()));
    let out = pgnkit(&args, None);
    assert_eq!(out.status.code(), Some(1));
    let problems: Vec<serde_json::Value> = records(&out)
        .iter()
        .flat_map(|r| r["problems"].as_array().unwrap().clone())
        .filter(|p| p["kind"].as_str().unwrap().starts_with("pairing_"))
        .collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["kind"], "pairing_result");
    assert_eq!(problems[0]["severity"], "error");
    assert_eq!(problems[0]["line"], 1);
    let message = problems[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("ronde 1 : Arnaud, Élodie – Dubois, Marc est 0-1 ici, mais 1-0 dans ")
            && message.ends_with("tournament.trf:10"),
        "{message}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("erreur[pairing_without_game] : ronde 4 : ")
            && stderr.contains("aucune partie du PGN n'est cet appariement")
            && stderr.contains("tournament.trf:11)"),
        "{stderr}"
    );
}

#[test]
fn standings_reports_the_same_differences_and_exits_1() {
    let dir = fixture("standings");
    let game = game_text(&dir, "round1.pgn", "1.1");
    edit(&dir, "round1.pgn", &game, &game.replace("1-0", "0-1"));
    let mut args = vec![
        "standings".to_string(),
        "--pairings".into(),
        dir.join("tournament.trf").display().to_string(),
    ];
    args.extend(ROUNDS.iter().map(|f| dir.join(f).display().to_string()));
    let out = pgnkit(&args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("error[pairing_result]"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(
        location(line, "pgn"),
        Some(game_at(&dir, "round1.pgn", "1.1"))
    );
    assert_eq!(location(line, "trf"), Some(trf_at(1)));
    // The standings are written all the same.
    assert!(String::from_utf8_lossy(&out.stdout).contains("Arnaud, Elodie"));
}

#[test]
fn a_trf_that_cannot_be_read_is_a_usage_error_at_its_line_and_column() {
    let dir = fixture("unreadable");
    let trf = read(&dir, "tournament.trf");
    write(
        &dir,
        "tournament.trf",
        &trf.replacen("001    4 m", "001    x m", 1),
    );
    for command in ["validate", "standings"] {
        let args = [
            command.to_string(),
            "--pairings".into(),
            dir.join("tournament.trf").display().to_string(),
            dir.join("round1.pgn").display().to_string(),
        ];
        let out = pgnkit(&args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr
                .contains("tournament.trf: TRF line 13, column 5: the start rank is not a number"),
            "{command}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{command}");
    }
    let args = [
        "validate".to_string(),
        "--pairings".into(),
        dir.join("missing.trf").display().to_string(),
        dir.join("round1.pgn").display().to_string(),
    ];
    assert_eq!(pgnkit(&args, None).status.code(), Some(2));
}

/// The guide's worked example of an arbiter's Swiss runs on this fixture: each of its `pgnkit validate` steps
/// prints what the guide shows (the timing line apart) and exits 0. Its standings and TRF steps are checked
/// with the guide's other standings examples (tests/integration/standings.rs).
#[test]
fn the_guides_arbiter_example_prints_what_the_guide_shows() {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let section = guide
        .split("### Worked example: an arbiter's Swiss")
        .nth(1)
        .expect("the guide has the arbiter's worked example");
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut checked = 0;
    for block in section.split("```text\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let Some(rest) = block.strip_prefix("$ pgnkit validate ") else {
            continue;
        };
        let (args, shown) = rest.split_once('\n').unwrap_or((rest, ""));
        let args: Vec<&str> = std::iter::once("validate")
            .chain(args.split_whitespace())
            .collect();
        let out = pgnkit(&args, None);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
        let without_timing = |text: &str| {
            text.lines()
                .filter(|l| !l.starts_with("validated "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let printed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            without_timing(&printed).trim_end(),
            without_timing(shown).trim_end(),
            "{}",
            show(&args, &out)
        );
        checked += 1;
    }
    assert_eq!(checked, 2, "the example's two validate steps");
}
