//! `select`: the games that pass a `--where` expression, reach a position or a material balance, and are
//! not duplicates, written out byte for byte in input order (or in export format, or counted, or grouped
//! for `--split`).
//!
//! Everything a game is judged on is a pure function of its bytes, so batches run on any thread
//! (`select_batch`); only duplicates need to know what came before, so a batch hands the output side
//! each chosen game's text with a 16-byte key, and the output side, which sees the games in input order,
//! keeps the keys it has seen.
//!
//! A game is replayed only when the choice needs it: a `--where` on tags alone reads the tags and stops
//! there.

pub(crate) mod expr;
mod job;
pub(crate) mod material;

pub use job::{SelectJob, SelectState};

pub(crate) use crate::options::SplitBy;
use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::Arc;

use crate::convert::{ConvertOptions, Converter, Note};
use crate::messages::{Explain, Locale};
use crate::stats::rows::{self, GAME_HEADER, Row};
use crate::stats::table::without_replay;
use crate::stats::{GameStats, MainLineSink, RowTags, Tallies, game_stats_with};
use crate::tournament::round_number;
use expr::{Expr, ExprError, Field};
use material::{Material, MaterialError};
use pgnkit::core::fen::{self, InvalidFen};
use pgnkit::core::{Move, Position, PositionKey};
use pgnkit::notation::Language;
use pgnkit::pgn::{Game, GameReader};
use pgnkit::walk::MoveAt;

/// A position to look for (`--reaches`).
#[derive(Clone, Debug)]
pub(crate) struct Target {
    zobrist: u64,
    key: PositionKey,
}

impl Target {
    pub(crate) fn new(pos: &Position) -> Target {
        Target {
            zobrist: pos.zobrist(),
            key: pos.key(),
        }
    }

    /// The position a `--reaches` value names: a FEN, an EPD's four fields, or `startpos`
    /// ([`fen::expand_startpos`], the spelling `pgnkit fen` and `perft` accept).
    pub(crate) fn parse(text: &str) -> Result<Target, InvalidFen> {
        fen::parse_fen(fen::expand_startpos(text)).map(|pos| Target::new(&pos))
    }
}

/// What the user asked of select. What chooses the games (`--where`, `--reaches`, `--material`) is read
/// from its text by [`SelectOptions::choosing`].
#[derive(Debug, Default)]
pub struct SelectOptions {
    /// `--where`.
    pub(crate) filter: Option<Expr>,
    /// `--reaches`: the main line reaches any of these.
    pub(crate) reaches: Vec<Target>,
    /// `--material`: the main line reaches a position with any of these.
    pub(crate) materials: Vec<Material>,
    /// `--dedupe`: compute each game's key.
    pub dedupe: bool,
    /// Piece letters to read moves with; `None` detects them per game.
    pub lang: Option<Language>,
    /// Write the chosen games in export format (English SAN) instead of their own text.
    pub normalise: bool,
    /// Keep the chosen games' text (not for `--count`).
    pub keep_text: bool,
    /// `--split`: the group each chosen game goes to.
    pub split: Option<SplitBy>,
}

impl SplitBy {
    /// The group of a game, for the groups a batch can tell (not [`SplitBy::Games`], which counts on the
    /// output side). Empty when the game has no value.
    fn group(self, stats: &GameStats<'_>) -> Option<Box<str>> {
        let value = match self {
            SplitBy::Event => stats.tags.event.as_ref(),
            SplitBy::Round => {
                // Empty (the no-round group) when there is no round number.
                let number = round_number(&stats.tags.round);
                return Some(number.map_or_else(String::new, |n| n.to_string()).into());
            }
            SplitBy::Eco => stats.tags.eco.as_ref(),
            SplitBy::Opening => stats
                .replayed
                .as_ref()
                .and_then(|r| r.opening)
                .map_or("", |o| o.eco),
            SplitBy::Games(_) => return None,
        };
        Some(value.into())
    }
}

/// The columns that need [`Counts`](crate::stats::Counts) kept along the replay.
const COUNT_COLUMNS: [&str; 6] = [
    "checks",
    "captures",
    "castles_white",
    "castles_black",
    "promotions",
    "en_passant",
];

/// A text of `--where`, `--reaches` or `--material` that is none (see [`SelectOptions::choosing`]).
#[derive(Debug)]
pub enum FilterError {
    /// `--where`: the expression, where it goes wrong.
    Where(ExprError),
    /// `--reaches`: the position given, and why it is none.
    Reaches { fen: String, error: InvalidFen },
    /// `--material`.
    Material(MaterialError),
}

