//! Building an index, or adding files to one ([`Builder`]).

use super::merge::{merge_runs, sort, spill, Parts, Run};
use super::read::Index;
use super::store::{self, Lock};
use super::tables::{write_files, write_setups, write_turns, FileOut, GameRowOut, GamesOut};
use super::{invalid, stamp, Posting, TracedGame, Turns, NO_TURN};
use super::{FILES, GAMES, SETUPS, TURNS};
use crate::io::diagnostics::count;
use crate::io::output::temporaries;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Builds an index in a folder, or adds files to the index already there
/// (replacing the games of a file that changed since it was indexed).
pub struct Builder {
    dir: PathBuf,
    /// The writer's lock on `dir`, held to the end.
    _lock: Lock,
    /// The work folder the new generation's tables are made in, on the
    /// list an interruption removes.
    work: PathBuf,
    _registered: temporaries::Listed,
    jobs: usize,
    /// Postings gathered since the last spill, and how many it may hold.
    postings: Vec<Posting>,
    cap: usize,
    /// The other buffer: the run being sorted and written on its own
    /// thread while `postings` fills, then (emptied) the next to fill.
    spilling: Option<Spilling>,
    spare: Vec<Posting>,
    /// The capacity of the other buffer (spilling or spare).
    aside: usize,
    runs: Vec<Run>,
    /// Run files made so far, merged ones included: each gets a name of
    /// its own (a merged run named after the count of runs could once
    /// take the name of the merged run it was being made from).
    made: usize,
    /// The turns' spellings.
    turns: Arc<Turns>,
    games: Option<GamesOut>,
    files: Vec<FileOut>,
    /// The file the games being added belong to.
    current: Option<usize>,
    /// Files whose games are replaced (re-indexed), by number.
    replaced: Vec<u32>,
    /// The index already there (files are being added to it).
    old: Option<Index>,
    /// Each old game's id in the new index ([`DROPPED`]: its file is
    /// re-indexed).
    kept: Vec<u32>,
    /// Games per game type and settings.
    setups: BTreeMap<(String, String), u64>,
    /// The most postings the two buffers had room for.
    most: usize,
}

/// The thread sorting and writing a run: the run, and its buffer back
/// (emptied).
type Spilling = std::thread::JoinHandle<io::Result<(Run, Vec<Posting>)>>;

/// What was built.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub files: usize,
    pub games: u64,
    pub postings: u64,
    /// Bytes of the index's files.
    pub bytes: u64,
    /// The most bytes the two postings buffers took together (at most
    /// `--memory`, or one game's postings where a game alone holds more).
    pub buffer: u64,
}

impl Built {
    /// `gamerec: DIR now holds 2 files, 40 games, 1,234 positions reached
    /// (… bytes, … a position); postings held in memory: at most … MiB
    /// (--memory N)`.
    pub fn summary(&self, dir: &Path, memory: u64) -> String {
        let per = match self.postings {
            0 => String::new(),
            n => format!(", {:.1} bytes a position", self.bytes as f64 / n as f64),
        };
        format!(
            "gamerec: {} now holds {}, {}, {} reached ({} bytes{per}); postings held in memory: \
             at most {:.1} MiB (--memory {memory})",
            dir.display(),
            count(self.files as u64, "file"),
            count(self.games, "game"),
            count(self.postings, "position"),
            self.bytes,
            self.buffer as f64 / f64::from(1 << 20),
        )
    }
}

/// The largest `memory` a builder takes (64 GiB).
pub(crate) const MAX_MEMORY: usize = 64 << 30;

