//! One test per rule and per illegal-move reason; roshi detection; legal
//! action and turn counts (crates/rules/tests/data/roshi-counts.txt).

use super::geometry::Sq;
use super::notation::{Action, Move};
use super::position::{Occupant, Phase, Position, SlideRule};
use super::rules::{self, RoshiError};
use super::Roshi;
use crate::game::{Notation, RuleError, Rules, Side};
use crate::Tag;
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    Position::parse(text, SlideRule::Path).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn line(text: &str) -> Position {
    Position::parse(text, SlideRule::Line).unwrap()
}

fn sq(s: &str) -> Sq {
    Sq::parse(s).unwrap()
}

fn mv(text: &str) -> Move {
    Roshi::parse_move(&Roshi::start(&[]).unwrap(), text).unwrap()
}

fn play(p: &mut Position, text: &str) -> Result<(), RoshiError> {
    Roshi::play(p, &mv(text))
}

fn play_all(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        play(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn code(r: Result<(), RoshiError>) -> &'static str {
    crate::testkit::refused(r)
}

fn turns(p: &Position) -> BTreeSet<String> {
    crate::testkit::legal::<Roshi>(p)
}

fn tag(name: &str, value: &str) -> Tag {
    crate::testkit::tag(name, value)
}

/// 7x7 after both setups: stone d4, Red a1, Blue b2 and f6; Red to move.
const AFTER_SETUP: &str = "7/5B1/7/3S3/7/1B5/R6 c3-e5 7-6 r play -";

// --- Settings and setup -----------------------------------------------------

/// A pair built in registers is the pair `Move::new` builds: equal,
/// hashed and ordered alike (the unused slot included).
#[test]
fn a_pair_is_the_move_new_makes_of_two_actions() {
    let s = |file, rank| Sq { file, rank };
    let acts = [
        Action::Place(s(2, 3)),
        Action::Slide(s(0, 0), s(6, 6)),
        Action::Push(s(1, 1), s(1, 2)),
        Action::Stone(s(3, 3)),
    ];
    for a in acts {
        for b in acts {
            assert_eq!(Move::pair(a, b), Move::new(&[a, b]));
            assert_eq!(
                format!("{:?}", Move::pair(a, b)),
                format!("{:?}", Move::new(&[a, b]))
            );
        }
    }
}

#[test]
fn settings_choose_board_zone_and_slide() {
    let p = Roshi::start(&[]).unwrap();
    assert_eq!((p.dims.files, p.dims.ranks), (7, 7));
    assert_eq!(p.zone.to_string(), "c3-e5");
    assert_eq!(p.slide, SlideRule::Path);
    let p = Roshi::start(&[tag("Board", "9x9")]).unwrap();
    assert_eq!(p.zone.to_string(), "d4-f6");
    let p = Roshi::start(&[
        tag("Board", "19x19"),
        tag("Zone", "a1-s19"),
        tag("Slide", "Line"),
    ])
    .unwrap();
    assert_eq!(p.zone.to_string(), "a1-s19");
    assert_eq!(p.slide, SlideRule::Line);
    for bad in [
        vec![tag("Board", "20x20")],
        vec![tag("Zone", "f6-h8")],
        vec![tag("Zone", "middle")],
        vec![tag("Slide", "hop")],
        vec![
            tag("Board", "9x9"),
            tag("Position", "7/7/7/7/7/7/7 c3-e5 8-8 r setup -"),
        ],
    ] {
        assert!(Roshi::start(&bad).is_err(), "{bad:?}");
    }
}

#[test]
fn taking_the_field() {
    let mut p = Roshi::start(&[]).unwrap();
    play(&mut p, "R@d4,@a1").unwrap();
    assert_eq!(p.at(sq("d4")), Occupant::Stone);
    assert_eq!(p.at(sq("a1")), Occupant::Piece(Side::First));
    assert_eq!(
        (p.supply, p.to_move, p.phase),
        ([7, 8], Side::Second, Phase::Setup)
    );
    play(&mut p, "@f6,@b2").unwrap();
    assert_eq!(
        (p.supply, p.to_move, p.phase),
        ([7, 6], Side::First, Phase::Play)
    );
    assert_eq!(p.write(), AFTER_SETUP);
}

#[test]
fn setup_turns_of_the_wrong_shape_are_refused() {
    let mut p = Roshi::start(&[]).unwrap();
    for bad in ["@a1,R@d4", "@a1,@b1", "R@d4", "R@d4,@a1,@b1", "--", "c3-c4"] {
        assert_eq!(code(play(&mut p.clone(), bad)), "bad-setup-turn", "{bad}");
    }
    let e = play(&mut p.clone(), "R@a1,@b1").unwrap_err();
    assert_eq!(e.code(), "stone-out-of-zone");
    assert_eq!(
        e.to_string(),
        "a1 is outside the roshi zone c3-e5: the roshi stone never leaves it"
    );
    assert_eq!(code(play(&mut p.clone(), "R@d4,@d4")), "occupied");
    play(&mut p, "R@d4,@a1").unwrap();
    for bad in ["R@c3,@b1", "@b1", "@b1,b1-b2"] {
        assert_eq!(code(play(&mut p.clone(), bad)), "bad-setup-turn", "{bad}");
    }
    assert_eq!(code(play(&mut p.clone(), "@a1,@b2")), "occupied");
    assert_eq!(code(play(&mut p.clone(), "@b2,@b2")), "occupied");
    // Identical pieces: either order is the same setup.
    play(&mut p.clone(), "@f6,@b2").unwrap();
    play(&mut p, "@b2,@f6").unwrap();
    // The stone is placed only in the setup.
    assert_eq!(code(play(&mut p, "R@c3")), "bad-setup-turn");
}

// --- Actions ----------------------------------------------------------------

#[test]
fn place_needs_a_supply_and_an_empty_square() {
    let mut p = pos(AFTER_SETUP);
    assert_eq!(code(play(&mut p.clone(), "@d4")), "occupied");
    assert_eq!(code(play(&mut p.clone(), "@h1")), "off-board");
    play(&mut p, "@c3").unwrap();
    assert_eq!(p.supply, [6, 6]);
    let mut empty = pos("5/5/2S2/5/R4 b2-d4 0-0 r play -");
    let e = play(&mut empty, "@a5").unwrap_err();
    assert_eq!(e.code(), "empty-supply");
    assert_eq!(e.to_string(), "you have no pieces left to place");
}

#[test]
fn a_slide_follows_any_path_of_empty_squares() {
    // a1 reaches g7 along a bending path.
    let mut p = pos(AFTER_SETUP);
    play(&mut p, "a1-g7").unwrap();
    assert_eq!(p.at(sq("g7")), Occupant::Piece(Side::First));
    assert_eq!(p.at(sq("a1")), Occupant::Empty);
    // Walled in by b1, a2 and b2, a1 cannot get out.
    let boxed = pos("5/5/2S2/BB3/RB3 b2-d4 7-5 r play -");
    let e = play(&mut boxed.clone(), "a1-e5").unwrap_err();
    assert_eq!(e.code(), "blocked-slide");
    assert_eq!(
        e.to_string(),
        "no way through empty squares leads from a1 to e5"
    );
}

#[test]
fn slide_errors() {
    let p = pos(AFTER_SETUP);
    let e = play(&mut p.clone(), "d4-d3").unwrap_err();
    assert_eq!(e.code(), "slide-stone");
    let e = play(&mut p.clone(), "b2-b3").unwrap_err();
    assert_eq!(e.code(), "not-your-piece");
    assert_eq!(
        e.to_string(),
        "the piece on b2 is Blue's: you move and push with your own pieces"
    );
    assert_eq!(code(play(&mut p.clone(), "c1-c2")), "no-piece");
    assert_eq!(code(play(&mut p.clone(), "a1-a1")), "null-slide");
    assert_eq!(code(play(&mut p.clone(), "a1-b2")), "occupied");
    assert_eq!(code(play(&mut p.clone(), "a1-h1")), "off-board");
}

#[test]
fn slide_line_allows_only_straight_unblocked_slides() {
    let p = line(AFTER_SETUP);
    play(&mut p.clone(), "a1-a7").unwrap();
    play(&mut p.clone(), "a1-g1").unwrap();
    let e = play(&mut p.clone(), "a1-g7").unwrap_err();
    assert_eq!(e.code(), "bent-slide");
    // Blocked in line: b2 is in the way from b1 to b4.
    let q = line("7/5B1/7/3S3/7/1B5/1R5 c3-e5 7-6 r play -");
    assert_eq!(code(play(&mut q.clone(), "b1-b4")), "blocked-slide");
    // The same slide round the corner is fine under the default reading.
    let r = pos("7/5B1/7/3S3/7/1B5/1R5 c3-e5 7-6 r play -");
    play(&mut r.clone(), "b1-b4").unwrap();
}

#[test]
fn a_push_moves_one_neighbour_one_square_away() {
    // Red c2 pushes Blue b2 to a2; the pusher stays.
    let mut p = pos("7/5B1/7/3S3/7/1BR4/R6 c3-e5 6-6 r play -");
    play(&mut p, "c2>b2").unwrap();
    assert_eq!(p.at(sq("a2")), Occupant::Piece(Side::Second));
    assert_eq!(p.at(sq("b2")), Occupant::Empty);
    assert_eq!(p.at(sq("c2")), Occupant::Piece(Side::First));
    // Own pieces and the stone can be pushed too.
    let mut q = pos("7/7/7/2RS3/7/7/R6 c3-e5 6-6 r play -");
    play(&mut q, "c4>d4").unwrap();
    assert_eq!(q.at(sq("e4")), Occupant::Stone);
    let mut r = pos("7/7/7/3S3/7/7/RR5 c3-e5 6-6 r play -");
    play(&mut r, "a1>b1").unwrap();
    assert_eq!(r.at(sq("c1")), Occupant::Piece(Side::First));
}

#[test]
fn push_errors() {
    // The stone stays in the zone c3-e5: pushed west from d4 it would go
    // from c4 to b4.
    let edge = pos("7/7/7/2SR3/7/7/R6 c3-e5 6-6 r play -");
    let e = play(&mut edge.clone(), "d4>c4").unwrap_err();
    assert_eq!(e.code(), "stone-out-of-zone");
    play(&mut pos("7/7/7/3SR2/7/7/R6 c3-e5 6-6 r play -"), "e4>d4").unwrap();
    // b3 pushes c3 towards d3, which holds a piece.
    let two = pos("7/7/7/3S3/1RBB3/7/R6 c3-e5 5-6 r play -");
    let e = play(&mut two.clone(), "b3>c3").unwrap_err();
    assert_eq!(e.code(), "push-two");
    assert_eq!(
        e.to_string(),
        "pushing c3 would move the piece on d3 too: a push moves one piece"
    );
    // Red c4, b3, a1; Blue c3; the stone d4.
    let p = pos("7/7/7/2RS3/1RB4/7/R6 c3-e5 5-7 r play -");
    assert_eq!(code(play(&mut p.clone(), "a1>a2")), "nothing-to-push");
    assert_eq!(code(play(&mut p.clone(), "c4>b3")), "not-adjacent");
    assert_eq!(code(play(&mut p.clone(), "c3>b3")), "not-your-piece");
    assert_eq!(code(play(&mut p.clone(), "d4>c4")), "slide-stone");
    assert_eq!(code(play(&mut p.clone(), "a2>a1")), "no-piece");
    // b1 pushes a1 over the west edge.
    let off = pos("7/7/7/3S3/7/7/RR5 c3-e5 6-6 r play -");
    assert_eq!(code(play(&mut off.clone(), "b1>a1")), "off-board");
}

#[test]
fn a_turn_is_one_or_two_actions_of_different_types() {
    let p = pos(AFTER_SETUP);
    play(&mut p.clone(), "@c3").unwrap();
    play(&mut p.clone(), "@c3,a1-a5").unwrap();
    // Place, then slide the piece just placed.
    play(&mut p.clone(), "@c3,c3-c2").unwrap();
    let e = play(&mut p.clone(), "@c3,@c2").unwrap_err();
    assert_eq!(e.code(), "same-action-twice");
    assert_eq!(
        e.to_string(),
        "two place actions in one turn: a turn's two actions are of different types"
    );
    assert_eq!(
        code(play(&mut p.clone(), "@c3,a1-a5,b1>b2")),
        "too-many-actions"
    );
    // The second action is checked on the board the first one left.
    assert_eq!(code(play(&mut p.clone(), "@c3,a1-c3")), "occupied");
}

#[test]
fn a_pass_only_when_no_action_exists_and_two_in_a_row_draw() {
    let p = pos(AFTER_SETUP);
    assert_eq!(code(play(&mut p.clone(), "--")), "pass-with-action");
    // Red's a1 is boxed in (a2 and b1 cannot be pushed: a3 and c1 are
    // taken) and Red has no supply: the pass is the only turn.
    let mut stuck = pos("5/5/B1S2/BB3/RBB2 b2-d4 0-3 r play -");
    assert_eq!(turns(&stuck).into_iter().collect::<Vec<_>>(), ["--"]);
    play(&mut stuck, "--").unwrap();
    assert!(stuck.last_pass);
    assert_eq!(Roshi::ending(&stuck), None);
    // Blue still has actions: no pass for Blue.
    assert_eq!(code(play(&mut stuck.clone(), "--")), "pass-with-action");
    // Blue has neither pieces nor supply, and Red has just passed: Blue's
    // pass is the second in a row.
    let mut frozen = pos("5/5/2S2/5/R4 b2-d4 0-0 b play --");
    play(&mut frozen, "--").unwrap();
    let e = Roshi::ending(&frozen).unwrap();
    assert_eq!((e.winner, e.reason), (None, "double-pass"));
}

// --- Roshi detection ----------------------------------------------------------

#[test]
fn a_roshi_in_every_direction() {
    for (text, dir) in [
        ("7/7/7/1RRSRR1/7/7/7 c3-e5 4-8 b play -", "rank"),
        ("7/3R3/3R3/3S3/3R3/3R3/7 c3-e5 4-8 b play -", "file"),
        ("7/5R1/4R2/3S3/2R4/1R5/7 c3-e5 4-8 b play -", "diagonal"),
        (
            "7/1R5/2R4/3S3/4R2/5R1/7 c3-e5 4-8 b play -",
            "anti-diagonal",
        ),
    ] {
        let p = pos(text);
        assert!(rules::has_roshi(&p, Side::First), "{dir}");
        assert!(!rules::has_roshi(&p, Side::Second), "{dir}");
        let e = Roshi::ending(&p).unwrap();
        assert_eq!((e.winner, e.reason), (Some(Side::First), "roshi"), "{dir}");
    }
}

#[test]
fn lines_longer_than_five_count_and_lines_without_the_stone_do_not() {
    let long = pos("7/7/7/RRRSRRR/7/7/7 c3-e5 2-8 b play -");
    assert!(rules::has_roshi(&long, Side::First));
    // The stone at the end of the line.
    let end = pos("7/7/7/3SRRR/7/7/7 c3-e5 5-8 b play -");
    assert!(!rules::has_roshi(&end, Side::First), "only 4 long");
    let end = pos("7/7/7/RRRS3/7/7/7 c3-e5 5-8 b play -");
    assert!(!rules::has_roshi(&end, Side::First));
    let five = pos("7/7/7/3SRRR/7/7/7 c3-e5 5-8 b play -");
    assert!(!rules::has_roshi(&five, Side::First));
    // Five red pieces in a row without the stone: no roshi.
    let no_stone = pos("7/7/7/3S3/7/7/RRRRR2 c3-e5 3-8 b play -");
    assert!(!rules::has_roshi(&no_stone, Side::First));
    assert_eq!(Roshi::ending(&no_stone), None);
    // A line broken by an opponent's piece.
    let mixed = pos("7/7/7/RBRSRR1/7/7/7 c3-e5 4-7 b play -");
    assert!(!rules::has_roshi(&mixed, Side::First));
    assert!(!rules::has_roshi(&mixed, Side::Second));
}

#[test]
fn both_roshis_play_on_and_a_roshi_built_for_the_opponent_wins_for_them() {
    let both = pos("7/3B3/3B3/RRRSRR1/3B3/3B3/7 c3-e5 3-4 r play -");
    assert!(rules::has_roshi(&both, Side::First) && rules::has_roshi(&both, Side::Second));
    assert_eq!(Roshi::ending(&both), None);
    // Blue on d5, d6, c3 and the stone on d4. Red's b3 pushes c3 onto d3:
    // d3 d4 d5 d6 is only four.
    let mut four = pos("7/3B3/3B3/3S3/1RB4/7/7 c3-e5 7-5 r play -");
    play(&mut four, "b3>c3").unwrap();
    assert!(!rules::has_roshi(&four, Side::Second));
    // With Blue on d2 as well, Red's push completes d2..d6: Blue wins.
    let mut gift = pos("7/3B3/3B3/3S3/1RB4/3B3/7 c3-e5 7-4 r play -");
    play(&mut gift, "b3>c3").unwrap();
    let e = Roshi::ending(&gift).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::Second), "roshi"));
}

