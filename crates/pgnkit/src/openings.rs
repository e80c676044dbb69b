//! Opening names from the moves played: the lichess chess-openings table (CC0 1.0, embedded; 3,807 named
//! lines with their ECO codes) and the classification rule lichess uses.
//!
//! A game's opening is the entry whose position equals the position after the *latest* main-line ply that
//! equals any entry's position; the start position itself never counts. Positions are compared by FIDE
//! identity ([`Position::key`]: placement, side to move, castling rights, the e.p. square only when a capture
//! is possible), so transpositions are found and move counters do not matter. Nothing is hashed without an
//! exact comparison after it.
//!
//! ```
//! use pgnkit::openings::{self, Classifier};
//! use pgnkit::notation::{Language, SanPlus};
//! use pgnkit::Position;
//!
//! let mut pos = Position::new();
//! let mut classifier = Classifier::new(openings::table());
//! for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6"] {
//!     let m = SanPlus::parse(san.as_bytes(), Language::En).unwrap().san.to_move(&pos).unwrap();
//!     pos.play_unchecked(m);
//!     classifier.observe(&pos);
//! }
//! let opening = classifier.opening().unwrap();
//! assert_eq!((opening.eco, opening.name), ("C65", "Ruy Lopez: Berlin Defense"));
//! assert_eq!(opening.family(), "Ruy Lopez");
//! assert_eq!(opening.variation(), Some("Berlin Defense"));
//! ```

use std::sync::OnceLock;

use crate::core::{Board, Color, Piece, Position, PositionKey, Role};
use crate::notation::{Language, SanPlus};

/// The table's files, in the order their entries are read (a later entry for the same position would win;
/// the table has none).
const TABLE_FILES: [&str; 5] = [
    include_str!("../data/chess-openings/a.tsv"),
    include_str!("../data/chess-openings/b.tsv"),
    include_str!("../data/chess-openings/c.tsv"),
    include_str!("../data/chess-openings/d.tsv"),
    include_str!("../data/chess-openings/e.tsv"),
];

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The full name, as `Family: Variation, Subvariation` (`Ruy Lopez: Morphy Defense, Columbus Variation`).
    pub name: &'static str,
    /// The table's move sequence for it, in English SAN with move numbers (`1. e4 e5 2. Nf3`).
    pub pgn: &'static str,
}

impl Opening {
    /// The name up to its first `: ` (`Ruy Lopez`), the whole name when it has no variation.
    pub fn family(&self) -> &'static str {
        self.name
            .split_once(": ")
            .map_or(self.name, |(family, _)| family)
    }

    /// The name after its first `: ` (`Morphy Defense, Columbus Variation`), if any.
    pub fn variation(&self) -> Option<&'static str> {
        self.name.split_once(": ").map(|(_, variation)| variation)
    }
}

/// The opening table, indexed by position.
#[derive(Debug)]
pub struct OpeningTable {
    openings: Vec<Opening>,
    /// The positions' hashes, sorted (equal hashes side by side)...
    hashes: Vec<u64>,
    /// ...found by an open-addressing table over them: slot `hash & mask` and the next ones hold `1 +` the
    /// index of the first entry of each hash, 0 for an empty slot (one or two probes where a binary search
    /// made a dozen dependent loads)...
    slots: Box<[u32]>,
    /// ...and the entry at the same place (the position and its index into `openings`) decides.
    entries: Vec<(PositionKey, u32)>,
    /// One bit per value of a hash's top 16 bits, set for the table's positions: most positions of a game
    /// are not in the table, and one bit tells so without the search.
    filter: Box<[u64; FILTER_WORDS]>,
    /// Indexed by which pawns still stand on their start squares ([`start_pawns`]): the fewest pieces of
    /// any entry whose start-square pawns are among those (`u8::MAX` when none is). A pawn never returns
    /// to its start square and captures only ever remove pieces, so once a game has fewer pieces than this
    /// no later position can be in the table. Most games get there a few moves after the book ends, where
    /// the piece count alone waits for the endgame.
    fewest_pieces: Box<[u8; 1 << 16]>,
}

