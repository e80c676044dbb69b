//! `tree`: the opening tree of the games' main lines. For every position reached within `depth` plies of
//! the root (the start, or `--from`), every move played from it, with how many games played it, how they
//! ended, the players' ratings, the performance, the dates and the opening the move leads to.
//!
//! Positions are merged as FIDE's "same position" (pieces, side to move, castling rights, an en-passant
//! square only when the capture is legal): transpositions meet. A game counts once per (position, move) it
//! plays, from its first arrival at the root; a game that never arrives there is not in the tree. Games are
//! chosen as `select --where` chooses them, and by player (`--player`, `--color`).
//!
//! The run ([`TreeJob`]) tallies each batch on a worker; the caller's sink hands the batches to a
//! [`TreeBuilder`], which keeps the tallies in bounded memory and spills sorted runs to temporary files past
//! it; [`Tree`] merges them in key order (the position's hash, then the position, then the move) and writes
//! the rows ([`Tree::write`]), or gives them as Arrow record batches ([`Tree::record_batches`]).

mod book;
mod columns;
mod html;
mod job;
mod node;
mod store;
mod tally;
mod text;

pub use job::{TreeBatch, TreeJob, TreeState};

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use crate::messages::{Explain, Locale};
use crate::options::TreeFormat;
use crate::run::JobError;
use crate::select::SelectOptions;
use crate::select::expr::ExprError;
pub(crate) use crate::stats::spill::{SpillError, SpillStep, SpillSubject};
use node::Node;
use pgnkit::core::fen::{self, InvalidFen};
use pgnkit::core::{Color, Move, MoveKind, Position, PositionKey, Role, Square};
use pgnkit::notation::Language;
use pgnkit::pgn::{Game, GameReader};
use pgnkit::walk::{self, MoveAt, MoveFailure, Visitor, Walk, WalkOptions};
use store::{Key, Merged, Store};
use tally::Tally;

/// Plies from the root a tree covers by default.
pub const DEFAULT_DEPTH: u32 = 20;

/// What the user asked of tree, read from a [`TreeRequest`].
#[derive(Debug)]
pub(crate) struct TreeOptions {
    /// `--where`, and the piece letters to read moves with (`None`: detected per game).
    pub(crate) select: SelectOptions,
    /// The position the tree starts from.
    pub(crate) root: Position,
    pub(crate) root_key: PositionKey,
    /// Plies counted from the root.
    pub(crate) depth: u32,
    /// Rows of fewer games are left out of the output (they still count while the tree is built).
    pub(crate) min_games: u64,
    pub(crate) player: Option<Player>,
    /// Bytes of tallies held in memory before a sorted run goes to `spill_dir`.
    pub(crate) memory: usize,
    pub(crate) spill_dir: PathBuf,
}

/// What chooses the games of a tree and where it starts, as the user gave them ([`TreeJob::new`]).
#[derive(Clone, Debug, Default)]
pub struct TreeRequest<'a> {
    /// `--where`: as select's.
    pub filter: Option<&'a str>,
    /// `--from`: a FEN, an EPD's four fields, or `startpos`.
    pub from_fen: Option<&'a str>,
    /// `--from-moves`: moves from `from_fen` (or the start), in SAN with or without numbers.
    pub from_moves: Option<&'a str>,
    /// `--player`: a name as the `White` and `Black` tags give it (compared without case).
    pub player: Option<&'a str>,
    /// `--color`: the player's games with this colour only.
    pub color: Option<Color>,
    /// Piece letters (`None`: detected per game).
    pub lang: Option<Language>,
    /// Plies from the root ([`DEFAULT_DEPTH`]).
    pub depth: u32,
    /// Rows of fewer games are left out.
    pub min_games: u64,
    /// Bytes of tallies held in memory before they spill ([`default_memory`]).
    pub memory: usize,
    /// Where runs spill.
    pub spill_dir: PathBuf,
}

/// The player whose games make the tree (`--player`, `--color`).
#[derive(Clone, Debug)]
pub(crate) struct Player {
    /// The name, trimmed, in lower case.
    name: String,
    color: Option<Color>,
}

impl Player {
    /// Whether the game is one of the player's (with the colour asked).
    pub(crate) fn plays(&self, game: &Game<'_>) -> bool {
        let is = |tag: &str| {
            game.tag(tag).is_some_and(|value| {
                let value = value.trim();
                value.eq_ignore_ascii_case(&self.name) || value.to_lowercase() == self.name
            })
        };
        match self.color {
            Some(Color::White) => is("White"),
            Some(Color::Black) => is("Black"),
            None => is("White") || is("Black"),
        }
    }
}

