//! Property tests over positions reached by random legal playouts from the standard start and from Chess960
//! starts. At every ply:
//! - FEN (X-FEN and Shredder-FEN) written and parsed strictly gives the same position (so no reachable position
//!   is rejected by the validation);
//! - the legal moves equal the moves of an independent, slow generator written here (mailbox, ray walking,
//!   make the move and look whether the own king is attacked) — so every generated move is legal and every
//!   rejected pseudo-legal move is illegal;
//! - the incremental Zobrist hash equals the hash computed from scratch;
//! - the e.p. square is stored (and hashed) only when an e.p. capture is legal;
//! - the move count agrees with shakmaty, used here as a test-only oracle.

use std::collections::BTreeSet;

use pgnkit::core::fen::{self, CastlingStyle};
use pgnkit::core::perft;
use pgnkit::{CastlingMode, Color, Move, MoveKind, Piece, Position, Role, Square};
use proptest::prelude::*;

// ---- an independent, slow rules model (mailbox + ray walking) ----

type Mailbox = [Option<Piece>; 64];

fn mailbox(pos: &Position) -> Mailbox {
    let mut b = [None; 64];
    for sq in Square::all() {
        b[sq.index()] = pos.board().piece_at(sq);
    }
    b
}

fn at(sq: Square, df: i8, dr: i8) -> Option<Square> {
    sq.offset(df, dr)
}

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Is `sq` attacked by a piece of `by` on board `b`?
fn attacked(b: &Mailbox, sq: Square, by: Color) -> bool {
    let is = |s: Option<Square>, roles: &[Role]| {
        s.and_then(|s| b[s.index()])
            .is_some_and(|p| p.color == by && roles.contains(&p.role))
    };
    if KNIGHT
        .iter()
        .any(|&(f, r)| is(at(sq, f, r), &[Role::Knight]))
    {
        return true;
    }
    if KING.iter().any(|&(f, r)| is(at(sq, f, r), &[Role::King])) {
        return true;
    }
    // A pawn of `by` attacks diagonally forward, so it stands diagonally behind `sq` from its point of view.
    let back: i8 = if by == Color::White { -1 } else { 1 };
    if is(at(sq, -1, back), &[Role::Pawn]) || is(at(sq, 1, back), &[Role::Pawn]) {
        return true;
    }
    for (dirs, roles) in [
        (ROOK_DIRS, [Role::Rook, Role::Queen]),
        (BISHOP_DIRS, [Role::Bishop, Role::Queen]),
    ] {
        for (df, dr) in dirs {
            let mut cur = sq;
            while let Some(next) = at(cur, df, dr) {
                if let Some(p) = b[next.index()] {
                    if p.color == by && roles.contains(&p.role) {
                        return true;
                    }
                    break;
                }
                cur = next;
            }
        }
    }
    false
}

fn king_square(b: &Mailbox, color: Color) -> Square {
    Square::all()
        .find(|s| b[s.index()] == Some(Piece::new(color, Role::King)))
        .expect("a king")
}

/// A move as (from, to, promotion); castling is king-takes-own-rook, as in pgnkit.
type Key = (Square, Square, Option<Role>);

