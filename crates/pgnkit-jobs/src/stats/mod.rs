//! `stats`: what each game is made of, as CSV for spreadsheets and scripts, and an aggregate report.
//!
//! Three outputs ([`Output`]):
//! * one CSV row per game (`rows::GAME_HEADER`): tags, the detected piece-letter language, main-line
//!   half-moves, validity and errors exactly as `validate` counts them, what the final position is
//!   (termination, FEN) and counts over the main line (checks, captures, castling per side, promotions,
//!   en passant);
//! * one CSV row per main-line half-move (`table::MOVE_COLUMNS`): SAN, UCI, the FEN before the move,
//!   capture and check flags, and the clock of a lichess-style `[%clk]` comment;
//! * a short report ([`summary`]): results by colour, endings, the most frequent ECO codes, and standings
//!   with performance ratings and small crosstables per event, all in bounded memory.
//!
//! Everything per game is a pure function of the game's bytes, so batches run on any thread
//! (`run_batch`): each batch comes back with its CSV bytes already written, and the ordered output side
//! only copies them out.
//!
//! Validity follows `validate` without a second implementation: the replay here notes every sign of an
//! error that `validate` could report (a reader error, an unplayable start, a move that does not replay, a
//! termination marker that contradicts the Result tag). A game with none of them has no error in
//! `validate` either; a game with one is handed to validate's `validate_game` itself, which then gives the error
//! count and the first error. Errors are rare, so the cost of the second pass is too.

pub(crate) mod columnar;
pub(crate) mod dates;
mod job;
pub(crate) mod rows;
pub(crate) mod spill;
pub mod summary;
pub(crate) mod table;

pub use job::{RowWriter, StatsJob};

pub(crate) use crate::options::Format;
use crate::options::UsageError;
use std::borrow::Cow;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};

use crate::run::Parts;
use parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory;
use parquet::errors::ParquetError;

use crate::validate::{Severity, ValidateOptions, validate_game_with};
use pgnkit::core::{Claim, Move, Position, Termination};
use pgnkit::notation::Language;
use pgnkit::openings::{self, Classifier, Opening};
use pgnkit::pgn::{GROUP_GAMES, Game, GameReader, GameResult, MAX_BATCH_GAMES, roster_index};
use pgnkit::walk::{MoveAt, Variant, Visitor, Walk};
use std::ops::ControlFlow;

/// What a stats run writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    /// One CSV row per game.
    #[default]
    Games,
    /// One CSV row per main-line half-move.
    Moves,
    /// No rows: the records [`summary::StatsSummary`] aggregates.
    StatsSummary,
}

/// What the user asked of stats.
#[derive(Clone, Debug, Default)]
pub struct StatsOptions {
    /// Piece letters to read moves with; `None` detects them per game (as validate does).
    pub lang: Option<Language>,
    pub output: Output,
    pub format: Format,
    /// Tags written as extra columns of the per-game rows, in this order (`--tags`).
    pub tags: Vec<String>,
    /// Columns of Parquet inputs carried through to the per-game rows, after the tags (`--keep-columns`):
    /// see [`kept_columns`].
    pub keep: Vec<KeptColumn>,
}

/// A column of a Parquet input carried through to the per-game rows (`--keep-columns`). A tag column of a
/// table of games becomes a tag of each game's text; its value is read back from the game's tag and written
/// under the column's name, typed as the column was: integers, booleans and dates as such in Parquet (dates
/// as ISO 8601 text in CSV and JSON lines), anything else as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptColumn {
    /// The column's name, in the input and in the rows.
    name: String,
    /// The tag the column's values became.
    tag: String,
    kind: table::Kind,
}

/// What `--keep-columns` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepColumns {
    /// Every tag column of the first Parquet input that the rows do not already hold.
    All,
    /// These columns, by name.
    Named(Vec<String>),
}

/// The columns `asked` names, as the first Parquet input of `sources` has them (their types come from it; an
/// input without one of them gives no value there). Refused: no Parquet input, a column it does not have or
/// that holds no tags (the games' `movetext` or `pgn`, a list), a column the rows already hold (its tag is
/// one of theirs, or its name differs from one of theirs only by case).
pub fn kept_columns(
    sources: &crate::run::Sources,
    asked: &KeepColumns,
) -> Result<Vec<KeptColumn>, UsageError> {
    let refuse = |why: String| UsageError::KeepColumns(why);
    let Some(found) = crate::run::first_table_columns(sources.list()) else {
        return Err(refuse(
            "--keep-columns carries the columns of Parquet inputs: no input is a Parquet file of games"
                .to_string(),
        ));
    };
    let held = |column: &crate::run::TableColumn| {
        column_holding(&column.tag).is_some()
            || table::GAME_COLUMNS
                .iter()
                .chain(&table::TYPED_GAME_COLUMNS)
                .any(|c| c.name.eq_ignore_ascii_case(&column.name))
    };
    let kept = |column: &crate::run::TableColumn| KeptColumn {
        name: column.name.clone(),
        tag: column.tag.clone(),
        kind: match column.kind {
            crate::run::TableKind::Integer => table::Kind::Int64,
            crate::run::TableKind::Boolean => table::Kind::Bool,
            crate::run::TableKind::Date => table::Kind::Date,
            crate::run::TableKind::Text => table::Kind::Text,
        },
    };
    match asked {
        KeepColumns::All => Ok(found
            .iter()
            .filter(|c| c.is_tag && !held(c))
            .map(kept)
            .collect()),
        KeepColumns::Named(names) => names
            .iter()
            .map(|name| {
                let Some(column) = found.iter().find(|c| &c.name == name) else {
                    return Err(refuse(format!(
                        "--keep-columns: the first Parquet input has no column `{name}`"
                    )));
                };
                if !column.is_tag {
                    return Err(refuse(format!(
                        "--keep-columns: `{name}` holds no tag values (it is the games' own column, or a list or a structure)"
                    )));
                }
                if held(column) {
                    return Err(refuse(format!(
                        "--keep-columns: the rows already hold `{name}` (as one of their columns)"
                    )));
                }
                Ok(kept(column))
            })
            .collect(),
    }
}

