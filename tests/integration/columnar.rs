//! End-to-end tests of `pgnkit stats --format jsonl|parquet`: the Parquet file read back with the `parquet`
//! crate's reader (and with pyarrow, DuckDB and Polars when Python has them: CI installs them), the JSON lines
//! with serde_json, both compared value by value with the CSV of the same run; the fixed schema; how the format
//! is chosen; the guide's worked examples, run as written.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, Int32Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::util::{self, BIN, corpus, python_has, root, subset};

const LICHESS_50: &str = "games-english/lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn";

fn temp_dir(name: &str) -> PathBuf {
    util::temp_dir("columnar", name)
}

/// Runs `pgnkit ARGS`; panics unless it exits with one of `codes`.
fn pgnkit<S: AsRef<OsStr>>(args: &[S], codes: &[i32]) -> std::process::Output {
    let out = util::pgnkit(args, None);
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    assert!(
        codes.contains(&out.status.code().unwrap_or(-1)),
        "pgnkit {}: exit {:?}\n{}",
        shown.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// One value as read back from Parquet or JSON.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Text(String),
    Int(i64),
    Bool(bool),
    Float(f64),
    List(Vec<i64>),
    /// Days since 1970-01-01.
    Date(i32),
    /// Microseconds since 1970-01-01T00:00:00 UTC.
    Timestamp(i64),
}

impl Value {
    /// Whether this is the value the CSV field `csv` spells: no value is an empty field, NAGs are
    /// space-separated, seconds are compared as numbers.
    fn spells(&self, csv: &str) -> bool {
        match self {
            Value::Null => csv.is_empty(),
            Value::Text(s) => s == csv,
            Value::Int(n) => n.to_string() == csv,
            Value::Bool(b) => b.to_string() == csv,
            Value::Float(f) => csv.parse::<f64>().is_ok_and(|c| c == *f),
            Value::List(items) => {
                items
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
                    == csv
            }
            // A day is the date the CSV spells, when it spells one ([`real_day`]).
            Value::Date(days) => real_day(date_parts(csv)) == Some(civil(*days)),
            Value::Timestamp(_) => false,
        }
    }
}

/// A table read back: column names and types, then the rows.
pub(crate) struct Table {
    pub(crate) columns: Vec<(String, DataType, bool)>,
    pub(crate) rows: Vec<Vec<Value>>,
    row_groups: usize,
}

fn value_at(array: &dyn Array, i: usize) -> Value {
    if array.is_null(i) {
        return Value::Null;
    }
    match array.data_type() {
        DataType::Utf8 => Value::Text(array.as_string::<i32>().value(i).to_string()),
        DataType::Int32 => Value::Int(i64::from(array.as_primitive::<Int32Type>().value(i))),
        DataType::Int64 => Value::Int(array.as_primitive::<Int64Type>().value(i)),
        DataType::Boolean => Value::Bool(array.as_boolean().value(i)),
        DataType::Float64 => Value::Float(array.as_primitive::<Float64Type>().value(i)),
        DataType::List(_) => {
            let items = array.as_list::<i32>().value(i);
            let items = items.as_primitive::<Int32Type>();
            Value::List(items.values().iter().map(|&n| i64::from(n)).collect())
        }
        DataType::Date32 => Value::Date(array.as_primitive::<Date32Type>().value(i)),
        DataType::Timestamp(TimeUnit::Microsecond, Some(tz)) if &**tz == "UTC" => {
            Value::Timestamp(array.as_primitive::<TimestampMicrosecondType>().value(i))
        }
        other => panic!("unexpected column type {other}"),
    }
}

/// The year, month and day of a Date tag's text as the typed rows read them, worked out here apart from
/// pgnkit's code (docs/guide.md states the rules): `YYYY.MM.DD` (or with `-` or `/` for both dots) or a bare
/// `YYYY`, blanks around ignored; a part of `?`s or zeros is unknown; a part that is neither makes all
/// unknown.
fn date_parts(text: &str) -> [Option<i64>; 3] {
    let text = text.trim();
    let pieces: Vec<&str> = if text.len() == 4 {
        vec![text]
    } else {
        match [".", "-", "/"]
            .iter()
            .find(|sep| text.matches(**sep).count() == 2)
        {
            Some(sep) => text.split(sep).collect(),
            None => return [None; 3],
        }
    };
    let widths_fit = pieces
        .iter()
        .zip([4, 2, 2])
        .all(|(p, width)| p.len() == width);
    let mut parts = [None; 3];
    for (k, (piece, max)) in pieces.iter().zip([9999, 12, 31]).enumerate() {
        if piece.chars().all(|c| c == '?') {
            continue;
        }
        match piece.parse::<i64>() {
            Ok(n) if piece.bytes().all(|b| b.is_ascii_digit()) && n <= max => {
                parts[k] = Some(n).filter(|&n| n > 0)
            }
            _ => return [None; 3],
        }
    }
    if widths_fit { parts } else { [None; 3] }
}

/// The day of `parts`, if all are known and it exists.
fn real_day([year, month, day]: [Option<i64>; 3]) -> Option<(i64, i64, i64)> {
    let (year, month, day) = (year?, month?, day?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    (day <= days[(month - 1) as usize]).then_some((year, month, day))
}

/// The (year, month, day) `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`: the other way from
/// pgnkit's conversion).
fn civil(days: i32) -> (i64, i64, i64) {
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Seconds since midnight of a UTCTime's text `HH:MM:SS`, blanks around ignored.
fn time_of_day(text: &str) -> Option<i64> {
    let fields: Vec<&str> = text.trim().split(':').collect();
    if fields.len() != 3
        || fields
            .iter()
            .any(|f| f.len() != 2 || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let n: Vec<i64> = fields.iter().map(|f| f.parse().unwrap()).collect();
    (n[0] < 24 && n[1] < 60 && n[2] < 60).then(|| n[0] * 3600 + n[1] * 60 + n[2])
}

/// The columns typed rows add to the per-game ones, after them and before the tags.
const TYPED_TYPES: [(&str, &str); 5] = [
    ("year", "Int32"),
    ("month", "Int32"),
    ("day", "Int32"),
    ("utc_date", "Date32"),
    ("utc_timestamp", "Timestamp(Microsecond, Some(\"UTC\"))"),
];

/// Checks the typed columns of a per-game Parquet table against the CSV's text (the Date tag, and UTCDate
/// and UTCTime when the run asked for them), then leaves the table as the CSV's columns would have it: the
/// typed columns removed, `date` as the CSV spells it.
fn check_typed_dates(what: &str, table: &mut Table, csv: &(Vec<String>, Vec<Vec<String>>)) {
    let names: Vec<&str> = table.columns.iter().map(|c| c.0.as_str()).collect();
    let at = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let csv_at = |name: &str| csv.0.iter().position(|n| n == name);
    let (date, first) = (at("date"), at("year"));
    assert_eq!(first, 36, "{what}: the typed columns follow the text ones");
    assert_eq!(
        &names[first..first + 5],
        ["year", "month", "day", "utc_date", "utc_timestamp"]
    );
    let (csv_date, utc_date, utc_time) = (
        csv_at("date").unwrap(),
        csv_at("UTCDate"),
        csv_at("UTCTime"),
    );
    let mut dated = 0;
    for (r, (row, text)) in table.rows.iter_mut().zip(&csv.1).enumerate() {
        let parts = date_parts(&text[csv_date]);
        let want_parts: Vec<Value> = parts
            .iter()
            .map(|p| p.map_or(Value::Null, Value::Int))
            .collect();
        assert_eq!(
            row[first..first + 3],
            want_parts[..],
            "{what}: row {r}, {:?}",
            text[csv_date]
        );
        match row[date] {
            Value::Date(days) => {
                assert_eq!(real_day(parts), Some(civil(days)), "{what}: row {r}");
                dated += 1;
            }
            Value::Null => assert_eq!(
                real_day(parts),
                None,
                "{what}: row {r}, {:?}",
                text[csv_date]
            ),
            ref other => panic!("{what}: row {r}: date {other:?}"),
        }
        if let (Some(d), Some(t)) = (utc_date, utc_time) {
            let day = real_day(date_parts(&text[d]));
            let want = match day {
                Some(_) => row[first + 3].clone(),
                None => Value::Null,
            };
            assert_eq!(row[first + 3], want, "{what}: row {r}");
            if let Value::Date(days) = row[first + 3] {
                assert_eq!(Some(civil(days)), day, "{what}: row {r}");
            }
            let instant = match (&row[first + 3], time_of_day(&text[t])) {
                (Value::Date(days), Some(seconds)) => {
                    Value::Timestamp((i64::from(*days) * 86_400 + seconds) * 1_000_000)
                }
                _ => Value::Null,
            };
            assert_eq!(
                row[first + 4],
                instant,
                "{what}: row {r}, {:?} {:?}",
                text[d],
                text[t]
            );
        }
        // No tag is an empty CSV field and a JSON null.
        row[date] = match text[csv_date].as_str() {
            "" => Value::Null,
            text => Value::Text(text.to_string()),
        };
        row.drain(first..first + 5);
    }
    assert!(dated > 0, "{what}: no complete date");
    table.columns.drain(first..first + 5);
}

pub(crate) fn read_parquet(path: &Path) -> Table {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap_or_else(|e| panic!("{}: not Parquet: {e}", path.display()));
    let row_groups = builder.metadata().num_row_groups();
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
    let mut rows = Vec::new();
    for batch in &batches {
        for i in 0..batch.num_rows() {
            rows.push(
                batch
                    .columns()
                    .iter()
                    .map(|c| value_at(c.as_ref(), i))
                    .collect(),
            );
        }
    }
    Table {
        columns: schema
            .fields()
            .iter()
            .map(|f| (f.name().clone(), f.data_type().clone(), f.is_nullable()))
            .collect(),
        rows,
        row_groups,
    }
}

fn json_value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::String(s) => Value::Text(s.clone()),
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap()),
        },
        serde_json::Value::Array(items) => {
            Value::List(items.iter().map(|i| i.as_i64().unwrap()).collect())
        }
        serde_json::Value::Object(_) => panic!("nested object"),
    }
}

