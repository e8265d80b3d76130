//! A tag pair's name or value: up to [`INLINE`] bytes kept in place (no
//! allocation for the tags real records hold: `Game`, `oshi`, a date, a
//! player's name), longer text on the heap. Reads as a `&str`.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// The longest text kept in place: the whole value is 24 bytes, the size
/// of a `String`.
pub const INLINE: usize = 22;

#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    /// The length, and the bytes (UTF-8 up to the length, zeros after).
    Inline(u8, [u8; INLINE]),
    Heap(Box<str>),
}

impl Text {
    pub fn new(text: &str) -> Text {
        match text.len() {
            n if n <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..n].copy_from_slice(text.as_bytes());
                Text(Repr::Inline(n as u8, bytes))
            }
            _ => Text(Repr::Heap(text.into())),
        }
    }

    /// The text's bytes (UTF-8).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(n, bytes) => &bytes[..usize::from(*n)],
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Made from a `&str` and never changed: always UTF-8.
            Repr::Inline(..) => std::str::from_utf8(self.as_bytes()).unwrap_or_default(),
            Repr::Heap(s) => s,
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text(Repr::Inline(0, [0; INLINE]))
    }
}

impl Deref for Text {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::new(text)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        match text.len() {
            n if n <= INLINE => Text::new(&text),
            _ => Text(Repr::Heap(text.into_boxed_str())),
        }
    }
}

impl From<&Text> for String {
    fn from(text: &Text) -> String {
        text.as_str().to_owned()
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        match text.0 {
            Repr::Heap(s) => s.into_string(),
            Repr::Inline(..) => text.as_str().to_owned(),
        }
    }
}

impl From<Text> for Box<str> {
    fn from(text: Text) -> Box<str> {
        match text.0 {
            Repr::Heap(s) => s,
            Repr::Inline(..) => text.as_str().into(),
        }
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    #[inline]
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Text {
    #[inline]
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_text_read_back_as_written_and_compare_alike() {
        for s in [
            "",
            "oshi",
            "é and ü",
            "exactly twenty-two by!",
            "twenty-three bytes long",
            "https://play.abstractplay.com/games/oshi/1234",
        ] {
            let t = Text::new(s);
            assert_eq!(t.as_str(), s);
            assert_eq!(&*t, s);
            assert_eq!(t, s);
            assert_eq!(t, Text::from(s.to_string()));
            assert_eq!(String::from(t.clone()), s);
            assert_eq!(format!("{t:?}"), format!("{s:?}"));
        }
        assert_eq!(Text::new("exactly twenty-two by!").len(), INLINE);
        assert!(matches!(Text::new("oshi").0, Repr::Inline(4, _)));
        assert!(matches!(
            Text::new("twenty-three bytes long").0,
            Repr::Heap(_)
        ));
        assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<String>());
        assert!(Text::new("a") < Text::new("b"));
    }
}
