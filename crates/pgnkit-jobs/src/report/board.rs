//! A board diagram as inline SVG, drawn here: squares, coordinates and pieces are plain shapes, so the page
//! needs no font, image or network to show them (chess glyphs depend on the fonts of the reader's machine, and
//! a headless browser on a server often has none with them).
//!
//! The pieces are `<symbol>`s defined once per page ([`piece_defs`]) and placed with `<use>`: a page with a
//! hundred diagrams carries the shapes once. [`standalone_svg`] gives a diagram that carries its own.

use pgnkit::core::{Color, File, Position, Rank, Role, Square};

use super::escape::push_escaped;

/// Side of a square, in SVG user units.
const SQ: u32 = 45;
/// Room left of the board for the ranks and under it for the files.
const MARGIN: u32 = 18;
/// Width and height of a diagram.
pub(crate) const SIZE: u32 = 8 * SQ + MARGIN;

const LIGHT: &str = "#eeeed2";
const DARK: &str = "#769656";

/// A position to draw, with the squares of the move that went wrong and of a suggested move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Diagram {
    /// The position before the faulty move.
    pub(crate) position: Position,
    /// Where the faulty move starts, when the text names it (`Nb1d2`, `e2e4`).
    pub(crate) from: Option<Square>,
    /// Where the faulty move goes, when the text says (`Qxe2`: e2).
    pub(crate) to: Option<Square>,
    /// The legal move the text plausibly meant (from, to).
    pub(crate) suggestion: Option<(Square, Square)>,
}

impl Diagram {
    /// A diagram of `position` with nothing marked.
    #[cfg(test)]
    pub(crate) fn new(position: Position) -> Diagram {
        Diagram {
            position,
            from: None,
            to: None,
            suggestion: None,
        }
    }
}

/// The id of a piece's symbol: `pgnkit-` then `w` or `b`, then the role's letter.
fn symbol_id(color: Color, role: Role) -> String {
    let side = match color {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("pgnkit-{side}{}", role.lower_char())
}

/// The outline of each piece in a 45 × 45 box (drawn for this project: simple geometric shapes).
fn shape(role: Role) -> &'static str {
    match role {
        Role::Pawn => {
            r#"<circle cx="22.5" cy="14" r="5.5"/><path d="M15.5 34 L18.5 22 Q22.5 19 26.5 22 L29.5 34 Z"/><rect x="12" y="34" width="21" height="5" rx="1.5"/>"#
        }
        Role::Knight => {
            r#"<path d="M13 39 H33 C34 28 31 18 24 11 L23 7 L20 11 C15 13 11 19 10 24 L12 28 L17 25 C19 29 14 32 13 39 Z"/><circle cx="18" cy="17" r="1.5" class="detail"/>"#
        }
        Role::Bishop => {
            r#"<circle cx="22.5" cy="9" r="3"/><path d="M16 33 C11 26 16 18 22.5 12 C29 18 34 26 29 33 Z"/><path d="M22.5 19 V27 M18.5 23 H26.5" class="detail" fill="none"/><rect x="11" y="33" width="23" height="6" rx="1.5"/>"#
        }
        Role::Rook => {
            r#"<path d="M11 39 H34 V34 H31 V20 H34 V11 H30 V15 H25.5 V11 H19.5 V15 H15 V11 H11 V20 H14 V34 H11 Z"/>"#
        }
        Role::Queen => {
            r#"<path d="M11 34 L8 15 L15 25 L16.5 11 L22.5 24 L28.5 11 L30 25 L37 15 L34 34 Z"/><circle cx="8" cy="14" r="2.5"/><circle cx="16.5" cy="10" r="2.5"/><circle cx="28.5" cy="10" r="2.5"/><circle cx="37" cy="14" r="2.5"/><rect x="10" y="34" width="25" height="5" rx="1.5"/>"#
        }
        Role::King => {
            r#"<path d="M22.5 5 V17 M18 9.5 H27" fill="none" stroke-width="2.5"/><path d="M12 34 C8 26 13 19 22.5 22 C32 19 37 26 33 34 Z"/><rect x="11" y="34" width="23" height="5" rx="1.5"/>"#
        }
    }
}

