//! One test per rule and per illegal-move reason; the worked examples T1-T4
//! of the rules document; legal-move counts (crates/rules/tests/data/iqishiqi-counts.txt);
//! the generator against a naive reading of the rules.

use super::geometry::{Dir, Hex, GRID};
use super::labels::Coords;
use super::position::Position;
use super::rules::{self, IqishiqiError};
use super::{Iqishiqi, Move};
use crate::game::{Notation, RuleError, Rules, Side};
use crate::Tag;
use std::collections::BTreeSet;

fn cell(label: &str) -> Hex {
    Coords::Ludii
        .parse(label)
        .unwrap_or_else(|| panic!("{label}"))
}

fn pos(text: &str) -> Position {
    Position::parse(text, Coords::Ludii, None).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn mv(text: &str) -> Move {
    Iqishiqi::parse_move(&Iqishiqi::start(&[]).unwrap(), text).unwrap()
}

fn play(p: &mut Position, text: &str) -> Result<(), IqishiqiError> {
    Iqishiqi::play(p, &mv(text))
}

fn legal(p: &Position) -> BTreeSet<String> {
    crate::testkit::legal::<Iqishiqi>(p)
}

fn code(r: Result<(), IqishiqiError>) -> &'static str {
    crate::testkit::refused(r)
}

const T1: &str = "E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n";
const T2: &str = "N9 H7,H8,K8,M9,F10,G10,J10,K10,O10,F11,J11,L11,N12,O12,K14 s";
const T3: &str = "E8 F6,H8,N8,O9,F10 n";
const T4: &str = "L14 I3,I4,G5,K5,F6,L6,M6,F7,I7,F8,J8,K8,G9,I9,N9,I10,K10,L10,G11,I12,F13,N13,G14,N14,K15,L15,N15 s";

// --- The worked examples --------------------------------------------------

#[test]
fn t1_drop_f5_makes_a_group_of_four_with_two_pushes() {
    let p = pos(T1);
    let moves = legal(&p);
    assert_eq!(moves.len(), 27);
    let from_f5: Vec<&String> = moves.iter().filter(|m| m.starts_with("F5/")).collect();
    assert_eq!(from_f5, ["F5/A7", "F5/E11"]);
    // H8 and I8 make a group of 5 with only 4 cells of room.
    for drop in ["H8", "I8"] {
        let e = play(&mut p.clone(), drop).unwrap_err();
        assert_eq!(e.code(), "no-room", "{drop}");
        assert!(e.to_string().contains("has 5 stones"), "{e}");
        assert!(e.to_string().contains("room for at most 4"), "{e}");
    }
    // F5/A7 puts the neutral stone on the SW edge: North's.
    let mut q = p.clone();
    play(&mut q, "F5/A7").unwrap();
    let e = Iqishiqi::ending(&q).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "edge"));
}

#[test]
fn t2_south_stalemates_north() {
    let mut p = pos(T2);
    play(&mut p, "N8/N10").unwrap();
    assert!(legal(&p).is_empty());
    let e = Iqishiqi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::Second), "stalemate"));
}

#[test]
fn t3_south_has_twenty_replies() {
    let mut p = pos(T3);
    play(&mut p, "F9/C6").unwrap();
    assert_eq!(Iqishiqi::ending(&p), None);
    assert_eq!(legal(&p).len(), 20);
}

#[test]
fn t4_north_has_one_move_left() {
    let mut p = pos(T4);
    play(&mut p, "I14/M14").unwrap();
    assert_eq!(legal(&p).into_iter().collect::<Vec<_>>(), ["M15/M8"]);
}

// --- Rules ----------------------------------------------------------------

#[test]
fn the_start_has_the_neutral_stone_on_the_centre_and_north_to_move() {
    let p = Iqishiqi::start(&[]).unwrap();
    assert_eq!(p.neutral, Hex::CENTRE);
    assert_eq!(p.to_move, Side::First);
    assert_eq!(p.stone_count(), 0);
    assert_eq!(legal(&p).len(), 42);
}

