//! `--lenient` and `--keep-broken` on arbitrary bytes after a `[Game]` tag (or none): repairs inside the input, repaired games valid strictly once converted.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::lenient(data));
