//! The tables stats writes, described once: each column's name, type and whether it can be missing, and
//! the [`Cells`] trait through which a row is written. The row code ([`super::rows`]) says what the values
//! are; a format says how a value is spelled: CSV ([`CsvCells`], and [`super::rows::Row`] for select), JSON
//! lines ([`JsonCells`]) or Arrow arrays bound for Parquet ([`super::columnar::ArrowCells`]). One row code
//! for three formats is what makes them agree row for row. Typed tables differ in one way, stated here:
//! dates are days there, and the per-game rows have [`TYPED_GAME_COLUMNS`] too.

use std::time::Duration;

use super::dates::Day;
use super::spill::{Overflow, Spillable};
use pgnkit::buffer::{contains_any, push_bytes, push_bytes_then};
use pgnkit::core::decimal;

/// The type of a column's values, the same in every format but for [`Kind::Date`] in the text ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// UTF-8 text.
    Text,
    /// A 32-bit signed integer (counts, Elo ratings: values bounded where they are read).
    Int32,
    /// A 64-bit signed integer (game numbers, lines, move numbers, evaluations: no small bound).
    Int64,
    /// `true` or `false`.
    Bool,
    /// A duration in seconds, fractions kept (a 64-bit float in Parquet).
    Seconds,
    /// A list of Numeric Annotation Glyphs, `$n` as `n` (space-separated in CSV).
    Nags,
    /// A calendar day (Arrow `Date32`), in typed tables. The `date` column is one only there: CSV and JSON
    /// lines keep the Date tag as written ([`Cells::typed`]).
    Date,
    /// An instant in UTC, to the microsecond (Arrow `Timestamp(Microsecond, "UTC")`).
    Timestamp,
}

/// One column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Column<'n> {
    /// The name, the same in every format.
    pub(crate) name: &'n str,
    pub(crate) kind: Kind,
    /// Whether a row may have no value (an empty CSV field, JSON `null`, a Parquet null).
    pub(crate) nullable: bool,
    /// Whether the value comes from the tags and the game's place in its file alone: reading it needs no
    /// replay (`select --where` on such columns skips it).
    pub(crate) without_replay: bool,
}

const fn col(name: &str, kind: Kind, nullable: bool, without_replay: bool) -> Column<'_> {
    Column {
        name,
        kind,
        nullable,
        without_replay,
    }
}

/// A tag's value: missing when the game has no such tag.
const fn tag(name: &str) -> Column<'_> {
    col(name, Kind::Text, true, true)
}

/// A value the replay gives.
const fn replayed(name: &str, kind: Kind) -> Column<'_> {
    col(name, kind, false, false)
}

/// Columns of the per-game rows: the 26 the first stats issue asked for in their order, then extras (new
/// columns go last, so scripts that read columns by position keep working).
pub(crate) const GAME_COLUMNS: [Column<'static>; 36] = [
    col("file", Kind::Text, false, true),
    col("game", Kind::Int64, false, true),
    tag("event"),
    tag("site"),
    // The Date tag: its text in CSV and JSON lines, a day in typed tables (null unless complete and real),
    // whose parts are `year`, `month` and `day` ([`TYPED_GAME_COLUMNS`]).
    col("date", Kind::Date, true, true),
    tag("round"),
    tag("white"),
    tag("black"),
    // The tag read as an integer: missing when absent or not a number (`?`, `-`).
    col("white_elo", Kind::Int32, true, true),
    col("black_elo", Kind::Int32, true, true),
    tag("eco"),
    tag("opening"),
    tag("result"),
    // `none` when the game ends without a rule ending it, or cannot be replayed.
    replayed("termination", Kind::Text),
    // Missing when the game cannot be replayed (unsupported variant, illegal FEN tag).
    col("lang", Kind::Text, true, false),
    replayed("plies", Kind::Int32),
    replayed("valid", Kind::Bool),
    replayed("errors", Kind::Int32),
    col("first_error", Kind::Text, true, false),
    replayed("checks", Kind::Int32),
    replayed("captures", Kind::Int32),
    replayed("castles_white", Kind::Int32),
    replayed("castles_black", Kind::Int32),
    replayed("promotions", Kind::Int32),
    replayed("en_passant", Kind::Int32),
    col("final_fen", Kind::Text, true, false),
    // extras
    // The termination marker after the moves (`1-0`, `*`...): missing when the movetext has none.
    col("marker", Kind::Text, true, true),
    tag("termination_tag"),
    tag("time_control"),
    // `standard` or `chess960` when replayed, else the Variant tag as written.
    col("variant", Kind::Text, true, false),
    // The draws the player to move may claim at the end, space-separated; empty when none.
    replayed("claimable", Kind::Text),
    replayed("variation_moves", Kind::Int32),
    col("line", Kind::Int64, false, true),
    col("opening_eco", Kind::Text, true, false),
    col("opening_name", Kind::Text, true, false),
    col("time_control_category", Kind::Text, true, true),
];

