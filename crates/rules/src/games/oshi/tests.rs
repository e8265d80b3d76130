//! One test per rule and per illegal-move reason, and legal-move counts
//! worked out by hand (crates/rules/tests/data/oshi-counts.txt).

use super::position::{NoReturn, Position};
use super::rules::OshiError;
use super::{Move, Oshi, Square};
use crate::game::{Notation, RuleError, Rules, Side};
use crate::Tag;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn mv(text: &str) -> Move {
    Oshi::parse_move(&Oshi::start(&[]).unwrap(), text).unwrap()
}

fn play(p: &mut Position, text: &str) -> Result<(), OshiError> {
    Oshi::play(p, &mv(text))
}

fn play_all(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        play(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn legal(p: &Position) -> Vec<String> {
    crate::testkit::legal::<Oshi>(p).into_iter().collect()
}

fn code(r: Result<(), OshiError>) -> &'static str {
    crate::testkit::refused(r)
}

// --- Moves --------------------------------------------------------------

#[test]
fn a_piece_moves_one_to_height_squares_orthogonally() {
    let p = pos("9/9/9/9/4C4/9/9/9/9 r 0-0 -");
    let moves = legal(&p);
    assert_eq!(moves.len(), 12);
    for to in [
        "e6", "e7", "e8", "e4", "e3", "e2", "f5", "g5", "h5", "d5", "c5", "b5",
    ] {
        assert!(moves.contains(&format!("e5-{to}")), "{to}");
    }
    let p = pos("9/9/9/9/4A4/9/9/9/9 r 0-0 -");
    assert_eq!(legal(&p), ["e5-d5", "e5-e4", "e5-e6", "e5-f5"]);
}

#[test]
fn too_far_names_the_height() {
    let mut p = Position::start(NoReturn::Own);
    let e = play(&mut p, "c2-c5").unwrap_err();
    assert_eq!(e.code(), "too-far");
    assert_eq!(
        e.to_string(),
        "the piece on c2 is a 2-story and moves at most 2 squares, not 3"
    );
}

#[test]
fn diagonal_and_null_moves_are_refused() {
    let mut p = Position::start(NoReturn::Own);
    assert_eq!(code(play(&mut p, "e3-f4")), "not-straight");
    assert_eq!(code(play(&mut p, "a1-c2")), "not-straight");
    assert_eq!(code(play(&mut p, "e3-e3")), "null-move");
}

#[test]
fn only_your_own_pieces_move() {
    let mut p = Position::start(NoReturn::Own);
    let e = play(&mut p, "e7-e6").unwrap_err();
    assert_eq!(e.code(), "not-your-piece");
    assert_eq!(
        e.to_string(),
        "the piece on e7 is White's; it is Red's turn"
    );
    assert_eq!(code(play(&mut p, "e5-e6")), "no-piece");
}

#[test]
fn players_alternate() {
    let mut p = Position::start(NoReturn::Own);
    play(&mut p, "e3-e4").unwrap();
    assert_eq!(p.to_move, Side::Second);
    assert_eq!(code(play(&mut p, "e4-e5")), "not-your-piece");
    play(&mut p, "e7-e6").unwrap();
    assert_eq!(p.to_move, Side::First);
}

// --- Pushing ------------------------------------------------------------

#[test]
fn the_train_shifts_with_the_mover() {
    // Red 3-story e5 pushes White e6 three squares: e6 ends on e9.
    let mut p = pos("9/9/9/4a4/4C4/9/9/9/9 r 0-0 -");
    play(&mut p, "e5-e8").unwrap();
    assert_eq!(p.piece(sq("e8")).unwrap().height, 3);
    assert_eq!(p.piece(sq("e9")).unwrap().owner, Side::Second);
    assert!(p.piece(sq("e5")).is_none() && p.piece(sq("e6")).is_none());
}

#[test]
fn a_train_longer_than_the_height_stops_the_move() {
    // From the start, c2 (2-story) faces d2 e2 f2 g2: a train of 4.
    let mut p = Position::start(NoReturn::Own);
    let e = play(&mut p, "c2-d2").unwrap_err();
    assert_eq!(e.code(), "train-too-long");
    assert_eq!(
        e.to_string(),
        "the train ahead of c2 has 4 pieces; a 2-story pushes at most 2"
    );
    // A train of exactly the height is fine, of any colours.
    let mut p = pos("9/9/9/9/9/4A4/4a4/4B4/9 r 0-0 -");
    play(&mut p, "e2-e3").unwrap();
    assert_eq!(p.piece(sq("e5")).unwrap().owner, Side::First);
    assert_eq!(p.piece(sq("e4")).unwrap().owner, Side::Second);
}

#[test]
fn a_gap_closing_during_the_move_can_make_a_later_step_illegal() {
    // Red 2-story e4; White e5, then a gap, then e7 e8. Step 1 pushes one
    // piece; at step 2 the train e6 e7 e8 has 3.
    let mut p = pos("9/4a4/4a4/9/4a4/4B4/9/9/9 r 0-0 -");
    let e = play(&mut p.clone(), "e4-e6").unwrap_err();
    assert_eq!(e.code(), "train-too-long");
    assert_eq!(
        e.to_string(),
        "at step 2 of the move from e4, the train ahead of e5 has 3 pieces; \
         a 2-story pushes at most 2"
    );
    play(&mut p, "e4-e5").unwrap();
    assert!(p.piece(sq("e6")).is_some() && p.piece(sq("e5")).is_some());
}

#[test]
fn pushed_off_pieces_score_for_the_owners_opponent() {
    // Red 3-story e7 pushes White e8 and e9: two White 1-stories leave.
    let mut p = pos("4a4/4a4/4C4/9/9/9/9/9/9 r 0-0 -");
    play(&mut p, "e7-e9").unwrap();
    assert_eq!(p.score, [2, 0]);
    assert_eq!(p.piece(sq("e9")).unwrap().height, 3);
    // A player's own piece pushed off scores for the opponent.
    let mut p = pos("4A4/4A4/4C4/9/9/9/9/9/9 r 0-0 -");
    play(&mut p, "e7-e8").unwrap();
    assert_eq!(p.score, [0, 1]);
    // A mixed train: the 2-story scores for White, the 1-story for Red.
    let mut p = pos("4B4/4a4/4C4/9/9/9/9/9/9 r 0-0 -");
    play(&mut p, "e7-e9").unwrap();
    assert_eq!(p.score, [1, 2]);
}

#[test]
fn the_mover_never_leaves_the_board() {
    // A 3-story on e9: 3 down, 3 left, 3 right, nothing up.
    let p = pos("4C4/9/9/9/9/9/9/9/9 r 0-0 -");
    let moves = legal(&p);
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|m| &m[3..] != "e9"));
    // A 1-story on e8 behind a piece on e9 pushes it off but stays on e9.
    let mut p = pos("4a4/4A4/9/9/9/9/9/9/9 r 0-0 -");
    play(&mut p, "e8-e9").unwrap();
    assert_eq!(p.piece(sq("e9")).unwrap().owner, Side::First);
}

