//! End-to-end tests of `pgnkit standings`: points, Buchholz and Sonneborn-Berger against an independent
//! computation in Python over real multi-tournament files (the shared corpus), a hand-checked fixture, the
//! formats and the exit codes.

use std::collections::HashMap;
use std::process::Command;

use crate::util::{corpus, run, show, subset};

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

/// Python computes points, Buchholz and Sonneborn-Berger from the tags alone: decided games (Result tag 1-0,
/// 0-1, 1/2-1/2) of tournaments keyed by (Event, Site, year of EventDate, else Date), Event `?` left out; and
/// whether the tournament is *complete*: every game decided, with moves (one without is a forfeit), a Round
/// tag, and each player in one game of each round from 1 to the last any game has (a file of rounds 9 and 12
/// of a tournament is one of twelve rounds, ten of them unplayed). Only there does C.07's article 16
/// (unplayed rounds: forfeits, byes, absences, games without a result) have nothing to say, so that Buchholz
/// and Sonneborn-Berger are their plain sums (articles 8.1 and 9.1) in a round robin and a Swiss alike.
const INDEPENDENT: &str = r#"
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
            # The movetext's first line: a move is a letter outside a comment.
            tags[" moves"] = bool(re.search(r'[A-Za-z]', re.sub(r'\{[^}]*\}|\{.*$', '', line)))
            yield tags
            tags = {}
    if tags:
        yield tags
by_event = collections.defaultdict(list)
for path in sys.argv[1:]:
    for t in games(path):
        if t.get("Event", "?") in ("", "?"): continue
        ev = (t["Event"], t.get("Site", ""), (t.get("EventDate") or t.get("Date") or "????")[:4])
        by_event[ev].append(t)
for ev, gs in by_event.items():
    m = [re.match(r'(\d+)', g.get("Round", "")) for g in gs]
    complete = all(m) and all(g.get("Result") in ("1-0", "0-1", "1/2-1/2") and g[" moves"] for g in gs)
    if complete:
        rounds = set(range(1, max(int(x.group(1)) for x in m) + 1))
        seen = collections.defaultdict(list)
        for g, x in zip(gs, m):
            seen[g["White"].strip()].append(int(x.group(1))); seen[g["Black"].strip()].append(int(x.group(1)))
        complete = all(sorted(r) == sorted(rounds) for r in seen.values())
    pts = collections.defaultdict(float); opp = collections.defaultdict(list)
    for g in gs:
        if g.get("Result") not in ("1-0", "0-1", "1/2-1/2"): continue
        w, b = g["White"].strip(), g["Black"].strip()
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["Result"]]
        pts[w] += s; pts[b] += 1 - s
        opp[w].append((b, s)); opp[b].append((w, 1 - s))
    for p in pts:
        bh = sum(pts[o] for o, _ in opp[p]); sb = sum(s * pts[o] for o, s in opp[p])
        print(json.dumps([ev[0], ev[1], ev[2], p, pts[p], bh, sb, 1.0 if complete else 0.0]))
"#;

/// The independent computation over these files: (event, site, year, player) → [points, Buchholz, SB,
/// 1 if the tournament is complete else 0].
fn independent(files: &[std::path::PathBuf]) -> HashMap<Vec<String>, Vec<f64>> {
    let py = Command::new("python3")
        .arg("-c")
        .arg(INDEPENDENT)
        .args(files)
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
    want
}

