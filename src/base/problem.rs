//! What is wrong with a record, and where: [`Problem`], its stable [`Code`]
//! and the [`Span`] it points at. The lowest layer: it knows neither the
//! envelope nor any game.

use serde::Serialize;
use std::fmt;

pub use gamerec_rules::Span;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $text:literal, )*) => {
        /// A problem's stable kebab-case name, for scripts and fixtures
        /// (`[code]` in diagnostics, `error.code` in JSON). The envelope's,
        /// the replay's and the readers' codes are variants; a game's own
        /// refusals (`train-too-long`, …) come as [`Code::Rule`].
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
            /// A move the game's rules refuse, with the game's own code.
            Rule(&'static str),
        }

        impl Code {
            /// Every code that is not a game's own, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The code as written in diagnostics and JSON.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $text, )*
                    Code::Rule(code) => code,
                }
            }
        }
    };
}

codes! {
    /// An input with no game at all.
    NoGames = "no-games",
    /// A byte that is not UTF-8 text.
    #[default]
    InvalidUtf8 = "invalid-utf8",
    UnterminatedTag = "unterminated-tag",
    MalformedTag = "malformed-tag",
    UnterminatedComment = "unterminated-comment",
    StrayBrace = "stray-brace",
    TagInMovetext = "tag-in-movetext",
    JunkBetweenGames = "junk-between-games",
    MalformedMoveNumber = "malformed-move-number",
    DanglingMoveNumber = "dangling-move-number",
    RecordTooLarge = "record-too-large",
    MissingGame = "missing-game",
    UnknownGame = "unknown-game",
    BadSetup = "bad-setup",
    /// A `Result` tag that is no result.
    BadResult = "bad-result",
    /// The result token and the `Result` tag disagree.
    ResultMismatch = "result-mismatch",
    /// The declared result is not the one the rules reached.
    WrongResult = "wrong-result",
    WrongMoveNumber = "wrong-move-number",
    MoveAfterEnd = "move-after-end",
    MalformedMove = "malformed-move",
    /// A position asked for beyond the game's end (`moves --ply`).
    NoSuchPly = "no-such-ply",
    MalformedJson = "malformed-json",
    UnsupportedJson = "unsupported-json",
    /// A Parquet input that is not a readable gamerec games table.
    MalformedParquet = "malformed-parquet",
    /// A gamerec games table of another schema version.
    UnsupportedParquet = "unsupported-parquet",
    MalformedComment = "malformed-comment",
    /// A numeric annotation glyph `$N` before the first turn.
    MisplacedGlyph = "misplaced-glyph",
    /// A site's game file that cannot be read: an AbstractPlay record that
    /// is not JSON or not a record, a Garden Gate link that does not
    /// decode.
    MalformedSiteRecord = "malformed-site-record",
    /// A site's game that gamerec does not play: three players, variants,
    /// another game of the Garden Gate.
    UnsupportedRecord = "unsupported-record",
    /// A Garden Gate link that holds no game, only a reference to one on
    /// the site (a shortened or a spectate link).
    OfflineLink = "offline-link",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl From<Code> for String {
    fn from(code: Code) -> String {
        code.as_str().to_string()
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A problem's token is kept to this many bytes (a token of megabytes is
/// shown by its beginning; its place is exact all the same).
pub(crate) const TOKEN_CAP: usize = 1024;

/// `token`, cut after [`TOKEN_CAP`] bytes (at a character) with `…`.
pub(crate) fn capped(token: &str) -> Box<str> {
    if token.len() <= TOKEN_CAP {
        return token.into();
    }
    let mut end = TOKEN_CAP;
    while !token.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &token[..end]).into_boxed_str()
}

/// One reason a record is invalid, located in the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    pub code: Code,
    /// The sentence a player reads.
    pub message: String,
    /// The offending token (absolute byte range).
    pub span: Span,
    /// The ply (1-based) of the offending turn, when it is one.
    pub ply: Option<usize>,
    /// The offending token's text (its first [`TOKEN_CAP`] bytes).
    pub token: Option<Box<str>>,
    /// Further hints.
    pub notes: Vec<String>,
}

impl Problem {
    pub fn new(code: Code, message: impl Into<String>, span: Span) -> Self {
        Problem {
            code,
            message: message.into(),
            span,
            ply: None,
            token: None,
            notes: Vec::new(),
        }
    }

    pub(crate) fn with_ply(mut self, ply: usize) -> Self {
        self.ply = Some(ply);
        self
    }

    /// The offending token (its first [`TOKEN_CAP`] bytes, then `…`).
    pub(crate) fn with_token(mut self, token: impl AsRef<str>) -> Self {
        self.token = Some(capped(token.as_ref()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}

/// What `--lenient` repaired ([`Repair::code`]): each repair is one of
/// these, independent of the others (notation/lenient.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairCode {
    /// A comment never closed: closed at the end of its line.
    ClosedComment,
    /// A tag pair whose value (or bracket) is never closed: closed at the
    /// end of its line.
    ClosedTag,
    /// A wrong, malformed or dangling move number: renumbered (or dropped).
    MoveNumber,
    /// No `Game` tag: the one game whose rules accept every move.
    GameTag,
    /// The last turn, cut short (a strict beginning of a legal move):
    /// dropped.
    TruncatedMove,
    /// A declared result the replay contradicts: the replay's.
    Result,
    /// `--keep-broken`: the turns from the first illegal one on, kept as a
    /// comment.
    KeptBroken,
}

impl RepairCode {
    /// Every repair code, in documentation order.
    pub const ALL: &'static [RepairCode] = &[
        RepairCode::ClosedComment,
        RepairCode::ClosedTag,
        RepairCode::MoveNumber,
        RepairCode::GameTag,
        RepairCode::TruncatedMove,
        RepairCode::Result,
        RepairCode::KeptBroken,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            RepairCode::ClosedComment => "closed-comment",
            RepairCode::ClosedTag => "closed-tag",
            RepairCode::MoveNumber => "move-number",
            RepairCode::GameTag => "game-tag",
            RepairCode::TruncatedMove => "truncated-move",
            RepairCode::Result => "result",
            RepairCode::KeptBroken => "kept-broken",
        }
    }
}

impl fmt::Display for RepairCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Characters kept before where two texts start to differ, when a long
/// stretch they share is cut (`…`).
const SHARED_KEPT: usize = 40;

/// `before` and `after` with most of a long beginning they share cut to
/// `…`, so that what differs shows within [`TOKEN_CAP`].
fn differing(before: String, after: String) -> (String, String) {
    let shared = before
        .char_indices()
        .zip(after.chars())
        .find(|((_, a), b)| a != b)
        .map_or(before.len().min(after.len()), |((i, _), _)| i);
    if shared <= SHARED_KEPT * 2 || (before.len() <= TOKEN_CAP && after.len() <= TOKEN_CAP) {
        return (before, after);
    }
    let mut from = shared - SHARED_KEPT;
    while !before.is_char_boundary(from) {
        from -= 1;
    }
    (
        format!("…{}", &before[from..]),
        format!("…{}", &after[from..]),
    )
}

/// One repair `--lenient` made to a record, located in the input: the text
/// as it was and as it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    pub code: RepairCode,
    /// The sentence a player reads.
    pub message: String,
    /// Where the repaired text stands (absolute byte range; empty where
    /// something was added).
    pub span: Span,
    /// The ply (1-based) of the turn repaired, when it is one.
    pub ply: Option<usize>,
    /// The text as written (empty when something was added).
    pub before: String,
    /// The text as read (empty when something was dropped).
    pub after: String,
}