/// Fill and outline of each side's pieces; `detail` lines are drawn in the other colour so that they show
/// on a black piece too.
fn colours(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#222222", "#000000"),
    }
}

/// The piece symbols, as an SVG that shows nothing: put once in a page before the diagrams that use them.
pub(crate) fn piece_defs() -> String {
    defs(false)
}

/// The id of the empty board's symbol ([`board_defs`]).
const BOARD_ID: &str = "pgnkit-board";

/// The piece symbols and an empty board's (its squares and coordinates), as an SVG that shows nothing: put
/// once in a page before the diagrams of [`push_svg_shared`].
pub(crate) fn board_defs() -> String {
    defs(true)
}

fn defs(with_board: bool) -> String {
    let mut out = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>"#,
    );
    push_symbols(&mut out);
    if with_board {
        out.push_str(&format!(
            r#"<symbol id="{BOARD_ID}" viewBox="0 0 {SIZE} {SIZE}">"#
        ));
        push_squares(&mut out);
        push_coordinates(&mut out);
        out.push_str("</symbol>");
    }
    out.push_str("</defs></svg>");
    out
}

fn push_symbols(out: &mut String) {
    for color in Color::ALL {
        let (fill, stroke) = colours(color);
        let (detail_fill, detail_stroke) = colours(!color);
        for role in Role::ALL {
            out.push_str(&format!(
                r#"<symbol id="{}" viewBox="0 0 45 45"><g fill="{fill}" stroke="{stroke}" stroke-width="1.5" stroke-linejoin="round">{}</g></symbol>"#,
                symbol_id(color, role),
                shape(role)
                    .replace(
                        r#"class="detail" fill="none""#,
                        &format!(r#"fill="none" stroke="{detail_fill}""#)
                    )
                    .replace(
                        r#"class="detail""#,
                        &format!(r#"fill="{detail_fill}" stroke="{detail_stroke}""#)
                    ),
            ));
        }
    }
}

/// Top-left corner of `sq` with white at the bottom.
fn corner(sq: Square) -> (u32, u32) {
    let x = MARGIN + sq.file().index() as u32 * SQ;
    let y = (7 - sq.rank().index() as u32) * SQ;
    (x, y)
}

/// Appends the diagram as an `<svg>` element that uses the symbols of [`piece_defs`]. `label` is its
/// accessible name (already in the reader's language; escaped here).
pub(crate) fn push_svg(diagram: &Diagram, label: &str, out: &mut String) {
    push_svg_start(label, out);
    push_board(diagram, out);
    out.push_str("</svg>");
}

/// Appends the diagram as [`push_svg`] does, its squares and coordinates drawn by a `<use>` of the empty
/// board of [`board_defs`], which the page holds once: for a page of many diagrams, each then carries only
/// its marks and pieces (a few kilobytes less each).
pub(crate) fn push_svg_shared(diagram: &Diagram, label: &str, out: &mut String) {
    push_svg_start(label, out);
    out.push_str(&format!(
        r##"<use href="#{BOARD_ID}" x="0" y="0" width="{SIZE}" height="{SIZE}"/>"##
    ));
    push_marks_and_pieces(diagram, out);
    out.push_str("</svg>");
}

/// The opening tag of a diagram, `label` its accessible name.
fn push_svg_start(label: &str, out: &mut String) {
    out.push_str(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {SIZE} {SIZE}" width="{SIZE}" height="{SIZE}" role="img" aria-label=""#
    ));
    push_escaped(label, out);
    out.push_str("\">");
}

/// The diagram as a whole SVG document of its own (the symbols included).
#[cfg(test)]
pub(crate) fn standalone_svg(diagram: &Diagram) -> String {
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" width="{SIZE}" height="{SIZE}"><defs>"#
    );
    push_symbols(&mut out);
    out.push_str("</defs>");
    push_board(diagram, &mut out);
    out.push_str("</svg>");
    out
}

