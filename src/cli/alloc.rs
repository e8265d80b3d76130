//! The binary's allocator: mimalloc for the many small blocks (a string per
//! turn, a vector per position: it serves them several times faster than
//! the system allocator), the system allocator for blocks of
//! [`LARGE`] bytes and more.
//!
//! Why two: a record near the 16 MiB cap is read into a buffer that grows
//! by doubling, and mimalloc keeps each freed huge block resident for a
//! while before it gives the pages back (its purge delay), so a valid
//! 16.7 MB game took 66 MiB at `-j 2` where the system allocator, which
//! maps such a block on its own and unmaps (or `mremap`s) it at once,
//! takes 26 MiB (BENCHMARKS.md, issue 51's seventh part). Blocks that
//! large are few — a chunk buffer past 1 MiB, an index's postings — so
//! the system allocator's speed there does not show.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks of this many bytes or more go to the system allocator.
pub(crate) const LARGE: usize = 1 << 20;

/// Has the system allocator map every block of [`LARGE`] bytes or more on
/// its own, so that freeing it unmaps it at once (by default glibc raises
/// that threshold to the largest block freed, up to 32 MiB, and serves
/// the next such blocks from a heap it keeps).
/// Elsewhere than glibc it does nothing.
pub(crate) fn init() {
    // SAFETY: a plain setting, made before any thread exists.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
    }
}

/// mimalloc below [`LARGE`], the system allocator from it on. A block is
/// freed by the allocator that made it: both calls see the same layout.
pub(crate) struct Split;

fn large(size: usize) -> bool {
    size >= LARGE
}

// SAFETY: every call is passed to the allocator that made (or makes) the
// block, chosen by the block's size, which Rust passes unchanged to
// `dealloc` and `realloc`; a block that crosses `LARGE` on `realloc` is
// made anew by the other allocator, copied, and freed by its own.
unsafe impl GlobalAlloc for Split {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match large(layout.size()) {
            true => unsafe { System.alloc(layout) },
            false => unsafe { mimalloc::MiMalloc.alloc(layout) },
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match large(layout.size()) {
            true => unsafe { System.alloc_zeroed(layout) },
            false => unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match large(layout.size()) {
            true => unsafe { System.dealloc(ptr, layout) },
            false => unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match (large(layout.size()), large(new_size)) {
            (true, true) => unsafe { System.realloc(ptr, layout, new_size) },
            (false, false) => unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) },
            _ => {
                // SAFETY: the caller guarantees `new_size`, with the old
                // alignment, makes a valid layout.
                let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
                let fresh = unsafe { self.alloc(new) };
                if !fresh.is_null() {
                    let kept = layout.size().min(new_size);
                    // SAFETY: two distinct blocks, each at least `kept`
                    // bytes long.
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, fresh, kept);
                        self.dealloc(ptr, layout);
                    }
                }
                fresh
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block grown and shrunk across the line keeps its bytes, and each
    /// is freed by the allocator that made it (a mismatch would crash or
    /// corrupt the heap under the test).
    #[test]
    fn a_block_that_crosses_the_large_line_keeps_its_bytes() {
        let a = Split;
        let small = Layout::from_size_align(1000, 8).unwrap();
        unsafe {
            let p = a.alloc(small);
            assert!(!p.is_null());
            for i in 0..1000 {
                *p.add(i) = (i % 251) as u8;
            }
            let q = a.realloc(p, small, LARGE + 10);
            assert!(!q.is_null());
            for i in 0..1000 {
                assert_eq!(*q.add(i), (i % 251) as u8);
            }
            let big = Layout::from_size_align(LARGE + 10, 8).unwrap();
            let r = a.realloc(q, big, 2 * LARGE);
            assert!(!r.is_null());
            assert_eq!(*r.add(999), (999 % 251) as u8);
            let bigger = Layout::from_size_align(2 * LARGE, 8).unwrap();
            let s = a.realloc(r, bigger, 500);
            assert!(!s.is_null());
            for i in 0..500 {
                assert_eq!(*s.add(i), (i % 251) as u8);
            }
            a.dealloc(s, Layout::from_size_align(500, 8).unwrap());
        }
    }
}
