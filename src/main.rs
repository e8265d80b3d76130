//! The `gamerec` binary: a thin shell over the library.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