/// Which white pawns stand on rank 2 (low byte, file a first) and which black pawns on rank 7 (high byte).
/// Along a game it only ever loses bits.
#[inline]
fn start_pawns(board: &Board) -> usize {
    let white = (board.by_piece(Piece::new(Color::White, Role::Pawn)).0 >> 8) & 0xff;
    let black = (board.by_piece(Piece::new(Color::Black, Role::Pawn)).0 >> 40) & 0xff00;
    (white | black) as usize
}

/// Why a line of the table could not be read (the embedded table has none: a test makes sure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TableError {}

impl OpeningTable {
    /// Reads a table in the chess-openings layout: a header line, then `eco<TAB>name<TAB>pgn` lines whose
    /// moves are English SAN from the initial position. An entry whose position is already in the table
    /// replaces the earlier one.
    pub fn parse(files: &[&'static str]) -> Result<OpeningTable, TableError> {
        let mut openings: Vec<Opening> = Vec::new();
        let mut lines = LinePlayer::default();
        // Each entry's hash and number, and apart (by number) its position: the sort moves the small pairs.
        let mut index: Vec<(u64, u32)> = Vec::new();
        let mut keys: Vec<PositionKey> = Vec::new();
        for file in files {
            for (n, line) in file.lines().enumerate().skip(1) {
                let line = line.strip_suffix('\r').unwrap_or(line);
                if line.is_empty() {
                    continue;
                }
                let fail = |message: String| TableError {
                    line: n + 1,
                    message,
                };
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    return Err(fail("expected eco, name and pgn separated by tabs".into()));
                };
                let pos = lines.play(pgn).map_err(fail)?;
                index.push((pos.zobrist(), openings.len() as u32));
                keys.push(pos.key());
                openings.push(Opening { eco, name, pgn });
            }
        }
        // By hash, and within a hash in table order, so that of two entries for one position the later
        // one, kept, comes last.
        index.sort_unstable();
        let mut kept: Vec<(u64, u32)> = Vec::with_capacity(index.len());
        for entry in index {
            let run = kept.partition_point(|&(z, _)| z < entry.0);
            let key = &keys[entry.1 as usize];
            match kept[run..]
                .iter_mut()
                .find(|(_, i)| keys[*i as usize] == *key)
            {
                Some(earlier) => *earlier = entry,
                None => kept.push(entry),
            }
        }
        let mut filter = Box::new([0u64; FILTER_WORDS]);
        let mut fewest_pieces = Box::new([u8::MAX; 1 << 16]);
        for &(z, i) in &kept {
            let key = &keys[i as usize];
            let bit = filter_bit(z);
            filter[bit / 64] |= 1 << (bit % 64);
            let at = &mut fewest_pieces[start_pawns(key.board())];
            *at = (*at).min(key.board().occupied().count() as u8);
        }
        // Each set's figure becomes the least over its subsets, one pawn at a time: in each block of
        // `2 * bit` sets, the upper half (the pawn at home) takes the lower half's figure (the same sets
        // without it) where smaller. Whole slices, so that the minimum runs many bytes at once.
        for pawn in 0..16 {
            let bit = 1usize << pawn;
            for block in fewest_pieces.chunks_exact_mut(2 * bit) {
                let (without, with) = block.split_at_mut(bit);
                for (w, &wo) in with.iter_mut().zip(without.iter()) {
                    *w = (*w).min(wo);
                }
            }
        }
        let hashes: Vec<u64> = kept.iter().map(|&(z, _)| z).collect();
        let mut slots = vec![0u32; (hashes.len() * 2).next_power_of_two()].into_boxed_slice();
        let mask = slots.len() - 1;
        for (i, &z) in hashes.iter().enumerate() {
            if i > 0 && hashes[i - 1] == z {
                continue;
            }
            let mut slot = z as usize & mask;
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = i as u32 + 1;
        }
        Ok(OpeningTable {
            openings,
            hashes,
            slots,
            entries: kept.iter().map(|&(_, i)| (keys[i as usize], i)).collect(),
            filter,
            fewest_pieces,
        })
    }

