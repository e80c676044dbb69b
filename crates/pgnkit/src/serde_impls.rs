//! `Serialize` for the value types a report names (feature `serde`): each is written as the identifier its
//! `as_str` (or [`Language::code`]) gives, the same word the crate uses everywhere else, so JSON and CSV agree.

use serde::{Serialize, Serializer};

use crate::core::{Claim, Color, Termination};
use crate::notation::Language;
use crate::pgn::GameResult;
use crate::walk::{Confidence, Variant};

macro_rules! serialize_as_str {
    ($($ty:ty => $name:expr),* $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let name: fn(&$ty) -> &'static str = $name;
                serializer.serialize_str(name(self))
            }
        }
    )*};
}

serialize_as_str! {
    Termination => |t| t.as_str(),
    Claim => |c| c.as_str(),
    GameResult => |r| r.as_str(),
    Language => |l| l.code(),
    Confidence => |c| c.as_str(),
    Variant => |v| v.as_str(),
    Color => |c| match c {
        Color::White => "white",
        Color::Black => "black",
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_serialize_as_their_identifiers() {
        let json = |v: &dyn erased::Json| v.json();
        assert_eq!(
            json(&Termination::FivefoldRepetition),
            "\"fivefold_repetition\""
        );
        assert_eq!(json(&Claim::FiftyMoves), "\"fifty_moves\"");
        assert_eq!(json(&GameResult::Draw), "\"1/2-1/2\"");
        assert_eq!(json(&Language::Fr), "\"fr\"");
        assert_eq!(json(&Confidence::Guessed), "\"guessed\"");
        assert_eq!(json(&Variant::Chess960), "\"chess960\"");
        assert_eq!(json(&Color::Black), "\"black\"");
    }

    mod erased {
        /// Any serializable value, as JSON.
        pub trait Json {
            fn json(&self) -> String;
        }

        impl<T: serde::Serialize> Json for T {
            fn json(&self) -> String {
                serde_json::to_string(self).unwrap()
            }
        }
    }
}