impl Builder {
    /// Starts an index in `dir` (made if missing), or adding to the one
    /// there; `memory` bytes of postings at most are held: two buffers of
    /// half of it, one filling while the other's run is sorted and written
    /// on a thread of its own; the merge runs on `jobs` threads. A folder
    /// that holds other files than an index's is refused; where another
    /// writer holds the folder, `waiting` is called and its end waited for.
    pub fn create(
        dir: &Path,
        memory: usize,
        jobs: usize,
        waiting: &mut dyn FnMut(),
    ) -> io::Result<Builder> {
        if memory == 0 || memory > MAX_MEMORY {
            return Err(invalid(format!(
                "a memory of {memory} bytes: give 1 MiB to {} GiB",
                MAX_MEMORY >> 30
            )));
        }
        store::may_write(dir)?;
        std::fs::create_dir_all(dir)?;
        let lock = Lock::take(dir, waiting)?;
        // Another writer may have made it an index, or left it otherwise.
        store::may_write(dir)?;
        store::clean(dir)?;
        let old = match store::tables_dir(dir)? {
            Some(_) => Some(Index::open(dir)?),
            None => None,
        };
        let (work, registered) = temporaries::create(
            || {
                tempfile::Builder::new()
                    .prefix(store::WORK_PREFIX)
                    .tempdir_in(dir)
                    .map(tempfile::TempDir::keep)
            },
            PathBuf::clone,
            true,
        )?;
        let (mut turns, mut files, mut setups) = (Vec::new(), Vec::new(), BTreeMap::new());
        if let Some(old) = &old {
            turns = old.turn_texts()?;
            files = old.files().iter().map(FileOut::from).collect();
            setups = old
                .setups()?
                .into_iter()
                .map(|(g, s, n)| ((g, s), n))
                .collect();
        }
        let cap = memory / 2 / std::mem::size_of::<Posting>();
        Ok(Builder {
            dir: dir.to_path_buf(),
            _lock: lock,
            work,
            _registered: registered,
            jobs: jobs.max(1),
            postings: Vec::new(),
            cap: cap.max(1024),
            spilling: None,
            spare: Vec::new(),
            aside: 0,
            runs: Vec::new(),
            made: 0,
            turns: Arc::new(Turns::new(turns)),
            games: None,
            files,
            current: None,
            replaced: Vec::new(),
            old,
            kept: Vec::new(),
            setups,
            most: 0,
        })
    }

    /// The turns' dictionary, for [`super::trace`] on the workers.
    pub fn turns(&self) -> Arc<Turns> {
        self.turns.clone()
    }

    /// The number of the file at `path` in the index, if it is there.
    fn number(&self, path: &Path) -> Option<usize> {
        let abs = absolute(path);
        self.files.iter().position(|f| f.path == abs)
    }

    /// Whether the file at `path` is in the index already.
    pub fn holds(&self, path: &Path) -> bool {
        self.number(path).is_some()
    }

    /// Whether the file at `path`, in the index already, changed since it
    /// was indexed (its size or time).
    pub fn changed(&self, path: &Path) -> bool {
        self.number(path).is_some_and(|i| {
            let f = &self.files[i];
            stamp(path) != (f.bytes, f.modified)
        })
    }

    /// Begins: the old index's games are carried into the new one, less
    /// those of the files at `replace` (in the index, changed: their games
    /// are read again and take the old ones' place).
    pub fn begin(&mut self, replace: &[PathBuf]) -> io::Result<()> {
        self.replaced = replace
            .iter()
            .filter_map(|p| self.number(p))
            .map(|i| i as u32)
            .collect();
        let mut games = GamesOut::create(&self.work.join(GAMES))?;
        if let Some(old) = &self.old {
            let (kept, dropped) = (&mut self.kept, &self.replaced);
            let mut gone: Vec<(String, String)> = Vec::new();
            old.each_games_batch(&mut |b| games.carry(b, dropped, kept, &mut gone))?;
            for key in gone {
                if let Some(n) = self.setups.get_mut(&key) {
                    *n = n.saturating_sub(1);
                }
            }
            self.setups.retain(|_, n| *n > 0);
        }
        for &f in &self.replaced {
            self.files[f as usize].games = 0;
        }
        self.games = Some(games);
        Ok(())
    }

    /// Starts the games of an archive (its name as given): a file being
    /// re-indexed keeps its number.
    pub fn file(&mut self, name: &str, path: Option<&Path>) -> io::Result<()> {
        self.file_digested(name, path, None)
    }

    /// Starts standard input (copied to `path`, with its content's
    /// digest, [`super::content_digest`]): told apart from another
    /// standard input by its digest, not its path.
    pub fn stdin(&mut self, path: &Path, digest: u64) -> io::Result<()> {
        let bytes = std::fs::metadata(path)?.len();
        self.file_digested("<stdin>", None, Some(digest))?;
        if let Some(f) = self.current.and_then(|i| self.files.get_mut(i)) {
            f.bytes = Some(bytes);
        }
        Ok(())
    }

    /// The standard input indexed before with this content digest: its
    /// number among the files.
    pub fn holds_stdin(&self, digest: u64) -> Option<usize> {
        self.files.iter().position(|f| f.digest == Some(digest))
    }

    fn file_digested(
        &mut self,
        name: &str,
        path: Option<&Path>,
        digest: Option<u64>,
    ) -> io::Result<()> {
        let (bytes, modified) = path.map_or((None, None), stamp);
        let again = path
            .and_then(|p| self.number(p))
            .filter(|&i| self.replaced.contains(&(i as u32)));
        let row = FileOut {
            name: name.to_string(),
            path: path.map_or(String::new(), absolute),
            bytes,
            modified,
            games: 0,
            digest,
        };
        match again {
            Some(i) => {
                self.files[i] = row;
                self.current = Some(i);
            }
            None => {
                u32::try_from(self.files.len()).map_err(|_| invalid("too many files"))?;
                self.files.push(row);
                self.current = Some(self.files.len() - 1);
            }
        }
        Ok(())
    }