// --- The no-return rule ---------------------------------------------------

#[test]
fn no_return_to_the_square_held_at_the_start_of_your_previous_turn() {
    let mut p = Position::start(NoReturn::Own);
    play_all(&mut p, "e3-e4 e7-e6");
    let e = play(&mut p.clone(), "e4-e3").unwrap_err();
    assert_eq!(e.code(), "no-return");
    assert_eq!(
        e.to_string(),
        "the piece on e4 stood on e3 at the start of your previous turn and may \
         not end its move there (no-return rule)"
    );
    // Another piece may go there; and after a turn spent elsewhere the
    // piece may return.
    play(&mut p.clone(), "e2-e3").unwrap_or_else(|e| panic!("{e}"));
    play_all(&mut p, "a1-a2 e6-d6 e4-e3");
}

#[test]
fn no_return_follows_a_piece_that_was_pushed_since() {
    // Red's piece goes e4-e5; White's 3-story comes down e7-e4, pushing it
    // to e3. It stood on e4 at the start of Red's previous turn, so it may
    // not end on e4 now, even by pushing the 3-story out of the way.
    let mut p = pos("9/9/4c4/9/9/4A4/9/9/9 r 0-0 -");
    play_all(&mut p, "e4-e5 e7-e4");
    assert_eq!(p.piece(sq("e3")).unwrap().owner, Side::First);
    assert_eq!(code(play(&mut p.clone(), "e3-e4")), "no-return");
    play(&mut p, "e3-d3").unwrap();
}

