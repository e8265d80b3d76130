//! A game's positions shared among threads. Each position is searched on
//! its own — its own salt in a table ([`next_salt`]), so it reads no entry
//! another search wrote — which makes its value and its node count the same
//! on whichever thread, in whichever order and next to whichever game it is
//! searched. So positions can be handed out freely: [`map_split`] gives a
//! long game's positions to idle threads while the threads analysing other
//! games keep theirs, never more than `jobs` searching at once.
//!
//! Every thread it starts has ended when it returns (scoped threads: a
//! Python interpreter may exit right after).

use super::{board_moves, Bounds, Budget, Judged, Searcher, Table, Value};
use crate::game::Search;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Threads searching now, in this process (each holds a [`Permit`]).
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// Tables not in use, kept for the next search (a 16 MiB table costs more
/// to make than many positions cost to search).
static TABLES: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// The salts handed out (each search's entries are salted with its own).
static SALTS: AtomicU64 = AtomicU64::new(1);

/// A salt no other search in this process has.
pub fn next_salt() -> u64 {
    SALTS.fetch_add(1, Ordering::Relaxed)
}

/// A searcher on `table` under a salt of its own: it reads no entry
/// another search wrote, so what it finds and what it costs do not depend
/// on what the table held.
pub fn alone<G: Search>(table: &mut Table) -> Searcher<'_, G> {
    let mut searcher = Searcher::<G>::new(table);
    searcher.salt_with(next_salt());
    searcher
}

/// One searching thread, counted in [`BUSY`] while it lives.
struct Permit;

impl Permit {
    /// The calling thread, counted whatever the count.
    fn own() -> Permit {
        BUSY.fetch_add(1, Ordering::AcqRel);
        Permit
    }

    /// A further thread, if fewer than `jobs` are searching.
    fn spare(jobs: usize) -> Option<Permit> {
        BUSY.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < jobs).then_some(n + 1)
        })
        .ok()
        .map(|_| Permit)
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A table of `mib` MiB: one given back earlier, else a new one.
pub fn take_table(mib: usize) -> Table {
    let kept = TABLES.lock().ok().and_then(|mut tables| {
        let i = tables.iter().position(|t| t.mib() == mib)?;
        Some(tables.swap_remove(i))
    });
    kept.unwrap_or_else(|| Table::with_mib(mib))
}

/// Keeps `table` for the next [`take_table`] (a few at most: one per
/// thread that searched at once).
pub fn give_back(table: Table) {
    if let Ok(mut tables) = TABLES.lock() {
        static CAP: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let cap =
            *CAP.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()) * 4);
        if tables.len() < cap {
            tables.push(table);
        }
    }
}

