//! Inputs and outputs: problems shown to people and scripts
//! ([`diagnostics`]), what reading a game needs and finds ([`reading`]),
//! every format read and written ([`formats`], the sites' beneath), where
//! output goes ([`output`]), whole inputs ([`sources`]), the one reading
//! path ([`inputs`]) and records written as they were ([`passthrough`]).

pub mod diagnostics;
pub mod formats;
pub mod inputs;
pub(crate) mod lean;
pub mod output;
pub mod passthrough;
pub mod reading;
pub mod sources;
