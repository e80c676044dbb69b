//! The PGN reader against the shared corpus (`../shared/corpus` or `$PGNKIT_SHARED/corpus`, present in CI;
//! without it the tests that need the whole corpus are listed as ignored), and against the few corpus files
//! copied into `fixtures/corpus-subset/` (run everywhere):
//! * every `.pgn` under games-english, games-french, games-localized and pgn-edge-cases has the number
//!   of games its folder's README says, with the corrections explained in `count_corrections`;
//! * the splitter finds exactly the parser's game boundaries on every corpus file, whatever its kind;
//! * kokopu's expected errors (`N.err`) and dumps (`N.txt`) are matched;
//! * files meant to fail fail with a located error (or are replay-time failures, checked as such), the
//!   others parse without error;
//! * the injected-error file's bad moves are located at the line and column its README gives.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use pgnkit::pgn::{
    self, DiagnosticKind as D, DiagnosticSeverity, Game, GameReader, TokenKind, split_games,
    unescape_comment,
};

fn corpus() -> PathBuf {
    let p = PathBuf::from(env!("PGNKIT_SHARED_CORPUS"));
    assert!(
        p.is_dir(),
        "the shared corpus is expected at {} (CI has it)",
        p.display()
    );
    p
}

/// The corpus files copied into the repository, at their corpus paths.
fn subset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus-subset")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn files(sub: &str, ext: Option<&str>) -> Vec<PathBuf> {
    files_in(&corpus(), sub, ext)
}

fn files_in(root: &Path, sub: &str, ext: Option<&str>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(&root.join(sub), &mut out);
    out.retain(|p| ext.is_none_or(|e| p.extension().is_some_and(|x| x == e)));
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(corpus()).unwrap().display().to_string()
}

/// `[Event ` counts from a folder's README table (per file, relative to the corpus root).
fn readme_counts(folder: &Path, out: &mut BTreeMap<String, usize>) {
    let Ok(text) = fs::read_to_string(folder.join("README.md")) else {
        return;
    };
    let prefix = folder.strip_prefix(corpus()).unwrap();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let name = cells[1].trim_matches('`');
        if !name.ends_with(".pgn") {
            continue;
        }
        // games-french's table has `| file | games | ...`, the others `| file | size | games | ...`
        let cell = if cells[2].ends_with('B') {
            cells[3]
        } else {
            cells[2]
        };
        let digits: String = cell
            .split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if let Ok(n) = digits.parse() {
            out.insert(prefix.join(name).display().to_string(), n);
        }
    }
}

