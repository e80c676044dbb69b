//! [`TagText`]: a tag value as a report keeps it.

use std::fmt;
use std::ops::Deref;

use serde::{Serialize, Serializer};

/// A tag value as a report keeps it: up to [`TagText::INLINE`] bytes inside the report (nearly every
/// player, event, site, round and result), longer ones on the heap.
///
/// A report holds six of them. As `String`s they were half of validate's allocations per game, and with
/// two threads every allocation costs more: the reports are built on one thread and read on another, and
/// glibc's arenas then contend for their locks.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TagText(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline {
        len: u8,
        bytes: [u8; TagText::INLINE],
    },
    Heap(Box<str>),
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Inline {
            len: 0,
            bytes: [0; TagText::INLINE],
        }
    }
}

impl TagText {
    /// The longest text kept inline: the same size as a `String` on 64-bit targets.
    pub(crate) const INLINE: usize = 22;

    pub(crate) fn new(text: &str) -> TagText {
        if text.len() <= Self::INLINE {
            let mut bytes = [0; Self::INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            TagText(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            TagText(Repr::Heap(text.into()))
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let text = &bytes[..usize::from(*len)];
                debug_assert!(std::str::from_utf8(text).is_ok());
                // SAFETY: `new` copies the whole of a `&str` here, and nothing else writes these bytes: they
                // are UTF-8. The checked conversion ran on every read, and the checks across games read
                // players, event, site and round of every game.
                unsafe { std::str::from_utf8_unchecked(text) }
            }
            Repr::Heap(text) => text,
        }
    }
}

impl Deref for TagText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for TagText {
    fn from(text: &str) -> Self {
        TagText::new(text)
    }
}

impl PartialEq<str> for TagText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for TagText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for TagText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TagText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TagText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_text_keeps_every_byte_of_every_length() {
        // Distinct bytes at every place, so that a piece copied to the wrong place shows.
        let all: String = ('A'..='Z').collect();
        for len in 0..=TagText::INLINE + 1 {
            let text = &all[..len];
            assert_eq!(TagText::new(text).as_str(), text, "{len}");
        }
    }

    #[test]
    fn tag_text_keeps_any_text_whole_inline_or_not() {
        let texts = [
            String::new(),
            "?".to_string(),
            "Barden, Leonard W".to_string(),
            "a".repeat(TagText::INLINE),
            "a".repeat(TagText::INLINE + 1),
            // a two-byte character ending exactly at the inline limit, and one crossing it
            format!("{}é", "a".repeat(TagText::INLINE - 2)),
            format!("{}é", "a".repeat(TagText::INLINE - 1)),
            "Международный турнир, Москва".to_string(),
        ];
        for text in &texts {
            let tag = TagText::new(text);
            assert_eq!(tag.as_str(), text);
            assert_eq!(&*tag, text.as_str());
            assert_eq!(tag.to_string(), *text);
            assert_eq!(tag, text.as_str());
            assert_eq!(tag.len(), text.len());
            assert_eq!(
                serde_json::to_string(&tag).unwrap(),
                serde_json::to_string(text).unwrap()
            );
            assert_eq!(format!("{tag:?}"), format!("{text:?}"));
        }
        let inline = |tag: &TagText| matches!(tag.0, Repr::Inline { .. });
        assert!(inline(&TagText::new(&"a".repeat(TagText::INLINE))));
        assert!(!inline(&TagText::new(&"a".repeat(TagText::INLINE + 1))));
        assert_eq!(TagText::default(), "");
        assert_ne!(TagText::new("1-0"), TagText::new("0-1"));
    }
}