impl StatsOptions {
    /// The Arrow schema of the rows, whatever the format: the record batches [`BatchStats::table`] holds
    /// for [`Format::Parquet`].
    pub fn arrow_schema(&self) -> SchemaRef {
        columnar::schema(&self.columns())
    }

    /// The columns of the rows: the per-game or per-move ones, then for per-game rows the typed ones when the
    /// format is typed (Parquet), then `--tags`; none for the summary.
    pub(crate) fn columns(&self) -> Vec<table::Column<'_>> {
        let typed: &[table::Column<'static>] = match self.format {
            Format::Parquet => &table::TYPED_GAME_COLUMNS,
            Format::Csv | Format::Jsonl => &[],
        };
        match self.output {
            Output::Games => table::GAME_COLUMNS
                .iter()
                .chain(typed)
                .copied()
                .chain(self.tags.iter().map(|t| table::tag_column(t)))
                .chain(
                    self.keep
                        .iter()
                        .map(|k| table::kept_column(&k.name, k.kind)),
                )
                .collect(),
            Output::Moves => table::MOVE_COLUMNS.to_vec(),
            Output::StatsSummary => Vec::new(),
        }
    }
}

/// Counts over the main line's replayed moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Moves that give check (mates included).
    pub(crate) checks: u32,
    /// Moves that capture, en passant included.
    pub(crate) captures: u32,
    /// Castling moves, by side: White, then Black ([`pgnkit::core::Color::index`]).
    pub(crate) castles: [u32; 2],
    pub(crate) promotions: u32,
    pub(crate) en_passant: u32,
}

impl Counts {
    /// Counts one legal move; `after` is the position it produced (the mover is the side not to move there).
    #[inline]
    pub(crate) fn add(&mut self, m: &Move, after: &Position) {
        self.captures += u32::from(m.capture.is_some());
        self.promotions += u32::from(m.promotion.is_some());
        self.en_passant += u32::from(m.is_en_passant());
        if m.is_castle() {
            self.castles[(!after.turn()).index()] += 1;
        }
        self.checks += u32::from(after.is_check());
    }
}

/// The tag values a row shows, decoded and unescaped (borrowed from the game when nothing needs doing).
#[derive(Clone, Debug, Default)]
pub(crate) struct RowTags<'a> {
    pub(crate) event: Cow<'a, str>,
    pub(crate) site: Cow<'a, str>,
    pub(crate) date: Cow<'a, str>,
    pub(crate) round: Cow<'a, str>,
    pub(crate) white: Cow<'a, str>,
    pub(crate) black: Cow<'a, str>,
    pub(crate) white_elo: Cow<'a, str>,
    pub(crate) black_elo: Cow<'a, str>,
    pub(crate) eco: Cow<'a, str>,
    pub(crate) opening: Cow<'a, str>,
    pub(crate) result: Cow<'a, str>,
    /// The `Termination` tag (how the game ended off the board: `Normal`, `Time forfeit`...).
    pub(crate) termination: Cow<'a, str>,
    pub(crate) time_control: Cow<'a, str>,
    pub(crate) variant: Cow<'a, str>,
    /// `UTCDate` and `UTCTime`, read by typed tables alone.
    pub(crate) utc_date: Cow<'a, str>,
    pub(crate) utc_time: Cow<'a, str>,
    /// Which tags the game has: bit `k` for the field in [`slot`] `k`.
    pub(crate) present: u16,
}

/// The place of each [`RowTags`] field, in field order.
pub(crate) mod slot {
    pub(crate) const EVENT: usize = 0;
    pub(crate) const SITE: usize = 1;
    pub(crate) const DATE: usize = 2;
    pub(crate) const ROUND: usize = 3;
    pub(crate) const WHITE: usize = 4;
    pub(crate) const BLACK: usize = 5;
    pub(crate) const WHITE_ELO: usize = 6;
    pub(crate) const BLACK_ELO: usize = 7;
    pub(crate) const ECO: usize = 8;
    pub(crate) const OPENING: usize = 9;
    pub(crate) const RESULT: usize = 10;
    pub(crate) const TERMINATION: usize = 11;
    pub(crate) const TIME_CONTROL: usize = 12;
    pub(crate) const VARIANT: usize = 13;
    pub(crate) const UTC_DATE: usize = 14;
    pub(crate) const UTC_TIME: usize = 15;
}

/// The slot of a tag in [`RowTags`]' field order (a `match` compiles to a length switch and one comparison).
#[inline]
fn tag_slot(name: &[u8]) -> Option<usize> {
    // The Seven Tag Roster's slots, in the roster's order.
    const ROSTER: [usize; 7] = [
        slot::EVENT,
        slot::SITE,
        slot::DATE,
        slot::ROUND,
        slot::WHITE,
        slot::BLACK,
        slot::RESULT,
    ];
    if let Some(k) = roster_index(name) {
        return Some(ROSTER[k]);
    }
    Some(match name {
        b"WhiteElo" => slot::WHITE_ELO,
        b"BlackElo" => slot::BLACK_ELO,
        b"ECO" => slot::ECO,
        b"Opening" => slot::OPENING,
        b"Termination" => slot::TERMINATION,
        b"TimeControl" => slot::TIME_CONTROL,
        b"Variant" => slot::VARIANT,
        b"UTCDate" => slot::UTC_DATE,
        b"UTCTime" => slot::UTC_TIME,
        _ => return None,
    })
}

