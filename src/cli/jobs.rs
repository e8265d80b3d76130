//! `--jobs N`: how many threads replay games.

use rayon::ThreadPoolBuilder;

#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Jobs {
    /// Threads to use (default: one per core; 1 runs everything on the
    /// main thread).
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
}

impl Jobs {
    /// The number of threads: as given, or one per core.
    pub fn count(&self) -> usize {
        match self.jobs {
            Some(n) if n > 0 => n,
            _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// Makes the global thread pool [`Jobs::count`] threads wide (once per
    /// process, before any parallel work).
    pub fn init(&self) -> Result<(), i32> {
        ThreadPoolBuilder::new()
            .num_threads(self.count())
            .build_global()
            .map_err(|e| {
                eprintln!("gamerec: cannot start {} threads: {e}", self.count());
                super::EXIT_TROUBLE
            })
    }
}