impl SelectOptions {
    /// The options that choose the games of `filter` (`--where`, over the per-game stats CSV's columns and
    /// the tags), `reaches` (`--reaches`: a FEN, an EPD's four fields, or `startpos`) and `materials`
    /// (`--material`), read in that order; the other options at their defaults.
    pub fn choosing(
        filter: Option<&str>,
        reaches: &[String],
        materials: &[String],
    ) -> Result<SelectOptions, FilterError> {
        let mut opts = SelectOptions::filtering(filter).map_err(FilterError::Where)?;
        opts.reaches = reaches
            .iter()
            .map(|fen| {
                Target::parse(fen).map_err(|error| FilterError::Reaches {
                    fen: fen.clone(),
                    error,
                })
            })
            .collect::<Result<_, _>>()?;
        opts.materials = materials
            .iter()
            .map(|text| Material::parse(text).map_err(FilterError::Material))
            .collect::<Result<_, _>>()?;
        Ok(opts)
    }

    /// The options that choose the games of a `--where` expression only (tree's), the others at their
    /// defaults.
    pub(crate) fn filtering(filter: Option<&str>) -> Result<SelectOptions, ExprError> {
        Ok(SelectOptions {
            filter: filter
                .map(|text| expr::parse(text, &GAME_HEADER))
                .transpose()?,
            ..SelectOptions::default()
        })
    }

    /// The names of the columns `--where` reads.
    fn columns_read(&self) -> Vec<&'static str> {
        let fields = self.filter.as_ref().map(Expr::fields).unwrap_or_default();
        fields
            .into_iter()
            .filter_map(|f| match f {
                Field::Column(i) => Some(GAME_HEADER[*i]),
                Field::Tag(_) => None,
            })
            .collect()
    }

    /// Whether judging a game needs its replay.
    fn needs_replay(&self) -> bool {
        self.dedupe
            || !self.reaches.is_empty()
            || !self.materials.is_empty()
            || self.split == Some(SplitBy::Opening)
            || self.columns_read().iter().any(|c| !without_replay(c))
    }

    /// The replay's tallies the columns read need.
    fn tallies(&self) -> Tallies {
        let read = self.columns_read();
        Tallies {
            counts: read.iter().any(|c| COUNT_COLUMNS.contains(c)),
            opening: read.iter().any(|c| c.starts_with("opening_"))
                || self.split == Some(SplitBy::Opening),
        }
    }
}

/// A chosen game, as the output side receives it.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Its text in [`SelectBatch::text`] (empty with `--count`).
    pub text: Range<usize>,
    /// Its duplicate key (`--dedupe`): `None` for a game without moves, never a duplicate.
    pub key: Option<u128>,
    /// An earlier chosen game of the run has the same key: set by the run's merge step ([`SelectJob`]).
    pub duplicate: bool,
    /// Its group (`--split` by a value of the game).
    pub group: Option<Box<str>>,
    /// What convert said of it (`--normalise`): why it was copied unconverted, or what deserves a look.
    pub notes: Vec<Note>,
}

/// What one batch gives.
#[derive(Debug, Default)]
pub struct SelectBatch {
    pub text: Vec<u8>,
    pub chosen: Vec<Chosen>,
    pub games: u64,
    /// Which of the tags `--where` names the batch's games have ([`TagSightings::merge`] them over a run).
    pub(crate) tags: TagSightings,
}

/// What games showed of the tags a `--where` expression names ([`Expr::tags`], in that order): whether any
/// game has each, and for one that none has, the nearest tag name games do have. A misspelt tag
/// (`Whiteelo`) is empty in every game, so the expression silently chose nothing; the run can say so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TagSightings(Vec<Sighting>);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sighting {
    seen: bool,
    nearest: Option<Near>,
}

/// A tag name near a wanted one: compared by distance ignoring case, then with case, then by name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Near {
    folded: usize,
    exact: usize,
    name: Box<str>,
}

/// A tag an expression names that no game had ([`SelectJob::missing_tags`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MissingTag<'a> {
    pub(crate) name: &'a str,
    /// The nearest tag name the games have (by edit distance, ignoring case first), when one is close.
    pub(crate) nearest: Option<&'a str>,
}

