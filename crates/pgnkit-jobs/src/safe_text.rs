//! Text from the input made safe to show to people: the one rule every human-readable output follows
//! (validate's and convert's diagnostics, `standings`' table, `stats --summary`, the messages on standard
//! error, the report's prose), so that a terminal only ever receives what pgnkit means to show.
//!
//! A tag, a file name or a move can hold anything: an escape sequence that retitles the window or recolours
//! the terminal (ESC, the C1 CSI U+009B), a backspace or a carriage return that overwrites what was written,
//! a Unicode direction override that shows the rest of the line backwards. Those characters (`is_unsafe`)
//! are written as Rust writes them escaped, `\u{1b}`, `\u{202e}` (`\t`, `\n`, `\r` for those three): visible,
//! and one notation for all of them. Everything else, accents and every script, is shown as it is.
//!
//! Text tables cut a long value to a width counted in terminal columns (`push_cell`): characters, not
//! bytes, with the wide East Asian ones counting two and combining marks none, so the columns stay aligned
//! and a row's length does not grow with the longest name.

use std::borrow::Cow;

use unicode_width::UnicodeWidthChar;

/// The widest a name column of a text table gets, in terminal columns; longer names are cut with `…`.
pub(crate) const NAME_COLUMNS: usize = 32;

/// Whether `c` must not reach a terminal as it is: a control character (C0, DEL, C1), a Unicode direction
/// control (the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F
/// and U+061C), or a line or paragraph separator (U+2028, U+2029), which some terminals and editors break
/// lines at.
pub(crate) fn is_unsafe(c: char) -> bool {
    match c {
        ' '..='~' => false,
        _ if c.is_control() => true,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// The characters `text` is shown as: itself, each unsafe character escaped (`\u{1b}`).
pub(crate) fn safe_chars(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(|c| {
        let escaped = is_unsafe(c).then(|| c.escape_default());
        let plain = (!is_unsafe(c)).then_some(c);
        escaped.into_iter().flatten().chain(plain)
    })
}

/// `text` as it may be shown (see the module documentation); borrowed when nothing needs escaping, the common
/// case.
pub fn safe(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_unsafe) {
        Cow::Owned(safe_chars(text).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// Appends `chars` as they may be shown, but a tab kept as it is: a quoted source line keeps its tabs so that
/// the carets drawn under it (with the same tabs) stay under the move.
pub(crate) fn push_safe_keeping_tabs(out: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        if c != '\t' && is_unsafe(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
}

/// The terminal columns `c` takes: 2 for a wide East Asian character, 0 for a combining mark or another
/// character that takes no room, 1 otherwise. (Called on shown characters, which are never controls.)
pub(crate) fn char_columns(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The terminal columns `text` takes once made safe.
pub fn columns(text: &str) -> usize {
    safe_chars(text).map(char_columns).sum()
}

/// Where a cell's text goes when it is narrower than the column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// Appends `text` made safe as a cell of `width` columns: cut with `…` when it is wider, padded with spaces
/// when narrower.
pub(crate) fn push_cell(out: &mut String, text: &str, width: usize, align: Align) {
    let (shown, used) = fit(text, width);
    let padding = width - used;
    if align == Align::Right {
        out.extend(std::iter::repeat_n(' ', padding));
    }
    out.push_str(&shown);
    if align == Align::Left {
        out.extend(std::iter::repeat_n(' ', padding));
    }
}

/// `text` made safe and cut to `width` columns (with `…`), without padding.
#[cfg(test)]
pub(crate) fn cut(text: &str, width: usize) -> String {
    fit(text, width).0
}

/// `text` made safe within `width` columns, cut with `…` when wider, and the columns it takes. Reads `text`
/// only as far as it is shown, so a name of megabytes costs what its first columns cost.
fn fit(text: &str, width: usize) -> (String, usize) {
    let mut shown = String::new();
    let mut used = 0;
    // The text as it stood when it last left a column for the ellipsis.
    let mut before_ellipsis = (0, 0);
    for c in safe_chars(text) {
        let w = char_columns(c);
        if used + w > width {
            if width == 0 {
                return (String::new(), 0);
            }
            shown.truncate(before_ellipsis.0);
            shown.push('…');
            return (shown, before_ellipsis.1 + 1);
        }
        shown.push(c);
        used += w;
        if used < width {
            before_ellipsis = (shown.len(), used);
        }
    }
    (shown, used)
}

/// The width of a name column: the widest of `names` (made safe), at least `header`'s and at most
/// [`NAME_COLUMNS`] (more when the header is wider). Stops measuring a name once it is past the cap.
pub(crate) fn name_column<'n>(names: impl IntoIterator<Item = &'n str>, header: &str) -> usize {
    let least = columns(header);
    let most = NAME_COLUMNS.max(least);
    let mut width = least;
    for name in names {
        let mut w = 0;
        for c in safe_chars(name) {
            w += char_columns(c);
            if w >= most {
                break;
            }
        }
        width = width.max(w.min(most));
        if width == most {
            break;
        }
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_direction_controls_are_shown_escaped() {
        // An OSC window title, an ANSI colour, a backspace, a carriage return, the C1 CSI.
        assert_eq!(
            safe("a\x1b]0;owned\x07b\x1b[31mc\x08d\re\u{9b}2J"),
            "a\\u{1b}]0;owned\\u{7}b\\u{1b}[31mc\\u{8}d\\re\\u{9b}2J"
        );
        for control in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{061c}', '\u{2028}', '\u{2029}',
        ] {
            let shown = safe(&format!("Alice{control}")).into_owned();
            assert_eq!(
                shown,
                format!("Alice\\u{{{:x}}}", u32::from(control)),
                "{control:?}"
            );
        }
        assert_eq!(safe("tab\there\nnext"), "tab\\there\\nnext");
        let mut line = String::new();
        push_safe_keeping_tabs(&mut line, "1.\te4\x1b".chars());
        assert_eq!(line, "1.\te4\\u{1b}");
    }

    #[test]
    fn every_script_is_shown_as_it_is() {
        for name in [
            "Müller, Jürgen",
            "Carlsen, Magnus",
            "丁立人",
            "Иванчук",
            "\u{5e4}\u{5d5}\u{5dc}\u{5d2}\u{5e8}",
            "عبد الله",
            // Zero-width joiners and non-joiners belong to Persian and Indic names, and emoji.
            "\u{645}\u{6cc}\u{200c}\u{62e}\u{648}\u{627}\u{647}\u{645}",
        ] {
            assert!(matches!(safe(name), Cow::Borrowed(_)), "{name}");
        }
    }

    #[test]
    fn columns_count_characters_wide_ones_twice_and_marks_not_at_all() {
        assert_eq!(columns("abc"), 3);
        assert_eq!(columns("Müller"), 6);
        // e and a combining acute accent: one column.
        assert_eq!(columns("e\u{301}"), 1);
        assert_eq!(columns("丁立人"), 6);
        // ESC shown as \u{1b}: six columns.
        assert_eq!(columns("\x1b"), 6);
    }

    fn cell(text: &str, width: usize, align: Align) -> String {
        let mut out = String::new();
        push_cell(&mut out, text, width, align);
        out
    }

    #[test]
    fn a_cell_is_cut_with_an_ellipsis_or_padded_to_its_width() {
        assert_eq!(cell("Anna", 6, Align::Left), "Anna  ");
        assert_eq!(cell("Anna", 6, Align::Right), "  Anna");
        assert_eq!(cell("Annabelle", 6, Align::Left), "Annab…");
        assert_eq!(cell("Annabe", 6, Align::Left), "Annabe");
        // Wide characters: never half of one; the padding makes up the column.
        assert_eq!(cell("丁立人", 6, Align::Left), "丁立人");
        assert_eq!(cell("丁立人丁", 6, Align::Left), "丁立… ");
        assert_eq!(columns(&cell("丁立人丁", 6, Align::Left)), 6);
        // An escape is cut like any text, never left half open on the terminal.
        assert_eq!(cell("A\x1b[31m", 4, Align::Left), "A\\u…");
        assert_eq!(cell("anything", 0, Align::Left), "");
        assert_eq!(cell("ab", 1, Align::Left), "…");
        for width in 0..12 {
            for text in [
                "",
                "a",
                "Annabelle",
                "丁立人丁立人",
                "e\u{301}e\u{301}e\u{301}",
                "\u{202e}x",
            ] {
                assert_eq!(
                    columns(&cell(text, width, Align::Left)),
                    width,
                    "{text:?} in {width}"
                );
            }
        }
    }

    #[test]
    fn cut_drops_only_its_own_padding() {
        assert_eq!(cut("Anna", 6), "Anna");
        assert_eq!(cut("Annabelle", 6), "Annab…");
        assert_eq!(cut("a  ", 6), "a  ");
        assert_eq!(cut("\u{202e}x", 40), "\\u{202e}x");
    }

    #[test]
    fn a_name_column_fits_the_names_within_its_bounds() {
        assert_eq!(name_column(["Al", "Bo"], "player"), 6);
        assert_eq!(name_column(["Alexandra, Maria"], "player"), 16);
        let huge = "x".repeat(1 << 20);
        assert_eq!(name_column([huge.as_str(), "Al"], "player"), NAME_COLUMNS);
        assert_eq!(name_column(std::iter::empty(), "joueur"), 6);
    }
}
