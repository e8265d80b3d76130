//! Exact duplicates (`dedup`). Two games are the same when they have the
//! same rules, settings, start and moves in canonical spelling (or, by
//! final position, the same final position): a 128-bit hash of that key
//! finds candidates in memory, and the full key, kept in a temporary
//! file, confirms every match before a game is called a duplicate
//! ([`Distinct`]). Memory per distinct game: one hash and one file offset.
//! The places of the duplicates, for a report, are kept on disk too
//! ([`Report`]).

use crate::envelope::record::{ReadGame, RecordSource};
use crate::io::formats::Visit;
use crate::io::passthrough::{written, Written};
use crate::play::select::SameBy;
use crate::registry::{with_game, AnyGame, GameTask, Playable, Registered};
use std::collections::HashMap;
use std::hash::Hasher;
use std::io::{self, BufWriter, Write};

/// Where a game is: input, line, index in its input.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Found {
    pub file: String,
    pub line: Option<usize>,
    pub index: usize,
}

/// One game, keyed and ready to write (made on a worker thread): its key
/// (hashed, and whole) when it replays to its end, how it is written, its
/// line.
pub struct Keyed {
    pub key: Option<(u128, Vec<u8>)>,
    pub out: Written,
    pub line: Option<usize>,
}

fn hash128(key: &[u8]) -> u128 {
    let half = |salt: u8| {
        let mut h = std::hash::DefaultHasher::new();
        h.write_u8(salt);
        h.write(key);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// The distinct games seen: by hash, the offset of each game's full key
/// (and its place) in the spill file. One entry per distinct game; hashes
/// shared by different keys (never seen in practice) chain in `more`.
pub struct Distinct {
    first: HashMap<u128, u64>,
    more: HashMap<u128, Vec<u64>>,
    spill: BufWriter<std::fs::File>,
    file: std::fs::File,
    len: u64,
    names: Vec<String>,
}

impl Distinct {
    pub fn new() -> io::Result<Distinct> {
        let file = tempfile::tempfile()?;
        Ok(Distinct {
            first: HashMap::new(),
            more: HashMap::new(),
            spill: BufWriter::with_capacity(1 << 16, file.try_clone()?),
            file,
            len: 0,
            names: Vec::new(),
        })
    }

    /// The key and place stored at `at`.
    fn read(&mut self, at: u64) -> io::Result<(Vec<u8>, Found)> {
        use std::os::unix::fs::FileExt;
        self.spill.flush()?;
        let mut head = [0u8; 4];
        self.file.read_exact_at(&mut head, at)?;
        let n = u32::from_le_bytes(head) as usize;
        let mut rest = vec![0u8; n + 4 + 8 + 8];
        self.file.read_exact_at(&mut rest, at + 4)?;
        let num = |i: usize, w: usize| {
            let mut b = [0u8; 8];
            b[..w].copy_from_slice(&rest[i..i + w]);
            u64::from_le_bytes(b)
        };
        let name = self.names[num(n, 4) as usize].clone();
        let line = num(n + 4, 8);
        let index = num(n + 12, 8) as usize;
        rest.truncate(n);
        Ok((
            rest,
            Found {
                file: name,
                line: (line > 0).then_some(line as usize),
                index,
            },
        ))
    }

    fn write(&mut self, key: &[u8], place: &Found) -> io::Result<u64> {
        let at = self.len;
        let name = match self.names.iter().position(|n| *n == place.file) {
            Some(i) => i,
            None => {
                self.names.push(place.file.clone());
                self.names.len() - 1
            }
        };
        self.spill.write_all(&(key.len() as u32).to_le_bytes())?;
        self.spill.write_all(key)?;
        self.spill.write_all(&(name as u32).to_le_bytes())?;
        self.spill
            .write_all(&(place.line.unwrap_or(0) as u64).to_le_bytes())?;
        self.spill.write_all(&(place.index as u64).to_le_bytes())?;
        self.len += 4 + key.len() as u64 + 20;
        Ok(at)
    }

    /// The original of a game with this key (its offset and place), or
    /// `None` after noting it as a new distinct game.
    pub fn original(
        &mut self,
        hash: u128,
        key: &[u8],
        place: &Found,
    ) -> io::Result<Option<(u64, Found)>> {
        let mut candidates: Vec<u64> = self.first.get(&hash).copied().into_iter().collect();
        candidates.extend(self.more.get(&hash).into_iter().flatten().copied());
        for at in candidates {
            let (stored, original) = self.read(at)?;
            if stored == key {
                return Ok(Some((at, original)));
            }
        }
        let at = self.write(key, place)?;
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(at);
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                self.more.entry(hash).or_default().push(at);
            }
        }
        Ok(None)
    }
}

/// What `--report` lists, kept on disk: each duplicate's place is a record
/// of 28 bytes in an unlinked temporary file (its group, input, line and
/// index); in memory, one entry per group (its original and its size)
/// and the inputs' names. A million copies of one game cost 28 MB of disk,
/// not 540 MB of memory.
pub struct Report {
    groups: HashMap<u64, (Found, u64)>,
    names: Vec<String>,
    spill: BufWriter<std::fs::File>,
    file: std::fs::File,
}

