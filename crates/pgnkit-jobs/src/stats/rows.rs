//! The rows' values: the per-game row and the per-move rows, written through [`Cells`] so that every
//! format ([`super::table`]) receives the same values.

use std::time::Duration;

use super::dates::{self, DateParts};
use super::spill::{CHECK_PLIES, Overflow, Spill, SpillError, Spillable, Spilled};
pub(crate) use super::table::GAME_HEADER;
use super::table::{Cells, Kind};
use super::{GameStats, MainLineSink, RowTags};
use crate::moves::{push_san_body, push_uci};
use pgnkit::core::{Color, Move, Position};
use pgnkit::core::{decimal, fen};
use pgnkit::notation::Language;
use pgnkit::pgn::{Eval, Game, Speed, Token, TokenKind, commands, parse_clock, parse_eval};
use pgnkit::walk::{MoveAt, Variant};

/// A per-game row as CSV fields, read back by column index: what `select --where` compares (a missing
/// value is an empty field, as in the CSV).
#[derive(Default)]
pub(crate) struct Row {
    record: csv::ByteRecord,
}

impl Row {
    /// Field `index` of the row, as written.
    pub(crate) fn get(&self, index: usize) -> Option<&[u8]> {
        self.record.get(index)
    }

    /// Empties the row for the next game.
    pub(crate) fn clear(&mut self) {
        self.record.clear();
    }
}

impl Cells for Row {
    fn text(&mut self, value: &str) {
        self.record.push_field(value.as_bytes());
    }

    fn int(&mut self, value: i64) {
        let mut buf = [0u8; 20];
        let digits = decimal::digits(value.unsigned_abs(), &mut buf);
        if value < 0 {
            let mut signed = Vec::with_capacity(digits.len() + 1);
            signed.push(b'-');
            signed.extend_from_slice(digits);
            self.record.push_field(&signed);
        } else {
            self.record.push_field(digits);
        }
    }

    fn flag(&mut self, value: bool) {
        self.record
            .push_field(if value { b"true" } else { b"false" });
    }

    fn seconds(&mut self, value: Duration) {
        let mut out = Vec::new();
        super::table::push_seconds(&mut out, value);
        self.record.push_field(&out);
    }

    fn nags(&mut self, nags: &[u8]) {
        let mut out = Vec::new();
        super::table::push_nags(&mut out, nags);
        self.record.push_field(&out);
    }

    fn null(&mut self) {
        self.record.push_field(b"");
    }

    fn end_row(&mut self) {}
}

