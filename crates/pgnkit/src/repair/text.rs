//! A repaired game written back: the game's own bytes with the edits made, each marked by a comment saying
//! what was written, and the move numbers after an added or removed half-move put right. Nothing else changes.

use super::{Candidate, Diagnosis, EditKind};
use crate::core::{Color, Position};
use crate::explain::Locale;
use crate::notation::{Language, SanPlus};
use crate::pgn::{Game, TokenKind};
use crate::walk::Prepared;

/// What happens to one token of the game.
#[derive(Clone, Default)]
struct Action {
    /// A move inserted before the token: its ply and its text (with the comment that marks it).
    inserted: Option<(usize, String)>,
    /// Replaces the move itself (its check mark included, a glued annotation kept).
    replace: Option<String>,
    /// A comment after the token.
    after: String,
    /// The main-line ply of the move the token is (renumbered region only).
    ply: Option<usize>,
}

/// The game's text with `candidate`'s edits made (for the repair of [`super::diagnose`]). Comments say what was
/// written, in `locale`'s words: `{was: Ra4}`, `{removed: d6}`, `{added: missing from the record}`.
pub fn repaired_text(
    game: &Game<'_>,
    prepared: &Prepared,
    diagnosis: &Diagnosis,
    candidate: &Candidate,
    locale: Locale,
) -> Vec<u8> {
    let lang = prepared.lang.lang;
    let start = &prepared.start;
    let mut actions: Vec<Action> = vec![Action::default(); game.tokens.len()];
    let written = |i: usize| diagnosis.written(game, i);
    let was = |text: &str| match locale {
        Locale::En => format!("{{was: {}}}", comment_safe(text)),
        Locale::Fr => format!("{{écrit : {}}}", comment_safe(text)),
    };
    // The position before each move of the repaired line, and the move's SAN with its check mark.
    let mut positions: Vec<Position> = Vec::with_capacity(candidate.moves.len() + 1);
    let sans: Vec<String> = {
        let mut pos = *start;
        candidate
            .moves
            .iter()
            .map(|m| {
                positions.push(pos);
                SanPlus::from_move_and_play(&mut pos, m)
                    .display(lang)
                    .to_string()
            })
            .collect()
    };
    let san_at = |ply: usize| sans.get(ply).cloned().unwrap_or_default();

    // Walk the written tokens and the edits together, giving each surviving token its ply in the repaired
    // line; `shifted` is the first token after which the move numbers change.
    let mut shifted: Option<usize> = None;
    let mut promoted = None;
    let mut removed_from = None;
    let mut ply = 0usize;
    let mut i = 0usize;
    let mut edits = candidate.edits.iter().peekable();
    let n = diagnosis.tokens.len();
    while i < n {
        let edit = edits.next_if(|e| e.token == i);
        let token = diagnosis.tokens[i];
        match edit.map(|e| (e.kind, e)) {
            Some((EditKind::Substitution, e)) => {
                actions[token].replace = Some(san_at(ply));
                // A move of another game's letters (an English R for a French rook) says so: converted to
                // English, `Re1 {was: Re1}` would read as no change.
                let english = lang != Language::En
                    && e.mv.is_some_and(|mv| {
                        SanPlus::parse(written(i).as_bytes(), Language::En)
                            .ok()
                            .and_then(|p| p.to_move(positions.get(ply)?).ok())
                            == Some(mv)
                    });
                actions[token].after = if english {
                    match locale {
                        Locale::En => {
                            format!("{{was: {}, in English letters}}", comment_safe(&written(i)))
                        }
                        Locale::Fr => format!(
                            "{{écrit : {}, en lettres anglaises}}",
                            comment_safe(&written(i))
                        ),
                    }
                } else {
                    was(&written(i))
                };
                actions[token].ply = Some(ply);
                ply += 1;
                i += 1;
            }
            Some((EditKind::Insertion, _)) => {
                shifted.get_or_insert(i);
                let added = match locale {
                    Locale::En => "{added: missing from the record}",
                    Locale::Fr => "{ajouté : absent de la notation}",
                };
                actions[token].inserted = Some((ply, format!("{} {added} ", san_at(ply))));
                ply += 1;
                // The written token itself is read next, at the following ply.
            }
            Some((EditKind::Deletion, _)) => {
                shifted.get_or_insert(i);
                actions[token].replace = Some(match locale {
                    Locale::En => format!("{{removed: {}}}", comment_safe(&written(i))),
                    Locale::Fr => format!("{{supprimé : {}}}", comment_safe(&written(i))),
                });
                i += 1;
            }
            Some((EditKind::Transposition, _)) => {
                for (offset, from) in [(0, 2), (1, 1), (2, 0)] {
                    let t = diagnosis.tokens[i + offset];
                    if offset != 1 {
                        actions[t].replace = Some(written(i + from));
                        actions[t].after = was(&written(i + offset));
                    }
                    actions[t].ply = Some(ply + offset);
                }
                ply += 3;
                i += 3;
            }
            Some((EditKind::BroadcastArtefact, e)) => {
                match e.variation {
                    Some(v) => promoted = Some((i, v)),
                    None => removed_from = Some(i),
                }
                break;
            }
            None => {
                actions[token].ply = Some(ply);
                ply += 1;
                i += 1;
            }
        }
    }
    let source = game.source;
    let mut out: Vec<u8> = Vec::with_capacity(source.len() + 64);

    // Broadcast artefacts rewrite a whole stretch of the main line; done apart.
    if let Some(from) = removed_from {
        let first = region_start(game, diagnosis.tokens[from]);
        let last = game.tokens[*diagnosis.tokens.last().expect("a removal has tokens")].span;
        let removed = String::from_utf8_lossy(&source[first..last.end as usize]);
        let removed = removed.split_whitespace().collect::<Vec<_>>().join(" ");
        out.extend_from_slice(&source[..first]);
        out.extend_from_slice(
            match locale {
                Locale::En => format!("{{removed after the game: {}}}", comment_safe(&removed)),
                Locale::Fr => format!("{{supprimé après la partie : {}}}", comment_safe(&removed)),
            }
            .as_bytes(),
        );
        out.extend_from_slice(&source[last.end as usize..]);
        return out;
    }
    if let Some((from, v)) = promoted {
        // The variation's first move takes the place of the move it replaces; what the main line had from
        // there becomes a variation right after it, and the variation's other moves follow.
        let alternative = &diagnosis.variations[v];
        let first = region_start(game, diagnosis.tokens[from]);
        let open = game.tokens[alternative.open].span;
        let close = game.tokens[alternative.close].span;
        let last = game.tokens[*diagnosis.tokens.last().expect("a promotion has tokens")].span;
        let first_move = game.tokens[alternative.tokens[0]].span;
        let head = trim(&source[open.end as usize..first_move.end as usize]);
        let rest = trim(&source[first_move.end as usize..close.start as usize]);
        let demoted_head = trim(&source[first..open.start as usize]);
        let demoted_tail = if last.end > close.end {
            trim(&source[close.end as usize..last.end as usize])
        } else {
            &[][..]
        };
        let end = last.end.max(close.end) as usize;
        let branch_ply = candidate.edits.last().map_or(0, |e| e.ply as usize - 1);
        out.extend_from_slice(&source[..first]);
        out.extend_from_slice(head);
        // What the main line had stays in a comment: as a variation its failing move would be an error.
        let mut had = String::from_utf8_lossy(demoted_head).into_owned();
        if !demoted_tail.is_empty() {
            had.push(' ');
            had.push_str(&String::from_utf8_lossy(demoted_tail));
        }
        let had = comment_safe(&had.split_whitespace().collect::<Vec<_>>().join(" "));
        out.extend_from_slice(
            match locale {
                Locale::En => format!(" {{promoted from a variation: the main line had {had}}}"),
                Locale::Fr => {
                    format!(" {{promue d'une variante : la ligne principale avait {had}}}")
                }
            }
            .as_bytes(),
        );
        if !rest.is_empty() {
            out.push(b' ');
            if !rest[0].is_ascii_digit() {
                out.extend_from_slice(number(start, branch_ply + 1, false).as_bytes());
            }
            out.extend_from_slice(rest);
        }
        out.extend_from_slice(&source[end..]);
        return out;
    }

    // Past an added or removed half-move the numbers are written again, from the number before the edit.
    let renumber_from = shifted.map(|i| region_start_token(game, diagnosis.tokens[i]));
    let mut copied = 0usize;
    let mut depth = 0u32;
    let mut last_was_move = false;
    for (index, token) in game.tokens.iter().enumerate() {
        let span = token.span;
        let renumbering = depth == 0 && renumber_from.is_some_and(|from| index >= from);
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
        let action = &actions[index];
        if renumbering && matches!(token.kind, TokenKind::MoveNumber { .. }) {
            out.extend_from_slice(&source[copied..span.start as usize]);
            copied = skip_blank(source, span.end as usize);
            continue;
        }
        let touched = action.inserted.is_some()
            || action.replace.is_some()
            || !action.after.is_empty()
            || (renumbering && action.ply.is_some());
        if !touched {
            if depth == 0 || matches!(token.kind, TokenKind::VariationStart) {
                last_was_move = match token.kind {
                    TokenKind::Move(_) | TokenKind::Unknown => true,
                    TokenKind::Nag(_) | TokenKind::MoveNumber { .. } => last_was_move,
                    _ => false,
                };
            }
            continue;
        }
        out.extend_from_slice(&source[copied..span.start as usize]);
        if let Some((p, text)) = &action.inserted {
            if renumbering {
                out.extend_from_slice(number(start, *p, last_was_move).as_bytes());
            }
            out.extend_from_slice(text.as_bytes());
            // Its comment stands between it and the written move.
            last_was_move = false;
        }
        if renumbering && let Some(p) = action.ply {
            out.extend_from_slice(number(start, p, last_was_move).as_bytes());
        }
        match (&action.replace, token.kind) {
            (Some(text), TokenKind::Move(m)) => {
                out.extend_from_slice(&source[span.start as usize..m.san.start as usize]);
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(&source[m.san.end as usize..span.end as usize]);
            }
            (Some(text), _) => out.extend_from_slice(text.as_bytes()),
            (None, _) => out.extend_from_slice(&source[span.range()]),
        }
        if !action.after.is_empty() {
            out.push(b' ');
            out.extend_from_slice(action.after.as_bytes());
        }
        // A removed move (the one touched token without a ply) leaves its comment, as a comment after a move
        // does.
        last_was_move = action.ply.is_some() && action.after.is_empty();
        copied = span.end as usize;
    }
    out.extend_from_slice(&source[copied..]);
    out
}

