//! Reading any format: the dispatch to each format's reader — in parallel
//! where the format allows ([`read_mapped`]), on this thread ([`read`],
//! [`read_nth`]). Every reader streams, game by game; nothing of a game is
//! kept once it is handed on.

use super::visit::{Cx, Each, Reading, Visit};
use super::{json, jsonl, links, moves, parquet, records, text, Format};
use crate::envelope::record::Chunk;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// Reads every game of `input` (in `cx.format`): `map` works on each as it
/// is read (for the record format and Parquet on worker threads, as many
/// as the options say: nothing of a game need be kept), its results are
/// handed to `each` in input order, with the chunk the game came from,
/// until `each` breaks (then the reading says it stopped). Records of
/// games gamerec does not play (in a site's files) are skipped and
/// counted.
pub fn read_mapped<R, T, M, E>(input: R, cx: Cx<'_>, map: M, mut each: E) -> io::Result<Reading>
where
    R: BufRead + Send,
    T: Send,
    M: Fn(Visit<'_, '_>) -> T + Sync,
    E: FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
{
    match cx.format {
        Format::Text => text::read_mapped(input, cx, &map, each),
        Format::Parquet => parquet::read_mapped(input, cx, &map, each),
        _ => read(input, cx, &mut |visit| {
            let chunk = visit.chunk;
            let made = map(visit);
            each(chunk, made)
        }),
    }
}

/// Reads every game of `input` on this thread, handing each to `each`
/// as it is read, until `each` breaks.
pub fn read<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    match cx.format {
        Format::Text => text::read(input, cx, each),
        Format::Json => json::read(input, cx, each),
        Format::Jsonl => jsonl::read(input, cx, each),
        Format::Parquet => parquet::read(input, cx, each),
        Format::Moves(site) => moves::read(input, cx, site, each),
        Format::Records(_) => records::read_all(input, cx, each),
        Format::Links(_) => links::read_all(input, cx, each),
        Format::Csv => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "CSV is written, not read: read the games from the file it was made of",
        )),
    }
}

/// Hands game `n` (1-based) of `input` to `f` as it is read, on this
/// thread (the games before it are read past, nothing of them kept);
/// returns what `f` made of it, or `None` when the input has fewer games.
pub fn read_nth<R, T, F>(input: R, cx: Cx<'_>, n: usize, f: F) -> io::Result<Option<T>>
where
    R: BufRead,
    F: FnOnce(Visit<'_, '_>) -> T,
{
    let (mut f, mut made, mut seen) = (Some(f), None, 0);
    read(input, cx, &mut |visit| {
        seen += 1;
        if seen == n {
            made = f.take().map(|f| f(visit));
        }
        Ok(match seen >= n {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        })
    })?;
    Ok(made)
}