#[test]
fn the_neutral_stone_moves_exactly_the_group_size_away_from_the_sighted_stone() {
    // H10 is two up the NNW ray; dropping H9 makes a group of 2 first in
    // sight: the neutral stone moves 2 cells down, to H6.
    let mut p = pos("H8 H10 n");
    play(&mut p, "H9/H6").unwrap();
    assert_eq!(p.neutral, cell("H6"));
    assert!(p.has_stone(cell("H9")));
    assert_eq!(p.to_move, Side::Second);
    // A stone of the group that is not the dropped one may be the sighted one.
    let mut p = pos("H8 H10 n");
    play(&mut p, "G10/H6").unwrap();
}

#[test]
fn the_first_stone_in_sight_must_belong_to_the_new_group() {
    // H12 is a lone stone behind H10: the neutral stone sees H10 first.
    let p = pos("H8 H10 n");
    let e = play(&mut p.clone(), "H12").unwrap_err();
    assert_eq!(e.code(), "no-line-of-sight");
    assert_eq!(
        e.to_string(),
        "no stone of the new group (H12, 1 stone) is the first stone in line of \
         sight from the neutral stone on H8"
    );
    // Off every ray from the centre and next to no stone: nothing in sight
    // (A1 would be on the SSW ray; B1 is on none).
    assert_eq!(code(play(&mut pos("H8 - n"), "B1")), "no-line-of-sight");
    play(&mut pos("H8 - n"), "A1/I9").unwrap();
}

#[test]
fn a_drop_joins_every_group_it_touches() {
    // Neutral on H2. H5 touches G4 (SSW) and H6 (NNW): a group of 3, first in
    // sight up the NNW ray; a push of 3 down has only H1: no room.
    let mut p = pos("H2 G4,H6 n");
    let e = play(&mut p.clone(), "H5").unwrap_err();
    assert_eq!(e.code(), "no-room");
    assert!(e.to_string().contains("has 3 stones"), "{e}");
    // H3 alone is first in sight (1 stone): push 1 down to H1.
    play(&mut p, "H3/H1").unwrap();
    assert_eq!(p.neutral, cell("H1"));
}

#[test]
fn the_push_needs_n_empty_on_board_cells_and_the_new_stone_blocks() {
    // Neutral on H8, a stone on J8 two cells east (group of 1). Dropping G8
    // (west, adjacent) makes {G8}: first in sight W is G8, push E by 1 to I8.
    let mut p = pos("H8 J8 n");
    play(&mut p.clone(), "G8/I8").unwrap();
    // Dropping I8 joins J8: {I8, J8} = 2, in sight E: push W by 2 to F8.
    play(&mut p, "I8/F8").unwrap();
    // A push may not pass a stone: neutral F8, stone E8 one cell west; a
    // group of 2 east of it cannot push it 2 cells west.
    let p = pos("F8 E8,H8,I8 n");
    // G8 joins H8 and I8: a group of 3 first in sight east; west there is no
    // room at all (E8 is next to F8).
    let e = play(&mut p.clone(), "G8").unwrap_err();
    assert_eq!(e.code(), "no-room");
    assert!(e.to_string().contains("room for at most 0"), "{e}");
    // A lone stone dropped two cells down pushes the neutral stone one up,
    // into H9 (H10 is not in the way of a push of 1).
    let mut q = pos("H8 H10 n");
    play(&mut q, "H6/H9").unwrap();
    // A stone right above the neutral stone leaves no room to push it up.
    let r = pos("H8 H9 n");
    assert_eq!(code(play(&mut r.clone(), "H7")), "no-room");
    // The new stone itself blocks a push. Neutral H8 with G7, G8, H9 around
    // it; H7 joins them all: a group of 4, in sight up (H9), left (G8),
    // down-left (G7) and down (H7 itself). Pushed down by 4 it would cross
    // H7; pushed up it would cross H9. Left and down-left it goes to L8 and
    // L12.
    let b = pos("H8 G7,G8,H9 n");
    let dests = rules::destinations(&b, cell("H7")).unwrap();
    let mut labels: Vec<String> = dests.iter().map(|c| Coords::Ludii.label(c)).collect();
    labels.sort();
    assert_eq!(labels, ["L12", "L8"]);
    assert_eq!(
        code(play(&mut b.clone(), "H7/H4")),
        "unreachable-destination"
    );
}

