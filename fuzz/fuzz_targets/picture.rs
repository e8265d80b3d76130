//! Every position of a game drawn: the viewer's frames, the text and the SVG.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| gamerec_fuzz::picture(data));
