//! The `gamerec` binary: a thin shell over the library.

mod cli;

/// Replay and conversion allocate many small strings (one per turn);
/// mimalloc serves them several times faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::run());
}
