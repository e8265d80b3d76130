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
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// A thread's copy of what it looked up in a dictionary: by spelling, and
/// by game and move number ([`gamerec_rules::game::Facts::move_code`]:
/// no hashing at all for a turn met before).
struct Cache {
    /// The dictionary's number ([`MADE`]).
    made: u64,
    spellings: Spellings,
    /// By game: each move number's turn number ([`UNSEEN`]: not met yet).
    coded: Vec<(&'static str, Vec<u32>)>,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache {
            made: u64::MAX,
            spellings: Spellings::default(),
            coded: Vec::new(),
        }
    }
}

/// Move numbers past this many are looked up by spelling (a table by
/// number stays small).
const MOST_CODES: usize = 1 << 20;

/// A move number not met yet on this thread.
const UNSEEN: u32 = u32::MAX;

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

    /// The cache of this thread, made for this dictionary.
    fn cache<T>(&self, f: impl FnOnce(&mut Cache) -> T) -> T {
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.made != self.id {
                *cache = Cache {
                    made: self.id,
                    ..Cache::default()
                };
            }
            f(&mut cache)
        })
    }

    /// The number of a turn of `game` whose move number is `code` and
    /// spelling `text`: the spelling's number ([`Turns::id`]), found by
    /// the move number once the thread has met it.
    pub fn id_coded(&self, game: &'static str, code: u32, text: &str) -> u32 {
        let slot = code as usize;
        if slot >= MOST_CODES {
            return self.id(text);
        }
        let known = self.cache(|c| {
            let at = c.coded.iter().position(|(g, _)| *g == game)?;
            c.coded[at].1.get(slot).copied().filter(|&id| id != UNSEEN)
        });
        if let Some(id) = known {
            return id;
        }
        let id = self.id(text);
        self.cache(|c| {
            let at = match c.coded.iter().position(|(g, _)| *g == game) {
                Some(at) => at,
                None => {
                    c.coded.push((game, Vec::new()));
                    c.coded.len() - 1
                }
            };
            let table = &mut c.coded[at].1;
            if table.len() <= slot {
                table.resize(slot + 1, UNSEEN);
            }
            table[slot] = id;
        });
        id
    }

    /// The number of a turn's spelling.
    pub fn id(&self, text: &str) -> u32 {
        let cached = self.cache(|c| c.spellings.get(text).copied());
        if let Some(id) = cached {
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
        self.cache(|c| c.spellings.insert(text.to_string(), id));
        id
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A turn looked up by its move number gets its spelling's number,
    /// the first time and from the thread's table after; each game has
    /// its own table; a number past the table's bound goes by spelling.
    #[test]
    fn a_turn_numbered_by_its_move_gets_its_spellings_number() {
        let turns = Turns::new(vec!["b1-b2".to_string()]);
        let a = turns.id_coded("oshi", 9, "a1-a2");
        assert_eq!(a, 1);
        assert_eq!(turns.id("a1-a2"), a);
        assert_eq!(turns.id_coded("oshi", 9, "a1-a2"), a);
        assert_eq!(turns.id_coded("oshi", 10, "b1-b2"), 0);
        // The same number in another game is another move.
        assert_eq!(turns.id_coded("retsami", 9, "c1-c2"), 2);
        assert_eq!(turns.id_coded("oshi", 9, "a1-a2"), a);
        let far = MOST_CODES as u32;
        assert_eq!(turns.id_coded("oshi", far, "d1-d2"), 3);
        assert_eq!(turns.id("d1-d2"), 3);
        let (texts, place) = turns.renumbering();
        assert_eq!(texts, ["a1-a2", "b1-b2", "c1-c2", "d1-d2"]);
        assert_eq!(place, [1, 0, 2, 3]);
    }
}
