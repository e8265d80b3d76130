//! One test per rule and per illegal-move reason; the corner rule at every
//! square of the Way; legal-move counts (crates/rules/tests/data/retsami-counts.txt).

use super::geometry::{OnTheWay, Square, CORNERS, HOME};
use super::notation::Move;
use super::position::Position;
use super::rules::RetsamiError;
use super::Retsami;
use crate::game::{Notation, RuleError, Rules, Side};
use crate::Tag;
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    Position::parse(text, Side::First).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn mv(text: &str) -> Move {
    Retsami::parse_move(&Retsami::start(&[]).unwrap(), text).unwrap()
}

fn play(p: &mut Position, text: &str) -> Result<(), RetsamiError> {
    Retsami::play(p, &mv(text))
}

fn play_all(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        play(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn legal(p: &Position) -> BTreeSet<String> {
    crate::testkit::legal::<Retsami>(p)
}

fn code(r: Result<(), RetsamiError>) -> &'static str {
    crate::testkit::refused(r)
}

/// A position with one Red counter on Way `w` and nothing else, Red to move.
fn lone(w: u8) -> Position {
    let before = w - 1;
    let after = 81 - w;
    let mut text = String::new();
    if before > 0 {
        text.push_str(&before.to_string());
    }
    text.push('R');
    if after > 0 {
        text.push_str(&after.to_string());
    }
    pos(&format!("{text} 0-0 r -"))
}

fn tag(name: &str, value: &str) -> Tag {
    crate::testkit::tag(name, value)
}

// --- Start ----------------------------------------------------------------

#[test]
fn the_start_and_who_moves_first() {
    let p = Retsami::start(&[]).unwrap();
    assert_eq!(p.to_move, Side::First);
    assert_eq!(Retsami::first_mover(&p), Side::First);
    assert_eq!(legal(&p).len(), 12);
    // FirstPlayer White: White stands on 2, 4, 6, 8 and moves first.
    let p = Retsami::start(&[tag("FirstPlayer", "White")]).unwrap();
    assert_eq!(p.to_move, Side::Second);
    assert_eq!(Retsami::first_mover(&p), Side::Second);
    assert_eq!(p.at(Square::at_way(8)), Some(Side::Second));
    assert_eq!(p.at(Square::at_way(1)), Some(Side::First));
    assert_eq!(legal(&p).len(), 12);
    assert!(Retsami::start(&[tag("FirstPlayer", "Blue")]).is_err());
}

// --- Advances ---------------------------------------------------------------

#[test]
fn the_corner_rule_at_every_square_of_the_way() {
    // With one counter alone on Way w, it reaches every square up to the
    // second corner after w (or the Home Square when fewer corners remain).
    for w in 1..HOME {
        let mut ahead = CORNERS.iter().filter(|&&c| c > w);
        let reach = ahead.nth(1).copied().unwrap_or(HOME);
        let expected: BTreeSet<String> = (w + 1..=reach)
            .map(|t| format!("{}-{}", Square::at_way(w), Square::at_way(t)))
            .collect();
        assert_eq!(legal(&lone(w)), expected, "from Way {w}");
    }
}

#[test]
fn the_documented_corner_examples() {
    let reach = |w: u8| -> Vec<u8> {
        legal(&lone(w))
            .iter()
            .map(|m| Square::parse(&m[3..]).unwrap().way())
            .collect::<BTreeSet<u8>>()
            .into_iter()
            .collect()
    };
    assert_eq!(reach(8), (9..=17).collect::<Vec<u8>>());
    assert_eq!(reach(77), [78, 79, 80]);
    assert_eq!(reach(79), [80, 81]);
    assert_eq!(reach(80), [81]);
    let e = play(&mut lone(77), "f6-e5").unwrap_err();
    assert_eq!(e.code(), "too-many-corners");
    assert_eq!(
        e.to_string(),
        "from f6 (Way 77) to e5 (Way 81) the counter would turn 2 corners (Way 79, 80); \
         it may turn at most one"
    );
}

#[test]
fn advances_go_forward_only_and_never_overtake() {
    let mut p = Retsami::start(&[]).unwrap();
    // Backwards is refused before anything else.
    let e = play(&mut p.clone(), "h1-g1").unwrap_err();
    assert_eq!(e.code(), "not-forward");
    let e = play(&mut p.clone(), "f1-h1").unwrap_err();
    assert_eq!(e.code(), "occupied");
    let e = play(&mut p.clone(), "f1-i1").unwrap_err();
    assert_eq!(e.code(), "overtaking");
    assert_eq!(
        e.to_string(),
        "the counter on g1 (Way 7) stands between f1 and i1: a counter may not overtake another"
    );
    play(&mut p, "h1-i2").unwrap();
    // White's g1 moves up to the counter ahead of it, not onto it.
    play(&mut p.clone(), "g1-i1").unwrap();
    assert_eq!(code(play(&mut p.clone(), "g1-i2")), "occupied");
    let mut q = lone(20);
    let e = play(&mut q.clone(), "f9-h9").unwrap_err();
    assert_eq!(e.code(), "not-forward");
    assert_eq!(
        e.to_string(),
        "h9 (Way 18) is not ahead of f9 (Way 20): counters advance only forward along the Way"
    );
    assert_eq!(code(play(&mut q, "f9-f9")), "not-forward");
}

#[test]
fn only_your_own_counters_move() {
    let mut p = Retsami::start(&[]).unwrap();
    let e = play(&mut p.clone(), "g1-i1").unwrap_err();
    assert_eq!(e.code(), "not-your-counter");
    assert_eq!(
        e.to_string(),
        "the counter on g1 is White's; it is Red's turn"
    );
    assert_eq!(code(play(&mut p, "e5-e6")), "no-counter");
}

// --- Takes ------------------------------------------------------------------

#[test]
fn a_take_removes_a_superior_enemy_counter_in_a_straight_line() {
    let mut p = Retsami::start(&[]).unwrap();
    play(&mut p, "f1xg1").unwrap();
    assert_eq!(p.at(Square::parse("g1").unwrap()), Some(Side::First));
    assert_eq!(p.at(Square::parse("f1").unwrap()), None);
    assert_eq!(p.off, [0, 1]);
    // Diagonal, over empty squares: after 1. h1-i3, White's g1 takes i3.
    let mut q = Retsami::start(&[]).unwrap();
    play_all(&mut q, "h1-i3 g1xi3");
    assert_eq!(q.off, [1, 0]);
}

#[test]
fn take_errors_name_what_failed() {
    let p = Retsami::start(&[]).unwrap();
    let e = play(&mut p.clone(), "b1xe1").unwrap_err();
    assert_eq!(e.code(), "path-blocked");
    assert_eq!(
        e.to_string(),
        "the way from b1 to e1 is blocked by the counter on c1"
    );
    assert_eq!(code(play(&mut p.clone(), "b1xc3")), "not-a-line");
    let e = play(&mut p.clone(), "b1xb2").unwrap_err();
    assert_eq!(e.code(), "nothing-to-take");
    let e = play(&mut p.clone(), "b1xd1").unwrap_err();
    assert_eq!(e.code(), "nothing-to-take");
    assert!(e.to_string().contains("your own"), "{e}");
    // White's a1 (Way 1) is inferior to Red's b1 (Way 2).
    let e = play(&mut p.clone(), "b1xa1").unwrap_err();
    assert_eq!(e.code(), "not-superior");
    assert_eq!(
        e.to_string(),
        "the counter on a1 (Way 1) is not superior to yours on b1 (Way 2): only a \
         counter further along the Way can be taken"
    );
}

// --- Re-entry ---------------------------------------------------------------

#[test]
fn re_entry_puts_an_off_board_counter_on_a_vacant_starting_square() {
    let mut p = Retsami::start(&[]).unwrap();
    assert_eq!(code(play(&mut p.clone(), "@i1")), "nothing-off-board");
    play_all(&mut p, "h1-i3 g1xi3");
    assert_eq!(code(play(&mut p.clone(), "@i2")), "not-starting-row");
    assert_eq!(code(play(&mut p.clone(), "@b1")), "occupied");
    play(&mut p, "@h1").unwrap();
    assert_eq!(p.off, [0, 0]);
    assert_eq!(p.at(Square::parse("h1").unwrap()), Some(Side::First));
}

// --- The end ------------------------------------------------------------------

#[test]
fn reaching_the_home_square_wins() {
    let mut p = lone(80);
    assert_eq!(Retsami::ending(&p), None);
    play(&mut p, "d5-e5").unwrap();
    let e = Retsami::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "home"));
}

