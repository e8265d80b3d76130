//! Parallel replay with the input's order kept: a reader thread cuts the
//! input into chunks and hands them out in numbered batches of bounded
//! size; worker threads map batches as they come; this thread hands the
//! results on in input order. At most a fixed number of batches is between
//! the reader and this thread, so memory is bounded by a few batches, never
//! by the input.

use crate::envelope::record::{Chunk, ChunkReader};
use crossbeam_channel::{bounded, unbounded};
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// `jobs` threads, or one per core for 0.
pub fn threads(jobs: usize) -> usize {
    match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// A batch is handed out once it holds this many bytes… (small: what a
/// conversion makes of a batch is many times its size, and batches of
/// 64 KiB keep two cores as busy as larger ones did).
const BATCH_BYTES: usize = 64 << 10;
/// …or this many chunks.
const BATCH_CHUNKS: usize = 4096;

/// Cuts `input` into chunks, maps each with `map` and hands each chunk and
/// its result to `each` in input order, until `each` breaks. With one job
/// everything runs on this thread; with more, up to `jobs` worker threads
/// map while a reader thread reads — once the input is seen to hold more
/// than one batch (a small input is not worth the threads), and never
/// more workers than batches. A read error ends the walk after the chunks
/// before it.
pub(crate) fn map_chunks<R, T, M, E>(jobs: usize, input: R, map: M, mut each: E) -> io::Result<()>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(&Chunk) -> T + Sync,
    E: FnMut(Chunk, T) -> io::Result<ControlFlow<()>>,
{
    let jobs = jobs.max(1);
    let mut chunks = ChunkReader::new(input);
    // The first batch is read here: an input that ends within it is mapped
    // on this thread.
    let (first, error, more) = first_batch(&mut chunks, jobs);
    if !more {
        let rest = if jobs > 1 { None } else { Some(chunks) };
        let read = first.into_iter().map(Ok).chain(rest.into_iter().flatten());
        for chunk in read {
            let chunk = chunk?;
            let t = map(&chunk);
            if each(chunk, t)?.is_break() {
                return Ok(());
            }
        }
        return error.map_or(Ok(()), Err);
    }
    map_threaded(jobs, first, chunks, &map, &mut each)
}

/// [`map_chunks`] on threads: a reader thread cuts the rest of the input
/// (after `first`) into batches, up to `jobs` workers map them, this
/// thread hands the results on in sequence.
fn map_threaded<R, T, M, E>(
    jobs: usize,
    first: Vec<Chunk>,
    chunks: ChunkReader<R>,
    map: &M,
    each: &mut E,
) -> io::Result<()>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(&Chunk) -> T + Sync,
    E: FnMut(Chunk, T) -> io::Result<ControlFlow<()>>,
{
    // Batches read but not yet handed on: the reader waits for a permit,
    // and for their bytes to fit the budget.
    let in_flight = 2 * jobs + 2;
    let budget = &Budget::default();
    std::thread::scope(|scope| {
        let (permit_tx, permit_rx) = bounded::<()>(in_flight);
        let (work_tx, work_rx) = bounded::<(usize, Vec<Chunk>)>(in_flight);
        let (done_tx, done_rx) = unbounded::<(usize, Vec<(Chunk, T)>)>();
        let (error_tx, error_rx) = bounded::<(usize, io::Error)>(1);
        // A worker is started with each batch, up to `jobs` of them.
        let spawn_worker = {
            let (work_rx, done_tx) = (work_rx.clone(), done_tx.clone());
            move || start_worker(scope, &work_rx, &done_tx, map)
        };
        let reader = std::thread::Builder::new().name("gamerec-reader".into());
        let (spawn_error_tx, spawn_error_rx) = bounded::<io::Error>(1);
        reader.spawn_scoped(scope, move || {
            let mut workers = 0;
            let mut send = |batch: Vec<Chunk>, seq: &mut usize| {
                if workers < jobs {
                    if let Err(e) = spawn_worker() {
                        if workers == 0 {
                            let _ = spawn_error_tx.send(e);
                            return false;
                        }
                    } else {
                        workers += 1;
                    }
                }
                // No permit: the receiving side has stopped.
                let bytes = batch.iter().map(|c| c.bytes.len()).sum();
                if permit_tx.send(()).is_err()
                    || !budget.acquire(bytes)
                    || work_tx.send((*seq, batch)).is_err()
                {
                    return false;
                }
                *seq += 1;
                true
            };
            cut_batches(first, chunks, &mut send, &error_tx);
        })?;
        drop((work_rx, done_tx));
        // Results arrive in any order; they are handed on in sequence.
        // Stopped by `each`: what followed is not said.
        let result = hand_on(&done_rx, &permit_rx, budget, each).and_then(|stopped| {
            if stopped {
                return Ok(());
            }
            if let Ok(e) = spawn_error_rx.try_recv() {
                return Err(e);
            }
            match error_rx.try_recv() {
                Ok((_, e)) => Err(e),
                Err(_) => Ok(()),
            }
        });
        // Stopping early: the reader finds no permit and the workers no
        // receiver once these are gone.
        drop(permit_rx);
        drop(done_rx);
        budget.stop();
        result
    })
}

/// Hands `first`, then the rest of `chunks` cut into batches, to `send`,
/// numbered (it says `false` once the receiving side has stopped); a read
/// error goes to `error_tx` after the batch before it.
fn cut_batches<R: BufRead>(
    first: Vec<Chunk>,
    chunks: ChunkReader<R>,
    send: &mut dyn FnMut(Vec<Chunk>, &mut usize) -> bool,
    error_tx: &crossbeam_channel::Sender<(usize, io::Error)>,
) {
    let mut seq = 0;
    if !send(first, &mut seq) {
        return;
    }
    let (mut batch, mut bytes) = (Vec::new(), 0);
    for chunk in chunks {
        match chunk {
            Ok(c) => {
                bytes += c.bytes.len();
                batch.push(c);
                if bytes >= BATCH_BYTES || batch.len() >= BATCH_CHUNKS {
                    bytes = 0;
                    if !send(std::mem::take(&mut batch), &mut seq) {
                        return;
                    }
                }
            }
            Err(e) => {
                if send(batch, &mut seq) {
                    let _ = error_tx.send((seq, e));
                }
                return;
            }
        }
    }
    send(batch, &mut seq);
}

/// Reads the first batch (none with one job): the chunks, the read error
/// that ended it, and whether the input goes on past it.
fn first_batch<R: BufRead>(
    chunks: &mut ChunkReader<R>,
    jobs: usize,
) -> (Vec<Chunk>, Option<io::Error>, bool) {
    let mut first = Vec::new();
    let mut bytes = 0;
    let mut error = None;
    let mut more = jobs > 1;
    while more && bytes < BATCH_BYTES && first.len() < BATCH_CHUNKS {
        match chunks.next() {
            Some(Ok(c)) => {
                bytes += c.bytes.len();
                first.push(c);
            }
            Some(Err(e)) => {
                error = Some(e);
                more = false;
            }
            None => more = false,
        }
    }
    (first, error, more)
}

/// Starts a worker thread that maps the batches it receives and sends
/// them back numbered, until either channel closes.
fn start_worker<'scope, T, M>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    work_rx: &crossbeam_channel::Receiver<(usize, Vec<Chunk>)>,
    done_tx: &crossbeam_channel::Sender<(usize, Vec<(Chunk, T)>)>,
    map: &'scope M,
) -> io::Result<()>
where
    T: Send + 'scope,
    M: Fn(&Chunk) -> T + Sync,
{
    let (work_rx, done_tx) = (work_rx.clone(), done_tx.clone());
    let worker = std::thread::Builder::new().name("gamerec-worker".into());
    worker.spawn_scoped(scope, move || {
        for (seq, batch) in work_rx {
            let mapped = batch
                .into_iter()
                .map(|c| {
                    let t = map(&c);
                    (c, t)
                })
                .collect();
            if done_tx.send((seq, mapped)).is_err() {
                return;
            }
        }
    })?;
    Ok(())
}

