//! End-to-end tests of `pgnkit standings`: points, Buchholz and Sonneborn-Berger against an independent
//! computation in Python over real multi-tournament files (the shared corpus), a hand-checked fixture, the
//! formats and the exit codes.

use std::collections::HashMap;
use std::process::Command;

use crate::util::{corpus, run, show};

fn csv_rows(csv_text: &[u8]) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(csv_text);
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn a_hand_checked_round_robin() {
    let args = [
        "standings",
        "--format",
        "csv",
        "fixtures/stats/tournament.pgn",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let rows = csv_rows(&out.stdout);
    let spring: Vec<_> = rows
        .iter()
        .filter(|r| r["event"] == "Spring Open")
        .collect();
    let line = |name: &str| spring.iter().find(|r| r["player"] == name).unwrap();
    // Alice beat Bob and Dan, drew Carol: 2.5; her opponents scored Bob 1.5, Carol 1, Dan 1 (the unfinished
    // Dan-Carol game counts for nobody).
    let alice = line("Alice");
    assert_eq!(
        (
            &alice["rank"][..],
            &alice["points"][..],
            &alice["buchholz"][..],
            &alice["buchholz_cut1"][..]
        ),
        ("1", "2.5", "3.5", "2.5")
    );
    // Sonneborn-Berger: 1 × 1.5 (Bob) + ½ × 1 (Carol) + 1 × 1 (Dan) = 3.
    assert_eq!(alice["sonneborn_berger"], "3");
    assert_eq!(
        (&alice["aro"][..], &alice["performance"][..]),
        ("2050", "2243")
    );
    // Carol and Dan tie on points, Buchholz cut 1 and Buchholz; Sonneborn-Berger puts Carol first.
    let order: Vec<&str> = spring.iter().map(|r| r["player"].as_str()).collect();
    assert_eq!(order, ["Alice", "Bob", "Carol", "Dan"]);
    // With points alone they share the third place.
    let args = [
        "standings",
        "--format",
        "csv",
        "--tiebreaks",
        "wins",
        "fixtures/stats/tournament.pgn",
    ];
    let out = run(&args);
    let ranks: Vec<(String, String)> = csv_rows(&out.stdout)
        .into_iter()
        .filter(|r| r["event"] == "Spring Open")
        .map(|r| (r["player"].clone(), r["rank"].clone()))
        .collect();
    // Dan has a win, Carol none: wins order them the other way.
    assert_eq!(ranks[2], ("Dan".into(), "3".into()));
    assert_eq!(ranks[3], ("Carol".into(), "4".into()));
}

#[test]
fn formats_events_and_usage_errors() {
    let out = run(&[
        "standings",
        "--event",
        "Club Blitz",
        "fixtures/stats/tournament.pgn",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Club Blitz"), "{text}");
    assert!(!text.contains("Spring Open"));
    let out = run(&[
        "standings",
        "--format",
        "json",
        "fixtures/stats/tournament.pgn",
    ]);
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["event"], "Spring Open");
    assert_eq!(first["players"][0]["points"], 2.5);
    let out = run(&[
        "standings",
        "--tiebreaks",
        "median",
        "fixtures/stats/tournament.pgn",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&[
        "standings",
        "--event",
        "No such event",
        "fixtures/stats/tournament.pgn",
    ]);
    assert_eq!(out.status.code(), Some(1), "no tournament: nothing found");
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn points_buchholz_and_sonneborn_berger_equal_an_independent_computation() {
    // Python computes the three from the tags alone: decided games (Result tag 1-0, 0-1, 1/2-1/2) of
    // tournaments keyed by (Event, Site, year of EventDate, else Date), Event `?` left out.
    let script = r#"
import sys, re, collections, json
def decoded(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")
def games(path):
    tags = {}
    for line in map(decoded, open(path, "rb")):
        m = re.match(r'\[(\w+)\s+"(.*)"\]\s*$', line)
        if m:
            tags[m.group(1)] = m.group(2)
        elif tags and line.strip() and not line.startswith("["):
            yield tags
            tags = {}
    if tags:
        yield tags
pts = collections.defaultdict(float); opp = collections.defaultdict(list)
for path in sys.argv[1:]:
    for t in games(path):
        r = t.get("Result")
        if r not in ("1-0", "0-1", "1/2-1/2") or t.get("Event", "?") in ("", "?"): continue
        ev = (t["Event"], t.get("Site", ""), (t.get("EventDate") or t.get("Date") or "????")[:4])
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[r]
        pts[ev, t["White"]] += s; pts[ev, t["Black"]] += 1 - s
        opp[ev, t["White"]].append((t["Black"], s)); opp[ev, t["Black"]].append((t["White"], 1 - s))
for k in pts:
    bh = sum(pts[k[0], o] for o, _ in opp[k]); sb = sum(s * pts[k[0], o] for o, s in opp[k])
    print(json.dumps([k[0][0], k[0][1], k[0][2], k[1], pts[k], bh, sb]))
"#;
    let files = [
        corpus("games-english/twic1389_3393games.pgn"),
        corpus("games-english/pychess-world_matches.pgn"),
        corpus("games-english/chessx-game10.pgn"),
    ];
    let py = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&files)
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let mut want = HashMap::new();
    for line in String::from_utf8(py.stdout).unwrap().lines() {
        let v: Vec<serde_json::Value> = serde_json::from_str(line).unwrap();
        let key: Vec<String> = v[..4]
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let nums: Vec<f64> = v[4..].iter().map(|n| n.as_f64().unwrap()).collect();
        want.insert(key, nums);
    }
    assert!(want.len() > 1000, "{}", want.len());
    let mut args = vec!["standings".to_string(), "--format".into(), "csv".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        show(&args, &out)
    );
    let got: HashMap<Vec<String>, Vec<f64>> = csv_rows(&out.stdout)
        .into_iter()
        .map(|r| {
            (
                vec![
                    r["event"].clone(),
                    r["site"].clone(),
                    r["year"].clone(),
                    r["player"].clone(),
                ],
                ["points", "buchholz", "sonneborn_berger"]
                    .iter()
                    .map(|c| r[*c].parse::<f64>().unwrap())
                    .collect(),
            )
        })
        .collect();
    let mut bad = Vec::new();
    for (key, nums) in &want {
        match got.get(key) {
            Some(mine) if mine.iter().zip(nums).all(|(a, b)| (a - b).abs() < 1e-9) => {}
            other => bad.push(format!("{key:?}: {other:?}, want {nums:?}")),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ: {:?}",
        bad.len(),
        want.len(),
        &bad[..bad.len().min(5)]
    );
}