/// A request refused before any game is read.
#[derive(Debug)]
pub enum TreeOptionError {
    /// `--where`.
    Where(ExprError),
    /// `--from`: the position given, and why it is none.
    From { fen: String, error: InvalidFen },
    /// `--from-moves`: the move that could not be played (its number from 1 and text), and why.
    FromMoves {
        ply: u32,
        token: String,
        reason: String,
    },
    /// `--color` without `--player`, or an empty player name.
    Player,
    /// `--depth 0`.
    Depth,
}

impl Explain for TreeOptionError {
    fn explain(&self, locale: Locale) -> String {
        match self {
            TreeOptionError::Where(e) => e.explain(locale),
            TreeOptionError::From { fen, error } => crate::localized!(
                locale,
                "--from {fen:?}: {error}",
                "--from {fen:?} : {error}"
            ),
            TreeOptionError::FromMoves { ply, token, reason } => crate::localized!(
                locale,
                "--from-moves: half-move {ply}, {token:?}: {reason}",
                "--from-moves : demi-coup {ply}, {token:?} : {reason}"
            ),
            TreeOptionError::Player => crate::localized!(
                locale,
                "--color needs --player NAME (a name that is not empty)",
                "--color demande --player NOM (un nom non vide)"
            ),
            TreeOptionError::Depth => crate::localized!(
                locale,
                "--depth must be at least 1",
                "--depth doit valoir au moins 1"
            ),
        }
    }
}

impl std::fmt::Display for TreeOptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(Locale::En))
    }
}

impl std::error::Error for TreeOptionError {}

/// A share of the machine's memory for the tallies: a quarter of what the process may use (the cgroup's
/// limit when there is one, else the machine's memory), at least 64 MiB; 1 GiB when neither can be read.
pub fn default_memory() -> usize {
    const FLOOR: usize = 64 << 20;
    let total = physical_memory();
    total.map_or(1 << 30, |bytes| (bytes / 4).max(FLOOR as u64) as usize)
}

/// The memory this process may use: the smaller of the machine's and its cgroup's limit (Linux).
fn physical_memory() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        });
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok());
    match (machine, cgroup) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}

impl TreeOptions {
    /// The options of `request`, checked.
    pub(crate) fn new(request: TreeRequest<'_>) -> Result<TreeOptions, TreeOptionError> {
        let mut select =
            SelectOptions::filtering(request.filter).map_err(TreeOptionError::Where)?;
        select.lang = request.lang;
        if request.depth == 0 {
            return Err(TreeOptionError::Depth);
        }
        let mut root = match request.from_fen {
            Some(text) => fen::parse_fen(fen::expand_startpos(text)).map_err(|error| {
                TreeOptionError::From {
                    fen: text.to_string(),
                    error,
                }
            })?,
            None => Position::new(),
        };
        if let Some(moves) = request.from_moves {
            root = play_moves(root, moves, request.lang)?;
        }
        let player = match (request.player.map(str::trim), request.color) {
            (Some(""), _) | (None, Some(_)) => return Err(TreeOptionError::Player),
            (Some(name), color) => Some(Player {
                name: name.to_lowercase(),
                color,
            }),
            (None, None) => None,
        };
        Ok(TreeOptions {
            select,
            root_key: root.key(),
            root,
            depth: request.depth,
            min_games: request.min_games,
            player,
            memory: request.memory,
            spill_dir: request.spill_dir,
        })
    }
}

/// The position after `moves` (SAN, numbers and comments allowed) from `start`.
fn play_moves(
    start: Position,
    moves: &str,
    lang: Option<Language>,
) -> Result<Position, TreeOptionError> {
    let mut text = String::new();
    if start.key() != Position::new().key() {
        text.push_str(&format!(
            "[SetUp \"1\"]\n[FEN \"{}\"]\n\n",
            fen::to_fen(&start)
        ));
    }
    text.push_str(moves);
    text.push_str(" *\n");
    let mut reader = GameReader::new(text.as_bytes());
    let Some(game) = reader.next() else {
        return Ok(start);
    };
    let prepared = walk::prepare(&game, lang).map_err(|e| TreeOptionError::FromMoves {
        ply: 0,
        token: String::new(),
        reason: format!("{e:?}"),
    })?;
    let mut follow = Follow {
        game: &game,
        position: prepared.start,
        failed: None,
    };
    walk::walk(&game, &prepared, WalkOptions::default(), &mut follow);
    match follow.failed {
        Some(e) => Err(e),
        None => Ok(follow.position),
    }
}

/// Follows `--from-moves`' main line to its end, or to its first move that cannot be played.
struct Follow<'g, 'a> {
    game: &'g Game<'a>,
    position: Position,
    failed: Option<TreeOptionError>,
}

impl Visitor for Follow<'_, '_> {
    type Output = ();

    fn begin_variation(&mut self, _: walk::VariationAt) -> ControlFlow<(), walk::Skip> {
        ControlFlow::Continue(walk::Skip(true))
    }