    /// Adds game `index` (1-based) of the archive last started.
    pub fn add(&mut self, index: usize, entry: TracedGame) -> io::Result<()> {
        let file = self.current.ok_or_else(|| invalid("no file started"))?;
        self.files[file].games += 1;
        let TracedGame {
            game,
            players,
            settings,
            tags,
            traced,
            turn_ids,
            error,
            place,
            digest,
            ..
        } = entry;
        let row = GameRowOut {
            file: file as u32,
            index: u32::try_from(index).map_err(|_| invalid("too many games in a file"))?,
            game,
            players,
            finish: super::finish_name(traced.finish),
            plies: traced.keys.len().saturating_sub(1) as u32,
            error: error.map(|p| p.message),
            place,
            digest,
            settings,
            tags,
            turns: traced.turns,
        };
        if let Some(g) = game {
            *self
                .setups
                .entry((g.to_string(), row.settings.clone()))
                .or_insert(0) += 1;
        }
        let games = self
            .games
            .as_mut()
            .ok_or_else(|| invalid("the index is not begun, or finished"))?;
        let id = games.push(row)?;
        self.set_aside()?;
        // Spilled before the game's postings would pass the cap, so the
        // buffer never grows past what --memory sets aside (a game longer
        // than the cap on its own still fits: memory by the record cap).
        if !self.postings.is_empty() && self.postings.len() + traced.keys.len() > self.cap {
            self.spill()?;
            self.set_aside()?;
        }
        for (ply, &key) in traced.keys.iter().enumerate() {
            let turn = turn_ids.get(ply).copied().unwrap_or(NO_TURN);
            let ply = ply as u32;
            self.postings.push(Posting { key, id, ply, turn });
        }
        self.most = self.most.max(self.postings.capacity() + self.aside);
        if self.postings.len() >= self.cap {
            self.spill()?;
        }
        Ok(())
    }

    /// Sets the buffer's room aside before its first posting (a buffer
    /// left to grow by doubling would pass its half of `--memory`).
    fn set_aside(&mut self) -> io::Result<()> {
        if self.postings.capacity() == 0 {
            // At most 1 GiB set aside at once; more as it fills.
            let first = self.cap.min((1 << 30) / std::mem::size_of::<Posting>());
            self.postings
                .try_reserve_exact(first)
                .map_err(|_| invalid(format!("no memory for {first} postings")))?;
        }
        Ok(())
    }

    /// Hands the postings gathered to a thread that sorts them and writes
    /// them as a run, and goes on with the other buffer (once the run
    /// before is written).
    fn spill(&mut self) -> io::Result<()> {
        self.settle()?;
        let full = std::mem::replace(&mut self.postings, std::mem::take(&mut self.spare));
        self.aside = full.capacity();
        let path = self.run_path();
        let thread = std::thread::Builder::new().name("index spill".into());
        let spilling = thread.spawn(move || {
            let mut full = full;
            let run = spill(&mut full, path)?;
            full.clear();
            Ok((run, full))
        })?;
        self.spilling = Some(spilling);
        Ok(())
    }

    /// A new run file's path in the work folder.
    fn run_path(&mut self) -> PathBuf {
        self.made += 1;
        self.work.join(format!("run-{}", self.made))
    }

    /// Waits for the run being written, if any, and takes it among the
    /// runs (its buffer becomes the spare); past [`FAN_IN`] runs, the
    /// oldest are merged into one first (so that merging never holds more
    /// than that many files open).
    fn settle(&mut self) -> io::Result<()> {
        let Some(spilling) = self.spilling.take() else {
            return Ok(());
        };
        let (run, buffer) = spilling
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the spill thread failed")))?;
        self.spare = buffer;
        self.runs.push(run);
        if self.runs.len() >= FAN_IN {
            let path = self.run_path();
            let merged = merge_runs(&self.runs, path)?;
            for r in self.runs.drain(..) {
                std::fs::remove_file(&r.path)?;
            }
            self.runs.push(merged);
        }
        Ok(())
    }

