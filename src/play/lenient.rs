//! `--lenient`, the game's part (generic over a game, built on the replay):
//! wrong move numbers renumbered, a trailing truncated move dropped, with
//! `--keep-broken` the turns from the first illegal one on kept as a
//! comment, and a declared result the replay contradicts replaced by the
//! replay's — each only where nothing has to be guessed, each listed as a
//! [`Repair`]. The envelope's part is [`crate::envelope::record::read_leniently`];
//! the missing `Game` tag is the archive's (it needs every game).

use crate::base::problem::{Code, Repair, RepairCode, Span};
use crate::envelope::record::{Comment, MoveNumber, Record, ResultMark, ResultToken, Tag, Turn};
use crate::play::replay::{self, first_turn, judge, play, result_token, turn_at, Played};
use gamerec_rules::game::{Notation, Rules};

/// What `--lenient` may do beyond what is always repaired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lenient {
    /// From the first illegal turn on, the rest of a game becomes a comment
    /// instead of an error (pgn-extract's `--keepbroken`).
    pub keep_broken: bool,
}

/// A move number as written: `12.` or `12...`.
fn written(number: u64, second: bool) -> String {
    format!("{number}{}", if second { "..." } else { "." })
}

/// Repairs `record` (read whole, its envelope without problems) under `G`,
/// adding each repair to `repairs`; `renumbered`: the repairs (indices in
/// `repairs`) of move numbers the envelope read as none, whose `after` is
/// the number of the turn after them.
pub fn repair<G: Rules + Notation>(
    record: &mut Record,
    lenient: Lenient,
    repairs: &mut Vec<Repair>,
    renumbered: &[usize],
) {
    renumber::<G>(record, repairs, renumbered);
    let mut played = play::<G, ()>(record, &mut ());
    if let Some(problem) = &played.error {
        if let Some(ply) = problem.ply {
            let message = problem.message.clone();
            if ply == record.turns.len() && truncated::<G>(record) {
                drop_last(record, repairs);
            } else if lenient.keep_broken {
                keep_broken(record, ply, &message, repairs);
            }
            // The turns changed: replay them as they now are.
            played = play::<G, ()>(record, &mut ());
        }
    }
    fix_result::<G>(record, &played, repairs);
}

/// Every written move number the replay would refuse becomes the one its
/// ply has.
fn renumber<G: Rules + Notation>(
    record: &mut Record,
    repairs: &mut Vec<Repair>,
    renumbered: &[usize],
) {
    let (first, starts_second) = first_turn::<G>(&record.tags);
    for (i, turn) in record.turns.iter_mut().enumerate() {
        let Some(n) = turn.number else { continue };
        let (number, second, _) = turn_at(i, first, starts_second);
        if !n.too_large && n.number == number && n.second == second {
            continue;
        }
        let before = match n.too_large {
            true => "(a number too large)".to_string(),
            false => written(n.number, n.second),
        };
        let after = written(number, second);
        turn.number = Some(MoveNumber {
            number,
            second,
            too_large: false,
            span: n.span,
        });
        let message = format!("move number `{before}` is wrong here: this is `{after}`");
        repairs.push(
            Repair::new(RepairCode::MoveNumber, message, n.span, before, after).with_ply(i + 1),
        );
    }
    // A number read as none: the turn after it has its number by its place.
    for &k in renumbered {
        let Some(r) = repairs.get_mut(k) else {
            continue;
        };
        if let Some(i) = record.turns.iter().position(|t| t.span.start >= r.span.end) {
            let (number, second, _) = turn_at(i, first, starts_second);
            r.after = written(number, second);
            r.ply = Some(i + 1);
        }
    }
}

/// Whether the last turn is cut short: a strict beginning of a legal turn's
/// canonical spelling (letters in either case), where the turns before it
/// are legal.
fn truncated<G: Rules + Notation>(record: &Record) -> bool {
    let Some((last, before)) = record.turns.split_last() else {
        return false;
    };
    let text = last.text.to_lowercase();
    if text.is_empty() {
        return false;
    }
    let prefix = Record {
        tags: record.tags.clone(),
        turns: before.to_vec(),
        span: record.span,
        ..Record::default()
    };
    let played = play::<G, ()>(&prefix, &mut ());
    let (None, Some(pos)) = (played.error, played.position) else {
        return false;
    };
    replay::canonical_moves::<G>(&pos)
        .iter()
        .any(|m| m.len() > text.len() && m.to_lowercase().starts_with(&text))
}

