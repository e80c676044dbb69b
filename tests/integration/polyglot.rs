//! Polyglot books written with `pgnkit::core::polyglot` and read by python-chess's `chess.polyglot` reader, a
//! reader nobody here wrote: every entry's position and move come back as they went in.

use std::process::Command;

use pgnkit::core::fen::parse_fen;
use pgnkit::core::polyglot::{Entry, encode_move, key};

use crate::util::{python_has, temp_dir};

#[test]
fn python_chess_reads_a_book_pgnkit_writes() {
    if !python_has("chess.polyglot") {
        return;
    }
    // The start, a position with both castlings and promotions, and one after a double push.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let mut entries = Vec::new();
    let mut expected = Vec::new();
    for fen in fens {
        let pos = parse_fen(fen).unwrap();
        let passed = fen
            .contains(" f6 ")
            .then(|| pgnkit::core::Square::new(5 * 8 + 5));
        for (i, m) in pos.legal_moves().as_slice().iter().enumerate() {
            let weight = (i + 1) as u16;
            entries.push(Entry {
                key: key(&pos, passed),
                mv: encode_move(m),
                weight,
                learn: 0,
            });
            let name = |s: pgnkit::core::Square| s.to_string();
            let promotion = m
                .promotion
                .map_or(String::new(), |r| r.lower_char().to_string());
            let to = if m.is_castle() {
                m.king_destination()
            } else {
                m.to
            };
            expected.push(format!(
                "{fen}|{}{}{promotion}|{weight}",
                name(m.from),
                name(to)
            ));
        }
    }
    entries.sort();
    let dir = temp_dir("polyglot", "book");
    let book = dir.join("book.bin");
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    std::fs::write(&book, bytes).unwrap();
    let script = "import sys, chess, chess.polyglot\n\
                  with chess.polyglot.open_reader(sys.argv[1]) as book:\n\
                  \x20   for fen in sys.argv[2:]:\n\
                  \x20       for e in book.find_all(chess.Board(fen)):\n\
                  \x20           print(f'{fen}|{e.move.uci()}|{e.weight}')\n";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&book)
        .args(fens)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut read: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    read.sort();
    expected.sort();
    // 20 moves at the start, 34 with castlings and promotions, 31 with en passant.
    assert_eq!(read.len(), 20 + 34 + 31, "{read:?}");
    assert_eq!(read, expected);
    let _ = std::fs::remove_dir_all(&dir);
}
