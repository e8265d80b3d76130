//! [`Facts`]: what a legal move did (for `convert`), and the game's own
//! statistics (for `stats`) as a typed struct whose column names and folds
//! come from its one definition ([`statistics!`](crate::statistics)).

use super::{Notation, Rules};
use serde::{Deserialize, Serialize};

/// What one legal move did, as the replay found it (for `convert` and
/// `stats`). Squares are in the record's own notation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveFacts {
    /// The move's full canonical spelling (e.g. a destination that may be
    /// left out is always written).
    pub canonical: String,
    /// The move's type, kebab-case: e.g. `move`, `drop`, `take`, `deploy`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Pieces the move displaced, captured or scored with, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
    /// The turn offers a draw (`~~`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offer: bool,
}

/// One consequence of a move: a piece pushed, pushed off, captured, taken…
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// `pushed`, `pushed-off`, `captured`, `taken`, `neutral-moved`…
    pub what: String,
    /// The piece, e.g. `White 2-story`, `Guest Wheel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Points the move scored by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

impl Effect {
    pub fn new(what: &str) -> Effect {
        Effect {
            what: what.into(),
            ..Effect::default()
        }
    }
}

/// How a statistic accumulates over a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// A total, starting at 0.
    Sum,
    /// A maximum, starting at 0.
    Max,
    /// Set once, the first time; empty until then.
    First,
}

/// One statistic's column: its name and how it accumulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub name: &'static str,
    pub fold: Fold,
}

/// A field of a statistics struct: a value that folds one way.
pub trait Column: Default {
    const FOLD: Fold;
    /// The value (`None`: never set).
    fn value(&self) -> Option<u64>;
}

/// A total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sum(pub u64);

impl Sum {
    pub fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

impl Column for Sum {
    const FOLD: Fold = Fold::Sum;
    fn value(&self) -> Option<u64> {
        Some(self.0)
    }
}

/// A maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Max(pub u64);

impl Max {
    pub fn raise(&mut self, n: u64) {
        self.0 = self.0.max(n);
    }
}

impl Column for Max {
    const FOLD: Fold = Fold::Max;
    fn value(&self) -> Option<u64> {
        Some(self.0)
    }
}

/// The first value set; later ones are ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct First(pub Option<u64>);

impl First {
    pub fn set(&mut self, n: u64) {
        self.0.get_or_insert(n);
    }
}

impl Column for First {
    const FOLD: Fold = Fold::First;
    fn value(&self) -> Option<u64> {
        self.0
    }
}

/// A game's statistics: a struct of [`Column`]s, defined with
/// [`statistics!`](crate::statistics), which derives the columns from the
/// fields.
pub trait Statistics: Default + Clone + Send {
    /// The columns, in field order.
    const COLUMNS: &'static [Stat];
    /// The values, in [`Statistics::COLUMNS`]' order.
    fn values(&self) -> Vec<Option<u64>>;
}

/// No statistics of its own.
impl Statistics for () {
    const COLUMNS: &'static [Stat] = &[];
    fn values(&self) -> Vec<Option<u64>> {
        Vec::new()
    }
}

/// Defines a game's statistics struct: each field a [`Sum`], [`Max`] or
/// [`First`]; the field's name is its column's name (`stats` writes it as
/// `<game>_<field>`) and its type says how it folds.
///
/// ```
/// gamerec_rules::statistics! {
///     /// Example statistics.
///     pub struct Example {
///         /// Turns played.
///         turns: Sum,
///         /// The longest push.
///         longest: Max,
///     }
/// }
/// use gamerec_rules::game::Statistics;
/// let mut s = Example::default();
/// s.turns.add(2);
/// s.longest.raise(3);
/// s.longest.raise(1);
/// assert_eq!(Example::COLUMNS[1].name, "longest");
/// assert_eq!(s.values(), vec![Some(2), Some(3)]);
/// ```
#[macro_export]
macro_rules! statistics {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $fold:ident ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $crate::game::$fold, )*
        }

        impl $crate::game::Statistics for $name {
            const COLUMNS: &'static [$crate::game::Stat] = &[
                $( $crate::game::Stat {
                    name: stringify!($field),
                    fold: <$crate::game::$fold as $crate::game::Column>::FOLD,
                }, )*
            ];
            fn values(&self) -> Vec<Option<u64>> {
                vec![$( $crate::game::Column::value(&self.$field) ),*]
            }
        }
    };
}

/// What a game's legal moves did and its statistics (its `facts.rs`).
pub trait Facts: Rules + Notation {
    /// The game's own statistics.
    type Stats: Statistics;

    /// What a legal move did: `before` and `after` are the positions around
    /// it.
    fn describe(before: &Self::Position, mv: &Self::Move, after: &Self::Position) -> MoveFacts;

    /// Settings tags that only choose how cells are named (Iqishiqi's
    /// `Coords`): no part of a game's identity.
    const NAMING: &'static [&'static str] = &[];

    /// The move in the game's standard notation, the same whatever labels
    /// a record's settings chose (for comparing games: openings, `dedup`).
    /// Most games have one notation: the canonical spelling.
    fn write_standard(
        _before: &Self::Position,
        mv: &Self::Move,
        _after: &Self::Position,
        out: &mut String,
    ) {
        Self::write_move(mv, out)
    }

    /// [`Facts::write_standard`] as a new string.
    fn standard(before: &Self::Position, mv: &Self::Move, after: &Self::Position) -> String {
        let mut s = String::new();
        Self::write_standard(before, mv, after, &mut s);
        s
    }

    /// The position in the standard labels (for `dedup --by
    /// final-position`).
    fn standard_position(pos: &Self::Position) -> String {
        Self::write_position(pos)
    }

    /// What a user's `text` may mean as a move from `pos`, read in each of
    /// the game's label schemes, each spelled as [`Facts::spell_standard`]
    /// spells it (for `filter --opening`: a turn matches a game whatever
    /// labels its record uses).
    fn readings(pos: &Self::Position, text: &str) -> Vec<String> {
        Self::parse_move(pos, text)
            .map(|mv| {
                let mut s = String::new();
                Self::spell_standard(&mv, &mut s);
                vec![s]
            })
            .unwrap_or_default()
    }

    /// The move as written (its destination written or not, as it was),
    /// in the standard labels.
    fn spell_standard(mv: &Self::Move, out: &mut String) {
        Self::write_move(mv, out)
    }

    /// How many numbers [`Facts::move_code`] gives (0: it gives none).
    const MOVE_CODES: u32 = 0;

    /// A number below [`Facts::MOVE_CODES`] for the move, the same for two
    /// moves exactly when [`Facts::spell_standard`] spells them alike, where
    /// the game numbers its moves so (the position index numbers the turns
    /// it meets by it, not by hashing their spelling); `None`, the default,
    /// where it does not. `testkit::check_move_codes` checks a game's.
    fn move_code(_mv: &Self::Move) -> Option<u32> {
        None
    }

    /// Adds one legal ply (1-based `ply`) to the statistics.
    fn count(
        _stats: &mut Self::Stats,
        _before: &Self::Position,
        _mv: &Self::Move,
        _after: &Self::Position,
        _ply: usize,
    ) {
    }

    /// Adds what the final position shows to the statistics.
    fn count_end(_stats: &mut Self::Stats, _end: &Self::Position) {}
}
