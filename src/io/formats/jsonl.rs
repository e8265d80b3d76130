//! gamerec JSON Lines: one game object per line (the JSON document's
//! game objects, notation/json.md), detected by its extension `.jsonl`
//! (`.ndjson`) or a first word `{`, read line by line and written a line
//! per game as the games are converted (the writer is the JSON
//! document's, [`super::json::JsonSink`], without the document around it).

use super::json::{from_json, malformed_json, GameIn};
use super::visit::{read_line_capped, Cx, Each, Reading};
use super::{Format, FormatEntry, Peek, Sure};
use crate::envelope::record::{Chunk, Span};
use crate::io::reading::too_large;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// JSON Lines' line in the table of formats.
pub(crate) const LINE: FormatEntry = FormatEntry {
    name: "jsonl",
    read_help: "gamerec JSON Lines",
    write_help: "JSON Lines: one game object per line",
    detected_by: "the extension `.jsonl` or `.ndjson`, or a first word `{`",
    formats: || vec![Format::Jsonl],
    detect: |head: &Peek<'_>| match head.extension {
        Some("jsonl" | "ndjson") => Some((Sure::Extension, Format::Jsonl)),
        _ if head.token.starts_with(b"{") => Some((Sure::Token, Format::Jsonl)),
        _ => None,
    },
};

/// Reads gamerec JSON Lines: one game object per line (blank lines
/// skipped), each at most [`crate::envelope::record::MAX_RECORD_BYTES`] long (a longer line is
/// `record-too-large`), located at its line.
pub fn read<R: BufRead>(input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<Reading> {
    lines(input, cx, each).map(Reading::flow)
}

/// [`read`], saying whether `each` stopped it.
fn lines<R: BufRead>(mut input: R, cx: Cx<'_>, each: &mut Each<'_>) -> io::Result<ControlFlow<()>> {
    let mut line = Vec::new();
    let (mut offset, mut number) = (0usize, 0usize);
    loop {
        line.clear();
        let (read, cut) = read_line_capped(&mut input, &mut line)?;
        if read == 0 {
            return Ok(ControlFlow::Continue(()));
        }
        number += 1;
        let mut chunk = Chunk::from_bytes(Vec::new());
        chunk.offset = offset;
        chunk.line = number;
        offset += read;
        let game = if cut {
            chunk.truncated = true;
            Err(too_large(&chunk))
        } else {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_start_matches('\u{feff}').trim();
            if text.is_empty() {
                continue;
            }
            serde_json::from_str::<GameIn>(text).map_err(|e| {
                let mut p = malformed_json(e, number - 1);
                p.span = Span::new(offset - read, offset - read);
                p
            })
        };
        if from_json(cx, Some(&chunk), game, each)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
}
