//! What is wrong with a record, and where.

use crate::record::Span;

/// One reason a record is invalid, located in the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Stable kebab-case name, e.g. `train-too-long`, `unterminated-comment`.
    pub code: &'static str,
    /// The sentence a player reads.
    pub message: String,
    /// The offending token (absolute byte range).
    pub span: Span,
    /// The ply (1-based) of the offending turn, when it is one.
    pub ply: Option<usize>,
    /// The offending token's text.
    pub token: Option<String>,
    /// Further hints.
    pub notes: Vec<String>,
}

impl Problem {
    pub fn new(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Problem {
            code,
            message: message.into(),
            span,
            ply: None,
            token: None,
            notes: Vec::new(),
        }
    }

    pub fn with_ply(mut self, ply: usize) -> Self {
        self.ply = Some(ply);
        self
    }

    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}
