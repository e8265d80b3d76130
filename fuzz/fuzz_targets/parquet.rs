//! A Parquet games table (seeded with gamerec's own; libFuzzer's
//! mutations reach the footer, the pages and the rows).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::parquet(data));
