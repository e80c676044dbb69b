//! Putting right the slips of a transcribed game: the one correction after which the whole main line replays.
//!
//! A copyist writes `22. Ra4` for `Ra3`, leaves a half-move out, swaps two moves of one side or writes a move
//! twice; a live broadcast leaves king moves made after the game, or a correction in a variation. The first
//! move that fails is often a few plies after the slip, so the search tries, at each ply from [`LOOKBACK`]
//! plies before it (further back to a contradicted check or capture mark), every edit of one token; a first
//! edit is then tried at every earlier ply too, since a slip that reads as a legal move can lie far back:
//!
//! - **substitution**: a legal move for the written token, when its SAN (in the game's piece letters) is at
//!   most [`MAX_TOKEN_EDITS`] character edits from what was written, or when the token read another way
//!   (another language's letters, letter case, a disambiguation, see [`crate::notation::suggest()`]) is that move;
//! - **insertion**: any legal move before the token (a half-move left out);
//! - **deletion** of the token (a move written twice);
//! - **transposition** of the token and the next one of the same side;
//! - with [`RepairOptions::broadcast`], **broadcast artefacts**: the moves from the token on removed when they
//!   are king moves to the centre (how DGT boards signal a result) or follow the end of the game, and a
//!   variation that replays to its end promoted over a main line that stops.
//!
//! Each edit replays the rest of the main line; only one after which every later token is a legal move is a
//! correction. When none is, the edits that get furthest are tried again with a second edit after them, up
//! to [`RepairOptions::max_edits`]. Corrections are ranked by their number of edits, then by their cost:
//! how unlikely the slip is (characters changed, a move added), the check and mate marks the repaired line
//! contradicts (counted only in a game that writes marks) and a Result tag the final position contradicts.
//! A repair is **certain** only when one correction costs strictly less than every other, and some later move
//! bears it out: two that fit equally leave the game as it is, with both listed, and so does a slip at the
//! last move, which any near move would fit (the removal of moves played after the end needs no later move).
//!
//! The search is bounded: each candidate replays the rest once and stops at its first failure, and a game
//! gets at most [`READ_BUDGET`] move readings; past that the diagnosis is marked `exhausted` and nothing is
//! certain.
//!
//! ```
//! use pgnkit::pgn::parse_all;
//! use pgnkit::repair::{self, EditKind, RepairOptions};
//! use pgnkit::walk;
//!
//! // 3. Bb4 is illegal; of the nearby moves only 3. Bb5 lets the game go on.
//! let games = parse_all(b"1. e4 e5 2. Nf3 Nc6 3. Bb4 a6 4. Ba4 Nf6 5. O-O Be7 *");
//! let prepared = walk::prepare(&games[0], None).unwrap();
//! let diagnosis = repair::diagnose(&games[0], &prepared, &RepairOptions::default()).unwrap();
//! let fix = diagnosis.repair().unwrap();
//! assert_eq!(fix.edits[0].kind, EditKind::Substitution);
//! assert_eq!(diagnosis.correction_text(&games[0], fix, &prepared), "Bb5");
//! ```

mod distance;
mod text;

use crate::core::{Move, Position, Role, Square};
use crate::notation::{CheckMark, Language, Leniency, San, SanPlus, Slip, suggest};
use crate::pgn::{Game, GameResult, TokenKind};
use crate::walk::{Prepared, read_move};

pub use text::repaired_text;

/// Plies before the first failing move where a slip is looked for.
pub const LOOKBACK: usize = 8;
/// Character edits between a written token and the SAN of a move that replaces it, at most.
pub const MAX_TOKEN_EDITS: usize = 2;
/// Move readings a game's search may spend (each candidate replays the rest of the game until it fails).
pub const READ_BUDGET: u64 = 2_000_000;
/// Partial corrections (the ones that get furthest) given a further edit, per level.
const BEAM: usize = 6;
/// Candidates a diagnosis keeps for the reader.
const KEPT: usize = 6;
/// Corrections and attempts held at once during a search (the cheapest, the furthest): each holds a copy of
/// the moves before its edit, so a long game's memory stays bounded.
const HELD: usize = 16;

// Costs, in half-characters: a character edit costs 2 (see `distance::slip_cost`).
const OTHER_READING_COST: u32 = 1;
const REPEAT_DELETION_COST: u32 = 4;
const DELETION_COST: u32 = 5;
const INSERTION_COST: u32 = 4;
const TRANSPOSITION_COST: u32 = 2;
const ARTEFACT_COST: u32 = 2;
/// A variation that replays to its end where the main line stops is the broadcast's correction more surely
/// than a slip of the move it replaces.
const PROMOTION_COST: u32 = 1;
const MARK_COST: u32 = 3;
const RESULT_COST: u32 = 3;

