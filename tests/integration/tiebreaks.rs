//! End-to-end tests of FIDE's tie-break codes (C.07) in every output that ranks players: `standings`' CSV and
//! JSON columns named by the codes, `--tiebreaks` (its order, the former names, a bad code in English and in
//! French), and a forfeit marked as the TRF marks it in the report's crosstable and in `stats --summary`'s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::util::{bin_command, root, run, show, temp_dir};

/// fixtures/stats' round robin and fixtures/pairings' Swiss: a tournament of each kind.
const ROUND_ROBIN: &str = "fixtures/stats/tournament.pgn";

fn swiss() -> Vec<String> {
    (1..=4)
        .map(|r| format!("fixtures/pairings/round{r}.pgn"))
        .collect()
}

/// `pgnkit standings ARGS`, in English, exit 0 required; its standard output.
fn standings(args: &[&str]) -> String {
    let mut all = vec!["standings", "--messages", "en"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert_eq!(out.status.code(), Some(0), "{}", show(&all, &out));
    String::from_utf8(out.stdout).unwrap()
}

/// The CSV's header and its rows as maps.
fn csv(text: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect();
    (header, rows)
}

/// (player, rank) of `event`'s rows of a CSV.
fn ranking(text: &str, event: &str) -> Vec<(String, String)> {
    csv(text)
        .1
        .into_iter()
        .filter(|r| r["event"] == event)
        .map(|r| (r["player"].clone(), r["rank"].clone()))
        .collect()
}

#[test]
fn csv_and_json_name_their_columns_by_the_codes() {
    let swiss = swiss();
    let mut args = vec!["--format", "csv", ROUND_ROBIN];
    args.extend(swiss.iter().map(String::as_str));
    let (header, rows) = csv(&standings(&args));
    // The columns of earlier versions in their places, then every code of every tournament in the order
    // first met: the round robins' default list (DE, WIN, SB, KS), then the Swiss's codes not met yet, `/`
    // written `_`.
    assert_eq!(
        header,
        [
            "event",
            "site",
            "year",
            "rank",
            "player",
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
            "DE",
            "WIN",
            "SB",
            "KS",
            "BH_C1",
            "BH",
            "ARO_C1",
            "BWG",
            "BPG"
        ]
    );
    // A code a tournament was not ranked by is empty on its rows.
    let alice = rows.iter().find(|r| r["player"] == "Alice").unwrap();
    assert_eq!((&alice["SB"][..], &alice["BH_C1"][..]), ("3", ""));
    let swiss_row = rows
        .iter()
        .find(|r| r["event"] != "Spring Open" && r["event"] != "Club Blitz");
    assert!(swiss_row.is_some_and(|r| !r["BH_C1"].is_empty() && r["KS"].is_empty()));
    // The columns of earlier versions sum over the games the file has; the codes apply article 16. Sven
    // Eriksen met Berger (2 points), Fischer (3) and Chen (1) and had a bye in round 4: `buchholz` 6, but
    // `BH` 9, the bye counted as an opponent with his own 3 points (the guide's worked example).
    let sven = rows.iter().find(|r| r["player"] == "Sven Eriksen").unwrap();
    assert_eq!(
        (
            &sven["buchholz"][..],
            &sven["buchholz_cut1"][..],
            &sven["BH"][..]
        ),
        ("6", "5", "9")
    );

    // Chosen codes with modifiers: the same names in both formats, and JSON's list of the codes.
    let chosen = [
        "--tiebreaks",
        "BH/C1,ARO/M1,SB#C1",
        "--event",
        "Spring Open",
    ];
    let mut args = vec!["--format", "csv"];
    args.extend_from_slice(&chosen);
    args.push(ROUND_ROBIN);
    let (header, _) = csv(&standings(&args));
    assert_eq!(header[header.len() - 3..], ["BH_C1", "ARO_M1", "SB_C1"]);
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(&chosen);
    args.push(ROUND_ROBIN);
    let json: serde_json::Value = serde_json::from_str(standings(&args).trim()).unwrap();
    assert_eq!(
        json["tiebreaks"],
        serde_json::json!(["BH/C1", "ARO/M1", "SB/C1"])
    );
    for player in json["players"].as_array().unwrap() {
        for member in ["BH_C1", "ARO_M1", "SB_C1"] {
            assert!(player[member].is_number(), "{member}: {player}");
        }
        // The figures of earlier versions keep their names; a code is never a member with its `/`.
        assert!(
            player["buchholz"].is_number() && player.get("BH/C1").is_none(),
            "{player}"
        );
    }
}

#[test]
fn the_order_of_the_codes_changes_a_ranking() {
    // Spring Open: Carol and Dan on 1 point each, equal Buchholz (5, cut 1: 4); Dan beat Carol, Carol has
    // the higher Sonneborn-Berger (2 against 1: she drew the two leaders).
    let de_first = standings(&[
        "--format",
        "csv",
        "--tiebreaks",
        "DE,BH/C1,BH,SB",
        ROUND_ROBIN,
    ]);
    let de_last = standings(&[
        "--format",
        "csv",
        "--tiebreaks",
        "BH/C1,BH,SB,DE",
        ROUND_ROBIN,
    ]);
    let at = |ranking: &[(String, String)], k: usize| (ranking[k].0.clone(), ranking[k].1.clone());
    let first = ranking(&de_first, "Spring Open");
    let last = ranking(&de_last, "Spring Open");
    assert_eq!(at(&first, 2), ("Dan".into(), "3".into()), "{de_first}");
    assert_eq!(at(&first, 3), ("Carol".into(), "4".into()), "{de_first}");
    assert_eq!(at(&last, 2), ("Carol".into(), "3".into()), "{de_last}");
    assert_eq!(at(&last, 3), ("Dan".into(), "4".into()), "{de_last}");
    // The text heading and the TRF's records say the order used.
    let text = standings(&[
        "--tiebreaks",
        "DE,BH/C1,BH,SB",
        "--event",
        "Spring Open",
        ROUND_ROBIN,
    ]);
    assert!(
        text.contains("ranked by points, then DE, BH/C1, BH, SB\n"),
        "{text}"
    );
    let trf = standings(&[
        "--format",
        "trf",
        "--tiebreaks",
        "BH/C1,BH,SB,DE",
        "--event",
        "Spring Open",
        ROUND_ROBIN,
    ]);
    assert!(
        trf.contains("\r\n202 BH/C1,BH,SB,DE\r\n212 PTS,BH/C1,BH,SB,DE\r\n"),
        "{trf}"
    );
}

#[test]
fn a_former_name_reads_as_its_code() {
    let alias = standings(&[
        "--format",
        "csv",
        "--tiebreaks",
        "buchholz_cut1",
        ROUND_ROBIN,
    ]);
    let code = standings(&["--format", "csv", "--tiebreaks", "BH/C1", ROUND_ROBIN]);
    assert_eq!(alias, code);
    assert!(alias.starts_with("event,") && alias.lines().next().unwrap().ends_with(",BH_C1"));
    // Mixed with codes, each where it stands.
    let mixed = standings(&[
        "--format",
        "csv",
        "--tiebreaks",
        "DE,buchholz,sonneborn_berger,wins",
        ROUND_ROBIN,
    ]);
    assert!(
        mixed.lines().next().unwrap().ends_with(",DE,BH,SB,WIN"),
        "{mixed}"
    );
}

/// `pgnkit ARGS` with the locale's variables set to `lang` only.
fn with_lang(lang: &str, args: &[&str]) -> std::process::Output {
    bin_command()
        .args(args)
        .current_dir(root())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang)
        .output()
        .unwrap()
}

