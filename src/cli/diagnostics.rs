//! Diagnostics as a compiler shows them, for every subcommand that reports problems in games (validate on
//! stdout, convert on stderr): one renderer, so a message reads the same wherever it comes from.

use crate::jobs::validate::{GameReport, Problem, Severity};

use crate::jobs::messages::{Explain, Locale};

use super::output::{BOLD, CYAN, Paint, RED, YELLOW, locale};
use crate::jobs::safe_text::{columns, safe};

/// What names a game in a diagnostic's heading.
pub(crate) struct GameLabel<'r> {
    pub(crate) file: &'r str,
    /// 1-based index of the game in its file.
    pub(crate) game: u64,
    pub(crate) white: &'r str,
    pub(crate) black: &'r str,
    pub(crate) round: &'r str,
}

impl<'r> GameLabel<'r> {
    pub(crate) fn of(report: &'r GameReport) -> GameLabel<'r> {
        GameLabel {
            file: &report.file,
            game: report.game,
            white: &report.white,
            black: &report.black,
            round: &report.round,
        }
    }
}

/// Appends the diagnostics of one game to `text`, compiler style: severity and kind, the message,
/// `file:line:col` with the game, the source line with a caret under the move, and any suggestion. Written
/// without temporary Strings: a file with many warnings renders them by the hundred thousand, on the ordered
/// output thread.
pub(crate) fn render_problems(
    label: &GameLabel<'_>,
    problems: &[Problem],
    paint: &Paint,
    text: &mut String,
) {
    let name = |n: &str| if n.is_empty() { "?" } else { n }.to_owned();
    let locale = locale();
    let fr = locale == Locale::Fr;
    let word = |en: &'static str, french: &'static str| if fr { french } else { en };
    // Everything is pushed piece by piece: on a file with hundreds of thousands of warnings (duplicate games),
    // the formatting machinery was a good part of the ordered output thread's time.
    let players = if label.white.is_empty() && label.black.is_empty() {
        String::new()
    } else {
        safe(&[", ", &name(label.white), " – ", &name(label.black)].concat()).into_owned()
    };
    let round = if label.round.is_empty() || label.round == "?" || label.round == "-" {
        String::new()
    } else {
        safe(&[word(", round ", ", ronde "), label.round].concat()).into_owned()
    };
    for p in problems {
        let (colour, severity) = match p.severity {
            Severity::Error => (RED, word("error", "erreur")),
            Severity::Warning => (YELLOW, word("warning", "avertissement")),
            // Summed up once per file (see FileNotes).
            Severity::Note => continue,
        };
        push_headline(p, colour, severity, locale, paint, text);
        // A finding about the whole game (missing tags, a duplicate): one line.
        let whole_game = p.source_line.is_empty() && p.move_text.is_none();
        if whole_game {
            text.push_str(" (");
        } else {
            text.push_str("\n  ");
            paint.push(CYAN, "-->", text);
            text.push(' ');
        }
        push_location(label.file, p, fr, text);
        text.push_str(match (whole_game, fr) {
            (true, false) => ", game ",
            (false, false) => " (game ",
            (true, true) => ", partie ",
            (false, true) => " (partie ",
        });
        pgnkit::core::decimal::push(text, label.game);
        text.push_str(&players);
        text.push_str(&round);
        if let (Some(n), Some(m)) = (&p.move_number, &p.move_text) {
            text.push_str("; ");
            text.push_str(n);
            text.push(' ');
            text.push_str(&safe(m));
            if p.in_variation {
                text.push_str(word(" in a variation", " dans une variante"));
            }
        }
        text.push_str(")\n");
        if whole_game {
            continue;
        }
        if !p.source_line.is_empty() {
            push_excerpt(p, colour, paint, text);
        }
        push_help(p, paint, text);
        text.push('\n');
    }
}

/// The `= help:` lines under a problem. A certain repair says more than "did you mean": the rest of the game
/// replays after it. Otherwise the suggestion, then the corrections that fit equally, if several do.
fn push_help(p: &Problem, paint: &Paint, text: &mut String) {
    let locale = locale();
    let heading = if locale == Locale::Fr {
        "= aide :"
    } else {
        "= help:"
    };
    let repair = p.repair();
    let certain = repair.is_some_and(|r| r.is_certain());
    let telling = repair.is_some_and(|r| r.worth_telling());
    let mut help = |words: String| {
        text.push_str("  ");
        paint.push(CYAN, heading, text);
        text.push(' ');
        text.push_str(&safe(&words));
        text.push('\n');
    };
    if let Some(s) = p.suggestion.as_ref().filter(|_| !certain) {
        help(s.explain(locale));
    }
    if let Some(r) = repair.filter(|_| telling) {
        help(r.explain(locale));
    }
}

/// Appends where a problem is: `file:line:col`, or for a game read from a table's row (Parquet),
/// `file, row group G, row R, line:col` (the line and column counted in the row's game text).
fn push_location(file: &str, p: &Problem, fr: bool, text: &mut String) {
    text.push_str(&safe(file));
    match p.record {
        None => text.push(':'),
        Some(record) => {
            text.push_str(if fr {
                ", groupe de rangées "
            } else {
                ", row group "
            });
            pgnkit::core::decimal::push(text, u64::from(record.group));
            text.push_str(if fr { ", rangée " } else { ", row " });
            pgnkit::core::decimal::push(text, record.row);
            text.push_str(", ");
        }
    }
    pgnkit::core::decimal::push(text, p.line);
    text.push(':');
    pgnkit::core::decimal::push(text, p.column);
}

/// Appends problems located in a file that holds no game (a TRF: `--pairings`): severity and kind, the
/// message, `file:line`.
pub(crate) fn render_file_problems(
    file: &str,
    problems: &[&Problem],
    paint: &Paint,
    text: &mut String,
) {
    let locale = locale();
    let fr = locale == Locale::Fr;
    for p in problems {
        let (colour, severity) = match (p.severity, fr) {
            (Severity::Error, false) => (RED, "error"),
            (Severity::Error, true) => (RED, "erreur"),
            (_, false) => (YELLOW, "warning"),
            (_, true) => (YELLOW, "avertissement"),
        };
        push_headline(p, colour, severity, locale, paint, text);
        text.push_str(" (");
        text.push_str(&safe(file));
        text.push(':');
        pgnkit::core::decimal::push(text, p.line);
        text.push_str(")\n");
    }
}

/// The line the problem is on, numbered, with carets under the move (as wide as what they stand under).
fn push_excerpt(p: &Problem, colour: &'static str, paint: &Paint, text: &mut String) {
    let line = p.line.to_string();
    // As wide as what it stands under: a tab for a tab, two spaces under a wide character (the line is
    // already safe to show: a character takes the columns its text does).
    let caret_at: String = p
        .source_line
        .chars()
        .take(p.source_caret as usize)
        .flat_map(|c| {
            let (pad, n) = if c == '\t' {
                ('\t', 1)
            } else {
                (' ', columns(c.encode_utf8(&mut [0; 4])))
            };
            std::iter::repeat_n(pad, n)
        })
        .collect();
    let caret_len = p.move_text.as_ref().map_or(1, |m| columns(m).max(1));
    let gutter = " ".repeat(line.len());
    // gutter and bar
    text.push_str(&gutter);
    text.push(' ');
    paint.push(CYAN, "|", text);
    text.push('\n');
    // line number, bar, the line
    paint.push(CYAN, &line, text);
    text.push(' ');
    paint.push(CYAN, "|", text);
    text.push(' ');
    text.push_str(&p.source_line);
    text.push('\n');
    // the carets under the move
    text.push_str(&gutter);
    text.push(' ');
    paint.push(CYAN, "|", text);
    text.push(' ');
    text.push_str(&caret_at);
    paint.push(colour, &"^".repeat(caret_len), text);
    text.push('\n');
}

/// `error[kind]: message (and N more like this)`.
fn push_headline(
    p: &Problem,
    colour: &'static str,
    severity: &str,
    locale: Locale,
    paint: &Paint,
    text: &mut String,
) {
    let fr = locale == Locale::Fr;
    paint.push(
        colour,
        &[severity, "[", p.kind().as_str(), "]"].concat(),
        text,
    );
    text.push_str(if fr { " : " } else { ": " });
    paint.push(BOLD, &safe(&p.message(locale)), text);
    if p.times() > 1 {
        let more = p.times() - 1;
        text.push_str(if fr { " (et " } else { " (and " });
        pgnkit::core::decimal::push(text, more);
        text.push_str(if fr {
            " autres semblables)"
        } else {
            " more like this)"
        });
    }
}
