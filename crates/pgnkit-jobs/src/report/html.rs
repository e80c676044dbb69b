//! The page: one HTML document with its CSS inline and its diagrams as inline SVG, no script, nothing loaded
//! from anywhere (a Content-Security-Policy of `default-src 'none'` says so to the browser too). Every text
//! from the input (names, events, messages that quote the file) is escaped: a `<script>` in a tag is shown as
//! text, and a control or direction character as the terminal shows it (`\u{202e}`, see
//! [`crate::safe_text`]). Each value from the input (a name, an event, a file, a round, a result) is also
//! isolated from the text around it (`<bdi>`, or `dir="auto"` on its cell), so that a name in a right-to-left
//! script reads right and leaves the words around it in their order.

use crate::messages::{Explain, localized_decimal};
use crate::options::Tiebreaks;
use crate::tournament::{Standing, Tournament, TournamentKey, codes_of, decimal};

use super::board::{self, Diagram};
use super::crosstable::{self, Shape};
use super::escape::{escape, push_escaped};
use super::labels::{Label, Locale};
use super::{Collector, Detail, Status};
use crate::validate::{Problem, Severity, termination_name};

/// What the page is asked to show.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PageOptions<'a> {
    /// The language of the labels.
    pub(crate) lang: Locale,
    /// Only the tournaments whose Event tag is this (the games are all listed).
    pub(crate) event: Option<&'a str>,
    /// Tie-breaks after points, in order (by default, FIDE's recommended list for each tournament's kind).
    pub(crate) tiebreaks: &'a Tiebreaks,
}

/// Appends a value from the input within the text of a line (a heading, a sentence): escaped, and isolated
/// (`<bdi>`), so that its direction cannot reorder what is around it.
pub(crate) fn push_value(text: &str, out: &mut String) {
    out.push_str("<bdi>");
    push_escaped(text, out);
    out.push_str("</bdi>");
}

/// Appends a table cell that holds one value from the input: escaped, its direction its own (`dir="auto"`).
fn push_value_cell(text: &str, out: &mut String) {
    out.push_str("<td dir=\"auto\">");
    push_escaped(text, out);
    out.push_str("</td>");
}

