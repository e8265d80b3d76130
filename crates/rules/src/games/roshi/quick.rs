//! A normal turn played on words: where the board is one word of a set
//! (the default 7×7, and any board whose ranks fit 64 bits), a turn's
//! actions are checked and made on three `u64` masks — the mover's pieces,
//! the other side's, the stone — instead of square by square. It only
//! plays what is legal and says nothing else: anything it does not take
//! (a pass, the setup, rook slides, a board of more words, any refusal)
//! goes to the full rules, which give the error, so every message stays
//! what it was.

use super::geometry::{bent_path_clear, fives_in_words, reaches_word, Sq};
use super::notation::{Action, Move};
use super::position::{Phase, Position, SlideRule};
use crate::game::{Ending, Outcome, Side};

/// The board's squares, the masks a turn changes, and the mover's supply.
struct Word {
    board: u64,
    files: u8,
    mine: u64,
    theirs: u64,
    stone: u64,
    supply: u8,
}

impl Word {
    fn empty(&self) -> u64 {
        self.board & !(self.mine | self.theirs | self.stone)
    }
}

/// Plays `mv`, a turn of play (one or two actions), on words where it can
/// (a slide's path proven unless `known`: the generator made the turn);
/// `false` leaves `pos` as it was, for the full rules to play or refuse.
pub(super) fn turn(pos: &mut Position, mv: &Move, known: bool) -> bool {
    let Some((w, stone)) = after(pos, mv.actions(), known) else {
        return false;
    };
    commit(pos, &w, Some(stone));
    pos.last_pass = false;
    true
}

/// The words `w` made the position's, the stone on `stone`, the turn
/// passed to the other side.
fn commit(pos: &mut Position, w: &Word, stone: Option<Sq>) {
    let (me, them) = (pos.to_move.index(), pos.to_move.other().index());
    pos.pieces[me].words[0] = w.mine;
    pos.pieces[them].words[0] = w.theirs;
    pos.stone = stone;
    pos.supply[me] = w.supply;
    pos.to_move = pos.to_move.other();
}

/// The turn spelled `text` read and played on words in one step, and what
/// it ended (`Rules::play_written`): on the default board's width, a turn
/// of lower-case squares of one letter and one digit, one or two actions,
/// legal — a setup turn or a turn of play. Anything else (a pass, upper
/// case, a third action, any refusal) is left untouched to the notation
/// and the full rules.
#[inline(always)]
pub(super) fn play_written(pos: &mut Position, text: &[u8]) -> Option<Option<Ending>> {
    if pos.dims.files != 7 || pos.board.words[1] != 0 || pos.slide != SlideRule::Path || pos.drawn {
        return None;
    }
    let (acts, n) = decode(text)?;
    let acts = &acts[..n];
    let mover = pos.to_move;
    let (w, stone) = match pos.phase {
        Phase::Play => after(pos, acts, false).map(|(w, s)| (w, Some(s)))?,
        Phase::Setup => setup(pos, acts)?,
    };
    commit(pos, &w, stone);
    match pos.phase {
        Phase::Play => pos.last_pass = false,
        Phase::Setup if mover == Side::Second => pos.phase = Phase::Play,
        Phase::Setup => {}
    }
    let Some(_) = stone else {
        return Some(None);
    };
    let by_side = match mover {
        Side::First => [w.mine, w.theirs],
        Side::Second => [w.theirs, w.mine],
    };
    Some(match fives_in_words(by_side, w.stone, w.files) {
        [true, false] => Some(Ending::win(Side::First, "roshi")),
        [false, true] => Some(Ending::win(Side::Second, "roshi")),
        _ => None,
    })
}

