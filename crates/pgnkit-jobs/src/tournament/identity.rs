//! Who and what a game of a tournament is, read from its tags once for every command: the tournament's key,
//! the tag values that say nothing, the players, the round, and whether the game pairs two players at all.

use std::borrow::Cow;

use pgnkit::pgn::Game;

use super::perf::rating_of;

/// Whether a tag value says nothing: empty (or missing), `?` or `-`, PGN's "unknown".
pub(crate) fn is_unknown(value: &str) -> bool {
    says_nothing(value.trim())
}

/// [`is_unknown`] for a value already trimmed.
fn says_nothing(trimmed: &str) -> bool {
    matches!(trimmed, "" | "?" | "-")
}

/// A tag value worth keeping: trimmed, not one that says nothing ([`is_unknown`]).
pub(crate) fn known(value: Option<Cow<'_, str>>) -> Option<String> {
    let v = value?;
    (!is_unknown(&v)).then(|| v.trim().to_string())
}

/// The year of a tournament: the first four characters of EventDate, else of Date (each trimmed, empty
/// counting as absent), else `????`.
pub(crate) fn year_of<'v>(event_date: Option<&'v str>, date: Option<&'v str>) -> &'v str {
    let date = [event_date, date]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|d| !d.is_empty())
        .unwrap_or("????");
    let end = date.char_indices().nth(4).map_or(date.len(), |(i, _)| i);
    &date[..end]
}

/// A tournament: (Event, Site, year). A tournament kept as one file per round is one tournament, and a file of
/// one event over many years ("Dortmund" since 1928) is as many tournaments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentKey {
    /// The Event tag, trimmed.
    pub event: String,
    /// The Site tag, trimmed (empty when missing).
    pub site: String,
    /// [`year_of`] EventDate and Date.
    pub year: String,
}

impl TournamentKey {
    /// The tournament of a game: `None` when it belongs to none (its Event says nothing: [`is_unknown`]).
    #[cfg(test)]
    pub(crate) fn of(game: &Game<'_>) -> Option<TournamentKey> {
        TournamentKey::from_tags(
            game.tag("Event").as_deref(),
            game.tag("Site").as_deref(),
            game.tag("EventDate").as_deref(),
            game.tag("Date").as_deref(),
        )
    }

    /// The tournament of a game with these Event, Site, EventDate and Date tags (`None` for a missing tag).
    pub(crate) fn from_tags(
        event: Option<&str>,
        site: Option<&str>,
        event_date: Option<&str>,
        date: Option<&str>,
    ) -> Option<TournamentKey> {
        let event = event.filter(|e| !is_unknown(e))?;
        Some(TournamentKey {
            event: event.trim().to_string(),
            site: site.map(|s| s.trim().to_string()).unwrap_or_default(),
            year: year_of(event_date, date).to_string(),
        })
    }
}

/// Whether a White or Black tag names nobody: a value that says nothing ([`is_unknown`]), or the placeholders
/// `NN` and `N.N.` (*nomen nescio*). Such a "player" is no one to rank or pair: the games of every unknown
/// player would otherwise be merged into one.
pub(crate) fn names_nobody(name: &str) -> bool {
    let name = name.trim();
    says_nothing(name) || matches!(name, "NN" | "N.N.")
}

/// Why a game of a tournament is no pairing of two players: standings, TRF, report and the summary leave it
/// out (and say how many), and validate warns about it (`unknown_player`, `player_against_self`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotAPairing {
    /// White or Black (or both) names nobody ([`names_nobody`]).
    UnknownPlayer,
    /// White and Black are the same name (trimmed): a player against himself.
    AgainstSelf,
}

/// Whether the players of a game, as its White and Black tags give them (`""` for a missing tag), make it no
/// pairing, and why.
pub(crate) fn not_a_pairing(white: &str, black: &str) -> Option<NotAPairing> {
    if names_nobody(white) || names_nobody(black) {
        Some(NotAPairing::UnknownPlayer)
    } else if white.trim() == black.trim() {
        Some(NotAPairing::AgainstSelf)
    } else {
        None
    }
}

/// The round number of a Round tag, as every command reads it: its first number (`5` of `5`, `5.1` and
/// `5.2`: round 5, boards or games 1 and 2, the TWIC and Swiss-Manager convention). `None` for `?`, `-` or
/// anything that is not a number (reported as a malformed tag already). Round 0 is a number (validate reports
/// it; the tables read it as no round: [`round_of`]).
pub(crate) fn round_number(round: &str) -> Option<u64> {
    let first = round.trim().split('.').next()?;
    if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    first.parse().ok()
}