#[test]
fn no_return_binds_only_the_moved_piece_not_those_it_pushes() {
    // Red e3 pushes its own e4 up; next turn that pushed piece may go back.
    let mut p = pos("a8/9/9/9/9/4A4/4A4/9/9 r 0-0 -");
    play_all(&mut p, "e3-e4 a9-a8");
    // The piece now on e5 stood on e4 when Red's previous turn started: it
    // may not end on e4, but e4 is occupied anyway; d5 is fine.
    play(&mut p.clone(), "e5-d5").unwrap();
    // The mover (now on e4) may not return to e3.
    assert_eq!(code(play(&mut p.clone(), "e4-e3")), "no-return");
}

#[test]
fn pushed_pieces_cannot_be_moved_back_where_they_stood() {
    // White's e6 is pushed by Red to e7; White may not move it back to e6
    // under the default reading? It stood on e6 at the start of White's
    // previous turn only if White has had a turn: give White one first.
    let mut p = pos("a8/9/9/4a4/4A4/9/9/9/9 w 0-0 -");
    play_all(&mut p, "a9-a8 e5-e6");
    // White's e7 piece stood on e6 at the start of White's previous turn.
    assert_eq!(code(play(&mut p.clone(), "e7-e6")), "no-return");
}

#[test]
fn no_restriction_on_a_players_first_move() {
    let mut p = pos("9/9/9/4a4/4A4/9/9/9/9 r 0-0 -");
    play_all(&mut p, "e5-e6");
    // White's piece, pushed from e6 to e7, may come back (pushing Red's
    // piece away): White has had no previous turn.
    play(&mut p, "e7-e6").unwrap();
    assert_eq!(p.piece(sq("e5")).unwrap().owner, Side::First);
}

#[test]
fn opponent_reading_uses_the_start_of_the_opponents_last_turn() {
    // Own reading: Red's mover may not return. Opponent reading: it may.
    let tags_with = |v: &str| {
        vec![Tag {
            name: "NoReturn".into(),
            value: v.into(),
            span: Default::default(),
            value_span: Default::default(),
        }]
    };
    let mut own = Oshi::start(&tags_with("own")).unwrap();
    let mut opp = Oshi::start(&tags_with("Opponent")).unwrap();
    assert_eq!(opp.no_return, NoReturn::Opponent);
    play_all(&mut own, "e3-e4 e7-e6");
    play_all(&mut opp, "e3-e4 e7-e6");
    assert_eq!(code(play(&mut own, "e4-e3")), "no-return");
    play(&mut opp, "e4-e3").unwrap();
    // Under the opponent reading a piece pushed by the opponent may not be
    // moved back where it stood when the opponent's turn began.
    let mut p = pos("9/9/9/9/4a4/4A4/9/9/9 r 0-0 -");
    p.no_return = NoReturn::Opponent;
    play_all(&mut p, "e4-e5");
    let e = play(&mut p.clone(), "e6-e5").unwrap_err();
    assert_eq!(e.code(), "no-return");
    assert!(e.to_string().contains("your opponent's last turn"), "{e}");
    play(&mut p, "e6-d6").unwrap();
    assert!(Oshi::start(&tags_with("sometimes")).is_err());
}

// --- End of the game ------------------------------------------------------

#[test]
fn seven_points_win_at_once() {
    let mut p = pos("4a4/4a4/4C4/9/9/9/9/9/9 r 5-0 -");
    assert_eq!(Oshi::ending(&p), None);
    play(&mut p, "e7-e9").unwrap();
    let e = Oshi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "points"));
}

