//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: gamerec's own temporaries — `-o`'s
//! `.gamerec-XXXX.part` file, a shard's `.gamerec-shards-XXXX` staging
//! folder — are removed before the process ends, with the shell's code for
//! the signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
//!
//! The signals are blocked in every thread ([`install`] runs before any
//! thread is started, and threads inherit the mask) and taken by one thread
//! of ours with `sigwait`: it works outside a signal handler, so it may
//! lock the list of temporaries and remove files and folders. A temporary
//! is created with the list locked ([`create`]), so none is ever on disk
//! and not on the list; once the signal thread has the list it keeps it,
//! so none is created after it looked.

use std::io;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The temporaries on disk: an id, the path, whether it is a folder.
static TEMPORARIES: Mutex<Vec<(u64, PathBuf, bool)>> = Mutex::new(Vec::new());

fn list() -> MutexGuard<'static, Vec<(u64, PathBuf, bool)>> {
    TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Blocks the signals and starts the thread that takes them. Call it
/// before any other thread is started.
pub fn install() {
    #[cfg(unix)]
    // SAFETY: plain signal-mask calls on a zeroed, then filled, sigset_t.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut before);
        let taker = std::thread::Builder::new()
            .name("gamerec-signals".into())
            .spawn(move || loop {
                let mut sig = 0;
                if libc::sigwait(&set, &mut sig) == 0 {
                    clean_up_and_exit(sig);
                }
            });
        if taker.is_err() {
            // No thread to take them: the signals act as they did.
            libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
        }
    }
}

#[cfg(unix)]
fn clean_up_and_exit(sig: libc::c_int) -> ! {
    let list = list();
    for (_, path, dir) in list.iter() {
        match dir {
            true => remove_folder(path),
            false => {
                let _ = std::fs::remove_file(path);
            }
        }
    }
    // SAFETY: ends the process at once, as the signal would have; the
    // list stays locked until then.
    unsafe { libc::_exit(128 + sig) }
}

/// Removes a folder other threads may still be writing into: it is moved
/// aside first (a file they then create by its old path fails), then
/// removed, again while something they had open still lands in it.
#[cfg(unix)]
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
pub struct Registered(u64);

impl Drop for Registered {
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
) -> io::Result<(T, Registered)> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut list = list();
    let made = make()?;
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    list.push((id, path(&made), dir));
    Ok((made, Registered(id)))
}