/// Columns that typed tables (Parquet, Arrow) add to the per-game rows, after [`GAME_COLUMNS`] and before
/// any `--tags`: what CSV and JSON lines leave to the reader, dates taken apart ([`super::dates`]). Their
/// text columns stay first and in the same order, so the same position names the same column in every
/// format. Parts are 32-bit, as every SQL engine's `year()` gives them; Parquet stores an 8-bit integer as
/// 32 bits anyway.
pub(crate) const TYPED_GAME_COLUMNS: [Column<'static>; 5] = [
    // The known parts of the Date tag, also when the date is partial (`2025.05.??`) or no real day
    // (`2025.02.30`): `date` is set exactly when the three make a day.
    col("year", Kind::Int32, true, true),
    col("month", Kind::Int32, true, true),
    col("day", Kind::Int32, true, true),
    // UTCDate, and UTCDate with UTCTime as one instant. No time-of-day column: Spark refuses a whole file
    // that holds Parquet's TIME type, and the instant gives the hour to every engine.
    col("utc_date", Kind::Date, true, true),
    col("utc_timestamp", Kind::Timestamp, true, true),
];

/// Columns of the per-move rows.
pub(crate) const MOVE_COLUMNS: [Column<'static>; 17] = [
    replayed("file", Kind::Text),
    replayed("game", Kind::Int64),
    replayed("ply", Kind::Int32),
    replayed("san", Kind::Text),
    replayed("uci", Kind::Text),
    replayed("fen_before", Kind::Text),
    replayed("is_capture", Kind::Bool),
    replayed("is_check", Kind::Bool),
    // `[%clk]` after the move, in seconds.
    col("clock", Kind::Seconds, true, false),
    // From the position's fullmove counter, which a FEN tag may set beyond 32 bits.
    replayed("move_number", Kind::Int64),
    replayed("color", Kind::Text),
    replayed("fen", Kind::Text),
    // `[%eval]` from White's view: exactly one of the two is set when the move has one. 64 bits: a comment
    // may say anything, and every format must hold the same value.
    col("eval_cp", Kind::Int64, true, false),
    col("eval_mate", Kind::Int64, true, false),
    // `[%emt]`, the time the move took, in seconds.
    col("emt", Kind::Seconds, true, false),
    replayed("nags", Kind::Nags),
    // The comments' text without `[%...]` commands: missing when there is none.
    col("comment", Kind::Text, true, false),
];

const fn names<const N: usize>(columns: &[Column<'static>; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = columns[i].name;
        i += 1;
    }
    out
}

/// The names of [`GAME_COLUMNS`].
pub(crate) const GAME_HEADER: [&str; 36] = names(&GAME_COLUMNS);

/// Whether the per-game column `name` needs no replay ([`Column::without_replay`]).
pub(crate) fn without_replay(name: &str) -> bool {
    GAME_COLUMNS
        .iter()
        .any(|c| c.name == name && c.without_replay)
}

