//! Sorting postings, spilling them as runs, and merging the runs (and an
//! index already there) partition by partition into the postings files.

use super::read::Index;
use super::tables::PostingsOut;
use super::{invalid, partition, postings_file, Posting, DROPPED, NO_TURN, PARTITIONS};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes a posting takes on a run file.
pub(super) const RUN_BYTES: usize = 20;

/// A run spilled to the work folder: sorted postings, and where each
/// partition starts in it (in postings).
pub(super) struct Run {
    pub(super) path: PathBuf,
    pub(super) starts: [u64; PARTITIONS + 1],
}

/// What the merge reads: the old index, the runs, the postings in memory
/// (sorted).
pub(super) struct Parts<'a> {
    pub(super) old: Option<&'a Index>,
    /// Each old game's new id ([`DROPPED`]: left out).
    pub(super) kept: &'a [u32],
    pub(super) runs: &'a [Run],
    pub(super) postings: &'a [Posting],
}

impl Parts<'_> {
    /// Merges each partition's runs (and old postings) into its file, on
    /// `jobs` threads; returns the postings written.
    pub(super) fn merge_all(&self, jobs: usize, work: &Path, renumber: &[u32]) -> io::Result<u64> {
        let next = AtomicUsize::new(0);
        let total = std::sync::atomic::AtomicU64::new(0);
        let results: Vec<io::Result<()>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs.min(PARTITIONS))
                .map(|_| {
                    s.spawn(|| -> io::Result<()> {
                        loop {
                            let p = next.fetch_add(1, Ordering::Relaxed);
                            if p >= PARTITIONS {
                                return Ok(());
                            }
                            let n = self.merge(p, &work.join(postings_file(p)), renumber)?;
                            total.fetch_add(n, Ordering::Relaxed);
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(io::Error::other("a merge thread failed")))
                })
                .collect()
        });
        results.into_iter().collect::<io::Result<Vec<()>>>()?;
        Ok(total.into_inner())
    }

    /// Merges partition `p` into `out`.
    pub(super) fn merge(&self, p: usize, out: &Path, renumber: &[u32]) -> io::Result<u64> {
        let mut sources: Vec<Source<'_>> = Vec::new();
        if let Some(old) = self.old {
            // The old postings: already sorted, their turns numbered as
            // the builder started (the old numbering), their games renumbered
            // (in order: the order stays sorted) and those of re-indexed
            // files left out.
            let kept = self.kept;
            let renumbered = old.partition_postings(p)?.filter_map(move |q| match q {
                Err(e) => Some(Err(e)),
                Ok(q) => match kept.get(q.id as usize) {
                    None => Some(Err(invalid(
                        "a posting names a game past the index's games",
                    ))),
                    Some(&DROPPED) => None,
                    Some(&id) => Some(Ok(Posting { id, ..q })),
                },
            });
            sources.push(Box::new(renumbered));
        }
        for run in self.runs {
            sources.push(Box::new(run_segment(run, p)?));
        }
        let lo = self.postings.partition_point(|q| partition(q.key) < p);
        let hi = self.postings.partition_point(|q| partition(q.key) <= p);
        sources.push(Box::new(self.postings[lo..hi].iter().map(|q| Ok(*q))));
        let mut w = PostingsOut::create(out)?;
        let n = each_merged(sources, &mut |q| {
            let turn = match q.turn {
                NO_TURN => NO_TURN,
                t => *renumber
                    .get(t as usize)
                    .ok_or_else(|| invalid("a turn out of range"))?,
            };
            w.push(Posting { turn, ..q })
        })?;
        w.finish()?;
        Ok(n)
    }
}

/// Sorts postings by key, game and ply, in place: by the key's bytes from
/// the top (an American flag sort: each posting swapped straight into its
/// bucket, no second buffer), a byte a pass over buckets that fit the
/// caches (256 buckets, so the swaps touch 256 places, not the whole
/// buffer), then each bucket of a few dozen postings — the keys being
/// hashes — by the whole order.
pub(super) fn sort(postings: &mut [Posting]) {
    sort_from(postings, 56);
}

