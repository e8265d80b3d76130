//! Everything generic over a game, built on its rules (the rules crate):
//! the replay of a record ([`replay`]), `--lenient` repairs ([`lenient`]),
//! the sink every conversion writes to ([`sink`]), per-ply analysis
//! ([`analysis`]), random games ([`gen`]), position patterns
//! ([`pattern`]), selecting games ([`select`]) and the opening walk
//! ([`walk`]).

pub mod analysis;
pub mod gen;
pub mod lenient;
pub mod pattern;
pub mod replay;
pub mod select;
pub mod sink;
pub mod walk;