#[test]
fn no_partial_pushes_and_no_pushing_off_the_board() {
    // Neutral on H2, one cell from the S edge/corner H1. A group of 2 above
    // it would push it 2 cells: off the board.
    let p = pos("H2 H4 n");
    let e = play(&mut p.clone(), "H3").unwrap_err();
    assert_eq!(e.code(), "no-room");
    assert!(e.to_string().contains("room for at most 1"), "{e}");
}

#[test]
fn a_drop_may_not_go_on_a_stone_or_the_neutral_stone() {
    let mut p = pos("H8 - n");
    let e = play(&mut p.clone(), "H8/H7").unwrap_err();
    assert_eq!(e.code(), "neutral-cell");
    assert_eq!(
        e.to_string(),
        "H8 holds the neutral stone; drop on an empty cell"
    );
    play(&mut p, "H9/H7").unwrap();
    let e = play(&mut p.clone(), "H9/H6").unwrap_err();
    assert_eq!(e.code(), "occupied");
    assert_eq!(e.to_string(), "H9 already holds a white stone");
}

#[test]
fn the_destination_may_be_left_out_only_when_it_is_unique() {
    let mut p = pos(T1);
    let e = play(&mut p.clone(), "F5").unwrap_err();
    assert_eq!(e.code(), "ambiguous-move");
    assert_eq!(
        e.to_string(),
        "ambiguous move: after the drop on F5 the neutral stone can go to A7 or E11; \
         write the destination, e.g. F5/A7"
    );
    let e = play(&mut p.clone(), "F5/E12").unwrap_err();
    assert_eq!(e.code(), "unreachable-destination");
    assert_eq!(
        e.to_string(),
        "no legal push after the drop on F5 ends on E12; the neutral stone can go to A7 or E11"
    );
    // From the start every drop has exactly one push.
    let mut s = pos("H8 - n");
    play(&mut s, "H9").unwrap();
    assert_eq!(s.neutral, cell("H7"));
    play(&mut p, "F5/E11").unwrap();
}

#[test]
fn the_stone_limit_ends_the_supply() {
    let tag = |v: &str| Tag {
        name: "StoneLimit".into(),
        value: v.into(),
        span: Default::default(),
        value_span: Default::default(),
    };
    let mut p = Iqishiqi::start(&[tag("1")]).unwrap();
    assert_eq!(p.stones_left, Some(1));
    play(&mut p, "H9/H7").unwrap();
    assert_eq!(p.stones_left, Some(0));
    assert_eq!(code(play(&mut p.clone(), "H6")), "no-stones-left");
    assert!(legal(&p).is_empty());
    // The next player cannot move: the pusher wins by stalemate.
    let e = Iqishiqi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "stalemate"));
    assert!(Iqishiqi::start(&[tag("many")]).is_err());
}

// --- The end of the game ----------------------------------------------------

#[test]
fn a_corner_wins_for_the_pusher_even_on_the_opponents_edge() {
    // H1 is a corner (S, South's; SE, North's). North pushes there.
    let mut p = pos("H2 - n");
    play(&mut p, "H3/H1").unwrap();
    let e = Iqishiqi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "corner"));
    // South pushes there: South wins.
    let mut p = pos("H2 - s");
    play(&mut p, "H3/H1").unwrap();
    let e = Iqishiqi::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::Second), "corner"));
}

#[test]
fn an_edge_wins_for_its_owner_whoever_pushed() {
    // D1 lies on the S edge only: South's.
    for (side, text) in [(Side::First, "D2 - n"), (Side::Second, "D2 - s")] {
        let mut p = pos(text);
        play(&mut p, "D3/D1").unwrap();
        let e = Iqishiqi::ending(&p).unwrap();
        assert_eq!(
            (e.winner, e.reason),
            (Some(Side::Second), "edge"),
            "{side:?}"
        );
    }
    // Each edge's owner: N, SW, SE North; S, NW, NE South.
    for (neutral, owner) in [
        ("K15", Side::First),  // N
        ("A4", Side::First),   // SW
        ("L5", Side::First),   // SE
        ("D1", Side::Second),  // S
        ("D11", Side::Second), // NW
        ("O10", Side::Second), // NE
    ] {
        let p = pos(&format!("{neutral} - n"));
        let e = Iqishiqi::ending(&p).unwrap();
        assert_eq!((e.winner, e.reason), (Some(owner), "edge"), "{neutral}");
    }
}

