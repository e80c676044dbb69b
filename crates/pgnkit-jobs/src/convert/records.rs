//! What convert writes besides converted PGN: JSON lines records, and the mark on a game copied through.

use std::fmt::{self, Write as _};

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::localized;
use crate::messages::Locale;
use crate::validate::{Problem, report::termination_or_none};
use pgnkit::core::Termination;
use pgnkit::notation::Language;
use pgnkit::pgn::{Game, GameResult};
use pgnkit::walk::Confidence;

/// The tags of a game as a JSON object, in their order, values unescaped.
pub(super) struct TagsJson<'g, 'a>(pub(super) &'g Game<'a>);

impl Serialize for TagsJson<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let game = self.0;
        let mut map = s.serialize_map(Some(game.tags.len()))?;
        for tag in &game.tags {
            map.serialize_entry(game.tag_name(tag), game.tag_value(tag).as_ref())?;
        }
        map.end()
    }
}

#[derive(Serialize)]
pub(super) struct Record<'r, 'g, 'a> {
    pub(super) file: &'r str,
    pub(super) game: u64,
    pub(super) converted: bool,
    pub(super) tags: TagsJson<'g, 'a>,
    pub(super) lang: Language,
    pub(super) lang_confidence: Confidence,
    pub(super) result: GameResult,
    #[serde(serialize_with = "termination_or_none")]
    pub(super) termination: Option<Termination>,
    pub(super) plies: u32,
    pub(super) san: &'r str,
    pub(super) uci: &'r str,
}

#[derive(Serialize)]
pub(super) struct ErrorRecord {
    pub(super) line: u64,
    pub(super) column: u64,
    pub(super) message: String,
}

/// A game not converted, copied byte for byte but for one comment that says so and why, so a file half
/// converted can be searched for the games it still holds as they were: `{pgnkit: not converted: ...}`. The
/// copy is the game's [`Game::kept_span`]: its bytes from the first that is no blank space to the last, and the
/// blank lines after them (fifteen at most).
/// The comment goes before the movetext (after the tags); in a game without tags, after its first token (a
/// comment before it would belong to the game before, whose termination marker it would follow). It is in one
/// language, that of the messages (`locale`): `{pgnkit : partie non convertie : ...
/// (ligne 3, colonne 5)}` in French; both start `{pgnkit`.
pub(super) fn write_marked(game: &Game<'_>, problem: &Problem, locale: Locale, out: &mut Vec<u8>) {
    let source = game.source;
    let at = match game.tags.last() {
        Some(last) => game
            .tokens
            .iter()
            .find(|t| t.span.start >= last.span.end)
            .map_or(last.span.end as usize, |t| t.span.start as usize),
        None => game.tokens.first().map_or(0, |t| t.span.end as usize),
    };
    let reason: String = problem
        .message(locale)
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    // Not the rest of the blank space around the game: it is no game's, and how much of a long blank run the
    // reader kept depends on how the file was read.
    let kept = game.kept_span();
    let start = (kept.start as usize).min(at);
    let end = (kept.end as usize).max(at);
    out.extend_from_slice(&source[start..at]);
    if game.tags.is_empty() {
        out.push(b' ');
    }
    let (line, column) = (problem.line, problem.column);
    // A game read from a table's row is located in its row's text.
    let row = game.record.map_or(String::new(), |r| {
        localized!(
            locale,
            "row group {}, row {}, ",
            "groupe de rangées {}, rangée {}, ",
            r.group,
            r.row
        )
    });
    let _ = MarkWriter(out).write_str(&localized!(
        locale,
        "{{pgnkit: not converted: {reason} ({row}line {line}, column {column})}}",
        "{{pgnkit : partie non convertie : {reason} ({row}ligne {line}, colonne {column})}}"
    ));
    if !game.tags.is_empty() {
        out.push(b'\n');
    }
    out.extend_from_slice(&source[at..end]);
    // The next game must start on a line of its own.
    if !out.ends_with(b"\n") && !out.ends_with(b"\r") {
        out.push(b'\n');
    }
}

/// `fmt::Write` into a byte buffer.
pub(super) struct MarkWriter<'o>(&'o mut Vec<u8>);

impl fmt::Write for MarkWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[derive(Serialize)]
pub(super) struct InvalidRecord<'r, 'g, 'a> {
    pub(super) file: &'r str,
    pub(super) game: u64,
    pub(super) converted: bool,
    pub(super) tags: TagsJson<'g, 'a>,
    pub(super) error: ErrorRecord,
    pub(super) pgn: &'r str,
}