/// The places read back at a time while the report is written.
const REPORT_BATCH: u64 = 1 << 20;

impl Report {
    pub fn new() -> io::Result<Report> {
        let file = tempfile::tempfile()?;
        Ok(Report {
            groups: HashMap::new(),
            names: Vec::new(),
            spill: BufWriter::with_capacity(1 << 16, file.try_clone()?),
            file,
        })
    }

    /// Notes `place` as a duplicate of the original at `at`.
    pub fn add(&mut self, at: u64, original: Found, place: &Found) -> io::Result<()> {
        self.groups.entry(at).or_insert((original, 0)).1 += 1;
        let name = match self.names.last() == Some(&place.file) {
            true => self.names.len() - 1,
            false => match self.names.iter().position(|n| *n == place.file) {
                Some(i) => i,
                None => {
                    self.names.push(place.file.clone());
                    self.names.len() - 1
                }
            },
        };
        let mut record = [0u8; 28];
        record[..8].copy_from_slice(&at.to_le_bytes());
        record[8..12].copy_from_slice(&(name as u32).to_le_bytes());
        record[12..20].copy_from_slice(&(place.line.map_or(u64::MAX, |l| l as u64)).to_le_bytes());
        record[20..].copy_from_slice(&(place.index as u64).to_le_bytes());
        self.spill.write_all(&record)
    }

    /// Every record: (group, place).
    fn records(&mut self) -> io::Result<impl Iterator<Item = io::Result<(u64, Found)>> + '_> {
        use std::io::{Read, Seek};
        self.spill.flush()?;
        let mut file = io::BufReader::with_capacity(1 << 16, self.file.try_clone()?);
        file.seek(io::SeekFrom::Start(0))?;
        let names = &self.names;
        Ok(std::iter::from_fn(move || {
            let mut record = [0u8; 28];
            match file.read_exact(&mut record) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return None,
                Err(e) => return Some(Err(e)),
            }
            let num = |r: std::ops::Range<usize>| {
                let mut b = [0u8; 8];
                b[..r.len()].copy_from_slice(&record[r]);
                u64::from_le_bytes(b)
            };
            let line = num(12..20);
            let place = Found {
                file: names.get(num(8..12) as usize).cloned().unwrap_or_default(),
                line: (line != u64::MAX).then_some(line as usize),
                index: num(20..28) as usize,
            };
            Some(Ok((num(0..8), place)))
        }))
    }

    /// Writes one JSON line per group, in the order of the originals:
    /// groups read back about [`REPORT_BATCH`] places at a time (a group
    /// larger than that is streamed from the file by itself), every line
    /// written a place at a time.
    pub fn write(self, out: &mut dyn Write) -> io::Result<()> {
        self.write_batched(out, REPORT_BATCH)
    }

    /// [`Report::write`], reading back about `batch` places at a time.
    fn write_batched(mut self, out: &mut dyn Write, batch: u64) -> io::Result<()> {
        let mut order: Vec<(u64, Found, u64)> = std::mem::take(&mut self.groups)
            .into_iter()
            .map(|(at, (original, n))| (at, original, n))
            .collect();
        order.sort_by_key(|g| g.0);
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            let mut places = order[start].2;
            while end < order.len() && places + order[end].2 <= batch {
                places += order[end].2;
                end += 1;
            }
            let batch = &order[start..end];
            let wanted: HashMap<u64, usize> =
                (batch.iter().enumerate()).map(|(i, g)| (g.0, i)).collect();
            if batch.len() == 1 {
                let (at, original, n) = &batch[0];
                open_group(out, original)?;
                let mut first = true;
                for record in self.records()? {
                    let (group, place) = record?;
                    if group == *at {
                        write_place(out, &place, std::mem::take(&mut first))?;
                    }
                }
                close_group(out, *n)?;
            } else {
                let mut lists: Vec<Vec<Found>> = vec![Vec::new(); batch.len()];
                for record in self.records()? {
                    let (group, place) = record?;
                    if let Some(&i) = wanted.get(&group) {
                        lists[i].push(place);
                    }
                }
                for ((_, original, n), list) in batch.iter().zip(lists) {
                    open_group(out, original)?;
                    for (i, place) in list.iter().enumerate() {
                        write_place(out, place, i == 0)?;
                    }
                    close_group(out, *n)?;
                }
            }
            start = end;
        }
        Ok(())
    }
}

fn open_group(out: &mut dyn Write, original: &Found) -> io::Result<()> {
    write!(
        out,
        "{{\"original\":{},\"duplicates\":[",
        serde_json::json!(original)
    )
}

fn write_place(out: &mut dyn Write, place: &Found, first: bool) -> io::Result<()> {
    if !first {
        out.write_all(b",")?;
    }
    write!(out, "{}", serde_json::json!(place))
}

