//! The tag section in export format: the Seven Tag Roster first, in its order, missing ones filled in; the
//! other tags in ASCII order of their names; every value escaped again.

use crate::buffer::{push_bytes, push_bytes_then};
use crate::pgn::lex::GameResult;
use crate::pgn::model::{Game, Tag};
use crate::pgn::roster::{SEVEN_TAG_ROSTER, roster_index};
use crate::pgn::text::Encoding;

/// The termination marker a game is written with: the Result tag when it is one of the four markers,
/// else the game's own marker, else `*`.
pub fn export_result(game: &Game<'_>) -> GameResult {
    game.tag_raw("Result")
        .and_then(|v| GameResult::from_bytes(v.trim_ascii()))
        .or(game.result)
        .unwrap_or(GameResult::Unknown)
}

/// Appends the tag section of `game` (one tag a line, no blank line after it); `order` is scratch space.
/// `set` overrides the game's tags: a name given with a value is written with it (in the roster's slot or
/// among the others, in order), a name given with `None` is left out; every tag of that name the game has
/// is replaced.
pub(super) fn write_tags(
    game: &Game<'_>,
    set: &[(&str, Option<&str>)],
    order: &mut Vec<u32>,
    out: &mut Vec<u8>,
) {
    // A tag of the game or one of `set`, by index: the game's first, then `set`'s.
    enum Source<'t> {
        Game(&'t Tag),
        Set(&'t str, &'t str),
    }
    let given = game.tags.len();
    let overridden = |name: &[u8]| set.iter().any(|(n, _)| n.as_bytes() == name);
    // One pass: the roster's tags into their slots (the first of a name; the reader starts a new game at a
    // repeated one), the others kept in order to be sorted.
    let mut roster: [Option<Source<'_>>; 7] = [const { None }; 7];
    order.clear();
    for (i, tag) in game.tags.iter().enumerate() {
        let name = game.bytes(tag.name);
        if !set.is_empty() && overridden(name) {
            continue;
        }
        match roster_index(name) {
            Some(k) => {
                if roster[k].is_none() {
                    roster[k] = Some(Source::Game(tag));
                }
            }
            None => order.push(i as u32),
        }
    }
    for (j, (name, value)) in set.iter().enumerate() {
        let Some(value) = value else { continue };
        match roster_index(name.as_bytes()) {
            Some(k) => roster[k] = Some(Source::Set(name, value)),
            None => order.push((given + j) as u32),
        }
    }
    for (name, tag) in SEVEN_TAG_ROSTER.iter().zip(roster) {
        match tag {
            Some(Source::Game(tag)) => write_tag(game, tag, out),
            Some(Source::Set(name, value)) => write_value(name, value, out),
            None => {
                let value = match *name {
                    "Date" => "????.??.??",
                    "Result" => export_result(game).as_str(),
                    _ => "?",
                };
                for part in ["[", name, " \"", value, "\"]\n"] {
                    out.extend_from_slice(part.as_bytes());
                }
            }
        }
    }
    let name_of = |i: u32| match (i as usize).checked_sub(given) {
        None => game.bytes(game.tags[i as usize].name),
        Some(j) => set[j].0.as_bytes(),
    };
    order.sort_by_key(|&i| name_of(i));
    for &i in order.iter() {
        match (i as usize).checked_sub(given) {
            None => write_tag(game, &game.tags[i as usize], out),
            Some(j) => write_value(set[j].0, set[j].1.unwrap_or_default(), out),
        }
    }
}

/// `[Name "value"]` and a line break for a value given as text, escaped.
fn write_value(name: &str, value: &str, out: &mut Vec<u8>) {
    out.push(b'[');
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b" \"");
    write_escaped(value, out);
    out.extend_from_slice(b"\"]\n");
}

/// `[Name "value"]` and a line break, the value unescaped, decoded and escaped again.
fn write_tag(game: &Game<'_>, tag: &Tag, out: &mut Vec<u8>) {
    out.push(b'[');
    push_bytes_then(out, game.bytes(tag.name), Some(b' '));
    out.push(b'"');
    let raw = game.bytes(tag.value);
    // The usual value (UTF-8, nothing escaped or to escape, on one line) is written as it stands.
    if game.field_encoding(raw) == Encoding::Utf8
        && !crate::buffer::contains_any(raw, [b'\\', b'"', b'\n', b'\r'], false)
    {
        push_bytes(out, raw);
        push_bytes(out, b"\"]\n");
        return;
    }
    write_escaped(&game.tag_value(tag), out);
    push_bytes(out, b"\"]\n");
}

/// A tag value escaped: `\` and `"` backslashed, a line break made a space.
fn write_escaped(value: &str, out: &mut Vec<u8>) {
    let mut rest = value;
    // Only `\`, `"` and line breaks need care; copy the runs between them whole.
    while let Some(k) = rest.find(['\\', '"', '\n', '\r']) {
        out.extend_from_slice(&rest.as_bytes()[..k]);
        match rest.as_bytes()[k] {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\r' if rest.as_bytes().get(k + 1) == Some(&b'\n') => {}
            _ => out.push(b' '),
        }
        rest = &rest[k + 1..];
    }
    out.extend_from_slice(rest.as_bytes());
}
