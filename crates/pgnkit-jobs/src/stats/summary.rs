//! The aggregate report of `stats --summary`: results by colour, endings, the most frequent ECO codes, and
//! per event the standings (games, points, performance against the field) with a crosstable for small
//! events.
//!
//! Memory stays bounded whatever the input: at most `Limits::events` events, `Limits::players` player
//! entries over all events and `Limits::eco_codes` distinct ECO values are tracked; what comes after a
//! limit is counted and the report says how much was left out. A tracked player's figures stay exact when
//! the opponent is not tracked (the opponent's rating comes from the game's own tags). Pairwise results for
//! the crosstable are kept only while an event has at most `Limits::crosstable_players` players, and the
//! crosstable is shown when at least half of the possible pairings were played (a round robin, not a pool
//! of casual games). Events are listed biggest first.
//!
//! Per event, the standings are the tournament model's ([`crate::tournament`]), ranked as `pgnkit standings`
//! ranks them without `--tiebreaks` (points, then FIDE's recommended tie-breaks for the kind of tournament):
//! the same games counted (decided games score, forfeits and byes as the rounds score them; a game that is no
//! pairing or a copy of one already counted is left out, and the event says how many), the same players,
//! ratings, performance (`crate::tournament::perf`) and tie-breaks, headed by their FIDE codes. The summary
//! shows a part of their figures: games, points, score, games against rated opponents, their average rating,
//! the performance and the tie-breaks. Its crosstable marks forfeits as TRF does (`+` won, `-` lost) and
//! gives each player's byes in TRF's codes (`F`, `H`, `Z`, `U`).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::GameStats;
use crate::localized;
use crate::messages::{Locale, localized_decimal, plural as plural_in};
use crate::options::Tiebreaks;
use crate::safe_text::{Align, name_column, push_cell, safe};
use crate::tournament::crosstable::Outcome as RoundOutcome;
use crate::tournament::{
    Bounds, GameEntry, Standing, Standings, TiebreakColumns, Tournament, TournamentKey,
};
use pgnkit::core::Termination;
use pgnkit::pgn::{Game, GameResult};

/// How a game ended for the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
    /// `*`
    Unfinished,
    /// No result, or a Result tag that is no PGN result.
    Unknown,
}

impl Outcome {
    const ALL: [Outcome; 5] = [
        Outcome::WhiteWins,
        Outcome::Draw,
        Outcome::BlackWins,
        Outcome::Unfinished,
        Outcome::Unknown,
    ];

    fn label(self, locale: Locale) -> &'static str {
        match (self, locale) {
            (Outcome::WhiteWins, Locale::En) => "white wins (1-0)",
            (Outcome::Draw, Locale::En) => "draws (1/2-1/2)",
            (Outcome::BlackWins, Locale::En) => "black wins (0-1)",
            (Outcome::Unfinished, Locale::En) => "unfinished (*)",
            (Outcome::Unknown, Locale::En) => "no or unknown result",
            (Outcome::WhiteWins, Locale::Fr) => "gain des Blancs (1-0)",
            (Outcome::Draw, Locale::Fr) => "nulles (1/2-1/2)",
            (Outcome::BlackWins, Locale::Fr) => "gain des Noirs (0-1)",
            (Outcome::Unfinished, Locale::Fr) => "inachevées (*)",
            (Outcome::Unknown, Locale::Fr) => "résultat absent ou inconnu",
        }
    }
}

/// What the summary needs of one game (owned: it travels from a worker to the output side).
#[derive(Clone, Debug)]
pub(crate) struct GameRecord {
    /// The game as its tournament counts it (`None`: it belongs to none), with validate's fingerprint.
    pub(crate) entry: Option<GameEntry>,
    pub(crate) outcome: Outcome,
    pub(crate) eco: String,
    pub(crate) termination: Option<Termination>,
    pub(crate) plies: u32,
    pub(crate) valid: bool,
}