/// A `--keep-columns` column: missing when the game has no value for it.
pub(crate) fn kept_column(name: &str, kind: Kind) -> Column<'_> {
    col(name, kind, true, true)
}

/// A `--tags` column: text, missing when the game has no such tag.
pub(crate) fn tag_column(name: &str) -> Column<'_> {
    tag(name)
}

/// Receives a row's values in column order, each by its [`Kind`], then [`Cells::end_row`].
pub(crate) trait Cells {
    /// Any text.
    fn text(&mut self, value: &str);
    /// ASCII text that no format needs to quote or escape (no comma, quote, backslash or control
    /// character): FENs, SAN, UCI, fixed words.
    fn plain(&mut self, value: &str) {
        self.text(value);
    }
    fn int(&mut self, value: i64);
    /// An integer given with its decimal text, which the caller keeps because the value repeats over many
    /// rows (a game's number on each of its moves): formats that write numbers as text copy it instead of
    /// formatting the number again. `decimal` must be `value` written in decimal.
    fn int_as(&mut self, value: i64, decimal: &str) {
        debug_assert_eq!(decimal, value.to_string());
        self.int(value);
    }
    fn flag(&mut self, value: bool);
    fn seconds(&mut self, value: Duration);
    /// A day, as ISO 8601 text unless the format has a type for it.
    fn date(&mut self, day: Day) {
        self.plain(&day.to_string());
    }
    /// `seconds` into `day`, UTC, as ISO 8601 text unless the format has a type for it.
    fn timestamp(&mut self, day: Day, seconds: u32) {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        self.plain(&format!("{day}T{h:02}:{m:02}:{s:02}Z"));
    }
    /// Whether the rows are typed (Arrow, for Parquet): dates are then days ([`Kind::Date`]) and the rows
    /// have [`TYPED_GAME_COLUMNS`]; text formats keep the tags as written.
    fn typed(&self) -> bool {
        false
    }
    fn nags(&mut self, nags: &[u8]);
    /// No value.
    fn null(&mut self);
    fn end_row(&mut self);

    /// Text, or no value.
    fn opt_text(&mut self, value: Option<&str>) {
        match value {
            Some(v) => self.text(v),
            None => self.null(),
        }
    }
}

/// Appends `field` as a CSV field: quoted, quotes doubled, when it holds a comma, a quote or a line break
/// (RFC 4180 as the `csv` crate writes it).
pub(crate) fn push_csv_field(out: &mut Vec<u8>, field: &[u8]) {
    if contains_any(field, [b',', b'"', b'\n', b'\r'], false) {
        out.push(b'"');
        for &b in field {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        push_bytes(out, field);
    }
}

/// Appends a signed integer in decimal.
#[inline(always)]
fn push_int(out: &mut Vec<u8>, n: i64) {
    // One digit is most of what rows hold (plies and move numbers of an opening, NAGs, counts).
    if (0..10).contains(&n) {
        out.push(b'0' + n as u8);
        return;
    }
    if n < 0 {
        out.push(b'-');
    }
    let mut buf = [0u8; 20];
    push_bytes(out, decimal::digits(n.unsigned_abs(), &mut buf));
}

/// Seconds, as `180` or `179.5` (fractions as written, trailing zeros dropped): a JSON number too.
pub(crate) fn push_seconds(out: &mut Vec<u8>, d: Duration) {
    let mut buf = [0u8; 20];
    out.extend_from_slice(decimal::digits(d.as_secs(), &mut buf));
    let nanos = d.subsec_nanos();
    if nanos != 0 {
        let mut text = String::with_capacity(10);
        text.push('.');
        decimal::push_nanos(&mut text, nanos);
        out.extend_from_slice(text.as_bytes());
    }
}

/// CSV rows appended to a byte buffer: comma-separated, `\n`-terminated, a field quoted only when it must
/// be, booleans `true`/`false`, no value an empty field, NAGs space-separated.
///
/// Each cell is written with a comma after it, and the row's last comma becomes its line break: a row has
/// tens of cells and millions of rows are written, so no cell asks whether it is the first.
pub(crate) struct CsvCells<'w> {
    out: &'w mut Vec<u8>,
    /// Where the row being written starts in `out`.
    row_start: usize,
}