    /// A table with no opening (nothing is ever classified).
    pub fn empty() -> &'static OpeningTable {
        static EMPTY: OnceLock<OpeningTable> = OnceLock::new();
        EMPTY.get_or_init(|| OpeningTable::parse(&[]).expect("no line, no error"))
    }

    /// How many positions the table names (an entry replaced by a later one for the same position is not
    /// counted).
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Every entry read, in table order (replaced ones included).
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The opening whose position is `pos` (by FIDE identity), if any.
    #[inline]
    pub fn get(&self, pos: &Position) -> Option<&Opening> {
        if self.is_out_of_reach(pos) {
            return None;
        }
        self.search(pos)
    }

    /// [`OpeningTable::get`] for a position known to be in reach.
    #[inline]
    fn search(&self, pos: &Position) -> Option<&Opening> {
        let z = pos.zobrist();
        let bit = filter_bit(z);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = z as usize & mask;
        let start = loop {
            match self.slots[slot] {
                0 => return None,
                first if self.hashes[first as usize - 1] == z => break first as usize - 1,
                _ => slot = (slot + 1) & mask,
            }
        };
        let same_hash = self.hashes[start..].iter().take_while(|&&h| h == z).count();
        self.entries[start..start + same_hash]
            .iter()
            .find(|(k, _)| k.is_of(pos))
            .map(|&(_, i)| &self.openings[i as usize])
    }

    /// Whether no position reachable from `pos` can be in the table: too few pieces are left for any entry
    /// whose start-square pawns are among those still at home in `pos`.
    #[inline]
    pub fn is_out_of_reach(&self, pos: &Position) -> bool {
        pos.board().occupied().count() < u32::from(self.fewest_pieces[start_pawns(pos.board())])
    }
}

/// Words of [`OpeningTable`]'s filter: 2^16 bits, 8 KiB, which stays in the first-level cache.
const FILTER_WORDS: usize = (1 << 16) / 64;

#[inline]
fn filter_bit(zobrist: u64) -> usize {
    (zobrist >> 48) as usize
}

/// Plays lines of English SAN with move numbers from the initial position. The table's lines come sorted,
/// so most share their first moves with the line before: those are not played again (the table is read at
/// the start of every stats run, whose small inputs would otherwise pay for it).
#[derive(Default)]
struct LinePlayer<'t> {
    /// The previous line's moves...
    moves: Vec<&'t str>,
    /// ...and the position after each of them.
    positions: Vec<Position>,
}

impl<'t> LinePlayer<'t> {
    /// The position after the line `pgn`.
    fn play(&mut self, pgn: &'t str) -> Result<Position, String> {
        // Move numbers (`1.`, `1...`) aside.
        let moves = pgn
            .split_ascii_whitespace()
            .filter(|token| !token.ends_with('.'));
        let shared = moves
            .clone()
            .zip(&self.moves)
            .take_while(|(token, previous)| token == *previous)
            .count();
        self.moves.truncate(shared);
        self.positions.truncate(shared);
        for token in moves.skip(shared) {
            let mut pos = self.positions.last().copied().unwrap_or_default();
            let san = SanPlus::parse(token.as_bytes(), Language::En)
                .map_err(|e| format!("`{token}`: {e}"))?;
            let m = san
                .san
                .to_move(&pos)
                .map_err(|e| format!("`{token}`: {e}"))?;
            pos.play_unchecked(m);
            self.moves.push(token);
            self.positions.push(pos);
        }
        Ok(self.positions.last().copied().unwrap_or_default())
    }
}