impl GameRecord {
    /// The record of a game whose stats are `s`, `fingerprint` validate's fingerprint of it.
    pub(crate) fn of(s: &GameStats<'_>, game: &Game<'_>, fingerprint: u64) -> GameRecord {
        let t = &s.tags;
        let result = if t.result.is_empty() {
            s.marker
        } else {
            GameResult::from_bytes(t.result.trim().as_bytes())
        };
        let outcome = match result {
            Some(GameResult::WhiteWins) => Outcome::WhiteWins,
            Some(GameResult::BlackWins) => Outcome::BlackWins,
            Some(GameResult::Draw) => Outcome::Draw,
            Some(GameResult::Unknown) => Outcome::Unfinished,
            None => Outcome::Unknown,
        };
        GameRecord {
            entry: GameEntry::of(game).map(|e| e.fingerprinted(fingerprint)),
            outcome,
            eco: t.eco.trim().to_string(),
            termination: s.replayed.as_ref().and_then(|r| r.termination),
            plies: s.plies,
            valid: s.valid,
        }
    }
}

/// The bounds of the summary's memory and of what the report lists.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Events tracked (the first ones seen).
    pub(crate) events: usize,
    /// Player entries tracked, over all events.
    pub(crate) players: usize,
    /// Games counted in the standings, over all events.
    pub(crate) games: usize,
    /// Distinct ECO values tracked.
    pub(crate) eco_codes: usize,
    /// Largest event that gets a crosstable.
    pub(crate) crosstable_players: usize,
    /// ECO codes listed.
    pub(crate) listed_eco: usize,
    /// Events listed.
    pub(crate) listed_events: usize,
    /// Players listed per event.
    pub(crate) listed_players: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            events: 10_000,
            players: 100_000,
            games: 100_000,
            eco_codes: 10_000,
            crosstable_players: 16,
            listed_eco: 10,
            listed_events: 20,
            listed_players: 50,
        }
    }
}

/// Everything `--summary` reports, aggregated game by game in bounded memory.
#[derive(Debug)]
pub struct StatsSummary {
    pub(crate) limits: Limits,
    pub(crate) files: u64,
    pub bytes: u64,
    pub(crate) games: u64,
    pub(crate) plies: u64,
    pub(crate) games_with_errors: u64,
    results: [u64; 5],
    /// `None` first, then the terminations in [`TERMINATIONS`] order.
    terminations: [u64; 6],
    eco: HashMap<String, u64>,
    eco_untracked: u64,
    no_eco: u64,
    /// Every event's standings.
    standings: Standings,
}

const TERMINATIONS: [Termination; 5] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::InsufficientMaterial,
    Termination::SeventyFiveMoves,
    Termination::FivefoldRepetition,
];

fn termination_slot(t: Option<Termination>) -> usize {
    t.map_or(0, |t| {
        1 + TERMINATIONS.iter().position(|&x| x == t).unwrap_or(0)
    })
}

impl StatsSummary {
    pub(crate) fn new(limits: Limits) -> StatsSummary {
        StatsSummary {
            limits,
            files: 0,
            bytes: 0,
            games: 0,
            plies: 0,
            games_with_errors: 0,
            results: [0; 5],
            terminations: [0; 6],
            eco: HashMap::new(),
            eco_untracked: 0,
            no_eco: 0,
            standings: Standings::within(Bounds {
                tournaments: limits.events,
                players: limits.players,
                games: limits.games,
            }),
        }
    }

    /// Every event's standings.
    #[cfg(test)]
    pub(crate) fn standings(&self) -> &Standings {
        &self.standings
    }

    /// Adds one game.
    pub(crate) fn add(&mut self, r: GameRecord) {
        self.games += 1;
        self.plies += u64::from(r.plies);
        self.games_with_errors += u64::from(!r.valid);
        self.results[Outcome::ALL
            .iter()
            .position(|&o| o == r.outcome)
            .unwrap_or(4)] += 1;
        self.terminations[termination_slot(r.termination)] += 1;
        if r.eco.is_empty() || r.eco == "?" {
            self.no_eco += 1;
        } else if let Some(n) = self.eco.get_mut(&r.eco) {
            *n += 1;
        } else if self.eco.len() < self.limits.eco_codes {
            self.eco.insert(r.eco, 1);
        } else {
            self.eco_untracked += 1;
        }
        self.standings.add(r.entry.as_ref());
    }

    /// The report, as text.
    #[cfg(test)]
    pub(crate) fn render(&self) -> String {
        self.render_in(Locale::En)
    }

    /// The report in `locale`: the headings and explanations translated; names, codes and figures as they are.
    pub fn render_in(&self, locale: Locale) -> String {
        let mut s = String::new();
        let _ = self.write_report(&mut s, locale);
        s
    }