impl Explain for MissingTag<'_> {
    fn explain(&self, locale: Locale) -> String {
        let name = self.name;
        match self.nearest {
            Some(near) => crate::localized!(
                locale,
                "no game has a tag `{name}`; did you mean `{near}`?",
                "aucune partie n'a de balise `{name}` ; vouliez-vous dire `{near}` ?"
            ),
            None => crate::localized!(
                locale,
                "no game has a tag `{name}`",
                "aucune partie n'a de balise `{name}`"
            ),
        }
    }
}

/// Tag names kept per batch to find the nearest of a missing tag among them: every collection has a few
/// dozen; a hostile one may have a new name in every game.
const MOST_NAMES_COMPARED: usize = 4096;

/// Missing tags for which the nearest name is looked for, per batch.
const MOST_MISSING_SUGGESTED: usize = 16;

impl TagSightings {
    /// Adds what another batch showed.
    pub(crate) fn merge(&mut self, other: &TagSightings) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), Sighting::default());
        }
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            mine.seen |= theirs.seen;
            if let Some(near) = &theirs.nearest
                && mine.nearest.as_ref().is_none_or(|m| near < m)
            {
                mine.nearest = Some(near.clone());
            }
        }
    }

    /// The tags of `names` ([`Expr::tags`] of the expression these sightings are of) that no game had, in
    /// order, with the nearest tag name seen.
    pub(crate) fn missing<'a>(&'a self, names: &[&'a str]) -> Vec<MissingTag<'a>> {
        names
            .iter()
            .enumerate()
            .filter(|&(k, _)| !self.0.get(k).is_some_and(|s| s.seen))
            .map(|(k, name)| MissingTag {
                name,
                nearest: self
                    .0
                    .get(k)
                    .and_then(|s| s.nearest.as_ref())
                    .map(|n| &*n.name),
            })
            .collect()
    }
}

/// Watches a batch's games for the tags an expression names ([`TagSightings`]).
struct TagWatch<'e> {
    /// Each wanted name, and its place in [`Expr::tags`].
    wanted: std::collections::HashMap<&'e [u8], usize>,
    names: Vec<&'e str>,
    seen: Vec<bool>,
    unseen: usize,
    /// Distinct tag names of the batch's games, while some wanted one is unseen ([`MOST_NAMES_COMPARED`]).
    met: std::collections::HashSet<Box<[u8]>>,
}

