//! The turns' spellings, numbered as the worker threads meet them: a
//! shared dictionary, and a cache of it on each thread (so that a turn
//! seen before costs one lookup, with no lock). The numbers depend on the
//! threads' order; [`Turns::renumbering`] gives the spellings' order, which
//! the index keeps.

use gamerec_rules::game::Keyer;
use std::cell::RefCell;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Every dictionary made gets a number, so a thread's cache of another is
/// dropped.
static MADE: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static CACHE: RefCell<(u64, Spellings)> = RefCell::new((u64::MAX, Spellings::default()));
}

/// Spellings to numbers, hashed by [`Keyer`] (a turn's spelling is a few
/// bytes: SipHash cost more than the rest of a lookup). The spellings are
/// those of legal turns, so their number is bounded by the game's moves;
/// the start drawn once per process (as `RandomState` does for SipHash)
/// keeps which ones share a bucket from being fixed in advance anyway.
type Spellings = HashMap<String, u32, Seeded>;

/// [`Keyer`] from a start drawn once per process.
#[derive(Clone)]
struct Seeded(u64);

impl Default for Seeded {
    fn default() -> Seeded {
        static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        Seeded(*SEED.get_or_init(|| RandomState::new().hash_one(0u8)))
    }
}

impl BuildHasher for Seeded {
    type Hasher = Keyer;

    fn build_hasher(&self) -> Keyer {
        let mut k = Keyer::default();
        k.word(self.0);
        k
    }
}

/// The turns met so far.
pub struct Turns {
    id: u64,
    shared: Mutex<(Vec<String>, Spellings)>,
}

impl Turns {
    /// A dictionary holding `known` (numbered in order).
    pub fn new(known: Vec<String>) -> Turns {
        let ids = known
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        Turns {
            id: MADE.fetch_add(1, Ordering::Relaxed),
            shared: Mutex::new((known, ids)),
        }
    }

    /// The number of a turn's spelling.
    pub fn id(&self, text: &str) -> u32 {
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.0 != self.id {
                *cache = (self.id, Spellings::default());
            }
            if let Some(&id) = cache.1.get(text) {
                return id;
            }
            let id = {
                let mut shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
                let (texts, ids) = &mut *shared;
                *ids.entry(text.to_string()).or_insert_with(|| {
                    texts.push(text.to_string());
                    texts.len() as u32 - 1
                })
            };
            cache.1.insert(text.to_string(), id);
            id
        })
    }

    /// The spellings in their order, and each number's place in it.
    pub(crate) fn renumbering(&self) -> (Vec<String>, Vec<u32>) {
        let shared = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        let texts = &shared.0;
        let mut order: Vec<u32> = (0..texts.len() as u32).collect();
        order.sort_by(|a, b| texts[*a as usize].cmp(&texts[*b as usize]));
        let mut place = vec![0u32; texts.len()];
        for (new, old) in order.iter().enumerate() {
            place[*old as usize] = new as u32;
        }
        let sorted = order.iter().map(|&o| texts[o as usize].clone()).collect();
        (sorted, place)
    }
}