#[test]
fn pushing_your_own_piece_off_can_hand_the_opponent_the_win() {
    // White has 6; Red's 3-story pushes its own 1-story off.
    let mut p = pos("4A4/4C4/9/9/9/9/9/9/a8 r 0-6 -");
    play(&mut p, "e8-e9").unwrap();
    let e = Oshi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::Second), "points"));
}

#[test]
fn when_both_reach_seven_the_mover_wins() {
    // Red has 6, White 6; Red pushes a mixed train: White's e9 (1 point for
    // Red) and Red's own e8 (1 point for White).
    let mut p = pos("4a4/4A4/4C4/9/9/9/9/9/9 r 6-6 -");
    play(&mut p, "e7-e9").unwrap();
    assert_eq!(p.score, [7, 7]);
    let e = Oshi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "points"));
}

#[test]
fn a_player_with_no_legal_move_loses() {
    let p = pos("9/9/9/9/9/9/a8/a8/Aaa6 r 0-0 -");
    assert!(legal(&p).is_empty());
    let e = Oshi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::Second), "no-legal-move"));
    // The no-return rule alone can leave a player without a move.
    let p = pos("9/9/9/9/9/9/a8/a8/Aa7 r 0-0 R(a1=b1)");
    assert!(legal(&p).is_empty(), "{:?}", legal(&p));
}

// --- Counts ---------------------------------------------------------------

#[test]
fn legal_move_counts_match_hand_counts() {
    let data = include_str!("../../../tests/data/oshi-counts.txt");
    let mut checked = 0;
    for (position, count) in crate::testkit::counts(data) {
        let p = pos(position);
        assert_eq!(legal(&p).len(), count, "{position}: {:?}", legal(&p));
        checked += 1;
    }
    assert!(checked >= 10);
}

/// The generator against brute force: every (from, to) pair that `play`
/// accepts, and only those, over positions reached by pseudo-random play.
#[test]
fn generator_agrees_with_play_on_every_square_pair() {
    let mut rng = crate::testkit::Random::new(12345);
    let mut positions = 0;
    for game in 0..40 {
        let reading = if game % 2 == 0 {
            NoReturn::Own
        } else {
            NoReturn::Opponent
        };
        let mut p = Position::start(reading);
        for _ in 0..80 {
            if Oshi::ending(&p).is_some() {
                break;
            }
            let mut brute = Vec::new();
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move { from, to };
                    if Oshi::play(&mut p.clone(), &m).is_ok() {
                        brute.push(format!("{from}-{to}"));
                    }
                }
            }
            brute.sort();
            let generated = legal(&p);
            assert_eq!(generated, brute, "{}", p.write());
            // The quick answer agrees.
            assert_eq!(Oshi::has_legal_move(&p), !generated.is_empty());
            positions += 1;
            let pick = &generated[rng.below(generated.len())];
            play(&mut p, pick).unwrap();
        }
    }
    assert!(positions > 1000);
}

#[test]
fn position_notation_survives_a_played_game() {
    let mut p = Position::start(NoReturn::Own);
    play_all(&mut p, "e3-e4 e7-e6 e4-e5 e6-d6 a1-a4");
    let again = Position::parse(&p.write()).unwrap();
    // Same pieces, side, score and no-return squares (ids may differ).
    assert_eq!(again.write(), p.write());
    assert_eq!(legal(&again), legal(&p));
}