/// The move number a move at `ply` of the line from `start` is written with: `12. ` for White, `12... ` for
/// Black unless it follows White's move directly.
fn number(start: &Position, ply: usize, after_a_move: bool) -> String {
    let half = ply + usize::from(start.turn() == Color::Black);
    let n = start.fullmoves() as usize + half / 2;
    if half.is_multiple_of(2) {
        format!("{n}. ")
    } else if after_a_move {
        String::new()
    } else {
        format!("{n}... ")
    }
}

/// The token index where a main-line move's region starts: its move number when one stands right before
/// it, else the move itself.
fn region_start_token(game: &Game<'_>, token: usize) -> usize {
    if token > 0 && matches!(game.tokens[token - 1].kind, TokenKind::MoveNumber { .. }) {
        token - 1
    } else {
        token
    }
}

/// The byte offset of [`region_start_token`].
fn region_start(game: &Game<'_>, token: usize) -> usize {
    game.tokens[region_start_token(game, token)].span.start as usize
}

fn skip_blank(source: &[u8], mut at: usize) -> usize {
    while at < source.len() && matches!(source[at], b' ' | b'\t' | b'\r' | b'\n') {
        at += 1;
    }
    at
}

fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &bytes[start..end]
}

/// Text that can stand inside a `{...}` comment: a closing brace would end it.
fn comment_safe(text: &str) -> String {
    text.replace(['{', '}'], "")
}