impl<'a> RowTags<'a> {
    /// The first value of each tag, in one pass over the tag pairs.
    pub(crate) fn of(game: &Game<'a>) -> RowTags<'a> {
        // Sixteen slots: one bit each in `present`.
        let mut found = [None; 16];
        for tag in &game.tags {
            if let Some(k) = tag_slot(game.bytes(tag.name))
                && found[k].is_none()
            {
                found[k] = Some(tag);
            }
        }
        let present = found
            .iter()
            .enumerate()
            .fold(0u16, |bits, (k, t)| bits | (u16::from(t.is_some()) << k));
        let mut values = found.map(|t| t.map_or(Cow::Borrowed(""), |t| game.tag_value(t)));
        let mut take = |k: usize| std::mem::take(&mut values[k]);
        RowTags {
            event: take(0),
            site: take(1),
            date: take(2),
            round: take(3),
            white: take(4),
            black: take(5),
            white_elo: take(6),
            black_elo: take(7),
            eco: take(8),
            opening: take(9),
            result: take(10),
            termination: take(11),
            time_control: take(12),
            variant: take(13),
            utc_date: take(14),
            utc_time: take(15),
            present,
        }
    }

    /// Whether the game has the tag of [`slot`] `k`.
    pub(crate) fn has(&self, k: usize) -> bool {
        self.present & (1 << k) != 0
    }
}

/// What the replay of a playable game found.
#[derive(Clone, Debug)]
pub(crate) struct ReplayFacts {
    pub(crate) lang: Language,
    pub(crate) variant: Variant,
    /// How the final main-line position stands (as validate's `termination`).
    pub(crate) termination: Option<Termination>,
    /// Draws the player to move may claim in the final main-line position.
    pub(crate) claimable: Vec<Claim>,
    /// The last replayed main-line position.
    pub(crate) final_position: Position,
    pub(crate) counts: Counts,
    /// Legal moves played in variations.
    pub(crate) variation_moves: u32,
    /// The opening the main line reached ([`pgnkit::openings`]: the latest named position).
    pub(crate) opening: Option<&'static Opening>,
}

/// Everything stats says about one game.
#[derive(Clone, Debug)]
pub(crate) struct GameStats<'a> {
    /// 1-based index of the game in its file.
    pub(crate) number: u64,
    /// Line of the file where the game starts.
    pub(crate) line: u64,
    pub(crate) tags: RowTags<'a>,
    /// The termination marker after the moves.
    pub(crate) marker: Option<GameResult>,
    /// `None` when the game cannot be replayed (unsupported variant, illegal FEN tag).
    pub(crate) replayed: Option<ReplayFacts>,
    /// Main-line half-moves replayed, up to the first move that does not replay.
    pub(crate) plies: u32,
    /// Validate's `valid`: no error, variations included.
    pub(crate) valid: bool,
    /// Validate's error count.
    pub(crate) errors: u32,
    /// The error that comes first in the file, as `line:column: message`.
    pub(crate) first_error: Option<String>,
}

/// Receives the main line's moves as they are replayed (the per-move CSV rows).
pub(crate) trait MainLineSink {
    /// A main-line move `m` (`None`: a null move) is about to be played in `before`.
    fn before_move(
        &mut self,
        _game: &Game<'_>,
        _at: MoveAt<'_>,
        _before: &Position,
        _m: Option<&Move>,
    ) {
    }
    /// The main-line move announced by [`MainLineSink::before_move`] was played: `m` is `None` for a null
    /// move; `after` is the position it produced.
    fn main_move(&mut self, game: &Game<'_>, at: MoveAt<'_>, m: Option<&Move>, after: &Position);
}

impl MainLineSink for () {
    #[inline]
    fn main_move(&mut self, _: &Game<'_>, _: MoveAt<'_>, _: Option<&Move>, _: &Position) {}
}

/// Validate's companion in the walk: counts the main line, feeds the sink.
struct Tally<'g, 'a, 's, S> {
    game: &'g Game<'a>,
    wanted: Tallies,
    counts: Counts,
    openings: Classifier<'static>,
    sink: &'s mut S,
}

/// Which of the main line's tallies to keep ([`game_stats_with`]): a run that reads neither (select on
/// plies or termination) skips their cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tallies {
    /// [`Counts`]: checks, captures, castling, promotions, en passant.
    pub(crate) counts: bool,
    /// The opening reached ([`ReplayFacts::opening`]).
    pub(crate) opening: bool,
}

impl Tallies {
    /// Everything: what stats writes.
    pub(crate) const ALL: Tallies = Tallies {
        counts: true,
        opening: true,
    };
    /// Nothing: what per-move rows need of the game (its validity and plies) comes without tallies.
    pub(crate) const NONE: Tallies = Tallies {
        counts: false,
        opening: false,
    };
}

impl<S: MainLineSink> Visitor for Tally<'_, '_, '_, S> {
    type Output = Walk;

    #[inline(always)]
    fn before_move(&mut self, at: MoveAt<'_>, before: &Position, m: &Move) -> ControlFlow<Walk> {
        if at.depth == 0 {
            self.sink.before_move(self.game, at, before, Some(m));
        }
        ControlFlow::Continue(())
    }

    #[inline(always)]
    fn after_move(&mut self, at: MoveAt<'_>, m: &Move, after: &Position) -> ControlFlow<Walk> {
        if at.depth == 0 {
            if self.wanted.counts {
                self.counts.add(m, after);
            }
            if self.wanted.opening {
                self.openings.observe(after);
            }
            self.sink.main_move(self.game, at, Some(m), after);
        }
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, before: &Position) -> ControlFlow<Walk> {
        if at.depth == 0 {
            self.sink.before_move(self.game, at, before, None);
            let mut after = *before;
            after.play_null();
            if self.wanted.opening {
                self.openings.observe(&after);
            }
            self.sink.main_move(self.game, at, None, &after);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, walk: Walk) -> Walk {
        walk
    }
}

/// Analyses one game: one replay, validate's, which gives the verdict (the error count and the first error
/// exactly as `validate` reports them) while a `Tally` counts the main line and feeds `sink`. `file`
/// names the input in validate's messages.
pub(crate) fn game_stats<'a>(
    game: &Game<'a>,
    file: &Arc<str>,
    lang: Option<Language>,
    sink: &mut impl MainLineSink,
) -> GameStats<'a> {
    game_stats_with(game, file, lang, Tallies::ALL, sink)
}