/// The actions of a turn spelled with squares of one lower-case letter
/// (a to g) and one digit (1 to 9): `@SQ`, `R@SQ`, `SQ-SQ`, `SQ>SQ`, one
/// or two joined by `,`. `None` for any other spelling, for the notation
/// to read.
#[inline(always)]
fn decode(text: &[u8]) -> Option<([Action; 2], usize)> {
    let sq = |i: usize| match (text.get(i), text.get(i + 1)) {
        (Some(&f @ b'a'..=b'g'), Some(&r @ b'1'..=b'9')) => Some(Sq {
            file: f - b'a',
            rank: r - b'1',
        }),
        _ => None,
    };
    let mut acts = [Action::Place(Sq { rank: 0, file: 0 }); 2];
    let (mut at, mut n) = (0, 0);
    loop {
        let (a, len) = match text.get(at)? {
            b'@' => (Action::Place(sq(at + 1)?), 3),
            b'R' if text.get(at + 1) == Some(&b'@') => (Action::Stone(sq(at + 2)?), 4),
            _ => {
                let (from, to) = (sq(at)?, sq(at + 3)?);
                match text[at + 2] {
                    b'-' => (Action::Slide(from, to), 5),
                    b'>' => (Action::Push(from, to), 5),
                    _ => return None,
                }
            }
        };
        acts[n] = a;
        n += 1;
        at += len;
        match text.get(at) {
            None => return Some((acts, n)),
            Some(b',') if n < 2 => at += 1,
            Some(_) => return None,
        }
    }
}

/// A setup turn on words (Red: the stone on an empty square of the zone,
/// then a piece; Blue: two pieces), where it is legal.
fn setup(pos: &Position, acts: &[Action]) -> Option<(Word, Option<Sq>)> {
    let (me, them) = (pos.to_move.index(), pos.to_move.other().index());
    let bit = |s: Sq| match pos.dims.contains(s) {
        true => 1 << (8 * s.rank + s.file),
        false => 0,
    };
    let mut w = Word {
        board: pos.board.words[0],
        files: pos.dims.files,
        mine: pos.pieces[me].words[0],
        theirs: pos.pieces[them].words[0],
        stone: pos.stone.map_or(0, bit),
        supply: pos.supply[me],
    };
    let stone = match (pos.to_move, acts) {
        (Side::First, &[Action::Stone(z), place @ Action::Place(_)]) => {
            if pos.stone.is_some() || !pos.zone.contains(z) || w.empty() & bit(z) == 0 {
                return None;
            }
            w.stone = bit(z);
            act(pos, &mut w, place, &bit, false)?;
            Some(z)
        }
        (Side::Second, &[a @ Action::Place(_), b @ Action::Place(_)]) => {
            act(pos, &mut w, a, &bit, false)?;
            act(pos, &mut w, b, &bit, false)?;
            pos.stone
        }
        _ => return None,
    };
    Some((w, stone))
}

/// What `mv`, a turn the generator made, ends, told on words without
/// playing it (what the search asks at its last ply): a win for the one
/// side with a roshi after it, otherwise play goes on. `None` where the
/// words do not take the turn.
pub(super) fn outcome(pos: &Position, mv: &Move) -> Option<Outcome> {
    let (w, _) = after(pos, mv.actions(), true)?;
    let by_side = match pos.to_move {
        Side::First => [w.mine, w.theirs],
        Side::Second => [w.theirs, w.mine],
    };
    Some(match fives_in_words(by_side, w.stone, w.files) {
        [true, false] => Outcome::Win(Side::First),
        [false, true] => Outcome::Win(Side::Second),
        _ => Outcome::Open,
    })
}

/// The words after the turn of `acts` and the stone's square, where the words take the
/// turn and it is legal.
#[inline(always)]
fn after(pos: &Position, acts: &[Action], known: bool) -> Option<(Word, Sq)> {
    let (Some(stone), [first, rest @ ..]) = (pos.stone, acts) else {
        return None;
    };
    if pos.phase != Phase::Play
        || pos.slide != SlideRule::Path
        || pos.drawn
        || rest.len() > 1
        || rest.first().is_some_and(|a| a.kind() == first.kind())
        || pos.board.words[1] != 0
    {
        return None;
    }
    let (me, them) = (pos.to_move.index(), pos.to_move.other().index());
    // On the default board a rank takes 8 bits: no table.
    let eight = pos.dims.files == 7;
    let bit = |s: Sq| match (pos.dims.contains(s), eight) {
        (true, true) => 1 << (8 * s.rank + s.file),
        (true, false) => 1 << pos.board.place(s).1,
        (false, _) => 0,
    };
    let mut w = Word {
        board: pos.board.words[0],
        files: pos.dims.files,
        mine: pos.pieces[me].words[0],
        theirs: pos.pieces[them].words[0],
        stone: bit(stone),
        supply: pos.supply[me],
    };
    let mut stone_to = stone;
    for &a in acts {
        stone_to = act(pos, &mut w, a, &bit, known)?.unwrap_or(stone_to);
    }
    Some((w, stone_to))
}

