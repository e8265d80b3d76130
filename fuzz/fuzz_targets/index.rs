//! A position index with one of its tables replaced (the first byte picks
//! which; seeded with a real index's tables): every query answers or
//! errs, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::index(data));