#[test]
fn a_draw_is_offered_with_a_turn_and_accepted_with_the_next() {
    let mut p = Retsami::start(&[]).unwrap();
    play(&mut p, "h1-i2~~").unwrap();
    assert!(p.offer_pending);
    assert!(legal(&p).contains("=="));
    play(&mut p, "==").unwrap();
    let e = Retsami::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (None, "draw-accepted"));
}

#[test]
fn any_other_turn_declines_and_the_offer_lapses() {
    let mut p = Retsami::start(&[]).unwrap();
    play_all(&mut p, "h1-i2~~ g1-h1");
    assert!(!p.offer_pending);
    assert!(!legal(&p).contains("=="));
    let e = play(&mut p.clone(), "==").unwrap_err();
    assert_eq!(e.code(), "no-offer-pending");
    // And without any offer at all.
    assert_eq!(
        code(play(&mut Retsami::start(&[]).unwrap(), "==")),
        "no-offer-pending"
    );
}

#[test]
fn an_offer_with_a_winning_move_is_void() {
    let mut p = lone(80);
    play(&mut p, "d5-e5~~").unwrap();
    assert!(!p.offer_pending);
    assert_eq!(Retsami::ending(&p).unwrap().reason, "home");
}

#[test]
fn a_player_with_no_legal_move_is_blocked_and_the_game_drawn() {
    let p = pos("81 0-0 r -");
    let e = Retsami::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (None, "blocked"));
}

