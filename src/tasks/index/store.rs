//! The index's folder: one writer at a time (a lock), and generations
//! switched atomically (a manifest written last names the one in force).
//!
//! ```text
//! DIR/index.json        {"format": "gamerec-index", "version": 2, "generation": "gen-00000003"}
//! DIR/gen-00000003/     the tables of the generation in force
//! DIR/.lock             held (flock) by the one writer
//! DIR/.index-work…      a writer's tables as they are made (removed by the next writer)
//! ```
//!
//! A writer takes the lock, makes the new tables in its work folder, syncs
//! them, renames the folder to the next generation's name, then writes the
//! manifest beside the old one and renames it over it: until that rename
//! readers see the old generation, after it the new one; a kill at any
//! instant leaves one or the other, whole. Only then are the old
//! generation and any leftovers removed. Readers open every table of the
//! generation the manifest names when they open the index, so a writer
//! removing that generation later does not pull it from under them.
//! An index written before generations (its tables in DIR itself) is read
//! as it is, and moved into a generation by its next writer.

use super::{invalid, postings_file, FILES, GAMES, PARTITIONS, SETUPS, TURNS};
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The manifest's name.
pub const MANIFEST: &str = "index.json";
/// The lock file's name.
pub const LOCK: &str = ".lock";
/// The prefix of a writer's work folder.
pub(crate) const WORK_PREFIX: &str = ".index-work";
/// The prefix of a generation's folder.
const GENERATION_PREFIX: &str = "gen-";
/// The manifest's `format`.
const FORMAT: &str = "gamerec-index";
/// The manifest's `version`.
const VERSION: u64 = 2;
/// The largest manifest read (it is a line).
const MANIFEST_BYTES: u64 = 4096;

/// Every table of a generation, by name.
pub(crate) fn table_names() -> Vec<String> {
    let mut names = [GAMES, TURNS, FILES, SETUPS].map(String::from).to_vec();
    names.extend((0..PARTITIONS).map(postings_file));
    names
}

/// Where an index's tables are: the generation its manifest names, or
/// the folder itself for an index written before generations; `None`
/// where the folder holds no index.
pub(crate) fn tables_dir(dir: &Path) -> io::Result<Option<PathBuf>> {
    match generation(dir)? {
        Some(name) => Ok(Some(dir.join(name))),
        None if is_legacy(dir) => Ok(Some(dir.to_path_buf())),
        None => Ok(None),
    }
}

/// The generation the manifest names (`None`: no manifest).
fn generation(dir: &Path) -> io::Result<Option<String>> {
    let path = dir.join(MANIFEST);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(named(&path, e)),
    };
    let mut text = String::new();
    io::Read::read_to_string(&mut io::Read::take(file, MANIFEST_BYTES), &mut text)
        .map_err(|e| named(&path, e))?;
    let damaged = |why: &str| {
        named(
            &path,
            invalid(format!("not a gamerec index manifest: {why}")),
        )
    };
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| damaged(&e.to_string()))?;
    if v["format"] != FORMAT {
        return Err(damaged("its format is not gamerec-index"));
    }
    match v["version"].as_u64() {
        Some(VERSION) => {}
        Some(n) => {
            return Err(damaged(&format!(
                "version {n}; this gamerec reads {VERSION}"
            )))
        }
        None => return Err(damaged("no version")),
    }
    let name = v["generation"]
        .as_str()
        .ok_or_else(|| damaged("no generation"))?;
    let number = name.strip_prefix(GENERATION_PREFIX).unwrap_or("");
    if number.len() != 8 || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(damaged("a generation that is not gen-NNNNNNNN"));
    }
    Ok(Some(name.to_string()))
}

