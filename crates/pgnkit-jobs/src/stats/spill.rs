//! Per-move rows that outgrow memory: a batch moves the rows it has made to a temporary file of its own once
//! they pass a size ([`Spill`]), and the ordered output side copies them out from there, in their place,
//! before the rows the batch still holds.
//!
//! A batch's rows wait in memory until the output side takes them in input order, and one game's per-move
//! rows are about fifty times its text (two FENs a move): a batch holding one long game held all of them,
//! gigabytes for a game near the reader's limit. [`super::rows::MoveRows`] asks its cells how many bytes they
//! hold every [`CHECK_PLIES`] half-moves of a game ([`Spillable::held_bytes`]); past the threshold they go
//! to the batch's file ([`Overflow`]): CSV and JSON-lines bytes as they are, Arrow arrays encoded as a Parquet file with the
//! run's settings, which the output side appends column chunk by column chunk or reads back
//! ([`Spilled`]). Ordinary batches never come near the threshold, and their games never reach a look.
//!
//! The file has no name (Linux's `O_TMPFILE`; elsewhere it is removed as soon as it is created, or where
//! an open file cannot be removed, when it is dropped), so no signal or failure leaves one behind.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::file::metadata::ParquetMetaData;
use parquet::file::properties::WriterProperties;

use super::Format;
use crate::messages::{Explain, Locale};

/// A batch looks at the bytes its cells hold at every this many half-moves of a game: games shorter than
/// this (nearly all) never look, and a batch of them holds rows in proportion to its size. Past the
/// threshold a batch holds at most the rows of this many half-moves of each of its games more.
pub(crate) const CHECK_PLIES: u32 = 1024;

/// CSV or JSON-lines bytes a batch holds before it spills them. Above what a batch of ordinary games makes
/// (one thread reads blocks of 64 KiB, whose per-move JSON lines are a few MB).
pub(crate) const TEXT_SPILL_BYTES: usize = 8 << 20;

/// Bytes of Arrow arrays a batch holds before it spills them ([`Spillable::held_bytes`]). Above what a batch
/// of ordinary games makes for Parquet: with several threads each batch is a row group of half a MiB of
/// games, whose values take about 12 MiB.
pub(crate) const ARROW_SPILL_BYTES: usize = 32 << 20;

/// Where and past how many bytes a batch's per-move rows leave memory.
#[derive(Clone, Debug)]
pub(crate) struct Spill {
    dir: PathBuf,
    bytes: usize,
    /// The output's Parquet settings, for Arrow rows: the spilled column chunks are appended to the
    /// output as they are, so they must be encoded as its own.
    props: Option<WriterProperties>,
}

impl Spill {
    /// Rows of `format` spilled into `dir` past the format's threshold ([`TEXT_SPILL_BYTES`],
    /// [`ARROW_SPILL_BYTES`]); `props` are the output's Parquet settings
    /// (`columnar`'s writer properties), needed for Parquet only.
    pub(crate) fn new(dir: PathBuf, format: Format, props: Option<WriterProperties>) -> Spill {
        let bytes = match format {
            Format::Parquet => ARROW_SPILL_BYTES,
            Format::Csv | Format::Jsonl => TEXT_SPILL_BYTES,
        };
        Spill { dir, bytes, props }
    }

    /// The same, spilling past `bytes` instead (tests).
    #[cfg(test)]
    pub(crate) fn with_bytes(self, bytes: usize) -> Spill {
        Spill { bytes, ..self }
    }

    /// Bytes held before rows are spilled.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }
}

/// Cells whose complete rows can be moved out between two rows (implemented beside each kind of cells, which
/// this file does not need to know).
pub(crate) trait Spillable {
    /// About how many bytes the rows held take (their arrays' used bytes, for Arrow).
    fn held_bytes(&self) -> usize;
    /// Hands every row held to `overflow` and forgets them; called between rows only.
    fn spill(&mut self, overflow: &mut Overflow<'_>);
}

/// What a batch's rows became: where they go once spilled, and the first failure.
pub(crate) struct Overflow<'s> {
    spill: Option<&'s Spill>,
    file: Option<Writer>,
    failed: Option<SpillError>,
}

/// The writer of a batch's temporary file.
enum Writer {
    Text(TempFile),
    /// The Parquet writer writes through its own handle on the file, given back once it is finished.
    Parquet(Box<ArrowWriter<SharedFile>>, Arc<TempFile>),
}

