//! Building an index, or adding files to one ([`Builder`]).

use super::merge::{sort, spill, Parts, Run};
use super::read::Index;
use super::tables::{write_files, write_setups, write_turns, FileOut, GameOut, GamesOut};
use super::{invalid, postings_file, Entry, Posting, Turns, NO_TURN, PARTITIONS};
use super::{FILES, GAMES, SETUPS, TURNS};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Builds an index in a folder, or adds files to the index already there.
pub struct Builder {
    dir: PathBuf,
    work: tempfile::TempDir,
    jobs: usize,
    /// Postings gathered since the last spill, and how many it may hold.
    postings: Vec<Posting>,
    cap: usize,
    runs: Vec<Run>,
    /// The turns' spellings.
    turns: Arc<Turns>,
    games: Option<GamesOut>,
    files: Vec<FileOut>,
    /// The index already there (files are being added to it).
    old: Option<Index>,
    /// Games per game type and settings.
    setups: BTreeMap<(String, String), u64>,
}

/// What was built.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub files: usize,
    pub games: u64,
    pub postings: u64,
    /// Bytes of the index's files.
    pub bytes: u64,
}

impl Builder {
    /// Starts an index in `dir` (made if missing), or adding to the one
    /// there; `memory` bytes of postings are gathered before a run is
    /// spilled; the merge runs on `jobs` threads.
    pub fn create(dir: &Path, memory: usize, jobs: usize) -> io::Result<Builder> {
        std::fs::create_dir_all(dir)?;
        let old = match dir.join(GAMES).exists() {
            true => Some(Index::open(dir)?),
            false => None,
        };
        let work = tempfile::Builder::new()
            .prefix(".index-work")
            .tempdir_in(dir)?;
        let mut games = GamesOut::create(&work.path().join(GAMES))?;
        let (mut turns, mut files, mut setups) = (Vec::new(), Vec::new(), BTreeMap::new());
        if let Some(old) = &old {
            old.each_games_batch(&mut |b| games.copy(b))?;
            turns = old.turn_texts()?;
            files = old.files().iter().map(FileOut::from).collect();
            setups = old
                .setups()?
                .into_iter()
                .map(|(g, s, n)| ((g, s), n))
                .collect();
        }
        Ok(Builder {
            dir: dir.to_path_buf(),
            work,
            jobs: jobs.max(1),
            postings: Vec::new(),
            cap: (memory / std::mem::size_of::<Posting>()).max(1024),
            runs: Vec::new(),
            turns: Arc::new(Turns::new(turns)),
            games: Some(games),
            files,
            old,
            setups,
        })
    }

    /// The turns' dictionary, for [`super::trace`] on the workers.
    pub fn turns(&self) -> Arc<Turns> {
        self.turns.clone()
    }

    /// Whether the file at `path` is in the index already.
    pub fn holds(&self, path: &Path) -> bool {
        let abs = absolute(path);
        self.files.iter().any(|f| f.path == abs)
    }

    /// Starts the games of an archive (its name as given).
    pub fn file(&mut self, name: &str, path: Option<&Path>) -> io::Result<()> {
        let (bytes, modified) = path.map_or((None, None), stamp);
        u32::try_from(self.files.len()).map_err(|_| invalid("too many files"))?;
        self.files.push(FileOut {
            name: name.to_string(),
            path: path.map_or(String::new(), absolute),
            bytes,
            modified,
            games: 0,
        });
        Ok(())
    }

    /// Adds game `index` (1-based) of the archive last started.
    pub fn add(&mut self, index: usize, entry: Entry) -> io::Result<()> {
        let file = self
            .files
            .len()
            .checked_sub(1)
            .ok_or_else(|| invalid("no file started"))?;
        self.files[file].games += 1;
        let Entry {
            game,
            players,
            settings,
            tags,
            traced,
            turn_ids,
            error,
            place,
            ..
        } = entry;
        let row = GameOut {
            file: file as u32,
            index: u32::try_from(index).map_err(|_| invalid("too many games in a file"))?,
            game,
            players,
            finish: super::finish_name(traced.finish),
            plies: traced.keys.len().saturating_sub(1) as u32,
            error: error.map(|p| p.message),
            place,
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
            .ok_or_else(|| invalid("the index is finished"))?;
        let id = games.push(row)?;
        if self.postings.capacity() == 0 {
            self.postings.reserve_exact(self.cap);
        }
        for (ply, &key) in traced.keys.iter().enumerate() {
            let turn = turn_ids.get(ply).copied().unwrap_or(NO_TURN);
            let ply = ply as u32;
            self.postings.push(Posting { key, id, ply, turn });
        }
        if self.postings.len() >= self.cap {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts the postings gathered and writes them as a run.
    fn spill(&mut self) -> io::Result<()> {
        let path = self.work.path().join(format!("run-{}", self.runs.len()));
        self.runs.push(spill(&mut self.postings, path)?);
        self.postings.clear();
        Ok(())
    }

    /// Merges and writes everything, then puts the new files in place.
    pub fn finish(mut self) -> io::Result<Built> {
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
        let work = self.work.path().to_path_buf();
        let parts = Parts {
            old: self.old.as_ref(),
            runs: &self.runs,
            postings: &self.postings,
        };
        let total = parts.merge_all(self.jobs, &work, &renumber)?;
        write_turns(&work.join(TURNS), texts.iter().map(String::as_str))?;
        write_files(&work.join(FILES), &self.files)?;
        write_setups(&work.join(SETUPS), &self.setups)?;
        let mut names = [GAMES, TURNS, FILES, SETUPS].map(String::from).to_vec();
        names.extend((0..PARTITIONS).map(postings_file));
        let mut bytes = 0;
        for name in &names {
            bytes += std::fs::metadata(work.join(name))?.len();
            std::fs::rename(work.join(name), self.dir.join(name))?;
        }
        Ok(Built {
            files: self.files.len(),
            games: u64::from(games),
            postings: total,
            bytes,
        })
    }
}

/// A file's size and modification time (nanoseconds since the epoch).
pub fn stamp(path: &Path) -> (Option<u64>, Option<i64>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return (None, None);
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_nanos()).ok());
    (Some(meta.len()), modified)
}

/// A path made absolute (the index is read from other folders).
pub fn absolute(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned()
}