/// An Elo tag as an integer: `None` when it is not one (`?`, `-`, empty) or out of any rating's range.
pub(crate) fn elo(value: &str) -> Option<i64> {
    let digits = value.trim_ascii();
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Writes one game's row: its fields ([`fill_game_row`]), then the values of `tags`, then those of the kept
/// columns, then the row's end. `scratch` is reused from game to game.
pub(crate) fn write_game(
    cells: &mut impl Cells,
    scratch: &mut String,
    file: &str,
    s: &GameStats<'_>,
    game: &Game<'_>,
    (tags, kept): (&[String], &[super::KeptColumn]),
) {
    fill_game_row(cells, scratch, file, s, true);
    push_tags(cells, game, tags);
    push_kept(cells, game, kept);
    cells.end_row();
}

/// The values of the kept columns, read back from the tags they became, typed as the columns were; no value
/// where a game lacks the tag or its text is not of the column's type (an input whose column differs).
fn push_kept(cells: &mut impl Cells, game: &Game<'_>, kept: &[super::KeptColumn]) {
    for column in kept {
        let Some(value) = game.tag(&column.tag) else {
            cells.null();
            continue;
        };
        match column.kind {
            Kind::Int64 => match value.parse::<i64>() {
                Ok(n) => cells.int(n),
                Err(_) => cells.null(),
            },
            Kind::Bool => match &*value {
                "true" => cells.flag(true),
                "false" => cells.flag(false),
                _ => cells.null(),
            },
            Kind::Date => match super::dates::DateParts::read(&value).day() {
                Some(day) => cells.date(day),
                None => cells.null(),
            },
            _ => cells.text(&value),
        }
    }
}

/// A tag's value, or no value when the game has no such tag.
fn tag_cell(cells: &mut impl Cells, tags: &RowTags<'_>, slot: usize, value: &str) {
    if tags.has(slot) {
        cells.text(value);
    } else {
        cells.null();
    }
}

/// Writes one game's fields, in [`GAME_HEADER`]'s order (then the typed columns when the cells are typed),
/// without ending the row: what [`write_game`] writes, and what `select --where` compares. Without
/// `final_fen` that field is left empty: writing a FEN is most of the cost of a row, and select needs it
/// only when asked for it.
pub(crate) fn fill_game_row(
    cells: &mut impl Cells,
    scratch: &mut String,
    file: &str,
    s: &GameStats<'_>,
    final_fen: bool,
) {
    use super::slot;
    let t = &s.tags;
    cells.text(file);
    cells.int(s.number as i64);
    let typed = cells.typed();
    // Read only for typed rows: text formats show the tag as written.
    let date = if typed && t.has(slot::DATE) {
        DateParts::read(&t.date)
    } else {
        DateParts::default()
    };
    for (k, value) in [(slot::EVENT, &t.event), (slot::SITE, &t.site)] {
        tag_cell(cells, t, k, value);
    }
    match date.day() {
        _ if !typed => tag_cell(cells, t, slot::DATE, &t.date),
        Some(day) => cells.date(day),
        None => cells.null(),
    }
    for (k, value) in [
        (slot::ROUND, &t.round),
        (slot::WHITE, &t.white),
        (slot::BLACK, &t.black),
    ] {
        tag_cell(cells, t, k, value);
    }
    for value in [&t.white_elo, &t.black_elo] {
        match elo(value) {
            Some(n) => cells.int(n),
            None => cells.null(),
        }
    }
    tag_cell(cells, t, slot::ECO, &t.eco);
    tag_cell(cells, t, slot::OPENING, &t.opening);
    tag_cell(cells, t, slot::RESULT, &t.result);
    let r = s.replayed.as_ref();
    cells.plain(r.and_then(|r| r.termination).map_or("none", |t| t.as_str()));
    match r {
        Some(r) => cells.plain(r.lang.code()),
        None => cells.null(),
    }
    cells.int(i64::from(s.plies));
    cells.flag(s.valid);
    cells.int(i64::from(s.errors));
    cells.opt_text(s.first_error.as_deref());
    let c = r.map(|r| r.counts).unwrap_or_default();
    for n in [
        c.checks,
        c.captures,
        c.castles[Color::White.index()],
        c.castles[Color::Black.index()],
        c.promotions,
        c.en_passant,
    ] {
        cells.int(i64::from(n));
    }
    match r {
        Some(r) if final_fen => {
            scratch.clear();
            fen::write_fen(&r.final_position, fen::CastlingStyle::XFen, scratch);
            cells.plain(scratch);
        }
        Some(_) => cells.plain(""),
        None => cells.null(),
    }
    // extras
    match s.marker {
        Some(m) => cells.plain(m.as_str()),
        None => cells.null(),
    }
    tag_cell(cells, t, slot::TERMINATION, &t.termination);
    tag_cell(cells, t, slot::TIME_CONTROL, &t.time_control);
    match r {
        Some(r) => cells.plain(match r.variant {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }),
        None => tag_cell(cells, t, slot::VARIANT, &t.variant),
    }
    scratch.clear();
    for claim in r.map_or(&[][..], |r| &r.claimable) {
        if !scratch.is_empty() {
            scratch.push(' ');
        }
        scratch.push_str(claim.as_str());
    }
    cells.plain(scratch);
    cells.int(i64::from(r.map_or(0, |r| r.variation_moves)));
    cells.int(s.line as i64);
    let opening = r.and_then(|r| r.opening);
    cells.opt_text(opening.map(|o| o.eco));
    cells.opt_text(opening.map(|o| o.name));
    match Speed::from_time_control(&t.time_control) {
        Some(speed) => cells.plain(speed.as_str()),
        None => cells.null(),
    }
    if typed {
        typed_dates(cells, t, date);
    }
}

/// Writes the columns typed rows add ([`super::table::TYPED_GAME_COLUMNS`]): the Date tag's known parts,
/// then UTCDate as a day and with UTCTime as an instant.
fn typed_dates(cells: &mut impl Cells, t: &RowTags<'_>, date: DateParts) {
    use super::slot;
    for part in [
        date.year,
        date.month.map(u16::from),
        date.day.map(u16::from),
    ] {
        match part {
            Some(n) => cells.int(i64::from(n)),
            None => cells.null(),
        }
    }
    let utc_day = if t.has(slot::UTC_DATE) {
        DateParts::read(&t.utc_date).day()
    } else {
        None
    };
    let utc_time = if t.has(slot::UTC_TIME) {
        dates::time_of_day(&t.utc_time)
    } else {
        None
    };
    match utc_day {
        Some(day) => cells.date(day),
        None => cells.null(),
    }
    match (utc_day, utc_time) {
        (Some(day), Some(seconds)) => cells.timestamp(day, seconds),
        _ => cells.null(),
    }
}

/// Appends the values of `tags` (`stats --tags`), each the game's first tag of that name, decoded; no value
/// when the game has none.
pub(crate) fn push_tags(cells: &mut impl Cells, game: &Game<'_>, tags: &[String]) {
    for name in tags {
        cells.opt_text(game.tag(name).as_deref());
    }
}

/// What the comments and NAGs after a main-line move say of it: those that follow it before the next move,
/// variation or termination marker.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct MoveNotes {
    /// The first `[%clk]`.
    pub(crate) clock: Option<Duration>,
    /// The first `[%eval]` that reads.
    pub(crate) eval: Option<Eval>,
    /// The first `[%emt]`.
    pub(crate) emt: Option<Duration>,
    /// The NAGs, a suffix glued to the move first.
    pub(crate) nags: Vec<u8>,
    /// The comments' text without `[%...]` commands, blanks collapsed, comments joined by a space.
    pub(crate) comment: String,
}