impl Repair {
    pub fn new(
        code: RepairCode,
        message: impl Into<String>,
        span: Span,
        before: impl Into<String>,
        after: impl Into<String>,
    ) -> Self {
        let (before, after) = differing(before.into(), after.into());
        Repair {
            code,
            message: message.into(),
            span,
            ply: None,
            before: capped(&before).into(),
            after: capped(&after).into(),
        }
    }

    pub(crate) fn with_ply(mut self, ply: usize) -> Self {
        self.ply = Some(ply);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_kebab_case_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let s = code.as_str();
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit()),
                "{s}"
            );
            assert!(seen.insert(s), "{s} twice");
        }
        assert_eq!(Code::Rule("too-far").as_str(), "too-far");
        assert_eq!(Code::WrongResult, "wrong-result");
    }

    #[test]
    fn a_long_repaired_text_shows_where_it_changed() {
        let line = format!("[Event \"{}", "x".repeat(3 * TOKEN_CAP));
        let r = Repair::new(
            RepairCode::ClosedTag,
            "",
            Span::default(),
            &*line,
            format!("{line}\"]"),
        );
        assert_ne!(r.before, r.after);
        assert!(
            r.after.ends_with("x\"]") && r.after.starts_with('…'),
            "{}",
            r.after
        );
        // A short text is kept whole.
        let r = Repair::new(
            RepairCode::ClosedTag,
            "",
            Span::default(),
            "[A \"b",
            "[A \"b\"]",
        );
        assert_eq!(
            (r.before.as_str(), r.after.as_str()),
            ("[A \"b", "[A \"b\"]")
        );
    }

    #[test]
    fn repair_codes_are_kebab_case_distinct_and_serialized_as_written() {
        let mut seen = std::collections::HashSet::new();
        for code in RepairCode::ALL {
            let s = code.as_str();
            assert!(
                s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{s}"
            );
            assert!(seen.insert(s), "{s} twice");
            assert_eq!(serde_json::to_string(code).unwrap(), format!("\"{s}\""));
        }
    }

    #[test]
    fn a_long_token_is_kept_by_its_beginning() {
        let long = "é".repeat(TOKEN_CAP);
        let p = Problem::default().with_token(&long);
        let kept = p.token.unwrap();
        assert!(kept.len() <= TOKEN_CAP + '…'.len_utf8() && kept.ends_with('…'));
        assert!(long.starts_with(kept.trim_end_matches('…')));
        assert_eq!(
            &*Problem::default().with_token("e3-e4").token.unwrap(),
            "e3-e4"
        );
    }
}