/// A handle on a temporary file for a writer that must own what it writes to.
struct SharedFile(Arc<TempFile>);

impl Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (&self.0.file).write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        (&self.0.file).write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        (&self.0.file).flush()
    }
}

impl<'s> Overflow<'s> {
    /// Rows spilled as `spill` says; `None`: rows are kept, whatever their size.
    pub(crate) fn new(spill: Option<&'s Spill>) -> Overflow<'s> {
        Overflow {
            spill,
            file: None,
            failed: None,
        }
    }

    /// Whether cells holding `held` bytes should spill them.
    #[inline]
    pub(crate) fn is_due(&self, held: usize) -> bool {
        self.spill.is_some_and(|s| held >= s.bytes)
    }

    fn failure(&mut self, step: SpillStep, error: io::Error) {
        if self.failed.is_none() {
            self.failed = Some(SpillError {
                subject: SpillSubject::LongGame,
                step,
                dir: self.spill.map(|s| s.dir.clone()).unwrap_or_default(),
                error,
            });
        }
    }

    /// The directory, or the failure to record when nothing was to be spilled (a bug).
    fn dir(&mut self) -> Option<&'s Path> {
        match self.spill {
            Some(spill) if self.failed.is_none() => Some(&spill.dir),
            Some(_) => None,
            None => {
                self.failure(
                    SpillStep::Write,
                    io::Error::other("rows spilled by a batch that keeps its rows"),
                );
                None
            }
        }
    }

    /// Appends CSV or JSON-lines rows. After a failure rows are dropped: the batch fails with it.
    pub(crate) fn text(&mut self, rows: &[u8]) {
        let Some(dir) = self.dir() else { return };
        let written = match &mut self.file {
            Some(Writer::Text(file)) => file.write_all(rows),
            Some(Writer::Parquet(..)) => Err(io::Error::other("text rows after Arrow rows")),
            None => TempFile::create(dir).and_then(|mut file| {
                file.write_all(rows)?;
                self.file = Some(Writer::Text(file));
                Ok(())
            }),
        };
        if let Err(e) = written {
            self.failure(SpillStep::Write, e);
        }
    }

    /// Appends Arrow rows, encoded as the output will hold them.
    pub(crate) fn arrow(&mut self, rows: &RecordBatch) {
        let Some(dir) = self.dir() else { return };
        let props = self.spill.and_then(|s| s.props.clone());
        let written = match &mut self.file {
            Some(Writer::Parquet(writer, _)) => writer.write(rows).map_err(io::Error::other),
            Some(Writer::Text(_)) => Err(io::Error::other("Arrow rows after text rows")),
            None => TempFile::create(dir).and_then(|file| {
                let file = Arc::new(file);
                let mut writer =
                    ArrowWriter::try_new(SharedFile(Arc::clone(&file)), rows.schema(), props)
                        .map_err(io::Error::other)?;
                writer.write(rows).map_err(io::Error::other)?;
                self.file = Some(Writer::Parquet(Box::new(writer), file));
                Ok(())
            }),
        };
        if let Err(e) = written {
            self.failure(SpillStep::Write, e);
        }
    }

    /// Records a failure of the cells themselves (making the arrays to spill).
    pub(crate) fn failed(&mut self, error: io::Error) {
        self.failure(SpillStep::Write, error);
    }

    /// The spilled rows, if any, ready to be read from their start.
    pub(crate) fn finish(self) -> Result<Option<Spilled>, SpillError> {
        let dir = self.spill.map(|s| s.dir.clone()).unwrap_or_default();
        if let Some(failed) = self.failed {
            return Err(failed);
        }
        let fail = |error| SpillError {
            subject: SpillSubject::LongGame,
            step: SpillStep::Write,
            dir: dir.clone(),
            error,
        };
        match self.file {
            None => Ok(None),
            Some(Writer::Text(mut file)) => {
                file.rewind().map_err(fail)?;
                Ok(Some(Spilled::Text(SpilledFile(file))))
            }
            Some(Writer::Parquet(mut writer, file)) => {
                let metadata = writer.finish().map_err(|e| fail(io::Error::other(e)))?;
                drop(writer);
                let file = Arc::try_unwrap(file)
                    .map_err(|_| fail(io::Error::other("the file is still being written")))?;
                Ok(Some(Spilled::Parquet(SpilledParquet {
                    file: SpilledFile(file),
                    metadata,
                })))
            }
        }
    }
}