/// [`game_stats`] keeping only the `wanted` tallies (the others stay at zero, the opening at `None`).
pub(crate) fn game_stats_with<'a>(
    game: &Game<'a>,
    file: &Arc<str>,
    lang: Option<Language>,
    wanted: Tallies,
    sink: &mut impl MainLineSink,
) -> GameStats<'a> {
    stats_and_fingerprint(game, file, lang, wanted, sink, false).0
}

/// [`game_stats`] and validate's fingerprint of the game (for the summary's tournaments, which count a copy
/// once): the replay fills it on the way, as it does for validate.
pub(crate) fn game_stats_fingerprinted<'a>(
    game: &Game<'a>,
    file: &Arc<str>,
    lang: Option<Language>,
) -> (GameStats<'a>, u64) {
    stats_and_fingerprint(game, file, lang, Tallies::ALL, &mut (), true)
}

fn stats_and_fingerprint<'a>(
    game: &Game<'a>,
    file: &Arc<str>,
    lang: Option<Language>,
    wanted: Tallies,
    sink: &mut impl MainLineSink,
    fingerprint: bool,
) -> (GameStats<'a>, u64) {
    // Claim tracking along the way, tag checks and the final FEN are validate's business, not stats'.
    let opts = ValidateOptions {
        lang,
        finished: false,
        tag_checks: false,
        track_claims: false,
        final_fen: false,
        strict: false,
        report_tags: fingerprint,
        // Cells of the tables stay in English whatever the user's language: they are data.
        messages: crate::messages::Locale::En,
        unplayed: Default::default(),
    };
    let mut tally = Tally {
        game,
        wanted,
        counts: Counts::default(),
        openings: Classifier::new(if wanted.opening {
            openings::table()
        } else {
            openings::OpeningTable::empty()
        }),
        sink,
    };
    let (report, replay) = validate_game_with(game, file, &opts, &mut tally);
    let first_error = report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .min_by_key(|p| (p.line, p.column))
        .map(|p| {
            let place = if p.in_variation {
                " (in a variation)"
            } else {
                ""
            };
            // A game read from a table's row is located in its row's text.
            let row = p.record.map_or(String::new(), |r| {
                format!("row group {}, row {}, ", r.group, r.row)
            });
            format!("{row}{}:{}: {}{place}", p.line, p.column, p.finding)
        });
    let stats = GameStats {
        number: game.index + 1,
        line: game.first_line(),
        tags: RowTags::of(game),
        marker: game.result,
        plies: report.plies,
        valid: report.valid,
        errors: report.errors() as u32,
        first_error,
        replayed: replay.map(|replay| ReplayFacts {
            lang: replay.prepared.lang.lang,
            variant: replay.prepared.variant,
            termination: replay.state.termination(),
            claimable: replay.state.claimable(),
            final_position: *replay.state.position(),
            counts: tally.counts,
            variation_moves: replay.variation_moves,
            opening: tally.openings.opening(),
        }),
    };
    (stats, report.fingerprint)
}

/// What one batch of games gives.
#[derive(Debug, Default)]
pub struct BatchStats {
    /// Per-move rows that came before those below, moved to a temporary file once the batch held too many
    /// ([`spill`]): written out first.
    pub(crate) spilled: Option<spill::Spilled>,
    /// CSV or JSON-lines rows (no header), ready to be written out.
    pub(crate) text: Vec<u8>,
    /// The rows as Arrow arrays, for Parquet encoded on the output side.
    pub table: Option<RecordBatch>,
    /// The rows as Parquet row groups, encoded here.
    pub(crate) row_groups: Option<columnar::EncodedRowGroups>,
    pub games: u64,
    pub games_with_errors: u64,
    /// Main-line half-moves replayed.
    pub plies: u64,
    /// One record per game, for [`Output::StatsSummary`].
    pub(crate) records: Vec<summary::GameRecord>,
}

/// The batch-wide constants the workers need, made once per run: the JSON keys, the Arrow schema, the
/// Parquet writers' factory when workers encode their own row groups, and where per-move rows go past a
/// size in memory.
#[derive(Debug, Default)]
pub(crate) struct Shapes {
    pub(crate) json_keys: Vec<Vec<u8>>,
    pub(crate) schema: Option<SchemaRef>,
    pub(crate) row_groups: Option<Arc<ArrowRowGroupWriterFactory>>,
    /// `None`: a batch keeps all its rows in memory, whatever their size.
    pub(crate) spill: Option<spill::Spill>,
}

impl Shapes {
    /// The keys and schema of `opts`' rows (no factory: see `columnar::ParquetOut::factory`).
    pub(crate) fn of(opts: &StatsOptions) -> Shapes {
        let columns = opts.columns();
        match opts.format {
            Format::Csv => Shapes::default(),
            Format::Jsonl => Shapes {
                json_keys: table::json_keys(&columns),
                ..Shapes::default()
            },
            Format::Parquet => Shapes {
                schema: Some(columnar::schema(&columns)),
                ..Shapes::default()
            },
        }
    }
}

/// At most this many `--tags` columns. Each costs every batch an array builder and every row group a column
/// chunk, and every CSV or JSON row its empty fields whether or not a game has the tag: twenty thousand made
/// a 128 KiB batch need hundreds of megabytes. No collection has anywhere near this many tags worth a column.
pub(crate) const MAX_TAG_COLUMNS: usize = 256;

/// The longest `--tags` name, in bytes: every JSON row repeats it as a key.
pub(crate) const MAX_TAG_NAME_BYTES: usize = 255;

/// Why a `--tags` list is refused ([`check_tags`]: [`UsageError::Tags`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TagsError {
    /// More names than `MAX_TAG_COLUMNS`.
    TooMany { given: usize },
    /// Not a PGN tag name (letters, digits and `_`, at most `MAX_TAG_NAME_BYTES`).
    NotATagName(String),
    /// The name of a column, or one that differs from it only by case: DuckDB, Spark SQL and pandas' readers
    /// do not tell `Termination` from `termination` (DuckDB renames one `Termination_1`). `holding` is the
    /// column that already holds the tag's value, when one does.
    Column {
        tag: String,
        column: &'static str,
        holding: Option<&'static str>,
    },
    /// Given twice, or two names that differ only by case (`WhiteElo,whiteelo`).
    Twice { tag: String, first: String },
}

