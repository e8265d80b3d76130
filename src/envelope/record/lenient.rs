//! `--lenient`, the envelope's part: a comment or a tag pair left open is
//! closed at the end of its line, a malformed or dangling move number is
//! read as no number. Each repair is a patch of the chunk's text, the
//! chunk is read again with the one parser, and every place in what was
//! read is moved back to where it stands in the input; each repair is
//! listed with its place, the text before and after. Knows no game (the
//! game's part — numbers, results, truncated and broken moves — is
//! `crate::play::lenient`).

use super::{parse_chunk_with, Chunk, MovetextStyle, Parsed, Tag};
use crate::base::problem::{Code, Problem, Repair, RepairCode, Span};

/// At most this many repairs are made in one chunk (a chunk of mostly
/// broken text is left as it is read from there on).
const MAX_REPAIRS: usize = 256;

/// A game read leniently.
#[derive(Debug)]
pub struct Leniently {
    /// The game as read after the repairs, every place in the input's own
    /// offsets; its problem, when one remains.
    pub parsed: Parsed,
    /// The repairs made to its text, in order.
    pub repairs: Vec<Repair>,
    /// The repairs (indices in `repairs`) of move numbers read as no
    /// number: the number the turn after them has is theirs to show
    /// (`after`), once the game is known.
    pub renumbered: Vec<usize>,
}

/// Text put into the chunk: `len` bytes at `at` (relative, in the patched
/// text).
#[derive(Clone, Copy, Debug)]
struct Insertion {
    at: usize,
    len: usize,
}

/// A repair, its place still in the patched text (relative).
struct Pending {
    repair: Repair,
    at: usize,
    renumbered: bool,
}

/// Reads every game of `chunk` as [`super::parse_chunk_with`] does, making
/// the envelope's repairs (see the module's documentation).
pub fn read_leniently(chunk: &Chunk, style: &dyn Fn(&[Tag]) -> MovetextStyle) -> Vec<Leniently> {
    let (parsed, mut inserted, pending) = patched(chunk, style);
    inserted.sort_by_key(|i| i.at);
    let base = chunk.offset;
    let to_input = |abs: usize| -> usize {
        let rel = abs.saturating_sub(base);
        let mut shift = 0;
        for i in &inserted {
            if i.at >= rel {
                break;
            }
            shift += (rel - i.at).min(i.len);
        }
        base + rel - shift
    };
    let mut games: Vec<Leniently> = parsed
        .into_iter()
        .map(|p| Leniently {
            parsed: p,
            repairs: Vec::new(),
            renumbered: Vec::new(),
        })
        .collect();
    // Each repair belongs to the game whose text holds it (the last game
    // that starts at or before it).
    for p in pending {
        let abs = base + p.at;
        let owner = games
            .iter()
            .rposition(|g| g.parsed.record.span.start <= abs)
            .unwrap_or(0);
        if let Some(game) = games.get_mut(owner) {
            let mut repair = p.repair;
            repair.span = Span::new(to_input(repair.span.start), to_input(repair.span.end));
            if p.renumbered {
                game.renumbered.push(game.repairs.len());
            }
            game.repairs.push(repair);
        }
    }
    for g in &mut games {
        g.parsed.record.remap_spans(&to_input);
        if let Some(e) = &mut g.parsed.error {
            e.span = Span::new(to_input(e.span.start), to_input(e.span.end));
        }
    }
    games
}

/// The chunk parsed again and again, each time with its first problem
/// patched (a patch past the one before, at most [`MAX_REPAIRS`]), until
/// none is left or none can be patched: the games of the patched text,
/// what was inserted into it, and the repairs with their places.
fn patched(
    chunk: &Chunk,
    style: &dyn Fn(&[Tag]) -> MovetextStyle,
) -> (Vec<Parsed>, Vec<Insertion>, Vec<Pending>) {
    let mut bytes = chunk.bytes.clone();
    let mut inserted: Vec<Insertion> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut last: Option<usize> = None;
    loop {
        let patched = Chunk {
            bytes: std::mem::take(&mut bytes),
            offset: chunk.offset,
            line: chunk.line,
            column: chunk.column,
            truncated: chunk.truncated,
        };
        let parsed = parse_chunk_with(&patched, style);
        bytes = patched.bytes;
        let Some(problem) = first_problem(&parsed) else {
            return (parsed, inserted, pending);
        };
        let at = problem.span.start.saturating_sub(chunk.offset);
        if pending.len() >= MAX_REPAIRS || last.is_some_and(|l| at <= l) {
            return (parsed, inserted, pending);
        }
        let Some((repair, insertion, renumbered)) = patch(&mut bytes, chunk.offset, problem) else {
            return (parsed, inserted, pending);
        };
        // Each patch lies past the one before (the text before a problem
        // reads the same once patched): places in the patched text found
        // so far stay where they are.
        inserted.extend(insertion);
        pending.push(Pending {
            at,
            repair,
            renumbered,
        });
        last = Some(at);
    }
}