impl MoveNotes {
    /// Appends a comment's words, its commands left out.
    fn push_text(&mut self, text: &str) {
        // Commands are ASCII from `[` to `]`: their byte ranges fall on character boundaries.
        let mut at = 0;
        let words = |part: &str, comment: &mut String| {
            for word in part.split_whitespace() {
                if !comment.is_empty() {
                    comment.push(' ');
                }
                comment.push_str(word);
            }
        };
        for c in commands(text.as_bytes()) {
            words(&text[at..c.range.start], &mut self.comment);
            at = c.range.end;
        }
        words(&text[at..], &mut self.comment);
    }

    /// Reads the notes of the move at `move_index` in the game's tokens into `self` (cleared first).
    #[inline(always)]
    pub(crate) fn read(&mut self, game: &Game<'_>, move_index: usize) {
        self.clock = None;
        self.eval = None;
        self.emt = None;
        self.nags.clear();
        self.comment.clear();
        if let Some(TokenKind::Move(mt)) = game.tokens.get(move_index).map(|t| t.kind)
            && let Some(nag) = mt.suffix
        {
            self.nags.push(nag);
        }
        let after = game.tokens.get(move_index + 1..).unwrap_or_default();
        // Most moves have no notes: the next move follows at once, or after its number.
        let next_move = |kind: Option<&TokenKind>| matches!(kind, Some(TokenKind::Move(_)));
        match after.first().map(|t| &t.kind) {
            Some(TokenKind::Move(_)) => return,
            Some(TokenKind::MoveNumber { .. }) if next_move(after.get(1).map(|t| &t.kind)) => {
                return;
            }
            _ => {}
        }
        self.read_after(game, after);
    }

    /// The notes in `after`, the tokens after a move, up to the next move or variation. Kept out of line: the
    /// loop's registers would otherwise be saved and restored for every move, most of which have no notes.
    #[inline(never)]
    fn read_after(&mut self, game: &Game<'_>, after: &[Token]) {
        for token in after {
            match token.kind {
                TokenKind::Comment | TokenKind::LineComment => {
                    let bytes = game.comment_bytes(token.span);
                    // One pass over the commands; the text between them is decoded only when it is not
                    // blank (a lichess comment is commands alone).
                    let mut at = 0;
                    let mut has_text = false;
                    for c in commands(bytes) {
                        has_text |= !bytes[at..c.range.start].trim_ascii().is_empty();
                        at = c.range.end;
                        match c.name {
                            b"clk" if self.clock.is_none() => self.clock = parse_clock(c.value),
                            b"eval" if self.eval.is_none() => self.eval = parse_eval(c.value),
                            b"emt" if self.emt.is_none() => self.emt = parse_clock(c.value),
                            _ => {}
                        }
                    }
                    has_text |= !bytes[at..].trim_ascii().is_empty();
                    if has_text {
                        self.push_text(&game.comment(token.span));
                    }
                }
                TokenKind::Nag(n) => self.nags.push(n),
                TokenKind::Move(_)
                | TokenKind::VariationStart
                | TokenKind::VariationEnd
                | TokenKind::Result(_) => return,
                _ => {}
            }
        }
    }
}