/// At most this many characters of a refused name are shown: a command line may hold anything.
const SHOWN_NAME_CHARS: usize = 40;

fn shown_name(name: &str) -> String {
    match name.char_indices().nth(SHOWN_NAME_CHARS) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_string(),
    }
}

/// The per-game column holding the value of a tag the rows always show (`Termination`: `termination_tag`).
fn column_holding(tag: &str) -> Option<&'static str> {
    // UTCDate and UTCTime have slots but no column that shows them as written: they are left out.
    const SLOT_COLUMNS: [&str; 14] = [
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
        "termination_tag",
        "time_control",
        "variant",
    ];
    tag_slot(tag.as_bytes()).and_then(|k| SLOT_COLUMNS.get(k).copied())
}

impl pgnkit::explain::Explain for TagsError {
    fn explain(&self, locale: crate::messages::Locale) -> String {
        match self {
            TagsError::TooMany { given } => crate::localized!(
                locale,
                "{} tags: at most {} (each is a column of every row)",
                "{} balises : au plus {} (chacune est une colonne de chaque ligne)",
                given,
                MAX_TAG_COLUMNS
            ),
            TagsError::NotATagName(tag) => crate::localized!(
                locale,
                "`{}` is not a tag name (letters, digits and `_`, at most {} bytes)",
                "`{}` n'est pas un nom de balise (lettres, chiffres et `_`, au plus {} octets)",
                shown_name(tag),
                MAX_TAG_NAME_BYTES
            ),
            TagsError::Column {
                tag,
                column,
                holding,
            } => {
                let first = if tag == column {
                    crate::localized!(
                        locale,
                        "`{tag}` is already a column",
                        "`{tag}` est déjà une colonne"
                    )
                } else {
                    crate::localized!(
                        locale,
                        "`{tag}` differs from the column `{column}` only by case, which DuckDB and other SQL tools do not tell apart",
                        "`{tag}` ne diffère de la colonne `{column}` que par la casse, que DuckDB et d'autres outils SQL ne distinguent pas"
                    )
                };
                // Refused in CSV too, where the column is not: say where it is.
                let first = if table::TYPED_GAME_COLUMNS.iter().any(|c| c.name == *column) {
                    crate::localized!(
                        locale,
                        "{first} (a column of the Parquet rows)",
                        "{first} (une colonne des lignes Parquet)"
                    )
                } else {
                    first
                };
                match holding {
                    Some(holding) => crate::localized!(
                        locale,
                        "{first}; the tag's value is the column `{holding}`",
                        "{first} ; la valeur de la balise est la colonne `{holding}`"
                    ),
                    None => first,
                }
            }
            TagsError::Twice { tag, first } if tag == first => crate::localized!(
                locale,
                "`{tag}` is given twice",
                "`{tag}` est donnée deux fois"
            ),
            TagsError::Twice { tag, first } => crate::localized!(
                locale,
                "`{first}` and `{tag}` differ only by case, which DuckDB and other SQL tools do not tell apart",
                "`{first}` et `{tag}` ne diffèrent que par la casse, que DuckDB et d'autres outils SQL ne distinguent pas"
            ),
        }
    }
}

impl std::fmt::Display for TagsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use pgnkit::explain::Explain;
        f.write_str(&self.explain(crate::messages::Locale::En))
    }
}

impl std::error::Error for TagsError {}

/// Tag names for `--tags`: at most `MAX_TAG_COLUMNS` PGN tag names (letters, digits, `_`), each once, none
/// the name of a column, and no two names among them and the columns that differ only by case; else
/// [`UsageError::Tags`], which says why.
pub fn check_tags(tags: &[String]) -> Result<(), UsageError> {
    tag_names_refused(tags).map_err(|refused| UsageError::Tags(Box::new(refused)))
}

/// Why `tags` are no `--tags` list ([`check_tags`]).
fn tag_names_refused(tags: &[String]) -> Result<(), TagsError> {
    if tags.len() > MAX_TAG_COLUMNS {
        return Err(TagsError::TooMany { given: tags.len() });
    }
    for (i, tag) in tags.iter().enumerate() {
        if tag.is_empty()
            || tag.len() > MAX_TAG_NAME_BYTES
            || !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(TagsError::NotATagName(tag.clone()));
        }
        // The typed columns too: a list of tags is the same in every format.
        if let Some(column) = table::GAME_HEADER
            .iter()
            .chain(table::TYPED_GAME_COLUMNS.iter().map(|c| &c.name))
            .find(|c| c.eq_ignore_ascii_case(tag))
        {
            return Err(TagsError::Column {
                tag: tag.clone(),
                column,
                holding: column_holding(tag),
            });
        }
        if let Some(first) = tags[..i].iter().find(|t| t.eq_ignore_ascii_case(tag)) {
            return Err(TagsError::Twice {
                tag: tag.clone(),
                first: first.clone(),
            });
        }
    }
    Ok(())
}

/// About the fewest bytes of PGN a game takes (tags included), and a half-move (comments included): the
/// rows a batch may give, to size its arrays. An overestimate of the rows costs address space, not memory,
/// so it is bounded too: a batch of one game of 60 MB would otherwise reserve gigabytes, which a limit on
/// address space (`ulimit -v`) counts. Past the estimate the arrays grow as needed.
const GAME_BYTES: usize = 300;
const MOVE_BYTES: usize = 6;
const MOST_MOVE_ROWS_RESERVED: usize = 128 * 1024;

/// Why a batch's rows could not be made.
#[derive(Debug)]
pub(crate) enum BatchError {
    /// The Arrow arrays or their Parquet encoding (a bug, or a limit of the format).
    Encode(ParquetError),
    /// The temporary file of rows past the batch's share of memory.
    Spill(spill::SpillError),
}

