//! The text of each move of a game as the writer prints it, given by the caller: the writer replays
//! nothing, so whoever resolved the moves (convert, in any language or notation) says how each is spelled.

/// One move token as the writer must print it: where its text is in [`PrintedMoves`]'s buffer, and its number
/// and side (from the position before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    start: u32,
    end: u32,
    number: u32,
    black: bool,
    set: bool,
}

/// The text of every move token of one game, indexed by token index, in one reusable buffer (no
/// allocation per move once the buffers have grown).
#[derive(Clone, Debug, Default)]
pub struct PrintedMoves {
    text: String,
    slots: Vec<Slot>,
}

impl PrintedMoves {
    /// Empties the table for a game of `tokens` tokens (keeps the allocations).
    pub fn reset(&mut self, tokens: usize) {
        self.text.clear();
        self.slots.clear();
        self.slots.resize(tokens, Slot::default());
    }

    /// Sets the text of the move token at `token` (index in [`Game::tokens`](crate::pgn::Game::tokens)): `write` appends it to the
    /// buffer it is given. `number` is the full-move number and `black` the side of the position before
    /// the move. An index beyond the table is ignored (the writer then reports the move as unwritten).
    pub fn set(&mut self, token: usize, number: u32, black: bool, write: impl FnOnce(&mut String)) {
        let start = self.text.len();
        write(&mut self.text);
        let end = self.text.len();
        if let Some(slot) = self.slots.get_mut(token) {
            *slot = Slot {
                start: start as u32,
                end: end as u32,
                number,
                black,
                set: true,
            };
        }
    }

    /// Appends `more` to the text of the move token at `token`, which must be the last one set (its check
    /// mark, known once the move is played); otherwise nothing happens.
    pub fn append(&mut self, token: usize, more: &str) {
        if let Some(slot) = self.slots.get_mut(token)
            && slot.set
            && slot.end as usize == self.text.len()
        {
            self.text.push_str(more);
            slot.end = self.text.len() as u32;
        }
    }

    /// The text, number and side of a move token, if set.
    pub fn get(&self, token: usize) -> Option<(&str, u32, bool)> {
        let slot = self.slots.get(token).filter(|s| s.set)?;
        let text = self.text.get(slot.start as usize..slot.end as usize)?;
        Some((text, slot.number, slot.black))
    }
}