#[test]
fn corner_is_checked_before_edge_and_edge_before_stalemate() {
    // On a corner with no legal move for the next player: still "corner".
    let p = pos("H1 - s 0");
    assert_eq!(Iqishiqi::ending(&p).unwrap().reason, "corner");
    let p = pos("D1 - s 0");
    assert_eq!(Iqishiqi::ending(&p).unwrap().reason, "edge");
    let p = pos("H8 - s 0");
    assert_eq!(Iqishiqi::ending(&p).unwrap().reason, "stalemate");
}

// --- Counts and the generator -----------------------------------------------

#[test]
fn legal_move_counts_match_hand_and_reference_counts() {
    let data = include_str!("../../../tests/data/iqishiqi-counts.txt");
    let mut checked = 0;
    for (position, count) in crate::testkit::counts(data) {
        let p = pos(position);
        assert_eq!(legal(&p).len(), count, "{position}");
        checked += 1;
    }
    assert!(checked >= 7);
}

/// The rules read literally, with no precomputation: place the stone, flood
/// its group, walk each ray, walk the push.
fn naive_moves(p: &Position) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if p.stones_left == Some(0) {
        return out;
    }
    for drop in Hex::all() {
        if drop == p.neutral || p.has_stone(drop) {
            continue;
        }
        // A cell at a time, apart from the bit words the rules walk.
        let mut stones = [false; GRID];
        for c in Hex::all() {
            stones[c.index()] = p.has_stone(c);
        }
        stones[drop.index()] = true;
        let mut group = BTreeSet::from([drop]);
        let mut todo = vec![drop];
        while let Some(c) = todo.pop() {
            for nb in c.neighbours() {
                if stones[nb.index()] && group.insert(nb) {
                    todo.push(nb);
                }
            }
        }
        for d in Dir::ALL {
            let mut c = p.neutral;
            let sighted = loop {
                match c.step(d) {
                    None => break false,
                    Some(next) if stones[next.index()] => break group.contains(&next),
                    Some(next) => c = next,
                }
            };
            if !sighted {
                continue;
            }
            let mut c = p.neutral;
            let ok = (0..group.len()).all(|_| match c.step(d.opposite()) {
                Some(next) if !stones[next.index()] => {
                    c = next;
                    true
                }
                _ => false,
            });
            if ok {
                out.insert(format!(
                    "{}/{}",
                    Coords::Ludii.label(drop),
                    Coords::Ludii.label(c)
                ));
            }
        }
    }
    out
}

#[test]
fn generator_agrees_with_the_naive_rules_over_random_games() {
    let mut rng = crate::testkit::Random::new(2003);
    let mut positions = 0;
    for start in ["H8 - n", T1, T2, T3, T4] {
        for _ in 0..12 {
            let mut p = pos(start);
            for _ in 0..60 {
                let generated = legal(&p);
                assert_eq!(generated, naive_moves(&p), "{}", p.write());
                // The quick answer (drops along the rays first) agrees.
                assert_eq!(Iqishiqi::has_legal_move(&p), !generated.is_empty());
                // What the search plays makes play's position.
                crate::testkit::check_play_generated::<Iqishiqi>(&p, 1);
                positions += 1;
                if Iqishiqi::ending(&p).is_some() {
                    break;
                }
                let pick: Vec<&String> = generated.iter().collect();
                let m = pick[rng.below(pick.len())].clone();
                play(&mut p, &m).unwrap();
            }
        }
    }
    assert!(positions > 300, "{positions}");
}

#[test]
fn facts_resolve_the_destination_and_stats_measure_pushes_and_groups() {
    use crate::testkit::{played, stat};
    // The unfinished fixture: H9 alone pushes the neutral stone to H7.
    let (facts, counts) = played::<super::Iqishiqi>(&[], "H9 I7/G7 G9/G5");
    assert_eq!(facts[0].canonical, "H9/H7");
    assert_eq!(facts[0].kind, "drop");
    assert_eq!(facts[0].to.as_deref(), Some("H9"));
    let e = &facts[0].effects[0];
    assert_eq!(
        (e.from.as_deref(), e.to.as_deref()),
        (Some("H8"), Some("H7"))
    );
    let s = |n| stat::<super::Iqishiqi>(&counts, n);
    // G9 joins H9: a group of two pushes two cells.
    assert_eq!(s("longest_push"), Some(2));
    assert_eq!(s("largest_group"), Some(2));
    assert_eq!(s("stones_dropped"), Some(3));
}