/// What the search may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepairOptions {
    /// Edits a correction may make, at most (1 to 3 are sensible; each level multiplies the work).
    pub max_edits: u8,
    /// Also remove broadcast artefacts (see the module documentation).
    pub broadcast: bool,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            max_edits: 2,
            broadcast: false,
        }
    }
}

/// The kind of an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// The written token stands for another move.
    Substitution,
    /// A move was left out before the token.
    Insertion,
    /// The token is no move of the game (written twice).
    Deletion,
    /// The token and the next one of the same side were swapped.
    Transposition,
    /// Left by a live broadcast: the moves from the token on removed, or a variation promoted over them.
    BroadcastArtefact,
}

impl EditKind {
    /// The name programs read: `substitution`, `insertion`, `deletion`, `transposition`,
    /// `broadcast_artefact`.
    pub fn as_str(self) -> &'static str {
        match self {
            EditKind::Substitution => "substitution",
            EditKind::Insertion => "insertion",
            EditKind::Deletion => "deletion",
            EditKind::Transposition => "transposition",
            EditKind::BroadcastArtefact => "broadcast_artefact",
        }
    }
}

/// One edit of the written main line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit {
    /// What it does.
    pub kind: EditKind,
    /// The written token it concerns, as an index into [`Diagnosis::tokens`] (for an insertion, the token
    /// the move goes before; for a transposition, the first of the two).
    pub token: usize,
    /// Written tokens it covers from `token`: 1 for a substitution or deletion, 0 for an insertion, 3 for a
    /// transposition (the token, the opponent's move between, the swapped one), the tokens removed for a
    /// broadcast artefact.
    pub len: usize,
    /// The move put in (substitution, insertion).
    pub mv: Option<Move>,
    /// A broadcast artefact's promoted variation, as an index into [`Diagnosis::variations`].
    pub variation: Option<usize>,
    /// The ply of the repaired main line where the edit takes effect, from 1.
    pub ply: u32,
}

/// A correction, or an attempt that gets part of the way.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its edits, in the order of the game.
    pub edits: Vec<Edit>,
    /// How unlikely it is (see the module documentation); lower is more plausible.
    pub cost: u32,
    /// Moves of the repaired main line from ply `first_ply + 1` on, played from `before`: a correction's whole
    /// line (`first_ply` 0, `before` the start position); an attempt's from its first edit to its last (a
    /// copy of everything before would cost a long game's length per attempt).
    pub moves: Vec<Move>,
    /// Plies of the repaired main line before `moves`.
    pub first_ply: u32,
    /// The position before `moves`.
    pub before: Position,
    /// Plies of the repaired main line that replay.
    pub replayed: u32,
    /// The main line replays to its end.
    pub complete: bool,
    /// Written tokens after its last edit that replay.
    pub later_moves: u32,
}

/// A variation that may be a broadcast's correction: its first token replaces the main line's token at
/// `branch`.
#[derive(Debug, Clone)]
pub struct Alternative {
    /// The main-line token (index into [`Diagnosis::tokens`]) the variation replaces.
    pub branch: usize,
    /// Its move tokens (indexes into [`Game::tokens`]).
    pub tokens: Vec<usize>,
    /// The index of its `(` and `)` in [`Game::tokens`].
    pub open: usize,
    /// See `open`.
    pub close: usize,
}

/// What the search found for a game whose main line does not replay.
#[derive(Debug, Clone)]
pub struct Diagnosis {
    /// The main line's written move tokens, as indexes into [`Game::tokens`].
    pub tokens: Vec<usize>,
    /// The first of them that fails as written.
    pub failed_at: usize,
    /// The variations of the main line a broadcast correction may be in (empty unless asked for).
    pub variations: Vec<Alternative>,
    /// Corrections first (fewest edits, then lowest cost), then attempts by how far they get.
    pub candidates: Vec<Candidate>,
    /// `candidates[0]` is the one correction that fits best: the repair.
    pub certain: bool,
    /// The search ran out of its budget ([`READ_BUDGET`]): nothing is certain.
    pub exhausted: bool,
}

impl Diagnosis {
    /// The certain repair, if there is one.
    pub fn repair(&self) -> Option<&Candidate> {
        if self.certain {
            self.candidates.first()
        } else {
            None
        }
    }