#[test]
fn a_bad_code_is_a_usage_error_in_english_and_in_french() {
    let args = ["standings", "--tiebreaks", "BH,XYZ", ROUND_ROBIN];
    let out = with_lang("C", &args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pgnkit standings: --tiebreaks: \"XYZ\" is no FIDE tie-break code (PTS, DE, WIN, WON, BPG, BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO)\n"
    );
    // A modifier on a code that takes none, and one that is none.
    for (list, said) in [
        (
            "WIN/C1",
            "\"WIN/C1\": this tie-break takes no cut or median modifier",
        ),
        ("BH/X3", "\"BH/X3\": \"X3\" is no modifier (C1, C2, M1, M2)"),
    ] {
        let out = with_lang("C", &["standings", "--tiebreaks", list, ROUND_ROBIN]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(said),
            "{list}"
        );
    }
    // In French, by LANG or by --messages.
    let french = "pgnkit standings : --tiebreaks : \"XYZ\" n’est pas un code de départage FIDE (PTS, DE, WIN, WON, BPG, BWG, GE, PS, BH, FB, AOB, SB, KS, ARO, TPR, PTP, APRO, APPO)\n";
    let out = with_lang("fr_FR.UTF-8", &args);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), french);
    let out = with_lang(
        "C",
        &[
            "standings",
            "--messages",
            "fr",
            "--tiebreaks",
            "BH,XYZ",
            ROUND_ROBIN,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), french);
}

/// A round robin of four in which Ada wins round 1 against Ben by forfeit (a `1-0` without moves).
fn forfeit_round_robin(dir: &Path) -> PathBuf {
    let games = [
        ("1", "Ada", "Ben", "1-0", ""),
        ("1", "Cy", "Di", "1/2-1/2", "1. e4 e5 "),
        ("2", "Ben", "Cy", "0-1", "1. d4 d5 "),
        ("2", "Di", "Ada", "1/2-1/2", "1. c4 c5 "),
        ("3", "Ada", "Cy", "1/2-1/2", "1. Nf3 Nf6 "),
        ("3", "Ben", "Di", "1-0", "1. g3 g6 "),
    ];
    let pgn: String = games
        .iter()
        .map(|(round, white, black, result, moves)| {
            format!(
                "[Event \"Forfeit Cup\"]\n[Site \"Metz\"]\n[Date \"2024.05.0{round}\"]\n[Round \"{round}\"]\n\
                 [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves}{result}\n\n"
            )
        })
        .collect();
    let path = dir.join("forfeit.pgn");
    std::fs::write(&path, pgn).unwrap();
    path
}