impl<'w> CsvCells<'w> {
    pub(crate) fn new(out: &'w mut Vec<u8>) -> Self {
        let row_start = out.len();
        CsvCells { out, row_start }
    }

    #[inline(always)]
    fn comma(&mut self) {
        self.out.push(b',');
    }
}

impl Cells for CsvCells<'_> {
    #[inline]
    fn text(&mut self, value: &str) {
        push_csv_field(self.out, value.as_bytes());
        self.comma();
    }

    #[inline(always)]
    fn plain(&mut self, value: &str) {
        push_bytes_then(self.out, value.as_bytes(), Some(b','));
    }

    #[inline(always)]
    fn int(&mut self, value: i64) {
        // Plies, move numbers, NAGs and counts are nearly all below 1000: their digits and the comma in one
        // append of a few bytes, without the general routine's buffer and copies.
        if (0..1000).contains(&value) {
            let n = value as u16;
            let digit = |d: u16| b'0' + d as u8;
            let (hundreds, tens, units) = (digit(n / 100), digit(n / 10 % 10), digit(n % 10));
            if n < 10 {
                self.out.extend_from_slice(&[units, b',']);
            } else if n < 100 {
                self.out.extend_from_slice(&[tens, units, b',']);
            } else {
                self.out.extend_from_slice(&[hundreds, tens, units, b',']);
            }
            return;
        }
        push_int(self.out, value);
        self.comma();
    }

    #[inline]
    fn int_as(&mut self, value: i64, decimal: &str) {
        debug_assert_eq!(decimal, value.to_string());
        self.plain(decimal);
    }

    #[inline]
    fn flag(&mut self, value: bool) {
        push_bytes_then(self.out, if value { b"true" } else { b"false" }, Some(b','));
    }

    fn seconds(&mut self, value: Duration) {
        push_seconds(self.out, value);
        self.comma();
    }

    #[inline]
    fn nags(&mut self, nags: &[u8]) {
        push_nags(self.out, nags);
        self.comma();
    }

    #[inline]
    fn null(&mut self) {
        self.comma();
    }

    #[inline]
    fn end_row(&mut self) {
        // Every cell ends with a comma: the row's last one becomes the line break.
        let len = self.out.len();
        if len > self.row_start {
            self.out[len - 1] = b'\n';
        } else {
            self.out.push(b'\n');
        }
        self.row_start = self.out.len();
    }
}

impl Spillable for CsvCells<'_> {
    #[inline]
    fn held_bytes(&self) -> usize {
        self.out.len()
    }

    fn spill(&mut self, overflow: &mut Overflow<'_>) {
        overflow.text(self.out);
        self.out.clear();
        self.row_start = 0;
    }
}

/// Appends NAGs as CSV writes them: numbers separated by spaces.
pub(crate) fn push_nags(out: &mut Vec<u8>, nags: &[u8]) {
    for (i, &nag) in nags.iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        push_int(out, i64::from(nag));
    }
}

/// Appends the CSV header of `columns`.
pub(crate) fn csv_header<'c, 'n: 'c>(
    out: &mut Vec<u8>,
    columns: impl IntoIterator<Item = &'c Column<'n>>,
) {
    let mut cells = CsvCells::new(out);
    for c in columns {
        cells.text(c.name);
    }
    cells.end_row();
}

/// JSON lines: one object per row, `{"column":value,...}` in column order, numbers and booleans as JSON
/// numbers and booleans, no value as `null`, NAGs as an array of numbers.
pub(crate) struct JsonCells<'w> {
    out: &'w mut Vec<u8>,
    /// `{"name":` for the first column, `,"name":` for the others.
    keys: &'w [Vec<u8>],
    column: usize,
}

