//! The tag section in export format: the Seven Tag Roster first, in its order, missing ones filled in; the
//! other tags in ASCII order of their names; every value escaped again.

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
pub(super) fn write_tags(game: &Game<'_>, order: &mut Vec<u32>, out: &mut Vec<u8>) {
    // One pass: the roster's tags into their slots (the first of a name; the reader starts a new game at a
    // repeated one), the others kept in order to be sorted.
    let mut roster: [Option<&Tag>; 7] = [None; 7];
    order.clear();
    for (i, tag) in game.tags.iter().enumerate() {
        match roster_index(game.bytes(tag.name)) {
            Some(k) => {
                roster[k] = roster[k].or(Some(tag));
            }
            None => order.push(i as u32),
        }
    }
    for (name, tag) in SEVEN_TAG_ROSTER.iter().zip(roster) {
        match tag {
            Some(tag) => write_tag(game, tag, out),
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
    order.sort_by_key(|&i| game.bytes(game.tags[i as usize].name));
    for &i in order.iter() {
        write_tag(game, &game.tags[i as usize], out);
    }
}

/// `[Name "value"]` and a line break, the value unescaped, decoded and escaped again.
fn write_tag(game: &Game<'_>, tag: &Tag, out: &mut Vec<u8>) {
    out.push(b'[');
    out.extend_from_slice(game.bytes(tag.name));
    out.extend_from_slice(b" \"");
    let raw = game.bytes(tag.value);
    // The usual value (UTF-8, nothing escaped or to escape, on one line) is written as it stands.
    if game.field_encoding(raw) == Encoding::Utf8
        && !raw
            .iter()
            .any(|&b| matches!(b, b'\\' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(raw);
        out.extend_from_slice(b"\"]\n");
        return;
    }
    let value = game.tag_value(tag);
    let mut rest = value.as_ref();
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
    out.extend_from_slice(b"\"]\n");
}
