//! Bytes after a `[Game]` tag (or `--game`) that the first byte picks, so that every game's move parser is reached.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::validate_game(data));
