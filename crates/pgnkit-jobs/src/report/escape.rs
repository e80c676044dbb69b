//! HTML escaping for the report's page and its diagrams: what both write from the input goes through here,
//! so neither needs the other.

use crate::safe_text::is_unsafe;

/// Appends `text` with `&`, `<`, `>`, `"` and `'` escaped, and the characters a terminal must not receive
/// either (controls but tab and newline, direction controls: [`is_unsafe`]) written as `\u{..}`: safe in
/// element content and in quoted attribute values.
pub(crate) fn push_escaped(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if is_unsafe(c) => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
}

/// `text` escaped (see [`push_escaped`]).
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
        assert_eq!(escape("x\u{1b}[31m"), "x\\u{1b}[31m");
        assert_eq!(escape("é\tok\n"), "é\tok\n");
    }
}