/// [`sort`] of postings whose keys agree above bit `shift + 8`.
fn sort_from(postings: &mut [Posting], shift: u32) {
    let n = postings.len();
    if n < SMALL || u32::try_from(n).is_err() {
        postings.sort_unstable_by_key(order);
        return;
    }
    let bucket = |p: &Posting| (p.key >> shift) as usize & 0xff;
    let mut ends = [0u32; 256];
    for p in postings.iter() {
        ends[bucket(p)] += 1;
    }
    let mut heads = [0u32; 256];
    let mut sum = 0u32;
    for (head, end) in heads.iter_mut().zip(ends.iter_mut()) {
        *head = sum;
        sum += *end;
        *end = sum;
    }
    for b in 0..256 {
        while heads[b] < ends[b] {
            // The posting at bucket `b`'s head is carried to its bucket,
            // the one there taken in hand and carried on, until one that
            // belongs in `b` comes back (the posting in hand never waits
            // on the store before it).
            let at = heads[b] as usize;
            let mut hand = postings[at];
            let mut d = bucket(&hand);
            while d != b {
                let to = heads[d] as usize;
                heads[d] += 1;
                std::mem::swap(&mut hand, &mut postings[to]);
                d = bucket(&hand);
            }
            postings[at] = hand;
            heads[b] += 1;
        }
    }
    let mut start = 0;
    for &end in &ends {
        let end = end as usize;
        let part = &mut postings[start..end];
        match shift.checked_sub(8) {
            Some(next) => sort_from(part, next),
            None => part.sort_unstable_by_key(order),
        }
        start = end;
    }
}

/// Below this many postings, [`sort`] is one comparison sort.
const SMALL: usize = 64;

/// A posting's place in the index: key, game, ply.
fn order(p: &Posting) -> (u64, u32, u32) {
    (p.key, p.id, p.ply)
}

/// A posting in the merge's heap: its order as one number (key, game,
/// ply), least first, and the source it came from.
#[derive(PartialEq, Eq)]
pub(super) struct Next {
    pub(super) order: u128,
    pub(super) turn: u32,
    pub(super) source: u32,
}

impl Next {
    pub(super) fn new(p: Posting, source: usize) -> Next {
        Next {
            order: u128::from(p.key) << 64 | u128::from(p.id) << 32 | u128::from(p.ply),
            turn: p.turn,
            source: source as u32,
        }
    }

    pub(super) fn posting(&self) -> Posting {
        Posting {
            key: (self.order >> 64) as u64,
            id: (self.order >> 32) as u32,
            ply: self.order as u32,
            turn: self.turn,
        }
    }
}

impl Ord for Next {
    fn cmp(&self, other: &Next) -> std::cmp::Ordering {
        other.order.cmp(&self.order)
    }
}

impl PartialOrd for Next {
    fn partial_cmp(&self, other: &Next) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Where each partition starts in sorted postings.
pub(super) fn starts(sorted: &[Posting]) -> [u64; PARTITIONS + 1] {
    let mut s = [0u64; PARTITIONS + 1];
    for (p, at) in s.iter_mut().enumerate() {
        *at = sorted.partition_point(|q| partition(q.key) < p) as u64;
    }
    s
}

/// Partition `p` of a run, read back a block at a time.
pub(super) fn run_segment(
    run: &Run,
    p: usize,
) -> io::Result<impl Iterator<Item = io::Result<Posting>>> {
    let mut file = File::open(&run.path)?;
    file.seek(SeekFrom::Start(run.starts[p] * RUN_BYTES as u64))?;
    let mut left = run.starts[p + 1] - run.starts[p];
    let mut bytes = vec![0u8; BLOCK * RUN_BYTES];
    let mut block: Vec<Posting> = Vec::with_capacity(BLOCK);
    let mut next = 0;
    Ok(std::iter::from_fn(move || {
        if next == block.len() {
            if left == 0 {
                return None;
            }
            let n = left.min(BLOCK as u64) as usize;
            let bytes = &mut bytes[..n * RUN_BYTES];
            if let Err(e) = file.read_exact(bytes) {
                left = 0;
                return Some(Err(e));
            }
            left -= n as u64;
            block.clear();
            block.extend(bytes.chunks_exact(RUN_BYTES).map(read_run));
            next = 0;
        }
        next += 1;
        block.get(next - 1).map(|q| Ok(*q))
    }))
}

/// Postings read from a run at once.
const BLOCK: usize = 1 << 11;

/// A posting as [`write_run`] writes it.
fn read_run(b: &[u8]) -> Posting {
    let word = |i: usize| {
        u32::from_le_bytes(
            b.get(i..i + 4)
                .and_then(|w| w.try_into().ok())
                .unwrap_or_default(),
        )
    };
    Posting {
        key: u64::from_le_bytes(
            b.get(..8)
                .and_then(|w| w.try_into().ok())
                .unwrap_or_default(),
        ),
        id: word(8),
        ply: word(12),
        turn: word(16),
    }
}

/// Merges whole runs into one run at `path` (sorted, every partition).
pub(super) fn merge_runs(runs: &[Run], path: PathBuf) -> io::Result<Run> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&path)?);
    let mut starts = [0u64; PARTITIONS + 1];
    let mut n = 0u64;
    for (p, start) in starts.iter_mut().take(PARTITIONS).enumerate() {
        *start = n;
        let mut sources: Vec<Source<'_>> = Vec::new();
        for r in runs {
            sources.push(Box::new(run_segment(r, p)?));
        }
        n += each_merged(sources, &mut |q| write_run(&mut out, &q))?;
    }
    starts[PARTITIONS] = n;
    out.flush()?;
    Ok(Run { path, starts })
}