// --- Counts -----------------------------------------------------------------

#[test]
fn legal_turn_counts_match_hand_counts() {
    let data = include_str!("../../../tests/data/roshi-counts.txt");
    let mut checked = 0;
    for (position, count) in crate::testkit::counts(data) {
        assert_eq!(turns(&pos(position)).len(), count, "{position}");
        assert_eq!(
            Roshi::count_legal_moves(&pos(position)),
            count,
            "{position}"
        );
        checked += 1;
    }
    assert!(checked >= 4);
}

#[test]
fn setup_turns_are_counted_as_the_generator_lists_them() {
    // Red's setup (the stone in the zone, a piece anywhere else) and
    // Blue's (two pieces, each pair once), on the default board and a
    // crowded one.
    let mut p = Roshi::start(&[]).unwrap();
    assert_eq!(Roshi::count_legal_moves(&p), turns(&p).len());
    play(&mut p, "R@d4,@a1").unwrap();
    assert_eq!(Roshi::count_legal_moves(&p), turns(&p).len());
    assert!(turns(&p).len() > 100);
}

#[test]
fn legal_action_counts_match_hand_counts() {
    // 5x5, Red a1, stone c3, Blue e5: 22 places and 22 slides; no push.
    let p = pos("4B/5/2S2/5/R4 b2-d4 7-7 r play -");
    assert_eq!(rules::legal_actions(&p).len(), 44);
    // Under `line`: 22 places; a1 slides along rank 1 (4) and file a (4).
    let p = line("4B/5/2S2/5/R4 b2-d4 7-7 r play -");
    assert_eq!(rules::legal_actions(&p).len(), 30);
    // After the setup on 7x7 (stone d4, Red a1, Blue b2 f6): 45 places;
    // a1 slides to all 45 empty squares; a1 pushes nothing = 90.
    assert_eq!(rules::legal_actions(&pos(AFTER_SETUP)).len(), 90);
}