    /// The corrections that fit (the whole main line replays after them), best first.
    pub fn corrections(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.complete)
    }

    /// The moves a candidate puts in, in the game's piece letters, and what it removes or swaps, in short:
    /// `Ra3`, `+Nf3` (inserted), `-d6` (deleted), `Nf3/Bc4` (swapped), for messages.
    pub fn correction_text(
        &self,
        game: &Game<'_>,
        candidate: &Candidate,
        prepared: &Prepared,
    ) -> String {
        let lang = prepared.lang.lang;
        let sans = candidate.sans(lang);
        let san = |ply: u32| {
            ply.checked_sub(candidate.first_ply)
                .and_then(|i| sans.get(i as usize))
                .cloned()
                .unwrap_or_default()
        };
        let parts: Vec<String> = candidate
            .edits
            .iter()
            .map(|edit| {
                let ply = edit.ply - 1;
                match edit.kind {
                    EditKind::Substitution => san(ply),
                    EditKind::Insertion => format!("+{}", san(ply)),
                    EditKind::Deletion => format!("-{}", self.written(game, edit.token)),
                    EditKind::Transposition => format!("{}/{}", san(ply), san(ply + 2)),
                    EditKind::BroadcastArtefact => match edit.variation {
                        Some(_) => "(…)".to_string(),
                        None => format!("-{}…", self.written(game, edit.token)),
                    },
                }
            })
            .collect();
        parts.join(" ")
    }

    /// The text of written token `token` (an index into [`Diagnosis::tokens`]) of `game`.
    pub fn written(&self, game: &Game<'_>, token: usize) -> String {
        self.tokens.get(token).map_or_else(String::new, |&i| {
            let t = &game.tokens[i];
            let bytes = match t.kind {
                TokenKind::Move(m) => game.bytes(m.san),
                _ => game.bytes(t.span),
            };
            String::from_utf8_lossy(bytes).into_owned()
        })
    }
}

impl Candidate {
    /// The SAN, with check marks, of its moves in `lang` (the first is at ply `first_ply + 1`).
    pub fn sans(&self, lang: Language) -> Vec<String> {
        let mut pos = self.before;
        self.moves
            .iter()
            .map(|m| {
                SanPlus::from_move_and_play(&mut pos, m)
                    .display(lang)
                    .to_string()
            })
            .collect()
    }
}

/// Searches a game's main line for its repair: `None` when the main line replays (or has no move token
/// that fails, only unreadable text elsewhere).
pub fn diagnose(
    game: &Game<'_>,
    prepared: &Prepared,
    options: &RepairOptions,
) -> Option<Diagnosis> {
    let mut tokens = Vec::new();
    let mut variations = Vec::new();
    let mut depth = 0u32;
    let mut open: Option<(usize, usize)> = None;
    let mut variation_tokens = Vec::new();
    for (index, token) in game.tokens.iter().enumerate() {
        match token.kind {
            TokenKind::VariationStart => {
                depth += 1;
                if depth == 1 && !tokens.is_empty() {
                    open = Some((index, tokens.len() - 1));
                    variation_tokens.clear();
                }
            }
            TokenKind::VariationEnd => {
                if depth == 1
                    && let Some((start, branch)) = open.take()
                    && !variation_tokens.is_empty()
                {
                    variations.push(Alternative {
                        branch,
                        tokens: std::mem::take(&mut variation_tokens),
                        open: start,
                        close: index,
                    });
                }
                depth = depth.saturating_sub(1);
            }
            TokenKind::Move(_) | TokenKind::Unknown if depth == 0 => tokens.push(index),
            TokenKind::Move(_) | TokenKind::Unknown if depth == 1 && open.is_some() => {
                variation_tokens.push(index)
            }
            _ => {}
        }
    }
    let text = |index: usize| -> &[u8] {
        let token = &game.tokens[index];
        match token.kind {
            TokenKind::Move(m) => game.bytes(m.san),
            _ => game.bytes(token.span),
        }
    };
    let written: Vec<&[u8]> = tokens.iter().map(|&i| text(i)).collect();
    let alternatives: Vec<Vec<&[u8]>> = if options.broadcast {
        variations
            .iter()
            .map(|v| v.tokens.iter().map(|&i| text(i)).collect())
            .collect()
    } else {
        Vec::new()
    };
    let branches: Vec<usize> = variations.iter().map(|v| v.branch).collect();
    let result = game
        .tag("Result")
        .and_then(|r| match r.as_ref() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        })
        .or(game.result);
    let line = Line {
        written: &written,
        lang: prepared.lang.lang,
        marks: written
            .iter()
            .any(|t| matches!(t.last(), Some(b'+') | Some(b'#'))),
        captures: written.iter().any(|t| t.contains(&b'x')),
        result,
    };
    let found = search(&line, &prepared.start, &alternatives, &branches, options)?;
    Some(Diagnosis {
        tokens,
        failed_at: found.failed_at,
        variations: if options.broadcast {
            variations
        } else {
            Vec::new()
        },
        candidates: found.candidates,
        certain: found.certain,
        exhausted: found.exhausted,
    })
}