impl<'e> TagWatch<'e> {
    fn new(names: Vec<&'e str>) -> TagWatch<'e> {
        TagWatch {
            wanted: names
                .iter()
                .enumerate()
                .map(|(k, n)| (n.as_bytes(), k))
                .collect(),
            seen: vec![false; names.len()],
            unseen: names.len(),
            names,
            met: std::collections::HashSet::new(),
        }
    }

    #[inline]
    fn look(&mut self, game: &Game<'_>) {
        if self.unseen == 0 {
            return;
        }
        for tag in &game.tags {
            let name = game.bytes(tag.name);
            if let Some(&k) = self.wanted.get(name)
                && !self.seen[k]
            {
                self.seen[k] = true;
                self.unseen -= 1;
            }
            if self.met.len() < MOST_NAMES_COMPARED
                // Only names an expression can spell: any other could not be what was meant.
                && !name.is_empty()
                && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
                && !self.met.contains(name)
            {
                self.met.insert(name.into());
            }
        }
    }

    /// What the batch showed: for each wanted name unseen, the nearest name met.
    fn sightings(self) -> TagSightings {
        let mut suggested = 0;
        let sightings = self
            .names
            .iter()
            .zip(&self.seen)
            .map(|(name, &seen)| {
                let nearest = if seen || suggested >= MOST_MISSING_SUGGESTED {
                    None
                } else {
                    suggested += 1;
                    self.met
                        .iter()
                        .filter_map(|met| near(name, std::str::from_utf8(met).ok()?))
                        .min()
                };
                Sighting { seen, nearest }
            })
            .collect();
        TagSightings(sightings)
    }
}

/// `candidate` as a suggestion for the missing tag `name`: when it differs by at most two edits ignoring
/// case (one for names of three letters or fewer).
fn near(name: &str, candidate: &str) -> Option<Near> {
    let most = if name.len() <= 3 { 1 } else { 2 };
    // The lengths alone tell most names apart without the distance.
    if name.len().abs_diff(candidate.len()) > most {
        return None;
    }
    let folded = expr::edit_distance(&name.to_ascii_lowercase(), &candidate.to_ascii_lowercase());
    (folded <= most).then(|| Near {
        folded,
        exact: expr::edit_distance(name, candidate),
        name: candidate.into(),
    })
}

/// Judges every game of a batch. `buf` is reused for the text (cleared first).
pub(crate) fn select_batch(
    games: &mut GameReader<'_>,
    file: &str,
    opts: &SelectOptions,
    mut buf: Vec<u8>,
) -> SelectBatch {
    buf.clear();
    let name: Arc<str> = Arc::from(file);
    let replay = opts.needs_replay();
    let tallies = opts.tallies();
    let columns_read = opts.columns_read();
    let reads_columns = !columns_read.is_empty();
    let reads_final_fen = columns_read.contains(&"final_fen");
    let mut out = SelectBatch::default();
    let mut row = Row::default();
    let mut converter = opts.normalise.then(|| {
        Converter::new(ConvertOptions {
            to: Language::En,
            from: opts.lang,
            ..ConvertOptions::default()
        })
    });
    let mut notes = Vec::new();
    let mut moves = Vec::new();
    let mut scratch = String::new();
    let mut watch = TagWatch::new(opts.filter.as_ref().map(Expr::tags).unwrap_or_default());
    while let Some(read) = games.next_group() {
        // Read a group, then sift it: each step's code serves the whole group while cached.
        for game in read {
            out.games += 1;
            watch.look(game);
            let mut probe = Probe::new(&opts.reaches, &opts.materials, opts.dedupe, &mut moves);
            let stats = if replay {
                game_stats_with(game, &name, opts.lang, tallies, &mut probe)
            } else {
                GameStats::unreplayed(game)
            };
            if !opts.reaches.is_empty() || !opts.materials.is_empty() {
                // A game without moves reaches its start position.
                if let Some(r) = &stats.replayed {
                    probe.look(&r.final_position);
                }
                if !probe.reached || !probe.material_seen {
                    continue;
                }
            }
            if let Some(filter) = &opts.filter {
                let read = RowRead {
                    columns: reads_columns,
                    final_fen: reads_final_fen,
                };
                if !holds(filter, game, &stats, file, read, &mut row, &mut scratch) {
                    continue;
                }
            }
            let key = if opts.dedupe {
                probe.key(game, &stats)
            } else {
                None
            };
            let start = buf.len();
            if opts.keep_text {
                match converter.as_mut() {
                    Some(c) => {
                        c.convert_game(game, file, &mut buf, &mut notes);
                    }
                    None => buf.extend_from_slice(game.source),
                }
                end_with_blank_line(&mut buf, start);
            }
            let group = opts.split.and_then(|by| by.group(&stats));
            out.chosen.push(Chosen {
                text: start..buf.len(),
                key,
                duplicate: false,
                group,
                notes: std::mem::take(&mut notes),
            });
        }
    }
    out.text = buf;
    out.tags = watch.sightings();
    out
}

/// Which of a game's per-game stats columns an expression reads: none (tags only), and `final_fen`.
#[derive(Clone, Copy)]
struct RowRead {
    columns: bool,
    final_fen: bool,
}

/// Whether `filter` holds for `game`, whose stats are `stats`; `row` and `scratch` are reused from game to
/// game.
fn holds(
    filter: &Expr,
    game: &Game<'_>,
    stats: &GameStats<'_>,
    file: &str,
    read: RowRead,
    row: &mut Row,
    scratch: &mut String,
) -> bool {
    if read.columns {
        row.clear();
        rows::fill_game_row(row, scratch, file, stats, read.final_fen);
    }
    filter.eval(&mut |field| match field {
        Field::Column(i) => match row.get(*i) {
            Some(bytes) => String::from_utf8_lossy(bytes),
            None => Cow::Borrowed(""),
        },
        Field::Tag(tag) => game.tag(tag).unwrap_or_default(),
    })
}

/// Judges games by a `--where` expression alone, for a job that chooses its games as select does (tree):
/// replays a game only when the expression reads a column that needs it, and watches for the tags it names.
pub(crate) struct WhereJudge<'o> {
    opts: &'o SelectOptions,
    name: Arc<str>,
    replay: bool,
    tallies: Tallies,
    read: RowRead,
    row: Row,
    scratch: String,
    watch: TagWatch<'o>,
}

