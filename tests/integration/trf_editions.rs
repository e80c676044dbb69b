//! `pgnkit standings --format trf|trf26|trf16`: the two editions of FIDE's Tournament Report File, and two
//! programs nobody here wrote reading them: bbpPairings (its `-c` checker), run when build.rs finds it
//! (`BBPPAIRINGS`: see docs/notes/fide-check.md; `.ci/run` builds it), and FIDE's tie-break checker
//! (TEC-FIDE/TieBreakServer), whose values for pgnkit's TRFs are kept in fixtures/trf_editions (CI cannot
//! fetch it; `regenerate.sh` there runs it again).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{root, run, show, subset, temp_dir};

/// A complete round robin of six players with a TimeControl tag in PGN's syntax (see
/// fixtures/trf_editions/README.md): every record of both editions is filled, and nothing in it asks a reader
/// for unplayed rounds.
fn round_robin() -> PathBuf {
    root().join("fixtures/trf_editions/club-round-robin.pgn")
}

fn standings(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{}", show(args, &out));
    String::from_utf8(out.stdout).unwrap()
}

fn trf(format: &str, event: &str, file: &Path, extra: &[&str]) -> String {
    let file = file.display().to_string();
    let mut args = vec!["standings", "--format", format, "--event", event];
    args.extend_from_slice(extra);
    args.push(&file);
    standings(&args)
}

/// The value of a tournament record (from column 5), if the TRF has it.
fn record<'a>(trf: &'a str, code: &str) -> Option<&'a str> {
    trf.split("\r\n")
        .find(|l| l.starts_with(code) && l.as_bytes().get(3) == Some(&b' '))
        .map(|l| &l[4..])
}