    fn write_report(&self, s: &mut String, locale: Locale) -> std::fmt::Result {
        let plural = |n: u64| plural_in(locale, n);
        let games = self.games;
        let pct = |n: u64| {
            let rate = if games == 0 {
                0.0
            } else {
                100.0 * n as f64 / games as f64
            };
            tenths(locale, rate)
        };
        let per_game = if games == 0 {
            0.0
        } else {
            self.plies as f64 / games as f64
        };
        let (files, mb, plies, with_errors) = (
            self.files,
            tenths(locale, self.bytes as f64 / 1e6),
            self.plies,
            self.games_with_errors,
        );
        let per_game = tenths(locale, per_game);
        let (g, f, e) = (plural(games), plural(files), plural(with_errors));
        writeln!(
            s,
            "{}",
            localized!(
                locale,
                "{games} game{g} in {files} file{f} ({mb} MB), {plies} half-moves in the main lines ({per_game} per game); {with_errors} game{e} with errors",
                "{games} partie{g} dans {files} fichier{f} ({mb} Mo), {plies} demi-coups dans les lignes principales ({per_game} par partie) ; {with_errors} partie{e} avec erreurs"
            )
        )?;

        writeln!(s, "\n{}", localized!(locale, "results", "résultats"))?;
        for (k, o) in Outcome::ALL.iter().enumerate() {
            let n = self.results[k];
            if n > 0 || k < 3 {
                writeln!(s, "  {:<22} {:>9} {:>6} %", o.label(locale), n, pct(n))?;
            }
        }
        let decided = self.results[0] + self.results[1] + self.results[2];
        if decided > 0 {
            let white = (2 * self.results[0] + self.results[1]) as f64 / (2 * decided) as f64;
            let (white, black) = (
                tenths(locale, 100.0 * white),
                tenths(locale, 100.0 * (1.0 - white)),
            );
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "  white scored {white} %, black {black} % (of the {decided} finished games, a draw counting half)",
                    "  les Blancs ont marqué {white} %, les Noirs {black} % (des {decided} parties terminées, une nulle comptant pour moitié)"
                )
            )?;
        }

        writeln!(
            s,
            "\n{}",
            localized!(
                locale,
                "endings of the final main-line position",
                "fins de la position finale de la ligne principale"
            )
        )?;
        let names = std::iter::once(localized!(locale, "none", "aucune")).chain(
            TERMINATIONS.iter().map(|t| match locale {
                Locale::En => t.as_str().to_string(),
                Locale::Fr => pgnkit::explain::Explain::explain(t, locale),
            }),
        );
        for (k, name) in names.enumerate() {
            let n = self.terminations[k];
            if n > 0 {
                writeln!(s, "  {:<22} {:>9} {:>6} %", name, n, pct(n))?;
            }
        }

        let mut ecos: Vec<(&String, &u64)> = self.eco.iter().collect();
        ecos.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let distinct = ecos.len();
        let most = ecos.len().min(self.limits.listed_eco);
        let listed = if ecos.is_empty() {
            String::new()
        } else {
            localized!(
                locale,
                ", the {most} most frequent:",
                ", les {most} plus fréquents :"
            )
        };
        writeln!(
            s,
            "{}",
            localized!(
                locale,
                "\nECO codes: {distinct} distinct{listed}",
                "\ncodes ECO : {distinct} différents{listed}"
            )
        )?;
        for (code, n) in ecos.iter().take(self.limits.listed_eco) {
            // The ECO tag holds whatever the file says: shown safe, in its column.
            s.push_str("  ");
            push_cell(s, code, 22, Align::Left);
            writeln!(s, " {:>9} {:>6} %", n, pct(**n))?;
        }
        if self.no_eco > 0 {
            let n = self.no_eco;
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "  (no ECO tag: {n} games)",
                    "  (sans balise ECO : {n} parties)"
                )
            )?;
        }
        if self.eco_untracked > 0 {
            let (n, limit) = (self.eco_untracked, self.limits.eco_codes);
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "  ({n} games with ECO values beyond the first {limit} distinct ones are not counted per code)",
                    "  ({n} parties aux codes ECO au-delà des {limit} premiers ne sont pas comptées par code)"
                )
            )?;
        }

        // The biggest events first (a stable sort keeps file order among equals).
        let mut events: Vec<(&TournamentKey, &Tournament)> =
            (0..).map_while(|i| self.standings.tournament(i)).collect();
        let tournaments = events.len();
        events.sort_by_key(|(_, t)| std::cmp::Reverse(t.games_met()));
        for (key, t) in events.into_iter().take(self.limits.listed_events) {
            write_event(s, key, t, &self.limits, locale)?;
        }
        if tournaments > self.limits.listed_events {
            let n = tournaments - self.limits.listed_events;
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "\n({n} more events not listed)",
                    "\n({n} autres tournois non listés)"
                )
            )?;
        }
        if self.standings.without_event > 0 {
            let n = self.standings.without_event;
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "\n({n} games without an Event tag, or with `?`, belong to no tournament: no standings)",
                    "\n({n} parties sans balise Event, ou avec `?`, n'appartiennent à aucun tournoi : pas de classement)"
                )
            )?;
        }
        // Games of events the standings had no room to open (their players beyond the bound).
        let beyond: u64 = events_beyond(&self.standings);
        if beyond > 0 {
            let (n, limit) = (beyond, self.limits.players);
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "\n({n} games of events met once {limit} players were tracked have no standings)",
                    "\n({n} parties de tournois rencontrés après {limit} joueurs suivis n'ont pas de classement)"
                )
            )?;
        }
        if self.standings.untracked_tournament_games > 0 {
            let (n, limit) = (
                self.standings.untracked_tournament_games,
                self.limits.events,
            );
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "\n({n} games of events beyond the first {limit} have no standings)",
                    "\n({n} parties de tournois au-delà des {limit} premiers n'ont pas de classement)"
                )
            )?;
        }
        Ok(())
    }
}

