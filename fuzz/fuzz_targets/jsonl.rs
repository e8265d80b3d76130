//! gamerec JSON Lines.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::read_as(gamerec::formats::Format::Jsonl, data));