impl From<ParquetError> for BatchError {
    fn from(e: ParquetError) -> Self {
        BatchError::Encode(e)
    }
}

impl From<ArrowError> for BatchError {
    fn from(e: ArrowError) -> Self {
        BatchError::Encode(e.into())
    }
}

impl From<spill::SpillError> for BatchError {
    fn from(e: spill::SpillError) -> Self {
        BatchError::Spill(e)
    }
}

impl pgnkit::explain::Explain for BatchError {
    fn explain(&self, locale: crate::messages::Locale) -> String {
        match self {
            BatchError::Encode(e) => crate::localized!(
                locale,
                "cannot encode the rows: {}",
                "impossible d'encoder les lignes : {}",
                e
            ),
            BatchError::Spill(e) => e.explain(locale),
        }
    }
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use pgnkit::explain::Explain;
        f.write_str(&self.explain(crate::messages::Locale::En))
    }
}

impl std::error::Error for BatchError {}

impl From<BatchError> for crate::run::JobError {
    fn from(e: BatchError) -> Self {
        crate::run::JobError::Encode(Box::new(e))
    }
}

/// The inputs whose games a batch holds, one after the other: one input's (a batch of a file), or those of
/// small texts taken together ([`Parts`]).
trait BatchInputs<'g> {
    /// Calls `f` with each input's name and games, in order.
    fn for_each_input(self, f: impl FnMut(&Arc<str>, &mut GameReader<'g>));
}

/// A batch of one input's games.
struct OneInput<'b, 'g> {
    name: Arc<str>,
    games: &'b mut GameReader<'g>,
}

impl<'g> BatchInputs<'g> for OneInput<'_, 'g> {
    fn for_each_input(self, mut f: impl FnMut(&Arc<str>, &mut GameReader<'g>)) {
        f(&self.name, self.games);
    }
}

impl<'r> BatchInputs<'r> for Parts<'r> {
    fn for_each_input(self, mut f: impl FnMut(&Arc<str>, &mut GameReader<'r>)) {
        for (input, mut games) in self {
            f(input.name, &mut games);
        }
    }
}

/// Runs stats over one batch of games, writing CSV or JSON rows into `buf` (cleared first; pass a recycled
/// buffer to save allocations) or gathering Arrow arrays (encoded into a row group when `shapes` has the
/// factory); per-move rows past `shapes.spill`'s threshold go to a temporary file (`BatchStats::spilled`).
/// Only the arrays, their encoding and that file can fail.
pub(crate) fn run_batch(
    games: &mut GameReader<'_>,
    file: &str,
    opts: &StatsOptions,
    shapes: &Shapes,
    buf: Vec<u8>,
) -> Result<BatchStats, BatchError> {
    let bytes = games.remaining();
    let input = OneInput {
        name: Arc::from(file),
        games,
    };
    batch_rows(input, bytes, opts, shapes, buf)
}

/// The same over small texts taken together: one batch of rows for them all (one record batch, not one per
/// text), each row naming its text. No record batch when they hold no game.
pub(crate) fn run_parts(
    parts: Parts<'_>,
    opts: &StatsOptions,
    shapes: &Shapes,
    buf: Vec<u8>,
) -> Result<BatchStats, BatchError> {
    // The texts' size is not known here: the arrays grow as needed.
    let mut out = batch_rows(parts, 0, opts, shapes, buf)?;
    if out.games == 0 {
        out.table = None;
    }
    Ok(out)
}

/// The rows of `inputs`' games; `bytes` of games, about, to size the arrays.
fn batch_rows<'g>(
    inputs: impl BatchInputs<'g>,
    bytes: usize,
    opts: &StatsOptions,
    shapes: &Shapes,
    mut buf: Vec<u8>,
) -> Result<BatchStats, BatchError> {
    buf.clear();
    let mut out = BatchStats::default();
    match (opts.output, opts.format, &shapes.schema) {
        (Output::StatsSummary, _, _) => {
            inputs.for_each_input(|name, games| {
                while let Some(group) = games.next_group() {
                    for game in group {
                        let (stats, fingerprint) = game_stats_fingerprinted(game, name, opts.lang);
                        out.add(&stats);
                        out.records
                            .push(summary::GameRecord::of(&stats, game, fingerprint));
                    }
                }
            });
        }
        (Output::Games, Format::Parquet, Some(schema)) => {
            // A batch hands out at most MAX_BATCH_GAMES games.
            let rows = (bytes / GAME_BYTES).min(MAX_BATCH_GAMES);
            let mut cells = columnar::ArrowCells::new(schema, rows);
            game_rows(inputs, opts, &mut out, &mut cells);
            out.set_table(cells.finish()?, shapes)?;
        }
        (Output::Games, Format::Jsonl, _) => {
            let mut cells = table::JsonCells::new(&mut buf, &shapes.json_keys);
            game_rows(inputs, opts, &mut out, &mut cells);
        }
        (Output::Games, _, _) => {
            let mut cells = table::CsvCells::new(&mut buf);
            game_rows(inputs, opts, &mut out, &mut cells);
        }
        (Output::Moves, Format::Parquet, Some(schema)) => {
            let rows = (bytes / MOVE_BYTES).min(MOST_MOVE_ROWS_RESERVED);
            let cells = columnar::ArrowCells::new(schema, rows);
            let cells = move_rows(inputs, opts, &mut out, cells, shapes.spill.as_ref())?;
            out.set_table(cells.finish()?, shapes)?;
        }
        (Output::Moves, Format::Jsonl, _) => {
            let cells = table::JsonCells::new(&mut buf, &shapes.json_keys);
            move_rows(inputs, opts, &mut out, cells, shapes.spill.as_ref())?;
        }
        (Output::Moves, _, _) => {
            let cells = table::CsvCells::new(&mut buf);
            move_rows(inputs, opts, &mut out, cells, shapes.spill.as_ref())?;
        }
    }
    out.text = buf;
    Ok(out)
}

/// One row per game of the batch.
fn game_rows<'g>(
    inputs: impl BatchInputs<'g>,
    opts: &StatsOptions,
    out: &mut BatchStats,
    cells: &mut impl table::Cells,
) {
    let mut scratch = String::new();
    let mut stats = Vec::with_capacity(GROUP_GAMES);
    inputs.for_each_input(|file, games| {
        while let Some(group) = games.next_group() {
            // A group's games are replayed, then its rows written: each step's code serves the whole group.
            stats.clear();
            stats.extend(
                group
                    .iter()
                    .map(|game| game_stats(game, file, opts.lang, &mut ())),
            );
            for (game, stats) in group.iter().zip(&stats) {
                out.add(stats);
                rows::write_game(
                    cells,
                    &mut scratch,
                    file,
                    stats,
                    game,
                    (&opts.tags, &opts.keep),
                );
            }
        }
    });
}