/// Hands the mapped batches to `each` in sequence as they arrive (in any
/// order), giving back each batch's permit and bytes once it is handed on;
/// stops when `each` breaks (`true`) or every batch is in (`false`).
fn hand_on<T>(
    done: &crossbeam_channel::Receiver<(usize, Vec<(Chunk, T)>)>,
    permits: &crossbeam_channel::Receiver<()>,
    budget: &Budget,
    each: &mut impl FnMut(Chunk, T) -> io::Result<ControlFlow<()>>,
) -> io::Result<bool> {
    let mut pending = BTreeMap::new();
    let mut next = 0;
    for (seq, mapped) in done {
        pending.insert(seq, mapped);
        while let Some(mapped) = pending.remove(&next) {
            next += 1;
            let bytes = mapped.iter().map(|(c, _)| c.bytes.len()).sum();
            for (chunk, t) in mapped {
                if each(chunk, t)?.is_break() {
                    return Ok(true);
                }
            }
            // One batch handed on: the reader may read another.
            let _ = permits.recv();
            budget.release(bytes);
        }
    }
    Ok(false)
}

/// The bytes of chunks read but not yet handed on, at most
/// [`IN_FLIGHT_BYTES`] (one chunk larger than that goes alone): with
/// games near the 16 MiB cap, two are in flight, not `2 × jobs + 2`.
#[derive(Default)]
struct Budget {
    /// Bytes held, and whether the receiving side has stopped.
    state: std::sync::Mutex<(usize, bool)>,
    freed: std::sync::Condvar,
}