#[test]
fn abstractplay_moves_use_its_labels() {
    let pos = super::Iqishiqi::start(&[]).unwrap();
    let mv = super::Iqishiqi::parse_move(&pos, "H9").unwrap();
    let mut after = pos.clone();
    super::Iqishiqi::play(&mut after, &mv).unwrap();
    // H9 is i7 in AbstractPlay's labels and H7 is g8 (the fixture game in
    // AbstractPlay labels opens with i7/g8).
    assert_eq!(super::site::abstractplay_move(&mv, &after), "i7/g8");
}

#[test]
fn abstractplay_lists_are_recognised_by_their_first_turn() {
    use super::site::looks_abstractplay;
    assert!(looks_abstractplay(b"i7/g8"));
    assert!(looks_abstractplay(b"o1/h15"));
    // Ludii's canonical labels are uppercase; a lone drop is ambiguous.
    assert!(!looks_abstractplay(b"H9/H7"));
    assert!(!looks_abstractplay(b"h9"));
    assert!(!looks_abstractplay(b"p1/a1"));
    assert!(!looks_abstractplay(b"a1/a2/a3"));
    // The site's own comma-joined list, by its first turn (issue 33).
    assert!(looks_abstractplay(b"c8/i7,f5/j7"));
    assert!(!looks_abstractplay(b"H9/H7,H8/H6"));
}

#[test]
fn a_game_is_compared_in_ludiis_labels_whatever_its_coords() {
    use crate::game::Facts;
    // The same start and the same move, one record in each scheme.
    let ludii = Position::start(Coords::Ludii, None);
    let ap = Position::start(Coords::AbstractPlay, None);
    let in_ludii = Iqishiqi::parse_move(&ludii, "H9/H7").unwrap();
    let in_ap = Iqishiqi::parse_move(&ap, "i7/g8").unwrap();
    let (mut after_l, mut after_a) = (ludii.clone(), ap.clone());
    Iqishiqi::play(&mut after_l, &in_ludii).unwrap();
    Iqishiqi::play(&mut after_a, &in_ap).unwrap();
    assert_ne!(
        after_l.write(),
        after_a.write(),
        "written in their own labels"
    );
    assert_eq!(
        Iqishiqi::standard_position(&after_l),
        Iqishiqi::standard_position(&after_a)
    );
    assert_eq!(Iqishiqi::standard(&ludii, &in_ludii, &after_l), "H9/H7");
    assert_eq!(Iqishiqi::standard(&ap, &in_ap, &after_a), "H9/H7");
    // A drop alone is spelled with its destination.
    let drop = Iqishiqi::parse_move(&ludii, "H9").unwrap();
    assert_eq!(Iqishiqi::standard(&ludii, &drop, &after_l), "H9/H7");
    // A user's turn is read in both schemes, either case, whatever the
    // game's own labels.
    let h9 = "H9/H7".to_string();
    for (pos, text) in [
        (&ludii, "i7/g8"),
        (&ap, "I7/G8"),
        (&ludii, "H9/H7"),
        (&ap, "h9/h7"),
    ] {
        assert!(Iqishiqi::readings(pos, text).contains(&h9), "{text}");
    }
    assert!(Iqishiqi::readings(&ludii, "z1/z2").is_empty());
    assert_eq!(Iqishiqi::NAMING, ["Coords"]);
}

/// Every move that can be written: a drop on each cell, the neutral stone
/// to each cell.
fn candidates(p: &Position) -> Vec<Move> {
    Hex::all()
        .flat_map(|drop| {
            Hex::all().map(move |dest| Move {
                drop,
                dest: Some(dest),
                coords: p.coords,
            })
        })
        .collect()
}

#[test]
fn perft_counts_agree_with_trying_every_move() {
    let checked = crate::testkit::check_perft_file::<Iqishiqi>("iqishiqi", 2_000, &candidates);
    assert!(checked >= 3, "{checked}");
}

#[test]
fn outcomes_told_without_playing_agree_with_play_and_ending() {
    let positions = positions_that_end_every_way();
    let (open, decided) = crate::testkit::check_outcomes::<Iqishiqi>(&positions);
    assert!(open > 10_000 && decided > 1_000, "{open} {decided}");
}