/// `f(state, i)` for every `i` in `0..n`, in order of `i`: on this thread,
/// and on further threads started while fewer than `jobs` threads of this
/// process are searching and more than one item is left. Each thread makes
/// its `state` with `init` and hands it to `done` at the end.
pub fn map_split<S, T>(
    n: usize,
    jobs: usize,
    init: &(dyn Fn() -> S + Sync),
    f: &(dyn Fn(&mut S, usize) -> T + Sync),
    done: &(dyn Fn(S) + Sync),
) -> Vec<T>
where
    T: Send,
{
    let next = AtomicUsize::new(0);
    let work = |state: &mut S, out: &mut Vec<(usize, T)>| loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        out.push((i, f(state, i)));
    };
    let _me = Permit::own();
    let mut all = Vec::with_capacity(n);
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        let mut state = init();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            if n - i > 1 {
                if let Some(permit) = Permit::spare(jobs) {
                    let helper = std::thread::Builder::new()
                        .name("gamerec-search".into())
                        .spawn_scoped(scope, move || {
                            let _permit = permit;
                            let (mut state, mut out) = (init(), Vec::new());
                            work(&mut state, &mut out);
                            done(state);
                            out
                        });
                    // A thread that cannot start leaves its share here.
                    helpers.extend(helper.ok());
                }
            }
            all.push((i, f(&mut state, i)));
        }
        done(state);
        for h in helpers {
            match h.join() {
                Ok(out) => all.extend(out),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// Turns played and searched at a time by [`judge_split`].
const BLOCK: usize = 4096;

/// A turn searched without an answer: its budget ran out.
const CUT: Bounds = Bounds {
    value: None,
    caps: false,
    secures: false,
};

/// [`Searcher::judge`] with the root's turns shared among up to `jobs`
/// threads: each turn is searched on its own — its own salt, `budget` its
/// own — for its value and draw bounds ([`Searcher::bounds`]), and the
/// position's value is put together from them ([`Bounds::root`]). Exact,
/// and the same with any `jobs`; with no budget, the value and every
/// turn's value are [`Searcher::judge`]'s. Also says whether a turn's
/// search ran out of its budget. Every turn also stops at `budget.until`,
/// the position's deadline, however many turns it has.
pub fn judge_split<G: Search>(
    pos: &G::Position,
    depth: u32,
    budget: Budget,
    table_mib: usize,
    jobs: usize,
) -> (Judged, bool) {
    if depth == 0 || G::ending(pos).is_some() {
        let mut table = take_table(table_mib);
        let mut searcher = alone::<G>(&mut table);
        let judged = searcher.judge(pos, depth, budget);
        let stopped = searcher.exhausted_root();
        drop(searcher);
        give_back(table);
        return (judged, stopped);
    }
    let mut moves = Vec::new();
    board_moves::<G>(pos, &mut moves);
    // The turns a block at a time: their positions played here (a move
    // need not be shareable between threads), so that memory holds a
    // block's positions, never a wide position's every one; a block met
    // past the deadline is not played at all.
    let init = || take_table(table_mib);
    let mut found: Vec<Option<Bounds>> = Vec::with_capacity(moves.len());
    let mut children: Vec<Option<G::Position>> = Vec::with_capacity(BLOCK.min(moves.len()));
    for block in moves.chunks(BLOCK) {
        if budget.is_over() {
            found.extend(block.iter().map(|_| Some(CUT)));
            continue;
        }
        children.clear();
        children.extend(block.iter().map(|mv| {
            let mut next = pos.clone();
            G::play_generated(&mut next, mv).ok().map(|()| next)
        }));
        let one = |table: &mut Table, i: usize| {
            let next = children[i].as_ref()?;
            Some(alone::<G>(table).bounds(next, depth - 1, budget))
        };
        found.extend(map_split(children.len(), jobs, &init, &one, &give_back));
    }
    let played: Vec<Bounds> = found.iter().flatten().copied().collect();
    let turns = (found.iter())
        .map(|b| match b {
            None => Some(Value::Unknown),
            Some(b) => b.value.map(Value::flip),
        })
        .collect();
    let stopped = played.iter().any(|b| b.value.is_none());
    let value = Bounds::root(&played);
    (Judged { value, turns }, stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_mapped_once_and_in_order_with_any_number_of_threads() {
        for jobs in [1, 2, 5] {
            let made = AtomicUsize::new(0);
            let ended = AtomicUsize::new(0);
            let out = map_split(
                100,
                jobs,
                &|| {
                    made.fetch_add(1, Ordering::Relaxed);
                    0usize
                },
                &|seen: &mut usize, i| {
                    *seen += 1;
                    i * i
                },
                &|_| {
                    ended.fetch_add(1, Ordering::Relaxed);
                },
            );
            assert_eq!(out, (0..100).map(|i| i * i).collect::<Vec<_>>());
            assert_eq!(made.into_inner(), ended.into_inner(), "jobs {jobs}");
        }
    }

    #[test]
    fn one_job_stays_on_the_calling_thread_and_more_share_the_items() {
        let threads = |jobs| {
            let made = AtomicUsize::new(0);
            map_split(
                40,
                jobs,
                &|| made.fetch_add(1, Ordering::Relaxed),
                &|_: &mut usize, _| std::thread::sleep(std::time::Duration::from_millis(2)),
                &|_| {},
            );
            made.into_inner()
        };
        assert_eq!(threads(1), 1);
        // Other tests may hold permits of their own, but not 60.
        assert!(threads(64) > 1);
    }

    #[test]
    fn a_table_given_back_is_the_one_taken_next() {
        let mut t = Table::with_mib(3);
        let e = crate::search::Entry {
            key: 12345,
            score: 7,
            depth: 3,
            bound: crate::search::Bound::Exact,
            best: 0,
        };
        t.put(e);
        give_back(t);
        // Tests run in parallel: another may take it first, but none
        // other uses 3 MiB.
        let t = take_table(3);
        assert_eq!(t.mib(), 3);
        assert_eq!(t.get(12345).map(|e| e.score), Some(7));
    }
}
