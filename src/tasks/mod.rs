//! The library side of each command, one module named as the command:
//! what the command line and the Python package both call.

pub mod analyse;
pub mod convert;
pub mod dedup;
pub mod filter;
pub mod gen;
pub mod index;
pub mod moves;
pub mod perft;
pub mod ratings;
pub mod report;
pub mod shard;
pub mod show;
pub mod stats;
pub mod tree;
pub mod tune;
pub mod validate;
pub mod view;
