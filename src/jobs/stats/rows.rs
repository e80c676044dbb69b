//! The CSV rows: headers, the per-game row and the per-move rows, written straight into a batch's buffer.
//!
//! RFC 4180 as the `csv` crate writes it: comma-separated, a field quoted only when it holds a comma, a
//! quote or a line break (quotes doubled), records ended by `\n`, UTF-8 throughout (Windows-1252 games are
//! decoded). Booleans are `true`/`false`; a missing value is an empty field.

use std::io;
use std::time::Duration;

use super::{GameStats, MainLineSink};
use crate::jobs::moves::{push_san, push_uci};
use pgnkit::core::{Color, Move, Position};
use pgnkit::core::{decimal, fen};
use pgnkit::notation::Language;
use pgnkit::pgn::{Eval, Game, Speed, TokenKind, commands, parse_clock, parse_eval};
use pgnkit::walk::{MoveAt, Variant};

/// Columns of the per-game CSV: the 26 in their order, then extras.
pub(crate) const GAME_HEADER: [&str; 36] = [
    "file",
    "game",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "eco",
    "opening",
    "result",
    "termination",
    "lang",
    "plies",
    "valid",
    "errors",
    "first_error",
    "checks",
    "captures",
    "castles_white",
    "castles_black",
    "promotions",
    "en_passant",
    "final_fen",
    // extras
    "marker",
    "termination_tag",
    "time_control",
    "variant",
    "claimable",
    "variation_moves",
    "line",
    "opening_eco",
    "opening_name",
    "time_control_category",
];

/// The per-game columns that come from the tags and the game's place in its file: reading them needs no
/// replay (`select --where` on them alone skips it).
pub(crate) const TAG_COLUMNS: [&str; 18] = [
    "file",
    "game",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "eco",
    "opening",
    "result",
    "marker",
    "termination_tag",
    "time_control",
    "line",
    "time_control_category",
];

/// Columns of the per-move CSV.
pub(crate) const MOVE_HEADER: [&str; 17] = [
    "file",
    "game",
    "ply",
    "san",
    "uci",
    "fen_before",
    "is_capture",
    "is_check",
    "clock",
    "move_number",
    "color",
    "fen",
    "eval_cp",
    "eval_mate",
    "emt",
    "nags",
    "comment",
];

/// A CSV writer with pgnkit's settings (no automatic header: the output side writes it once).
pub(crate) fn writer<W: io::Write>(w: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(1 << 16)
        .from_writer(w)
}

/// Writes a header record.
pub(crate) fn write_header<W: io::Write>(
    w: &mut csv::Writer<W>,
    header: &[&str],
) -> csv::Result<()> {
    w.write_record(header)
}

/// A row being built: fields are collected in a reused [`csv::ByteRecord`] and written in one call, which
/// takes the `csv` crate's fast path (one copy, quoting only where needed) instead of its field-at-a-time
/// state machine.
#[derive(Default)]
pub(crate) struct Row {
    record: csv::ByteRecord,
    text: String,
}

impl Row {
    #[inline]
    fn field(&mut self, bytes: impl AsRef<[u8]>) {
        self.record.push_field(bytes.as_ref());
    }

    #[inline]
    fn num(&mut self, n: impl Into<u64>) {
        let mut buf = [0u8; 20];
        self.record.push_field(decimal::digits(n.into(), &mut buf));
    }

    /// The FEN of a position, written without a String of its own.
    #[inline]
    fn fen(&mut self, pos: &Position) {
        self.text.clear();
        fen::write_fen(pos, fen::CastlingStyle::XFen, &mut self.text);
        self.record.push_field(self.text.as_bytes());
    }

    #[inline]
    fn flag(&mut self, b: bool) {
        self.record.push_field(if b { b"true" } else { b"false" });
    }

    /// Field `index` of the row, as written.
    pub(crate) fn get(&self, index: usize) -> Option<&[u8]> {
        self.record.get(index)
    }

    /// Writes the row and clears it for the next one.
    #[inline]
    fn finish<W: io::Write>(&mut self, w: &mut csv::Writer<W>) -> csv::Result<()> {
        let written = w.write_byte_record(&self.record);
        self.record.clear();
        written
    }
}

/// Writes one game's row (`row` is scratch space, reused from game to game), then the values of `tags`.
pub(crate) fn write_game<W: io::Write>(
    w: &mut csv::Writer<W>,
    file: &str,
    s: &GameStats<'_>,
    game: &Game<'_>,
    tags: &[String],
    row: &mut Row,
) -> csv::Result<()> {
    fill_game_row(row, file, s, true);
    push_tags(row, game, tags);
    row.finish(w)
}

