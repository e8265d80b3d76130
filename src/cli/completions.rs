//! `gamerec completions SHELL` and `gamerec man`: a shell's completion
//! script and the manual page, generated from the one command-line
//! definition (clap_complete, clap_mangen), so they never fall behind it.

use super::messages;
use std::io::{self, Write};

#[derive(clap::Args)]
#[command(after_help = "Install, e.g. for bash: \
`gamerec completions bash > ~/.local/share/bash-completion/completions/gamerec`; \
zsh: into a folder of $fpath as `_gamerec`; fish: `~/.config/fish/completions/gamerec.fish`.")]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(clap::Args)]
#[command(after_help = "Read it with `gamerec man | man -l -`, or install it: \
`gamerec man > ~/.local/share/man/man1/gamerec.1`. With a subcommand, that \
subcommand's page (`gamerec man validate` is gamerec-validate(1)).")]
pub struct ManArgs {
    /// A subcommand's page instead of the main one.
    #[arg(value_name = "SUBCOMMAND")]
    subcommand: Option<String>,
}

pub fn run(args: Args) {
    let mut cmd = super::definition();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "gamerec", &mut out);
    messages::finished(io::stdout().lock().write_all(&out));
}

pub fn man(args: ManArgs) {
    let cmd = super::definition();
    let cmd = match &args.subcommand {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone().name(format!("gamerec-{name}")),
            None => {
                messages::error(format!("no subcommand `{name}`"));
                return;
            }
        },
    };
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(cmd).render(&mut out) {
        messages::error(e);
        return;
    }
    messages::finished(io::stdout().lock().write_all(&out));
}
