//! Ctrl-C (SIGINT), SIGTERM and SIGHUP: gamerec's own temporaries — `-o`'s
//! `.gamerec-XXXX.part` file, a shard's `.gamerec-shards-XXXX` staging
//! folder — are removed before the process ends, with the shell's code for
//! the signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
//!
//! The signals are blocked in every thread ([`install`] runs before any
//! thread is started, and threads inherit the mask) and taken by one thread
//! of ours with `sigwait`: it works outside a signal handler, so it may
//! lock the list of temporaries and remove files and folders. A temporary
//! is created with the list locked (`gamerec::output::temporaries`), so
//! none is ever on disk and not on the list; once the signal thread has the
//! list it keeps it, so none is created after it looked.

use gamerec::output::temporaries;

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
    // SAFETY: ends the process at once, as the signal would have; the
    // list of temporaries stays locked until then.
    temporaries::remove_all_and(|| unsafe { libc::_exit(128 + sig) });
    unsafe { libc::_exit(128 + sig) }
}
