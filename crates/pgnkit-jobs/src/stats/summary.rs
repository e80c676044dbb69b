//! The aggregate report of `stats --summary`: results by colour, endings, the most frequent ECO codes, and
//! per event the standings (games, points, performance against the field) with a crosstable for small
//! events.
//!
//! Memory stays bounded whatever the input: at most [`Limits::events`] events, [`Limits::players`] player
//! entries over all events and [`Limits::eco_codes`] distinct ECO values are tracked; what comes after a
//! limit is counted and the report says how much was left out. A tracked player's figures stay exact when
//! the opponent is not tracked (the opponent's rating comes from the game's own tags). Pairwise results for
//! the crosstable are kept only while an event has at most [`Limits::crosstable_players`] players, and the
//! crosstable is shown when at least half of the possible pairings were played (a round robin, not a pool
//! of casual games). Events are listed biggest first.
//!
//! Standings count games with a decisive or drawn result (`1-0`, `0-1`, `1/2-1/2` from the Result tag, or
//! the termination marker when there is no Result tag); unfinished games (`*`) and unknown results are
//! counted per event but score nothing. Performance ([`super::perf`]) uses only the games against opponents
//! with a rating (an Elo tag of 1 to 4000): their average rating plus FIDE's `dp` for the score in those
//! games. A player with no rated opponent has no performance (`-`); a player's own rating is the last
//! one seen in the event's tags and plays no part in the performance. A game that is no pairing of two
//! players (White or Black naming nobody, or one player on both sides:
//! [`crate::validate::tournament::not_a_pairing`]) is counted in its event's games and left out of its
//! standings, as `pgnkit standings` leaves it out, and the event says how many.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::GameStats;
use super::perf::{performance, rating_of};
use crate::localized;
use crate::messages::{Locale, localized_decimal, plural as plural_in};
use crate::safe_text::{Align, name_column, push_cell, safe};
use crate::standings::LeftOut;
use crate::validate::tournament::{NotAPairing, not_a_pairing};
use pgnkit::core::Termination;
use pgnkit::pgn::{Game, GameResult};

/// How a game ended for the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
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

    /// White's score in half-points, for a finished game.
    fn white_half_points(self) -> Option<u64> {
        match self {
            Outcome::WhiteWins => Some(2),
            Outcome::Draw => Some(1),
            Outcome::BlackWins => Some(0),
            Outcome::Unfinished | Outcome::Unknown => None,
        }
    }

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
pub struct GameRecord {
    /// The tournament: Event, Site and year (of EventDate, else Date; see [`crate::standings`]). An empty
    /// event (the tag missing, empty or `?`) is no tournament.
    pub event: String,
    pub site: String,
    pub year: String,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    pub outcome: Outcome,
    pub eco: String,
    pub termination: Option<Termination>,
    pub plies: u32,
    pub valid: bool,
}

impl GameRecord {
    pub fn of(s: &GameStats<'_>, game: &Game<'_>) -> GameRecord {
        let t = &s.tags;
        let key = crate::standings::TournamentKey::of(game);
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
        let (event, site, year) = key.map_or_else(Default::default, |k| (k.event, k.site, k.year));
        GameRecord {
            event,
            site,
            year,
            white: t.white.trim().to_string(),
            black: t.black.trim().to_string(),
            white_elo: rating_of(&t.white_elo),
            black_elo: rating_of(&t.black_elo),
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
pub struct Limits {
    /// Events tracked (the first ones seen).
    pub events: usize,
    /// Player entries tracked, over all events.
    pub players: usize,
    /// Distinct ECO values tracked.
    pub eco_codes: usize,
    /// Largest event that gets a crosstable.
    pub crosstable_players: usize,
    /// ECO codes listed.
    pub listed_eco: usize,
    /// Events listed.
    pub listed_events: usize,
    /// Players listed per event.
    pub listed_players: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            events: 10_000,
            players: 100_000,
            eco_codes: 10_000,
            crosstable_players: 16,
            listed_eco: 10,
            listed_events: 20,
            listed_players: 50,
        }
    }
}

/// One player in one event.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub name: String,
    /// The last rating seen in the player's tags.
    pub rating: Option<u16>,
    pub games: u64,
    pub half_points: u64,
    /// Games against rated opponents, what they scored, and the opponents' ratings added up.
    pub rated_games: u64,
    pub rated_half_points: u64,
    pub opponents_sum: u64,
}

impl Standing {
    /// Performance against the rated opponents ([`performance`]).
    pub fn performance(&self) -> Option<i64> {
        performance(self.opponents_sum, self.rated_games, self.rated_half_points)
    }

