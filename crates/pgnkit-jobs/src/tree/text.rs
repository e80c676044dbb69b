//! `--format text`: the root position's moves as an explorer shows them, most played first, with a bar of
//! white wins, draws and black wins for each.

use std::io::Write;

use super::columns::Values;
use super::{Row, Tree, TreeWritten};
use crate::messages::Locale;
use crate::run::JobError;
use pgnkit::core::fen;

/// Characters of a results bar.
const BAR: usize = 20;

pub(crate) fn write(
    tree: Tree,
    out: &mut dyn Write,
    locale: Locale,
) -> Result<TreeWritten, JobError> {
    let root = *tree.root();
    let mut rows: Vec<Row> = tree.rows_of_root().collect::<Result<_, _>>()?;
    rows.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.code.cmp(&b.code)));
    let total: u64 = rows.iter().map(|r| r.tally.games).sum();
    let mut text = String::new();
    text.push_str(&fen::to_epd(&root));
    text.push('\n');
    text.push_str(&crate::localized!(
        locale,
        "{} games; results: █ white wins, ▒ draws, ░ black wins\n\n",
        "{} parties ; résultats : █ gains des Blancs, ▒ nulles, ░ gains des Noirs\n\n",
        thousands(total)
    ));
    if rows.is_empty() {
        text.push_str(&crate::localized!(
            locale,
            "No game plays a move from this position.\n",
            "Aucune partie ne joue de coup depuis cette position.\n"
        ));
    } else {
        let [mv, games, results, opp, opening] = match locale {
            Locale::En => ["move", "games", "results", "opp.", "opening"],
            Locale::Fr => ["coup", "parties", "résultats", "adv.", "ouverture"],
        };
        // Padded by characters: `résultats` has one that is two bytes.
        let header = format!(
            "{mv:<8} {games:>9} {:>6}  {results:<BAR$}  {:>6} {:>5} {opp:>5} {:>5}  {opening}",
            "%", "score", "elo", "perf"
        );
        text.push_str(header.trim_end());
        text.push('\n');
    }
    for row in &rows {
        let v = Values::of(row);
        let t = &row.tally;
        let share = 100.0 * t.games as f64 / total.max(1) as f64;
        let num = |n: Option<i64>| n.map_or("-".to_string(), |n| n.to_string());
        let line = format!(
            "{:<8} {:>9} {:>5.1}%  {}  {:>6} {:>5} {:>5} {:>5}  {}",
            v.move_san,
            thousands(t.games),
            share,
            bar(t.white_wins, t.draws, t.black_wins),
            v.score
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s)),
            num(v.mover_elo.map(|e| e as i64)),
            num(v.opponent_elo.map(|e| e as i64)),
            num(v.performance),
            match (v.eco, v.opening) {
                (Some(eco), Some(name)) => format!("{eco} {name}"),
                _ => String::new(),
            }
        );
        text.push_str(line.trim_end());
        text.push('\n');
    }
    out.write_all(text.as_bytes())?;
    Ok(TreeWritten {
        rows: rows.len() as u64,
        positions: u64::from(!rows.is_empty()),
    })
}

/// A bar of [`BAR`] characters: white wins, draws, black wins in proportion (spaces for games without a
/// result).
fn bar(white: u64, draws: u64, black: u64) -> String {
    let total = white + draws + black;
    if total == 0 {
        return " ".repeat(BAR);
    }
    // Cumulative rounding: the three parts always fill the bar.
    let upto = |n: u64| ((n as f64 / total as f64) * BAR as f64).round() as usize;
    let w = upto(white);
    let d = upto(white + draws) - w;
    let b = BAR - w - d;
    format!("{}{}{}", "█".repeat(w), "▒".repeat(d), "░".repeat(b))
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_fill_their_width_in_proportion() {
        assert_eq!(bar(1, 0, 0), "█".repeat(BAR));
        assert_eq!(
            bar(1, 1, 2),
            format!("{}{}{}", "█".repeat(5), "▒".repeat(5), "░".repeat(10))
        );
        assert_eq!(bar(1, 1, 1).chars().count(), BAR);
        assert_eq!(bar(0, 0, 0), " ".repeat(BAR));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
