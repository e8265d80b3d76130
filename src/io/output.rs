//! Where output goes: `-o FILE` written through a temporary file beside it
//! and renamed into place at the end (never over an input: [`Output::is`]
//! tells a walk which file to refuse), or standard output, escaped for a
//! terminal; and the list of gamerec's temporaries on disk, which an
//! interruption removes ([`temporaries`]).

use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file's identity: the same file has the same one whatever path (or
/// link) reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FileId(u64, u64);

#[cfg(unix)]
pub(crate) fn file_id(meta: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
pub(crate) fn file_id(_: &Metadata) -> Option<FileId> {
    None
}

/// `-o FILE`, or stdout.
pub struct Output {
    path: Option<PathBuf>,
    /// The file it names, when it exists.
    id: Option<FileId>,
    /// It exists and is not a regular file (a device, a pipe): written in
    /// place, not through a temporary file.
    special: bool,
}

impl Output {
    pub fn new(path: Option<&Path>) -> Output {
        let meta = path.and_then(|p| std::fs::metadata(p).ok());
        Output {
            path: path.map(Path::to_path_buf),
            id: meta.as_ref().and_then(file_id),
            special: meta.is_some_and(|m| !m.is_file()),
        }
    }

    /// Whether `path` (a candidate input) is this output.
    pub fn is(&self, path: &Path, meta: &Metadata) -> bool {
        match (self.id, file_id(meta)) {
            (Some(a), Some(b)) => a == b,
            _ => self.path.as_deref().is_some_and(|o| {
                o == path
                    || (std::fs::canonicalize(o).ok())
                        .is_some_and(|c| std::fs::canonicalize(path).ok() == Some(c))
            }),
        }
    }

    /// Whether `other` writes to the same file as this output: the same
    /// file where both exist, else the same path once their folders are
    /// resolved (`sub/../x.grec` is `x.grec`).
    pub fn same_as(&self, other: &Output) -> bool {
        let (Some(a), Some(b)) = (&self.path, &other.path) else {
            return false;
        };
        if let (Some(x), Some(y)) = (self.id, other.id) {
            return x == y;
        }
        let resolved = |p: &Path| -> PathBuf {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            match (std::fs::canonicalize(dir), p.file_name()) {
                (Ok(d), Some(name)) => d.join(name),
                _ => p.to_path_buf(),
            }
        };
        resolved(a) == resolved(b)
    }

    /// The path named, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the output is stdout on a terminal.
    pub fn is_terminal(&self) -> bool {
        use std::io::IsTerminal;
        self.path.is_none() && io::stdout().is_terminal()
    }

    /// Opens the output for writing: stdout, or a temporary file beside
    /// the named one (renamed into place by [`Writer::commit`], and on the
    /// list of [`temporaries`] until then). A failure names the file asked
    /// for.
    pub fn create(&self) -> io::Result<Writer> {
        let Some(path) = &self.path else {
            return Ok(Writer {
                out: io::BufWriter::with_capacity(1 << 16, Box::new(io::stdout())),
                temp: None,
                terminal: self.is_terminal().then(Vec::new),
            });
        };
        let file: io::Result<(Box<dyn Write + Send>, Option<Temporary>)> = if self.special {
            File::create(path).map(|f| (Box::new(f) as Box<dyn Write + Send>, None))
        } else {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let mut builder = tempfile::Builder::new();
            builder.prefix(".gamerec-").suffix(".part");
            #[cfg(unix)]
            {
                // Readable by its owner alone while it is written; given
                // its final mode at the end (the replaced file's, or a new
                // file's: 0666 less the umask).
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o600));
            }
            // On the list of temporaries an interruption removes.
            temporaries::create(
                || builder.tempfile_in(dir),
                |t| t.path().to_path_buf(),
                false,
            )
            .map(|(t, registered)| {
                let (file, temp) = t.into_parts();
                (
                    Box::new(file) as Box<dyn Write + Send>,
                    Some((temp, path.clone(), registered)),
                )
            })
        };
        match file {
            Ok((out, temp)) => Ok(Writer {
                out: io::BufWriter::with_capacity(1 << 16, out),
                temp,
                terminal: None,
            }),
            // Said of the file asked for: the temporary's own name
            // (tempfile's message carries it) means nothing to the user.
            Err(e) => {
                let e = without_temporary_name(e);
                Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())))
            }
        }
    }
}

