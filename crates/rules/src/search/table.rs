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

/// The largest table a thread may have, in MiB (`--hash`).
pub const MAX_MIB: usize = 4096;

/// Whether `threads` tables of `mib` MiB fit: each at most [`MAX_MIB`],
/// all together at most half the machine's memory (a search that asked for
/// more would be killed, or abort, as its tables are filled). The error
/// says what was asked and what would fit.
pub fn fits(mib: usize, threads: usize) -> Result<(), String> {
    if mib == 0 || mib > MAX_MIB {
        return Err(format!("a table of {mib} MiB: give 1 to {MAX_MIB}"));
    }
    let asked = mib.saturating_mul(threads.max(1));
    match physical_mib() {
        Some(total) if asked > total / 2 => Err(format!(
            "{threads} tables of {mib} MiB ({asked} MiB) are more than half of this machine's \
             {total} MiB of memory: give a smaller --hash, or fewer threads"
        )),
        _ => Ok(()),
    }
}

/// The machine's memory in MiB, where the system says.
fn physical_mib() -> Option<usize> {
    // SAFETY: sysconf reads a system constant; it has no preconditions.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let bytes = u64::try_from(pages)
        .ok()?
        .checked_mul(u64::try_from(size).ok()?)?;
    usize::try_from(bytes >> 20).ok()
}

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
        let want = (mib.clamp(1, MAX_MIB) << 20) / std::mem::size_of::<Entry>();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_past_the_cap_or_half_the_machine_are_refused_with_a_reason() {
        assert!(fits(16, 2).is_ok());
        assert!(fits(0, 1).unwrap_err().contains("1 to 4096"));
        assert!(fits(MAX_MIB + 1, 1).is_err());
        let total = physical_mib().expect("the machine's memory");
        // More tables of the largest size than half the machine holds.
        let threads = total / MAX_MIB + 1;
        let e = fits(MAX_MIB, threads).unwrap_err();
        assert!(e.contains("half of this machine"), "{e}");
        assert!(fits(1, usize::MAX).is_err());
    }
}
