//! `--format html`: the tree as one self-contained page, a section per position: a board, the position's
//! EPD and its moves, most played first, each linked to the section of the position it leads to when the
//! page has one. The root comes first, then the positions in the order a reader follows the links from it
//! (breadth first, the most played moves first), then those no link of the page reaches, by games.
//!
//! As the report's page ([`crate::report::html`]): CSS inline, boards as inline SVG, no script, nothing
//! loaded from anywhere (a Content-Security-Policy of `default-src 'none'` says so to the browser too), every
//! text escaped. The page holds the [`MOST_POSITIONS`] positions with the most games and says how many more
//! the tree has; only those are held in memory, however large the tree.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};
use std::io::Write;

use super::columns::Values;
use super::node::Node;
use super::text::thousands;
use super::{Row, SpillError, Tree, TreeWritten};
use crate::messages::{Locale, localized_decimal, plural};
use crate::report::board::{self, Diagram};
use crate::report::escape::{escape, push_escaped};
use crate::report::labels::Label;
use crate::run::JobError;
use pgnkit::core::{Color, Position, fen};
use pgnkit::notation::{Language, SanPlus};

/// Positions a page shows at most, the root among them. Each is a board and a table, some 4 KB of HTML
/// with a few moves: 2,000 make a page of about 10 MB that a browser opens in a few seconds, and more
/// than a reader clicks through; a deep tree of a large database has millions of positions, a page of
/// gigabytes that no browser opens. The positions with the most games are kept; the page says how many
/// were left out, and the other formats (CSV, JSON lines, Parquet) hold every row.
pub(crate) const MOST_POSITIONS: usize = 2_000;

pub(crate) fn write(
    tree: Tree,
    out: &mut dyn Write,
    locale: Locale,
) -> Result<TreeWritten, JobError> {
    write_at_most(tree, out, locale, MOST_POSITIONS)
}

/// The page of at most `most` positions (at least the root's).
fn write_at_most(
    tree: Tree,
    out: &mut dyn Write,
    locale: Locale,
    most: usize,
) -> Result<TreeWritten, JobError> {
    let root = *tree.root();
    let min_games = tree.min_games;
    let kept = Kept::collect(tree.rows(), root, most)?;
    let page = Page::arrange(kept, root);
    page.write(out, locale, min_games)
}

/// A position of the page and its rows (those of `--min-games` games or more).
struct Shown {
    node: Node,
    position: Position,
    /// Its rows' games added up.
    games: u64,
    rows: Vec<Row>,
}

impl Shown {
    fn of(row: Row) -> Shown {
        Shown {
            node: row.node,
            position: *row.position,
            games: row.tally.games,
            rows: vec![row],
        }
    }
}

/// A position in the heap of those kept: the least played is the first to go, and of two as played, the
/// one of the greater key (so the page does not depend on anything but the tree).
struct ByGames(Shown);

impl Ord for ByGames {
    fn cmp(&self, other: &ByGames) -> Ordering {
        self.0
            .games
            .cmp(&other.0.games)
            .then_with(|| other.0.node.cmp(&self.0.node))
    }
}