/// `e` without the path tempfile adds to its message (`… at path
/// "/d/.gamerec-pjhZ61.part"`): the system's own message.
fn without_temporary_name(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.rsplit_once(" at path \"") {
        Some((message, _)) => io::Error::new(e.kind(), message.to_string()),
        None => e,
    }
}

/// A temporary file, where it goes at the end, and its place on the list
/// of temporaries an interruption removes (left after the file).
type Temporary = (tempfile::TempPath, PathBuf, temporaries::Listed);

/// An output being written.
pub struct Writer {
    out: io::BufWriter<Box<dyn Write + Send>>,
    temp: Option<Temporary>,
    /// Stdout is a terminal: control characters and bidirectional
    /// controls are written escaped (as `ls` does), never in files or
    /// pipes. Holds the start of a UTF-8 sequence cut by a write.
    terminal: Option<Vec<u8>>,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.terminal {
            None => self.out.write_all(buf),
            Some(pending) => {
                pending.extend_from_slice(buf);
                let keep = escape_for_terminal(pending, &mut self.out, false)?;
                pending.drain(..pending.len() - keep);
                Ok(())
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        if let Some(pending) = &mut self.terminal {
            escape_for_terminal(pending, &mut self.out, true)?;
            pending.clear();
        }
        self.out.flush()
    }
}

/// Writes `bytes` to `out` with every control character but a line break
/// and a tab, every bidirectional control, and every byte that is not
/// UTF-8 escaped (`\u{1b}`, `\x9b`). Returns how many bytes at the end were
/// held back, being the start of a sequence that may go on (unless `end`).
pub(crate) fn escape_for_terminal(
    bytes: &[u8],
    out: &mut dyn Write,
    end: bool,
) -> io::Result<usize> {
    let mut chunks = bytes.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        let mut rest = chunk.valid();
        while let Some(i) = rest.find(|c: char| {
            (c.is_control() || crate::io::diagnostics::is_bidi(c)) && c != '\n' && c != '\t'
        }) {
            out.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().expect("found");
            write!(out, "\\u{{{:x}}}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        out.write_all(rest.as_bytes())?;
        let bad = chunk.invalid();
        // The last invalid piece, shorter than a character, may be cut.
        if !end && chunks.peek().is_none() && !bad.is_empty() && bad.len() < 4 {
            let held = bytes.len() - (bad.as_ptr() as usize - bytes.as_ptr() as usize);
            if std::str::from_utf8(&bytes[bytes.len() - held..])
                .is_err_and(|e| e.error_len().is_none())
            {
                return Ok(held);
            }
        }
        for b in bad {
            write!(out, "\\x{b:02x}")?;
        }
    }
    Ok(0)
}

impl Writer {
    /// Flushes the output and puts a file written through a temporary one
    /// in place. Dropped without this,
    /// the temporary file is removed: a failed run leaves no half-written
    /// output.
    pub fn commit(mut self) -> io::Result<()> {
        Write::flush(&mut self)?;
        if let Some((temp, path, _registered)) = self.temp.take() {
            // A file written over keeps its permissions; a new one gets
            // a new file's.
            match std::fs::metadata(&path) {
                Ok(m) => std::fs::set_permissions(&temp, m.permissions())?,
                Err(_) => set_new_file_mode(&temp)?,
            }
            temp.persist(&path).map_err(|e| e.error)?;
        }
        Ok(())
    }
}

/// Gives `path` the mode a newly created file would have: 0666 less the
/// umask (read from /proc/self/status; 022 where it cannot be).
fn set_new_file_mode(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let umask = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("Umask:"))?;
                u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
            })
            .unwrap_or(0o022);
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666 & !umask))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// gamerec's temporaries on disk — `-o`'s `.gamerec-XXXX.part` file, a
/// shard's `.gamerec-shards-XXXX` staging folder — each created with the
/// list locked ([`create`]), so that none is ever on disk and not on it:
/// a signal's handler (the command line's) removes them all before the
/// process ends ([`remove_all_and`]).
pub mod temporaries {
    use std::io;
    use std::path::PathBuf;
    use std::sync::{Mutex, MutexGuard};

