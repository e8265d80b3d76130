//! Arbitrary bytes through the validate path (decompression, encodings, format detection, every reader, the replay, diagnostics).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::validate(data));