    /// Merges and writes everything, then switches the index to the new
    /// generation (store::switch): readers see the old index or the new,
    /// never a mix.
    pub fn finish(mut self) -> io::Result<Built> {
        if self.games.is_none() {
            self.begin(&[])?;
        }
        self.settle()?;
        self.spare = Vec::new();
        sort(&mut self.postings);
        let out = self
            .games
            .take()
            .ok_or_else(|| invalid("the index is finished"))?;
        let games = out.next;
        out.finish()?;
        // Turn numbers in the order of their spellings: the same index
        // whatever order the threads met them in.
        let (texts, renumber) = self.turns.renumbering();
        let work = self.work.clone();
        let parts = Parts {
            old: self.old.as_ref(),
            kept: &self.kept,
            runs: &self.runs,
            postings: &self.postings,
        };
        let total = parts.merge_all(self.jobs, &work, &renumber)?;
        write_turns(&work.join(TURNS), texts.iter().map(String::as_str))?;
        write_files(&work.join(FILES), &self.files)?;
        write_setups(&work.join(SETUPS), &self.setups)?;
        for r in self.runs.drain(..) {
            std::fs::remove_file(&r.path)?;
        }
        let mut bytes = 0;
        for name in store::table_names() {
            bytes += std::fs::metadata(work.join(name))?.len();
        }
        store::switch(&self.dir, &work, &fault)?;
        Ok(Built {
            files: self.files.len(),
            games: u64::from(games),
            postings: total,
            bytes,
            buffer: (self.most * std::mem::size_of::<Posting>()) as u64,
        })
    }
}

impl Drop for Builder {
    /// A builder dropped before its switch (an error) removes its work
    /// folder; after the switch the folder is the new generation's, under
    /// another name, and nothing is removed.
    fn drop(&mut self) {
        // A run still being written is waited for: it writes in the folder.
        if let Some(spilling) = self.spilling.take() {
            let _ = spilling.join();
        }
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

/// Runs the merge of spilled runs can hold open at once.
pub(crate) const FAN_IN: usize = 32;

/// A test's kill between the steps of the switch: with
/// `GAMEREC_TEST_KILL_AT=STEP` the process kills itself (SIGKILL) there —
/// how the tests show that a kill at any step loses nothing.
fn fault(step: &str) {
    if std::env::var_os("GAMEREC_TEST_KILL_AT").is_some_and(|s| s == step) {
        // SAFETY: kill and getpid have no preconditions.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}

/// A path made absolute (the index is read from other folders).
pub(crate) fn absolute(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::walk::Traced;
    use rand_core::Rng;

    /// `games` games of 150 positions each, keys drawn from a few thousand
    /// (so that positions repeat across games, as openings do).
    fn build(
        dir: &Path,
        memory: usize,
        jobs: usize,
        games: usize,
    ) -> (Built, Vec<(String, Vec<u8>)>) {
        let mut b = Builder::create(dir, memory, jobs, &mut || {}).unwrap();
        b.begin(&[]).unwrap();
        b.file("games.grec", None).unwrap();
        let mut rng = gamerec_rules::random::stream(5, 1);
        for g in 0..games {
            let keys: Vec<u64> = (0..150)
                .map(|_| (rng.next_u64() % 3000).wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            let turns = (0..149).map(|t| format!("t{}", t % 7)).collect::<Vec<_>>();
            let ids = turns.iter().map(|t| b.turns().id(t)).collect();
            let entry = TracedGame {
                game: Some("oshi"),
                traced: Traced {
                    keys,
                    turns: turns.join(" "),
                    ..Traced::default()
                },
                turn_ids: ids,
                ..TracedGame::default()
            };
            b.add(g + 1, entry).unwrap();
        }
        let built = b.finish().unwrap();
        let tables = store::tables_dir(dir).unwrap().unwrap();
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&tables)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        (built, files)
    }

    #[test]
    fn runs_spilled_on_their_thread_and_merged_past_fan_in_make_the_same_index() {
        let tmp = tempfile::tempdir().unwrap();
        let games = 700; // 105,000 postings
        let (whole, expected) = build(&tmp.path().join("whole"), 64 << 20, 1, games);
        assert_eq!(whole.postings, 105_000);
        assert!(expected.iter().any(|(n, _)| n == "postings-00.parquet"));
        // Buffers of 1,600 postings (ten games a run, spilled before the
        // eleventh would pass it; not a power of two, so a buffer left to
        // grow by doubling would pass its half): 70 runs, so runs are merged into one twice on the way (the second
        // merge once wrote over the first's file, which it was reading), on
        // one thread and on three.
        let memory = 2 * 1600 * std::mem::size_of::<Posting>();
        for jobs in [1, 3] {
            let dir = tmp.path().join(format!("small-{jobs}"));
            let (built, files) = build(&dir, memory, jobs, games);
            assert_eq!(built.postings, 105_000);
            assert!(built.buffer <= memory as u64, "{} > {memory}", built.buffer);
            assert!(
                files == expected,
                "the index built in runs differs (jobs {jobs})"
            );
        }
    }
}