    /// The temporaries on disk: an id, the path, whether it is a folder.
    static TEMPORARIES: Mutex<Vec<(u64, PathBuf, bool)>> = Mutex::new(Vec::new());

    pub(super) fn list() -> MutexGuard<'static, Vec<(u64, PathBuf, bool)>> {
        TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Removes a folder other threads may still be writing into: it is moved
    /// aside first (a file they then create by its old path fails), then
    /// removed, again while something they had open still lands in it.
    fn remove_folder(path: &std::path::Path) {
        let mut aside = path.as_os_str().to_owned();
        aside.push(".removing");
        let aside = std::path::PathBuf::from(aside);
        let target = match std::fs::rename(path, &aside) {
            Ok(()) => aside.as_path(),
            Err(_) => path,
        };
        for _ in 0..100 {
            match std::fs::remove_dir_all(target) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    std::thread::sleep(std::time::Duration::from_millis(1))
                }
                _ => return,
            }
        }
    }

    /// A temporary on the list; taken off when dropped (after the temporary
    /// itself was removed or moved into place).
    pub struct Listed(u64);

    impl Drop for Listed {
        fn drop(&mut self) {
            list().retain(|(id, _, _)| *id != self.0);
        }
    }

    /// Makes a temporary with `make` (`dir`: a folder) and puts it on the list
    /// in one step.
    pub fn create<T>(
        make: impl FnOnce() -> io::Result<T>,
        path: impl FnOnce(&T) -> PathBuf,
        dir: bool,
    ) -> io::Result<(T, Listed)> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut list = list();
        let made = make()?;
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        list.push((id, path(&made), dir));
        Ok((made, Listed(id)))
    }

    /// Removes every temporary on the list, then runs `end` (which ends
    /// the process) with the list still locked: none is created after.
    pub fn remove_all_and(end: impl FnOnce()) {
        let list = list();
        for (_, path, dir) in list.iter() {
            match dir {
                true => remove_folder(path),
                false => {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
        end()
    }
}

#[cfg(test)]
mod tests {
    use super::escape_for_terminal;

    fn escaped(pieces: &[&[u8]]) -> String {
        let (mut out, mut pending) = (Vec::new(), Vec::new());
        for piece in pieces {
            pending.extend_from_slice(piece);
            let keep = escape_for_terminal(&pending, &mut out, false).unwrap();
            pending.drain(..pending.len() - keep);
        }
        escape_for_terminal(&pending, &mut out, true).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn data_to_a_terminal_has_its_controls_escaped_even_when_cut_between_writes() {
        let text = "[Event \"a\u{1b}]0;x\u{7}b\u{202e}c\u{9b}\"]\n\té\n".as_bytes();
        let want = "[Event \"a\\u{1b}]0;x\\u{7}b\\u{202e}c\\u{9b}\"]\n\té\n";
        assert_eq!(escaped(&[text]), want);
        // Cut at every byte: the same.
        for at in 0..text.len() {
            assert_eq!(escaped(&[&text[..at], &text[at..]]), want, "cut at {at}");
        }
        // A byte that is not UTF-8 is shown as its value.
        assert_eq!(escaped(&[b"a\x9bb", b"\xff"]), "a\\x9bb\\xff");
    }
}