#[test]
fn every_generated_turn_is_legal_and_order_matters() {
    let p = pos("4B/5/2S2/5/R4 b2-d4 7-7 r play -");
    let all = turns(&p);
    assert!(all.contains("@a2,a1>a2") && all.contains("a1-b1,@a1"));
    assert!(all.contains("@b2,a1-a5") && all.contains("a1-a5,@b2"));
    for t in &all {
        play(&mut p.clone(), t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

/// The generator against brute force over random playouts: the one-action
/// turns it lists are exactly the places, slides and pushes `play` accepts,
/// and every two-action turn it lists is accepted.
#[test]
fn generator_agrees_with_play_over_random_games() {
    let mut rng = crate::testkit::Random::new(2025);
    let mut positions = 0;
    for slide in [SlideRule::Path, SlideRule::Line] {
        for _ in 0..6 {
            let mut p = Roshi::start(&[]).unwrap();
            p.slide = slide;
            play_all(&mut p, "R@d4,@a1 @b2,@f6");
            for _ in 0..25 {
                if Roshi::ending(&p).is_some() {
                    break;
                }
                let generated = turns(&p);
                let singles: BTreeSet<String> = generated
                    .iter()
                    .filter(|t| !t.contains(','))
                    .cloned()
                    .collect();
                let mut brute = BTreeSet::new();
                let squares: Vec<Sq> = p.dims.squares().collect();
                for &a in &squares {
                    let text = format!("@{a}");
                    if play(&mut p.clone(), &text).is_ok() {
                        brute.insert(text);
                    }
                    // Slides and pushes start from one of the mover's pieces
                    // (any other square fails the first check, as
                    // slide_errors and push_errors show).
                    if p.at(a) != Occupant::Piece(p.to_move) {
                        continue;
                    }
                    for &b in &squares {
                        for text in [format!("{a}-{b}"), format!("{a}>{b}")] {
                            if play(&mut p.clone(), &text).is_ok() {
                                brute.insert(text);
                            }
                        }
                    }
                }
                assert_eq!(singles, brute, "{}", p.write());
                // The pairs counted, not built, are as many as generated.
                assert_eq!(
                    Roshi::count_legal_moves(&p),
                    generated.len(),
                    "{}",
                    p.write()
                );
                for t in generated.iter().filter(|t| t.contains(',')).step_by(37) {
                    play(&mut p.clone(), t).unwrap_or_else(|e| panic!("{t}: {e}"));
                }
                // What the search plays: a generated turn played without
                // proving its slide's path again makes play's position.
                let mut list = Vec::new();
                Roshi::legal_moves(&p, &mut list);
                for m in list.iter().step_by(5) {
                    let (mut checked, mut trusted) = (p.clone(), p.clone());
                    Roshi::play(&mut checked, m).unwrap();
                    Roshi::play_generated(&mut trusted, m).unwrap();
                    assert_eq!(checked, trusted, "{}", p.write());
                }
                positions += 1;
                let pick: Vec<&String> = generated.iter().collect();
                let t = pick[rng.below(pick.len())].clone();
                play(&mut p, &t).unwrap();
            }
        }
    }
    assert!(positions > 100, "{positions}");
}

#[test]
fn facts_follow_each_action_and_stats_count_types_and_double_roshis() {
    use crate::testkit::{played, stat};
    // The endings fixture: Red places e4 and pushes Blue's c3 to d3 (both
    // now have a roshi), Blue pushes Red's a4 down to a3.
    let position = "3B3/3B3/B2B3/RRRS3/1RB4/7/7 c3-e5 4-3 r play -";
    let (facts, counts) = played::<super::Roshi>(&[("Position", position)], "@e4,b3>c3 a5>a4");
    assert_eq!(facts[0].kind, "place+push");
    let effects: Vec<_> = facts[0]
        .effects
        .iter()
        .map(|e| {
            (
                e.what.as_str(),
                e.piece.clone().unwrap(),
                e.from.clone(),
                e.to.clone(),
            )
        })
        .collect();
    assert_eq!(
        effects,
        [
            (
                "placed",
                "Red piece".to_string(),
                None,
                Some("e4".to_string())
            ),
            (
                "pushed",
                "Blue piece".to_string(),
                Some("c3".to_string()),
                Some("d3".to_string())
            ),
        ]
    );
    assert_eq!(facts[1].kind, "push");
    assert_eq!(facts[1].effects[0].piece.as_deref(), Some("Red piece"));
    assert_eq!(facts[1].effects[0].to.as_deref(), Some("a3"));
    let s = |n| stat::<super::Roshi>(&counts, n);
    assert_eq!(
        (s("places"), s("slides"), s("pushes")),
        (Some(1), Some(0), Some(2))
    );
    assert_eq!(s("turns_with_both_roshis"), Some(1));
    assert_eq!(s("passes"), Some(0));
}

#[test]
fn setup_turns_and_passes_are_their_own_kinds() {
    let (facts, counts) = crate::testkit::played::<super::Roshi>(&[], "R@d4,@a1 @f6,@b2");
    assert_eq!(facts[0].kind, "setup");
    assert_eq!(facts[0].effects[0].piece.as_deref(), Some("roshi stone"));
    // Setup placements are not counted as play actions.
    assert_eq!(
        crate::testkit::stat::<super::Roshi>(&counts, "places"),
        Some(0)
    );
    let (facts, counts) = crate::testkit::played::<super::Roshi>(
        &[("Position", "5/5/2S2/5/5 b2-d4 0-0 r play -")],
        "--",
    );
    assert_eq!(facts[0].kind, "pass");
    assert_eq!(
        crate::testkit::stat::<super::Roshi>(&counts, "passes"),
        Some(1)
    );
}

/// Every turn that can be written after the setup: a place on each square,
/// a slide or push from each square holding the mover's piece to each
/// square; each pair of two actions of different types whose first action
/// `play` accepts on its own (a turn's actions are checked in order), the
/// second from any square (the first may have moved a piece there); and the
/// pass.
fn candidates(p: &Position) -> Vec<Move> {
    use super::notation::Action;
    assert_eq!(
        p.phase,
        Phase::Play,
        "candidates are listed after the setup"
    );
    let squares: Vec<Sq> = p.dims.squares().collect();
    let actions = |from: &dyn Fn(Sq) -> bool| {
        let mut out: Vec<Action> = squares.iter().map(|&s| Action::Place(s)).collect();
        for &a in squares.iter().filter(|&&a| from(a)) {
            for &b in &squares {
                out.push(Action::Slide(a, b));
                out.push(Action::Push(a, b));
            }
        }
        out
    };
    let firsts = actions(&|a| p.at(a) == Occupant::Piece(p.to_move));
    let seconds = actions(&|_| true);
    let mut out = vec![Move::PASS];
    for &a1 in &firsts {
        out.push(Move::new(&[a1]));
        if Roshi::play(&mut p.clone(), &Move::new(&[a1])).is_ok() {
            for &a2 in seconds.iter().filter(|a2| a2.kind() != a1.kind()) {
                out.push(Move::new(&[a1, a2]));
            }
        }
    }
    out
}

#[test]
fn perft_counts_agree_with_trying_every_move() {
    let checked = crate::testkit::check_perft_file::<Roshi>("roshi", 20_000, &candidates);
    assert!(checked >= 2, "{checked}");
}

/// What the search is told a turn ends, without playing it, is what
/// playing it and asking `ending` says, over random games (each ends with
/// a roshi, made by a turn on a line through the stone or pushing it).
/// Also: a generated turn played in place makes play's position.
#[test]
fn outcomes_told_without_playing_agree_with_play_and_ending() {
    let positions = crate::testkit::random_positions::<Roshi>(51, 30);
    let (open, decided) = crate::testkit::check_outcomes::<Roshi>(&positions);
    assert!(open > 10_000, "{open} {decided}");
    for p in positions.iter().step_by(3) {
        crate::testkit::check_play_generated::<Roshi>(p, 7);
    }
}

/// Each feature as a player counts it: three red pieces and the stone in
/// a row with the fifth square empty are one piece short of a roshi;
/// Blue's one piece lies in a diagonal five through the stone.
#[test]
fn the_evaluation_counts_what_a_player_counts() {
    let f = crate::testkit::features::<Roshi>(&pos("7/7/7/RRRS3/7/7/B6 c3-e5 5-7 r play -"));
    assert_eq!(
        f,
        [
            ("fullest_line", 3.0 - 1.0),
            ("one_short", 1.0),
            ("in_hand", 5.0 - 7.0)
        ]
    );
    let f = crate::testkit::features::<Roshi>(&pos("7/7/7/RRRS3/7/7/B6 c3-e5 5-7 b play -"));
    assert_eq!(
        f,
        [
            ("fullest_line", 1.0 - 3.0),
            ("one_short", -1.0),
            ("in_hand", 7.0 - 5.0)
        ]
    );
    let start = Roshi::start(&[]).unwrap();
    assert!(crate::testkit::features::<Roshi>(&start)
        .iter()
        .all(|(_, f)| *f == 0.0));
}
