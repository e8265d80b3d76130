//! A valid game's canonical text through text, JSON and JSON Lines and back: identical.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::round_trip(data));
