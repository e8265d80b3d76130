//! The command line's diagnostics code, compiled in as it is (the binary's
//! modules are not part of the library), so that fuzzing reaches what
//! prints a problem.

#[allow(dead_code)]
#[path = "../../../src/cli/messages.rs"]
pub mod messages;
#[allow(dead_code)]
#[path = "../../../src/cli/render.rs"]
pub mod render;