#[test]
fn facts_name_the_pushed_off_piece_and_stats_add_the_points() {
    use crate::testkit::{played, stat};
    // The points-win fixture's first five plies: a7-a9 pushes White's
    // 3-story on a9 off (3 points to Red).
    let (facts, counts) = played::<super::Oshi>(&[], "a1-a4 e7-e6 a4-a7 e6-e5 a7-a9");
    assert_eq!(facts[0].kind, "move");
    assert!(facts[0].effects.is_empty());
    let push = &facts[4];
    assert_eq!(
        (push.kind.as_str(), push.canonical.as_str()),
        ("push", "a7-a9")
    );
    assert_eq!(push.effects.len(), 1);
    let e = &push.effects[0];
    assert_eq!(e.what, "pushed-off");
    assert_eq!(e.piece.as_deref(), Some("White 3-story"));
    assert_eq!(e.from.as_deref(), Some("a9"));
    assert_eq!(e.points, Some(3));
    let s = |n| stat::<super::Oshi>(&counts, n);
    assert_eq!(s("points_first"), Some(3));
    assert_eq!(s("points_second"), Some(0));
    assert_eq!(s("pushed_off_by_first"), Some(1));
    assert_eq!(s("pushes_first"), Some(1));
    assert_eq!(s("pushes_second"), Some(0));
}

#[test]
fn a_push_within_the_board_names_where_each_piece_went() {
    // Red's 2-story c2 comes up to c5, White's 2-story c8 down to c6; Red's
    // c5 steps onto c6 and pushes it back to c7.
    let (facts, _) = crate::testkit::played::<super::Oshi>(&[], "c2-c4 c8-c6 c4-c5 e7-e6 c5-c6");
    let f = &facts[4];
    assert_eq!(f.kind, "push");
    let moved: Vec<_> = f
        .effects
        .iter()
        .map(|e| {
            (
                e.what.as_str(),
                e.from.clone().unwrap(),
                e.to.clone().unwrap(),
            )
        })
        .collect();
    assert_eq!(moved, vec![("pushed", "c6".to_string(), "c7".to_string())]);
    assert_eq!(f.effects[0].piece.as_deref(), Some("White 2-story"));
}

#[test]
fn piece_locations_follow_the_board_through_random_games() {
    let positions = crate::testkit::random_positions::<Oshi>(21, 30);
    assert!(positions.len() > 1000);
    let mut pushed_off = 0;
    for p in &positions {
        let mut on_board = 0;
        for sq in Square::all() {
            if let Some(piece) = p.piece(sq) {
                on_board += 1;
                assert_eq!(p.at[piece.id as usize], Some(sq), "{}", p.write());
                assert!(p.ids[piece.owner.index()] & (1 << piece.id) != 0);
                assert!(p.ids[piece.owner.other().index()] & (1 << piece.id) == 0);
            }
        }
        let located = p.at.iter().filter(|a| a.is_some()).count();
        assert_eq!(located, on_board, "{}", p.write());
        for side in [Side::First, Side::Second] {
            let squares = Square::all()
                .filter(|&sq| p.piece(sq).is_some_and(|piece| piece.owner == side))
                .fold(0u128, |bits, sq| bits | 1 << sq.index());
            assert_eq!(p.occupied[side.index()], squares, "{}", p.write());
        }
        pushed_off += 16 - on_board;
    }
    // The games did push pieces off, so that case was exercised.
    assert!(pushed_off > 0);
}

/// Random games' positions (`games` from `seed`), then the positions
/// written in `texts`.
fn games_and(seed: u64, games: u64, texts: &[&str]) -> Vec<Position> {
    let mut positions = crate::testkit::random_positions::<Oshi>(seed, games);
    positions.extend(texts.iter().map(|t| Oshi::parse_position(t).unwrap()));
    positions
}

/// `positions` under the `opponent` reading of the no-return rule.
fn under_opponent(positions: &[Position]) -> Vec<Position> {
    let opponent = |p: &Position| Position {
        no_return: super::NoReturn::Opponent,
        ..p.clone()
    };
    positions.iter().map(opponent).collect()
}

/// The test on masks agrees with the generator: over random games, and
/// where a lone piece's only empty neighbour is the square it may not
/// return to (with and without a push left to it) or it is walled in.
#[test]
fn has_legal_move_agrees_with_the_generator() {
    let positions = games_and(
        52,
        40,
        &[
            "9/9/9/9/9/9/A8/A8/aAA6 w 0-0 -",
            "9/9/9/9/9/9/A8/9/aAA6 w 0-0 W(a1=a2)",
            "9/9/9/9/9/9/A8/9/bAA6 w 0-0 W(a1=a2)",
            "9/9/9/9/9/9/9/9/a8 w 0-0 W(a1=b1)",
        ],
    );
    let (some, none) = crate::testkit::check_has_legal_move::<Oshi>(&positions);
    assert!(some > 1_000 && none == 2, "{some} {none}");
}