/// Pseudo-legal moves (castling included when its path is clear), each with the board after it.
fn pseudo_moves(
    b: &Mailbox,
    us: Color,
    raw_ep: Option<Square>,
    rights: &[Square],
) -> Vec<(Key, Mailbox, bool)> {
    let mut out = Vec::new();
    let mut push = |from: Square, to: Square, promo: Option<Role>, ep_victim: Option<Square>| {
        let mut after = *b;
        let piece = after[from.index()].take().expect("a piece");
        if let Some(v) = ep_victim {
            after[v.index()] = None;
        }
        after[to.index()] = Some(promo.map_or(piece, |r| Piece::new(us, r)));
        out.push(((from, to, promo), after, false));
    };
    for from in Square::all() {
        let Some(p) = b[from.index()] else { continue };
        if p.color != us {
            continue;
        }
        let free_or_enemy = |s: Square| b[s.index()].is_none_or(|q| q.color != us);
        match p.role {
            Role::Knight | Role::King => {
                let offsets = if p.role == Role::Knight { KNIGHT } else { KING };
                for (f, r) in offsets {
                    if let Some(to) = at(from, f, r)
                        && free_or_enemy(to)
                    {
                        push(from, to, None, None);
                    }
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let mut dirs = Vec::new();
                if p.role != Role::Bishop {
                    dirs.extend(ROOK_DIRS);
                }
                if p.role != Role::Rook {
                    dirs.extend(BISHOP_DIRS);
                }
                for (df, dr) in dirs {
                    let mut cur = from;
                    while let Some(to) = at(cur, df, dr) {
                        if !free_or_enemy(to) {
                            break;
                        }
                        push(from, to, None, None);
                        if b[to.index()].is_some() {
                            break;
                        }
                        cur = to;
                    }
                }
            }
            Role::Pawn => {
                let fwd: i8 = if us == Color::White { 1 } else { -1 };
                let last = if us == Color::White { 7 } else { 0 };
                let start = if us == Color::White { 1 } else { 6 };
                let mut pawn_to = |to: Square, ep: Option<Square>| {
                    if to.rank() as usize == last {
                        for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                            push(from, to, Some(r), None);
                        }
                    } else {
                        push(from, to, None, ep);
                    }
                };
                if let Some(one) = at(from, 0, fwd)
                    && b[one.index()].is_none()
                {
                    pawn_to(one, None);
                    if from.rank() as usize == start
                        && let Some(two) = at(from, 0, 2 * fwd)
                        && b[two.index()].is_none()
                    {
                        pawn_to(two, None);
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = at(from, df, fwd) {
                        if b[to.index()].is_some_and(|q| q.color != us) {
                            pawn_to(to, None);
                        } else if Some(to) == raw_ep {
                            pawn_to(to, at(to, 0, -fwd));
                        }
                    }
                }
            }
        }
    }
    // Castling: FIDE 3.8.2 — king and rook unmoved (the rights), every square either crosses or lands on empty
    // but for the two of them.
    let king = king_square(b, us);
    for &rook in rights {
        if rook.rank() != king.rank() || b[rook.index()] != Some(Piece::new(us, Role::Rook)) {
            continue;
        }
        let kingside = rook.file() > king.file();
        let rank = king.rank();
        let king_to = Square::from_coords(
            if kingside {
                pgnkit::File::G
            } else {
                pgnkit::File::C
            },
            rank,
        );
        let rook_to = Square::from_coords(
            if kingside {
                pgnkit::File::F
            } else {
                pgnkit::File::D
            },
            rank,
        );
        let span = |a: Square, c: Square| {
            let (lo, hi) = if a.index() <= c.index() {
                (a, c)
            } else {
                (c, a)
            };
            (lo.index()..=hi.index())
                .map(|i| Square::new(i as u8))
                .collect::<Vec<_>>()
        };
        let clear = span(king, king_to)
            .into_iter()
            .chain(span(rook, rook_to))
            .all(|s| s == king || s == rook || b[s.index()].is_none());
        if !clear {
            continue;
        }
        let mut after = *b;
        after[king.index()] = None;
        after[rook.index()] = None;
        after[king_to.index()] = Some(Piece::new(us, Role::King));
        after[rook_to.index()] = Some(Piece::new(us, Role::Rook));
        out.push(((king, rook, None), after, true));
    }
    out
}

/// Legal moves by the slow model: the pseudo-legal moves that leave the own king unattacked; castling also needs
/// the king not in check and not crossing an attacked square.
fn slow_legal(b: &Mailbox, us: Color, raw_ep: Option<Square>, rights: &[Square]) -> BTreeSet<Key> {
    let them = !us;
    let mut legal = BTreeSet::new();
    for (key, after, castle) in pseudo_moves(b, us, raw_ep, rights) {
        if attacked(&after, king_square(&after, us), them) {
            continue;
        }
        if castle {
            let king = key.0;
            let kingside = key.1.file() > king.file();
            let king_to = Square::from_coords(
                if kingside {
                    pgnkit::File::G
                } else {
                    pgnkit::File::C
                },
                king.rank(),
            );
            let step: i8 = if king_to.file() > king.file() { 1 } else { -1 };
            let mut cur = king;
            let mut safe = !attacked(b, king, them);
            while cur != king_to && safe {
                cur = at(cur, step, 0).expect("on the board");
                safe = !attacked(b, cur, them);
            }
            if !safe {
                continue;
            }
        }
        legal.insert(key);
    }
    legal
}

fn key(m: &Move) -> Key {
    (m.from, m.to, m.promotion)
}

// ---- starting positions ----

/// Chess960 start number `n` (0..960) in the usual numbering (518 is the standard start), as Shredder-FEN.
fn chess960_fen(mut n: usize) -> String {
    let mut rank: [Option<char>; 8] = [None; 8];
    rank[1 + 2 * (n % 4)] = Some('B');
    n /= 4;
    rank[2 * (n % 4)] = Some('B');
    n /= 4;
    let place = |k: usize, c: char, rank: &mut [Option<char>; 8]| {
        let i = (0..8).filter(|&i| rank[i].is_none()).nth(k).unwrap();
        rank[i] = Some(c);
    };
    place(n % 6, 'Q', &mut rank);
    n /= 6;
    let knights = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ][n];
    place(knights.1, 'N', &mut rank);
    place(knights.0, 'N', &mut rank);
    for c in ['R', 'K', 'R'] {
        place(0, c, &mut rank);
    }
    let white: String = rank.iter().map(|c| c.unwrap()).collect();
    let files: Vec<char> = (0..8)
        .filter(|&i| rank[i] == Some('R'))
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castling: String = files
        .iter()
        .map(|c| c.to_ascii_uppercase())
        .chain(files.iter().copied())
        .collect();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1",
        white.to_ascii_lowercase()
    )
}