impl<'o> WhereJudge<'o> {
    /// A judge of `opts`' `--where` (its other choices are not looked at) for the games of `file`.
    pub(crate) fn new(opts: &'o SelectOptions, file: &str) -> WhereJudge<'o> {
        let columns_read = opts.columns_read();
        WhereJudge {
            opts,
            name: Arc::from(file),
            replay: opts.needs_replay(),
            tallies: opts.tallies(),
            read: RowRead {
                columns: !columns_read.is_empty(),
                final_fen: columns_read.contains(&"final_fen"),
            },
            row: Row::default(),
            scratch: String::new(),
            watch: TagWatch::new(opts.filter.as_ref().map(Expr::tags).unwrap_or_default()),
        }
    }

    /// Whether the game is chosen (always, without an expression).
    pub(crate) fn passes(&mut self, game: &Game<'_>) -> bool {
        let Some(filter) = &self.opts.filter else {
            return true;
        };
        self.watch.look(game);
        let stats = if self.replay {
            game_stats_with(game, &self.name, self.opts.lang, self.tallies, &mut ())
        } else {
            GameStats::unreplayed(game)
        };
        holds(
            filter,
            game,
            &stats,
            &self.name,
            self.read,
            &mut self.row,
            &mut self.scratch,
        )
    }

    /// Which of the tags the expression names the games judged had.
    pub(crate) fn sightings(self) -> TagSightings {
        self.watch.sightings()
    }
}

/// Ends a game's text (from `start`) with a line break and a blank line, as export format separates games,
/// unless it already does.
fn end_with_blank_line(buf: &mut Vec<u8>, start: usize) {
    let text = &buf[start..];
    if text.is_empty() {
        return;
    }
    let trimmed = text
        .iter()
        .rev()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .filter(|&&b| b == b'\n')
        .count();
    for _ in trimmed..2 {
        buf.push(b'\n');
    }
}

impl GameStats<'_> {
    /// What a game shows without being replayed: its tags and place; nothing that needs the moves.
    fn unreplayed<'a>(game: &Game<'a>) -> GameStats<'a> {
        GameStats {
            number: game.index + 1,
            line: game.first_line(),
            tags: RowTags::of(game),
            marker: game.result,
            replayed: None,
            plies: 0,
            valid: false,
            errors: 0,
            first_error: None,
        }
    }
}

/// Follows the main line as it is replayed: whether it reaches a target, and what the game's duplicate key
/// is made of.
struct Probe<'t, 'm> {
    targets: &'t [Target],
    /// A target was reached (or there is none).
    reached: bool,
    materials: &'t [Material],
    /// A position with one of `materials` was seen (or there is none).
    material_seen: bool,
    dedupe: bool,
    /// The start position's identity and move counters (`--dedupe`).
    start: Option<(PositionKey, u32, u32)>,
    /// Three bytes per main-line move: from, to, promotion (`--dedupe`); hashed once at the end, which costs
    /// far less than feeding a hasher move by move.
    moves: &'m mut Vec<u8>,
}

/// The promotion byte of a move without one, and of a null move (which has no squares either).
const NO_PROMOTION: u8 = 0;
const NULL_MOVE: u8 = u8::MAX;

impl<'t, 'm> Probe<'t, 'm> {
    /// A probe for one game; `moves` is scratch space reused from game to game.
    fn new(
        targets: &'t [Target],
        materials: &'t [Material],
        dedupe: bool,
        moves: &'m mut Vec<u8>,
    ) -> Probe<'t, 'm> {
        moves.clear();
        Probe {
            targets,
            reached: targets.is_empty(),
            materials,
            material_seen: materials.is_empty(),
            dedupe,
            start: None,
            moves,
        }
    }

    #[inline]
    fn look(&mut self, pos: &Position) {
        if !self.reached
            && self
                .targets
                .iter()
                .any(|t| t.zobrist == pos.zobrist() && t.key.is_of(pos))
        {
            self.reached = true;
        }
        if !self.material_seen && self.materials.iter().any(|m| m.matches(pos.board())) {
            self.material_seen = true;
        }
    }