/// The written main line the search works on.
struct Line<'a> {
    written: &'a [&'a [u8]],
    lang: Language,
    /// The game writes check marks: a contradicted one counts against a candidate.
    marks: bool,
    /// The game writes capture marks: a missing one counts against a candidate.
    captures: bool,
    result: Option<GameResult>,
}

impl Line<'_> {
    fn len(&self) -> usize {
        self.written.len()
    }

    /// The written token's move in `pos`, if it is a legal one (null moves are not), and 1 when its capture
    /// mark contradicts the move (an `x` on a quiet move; a capture without one, in a game that writes them).
    fn read(&self, token: &[u8], pos: &Position) -> Option<(Move, u32)> {
        match read_move(token, pos, self.lang) {
            Ok(Some(resolved)) => {
                let l = resolved.leniencies;
                let wrong = l.contains(Leniency::SpuriousCapture)
                    || (self.captures && l.contains(Leniency::MissingCapture));
                Some((resolved.mv, u32::from(wrong)))
            }
            _ => None,
        }
    }

    /// 1 when the token's check mark contradicts the position after its move (in a game that writes marks).
    fn mark_miss(&self, token: &[u8], after: &Position) -> u32 {
        if !self.marks {
            return 0;
        }
        let written = match token.iter().rev().find(|b| !matches!(b, b'!' | b'?')) {
            Some(b'+') => Some(CheckMark::Check),
            Some(b'#') => Some(CheckMark::Mate),
            _ => None,
        };
        u32::from(written != CheckMark::after(after))
    }

    /// Cost of a final position the Result tag contradicts (a mate given by the side said to lose or draw).
    fn result_cost(&self, end: &Position) -> u32 {
        let Some(result) = self.result else { return 0 };
        if end.is_checkmate() {
            let winner = !end.turn();
            if result.winner() != Some(winner) {
                return RESULT_COST;
            }
        } else if end.is_stalemate() && result.winner().is_some() {
            return RESULT_COST;
        }
        0
    }
}

/// A replay of written tokens from a position until one fails.
struct Trace {
    /// The position it starts from (the positions after are replayed from it where needed: keeping one per
    /// ply would cost a long game hundreds of bytes a ply).
    start: Position,
    moves: Vec<Move>,
    /// Contradicted marks before each token read, and after the last (cumulative).
    misses: Vec<u32>,
    /// The token where it stopped (`Line::len` when it read them all).
    stop: usize,
}

/// The end of a replay that keeps no positions.
struct Tail {
    stop: usize,
    misses: u32,
    end: Position,
}

struct Found {
    failed_at: usize,
    candidates: Vec<Candidate>,
    certain: bool,
    exhausted: bool,
}

/// Where a level of the search stands: its trace, the moves and edits before it and their cost.
struct Here<'t> {
    trace: &'t Trace,
    start_token: usize,
    prefix: &'t [Move],
    edits: &'t [Edit],
    cost: u32,
    /// For a further edit: where the first edit was (see [`Origin`]).
    origin: Option<&'t Origin>,
}

/// Where an attempt with several edits starts: the position before its first edit, that edit's ply (from 0),
/// and the moves from it to where the current level's trace starts.
struct Origin {
    before: Position,
    first_ply: u32,
    moves: Vec<Move>,
}

/// An attempt that gets past the failure, kept to be given a further edit: the trace index `k` of its edit,
/// the moves the edit plays, the position after them and the token where the written moves resume.
struct Seed {
    edits: Vec<Edit>,
    cost: u32,
    replayed: u32,
    k: usize,
    moves: Vec<Move>,
    before: Position,
    ply: u32,
    after: Position,
    resume: usize,
}

/// One edit applied at a token: the moves it plays and where the written tokens resume.
struct Applied {
    edit: Edit,
    moves: Vec<Move>,
    after: Position,
    resume: usize,
    cost: u32,
    misses: u32,
    /// Moves of the edit itself that bear it out (a promoted variation's moves after its first).
    checked: u32,
}

struct Search<'a> {
    line: &'a Line<'a>,
    /// The game's start position.
    start: Position,
    alternatives: &'a [Vec<&'a [u8]>],
    branches: &'a [usize],
    options: &'a RepairOptions,
    reads: u64,
    corrections: Vec<Candidate>,
    attempts: Vec<Candidate>,
}