/// The first problem that stops the reading (a byte that is not UTF-8
/// stops nothing: it costs only its value).
fn first_problem(parsed: &[Parsed]) -> Option<&Problem> {
    parsed
        .iter()
        .filter_map(|p| p.error.as_ref())
        .find(|e| e.code != Code::InvalidUtf8)
}

/// The end of the line holding `from` (before its `\r\n` or `\n`), or of
/// the text.
fn line_end(bytes: &[u8], from: usize) -> usize {
    let end = memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i);
    if end > from && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Patches `bytes` (a chunk at `base`) for `problem`, when it is one the
/// envelope repairs: the repair (its span in the patched text, absolute),
/// the text inserted, and whether the repair waits for its number.
fn patch(
    bytes: &mut Vec<u8>,
    base: usize,
    problem: &Problem,
) -> Option<(Repair, Option<Insertion>, bool)> {
    let at = problem.span.start.checked_sub(base)?;
    let abs = |rel: usize| base + rel;
    match problem.code {
        Code::UnterminatedComment => {
            let end = line_end(bytes, at);
            let before = text(&bytes[at..end]);
            bytes.insert(end, b'}');
            let repair = Repair::new(
                RepairCode::ClosedComment,
                "this comment is never closed: closed at the end of its line",
                Span::new(abs(at), abs(end)),
                before.clone(),
                format!("{before}}}"),
            );
            Some((repair, Some(Insertion { at: end, len: 1 }), false))
        }
        Code::UnterminatedTag => {
            let end = line_end(bytes, at);
            let line = &bytes[at..end];
            let (offset, close) = close_tag(line)?;
            let before = text(line);
            let mut after = line.to_vec();
            after.splice(offset..offset, close.iter().copied());
            let after = text(&after);
            bytes.splice(at + offset..at + offset, close.iter().copied());
            let what = match close {
                b"]" => "this tag pair is never closed: `]` added at the end of its line",
                _ => "this tag value is never closed: closed at the end of its line",
            };
            let repair = Repair::new(
                RepairCode::ClosedTag,
                what,
                Span::new(abs(at), abs(end)),
                before,
                after,
            );
            let insertion = Insertion {
                at: at + offset,
                len: close.len(),
            };
            Some((repair, Some(insertion), false))
        }
        Code::MalformedMoveNumber | Code::DanglingMoveNumber => {
            let end = problem.span.end.checked_sub(base)?.min(bytes.len());
            if end <= at
                || !bytes[at..end]
                    .iter()
                    .all(|b| b.is_ascii_digit() || *b == b'.')
            {
                return None;
            }
            let before = text(&bytes[at..end]);
            bytes[at..end].fill(b' ');
            let malformed = problem.code == Code::MalformedMoveNumber;
            let message = if malformed {
                format!("`{before}` is no move number (`N.` or `N...`): the turn after it is numbered by its place")
            } else {
                format!("`{before}` numbers no turn: dropped")
            };
            let repair = Repair::new(
                RepairCode::MoveNumber,
                message,
                Span::new(abs(at), abs(end)),
                before,
                "",
            );
            Some((repair, None, malformed))
        }
        _ => None,
    }
}

