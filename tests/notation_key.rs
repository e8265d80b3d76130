//! The position key the index and the explorer merge by
//! ([`Search::notation_key`]) follows the position notation alone: a
//! position written and read back has the key it had, over every position
//! of generated games of all five games — so the index finds every game
//! `filter --reaches` (which compares the notation) finds. And positions
//! the notation writes differently have different keys.

use gamerec::game::{Notation, Rules, Search};
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use gamerec::gen::{positions, GenOptions};
use gamerec::record::Tag;
use std::collections::HashMap;

fn follows_the_notation<G: Search + Notation>(games: u64) {
    let opts = GenOptions {
        finish: true,
        ..GenOptions::default()
    };
    let mut seen: HashMap<u64, String> = HashMap::new();
    let all = positions::<G>(7, games, &opts);
    assert!(all.len() > 100);
    for pos in &all {
        let text = G::write_position(pos);
        let again = G::parse_position(&text).unwrap();
        let key = G::notation_key(pos);
        assert_eq!(G::notation_key(&again), key, "{text}");
        if let Some(other) = seen.insert(key, text.clone()) {
            assert_eq!(other, text, "two positions share a key");
        }
    }
}

#[test]
fn oshi_keys_follow_the_notation() {
    follows_the_notation::<Oshi>(60);
}

#[test]
fn retsami_keys_follow_the_notation() {
    follows_the_notation::<Retsami>(60);
}

#[test]
fn iqishiqi_keys_follow_the_notation() {
    follows_the_notation::<Iqishiqi>(300);
}

#[test]
fn roshi_keys_follow_the_notation() {
    follows_the_notation::<Roshi>(40);
}

#[test]
fn vagabond_keys_follow_the_notation() {
    follows_the_notation::<Vagabond>(40);
}

fn tags(pairs: &[(&str, &str)]) -> Vec<Tag> {
    pairs.iter().map(|(n, v)| Tag::unplaced(n, v)).collect()
}

/// A start some tags set up that the notation does not write (Retsami's
/// first mover, Oshi's reading of the no-return rule) has the key of the
/// same position read from the notation alone — though not the search's.
fn start_follows_the_notation<G: Search + Notation>(settings: &[(&str, &str)]) {
    let start = G::start(&tags(settings)).unwrap();
    let text = G::write_position(&start);
    let again = G::parse_position(&text).unwrap();
    assert_ne!(G::key(&start), G::key(&again), "the tags set something up");
    assert_eq!(G::notation_key(&start), G::notation_key(&again), "{text}");
}

#[test]
fn a_retsami_start_white_moves_first_in_keys_as_its_notation() {
    start_follows_the_notation::<Retsami>(&[("FirstPlayer", "White")]);
}

#[test]
fn an_oshi_start_under_the_opponent_reading_keys_as_its_notation() {
    start_follows_the_notation::<Oshi>(&[("NoReturn", "opponent")]);
}

#[test]
fn iqishiqi_positions_named_in_abstractplays_labels_key_as_read_under_them() {
    // The notation names cells as the Coords setting says: read back under
    // the same setting (as filter --reaches and the index read a
    // position), the key is the same; a supply of stones is written.
    for settings in [&[("Coords", "abstractplay")][..], &[("StoneLimit", "5")]] {
        let start = Iqishiqi::start(&tags(settings)).unwrap();
        let text = Iqishiqi::write_position(&start);
        let mut reread = tags(settings);
        reread.extend(tags(&[("Position", &text)]));
        let again = Iqishiqi::start(&reread).unwrap();
        assert_eq!(
            Iqishiqi::notation_key(&start),
            Iqishiqi::notation_key(&again),
            "{text}"
        );
        let plain = Iqishiqi::start(&[]).unwrap();
        assert_ne!(
            Iqishiqi::notation_key(&start),
            Iqishiqi::notation_key(&plain),
            "{text}"
        );
    }
}

#[test]
fn a_retsami_position_after_an_agreed_draw_keys_as_its_notation() {
    // `1. h1-i3~~ ==`: the draw agreed, which the notation does not write
    // (the fuzz target found a game whose last position a key missed).
    let mut pos = Retsami::start(&[]).unwrap();
    for text in ["h1-i3~~", "=="] {
        let mv = Retsami::parse_move(&pos, text).unwrap();
        assert!(Retsami::play(&mut pos, &mv).is_ok());
    }
    let text = Retsami::write_position(&pos);
    let again = Retsami::parse_position(&text).unwrap();
    assert_eq!(
        Retsami::notation_key(&pos),
        Retsami::notation_key(&again),
        "{text}"
    );
}