fn push_board(diagram: &Diagram, out: &mut String) {
    // Squares first, then the marks, then the pieces over them, then the coordinates.
    push_squares(out);
    push_marks_and_pieces(diagram, out);
    push_coordinates(out);
}

fn push_squares(out: &mut String) {
    out.push_str(r#"<g class="squares">"#);
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let colour = if sq.is_dark() { DARK } else { LIGHT };
        out.push_str(&format!(
            r#"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{colour}"/>"#
        ));
    }
    out.push_str("</g>");
}

/// The marked squares, then the pieces over them.
fn push_marks_and_pieces(diagram: &Diagram, out: &mut String) {
    if let Some((from, to)) = diagram.suggestion {
        for sq in [from, to] {
            let (x, y) = corner(sq);
            out.push_str(&format!(
                r##"<rect class="suggested" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="#3a9ad9" fill-opacity="0.45"/>"##
            ));
        }
    }
    if let Some(from) = diagram.from {
        let (x, y) = corner(from);
        out.push_str(&format!(
            r##"<rect class="from" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="#f0c000" fill-opacity="0.55"/>"##
        ));
    }
    if let Some(to) = diagram.to {
        let (x, y) = corner(to);
        out.push_str(&format!(
            r##"<rect class="to" x="{}" y="{}" width="{}" height="{}" fill="#e03030" fill-opacity="0.35" stroke="#c00000" stroke-width="4"/>"##,
            x + 2,
            y + 2,
            SQ - 4,
            SQ - 4
        ));
    }
    for (sq, piece) in diagram.position.board().iter() {
        let (x, y) = corner(sq);
        out.push_str(&format!(
            r##"<use class="piece" href="#{}" x="{x}" y="{y}" width="{SQ}" height="{SQ}"/>"##,
            symbol_id(piece.color, piece.role)
        ));
    }
}