/// Where the real number of games differs from the README's count of lines starting with `[Event `,
/// and why. (The README counts under-count games without an Event tag or whose `[Event` does not start
/// its line; a few files hold non-PGN text that becomes games of its own, with errors.)
fn count_corrections() -> BTreeMap<&'static str, (usize, &'static str)> {
    BTreeMap::from([
        (
            "pgn-edge-cases/kokopu/bom/database.pgn",
            (1, "the BOM precedes `[Event`"),
        ),
        (
            "pgn-edge-cases/kokopu/headers/database.pgn",
            (16, "one game has tags but no Event"),
        ),
        (
            "pgn-edge-cases/kokopu/mini1/database.pgn",
            (1, "tags but no Event"),
        ),
        (
            "pgn-edge-cases/kokopu/misc/database.pgn",
            (15, "one game has Annotator/FEN/SetUp only"),
        ),
        (
            "pgn-edge-cases/kokopu/syntactic-error-1/database.pgn",
            (
                22,
                "21 games for kokopu (one Event line lacks its `[`); pgnkit also splits 'Header after \
                 movetext' in two, as its boundary rule says",
            ),
        ),
        (
            "pgn-edge-cases/kokopu/syntactic-error-3/database.pgn",
            (1, "a tagless game"),
        ),
        (
            "pgn-edge-cases/mliebelt/sampleGameThrow.pgn",
            (1, "a tagless game"),
        ),
        (
            "pgn-edge-cases/pgn-extract/nested-comment.pgn",
            (1, "a tagless game"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_02.pgn",
            (
                2,
                "a broken tag line `(Result \"1/2 - ½) <br>` in the movetext: `1/2` is read as a draw \
                 (a spelling real exports use), which ends the game, so the garbage after it starts another",
            ),
        ),
        (
            "pgn-edge-cases/pychess/badpgn.pgn",
            (1, "a broken tag, no Event"),
        ),
        (
            "pgn-edge-cases/python-chess/antichess-programfox.pgn",
            (2, "Variant tags only"),
        ),
        (
            "pgn-edge-cases/python-chess/utf8-bom.pgn",
            (2, "the BOM precedes the first `[Event`"),
        ),
        (
            "pgn-edge-cases/pgn-read/crafty06_01.pgn",
            (
                3,
                "mail headers between the two games form a game of errors",
            ),
        ),
        (
            "pgn-edge-cases/pgn-read/crafty06_02.pgn",
            (
                3,
                "a MIME/HTML mail: its text around the games forms games of errors",
            ),
        ),
        (
            "pgn-edge-cases/chessjs/0.pgn",
            (
                7,
                "`<br />` instead of line breaks (chess.js newline_char test): not PGN",
            ),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_05.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_06.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_08.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_09.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_11.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_12.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_14.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_15.pgn",
            (2, "`</p>` after the marker"),
        ),
        (
            "pgn-edge-cases/pgn-read/Little_17.pgn",
            (
                5,
                "`<br>` after each tag: every tag after movetext starts a game",
            ),
        ),
    ])
}

/// Files whose syntax is broken on purpose (or that are not PGN): each must report a located error.
/// Every other `.pgn` must parse without error (warnings allowed).
const SYNTAX_FAILURES: &[&str] = &[
    "pgn-edge-cases/chessjs/0.pgn",
    "pgn-edge-cases/kokopu/redos-comment/database.pgn",
    "pgn-edge-cases/kokopu/syntactic-error-1/database.pgn",
    "pgn-edge-cases/kokopu/syntactic-error-3/database.pgn",
    "pgn-edge-cases/kokopu/syntactic-error-5/database.pgn",
    "pgn-edge-cases/pgn-extract/nested-comment.pgn",
    "pgn-edge-cases/pgn-read/Little_02.pgn",
    "pgn-edge-cases/pgn-read/Little_03.pgn",
    "pgn-edge-cases/pgn-read/Little_05.pgn",
    "pgn-edge-cases/pgn-read/Little_06.pgn",
    "pgn-edge-cases/pgn-read/Little_08.pgn",
    "pgn-edge-cases/pgn-read/Little_09.pgn",
    "pgn-edge-cases/pgn-read/Little_11.pgn",
    "pgn-edge-cases/pgn-read/Little_12.pgn",
    "pgn-edge-cases/pgn-read/Little_14.pgn",
    "pgn-edge-cases/pgn-read/Little_15.pgn",
    "pgn-edge-cases/pgn-read/Little_17.pgn",
    "pgn-edge-cases/pgn-read/crafty06_01.pgn",
    "pgn-edge-cases/pgn-read/crafty06_02.pgn",
    "pgn-edge-cases/pychess/badpgn.pgn",
];

fn parse(path: &Path) -> (Vec<u8>, usize) {
    let data = fs::read(path).unwrap();
    let n = GameReader::new(&data).count();
    (data, n)
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn game_counts_match_the_readmes() {
    let mut expected = BTreeMap::new();
    for sub in [
        "games-english",
        "games-french",
        "games-localized",
        "pgn-edge-cases",
    ] {
        let mut dirs = vec![corpus().join(sub)];
        let mut all = Vec::new();
        walk(&corpus().join(sub), &mut all);
        dirs.extend(all.iter().filter_map(|p| p.parent().map(Path::to_path_buf)));
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            readme_counts(&d, &mut expected);
        }
    }
    let corrections = count_corrections();
    let mut checked = 0;
    let mut failures = Vec::new();
    for sub in [
        "games-english",
        "games-french",
        "games-localized",
        "pgn-edge-cases",
    ] {
        for path in files(sub, Some("pgn")) {
            let name = rel(&path);
            let Some(&readme) = expected.get(&name) else {
                failures.push(format!("{name}: not in its README"));
                continue;
            };
            let want = corrections.get(name.as_str()).map_or(readme, |c| c.0);
            let (_, got) = parse(&path);
            if got != want {
                failures.push(format!(
                    "{name}: {got} games, expected {want} (README {readme})"
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 133, "11 + 3 + 1 + 118 .pgn files");
    // the corrections all apply to files that exist
    for name in corrections.keys() {
        assert!(corpus().join(name).is_file(), "{name}");
    }
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn syntax_errors_only_where_meant() {
    let mut failures = Vec::new();
    for sub in [
        "games-english",
        "games-french",
        "games-localized",
        "pgn-edge-cases",
        "injected",
    ] {
        for path in files(sub, Some("pgn")) {
            let name = rel(&path);
            let data = fs::read(&path).unwrap();
            let mut first_error = None;
            for g in GameReader::new(&data) {
                if let Some(d) = g.errors().next() {
                    first_error.get_or_insert((g.index, d.kind, g.location(d.span.start)));
                }
            }
            let meant = SYNTAX_FAILURES.contains(&name.as_str());
            match (meant, first_error) {
                (true, None) => failures.push(format!("{name}: expected a syntax error")),
                (false, Some((i, k, at))) => {
                    failures.push(format!("{name}:{at}: game {}: unexpected {k:?}", i + 1))
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Replay-time failures: the syntax is fine, the moves are not (checked here as "parses, and the move
/// at issue is a move token").
#[test]
fn replay_time_failures_parse_cleanly() {
    // (file, game index, line, column of the move that replay must reject)
    let cases = [
        // English game written with a German knight letter (`Sf3`): the parser keeps it; the notation
        // layer must detect the mix
        ("pgn-edge-cases/mliebelt/sampleGameThrow.pgn", 0, 2, 13),
        // coordinates (`g1f3`): a move token (LAN); must be resolved or rejected by replay
        ("pgn-edge-cases/python-chess/uci-moves.pgn", 0, 9, 1),
        // crazyhouse drops: tokens; the variant is refused at replay
        (
            "pgn-edge-cases/python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
            0,
            17,
            399,
        ),
    ];
    for (name, index, line, column) in cases {
        let data = fs::read(subset().join(name)).unwrap();
        let game = GameReader::new(&data).nth(index).unwrap();
        assert!(!game.has_errors(), "{name}: {:?}", game.diagnostics);
        assert!(
            move_at(&game, line, column),
            "{name}: no move token at {line}:{column}"
        );
    }
    // pgn-read's break_* files broke pgn-read 0.8.1 (a comment line starting with `[`, a `%` in
    // column 1 inside a comment); they are valid and replay legally: one clean game each
    for name in [
        "pgn-edge-cases/pgn-read/break_pgn_0_8_1_a.pgn",
        "pgn-edge-cases/pgn-read/break_pgn_0_8_1_c.pgn",
    ] {
        let data = fs::read(subset().join(name)).unwrap();
        let games: Vec<_> = GameReader::new(&data).collect();
        assert_eq!(games.len(), 1, "{name}");
        assert!(games[0].diagnostics.is_empty(), "{name}");
        assert!(games[0].result.is_some(), "{name}");
    }
}

fn move_at(game: &Game<'_>, line: u64, column: u32) -> bool {
    game.tokens.iter().any(|t| {
        matches!(t.kind, TokenKind::Move(_)) && {
            let at = game.location(t.span.start);
            at.line == line && at.column == column
        }
    })
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn splitter_agrees_with_parser_on_every_corpus_file() {
    let mut checked = 0;
    for path in files("", None) {
        let data = fs::read(&path).unwrap();
        let parsed: Vec<u64> = GameReader::new(&data).map(|g| g.offset).collect();
        let split: Vec<u64> = split_games(&data).into_iter().map(|s| s as u64).collect();
        assert_eq!(split, parsed, "{}", rel(&path));
        // games are contiguous and cover everything after the first game's start
        let mut next = None;
        for g in GameReader::new(&data) {
            if let Some(n) = next {
                assert_eq!(g.offset, n, "{}", rel(&path));
            }
            next = Some(g.offset + g.source.len() as u64);
        }
        if let Some(n) = next {
            assert_eq!(n, data.len() as u64, "{}", rel(&path));
        }
        checked += 1;
    }
    assert!(checked >= 270, "only {checked} files");
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn streaming_readers_agree_with_the_whole_file() {
    for name in [
        "games-english/pychess-world_matches.pgn",
        "games-english/twic1389_3393games.pgn",
        "pgn-edge-cases/kokopu/syntactic-error-1/database.pgn",
        "pgn-edge-cases/scalachess/FWWRC-headers-only.pgn",
        "pgn-edge-cases/python-chess/utf8-bom.pgn",
    ] {
        let data = fs::read(corpus().join(name)).unwrap();
        let key = |g: &Game<'_>| {
            (
                g.offset,
                g.line,
                g.column,
                g.index,
                g.tokens.len(),
                g.diagnostics.len(),
            )
        };
        let whole: Vec<_> = GameReader::new(&data).map(|g| key(&g)).collect();
        for block in [4096, 65_536] {
            let mut got = Vec::new();
            pgn::read_games(&data[..], block, |g| {
                got.push(key(g));
                std::ops::ControlFlow::<()>::Continue(())
            })
            .unwrap();
            assert_eq!(got, whole, "{name} read_games {block}");
            let mut got = Vec::new();
            for batch in pgn::BatchReader::with_block_size(&data[..], block) {
                let batch = batch.unwrap();
                assert_eq!(batch.start.index as usize, got.len());
                got.extend(batch.games().map(|g| key(&g)));
            }
            assert_eq!(got, whole, "{name} batches {block}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// kokopu

/// What a kokopu `N.err` case is, at our layer.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// The game's first diagnostic has this kind, at the `.err` location.
    Syntax(D),
    /// Read leniently (a warning at the `.err` location, no error): kokopu rejects an unescaped quote
    /// inside a tag value; pgnkit accepts it because real files have it (tree-sitter-pgn's TWIC game).
    Lenient(D),
    /// Syntax is fine; the move at the `.err` location is illegal (or in a letter that replay must
    /// reject): a replay-time failure, not this layer's.
    Replay,
    /// kokopu reads one game and fails on a tag pair after movetext; pgnkit's boundary rule starts a
    /// new game there, and the first part ends with a missing-result warning at that very location.
    SplitHere,
}

fn kokopu_err_expectation(case: &str, n: usize) -> Expect {
    use Expect::*;
    match (case, n) {
        ("syntactic-error-1", 0) => Syntax(D::UnknownToken), // `pawn goes to e4`
        ("syntactic-error-1", 1 | 7 | 9 | 10) => Replay,     // `Pe4`: P is a Dutch knight letter
        ("syntactic-error-1", 2) => Syntax(D::MissingTagName),
        ("syntactic-error-1", 3) => Syntax(D::MissingTagValue),
        ("syntactic-error-1", 4 | 8) => Syntax(D::UnterminatedTagValue),
        ("syntactic-error-1", 5) => Lenient(D::UnescapedQuoteInTagValue),
        ("syntactic-error-1", 6 | 11 | 16) => Syntax(D::UnknownToken),
        ("syntactic-error-1", 12) => Syntax(D::UnclosedVariation),
        ("syntactic-error-1", 13) => Syntax(D::VariationWithoutMove),
        ("syntactic-error-1", 14) => Syntax(D::UnexpectedVariationEnd),
        ("syntactic-error-1", 15) => SplitHere,
        ("syntactic-error-1", 17 | 19) => Syntax(D::MissingTagEnd),
        ("syntactic-error-1", 18) => Syntax(D::MissingTagName),
        ("syntactic-error-3", 0) => Syntax(D::UnknownToken),
        ("syntactic-error-5", 0) => Syntax(D::UnterminatedTagValue),
        ("redos-comment", 0) => Syntax(D::UnterminatedComment),
        ("linebreak-linux" | "linebreak-windows", 0) => Replay, // `1. e5`
        _ => panic!("no expectation for kokopu {case}/{n}.err"),
    }
}

/// kokopu game index → ours: in syntactic-error-1 our extra split after game 15 shifts the rest by one.
fn our_index(case: &str, n: usize) -> usize {
    if case == "syntactic-error-1" && n > 15 {
        n + 1
    } else {
        n
    }
}

#[test]
fn kokopu_expected_errors() {
    let mut seen = 0;
    for err in files_in(&subset(), "pgn-edge-cases/kokopu", Some("err")) {
        let case = err
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let n: usize = err.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        let text = fs::read_to_string(&err).unwrap();
        let mut lines = text.lines();
        let offset: usize = lines.next().unwrap().trim().parse().unwrap();
        let line: u64 = lines.next().unwrap().trim().parse().unwrap();
        let data = fs::read(err.with_file_name("database.pgn")).unwrap();
        // kokopu gives a character offset (ASCII files: bytes) and a line; the column follows
        let line_start = data[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let column = (offset - line_start + 1) as u32;
        let games: Vec<_> = GameReader::new(&data).collect();
        let game = &games[our_index(&case, n)];
        let here = |d: &pgn::Diagnostic| {
            let at = game.location(d.span.start);
            (at.line, at.column) == (line, column)
        };
        match kokopu_err_expectation(&case, n) {
            Expect::Syntax(kind) => {
                let d = game.diagnostics.first().expect("a diagnostic");
                assert_eq!(d.kind, kind, "{case}/{n}");
                assert!(here(d), "{case}/{n}: at {}", game.location(d.span.start));
                assert_eq!(d.kind.severity(), DiagnosticSeverity::Error);
            }
            Expect::Lenient(kind) => {
                assert!(!game.has_errors(), "{case}/{n}");
                let d = game.diagnostics.first().expect("a warning");
                assert_eq!(d.kind, kind, "{case}/{n}");
                assert!(here(d), "{case}/{n}: at {}", game.location(d.span.start));
            }
            Expect::Replay => {
                assert!(!game.has_errors(), "{case}/{n}: {:?}", game.diagnostics);
                assert!(
                    move_at(game, line, column),
                    "{case}/{n}: no move at {line}:{column}"
                );
            }
            Expect::SplitHere => {
                let d = game.diagnostics.last().expect("a warning");
                assert_eq!(d.kind, D::MissingResult, "{case}/{n}");
                assert!(here(d), "{case}/{n}");
                let next = &games[our_index(&case, n) + 1];
                assert_eq!(next.tag("Site").unwrap(), "This header must not be here");
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 25);
}

/// One node of kokopu's dump: a variation start or a move, with its depth, NAGs and comment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Node {
    depth: usize,
    san: String,
    nags: Vec<u16>,
    comment: String,
}

fn parse_dump(text: &str) -> (BTreeMap<String, String>, Vec<Node>, String, usize) {
    let mut tags = BTreeMap::new();
    let mut nodes = Vec::new();
    let mut result = String::new();
    let mut plies = 0;
    for line in text.lines() {
        if let Some((k, v)) = line.split_once(" = {")
            && !line.starts_with('[')
            && !line.starts_with(' ')
        {
            tags.insert(k.to_owned(), v.trim_end_matches('}').to_owned());
            continue;
        }
        if let Some(rest) = line.strip_prefix('{') {
            // {White wins}{7 plies}
            let (r, p) = rest.split_once("}{").unwrap();
            result = r.to_owned();
            plies = p.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let (id, body) = rest.split_once(']').unwrap();
        let depth = id.matches("-v").count();
        let mut node = Node {
            depth,
            ..Node::default()
        };
        let body = body.trim_start_matches([' ', '|', '+', '-']).trim();
        let mut annotations = body;
        if !id.ends_with("start") {
            // "(1w) e4 (#hm=0) $1 {comment}"
            let after = body.split_once(") ").unwrap().1;
            let (san, more) = after.split_once(" (#hm=").unwrap();
            node.san = san.to_owned();
            annotations = more.split_once(')').unwrap().1;
        }
        let mut annotations = annotations.replace("<LONG", "");
        // drop kokopu's `[key = {value}]` comment commands (compared through the comment text)
        while let Some(k) = annotations.find(" = {") {
            let open = annotations[..k].rfind('[').unwrap();
            let close = k + annotations[k..].find("}]").unwrap() + 2;
            annotations.replace_range(open..close, "");
        }
        let (before_comment, comment) = match annotations.split_once('{') {
            Some((b, c)) => (b.to_owned(), c.trim_end().trim_end_matches('}').to_owned()),
            None => (annotations.clone(), String::new()),
        };
        node.nags = before_comment
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('$').and_then(|n| n.parse().ok()))
            .collect();
        node.nags.sort();
        node.comment = comment;
        nodes.push(node);
    }
    (tags, nodes, result, plies)
}

/// kokopu's comment text: escapes undone, `[%key value]` commands removed, spaces collapsed.
fn kokopu_comment(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(&unescape_comment(raw)).into_owned();
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(k) = rest.find("[%") {
        let after = &rest[k + 2..];
        let name_len = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let tail = &after[name_len..];
        let is_cmd = name_len > 0
            && tail.starts_with(char::is_whitespace)
            && tail.find(']').is_some_and(|e| !tail[..e].contains('['));
        if is_cmd {
            out.push_str(&rest[..k]);
            out.push(' ');
            rest = &tail[tail.find(']').unwrap() + 1..];
        } else {
            out.push_str(&rest[..k + 2]);
            rest = after;
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn our_nodes(game: &Game<'_>) -> Vec<Node> {
    let mut nodes = vec![Node::default()];
    // index of the node that comments and NAGs attach to, per depth
    let mut current = vec![0usize];
    for t in &game.tokens {
        let depth = current.len() - 1;
        let at = *current.last().unwrap();
        match t.kind {
            TokenKind::VariationStart => {
                nodes.push(Node {
                    depth: depth + 1,
                    ..Node::default()
                });
                current.push(nodes.len() - 1);
            }
            TokenKind::VariationEnd => {
                current.pop();
            }
            TokenKind::Move(m) => {
                let san = String::from_utf8_lossy(game.san(&m))
                    .replace("0-0", "O-O")
                    .replace("-0", "-O");
                nodes.push(Node {
                    depth,
                    san,
                    nags: m.suffix.map(u16::from).into_iter().collect(),
                    ..Node::default()
                });
                *current.last_mut().unwrap() = nodes.len() - 1;
            }
            TokenKind::Nag(n) => {
                nodes[at].nags.push(n.into());
                nodes[at].nags.sort();
            }
            TokenKind::Comment => {
                let c = kokopu_comment(game.comment_bytes(t.span));
                if !c.is_empty() {
                    let node = &mut nodes[at];
                    if !node.comment.is_empty() {
                        node.comment.push(' ');
                    }
                    node.comment.push_str(&c);
                }
            }
            _ => {}
        }
    }
    nodes
}

fn strip_checks(s: &str) -> String {
    s.trim_end_matches(['+', '#']).to_owned()
}

#[test]
fn kokopu_expected_dumps() {
    let mut seen = 0;
    for txt in files_in(&subset(), "pgn-edge-cases/kokopu", Some("txt")) {
        let case = txt
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let n: usize = txt.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        let data = fs::read(txt.with_file_name("database.pgn")).unwrap();
        let game = GameReader::new(&data).nth(our_index(&case, n)).unwrap();
        let what = format!("{case}/{n}");
        assert!(!game.has_errors(), "{what}: {:?}", game.diagnostics);
        let (tags, want, result, plies) = parse_dump(&fs::read_to_string(&txt).unwrap());
        for name in ["White", "Black", "Event", "Site"] {
            let ours = game
                .tag(name)
                .map(|v| v.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|v| v != "?" && !v.is_empty());
            assert_eq!(ours.as_ref(), tags.get(name), "{what}: tag {name}");
        }
        let got = our_nodes(&game);
        assert_eq!(got.len(), want.len(), "{what}: nodes\n{got:#?}\n{want:#?}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.depth, w.depth, "{what}: {w:?}");
            assert_eq!(strip_checks(&g.san), strip_checks(&w.san), "{what}");
            assert_eq!(g.nags, w.nags, "{what}: {w:?}");
            assert_eq!(g.comment, w.comment, "{what}: {w:?}");
        }
        assert_eq!(game.main_line().count(), plies, "{what}: plies");
        let marker = game.result.map(|r| r.as_str());
        let expected_marker = match result.as_str() {
            "White wins" => Some("1-0"),
            "Black wins" => Some("0-1"),
            "Draw" => Some("1/2-1/2"),
            // kokopu prints `Line` for `*` and for a missing marker
            _ => marker.filter(|m| *m == "*"),
        };
        assert_eq!(marker, expected_marker, "{what}: result");
        seen += 1;
    }
    assert!(seen >= 40, "only {seen} dumps");
}

// ---------------------------------------------------------------------------------------------
// injected errors: the bad move's location

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn injected_moves_are_located() {
    let dir = corpus().join("injected");
    let expected = fs::read_to_string(dir.join("injected.expected.jsonl")).unwrap();
    let field = |line: &str, key: &str| -> u64 {
        let k = format!("\"{key}\":");
        let rest = &line[line.find(&k).unwrap_or_else(|| panic!("{key} in {line}")) + k.len()..];
        rest.trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    };
    for (file, lang) in [("injected.en.pgn", "en"), ("injected.fr.pgn", "fr")] {
        let data = fs::read(dir.join(file)).unwrap();
        let games: Vec<_> = GameReader::new(&data).collect();
        assert_eq!(games.len(), 3393, "{file}");
        let mut checked = 0;
        for line in expected.lines().filter(|l| !l.trim().is_empty()) {
            let game = &games[field(line, "game") as usize - 1];
            let ply = field(line, "ply") as usize;
            let (tok, _) = game.main_line().nth(ply - 1).unwrap();
            let at = game.location(tok.span.start);
            let want = (
                field(line, &format!("{lang}_line")),
                field(line, &format!("{lang}_column")) as u32,
            );
            assert_eq!((at.line, at.column), want, "{file}: {line}");
            checked += 1;
        }
        assert_eq!(checked, 160);
    }
}