#[test]
fn a_hand_checked_round_robin() {
    // Spring Open: Alice, Bob, Carol and Dan each meet once in rounds 1-3; round 4's Alice-Bob game is
    // unfinished (`*`), and Carol and Dan have no game in round 4. Every value below is worked by hand from
    // C.07 (2024) and checked against no output of pgnkit.
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
    // Four players, four rounds: a round robin, ranked by C.07's example list for one (DE, WIN, SB, KS).
    let header: Vec<&str> = std::str::from_utf8(&out.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .split(',')
        .collect();
    assert_eq!(header[header.len() - 4..], ["DE", "WIN", "SB", "KS"]);
    // Alice beat Bob and Dan, drew Carol: 2.5; Bob 1.5, Carol 1, Dan 1 (the unfinished game counts for
    // nobody, and in a round robin a round without a game counts nothing).
    // WIN (art. 7.1): rounds won: Alice 2, Bob 1 (Dan), Carol 0, Dan 1 (Carol).
    // SB (art. 9.1): Alice 1 × 1.5 (Bob) + ½ × 1 (Carol) + 1 × 1 (Dan) = 3; Bob ½ × 1 (Carol) + 1 × 1 (Dan)
    // = 1.5; Carol ½ × 2.5 + ½ × 1.5 = 2; Dan 1 × 1 (Carol) = 1.
    // KS (art. 9.2): points against the opponents who scored half the rounds or more (2 of 4): only Alice.
    // Alice 0, Bob 0 (lost to her), Carol ½ (drew her), Dan 0.
    // DE (art. 6): only Carol and Dan are tied on points; they met and Dan won: Dan 1, Carol 2 (the rank it
    // gives within the group), 0 for those it does not compare.
    let want = [
        ("Alice", "1", "2.5", "0", "2", "3", "0"),
        ("Bob", "2", "1.5", "0", "1", "1.5", "0"),
        ("Dan", "3", "1", "1", "1", "1", "0"),
        ("Carol", "4", "1", "2", "0", "2", "0.5"),
    ];
    for (name, rank, points, de, win, sb, ks) in want {
        let r = line(name);
        assert_eq!(
            (
                &r["rank"][..],
                &r["points"][..],
                &r["DE"][..],
                &r["WIN"][..],
                &r["SB"][..],
                &r["KS"][..]
            ),
            (rank, points, de, win, sb, ks),
            "{name}"
        );
    }
    let alice = line("Alice");
    assert_eq!(
        (&alice["aro"][..], &alice["performance"][..]),
        ("2050", "2243")
    );
    let order: Vec<&str> = spring.iter().map(|r| r["player"].as_str()).collect();
    assert_eq!(order, ["Alice", "Bob", "Dan", "Carol"]);
    // Buchholz asked for: the opponents' points, Alice 1.5 + 1 + 1 = 3.5 (cut 1: 2.5), Carol and Dan 2.5 +
    // 1.5 + 1 = 5 (cut 1: 4); tied on both, Sonneborn-Berger puts Carol (2) before Dan (1).
    let args = [
        "standings",
        "--format",
        "csv",
        "--tiebreaks",
        "BH/C1,BH,SB",
        "fixtures/stats/tournament.pgn",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let rows = csv_rows(&out.stdout);
    let spring: Vec<_> = rows
        .iter()
        .filter(|r| r["event"] == "Spring Open")
        .collect();
    let got: Vec<(&str, &str, &str, &str)> = spring
        .iter()
        .map(|r| {
            (
                r["player"].as_str(),
                r["rank"].as_str(),
                r["BH_C1"].as_str(),
                r["BH"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("Alice", "1", "2.5", "3.5"),
            ("Bob", "2", "3.5", "4.5"),
            ("Carol", "3", "4", "5"),
            ("Dan", "4", "4", "5")
        ]
    );
    // With wins alone: Dan has a win, Carol none.
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
}

/// `--event` with a name no tournament has was an empty output and exit 1, which reads as "nothing counted":
/// it is a usage error that names the nearest tournaments, in every format and in the report.
#[test]
fn an_event_no_tournament_has_is_a_usage_error_naming_the_nearest() {
    for format in ["text", "csv", "json", "trf"] {
        let args = [
            "standings",
            "--format",
            format,
            "--event",
            "spring open",
            "fixtures/stats/tournament.pgn",
        ];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
        assert!(out.stdout.is_empty(), "{}", show(&args, &out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(
                "pgnkit standings: --event: no tournament is called \"spring open\" (the inputs hold 2 tournaments); the nearest names: \"Spring Open\", \"Club Blitz\""
            ),
            "{}",
            show(&args, &out)
        );
    }
    let args = [
        "--messages",
        "fr",
        "standings",
        "--event",
        "ch-CHN",
        "fixtures/validate/errors.pgn",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("aucun tournoi ne s'appelle \"ch-CHN\""),
        "{}",
        show(&args, &out)
    );
}

/// The French table kept the English decimal point ("2.5" where French writes "2,5"). Text for people now
/// follows the language; what programs read (CSV, JSON, TRF) keeps the point whatever it is.
#[test]
fn a_french_table_writes_a_decimal_comma_and_data_keeps_the_point() {
    let file = "fixtures/stats/tournament.pgn";
    let standings = |args: &[&str]| {
        let mut all = vec!["standings", "--event", "Spring Open"];
        all.extend_from_slice(args);
        all.push(file);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(0), "{}", show(&all, &out));
        String::from_utf8(out.stdout).unwrap()
    };
    // Alice: 2.5 points, Buchholz 3.5, Buchholz cut 1 2.5 (the guide's example).
    let alice = |table: &str| -> Vec<String> {
        table
            .lines()
            .find(|l| l.contains("Alice"))
            .expect("Alice's row")
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    let english = alice(&standings(&["--messages", "en"]));
    let french = alice(&standings(&["--messages", "fr"]));
    assert_eq!(english[3], "2.5", "{english:?}");
    assert_eq!(
        french,
        english
            .iter()
            .map(|c| c.replace('.', ","))
            .collect::<Vec<_>>()
    );
    assert_eq!(french[3], "2,5");
    for format in ["csv", "json", "trf"] {
        let en = standings(&["--messages", "en", "--format", format]);
        let fr = standings(&["--messages", "fr", "--format", format]);
        assert_eq!(en, fr, "{format}");
        assert!(fr.contains("2.5"), "{format}: {fr}");
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn points_buchholz_and_sonneborn_berger_equal_an_independent_computation() {
    let files = [
        corpus("games-english/twic1389_3393games.pgn"),
        corpus("games-english/pychess-world_matches.pgn"),
        corpus("games-english/chessx-game10.pgn"),
    ];
    // Only complete tournaments: those with an unplayed round are left to fixtures/trf's tests and
    // benches/fide_check.py, which compare pgnkit with FIDE's checker there.
    let want: HashMap<Vec<String>, Vec<f64>> = independent(&files)
        .into_iter()
        .filter(|(_, nums)| nums[3] == 1.0)
        .map(|(key, nums)| (key, nums[..3].to_vec()))
        .collect();
    assert!(want.len() > 100, "{}", want.len());
    let mut args = vec![
        "standings".to_string(),
        "--format".into(),
        "csv".into(),
        "--tiebreaks".into(),
        "BH,SB".into(),
    ];
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
                ["points", "BH", "SB"]
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

/// TRF-16's `001` record (FIDE Handbook C.04 Annex 2, "Format of TRF (Tournament Report File)", Player
/// Section): (field, first column, last column), 1-based and inclusive; then per round, from column 92, the
/// opponent's start rank (92-95), the colour (97) and the result (99), each round 10 columns after the last.
const TRF_001: [(&str, usize, usize); 6] = [
    ("start rank", 5, 8),
    ("name", 15, 47),
    ("rating", 49, 52),
    ("FIDE id", 58, 68),
    ("points", 81, 84),
    ("rank", 86, 89),
];

/// One `001` record read back by column.
#[derive(Debug)]
struct TrfPlayer {
    fields: HashMap<&'static str, String>,
    /// (opponent's start rank, colour, result) per round.
    rounds: Vec<(usize, char, char)>,
}

fn trf_players(trf: &str) -> HashMap<usize, TrfPlayer> {
    assert!(trf.ends_with("\r\n"), "lines end with CR LF");
    let mut players = HashMap::new();
    for line in trf.split("\r\n").filter(|l| l.starts_with("001 ")) {
        let chars: Vec<char> = line.chars().collect();
        let col = |a: usize, b: usize| -> String {
            (a..=b)
                .map(|c| chars.get(c - 1).copied().unwrap_or(' '))
                .collect::<String>()
                .trim()
                .to_string()
        };
        let fields: HashMap<&str, String> =
            TRF_001.iter().map(|&(f, a, b)| (f, col(a, b))).collect();
        let mut rounds = Vec::new();
        let mut at = 92;
        while chars.len() >= at {
            rounds.push((
                col(at, at + 3).parse().unwrap_or(0),
                chars.get(at + 4).copied().unwrap_or(' '),
                chars.get(at + 6).copied().unwrap_or(' '),
            ));
            at += 10;
        }
        let start: usize = fields["start rank"].parse().expect(line);
        players.insert(start, TrfPlayer { fields, rounds });
    }
    players
}

/// The half points a TRF result code brings (FIDE's default scoring: TRF-16 and TRF-26's result codes).
fn code_half_points(code: char) -> u32 {
    match code {
        '1' | '+' | 'W' | 'F' | 'U' => 2,
        '=' | 'D' | 'H' => 1,
        _ => 0,
    }
}

/// Every round of every player agrees with the opponent's line, and the results add up to the points.
fn check_rounds(players: &HashMap<usize, TrfPlayer>) {
    for (start, p) in players {
        let mut half_points = 0;
        for (r, &(opponent, colour, result)) in p.rounds.iter().enumerate() {
            half_points += code_half_points(result);
            if opponent == 0 {
                // A bye or an absence, or a blank block: an unfinished game (no pairing that round).
                assert!(
                    (colour == '-' && "FHUZ".contains(result)) || (colour, result) == (' ', ' '),
                    "player {start} round {}: {colour:?} {result:?}",
                    r + 1
                );
                continue;
            }
            let theirs = players[&opponent].rounds[r];
            let other = |c: char| match c {
                'w' => 'b',
                'b' => 'w',
                '1' => '0',
                '0' => '1',
                '+' => '-',
                '-' => '+',
                'W' => 'L',
                'L' => 'W',
                c => c,
            };
            let double_forfeit = result == '-' && theirs.2 == '-';
            assert_eq!(
                (theirs.0, theirs.1),
                (*start, other(colour)),
                "player {start} round {}",
                r + 1
            );
            assert!(
                theirs.2 == other(result) || double_forfeit,
                "player {start} round {}: {result} against {}",
                r + 1,
                theirs.2
            );
        }
        let points: f64 = p.fields["points"].parse().unwrap();
        assert_eq!(f64::from(half_points) / 2.0, points, "player {start}");
    }
}

fn trf_of(event: &str, file: &std::path::Path) -> String {
    let file = file.display().to_string();
    let args = ["standings", "--format", "trf", "--event", event, &file];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    String::from_utf8(out.stdout).unwrap()
}

/// The TRF's points equal the independent computation's, player by player (by name), and its ranks follow
/// them.
fn trf_points_equal_the_independent_computation(event: &str, file: &std::path::Path) -> usize {
    let trf = trf_of(event, file);
    let players = trf_players(&trf);
    check_rounds(&players);
    let want: HashMap<String, f64> = independent(&[file.to_path_buf()])
        .into_iter()
        .filter(|(k, _)| k[0] == event)
        .map(|(k, v)| (k[3].clone(), v[0]))
        .collect();
    assert_eq!(players.len(), want.len(), "{trf}");
    for p in players.values() {
        let name = &p.fields["name"];
        let points: f64 = p.fields["points"].parse().unwrap();
        assert_eq!(Some(&points), want.get(name), "{name}");
        let rank: usize = p.fields["rank"].parse().unwrap();
        let better = want.values().filter(|&&w| w > points).count();
        assert!(
            rank > better,
            "{name}: rank {rank}, {better} have more points"
        );
    }
    players.len()
}

#[test]
fn trf_of_a_real_round_robin_fixture() {
    let file = subset("games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn");
    assert_eq!(
        trf_points_equal_the_independent_computation("6th Vezerkepzo GM 2021", &file),
        10
    );
    let trf = trf_of("6th Vezerkepzo GM 2021", &file);
    let players = trf_players(&trf);
    // Six rounds, five games each: every player has a game in each, with a FIDE id and a rating.
    for p in players.values() {
        assert_eq!(p.rounds.len(), 6, "{p:?}");
        assert!(p.rounds.iter().all(|r| r.0 != 0), "{p:?}");
        assert!(p.fields["FIDE id"].parse::<u64>().is_ok(), "{p:?}");
        assert!(p.fields["rating"].parse::<u16>().is_ok(), "{p:?}");
    }
    // Start ranks by rating, highest first.
    let ratings: Vec<u16> = (1..=10)
        .map(|s| players[&s].fields["rating"].parse().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    let header: Vec<&str> = trf.split("\r\n").take(4).collect();
    assert_eq!(
        header,
        [
            "012 6th Vezerkepzo GM 2021",
            "022 Budapest HUN",
            "042 2021/06/15",
            "052 2021/06/20"
        ]
    );
    // Direct encounter on real games: Bharath and Shahil tie on 2 points, and Bharath won their game in
    // round 1, so with direct encounter first he goes before Shahil, whose Sonneborn-Berger is higher.
    let path = file.display().to_string();
    let args = [
        "standings",
        "--format",
        "csv",
        "--tiebreaks",
        "DE,SB",
        &path,
    ];
    let out = run(&args);
    let rows = csv_rows(&out.stdout);
    let line = |name: &str| rows.iter().find(|r| r["player"] == name).unwrap();
    let (bharath, shahil) = (line("Bharath,Subramaniyam H"), line("Shahil,Dey"));
    // DE's value is the rank it gives within the tied group, 0 where it compares nobody: FIDE's checker on
    // this TRF (`-t PTS DE SB`) gives Bharath 1, Shahil 2, and 0 to players alone on their points.
    assert_eq!((&bharath["rank"][..], &bharath["DE"][..]), ("8", "1"));
    assert_eq!((&shahil["rank"][..], &shahil["DE"][..]), ("9", "2"));
    assert!(shahil["SB"].parse::<f64>().unwrap() > bharath["SB"].parse::<f64>().unwrap());
    assert_eq!(line("Mendonca,Leon Luke")["DE"], "0");
}

/// The round robin of `fixtures/standings/`: six games in two files, and five that are not games of it.
const ROUNDS_1_2: &str = "fixtures/standings/rounds-1-2.pgn";
const ROUND_3: &str = "fixtures/standings/round-3.pgn";

/// `fixtures/standings/`'s six real games alone, in a file of their own: what the standings of the whole of
/// it must equal.
fn real_games_only(dir: &std::path::Path) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(crate::util::root().join(ROUNDS_1_2)).unwrap();
    let round_3 = std::fs::read_to_string(crate::util::root().join(ROUND_3)).unwrap();
    // Round 3's two games come first in its file, each starting with its Event tag.
    let third = round_3.match_indices("[Event ").nth(2).unwrap().0;
    text.push('\n');
    text.push_str(&round_3[..third]);
    let path = dir.join("real.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

/// A player against himself, players named `?` or not named, and the same game twice (across the files and
/// inside one) were counted and ranked: the self-player first with two games, the nameless merged into one
/// player, a copied game making a fourth round in the TRF. They are left out, and every format says how many.
#[test]
fn games_that_are_no_pairing_and_duplicates_are_left_out_and_counted() {
    let dir = crate::util::temp_dir("standings", "left-out");
    let real = real_games_only(&dir);
    let real = real.to_str().unwrap();
    let said = "5 games left out: 2 duplicates of a game already counted, 2 games with no player's name on a side, 1 game of a player against himself";
    for format in ["text", "csv", "json", "trf"] {
        let args = ["standings", "--format", format, ROUNDS_1_2, ROUND_3];
        let all = run(&args);
        assert_eq!(all.status.code(), Some(0), "{}", show(&args, &all));
        let clean_args = ["standings", "--format", format, real];
        let clean = run(&clean_args);
        assert_eq!(
            clean.status.code(),
            Some(0),
            "{}",
            show(&clean_args, &clean)
        );
        assert!(clean.stderr.is_empty(), "{}", show(&clean_args, &clean));
        let (all_text, clean_text) = (
            String::from_utf8(all.stdout.clone()).unwrap(),
            String::from_utf8(clean.stdout.clone()).unwrap(),
        );
        let stderr = String::from_utf8_lossy(&all.stderr);
        match format {
            // A note under the heading, the table as of the real games alone.
            "text" => {
                let note = format!("  ({said})\n");
                assert!(all_text.contains(&note), "{all_text}");
                assert_eq!(all_text.replacen(&note, "", 1), clean_text);
                assert!(stderr.is_empty(), "{stderr}");
            }
            // Rows are players and a TRF has no place for it: stderr says it, per tournament.
            "csv" | "trf" => {
                assert_eq!(all_text, clean_text);
                assert_eq!(
                    stderr,
                    format!("pgnkit standings: Club Championship — Lyon — 2024: {said}\n")
                );
            }
            _ => {
                let mut record: serde_json::Value = serde_json::from_str(&all_text).unwrap();
                let fields = record.as_object_mut().unwrap();
                for (key, n) in [
                    ("duplicate_games", 2),
                    ("unknown_player_games", 2),
                    ("self_play_games", 1),
                ] {
                    assert_eq!(fields.insert(key.into(), 0.into()), Some(n.into()), "{key}");
                }
                let clean: serde_json::Value = serde_json::from_str(&clean_text).unwrap();
                assert_eq!(record, clean);
                assert!(stderr.is_empty(), "{stderr}");
            }
        }
    }
    // The TRF of three rounds has three round blocks on each line, and four players.
    let out = run(&["standings", "--format", "trf", ROUNDS_1_2, ROUND_3]);
    let players = trf_players(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(players.len(), 4);
    assert!(players.values().all(|p| p.rounds.len() == 3), "{players:?}");
    check_rounds(&players);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trf_wants_one_tournament() {
    let args = [
        "standings",
        "--format",
        "trf",
        "fixtures/stats/tournament.pgn",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Spring Open")
            && stderr.contains("Club Blitz")
            && stderr.contains("--event"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    let out = run(&[
        "standings",
        "--format",
        "trf",
        "--event",
        "Spring Open",
        "fixtures/stats/tournament.pgn",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let players = trf_players(&String::from_utf8(out.stdout).unwrap());
    check_rounds(&players);
    assert_eq!(players.len(), 4);
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn trf_points_of_corpus_tournaments_equal_an_independent_computation() {
    let twic = corpus("games-english/twic1389_3393games.pgn");
    // A round robin, a Swiss, and an online event of 2,083 games where many rounds hold several games.
    for event in [
        "6th Vezerkepzo GM 2021",
        "ch-TUR w 2021",
        "3rd Prague Masters 2021",
        "National Open 2021",
    ] {
        assert!(
            trf_points_equal_the_independent_computation(event, &twic) > 5,
            "{event}"
        );
    }
}

/// The guide's standings examples (English, the French run of the round robin, the TRF) print what the guide
/// shows, word for word: run from the repository root with this build's `pgnkit` first on the PATH.
#[test]
fn the_guides_standings_examples_print_what_the_guide_shows() {
    let guide = std::fs::read_to_string(crate::util::root().join("docs/guide.md")).unwrap();
    let bin_dir = std::path::Path::new(crate::util::BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut checked = Vec::new();
    // Each example: a ```text block whose first line is `$ pgnkit standings ...`, the rest its output.
    for block in guide.split("```text\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let Some(rest) = block.strip_prefix("$ pgnkit standings ") else {
            continue;
        };
        let (args, shown) = rest.split_once('\n').unwrap();
        let command = format!("pgnkit standings {args}");
        let out = Command::new("sh")
            .args(["-c", &command])
            .current_dir(crate::util::root())
            .env("PATH", &path)
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}: {}", show(&[], &out));
        // TRF lines end with CR LF; the guide shows them without the CR.
        let printed = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
        assert_eq!(printed.trim_end(), shown.trim_end(), "{command}");
        checked.push(command);
    }
    assert!(
        checked.iter().any(|c| c.contains("--messages fr"))
            && checked.iter().any(|c| c.contains("--format trf"))
            && checked.len() >= 3,
        "{checked:?}"
    );
}

/// (player, rank) in the order a table lists them.
type Ranking = Vec<(String, usize)>;

/// The rows of a text table after its header (the line that begins with `rank`), up to the first that does
/// not begin with a rank: (name, rank). A name is the text after the rank up to two spaces.
fn text_ranking<'a>(lines: impl Iterator<Item = &'a str>) -> Ranking {
    lines
        .skip_while(|l| !l.trim_start().starts_with("rank"))
        .skip(1)
        .map_while(|line| {
            let (rank, rest) = line.trim_start().split_once(' ')?;
            let rank = rank.parse().ok()?;
            let name = rest.trim_start().split("  ").next()?;
            Some((name.to_string(), rank))
        })
        .collect()
}

/// How each output of each command ranks the tournament `event` of `inputs`: standings' text, CSV, JSON
/// and TRF, `stats --summary` and the report's page.
fn rankings(event: &str, inputs: &[&str]) -> Vec<(&'static str, Ranking)> {
    let out = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--messages", "en"]);
        all.extend_from_slice(inputs);
        let out = run(&all);
        assert!(
            out.status.code().is_some_and(|c| c < 2),
            "{}",
            show(&all, &out)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let mut found = Vec::new();
    let text = out(&["standings", "--event", event]);
    found.push(("standings", text_ranking(text.lines())));
    let csv = out(&["standings", "--format", "csv", "--event", event]);
    let csv: Ranking = csv_rows(csv.as_bytes())
        .iter()
        .map(|r| (r["player"].clone(), r["rank"].parse().unwrap()))
        .collect();
    found.push(("standings --format csv", csv));
    let json = out(&["standings", "--format", "json", "--event", event]);
    let json: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let json: Ranking = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player"].as_str().unwrap().to_string(),
                p["rank"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    found.push(("standings --format json", json));
    let trf = out(&["standings", "--format", "trf", "--event", event]);
    let mut trf: Vec<(usize, String)> = trf
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let field = |a: usize, b: usize| {
                chars[a - 1..b]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string()
            };
            (field(86, 89).parse().unwrap(), field(15, 47))
        })
        .collect();
    trf.sort();
    found.push((
        "standings --format trf",
        trf.into_iter().map(|(rank, name)| (name, rank)).collect(),
    ));
    let summary = out(&["stats", "--summary"]);
    let heading = format!("event \"{event}\"");
    let lines = summary.lines().skip_while(|l| !l.starts_with(&heading));
    found.push(("stats --summary", text_ranking(lines)));
    let page = std::env::temp_dir().join(format!("pgnkit-rankings-{}.html", std::process::id()));
    let page_arg = page.to_str().unwrap().to_string();
    let mut args = vec![
        "report",
        "-q",
        "--messages",
        "en",
        "--event",
        event,
        "-o",
        &page_arg,
    ];
    args.extend_from_slice(inputs);
    run(&args);
    let html = std::fs::read_to_string(&page).unwrap();
    let _ = std::fs::remove_file(&page);
    let table = html.split("<table class=\"standings\">").nth(1).unwrap();
    let table = table.split("</table>").next().unwrap();
    let report: Ranking = table
        .split("<tr><td class=\"n\">")
        .skip(1)
        .map(|row| {
            let rank = row.split("</td>").next().unwrap().parse().unwrap();
            let name = row.split("<td dir=\"auto\">").nth(1).unwrap();
            (name.split("</td>").next().unwrap().to_string(), rank)
        })
        .collect();
    found.push(("report", report));
    found
}

/// `stats --summary` ranked players equal on points by their score rate and then shared the rank (Carol
/// and Dan 3 and 3) where `pgnkit standings` and its TRF ranked them by the tie-breaks (3 and 4).
#[test]
fn every_command_ranks_a_tournament_with_ties_the_same_way() {
    for (event, inputs) in [
        ("Spring Open", "fixtures/stats/tournament.pgn"),
        (
            "6th Vezerkepzo GM 2021",
            "fixtures/corpus-subset/games-english/twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn",
        ),
    ] {
        let found = rankings(event, &[inputs]);
        let (_, expected) = &found[0];
        assert!(expected.len() >= 4, "{found:?}");
        // Players equal on points, told apart by the tie-breaks.
        let csv = run(&["standings", "--format", "csv", "--event", event, inputs]);
        let rows = csv_rows(&csv.stdout);
        let ties = rows
            .windows(2)
            .filter(|pair| {
                pair[0]["points"] == pair[1]["points"] && pair[0]["rank"] != pair[1]["rank"]
            })
            .count();
        assert!(ties > 0, "{rows:?}");
        for (command, ranking) in &found {
            assert_eq!(ranking, expected, "{command} ranks {event} otherwise");
        }
    }
}

/// The `001` records of `pgnkit standings --format trf` of `file` with `options`: by name, (points, and per
/// round the block as written: opponent's start rank, colour, result code).
fn trf_rounds(file: &str, options: &[&str]) -> HashMap<String, (String, Vec<String>)> {
    let mut args = vec!["standings", "--format", "trf"];
    args.extend(options);
    args.push(file);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let trf = String::from_utf8(out.stdout).unwrap();
    let players = trf_players(&trf);
    check_rounds(&players);
    let start_of: HashMap<usize, String> = players
        .iter()
        .map(|(&start, p)| (start, p.fields["name"].clone()))
        .collect();
    players
        .values()
        .map(|p| {
            let rounds = p
                .rounds
                .iter()
                .map(|&(opponent, colour, result)| {
                    let who = start_of.get(&opponent).map_or("-", String::as_str);
                    format!("{who} {colour} {result}")
                })
                .collect();
            (
                p.fields["name"].clone(),
                (p.fields["points"].clone(), rounds),
            )
        })
        .collect()
}

/// fixtures/standings/forfeits.pgn, a five-player event of four rounds: each kind of game that is not played
/// over the board, with the code TRF-16/26 gives it and the points FIDE's default scoring gives (a win or a
/// forfeit win, `F`, `U` 1; a draw, `H` ½; a loss, a forfeit loss, `Z` 0).
#[test]
fn forfeits_byes_and_absences_have_their_trf_codes_and_points() {
    let got = trf_rounds("fixtures/standings/forfeits.pgn", &[]);
    let want = |points: &str, rounds: &[&str]| {
        (
            points.to_string(),
            rounds.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        )
    };
    // Round 1: Ahn beat Berg over the board; Cruz-Diaz 1-0 without a move (a forfeit); Eklund against BYE
    // 1-0 (a full-point bye). Round 2: Cruz-Ahn drawn; Berg-Eklund `0-0` (a double forfeit); bye-Diaz ½ (a
    // half-point bye). Round 3: Diaz-Ahn 0-1 with a Termination "forfeit" (a forfeit, moves or not);
    // Berg-Cruz 1-0; Eklund against an empty Black 0-1 (a zero-point bye). Round 4: Eklund has no game (an
    // absence).
    assert_eq!(
        got["Ahn"],
        want("3.0", &["Berg w 1", "Cruz b =", "Diaz b +", "Berg w ="])
    );
    assert_eq!(
        got["Berg"],
        want("1.5", &["Ahn b 0", "Eklund w -", "Cruz w 1", "Ahn b ="])
    );
    assert_eq!(
        got["Cruz"],
        want("1.5", &["Diaz w +", "Ahn w =", "Berg b 0", "Diaz w 0"])
    );
    assert_eq!(
        got["Diaz"],
        want("1.5", &["Cruz b -", "- - H", "Ahn w -", "Cruz b 1"])
    );
    assert_eq!(
        got["Eklund"],
        want("1.0", &["- - F", "Berg b -", "- - Z", "- - Z"])
    );
    assert!(!got.contains_key("BYE") && !got.contains_key("bye"));
    // The standings say the same points.
    let out = run(&[
        "standings",
        "--format",
        "csv",
        "fixtures/standings/forfeits.pgn",
    ]);
    let points: HashMap<String, String> = csv_rows(&out.stdout)
        .into_iter()
        .map(|r| (r["player"].clone(), r["points"].clone()))
        .collect();
    let expected: HashMap<String, String> = [
        ("Ahn", "3"),
        ("Berg", "1.5"),
        ("Cruz", "1.5"),
        ("Diaz", "1.5"),
        ("Eklund", "1"),
    ]
    .iter()
    .map(|(n, p)| (n.to_string(), p.to_string()))
    .collect();
    assert_eq!(points, expected);
}

/// `--moveless` says what a decided game without a move is; a Termination saying forfeit stays a forfeit.
#[test]
fn moveless_says_what_a_game_without_moves_is() {
    let file = "fixtures/standings/forfeits.pgn";
    for (option, cruz, diaz) in [
        ("forfeit", "Diaz w +", "Cruz b -"),
        ("unrated", "Diaz w W", "Cruz b L"),
        ("played", "Diaz w 1", "Cruz b 0"),
    ] {
        let got = trf_rounds(file, &["--moveless", option]);
        assert_eq!(got["Cruz"].1[0], cruz, "{option}");
        assert_eq!(got["Diaz"].1[0], diaz, "{option}");
        assert_eq!(
            got["Ahn"].1[2], "Diaz b +",
            "{option}: the Termination says forfeit"
        );
        // The points do not change: the result stands.
        assert_eq!(got["Cruz"].0, "1.5", "{option}");
    }
    let args = ["standings", "--moveless", "maybe", file];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
}

/// `--allocated-bye` says which full-point byes were the pairing-allocated bye (`U`): a bye game's full
/// point, and with `unpaired` also the one player without a game in a round, who then scores the point.
#[test]
fn allocated_bye_says_which_full_point_byes_the_pairing_gave() {
    let file = "fixtures/standings/forfeits.pgn";
    let got = trf_rounds(file, &["--allocated-bye", "bye-game"]);
    assert_eq!(
        (
            got["Eklund"].0.as_str(),
            got["Eklund"].1[0].as_str(),
            got["Eklund"].1[3].as_str()
        ),
        ("1.0", "- - U", "- - Z")
    );
    let got = trf_rounds(file, &["--allocated-bye", "unpaired"]);
    assert_eq!(
        (
            got["Eklund"].0.as_str(),
            got["Eklund"].1[0].as_str(),
            got["Eklund"].1[3].as_str()
        ),
        ("2.0", "- - U", "- - U")
    );
    // Round 3's zero-point bye is no absence: Eklund had a bye game that round.
    assert_eq!(got["Eklund"].1[2], "- - Z");
}

/// fixtures/standings/fide-ids.pgn: "So, Wesley", "So,W" and "So, W." share FIDE id 5202213 and are one player
/// (three games); two players called "Smith, John" have ids 1000001 and 1000002 and stay two.
#[test]
fn players_are_told_apart_by_fide_id() {
    let args = [
        "standings",
        "--format",
        "csv",
        "fixtures/standings/fide-ids.pgn",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let rows: Vec<(String, String, String)> = csv_rows(&out.stdout)
        .into_iter()
        .map(|r| (r["player"].clone(), r["games"].clone(), r["points"].clone()))
        .collect();
    let row = |name: &str, games: &str, points: &str| (name.into(), games.into(), points.into());
    assert_eq!(
        rows,
        [
            // So beat Smith (1000001) twice and drew Nakamura.
            row("So, Wesley", "3", "2.5"),
            // Nakamura drew Smith (1000002) and So, and beat that Smith.
            row("Nakamura, Hikaru", "3", "2"),
            row("Smith, John", "2", "0.5"),
            row("Smith, John", "2", "0"),
        ]
    );
    let trf = trf_rounds("fixtures/standings/fide-ids.pgn", &[]);
    assert_eq!(trf["So, Wesley"].1.len(), 3);
}

/// Every TRF pgnkit writes is read by bbpPairings, a pairing engine no one here wrote: its checker
/// (`--dutch F.trf -c`) exits 0 once it has read the file (3 is "Invalid line": a record it cannot read; a
/// round robin's pairings differ from a Dutch Swiss's, which it says without failing). The fixtures'
/// tournaments, and with the shared corpus, every tournament of TWIC 1389 with at least six players.
#[test]
#[cfg_attr(
    not(bbppairings),
    ignore = "needs bbpPairings: BBPPAIRINGS=/path/to/bbpPairings.exe, or ../tools/bbpPairings/bbpPairings.exe (make in its source, ../shared/tools/bbpPairings)"
)]
fn every_trf_is_read_by_bbp_pairings() {
    let dir = std::env::temp_dir().join(format!("pgnkit-bbp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<(String, Vec<String>)> = [
        "fixtures/standings/forfeits.pgn",
        "fixtures/standings/fide-ids.pgn",
        "fixtures/stats/tournament.pgn",
    ]
    .iter()
    .map(|f| (f.to_string(), Vec::new()))
    .collect();
    files.push((
        "fixtures/standings/rounds-1-2.pgn fixtures/standings/round-3.pgn".into(),
        Vec::new(),
    ));
    if cfg!(shared_corpus) {
        let twic = corpus("games-english/twic1389_3393games.pgn");
        files.push((twic.display().to_string(), Vec::new()));
    }
    let mut read = 0;
    for (paths, _) in &files {
        let paths: Vec<&str> = paths.split(' ').collect();
        let mut args = vec!["standings", "--format", "json"];
        args.extend(&paths);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
        let mut events: HashMap<String, usize> = HashMap::new();
        let mut big = Vec::new();
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let t: serde_json::Value = serde_json::from_str(line).unwrap();
            let event = t["event"].as_str().unwrap().to_string();
            *events.entry(event.clone()).or_default() += 1;
            let players = t["players"].as_array().unwrap().len();
            let small_fixture = !paths[0].contains("twic");
            if players >= 6 || small_fixture {
                big.push(event);
            }
        }
        for event in big.into_iter().filter(|e| events[e] == 1) {
            for moveless in ["forfeit", "unrated"] {
                let mut args = vec!["standings", "--format", "trf", "--moveless", moveless];
                args.extend(["--event", event.as_str()]);
                args.extend(&paths);
                let out = run(&args);
                assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
                let trf = dir.join(format!("t{read}.trf"));
                std::fs::write(&trf, &out.stdout).unwrap();
                let bbp = Command::new(env!("PGNKIT_BBPPAIRINGS"))
                    .args(["--dutch", trf.to_str().unwrap(), "-c"])
                    .output()
                    .unwrap();
                assert_eq!(
                    bbp.status.code(),
                    Some(0),
                    "bbpPairings --dutch {} -c ({event}, {paths:?}, --moveless {moveless}): {}{}",
                    trf.display(),
                    String::from_utf8_lossy(&bbp.stdout),
                    String::from_utf8_lossy(&bbp.stderr)
                );
                read += 1;
            }
        }
    }
    assert!(read >= 10, "{read} TRFs read");
    let _ = std::fs::remove_dir_all(&dir);
}