/// The games the standings left out for want of room that no event counts: those of events opened too late.
fn events_beyond(standings: &Standings) -> u64 {
    let in_events: u64 = (0..)
        .map_while(|i| standings.tournament(i))
        .map(|(_, t)| t.beyond_bounds)
        .sum();
    standings.games_left_out - in_events
}

/// One event's heading, standings and, for a round robin of few players, its crosstable.
fn write_event(
    s: &mut String,
    key: &TournamentKey,
    t: &Tournament,
    limits: &Limits,
    locale: Locale,
) -> std::fmt::Result {
    let plural = |n: u64| plural_in(locale, n);
    let place: Vec<&str> = [key.site.as_str(), key.year.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty() && *p != "?" && *p != "????")
        .collect();
    // Said whole (it is what `--event` wants), but safe to print.
    let name = if place.is_empty() {
        format!("\"{}\"", safe(&key.event))
    } else {
        format!("\"{}\" ({})", safe(&key.event), safe(&place.join(", ")))
    };
    let (games, players) = (t.games_met(), t.players().len() as u64);
    let (g, p) = (plural(games), plural(players));
    let unscored = t.unfinished;
    let u = plural(unscored);
    let unscored = if unscored > 0 {
        localized!(
            locale,
            "; {unscored} without a result (not scored)",
            " ; {unscored} sans résultat (non comptée{u})"
        )
    } else {
        String::new()
    };
    writeln!(
        s,
        "{}",
        localized!(
            locale,
            "\nevent {name}: {games} game{g}, {players} player{p}{unscored}",
            "\ntournoi {name} : {games} partie{g}, {players} joueur{p}{unscored}"
        )
    )?;
    if let Some(said) = t.left_out.said(locale) {
        writeln!(s, "  ({said})")?;
    }
    if players == 0 {
        return Ok(());
    }
    let rows = t.ranked(&Tiebreaks::default());
    let shown = &rows[..rows.len().min(limits.listed_players)];
    let width = write_standings(s, shown, locale)?;
    if rows.len() > shown.len() {
        let n = rows.len() - shown.len();
        writeln!(
            s,
            "{}",
            localized!(
                locale,
                "  ({n} more players not listed)",
                "  ({n} autres joueurs non listés)"
            )
        )?;
    }
    if t.beyond_bounds > 0 {
        let (n, players, games) = (t.beyond_bounds, limits.players, limits.games);
        writeln!(
            s,
            "{}",
            localized!(
                locale,
                "  ({n} games not counted: more than {players} players or {games} games tracked in all)",
                "  ({n} parties non comptées : plus de {players} joueurs ou {games} parties suivis en tout)"
            )
        )?;
    }
    if rows.len() <= limits.crosstable_players {
        write_crosstable(s, t, &rows, width, locale)?;
    }
    Ok(())
}