fn close_group(out: &mut dyn Write, duplicates: u64) -> io::Result<()> {
    writeln!(out, "],\"games\":{}}}", duplicates + 1)
}

/// A game read for `dedup`: its key (`by`), its line, and its text to
/// write (made on a worker thread).
pub fn keyed(visit: Visit<'_, '_>, by: SameBy) -> Keyed {
    let parsed = visit.game.record();
    let record = &parsed.record;
    let key = visit
        .rules
        .as_ref()
        .ok()
        .and_then(|r| key(*r, &mut RecordSource::new(record, parsed.error.clone()), by));
    let line = visit.chunk.map(|c| c.locate(record.span.start).0);
    let out = written(visit, &parsed, None);
    Keyed {
        key: key.map(|k| (hash128(&k), k)),
        out,
        line,
    }
}

/// The comment line a duplicate is written with: which game it is a
/// duplicate of.
pub fn note(first: &Found) -> String {
    format!(
        "gamerec dedup: a duplicate of game {} of {}{}",
        first.index,
        first.file,
        first.line.map_or(String::new(), |l| format!(", line {l}"))
    )
}

/// The key two games share exactly when they are the same game (`by`);
/// `None` when the game cannot be replayed to its end.
pub fn key(rules: &dyn AnyGame, game: &mut dyn ReadGame<'_>, by: SameBy) -> Option<Vec<u8>> {
    struct Key<'a, 'g>(&'a mut dyn ReadGame<'g>, SameBy);
    impl GameTask for Key<'_, '_> {
        type Output = Option<Vec<u8>>;
        fn run<G: Playable>(self, _: &Registered<G>) -> Option<Vec<u8>> {
            crate::play::select::key::<G>(self.0, self.1)
        }
    }
    with_game(rules, Key(game, by))
}

/// `gamerec: 40 games, 3 duplicates left out, 37 written`.
pub fn summary(games: usize, duplicates: usize) -> String {
    format!(
        "gamerec: {games} games, {duplicates} duplicate{} left out, {} written",
        if duplicates == 1 { "" } else { "s" },
        games - duplicates
    )
}

#[cfg(test)]
mod tests {
    use super::{Distinct, Found, Report};

    #[test]
    fn the_report_reads_its_places_back_in_batches_and_streams_a_large_group() {
        let place = |file: &str, index| Found {
            file: file.into(),
            line: (index % 2 == 0).then_some(index * 10),
            index,
        };
        // Groups (by original) of 5, 1 and 3 duplicates, interleaved, in
        // two inputs; the originals' order is 30, 10, 20.
        let mut report = Report::new().unwrap();
        let mut want: Vec<(u64, Found, Vec<Found>)> = vec![
            (30, place("a", 1), vec![]),
            (10, place("a", 2), vec![]),
            (20, place("b", 3), vec![]),
        ];
        let adds = [(0, 5), (1, 1), (2, 3)];
        let mut index = 10;
        for round in 0..5 {
            for &(g, n) in &adds {
                if round < n {
                    let p = place(if index % 3 == 0 { "b" } else { "a" }, index);
                    report.add(want[g].0, want[g].1.clone(), &p).unwrap();
                    want[g].2.push(p);
                    index += 1;
                }
            }
        }
        want.sort_by_key(|w| w.0);
        let expected: String = want
            .iter()
            .map(|(_, original, copies)| {
                format!(
                    "{}\n",
                    serde_json::json!({
                        "original": original,
                        "duplicates": copies,
                        "games": copies.len() + 1,
                    })
                )
            })
            .collect();
        // Everything at once, in batches of 4 (5 is streamed alone), and
        // one place at a time.
        for batch in [1 << 20, 4, 1] {
            let mut again = Report::new().unwrap();
            for (at, original, copies) in &want {
                for p in copies {
                    again.add(*at, original.clone(), p).unwrap();
                }
            }
            let mut out = Vec::new();
            again.write_batched(&mut out, batch).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "batch {batch}");
        }
        let mut out = Vec::new();
        report.write_batched(&mut out, 4).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn a_shared_hash_is_confirmed_by_the_full_key() {
        let mut seen = Distinct::new().unwrap();
        let place = |index| Found {
            file: "x".into(),
            line: Some(index),
            index,
        };
        // Two different keys under one hash: both are distinct games.
        assert!(seen.original(7, b"key one", &place(1)).unwrap().is_none());
        assert!(seen.original(7, b"key two", &place(2)).unwrap().is_none());
        // Each is found again, and only by its own key.
        let (_, first) = seen.original(7, b"key one", &place(3)).unwrap().unwrap();
        assert_eq!(first.index, 1);
        let (_, second) = seen.original(7, b"key two", &place(4)).unwrap().unwrap();
        assert_eq!((second.index, second.line), (2, Some(2)));
        assert!(seen.original(8, b"key one", &place(5)).unwrap().is_none());
    }
}