fn shakmaty_count(fen_text: &str) -> Option<usize> {
    use shakmaty::Position as _;
    let setup: shakmaty::fen::Fen = fen_text.parse().ok()?;
    let pos: shakmaty::Chess = setup.into_position(shakmaty::CastlingMode::Chess960).ok()?;
    Some(pos.legal_moves().len())
}

/// Every property at one position; `raw_ep` is the square a pawn has just crossed, if it just double-stepped.
fn check_position(
    pos: &Position,
    raw_ep: Option<Square>,
    history: &str,
) -> Result<(), TestCaseError> {
    // FEN round trips (strict: a reachable position must be accepted).
    for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
        let written = fen::to_fen_with(pos, style);
        let again = fen::parse_fen(&written)
            .map_err(|e| TestCaseError::fail(format!("{history}: {written} rejected: {e:?}")))?;
        prop_assert_eq!(again.to_setup(), pos.to_setup(), "{}: {}", history, written);
        prop_assert_eq!(again.zobrist(), pos.zobrist());
        if pos.castling_rights().non_empty()
            && (style == CastlingStyle::XFen || pos.castling_mode() == CastlingMode::Chess960)
        {
            prop_assert_eq!(
                again.castling_mode(),
                pos.castling_mode(),
                "{}: {}",
                history,
                written
            );
        }
    }
    // Hash.
    prop_assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "{}", history);
    // Legal moves against the slow model.
    let b = mailbox(pos);
    let rights: Vec<Square> = pos
        .castling_rights()
        .filter(|r| r.rank() == pos.turn().back_rank())
        .collect();
    let slow = slow_legal(&b, pos.turn(), raw_ep, &rights);
    let legal = pos.legal_moves();
    let fast: BTreeSet<Key> = legal.iter().map(key).collect();
    prop_assert_eq!(fast.len(), legal.len(), "{}: duplicate moves", history);
    prop_assert_eq!(&fast, &slow, "{}: {}", history, fen::to_fen(pos));
    prop_assert_eq!(perft(pos, 1), legal.len() as u64);
    // The e.p. square is kept exactly when an e.p. capture is legal.
    let ep_legal = legal.iter().any(|m| m.kind == MoveKind::EnPassant);
    prop_assert_eq!(pos.ep_square().is_some(), ep_legal, "{}", history);
    if let Some(raw) = raw_ep {
        // The same position written with the bare e.p. square hashes like the position itself.
        let mut setup = pos.to_setup();
        setup.ep_square = Some(raw);
        let with_raw = Position::from_setup(setup.clone(), pos.castling_mode()).unwrap();
        prop_assert_eq!(with_raw.zobrist(), pos.zobrist());
        setup.ep_square = None;
        let without = Position::from_setup(setup, pos.castling_mode()).unwrap();
        prop_assert_eq!(without.zobrist() == pos.zobrist(), !ep_legal, "{}", history);
    }
    // shakmaty agrees on the number of legal moves.
    if let Some(n) = shakmaty_count(&fen::to_fen_with(pos, CastlingStyle::Shredder)) {
        prop_assert_eq!(n, legal.len(), "{}: {}", history, fen::to_fen(pos));
    }
    Ok(())
}

fn playout(start: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut pos =
        fen::parse_fen(start).map_err(|e| TestCaseError::fail(format!("{start}: {e:?}")))?;
    let mut state = seed | 1;
    let mut raw_ep = None;
    let mut history = format!("{start} |");
    for _ in 0..plies {
        check_position(&pos, raw_ep, &history)?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = moves[(state % moves.len() as u64) as usize];
        history.push_str(&format!(" {}", pgnkit::notation::uci::to_uci(&pos, &m)));
        raw_ep = (m.kind == MoveKind::DoublePush).then(|| {
            Square::from_coords(
                m.from.file(),
                if pos.turn() == Color::White {
                    pgnkit::Rank::Third
                } else {
                    pgnkit::Rank::Sixth
                },
            )
        });
        pos.play_unchecked(m);
    }
    check_position(&pos, raw_ep, &history)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn playouts_from_the_standard_start(seed in any::<u64>(), plies in 0usize..200) {
        playout(fen::STARTING_FEN, seed, plies)?;
    }

    #[test]
    fn playouts_from_chess960_starts(n in 0usize..960, seed in any::<u64>(), plies in 0usize..200) {
        playout(&chess960_fen(n), seed, plies)?;
    }
}

#[test]
fn chess960_numbering() {
    assert_eq!(
        chess960_fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1"
    );
    assert_eq!(
        chess960_fen(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w FHfh - 0 1"
    );
    let all: BTreeSet<String> = (0..960).map(chess960_fen).collect();
    assert_eq!(all.len(), 960);
    for fen_text in &all {
        let pos = fen::parse_fen(fen_text).unwrap();
        assert_eq!(pos.legal_moves().len(), shakmaty_count(fen_text).unwrap());
    }
}