/// The keys [`JsonCells`] writes before each column's value.
pub(crate) fn json_keys<'c, 'n: 'c>(
    columns: impl IntoIterator<Item = &'c Column<'n>>,
) -> Vec<Vec<u8>> {
    columns
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let mut key = vec![if i == 0 { b'{' } else { b',' }];
            push_json_string(&mut key, c.name);
            key.push(b':');
            key
        })
        .collect()
}

/// Appends `s` as a JSON string (RFC 8259): quotes, backslashes and control characters escaped.
pub(crate) fn push_json_string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if escape.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
        } else {
            out.extend_from_slice(escape);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

impl<'w> JsonCells<'w> {
    pub(crate) fn new(out: &'w mut Vec<u8>, keys: &'w [Vec<u8>]) -> Self {
        JsonCells {
            out,
            keys,
            column: 0,
        }
    }

    #[inline]
    fn key(&mut self) {
        if let Some(key) = self.keys.get(self.column) {
            self.out.extend_from_slice(key);
        }
        self.column += 1;
    }
}

impl Cells for JsonCells<'_> {
    fn text(&mut self, value: &str) {
        self.key();
        push_json_string(self.out, value);
    }

    fn plain(&mut self, value: &str) {
        self.key();
        self.out.push(b'"');
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'"');
    }

    fn int(&mut self, value: i64) {
        self.key();
        push_int(self.out, value);
    }

    #[inline]
    fn int_as(&mut self, value: i64, decimal: &str) {
        debug_assert_eq!(decimal, value.to_string());
        self.key();
        self.out.extend_from_slice(decimal.as_bytes());
    }

    #[inline]
    fn flag(&mut self, value: bool) {
        self.key();
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    fn seconds(&mut self, value: Duration) {
        self.key();
        push_seconds(self.out, value);
        // Always a fraction: readers that guess a column's type from its first values see a float.
        if value.subsec_nanos() == 0 {
            self.out.extend_from_slice(b".0");
        }
    }

    fn nags(&mut self, nags: &[u8]) {
        self.key();
        self.out.push(b'[');
        for (i, &nag) in nags.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            push_int(self.out, i64::from(nag));
        }
        self.out.push(b']');
    }

    #[inline]
    fn null(&mut self) {
        self.key();
        self.out.extend_from_slice(b"null");
    }

    fn end_row(&mut self) {
        self.out.extend_from_slice(b"}\n");
        self.column = 0;
    }
}