/// The embedded lichess chess-openings table, read on first use.
pub fn table() -> &'static OpeningTable {
    static TABLE: OnceLock<OpeningTable> = OnceLock::new();
    TABLE.get_or_init(|| OpeningTable::parse(&TABLE_FILES).expect("the embedded table reads"))
}

/// Follows a game's main line position by position and keeps the latest named one.
#[derive(Clone, Copy, Debug)]
pub struct Classifier<'t> {
    table: &'t OpeningTable,
    latest: Option<&'t Opening>,
    /// Set once no later position can be in the table.
    done: bool,
}

impl<'t> Classifier<'t> {
    /// A classifier that has seen no position yet (the start position is not shown to it).
    pub fn new(table: &'t OpeningTable) -> Classifier<'t> {
        Classifier {
            table,
            latest: None,
            done: false,
        }
    }

    /// Sees the position after a main-line ply.
    #[inline(always)]
    pub fn observe(&mut self, pos: &Position) {
        // Most plies of a game come after it left the table's reach: those cost one test here, not a call.
        if !self.done {
            self.observe_in_reach(pos);
        }
    }

    #[inline(never)]
    fn observe_in_reach(&mut self, pos: &Position) {
        if self.table.is_out_of_reach(pos) {
            self.done = true;
            return;
        }
        if let Some(opening) = self.table.search(pos) {
            self.latest = Some(opening);
        }
    }

    /// The opening of the line so far: the latest position seen that the table names.
    pub fn opening(&self) -> Option<&'t Opening> {
        self.latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(pos: &mut Position, sans: &str) {
        for token in sans.split_ascii_whitespace() {
            let m = SanPlus::parse(token.as_bytes(), Language::En)
                .unwrap()
                .san
                .to_move(pos)
                .unwrap();
            pos.play_unchecked(m);
        }
    }

    fn classify(sans: &str) -> Option<&'static Opening> {
        let mut pos = Position::new();
        let mut c = Classifier::new(table());
        for token in sans.split_ascii_whitespace() {
            play(&mut pos, token);
            c.observe(&pos);
        }
        c.opening()
    }

    #[test]
    fn the_embedded_table_reads_whole_and_every_entry_is_found_again() {
        let t = table();
        let lines: usize = TABLE_FILES
            .iter()
            .map(|f| f.lines().skip(1).filter(|l| !l.is_empty()).count())
            .sum();
        assert_eq!(lines, 3807);
        // Every line ends in a distinct position: no entry replaced another.
        assert_eq!(t.len(), lines);
        for opening in t.openings() {
            // Each line played on its own, where the table shared the moves of the line before.
            let pos = LinePlayer::default().play(opening.pgn).unwrap();
            assert_eq!(t.get(&pos), Some(opening), "{}", opening.name);
        }
        // With every pawn at home, the fewest pieces of any entry.
        let fewest = t.fewest_pieces[0xffff];
        assert!((20..32).contains(&fewest), "{fewest}");
    }

    #[test]
    fn no_position_on_the_way_to_an_entry_is_out_of_reach() {
        // The cut-off's promise, on the real table: from every position of every line, that line's own
        // entry is still ahead, so none of them may be called out of reach.
        let t = table();
        for opening in t.openings() {
            let mut pos = Position::new();
            for token in opening.pgn.split_ascii_whitespace() {
                if token.ends_with('.') {
                    continue;
                }
                assert!(!t.is_out_of_reach(&pos), "{} before {token}", opening.name);
                play(&mut pos, token);
            }
            assert!(!t.is_out_of_reach(&pos), "{}", opening.name);
        }
    }