/// The per-move rows of a batch, as a [`MainLineSink`] fed by the replay, written through `C`; past the
/// [`Spill`]'s threshold, the rows made so far go to a temporary file ([`super::spill`]).
pub(crate) struct MoveRows<'s, C> {
    cells: C,
    overflow: Overflow<'s>,
    file: String,
    /// The file name needs no quoting or escaping in any format ([`Cells::plain`]): checked once, not
    /// per row.
    file_is_plain: bool,
    game: u64,
    /// `game` in decimal, written on each of its rows.
    game_text: String,
    /// What [`MainLineSink::before_move`] works out from the position before the move, so that the position
    /// itself need not be kept: the SAN without its check mark, the UCI, the move number and the side.
    san: String,
    uci: String,
    fullmoves: u32,
    turn: Color,
    /// The FEN after the last row's move, and which (game, ply) that was: the next row's `fen_before`,
    /// written once.
    after_fen: String,
    after_fen_of: Option<(u64, u32)>,
    /// Consecutive positions share most ranks: it writes only the changed ones again.
    fen_writer: fen::FenWriter,
    notes: MoveNotes,
}

impl<'s, C: Cells + Spillable> MoveRows<'s, C> {
    /// Rows of `file` written through `cells`, all kept in them.
    pub(crate) fn new(cells: C, file: &str) -> Self {
        let mut rows = MoveRows {
            cells,
            overflow: Overflow::new(None),
            file: String::new(),
            file_is_plain: true,
            game: 0,
            game_text: String::from("0"),
            san: String::new(),
            uci: String::new(),
            fullmoves: 1,
            turn: Color::White,
            after_fen: String::new(),
            after_fen_of: None,
            fen_writer: fen::FenWriter::new(),
            notes: MoveNotes::default(),
        };
        rows.start_file(file);
        rows
    }

    /// The rows that follow are of `file`'s games (a batch of small texts taken together has several).
    pub(crate) fn start_file(&mut self, file: &str) {
        self.file.clear();
        self.file.push_str(file);
        self.file_is_plain = file
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_control() && !matches!(b, b',' | b'"' | b'\\'));
        // Game numbers start again: the FEN after another file's row is no row's `fen_before` here.
        self.after_fen_of = None;
    }

    /// The rows that follow belong to game `number` (1-based).
    pub(crate) fn start_game(&mut self, number: u64) {
        self.game = number;
        self.game_text.clear();
        decimal::push(&mut self.game_text, number);
    }

    /// The same, spilling rows as `spill` says (`None`: keeping them all).
    pub(crate) fn spilling(self, spill: Option<&'s Spill>) -> Self {
        MoveRows {
            overflow: Overflow::new(spill),
            ..self
        }
    }

    /// The cells, all rows written, with the rows that came before theirs when some were spilled.
    pub(crate) fn finish(self) -> (C, Result<Option<Spilled>, SpillError>) {
        (self.cells, self.overflow.finish())
    }

    /// Moves the rows held to the overflow if they have grown past its threshold. Called every
    /// [`CHECK_PLIES`] half-moves of a game, out of line: most games are shorter, and a batch of short
    /// games is bounded by the batch's size.
    #[cold]
    #[inline(never)]
    fn check_held(&mut self) {
        if self.overflow.is_due(self.cells.held_bytes()) {
            self.cells.spill(&mut self.overflow);
        }
    }

    /// Writes the row of the move announced by [`MainLineSink::before_move`], which produced `after`.
    fn row(&mut self, game: &Game<'_>, at: MoveAt<'_>, m: Option<&Move>, after: &Position) {
        let cells = &mut self.cells;
        if self.file_is_plain {
            cells.plain(&self.file);
        } else {
            cells.text(&self.file);
        }
        cells.int_as(self.game as i64, &self.game_text);
        cells.int(i64::from(at.ply));
        let check = after.is_check();
        match m {
            Some(_) => {
                // `CheckMark::after`, with the check already known.
                if check {
                    self.san
                        .push(if after.has_legal_move() { '+' } else { '#' });
                }
                cells.plain(&self.san);
                cells.plain(&self.uci);
            }
            None => {
                cells.plain("--");
                cells.plain("0000");
            }
        }
        // Written by `before_move`: the position after the previous row's move, or the one before this move.
        cells.plain(&self.after_fen);
        cells.flag(m.is_some_and(|m| m.is_capture()));
        cells.flag(check);
        self.notes.read(game, at.index);
        match self.notes.clock {
            Some(c) => cells.seconds(c),
            None => cells.null(),
        }
        cells.int(i64::from(self.fullmoves));
        cells.plain(match self.turn {
            Color::White => "white",
            Color::Black => "black",
        });
        self.after_fen.clear();
        self.fen_writer
            .write(after, fen::CastlingStyle::XFen, &mut self.after_fen);
        self.after_fen_of = Some((self.game, at.ply));
        cells.plain(&self.after_fen);
        match self.notes.eval {
            Some(Eval::Centipawns(cp)) => {
                cells.int(cp);
                cells.null();
            }
            Some(Eval::Mate(n)) => {
                cells.null();
                cells.int(n);
            }
            None => {
                cells.null();
                cells.null();
            }
        }
        match self.notes.emt {
            Some(t) => cells.seconds(t),
            None => cells.null(),
        }
        cells.nags(&self.notes.nags);
        if self.notes.comment.is_empty() {
            cells.null();
        } else {
            cells.text(&self.notes.comment);
        }
        cells.end_row();
    }
}