impl PartialOrd for ByGames {
    fn partial_cmp(&self, other: &ByGames) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for ByGames {
    fn eq(&self, other: &ByGames) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for ByGames {}

/// The positions the page shows, chosen while the rows stream by: the root's, and the most played others in
/// a heap that never holds more than the page does.
struct Kept {
    root_node: Node,
    root: Option<Shown>,
    /// Room for positions other than the root.
    room: usize,
    heap: BinaryHeap<Reverse<ByGames>>,
    /// Positions (with their rows) that did not fit.
    left_positions: u64,
    left_rows: u64,
}

impl Kept {
    fn collect(
        rows: impl Iterator<Item = Result<Row, SpillError>>,
        root: Position,
        most: usize,
    ) -> Result<Kept, SpillError> {
        let room = most.saturating_sub(1);
        let mut kept = Kept {
            root_node: Node::of(&root),
            root: None,
            room,
            heap: BinaryHeap::with_capacity(room.min(1 << 16) + 1),
            left_positions: 0,
            left_rows: 0,
        };
        // The rows come in key order: those of one position together.
        let mut current: Option<Shown> = None;
        for row in rows {
            let row = row?;
            match &mut current {
                Some(shown) if shown.node == row.node => {
                    shown.games += row.tally.games;
                    shown.rows.push(row);
                }
                _ => {
                    if let Some(done) = current.replace(Shown::of(row)) {
                        kept.place(done);
                    }
                }
            }
        }
        if let Some(done) = current {
            kept.place(done);
        }
        Ok(kept)
    }

    fn place(&mut self, shown: Shown) {
        if shown.node == self.root_node {
            self.root = Some(shown);
            return;
        }
        self.heap.push(Reverse(ByGames(shown)));
        if self.heap.len() > self.room
            && let Some(Reverse(ByGames(out))) = self.heap.pop()
        {
            self.left_positions += 1;
            self.left_rows += out.rows.len() as u64;
        }
    }
}

/// The page's positions in the order it shows them, with their anchors and links.
struct Page {
    /// The root first (with no rows when no game plays a move from it).
    all: Vec<Shown>,
    /// Indices into `all`, in page order.
    order: Vec<usize>,
    /// The anchor of each position of `all`.
    ids: Vec<String>,
    /// For each row of each position, the position of `all` its move leads to.
    targets: Vec<Vec<Option<usize>>>,
    /// The position (and the move from it) by which the page's links first reach each one.
    parent: Vec<Option<(usize, String)>>,
    root: Position,
    left_positions: u64,
    left_rows: u64,
}

impl Page {
    fn arrange(kept: Kept, root: Position) -> Page {
        let root_shown = kept.root.unwrap_or(Shown {
            node: kept.root_node,
            position: root,
            games: 0,
            rows: Vec::new(),
        });
        let mut all = vec![root_shown];
        all.extend(kept.heap.into_iter().map(|Reverse(ByGames(s))| s));
        for shown in &mut all {
            shown
                .rows
                .sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.code.cmp(&b.code)));
        }
        let index: HashMap<Node, usize> =
            all.iter().enumerate().map(|(i, s)| (s.node, i)).collect();
        let targets: Vec<Vec<Option<usize>>> = all
            .iter()
            .map(|s| {
                s.rows
                    .iter()
                    .map(|row| {
                        let after = row.position.after_unchecked(row.played);
                        index.get(&Node::of(&after)).copied()
                    })
                    .collect()
            })
            .collect();
        // Breadth first from the root, the most played moves first.
        let mut parent: Vec<Option<(usize, String)>> = vec![None; all.len()];
        let mut seen = vec![false; all.len()];
        let mut order = vec![0];
        seen[0] = true;
        let mut next = 0;
        while next < order.len() {
            let i = order[next];
            next += 1;
            for (row, target) in all[i].rows.iter().zip(&targets[i]) {
                if let Some(j) = *target
                    && !seen[j]
                {
                    seen[j] = true;
                    let san = SanPlus::from_move(&row.position, &row.played)
                        .display(Language::En)
                        .to_string();
                    parent[j] = Some((i, san));
                    order.push(j);
                }
            }
        }
        // Then those no link reaches (their way from the root is through what the page left out).
        let mut rest: Vec<usize> = (0..all.len()).filter(|&i| !seen[i]).collect();
        rest.sort_by(|&a, &b| {
            all[b]
                .games
                .cmp(&all[a].games)
                .then(all[a].node.cmp(&all[b].node))
        });
        order.extend(rest);
        // Anchors from the Polyglot key; the rare second position of one key gets a suffix.
        let mut ids = vec![String::new(); all.len()];
        let mut used: HashMap<u64, u32> = HashMap::new();
        for &i in &order {
            let key = pgnkit::core::polyglot::key(&all[i].position, all[i].position.ep_square());
            let n = used.entry(key).or_insert(0);
            *n += 1;
            ids[i] = if *n == 1 {
                format!("p{key:016x}")
            } else {
                format!("p{key:016x}-{n}")
            };
        }
        Page {
            all,
            order,
            ids,
            targets,
            parent,
            root,
            left_positions: kept.left_positions,
            left_rows: kept.left_rows,
        }
    }

    /// The moves by which the links reach position `i` from the root, numbered (`1. e4 c5 2. Nf3`); `None`
    /// for a position no link reaches.
    fn line(&self, i: usize) -> Option<String> {
        let mut moves = Vec::new();
        let mut at = i;
        while let Some((from, san)) = &self.parent[at] {
            moves.push(san.as_str());
            at = *from;
        }
        if at != 0 {
            return None;
        }
        moves.reverse();
        let mut number = self.root.fullmoves();
        let mut side = self.root.turn();
        let mut text = String::new();
        for (n, san) in moves.iter().enumerate() {
            if n > 0 {
                text.push(' ');
            }
            match side {
                Color::White => text.push_str(&format!("{number}. ")),
                Color::Black if n == 0 => text.push_str(&format!("{number}... ")),
                Color::Black => {}
            }
            text.push_str(san);
            if side == Color::Black {
                number += 1;
            }
            side = !side;
        }
        Some(text)
    }