/// The round of a `Round` tag as the tables number it (standings' pairings, TRF, the report's crosstables):
/// its [`round_number`], when it is from 1 to `u32::MAX`.
pub(crate) fn round_of(value: &str) -> Option<u32> {
    round_number(value)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&r| r > 0)
}

/// A date as `YYYYMMDD` in one number (so that dates compare as numbers), read from a complete PGN date
/// (`2024.05.01`); dates with `?` are none.
pub(crate) type Date = u32;

/// The [`Date`] of a tag value, if it is a complete date.
pub(crate) fn date_of(value: &str) -> Option<Date> {
    let b = value.trim().as_bytes();
    if b.len() != 10 || b[4] != b'.' || b[7] != b'.' {
        return None;
    }
    let digits: Vec<u8> = [&b[0..4], &b[5..7], &b[8..10]].concat();
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    let (month, day) = (n / 100 % 100, n % 100);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some(n)
}

/// A player as the tags of their games describe them. Where games disagree, the last game that says
/// something wins (a rating may change between rounds of a long event).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlayerInfo {
    /// The White or Black tag, trimmed: players are told apart by their FIDE id when the games give one,
    /// else by this name.
    pub(crate) name: String,
    /// `WhiteElo`/`BlackElo` (1 to 4000).
    pub(crate) rating: Option<u16>,
    /// `WhiteTitle`/`BlackTitle` as written (`GM`, `WIM`, `BOT`...); `-` and empty values are none.
    pub(crate) title: Option<String>,
    /// `WhiteFideId`/`BlackFideId`: a positive number of at most 11 digits (the width TRF gives it).
    pub(crate) fide_id: Option<u64>,
    /// `WhiteFed`, else `WhiteFederation`, else `WhiteCountry` (and Black's): a three-letter code, in capitals.
    pub(crate) federation: Option<String>,
}

/// A three-letter code (federation, country), in capitals; anything else is none.
pub(crate) fn code3(value: &str) -> Option<String> {
    let t = value.trim();
    (t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic())).then(|| t.to_ascii_uppercase())
}

/// The tags of one side of a game that describe its player (the first of each name, as [`Game::tag`] reads
/// them).
#[derive(Default)]
pub(crate) struct SideTags<'a> {
    name: Option<Cow<'a, str>>,
    elo: Option<Cow<'a, str>>,
    title: Option<Cow<'a, str>>,
    fide_id: Option<Cow<'a, str>>,
    fed: Option<Cow<'a, str>>,
    federation: Option<Cow<'a, str>>,
    country: Option<Cow<'a, str>>,
}

impl SideTags<'_> {
    /// The White or Black tag's value, as written (`None`: no such tag).
    pub(crate) fn name_tag(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// The tags a game's entry in its tournament reads, found in one pass over its tags: a game has a dozen
/// tags and the entry reads two dozen names, so looking each up would scan them two dozen times.
#[derive(Default)]
pub(crate) struct EntryTags<'a> {
    pub(crate) event: Option<Cow<'a, str>>,
    pub(crate) site: Option<Cow<'a, str>>,
    pub(crate) event_date: Option<Cow<'a, str>>,
    pub(crate) date: Option<Cow<'a, str>>,
    pub(crate) result: Option<Cow<'a, str>>,
    pub(crate) round: Option<Cow<'a, str>>,
    pub(crate) time_control: Option<Cow<'a, str>>,
    pub(crate) arbiter: Option<Cow<'a, str>>,
    pub(crate) event_country: Option<Cow<'a, str>>,
    pub(crate) event_type: Option<Cow<'a, str>>,
    pub(crate) termination: Option<Cow<'a, str>>,
    pub(crate) white: SideTags<'a>,
    pub(crate) black: SideTags<'a>,
}