    /// Average rating of the rated opponents, rounded.
    pub fn opponents_average(&self) -> Option<u64> {
        let g = self.rated_games;
        (g > 0).then(|| self.opponents_sum / g + u64::from(2 * (self.opponents_sum % g) >= g))
    }
}

/// Games and half-points of the first player against the second.
#[derive(Clone, Copy, Debug, Default)]
struct Pair {
    games: u64,
    half_points: u64,
}

/// One event's table.
#[derive(Debug, Default)]
pub struct EventTable {
    /// The Event tag; with `site` and `year`, the tournament.
    pub name: String,
    pub site: String,
    pub year: String,
    pub games: u64,
    /// Games without a decisive or drawn result.
    pub unscored: u64,
    pub players: Vec<Standing>,
    index: HashMap<String, u32>,
    /// (row, column) -> row's score against column; dropped when the event outgrows the crosstable.
    pairs: Option<HashMap<(u32, u32), Pair>>,
    /// Player-games left out because the player limit was reached.
    pub untracked: u64,
    /// Games left out of the standings: no pairing of two players.
    pub left_out: LeftOut,
}

/// Everything `--summary` reports, aggregated game by game in bounded memory.
#[derive(Debug, Default)]
pub struct StatsSummary {
    pub limits: Limits,
    pub files: u64,
    pub bytes: u64,
    pub games: u64,
    pub plies: u64,
    pub games_with_errors: u64,
    results: [u64; 5],
    /// `None` first, then the terminations in [`TERMINATIONS`] order.
    terminations: [u64; 6],
    eco: HashMap<String, u64>,
    eco_untracked: u64,
    no_eco: u64,
    events: Vec<EventTable>,
    event_index: HashMap<(String, String, String), usize>,
    games_in_untracked_events: u64,
    /// Games whose Event tag is missing, empty or `?`: no tournament, no standings.
    games_without_event: u64,
    players: usize,
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
    pub fn new(limits: Limits) -> StatsSummary {
        StatsSummary {
            limits,
            ..StatsSummary::default()
        }
    }

    /// The events tracked, in order of first appearance.
    #[cfg(test)]
    pub fn events(&self) -> &[EventTable] {
        &self.events
    }

    /// Adds one game.
    pub fn add(&mut self, r: GameRecord) {
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

        if r.event.is_empty() {
            self.games_without_event += 1;
            return;
        }
        let key = (r.event, r.site, r.year);
        let event = match self.event_index.get(&key) {
            Some(&k) => k,
            None if self.events.len() < self.limits.events => {
                self.events.push(EventTable {
                    name: key.0.clone(),
                    site: key.1.clone(),
                    year: key.2.clone(),
                    pairs: Some(HashMap::new()),
                    ..EventTable::default()
                });
                self.event_index.insert(key, self.events.len() - 1);
                self.events.len() - 1
            }
            None => {
                self.games_in_untracked_events += 1;
                return;
            }
        };
        let limits = self.limits;
        let table = &mut self.events[event];
        table.games += 1;
        match not_a_pairing(&r.white, &r.black) {
            Some(NotAPairing::UnknownPlayer) => {
                table.left_out.unknown_player += 1;
                return;
            }
            Some(NotAPairing::AgainstSelf) => {
                table.left_out.against_self += 1;
                return;
            }
            None => {}
        }
        let Some(white_hp) = r.outcome.white_half_points() else {
            table.unscored += 1;
            return;
        };
        let w = table.player(r.white, &mut self.players, limits.players);
        let b = table.player(r.black, &mut self.players, limits.players);
        for (id, rating, hp, opponent) in [
            (w, r.white_elo, white_hp, r.black_elo),
            (b, r.black_elo, 2 - white_hp, r.white_elo),
        ] {
            let Some(id) = id else {
                table.untracked += 1;
                continue;
            };
            let p = &mut table.players[id as usize];
            p.games += 1;
            p.half_points += hp;
            if rating.is_some() {
                p.rating = rating;
            }
            if let Some(opp) = opponent {
                p.rated_games += 1;
                p.rated_half_points += hp;
                p.opponents_sum += u64::from(opp);
            }
        }
        if table.players.len() > limits.crosstable_players {
            table.pairs = None;
        }
        if let (Some(pairs), Some(w), Some(b)) = (table.pairs.as_mut(), w, b) {
            for (row, col, hp) in [(w, b, white_hp), (b, w, 2 - white_hp)] {
                let pair = pairs.entry((row, col)).or_default();
                pair.games += 1;
                pair.half_points += hp;
            }
        }
    }