/// Files under the board, ranks left of it (in the margins: nothing else is drawn there).
fn push_coordinates(out: &mut String) {
    out.push_str(r##"<g class="coordinates" font-family="sans-serif" font-size="12" fill="#333" text-anchor="middle">"##);
    for file in File::ALL {
        let x = MARGIN + file.index() as u32 * SQ + SQ / 2;
        out.push_str(&format!(
            r#"<text x="{x}" y="{}">{}</text>"#,
            8 * SQ + 14,
            file.char()
        ));
    }
    for rank in Rank::ALL {
        let y = (7 - rank.index() as u32) * SQ + SQ / 2 + 4;
        out.push_str(&format!(
            r#"<text x="{}" y="{y}">{}</text>"#,
            MARGIN / 2,
            rank.char()
        ));
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit::core::fen::parse_fen;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    /// Every `<tag` opened is closed (by `/>` or `</tag>`), in order: the output nests as XML does.
    fn assert_nested(svg: &str) {
        let mut open: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            let end = rest.find('>').expect("tag closed");
            let tag = &rest[..end];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(name), "in {svg}");
            } else if !tag.ends_with('/') {
                let name: String = tag.chars().take_while(|c| !c.is_whitespace()).collect();
                open.push(name);
            }
            rest = &rest[end + 1..];
        }
        assert!(open.is_empty(), "unclosed {open:?}");
    }

    #[test]
    fn sixty_four_squares_and_the_pieces_of_the_fen() {
        let fens = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                32,
            ),
            ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", 2),
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                32,
            ),
            ("8/P7/8/8/8/8/2k5/K7 w - - 0 1", 3),
        ];
        for (fen, pieces) in fens {
            let pos = parse_fen(fen).unwrap();
            let mut svg = String::new();
            push_svg(&Diagram::new(pos), "label", &mut svg);
            assert_eq!(count(&svg, "<rect "), 64, "{fen}");
            assert_eq!(count(&svg, r#"class="piece""#), pieces, "{fen}");
            assert_nested(&svg);
            // Files under the board, ranks beside it.
            for c in ["a", "h", "1", "8"] {
                assert!(svg.contains(&format!(">{c}</text>")), "{c} in {fen}");
            }
        }
    }

    #[test]
    fn pieces_sit_on_their_squares_white_at_the_bottom() {
        let pos = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mut svg = String::new();
        push_svg(&Diagram::new(pos), "", &mut svg);
        // e1: file 4, bottom row; e8: top row; h1: last file.
        let e1 = format!(
            r##"href="#pgnkit-wk" x="{}" y="{}""##,
            MARGIN + 4 * SQ,
            7 * SQ
        );
        let e8 = format!(r##"href="#pgnkit-bk" x="{}" y="0""##, MARGIN + 4 * SQ);
        let h1 = format!(
            r##"href="#pgnkit-wr" x="{}" y="{}""##,
            MARGIN + 7 * SQ,
            7 * SQ
        );
        for want in [e1, e8, h1] {
            assert!(svg.contains(&want), "{want} not in {svg}");
        }
    }

    #[test]
    fn marks_only_where_asked() {
        let pos = Position::default();
        let mut plain = String::new();
        push_svg(&Diagram::new(pos), "", &mut plain);
        assert!(!plain.contains(r#"class="to""#) && !plain.contains(r#"class="suggested""#));
        let marked = Diagram {
            position: pos,
            from: Some(Square::E2),
            to: Some(Square::E5),
            suggestion: Some((Square::E2, Square::E4)),
        };
        let mut svg = String::new();
        push_svg(&marked, "", &mut svg);
        assert_eq!(count(&svg, r#"class="from""#), 1);
        assert_eq!(count(&svg, r#"class="to""#), 1);
        assert_eq!(count(&svg, r#"class="suggested""#), 2);
        assert_nested(&svg);
    }

    #[test]
    fn the_label_is_escaped_and_the_defs_define_every_piece() {
        let mut svg = String::new();
        push_svg(&Diagram::new(Position::default()), "<b>\"x\"", &mut svg);
        assert!(
            svg.contains("aria-label=\"&lt;b&gt;&quot;x&quot;\""),
            "{svg}"
        );
        let defs = piece_defs();
        assert_nested(&defs);
        assert_eq!(count(&defs, "<symbol "), 12);
        for id in [
            "pgnkit-wp",
            "pgnkit-bn",
            "pgnkit-wb",
            "pgnkit-br",
            "pgnkit-wq",
            "pgnkit-bk",
        ] {
            assert!(defs.contains(&format!("id=\"{id}\"")), "{id}");
        }
        let alone = standalone_svg(&Diagram::new(Position::default()));
        assert_nested(&alone);
        assert_eq!(count(&alone, "<symbol "), 12);
        assert_eq!(count(&alone, r#"class="piece""#), 32);
    }

    #[test]
    fn a_shared_board_draws_what_a_whole_one_draws() {
        let pos = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let marked = Diagram {
            position: pos,
            from: Some(Square::E1),
            to: None,
            suggestion: None,
        };
        let (mut whole, mut shared) = (String::new(), String::new());
        push_svg(&marked, "x", &mut whole);
        push_svg_shared(&marked, "x", &mut shared);
        assert_nested(&shared);
        assert_eq!(count(&shared, "<rect "), 1, "the mark only");
        assert_eq!(count(&shared, r#"class="piece""#), 3);
        assert_eq!(count(&shared, r##"href="#pgnkit-board""##), 1);
        assert!(
            shared.len() * 2 < whole.len(),
            "{} {}",
            shared.len(),
            whole.len()
        );
        let defs = board_defs();
        assert_nested(&defs);
        assert_eq!(count(&defs, "<symbol "), 13);
        assert!(defs.contains(r#"<symbol id="pgnkit-board""#));
        // The board symbol holds the squares and coordinates of a whole diagram, the pieces' shapes stay
        // in theirs.
        assert_eq!(count(&defs, "<rect ") - count(&piece_defs(), "<rect "), 64);
        assert_eq!(count(&defs, "</text>"), 16);
        assert_eq!(count(&piece_defs(), "pgnkit-board"), 0);
    }
}