/// The comments of a turn dropped go to the turn before it (or before the
/// first turn).
fn keep_comments(record: &mut Record, comments: Vec<Comment>) {
    match record.turns.last_mut() {
        Some(t) => t.comments.extend(comments),
        None => record.comments.extend(comments),
    }
}

fn drop_last(record: &mut Record, repairs: &mut Vec<Repair>) {
    let ply = record.turns.len();
    let Some(turn) = record.turns.pop() else {
        return;
    };
    let message = format!(
        "the last turn `{}` is cut short (the beginning of a legal turn): dropped",
        turn.text
    );
    repairs.push(
        Repair::new(RepairCode::TruncatedMove, message, turn.span, turn.text, "").with_ply(ply),
    );
    keep_comments(record, turn.comments);
}

/// A turn as written, its number included.
fn turn_text(t: &Turn) -> String {
    match t.number {
        Some(n) => format!("{} {}", written(n.number, n.second), t.text),
        None => t.text.clone(),
    }
}

/// Turns `ply..` become one comment after the turn before them (their own
/// comments after it, as they were).
fn keep_broken(record: &mut Record, ply: usize, why: &str, repairs: &mut Vec<Repair>) {
    let broken: Vec<Turn> = record.turns.drain(ply - 1..).collect();
    let (Some(first), Some(last)) = (broken.first(), broken.last()) else {
        return;
    };
    let text: Vec<String> = broken.iter().map(turn_text).collect();
    let text = text.join(" ");
    let span = Span::new(first.span.start, last.span.end);
    let n = broken.len();
    let message = format!(
        "{why} (ply {ply}): {} kept as a comment",
        match n {
            1 => "this turn is".to_string(),
            n => format!("this turn and the {} after it are", n - 1),
        }
    );
    let before = match n {
        1 => first.text.clone(),
        _ => format!("{} …", first.text),
    };
    let repair = Repair::new(
        RepairCode::KeptBroken,
        message,
        first.span,
        before,
        format!("{{{text}}}"),
    );
    repairs.push(repair.with_ply(ply));
    let mut comments = vec![Comment { text, span }];
    comments.extend(broken.into_iter().flat_map(|t| t.comments));
    keep_comments(record, comments);
}

/// A declared result (result token, `Result` tag) the replay contradicts,
/// where the rules decided the game, becomes the rules' result — when the
/// record is then valid.
fn fix_result<G: Rules + Notation>(
    record: &mut Record,
    played: &Played<G::Position>,
    repairs: &mut Vec<Repair>,
) {
    let (None, Some((ending, _))) = (&played.error, played.ended) else {
        return;
    };
    if !ending.decided {
        return;
    }
    let judged = judge::<G>(&record.tags, record.result, played.ended, played.plies);
    if !judged.is_err_and(|p| matches!(p.code, Code::WrongResult | Code::ResultMismatch)) {
        return;
    }
    let due = result_token(ending.winner);
    let how = replay::describe_ending::<G>(&ending, played.ended.map_or(0, |e| e.1));
    let mut tags: Vec<Tag> = record.tags.clone();
    let mut result: Option<ResultMark> = record.result;
    let mut fixed = Vec::new();
    if let Some(mark) = result.as_mut().filter(|m| m.result != due) {
        let before = mark.result.as_str();
        fixed.push(Repair::new(
            RepairCode::Result,
            format!(
                "the record declares `{before}`, but {how}: `{}`",
                due.as_str()
            ),
            mark.span,
            before,
            due.as_str(),
        ));
        mark.result = due;
    }
    if let Some(tag) = tags.iter_mut().find(|t| t.name == "Result") {
        if ResultToken::parse(tag.value.trim()).is_some_and(|r| r != due) {
            fixed.push(Repair::new(
                RepairCode::Result,
                format!(
                    "the Result tag declares `{}`, but {how}: `{}`",
                    tag.value,
                    due.as_str()
                ),
                tag.value_span,
                tag.value.clone(),
                due.as_str(),
            ));
            tag.value = due.as_str().into();
        }
    }
    if judge::<G>(&tags, result, played.ended, played.plies).is_ok() {
        record.tags = tags;
        record.result = result;
        repairs.extend(fixed);
    }
}
