//! `pgnkit standings --format trf|trf26|trf16`: the two editions of FIDE's Tournament Report File, and two
//! programs nobody here wrote reading them: bbpPairings (its `-c` checker) and FIDE's tie-break checker
//! (TEC-FIDE/TieBreakServer). Those two run when build.rs finds them (`BBPPAIRINGS`, `TIEBREAKCHECKER`: see
//! docs/notes/fide-check.md); without them their tests are listed as ignored.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{run, show, subset, temp_dir};

/// A complete round robin of six players (Berger's table: every two meet once, no round without a game), with
/// a TimeControl tag in PGN's syntax: every record of both editions is filled, and nothing in it asks a
/// reader for unplayed rounds.
fn round_robin(dir: &Path) -> PathBuf {
    const BERGER_6: [[(usize, usize); 3]; 5] = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ];
    let names = ["Anna", "Boris", "Chen", "Dana", "Emil", "Fatima"];
    let mut pgn = String::new();
    for (round, pairs) in BERGER_6.iter().enumerate() {
        for (board, &(w, b)) in pairs.iter().enumerate() {
            let result = ["1-0", "1/2-1/2", "0-1"][(round + board + w) % 3];
            pgn.push_str(&format!(
                "[Event \"Club Round Robin\"]\n[Site \"Lyon FRA\"]\n[Date \"2025.10.0{}\"]\n[Round \"{}.{}\"]\n\
                 [White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n\
                 [EventType \"rr\"]\n[Arbiter \"Martin, Claire\"]\n[TimeControl \"40/5400+30:1800+30\"]\n\n\
                 1. e4 e5 {result}\n\n",
                round + 1,
                round + 1,
                board + 1,
                names[w - 1],
                names[b - 1],
                2300 - 50 * w,
                2300 - 50 * b,
            ));
        }
    }
    let path = dir.join("round-robin.pgn");
    std::fs::write(&path, pgn).unwrap();
    path
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
    let file = round_robin(&dir);
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
    // The default order, by its codes.
    let plain = trf("trf", event, &file, &[]);
    assert_eq!(record(&plain, "202"), Some("BH/C1,BH,SB,WIN,DE"), "{plain}");
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

/// Each edition's TRF of the synthetic round robin and of a real one (TWIC 1389), written to `dir`: (edition,
/// event, TRF file).
fn both_editions(dir: &Path) -> Vec<(&'static str, &'static str, PathBuf, PathBuf)> {
    let synthetic = round_robin(dir);
    let real = subset("games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn");
    let mut files = Vec::new();
    for edition in ["trf16", "trf26"] {
        for (event, pgn) in [
            ("Club Round Robin", synthetic.clone()),
            ("6th Vezerkepzo GM 2021", real.clone()),
        ] {
            let path = dir.join(format!("{}-{edition}.trf", event.replace(' ', "-")));
            std::fs::write(&path, trf(edition, event, &pgn, &[])).unwrap();
            files.push((edition, event, pgn, path));
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
    for (edition, event, _, path) in both_editions(&dir) {
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

#[test]
#[cfg_attr(
    not(tiebreakchecker),
    ignore = "needs FIDE's checker: set TIEBREAKCHECKER to TieBreakServer's tiebreakchecker.py (docs/notes/fide-check.md)"
)]
fn fide_checker_reads_both_editions_and_computes_pgnkits_values() {
    // Complete round robins: no round without a game, so C.07's unplayed rounds (article 16) do not arise and
    // the checker's PTS, BH, BH/C1, SB and WIN are pgnkit's.
    let codes = ["PTS", "BH/C1", "BH", "SB", "WIN"];
    let fields = [
        "points",
        "buchholz_cut1",
        "buchholz",
        "sonneborn_berger",
        "wins",
    ];
    let dir = temp_dir("trf_editions", "tiebreakchecker");
    for (edition, event, pgn, path) in both_editions(&dir) {
        let mut args = vec!["-c".to_string(), "-i".into(), path.display().to_string()];
        args.extend(["-f", "TRF", "-e", "1", "-d", "C", "-t"].map(String::from));
        args.extend(codes.map(String::from));
        let out = Command::new("python3")
            .arg(env!("PGNKIT_TIEBREAKCHECKER"))
            .args(&args)
            .output()
            .expect("run python3");
        let table = String::from_utf8_lossy(&out.stdout);
        // 0: its ranking is the file's; 1: it differs. Anything else: the file was not read.
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{edition} of {event}: exit {:?}\n{table}",
            out.status.code()
        );
        let trf_text = std::fs::read_to_string(&path).unwrap();
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
        assert_eq!(header[2..], codes, "{edition} of {event}: {table}");
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
            for ((code, field), cell) in codes.iter().zip(fields).zip(&cells[2..]) {
                let theirs: f64 = cell.parse().unwrap();
                assert_eq!(
                    player[field].as_f64(),
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