/// Rows a batch spilled, to be written out before the rows it kept.
#[derive(Debug)]
pub(crate) enum Spilled {
    /// CSV or JSON-lines rows ([`SpilledFile::copy_to`]).
    Text(SpilledFile),
    /// Arrow rows as a Parquet file encoded with the output's settings.
    Parquet(SpilledParquet),
}

/// A batch's temporary file, read from its start.
#[derive(Debug)]
pub(crate) struct SpilledFile(TempFile);

/// Why copying spilled rows out failed.
#[derive(Debug)]
pub(crate) enum CopyFailure {
    /// Reading the temporary file back.
    Spill(SpillError),
    /// Writing to the output.
    Write(io::Error),
}

impl SpilledFile {
    /// Copies the whole file to `out`, a buffer of 1 MiB at a time; gives the bytes copied.
    pub(crate) fn copy_to(mut self, out: &mut impl Write) -> Result<u64, CopyFailure> {
        let mut buf = vec![0; 1 << 20];
        let mut copied = 0u64;
        loop {
            let n = match self.0.read(&mut buf) {
                Ok(0) => return Ok(copied),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(CopyFailure::Spill(SpillError::reading(e))),
            };
            out.write_all(&buf[..n]).map_err(CopyFailure::Write)?;
            copied += n as u64;
        }
    }
}

/// Arrow rows spilled as a Parquet file: its row groups, whose column chunks can be appended to the output
/// as they are ([`SpilledParquet::metadata`], [`SpilledParquet::file`]), or its rows read back.
pub(crate) struct SpilledParquet {
    file: SpilledFile,
    metadata: ParquetMetaData,
}

impl std::fmt::Debug for SpilledParquet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SpilledParquet({} row groups)",
            self.metadata.num_row_groups()
        )
    }
}

impl SpilledParquet {
    /// The row groups and their column chunks, as written.
    pub(crate) fn metadata(&self) -> &ParquetMetaData {
        &self.metadata
    }

    /// The file, to read the column chunks from at the offsets of [`SpilledParquet::metadata`].
    pub(crate) fn file(&self) -> &File {
        &self.file.0.file
    }

    /// The rows read back, `rows` at a time.
    pub(crate) fn record_batches(self, rows: usize) -> Result<RecordBatches, SpillError> {
        let reader = self.file.0.file.try_clone().map_err(SpillError::reading)?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(reader)
            .and_then(|b| b.with_batch_size(rows.max(1)).build())
            .map_err(|e| SpillError::reading(io::Error::other(e)))?;
        Ok(RecordBatches {
            reader,
            _file: self.file.0,
        })
    }
}

/// The rows of a [`SpilledParquet`], in order.
pub(crate) struct RecordBatches {
    reader: ParquetRecordBatchReader,
    /// Kept until the rows are read (a named file is removed when it is dropped).
    _file: TempFile,
}

impl Iterator for RecordBatches {
    type Item = Result<RecordBatch, SpillError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader
            .next()
            .map(|r| r.map_err(|e| SpillError::reading(io::Error::other(e))))
    }
}

/// What failed with the temporary file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpillStep {
    /// Creating or writing it (a batch's worker).
    Write,
    /// Reading it back (the output side).
    Read,
}

/// What a temporary file holds, for its error's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpillSubject {
    /// stats' rows of a long game.
    LongGame,
    /// tree's counts (sorted runs) or a book's entries.
    TreeCounts,
}

/// A temporary file of spilled rows that could not be written or read back.
#[derive(Debug)]
pub(crate) struct SpillError {
    pub(crate) subject: SpillSubject,
    pub(crate) step: SpillStep,
    /// Where the file was made (empty when reading: the file has no name).
    pub(crate) dir: PathBuf,
    pub(crate) error: io::Error,
}

impl SpillError {
    /// Reading spilled rows back failed.
    pub(crate) fn reading(error: io::Error) -> SpillError {
        SpillError::reading_of(SpillSubject::LongGame, error)
    }

