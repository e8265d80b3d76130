//! Perft of every game's move generator against the counts in
//! `crates/rules/tests/data/<game>.perft` (established without the generator: by hand,
//! by another implementation, or by trying every writable move through the
//! rules — each entry says which). One generic test streams every game's
//! file, as shakmaty's perft tests do; counts above a node limit are
//! skipped so that the suite stays quick (`GAMEREC_PERFT_ALL=1` checks them
//! all).

use gamerec::perft::{entries, PerftEntry};
use gamerec::record::{Record, RecordSource, Span, Tag};
use gamerec::registry::{AnyGame, GAMES};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Counts above this many leaves are skipped unless GAMEREC_PERFT_ALL is set.
const NODE_LIMIT: u64 = 3_000_000;

fn record(entry: &PerftEntry) -> Record {
    let tag = |(name, value): (String, String)| Tag {
        name: name.into(),
        value: value.into(),
        span: Span::default(),
        value_span: Span::default(),
    };
    Record {
        tags: entry.tag_pairs().into_iter().map(tag).collect(),
        ..Record::default()
    }
}

/// Checks one game's file; returns the deepest depth checked.
fn check(game: &dyn AnyGame, all: bool) -> u32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/rules/tests/data")
        .join(format!("{}.perft", game.name()));
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines = BufReader::new(file).lines().map(|l| l.unwrap());
    let mut deepest = 0;
    for entry in entries(lines) {
        let entry = entry.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            entry.source.is_some(),
            "{}: says how it was established",
            entry.id
        );
        let record = record(&entry);
        for &(depth, expected) in &entry.counts {
            if expected > NODE_LIMIT && !all {
                continue;
            }
            let got =
                gamerec::perft::perft(game, &mut RecordSource::new(&record, None), None, depth)
                    .unwrap_or_else(|p| panic!("{} {}: {}", game.name(), entry.id, p.message));
            assert_eq!(
                got.total,
                expected,
                "{} {} perft {depth}",
                game.name(),
                entry.id
            );
            // The divided counts add up to the total.
            assert_eq!(got.moves.iter().map(|(_, n)| n).sum::<u64>(), got.total);
            deepest = deepest.max(depth);
        }
    }
    deepest
}

#[test]
fn every_game_matches_its_perft_file_to_depth_three_at_least() {
    let all = std::env::var_os("GAMEREC_PERFT_ALL").is_some();
    for game in GAMES {
        let deepest = check(*game, all);
        assert!(deepest >= 3, "{}: checked to depth {deepest}", game.name());
    }
}

#[test]
fn generated_turns_are_played_and_read_back_along_walks_from_every_perft_position() {
    for game in GAMES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/rules/tests/data")
            .join(format!("{}.perft", game.name()));
        let file = File::open(&path).unwrap();
        let lines = BufReader::new(file).lines().map(|l| l.unwrap());
        for entry in entries(lines).map(Result::unwrap) {
            if !entry.tags.is_empty() {
                continue; // settings are not part of a bare Position
            }
            let position = entry.position.as_deref().unwrap_or("");
            // Three walks of up to 40 plies, picking different turns.
            for seed in [0u8, 7, 101] {
                let choices: Vec<u8> = (0..40u8)
                    .map(|i| i.wrapping_mul(37).wrapping_add(seed))
                    .collect();
                let checked = gamerec::perft::check_walk(*game, position, &choices, true)
                    .unwrap_or_else(|| panic!("{} {}: position unread", game.name(), entry.id))
                    .unwrap_or_else(|e| panic!("{} {}: {e}", game.name(), entry.id));
                assert!(checked > 0, "{} {}", game.name(), entry.id);
            }
        }
    }
}
