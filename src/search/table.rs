//! The transposition table: a fixed array of entries indexed by a
//! position's key, each replaced by the newest search of its slot. An entry
//! keeps the whole 64-bit key and is used only when the key matches.

/// How an entry's score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (the search was cut off high).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One searched position (16 bytes: four to a cache line).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    /// Relative to the entry's position (a win's distance counted from it).
    pub score: i32,
    /// The horizon it was searched to.
    pub depth: u8,
    pub bound: Bound,
    /// The best turn's index in the generator's order; `u16::MAX` where none.
    pub best: u16,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    best: u16::MAX,
};

/// A table of `2^bits` entries.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    /// The size asked for.
    mib: usize,
}

impl Table {
    /// A table of about `mib` MiB (a power of two of entries, at least 1,024).
    pub fn with_mib(mib: usize) -> Table {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Entry>();
        let bits = (usize::BITS - 1 - want.max(1024).leading_zeros()).min(30);
        let n = 1usize << bits;
        Table {
            entries: vec![EMPTY; n],
            mask: n - 1,
            mib,
        }
    }

    /// The size it was made for, in MiB.
    pub fn mib(&self) -> usize {
        self.mib
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<&Entry> {
        let e = &self.entries[(key as usize) & self.mask];
        (e.key == key).then_some(e)
    }

    #[inline]
    pub fn put(&mut self, entry: Entry) {
        let slot = (entry.key as usize) & self.mask;
        self.entries[slot] = entry;
    }
}
