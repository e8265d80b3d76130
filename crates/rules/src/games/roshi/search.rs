//! What the search needs from Roshi: the default key (the whole position,
//! its setup phase and supplies included).

use super::Roshi;
use crate::game::Search;

impl Search for Roshi {
    /// Hundreds to ten thousand turns a position.
    const DEPTH: u32 = 1;
}