fn search(
    line: &Line<'_>,
    start: &Position,
    alternatives: &[Vec<&[u8]>],
    branches: &[usize],
    options: &RepairOptions,
) -> Option<Found> {
    let mut search = Search {
        line,
        start: *start,
        alternatives,
        branches,
        options,
        reads: 0,
        corrections: Vec::new(),
        attempts: Vec::new(),
    };
    let trace = search.trace(*start, 0);
    if trace.stop == line.len() {
        return None;
    }
    let failed_at = trace.stop;
    search.level(
        trace,
        0,
        Vec::new(),
        (Vec::new(), 0, None),
        options.max_edits.max(1),
    );
    let exhausted = search.spent();
    let mut corrections = search.corrections;
    // Of two edit lists that reach one line (a move written twice: either copy deleted) the later is kept:
    // the copy, not the original, is what was written twice.
    corrections.sort_by_key(|c| {
        let last = c.edits.last().map_or(0, |e| e.token);
        (c.edits.len(), c.cost, std::cmp::Reverse(last))
    });
    let mut unique: Vec<Candidate> = Vec::new();
    for c in corrections {
        if !unique.iter().any(|u| u.moves == c.moves) {
            unique.push(c);
        }
    }
    // A correction nothing after it bears out (a slip at the last move) is a guess, however near: only the
    // removal of what followed the end of the game needs no later move. Nor is one when the first failing
    // move is the last: whatever edit makes it legal (an earlier move changed to open a line for it) has only
    // that move to show for it.
    let removes_the_rest = |c: &Candidate| {
        c.edits
            .last()
            .is_some_and(|e| e.kind == EditKind::BroadcastArtefact && e.variation.is_none())
    };
    let evidence = failed_at + 1 < line.len();
    // A promoted variation brings its own later moves.
    let promotes = |c: &Candidate| c.edits.last().is_some_and(|e| e.variation.is_some());
    let borne_out =
        |c: &Candidate| removes_the_rest(c) || (c.later_moves > 0 && (evidence || promotes(c)));
    let certain = !exhausted
        && match unique.as_slice() {
            [] => false,
            [a] => borne_out(a),
            [a, b, ..] => borne_out(a) && (a.edits.len(), a.cost) < (b.edits.len(), b.cost),
        };
    let mut attempts = search.attempts;
    attempts.sort_by_key(|a| (std::cmp::Reverse(a.replayed), a.cost));
    let mut candidates = unique;
    candidates.truncate(KEPT);
    let room = KEPT.saturating_sub(candidates.len());
    candidates.extend(attempts.into_iter().take(room));
    Some(Found {
        failed_at,
        candidates,
        certain,
        exhausted,
    })
}

impl<'a> Search<'a> {
    /// The search spent its budget: every replay stops where it is.
    fn spent(&self) -> bool {
        self.reads > READ_BUDGET
    }

    /// Replays written tokens from `start_token` in `pos` until one fails (or the budget is spent).
    fn trace(&mut self, pos: Position, start_token: usize) -> Trace {
        let line = self.line;
        let mut current = pos;
        let mut moves = Vec::new();
        let mut misses = vec![0u32];
        let mut at = start_token;
        while at < line.len() && !self.spent() {
            self.reads += 1;
            let Some((mv, wrong_capture)) = line.read(line.written[at], &current) else {
                break;
            };
            current.play_unchecked(mv);
            let miss = wrong_capture + line.mark_miss(line.written[at], &current);
            misses.push(misses.last().copied().unwrap_or(0) + miss);
            moves.push(mv);
            at += 1;
        }
        Trace {
            start: pos,
            moves,
            misses,
            stop: at,
        }
    }

    /// Replays written tokens from `from` in `pos` to the end or the first failure, appending the moves.
    fn tail(&mut self, mut pos: Position, from: usize, moves: &mut Vec<Move>) -> Tail {
        let line = self.line;
        let mut misses = 0;
        let mut at = from;
        while at < line.len() && !self.spent() {
            self.reads += 1;
            let Some((mv, wrong_capture)) = line.read(line.written[at], &pos) else {
                break;
            };
            pos.play_unchecked(mv);
            misses += wrong_capture + line.mark_miss(line.written[at], &pos);
            moves.push(mv);
            at += 1;
        }
        Tail {
            stop: at,
            misses,
            end: pos,
        }
    }