/// Positions where turns end the game every way: random games (seed 53);
/// the same positions with one stone left in the supply (every turn leaves
/// the next player none, a stalemate unless the stone reached a corner or
/// an edge); and positions from random games where some turn stalemates
/// the next player with stones left (A8/G13, I9/E10, N14/N12, G10/G13).
fn positions_that_end_every_way() -> Vec<Position> {
    let mut positions = crate::testkit::random_positions::<Iqishiqi>(53, 40);
    let last: Vec<Position> = (positions.iter().step_by(7))
        .map(|p| {
            let mut p = p.clone();
            p.stones_left = Some(1);
            p
        })
        .collect();
    positions.extend(last);
    positions.extend(
        [
            T1,
            T2,
            T3,
            T4,
            "D10 B3,B7,B9,C9,D6,E9,F11,G7,G11,G14,H5,H9,I13,I15,J10,J15,K11,K14,N8 s",
            "I10 B3,B7,B9,C9,C10,D6,D9,E9,F11,G7,G11,G14,H5,H9,I13,I14,I15,J10,J15,K11,K14,N8 n",
            "N13 B8,C8,C9,H4,H10,H15,I7,I8,K4,K5,K9,K12,L5,M11,N10,O11 n",
            "G11 E9,F5,F12,F13,G1,G5,G7,G14,H4,H11,I13,K12,O10 s",
        ]
        .map(pos),
    );
    positions
}

/// Whether some turn wins at once, told without generating the turns, is
/// what generating, playing each and asking `ending` says, over the
/// positions where turns end the game every way and more random games
/// (seed 59); it is told everywhere but with one stone left. The four
/// positions with a stalemating turn are told wins, and so are three where
/// the stalemating drop takes the cell the next player would drop on for a
/// push of one (found among random games: D6/B4, M10/K10, F4/F2).
#[test]
fn a_win_at_once_is_told_as_generating_every_turn_tells_it() {
    use crate::game::Search;
    let mut positions = crate::testkit::random_positions::<Iqishiqi>(59, 200);
    positions.extend(positions_that_end_every_way());
    let [won, none, untold] = crate::testkit::check_wins_at_once::<Iqishiqi>(&positions);
    eprintln!("wins at once: {won}, none: {none}, left to the generator: {untold}");
    let last_stone = positions
        .iter()
        .filter(|p| p.stones_left == Some(1))
        .count();
    assert!(
        won > 200 && none > 1_000 && untold <= last_stone,
        "{won} {none} {untold}"
    );
    let takes_the_last = [
        "C5 A5,B3,B6,C9,D4,E8,F6,H7,I7,I12,O15 s",
        "L10 A1,B9,D2,D3,G8,H1,I10,J9,K8,K11,L13,M12 n",
        "F3 B3,D2,E1,G7,G13,H2,H4,H9,H10,I3,L5 s",
    ]
    .map(pos);
    for p in positions[positions.len() - 4..]
        .iter()
        .chain(&takes_the_last)
    {
        assert_eq!(Iqishiqi::wins_at_once(p), Some(true), "{}", p.write());
    }
}