#[test]
fn has_legal_move_finds_the_turns_past_its_quick_checks() {
    // Red's only counter (Way 2) has White on Way 3 ahead: no step forward.
    // It can still take Way 3's counter (superior, in line): a legal turn
    // the quick checks do not see.
    let p = pos("1RW78 0-0 r -");
    assert!(Retsami::has_legal_move(&p));
    assert_eq!(legal(&p).len(), 1, "{:?}", legal(&p));
    // With White's counter out of line (Way 4, two squares on, behind an
    // empty Way 3) Red simply steps on.
    let q = pos("1R1W77 0-0 r -");
    assert!(Retsami::has_legal_move(&q));
    // A counter on Home, none to move, none off: nothing.
    for text in ["81 0-0 r -", "80W 0-0 r -"] {
        let b = pos(text);
        assert!(!Retsami::has_legal_move(&b), "{text}");
        assert!(legal(&b).is_empty(), "{text}");
    }
}

// --- Counts -------------------------------------------------------------------

#[test]
fn legal_move_counts_match_hand_counts() {
    let data = include_str!("../../../tests/data/retsami-counts.txt");
    let mut checked = 0;
    for (position, count) in crate::testkit::counts(data) {
        assert_eq!(legal(&pos(position)).len(), count, "{position}");
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
fn generator_agrees_with_the_rule_checks_over_random_games() {
    // Every advance, take and re-entry the generator lists passes `check`,
    // and every one `check` accepts is listed.
    let mut rng = crate::testkit::Random::new(81);
    let mut positions = 0;
    for _ in 0..30 {
        let mut p = Retsami::start(&[]).unwrap();
        for _ in 0..120 {
            if Retsami::ending(&p).is_some() {
                break;
            }
            let generated = legal(&p);
            let mut brute = BTreeSet::new();
            // Any other from-square fails the first check (no counter of
            // the side to move), as the take and advance tests show.
            for from in Square::all().filter(|&s| p.at(s) == Some(p.to_move)) {
                for to in Square::all() {
                    for text in [format!("{from}-{to}"), format!("{from}x{to}")] {
                        if play(&mut p.clone(), &text).is_ok() {
                            brute.insert(text);
                        }
                    }
                }
            }
            for to in Square::all() {
                let text = format!("@{to}");
                if play(&mut p.clone(), &text).is_ok() {
                    brute.insert(text);
                }
            }
            if p.offer_pending {
                brute.insert("==".into());
            }
            assert_eq!(generated, brute, "{}", p.write());
            // The quick answer (offer, re-entry, one step on) agrees.
            assert_eq!(Retsami::has_legal_move(&p), !generated.is_empty());
            // What the search plays makes play's position.
            crate::testkit::check_play_generated::<Retsami>(&p, 1);
            positions += 1;
            let pick: Vec<&String> = generated.iter().collect();
            let m = pick[rng.below(pick.len())].clone();
            play(&mut p, &m).unwrap();
        }
    }
    assert!(positions > 500, "{positions}");
}

#[test]
fn facts_name_the_taken_counter_and_stats_count_takes_and_reentries() {
    use crate::testkit::{played, stat};
    // The unfinished fixture: Red h1-i3 (Way 11), White takes it from g1,
    // Red re-enters on h1, White takes f1 from e1.
    let (facts, counts) = played::<super::Retsami>(&[], "h1-i3 g1xi3 @h1 e1xf1");
    let kinds: Vec<_> = facts.iter().map(|f| f.kind.as_str()).collect();
    assert_eq!(kinds, ["advance", "take", "enter", "take"]);
    assert_eq!(facts[1].effects[0].what, "taken");
    assert_eq!(facts[1].effects[0].piece.as_deref(), Some("Red counter"));
    assert_eq!(facts[1].effects[0].from.as_deref(), Some("i3"));
    assert_eq!(facts[2].from, None);
    assert_eq!(facts[2].to.as_deref(), Some("h1"));
    let s = |n| stat::<super::Retsami>(&counts, n);
    assert_eq!((s("takes_first"), s("takes_second")), (Some(0), Some(2)));
    assert_eq!(
        (s("reentries_first"), s("reentries_second")),
        (Some(1), Some(0))
    );
    // i3 is Way 11; both sides have stood there.
    assert_eq!(s("furthest_way_first"), Some(11));
    assert_eq!(s("furthest_way_second"), Some(11));
    assert_eq!(s("leader_furthest_way"), Some(11));
}

#[test]
fn a_draw_offer_is_a_fact_and_counted() {
    let (facts, counts) = crate::testkit::played::<super::Retsami>(&[], "h1-i3~~ ==");
    assert!(facts[0].offer);
    assert_eq!(facts[0].canonical, "h1-i3~~");
    assert_eq!(facts[1].kind, "accept");
    assert_eq!(
        crate::testkit::stat::<super::Retsami>(&counts, "draw_offers"),
        Some(1)
    );
}

/// Every turn that can be written: an advance or a take from each square to
/// each square, a re-entry on each square, and `==`.
fn candidates(_: &Position) -> Vec<Move> {
    use super::notation::Action;
    let play = |action| Move::Play {
        action,
        offer: false,
    };
    let mut out = vec![Move::Accept];
    for from in Square::all() {
        for to in Square::all() {
            out.push(play(Action::Advance { from, to }));
            out.push(play(Action::Take { from, to }));
        }
    }
    out.extend(Square::all().map(|to| play(Action::Enter { to })));
    out
}

#[test]
fn perft_counts_agree_with_trying_every_move() {
    let checked = crate::testkit::check_perft_file::<Retsami>("retsami", 5_000, &candidates);
    assert!(checked >= 3, "{checked}");
}

/// Whether a turn reaches the Home Square, told without generating the
/// turns, is what generating, playing each and asking `ending` says — over
/// random games to their ends (their last turns reach Home).
#[test]
fn a_win_at_once_is_told_as_generating_every_turn_tells_it() {
    let positions = crate::testkit::random_positions::<Retsami>(57, 80);
    let [won, none, untold] = crate::testkit::check_wins_at_once::<Retsami>(&positions);
    eprintln!("wins at once: {won}, none: {none}");
    assert!(
        won > 20 && none > 1_000 && untold == 0,
        "{won} {none} {untold}"
    );
}

/// Each feature as a player counts it: Red's counter on Way 80 reaches
/// Home at once; White's on Way 1 can take nothing (a take needs a
/// superior counter in a straight, empty line).
#[test]
fn the_evaluation_counts_what_a_player_counts() {
    let pos = Position::parse("W78R1 2-3 r -", Side::First).unwrap();
    let f = crate::testkit::features::<Retsami>(&pos);
    let want = [
        ("leader", 79.0),
        ("progress", 7.9),
        ("off_board", -1.0),
        ("takes", 0.0),
        ("their_takes", 0.0),
        ("home_now", 1.0),
        ("their_home_now", 0.0),
    ];
    for ((name, got), (want_name, want)) in f.iter().zip(want) {
        assert_eq!(*name, want_name);
        assert!((got - want).abs() < 1e-9, "{name}: {got}, not {want}");
    }
    // White's counter on Way 1 (a1) below Red's on Way 32 (a2): White
    // takes it; from White's side the same board reads the other way.
    let pos = Position::parse("W30R49 0-0 w -", Side::First).unwrap();
    let f = crate::testkit::features::<Retsami>(&pos);
    assert_eq!(
        (f[3], f[4]),
        (("takes", 1.0), ("their_takes", 0.0)),
        "{f:?}"
    );
    assert_eq!(f[0], ("leader", 1.0 - 32.0), "{f:?}");
}
