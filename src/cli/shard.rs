//! `gamerec shard`: split archives into shards on game boundaries, in
//! input order, named so that they sort (`part-00000.grec.zst`…), for
//! workers that each read one on their own (the library's `shard` cuts
//! them; notation/shard.md).

use super::messages;
use super::options::{parse_size, InputArgs, Jobs, Quiet};
use super::run::{self, Run};
use clap::ValueEnum;
use gamerec::decode::Compression;
use gamerec::formats::Format;
use gamerec::inputs::Item;
use gamerec::output::Output;
use gamerec::shard::{self, Done, Failed, Plan, ShardEvent};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ShardFormat {
    /// The record format: a text input's own bytes, others as canonical
    /// text.
    Text,
    /// gamerec JSON Lines, one game per line.
    Jsonl,
    /// A Parquet games table (notation/parquet.md).
    Parquet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompressArg {
    /// Zstandard (`.zst`).
    Zst,
    /// gzip (`.gz`).
    Gz,
}

#[derive(clap::Args)]
#[command(
    group = clap::ArgGroup::new("size").required(true).args(["parts", "max_bytes"]),
    after_help = "Shards are named part-00000.grec (.jsonl, .parquet), with .zst or .gz when \
compressed, and hold whole games in input order: every game is in exactly one shard. Text \
shards of text input are cut without replaying: concatenated they are the input (UTF-8), and \
their games are not judged. Details: notation/shard.md."
)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// The folder to write the shards in (made if missing; it must hold no
    /// shards yet).
    #[arg(short, long, value_name = "DIR")]
    output: PathBuf,
    /// Split into N shards of (nearly) as many games each (fewer when there
    /// are fewer games).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    parts: Option<u64>,
    /// Start a new shard before a game that would take this one past SIZE
    /// bytes (before compression; a game larger than SIZE gets a shard of
    /// its own). Suffixes K, M, G (powers of 1024): 64M.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_bytes: Option<u64>,
    /// Compress each shard (text and jsonl; Parquet is compressed inside).
    #[arg(long, value_enum, value_name = "HOW")]
    compress: Option<CompressArg>,
    /// The shards' format.
    #[arg(
        long = "to",
        visible_alias = "format",
        value_enum,
        default_value = "text",
        value_name = "FORMAT"
    )]
    format: ShardFormat,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    jobs: Jobs,
}

pub fn run(args: Args) {
    if run::options(args.input.game.as_deref()).is_none() {
        return;
    }
    if args.compress.is_some() && args.format == ShardFormat::Parquet {
        return messages::error(
            "Parquet shards are compressed inside (zstd): --compress is for text and jsonl",
        );
    }
    let dir = &args.output;
    if let Err(e) = shard::prepare(dir) {
        return messages::error(e);
    }
    let Some(mut run) = Run::start(&args.input, &args.jobs, &Output::new(None)) else {
        return;
    };
    let spooled = match shard::spool_stdin(&mut run.sources) {
        Ok(s) => s,
        Err(e) => return messages::error(format!("<stdin>: {e}")),
    };
    let plan = Plan {
        to: match args.format {
            ShardFormat::Text => Format::Text,
            ShardFormat::Jsonl => Format::Jsonl,
            ShardFormat::Parquet => Format::Parquet,
        },
        compression: match args.compress {
            None => Compression::None,
            Some(CompressArg::Zst) => Compression::Zstd,
            Some(CompressArg::Gz) => Compression::Gzip,
        },
        parts: args.parts,
        max_bytes: args.max_bytes,
    };
    let run = run.progress(args.quiet.quiet);
    let done = run.cut(dir, &plan, &mut |event| match event {
        ShardEvent::Warning(w) => messages::warning(w),
        ShardEvent::Invalid => messages::invalid(),
        ShardEvent::Input(Item::Failed { input, error }) => {
            messages::error(format!("{input}: {error}"))
        }
        ShardEvent::Input(Item::Empty { input, skipped }) => {
            messages::invalid();
            run::no_game_warning(input, skipped);
        }
        ShardEvent::Input(Item::Game(_)) => {}
    });
    drop(spooled);
    match done {
        Err(Failed::Written(e)) => {
            // Nothing was moved in: the staging folder went.
            messages::finished(Err(e));
            if messages::errored() {
                messages::say(format!(
                    "gamerec: no shard written: {} is as it was",
                    dir.display()
                ));
            }
        }
        Err(Failed::MovedIn(e)) => messages::error(e),
        Ok(done) => said(&done, dir, args.quiet.quiet),
    }
}

/// Says what was written.
fn said(done: &Done, dir: &std::path::Path, quiet: bool) {
    if done.games == 0 {
        messages::invalid();
        messages::warning("no game in the input: no shard written");
    }
    if !quiet {
        messages::say(done.summary(dir));
    }
}