    #[test]
    fn a_game_leaves_reach_by_its_pawns_long_before_its_pieces_run_out() {
        let t = table();
        let mut pos = Position::new();
        // Every pawn pushed from its start square, no capture: all 32 pieces still on the board.
        play(&mut pos, "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6");
        assert_eq!(pos.board().occupied().count(), 32);
        assert!(t.is_out_of_reach(&pos));
        assert_eq!(t.get(&pos), None);
        // A position the table names is in reach, obviously.
        let mut ruy = Position::new();
        play(&mut ruy, "e4 e5 Nf3 Nc6 Bb5");
        assert!(!t.is_out_of_reach(&ruy));
        // A table of one entry keeps only what that entry allows: with 1. e4 played, 1. d4 is out of reach.
        let one = OpeningTable::parse(&["eco\tname\tpgn\nA40\tQueen's Pawn\t1. d4\n"]).unwrap();
        let mut e4 = Position::new();
        play(&mut e4, "e4");
        assert!(one.is_out_of_reach(&e4));
        let mut nf3 = Position::new();
        play(&mut nf3, "Nf3");
        assert!(!one.is_out_of_reach(&nf3));
    }

    #[test]
    fn the_latest_named_position_wins_and_transpositions_are_found() {
        let ruy = classify("e4 e5 Nf3 Nc6 Bb5 a6").unwrap();
        assert_eq!(ruy.eco, "C70");
        assert_eq!(ruy.name, "Ruy Lopez: Morphy Defense");
        // Moves past the table keep the latest name.
        let later = classify("e4 e5 Nf3 Nc6 Bb5 a6 h3 h6 a3").unwrap();
        assert_eq!(later.name, "Ruy Lopez: Morphy Defense");
        // 1. Nf3 Nc6 2. e4 e5 3. Bb5 reaches the Ruy Lopez by another order.
        let transposed = classify("Nf3 Nc6 e4 e5 Bb5").unwrap();
        assert_eq!(transposed.name, "Ruy Lopez");
        assert_eq!(transposed.eco, "C60");
        // No move: nothing (the start position never matches).
        assert_eq!(classify(""), None);
    }

    #[test]
    fn identity_ignores_counters_and_useless_en_passant_squares() {
        use crate::core::fen::parse_fen;
        // The King's Pawn position (1. e4), written with a useless e.p. square and other counters.
        let pos =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 40").unwrap();
        assert_eq!(table().get(&pos).map(|o| o.eco), Some("B00"));
        // Without castling rights it is another position.
        let pos = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1").unwrap();
        assert_eq!(table().get(&pos), None);
    }

    #[test]
    fn family_and_variation_split_at_the_first_colon() {
        let o = Opening {
            eco: "C61",
            name: "Ruy Lopez: Bird Variation, Paulsen Variation",
            pgn: "",
        };
        assert_eq!(o.family(), "Ruy Lopez");
        assert_eq!(o.variation(), Some("Bird Variation, Paulsen Variation"));
        let o = Opening {
            eco: "B00",
            name: "King's Pawn Game",
            pgn: "",
        };
        assert_eq!((o.family(), o.variation()), ("King's Pawn Game", None));
    }

    #[test]
    fn a_later_entry_for_the_same_position_replaces_the_earlier() {
        // 1. Nf3 Nf6 2. Ng1 Ng8 is the initial position; 1. e4 e5 and 1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 the same.
        let t = OpeningTable::parse(&[
            "eco\tname\tpgn\nC20\tFirst\t1. e4 e5\nC40\tOther\t1. e4 e5 2. Nf3\nC21\tSecond\t1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8\n",
        ])
        .unwrap();
        assert_eq!((t.len(), t.openings().len()), (2, 3));
        let mut pos = Position::new();
        play(&mut pos, "e4 e5");
        assert_eq!(t.get(&pos).map(|o| o.name), Some("Second"));
        assert!(OpeningTable::empty().is_empty());
        assert_eq!(OpeningTable::empty().get(&pos), None);
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number() {
        let e =
            OpeningTable::parse(&["eco\tname\tpgn\nA00\tX\t1. e4\nA00\tY\t1. e5\n"]).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("e5"), "{e}");
        let e = OpeningTable::parse(&["eco\tname\tpgn\nA00 only\n"]).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
