//! Criterion suite, per game: parsing the envelope only, full replay
//! (`validate`'s work), and legal-move generation at positions from random
//! games. Inputs come from `gen` with fixed seeds, so runs compare.
//!
//! `cargo bench --bench replay` (all), `cargo bench --bench replay -- oshi`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use gamerec::archive;
use gamerec::convert::text::write_game;
use gamerec::game::Game;
use gamerec::games::{
    iqishiqi::Iqishiqi, oshi::Oshi, retsami::Retsami, roshi::Roshi, vagabond::Vagabond,
};
use gamerec::gen::{positions, GenOptions};
use gamerec::record::{parse_chunk, ChunkReader};
use std::hint::black_box;

/// The allocator the binary uses, so that figures compare.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// About `bytes` of generated games of `name`, in the text format.
fn archive(name: &str, bytes: usize) -> Vec<u8> {
    let rules = gamerec::games::find(name).unwrap();
    let opts = GenOptions::default();
    let mut text = String::new();
    let mut i = 1;
    while text.len() < bytes {
        if i > 1 {
            text.push('\n');
        }
        write_game(&rules.generate(7, i, &opts), &mut text);
        i += 1;
    }
    text.into_bytes()
}

fn parse_and_replay(c: &mut Criterion) {
    for name in ["oshi", "iqishiqi", "retsami", "roshi", "vagabond"] {
        // Roshi's games are slow to generate (thousands of moves a ply).
        let size = if name == "roshi" { 256 << 10 } else { 1 << 20 };
        let input = archive(name, size);
        let mut group = c.benchmark_group(name);
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
                archive::validate(&input[..], &mut |_, r| {
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

fn legal_moves_of<G: Game>(c: &mut Criterion, name: &str, games: u64) {
    let opts = GenOptions {
        max_plies: 120,
        finish: false,
    };
    let positions = positions::<G>(11, games, &opts);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.sample_size(20);
    group.bench_function("legal-moves", |b| {
        b.iter_batched_ref(
            Vec::new,
            |moves| {
                let mut n = 0;
                for p in &positions {
                    moves.clear();
                    G::legal_moves(p, moves);
                    n += moves.len();
                }
                black_box(n)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn legal_moves(c: &mut Criterion) {
    legal_moves_of::<Oshi>(c, "oshi", 20);
    legal_moves_of::<Iqishiqi>(c, "iqishiqi", 100);
    legal_moves_of::<Retsami>(c, "retsami", 20);
    legal_moves_of::<Roshi>(c, "roshi", 2);
    legal_moves_of::<Vagabond>(c, "vagabond", 5);
}

criterion_group!(benches, parse_and_replay, legal_moves);
criterion_main!(benches);
