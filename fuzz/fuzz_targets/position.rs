//! A game's Position parser, then every generated turn played and read back along a walk.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::position(data));