    /// The duplicate key, once the game has been replayed: `None` when it has no main-line move. Moves the
    /// replay did not reach (after an illegal one) count by their text.
    fn key(&self, game: &Game<'_>, stats: &GameStats<'_>) -> Option<u128> {
        let written = game.main_line().count();
        if written == 0 {
            return None;
        }
        let mut second = std::hash::DefaultHasher::new();
        // Another start makes the second hash independent of the first.
        second.write_u64(0x9e37_79b9_7f4a_7c15);
        let mut hashers = [std::hash::DefaultHasher::new(), second];
        for h in &mut hashers {
            self.start.hash(h);
            if stats.replayed.is_none() {
                // Not replayed at all: the start as written stands for the start position.
                game.tag_raw("FEN").hash(h);
                game.tag_raw("Variant").hash(h);
            }
            h.write(self.moves);
            if (stats.plies as usize) < written {
                for (_, m) in game.main_line().skip(stats.plies as usize) {
                    h.write(game.san(m));
                    h.write_u8(b' ');
                }
            }
        }
        let [a, b] = hashers;
        Some(u128::from(a.finish()) << 64 | u128::from(b.finish()))
    }
}

impl MainLineSink for Probe<'_, '_> {
    #[inline]
    fn before_move(&mut self, _: &Game<'_>, at: MoveAt<'_>, before: &Position, _: Option<&Move>) {
        if at.ply == 1 {
            self.look(before);
            if self.dedupe {
                self.start = Some((before.key(), before.halfmoves(), before.fullmoves()));
            }
        }
    }

