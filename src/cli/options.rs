//! Options several commands share, declared once and flattened into the
//! commands that take them.

use clap::builder::{PossibleValue, PossibleValuesParser};
use gamerec::target::To;
use std::io::{self, IsTerminal};

/// `--color`: when to colour what is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// `auto`: colour only on a terminal, and never when `NO_COLOR` is set
    /// to a non-empty value.
    pub fn enabled(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }

    pub fn for_stdout(self) -> bool {
        self.enabled(io::stdout().is_terminal())
    }

    pub fn for_stderr(self) -> bool {
        self.enabled(io::stderr().is_terminal())
    }
}

/// `--to`'s values: every output format the library writes.
pub(super) fn to_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        To::all()
            .into_iter()
            .map(|(name, help)| PossibleValue::new(name).help(help)),
    )
}
