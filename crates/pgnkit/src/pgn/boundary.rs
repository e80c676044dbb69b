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
        if !name.is_empty() {
            if self.section == Section::Tags && self.names.contains(name) {
                return true;
            }
            self.names.insert(name);
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
}

impl<'a> NameSet<'a> {
    const SMALL: usize = 32;

    fn clear(&mut self) {
        self.small.clear();
        self.big.clear();
    }

    fn contains(&self, name: &[u8]) -> bool {
        if self.big.is_empty() {
            self.small.contains(&name)
        } else {
            self.big.contains(name)
        }
    }

    fn insert(&mut self, name: &'a [u8]) {
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