    fn after_move(&mut self, _: MoveAt<'_>, _: &Move, after: &Position) -> ControlFlow<()> {
        self.position = *after;
        ControlFlow::Continue(())
    }

    fn null_move(&mut self, at: MoveAt<'_>, _: &Position) -> ControlFlow<()> {
        self.failed = Some(TreeOptionError::FromMoves {
            ply: at.ply,
            token: self.token(at),
            reason: "a null move is no move of a game".into(),
        });
        ControlFlow::Break(())
    }

    fn failure(&mut self, at: MoveAt<'_>, _: &Position, failure: MoveFailure) -> ControlFlow<()> {
        let reason = match failure {
            MoveFailure::Syntax(e) => e.to_string(),
            MoveFailure::San(e) => e.to_string(),
            MoveFailure::GameOver { checkmate: true } => "the game is over (checkmate)".into(),
            MoveFailure::GameOver { checkmate: false } => "the game is over (stalemate)".into(),
            MoveFailure::Unknown => "not a move".into(),
        };
        self.failed = Some(TreeOptionError::FromMoves {
            ply: at.ply,
            token: self.token(at),
            reason,
        });
        ControlFlow::Break(())
    }

    fn end_game(&mut self, _: Walk) {}
}

impl Follow<'_, '_> {
    fn token(&self, at: MoveAt<'_>) -> String {
        String::from_utf8_lossy(self.game.bytes(at.token.span)).into_owned()
    }
}

/// A tree's tallies as batches come in, in bounded memory ([`TreeBuilder::add`]), then the tree
/// ([`TreeBuilder::finish`]).
pub struct TreeBuilder {
    store: Store,
    root: Position,
    min_games: u64,
    spill_dir: PathBuf,
    memory: usize,
}

/// The tree's temporary files' errors, with the wording of the tree's counts.
pub(crate) fn spill_write_error(dir: &std::path::Path, error: io::Error) -> SpillError {
    SpillError {
        subject: SpillSubject::TreeCounts,
        step: SpillStep::Write,
        dir: dir.to_path_buf(),
        error,
    }
}

/// Reading the tree's temporary files back failed.
pub(crate) fn spill_read_error(error: io::Error) -> SpillError {
    SpillError::reading_of(SpillSubject::TreeCounts, error)
}

impl From<SpillError> for JobError {
    fn from(e: SpillError) -> JobError {
        JobError::Encode(Box::new(e))
    }
}

impl TreeJob {
    /// An empty tree for this job's batches.
    pub fn builder(&self) -> TreeBuilder {
        TreeBuilder {
            store: Store::new(self.opts.memory, self.opts.spill_dir.clone()),
            root: self.opts.root,
            min_games: self.opts.min_games,
            spill_dir: self.opts.spill_dir.clone(),
            memory: self.opts.memory,
        }
    }
}

impl TreeBuilder {
    /// Adds a batch's tallies (the batch is left without them).
    pub fn add(&mut self, batch: &mut TreeBatch) -> Result<(), JobError> {
        Ok(self.store.add(batch.tallies.drain())?)
    }

    /// How many sorted runs went to temporary files so far.
    pub fn spilled_runs(&self) -> usize {
        self.store.runs()
    }

    /// The tree, its rows in key order.
    pub fn finish(self) -> Tree {
        Tree {
            merged: self.store.finish(),
            root: self.root,
            min_games: self.min_games,
            spill_dir: self.spill_dir,
            memory: self.memory,
        }
    }
}

/// A finished tree: its rows come out once, in key order, as [`Tree::write`] or
/// [`Tree::record_batches`] asks.
pub struct Tree {
    merged: Merged,
    root: Position,
    min_games: u64,
    spill_dir: PathBuf,
    /// Bytes the book's entries may hold in memory while they are sorted.
    memory: usize,
}

/// What [`Tree::write`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeWritten {
    /// Rows (positions and moves) written.
    pub rows: u64,
    /// Positions they are of.
    pub positions: u64,
}

/// One (position, move) of the tree, with both decoded.
pub(crate) struct Row {
    pub(crate) node: Node,
    pub(crate) code: u16,
    pub(crate) tally: Tally,
    /// The position, shared by its rows (a row is moved along a chain of iterators: a pointer, not a copy).
    pub(crate) position: Arc<Position>,
    pub(crate) played: Move,
    /// The position's first four FEN fields, shared by the rows of one position.
    pub(crate) epd: Arc<str>,
}

/// Decodes merged entries into rows. A position's rows come together: its position and EPD are made once
/// for all of them.
#[derive(Default)]
struct Decoder {
    last: Option<(Node, Arc<Position>, Arc<str>)>,
    /// Scratch space for the EPD.
    text: String,
}

