//! The record envelope, knowing no game: tag pairs, movetext, comments and
//! results ([`record`]), and an input cut into records and replayed in
//! parallel in input order ([`pipeline`]).

pub mod pipeline;
pub mod record;
