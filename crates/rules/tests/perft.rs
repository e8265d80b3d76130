//! Each game's move generator against its perft data file
//! (`tests/data/<game>.perft`, counts established without the generator:
//! by hand, by another implementation, or by trying every writable move
//! through the rules — each entry says which), through the generic
//! [`perft`] alone: no record, no registry. Counts above a node limit are
//! skipped so that the crate's tests stay quick (`GAMEREC_PERFT_ALL=1`
//! checks them all; gamerec's own tests/perft.rs checks the same files
//! through its registry up to a higher limit).

use gamerec_rules::game::Rules;
use gamerec_rules::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use gamerec_rules::perft::{divide, entries, perft};
use gamerec_rules::Tag;

const NODE_LIMIT: u64 = 1_000_000;

/// Checks `game`'s file; returns the deepest depth checked.
fn check<G: Rules + gamerec_rules::game::Notation>(game: &str) -> u32 {
    let path = format!("{}/tests/data/{game}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let all = std::env::var_os("GAMEREC_PERFT_ALL").is_some();
    let mut deepest = 0;
    for entry in entries(text.lines().map(String::from)) {
        let entry = entry.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            entry.source.is_some(),
            "{}: says how it was established",
            entry.id
        );
        let tags: Vec<Tag> = (entry.tag_pairs().iter())
            .map(|(n, v)| Tag::unplaced(n, v))
            .collect();
        let pos = G::start(&tags).unwrap_or_else(|e| panic!("{}: {}", entry.id, e.message));
        for &(depth, expected) in &entry.counts {
            if expected > NODE_LIMIT && !all {
                continue;
            }
            assert_eq!(
                perft::<G>(&pos, depth),
                expected,
                "{game} {} perft {depth}",
                entry.id
            );
            let divided = divide::<G>(&pos, depth);
            assert_eq!(
                divided.total, expected,
                "{game} {} divide {depth}",
                entry.id
            );
            deepest = deepest.max(depth);
        }
    }
    deepest
}

#[test]
fn every_game_matches_its_perft_file_to_depth_three_at_least() {
    for (game, deepest) in [
        ("iqishiqi", check::<Iqishiqi>("iqishiqi")),
        ("oshi", check::<Oshi>("oshi")),
        ("retsami", check::<Retsami>("retsami")),
        ("roshi", check::<Roshi>("roshi")),
        ("vagabond", check::<Vagabond>("vagabond")),
    ] {
        assert!(deepest >= 3, "{game}: checked to depth {deepest}");
    }
}