impl Decoder {
    /// The row of a merged entry; an error for an entry no position or move gives (a damaged temporary
    /// file).
    fn row(&mut self, (node, code): Key, tally: Tally) -> Result<Row, SpillError> {
        let damaged = || {
            spill_read_error(io::Error::new(
                io::ErrorKind::InvalidData,
                "a position or move of the temporary file is none",
            ))
        };
        if self.last.as_ref().is_none_or(|(last, ..)| *last != node) {
            let position = node.position().ok_or_else(damaged)?;
            self.text.clear();
            node.write_epd(&position, &mut self.text);
            self.last = Some((node, Arc::new(position), Arc::from(self.text.as_str())));
        }
        let Some((_, position, epd)) = &self.last else {
            return Err(damaged());
        };
        let played = decode_move(position, code).ok_or_else(damaged)?;
        Ok(Row {
            node,
            code,
            tally,
            position: position.clone(),
            played,
            epd: epd.clone(),
        })
    }
}

/// The move of `pos` that [`pgnkit::core::polyglot::encode_move`] gave `code`, made from the board without
/// generating every move: a row's decoding is the tree's output cost.
fn decode_move(pos: &Position, code: u16) -> Option<Move> {
    let square = |bits: u16| Square::new((bits & 0x3F) as u8);
    let (to, from) = (square(code), square(code >> 6));
    let promotion = match (code >> 12) & 0x7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    let board = pos.board();
    let mover = board.piece_at(from).filter(|p| p.color == pos.turn())?;
    let target = board.piece_at(to);
    let (kind, capture) = match (mover.role, target) {
        (Role::King, Some(t)) if t.color == mover.color && t.role == Role::Rook => {
            (MoveKind::Castle, None)
        }
        (_, Some(t)) if t.color == mover.color => return None,
        (Role::Pawn, None) if from.file() != to.file() => (MoveKind::EnPassant, Some(Role::Pawn)),
        (Role::Pawn, None) if from.rank().index().abs_diff(to.rank().index()) == 2 => {
            (MoveKind::DoublePush, None)
        }
        (_, t) => (MoveKind::Normal, t.map(|t| t.role)),
    };
    let m = Move {
        from,
        to,
        role: mover.role,
        capture,
        promotion,
        kind,
    };
    // Legal when it was tallied (a move of a replayed game); the position it is played in was checked as it
    // was decoded ([`Node::position`]), and nothing here can panic on a move that is not.
    Some(m)
}

impl Row {
    /// The side that plays the move.
    pub(crate) fn mover(&self) -> Color {
        self.position.turn()
    }
}

impl Tree {
    /// The rows with at least `--min-games` games, in key order.
    pub(crate) fn rows(self) -> impl Iterator<Item = Result<Row, SpillError>> {
        let min = self.min_games;
        let mut decoder = Decoder::default();
        self.merged.filter_map(move |entry| match entry {
            Ok((_, tally)) if tally.games < min => None,
            Ok((key, tally)) => Some(decoder.row(key, tally)),
            Err(e) => Some(Err(e)),
        })
    }

    /// The rows of the root position (entries of other positions are passed over undecoded).
    pub(crate) fn rows_of_root(self) -> impl Iterator<Item = Result<Row, SpillError>> {
        let min = self.min_games;
        let root = Node::of(&self.root);
        let mut decoder = Decoder::default();
        self.merged.filter_map(move |entry| match entry {
            Ok(((node, _), tally)) if node != root || tally.games < min => None,
            Ok((key, tally)) => Some(decoder.row(key, tally)),
            Err(e) => Some(Err(e)),
        })
    }

    /// The position the tree starts from.
    pub(crate) fn root(&self) -> &Position {
        &self.root
    }

    /// Writes the tree in `format` to `out`: the root's moves for [`TreeFormat::Text`], every row for the
    /// others. Messages of the text and the page are in `locale`.
    pub fn write(
        self,
        format: TreeFormat,
        out: &mut dyn Write,
        locale: Locale,
    ) -> Result<TreeWritten, JobError> {
        match format {
            TreeFormat::Text => text::write(self, out, locale),
            TreeFormat::Csv => columns::write_csv(self, out),
            TreeFormat::Jsonl => columns::write_jsonl(self, out),
            TreeFormat::Parquet => columns::write_parquet(self, out),
            TreeFormat::Html => html::write(self, out, locale),
            TreeFormat::Polyglot => {
                let (dir, memory) = (self.spill_dir.clone(), self.memory);
                book::write(self, out, &dir, memory)
            }
        }
    }

    /// The rows as Arrow record batches of at most `rows` rows each, with [`Tree::schema`].
    pub fn record_batches(
        self,
        rows: usize,
    ) -> impl Iterator<Item = Result<RecordBatch, JobError>> {
        columns::record_batches(self, rows.max(1))
    }

    /// The columns of the rows, typed as Parquet and Arrow hold them.
    pub fn schema() -> SchemaRef {
        columns::schema()
    }
}