/// The cells where the next player keeps a push of one whatever the drop,
/// found for the whole board at once by shifting bits, are those where
/// the cells a drop must take to spoil every such push, found cell by
/// cell, are none; and those cells are the ones that spoil them, found by
/// dropping a stone on each cell near and testing every push of one.
#[test]
fn a_push_of_one_kept_whatever_the_drop_is_found_alike_three_ways() {
    use super::geometry::{bit, has, minus, neighbours, or, OFF, ON_BOARD, STEPS};
    let mut seen = [0; 3];
    for p in crate::testkit::random_positions::<Iqishiqi>(61, 30) {
        let free = minus(ON_BOARD, or(p.bits, neighbours(p.bits)));
        let kept = rules::kept_whatever_the_drop(&p, &free);
        for t in Hex::all().filter(|t| !p.has_stone(*t) && t.edges().next().is_none()) {
            let takes = rules::one_step_kept(&p, &free, t);
            assert_eq!(
                has(&kept, t.index()),
                takes == Some([0; 4]),
                "{}",
                p.write()
            );
            // A push of one for the next player, the neutral stone on `t`,
            // once a stone is on `x`.
            let one_with = |x: usize| {
                let stones = or(p.bits, bit(x));
                Dir::ALL.into_iter().any(|e| {
                    let (c, b) = (
                        STEPS[t.index()][e.index()],
                        STEPS[t.index()][e.opposite().index()],
                    );
                    let empty = |i: u8| i != OFF && !has(&stones, usize::from(i));
                    empty(c)
                        && empty(b)
                        && STEPS[usize::from(c)].iter().all(|&nb| {
                            usize::from(nb) == t.index()
                                || !has(&stones, usize::from(nb))
                                || nb == OFF
                        })
                })
            };
            let near = t
                .neighbours()
                .flat_map(|c| c.neighbours())
                .filter(|x| *x != t && !p.has_stone(*x));
            for x in near {
                let spoils = !one_with(x.index());
                match takes {
                    None => assert!(spoils),
                    Some(cells) => assert_eq!(has(&cells, x.index()), spoils, "{}", p.write()),
                }
            }
            seen[match takes {
                None => 0,
                Some(c) if c == [0; 4] => 1,
                Some(_) => 2,
            }] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
}

/// Every turn played by `play_ending` ends what `play` then `ending` ends,
/// and is refused alike.
#[test]
fn play_ending_tells_what_play_then_ending_tells() {
    let positions = positions_that_end_every_way();
    let (open, ended) = crate::testkit::check_play_ending::<Iqishiqi>(&positions, 1);
    assert!(open > 10_000 && ended > 1_000, "{open} {ended}");
}

#[test]
fn play_ending_reads_a_drop_written_alone_as_play_does() {
    // A drop written without its destination: played where it has one push,
    // refused as ambiguous where it has more, by both.
    let mut seen = [0, 0];
    for p in positions_that_end_every_way().iter().step_by(5) {
        let mut turns = Vec::new();
        Iqishiqi::legal_moves(p, &mut turns);
        for m in turns {
            let alone = Move { dest: None, ..m };
            let (mut a, mut b) = (p.clone(), p.clone());
            let by_ending = Iqishiqi::play(&mut a, &alone).map(|()| Iqishiqi::ending(&a));
            let by_play = Iqishiqi::play_ending(&mut b, &alone);
            assert_eq!(by_ending, by_play);
            assert_eq!(a, b);
            seen[usize::from(by_play.is_ok())] += 1;
        }
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
}

/// A written destination checked on its own ray is legal exactly where the
/// full check over every ray lists it, for every drop and every cell.
#[test]
fn a_push_checked_on_its_ray_is_one_the_full_check_lists() {
    let (mut legal, mut refused) = (0, 0);
    for p in positions_that_end_every_way().iter().step_by(3) {
        for drop in Hex::all() {
            let dests = rules::destinations(p, drop);
            for dest in Hex::all() {
                let mv = Move {
                    drop,
                    dest: Some(dest),
                    coords: p.coords,
                };
                let listed = dests.as_ref().is_ok_and(|d| d.contains(&dest));
                assert_eq!(rules::written_push(p, &mv), listed.then_some(dest));
                match listed {
                    true => legal += 1,
                    false => refused += 1,
                }
            }
        }
    }
    assert!(legal > 1_000 && refused > 100_000, "{legal} {refused}");
}

/// Each feature as a player counts it: at the start the neutral stone is
/// as far from every edge; in the rules' example T1, North (to move) wins
/// at once by F5/A7 onto its SW edge, four cells from the stone on E7,
/// against five to South's nearest (NW).
#[test]
fn the_evaluation_counts_what_a_player_counts() {
    let start = crate::testkit::features::<Iqishiqi>(&pos("H8 - n"));
    assert!(start.iter().all(|(_, f)| *f == 0.0), "{start:?}");
    let t1 = pos("E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n");
    let f = crate::testkit::features::<Iqishiqi>(&t1);
    assert_eq!(f[..2], [("edge_nearness", 1.0), ("wins_now", 1.0)], "{f:?}");
    let mut south = t1.clone();
    south.to_move = Side::Second;
    let g = crate::testkit::features::<Iqishiqi>(&south);
    assert_eq!(g[0], ("edge_nearness", -1.0));
    assert_eq!((g[1].1, g[2].1), (f[2].1, f[1].1), "{f:?} {g:?}");
}