    #[inline]
    fn main_move(&mut self, _: &Game<'_>, _: MoveAt<'_>, m: Option<&Move>, after: &Position) {
        self.look(after);
        if self.dedupe {
            self.moves.extend_from_slice(&match m {
                Some(m) => [
                    m.from.index() as u8,
                    m.to.index() as u8,
                    m.promotion.map_or(NO_PROMOTION, |r| r as u8 + 1),
                ],
                None => [NULL_MOVE; 3],
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::core::fen::parse_fen;
    use pgnkit::pgn::BlockReader;

    fn run(pgn: &str, opts: &SelectOptions) -> SelectBatch {
        let mut reader = BlockReader::new(pgn.as_bytes(), 1 << 20);
        let mut all = SelectBatch::default();
        while let Ok(Some(batch)) =
            reader.next_block(|games| select_batch(games, "t.pgn", opts, Vec::new()))
        {
            let base = all.text.len();
            all.text.extend_from_slice(&batch.text);
            all.chosen.extend(batch.chosen.into_iter().map(|c| Chosen {
                text: c.text.start + base..c.text.end + base,
                key: c.key,
                duplicate: c.duplicate,
                group: c.group,
                notes: c.notes,
            }));
            all.games += batch.games;
            all.tags.merge(&batch.tags);
        }
        all
    }

    fn texts(batch: &SelectBatch) -> Vec<&str> {
        batch
            .chosen
            .iter()
            .map(|c| std::str::from_utf8(&batch.text[c.text.clone()]).unwrap())
            .collect()
    }

    fn filter(text: &str) -> SelectOptions {
        SelectOptions {
            filter: Some(expr::parse(text, &GAME_HEADER).unwrap()),
            keep_text: true,
            ..SelectOptions::default()
        }
    }

    const GAMES: &str = "[White \"A\"]\n[WhiteElo \"2600\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
        [White \"B\"]\n\n1. d4 d5 {a comment} 1/2-1/2\n\n\
        [White \"C\"]\n[WhiteElo \"2400\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";

    #[test]
    fn chosen_games_are_written_as_they_were_with_a_blank_line_after() {
        let b = run(GAMES, &filter("WhiteElo >= 2500"));
        assert_eq!(b.games, 3);
        assert_eq!(
            texts(&b),
            [
                "[White \"A\"]\n[WhiteElo \"2600\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            ]
        );
        // The last game of a file, without a final line break, gets one and a blank line.
        let b = run(GAMES, &filter("White == \"C\""));
        assert!(texts(&b)[0].ends_with("Qxf7# 1-0\n\n"), "{:?}", texts(&b));
    }

    #[test]
    fn columns_need_the_replay_and_tags_do_not() {
        assert!(!filter("WhiteElo >= 2500 and white == \"A\" and line > 1").needs_replay());
        assert!(filter("plies > 2").needs_replay());
        assert!(filter("opening_eco == \"C20\"").needs_replay());
        assert_eq!(
            filter("opening_eco == \"C20\" and plies > 2").tallies(),
            Tallies {
                counts: false,
                opening: true
            }
        );
        assert_eq!(
            filter("checks > 2 or Event ~ \"x\"").tallies(),
            Tallies {
                counts: true,
                opening: false
            }
        );
        let b = run(GAMES, &filter("termination == \"checkmate\""));
        assert_eq!(b.chosen.len(), 2);
        let b = run(GAMES, &filter("plies < 5 and valid"));
        assert_eq!(texts(&b).len(), 1);
        assert!(texts(&b)[0].contains("{a comment}"));
        let b = run(GAMES, &filter("final_fen ~ \" w KQkq - 0 2$\""));
        assert_eq!(b.chosen.len(), 1, "{:?}", texts(&b));
        let b = run(GAMES, &filter("opening_name ~ \"Scholar|Queen's Pawn\""));
        assert_eq!(b.chosen.len(), 1, "{:?}", texts(&b));
    }

    #[test]
    fn tag_columns_read_the_same_without_the_replay() {
        let mut games = pgnkit::pgn::parse_all(GAMES.as_bytes());
        games.extend(pgnkit::pgn::parse_all(
            b"[Event \"x\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"180+2\"]\n\n1. e4 Ke7 1/2-1/2",
        ));
        let (mut replayed, mut unreplayed) = (Row::default(), Row::default());
        for game in &games {
            let full = crate::stats::game_stats(game, &Arc::from("f"), None, &mut ());
            let mut scratch = String::new();
            replayed.clear();
            unreplayed.clear();
            rows::fill_game_row(&mut replayed, &mut scratch, "f", &full, true);
            let bare = GameStats::unreplayed(game);
            rows::fill_game_row(&mut unreplayed, &mut scratch, "f", &bare, true);
            let mut differ = 0;
            for (i, column) in GAME_HEADER.iter().enumerate() {
                if without_replay(column) {
                    assert_eq!(replayed.get(i), unreplayed.get(i), "{column}");
                } else {
                    differ += usize::from(replayed.get(i) != unreplayed.get(i));
                }
            }
            // The others do need the replay.
            assert!(differ >= 4, "{differ}");
        }
    }

    #[test]
    fn reaches_compares_by_fide_identity() {
        // After 1. e4 e5: the e.p. square e6 is useless (no white pawn on d5/f5) and counters differ.
        let pos =
            parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 9").unwrap();
        let opts = SelectOptions {
            reaches: vec![Target::new(&pos)],
            keep_text: true,
            ..SelectOptions::default()
        };
        assert_eq!(run(GAMES, &opts).chosen.len(), 2);
        // Without castling rights it is another position.
        let pos = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2").unwrap();
        let opts = SelectOptions {
            reaches: vec![Target::new(&pos)],
            ..SelectOptions::default()
        };
        assert_eq!(run(GAMES, &opts).chosen.len(), 0);
        // The start position is reached by every game that starts there, moves or not.
        let opts = SelectOptions {
            reaches: vec![Target::new(&Position::new())],
            ..SelectOptions::default()
        };
        assert_eq!(
            run(&format!("{GAMES}\n\n[White \"D\"]\n\n*\n"), &opts).games,
            4
        );
        assert_eq!(
            run(&format!("{GAMES}\n\n[White \"D\"]\n\n*\n"), &opts)
                .chosen
                .len(),
            4
        );
    }

    #[test]
    fn startpos_names_the_initial_position_as_fen_and_perft_read_it() {
        let named = Target::parse(pgnkit::core::fen::STARTPOS).unwrap();
        let initial = Target::new(&Position::new());
        assert_eq!((named.zobrist, named.key), (initial.zobrist, initial.key));
        assert!(Target::parse("startpos w").is_err());
        assert!(Target::parse("Startpos").is_err());
    }

    #[test]
    fn material_is_looked_for_along_the_main_line() {
        let opts = |m: &str| SelectOptions {
            materials: vec![Material::parse(m).unwrap()],
            keep_text: true,
            ..SelectOptions::default()
        };
        // 1. e4 d5 2. exd5 Qxd5: after exd5 White has 16 pieces and Black 15; after Qxd5 both 15.
        let game = "1. e4 d5 2. exd5 Qxd5 *";
        let full = "KQRRBBNNPPPPPPPP v KQRRBBNNPPPPPPP";
        assert_eq!(run(game, &opts(full)).chosen.len(), 1);
        let even = "KQRRBBNNPPPPPPP v KQRRBBNNPPPPPPP";
        assert_eq!(run(game, &opts(even)).chosen.len(), 1);
        assert_eq!(run("1. e4 d5 2. exd5 *", &opts(even)).chosen.len(), 0);
        // Together with --reaches, both must hold.
        let mut both = opts(even);
        both.reaches = vec![Target::new(&Position::new())];
        assert_eq!(run(game, &both).chosen.len(), 1);
        both.reaches = vec![Target::new(
            &parse_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap(),
        )];
        assert_eq!(run(game, &both).chosen.len(), 0);
    }

    #[test]
    fn duplicate_keys_follow_the_start_and_the_moves_only() {
        let opts = SelectOptions {
            dedupe: true,
            ..SelectOptions::default()
        };
        let b = run(
            &format!(
                "{GAMES}\n\n[White \"D\"]\n\n*\n\n[White \"E\"]\n\n*\n\n\
                 [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2\"]\n\n1. d4 d5 *\n\n\
                 [White \"F\"]\n\n1. d4 d5 2. Bxh7 *\n\n[White \"G\"]\n\n1. d4 d5 2. Bxh6 *\n"
            ),
            &opts,
        );
        let keys: Vec<Option<u128>> = b.chosen.iter().map(|c| c.key).collect();
        // A and C: same moves, other tags and results.
        assert_eq!(keys[0], keys[2]);
        assert!(keys[0].is_some());
        assert_ne!(keys[0], keys[1]);
        // No moves: no key.
        assert_eq!((keys[3], keys[4]), (None, None));
        // Another move number at the start: another game.
        assert_ne!(keys[5], keys[1]);
        // Illegal moves count by their text.
        assert_ne!(keys[6], keys[7]);
        assert_ne!(keys[6], keys[1]);
    }

    #[test]
    fn tags_no_game_has_are_told_with_the_nearest_name_seen() {
        let opts = filter(
            "Whiteelo > 2500 or WhiteElo > 2500 or Annotator or BlackELO > 1 or Whiteelo == 1 or WhitElo",
        );
        let b = run(GAMES, &opts);
        let names = opts.filter.as_ref().unwrap().tags();
        assert_eq!(
            names,
            ["Whiteelo", "WhiteElo", "Annotator", "BlackELO", "WhitElo"]
        );
        let missing = |name, nearest| MissingTag { name, nearest };
        assert_eq!(
            b.tags.missing(&names),
            [
                missing("Whiteelo", Some("WhiteElo")),
                missing("Annotator", None),
                missing("BlackELO", None),
                missing("WhitElo", Some("WhiteElo")),
            ]
        );
        assert_eq!(
            b.tags.missing(&names)[0].explain(Locale::Fr),
            "aucune partie n'a de balise `Whiteelo` ; vouliez-vous dire `WhiteElo` ?"
        );
        // Over a run: a tag seen in any batch is not missing; the nearest of all batches is kept.
        let first = run("[Whiteel \"1\"]\n\n*\n", &opts).tags;
        let second = run("[Annotator \"A\"]\n[whiteelo \"1\"]\n\n*\n", &opts).tags;
        let mut both = first.clone();
        both.merge(&second);
        assert_eq!(first.missing(&names)[0].nearest, Some("Whiteel"));
        assert_eq!(
            both.missing(&names),
            [
                missing("Whiteelo", Some("whiteelo")),
                missing("WhiteElo", Some("whiteelo")),
                missing("BlackELO", None),
                missing("WhitElo", Some("whiteelo")),
            ]
        );
        // No expression, no tags to watch.
        assert_eq!(
            run(GAMES, &SelectOptions::default()).tags,
            TagSightings::default()
        );
    }

    #[test]
    fn normalise_writes_export_format() {
        let mut opts = filter("White == \"B\"");
        opts.normalise = true;
        let b = run("[White \"B\"]\n\n1.d4 d5 {a comment} 1/2-1/2", &opts);
        let text = texts(&b)[0];
        assert!(text.starts_with("[Event \"?\"]"), "{text}");
        assert!(text.contains("1. d4 d5 {a comment} 1/2-1/2\n\n"), "{text}");
        assert!(b.chosen[0].notes.is_empty());
        // A game that does not replay is copied through, and convert's note says why.
        let b = run("[White \"B\"]\n\n1. d4 Ke3 *", &opts);
        assert_eq!(b.chosen.len(), 1);
        assert_eq!(b.chosen[0].notes.len(), 1);
        assert!(texts(&b)[0].contains("Ke3"));
    }
}