/// A sorted source of postings.
type Source<'a> = Box<dyn Iterator<Item = io::Result<Posting>> + 'a>;

/// Hands the postings of sorted `sources` to `f` in order (key, game,
/// ply); returns how many.
fn each_merged(
    mut sources: Vec<Source<'_>>,
    f: &mut dyn FnMut(Posting) -> io::Result<()>,
) -> io::Result<u64> {
    let mut heap = BinaryHeap::new();
    for (i, s) in sources.iter_mut().enumerate() {
        if let Some(q) = s.next().transpose()? {
            heap.push(Next::new(q, i));
        }
    }
    let mut n = 0u64;
    while let Some(mut top) = heap.peek_mut() {
        f(top.posting())?;
        n += 1;
        // The source's next posting takes the top's place (one sift).
        match sources[top.source as usize].next().transpose()? {
            Some(next) => *top = Next::new(next, top.source as usize),
            None => {
                std::collections::binary_heap::PeekMut::pop(top);
            }
        }
    }
    Ok(n)
}

fn write_run(out: &mut impl Write, p: &Posting) -> io::Result<()> {
    let mut b = [0u8; RUN_BYTES];
    b[..8].copy_from_slice(&p.key.to_le_bytes());
    b[8..12].copy_from_slice(&p.id.to_le_bytes());
    b[12..16].copy_from_slice(&p.ply.to_le_bytes());
    b[16..].copy_from_slice(&p.turn.to_le_bytes());
    out.write_all(&b)
}

/// Sorts `postings` and writes them as a run at `path`.
pub(super) fn spill(postings: &mut [Posting], path: PathBuf) -> io::Result<Run> {
    sort(postings);
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&path)?);
    for p in postings.iter() {
        write_run(&mut out, p)?;
    }
    out.flush()?;
    Ok(Run {
        starts: starts(postings),
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    /// Postings with keys from a few values (runs of one key, like the
    /// start) or from everywhere (hashes), games in order as the builder
    /// gathers them, plies at random.
    fn postings(n: usize, distinct: u64, seed: u64) -> Vec<Posting> {
        let mut rng = gamerec_rules::random::stream(seed, 1);
        let mut next = move || rng.next_u64();
        (0..n)
            .map(|i| {
                let r = next();
                let key = if distinct == 0 {
                    r
                } else {
                    (r % distinct).wrapping_mul(0xd6e8_feb8_6659_fd93)
                };
                Posting {
                    key,
                    id: (i / 7) as u32,
                    ply: (next() % 50) as u32,
                    turn: i as u32,
                }
            })
            .collect()
    }

    #[test]
    fn radix_sort_orders_as_a_plain_sort_by_key_game_and_ply() {
        for (n, distinct) in [
            (0, 0),
            (1, 0),
            (1000, 3),
            (5000, 0),
            (5000, 40),
            (70_000, 0),
            (70_000, 500),
            (300_000, 0),
        ] {
            for seed in 1..3 {
                let mut ours = postings(n, distinct, seed);
                let mut plain = ours.clone();
                sort(&mut ours);
                plain.sort_by_key(order);
                // Equal (key, game, ply) never occurs in an index; here it
                // may, so only the order is compared.
                let keys = |v: &[Posting]| v.iter().map(order).collect::<Vec<_>>();
                assert_eq!(
                    keys(&ours),
                    keys(&plain),
                    "n {n}, {distinct} keys, seed {seed}"
                );
                let mut turns: Vec<u32> = ours.iter().map(|p| p.turn).collect();
                turns.sort_unstable();
                assert!(
                    turns.iter().enumerate().all(|(i, &t)| t == i as u32),
                    "a posting lost"
                );
            }
        }
    }
}