/// One row per main-line half-move of the batch's games; gives the cells back, holding the rows not spilled
/// (those are in `out.spilled`).
fn move_rows<'g, C: table::Cells + spill::Spillable>(
    inputs: impl BatchInputs<'g>,
    opts: &StatsOptions,
    out: &mut BatchStats,
    cells: C,
    spill: Option<&spill::Spill>,
) -> Result<C, BatchError> {
    let mut sink = rows::MoveRows::new(cells, "").spilling(spill);
    inputs.for_each_input(|file, games| {
        sink.start_file(file);
        while let Some(group) = games.next_group() {
            // Read a group, then replay it: the reader's code serves the whole group while it is cached.
            for game in group {
                sink.start_game(game.index + 1);
                // The rows need the moves, not the game's counts or opening.
                let stats = game_stats_with(game, file, opts.lang, Tallies::NONE, &mut sink);
                out.add(&stats);
            }
        }
    });
    let (cells, spilled) = sink.finish();
    out.spilled = spilled?;
    Ok(cells)
}

impl BatchStats {
    /// Keeps the batch's arrays, or the row group they encode to when the workers encode.
    fn set_table(&mut self, table: RecordBatch, shapes: &Shapes) -> Result<(), ParquetError> {
        match &shapes.row_groups {
            Some(factory) => {
                self.row_groups = Some(columnar::encode_row_groups(factory, &table)?);
            }
            None => self.table = Some(table),
        }
        Ok(())
    }

    fn add(&mut self, stats: &GameStats<'_>) {
        self.games += 1;
        self.games_with_errors += u64::from(!stats.valid);
        self.plies += u64::from(stats.plies);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::pgn::parse_all;

    fn stats_of(pgn: &str) -> GameStats<'_> {
        let games = parse_all(pgn.as_bytes());
        assert_eq!(games.len(), 1);
        game_stats(&games[0], &Arc::from("t.pgn"), None, &mut ())
    }

    fn counts_of(pgn: &str) -> Counts {
        let s = stats_of(pgn);
        assert!(s.valid, "{pgn}: {:?}", s.first_error);
        s.replayed.expect("replayed").counts
    }