/// JSON lines read back: each object's keys in order, then the values.
fn read_jsonl(bytes: &[u8]) -> (Vec<String>, Vec<Vec<Value>>) {
    let mut names = Vec::new();
    let mut rows = Vec::new();
    for line in std::str::from_utf8(bytes).unwrap().lines() {
        // serde_json's map keeps keys sorted; the order is read from the text, in one pass of a streaming
        // deserializer over the object's entries.
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON object: {e}\n{line}"));
        let order = key_order(line);
        assert_eq!(order.len(), object.len(), "{line}");
        if names.is_empty() {
            names = order.clone();
        }
        assert_eq!(
            order, names,
            "every line has the same keys in the same order"
        );
        rows.push(order.iter().map(|k| json_value(&object[k])).collect());
    }
    (names, rows)
}

/// The keys of a flat JSON object, in the order written.
fn key_order(line: &str) -> Vec<String> {
    struct Keys(Vec<String>);
    impl<'de> serde::de::Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            mut self,
            mut map: A,
        ) -> Result<Vec<String>, A::Error> {
            while let Some((k, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                self.0.push(k);
            }
            Ok(self.0)
        }
    }
    let mut de = serde_json::Deserializer::from_str(line);
    serde::Deserializer::deserialize_map(&mut de, Keys(Vec::new())).unwrap()
}

