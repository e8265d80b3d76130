//! Criterion suite, per game: parsing the envelope only, full replay
//! (`validate`'s work), and legal-move generation at positions from random
//! games. Inputs come from `gen` with fixed seeds, so runs compare. Every
//! game in the registry is measured.
//!
//! `cargo bench --bench replay` (all), `cargo bench --bench replay -- oshi`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gamerec::formats::text::write_game;
use gamerec::gen::GenOptions;
use gamerec::record::{parse_chunk, ChunkReader};
use gamerec::registry::{AnyGame, GAMES};
use gamerec::validate;
use std::hint::black_box;

/// The allocator the binary uses, so that figures compare.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// About `bytes` of generated games, in the text format.
fn archive(rules: &dyn AnyGame, bytes: usize) -> Vec<u8> {
    let opts = GenOptions::default();
    let mut text = String::new();
    let mut i = 1;
    while text.len() < bytes {
        if i > 1 {
            text.push('\n');
        }
        write_game(&gamerec::gen::generate(rules, 7, i, &opts), &mut text);
        i += 1;
    }
    text.into_bytes()
}

/// How much of each game to generate: games whose positions have thousands
/// of legal moves are slow to generate, so they get a smaller sample.
fn sample_size(rules: &dyn AnyGame) -> (usize, u64) {
    let probe = gamerec::gen::sample_positions(
        rules,
        11,
        1,
        &GenOptions {
            max_plies: 20,
            finish: false,
        },
    );
    let mut probe = probe;
    let per_position = probe.count_legal_moves() / probe.len().max(1);
    match per_position {
        0..=200 => (1 << 20, 100),
        201..=1000 => (1 << 20, 5),
        _ => (256 << 10, 2),
    }
}

fn parse_and_replay(c: &mut Criterion) {
    for rules in GAMES {
        let (size, _) = sample_size(*rules);
        let input = archive(*rules, size);
        let mut group = c.benchmark_group(rules.name());
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.sample_size(20);
        group.bench_function("parse", |b| {
            b.iter(|| {
                let mut games = 0;
                for chunk in ChunkReader::new(&input[..]) {
                    games += parse_chunk(&chunk.unwrap()).len();
                }
                black_box(games)
            })
        });
        group.bench_function("replay", |b| {
            b.iter(|| {
                let mut valid = 0;
                validate::validate(&input[..], &mut |_, r| {
                    valid += usize::from(r.is_valid());
                    Ok(())
                })
                .unwrap();
                black_box(valid)
            })
        });
        group.finish();
    }
}

fn legal_moves(c: &mut Criterion) {
    let opts = GenOptions {
        max_plies: 120,
        finish: false,
    };
    for rules in GAMES {
        let (_, games) = sample_size(*rules);
        let mut positions = gamerec::gen::sample_positions(*rules, 11, games, &opts);
        let mut group = c.benchmark_group(rules.name());
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.sample_size(20);
        group.bench_function("legal-moves", |b| {
            b.iter(|| black_box(positions.count_legal_moves()))
        });
        group.finish();
    }
}

criterion_group!(benches, parse_and_replay, legal_moves);
criterion_main!(benches);