/// The standings table of `rows`; returns the width of its name column.
fn write_standings(
    s: &mut String,
    rows: &[Standing],
    locale: Locale,
) -> Result<usize, std::fmt::Error> {
    let player = localized!(locale, "player", "joueur");
    let width = name_column(rows.iter().map(|r| r.player.as_str()), &player);
    // rank, name, then rating, games, points, score, rated, opponents' average, perf: 8 + 55 columns.
    let columns = TiebreakColumns::of(rows, locale, 8 + width + 55);
    if let Some(said) = columns.left_out_said(locale) {
        s.push_str(&said);
    }
    write!(
        s,
        "  {:>4}  {:<width$}  {:>6}  {:>5}  {:>6}  {:>6}  {:>5}  {:>7}  {:>5}",
        localized!(locale, "rank", "rang"),
        player,
        localized!(locale, "rating", "Elo"),
        localized!(locale, "games", "part."),
        "points",
        localized!(locale, "score", "%"),
        localized!(locale, "rated", "cl."),
        localized!(locale, "opp avg", "moy adv"),
        "perf"
    )?;
    for (code, w) in columns.codes.iter().zip(&columns.widths) {
        write!(s, "  {:>w$}", code.to_string())?;
    }
    writeln!(s)?;
    let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    for (r, values) in rows.iter().zip(&columns.values) {
        write!(s, "  {:>4}  ", r.rank)?;
        push_cell(s, &r.player, width, Align::Left);
        let score = if r.games == 0 {
            0.0
        } else {
            50.0 * r.half_points as f64 / r.games as f64
        };
        write!(
            s,
            "  {:>6}  {:>5}  {:>6}  {:>5}%  {:>5}  {:>7}  {:>5}",
            or_dash(r.rating.map(|v| v.to_string())),
            r.games,
            points(r.half_points),
            tenths(locale, score),
            r.rated_games,
            or_dash(r.aro.map(|v| v.to_string())),
            or_dash(r.performance.map(|v| v.to_string())),
        )?;
        for (v, w) in values.iter().zip(&columns.widths) {
            write!(s, "  {v:>w$}")?;
        }
        writeln!(s)?;
    }
    Ok(width)
}

/// The crosstable of `rows` (every player, ranked), when it is a round robin: at least half of the pairings
/// played (a pool of casual games would leave most cells empty).
fn write_crosstable(
    s: &mut String,
    t: &Tournament,
    rows: &[Standing],
    width: usize,
    locale: Locale,
) -> std::fmt::Result {
    let n = rows.len();
    // (row player, column player) -> the row player's half points in the games played (or of less than a
    // move), and TRF's marks of the forfeits between them (`+` won, `-` lost), by player index.
    let mut pairs: HashMap<(usize, usize), (Option<u64>, String)> = HashMap::new();
    for r in rows {
        for p in t.pairings(r.player_index) {
            if let Some(hp) = p.half_points {
                let pair = pairs.entry((r.player_index, p.opponent)).or_default();
                match RoundOutcome::of_pairing(p.kind, Some(hp)) {
                    RoundOutcome::ForfeitWin => pair.1.push('+'),
                    RoundOutcome::ForfeitLoss => pair.1.push('-'),
                    _ => *pair.0.get_or_insert(0) += u64::from(hp),
                }
            }
        }
    }
    // Each pairing is there twice, once from each side.
    if n < 2 || 2 * pairs.len() < n * (n - 1) {
        return Ok(());
    }
    let byes = t.byes_placed();
    let forfeits = pairs.values().any(|(_, marks)| !marks.is_empty());
    writeln!(
        s,
        "{}",
        if !forfeits && byes.is_empty() {
            localized!(
                locale,
                "  crosstable (points of the row's player against the column's):",
                "  grille américaine (points du joueur de la ligne contre celui de la colonne) :"
            )
        } else {
            // Two lines: one would pass the width of the tables.
            localized!(
                locale,
                "  crosstable (points of the row's player against the column's;\n  + a forfeit won, - a forfeit lost; byes: F full point, H half point, Z zero point, U pairing-allocated):",
                "  grille américaine (points du joueur de la ligne contre celui de la colonne ;\n  + gain par forfait, - perte par forfait ; exempts : F un point, H un demi-point, Z zéro point, U exempt de l'appariement) :"
            )
        }
    )?;
    write!(s, "  {:>4}  {:<width$} ", "", "")?;
    for k in 1..=n {
        write!(s, " {k:>3}")?;
    }
    if !byes.is_empty() {
        write!(s, "  {}", localized!(locale, "byes", "exempts"))?;
    }
    writeln!(s)?;
    for (k, row) in rows.iter().enumerate() {
        write!(s, "  {:>4}  ", k + 1)?;
        push_cell(s, &row.player, width, Align::Left);
        s.push(' ');
        for col in rows {
            let cell = if row.player_index == col.player_index {
                "x".to_string()
            } else {
                match pairs.get(&(row.player_index, col.player_index)) {
                    Some((played, marks)) => {
                        played.map(points).unwrap_or_default() + marks.as_str()
                    }
                    None => ".".to_string(),
                }
            };
            write!(s, " {cell:>3}")?;
        }
        let codes: String = byes
            .iter()
            .filter(|b| b.0 == row.player_index)
            .map(|b| b.2)
            .collect();
        if !codes.is_empty() {
            write!(s, "  {codes}")?;
        }
        writeln!(s)?;
    }
    Ok(())
}