    /// Reading `subject` back from its temporary file failed.
    pub(crate) fn reading_of(subject: SpillSubject, error: io::Error) -> SpillError {
        SpillError {
            subject,
            step: SpillStep::Read,
            dir: PathBuf::new(),
            error,
        }
    }
}

impl Explain for SpillError {
    fn explain(&self, locale: Locale) -> String {
        let shown = self.dir.display().to_string();
        let dir = crate::safe_text::safe(&shown);
        let error = &self.error;
        match (self.subject, self.step) {
            (SpillSubject::LongGame, SpillStep::Write) => crate::localized!(
                locale,
                "cannot write the rows of a long game to a temporary file in {dir}: {error}",
                "impossible d'écrire les lignes d'une longue partie dans un fichier temporaire de {dir} : {error}"
            ),
            (SpillSubject::LongGame, SpillStep::Read) => crate::localized!(
                locale,
                "cannot read back the rows of a long game from their temporary file: {error}",
                "impossible de relire les lignes d'une longue partie dans leur fichier temporaire : {error}"
            ),
            (SpillSubject::TreeCounts, SpillStep::Write) => crate::localized!(
                locale,
                "cannot write the tree's counts to a temporary file in {dir} (choose another with --temp-dir, or more --memory): {error}",
                "impossible d'écrire les comptes de l'arbre dans un fichier temporaire de {dir} (choisissez-en un autre avec --temp-dir, ou plus de --memory) : {error}"
            ),
            (SpillSubject::TreeCounts, SpillStep::Read) => crate::localized!(
                locale,
                "cannot read the tree's counts back from their temporary file: {error}",
                "impossible de relire les comptes de l'arbre dans leur fichier temporaire : {error}"
            ),
        }
    }
}

impl std::fmt::Display for SpillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for SpillError {}

/// An open temporary file without a name (or, where a name cannot be removed while the file is open, with
/// one removed when it is dropped).
#[derive(Debug)]
pub(crate) struct TempFile {
    file: File,
    /// The name to remove on drop, where it could not be removed at once.
    path: Option<PathBuf>,
}

