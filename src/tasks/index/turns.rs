//! The turns' spellings, numbered as the worker threads meet them: a
//! shared dictionary, and a cache of it on each thread (so that a turn
//! seen before costs one lookup, with no lock). The numbers depend on the
//! threads' order; [`Turns::renumbering`] gives the spellings' order, which
//! the index keeps.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Every dictionary made gets a number, so a thread's cache of another is
/// dropped.
static MADE: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static CACHE: RefCell<(u64, HashMap<String, u32>)> = RefCell::new((u64::MAX, HashMap::new()));
}

/// The turns met so far.
pub struct Turns {
    id: u64,
    shared: Mutex<(Vec<String>, HashMap<String, u32>)>,
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
                *cache = (self.id, HashMap::new());
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
