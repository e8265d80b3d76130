//! [`Span`]: a byte range in an input, the place a tag (and, in gamerec, a
//! problem) points at.

use serde::Serialize;

/// A byte range in the whole input (file or stdin), end exclusive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}