impl TempFile {
    pub(crate) fn create(dir: &Path) -> io::Result<TempFile> {
        if let Some(file) = crate::unnamed_file::create(dir, 0o600) {
            return Ok(TempFile { file, path: None });
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".pgnkit-spill-{}-{n}.tmp", std::process::id()));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                // Unix removes the name at once and keeps the open file; elsewhere it goes on drop.
                Ok(file) => {
                    let removed = cfg!(unix) && std::fs::remove_file(&path).is_ok();
                    return Ok(TempFile {
                        file,
                        path: (!removed).then_some(path),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < u64::MAX => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Read for TempFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.file.read(buf)
    }
}

impl Seek for TempFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file.seek(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::columnar::{Codec, Encoding, ParquetOut, writer_properties};
    use crate::stats::{BatchStats, Output, Shapes, StatsOptions, run_batch};
    use pgnkit::pgn::GameReader;

    /// A fresh directory for one test's temporary files.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-spill-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Two short games around one of `cycles` knight shuffles (four half-moves each).
    fn long_game(cycles: usize) -> String {
        let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(cycles);
        format!(
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[Result \"*\"]\n\n{shuffle}*\n\n\
             [Event \"c\"]\n\n1. d4 {{a comment, \"quoted\"}} d5 *\n"
        )
    }

    fn options(format: Format) -> StatsOptions {
        StatsOptions {
            output: Output::Moves,
            format,
            ..StatsOptions::default()
        }
    }

    /// The batch of `pgn`'s games with `shapes`.
    fn batch(pgn: &str, format: Format, shapes: &Shapes) -> BatchStats {
        let mut games = GameReader::new(pgn.as_bytes());
        run_batch(&mut games, "t.pgn", &options(format), shapes, Vec::new()).unwrap()
    }

    /// What the output side writes of a text batch: the spilled rows, then the rows kept.
    fn text_out(batch: BatchStats) -> Vec<u8> {
        let mut out = Vec::new();
        match batch.spilled {
            Some(Spilled::Text(rows)) => {
                let copied = rows.copy_to(&mut out).unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(copied, out.len() as u64);
            }
            Some(Spilled::Parquet(_)) => panic!("Parquet rows for a text format"),
            None => {}
        }
        out.extend_from_slice(&batch.text);
        out
    }

    #[test]
    fn text_rows_past_the_threshold_come_back_in_their_place() {
        let dir = temp_dir("text");
        let pgn = long_game(1000);
        for format in [Format::Csv, Format::Jsonl] {
            let mut shapes = Shapes::of(&options(format));
            let kept = batch(&pgn, format, &shapes);
            assert!(kept.spilled.is_none());
            let expected = kept.text;
            assert_eq!(expected.iter().filter(|&&b| b == b'\n').count(), 4004);

            // Past one byte: the rows held go to the file at every look, before the long game's half-moves
            // CHECK_PLIES, 2 * CHECK_PLIES and 3 * CHECK_PLIES.
            shapes.spill = Some(Spill::new(dir.clone(), format, None).with_bytes(1));
            let spilled = batch(&pgn, format, &shapes);
            assert_eq!((spilled.games, spilled.plies), (3, 4004));
            assert!(matches!(spilled.spilled, Some(Spilled::Text(_))));
            let kept_rows = spilled.text.iter().filter(|&&b| b == b'\n').count();
            // Kept: the long game's rows from its half-move 3 * CHECK_PLIES on, and the last game's two.
            assert_eq!(
                kept_rows,
                4000 - 3 * CHECK_PLIES as usize + 1 + 2,
                "{format:?}"
            );
            assert!(text_out(spilled) == expected, "{format:?}");

            // A threshold the batch never reaches: nothing spilled, the same rows.
            shapes.spill = Some(Spill::new(dir.clone(), format, None));
            let ordinary = batch(&pgn, format, &shapes);
            assert!(ordinary.spilled.is_none());
            assert!(ordinary.text == expected);
        }
        // The files had no name: nothing is left in the directory.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every row of a Parquet file.
    fn parquet_rows(bytes: Vec<u8>) -> (RecordBatch, usize) {
        use parquet::arrow::arrow_reader::{ArrowReaderOptions, RowSelection, RowSelector};
        use parquet::file::metadata::PageIndexPolicy;
        let bytes = bytes::Bytes::from(bytes);
        let builder = ParquetRecordBatchReaderBuilder::try_new(bytes.clone()).unwrap();
        let groups = builder.metadata().num_row_groups();
        let schema = builder.schema().clone();
        let batches: Vec<RecordBatch> = builder.build().unwrap().map(Result::unwrap).collect();
        let rows = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
        // A slice read through the page index, whose page offsets an appended column chunk must carry to
        // where it lands in the file.
        let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Required);
        let builder =
            ParquetRecordBatchReaderBuilder::try_new_with_options(bytes, options).unwrap();
        assert!(builder.metadata().page_index().is_some());
        let selection = RowSelection::from(vec![RowSelector::skip(1500), RowSelector::select(300)]);
        let slice: Vec<RecordBatch> = builder
            .with_row_selection(selection)
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let slice = arrow_select::concat::concat_batches(&schema, &slice).unwrap();
        assert_eq!(slice, rows.slice(1500, 300));
        (rows, groups)
    }

    /// What the output side writes of Arrow batches, as `stats` does: the spilled rows, then those kept.
    fn parquet_out(pgn: &str, encoding: Encoding, spill: Option<Spill>) -> (RecordBatch, usize) {
        let opts = options(Format::Parquet);
        let mut shapes = Shapes::of(&opts);
        let schema = shapes.schema.clone().unwrap();
        let mut writer = ParquetOut::new(&schema, encoding, Codec::Zstd).unwrap();
        shapes.row_groups = writer.factory();
        shapes.spill = spill;
        let mut out = Vec::new();
        // The long game alone in a batch, as the reader cuts batches of whole games; then the others.
        let (first, rest) = pgn.split_at(pgn.find("[Event \"c\"]").unwrap());
        for part in [first, rest] {
            let batch = batch(part, Format::Parquet, &shapes);
            if let Some(spilled) = batch.spilled {
                let Spilled::Parquet(rows) = spilled else {
                    panic!("text rows for Parquet")
                };
                writer.append_spilled(rows, &mut out).unwrap();
            }
            if let Some(table) = &batch.table {
                writer.write(table, &mut out).unwrap();
            }
            if let Some(groups) = batch.row_groups {
                writer.append(groups, &mut out).unwrap();
            }
        }
        writer.finish(&mut out).unwrap();
        parquet_rows(out)
    }

    #[test]
    fn arrow_rows_past_the_threshold_come_back_in_their_place() {
        let dir = temp_dir("arrow");
        let pgn = long_game(1000);
        let schema = Shapes::of(&options(Format::Parquet)).schema.unwrap();
        let props = || Some(writer_properties(&schema, Codec::Zstd));
        for encoding in [Encoding::OnOutput, Encoding::InWorkers] {
            let (expected, _) = parquet_out(&pgn, encoding, None);
            assert_eq!(expected.num_rows(), 4004);
            let spill = Spill::new(dir.clone(), Format::Parquet, props()).with_bytes(1);
            let (rows, groups) = parquet_out(&pgn, encoding, Some(spill));
            assert_eq!(rows, expected, "{encoding:?}");
            if encoding == Encoding::InWorkers {
                // The spilled row group (rows before the long game's half-move 3 * CHECK_PLIES) as it was encoded, the rows kept, the last
                // batch.
                assert_eq!(groups, 3, "{encoding:?}");
            }
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn spilled_arrow_rows_read_back_as_they_were() {
        let dir = temp_dir("read-back");
        let schema = Shapes::of(&options(Format::Parquet)).schema.unwrap();
        let spill = Spill::new(dir.clone(), Format::Parquet, None).with_bytes(1);
        let mut shapes = Shapes::of(&options(Format::Parquet));
        shapes.spill = Some(spill);
        let kept = batch(
            &long_game(600),
            Format::Parquet,
            &Shapes::of(&options(Format::Parquet)),
        );
        let expected = kept.table.unwrap();
        let spilled = batch(&long_game(600), Format::Parquet, &shapes);
        let Some(Spilled::Parquet(rows)) = spilled.spilled else {
            panic!("no Parquet rows spilled");
        };
        // The first game's two rows, and the long game's before its half-move 2 * CHECK_PLIES.
        assert_eq!(
            rows.metadata().file_metadata().num_rows(),
            2 + 2 * CHECK_PLIES as i64 - 1
        );
        let mut read: Vec<RecordBatch> = rows
            .record_batches(100)
            .unwrap()
            .map(|b| b.unwrap())
            .collect();
        assert!(read.iter().all(|b| b.num_rows() <= 100));
        read.push(spilled.table.unwrap());
        let read = arrow_select::concat::concat_batches(&schema, &read).unwrap();
        assert_eq!(read, expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_that_cannot_be_written_fails_the_batch_and_says_where() {
        let dir = temp_dir("missing").join("no-such-directory");
        for format in [Format::Csv, Format::Parquet] {
            let mut shapes = Shapes::of(&options(format));
            shapes.spill = Some(Spill::new(dir.clone(), format, None).with_bytes(1));
            let pgn = long_game(300);
            let mut games = GameReader::new(pgn.as_bytes());
            let failed =
                run_batch(&mut games, "t.pgn", &options(format), &shapes, Vec::new()).unwrap_err();
            let crate::stats::BatchError::Spill(e) = &failed else {
                panic!("{failed:?}")
            };
            assert_eq!((e.step, e.dir.as_path()), (SpillStep::Write, dir.as_path()));
            let shown = dir.display().to_string();
            for locale in [Locale::En, Locale::Fr] {
                let message = failed.explain(locale);
                assert!(message.contains(&shown), "{message}");
            }
            assert!(failed.explain(Locale::Fr).contains("fichier temporaire"));
        }
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    }

    #[test]
    fn rows_are_kept_without_a_spill_whatever_their_size() {
        let overflow = Overflow::new(None);
        assert!(!overflow.is_due(usize::MAX));
        let spill = Spill::new(PathBuf::from("."), Format::Csv, None);
        assert_eq!(spill.bytes(), TEXT_SPILL_BYTES);
        let overflow = Overflow::new(Some(&spill));
        assert!(!overflow.is_due(TEXT_SPILL_BYTES - 1));
        assert!(overflow.is_due(TEXT_SPILL_BYTES));
        assert_eq!(
            Spill::new(PathBuf::from("."), Format::Parquet, None).bytes(),
            ARROW_SPILL_BYTES
        );
        assert!(matches!(Overflow::new(None).finish(), Ok(None)));
    }
}
