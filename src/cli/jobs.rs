//! `--jobs N`: how many threads replay games.

use super::messages;

#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Jobs {
    /// Threads that replay games (default, or 0: one per core; 1 runs
    /// everything on the main thread, reporting each game as it is read; at
    /// most 4 per core).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
}

impl Jobs {
    /// Sets the pipeline's width from `--jobs` (clamped, with a note, to 4
    /// threads per core) and returns it.
    pub fn init(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let ceiling = 4 * cores;
        let n = match self.jobs {
            None | Some(0) => cores,
            Some(n) if n > ceiling => {
                messages::note(format!(
                    "--jobs {n} is more than 4 threads per core: using {ceiling}"
                ));
                ceiling
            }
            Some(n) => n,
        };
        gamerec::pipeline::set_jobs(n);
        n
    }
}