/// A figure with a decimal part as the page's language writes it: `2.5`, `2,5`.
fn figure(text: &str, lang: Locale) -> String {
    localized_decimal(lang, text).into_owned()
}

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:1.5rem auto;max-width:75rem;padding:0 1rem;color:#1d1d1f;background:#fff;line-height:1.4}
h1{font-size:1.7rem;margin-bottom:.3rem}h2{border-bottom:2px solid #769656;padding-bottom:.2rem;margin-top:2rem}
h3{margin-bottom:.4rem}h4{margin:.8rem 0 .3rem}
table{border-collapse:collapse;margin:.4rem 0 1rem;font-size:.9rem}
th,td{border:1px solid #c8c8c8;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#eef2e8}td.n{text-align:right;font-variant-numeric:tabular-nums}
table.grid td{text-align:center;min-width:1.6rem}table.grid td:nth-child(2){text-align:left}table.grid td.self{background:#555}
.ok{color:#1a7f37}.warnings{color:#9a6700}.errors{color:#cf222e;font-weight:600}
.summary span{margin-right:1.2rem}
.problem{border-left:4px solid #c8c8c8;padding:.3rem .8rem;margin:.6rem 0;background:#fafafa}
.problem.error{border-color:#cf222e}.problem.warning{border-color:#d4a72c}
.problem p{margin:.25rem 0}.where{color:#555;font-size:.85rem}
.source{font-family:ui-monospace,'DejaVu Sans Mono',monospace;white-space:pre;overflow-x:auto;background:#f0f0f0;padding:.2rem .4rem;font-size:.85rem}
.suggestion{color:#0b5394}
figure{margin:.5rem 0}figcaption{font-size:.85rem;color:#555}
svg.board{width:18rem;height:auto;display:block}
code{font-family:ui-monospace,'DejaVu Sans Mono',monospace}
";

/// The page, in the order: summary, files, tournaments (standings, crosstable), games, problems, what was
/// left out.
pub(crate) fn page(c: &Collector, opts: &PageOptions<'_>) -> String {
    let lang = opts.lang;
    let t = |l: Label| l.text(lang);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"");
    out.push_str(lang.code());
    out.push_str("\">\n<head>\n<meta charset=\"utf-8\">\n");
    // Nothing may be fetched: not by this page, nor by anything a hostile input could slip into it.
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n");
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
    );
    out.push_str(t(Label::Title));
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(&board::piece_defs());
    out.push_str(&format!("\n<h1>{}</h1>\n", t(Label::Title)));
    summary(c, lang, &mut out);
    files(c, lang, &mut out);
    tournaments(c, opts, &mut out);
    games(c, lang, &mut out);
    problems(c, lang, &mut out);
    left_out(c, opts, &mut out);
    out.push_str(&format!(
        "<footer><p>{} {}</p></footer>\n</body>\n</html>\n",
        t(Label::GeneratedBy),
        env!("CARGO_PKG_VERSION")
    ));
    out
}

fn summary(c: &Collector, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    let (ok, warned, failed) = c.files.iter().fold((0, 0, 0), |(o, w, e), f| {
        (o + f.ok, w + f.with_warnings, e + f.with_errors)
    });
    out.push_str("<p class=\"summary\">");
    out.push_str(&format!(
        "<span>{}: {}</span><span>{}: {}</span><span class=\"ok\">{}: {ok}</span><span class=\"warnings\">{}: {warned}</span><span class=\"errors\">{}: {failed}</span>",
        t(Label::Files),
        c.files.len(),
        t(Label::Games),
        c.games,
        t(Label::StatusOk),
        t(Label::StatusWarnings),
        t(Label::StatusErrors),
    ));
    out.push_str("</p>\n");
    if c.games == 0 {
        out.push_str(&format!("<p class=\"errors\">{}</p>\n", t(Label::NoGames)));
    }
}

fn files(c: &Collector, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    out.push_str(&format!(
        "<section id=\"files\">\n<h2>{}</h2>\n<table class=\"files\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>\n",
        t(Label::Files),
        t(Label::File),
        t(Label::Games),
        t(Label::Ok),
        t(Label::Warnings),
        t(Label::Errors),
        t(Label::NotListed)
    ));
    for f in &c.files {
        out.push_str("<tr>");
        push_value_cell(&f.name, out);
        out.push_str(&format!(
            "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
            f.games, f.ok, f.with_warnings, f.with_errors, f.not_listed
        ));
    }
    out.push_str("</tbody></table>\n");
    if !c.read_errors.is_empty() {
        out.push_str(&format!(
            "<h3 class=\"errors\">{}</h3>\n<ul>\n",
            t(Label::ReadErrors)
        ));
        for e in &c.read_errors {
            out.push_str("<li>");
            push_escaped(e, out);
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

/// A tournament as the page shows it: its key, its games, its ranked players.
type Shown<'c> = (&'c TournamentKey, &'c Tournament, Vec<Standing>);

/// The tournaments shown: those asked for (`--event`), the first [`super::Limits::tournaments`] of them; and
/// how many more there were.
fn shown_tournaments<'c>(c: &'c Collector, opts: &PageOptions<'_>) -> (Vec<Shown<'c>>, usize) {
    let all: Vec<_> = c
        .standings
        .ranked(opts.tiebreaks)
        .into_iter()
        .filter(|(key, _, _)| opts.event.is_none_or(|e| key.event == e.trim()))
        .collect();
    let total = all.len();
    let shown: Vec<_> = all.into_iter().take(c.limits().tournaments).collect();
    let left = total - shown.len();
    (shown, left)
}

fn tournaments(c: &Collector, opts: &PageOptions<'_>, out: &mut String) {
    let lang = opts.lang;
    let t = |l: Label| l.text(lang);
    out.push_str(&format!(
        "<section id=\"tournaments\">\n<h2>{}</h2>\n",
        t(Label::Tournaments)
    ));
    let (shown, _) = shown_tournaments(c, opts);
    if shown.is_empty() {
        out.push_str(&format!("<p>{}</p>\n", t(Label::NoTournament)));
    }
    for (n, (key, tournament, rows)) in shown.iter().enumerate() {
        out.push_str(&format!(
            "<article class=\"tournament\" id=\"t{}\">\n<h3>",
            n + 1
        ));
        push_value(&key.event, out);
        for part in [&key.site, &key.year] {
            if !part.is_empty() {
                out.push_str(" — ");
                push_value(part, out);
            }
        }
        out.push_str("</h3>\n");
        if tournament.unfinished > 0 {
            out.push_str(&format!(
                "<p>{}: {}</p>\n",
                t(Label::UnfinishedNotScored),
                tournament.unfinished
            ));
        }
        let left = &tournament.left_out;
        for (label, n) in [
            (Label::DuplicatesLeftOut, left.duplicates),
            (Label::UnknownPlayerLeftOut, left.unknown_player),
            (Label::AgainstSelfLeftOut, left.against_self),
        ] {
            if n > 0 {
                out.push_str(&format!("<p>{}: {n}</p>\n", t(label)));
            }
        }
        standings_table(rows, c.limits().standings_rows, opts, out);
        crosstable(c, key, tournament, rows, lang, out);
        out.push_str("</article>\n");
    }
    out.push_str("</section>\n");
}

fn standings_table(rows: &[Standing], limit: usize, opts: &PageOptions<'_>, out: &mut String) {
    let lang = opts.lang;
    let t = |l: Label| l.text(lang);
    let codes = codes_of(rows);
    out.push_str(&format!("<h4>{}</h4>\n", t(Label::Standings)));
    if !codes.is_empty() {
        let names: Vec<String> = codes.iter().map(ToString::to_string).collect();
        out.push_str(&format!(
            "<p class=\"where\">{}: {}</p>\n",
            t(Label::Tiebreaks),
            escape(&names.join(", "))
        ));
    }
    out.push_str("<table class=\"standings\"><thead><tr>");
    for label in [
        Label::Rank,
        Label::Player,
        Label::Rating,
        Label::Points,
        Label::Games,
        Label::Wins,
        Label::Unfinished,
        Label::Aro,
        Label::Performance,
    ] {
        out.push_str(&format!("<th>{}</th>", t(label)));
    }
    // Each tie-break headed by its code, as FIDE's regulations and the TRF name it.
    for code in &codes {
        out.push_str(&format!("<th>{}</th>", escape(&code.to_string())));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in rows.iter().take(limit) {
        out.push_str(&format!("<tr><td class=\"n\">{}</td>", r.rank));
        push_value_cell(&r.player, out);
        let values = r.tiebreaks.iter().map(|(_, v)| v.to_string());
        for value in r.figures("").into_iter().chain(values) {
            out.push_str("<td class=\"n\">");
            out.push_str(&figure(&value, lang));
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    if rows.len() > limit {
        out.push_str(&format!(
            "<p class=\"where\">{}: {}</p>\n",
            t(Label::PlayersNotShown),
            rows.len() - limit
        ));
    }
}

fn crosstable(
    c: &Collector,
    key: &TournamentKey,
    tournament: &Tournament,
    rows: &[Standing],
    lang: Locale,
    out: &mut String,
) {
    let t = |l: Label| l.text(lang);
    out.push_str(&format!("<h4>{}</h4>\n", t(Label::Crosstable)));
    if rows.len() > c.limits().crosstable_players {
        out.push_str(&format!("<p>{}</p>\n", t(Label::CrosstableTooLarge)));
        return;
    }
    let players: Vec<usize> = rows.iter().map(|r| r.player_index).collect();
    let pairings = c.pairings.of(key, tournament);
    let byes = tournament.byes_placed();
    match Shape::of(&players, &pairings) {
        Shape::Grid => {
            let cells = crosstable::grid(&players, &pairings);
            out.push_str(&format!(
                "<p class=\"where\">{}</p>\n",
                t(Label::GridExplained)
            ));
            out.push_str(&format!(
                "<table class=\"grid\"><thead><tr><th>{}</th><th>{}</th>",
                t(Label::Rank),
                t(Label::Player)
            ));
            for i in 1..=players.len() {
                out.push_str(&format!("<th>{i}</th>"));
            }
            if !byes.is_empty() {
                out.push_str(&format!("<th>{}</th>", t(Label::Byes)));
            }
            out.push_str(&format!(
                "<th>{}</th></tr></thead><tbody>\n",
                t(Label::Points)
            ));
            for (i, r) in rows.iter().enumerate() {
                out.push_str(&format!("<tr><td class=\"n\">{}</td>", r.rank));
                push_value_cell(&r.player, out);
                for (j, cell) in cells[i].iter().enumerate() {
                    if i == j {
                        out.push_str("<td class=\"self\"></td>");
                    } else {
                        out.push_str(&format!("<td>{}</td>", cell.join(" ")));
                    }
                }
                if !byes.is_empty() {
                    let codes: Vec<String> = byes
                        .iter()
                        .filter(|b| b.0 == r.player_index)
                        .map(|b| b.2.to_string())
                        .collect();
                    out.push_str(&format!("<td>{}</td>", codes.join(" ")));
                }
                out.push_str(&format!(
                    "<td class=\"n\">{}</td></tr>\n",
                    figure(&decimal(r.half_points, false), lang)
                ));
            }
            out.push_str("</tbody></table>\n");
        }
        Shape::PerRound => {
            let table =
                crosstable::per_round(&players, &pairings, &byes, crosstable::MAX_ROUND_COLUMNS);
            let (rounds, cells) = (&table.rounds, &table.cells);
            out.push_str(&format!(
                "<p class=\"where\">{}</p>\n",
                t(Label::PerRoundExplained)
            ));
            out.push_str(&format!(
                "<table class=\"rounds\"><thead><tr><th>{}</th><th>{}</th>",
                t(Label::Rank),
                t(Label::Player)
            ));
            for round in rounds {
                match round {
                    Some(n) => out.push_str(&format!("<th>{} {n}</th>", t(Label::Round))),
                    None => out.push_str(&format!("<th>{} ?</th>", t(Label::Round))),
                }
            }
            out.push_str(&format!(
                "<th>{}</th></tr></thead><tbody>\n",
                t(Label::Points)
            ));
            for (i, r) in rows.iter().enumerate() {
                out.push_str(&format!("<tr><td class=\"n\">{}</td>", r.rank));
                push_value_cell(&r.player, out);
                for (games, bye) in cells[i].iter().zip(&table.byes[i]) {
                    let mut shown: Vec<String> = games
                        .iter()
                        .map(|g| {
                            format!(
                                "{}{} {}",
                                rows[g.opponent].rank,
                                if g.white {
                                    t(Label::ColourWhite)
                                } else {
                                    t(Label::ColourBlack)
                                },
                                crosstable::mark(g.kind, g.half_points)
                            )
                        })
                        .collect();
                    shown.extend(bye.map(|code| format!("{} {code}", t(Label::Bye))));
                    out.push_str(&format!("<td>{}</td>", shown.join(", ")));
                }
                out.push_str(&format!(
                    "<td class=\"n\">{}</td></tr>\n",
                    figure(&decimal(r.half_points, false), lang)
                ));
            }
            out.push_str("</tbody></table>\n");
            if table.rounds_not_shown > 0 {
                out.push_str(&format!(
                    "<p class=\"where\">{}: {}; {}: {}</p>\n",
                    t(Label::RoundsNotShown),
                    table.rounds_not_shown,
                    t(Label::GamesInThoseRounds),
                    table.games_not_shown
                ));
            }
        }
    }
}

/// The anchor of a detailed game.
fn anchor(file: usize, game: u64) -> String {
    format!("g{}-{game}", file + 1)
}

fn status_cell(status: Status, lang: Locale) -> String {
    let class = match status {
        Status::Ok => "ok",
        Status::Warnings => "warnings",
        Status::Errors => "errors",
    };
    format!("<td class=\"{class}\">{}</td>", status.label().text(lang))
}

fn games(c: &Collector, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    out.push_str(&format!(
        "<section id=\"games\">\n<h2>{}</h2>\n<table class=\"games\"><thead><tr>",
        t(Label::Games)
    ));
    for label in [
        Label::File,
        Label::Game,
        Label::Round,
        Label::White,
        Label::Black,
        Label::Result,
        Label::Status,
        Label::Termination,
        Label::Problems,
    ] {
        out.push_str(&format!("<th>{}</th>", t(label)));
    }
    out.push_str("</tr></thead><tbody>\n");
    for r in &c.rows {
        out.push_str("<tr>");
        push_value_cell(&c.files[r.file].name, out);
        out.push_str(&format!("<td class=\"n\">{}</td>", r.game));
        for text in [&r.round, &r.white, &r.black, &r.result] {
            push_value_cell(text, out);
        }
        out.push_str(&status_cell(r.status, lang));
        out.push_str(&format!(
            "<td title=\"{}\">{}</td>",
            termination_name(r.termination),
            Label::of_termination(r.termination).text(lang)
        ));
        if r.detailed {
            out.push_str(&format!(
                "<td class=\"n\"><a href=\"#{}\">{}</a></td></tr>\n",
                anchor(r.file, r.game),
                r.problems
            ));
        } else {
            out.push_str(&format!("<td class=\"n\">{}</td></tr>\n", r.problems));
        }
    }
    out.push_str("</tbody></table>\n</section>\n");
}

fn problems(c: &Collector, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    out.push_str(&format!(
        "<section id=\"problems\">\n<h2>{}</h2>\n",
        t(Label::Problems)
    ));
    for d in &c.details {
        detail(c, d, lang, out);
    }
    run_warnings(c, lang, out);
    out.push_str("</section>\n");
}

/// validate's warnings about whole tournaments (round numbering), each at the game it points to.
fn run_warnings(c: &Collector, lang: Locale, out: &mut String) {
    if c.run_warnings.is_empty() {
        return;
    }
    let t = |l: Label| l.text(lang);
    out.push_str(&format!(
        "<article class=\"game tournament\" id=\"tournament-warnings\">\n<h3>{}</h3>\n",
        t(Label::AboutTournaments)
    ));
    for w in &c.run_warnings {
        out.push_str(&format!(
            "<p class=\"where\">{} {} — ",
            t(Label::Game),
            w.game
        ));
        push_value(&w.file, out);
        out.push_str("</p>\n");
        problem(&w.problem, None, lang, out);
    }
    out.push_str("</article>\n");
}

fn detail(c: &Collector, d: &Detail, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    let r = &d.report;
    out.push_str(&format!(
        "<article class=\"game\" id=\"{}\">\n<h3>{} {} — ",
        anchor(d.file, r.game),
        t(Label::Game),
        r.game
    ));
    push_value(&c.files[d.file].name, out);
    out.push_str(": ");
    push_value(&r.white, out);
    out.push_str(" – ");
    push_value(&r.black, out);
    if !r.round.is_empty() {
        out.push_str(&format!(" ({} ", t(Label::Round)));
        push_value(&r.round, out);
        out.push(')');
    }
    out.push_str("</h3>\n");
    out.push_str(&format!(
        "<p class=\"where\">{}: {} · {}: ",
        t(Label::Status),
        Status::of(r).label().text(lang),
        t(Label::Result)
    ));
    push_value(&r.result, out);
    out.push_str(&format!(
        " · {}: {}</p>\n",
        t(Label::Termination),
        Label::of_termination(r.termination).text(lang)
    ));
    for p in &r.problems {
        let diagram = d
            .diagrams
            .iter()
            .find(|(offset, _)| *offset == p.offset && p.ply.is_some())
            .map(|(_, d)| d);
        problem(p, diagram, lang, out);
    }
    if d.hidden > 0 {
        out.push_str(&format!(
            "<p class=\"where\">{}: {}</p>\n",
            t(Label::ProblemsNotShown),
            d.hidden
        ));
    }
    out.push_str("</article>\n");
}

fn problem(p: &Problem, diagram: Option<&Diagram>, lang: Locale, out: &mut String) {
    let t = |l: Label| l.text(lang);
    let (class, word) = match p.severity {
        Severity::Error => ("error", Label::Error),
        Severity::Warning => ("warning", Label::Warning),
        Severity::Note => ("note", Label::Note),
    };
    out.push_str(&format!(
        "<div class=\"problem {class}\">\n<p><strong class=\"{}\">{}</strong> <code>{}</code> <span class=\"where\">{} {}, {} {}",
        if class == "error" { "errors" } else { "warnings" },
        t(word),
        p.kind().as_str(),
        t(Label::Line),
        p.line,
        t(Label::Column),
        p.column
    ));
    if let Some(count) = p.count.filter(|&n| n > 1) {
        out.push_str(&format!(" (×{count})"));
    }
    out.push_str("</span></p>\n");
    if let Some(text) = &p.move_text {
        out.push_str(&format!("<p>{}: <bdi><code>", t(Label::Move)));
        if let Some(number) = &p.move_number {
            push_escaped(number, out);
            out.push(' ');
        }
        push_escaped(text, out);
        out.push_str("</code></bdi>");
        if p.in_variation {
            out.push_str(&format!(" ({})", t(Label::InVariation)));
        }
        out.push_str("</p>\n");
    }
    out.push_str("<p class=\"message\">");
    push_escaped(&p.message(lang), out);
    out.push_str("</p>\n");
    if let Some(s) = &p.suggestion {
        out.push_str(&format!(
            "<p class=\"suggestion\">{}: ",
            t(Label::Suggestion)
        ));
        push_escaped(&s.explain(lang), out);
        out.push_str("</p>\n");
    }
    if !p.source_line.is_empty() {
        out.push_str("<div class=\"source\">");
        push_escaped(&p.source_line, out);
        out.push_str("</div>\n");
    }
    if let Some(d) = diagram {
        let mut caption = format!("{} ", t(Label::PositionBefore));
        if let Some(number) = &p.move_number {
            caption.push_str(number);
            caption.push(' ');
        }
        if let Some(text) = &p.move_text {
            caption.push_str(text);
        }
        caption.push_str(" — ");
        caption.push_str(t(Label::to_move(d.position.turn())));
        out.push_str("<figure>");
        board::push_svg(d, &caption, out);
        out.push_str("<figcaption>");
        push_escaped(&caption, out);
        out.push_str("</figcaption></figure>\n");
    }
    out.push_str("</div>\n");
}

fn left_out(c: &Collector, opts: &PageOptions<'_>, out: &mut String) {
    let lang = opts.lang;
    let t = |l: Label| l.text(lang);
    let (_, tournaments_left) = shown_tournaments(c, opts);
    let not_listed: u64 = c.files.iter().map(|f| f.not_listed).sum();
    let left = c.standings.left_out();
    let items = [
        (Label::GamesNotListed, not_listed),
        (Label::GamesNotDetailed, c.games_not_detailed),
        (Label::ProblemsNotShown, c.problems_not_shown),
        (Label::DiagramsNotDrawn, c.diagrams_not_drawn),
        (Label::TournamentsNotShown, tournaments_left as u64),
        (Label::GamesWithoutEvent, c.standings.without_event),
        (Label::DuplicatesLeftOut, left.duplicates),
        (Label::UnknownPlayerLeftOut, left.unknown_player),
        (Label::AgainstSelfLeftOut, left.against_self),
        (Label::GamesBeyondPlayerLimit, c.standings.games_left_out),
        (Label::PairingsNotKept, c.pairings.left_out),
    ];
    out.push_str(&format!(
        "<section id=\"left-out\">\n<h2>{}</h2>\n",
        t(Label::LeftOut)
    ));
    let said: Vec<_> = items.iter().filter(|(_, n)| *n > 0).collect();
    if said.is_empty() {
        out.push_str(&format!("<p>{}</p>\n", t(Label::NothingLeftOut)));
    } else {
        out.push_str("<ul>\n");
        for (label, n) in said {
            out.push_str(&format!("<li>{}: {n}</li>\n", t(*label)));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::report::{Limits, examine};
    use crate::validate::ValidateOptions;
    use pgnkit::pgn::parse_all;

    fn page_of(pgn: &str, lang: Locale) -> String {
        let file: Arc<str> = "t.pgn".into();
        let opts = ValidateOptions {
            tag_checks: true,
            track_claims: true,
            report_tags: true,
            messages: lang,
            ..ValidateOptions::default()
        };
        let mut c = Collector::new(Limits::default(), true).in_locale(lang);
        c.start_file("t.pgn");
        for g in parse_all(pgn.as_bytes()) {
            c.add(examine(&g, &file, &opts, c.limits()));
        }
        page(
            &c,
            &PageOptions {
                lang,
                event: None,
                tiebreaks: &Tiebreaks::default(),
            },
        )
    }

    const HOSTILE: &str = "[Event \"<script>alert(1)</script>\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"<img src=x onerror=alert(1)>\"]\n[Black \"B & 'C'\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qxe5 1-0\n";

    #[test]
    fn hostile_text_is_shown_as_text() {
        let html = page_of(HOSTILE, Locale::En);
        assert!(!html.contains("<script"), "a script tag got through");
        assert!(!html.contains("<img"), "an img tag got through");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(html.contains("B &amp; &#39;C&#39;"));
    }

    /// A direction control in a name turned the rest of a heading around: it is shown escaped, and each
    /// value is isolated.
    #[test]
    fn direction_controls_are_shown_and_values_isolated() {
        assert_eq!(escape("Alice\u{202e}"), "Alice\\u{202e}");
        assert_eq!(
            escape("a\u{2066}b\u{200f}\u{9b}"),
            "a\\u{2066}b\\u{200f}\\u{9b}"
        );
        let mut out = String::new();
        push_value("<Bob>\u{202e}", &mut out);
        assert_eq!(out, "<bdi>&lt;Bob&gt;\\u{202e}</bdi>");
        let html = page_of(
            &HOSTILE.replace("<img src=x onerror=alert(1)>", "Alice\u{202e}"),
            Locale::En,
        );
        assert!(!html.contains('\u{202e}'));
        assert!(
            html.contains("<bdi>Alice\\u{202e}</bdi> – <bdi>B &amp; &#39;C&#39;</bdi>"),
            "{html}"
        );
    }

    #[test]
    fn nothing_is_loaded_from_outside() {
        let html = page_of(HOSTILE, Locale::En);
        for banned in ["<link", "<script", "src=\"", "url(", "@import"] {
            assert!(!html.contains(banned), "{banned} in the page");
        }
        // The only URL is the SVG namespace, which is a name, not a load.
        let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(!without_ns.contains("http://") && !without_ns.contains("https://"));
    }

    #[test]
    fn an_error_has_its_diagram_reason_and_status() {
        let html = page_of(HOSTILE, Locale::En);
        assert_eq!(
            html.matches("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\"")
                .count(),
            1
        );
        assert!(html.contains("Position before 2. Qxe5 — White to move"));
        assert!(
            html.contains("no queen can reach e5") || html.contains("queen"),
            "{html}"
        );
        assert!(html.contains("<td class=\"errors\">errors</td>"));
    }

    #[test]
    fn french_labels() {
        let html = page_of(HOSTILE, Locale::Fr);
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"));
        for word in [
            "Classement",
            "Grille américaine",
            "Partie",
            "Ronde",
            "Points",
            "Départages",
            "Trait aux Blancs",
        ] {
            assert!(html.contains(word), "{word} missing");
        }
        assert!(!html.contains(">Standings<"));
    }

    #[test]
    fn round_robin_grid_and_swiss_rounds() {
        // Games with moves: a game without any is a forfeit (`--moveless`' default), marked `+`/`-`.
        let html = page_of(
            "[Event \"RR\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
             [Event \"RR\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"2\"]\n[White \"B\"]\n[Black \"C\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
             [Event \"RR\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"3\"]\n[White \"C\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n",
            Locale::En,
        );
        // A beat both: first; the row of A reads 1 against B (rank 2 or 3) and 1 against C.
        assert!(html.contains("<table class=\"grid\">"));
        let row_a = html
            .lines()
            .find(|l| {
                l.starts_with(
                    "<tr><td class=\"n\">1</td><td dir=\"auto\">A</td><td class=\"self\">",
                )
            })
            .expect("A first, with the diagonal cell first");
        assert_eq!(row_a.matches("<td>1</td>").count(), 2, "{row_a}");
    }
}