/// Fills `row` with one game's fields, in [`GAME_HEADER`]'s order (`row` is cleared first): what
/// [`write_game`] writes, and what `select --where` compares. Without `final_fen` that field is left
/// empty: writing a FEN is most of the cost of a row, and select needs it only when asked for it.
pub(crate) fn fill_game_row(row: &mut Row, file: &str, s: &GameStats<'_>, final_fen: bool) {
    row.record.clear();
    let t = &s.tags;
    row.field(file);
    row.num(s.number);
    for value in [
        &t.event,
        &t.site,
        &t.date,
        &t.round,
        &t.white,
        &t.black,
        &t.white_elo,
        &t.black_elo,
        &t.eco,
        &t.opening,
        &t.result,
    ] {
        row.field(value.as_bytes());
    }
    let r = s.replayed.as_ref();
    row.field(r.and_then(|r| r.termination).map_or("none", |t| t.as_str()));
    row.field(r.map_or("", |r| r.lang.code()));
    row.num(s.plies);
    row.flag(s.valid);
    row.num(s.errors);
    row.field(s.first_error.as_deref().unwrap_or(""));
    let c = r.map(|r| r.counts).unwrap_or_default();
    row.num(c.checks);
    row.num(c.captures);
    row.num(c.castles[Color::White.index()]);
    row.num(c.castles[Color::Black.index()]);
    row.num(c.promotions);
    row.num(c.en_passant);
    match r {
        Some(r) if final_fen => row.fen(&r.final_position),
        _ => row.field(""),
    }
    // extras
    row.field(s.marker.map_or("", |m| m.as_str()));
    row.field(t.termination.as_bytes());
    row.field(t.time_control.as_bytes());
    match r {
        Some(r) => row.field(match r.variant {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }),
        None => row.field(t.variant.as_bytes()),
    }
    row.text.clear();
    for claim in r.map_or(&[][..], |r| &r.claimable) {
        if !row.text.is_empty() {
            row.text.push(' ');
        }
        row.text.push_str(claim.as_str());
    }
    row.record.push_field(row.text.as_bytes());
    row.num(r.map_or(0, |r| r.variation_moves));
    row.num(s.line);
    let opening = r.and_then(|r| r.opening);
    row.field(opening.map_or("", |o| o.eco));
    row.field(opening.map_or("", |o| o.name));
    row.field(Speed::from_time_control(&t.time_control).map_or("", Speed::as_str));
}

