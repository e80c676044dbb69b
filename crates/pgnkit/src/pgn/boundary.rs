//! Where one game ends and the next begins: the rules of "Game boundaries" in the module documentation of
//! [`crate::pgn`], as one state machine that the parser ([`super::game_reader`]) and the splitter
//! ([`super::split`]) both feed, so the two agree by construction.
//!
//! The machine sees a game's constructs in order (tag pairs and movetext; whitespace and comments change
//! nothing) and says, at each, whether it still belongs to the current game. Reading the construct (scanning
//! a tag pair, a movetext token) is the caller's.

use super::lex;

/// The part of a game the reader is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    /// Nothing but whitespace and trivia yet.
    Before,
    /// In the tag section.
    Tags,
    /// In the movetext, no termination marker yet.
    Movetext,
    /// After the termination marker: only trivia still belongs to this game.
    Ended,
}

/// What a `[` is where the reader stands (see [`GameBoundary::bracket`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bracket {
    /// The start of a tag pair of the current game (its name may still start the next one: see
    /// [`GameBoundary::tag_pair`]).
    TagPair,
    /// The start of the next game: a tag pair after the movetext or after the termination marker.
    NextGame,
    /// A lone `[` inside the movetext: no tag pair, an unknown byte.
    Stray,
}

/// The state of the game being read: its section, and the tag names its tag section has seen.
#[derive(Debug)]
pub(crate) struct GameBoundary<'a> {
    section: Section,
    names: NameSet<'a>,
}

impl Default for GameBoundary<'_> {
    fn default() -> Self {
        GameBoundary {
            section: Section::Before,
            names: NameSet::default(),
        }
    }
}

impl<'a> GameBoundary<'a> {
    /// A new game begins: nothing of it read yet (allocations kept).
    #[inline]
    pub(crate) fn reset(&mut self) {
        self.section = Section::Before;
        self.names.clear();
    }

    /// The section the reader is in.
    #[inline(always)]
    pub(crate) fn section(&self) -> Section {
        self.section
    }

    /// What the `[` at `buf[pos]` is: a tag pair after movetext starts the next game (a blank line or not),
    /// and after the termination marker so does any `[`.
    #[inline]
    pub(crate) fn bracket(&self, buf: &[u8], pos: usize) -> Bracket {
        match self.section {
            Section::Before | Section::Tags => Bracket::TagPair,
            Section::Ended => Bracket::NextGame,
            Section::Movetext if lex::looks_like_tag(buf, pos) => Bracket::NextGame,
            Section::Movetext => Bracket::Stray,
        }
    }

    /// A tag pair named `name` (empty when it has none) of [`Bracket::TagPair`] was scanned: `true` when it
    /// starts the next game instead (its name was seen already in this tag section: tag-only games split
    /// there, while blank lines between the tags of one game do not). Otherwise it is this game's.
    #[inline]
    pub(crate) fn tag_pair(&mut self, name: &'a [u8]) -> bool {
        if !name.is_empty() && !self.names.insert_new(name) && self.section == Section::Tags {
            return true;
        }
        self.section = Section::Tags;
        false
    }

    /// Whether movetext (anything but whitespace, trivia and a `[`) starts the next game here: after the
    /// termination marker.
    #[inline(always)]
    pub(crate) fn movetext_starts_next(&self) -> bool {
        self.section == Section::Ended
    }

    /// Movetext of this game was read; `ended`: it ended with the termination marker.
    #[inline(always)]
    pub(crate) fn movetext(&mut self, ended: bool) {
        self.section = if ended {
            Section::Ended
        } else {
            Section::Movetext
        };
    }
}

/// Tag names seen in the current tag section (a repeated name starts a new game). Small sections are
/// searched linearly; a section with very many tags switches to a hash set, so the check stays linear
/// in the input whatever it holds.
#[derive(Debug, Default)]
struct NameSet<'a> {
    small: Vec<&'a [u8]>,
    big: std::collections::HashSet<&'a [u8]>,
    /// One bit per name seen, chosen by [`NameSet::bit`]: a name whose bit is clear was not seen, which is
    /// the answer for nearly every tag, found without comparing names.
    bits: u64,
}

impl<'a> NameSet<'a> {
    const SMALL: usize = 32;

    fn clear(&mut self) {
        self.small.clear();
        self.big.clear();
        self.bits = 0;
    }

    /// The bit of `name`: from its length and its first and last bytes, which tell the usual tags apart.
    #[inline(always)]
    fn bit(name: &[u8]) -> u64 {
        let (first, last) = match name {
            [first, .., last] => (*first, *last),
            [only] => (*only, *only),
            [] => (0, 0),
        };
        let mix = usize::from(first) * 7 + usize::from(last) * 3 + name.len();
        1 << (mix % 64)
    }

    fn contains(&self, name: &[u8]) -> bool {
        if self.bits & Self::bit(name) == 0 {
            return false;
        }
        if self.big.is_empty() {
            self.small.contains(&name)
        } else {
            self.big.contains(name)
        }
    }

    /// Adds `name`; false when it was there already. A name whose bit is clear, nearly every one, is added
    /// without a comparison.
    #[inline(always)]
    fn insert_new(&mut self, name: &'a [u8]) -> bool {
        let bit = Self::bit(name);
        if self.bits & bit != 0 && self.contains(name) {
            return false;
        }
        self.bits |= bit;
        if self.big.is_empty() && self.small.len() < Self::SMALL {
            self.small.push(name);
        } else {
            self.insert(name);
        }
        true
    }

    fn insert(&mut self, name: &'a [u8]) {
        self.bits |= Self::bit(name);
        if self.big.is_empty() {
            if self.small.len() < Self::SMALL {
                self.small.push(name);
                return;
            }
            self.big.extend(self.small.drain(..));
        }
        self.big.insert(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_again_whatever_their_bits_share() {
        // The Seven Tag Roster and common tags, then many more than the linear part holds: each is absent
        // until inserted and present after, and names that share a bit are still told apart.
        let mut names: Vec<Vec<u8>> = [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "WhiteElo",
            "BlackElo",
            "ECO",
            "TimeControl",
            "Termination",
            "PlyCount",
            "EventDate",
            "Opening",
            "FEN",
            "SetUp",
            "X",
            "",
        ]
        .iter()
        .map(|n| n.as_bytes().to_vec())
        .collect();
        names.extend((0..100).map(|i| format!("Tag{i}").into_bytes()));
        let mut set = NameSet::default();
        for (i, name) in names.iter().enumerate() {
            assert!(!set.contains(name), "{i} before");
            assert!(set.insert_new(name), "{i} added");
            assert!(set.contains(name), "{i} after");
            assert!(!set.insert_new(name), "{i} added again");
            for earlier in &names[..i] {
                assert!(set.contains(earlier));
            }
            for later in &names[i + 1..] {
                assert!(
                    !set.contains(later),
                    "{:?} after {i}",
                    String::from_utf8_lossy(later)
                );
            }
        }
        set.clear();
        assert!(names.iter().all(|n| !set.contains(n)));
    }
}