/// The most bytes of chunks in flight between the reader and the hand-on.
const IN_FLIGHT_BYTES: usize = 32 << 20;

impl Budget {
    /// Waits until `bytes` fit; `false` when the receiving side stopped.
    fn acquire(&self, bytes: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !state.1 && state.0 > 0 && state.0 + bytes > IN_FLIGHT_BYTES {
            state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.0 += bytes;
        !state.1
    }

    fn release(&self, bytes: usize) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 = state.0.saturating_sub(bytes);
        self.freed.notify_all();
    }

    fn stop(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(input: &[u8], threads: usize, stop_after: Option<usize>) -> Vec<(usize, usize)> {
        let mut seen = Vec::new();
        map_chunks(
            threads,
            input,
            |c| c.bytes.len(),
            |c, n| {
                seen.push((c.offset, n));
                Ok(if Some(seen.len()) == stop_after {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            },
        )
        .unwrap();
        seen
    }

    fn archive(games: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..games {
            s.push_str(&format!(
                "[Round \"{i}\"]\n\n1. a{} *\n\n",
                "b".repeat(i % 300)
            ));
        }
        s.into_bytes()
    }

    #[test]
    fn parallel_keeps_the_input_order() {
        // Enough bytes and chunks for several batches.
        let input = archive(20_000);
        let one = lengths(&input, 1, None);
        assert_eq!(one.len(), 20_000);
        assert!(one.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(lengths(&input, 3, None), one);
    }

    #[test]
    fn no_more_workers_than_batches() {
        // About three batches of input, a thousand jobs allowed.
        let input = archive(900);
        assert!(input.len() > 2 * BATCH_BYTES && input.len() < 3 * BATCH_BYTES);
        let threads = std::sync::Mutex::new(std::collections::HashSet::new());
        map_chunks(
            1000,
            &input[..],
            |_| {
                threads.lock().unwrap().insert(std::thread::current().id());
            },
            |_, ()| Ok(ControlFlow::Continue(())),
        )
        .unwrap();
        let n = threads.lock().unwrap().len();
        assert!((1..=3).contains(&n), "{n} workers");
    }

    #[test]
    fn a_small_input_gives_the_same_on_this_thread() {
        let input = archive(10);
        assert_eq!(lengths(&input, 2, None), lengths(&input, 1, None));
        assert_eq!(lengths(&input, 2, None).len(), 10);
    }

    /// A reader that fails after `ok` bytes.
    struct Failing<'a> {
        data: &'a [u8],
        ok: usize,
    }

    impl io::Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.ok == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.ok).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            self.ok -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_comes_after_the_chunks_before_it() {
        let input = archive(10_000);
        for (threads, ok) in [(1, 100_000), (2, 100_000), (2, 1_000_000)] {
            let mut seen = 0;
            let r = map_chunks(
                threads,
                io::BufReader::new(Failing { data: &input, ok }),
                |c| c.offset + c.bytes.len(),
                |_, end| {
                    assert!(end <= ok);
                    seen += 1;
                    Ok(ControlFlow::Continue(()))
                },
            );
            assert_eq!(r.unwrap_err().to_string(), "disk on fire");
            assert!(seen > 100, "{threads} threads, {ok} bytes: {seen} chunks");
        }
    }

    #[test]
    fn a_break_stops_the_walk() {
        let input = archive(10_000);
        assert_eq!(lengths(&input, 1, Some(7)).len(), 7);
        assert_eq!(lengths(&input, 2, Some(5000)).len(), 5000);
    }
}