/// `value` with one decimal, as `locale` writes it: `66.7`, `66,7`.
fn tenths(locale: Locale, value: f64) -> String {
    localized_decimal(locale, &format!("{value:.1}")).into_owned()
}

/// Half-points as points: `3`, `½`, `2½`.
pub(crate) fn points(half_points: u64) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".to_string(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record of a game of `event` (none when empty) at `site` in `year`, between two players rated
    /// `elos` (0: unrated), ending as `outcome`, with two moves (a game without any is a forfeit under
    /// `--moveless`' default).
    fn record_at(
        (event, site, year): (&str, &str, &str),
        white: &str,
        black: &str,
        elos: (u16, u16),
        outcome: Outcome,
    ) -> GameRecord {
        let mut pgn = String::new();
        for (name, value) in [("Event", event), ("Site", site), ("Date", year)] {
            if !value.is_empty() {
                pgn.push_str(&format!("[{name} \"{value}\"]\n"));
            }
        }
        pgn.push_str(&format!("[White \"{white}\"]\n[Black \"{black}\"]\n"));
        for (name, elo) in [("WhiteElo", elos.0), ("BlackElo", elos.1)] {
            if elo > 0 {
                pgn.push_str(&format!("[{name} \"{elo}\"]\n"));
            }
        }
        let marker = match outcome {
            Outcome::WhiteWins => "1-0",
            Outcome::Draw => "1/2-1/2",
            Outcome::BlackWins => "0-1",
            Outcome::Unfinished | Outcome::Unknown => "*",
        };
        pgn.push_str(&format!("[Result \"{marker}\"]\n\n1. e4 e5 {marker}\n"));
        let game = &pgnkit::pgn::parse_all(pgn.as_bytes())[0];
        GameRecord {
            entry: GameEntry::of(game),
            outcome,
            eco: "C42".into(),
            termination: None,
            plies: 40,
            valid: true,
        }
    }

    fn record(
        event: &str,
        white: &str,
        black: &str,
        elos: (u16, u16),
        outcome: Outcome,
    ) -> GameRecord {
        record_at((event, "", ""), white, black, elos, outcome)
    }

    /// The ranked players of the `n`-th event met: (name, rank, games, half points).
    fn ranked(s: &StatsSummary, n: usize) -> Vec<(String, usize, u64, u64)> {
        let (_, t) = s.standings().tournament(n).unwrap();
        t.ranked(&Tiebreaks::default())
            .into_iter()
            .map(|r| (r.player, r.rank, r.games, r.half_points))
            .collect()
    }

    #[test]
    fn standings_points_and_performance() {
        let mut s = StatsSummary::new(Limits::default());
        use Outcome::*;
        s.add(record("T", "A", "B", (2400, 2200), WhiteWins));
        s.add(record("T", "C", "A", (2300, 2400), Draw));
        s.add(record("T", "B", "C", (2200, 2300), BlackWins));
        // Unrated newcomer D: A's game against D counts in points but not in the performance.
        s.add(record("T", "D", "A", (0, 2400), BlackWins));
        s.add(record("T", "A", "B", (2400, 2200), Unfinished));
        s.add(record("Other", "A", "B", (2400, 2200), Draw));
        let (_, t) = s.standings().tournament(0).unwrap();
        assert_eq!((t.games_met(), t.unfinished, t.players().len()), (5, 1, 4));
        let rows = t.ranked(&Tiebreaks::default());
        let by_name = |n: &str| rows.iter().find(|p| p.player == n).unwrap();
        let a = by_name("A");
        assert_eq!((a.games, a.half_points, a.rated_games), (3, 5, 2));
        // 1.5 / 2 = 0.75 -> +193 over an average of 2250.
        assert_eq!((a.aro, a.performance), (Some(2250), Some(2443)));
        let d = by_name("D");
        assert_eq!((d.games, d.half_points, d.rated_games), (1, 0, 1));
        assert_eq!(d.performance, Some(2400 - 800));
        assert_eq!(d.rating, None);
        let order: Vec<&str> = rows.iter().map(|r| r.player.as_str()).collect();
        assert_eq!(order, ["A", "C", "B", "D"]);
        assert_eq!(s.standings().tournament(1).unwrap().1.players().len(), 2);
        let text = s.render();
        assert!(
            text.contains("event \"T\": 5 games, 4 players; 1 without a result (not scored)"),
            "{text}"
        );
        assert!(text.contains("crosstable"), "{text}");
        // The same report in French: headings translated, names and figures unchanged.
        let french = s.render_in(Locale::Fr);
        assert!(
            french.contains("tournoi \"T\" : 5 parties, 4 joueurs ; 1 sans résultat (non comptée)"),
            "{french}"
        );
        assert!(french.contains("grille américaine"), "{french}");
        assert!(
            !french.contains("crosstable") && !french.contains("games"),
            "{french}"
        );
        let figures = |t: &str| t.chars().filter(char::is_ascii_digit).count();
        assert_eq!(figures(&french), figures(&text));
    }

    /// The summary ranked players equal on points 3 and 3 (by score rate, then name) where `pgnkit standings`
    /// ranked them 3 and 4 by its tie-breaks.
    #[test]
    fn players_equal_on_points_are_ranked_by_the_standings_tie_breaks() {
        let mut s = StatsSummary::new(Limits::default());
        use Outcome::*;
        // fixtures/stats/tournament.pgn's round robin: Carol and Dan on 1 point. A round robin's default
        // tie-breaks (C.07's example list: DE, WIN, SB, KS) put Dan ahead by direct encounter: he beat her
        // (Sonneborn-Berger, third, would have put Carol ahead: she drew the two leaders).
        for (w, b, outcome) in [
            ("Alice", "Bob", WhiteWins),
            ("Carol", "Dan", BlackWins),
            ("Bob", "Carol", Draw),
            ("Dan", "Alice", BlackWins),
            ("Alice", "Carol", Draw),
            ("Bob", "Dan", WhiteWins),
        ] {
            s.add(record("Spring Open", w, b, (2000, 2000), outcome));
        }
        let ranks: Vec<(String, usize)> = ranked(&s, 0)
            .into_iter()
            .map(|(name, rank, _, _)| (name, rank))
            .collect();
        let expected = [("Alice", 1), ("Bob", 2), ("Dan", 3), ("Carol", 4)];
        assert_eq!(
            ranks,
            expected.map(|(n, r)| (n.to_string(), r)),
            "{}",
            s.render()
        );
        let text = s.render();
        assert!(
            text.contains("     3  Dan") && text.contains("     4  Carol"),
            "{text}"
        );
    }

    #[test]
    fn limits_bound_events_players_and_crosstables() {
        let limits = Limits {
            events: 2,
            players: 5,
            crosstable_players: 3,
            ..Limits::default()
        };
        let mut s = StatsSummary::new(limits);
        for (k, event) in ["E1", "E2", "E3"].into_iter().enumerate() {
            for i in 0..4 {
                let w = format!("P{k}{i}");
                let b = format!("Q{k}{i}");
                s.add(record(event, &w, &b, (2000, 2000), Outcome::Draw));
            }
        }
        // E1 holds four players, and E2 has no room for its first two.
        let standings = s.standings();
        assert_eq!(standings.tournaments().count(), 1);
        let (_, e1) = standings.tournament(0).unwrap();
        assert_eq!((e1.players().len(), e1.beyond_bounds), (4, 2));
        assert_eq!(events_beyond(standings), 8);
        let text = s.render();
        assert!(
            text.contains("(8 games of events met once 5 players were tracked have no standings)"),
            "{text}"
        );
        assert!(
            text.contains(
                "(2 games not counted: more than 5 players or 100000 games tracked in all)"
            ),
            "{text}"
        );
        // Four players and at most three get a crosstable.
        assert!(!text.contains("crosstable"), "{text}");
        // Room for players, none for a third event.
        let mut s = StatsSummary::new(Limits {
            events: 2,
            ..Limits::default()
        });
        for event in ["E1", "E2", "E3", "E3"] {
            s.add(record(event, "A", "B", (2000, 2000), Outcome::Draw));
        }
        assert_eq!(s.standings().untracked_tournament_games, 2);
        let text = s.render();
        assert!(
            text.contains("2 games of events beyond the first 2"),
            "{text}"
        );
    }

    /// Names were cut by characters (31 wide characters took 62 columns) and tags went to the terminal raw;
    /// French kept the decimal point.
    #[test]
    fn names_are_cut_to_columns_and_shown_safe_and_french_figures_take_a_comma() {
        let mut s = StatsSummary::new(Limits::default());
        let event = "Open\x1b]0;owned\x07";
        let wide = "丁".repeat(40);
        s.add(record(
            event,
            &wide,
            "Ann\u{202e}",
            (2400, 2200),
            Outcome::WhiteWins,
        ));
        s.add(record(
            event,
            "Ann\u{202e}",
            &wide,
            (2200, 2400),
            Outcome::Draw,
        ));
        let text = s.render();
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && crate::safe_text::is_unsafe(c)),
            "{text:?}"
        );
        assert!(
            text.contains("event \"Open\\u{1b}]0;owned\\u{7}\""),
            "{text}"
        );
        assert!(text.contains("Ann\\u{202e}"), "{text}");
        // 32 columns: fifteen wide characters, the ellipsis and a space.
        let cut = format!("  {}… ", "丁".repeat(15));
        assert!(text.contains(&cut), "{text}");
        assert!(!text.contains(&"丁".repeat(16)), "{text}");
        // 1½ of 2: 75.0 %.
        assert!(text.contains("75.0%"), "{text}");
        let french = s.render_in(Locale::Fr);
        assert!(
            french.contains("75,0%") && !french.contains("75.0"),
            "{french}"
        );
        assert!(french.contains("100,0 %"), "{french}");
    }

    #[test]
    fn points_are_written_with_halves() {
        assert_eq!(points(0), "0");
        assert_eq!(points(1), "½");
        assert_eq!(points(2), "1");
        assert_eq!(points(7), "3½");
    }

    #[test]
    fn a_tournament_is_event_site_and_year_and_event_question_mark_is_none() {
        let mut summary = StatsSummary::new(Limits::default());
        for (event, year) in [
            ("Dortmund", "1992"),
            ("Dortmund", "1993"),
            ("Dortmund", "1992"),
            ("", ""),
            ("?", "1992"),
        ] {
            summary.add(record_at(
                (event, "Dortmund GER", year),
                "A",
                "B",
                (2500, 2400),
                Outcome::WhiteWins,
            ));
        }
        let tables: Vec<(&str, u64)> = summary
            .standings()
            .tournaments()
            .enumerate()
            .map(|(i, k)| {
                (
                    k.year.as_str(),
                    summary.standings().tournament(i).unwrap().1.games_met(),
                )
            })
            .collect();
        assert_eq!(tables, [("1992", 2), ("1993", 1)]);
        let text = summary.render();
        assert!(
            text.contains("event \"Dortmund\" (Dortmund GER, 1992): 2 games"),
            "{text}"
        );
        assert!(text.contains("2 games without an Event tag"), "{text}");
    }

    #[test]
    fn games_that_are_no_pairing_are_out_of_the_standings_and_said() {
        let mut summary = StatsSummary::new(Limits::default());
        // An empty side in a game without moves would be a bye: `-` names nobody.
        for (white, black) in [("A", "B"), ("A", "A"), ("?", "B"), ("B", "-"), ("NN", "A")] {
            summary.add(record(
                "Open",
                white,
                black,
                (2500, 2400),
                Outcome::WhiteWins,
            ));
        }
        assert_eq!(summary.standings().tournament(0).unwrap().1.games_met(), 5);
        let players: Vec<(String, u64)> = ranked(&summary, 0)
            .into_iter()
            .map(|(name, _, games, _)| (name, games))
            .collect();
        assert_eq!(players, [("A".to_string(), 1), ("B".to_string(), 1)]);
        let text = summary.render();
        assert!(
            text.contains("\n  (4 games left out: 3 games with no player's name on a side, 1 game of a player against himself)\n"),
            "{text}"
        );
    }
}
