//! Base things, knowing neither the envelope nor any game: what is wrong
//! with an input and where ([`problem`]), and its raw bytes made text
//! ([`decode`]).

pub mod decode;
pub mod problem;