impl<C: Cells + Spillable> MainLineSink for MoveRows<'_, C> {
    #[inline(always)]
    fn before_move(
        &mut self,
        game: &Game<'_>,
        at: MoveAt<'_>,
        before: &Position,
        m: Option<&Move>,
    ) {
        // Between two rows: the rows of a long game so far may have to leave memory.
        if at.ply.is_multiple_of(CHECK_PLIES) {
            self.check_held();
        }
        if let Some(m) = m {
            // The token itself when it is canonical SAN (most are), else written from the move.
            let token = match at.token.kind {
                TokenKind::Move(mt) => game.san(&mt),
                _ => &[],
            };
            self.san.clear();
            push_san_body(&mut self.san, token, at.canonical, before, m, Language::En);
            self.uci.clear();
            push_uci(&mut self.uci, before, m);
        }
        self.fullmoves = before.fullmoves();
        self.turn = before.turn();
        // The position after the previous row's move is this row's before.
        if self.after_fen_of != Some((self.game, at.ply.wrapping_sub(1))) {
            self.after_fen.clear();
            self.fen_writer
                .write(before, fen::CastlingStyle::XFen, &mut self.after_fen);
        }
    }

    fn main_move(&mut self, game: &Game<'_>, at: MoveAt<'_>, m: Option<&Move>, after: &Position) {
        self.row(game, at, m, after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::game_stats;
    use crate::stats::table::CsvCells;
    use pgnkit::pgn::parse_all;

    #[test]
    fn seconds_are_whole_or_decimal() {
        let text = |d| {
            let mut out = Vec::new();
            super::super::table::push_seconds(&mut out, d);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(Duration::from_secs(180)), "180");
        assert_eq!(text(Duration::from_millis(3_723_500)), "3723.5");
        assert_eq!(text(Duration::new(0, 50_000_000)), "0.05");
    }

    #[test]
    fn elo_is_a_number_or_nothing() {
        assert_eq!(elo("2100"), Some(2100));
        assert_eq!(elo(" 1500 "), Some(1500));
        for not in ["", "?", "-", "21OO", "+2100", "12345678"] {
            assert_eq!(elo(not), None, "{not}");
        }
    }

    #[test]
    fn notes_gather_evals_elapsed_times_nags_and_the_comment_text() {
        let pgn = "1. e4!? $14 { [%eval 0.2] good [%clk 0:03:00] } { and\n more [%emt 0:00:04.5] } e5 \
                   { [%eval #-3] } ( 1... c5 { [%eval 9] } ) 2. Nf3 *";
        let games = parse_all(pgn.as_bytes());
        let game = &games[0];
        let at = |n: usize| {
            game.tokens
                .iter()
                .enumerate()
                .filter(|(_, t)| matches!(t.kind, TokenKind::Move(_)))
                .nth(n)
                .unwrap()
                .0
        };
        let mut notes = MoveNotes::default();
        notes.read(game, at(0));
        assert_eq!(notes.eval, Some(Eval::Centipawns(20)));
        assert_eq!(notes.clock, Some(Duration::from_secs(180)));
        assert_eq!(notes.emt, Some(Duration::from_millis(4500)));
        assert_eq!(notes.nags, [5, 14]);
        assert_eq!(notes.comment, "good and more");
        notes.read(game, at(1));
        assert_eq!((notes.eval, notes.clock), (Some(Eval::Mate(-3)), None));
        assert!(notes.nags.is_empty() && notes.comment.is_empty());
        notes.read(game, at(3));
        assert_eq!(notes, MoveNotes::default());
    }

    #[test]
    fn clocks_come_from_the_comment_after_the_move() {
        let pgn = b"1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } 2. Nf3 $1 {[%clk 1:00:00]} \
                    ( 2. Nc3 { [%clk 0:00:01] } ) 2... Nc6 (2... d6 {[%clk 0:00:09]}) { [%clk 0:00:07] } 3. Bc4 *";
        let games = parse_all(pgn);
        let game = &games[0];
        let moves: Vec<usize> = game
            .tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(t.kind, TokenKind::Move(_)))
            .map(|(i, _)| i)
            .collect();
        let mut notes = MoveNotes::default();
        let clocks: Vec<Option<u64>> = moves
            .iter()
            .map(|&i| {
                notes.read(game, i);
                notes.clock.map(|d| d.as_millis() as u64)
            })
            .collect();
        // e4, e5, Nf3, Nc3 (variation), Nc6, d6 (variation), Bc4
        assert_eq!(
            clocks,
            vec![
                Some(180_000),
                Some(178_500),
                Some(3_600_000),
                Some(1_000),
                // a comment after a variation is not read as the clock of the move before it
                None,
                Some(9_000),
                None
            ]
        );
    }

    fn csv_of(pgn: &str, per_move: bool) -> String {
        let games = parse_all(pgn.as_bytes());
        let file = std::sync::Arc::from("t.pgn");
        let mut buf = Vec::new();
        if per_move {
            let mut sink = MoveRows::new(CsvCells::new(&mut buf), "t.pgn");
            for game in &games {
                sink.start_game(game.index + 1);
                game_stats(game, &file, None, &mut sink);
            }
        } else {
            let mut cells = CsvCells::new(&mut buf);
            let mut scratch = String::new();
            for game in &games {
                let s = game_stats(game, &file, None, &mut ());
                write_game(&mut cells, &mut scratch, "t.pgn", &s, game, (&[], &[]));
            }
        }
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn a_game_row() {
        let out = csv_of(
            "[Event \"Club, \\\"A\\\"\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[WhiteElo \"2100\"]\n[Result \"0-1\"]\n[ECO \"C20\"]\n\n\
             1. f3 e5 2. g4 Qh4# 0-1\n",
            false,
        );
        assert_eq!(
            out,
            "t.pgn,1,\"Club, \"\"A\"\"\",,,,Ann,Bob,2100,,C20,,0-1,checkmate,en,4,true,0,,1,0,0,0,0,0,\
             rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3,0-1,,,standard,,0,1,A00,\
             Barnes Opening: Fool's Mate,\n"
        );
    }

    /// Games with every kind of Date, UTCDate and UTCTime, and their typed values: (date as ISO text,
    /// year, month, day, utc_date, utc_timestamp in microseconds).
    #[allow(clippy::type_complexity)]
    const DATED: [(
        &str,
        (
            Option<&str>,
            Option<i32>,
            Option<i32>,
            Option<i32>,
            Option<&str>,
            Option<i64>,
        ),
    ); 8] = [
        (
            "[Date \"2025.05.17\"]\n[UTCDate \"2025.05.01\"]\n[UTCTime \"00:00:07\"]",
            (
                Some("2025-05-17"),
                Some(2025),
                Some(5),
                Some(17),
                Some("2025-05-01"),
                Some(1_746_057_607_000_000),
            ),
        ),
        (
            "[Date \"2025.05.??\"]\n[UTCDate \"2025.05.01\"]",
            (None, Some(2025), Some(5), None, Some("2025-05-01"), None),
        ),
        (
            "[Date \"2025.02.30\"]\n[UTCTime \"00:00:07\"]",
            (None, Some(2025), Some(2), Some(30), None, None),
        ),
        (
            "[Date \"????.??.??\"]",
            (None, None, None, None, None, None),
        ),
        (
            "[Date \"1000.??.??\"]",
            (None, Some(1000), None, None, None, None),
        ),
        (
            "[Date \" 1547.05.01 \"]\n[UTCDate \"2025.05.01\"]\n[UTCTime \"7pm\"]",
            (
                Some("1547-05-01"),
                Some(1547),
                Some(5),
                Some(1),
                Some("2025-05-01"),
                None,
            ),
        ),
        (
            "[Date \"2025.13.01\"]\n[UTCDate \"2025.02.29\"]",
            (None, None, None, None, None, None),
        ),
        ("[Event \"no date\"]", (None, None, None, None, None, None)),
    ];

    #[test]
    fn typed_rows_have_dates_as_days_and_text_rows_keep_the_tags() {
        use crate::stats::columnar::{ArrowCells, schema};
        use crate::stats::table::{GAME_COLUMNS, TYPED_GAME_COLUMNS};
        use arrow_array::Array;
        use arrow_array::cast::AsArray;
        use arrow_array::types::{Date32Type, Int32Type, TimestampMicrosecondType};

        let pgn: String = DATED
            .iter()
            .map(|(tags, _)| format!("{tags}\n\n1. e4 *\n\n"))
            .collect();
        let games = parse_all(pgn.as_bytes());
        assert_eq!(games.len(), DATED.len());
        let file = std::sync::Arc::from("t.pgn");
        let schema = schema(GAME_COLUMNS.iter().chain(&TYPED_GAME_COLUMNS));
        let mut cells = ArrowCells::new(&schema, games.len());
        let mut csv = Vec::new();
        let mut text = CsvCells::new(&mut csv);
        let mut scratch = String::new();
        for game in &games {
            let s = game_stats(game, &file, None, &mut ());
            write_game(&mut cells, &mut scratch, "t.pgn", &s, game, (&[], &[]));
            write_game(&mut text, &mut scratch, "t.pgn", &s, game, (&[], &[]));
        }
        let batch = cells.finish().unwrap();
        let column = |name: &str| batch.column(batch.schema().index_of(name).unwrap()).clone();
        let date = column("date");
        let utc_date = column("utc_date");
        let instant = column("utc_timestamp");
        let (year, month, day) = (column("year"), column("month"), column("day"));
        let iso = |a: &arrow_array::ArrayRef, i: usize| {
            a.as_primitive::<Date32Type>()
                .value_as_date(i)
                .filter(|_| a.is_valid(i))
                .map(|d| d.to_string())
        };
        let int = |a: &arrow_array::ArrayRef, i: usize| {
            a.is_valid(i)
                .then(|| a.as_primitive::<Int32Type>().value(i))
        };
        for (i, (tags, want)) in DATED.iter().enumerate() {
            let got = (
                iso(&date, i),
                int(&year, i),
                int(&month, i),
                int(&day, i),
                iso(&utc_date, i),
                instant
                    .is_valid(i)
                    .then(|| instant.as_primitive::<TimestampMicrosecondType>().value(i)),
            );
            let want = (
                want.0.map(String::from),
                want.1,
                want.2,
                want.3,
                want.4.map(String::from),
                want.5,
            );
            assert_eq!(got, want, "{tags}");
        }
        // The text rows: the Date tag as written, no more columns than their header's.
        let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&csv[..])
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        let dates: Vec<&str> = rows.iter().map(|r| r[4].as_str()).collect();
        assert_eq!(
            dates,
            [
                "2025.05.17",
                "2025.05.??",
                "2025.02.30",
                "????.??.??",
                "1000.??.??",
                " 1547.05.01 ",
                "2025.13.01",
                ""
            ]
        );
        assert!(rows.iter().all(|r| r.len() == GAME_COLUMNS.len()));
    }

    #[test]
    fn per_move_rows() {
        let out = csv_of(
            "1. e4 {[%clk 0:03:00]} d5 2. exd5 -- 3. d4 *\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *",
            true,
        );
        assert_eq!(
            out,
            "t.pgn,1,1,e4,e2e4,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,false,false,180,1,white,\
             rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,,,,,\n\
             t.pgn,1,2,d5,d7d5,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,false,false,,1,black,\
             rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2,,,,,\n\
             t.pgn,1,3,exd5,e4d5,rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2,true,false,,2,white,\
             rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2,,,,,\n\
             t.pgn,1,4,--,0000,rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2,false,false,,2,black,\
             rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 1 3,,,,,\n\
             t.pgn,1,5,d4,d2d4,rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 1 3,false,false,,3,white,\
             rnbqkbnr/ppp1pppp/8/3P4/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3,,,,,\n"
        );
    }
}