    /// Tries every edit at every token of the window before the trace's failure; `prefix` holds the moves
    /// before the trace's start, `start_token` the first token it read; `done` the edits made before it,
    /// their cost and where the first was.
    fn level(
        &mut self,
        trace: Trace,
        start_token: usize,
        prefix: Vec<Move>,
        done: (Vec<Edit>, u32, Option<Origin>),
        edits_left: u8,
    ) {
        let (edits, cost, origin) = done;
        let failed = trace.stop;
        // A slip that reads as a legal move often shows first as a contradicted mark (`Nxd7` on an empty
        // square, a check without `+`): the window reaches back to the latest such token within
        // 4 × LOOKBACK plies.
        let mut window = failed.saturating_sub(LOOKBACK).max(start_token);
        let far = failed.saturating_sub(4 * LOOKBACK).max(start_token);
        if let Some(anomaly) = (far..window)
            .rev()
            .find(|&t| trace.misses[t + 1 - start_token] > trace.misses[t - start_token])
        {
            window = anomaly.saturating_sub(2).max(start_token);
        }
        let mut seeds: Vec<Seed> = Vec::new();
        let here = Here {
            trace: &trace,
            start_token,
            prefix: &prefix,
            edits: &edits,
            cost,
            origin: origin.as_ref(),
        };
        self.try_window(&here, window..failed + 1, &mut seeds);
        // A slip that read as a legal move may lie anywhere before the failure: a first edit is tried at
        // every earlier ply too, so that a far correction that fits competes with a near one (a further
        // edit stays near).
        let wide = start_token;
        if edits.is_empty() && wide < window {
            self.try_window(&here, wide..window, &mut seeds);
        }
        if !self.corrections.is_empty() || edits_left <= 1 {
            return;
        }
        // No single edit here lets the game replay: give the attempts that get furthest one more edit.
        seeds.sort_by_key(|s| (std::cmp::Reverse(s.replayed), s.cost, s.resume));
        for seed in seeds.into_iter().take(BEAM) {
            if self.spent() {
                return;
            }
            let mut next_prefix = prefix.clone();
            next_prefix.extend_from_slice(&trace.moves[..seed.k]);
            next_prefix.extend_from_slice(&seed.moves);
            let next_origin = match &origin {
                Some(o) => {
                    let mut moves = o.moves.clone();
                    moves.extend_from_slice(&trace.moves[..seed.k]);
                    moves.extend_from_slice(&seed.moves);
                    Origin {
                        before: o.before,
                        first_ply: o.first_ply,
                        moves,
                    }
                }
                None => Origin {
                    before: seed.before,
                    first_ply: seed.ply - 1,
                    moves: seed.moves,
                },
            };
            let next = self.trace(seed.after, seed.resume);
            self.level(
                next,
                seed.resume,
                next_prefix,
                (seed.edits, seed.cost, Some(next_origin)),
                edits_left - 1,
            );
        }
    }

    /// Tries every edit at each written token of `tokens` (within the trace of `here`), keeping corrections
    /// and, in `partial`, the attempts that get past the failure.
    fn try_window(
        &mut self,
        here: &Here<'_>,
        tokens: std::ops::Range<usize>,
        seeds: &mut Vec<Seed>,
    ) {
        let line = self.line;
        let trace = here.trace;
        let failed = trace.stop;
        let base = tokens.start - here.start_token;
        let mut before = trace.start;
        for m in &trace.moves[..base] {
            before.play_unchecked(*m);
        }
        let mut tail_moves = Vec::new();
        for at in tokens {
            if self.spent() {
                return;
            }
            let k = at - here.start_token;
            if k > base {
                before.play_unchecked(trace.moves[k - 1]);
            }
            let misses_before = trace.misses[k] - trace.misses[base];
            let ply = (here.prefix.len() + k) as u32 + 1;
            for applied in self.edits_at(at, &before, ply) {
                tail_moves.clear();
                let tail = self.tail(applied.after, applied.resume, &mut tail_moves);
                let complete = tail.stop == line.len() && !self.spent();
                if !complete && tail.stop <= failed {
                    continue;
                }
                let replayed =
                    (here.prefix.len() + k + applied.moves.len() + tail_moves.len()) as u32;
                let misses = misses_before + applied.misses + tail.misses;
                let mut all = here.edits.to_vec();
                all.push(applied.edit);
                let edit_cost = here.cost + applied.cost;
                let later_moves = (tail.stop - applied.resume) as u32 + applied.checked;
                if complete {
                    // A correction keeps its whole line (compared with the others', written back).
                    let mut moves = Vec::with_capacity(replayed as usize);
                    moves.extend_from_slice(here.prefix);
                    moves.extend_from_slice(&trace.moves[..k]);
                    moves.extend_from_slice(&applied.moves);
                    moves.extend_from_slice(&tail_moves);
                    let cost = edit_cost + MARK_COST * misses + line.result_cost(&tail.end);
                    hold(
                        &mut self.corrections,
                        Candidate {
                            edits: all,
                            cost,
                            moves,
                            first_ply: 0,
                            before: self.start,
                            replayed,
                            complete,
                            later_moves,
                        },
                        |c| (c.edits.len() as u32, c.cost),
                    );
                } else {
                    // An attempt keeps its moves from its first edit on.
                    let (from, first_ply, mut moves) = match here.origin {
                        Some(o) => (o.before, o.first_ply, o.moves.clone()),
                        None => (before, ply - 1, Vec::new()),
                    };
                    if here.origin.is_some() {
                        moves.extend_from_slice(&trace.moves[..k]);
                    }
                    moves.extend_from_slice(&applied.moves);
                    let seed = Seed {
                        edits: all.clone(),
                        cost: edit_cost + MARK_COST * (misses_before + applied.misses),
                        replayed,
                        k,
                        moves: applied.moves.clone(),
                        before,
                        ply,
                        after: applied.after,
                        resume: applied.resume,
                    };
                    hold(seeds, seed, |s| (u32::MAX - s.replayed, s.cost));
                    let attempt = Candidate {
                        edits: all,
                        cost: edit_cost + MARK_COST * misses,
                        moves,
                        first_ply,
                        before: from,
                        replayed,
                        complete,
                        later_moves,
                    };
                    hold(&mut self.attempts, attempt, |c| {
                        (u32::MAX - c.replayed, c.cost)
                    });
                }
            }
        }
    }

