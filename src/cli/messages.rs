//! The one place that prints messages which are not diagnostics, and that
//! records what happened for the exit code (ripgrep's `messages.rs` is the
//! model): `error` (a usage or I/O error: exit code 2), `invalid` (some
//! record is invalid: 1), a closed output pipe (141, or 1 when an invalid
//! record was already seen). `main` returns [`exit_code`].
//!
//! Every message starts `gamerec:` and has its control characters escaped:
//! hostile bytes in a file name or a token never reach the terminal raw.

use gamerec::diagnostics::Escaped;
use std::fmt::Display;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub const EXIT_VALID: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_TROUBLE: i32 = 2;
/// What a shell expects of a program stopped by SIGPIPE (128 + 13).
pub const EXIT_PIPE: i32 = 141;

static TROUBLE: AtomicBool = AtomicBool::new(false);
static INVALID: AtomicBool = AtomicBool::new(false);
static PIPE_CLOSED: AtomicBool = AtomicBool::new(false);

/// Runs the printing of messages with the progress bar (if any) cleared.
type Suspend = Box<dyn Fn(&mut dyn FnMut()) + Send>;
static SUSPEND: Mutex<Option<Suspend>> = Mutex::new(None);

/// Messages are printed with `suspend` around them (the progress bar).
pub fn set_suspend(suspend: Option<Suspend>) {
    *SUSPEND.lock().unwrap_or_else(|e| e.into_inner()) = suspend;
}

fn print(line: &str) {
    // The reader of the output has gone: nothing more to say.
    if PIPE_CLOSED.load(Ordering::SeqCst) {
        return;
    }
    let mut write = || {
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{line}");
    };
    match SUSPEND.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        Some(suspend) => suspend(&mut write),
        None => write(),
    }
}

/// A usage or I/O error: `gamerec: …` on stderr, and the exit code becomes
/// 2.
pub fn error(message: impl Display) {
    TROUBLE.store(true, Ordering::SeqCst);
    print(&format!("gamerec: {}", Escaped(&message.to_string())));
}

/// A warning: said, the exit code unchanged.
pub fn warning(message: impl Display) {
    print(&format!(
        "gamerec: warning: {}",
        Escaped(&message.to_string())
    ));
}

/// A note: said, the exit code unchanged.
pub fn note(message: impl Display) {
    print(&format!("gamerec: note: {}", Escaped(&message.to_string())));
}

/// A plain line on stderr (a closing summary), escaped.
pub fn say(message: impl Display) {
    print(&Escaped(&message.to_string()).to_string());
}

/// Some record is invalid: the exit code becomes at least 1.
pub fn invalid() {
    INVALID.store(true, Ordering::SeqCst);
}

/// For a command whose exit code 1 means something else (`filter`: no
/// game matched): whether that is so, whatever the games were.
pub fn set_not_found(not_found: bool) {
    INVALID.store(not_found, Ordering::SeqCst);
}

/// Whether an error was reported.
pub fn errored() -> bool {
    TROUBLE.load(Ordering::SeqCst)
}

/// Runs `f` (which writes to the terminal: a diagnostic) with the progress
/// bar, if any, cleared.
pub fn suspended<T>(f: impl FnOnce() -> T) -> T {
    let mut f = Some(f);
    let mut out = None;
    let mut run = || out = f.take().map(|f| f());
    match SUSPEND.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        Some(suspend) => suspend(&mut run),
        None => run(),
    }
    out.expect("ran once")
}

/// Writes a diagnostic to stderr (with the progress bar cleared).
pub fn to_stderr(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
    suspended(|| {
        let _ = f(&mut io::stderr().lock());
    });
}

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Records that standard output was closed when gamerec started (`main`
/// looks, before anything is opened).
pub fn set_stdout_was_closed() {
    STDOUT_CLOSED.store(true, Ordering::SeqCst);
}

/// Whether standard output was closed (`>&-`), reported as an error (exit
/// 2) when it was: what would be written there would be lost.
pub fn stdout_closed() -> bool {
    let closed = STDOUT_CLOSED.load(Ordering::SeqCst);
    if closed {
        error(
            "standard output is closed: what would be written there would be lost (give -o FILE)",
        );
    }
    closed
}

/// The end of writing the run's output: a closed pipe (the reader has seen
/// enough) stops the run quietly; another write error is an error.
pub fn finished(result: io::Result<()>) {
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            PIPE_CLOSED.store(true, Ordering::SeqCst);
        }
        Err(e) => error(e),
    }
}

/// The exit code: 2 when something could not be read or done; else, when
/// the output pipe was closed, 1 if an invalid record was seen and 141 if
/// not; else 1 when some record is invalid; else 0.
pub fn exit_code() -> i32 {
    if TROUBLE.load(Ordering::SeqCst) {
        EXIT_TROUBLE
    } else if INVALID.load(Ordering::SeqCst) {
        EXIT_INVALID
    } else if PIPE_CLOSED.load(Ordering::SeqCst) {
        EXIT_PIPE
    } else {
        EXIT_VALID
    }
}