/// The CSV of a run: header and records.
fn read_csv(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(bytes);
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Asserts that `values` are the CSV's rows, value by value, and that non-nullable columns hold no null.
fn assert_same_rows(
    what: &str,
    names: &[String],
    nullable: &[bool],
    values: &[Vec<Value>],
    csv: &(Vec<String>, Vec<Vec<String>>),
) {
    assert_eq!(names, &csv.0[..], "{what}: columns");
    assert_eq!(values.len(), csv.1.len(), "{what}: rows");
    for (r, (mine, theirs)) in values.iter().zip(&csv.1).enumerate() {
        assert_eq!(mine.len(), theirs.len(), "{what}: row {r}");
        for (c, (v, field)) in mine.iter().zip(theirs).enumerate() {
            assert!(
                v.spells(field),
                "{what}: row {r}, column {}: {v:?} but the CSV has {field:?}",
                names[c]
            );
            assert!(
                nullable[c] || *v != Value::Null,
                "{what}: row {r}, column {} is null but not nullable",
                names[c]
            );
        }
    }
}

/// Runs stats with `args` on `inputs` as CSV, JSON lines and Parquet, and compares the three.
fn compare_formats(name: &str, args: &[&str], inputs: &[PathBuf], jobs: &str) -> Table {
    let dir = temp_dir(name);
    let parquet = dir.join("rows.parquet");
    let with = |extra: &[&OsStr]| -> Vec<std::ffi::OsString> {
        let mut all: Vec<std::ffi::OsString> = vec!["stats".into(), "-q".into(), "-j".into()];
        all.push(jobs.into());
        all.extend(args.iter().map(Into::into));
        all.extend(extra.iter().map(|a| a.to_os_string()));
        all.extend(inputs.iter().map(|p| p.as_os_str().to_os_string()));
        all
    };
    let csv = pgnkit(&with(&[]), &[0, 1]);
    let jsonl = pgnkit(&with(&["--format".as_ref(), "jsonl".as_ref()]), &[0, 1]);
    let written = pgnkit(&with(&["-o".as_ref(), parquet.as_os_str()]), &[0, 1]);
    assert_eq!(csv.status.code(), jsonl.status.code());
    assert_eq!(csv.status.code(), written.status.code());
    assert!(written.stdout.is_empty());
    let csv = read_csv(&csv.stdout);
    assert!(!csv.1.is_empty(), "{name}: no rows");

    let whole = read_parquet(&parquet);
    // Per-game rows: Parquet has the typed dates too; once checked, the rest is the CSV's.
    let mut table = Table {
        columns: whole.columns.clone(),
        rows: whole.rows.clone(),
        row_groups: whole.row_groups,
    };
    if csv.0.iter().any(|c| c == "white_elo") {
        check_typed_dates(&format!("{name} parquet"), &mut table, &csv);
    }
    let names: Vec<String> = table.columns.iter().map(|c| c.0.clone()).collect();
    let nullable: Vec<bool> = table.columns.iter().map(|c| c.2).collect();
    assert_same_rows(
        &format!("{name} parquet"),
        &names,
        &nullable,
        &table.rows,
        &csv,
    );

    let (json_names, json_rows) = read_jsonl(&jsonl.stdout);
    assert_same_rows(
        &format!("{name} jsonl"),
        &json_names,
        &nullable,
        &json_rows,
        &csv,
    );
    // JSON's values have Parquet's types: the same numbers, flags and nulls (dates are text in both once
    // Parquet's are checked).
    for (r, (j, p)) in json_rows.iter().zip(&table.rows).enumerate() {
        assert_eq!(j, p, "{name}: row {r}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    whole
}

/// The fixtures: hand-made games (tags missing, Windows-1252, dates of every shape), damaged files, French letters, lichess games
/// with clocks, evaluations, NAGs and comments.
fn fixture_inputs() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = ["games.pgn", "tournament.pgn", "latin1.pgn", "dates.pgn"]
        .iter()
        .map(|f| root().join("fixtures/stats").join(f))
        .collect();
    inputs.push(subset(LICHESS_50));
    inputs.push(root().join("fixtures/convert/french.pgn"));
    inputs.push(root().join("fixtures/convert/invalid.pgn"));
    inputs.push(root().join("fixtures/pgn/boundaries.pgn"));
    inputs
}

/// The per-game columns and their types: fixed whatever the games hold.
const GAME_TYPES: [(&str, &str); 36] = [
    ("file", "Utf8"),
    ("game", "Int64"),
    ("event", "Utf8"),
    ("site", "Utf8"),
    ("date", "Date32"),
    ("round", "Utf8"),
    ("white", "Utf8"),
    ("black", "Utf8"),
    ("white_elo", "Int32"),
    ("black_elo", "Int32"),
    ("eco", "Utf8"),
    ("opening", "Utf8"),
    ("result", "Utf8"),
    ("termination", "Utf8"),
    ("lang", "Utf8"),
    ("plies", "Int32"),
    ("valid", "Boolean"),
    ("errors", "Int32"),
    ("first_error", "Utf8"),
    ("checks", "Int32"),
    ("captures", "Int32"),
    ("castles_white", "Int32"),
    ("castles_black", "Int32"),
    ("promotions", "Int32"),
    ("en_passant", "Int32"),
    ("final_fen", "Utf8"),
    ("marker", "Utf8"),
    ("termination_tag", "Utf8"),
    ("time_control", "Utf8"),
    ("variant", "Utf8"),
    ("claimable", "Utf8"),
    ("variation_moves", "Int32"),
    ("line", "Int64"),
    ("opening_eco", "Utf8"),
    ("opening_name", "Utf8"),
    ("time_control_category", "Utf8"),
];

fn types(table: &Table) -> Vec<(String, String)> {
    table
        .columns
        .iter()
        .map(|(n, t, _)| (n.clone(), format!("{t:?}")))
        .collect()
}

#[test]
fn game_rows_are_the_same_in_parquet_jsonl_and_csv() {
    let tags = "--tags=UTCDate,UTCTime,WhiteTitle,Link,WhiteFideId,NoSuchTag";
    for jobs in ["1", "2"] {
        let table = compare_formats(&format!("games-j{jobs}"), &[tags], &fixture_inputs(), jobs);
        let mut want: Vec<(String, String)> = GAME_TYPES
            .iter()
            .chain(&TYPED_TYPES)
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        for tag in [
            "UTCDate",
            "UTCTime",
            "WhiteTitle",
            "Link",
            "WhiteFideId",
            "NoSuchTag",
        ] {
            want.push((tag.to_string(), "Utf8".to_string()));
        }
        assert_eq!(types(&table), want);
        let column = |name: &str| table.columns.iter().position(|c| c.0 == name).unwrap();
        // The lichess games have UTCDate; the hand-made ones do not: a value there, no value here.
        let utc = column("UTCDate");
        assert!(
            table
                .rows
                .iter()
                .any(|r| r[utc] == Value::Text("2025.05.01".into()))
        );
        assert!(table.rows.iter().any(|r| r[utc] == Value::Null));
        assert!(
            table
                .rows
                .iter()
                .all(|r| r[column("NoSuchTag")] == Value::Null)
        );
        // Elo as numbers.
        let elo = column("white_elo");
        assert!(
            table
                .rows
                .iter()
                .any(|r| matches!(r[elo], Value::Int(n) if n > 1000))
        );
    }
}

#[test]
fn move_rows_are_the_same_in_parquet_jsonl_and_csv() {
    // -j1 encodes on the output side, -j2 in the workers: the same rows either way.
    for jobs in ["1", "2"] {
        let table = compare_formats(
            &format!("moves-j{jobs}"),
            &["--per-move"],
            &fixture_inputs(),
            jobs,
        );
        let want = [
            ("file", "Utf8"),
            ("game", "Int64"),
            ("ply", "Int32"),
            ("san", "Utf8"),
            ("uci", "Utf8"),
            ("fen_before", "Utf8"),
            ("is_capture", "Boolean"),
            ("is_check", "Boolean"),
            ("clock", "Float64"),
            ("move_number", "Int64"),
            ("color", "Utf8"),
            ("fen", "Utf8"),
            ("eval_cp", "Int64"),
            ("eval_mate", "Int64"),
            ("emt", "Float64"),
            ("nags", "List(Field { name: \"item\", data_type: Int32 })"),
            ("comment", "Utf8"),
        ];
        let got = types(&table);
        for ((name, ty), (got_name, got_ty)) in want.iter().zip(&got) {
            assert_eq!(name, got_name);
            // Arrow's Debug of a list's field varies between versions: its item type is what matters.
            assert!(
                got_ty == ty || (ty.starts_with("List") && got_ty.contains("Int32")),
                "{name}: {got_ty}"
            );
        }
        let clock = 8;
        assert!(
            table
                .rows
                .iter()
                .any(|r| matches!(r[clock], Value::Float(_)))
        );
        let nags = 15;
        assert!(
            table
                .rows
                .iter()
                .any(|r| matches!(&r[nags], Value::List(l) if !l.is_empty()))
        );
    }
}

#[test]
fn the_schema_does_not_depend_on_the_games() {
    let dir = temp_dir("schema");
    let bare = dir.join("bare.pgn");
    std::fs::write(&bare, "1. e4 e5 *\n").unwrap();
    let full = subset(LICHESS_50);
    let mut schemas = Vec::new();
    for (input, per_move) in [(&bare, false), (&full, false), (&bare, true), (&full, true)] {
        let out = dir.join("t.parquet");
        let mut args = vec![OsStr::new("stats"), OsStr::new("-q"), OsStr::new("-o")];
        args.push(out.as_os_str());
        if per_move {
            args.push(OsStr::new("--per-move"));
        }
        args.push(input.as_os_str());
        pgnkit(&args, &[0]);
        let table = read_parquet(&out);
        schemas.push(table.columns.clone());
        if input == &bare && !per_move {
            // A game without tags: its Elo columns are there, typed, with no value.
            let elo = table
                .columns
                .iter()
                .position(|c| c.0 == "white_elo")
                .unwrap();
            assert_eq!(table.columns[elo].1, DataType::Int32);
            assert_eq!(table.rows[0][elo], Value::Null);
        }
    }
    assert_eq!(schemas[0], schemas[1]);
    assert_eq!(schemas[2], schemas[3]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_format_comes_from_the_option_or_the_file_name() {
    let dir = temp_dir("choice");
    let input = subset(LICHESS_50);
    let input = input.to_str().unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let p = path("a.parquet");
    pgnkit(&["stats", "-q", "-o", &p, input], &[0]);
    assert!(std::fs::read(&p).unwrap().starts_with(b"PAR1"));
    let j = path("a.jsonl");
    pgnkit(&["stats", "-q", "-o", &j, input], &[0]);
    let text = std::fs::read_to_string(&j).unwrap();
    assert!(text.starts_with("{\"file\":"), "{text:.100}");
    assert_eq!(text.lines().count(), 50);
    let z = path("a.ndjson.zst");
    pgnkit(&["stats", "-q", "-o", &z, input], &[0]);
    let out = Command::new("zstd").args(["-dc", &z]).output();
    if let Ok(out) = out.map(Some).map(|o| o.filter(|o| o.status.success()))
        && let Some(out) = out
    {
        assert_eq!(out.stdout, text.as_bytes());
    }
    // --format wins over a name that says nothing.
    let x = path("a.out");
    pgnkit(
        &["stats", "-q", "--format", "parquet", "-o", &x, input],
        &[0],
    );
    assert!(std::fs::read(&x).unwrap().starts_with(b"PAR1"));
    // Standard output when it is not a terminal.
    let out = pgnkit(&["stats", "-q", "--format", "parquet", input], &[0]);
    assert!(out.stdout.starts_with(b"PAR1") && out.stdout.ends_with(b"PAR1"));

    // Contradictions and impossible outputs: usage errors, nothing written.
    for (args, says) in [
        (vec!["--format", "csv", "-o", &p], "named"),
        (vec!["-o", &path("b.parquet.gz")], "compressed inside"),
        (
            vec!["--summary", "--format", "parquet"],
            "cannot be used with",
        ),
    ] {
        let mut all = vec!["stats", "-q"];
        all.extend(args.iter().map(|s| &**s));
        all.push(input);
        let out = pgnkit(&all, &[2]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
    }
    assert!(!dir.join("b.parquet.gz").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_codec_gives_the_same_rows() {
    let dir = temp_dir("codecs");
    let input = subset(LICHESS_50);
    let mut tables = Vec::new();
    for codec in ["zstd", "lz4", "none"] {
        for jobs in ["1", "2"] {
            let out = dir.join(format!("{codec}-{jobs}.parquet"));
            pgnkit(
                &[
                    OsStr::new("stats"),
                    OsStr::new("-q"),
                    OsStr::new("--per-move"),
                    OsStr::new("-j"),
                    OsStr::new(jobs),
                    OsStr::new("--compression"),
                    OsStr::new(codec),
                    OsStr::new("-o"),
                    out.as_os_str(),
                    input.as_os_str(),
                ],
                &[0],
            );
            let size = std::fs::metadata(&out).unwrap().len();
            tables.push((codec, size, read_parquet(&out).rows));
        }
    }
    for (codec, _, rows) in &tables[1..] {
        assert!(rows == &tables[0].2, "{codec}: rows differ from zstd's");
    }
    let size = |codec: &str| tables.iter().find(|t| t.0 == codec).unwrap().1;
    assert!(size("zstd") < size("lz4") && size("lz4") < size("none"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn per_move_row_groups_are_large_and_whole() {
    // Several threads: each batch of games is a row group of its own. Many games in one file still
    // make few row groups, and every row is there once, in input order.
    let dir = temp_dir("groups");
    let big = dir.join("big.pgn");
    let games = std::fs::read(subset(LICHESS_50)).unwrap();
    let mut text = Vec::new();
    for _ in 0..12 {
        text.extend_from_slice(&games);
        text.extend_from_slice(b"\n");
    }
    std::fs::write(&big, &text).unwrap();
    let out = dir.join("m.parquet");
    let mut plies = 0u64;
    for jobs in ["1", "2"] {
        pgnkit(
            &[
                OsStr::new("stats"),
                OsStr::new("-q"),
                OsStr::new("--per-move"),
                OsStr::new("-j"),
                OsStr::new(jobs),
                OsStr::new("-o"),
                out.as_os_str(),
                big.as_os_str(),
            ],
            &[0],
        );
        let table = read_parquet(&out);
        assert!(
            table.row_groups >= 1 && table.row_groups <= 4,
            "{}",
            table.row_groups
        );
        let games: Vec<i64> = table
            .rows
            .iter()
            .map(|r| match r[1] {
                Value::Int(n) => n,
                _ => panic!(),
            })
            .collect();
        assert!(games.windows(2).all(|w| w[0] <= w[1]), "input order");
        assert_eq!(games.last(), Some(&600));
        if plies == 0 {
            plies = table.rows.len() as u64;
        }
        assert_eq!(table.rows.len() as u64, plies);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every value of one text column of a Parquet file, as (length, first byte), read one row at a time so that
/// huge values never sit in this process all at once.
fn text_lengths(path: &Path, column: &str) -> Vec<Option<(usize, u8)>> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap_or_else(|e| panic!("{}: not Parquet: {e}", path.display()));
    let index = builder.schema().index_of(column).unwrap();
    let mask = parquet::arrow::ProjectionMask::roots(builder.parquet_schema(), [index]);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(1)
        .build()
        .unwrap();
    let mut values = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let texts = batch.column(0).as_string::<i32>();
        values.extend(texts.iter().map(|v| v.map(|v| (v.len(), v.as_bytes()[0]))));
    }
    values
}

/// Twelve games, each with a 16 MiB value in the per-game rows (the Event tag) or in the per-move rows (a
/// comment), into Parquet under an address-space limit of twice the input plus what the threads reserve
/// without using (glibc's arenas): every row comes back whole. Before row groups were bounded by bytes, the
/// output side gathered the batches' arrays (each game a batch) and copied them into one before writing: three
/// times the input in memory, and a failed allocation under the limit (1.5 GB of address space for 192 MiB).
#[test]
fn huge_values_are_written_in_bounded_memory_and_none_is_lost() {
    let dir = temp_dir("huge-values");
    const GAMES: usize = 12;
    let big = 16 << 20;
    let value = |i: usize| char::from(b'a' + i as u8).to_string().repeat(big);
    let tags = dir.join("tags.pgn");
    let mut text = String::new();
    for i in 0..GAMES {
        text.push_str(&format!(
            "[Event \"{}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n",
            value(i)
        ));
    }
    std::fs::write(&tags, &text).unwrap();
    let comments = dir.join("comments.pgn");
    text.clear();
    for i in 0..GAMES {
        text.push_str(&format!(
            "[Event \"E{i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n1. e4 {{{}}} e5 *\n\n",
            value(i)
        ));
    }
    std::fs::write(&comments, &text).unwrap();
    drop(text);
    let input_kib = (std::fs::metadata(&tags).unwrap().len() >> 10) as u32;
    let limit = 2 * input_kib + (256 << 10);
    let out = dir.join("out.parquet");
    for (input, per_move, column) in [(&tags, false, "event"), (&comments, true, "comment")] {
        for jobs in ["-j1", "-j2"] {
            let mut args = vec!["stats", "-q", jobs, "-o", out.to_str().unwrap()];
            if per_move {
                args.push("--per-move");
            }
            args.push(input.to_str().unwrap());
            let run = util::run_within_address_space(limit, &args, None);
            assert_eq!(
                run.status.code(),
                Some(0),
                "{args:?}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let expected: Vec<Option<(usize, u8)>> = (0..GAMES)
                .flat_map(|i| {
                    let first = Some((big, b'a' + i as u8));
                    // Per move: the comment is after the first move, the second has none.
                    if per_move {
                        vec![first, None]
                    } else {
                        vec![first]
                    }
                })
                .collect();
            assert_eq!(text_lengths(&out, column), expected, "{args:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The (game, ply) of every per-move row of a CSV or JSON-lines file compressed with zstd, read as a
/// stream.
fn text_plies(path: &Path, jsonl: bool) -> Vec<(i64, i64)> {
    use std::io::BufRead;
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = std::io::BufReader::new(zstd::stream::read::Decoder::new(file).unwrap());
    let number = |line: &str, key: &str| -> i64 {
        let at = line
            .find(key)
            .unwrap_or_else(|| panic!("no {key} in {line}"))
            + key.len();
        let digits: String = line[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    };
    let mut lines = reader.lines().map(Result::unwrap);
    if !jsonl {
        assert!(lines.next().unwrap().starts_with("file,game,ply,"));
    }
    lines
        .map(|line| {
            if jsonl {
                (number(&line, "\"game\":"), number(&line, "\"ply\":"))
            } else {
                // file,game,ply,...: the file name is plain.
                let mut fields = line.split(',').skip(1);
                let mut next = || fields.next().unwrap().parse::<i64>().unwrap();
                (next(), next())
            }
        })
        .collect()
}

/// The (game, ply) of every row of a Parquet file, read a column pair at a time.
fn parquet_plies(path: &Path) -> Vec<(i64, i64)> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let mask = parquet::arrow::ProjectionMask::roots(builder.parquet_schema(), [1, 2]);
    let mut plies = Vec::new();
    for batch in builder.with_projection(mask).build().unwrap() {
        let batch = batch.unwrap();
        let games = batch.column(0).as_primitive::<Int64Type>();
        let ply = batch.column(1).as_primitive::<Int32Type>();
        plies.extend(
            games
                .values()
                .iter()
                .zip(ply.values().iter())
                .map(|(&g, &p)| (g, i64::from(p))),
        );
    }
    plies
}

/// One game of 250,000 knight moves back and forth (4 MB of PGN) makes a million per-move rows, about fifty
/// times its text: a batch held them all until the ordered output took them, 200 MB of CSV, 380 MB of JSON
/// lines or 300 MB of arrays, and more than 400 MiB of address space. Now the rows past a batch's share of
/// memory go to a temporary file and come back in their place: under an address-space limit of twice the
/// input plus what the threads and the Parquet writers reserve, every row is written, in order, in every
/// format, with one thread and with two.
#[test]
fn a_long_games_per_move_rows_are_written_in_bounded_memory() {
    let dir = temp_dir("long-game");
    const CYCLES: i64 = 250_000;
    let input = dir.join("long.pgn");
    std::fs::write(
        &input,
        format!(
            "[Event \"long\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n{}*\n\n\
             [Event \"short\"]\n\n1. e4 e5 *\n",
            "Nf3 Nf6 Ng1 Ng8 ".repeat(CYCLES as usize)
        ),
    )
    .unwrap();
    let input_kib = (std::fs::metadata(&input).unwrap().len() >> 10) as u32;
    let limit = 2 * input_kib + (320 << 10);
    let expected: Vec<(i64, i64)> = (1..=4 * CYCLES)
        .map(|ply| (1, ply))
        .chain([(2, 1), (2, 2)])
        .collect();
    for name in ["rows.csv.zst", "rows.jsonl.zst", "rows.parquet"] {
        let out = dir.join(name);
        for jobs in ["-j1", "-j2"] {
            let args = [
                "stats",
                "-q",
                "--per-move",
                jobs,
                "-o",
                out.to_str().unwrap(),
                input.to_str().unwrap(),
            ];
            let run = util::run_within_address_space(limit, &args, None);
            assert_eq!(
                run.status.code(),
                Some(0),
                "{args:?}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            let plies = if name.ends_with(".parquet") {
                parquet_plies(&out)
            } else {
                text_plies(&out, name.contains("jsonl"))
            };
            assert!(plies == expected, "{args:?}: {} rows", plies.len());
            std::fs::remove_file(&out).unwrap();
        }
    }
    // The temporary files had no name: only the input is left.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where a long game's rows cannot leave memory (here TMPDIR, with the rows on standard output, names a
/// directory that does not exist), the run ends with exit 2 and says where, in English and French: no row is
/// dropped in silence.
#[test]
fn rows_that_cannot_leave_memory_end_the_run_and_say_where() {
    let dir = temp_dir("no-spill");
    let input = dir.join("long.pgn");
    // 200,000 rows: far more than a batch keeps in memory in any format.
    std::fs::write(
        &input,
        format!("[Result \"*\"]\n\n{}*\n", "Nf3 Nf6 Ng1 Ng8 ".repeat(50_000)),
    )
    .unwrap();
    let missing = dir.join("missing");
    for (format, messages, says) in [
        (
            "csv",
            "en",
            "cannot write the rows of a long game to a temporary file in",
        ),
        (
            "jsonl",
            "fr",
            "impossible d'écrire les lignes d'une longue partie dans un fichier temporaire de",
        ),
        (
            "parquet",
            "en",
            "cannot write the rows of a long game to a temporary file in",
        ),
    ] {
        for jobs in ["-j1", "-j2"] {
            let run = util::bin_command()
                .args([
                    "--messages",
                    messages,
                    "stats",
                    "-q",
                    "--per-move",
                    jobs,
                    "--format",
                    format,
                ])
                .arg(&input)
                .env("TMPDIR", &missing)
                .stdout(std::process::Stdio::null())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.status.code(), Some(2), "{format} {jobs}: {stderr}");
            assert!(stderr.contains(says), "{format} {jobs}: {stderr}");
            assert!(stderr.contains(missing.to_str().unwrap()), "{stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Twenty thousand `--tags` made a column each: hundreds of megabytes for fifty games, and CSV or JSON rows
/// of twenty thousand empty fields. Refused at once, with the limit, nothing written.
#[test]
fn an_absurd_tags_list_is_refused_at_once() {
    let dir = temp_dir("many-tags");
    let out = dir.join("t.parquet");
    let tags: Vec<String> = (0..20_000).map(|i| format!("T{i}")).collect();
    let tags = tags.join(",");
    let input = subset(LICHESS_50);
    let args = [
        "stats",
        "-q",
        "--tags",
        &tags,
        "-o",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    let started = std::time::Instant::now();
    // Before, 410 MB for these 50 games and exit 0; under a smaller limit a worker's failed allocation left
    // the run hanging.
    let run = util::run_within_address_space(1 << 20, &args, None);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--tags: 20000 tags: at most 256"),
        "{stderr}"
    );
    assert!(started.elapsed().as_secs() < 10);
    assert!(!out.exists());
    // The most allowed still runs.
    let most: Vec<String> = (0..256).map(|i| format!("T{i}")).collect();
    let most = most.join(",");
    pgnkit(
        &[
            "stats",
            "-q",
            "--tags",
            &most,
            "-o",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        &[0],
    );
    assert_eq!(read_parquet(&out).columns.len(), 36 + 5 + 256);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--tags Termination` added a column that differs from the built-in `termination` only by case: DuckDB
/// renamed it `Termination_1` and `SELECT "Termination"` gave the built-in one. No two columns of any table
/// differ only by case, in any format.
#[test]
fn no_two_columns_differ_only_by_case_in_any_format() {
    let dir = temp_dir("case");
    let input = subset(LICHESS_50);
    let input = input.to_str().unwrap();
    for format in ["csv", "jsonl", "parquet"] {
        let out = dir.join(format!("t.{format}"));
        let out = out.to_str().unwrap();
        for (tags, says) in [
            (
                "Termination",
                "`Termination` differs from the column `termination` only by case",
            ),
            (
                "UTCDate,Event",
                "`Event` differs from the column `event` only by case",
            ),
            (
                "WhiteElo,whiteelo",
                "`WhiteElo` and `whiteelo` differ only by case",
            ),
            // A column of Parquet's rows alone, refused in every format: a list of tags means the same
            // columns whatever the format.
            (
                "UTCDate,Year",
                "`Year` differs from the column `year` only by case, which DuckDB and other SQL tools do \
                 not tell apart (a column of the Parquet rows)",
            ),
        ] {
            for per_move in [false, true] {
                let mut args = vec!["stats", "-q", "--tags", tags, "-o", out];
                if per_move {
                    args.push("--per-move");
                }
                args.push(input);
                let run = pgnkit(&args, &[2]);
                let stderr = String::from_utf8_lossy(&run.stderr);
                // Per move, --tags is refused for itself: its columns are the per-game rows'.
                if !per_move {
                    assert!(stderr.contains(says), "{args:?}: {stderr}");
                }
                assert!(!Path::new(out).exists(), "{args:?}");
            }
        }
        // What runs: the names of each table, per game with tags and per move, all distinct ignoring case.
        for per_move in [false, true] {
            let mut args = vec!["stats", "-q", "-o", out];
            if per_move {
                args.push("--per-move");
            } else {
                args.extend(["--tags", "UTCDate,WhiteTitle,WhiteElo,TimeControl"]);
            }
            args.push(input);
            pgnkit(&args, &[0]);
            let names: Vec<String> = match format {
                "parquet" => read_parquet(Path::new(out))
                    .columns
                    .into_iter()
                    .map(|c| c.0)
                    .collect(),
                "jsonl" => key_order(
                    std::fs::read_to_string(out)
                        .unwrap()
                        .lines()
                        .next()
                        .unwrap(),
                ),
                _ => read_csv(&std::fs::read(out).unwrap()).0,
            };
            assert!(names.len() >= 17, "{names:?}");
            for (i, a) in names.iter().enumerate() {
                for b in &names[..i] {
                    assert!(!a.eq_ignore_ascii_case(b), "{format}: {a} and {b}");
                }
            }
            std::fs::remove_file(out).unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pyarrow_reads_the_same_rows_and_types() {
    if !python_has("pyarrow") {
        return;
    }
    let dir = temp_dir("pyarrow");
    let out = dir.join("g.parquet");
    let input = subset(LICHESS_50);
    pgnkit(
        &[
            OsStr::new("stats"),
            OsStr::new("-q"),
            OsStr::new("--tags=UTCDate"),
            OsStr::new("-o"),
            out.as_os_str(),
            input.as_os_str(),
        ],
        &[0],
    );
    let script = "import sys, pyarrow.parquet as pq\n\
                  t = pq.read_table(sys.argv[1])\n\
                  print(t.num_rows)\n\
                  print(';'.join(f'{f.name}:{f.type}' for f in t.schema))\n\
                  print(sum(t.column('plies').to_pylist()))\n\
                  print(t.column('white_elo').to_pylist()[0])\n";
    let py = Command::new("python3")
        .args(["-c", script])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let text = String::from_utf8(py.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let csv = pgnkit(
        &[OsStr::new("stats"), OsStr::new("-q"), input.as_os_str()],
        &[0],
    );
    let (header, rows) = read_csv(&csv.stdout);
    assert_eq!(lines[0], rows.len().to_string());
    let plies = header.iter().position(|h| h == "plies").unwrap();
    let total: u64 = rows.iter().map(|r| r[plies].parse::<u64>().unwrap()).sum();
    assert_eq!(lines[2], total.to_string());
    let elo = header.iter().position(|h| h == "white_elo").unwrap();
    assert_eq!(lines[3], rows[0][elo]);
    // `;` between columns: a type may hold a comma (`timestamp[us, tz=UTC]`).
    let types: HashMap<&str, &str> = lines[1]
        .split(';')
        .map(|p| p.split_once(':').unwrap())
        .collect();
    assert_eq!(types["plies"], "int32");
    assert_eq!(types["game"], "int64");
    assert_eq!(types["valid"], "bool");
    assert_eq!(types["white_elo"], "int32");
    assert_eq!(types["UTCDate"], "string");
    assert_eq!(types["date"], "date32[day]");
    assert_eq!(types["year"], "int32");
    assert_eq!(types["utc_date"], "date32[day]");
    assert_eq!(types["utc_timestamp"], "timestamp[us, tz=UTC]");

    // LZ4_RAW, the fast codec, reads back as well.
    let lz4 = dir.join("m.parquet");
    pgnkit(
        &[
            OsStr::new("stats"),
            OsStr::new("-q"),
            OsStr::new("--per-move"),
            OsStr::new("--compression=lz4"),
            OsStr::new("-o"),
            lz4.as_os_str(),
            input.as_os_str(),
        ],
        &[0],
    );
    let py = Command::new("python3")
        .args([
            "-c",
            "import sys, pyarrow.parquet as pq; print(sum(pq.read_table(sys.argv[1]).column('ply').to_pylist()))",
        ])
        .arg(&lz4)
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    // The sum over the rows of `ply`: 1 + 2 + ... + plies for each game.
    let triangle: u64 = rows
        .iter()
        .map(|r| {
            let n: u64 = r[plies].parse().unwrap();
            n * (n + 1) / 2
        })
        .sum();
    assert_eq!(
        String::from_utf8(py.stdout).unwrap().trim(),
        triangle.to_string()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether the `duckdb` command runs. CI installs it: there its absence fails the test.
fn has_duckdb(what: &str) -> bool {
    let ok = Command::new("duckdb")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("PGNKIT_REQUIRE_CORPUS").is_none(),
            "no duckdb command: .ci/run installs it (pip install duckdb-cli)"
        );
        eprintln!("note: no duckdb command: {what} is not run");
    }
    ok
}

/// Parquet's typed dates as DuckDB and Polars read them, against what DuckDB's own `strptime` makes of the
/// CSV's text of the same run (dates of every shape, and lichess games with UTCDate and UTCTime): the same
/// days, parts and instants, with the types a user of either sees.
#[test]
fn duckdb_and_polars_read_the_typed_dates() {
    let dir = temp_dir("typed-dates");
    let (csv, parquet) = (dir.join("rows.csv"), dir.join("rows.parquet"));
    let inputs = [root().join("fixtures/stats/dates.pgn"), subset(LICHESS_50)];
    for out in [&csv, &parquet] {
        let mut args = vec![
            OsStr::new("stats"),
            OsStr::new("-q"),
            OsStr::new("--tags=UTCDate,UTCTime"),
            OsStr::new("-o"),
            out.as_os_str(),
        ];
        args.extend(inputs.iter().map(|p| p.as_os_str()));
        pgnkit(&args, &[0]);
    }
    // What the CSV says, by this file's reading of the rules.
    let (header, rows) = read_csv(&std::fs::read(&csv).unwrap());
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let dated = rows
        .iter()
        .filter(|r| real_day(date_parts(&r[at("date")])).is_some())
        .count();
    let timed = rows
        .iter()
        .filter(|r| {
            real_day(date_parts(&r[at("UTCDate")])).is_some()
                && time_of_day(&r[at("UTCTime")]).is_some()
        })
        .count();
    assert!(
        dated > 50 && timed > 50 && dated < rows.len(),
        "{dated} {timed}"
    );

    if has_duckdb("the typed dates' check with DuckDB") {
        let query = format!(
            "WITH p AS (SELECT * FROM '{parquet}'), c AS (SELECT * FROM read_csv('{csv}', all_varchar = true)) \
             SELECT count(*), count(p.date), \
               count(*) FILTER (WHERE p.date IS DISTINCT FROM coalesce(try_strptime(trim(c.date), '%Y.%m.%d'), \
                 try_strptime(trim(c.date), '%Y-%m-%d'), try_strptime(trim(c.date), '%Y/%m/%d'))::DATE), \
               count(*) FILTER (WHERE year(p.date) != p.year OR month(p.date) != p.month OR day(p.date) != p.day), \
               count(p.utc_timestamp), \
               count(*) FILTER (WHERE epoch(p.utc_timestamp) IS DISTINCT FROM \
                 epoch(try_strptime(trim(c.UTCDate) || ' ' || trim(c.UTCTime), '%Y.%m.%d %H:%M:%S'))), \
               count(*) FILTER (WHERE p.utc_timestamp::DATE != p.utc_date), \
               typeof(any_value(p.date)), typeof(any_value(p.year)), typeof(any_value(p.utc_timestamp)) \
             FROM p JOIN c ON p.file = c.file AND p.game = CAST(c.game AS BIGINT)",
            parquet = parquet.display(),
            csv = csv.display()
        );
        let out = Command::new("duckdb")
            .args(["-csv", "-noheader", "-c", &query])
            .env("TZ", "UTC")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let answer = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            answer.trim(),
            format!(
                "{},{dated},0,0,{timed},0,0,DATE,INTEGER,TIMESTAMP WITH TIME ZONE",
                rows.len()
            ),
            "DuckDB: rows, dated, dates that differ from strptime's, parts that differ, timed, instants that \
             differ, UTC days that differ, types"
        );
    }

    if python_has("polars") {
        let script = "import sys, polars as pl\n\
                      p = pl.read_parquet(sys.argv[1])\n\
                      print(';'.join(str(p.schema[c]) for c in ('date', 'year', 'month', 'day', 'utc_date', 'utc_timestamp')))\n\
                      d = p.filter(pl.col('date').is_not_null())\n\
                      same = [(d['date'].dt.year() == d['year']).all(), (d['date'].dt.month() == d['month']).all(), \
                      (d['date'].dt.day() == d['day']).all()]\n\
                      print(d.height, all(same))\n\
                      t = p.filter(pl.col('utc_timestamp').is_not_null())\n\
                      print(t.height, (t['utc_timestamp'].dt.date() == t['utc_date']).all())\n";
        let py = Command::new("python3")
            .args(["-c", script])
            .arg(&parquet)
            .output()
            .unwrap();
        assert!(
            py.status.success(),
            "{}",
            String::from_utf8_lossy(&py.stderr)
        );
        let text = String::from_utf8(py.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let types: Vec<&str> = lines[0].split(';').collect();
        assert_eq!(
            types[..5],
            ["Date", "Int32", "Int32", "Int32", "Date"],
            "{text}"
        );
        assert!(
            types[5].starts_with("Datetime") && types[5].contains("us") && types[5].contains("UTC"),
            "{text}"
        );
        assert_eq!(lines[1], format!("{dated} True"));
        assert_eq!(lines[2], format!("{timed} True"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shell commands of the guide's block that follows `marker` (lines of a ```sh block; `\` continues a
/// line; comments dropped).
pub(crate) fn guide_commands(marker: &str) -> Vec<String> {
    let guide = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let start = guide
        .find(marker)
        .unwrap_or_else(|| panic!("docs/guide.md has no {marker}"));
    let block = &guide[start..];
    let open = block
        .find("```sh\n")
        .expect("a ```sh block after the marker")
        + 6;
    let close = open + block[open..].find("```").unwrap();
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in block[open..close].lines() {
        let line = line.trim_end();
        if line.trim_start().starts_with('#') || (line.is_empty() && current.is_empty()) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => {
                current.push_str(part);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                commands.push(std::mem::take(&mut current));
            }
        }
    }
    commands
}

/// Runs the guide's commands in a directory holding its example file, with this build's `pgnkit` first
/// on the PATH; returns what they printed.
fn run_guide(name: &str, commands: &[String]) -> String {
    run_guide_with(
        name,
        &[(subset(LICHESS_50), "lichess-sample.pgn")],
        commands,
    )
}

/// Runs the guide's commands in a directory holding `files` (each copied under its name in the guide),
/// with this build's `pgnkit` first on the PATH; returns what they printed.
pub(crate) fn run_guide_with(
    name: &str,
    files: &[(std::path::PathBuf, &str)],
    commands: &[String],
) -> String {
    let dir = temp_dir(name);
    for (from, to) in files {
        std::fs::copy(from, dir.join(to)).unwrap();
    }
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut printed = String::new();
    for command in commands {
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "the guide's command failed: {command}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        printed.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    let _ = std::fs::remove_dir_all(&dir);
    printed
}

/// The most frequent `opening_eco` of the sample and its count, from the CSV.
fn top_opening() -> (String, usize) {
    let csv = pgnkit(
        &[
            OsStr::new("stats"),
            OsStr::new("-q"),
            subset(LICHESS_50).as_os_str(),
        ],
        &[0],
    );
    let (header, rows) = read_csv(&csv.stdout);
    let eco = header.iter().position(|h| h == "opening_eco").unwrap();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for r in &rows {
        *counts.entry(r[eco].clone()).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(k, n)| (*n, std::cmp::Reverse(k.clone())))
        .unwrap()
}

#[test]
fn the_guides_duckdb_example_runs_as_written() {
    let has_cli = Command::new("duckdb")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_cli {
        assert!(
            std::env::var_os("PGNKIT_REQUIRE_CORPUS").is_none(),
            "no duckdb command: .ci/run installs it (pip install duckdb-cli)"
        );
        eprintln!("note: no duckdb command: the guide's DuckDB example is not run");
        return;
    }
    let commands = guide_commands("<!-- example: duckdb -->");
    assert!(commands.iter().any(|c| c.starts_with("pgnkit stats")));
    assert!(commands.iter().any(|c| c.starts_with("duckdb")));
    let printed = run_guide("duckdb", &commands);
    let (eco, n) = top_opening();
    let line = printed
        .lines()
        .find(|l| l.contains(&eco))
        .unwrap_or_else(|| panic!("{eco} not in DuckDB's answer:\n{printed}"));
    assert!(line.contains(&n.to_string()), "{line}\n{printed}");
}

#[test]
fn the_guides_polars_example_runs_as_written() {
    if !python_has("polars") {
        return;
    }
    // The Polars block reads the file the DuckDB block's first command writes.
    let mut commands: Vec<String> = guide_commands("<!-- example: duckdb -->")
        .into_iter()
        .filter(|c| c.starts_with("pgnkit "))
        .collect();
    commands.extend(guide_commands("<!-- example: polars -->"));
    let printed = run_guide("polars", &commands);
    let (eco, n) = top_opening();
    let line = printed
        .lines()
        .find(|l| l.contains(&eco))
        .unwrap_or_else(|| panic!("{eco} not in Polars' answer:\n{printed}"));
    assert!(line.contains(&n.to_string()), "{line}\n{printed}");
}

#[test]
#[cfg_attr(
    not(shared_corpus),
    ignore = "needs the shared corpus at ../shared/corpus (or PGNKIT_SHARED): see README.md"
)]
fn corpus_rows_are_the_same_in_every_format() {
    let dir = corpus("games-english");
    let inputs: Vec<PathBuf> = [
        "gnuchess-book_games-000001-020000.pgn",
        "twic1389_3393games.pgn",
        "lichess-db-2025-05_blitz_438games_clk.pgn",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect();
    compare_formats(
        "corpus-games",
        &["--tags=WhiteFideId,EventDate"],
        &inputs,
        "2",
    );
    compare_formats(
        "corpus-moves",
        &["--per-move"],
        &[corpus(
            "games-english/lichess-db-2025-05_blitz_438games_clk.pgn",
        )],
        "2",
    );
    compare_formats("corpus-french", &[], &[corpus("games-french")], "2");
}