/// Where a tag pair left open on its line (`line`: from its `[` to the
/// line's end) is closed, and with what: `"]` after a value that runs to
/// the line's end (`"` alone before a `]` that ends the line), `]` after a
/// closed value. `None` for a tag pair that is wrong some other way.
fn close_tag(line: &[u8]) -> Option<(usize, &'static [u8])> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = 1;
    while line.get(i).is_some_and(blank) {
        i += 1;
    }
    let name = line[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name == 0 {
        return None;
    }
    i += name;
    while line.get(i).is_some_and(blank) {
        i += 1;
    }
    if line.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let value_start = i;
    let trimmed = line.len() - line.iter().rev().take_while(|b| blank(b)).count();
    loop {
        match line.get(i) {
            None => {
                // The value runs to the line's end.
                if trimmed > value_start && line[trimmed - 1] == b']' {
                    return Some((trimmed - 1, b"\""));
                }
                return Some((trimmed.max(value_start), b"\"]"));
            }
            Some(b'\\') => match line.get(i + 1) {
                Some(b'"' | b'\\') => i += 2,
                _ => return None,
            },
            Some(b'"') => break,
            Some(_) => i += 1,
        }
    }
    // A closed value: only blanks may follow, where `]` is missing.
    if line[i + 1..].iter().all(blank) {
        Some((trimmed, b"]"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Leniently> {
        read_leniently(&Chunk::from_bytes(text.as_bytes()), &|_| {
            MovetextStyle::default()
        })
    }

    fn one(text: &str) -> Leniently {
        let mut all = read(text);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0)
    }

    #[test]
    fn an_open_comment_is_closed_at_the_end_of_its_line() {
        let text = "[Game \"oshi\"]\n1. e3-e5 {oops\ne7-e6 *\n";
        let g = one(text);
        assert!(g.parsed.error.is_none(), "{:?}", g.parsed.error);
        let turns: Vec<_> = g.parsed.record.turns.iter().map(|t| &t.text).collect();
        assert_eq!(turns, ["e3-e5", "e7-e6"]);
        assert_eq!(g.parsed.record.turns[0].comments[0].text, "oops");
        let r = &g.repairs[0];
        assert_eq!(r.code, RepairCode::ClosedComment);
        assert_eq!((r.before.as_str(), r.after.as_str()), ("{oops", "{oops}"));
        assert_eq!(&text[r.span.start..r.span.end], "{oops");
        // Every place after the inserted `}` is the input's own.
        let e7 = &g.parsed.record.turns[1];
        assert_eq!(&text[e7.span.start..e7.span.end], "e7-e6");
        let result = g.parsed.record.result.unwrap();
        assert_eq!(&text[result.span.start..result.span.end], "*");
    }

    #[test]
    fn an_open_comment_at_the_end_of_the_text_is_closed_there() {
        let text = "[Game \"oshi\"]\n1. e3-e5 {cut off";
        let g = one(text);
        assert!(g.parsed.error.is_none(), "{:?}", g.parsed.error);
        assert_eq!(g.parsed.record.turns[0].comments[0].text, "cut off");
        // The `}` added is no byte of the input: the game ends at its end.
        assert_eq!(g.parsed.record.span.end, text.len());
    }

    #[test]
    fn open_tag_values_and_pairs_are_closed_at_the_end_of_their_line() {
        for (line, after, value) in [
            (
                "[Event \"Club night",
                "[Event \"Club night\"]",
                "Club night",
            ),
            (
                "[Event \"Club night]",
                "[Event \"Club night\"]",
                "Club night",
            ),
            (
                "[Event \"Club night\"  ",
                "[Event \"Club night\"]  ",
                "Club night",
            ),
            (
                "[Event \"Club night\r",
                "[Event \"Club night\"]",
                "Club night",
            ),
        ] {
            let text = format!("[Game \"oshi\"]\n{line}\n[Round \"2\"]\n1. e3-e5 *\n");
            let g = one(&text);
            assert!(g.parsed.error.is_none(), "{line}: {:?}", g.parsed.error);
            assert_eq!(g.parsed.record.tag_value("Event"), Some(value), "{line}");
            assert_eq!(g.parsed.record.tag_value("Round"), Some("2"), "{line}");
            let r = &g.repairs[0];
            assert_eq!(r.code, RepairCode::ClosedTag);
            assert_eq!(r.before, line.trim_end_matches('\r'));
            assert_eq!(r.after, after);
            let round = g.parsed.record.tag("Round").unwrap();
            assert_eq!(&text[round.span.start..round.span.end], "[Round \"2\"]");
        }
    }

    #[test]
    fn a_tag_wrong_some_other_way_stays_an_error() {
        for text in ["[Event\n*", "[\"x\"\n*", "[Event \"a\" b\n*"] {
            let g = one(text);
            assert!(g.parsed.error.is_some(), "{text}");
            assert!(g.repairs.is_empty(), "{text}");
        }
    }

    #[test]
    fn malformed_and_dangling_move_numbers_are_read_as_none() {
        let text = "[Game \"oshi\"]\n1.. e3-e5 e7-e6 2. 2. c2-c4 3.";
        let g = one(text);
        assert!(g.parsed.error.is_none(), "{:?}", g.parsed.error);
        let turns: Vec<_> = g.parsed.record.turns.iter().map(|t| &t.text).collect();
        assert_eq!(turns, ["e3-e5", "e7-e6", "c2-c4"]);
        assert!(g.parsed.record.turns[0].number.is_none());
        assert_eq!(g.parsed.record.turns[2].number.unwrap().number, 2);
        let codes: Vec<_> = g
            .repairs
            .iter()
            .map(|r| (r.code, r.before.as_str()))
            .collect();
        assert_eq!(
            codes,
            [
                (RepairCode::MoveNumber, "1.."),
                (RepairCode::MoveNumber, "2."),
                (RepairCode::MoveNumber, "3.")
            ]
        );
        // Only the malformed one waits for its turn's number.
        assert_eq!(g.renumbered, [0]);
    }

    #[test]
    fn repairs_go_to_their_own_game() {
        let text = "[Game \"oshi\"]\n1. e3-e5 *\n[Game \"oshi\"]\n{open\n1. e3-e5 *\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert!(games[0].repairs.is_empty());
        assert_eq!(games[1].repairs.len(), 1);
        assert!(games.iter().all(|g| g.parsed.error.is_none()));
    }

    #[test]
    fn what_cannot_be_repaired_stays_an_error_and_nothing_loops() {
        let g = one("[Game \"oshi\"]\n1. e3-e5 } *");
        assert_eq!(g.parsed.error.unwrap().code, Code::StrayBrace);
        // Many open comments: each closed once, the reading ends.
        let text = format!("[Game \"oshi\"]\n{}", "{a\n".repeat(400));
        let g = one(&text);
        assert_eq!(g.repairs.len(), MAX_REPAIRS);
    }
}