    /// Every edit at written token `at` in `before` (the position before it), with `ply` its ply.
    fn edits_at(&mut self, at: usize, before: &Position, ply: u32) -> Vec<Applied> {
        let line = self.line;
        let n = line.len();
        let mut out = Vec::new();
        let written = line.written.get(at).copied();
        let as_written = written.and_then(|w| line.read(w, before)).map(|(mv, _)| mv);
        let legal = before.legal_moves();

        // Substitution: near moves, and the other readings of the token.
        if let Some(w) = written {
            let core = distance::core(w);
            // Other readings of the token: those of "did you mean", but of the languages only English (its
            // letters are the ones mixed into other languages' games; reading an English game's `B` as a
            // Hungarian rook would excuse any slip).
            // A capital letter case "slip" is no slip: `Cc4` read as `cc4`, a pawn move, would excuse a
            // wrong piece letter.
            let capital = w.first().is_some_and(u8::is_ascii_uppercase);
            let other = suggest(before, w, line.lang)
                .filter(|s| match s.slip {
                    Slip::Language(l) => l == Language::En,
                    Slip::LetterCase => !capital,
                    _ => true,
                })
                .map(|s| s.mv);
            let english = (line.lang != Language::En)
                .then(|| SanPlus::parse(w, Language::En).ok()?.to_move(before).ok())
                .flatten();
            // A token that fails though a legal move has its piece, square and hints was ambiguous: a
            // dropped disambiguation, the commonest slip of all.
            let loose = SanPlus::parse(w, line.lang).ok().map(|p| p.san);
            let reads_loosely = |mv: &Move| match loose {
                Some(San::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                    ..
                }) => {
                    as_written.is_none()
                        && mv.role == role
                        && mv.to == to
                        && mv.promotion == promotion
                        && file.is_none_or(|f| mv.from.file() == f)
                        && rank.is_none_or(|r| mv.from.rank() == r)
                }
                _ => false,
            };
            for &mv in legal.iter() {
                if Some(mv) == as_written {
                    continue;
                }
                let cost = if other == Some(mv) || english == Some(mv) || reads_loosely(&mv) {
                    OTHER_READING_COST
                } else {
                    let san = San::from_move(before, &mv).display(line.lang).to_string();
                    match distance::slip_cost(&core, san.as_bytes(), MAX_TOKEN_EDITS) {
                        Some(cost) => cost,
                        None => continue,
                    }
                };
                let after = before.after_unchecked(mv);
                let misses = line.mark_miss(w, &after);
                out.push(Applied {
                    edit: Edit {
                        kind: EditKind::Substitution,
                        token: at,
                        len: 1,
                        mv: Some(mv),
                        variation: None,
                        ply,
                    },
                    moves: vec![mv],
                    after,
                    resume: at + 1,
                    cost,
                    misses,
                    checked: 0,
                });
            }
        }

        // Deletion: cheap when the token repeats a neighbour.
        if let Some(w) = written {
            let repeat = (at > 0 && line.written[at - 1] == w)
                || line.written.get(at + 1).is_some_and(|&next| next == w);
            out.push(Applied {
                edit: Edit {
                    kind: EditKind::Deletion,
                    token: at,
                    len: 1,
                    mv: None,
                    variation: None,
                    ply,
                },
                moves: Vec::new(),
                after: *before,
                resume: at + 1,
                cost: if repeat {
                    REPEAT_DELETION_COST
                } else {
                    DELETION_COST
                },
                misses: 0,
                checked: 0,
            });
        }

