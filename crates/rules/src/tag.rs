//! [`Tag`]: one tag pair `[Name "value"]` of a record's tag section — what
//! a game reads its start from (`SetUp`/`Position`, a variant, a board
//! size).

use crate::span::Span;
use crate::text::Text;

/// One tag pair `[Name "value"]`. Its name and value are [`Text`]: kept
/// in place when short, as most are (no allocation per tag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: Text,
    pub value: Text,
    /// The whole `[...]`.
    pub span: Span,
    /// The value between the quotes.
    pub value_span: Span,
}

impl Tag {
    /// A tag made by a program, not read from an input (no place in one).
    pub fn unplaced(name: &str, value: &str) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span: Span::default(),
            value_span: Span::default(),
        }
    }
}