#[test]
fn a_forfeit_is_marked_in_the_report_and_the_summary() {
    let dir = temp_dir("tiebreaks", "forfeit");
    let pgn = forfeit_round_robin(&dir);
    let pgn = pgn.to_str().unwrap();
    // The TRF marks it `+` and `-`.
    let trf = standings(&["--format", "trf", pgn]);
    let line = |name: &str| {
        trf.split("\r\n")
            .find(|l| l.starts_with("001") && l[14..47].trim_end() == name)
            .unwrap()
            .to_string()
    };
    assert_eq!(&line("Ada")[91..99], "   2 w +", "{trf}");
    assert_eq!(&line("Ben")[91..99], "   1 b -", "{trf}");

    // The report's grid: `+` in Ada's row under Ben, `-` in Ben's under Ada.
    let page = dir.join("page.html");
    let args = [
        "report",
        "-q",
        "--messages",
        "en",
        "-o",
        page.to_str().unwrap(),
        pgn,
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
    let html = std::fs::read_to_string(&page).unwrap();
    let grid = html.split("<table class=\"grid\">").nth(1).unwrap();
    let grid = grid.split("</table>").next().unwrap();
    let row = |name: &str| {
        grid.split("<tr>")
            .find(|r| r.contains(&format!(">{name}</td>")))
            .unwrap()
            .to_string()
    };
    // Ranked Ada and Cy (2 points), Ben, Di: Ben is the grid's third column, Ada its first.
    let cells = |r: String| -> Vec<String> {
        r.split("<td")
            .skip(3)
            .map(|c| c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()].to_string())
            .collect()
    };
    assert_eq!(cells(row("Ada"))[..4], ["", "½", "+", "½"], "{grid}");
    assert_eq!(cells(row("Ben"))[..4], ["-", "0", "", "1"], "{grid}");

    // stats --summary's crosstable, its legend saying what the marks mean, in English and French.
    for (lang, legend) in [
        ("en", "+ a forfeit won, - a forfeit lost"),
        ("fr", "+ gain par forfait, - perte par forfait"),
    ] {
        let args = ["stats", "--summary", "--messages", lang, pgn];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(legend), "{text}");
        let rows: Vec<Vec<&str>> = text
            .lines()
            .filter(|l| l.contains("  Ada ") || l.contains("  Ben "))
            .map(|l| l.split_whitespace().collect())
            .filter(|cells: &Vec<&str>| cells.contains(&"x"))
            .collect();
        assert_eq!(rows[0][2..], ["x", "½", "+", "½"], "{text}");
        assert_eq!(rows[1][2..], ["-", "0", "x", "1"], "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `report --tiebreaks` ranks as `standings --tiebreaks` does with the same list: the order of the codes
/// swaps Spring Open's third and fourth places in the page's standings table too; a bad code is refused
/// (exit 2) before any page is written.
#[test]
fn the_report_ranks_by_the_list_standings_ranks_by() {
    let dir = temp_dir("tiebreaks", "report");
    let page = dir.join("page.html");
    let page = page.to_str().unwrap();
    let standings_table = |list: &str| -> Vec<String> {
        let args = [
            "report",
            "-q",
            "--messages",
            "en",
            "--tiebreaks",
            list,
            "--event",
            "Spring Open",
            "-o",
            page,
            ROUND_ROBIN,
        ];
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", show(&args, &out));
        let html = std::fs::read_to_string(page).unwrap();
        let table = html.split("<table class=\"standings\">").nth(1).unwrap();
        let table = table.split("</table>").next().unwrap();
        ["Alice", "Bob", "Carol", "Dan"]
            .into_iter()
            .filter_map(|name| table.find(&format!(">{name}<")).map(|at| (at, name)))
            .collect::<std::collections::BTreeMap<_, _>>()
            .into_values()
            .map(String::from)
            .collect()
    };
    for (list, third, fourth) in [
        ("DE,BH/C1,BH,SB", "Dan", "Carol"),
        ("BH/C1,BH,SB,DE", "Carol", "Dan"),
    ] {
        let order = standings_table(list);
        assert_eq!(order[2..], [third, fourth], "{list}: {order:?}");
        let csv_text = standings(&["--format", "csv", "--tiebreaks", list, ROUND_ROBIN]);
        let names: Vec<String> = ranking(&csv_text, "Spring Open")
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(order, names, "{list}");
    }
    std::fs::remove_file(page).unwrap();
    let args = ["report", "--tiebreaks", "BH,XYZ", "-o", page, ROUND_ROBIN];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", show(&args, &out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("pgnkit report: --tiebreaks: \"XYZ\" is no FIDE tie-break code"),
        "{}",
        show(&args, &out)
    );
    assert!(!Path::new(page).exists(), "no page for a refused run");
    std::fs::remove_dir_all(&dir).unwrap();
}