    fn tags(names: &[&str]) -> Result<(), TagsError> {
        tag_names_refused(&names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn no_tag_column_differs_from_another_column_only_by_case() {
        use pgnkit::explain::Explain;
        assert_eq!(
            tags(&["UTCDate", "WhiteTitle", "WhiteElo", "TimeControl"]),
            Ok(())
        );
        // A built-in column's name in other capitals (DuckDB read `Termination` as `Termination_1`).
        let refused = tags(&["Termination"]).unwrap_err();
        assert_eq!(
            refused,
            TagsError::Column {
                tag: "Termination".into(),
                column: "termination",
                holding: Some("termination_tag"),
            }
        );
        assert!(refused.to_string().contains("termination_tag"), "{refused}");
        assert!(
            refused
                .explain(crate::messages::Locale::Fr)
                .contains("casse")
        );
        for clash in ["Event", "ECO", "Plies", "VALID", "Final_Fen", "eco"] {
            assert!(
                matches!(tags(&[clash]), Err(TagsError::Column { .. })),
                "{clash}"
            );
        }
        // Two tags that differ only by case, or the same one twice.
        assert_eq!(
            tags(&["WhiteElo", "UTCDate", "whiteelo"]),
            Err(TagsError::Twice {
                tag: "whiteelo".into(),
                first: "WhiteElo".into()
            })
        );
        assert!(matches!(
            tags(&["Link", "Link"]),
            Err(TagsError::Twice { .. })
        ));
        // Whatever the format: the columns of every table are checked the same way.
        for output in [Output::Games, Output::Moves] {
            let opts = StatsOptions {
                output,
                tags: vec!["UTCDate".into(), "Link".into()],
                ..StatsOptions::default()
            };
            let columns = opts.columns();
            for (i, a) in columns.iter().enumerate() {
                for b in &columns[..i] {
                    assert!(
                        !a.name.eq_ignore_ascii_case(b.name),
                        "{} {}",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }

    #[test]
    fn typed_columns_come_before_the_tags_in_parquet_alone_and_refuse_their_names_everywhere() {
        let names = |format| {
            let opts = StatsOptions {
                format,
                tags: vec!["UTCDate".into(), "UTCTime".into()],
                ..StatsOptions::default()
            };
            opts.columns()
                .iter()
                .map(|c| c.name.to_string())
                .collect::<Vec<_>>()
        };
        let text = names(Format::Csv);
        assert_eq!(names(Format::Jsonl), text);
        assert_eq!(text[..36], table::GAME_HEADER);
        assert_eq!(text[36..], ["UTCDate", "UTCTime"]);
        let typed = names(Format::Parquet);
        assert_eq!(typed[..36], text[..36]);
        assert_eq!(
            typed[36..],
            [
                "year",
                "month",
                "day",
                "utc_date",
                "utc_timestamp",
                "UTCDate",
                "UTCTime"
            ]
        );
        // A tag list means the same columns in every format: a typed column's name is refused in CSV too, and
        // the message says where that column is.
        for (tag, column) in [("Year", "year"), ("UTC_Date", "utc_date"), ("day", "day")] {
            let refused = tags(&[tag]).unwrap_err();
            assert!(
                matches!(&refused, TagsError::Column { column: c, holding: None, .. } if *c == column),
                "{refused:?}"
            );
            assert!(refused.to_string().contains("Parquet"), "{refused}");
        }
        assert!(
            !tags(&["Round"])
                .unwrap_err()
                .to_string()
                .contains("Parquet")
        );
    }

    #[test]
    fn absurd_tag_lists_are_refused() {
        let many: Vec<String> = (0..20_000).map(|i| format!("T{i}")).collect();
        assert_eq!(
            tag_names_refused(&many),
            Err(TagsError::TooMany { given: 20_000 })
        );
        assert_eq!(tag_names_refused(&many[..MAX_TAG_COLUMNS]), Ok(()));
        assert!(tag_names_refused(&many[..MAX_TAG_COLUMNS + 1]).is_err());
        let long = "T".repeat(MAX_TAG_NAME_BYTES + 1);
        let refused = tag_names_refused(std::slice::from_ref(&long)).unwrap_err();
        assert_eq!(refused, TagsError::NotATagName(long.clone()));
        // The message shows the start of the name, not all of it.
        assert!(refused.to_string().len() < 200, "{refused}");
        assert_eq!(tag_names_refused(&[long[1..].to_string()]), Ok(()));
        for bad in ["", "A B", "Tag-1", "Tagé"] {
            assert!(
                matches!(tags(&[bad]), Err(TagsError::NotATagName(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn counts_en_passant_as_a_capture() {
        let c = counts_of("1. e4 a6 2. e5 d5 3. exd6 *");
        assert_eq!((c.en_passant, c.captures, c.checks), (1, 1, 0));
        // A pawn that could have taken en passant but did not.
        let c = counts_of("1. e4 a6 2. e5 d5 3. d4 *");
        assert_eq!((c.en_passant, c.captures), (0, 0));
    }

    #[test]
    fn counts_promotions_and_captures() {
        // hxg5, gxh6, hxg8=Q (a capturing promotion), Nxg8.
        let c = counts_of("1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Rg8 5. hxg8=Q Nxg8 *");
        assert_eq!(
            (c.captures, c.promotions, c.en_passant, c.checks),
            (4, 1, 0, 0)
        );
    }

    #[test]
    fn counts_castling_per_side() {
        let c = counts_of("1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *");
        assert_eq!(c.castles, [1, 1]);
        let c = counts_of(
            "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bg4 6. Be2 e6 7. Bf4 Nd7 8. h3 O-O-O *",
        );
        assert_eq!(c.castles, [0, 1]);
        assert_eq!(c.captures, 2);
    }

    #[test]
    fn counts_checks_given_by_either_side() {
        let c = counts_of("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. Bc4+ d5 5. Bxd5+ Be6 *");
        assert_eq!((c.checks, c.captures), (3, 3));
        let c = counts_of("1. e4 f5 2. Qh5+ g6 3. d3 Bh6 4. Bxh6 Nxh6 5. Qxh6 e5 6. Qh4 Qxh4 *");
        assert_eq!((c.checks, c.captures), (1, 4));
    }

    #[test]
    fn mate_counts_as_a_check_and_ends_the_game() {
        let s = stats_of("1. f3 e5 2. g4 Qh4# 0-1");
        let r = s.replayed.as_ref().unwrap();
        assert_eq!(r.counts.checks, 1);
        assert_eq!(r.termination, Some(Termination::Checkmate));
        assert_eq!(s.plies, 4);
    }

    #[test]
    fn variations_do_not_count_but_their_errors_do() {
        let s = stats_of("1. e4 (1. d4 d5 2. Bxh7) e5 (1... exd4) 2. Nf3 *");
        let r = s.replayed.as_ref().unwrap();
        assert_eq!(s.plies, 3);
        assert_eq!(r.counts.captures, 0);
        assert_eq!(r.variation_moves, 2);
        assert!(!s.valid);
        assert_eq!(s.errors, 2);
        let first = s.first_error.as_deref().unwrap();
        assert!(first.starts_with("1:20: no bishop can reach h7"), "{first}");
        assert!(first.ends_with("(in a variation)"), "{first}");
    }

    #[test]
    fn main_line_stops_at_the_first_illegal_move() {
        let s = stats_of("[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Bb5 1-0");
        assert_eq!(s.plies, 2);
        assert!(!s.valid);
        assert_eq!(s.errors, 1);
        let first = s.first_error.unwrap();
        assert!(first.starts_with("3:13: "), "{first}");
        assert!(
            first.contains("(2 later moves of the main line left unchecked)"),
            "{first}"
        );
    }

    #[test]
    fn a_marker_that_contradicts_the_result_tag_is_an_error() {
        let s = stats_of("[Result \"1-0\"]\n\n1. e4 e5 0-1");
        assert!(!s.valid);
        assert_eq!(s.errors, 1);
        assert_eq!(s.plies, 2);
    }

    #[test]
    fn unplayable_starts_are_errors_without_replay() {
        let s = stats_of("[Variant \"Crazyhouse\"]\n\n1. e4 *");
        assert!(s.replayed.is_none());
        assert!(!s.valid);
        assert_eq!(s.errors, 1);
        assert_eq!(s.plies, 0);
        assert_eq!(s.tags.variant, "Crazyhouse");
    }

    #[test]
    fn french_games_are_counted_in_their_letters() {
        let s = stats_of("1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fxc6 dxc6 5. O-O *");
        let r = s.replayed.as_ref().unwrap();
        assert_eq!(r.lang, Language::Fr);
        assert_eq!(r.counts.captures, 2);
        assert_eq!(r.counts.castles, [1, 0]);
        assert!(s.valid);
    }
}