/// One action on `w`: `None` if it is not legal; otherwise the stone's new
/// square if it pushed the stone.
#[inline(always)]
fn act(
    pos: &Position,
    w: &mut Word,
    a: Action,
    bit: &impl Fn(Sq) -> u64,
    known: bool,
) -> Option<Option<Sq>> {
    let empty = w.empty();
    match a {
        Action::Place(s) => {
            let s = bit(s);
            if w.supply == 0 || empty & s == 0 {
                return None;
            }
            w.mine |= s;
            w.supply -= 1;
        }
        Action::Slide(a, b) => {
            let (from, to) = (bit(a), bit(b));
            if w.mine & from == 0 || empty & to == 0 {
                return None;
            }
            // The path: known, a bent one clear (7 files: ranks of 8
            // bits), or searched.
            let found = known
                || w.files == 7 && bent_path_clear(empty | from, a, b)
                || reaches_word(empty, from, to, w.files);
            if !found {
                return None;
            }
            w.mine ^= from | to;
        }
        Action::Push(p, t) => {
            let (df, dr) = (t.file as i8 - p.file as i8, t.rank as i8 - p.rank as i8);
            let d = t.offset(df, dr)?;
            let (bp, bt, bd) = (bit(p), bit(t), bit(d));
            if df.abs() + dr.abs() != 1 || w.mine & bp == 0 || empty & bd == 0 {
                return None;
            }
            if w.stone & bt != 0 {
                if !pos.zone.contains(d) {
                    return None;
                }
                w.stone = bd;
                return Some(Some(d));
            }
            let side = [&mut w.mine, &mut w.theirs]
                .into_iter()
                .find(|m| **m & bt != 0)?;
            *side ^= bt | bd;
        }
        Action::Stone(_) => return None,
    }
    Some(None)
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{Dims, Sq, Zone};
    use super::super::notation::{Action, ActionKind, Move};
    use super::super::position::{Occupant, Phase, Position, SlideRule};
    use super::super::rules::{full_turn, Path};
    use super::super::Roshi;
    use crate::game::{Notation, Rules, Side};
    use crate::testkit::{tag, Random};

    /// A random action: any kind, squares up to two past the board's edge;
    /// half the time from one of the mover's pieces, and a push's target
    /// next to its pusher half the time.
    fn action(rng: &mut Random, pos: &Position) -> Action {
        let (files, ranks) = (
            usize::from(pos.dims.files) + 2,
            usize::from(pos.dims.ranks) + 2,
        );
        let any = |rng: &mut Random| Sq {
            file: rng.below(files) as u8,
            rank: rng.below(ranks) as u8,
        };
        let mine: Vec<Sq> = pos.pieces(pos.to_move).squares().collect();
        let from = match mine.is_empty() || rng.below(2) == 0 {
            true => any(rng),
            false => mine[rng.below(mine.len())],
        };
        match rng.below(7) {
            0 => Action::Stone(any(rng)),
            1 | 2 => Action::Place(any(rng)),
            3 | 4 => Action::Slide(from, any(rng)),
            _ => {
                let (df, dr) = [(1, 0), (-1, 0), (0, 1), (0, -1)][rng.below(4)];
                match rng.below(2) {
                    0 => Action::Push(from, from.offset(df, dr).unwrap_or(from)),
                    _ => Action::Push(from, any(rng)),
                }
            }
        }
    }

    /// Whether `mv` is a turn the words take at all in `pos` (legal or not).
    fn taken(pos: &Position, mv: &Move) -> bool {
        let acts = mv.actions();
        pos.phase == Phase::Play
            && pos.slide == SlideRule::Path
            && !pos.drawn
            && pos.board.words[1] == 0
            && (1..=2).contains(&acts.len())
            && !(acts.len() == 2 && acts[0].kind() == acts[1].kind())
            && acts.iter().all(|a| a.kind() != ActionKind::Stone)
    }

    /// The turns tried in `pos`: a share of the generated ones, and random
    /// ones. Checks each as [`turns_on_words_are_the_full_rules_turns`]
    /// says; counts those the words played, those both refused, and those
    /// left to the full rules that they play.
    fn check_turns(rng: &mut Random, pos: &Position, generated: &[Move], counts: &mut [usize; 3]) {
        // A generated turn played as known (no path proven) makes the
        // position the full rules make.
        for mv in generated.iter().step_by(11) {
            let (mut known, mut full) = (pos.clone(), pos.clone());
            if super::turn(&mut known, mv, true) {
                full_turn(&mut full, mv, Path::Check).unwrap();
                assert_eq!(known, full, "{mv:?} in {}", pos.write());
            }
        }
        let mut tried: Vec<Move> = generated.iter().step_by(11).copied().collect();
        for _ in 0..150 {
            let acts: Vec<Action> = (0..1 + rng.below(3)).map(|_| action(rng, pos)).collect();
            tried.push(Move::new(&acts));
        }
        tried.push(Move::PASS);
        for mv in &tried {
            let (mut words, mut full) = (pos.clone(), pos.clone());
            let by_words = super::turn(&mut words, mv, false);
            let by_full = full_turn(&mut full, mv, Path::Check);
            let at = || format!("{mv:?} in {}", pos.write());
            if by_words {
                assert!(by_full.is_ok(), "{}", at());
                assert_eq!(words, full, "{}", at());
                counts[0] += 1;
            } else {
                assert_eq!(&words, pos, "{}", at());
                assert!(by_full.is_err() || !taken(pos, mv), "{}", at());
                counts[1] += usize::from(by_full.is_err() && taken(pos, mv));
                counts[2] += usize::from(by_full.is_ok());
            }
        }
    }

    /// Texts for `pos`: spellings of a share of the generated turns, of
    /// random turns (mostly illegal), and of both with a byte changed, upper
    /// case, a separator doubled or a byte dropped.
    fn texts(rng: &mut Random, pos: &Position, generated: &[Move]) -> Vec<String> {
        let mut out: Vec<String> = generated.iter().step_by(13).map(spell).collect();
        for _ in 0..60 {
            let acts: Vec<Action> = (0..1 + rng.below(3)).map(|_| action(rng, pos)).collect();
            out.push(spell(&Move::new(&acts)));
        }
        let alphabet = b"@R>-,abgh0189rA ";
        for i in 0..out.len() {
            let mut bytes = out[i].clone().into_bytes();
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = alphabet[rng.below(alphabet.len())],
                1 => bytes.make_ascii_uppercase(),
                2 => bytes.insert(at, bytes[at]),
                _ => drop(bytes.remove(at)),
            }
            out.push(String::from_utf8(bytes).unwrap());
        }
        out.extend(["--", "", ",", "@", "R@", "a1-"].map(String::from));
        out
    }

    fn spell(mv: &Move) -> String {
        let mut text = String::new();
        Roshi::write_move(mv, &mut text);
        text
    }

    /// Over random games from the setup on (boards of the default width
    /// and others, paths and rook slides): every text read and played on
    /// words is a turn the notation reads and the rules play, making the
    /// same position and the same ending; every text not taken leaves the
    /// position untouched. Counts taken and left texts.
    #[test]
    fn turns_written_and_played_on_words_are_the_notations_turns() {
        let mut rng = Random::new(11);
        let (mut taken_, mut left) = (0, 0);
        let boards = [
            ("Board", "7x7"),
            ("Board", "7x5"),
            ("Board", "7x8"),
            ("Board", "7x9"),
            ("Board", "9x9"),
            ("Slide", "line"),
        ];
        each_position(&mut rng, &boards, (12, 60), |rng, pos, moves| {
            for text in texts(rng, pos, moves) {
                let mut words = pos.clone();
                let at = || format!("{text:?} in {}", pos.write());
                match Roshi::play_written(&mut words, &text) {
                    Some(ending) => {
                        let mv = Roshi::parse_move(pos, &text)
                            .unwrap_or_else(|e| panic!("{e:?}: {}", at()));
                        let mut full = pos.clone();
                        let by_full = Roshi::play_ending(&mut full, &mv);
                        assert_eq!(by_full, Ok(ending), "{}", at());
                        assert_eq!(words, full, "{}", at());
                        taken_ += 1;
                    }
                    None => {
                        assert_eq!(&words, pos, "{}", at());
                        left += 1;
                    }
                }
            }
        });
        assert!(taken_ > 200_000 && left > 1_000_000, "{taken_} {left}");
    }

    /// Calls `check` with each position of `games` random games of up to
    /// `plies` plies from the start under each tag of `boards` (until the
    /// game ends), and its legal turns.
    fn each_position(
        rng: &mut Random,
        boards: &[(&str, &str)],
        (games, plies): (usize, usize),
        mut check: impl FnMut(&mut Random, &Position, &[Move]),
    ) {
        for &(name, value) in boards {
            for _ in 0..games {
                let mut pos = Roshi::start(&[tag(name, value)]).unwrap();
                let mut moves = Vec::new();
                for _ in 0..plies {
                    moves.clear();
                    Roshi::legal_moves(&pos, &mut moves);
                    if Roshi::ending(&pos).is_some() || moves.is_empty() {
                        break;
                    }
                    check(rng, &pos, &moves);
                    let pick = moves[rng.below(moves.len())];
                    Roshi::play(&mut pos, &pick).unwrap();
                }
            }
        }
    }

    /// Over random games on boards of one word and of more, with paths and
    /// rook slides: every turn the words play is legal and makes the full
    /// rules' position; every turn they leave is one the full rules refuse
    /// or one they do not take (the position untouched either way). The
    /// turns: a share of the generated ones, and random ones, mostly
    /// illegal (off the board, onto pieces, blocked, the stone out of its
    /// zone, three actions, two of a kind).
    #[test]
    fn turns_on_words_are_the_full_rules_turns() {
        let mut rng = Random::new(7);
        let mut counts = [0; 3];
        let boards = [
            ("Board", "7x7"),
            ("Board", "5x5"),
            ("Board", "9x6"),
            ("Board", "9x9"),
            ("Board", "19x19"),
            ("Slide", "line"),
        ];
        each_position(&mut rng, &boards, (6, 40), |rng, pos, moves| {
            check_turns(rng, pos, moves, &mut counts)
        });
        // Crowded boards (more pieces than a game has): walled-in squares,
        // blocked slides and pushes.
        for (files, ranks) in [(7, 7), (5, 5), (9, 6)] {
            for round in 0..300 {
                let dims = Dims { files, ranks };
                let mut pos = Position::start(dims, Zone::default_for(dims), SlideRule::Path);
                pos.phase = Phase::Play;
                pos.supply = [rng.below(3) as u8, rng.below(3) as u8];
                pos.to_move = [Side::First, Side::Second][round % 2];
                let stone = pos.zone.lo;
                for s in dims.squares().filter(|&s| s != stone) {
                    match rng.below(10) {
                        0..=2 => pos.set(s, Occupant::Piece(Side::First)),
                        3..=5 => pos.set(s, Occupant::Piece(Side::Second)),
                        _ => {}
                    }
                }
                pos.set(stone, Occupant::Stone);
                check_turns(&mut rng, &pos, &[], &mut counts);
            }
        }
        let [played, refused, left] = counts;
        assert!(
            played > 100_000 && refused > 50_000 && left > 500,
            "{counts:?}"
        );
    }
}