/// Every move that can be written: each square to each square.
fn candidates(_: &Position) -> Vec<Move> {
    Square::all()
        .flat_map(|from| Square::all().map(move |to| Move { from, to }))
        .collect()
}

#[test]
fn perft_counts_agree_with_trying_every_move() {
    let checked = crate::testkit::check_perft_file::<Oshi>("oshi", 50_000, &candidates);
    assert!(checked >= 3, "{checked}");
}

/// White's one piece on a1 is walled in but for a2: c2-a2 fills it and
/// leaves White no move (a3-a2 does not: White then pushes a2 north); in
/// the second, a2 is the square White's piece may not return to.
const WALLED_IN: [&str; 2] = [
    "9/9/9/9/9/9/A8/2B6/aAA6 r 0-0 -",
    "9/9/9/9/4A4/9/9/9/aAA6 r 0-0 W(a1=a2)",
];

/// What the search is told a turn ends, without playing it, is what
/// playing it and asking `ending` says — over random games, under both
/// readings of the no-return rule, and where one turn leaves the other
/// side no move.
#[test]
fn outcomes_told_without_playing_agree_with_play_and_ending() {
    let mut positions = games_and(51, 40, &WALLED_IN);
    positions.extend(under_opponent(&positions));
    let (open, decided) = crate::testkit::check_outcomes::<Oshi>(&positions);
    assert!(open > 10_000 && decided == 0, "{open} {decided}");
}

/// Where the search is told no turn wins at once, none does — over random
/// games (to their ends, where a side is a push from its points), under
/// both readings of the no-return rule, with the points each side needs
/// lowered, and where one turn leaves the other side no move (one that
/// fills two empty squares on a line).
#[test]
fn no_win_at_once_is_told_where_a_turn_wins() {
    // White's only steps, a1-a2 and c1-c2, share ranks 1 and 2: e2-c2
    // pushes d2 and b2 along rank 2, fills both, and leaves each White
    // piece a train of two to push on every side.
    let shared = "9/9/9/9/9/9/A1A6/1A1AC4/aBaBC4 r 0-0 -";
    let walled = [
        WALLED_IN[0],
        WALLED_IN[1],
        "9/9/9/9/9/4b4/9/9/a3A4 r 0-0 -",
        shared,
    ];
    let mut positions = games_and(55, 60, &walled);
    let mut more = under_opponent(&positions);
    for p in &positions {
        for points in [3, 5, 6] {
            let mut q = p.clone();
            q.score[q.to_move.index()] = points;
            more.push(q);
        }
    }
    positions.extend(more);
    let [won, none, untold] = crate::testkit::check_wins_at_once::<Oshi>(&positions);
    eprintln!("told none: {none}; wins left to the generator: {untold}");
    assert!(
        won == 0 && none > 5_000 && untold > 100,
        "{won} {none} {untold}"
    );
}

