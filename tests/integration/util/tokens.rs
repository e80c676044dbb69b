//! A throwaway movetext tokenizer for notation tests and benches (the real PGN reader is `pgnkit::pgn`): main-line
//! SAN tokens per game, good enough for the shared corpus (export-format files).

/// One game: its `FEN` tag, if any, and its main-line SAN tokens.
#[derive(Default)]
pub struct Game {
    #[allow(dead_code)]
    pub fen: Option<String>,
    pub tokens: Vec<Vec<u8>>,
}

/// The games of a PGN text. A game starts at each `[Event ` tag (or at the first move, for text without tags);
/// other tags, `{}` and `;` comments, `%` escape lines, variations, NAGs, move numbers and results are skipped.
pub fn games(text: &str) -> Vec<Game> {
    let mut games: Vec<Game> = Vec::new();
    let (mut comment, mut depth) = (false, 0usize);
    for line in text.lines() {
        // Inside a comment, a line may start with `[` (`[%clk ...]`): no tag then.
        if !comment && line.starts_with("[Event ") {
            games.push(Game::default());
        }
        if !comment
            && let Some(fen) = line.strip_prefix("[FEN \"")
            && let Some(game) = games.last_mut()
        {
            game.fen = fen.strip_suffix("\"]").map(String::from);
        }
        if !comment && (line.starts_with('[') || line.starts_with('%')) {
            continue;
        }
        let line = if comment {
            line
        } else {
            line.split(';').next().unwrap_or("")
        };
        let mut rest = line;
        // Split the line into pieces outside comments.
        while !rest.is_empty() {
            if comment {
                match rest.find('}') {
                    Some(end) => {
                        comment = false;
                        rest = &rest[end + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            let (outside, after) = match rest.find('{') {
                Some(start) => {
                    comment = true;
                    (&rest[..start], &rest[start + 1..])
                }
                None => (rest, ""),
            };
            rest = after;
            let spaced = outside.replace('(', " ( ").replace(')', " ) ");
            for token in spaced.split_whitespace() {
                match token {
                    "(" => depth += 1,
                    ")" => depth = depth.saturating_sub(1),
                    _ if depth > 0 => {}
                    "1-0" | "0-1" | "1/2-1/2" | "*" => {}
                    _ => {
                        let token =
                            token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                        if !token.is_empty() && !token.starts_with('$') {
                            if games.is_empty() {
                                games.push(Game::default());
                            }
                            let game = games.last_mut().expect("pushed above");
                            game.tokens.push(token.as_bytes().to_vec());
                        }
                    }
                }
            }
        }
    }
    games
}