impl<'a> EntryTags<'a> {
    pub(crate) fn of(game: &Game<'a>) -> EntryTags<'a> {
        let mut tags = EntryTags::default();
        for tag in &game.tags {
            let slot = match game.bytes(tag.name) {
                b"Event" => &mut tags.event,
                b"Site" => &mut tags.site,
                b"EventDate" => &mut tags.event_date,
                b"Date" => &mut tags.date,
                b"Result" => &mut tags.result,
                b"Round" => &mut tags.round,
                b"TimeControl" => &mut tags.time_control,
                b"Arbiter" => &mut tags.arbiter,
                b"EventCountry" => &mut tags.event_country,
                b"EventType" => &mut tags.event_type,
                b"Termination" => &mut tags.termination,
                name => {
                    let (side, rest) = if let Some(rest) = name.strip_prefix(b"White") {
                        (&mut tags.white, rest)
                    } else if let Some(rest) = name.strip_prefix(b"Black") {
                        (&mut tags.black, rest)
                    } else {
                        continue;
                    };
                    match rest {
                        b"" => &mut side.name,
                        b"Elo" => &mut side.elo,
                        b"Title" => &mut side.title,
                        b"FideId" => &mut side.fide_id,
                        b"Fed" => &mut side.fed,
                        b"Federation" => &mut side.federation,
                        b"Country" => &mut side.country,
                        _ => continue,
                    }
                }
            };
            if slot.is_none() {
                *slot = Some(game.tag_value(tag));
            }
        }
        tags
    }

    /// The game's tournament.
    pub(crate) fn key(&self) -> Option<TournamentKey> {
        TournamentKey::from_tags(
            self.event.as_deref(),
            self.site.as_deref(),
            self.event_date.as_deref(),
            self.date.as_deref(),
        )
    }
}

/// A `WhiteFideId`/`BlackFideId` value as a FIDE id: a positive number of at most 11 digits (the width TRF
/// gives it), spaces around it ignored.
pub(crate) fn fide_id_of(value: &str) -> Option<u64> {
    let id = value.trim();
    (id.len() <= 11 && !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .then(|| id.parse::<u64>().ok())
        .flatten()
        .filter(|&id| id > 0)
}

/// A player from the tags of their side of a game.
pub(crate) fn player_of(side: &SideTags<'_>) -> PlayerInfo {
    let known = |value: &Option<Cow<'_, str>>| known(value.clone());
    PlayerInfo {
        name: side
            .name
            .as_deref()
            .map(|v| v.trim().to_string())
            .unwrap_or_default(),
        rating: known(&side.elo).and_then(|r| rating_of(&r)),
        title: known(&side.title),
        fide_id: known(&side.fide_id).and_then(|id| fide_id_of(&id)),
        federation: [&side.fed, &side.federation, &side.country]
            .into_iter()
            .find_map(|v| known(v).and_then(|v| code3(&v))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_and_keys_read_event_date_else_date() {
        assert_eq!(year_of(Some("2024.05.01"), Some("2023.01.01")), "2024");
        assert_eq!(year_of(Some("  "), Some(" 2023.01.01")), "2023");
        assert_eq!(year_of(None, Some("2023.??.??")), "2023");
        assert_eq!(year_of(None, None), "????");
        assert_eq!(year_of(Some("????.??.??"), Some("2023.01.01")), "????");
        assert_eq!(year_of(None, Some("été 99")), "été ");
        let games = pgnkit::pgn::parse_all(
            b"[Event \"E\"]\n[Site \"S\"]\n[Date \"2023.01.01\"]\n[EventDate \" 2022.12.30\"]\n\n1. e4 *\n\n\
              [Event \" E \"]\n[Date \"19\"]\n\n1. e4 *\n\n[Event \"-\"]\n\n1. e4 *\n\n[Event \"?\"]\n\n*\n\n*\n",
        );
        let keys: Vec<Option<TournamentKey>> = games.iter().map(TournamentKey::of).collect();
        let key = |event: &str, site: &str, year: &str| {
            Some(TournamentKey {
                event: event.into(),
                site: site.into(),
                year: year.into(),
            })
        };
        assert_eq!(
            keys,
            [key("E", "S", "2022"), key("E", "", "19"), None, None, None]
        );
    }

    #[test]
    fn round_numbers_are_the_first_number() {
        assert_eq!(round_number("5"), Some(5));
        assert_eq!(round_number("5.2"), Some(5));
        assert_eq!(round_number(" 12 "), Some(12));
        assert_eq!(round_number("0"), Some(0));
        for none in ["?", "-", "", "five", ".2", "99999999999999999999999"] {
            assert_eq!(round_number(none), None, "{none}");
        }
        assert_eq!(round_of("4.2"), Some(4));
        assert_eq!(round_of(" 12 "), Some(12));
        for none in ["0", "?", "-", "", "Final", "5 (tiebreak)", "4294967296"] {
            assert_eq!(round_of(none), None, "{none}");
        }
    }

    #[test]
    fn players_that_name_nobody_or_one_player_on_both_sides() {
        for nobody in ["", " ", "?", "-", "NN", "N.N."] {
            assert!(names_nobody(nobody), "{nobody:?}");
            assert_eq!(
                not_a_pairing(nobody, "Ann"),
                Some(NotAPairing::UnknownPlayer)
            );
        }
        assert!(!names_nobody("N"));
        assert_eq!(
            not_a_pairing("Ann ", " Ann"),
            Some(NotAPairing::AgainstSelf)
        );
        assert_eq!(
            not_a_pairing("Ann", "ann"),
            None,
            "names are told apart as written"
        );
    }
}
