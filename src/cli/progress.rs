//! A progress bar on stderr for long runs: only when stderr is a terminal
//! and not `--quiet` (nor, for convert and stats, when their output goes to
//! the same terminal), and only once a run has taken more than a second.
//! It counts the input bytes read (compressed bytes for compressed files).

use gamerec::sources::Source;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Read};
use std::time::Duration;

/// A run shorter than this shows no bar.
const DELAY: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over the bytes of `sources` (a spinner when one is stdin);
    /// nothing when stderr is not a terminal or the run is quiet. Messages
    /// are printed with the bar cleared.
    pub fn for_sources(sources: &[Source], quiet: bool) -> Progress {
        let total = sources.iter().try_fold(0, |sum, s| Some(sum + s.size()?));
        let progress = Progress::new(total, quiet);
        if let Some(bar) = progress.bar.clone() {
            super::messages::set_suspend(Some(Box::new(move |f| {
                if bar.is_hidden() {
                    f()
                } else {
                    bar.suspend(f)
                }
            })));
        }
        progress
    }

    /// A bar over `total` bytes (a spinner when unknown, as for stdin);
    /// nothing when stderr is not a terminal or the run is quiet.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        if quiet || !io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden())
                .with_style(
                    ProgressStyle::with_template(
                        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                    )
                    .expect("a valid template"),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(
                ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}")
                    .expect("a valid template"),
            ),
        };
        Progress { bar: Some(bar) }
    }

    /// No bar.
    pub fn none() -> Progress {
        Progress { bar: None }
    }

    /// `raw`, counting what is read from it on the bar.
    pub fn count(&self, raw: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
        match &self.bar {
            None => raw,
            Some(bar) => Box::new(Counted {
                inner: raw,
                bar: bar.clone(),
            }),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            super::messages::set_suspend(None);
        }
    }
}

struct Counted {
    inner: Box<dyn Read + Send>,
    bar: ProgressBar,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        if self.bar.is_hidden() && self.bar.elapsed() > DELAY {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        Ok(n)
    }
}