/// Appends the values of `tags` (`stats --tags`), each the game's first tag of that name, decoded; empty
/// when the game has none.
pub(crate) fn push_tags(row: &mut Row, game: &Game<'_>, tags: &[String]) {
    for name in tags {
        match game.tag(name) {
            Some(value) => row.field(value.as_bytes()),
            None => row.field(""),
        }
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
        for token in game.tokens.get(move_index + 1..).unwrap_or_default() {
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

/// Seconds, as `180` or `179.5` (fractions as written, trailing zeros dropped).
pub(crate) fn write_seconds(out: &mut String, d: Duration) {
    decimal::push(out, d.as_secs());
    let nanos = d.subsec_nanos();
    if nanos != 0 {
        out.push('.');
        decimal::push_nanos(out, nanos);
    }
}

/// The per-move rows of a batch, as a [`MainLineSink`] fed by the replay, appended to a byte buffer.
///
/// Written without the `csv` crate: a per-move row is mostly FENs, SAN and numbers, which never need
/// quoting, and copying them straight in costs far less than the crate's byte-by-byte check of every field.
/// The two fields that may need quoting (the file name and the comment) are quoted as the crate quotes
/// (only when they hold a comma, a quote or a line break; quotes doubled), so the output is what the crate
/// would write.
pub(crate) struct MoveRows<'w> {
    out: &'w mut Vec<u8>,
    /// The file name as a CSV field, quoted if it must be.
    file: Vec<u8>,
    game: u64,
    text: String,
    /// The position before the move being written, kept between the sink's two calls.
    before: Position,
    /// The FEN after the last row's move, and which (game, ply) that was.
    after_fen: String,
    after_fen_of: Option<(u64, u32)>,
    notes: MoveNotes,
}

/// Appends `field` as a CSV field: quoted, quotes doubled, when it holds a comma, a quote or a line break.
fn push_csv_field(out: &mut Vec<u8>, field: &[u8]) {
    if field
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.push(b'"');
        for &b in field {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field);
    }
}

impl<'w> MoveRows<'w> {
    pub(crate) fn new(out: &'w mut Vec<u8>, file: &str) -> Self {
        let mut quoted = Vec::new();
        push_csv_field(&mut quoted, file.as_bytes());
        MoveRows {
            out,
            file: quoted,
            game: 0,
            text: String::new(),
            before: Position::new(),
            after_fen: String::new(),
            after_fen_of: None,
            notes: MoveNotes::default(),
        }
    }

    /// The rows that follow belong to game `number` (1-based).
    pub(crate) fn start_game(&mut self, number: u64) {
        self.game = number;
    }

    fn num(&mut self, n: u64) {
        let mut buf = [0u8; 20];
        self.out.extend_from_slice(decimal::digits(n, &mut buf));
    }

    fn signed(&mut self, n: i64) {
        if n < 0 {
            self.out.push(b'-');
        }
        self.num(n.unsigned_abs());
    }

    fn flag(&mut self, b: bool) {
        self.out
            .extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// Writes the row of a move from [`MainLineSink::before_move`]'s position to `after`.
    fn row(&mut self, game: &Game<'_>, at: MoveAt<'_>, m: Option<&Move>, after: &Position) {
        let before = self.before;
        self.out.extend_from_slice(&self.file);
        self.out.push(b',');
        self.num(self.game);
        self.out.push(b',');
        self.num(u64::from(at.ply));
        self.out.push(b',');
        match m {
            Some(m) => {
                // convert's writers: the same text as the notation layer's `Display`, without `fmt`.
                self.text.clear();
                push_san(&mut self.text, &before, m, after, Language::En);
                self.text.push(',');
                push_uci(&mut self.text, &before, m);
                self.out.extend_from_slice(self.text.as_bytes());
            }
            None => self.out.extend_from_slice(b"--,0000"),
        }
        self.out.push(b',');
        // The position after the previous row's move is this row's before: written once.
        if self.after_fen_of != Some((self.game, at.ply.wrapping_sub(1))) {
            self.after_fen.clear();
            fen::write_fen(&before, fen::CastlingStyle::XFen, &mut self.after_fen);
        }
        self.out.extend_from_slice(self.after_fen.as_bytes());
        self.out.push(b',');
        self.flag(m.is_some_and(|m| m.is_capture()));
        self.out.push(b',');
        self.flag(after.is_check());
        self.out.push(b',');
        self.notes.read(game, at.index);
        if let Some(c) = self.notes.clock {
            self.text.clear();
            write_seconds(&mut self.text, c);
            self.out.extend_from_slice(self.text.as_bytes());
        }
        self.out.push(b',');
        self.num(u64::from(before.fullmoves()));
        self.out.extend_from_slice(match before.turn() {
            Color::White => b",white,",
            Color::Black => b",black,",
        });
        self.after_fen.clear();
        fen::write_fen(after, fen::CastlingStyle::XFen, &mut self.after_fen);
        self.after_fen_of = Some((self.game, at.ply));
        self.out.extend_from_slice(self.after_fen.as_bytes());
        self.out.push(b',');
        match self.notes.eval {
            Some(Eval::Centipawns(cp)) => {
                self.signed(cp);
                self.out.push(b',');
            }
            Some(Eval::Mate(n)) => {
                self.out.push(b',');
                self.signed(n);
            }
            None => self.out.push(b','),
        }
        self.out.push(b',');
        if let Some(t) = self.notes.emt {
            self.text.clear();
            write_seconds(&mut self.text, t);
            self.out.extend_from_slice(self.text.as_bytes());
        }
        self.out.push(b',');
        for (i, nag) in self.notes.nags.iter().enumerate() {
            if i > 0 {
                self.out.push(b' ');
            }
            let mut buf = [0u8; 20];
            self.out
                .extend_from_slice(decimal::digits(u64::from(*nag), &mut buf));
        }
        self.out.push(b',');
        push_csv_field(self.out, self.notes.comment.as_bytes());
        self.out.push(b'\n');
    }
}

impl MainLineSink for MoveRows<'_> {
    #[inline(always)]
    fn before_move(&mut self, _: &Game<'_>, _: MoveAt<'_>, before: &Position) {
        self.before = *before;
    }

    fn main_move(&mut self, game: &Game<'_>, at: MoveAt<'_>, m: Option<&Move>, after: &Position) {
        self.row(game, at, m, after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::stats::game_stats;
    use pgnkit::pgn::parse_all;

    #[test]
    fn seconds_are_whole_or_decimal() {
        let mut s = String::new();
        write_seconds(&mut s, Duration::from_secs(180));
        assert_eq!(s, "180");
        s.clear();
        write_seconds(&mut s, Duration::from_millis(3_723_500));
        assert_eq!(s, "3723.5");
        s.clear();
        write_seconds(&mut s, Duration::new(0, 50_000_000));
        assert_eq!(s, "0.05");
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
        let mut buf = Vec::new();
        {
            if per_move {
                let mut sink = MoveRows::new(&mut buf, "t.pgn");
                for game in &games {
                    sink.start_game(game.index + 1);
                    game_stats(game, &std::sync::Arc::from("t.pgn"), None, &mut sink);
                }
                return String::from_utf8(buf).unwrap();
            }
            let mut w = writer(&mut buf);
            let mut row = Row::default();
            for game in &games {
                {
                    let s = game_stats(game, &std::sync::Arc::from("t.pgn"), None, &mut ());
                    write_game(&mut w, "t.pgn", &s, game, &[], &mut row).unwrap();
                }
            }
            w.flush().unwrap();
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