    fn write(
        &self,
        out: &mut dyn Write,
        locale: Locale,
        min_games: u64,
    ) -> Result<TreeWritten, JobError> {
        let written = TreeWritten {
            rows: self.all.iter().map(|s| s.rows.len() as u64).sum(),
            positions: self.all.iter().filter(|s| !s.rows.is_empty()).count() as u64,
        };
        out.write_all(self.head(locale, min_games, written).as_bytes())?;
        let mut section = String::with_capacity(16 << 10);
        for (n, &i) in self.order.iter().enumerate() {
            section.clear();
            self.section(i, n + 1, locale, &mut section);
            out.write_all(section.as_bytes())?;
        }
        out.write_all(
            format!(
                "<footer><p>{} {}</p></footer>\n</body>\n</html>\n",
                Label::GeneratedBy.text(locale),
                env!("CARGO_PKG_VERSION")
            )
            .as_bytes(),
        )?;
        Ok(written)
    }

    /// The document up to the first section: its head, the title, what the page holds and what it left out.
    fn head(&self, locale: Locale, min_games: u64, written: TreeWritten) -> String {
        let title = crate::localized!(locale, "Opening tree", "Arbre des ouvertures");
        let mut out = String::with_capacity(16 << 10);
        out.push_str("<!DOCTYPE html>\n<html lang=\"");
        out.push_str(locale.code());
        out.push_str("\">\n<head>\n<meta charset=\"utf-8\">\n");
        // Nothing may be fetched, as on the report's page.
        out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n");
        out.push_str(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
        );
        push_escaped(&title, &mut out);
        out.push_str("</title>\n<style>\n");
        out.push_str(STYLE);
        out.push_str("</style>\n</head>\n<body>\n");
        out.push_str(&board::board_defs());
        out.push_str("\n<h1>");
        push_escaped(&title, &mut out);
        out.push_str("</h1>\n<p class=\"summary\">");
        push_escaped(
            &crate::localized!(
                locale,
                "{} position{} and {} move{} on this page. Each move links to the position it leads to when that one is on the page too.",
                "{} position{} et {} coup{} sur cette page. Chaque coup mène à la position où il arrive quand celle-ci est aussi sur la page.",
                count(written.positions, locale),
                plural(locale, written.positions),
                count(written.rows, locale),
                plural(locale, written.rows)
            ),
            &mut out,
        );
        if min_games > 1 {
            out.push(' ');
            push_escaped(
                &crate::localized!(
                    locale,
                    "Moves played in fewer than {} games are left out (--min-games).",
                    "Les coups joués dans moins de {} parties sont omis (--min-games).",
                    count(min_games, locale)
                ),
                &mut out,
            );
        }
        out.push_str("</p>\n<p class=\"legend\">");
        for (class, text) in [
            (
                "w",
                crate::localized!(locale, "white wins", "gains des Blancs"),
            ),
            ("d", crate::localized!(locale, "draws", "nulles")),
            (
                "b",
                crate::localized!(locale, "black wins", "gains des Noirs"),
            ),
        ] {
            out.push_str(&format!("<span class=\"sw {class}\"></span>"));
            push_escaped(&text, &mut out);
            out.push(' ');
        }
        out.push_str("</p>\n");
        if self.left_positions > 0 {
            out.push_str("<p class=\"note\" id=\"left-out\">");
            let shown = count(self.all.len() as u64, locale);
            let left = count(self.left_positions, locale);
            let s = plural(locale, self.left_positions);
            let rows = count(self.left_rows, locale);
            let rs = plural(locale, self.left_rows);
            push_escaped(
                &crate::localized!(
                    locale,
                    "This page shows the {shown} positions with the most games; left out: {left} more position{s} of the tree ({rows} move{rs}). A higher --min-games or a lower --depth makes a smaller tree; --format csv, jsonl or parquet writes every move.",
                    "Cette page montre les {shown} positions qui ont le plus de parties ; omises : {left} autre{s} position{s} de l'arbre ({rows} coup{rs}). Un --min-games plus grand ou un --depth plus petit donne un arbre plus petit ; --format csv, jsonl ou parquet écrit tous les coups."
                ),
                &mut out,
            );
            out.push_str("</p>\n");
        }
        out
    }