/// Whether `name` is a generation's: `gen-` and eight digits.
fn is_generation_name(name: &str) -> bool {
    name.strip_prefix(GENERATION_PREFIX)
        .is_some_and(|n| n.len() == 8 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// An index of before generations: its four tables in the folder itself.
fn is_legacy(dir: &Path) -> bool {
    [GAMES, FILES, TURNS, SETUPS]
        .iter()
        .all(|n| dir.join(n).is_file())
}

/// Whether `dir` may be written as an index: missing, empty, or holding
/// an index (a folder of other files is not gamerec's to write into).
pub(crate) fn may_write(dir: &Path) -> io::Result<()> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if dir.join(MANIFEST).is_file() || is_legacy(dir) {
        return Ok(());
    }
    // A lock, and what a first writer leaves before its manifest names
    // its generation: its work folder, the generation it renamed that to,
    // the manifest's temporary. A writer may be between those steps now,
    // or killed there; `clean` removes them under the lock.
    let ours = |name: &str| {
        name == LOCK
            || name.starts_with(WORK_PREFIX)
            || is_generation_name(name)
            || name.strip_suffix(".new") == Some(MANIFEST)
    };
    for e in entries {
        if !ours(&e?.file_name().to_string_lossy()) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "not a gamerec index, and not empty: give a new or empty folder \
                 (gamerec writes an index only where it wrote one)",
            ));
        }
    }
    Ok(())
}

/// The writer's lock on an index folder: held until dropped.
pub struct Lock {
    _file: File,
}

impl Lock {
    /// Takes the lock on `dir`; where another writer holds it, `waiting`
    /// is called once and the lock is waited for.
    pub fn take(dir: &Path, waiting: &mut dyn FnMut()) -> io::Result<Lock> {
        let path = dir.join(LOCK);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| named(&path, e))?;
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(named(&path, e));
            }
            waiting();
            // SAFETY: as above; blocks until the other writer is done.
            while unsafe { libc::flock(fd, libc::LOCK_EX) } != 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(named(&path, e));
                }
            }
        }
        Ok(Lock { _file: file })
    }
}

/// Removes what earlier writers left (work folders, generations the
/// manifest does not name); called with the lock held.
pub(crate) fn clean(dir: &Path) -> io::Result<()> {
    let keep = generation(dir)?;
    for e in fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        let stale = name.starts_with(WORK_PREFIX)
            || (name.starts_with(GENERATION_PREFIX) && Some(&name) != keep.as_ref());
        if stale && e.file_type()?.is_dir() {
            fs::remove_dir_all(e.path())?;
        } else if name == format!("{MANIFEST}.new") {
            fs::remove_file(e.path())?;
        }
    }
    Ok(())
}

/// Syncs every file of `work`, renames it to the next generation, writes
/// the manifest naming it (a temporary renamed over the old), then removes
/// the old generation (or an index's tables of before generations).
/// `fault` is called between the steps (a test's kill).
pub fn switch(dir: &Path, work: &Path, fault: &dyn Fn(&str)) -> io::Result<()> {
    for e in fs::read_dir(work)? {
        File::open(e?.path())?.sync_all()?;
    }
    sync_dir(work)?;
    fault("tables-written");
    let old = generation(dir)?;
    let legacy = old.is_none() && is_legacy(dir);
    let next = old
        .as_deref()
        .and_then(|n| n.strip_prefix(GENERATION_PREFIX)?.parse::<u64>().ok())
        .map_or(1, |n| n + 1);
    let name = format!("{GENERATION_PREFIX}{next:08}");
    fs::rename(work, dir.join(&name))?;
    sync_dir(dir)?;
    fault("generation-renamed");
    let manifest = serde_json::json!({"format": FORMAT, "version": VERSION, "generation": name});
    let temp = dir.join(format!("{MANIFEST}.new"));
    {
        let mut f = File::create(&temp)?;
        writeln!(f, "{manifest}")?;
        f.sync_all()?;
    }
    fault("manifest-written");
    fs::rename(&temp, dir.join(MANIFEST))?;
    sync_dir(dir)?;
    fault("manifest-renamed");
    if let Some(old) = old {
        fs::remove_dir_all(dir.join(old))?;
    }
    if legacy {
        for table in table_names() {
            fs::remove_file(dir.join(table))?;
        }
    }
    Ok(())
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// An error that names the file it is about.
pub fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