/// The key a position keeps as moves change it is the one summed over its
/// pieces from scratch, and the notation key made from it is the one made
/// by a plain pass over the board: over random games under both readings
/// of the no-return rule, and positions read with no-return squares.
#[test]
fn the_key_kept_by_play_is_the_key_summed_over_the_pieces() {
    use crate::game::{Keyer, Search};
    use std::hash::Hasher;
    fn summed(p: &Position) -> u64 {
        let (mut sum, mut bound) = (0u64, 0u64);
        for sq in Square::all() {
            let Some(piece) = p.piece(sq) else { continue };
            let s = sq.index();
            sum ^= super::zobrist::piece(s, piece.owner.index(), piece.height);
            if let Some(r) = p.forbid[piece.id as usize] {
                bound |= 1 << piece.owner.index();
                if r != sq {
                    sum ^= super::zobrist::forbidden(s, r.index());
                }
            }
        }
        let mut k = Keyer::default();
        k.word(sum);
        k.word(
            u64::from(p.score[0])
                | u64::from(p.score[1]) << 8
                | (p.to_move.index() as u64) << 16
                | bound << 17,
        );
        k.finish()
    }
    let mut starts = vec![
        Position::start(NoReturn::Own),
        Position::start(NoReturn::Opponent),
        pos("9/9/9/9/9/9/A8/9/bAA6 w 0-0 W(a1=a2)"),
        pos("c7c/2baaab2/4a4/9/4A4/9/9/2BAAAB2/C7C w 0-0 R(e5=e3)"),
    ];
    let mut opponent = starts[2].clone();
    opponent.no_return = NoReturn::Opponent;
    starts.push(opponent);
    let (mut checked, mut pushes, mut moves) = (0, 0, Vec::new());
    for (n, start) in starts.iter().enumerate() {
        for game in 0..12 {
            let mut rng = crate::random::stream(77 + n as u64, game);
            let mut p = start.clone();
            for _ in 0..120 {
                let mut fresh = p.clone();
                fresh.rekey();
                assert_eq!(
                    (p.zobrist, p.returns),
                    (fresh.zobrist, fresh.returns),
                    "{}",
                    p.write()
                );
                assert_eq!(Oshi::notation_key(&p), summed(&p), "{}", p.write());
                checked += 1;
                moves.clear();
                Oshi::legal_moves(&p, &mut moves);
                if moves.is_empty() || Oshi::ending(&p).is_some() {
                    break;
                }
                let m = moves[crate::random::below(&mut rng, moves.len())];
                let before = p.occupied[0].count_ones() + p.occupied[1].count_ones();
                Oshi::play(&mut p, &m).unwrap();
                let board = |q: &Position| q.board.iter().flatten().count() as u32;
                pushes += u32::from(board(&p) < before);
            }
        }
    }
    assert!(
        checked > 2000 && pushes > 0,
        "{checked} positions, {pushes} pushed off"
    );
}

/// A move's number is its spelling's: the index numbers turns by it.
#[test]
fn moves_share_a_code_exactly_when_they_share_a_spelling() {
    let spellings = crate::testkit::check_move_codes::<Oshi>(5, 20);
    assert!(spellings > 500, "{spellings} spellings");
}

/// Each feature as a player counts it: the start is even by every one;
/// a 2-story under a 3-story on the rim pushes it off for 3 points.
#[test]
fn the_evaluation_counts_what_a_player_counts() {
    let features = |text: &str| crate::testkit::features::<Oshi>(&Position::parse(text).unwrap());
    assert!(features(super::position::START)
        .iter()
        .all(|(_, f)| *f == 0.0));
    let mut eval = crate::eval::Evaluator::<Oshi>::new().unwrap();
    let start = Oshi::start(&[]).unwrap();
    assert!((eval.win_chance(&start) - 0.5).abs() < 0.01);
    // Red's 2-story on a7 below White's 3-story on a8; Red's 1-story on
    // e5 (the inner ring's inside), White's 1-story on b2 (inner ring).
    let f = features("9/c8/B8/9/4A4/9/9/1a7/9 r 2-1 -");
    let want = [
        ("points", 1.0),
        ("rim_stories", 2.0 - 3.0),
        ("inner_ring_stories", -1.0),
        ("best_push", 3.0),
        ("their_best_push", 0.0),
    ];
    for (name, value) in want {
        assert_eq!(
            f.iter().find(|(n, _)| *n == name).map(|f| f.1),
            Some(value),
            "{name}: {f:?}"
        );
    }
    // The same board with White to move: its view, the push now Red's to
    // fear.
    let f = features("9/c8/B8/9/4A4/9/9/1a7/9 w 2-1 -");
    assert_eq!(f[0], ("points", -1.0));
    assert_eq!(f[3], ("best_push", 0.0));
    assert_eq!(f[4], ("their_best_push", 3.0));
    assert_eq!(f[5].1, -features("9/c8/B8/9/4A4/9/9/1a7/9 r 2-1 -")[5].1);
}