    /// The section of position `i`, the `n`th of the page.
    fn section(&self, i: usize, n: usize, locale: Locale, out: &mut String) {
        let shown = &self.all[i];
        let root_id = &self.ids[0];
        out.push_str(&format!(
            "<section class=\"position\" id=\"{}\">\n<h2>",
            self.ids[i]
        ));
        let heading = if i == 0 {
            crate::localized!(locale, "Root position", "Position racine")
        } else {
            match self.line(i) {
                Some(line) => crate::localized!(locale, "After {line}", "Après {line}"),
                None => crate::localized!(
                    locale,
                    "Position {n}, reached by moves not on this page",
                    "Position {n}, atteinte par des coups absents de cette page"
                ),
            }
        };
        push_escaped(&heading, out);
        out.push_str("</h2>\n");
        if i != 0 {
            out.push_str(&format!(
                "<p class=\"nav\"><a href=\"#{root_id}\">{}</a>",
                escape(&crate::localized!(
                    locale,
                    "↑ Root position",
                    "↑ Position racine"
                ))
            ));
            // The previous position, when it is not the root already linked.
            if let Some((from, _)) = self.parent[i].as_ref().filter(|(from, _)| *from != 0) {
                out.push_str(&format!(
                    " · <a href=\"#{}\">{}</a>",
                    self.ids[*from],
                    escape(&crate::localized!(
                        locale,
                        "← Previous position",
                        "← Position précédente"
                    ))
                ));
            }
            out.push_str("</p>\n");
        }
        let to_move = Label::to_move(shown.position.turn()).text(locale);
        out.push_str("<div class=\"pos\">\n<figure>");
        board::push_svg_shared(
            &Diagram {
                position: shown.position,
                from: None,
                to: None,
                suggestion: None,
            },
            &format!("{heading} — {to_move}"),
            out,
        );
        out.push_str("</figure>\n<div class=\"moves\">\n<p class=\"fen\"><code>");
        // Of the root as given (its counters), else of the position as the tree keeps it.
        let epd = if i == 0 {
            fen::to_epd(&self.root)
        } else {
            fen::to_epd(&shown.position)
        };
        push_escaped(&epd, out);
        out.push_str("</code></p>\n<p>");
        push_escaped(
            &crate::localized!(
                locale,
                "{} game{} · {}",
                "{} partie{} · {}",
                count(shown.games, locale),
                plural(locale, shown.games),
                to_move
            ),
            out,
        );
        out.push_str("</p>\n");
        if shown.rows.is_empty() {
            out.push_str("<p>");
            push_escaped(
                &crate::localized!(
                    locale,
                    "No game plays a move from this position.",
                    "Aucune partie ne joue de coup depuis cette position."
                ),
                out,
            );
            out.push_str("</p>\n");
        } else {
            self.table(i, locale, out);
        }
        out.push_str("</div>\n</div>\n</section>\n");
    }

    /// The moves of position `i`, most played first.
    fn table(&self, i: usize, locale: Locale, out: &mut String) {
        let shown = &self.all[i];
        out.push_str("<table class=\"moves\"><thead><tr>");
        for (en, fr, title_en, title_fr) in HEADERS {
            let (text, title) = match locale {
                Locale::En => (en, title_en),
                Locale::Fr => (fr, title_fr),
            };
            out.push_str("<th title=\"");
            push_escaped(title, out);
            out.push_str("\">");
            push_escaped(text, out);
            out.push_str("</th>");
        }
        out.push_str("</tr></thead><tbody>\n");
        let total = shown.games.max(1) as f64;
        for (row, target) in shown.rows.iter().zip(&self.targets[i]) {
            let v = Values::of(row);
            out.push_str("<tr><td class=\"san\">");
            match target {
                Some(j) => {
                    out.push_str(&format!("<a href=\"#{}\">", self.ids[*j]));
                    push_escaped(&v.move_san, out);
                    out.push_str("</a>");
                }
                None => push_escaped(&v.move_san, out),
            }
            out.push_str("</td>");
            let share = 100.0 * v.games as f64 / total;
            cell(&count(v.games, locale), out);
            cell(&percent(share, locale), out);
            results_bar(&v, locale, out);
            cell(
                &v.score
                    .map_or(String::new(), |s| percent(100.0 * s, locale)),
                out,
            );
            for n in [
                v.mover_elo.map(|e| e as i64),
                v.opponent_elo.map(|e| e as i64),
                v.performance,
            ] {
                cell(&n.map_or(String::new(), |n| n.to_string()), out);
            }
            for date in [&v.first_date, &v.last_date] {
                out.push_str("<td class=\"date\">");
                push_escaped(date.as_deref().unwrap_or_default(), out);
                out.push_str("</td>");
            }
            out.push_str("<td class=\"opening\">");
            if let (Some(eco), Some(name)) = (v.eco, v.opening) {
                out.push_str("<span class=\"eco\">");
                push_escaped(eco, out);
                out.push_str("</span> ");
                push_escaped(name, out);
            }
            out.push_str("</td></tr>\n");
        }
        out.push_str("</tbody></table>\n");
    }
}

