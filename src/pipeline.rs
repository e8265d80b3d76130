//! Parallel replay with the input's order kept: a reader thread cuts the
//! input into chunks and hands them over in batches of bounded size; the
//! rayon pool maps each batch; the results are handed on in input order.
//! Memory is bounded by a few batches, never by the input.

use crate::record::{Chunk, ChunkReader};
use rayon::prelude::*;
use std::io::{self, BufRead};
use std::ops::ControlFlow;
use std::sync::mpsc;

/// A batch is handed to the pool once it holds this many bytes… (what a
/// conversion makes of a batch is many times its size).
const BATCH_BYTES: usize = 256 << 10;
/// …or this many chunks.
const BATCH_CHUNKS: usize = 4096;
/// Batches read ahead while one is mapped.
const READ_AHEAD: usize = 2;

/// Cuts `input` into chunks, maps each with `map` (on every thread of the
/// current rayon pool when it has more than one; else on this thread, with
/// no other thread started) and hands each chunk and its result to `each`
/// in input order, until `each` breaks. A read error ends the walk after
/// the chunks before it.
pub fn map_chunks<R, T, M, E>(input: R, map: M, mut each: E) -> io::Result<()>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(&Chunk) -> T + Sync,
    E: FnMut(Chunk, T) -> io::Result<ControlFlow<()>>,
{
    if rayon::current_num_threads() <= 1 {
        for chunk in ChunkReader::new(input) {
            let chunk = chunk?;
            let t = map(&chunk);
            if each(chunk, t)?.is_break() {
                break;
            }
        }
        return Ok(());
    }
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<io::Result<Vec<Chunk>>>(READ_AHEAD);
        scope.spawn(move || {
            let mut batch = Vec::new();
            let mut bytes = 0;
            for chunk in ChunkReader::new(input) {
                match chunk {
                    Ok(c) => {
                        bytes += c.bytes.len();
                        batch.push(c);
                        if bytes >= BATCH_BYTES || batch.len() >= BATCH_CHUNKS {
                            bytes = 0;
                            // The receiver has stopped: so does the reader.
                            if tx.send(Ok(std::mem::take(&mut batch))).is_err() {
                                return;
                            }
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Ok(batch));
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            let _ = tx.send(Ok(batch));
        });
        for batch in rx {
            let batch = batch?;
            let mapped: Vec<T> = batch.par_iter().map(&map).collect();
            for (chunk, t) in batch.into_iter().zip(mapped) {
                if each(chunk, t)?.is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(input: &[u8], threads: usize, stop_after: Option<usize>) -> Vec<(usize, usize)> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut seen = Vec::new();
        pool.install(|| {
            map_chunks(
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
        })
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
    fn a_break_stops_the_walk() {
        let input = archive(10_000);
        assert_eq!(lengths(&input, 1, Some(7)).len(), 7);
        assert_eq!(lengths(&input, 2, Some(5000)).len(), 5000);
    }
}