#[test]
fn trf_is_trf26_and_trf16_is_the_former_edition() {
    let dir = temp_dir("trf_editions", "trf_is_trf26");
    let file = round_robin();
    let event = "Club Round Robin";
    let order = ["--tiebreaks", "direct_encounter,sonneborn_berger,wins"];
    let default = trf("trf", event, &file, &order);
    let trf26 = trf("trf26", event, &file, &order);
    let trf16 = trf("trf16", event, &file, &order);
    assert_eq!(default, trf26, "`trf` is the edition in force");
    assert_eq!(record(&trf26, "202"), Some("DE,SB,WIN"), "{trf26}");
    assert_eq!(record(&trf26, "212"), Some("PTS,DE,SB,WIN"), "{trf26}");
    assert_eq!(record(&trf26, "222"), Some("40/5400+30:1800+30"), "{trf26}");
    assert_eq!(record(&trf26, "122"), Some("40/5400+30:1800+30"), "{trf26}");
    // Without --tiebreaks, a round robin's default: C.07's recommended list for an individual round robin
    // (DE, WIN, SB, KS), by its codes.
    let plain = trf("trf", event, &file, &[]);
    assert_eq!(record(&plain, "202"), Some("DE,WIN,SB,KS"), "{plain}");
    assert_eq!(record(&plain, "212"), Some("PTS,DE,WIN,SB,KS"), "{plain}");
    // TRF-16 is TRF-26 without the new records: byte for byte, CR LF included.
    for code in ["202", "212", "222"] {
        assert_eq!(record(&trf16, code), None, "{trf16}");
    }
    let kept: String = trf26
        .split_inclusive("\r\n")
        .filter(|l| !["202 ", "212 ", "222 "].iter().any(|r| l.starts_with(r)))
        .collect();
    assert_eq!(kept, trf16);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The two tournaments of fixtures/trf_editions, each in both editions: (edition, event, PGN, the fixtures'
/// name of its TRF), and pgnkit's TRF of it written to `dir`.
fn both_editions(dir: &Path) -> Vec<(&'static str, &'static str, PathBuf, String, PathBuf)> {
    let real = subset("games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn");
    let mut files = Vec::new();
    for edition in ["trf16", "trf26"] {
        for (name, event, pgn) in [
            ("club-round-robin", "Club Round Robin", round_robin()),
            ("vezerkepzo", "6th Vezerkepzo GM 2021", real.clone()),
        ] {
            let name = format!("{name}-{edition}");
            let path = dir.join(format!("{name}.trf"));
            std::fs::write(&path, trf(edition, event, &pgn, &[])).unwrap();
            files.push((edition, event, pgn, name, path));
        }
    }
    files
}

#[test]
#[cfg_attr(
    not(bbppairings),
    ignore = "needs bbpPairings: set BBPPAIRINGS to its bbpPairings.exe (docs/notes/fide-check.md)"
)]
fn bbppairings_reads_both_editions() {
    let dir = temp_dir("trf_editions", "bbppairings");
    // And a Swiss with byes, whose TRF-26 has `240` records.
    let swiss = dir.join("swiss-trf26.trf");
    std::fs::write(&swiss, swiss_trf("trf26")).unwrap();
    let mut files: Vec<(&str, &str, PathBuf)> = both_editions(&dir)
        .into_iter()
        .map(|(edition, event, _, _, path)| (edition, event, path))
        .collect();
    files.push(("trf26", "Spring Swiss", swiss));
    for (edition, event, path) in files {
        let out = Command::new(env!("PGNKIT_BBPPAIRINGS"))
            .arg("--dutch")
            .arg(&path)
            .arg("-c")
            .output()
            .expect("run bbpPairings");
        // 0: read and checked; 1: read, no pairing of its own; 3: the file cannot be read.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{edition} of {event}: exit {:?}\n{}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// FIDE's checker's values for pgnkit's TRFs, kept in fixtures/trf_editions, are pgnkit's own standings; the
/// TRFs they were computed from are still what pgnkit writes.
#[test]
fn fide_checkers_values_are_pgnkits() {
    // The checker was asked for the codes of each TRF-26's record 212 (regenerate.sh): PTS and the tie-breaks
    // pgnkit ranked the tournament by, each tournament's default for its kind (the club's complete round
    // robin: DE, WIN, SB, KS; TWIC's Vezerkepzo, of which the file holds 6 rounds of 9, is ranked as a Swiss).
    let expected_codes = [
        ("club-round-robin", "PTS,DE,WIN,SB,KS"),
        ("vezerkepzo", "PTS,BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB"),
    ];
    let dir = temp_dir("trf_editions", "tiebreakchecker");
    let fixtures = root().join("fixtures/trf_editions");
    for (edition, event, pgn, name, path) in both_editions(&dir) {
        let trf_text = std::fs::read_to_string(&path).unwrap();
        let kept = std::fs::read_to_string(fixtures.join(format!("{name}.trf"))).unwrap();
        assert!(
            trf_text == kept,
            "pgnkit's {edition} of {event} is no longer fixtures/trf_editions/{name}.trf, which FIDE's checker \
             read: if the change is meant, run fixtures/trf_editions/regenerate.sh and check the difference"
        );
        let table = std::fs::read_to_string(fixtures.join(format!("{name}.checker.csv"))).unwrap();
        let names: HashMap<usize, String> = trf_text
            .split("\r\n")
            .filter(|l| l.starts_with("001"))
            .map(|l| {
                (
                    l[4..8].trim().parse().unwrap(),
                    l[14..47].trim_end().to_string(),
                )
            })
            .collect();
        let json = standings(&[
            "standings",
            "--format",
            "json",
            "--event",
            event,
            &pgn.display().to_string(),
        ]);
        let ours: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        let mut lines = table.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
        let (_, codes) = expected_codes
            .iter()
            .find(|(n, _)| name.starts_with(n))
            .unwrap();
        assert_eq!(
            header[2..].join(","),
            *codes,
            "{edition} of {event}: {table}"
        );
        // pgnkit's own list of the tie-breaks it ranked by is the one the checker was asked for.
        let listed: Vec<&str> = ours["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(header[3..], listed[..], "{edition} of {event}");
        let mut seen = 0;
        for line in lines.filter(|l| !l.is_empty()) {
            let cells: Vec<&str> = line.split(',').collect();
            let start: usize = cells[0].parse().unwrap();
            let player = ours["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["player"] == names[&start].as_str())
                .unwrap_or_else(|| panic!("{edition}: no player {}", names[&start]));
            // The checker ranks by the same codes: its rank is pgnkit's.
            assert_eq!(
                player["rank"].as_u64(),
                Some(cells[1].parse().unwrap()),
                "{edition} of {event}: rank of {}",
                names[&start]
            );
            for (code, cell) in header[2..].iter().zip(&cells[2..]) {
                let field = if *code == "PTS" {
                    "points".to_string()
                } else {
                    code.replace('/', "_")
                };
                let theirs: f64 = cell.parse().unwrap();
                assert_eq!(
                    player[&field].as_f64(),
                    Some(theirs),
                    "{edition} of {event}: {code} of {}",
                    names[&start]
                );
            }
            seen += 1;
        }
        assert_eq!(seen, names.len(), "{edition} of {event}: {table}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The TRF of fixtures/pairings' small Swiss (a bye in every round, the half-point one in round 3) in `edition`.
fn swiss_trf(edition: &str) -> String {
    let mut args = vec!["standings".to_string(), "--format".into(), edition.into()];
    for round in 1..=4 {
        let path = root().join(format!("fixtures/pairings/round{round}.pgn"));
        args.push(path.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    standings(&args)
}

/// TRF-26's `240` records list, round by round, exactly the full- and half-point byes of the round blocks, at
/// the record's columns; TRF-16 has no such record.
#[test]
fn trf26_lists_the_byes_of_each_round_in_records_240() {
    let trf = swiss_trf("trf26");
    let mut from_blocks: Vec<(char, usize, usize)> = Vec::new();
    for line in trf.split("\r\n").filter(|l| l.starts_with("001")) {
        let start: usize = line[4..8].trim().parse().unwrap();
        let chars: Vec<char> = line.chars().collect();
        // Round r's result is at column 99 + 10 (r - 1), 1-based.
        for (round, column) in (98..chars.len()).step_by(10).enumerate() {
            if matches!(chars[column], 'F' | 'H') {
                from_blocks.push((chars[column], round + 1, start));
            }
        }
    }
    let mut from_records: Vec<(char, usize, usize)> = Vec::new();
    for line in trf.split("\r\n").filter(|l| l.starts_with("240")) {
        let kind = line.chars().nth(4).unwrap();
        assert_eq!(&line[5..6], " ", "{line:?}");
        let round: usize = line[6..9].parse().unwrap();
        let rest = &line[9..];
        assert_eq!(
            rest.len() % 5,
            0,
            "{line:?}: a space and four columns a player"
        );
        for player in rest.as_bytes().chunks(5) {
            let player = std::str::from_utf8(player).unwrap();
            assert!(player.starts_with(' '), "{line:?}");
            from_records.push((kind, round, player.trim().parse().unwrap()));
        }
    }
    from_blocks.sort_unstable();
    from_records.sort_unstable();
    // The fixture's byes: one a round, a full point in rounds 1, 2 and 4, a half point in round 3.
    assert_eq!(from_blocks.len(), 4, "{trf}");
    assert!(
        from_blocks
            .iter()
            .any(|&(kind, round, _)| kind == 'H' && round == 3),
        "{trf}"
    );
    assert_eq!(from_records, from_blocks, "{trf}");
    assert!(!swiss_trf("trf16").contains("\r\n240 "));
}