/// Each column's heading and what it means, in English and French.
const HEADERS: [(&str, &str, &str, &str); 11] = [
    (
        "Move",
        "Coup",
        "the move (SAN)",
        "le coup (notation algébrique)",
    ),
    (
        "Games",
        "Parties",
        "games that played it",
        "parties qui l'ont joué",
    ),
    (
        "%",
        "%",
        "share of the position's games",
        "part des parties de la position",
    ),
    (
        "Results",
        "Résultats",
        "white wins, draws, black wins",
        "gains des Blancs, nulles, gains des Noirs",
    ),
    (
        "Score",
        "Score",
        "score of the side that plays the move",
        "score du camp qui joue le coup",
    ),
    (
        "Elo",
        "Elo",
        "average rating of the side that plays the move",
        "classement moyen du camp qui joue le coup",
    ),
    (
        "Opp.",
        "Adv.",
        "average rating of its opponents",
        "classement moyen de ses adversaires",
    ),
    (
        "Perf.",
        "Perf.",
        "performance rating of the side that plays the move",
        "performance du camp qui joue le coup",
    ),
    (
        "First",
        "Première",
        "date of the first game",
        "date de la première partie",
    ),
    (
        "Last",
        "Dernière",
        "date of the last game",
        "date de la dernière partie",
    ),
    (
        "Opening",
        "Ouverture",
        "ECO code and name of the opening the move leads to",
        "code ECO et nom de l'ouverture où mène le coup",
    ),
];

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:1.5rem auto;max-width:78rem;padding:0 1rem;color:#1d1d1f;background:#fff;line-height:1.4}
h1{font-size:1.7rem;margin-bottom:.3rem}h2{font-size:1.2rem;margin:.2rem 0 .3rem}
section.position{border-top:2px solid #769656;margin-top:1.4rem;padding-top:.4rem}
section.position:target{background:#f7f9f2}
.pos{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
figure{margin:0}svg.board{width:15rem;height:auto;display:block}
.moves{flex:1 1 30rem;min-width:0;overflow-x:auto}
.nav{margin:.1rem 0 .4rem;font-size:.9rem}
.fen code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.85rem;word-break:break-all}
.moves p{margin:.2rem 0}
table{border-collapse:collapse;margin:.4rem 0;font-size:.9rem}
th,td{border:1px solid #c8c8c8;padding:.2rem .45rem;text-align:left;vertical-align:middle}
th{background:#eef2e8}td.n{text-align:right;font-variant-numeric:tabular-nums}
td.san{font-weight:600;white-space:nowrap}td.date{white-space:nowrap;font-variant-numeric:tabular-nums}
.bar{display:flex;width:9rem;height:.9rem;border:1px solid #777;background:#e4e4e4}
.bar span{display:block;height:100%}
.w{background:#fff}.d{background:#9a9a9a}.b{background:#2b2b2b}
.sw{display:inline-block;width:.9rem;height:.9rem;border:1px solid #777;vertical-align:middle;margin:0 .3rem 0 .6rem}
.eco{font-family:ui-monospace,'DejaVu Sans Mono',monospace;color:#555}
.note{border-left:4px solid #d4a72c;padding:.3rem .8rem;background:#fafafa}
a{color:#0b5394}
";

/// A count as the page's language groups its digits: `1,234`, `1 234`.
fn count(n: u64, locale: Locale) -> String {
    let text = thousands(n);
    match locale {
        Locale::En => text,
        Locale::Fr => text.replace(',', "\u{202f}"),
    }
}

/// A percentage to a tenth: `47.2%`, `47,2 %`.
fn percent(value: f64, locale: Locale) -> String {
    let figure = format!("{value:.1}");
    match locale {
        Locale::En => format!("{figure}%"),
        Locale::Fr => format!("{}\u{a0}%", localized_decimal(locale, &figure)),
    }
}

fn cell(text: &str, out: &mut String) {
    out.push_str("<td class=\"n\">");
    push_escaped(text, out);
    out.push_str("</td>");
}

/// The results of a move as a bar of three parts, white wins, draws and black wins, in proportion to the
/// games with a known result (an empty bar when none has one), each part's width in tenths of a percent
/// rounded so that the three fill the bar.
fn results_bar(v: &Values, locale: Locale, out: &mut String) {
    let known = v.white_wins + v.draws + v.black_wins;
    let label = crate::localized!(
        locale,
        "white wins {}, draws {}, black wins {}",
        "gains des Blancs {}, nulles {}, gains des Noirs {}",
        count(v.white_wins, locale),
        count(v.draws, locale),
        count(v.black_wins, locale)
    );
    out.push_str("<td><div class=\"bar\" role=\"img\" title=\"");
    push_escaped(&label, out);
    out.push_str("\" aria-label=\"");
    push_escaped(&label, out);
    out.push_str("\">");
    if known > 0 {
        let upto = |n: u64| (n as f64 * 1000.0 / known as f64).round() as u64;
        let w = upto(v.white_wins);
        let d = upto(v.white_wins + v.draws) - w;
        let b = 1000 - w - d;
        for (class, tenths) in [("w", w), ("d", d), ("b", b)] {
            if tenths > 0 {
                out.push_str(&format!(
                    "<span class=\"{class}\" style=\"width:{}.{}%\"></span>",
                    tenths / 10,
                    tenths % 10
                ));
            }
        }
    }
    out.push_str("</div></td>");
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;

    use super::*;
    use crate::run::{Input, Job, Source};
    use crate::tree::{TreeJob, TreeRequest};
    use pgnkit::pgn::GameReader;

    /// The tree of `pgn`'s games from `from` (a FEN; the start when `None`).
    fn tree_of(pgn: &str, from: Option<&str>, min_games: u64) -> Tree {
        let job = TreeJob::new(TreeRequest {
            from_fen: from,
            depth: 10,
            min_games,
            memory: 1 << 20,
            spill_dir: std::env::temp_dir(),
            ..TreeRequest::default()
        })
        .unwrap();
        let name: Arc<str> = "t.pgn".into();
        let source = Source::Text {
            name: name.to_string(),
            text: pgn.as_bytes().into(),
        };
        let input = Input {
            index: 0,
            source: &source,
            name: &name,
        };
        let mut batch = job
            .work(input, &mut GameReader::new(pgn.as_bytes()))
            .unwrap();
        let mut builder = job.builder();
        builder.add(&mut batch).unwrap();
        builder.finish()
    }

    fn page_of(tree: Tree, locale: Locale, most: usize) -> (String, TreeWritten) {
        let mut out = Vec::new();
        let written = write_at_most(tree, &mut out, locale, most).unwrap();
        (String::from_utf8(out).unwrap(), written)
    }

    fn game(moves: &str, result: &str) -> String {
        format!(
            "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[BlackElo \"1900\"]\n[Date \"2024.03.04\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    }

    /// Games of a few openings, some moves much more played than others, a transposition among them.
    fn games() -> String {
        let mut pgn = String::new();
        for _ in 0..4 {
            pgn.push_str(&game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1-0"));
        }
        pgn.push_str(&game("1. e4 e5 2. Bc4 Nf6", "1-0"));
        for _ in 0..3 {
            pgn.push_str(&game("1. e4 c5 2. Nf3 d6", "0-1"));
        }
        pgn.push_str(&game("1. d4 d5 2. c4 e6", "1/2-1/2"));
        // 1. Nf3 d5 2. d4 reaches the position of 1. d4 d5 2. Nf3.
        pgn.push_str(&game("1. Nf3 d5 2. d4 Nf6", "1/2-1/2"));
        pgn.push_str(&game("1. d4 d5 2. Nf3 Bf5", "*"));
        pgn
    }

    /// The values of an attribute (`id`, `href`) in the page, in order.
    fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
        let start = format!(" {name}=\"");
        html.match_indices(&start)
            .map(|(at, _)| {
                let rest = &html[at + start.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect()
    }

    fn sections(html: &str) -> Vec<&str> {
        html.split("<section class=\"position\"").skip(1).collect()
    }

    #[test]
    fn every_link_leads_to_a_section_of_the_page_and_the_root_comes_first() {
        let (html, written) = page_of(tree_of(&games(), None, 1), Locale::En, MOST_POSITIONS);
        let ids: HashSet<&str> = attributes(&html, "id").into_iter().collect();
        let links: Vec<&str> = attributes(&html, "href")
            .into_iter()
            .filter_map(|h| h.strip_prefix('#'))
            .filter(|h| !h.starts_with("pgnkit-"))
            .collect();
        assert!(links.len() > 20, "{links:?}");
        for link in &links {
            assert!(ids.contains(link), "#{link} has no section");
        }
        let all = sections(&html);
        let root = pgnkit::core::polyglot::key(&Position::new(), None);
        assert_eq!(root, 0x463b96181691fc9c, "the start's Polyglot key");
        assert!(all[0].starts_with(" id=\"p463b96181691fc9c\">\n<h2>Root position</h2>"));
        // The most played first move's position next, linked from the root's table, and back.
        assert!(all[1].starts_with(" id=\"p823c9b50fd114196\">\n<h2>After 1. e4</h2>"));
        assert!(all[0].contains("<td class=\"san\"><a href=\"#p823c9b50fd114196\">e4</a></td><td class=\"n\">8</td><td class=\"n\">72.7%</td>"));
        assert!(all[1].contains("<a href=\"#p463b96181691fc9c\">↑ Root position</a></p>"));
        // Deeper: the line by which the links reach it, and a link to the position before.
        let ruy = all
            .iter()
            .find(|s| s.contains("<h2>After 1. e4 e5 2. Nf3 Nc6 3. Bb5</h2>"))
            .unwrap();
        assert!(ruy.contains("← Previous position</a>"));
        // Its one move leads to a position without moves: no link.
        assert!(ruy.contains("<td class=\"san\">a6</td><td class=\"n\">4</td>"));
        assert!(ruy.contains("<span class=\"eco\">C70</span> Ruy Lopez: Morphy Defense</td>"));
        // The transposition: one section, both moves to it linked.
        let target = all
            .iter()
            .find(|s| s.contains("<h2>After 1. d4 d5 2. Nf3</h2>"))
            .map(|s| &s[5..s.find("\">").unwrap()])
            .unwrap();
        assert_eq!(
            links.iter().filter(|l| **l == target).count(),
            2,
            "1. d4 d5 2. Nf3 and 1. Nf3 d5 2. d4"
        );
        assert!(!html.contains("reached by moves not on this page"));
        // What was written: a section per position, a row per move.
        assert_eq!(written.positions as usize, all.len());
        let rows = html.matches("<tr><td class=\"san\">").count();
        assert_eq!(written.rows as usize, rows);
        // The root's moves, most played first; the bar of e4's 5 white wins and 3 black wins.
        let root_moves: Vec<&str> = all[0]
            .split("<td class=\"san\">")
            .skip(1)
            .map(|r| &r[r.find('>').unwrap() + 1..r.find("</a>").unwrap()])
            .collect();
        assert_eq!(root_moves, ["e4", "d4", "Nf3"]);
        assert!(all[0].contains("<span class=\"w\" style=\"width:62.5%\"></span><span class=\"b\" style=\"width:37.5%\"></span>"));
        assert!(!html.contains("id=\"left-out\""));
    }

    #[test]
    fn text_is_escaped_and_nothing_is_loaded() {
        let hostile = games()
            .replace("[Event \"E\"]", "[Event \"<script>alert(1)</script>\"]")
            .replace("[White \"W\"]", "[White \"<img src=x onerror=alert(1)>\"]");
        let (html, _) = page_of(tree_of(&hostile, None, 1), Locale::En, MOST_POSITIONS);
        for banned in [
            "<script", "<img", "<link", "src=", "url(", "@import", "alert(",
        ] {
            assert!(!html.contains(banned), "{banned} in the page");
        }
        let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
        // The openings' names are escaped as any text: their apostrophes too.
        assert!(html.contains("King&#39;s Pawn Game"), "escaped");
        assert!(!html.contains("King's"));
        assert!(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
    }

    #[test]
    fn the_page_keeps_the_most_played_positions_and_says_how_many_it_left_out() {
        let tree = || tree_of(&games(), None, 1);
        let (all, full) = page_of(tree(), Locale::En, MOST_POSITIONS);
        let (html, written) = page_of(tree(), Locale::En, 3);
        assert_eq!(written.positions, 3);
        let kept = sections(&html);
        assert_eq!(kept.len(), 3);
        // The root (11 games), 1. e4 (8) and 1. e4 e5 (5): the most played; 1. e4 e5 2. Nf3 has 4.
        for (section, heading) in
            kept.iter()
                .zip(["Root position", "After 1. e4", "After 1. e4 e5"])
        {
            assert!(
                section.contains(&format!("<h2>{heading}</h2>")),
                "{heading}"
            );
        }
        let left = full.positions - 3;
        let rows = full.rows - written.rows;
        assert!(
            html.contains(&format!(
                "<p class=\"note\" id=\"left-out\">This page shows the 3 positions with the most games; left out: {left} more positions of the tree ({rows} moves). A higher --min-games or a lower --depth"
            )),
            "{html}"
        );
        // Links only to what is on the page; a move to a position left out is no link.
        let ids: HashSet<&str> = attributes(&html, "id").into_iter().collect();
        for link in attributes(&html, "href") {
            assert!(ids.contains(&link[1..]), "{link}");
        }
        assert!(html.contains("<td class=\"san\">c5</td>"));
        assert!(all.contains("<td class=\"san\"><a href=\""));
        // The root stays, however small the page.
        let (one, written) = page_of(tree(), Locale::En, 1);
        assert_eq!(sections(&one).len(), 1);
        assert_eq!(written.rows, 3);
        assert!(one.contains(&format!("left out: {} more positions", full.positions - 1)));
    }

    #[test]
    fn french_labels_and_numbers() {
        let mut pgn = String::new();
        for _ in 0..1200 {
            pgn.push_str(&game("1. e4 e5", "1-0"));
        }
        pgn.push_str(&game("1. d4 d5", "0-1"));
        let (html, _) = page_of(tree_of(&pgn, None, 1), Locale::Fr, 2);
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"));
        for text in [
            "<title>Arbre des ouvertures</title>",
            "<h2>Position racine</h2>",
            "<h2>Après 1. e4</h2>",
            ">↑ Position racine</a>",
            "Trait aux Blancs",
            "Trait aux Noirs",
            ">Coup</th>",
            ">Parties</th>",
            ">Résultats</th>",
            ">Ouverture</th>",
            "gains des Blancs",
            "1\u{202f}201 parties",
            "99,9\u{a0}%",
            "omises : 1 autre position de l&#39;arbre (1 coup)",
            "Écrit par pgnkit",
        ] {
            assert!(html.contains(text), "{text}");
        }
        for english in [">Move<", "Root position", "After ", " games", "left out"] {
            assert!(!html.contains(english), "{english}");
        }
    }

    #[test]
    fn moves_are_numbered_from_the_root_given() {
        // Black to move at move 5.
        let from = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 5";
        let pgn =
            format!("[FEN \"{from}\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n5... Nf6 6. Nc3 Bb4 *\n\n");
        let (html, written) = page_of(tree_of(&pgn, Some(from), 1), Locale::En, MOST_POSITIONS);
        assert_eq!(written.positions, 3);
        assert!(
            html.contains(
                "<code>r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -</code>"
            )
        );
        assert!(html.contains("<h2>After 5... Nf6</h2>"));
        assert!(html.contains("<h2>After 5... Nf6 6. Nc3</h2>"));
    }

    #[test]
    fn positions_no_link_reaches_come_last_and_say_so() {
        // With --min-games 2, neither 1. e4 nor 1. Nf3 is shown, yet both games reach the position after
        // 1. e4 Nf6 2. Nf3 / 1. Nf3 Nf6 2. e4 and play e6 from it.
        let pgn = game("1. e4 Nf6 2. Nf3 e6", "1-0") + &game("1. Nf3 Nf6 2. e4 e6", "0-1");
        let (html, written) = page_of(tree_of(&pgn, None, 2), Locale::En, MOST_POSITIONS);
        let all = sections(&html);
        assert_eq!(all.len(), 2);
        assert!(all[0].contains("<h2>Root position</h2>"));
        assert!(all[0].contains("<p>No game plays a move from this position.</p>"));
        assert!(all[1].contains("<h2>Position 2, reached by moves not on this page</h2>"));
        assert!(all[1].contains("<td class=\"san\">e6</td><td class=\"n\">2</td>"));
        assert!(html.contains("Moves played in fewer than 2 games are left out (--min-games)."));
        assert_eq!(
            written,
            TreeWritten {
                rows: 1,
                positions: 1
            }
        );
    }

    #[test]
    fn an_empty_tree_is_a_page_with_its_root() {
        let (html, written) = page_of(tree_of("", None, 1), Locale::En, MOST_POSITIONS);
        assert_eq!(written, TreeWritten::default());
        assert_eq!(sections(&html).len(), 1);
        assert!(html.contains("No game plays a move from this position."));
        assert!(html.ends_with("</html>\n"));
    }
}
