//! The `gamerec` binary: a thin shell over the library.
//!
//! It starts from the C runtime's `main`, not Rust's: Rust's start-up
//! quietly puts /dev/null on a closed standard output, so `gamerec convert
//! x.grec >&-` would lose its output and exit 0. Here a closed descriptor
//! 0, 1 or 2 gets /dev/null too (so no file opened later takes its number
//! and receives what is meant for stdout), but a closed stdout is
//! remembered and refused where output goes there.

// Outside tests only: the test harness brings its own `main`.
#![cfg_attr(not(test), no_main)]

// In the tests' build nothing calls it: the harness has its own `main`.
#[cfg_attr(test, allow(dead_code))]
mod cli;

/// mimalloc for small blocks, the system allocator for large ones
/// (`cli::alloc`).
#[global_allocator]
static GLOBAL: cli::alloc::Split = cli::alloc::Split;

#[cfg(not(test))]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    // SAFETY: plain system calls on descriptors 0-2 before any thread or
    // file exists; the arguments are read by std (from the ELF init array).
    unsafe {
        for fd in 0..=2 {
            if libc::fcntl(fd, libc::F_GETFD) == -1 {
                // The lowest free descriptor: `fd` itself.
                libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if fd == 1 {
                    cli::stdout_was_closed();
                }
            }
        }
        // As Rust's start-up does: a closed pipe is an error to handle
        // (exit 141), not a signal that kills.
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    cli::alloc::init();
    std::process::exit(cli::run())
}