impl Spillable for JsonCells<'_> {
    #[inline]
    fn held_bytes(&self) -> usize {
        self.out.len()
    }

    fn spill(&mut self, overflow: &mut Overflow<'_>) {
        overflow.text(self.out);
        self.out.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_bytes_are_appended_as_extend_from_slice_appends_them() {
        let source: Vec<u8> = (b'a'..=b'z').chain(b'0'..=b'9').collect();
        // Every length on each side of the short paths' limits, onto buffers with and without spare room.
        for len in 0..=source.len() {
            for before in [0, 1, 7, 15, 16, 63] {
                let mut expected: Vec<u8> = vec![b'-'; before];
                let mut out = Vec::with_capacity(if before == 63 { 64 } else { before });
                out.extend_from_slice(&expected);
                push_bytes(&mut out, &source[..len]);
                expected.extend_from_slice(&source[..len]);
                assert_eq!(out, expected, "{len} bytes after {before}");
            }
        }
    }

    fn write_all(cells: &mut impl Cells) {
        cells.text("a, \"b\"");
        cells.plain("e2e4");
        cells.int(-12);
        cells.flag(true);
        cells.seconds(Duration::from_millis(3_723_500));
        cells.nags(&[1, 14]);
        cells.null();
        cells.end_row();
    }

    const COLUMNS: [Column<'static>; 7] = [
        tag("t"),
        replayed("p", Kind::Text),
        replayed("i", Kind::Int32),
        replayed("f", Kind::Bool),
        col("s", Kind::Seconds, true, false),
        replayed("n", Kind::Nags),
        tag("x"),
    ];

    #[test]
    fn csv_cells_quote_only_what_must_be() {
        let mut out = Vec::new();
        csv_header(&mut out, &COLUMNS);
        write_all(&mut CsvCells::new(&mut out));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "t,p,i,f,s,n,x\n\"a, \"\"b\"\"\",e2e4,-12,true,3723.5,1 14,\n"
        );
    }

    #[test]
    fn days_and_instants_are_iso_text_where_the_format_has_no_type_for_them() {
        let day = super::super::dates::DateParts::read("2025.05.01")
            .day()
            .unwrap();
        let mut out = Vec::new();
        let mut cells = CsvCells::new(&mut out);
        assert!(!cells.typed());
        cells.date(day);
        cells.timestamp(day, 86_399);
        cells.timestamp(day, 7);
        cells.end_row();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "2025-05-01,2025-05-01T23:59:59Z,2025-05-01T00:00:07Z\n"
        );
    }

    #[test]
    fn csv_integers_are_written_as_rust_writes_them() {
        let values: Vec<i64> = (-1001..=1001)
            .chain([9_999, 10_000, 123_456_789, i64::MAX, i64::MIN])
            .collect();
        let mut out = Vec::new();
        let mut cells = CsvCells::new(&mut out);
        for &v in &values {
            cells.int(v);
        }
        cells.end_row();
        let expected: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{}\n", expected.join(","))
        );
    }

    #[test]
    fn csv_rows_end_with_one_line_break_whatever_their_cells() {
        // Rows ending in no value, long and short text, an empty NAG list; a row without cells; a cell of more
        // than 16 bytes (the copy without the short path) followed by its comma.
        let long = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
        let mut out = b"left,as,is\n".to_vec();
        let mut cells = CsvCells::new(&mut out);
        cells.null();
        cells.null();
        cells.end_row();
        cells.end_row();
        cells.plain(long);
        cells.text("x\ny");
        cells.nags(&[]);
        cells.end_row();
        cells.int(7);
        cells.end_row();
        cells.text(long);
        cells.flag(false);
        cells.end_row();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("left,as,is\n,\n\n{long},\"x\ny\",\n7\n{long},false\n")
        );
    }

    #[test]
    fn json_cells_write_typed_values() {
        let keys = json_keys(&COLUMNS);
        let mut out = Vec::new();
        write_all(&mut JsonCells::new(&mut out, &keys));
        write_all(&mut JsonCells::new(&mut out, &keys));
        let text = String::from_utf8(out).unwrap();
        let line = r#"{"t":"a, \"b\"","p":"e2e4","i":-12,"f":true,"s":3723.5,"n":[1,14],"x":null}"#;
        assert_eq!(text, format!("{line}\n{line}\n"));
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["s"], 3723.5);
        let mut whole = Vec::new();
        JsonCells::new(&mut whole, &keys).seconds(Duration::from_secs(180));
        assert_eq!(whole, br#"{"t":180.0"#);
    }

    #[test]
    fn json_strings_escape_control_characters() {
        let mut out = Vec::new();
        push_json_string(&mut out, "é\t\u{1}\\\"\n");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, r#""é\t\u0001\\\"\n""#);
        assert_eq!(
            serde_json::from_str::<String>(&text).unwrap(),
            "é\t\u{1}\\\"\n"
        );
    }

    #[test]
    fn tag_only_columns_are_the_ones_select_reads_without_replay() {
        assert!(without_replay("white_elo") && without_replay("time_control_category"));
        assert!(!without_replay("plies") && !without_replay("opening_eco"));
        assert!(!without_replay("no such column"));
    }
}