        // Insertion: any legal move, the written tokens resuming after it.
        for &mv in legal.iter() {
            out.push(Applied {
                edit: Edit {
                    kind: EditKind::Insertion,
                    token: at,
                    len: 0,
                    mv: Some(mv),
                    variation: None,
                    ply,
                },
                moves: vec![mv],
                after: before.after_unchecked(mv),
                resume: at,
                cost: INSERTION_COST,
                misses: 0,
                checked: 0,
            });
        }

        // Transposition with the next move of the same side.
        if at + 2 < n {
            let order = [at + 2, at + 1, at];
            let mut pos = *before;
            let mut moves = Vec::with_capacity(3);
            let mut misses = 0;
            for &t in &order {
                self.reads += 1;
                match line.read(line.written[t], &pos) {
                    Some((mv, wrong_capture)) => {
                        pos.play_unchecked(mv);
                        misses += wrong_capture + line.mark_miss(line.written[t], &pos);
                        moves.push(mv);
                    }
                    None => break,
                }
            }
            if moves.len() == 3 {
                out.push(Applied {
                    edit: Edit {
                        kind: EditKind::Transposition,
                        token: at,
                        len: 3,
                        mv: None,
                        variation: None,
                        ply,
                    },
                    moves,
                    after: pos,
                    resume: at + 3,
                    cost: TRANSPOSITION_COST,
                    misses,
                    checked: 0,
                });
            }
        }

        if self.options.broadcast {
            self.artefacts_at(at, before, ply, &mut out);
        }
        out
    }

    /// Broadcast artefacts at written token `at`: the rest removed (king moves to the centre, moves after
    /// the end), or a variation branching here promoted.
    fn artefacts_at(&mut self, at: usize, before: &Position, ply: u32, out: &mut Vec<Applied>) {
        let line = self.line;
        let n = line.len();
        let rest = &line.written[at..];
        let centre_kings = !rest.is_empty()
            && rest.len() <= 4
            && rest.iter().all(|t| is_king_to_centre(t, line.lang));
        if at < n && (centre_kings || !before.has_legal_move()) {
            out.push(Applied {
                edit: Edit {
                    kind: EditKind::BroadcastArtefact,
                    token: at,
                    len: n - at,
                    mv: None,
                    variation: None,
                    ply,
                },
                moves: Vec::new(),
                after: *before,
                resume: n,
                cost: ARTEFACT_COST,
                misses: 0,
                checked: 0,
            });
        }
        for (index, &branch) in self.branches.iter().enumerate() {
            if branch != at {
                continue;
            }
            let Some(tokens) = self.alternatives.get(index) else {
                continue;
            };
            let mut pos = *before;
            let mut moves = Vec::new();
            let mut misses = 0;
            for t in tokens {
                self.reads += 1;
                match line.read(t, &pos) {
                    Some((mv, wrong_capture)) => {
                        pos.play_unchecked(mv);
                        misses += wrong_capture + line.mark_miss(t, &pos);
                        moves.push(mv);
                    }
                    None => break,
                }
            }
            if moves.len() == tokens.len() {
                let checked = moves.len() as u32 - 1;
                out.push(Applied {
                    edit: Edit {
                        kind: EditKind::BroadcastArtefact,
                        token: at,
                        len: n - at,
                        mv: None,
                        variation: Some(index),
                        ply,
                    },
                    moves,
                    after: pos,
                    resume: n,
                    cost: PROMOTION_COST,
                    misses,
                    checked,
                });
            }
        }
    }
}

/// Adds `item` to `held`, keeping at most about [`HELD`] items: past twice that, only the [`HELD`] with the
/// smallest `key` stay.
fn hold<T, K: Ord>(held: &mut Vec<T>, item: T, key: impl Fn(&T) -> K) {
    held.push(item);
    if held.len() >= 2 * HELD {
        held.sort_by_key(|t| key(t));
        held.truncate(HELD);
    }
}

/// A king move to d4, e4, d5 or e5 as written (what a DGT board relays when the players signal the result by
/// putting their kings in the centre).
fn is_king_to_centre(token: &[u8], lang: Language) -> bool {
    let Ok(plus) = SanPlus::parse(token, lang) else {
        return false;
    };
    matches!(plus.san, San::Normal { role: Role::King, to, .. }
        if [Square::D4, Square::E4, Square::D5, Square::E5].contains(&to))
}

#[cfg(test)]
mod tests;
