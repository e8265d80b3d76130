//! What the search needs from Vagabond Pai Sho: the default key (the whole
//! position, reserves and a pending offer included); accepting a draw is an
//! agreement, not searched.

use super::{Body, Move, Position, Vagabond};
use crate::game::Search;

impl Search for Vagabond {
    /// About a thousand turns a position.
    const DEPTH: u32 = 1;

    fn agreement(mv: &Move) -> bool {
        mv.body == Body::Accept
    }

    fn withdraw_offer(pos: &mut Position) {
        pos.offer_pending = false;
    }
}