    /// The report, as text.
    pub fn render(&self) -> String {
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
        let mut events: Vec<&EventTable> = self.events.iter().collect();
        events.sort_by_key(|e| std::cmp::Reverse(e.games));
        for table in events.into_iter().take(self.limits.listed_events) {
            table.write(s, &self.limits, locale)?;
        }
        if self.events.len() > self.limits.listed_events {
            let n = self.events.len() - self.limits.listed_events;
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
        if self.games_without_event > 0 {
            let n = self.games_without_event;
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
        if self.games_in_untracked_events > 0 {
            let (n, limit) = (self.games_in_untracked_events, self.limits.events);
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

impl EventTable {
    /// The player's index, adding the player while the limit allows.
    fn player(&mut self, name: String, tracked: &mut usize, limit: usize) -> Option<u32> {
        if let Some(&id) = self.index.get(&name) {
            return Some(id);
        }
        if *tracked >= limit {
            return None;
        }
        *tracked += 1;
        let id = self.players.len() as u32;
        self.players.push(Standing {
            name: name.clone(),
            ..Standing::default()
        });
        self.index.insert(name, id);
        Some(id)
    }

    /// Indices of the players, best first: points, then score rate, then name.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            pb.half_points
                .cmp(&pa.half_points)
                .then(
                    // higher rate first: a/ga > b/gb  <=>  a*gb > b*ga
                    (u128::from(pb.half_points) * u128::from(pa.games))
                        .cmp(&(u128::from(pa.half_points) * u128::from(pb.games))),
                )
                .then(pa.name.cmp(&pb.name))
        });
        order
    }

    fn write(&self, s: &mut String, limits: &Limits, locale: Locale) -> std::fmt::Result {
        let plural = |n: u64| plural_in(locale, n);
        let place: Vec<&str> = [self.site.as_str(), self.year.as_str()]
            .into_iter()
            .filter(|p| !p.is_empty() && *p != "?" && *p != "????")
            .collect();
        // Said whole (it is what `--event` wants), but safe to print.
        let name = if place.is_empty() {
            format!("\"{}\"", safe(&self.name))
        } else {
            format!("\"{}\" ({})", safe(&self.name), safe(&place.join(", ")))
        };
        let (games, players) = (self.games, self.players.len() as u64);
        let (g, p) = (plural(games), plural(players));
        let unscored = self.unscored;
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
        if let Some(said) = self.left_out.said(locale) {
            writeln!(s, "  ({said})")?;
        }
        if self.players.is_empty() {
            return Ok(());
        }
        let order = self.order();
        let shown = &order[..order.len().min(limits.listed_players)];
        let player = localized!(locale, "player", "joueur");
        let width = name_column(
            shown.iter().map(|&i| display_name(&self.players[i].name)),
            &player,
        );
        writeln!(
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
        let mut rank = 0;
        let mut last_points = None;
        for (k, &i) in shown.iter().enumerate() {
            let p = &self.players[i];
            if last_points != Some(p.half_points) {
                rank = k + 1;
                last_points = Some(p.half_points);
            }
            write!(s, "  {rank:>4}  ")?;
            push_cell(s, display_name(&p.name), width, Align::Left);
            let score = if p.games == 0 {
                0.0
            } else {
                50.0 * p.half_points as f64 / p.games as f64
            };
            writeln!(
                s,
                "  {:>6}  {:>5}  {:>6}  {:>5}%  {:>5}  {:>7}  {:>5}",
                p.rating.map_or("-".to_string(), |r| r.to_string()),
                p.games,
                points(p.half_points),
                tenths(locale, score),
                p.rated_games,
                p.opponents_average()
                    .map_or("-".to_string(), |r| r.to_string()),
                p.performance().map_or("-".to_string(), |r| r.to_string()),
            )?;
        }
        if order.len() > shown.len() {
            let n = order.len() - shown.len();
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
        if self.untracked > 0 {
            let (n, limit) = (self.untracked, limits.players);
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "  ({n} player-games not counted: more than {limit} players tracked in all)",
                    "  ({n} parties de joueurs non comptées : plus de {limit} joueurs suivis en tout)"
                )
            )?;
        }
        if let Some(pairs) = &self.pairs
            && self.players.len() > 1
            // Round-robin-like events only (at least half of the n(n-1)/2 pairings played; the map holds
            // each pairing twice): in a pool of casual games most cells would be empty.
            && 2 * pairs.len() >= self.players.len() * (self.players.len() - 1)
        {
            writeln!(
                s,
                "{}",
                localized!(
                    locale,
                    "  crosstable (points of the row's player against the column's):",
                    "  grille américaine (points du joueur de la ligne contre celui de la colonne) :"
                )
            )?;
            write!(s, "  {:>4}  {:<width$} ", "", "")?;
            for k in 1..=order.len() {
                write!(s, " {k:>3}")?;
            }
            writeln!(s)?;
            for (k, &row) in order.iter().enumerate() {
                write!(s, "  {:>4}  ", k + 1)?;
                push_cell(s, display_name(&self.players[row].name), width, Align::Left);
                s.push(' ');
                for &col in &order {
                    let cell = if row == col {
                        "x".to_string()
                    } else {
                        match pairs.get(&(row as u32, col as u32)) {
                            Some(p) if p.games > 0 => points(p.half_points),
                            _ => ".".to_string(),
                        }
                    };
                    write!(s, " {cell:>3}")?;
                }
                writeln!(s)?;
            }
        }
        Ok(())
    }
}

fn display_name(name: &str) -> &str {
    if name.is_empty() { "(no name)" } else { name }
}

/// `value` with one decimal, as `locale` writes it: `66.7`, `66,7`.
fn tenths(locale: Locale, value: f64) -> String {
    localized_decimal(locale, &format!("{value:.1}")).into_owned()
}

/// Half-points as points: `3`, `½`, `2½`.
pub fn points(half_points: u64) -> String {
    match (half_points / 2, half_points % 2) {
        (0, 1) => "½".to_string(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(
        event: &str,
        white: &str,
        black: &str,
        elos: (u16, u16),
        outcome: Outcome,
    ) -> GameRecord {
        GameRecord {
            event: event.into(),
            site: String::new(),
            year: String::new(),
            white: white.into(),
            black: black.into(),
            white_elo: (elos.0 > 0).then_some(elos.0),
            black_elo: (elos.1 > 0).then_some(elos.1),
            outcome,
            eco: "C42".into(),
            termination: None,
            plies: 40,
            valid: true,
        }
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
        let t = &s.events()[0];
        assert_eq!((t.games, t.unscored, t.players.len()), (5, 1, 4));
        let by_name = |n: &str| t.players.iter().find(|p| p.name == n).unwrap();
        let a = by_name("A");
        assert_eq!((a.games, a.half_points), (3, 5));
        assert_eq!(
            (a.rated_games, a.rated_half_points, a.opponents_sum),
            (2, 3, 4500)
        );
        // 1.5 / 2 = 0.75 -> +193 over an average of 2250.
        assert_eq!(a.performance(), Some(2443));
        let d = by_name("D");
        assert_eq!((d.games, d.half_points, d.rated_games), (1, 0, 1));
        assert_eq!(d.performance(), Some(2400 - 800));
        assert_eq!(d.rating, None);
        let order: Vec<&str> = t
            .order()
            .iter()
            .map(|&i| t.players[i].name.as_str())
            .collect();
        assert_eq!(order, ["A", "C", "B", "D"]);
        assert_eq!(s.events()[1].players.len(), 2);
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
        assert_eq!(s.events().len(), 2);
        assert_eq!(s.games_in_untracked_events, 4);
        assert_eq!(s.players, 5);
        let e1 = &s.events()[0];
        assert_eq!(e1.players.len(), 5);
        assert_eq!(e1.untracked, 3);
        assert!(e1.pairs.is_none());
        assert_eq!(s.events()[1].players.len(), 0);
        assert_eq!(s.events()[1].untracked, 8);
        let text = s.render();
        assert!(
            text.contains("4 games of events beyond the first 2"),
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
        ] {
            let mut r = record(event, "A", "B", (2500, 2400), Outcome::WhiteWins);
            r.site = "Dortmund GER".into();
            r.year = year.into();
            summary.add(r);
        }
        let tables: Vec<(&str, u64)> = summary
            .events()
            .iter()
            .map(|t| (t.year.as_str(), t.games))
            .collect();
        assert_eq!(tables, [("1992", 2), ("1993", 1)]);
        let text = summary.render();
        assert!(
            text.contains("event \"Dortmund\" (Dortmund GER, 1992): 2 games"),
            "{text}"
        );
        assert!(text.contains("1 games without an Event tag"), "{text}");
    }

    #[test]
    fn games_that_are_no_pairing_are_out_of_the_standings_and_said() {
        let mut summary = StatsSummary::new(Limits::default());
        for (white, black) in [("A", "B"), ("A", "A"), ("?", "B"), ("B", ""), ("NN", "A")] {
            summary.add(record(
                "Open",
                white,
                black,
                (2500, 2400),
                Outcome::WhiteWins,
            ));
        }
        let table = &summary.events()[0];
        assert_eq!(table.games, 5);
        let players: Vec<(&str, u64)> = table
            .players
            .iter()
            .map(|p| (p.name.as_str(), p.games))
            .collect();
        assert_eq!(players, [("A", 1), ("B", 1)]);
        let text = summary.render();
        assert!(
            text.contains("\n  (4 games left out: 3 games with no player's name on a side, 1 game of a player against himself)\n"),
            "{text}"
        );
        assert!(!text.contains("(no name)"), "{text}");
    }
}
