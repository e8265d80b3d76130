//! The reference numbers of section 13, the sample game of section 12.6 with
//! its legal-move counts, and one test per rule and per illegal-move reason.

use super::geometry::Point;
use super::notation::{Body, Move};
use super::position::Position;
use super::rules::VagabondError;
use super::tiles::TileOptions;
use super::Vagabond;
use crate::game::{Notation, RuleError, Rules, Side};
use crate::Tag;
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    Position::parse(text, TileOptions::default()).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn mv(text: &str) -> Move {
    Vagabond::parse_move(&Vagabond::start(&[]).unwrap(), text).unwrap()
}

fn play(p: &mut Position, text: &str) -> Result<(), VagabondError> {
    Vagabond::play(p, &mv(text))
}

fn code(r: Result<(), VagabondError>) -> &'static str {
    crate::testkit::refused(r)
}

fn legal(p: &Position) -> BTreeSet<String> {
    crate::testkit::legal::<Vagabond>(p)
}

fn start() -> Position {
    Vagabond::start(&[]).unwrap()
}

const SAMPLE: &str = "0H.L(0,-6);0G.L(2,6);1H.W(-4,0);1G.B(1,6);2H.S(0,-8);2G.C(0,4);\
3H.(0,-8)-(-2,-4);3G.S(8,0);4H.(-4,0)-(-1,3);4G.(8,0)-(4,2);5H.(-1,3)-(0,4);\
5G.(4,2)-(0,4);6H.W(-1,8);6G.F(-6,0);7H.(-1,8)-(1,6);7G.D(-6,1)~~;8H.F(4,5);\
8G.(-6,1)-(-5,3);9H.D(3,3);9G.B(6,-2);10H.(3,3)-(2,6)";

/// Section 12.6: deploys and moves before each move of the sample game.
const SAMPLE_COUNTS: [usize; 21] = [
    1229, 1224, 980, 976, 993, 973, 1028, 966, 1060, 1009, 1051, 1037, 1035, 1032, 798, 841, 809,
    834, 614, 830, 611,
];

// --- Reference numbers (section 13) -------------------------------------------

#[test]
fn the_first_move_has_1229_choices() {
    assert_eq!(legal(&start()).len(), 1229);
}

#[test]
fn empty_board_destinations() {
    for (text, count) in [
        ("W(0,0) -/- HG h -", 24),
        ("S(0,0) -/- HG h -", 84),
        ("S(0,8) -/- HG h -", 44),
        ("S(-8,0) -/- HG h -", 44),
        ("L(0,0) -/- HG h -", 4),
        ("B(0,0) -/- HG h -", 4),
        // Fire Lily on (0,0), Dragon on (0,1): the 60 zone points less its own.
        ("F(0,0),D(0,1) -/- HG h -", 59),
    ] {
        assert_eq!(legal(&pos(text)).len(), count, "{text}");
    }
}

#[test]
fn dragon_deploy_points() {
    assert_eq!(legal(&pos("F(0,0) D/- - h -")).len(), 60);
    assert_eq!(legal(&pos("F(6,0) D/- - h -")).len(), 50);
}

#[test]
fn the_sample_game_with_its_legal_move_count_before_every_move() {
    let mut p = start();
    let moves: Vec<&str> = SAMPLE.split(';').collect();
    assert_eq!(moves.len(), SAMPLE_COUNTS.len());
    for (i, (text, &count)) in moves.iter().zip(&SAMPLE_COUNTS).enumerate() {
        assert_eq!(Vagabond::ending(&p), None, "over before move {i}");
        let all = legal(&p);
        // The reference counts deploys and moves; gamerec also lists `==`
        // while an offer is pending (before 8H).
        let accept = usize::from(all.contains("=="));
        assert_eq!(accept, usize::from(i == 16), "move {i}");
        assert_eq!(all.len() - accept, count, "before move {i}: {text}");
        play(&mut p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let e = Vagabond::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (Some(Side::First), "lotus-captured"));
}

// --- Deploys ------------------------------------------------------------------

#[test]
fn deploy_rules() {
    let mut p = start();
    let e = play(&mut p.clone(), "S(0,0)").unwrap_err();
    assert_eq!(e.code(), "bison-not-in-gate");
    assert_eq!(
        e.to_string(),
        "a Sky Bison deploys only on an empty gate (Temple), and (0,0) is not one"
    );
    assert_eq!(code(play(&mut p.clone(), "L(0,8)")), "deploy-on-gate");
    assert_eq!(code(play(&mut p.clone(), "D(0,0)")), "dragon-deploy-zone");
    assert_eq!(code(play(&mut p.clone(), "Y(0,8)")), "not-in-reserve");
    play(&mut p, "L(0,-6)").unwrap();
    assert!(p.lotus_deployed[0]);
    play(&mut p, "L(2,6)").unwrap();
    let e = play(&mut p.clone(), "L(1,1)").unwrap_err();
    assert_eq!(e.code(), "not-in-reserve");
    assert_eq!(e.to_string(), "you have no White Lotus left in reserve");
    assert_eq!(code(play(&mut p.clone(), "W(2,6)")), "occupied");
    play(&mut p, "S(0,8)").unwrap();
    // Either player may use any empty gate; an occupied one is taken.
    assert_eq!(code(play(&mut p.clone(), "S(0,8)")), "occupied");
    play(&mut p, "S(8,0)").unwrap();
}

#[test]
fn options_change_the_reserves() {
    let opt = |v: &str| {
        vec![Tag {
            name: "Options".into(),
            value: v.into(),
            span: Default::default(),
            value_span: Default::default(),
        }]
    };
    let mut lemur = Vagabond::start(&opt("SwapBisonWithLemur")).unwrap();
    assert_eq!(code(play(&mut lemur.clone(), "S(0,8)")), "not-in-reserve");
    play(&mut lemur, "Y(0,8)").unwrap();
    let double = Vagabond::start(&opt("DoubleTiles")).unwrap();
    // Two Fire Lilies, still one Lotus: 5 codes × 245 points + 4 gates.
    assert_eq!(legal(&double).len(), 1229);
    assert_eq!(double.reserve[0].iter().map(|&n| n as u32).sum::<u32>(), 21);
    assert!(Vagabond::start(&opt("Chess")).is_err());
}

// --- Moves ----------------------------------------------------------------------

#[test]
fn tiles_move_as_their_kind() {
    let p = pos("L(0,0),W(3,0),B(-3,0),C(0,3),F(0,-3),s(6,0) -/- HG h -");
    assert_eq!(code(play(&mut p.clone(), "(0,0)-(1,1)")), "out-of-range");
    assert_eq!(code(play(&mut p.clone(), "(0,0)-(0,2)")), "out-of-range");
    play(&mut p.clone(), "(0,0)-(1,0)").unwrap();
    let e = play(&mut p.clone(), "(3,0)-(3,2)").unwrap_err();
    assert_eq!(e.code(), "wheel-diagonal");
    play(&mut p.clone(), "(3,0)-(5,2)").unwrap();
    assert_eq!(code(play(&mut p.clone(), "(0,3)-(0,4)")), "cannot-move");
    assert_eq!(code(play(&mut p.clone(), "(0,-3)-(0,-4)")), "cannot-move");
    assert_eq!(code(play(&mut p.clone(), "(0,0)-(0,0)")), "null-move");
    assert_eq!(code(play(&mut p.clone(), "(1,1)-(1,2)")), "no-tile");
    let e = play(&mut p.clone(), "(6,0)-(6,1)").unwrap_err();
    assert_eq!(e.code(), "not-your-tile");
    assert_eq!(
        e.to_string(),
        "the tile on (6,0) is Guest's; it is Host's turn"
    );
}

#[test]
fn the_wheel_cannot_jump() {
    let p = pos("W(0,0),B(2,2) -/- HG h -");
    let e = play(&mut p.clone(), "(0,0)-(3,3)").unwrap_err();
    assert_eq!(e.code(), "path-blocked");
    play(&mut p.clone(), "(0,0)-(1,1)").unwrap();
}

#[test]
fn the_badgermole_steps_or_slides_up_to_a_flower_in_line() {
    // An enemy Chrysanthemum at (0,4) straight ahead: the Badgermole slides to (0,3).
    let p = pos("B(0,0),c(0,4) -/- HG h -");
    play(&mut p.clone(), "(0,0)-(0,3)").unwrap();
    assert_eq!(code(play(&mut p.clone(), "(0,0)-(0,2)")), "badgermole-move");
    // A flower beside the line does not count.
    let q = pos("B(0,0),c(1,4) -/- HG h -");
    let e = play(&mut q.clone(), "(0,0)-(0,4)").unwrap_err();
    assert_eq!(e.code(), "badgermole-move");
    // Not a flower ahead: no slide.
    let r = pos("B(0,0),w(0,4) -/- HG h -");
    assert_eq!(code(play(&mut r.clone(), "(0,0)-(0,3)")), "badgermole-move");
}

#[test]
fn the_dragon_teleports_within_its_fire_lily_zone() {
    let p = pos("F(0,0),D(0,1),c(0,5) -/- HG h -");
    play(&mut p.clone(), "(0,1)-(5,0)").unwrap();
    let e = play(&mut p.clone(), "(0,1)-(6,0)").unwrap_err();
    assert_eq!(e.code(), "out-of-range");
    // Tiles in between do not matter; a capture inside the zone is fine.
    play(&mut p.clone(), "(0,1)-(0,5)").unwrap();
    // Without a Fire Lily near it, the Dragon cannot move.
    let q = pos("F(0,0),D(0,7) -/- HG h -");
    assert_eq!(code(play(&mut q.clone(), "(0,7)-(0,6)")), "out-of-range");
}

#[test]
fn no_tile_ends_on_an_empty_gate() {
    let p = pos("S(0,2) -/- HG h -");
    let e = play(&mut p.clone(), "(0,2)-(0,8)").unwrap_err();
    assert_eq!(e.code(), "empty-gate");
    // But a Bison may pass through one... and capture a tile on a gate.
    let q = pos("W(2,6),s(0,8) -/- HG h -");
    play(&mut q.clone(), "(2,6)-(0,8)").unwrap();
}

// --- Sky Bison ----------------------------------------------------------------

#[test]
fn a_bison_next_to_an_enemy_chrysanthemum_is_frozen() {
    let p = pos("S(0,0),c(1,0) -/- HG h -");
    let e = play(&mut p.clone(), "(0,0)-(0,1)").unwrap_err();
    assert_eq!(e.code(), "frozen");
    assert_eq!(
        e.to_string(),
        "the Sky Bison is frozen by the opponent's Chrysanthemum on (1,0)"
    );
    // An own Chrysanthemum or a diagonal one does not freeze.
    play(&mut pos("S(0,0),C(1,0) -/- HG h -"), "(0,0)-(0,1)").unwrap();
    play(&mut pos("S(0,0),c(1,1) -/- HG h -"), "(0,0)-(0,-1)").unwrap();
}

#[test]
fn a_bison_never_departs_from_a_point_next_to_an_enemy_chrysanthemum() {
    // Section 7.2: a Bison on (0,-8), enemy C on (1,-5): (0,-5) and (0,-4)
    // are reachable, (0,-2) is not.
    let p = pos("S(0,-8),c(1,-5) -/- HG h -");
    play(&mut p.clone(), "(0,-8)-(0,-5)").unwrap();
    play(&mut p.clone(), "(0,-8)-(0,-4)").unwrap();
    let e = play(&mut p.clone(), "(0,-8)-(0,-2)").unwrap_err();
    assert_eq!(e.code(), "path-blocked");
    // So it can never capture an enemy Chrysanthemum.
    let q = pos("S(0,0),c(0,3) -/- HG h -");
    let e = play(&mut q.clone(), "(0,0)-(0,3)").unwrap_err();
    assert_eq!(e.code(), "path-blocked");
    assert!(e.to_string().contains("cannot capture one"), "{e}");
    assert_eq!(code(play(&mut q.clone(), "(0,0)-(0,7)")), "out-of-range");
}

#[test]
fn an_active_enemy_bison_zones_out_your_bison() {
    let p = pos("S(0,-8),s(0,0) -/- HG h -");
    let e = play(&mut p.clone(), "(0,-8)-(0,-6)").unwrap_err();
    assert_eq!(e.code(), "bison-zone");
    // A Bison still in its Temple makes no zone; neither does a frozen one.
    play(&mut pos("S(0,-2),s(0,8) -/- HG h -"), "(0,-2)-(0,2)").unwrap();
    play(
        &mut pos("S(0,-8),s(0,0),C(1,0) -/- HG h -"),
        "(0,-8)-(0,-6)",
    )
    .unwrap();
    // Friendly Bisons do not zone each other.
    play(&mut pos("S(0,-8),S(0,0) -/- HG h -"), "(0,-8)-(0,-6)").unwrap();
    // An active enemy Bison cannot be captured by a Bison; a frozen one can.
    let q = pos("S(0,0),s(0,3) -/- HG h -");
    assert_eq!(code(play(&mut q.clone(), "(0,0)-(0,3)")), "bison-zone");
    play(&mut pos("S(0,0),s(0,3),C(1,3) -/- HG h -"), "(0,0)-(0,3)").unwrap();
}

// --- Captures -------------------------------------------------------------------

#[test]
fn capture_rules() {
    // Capturing a flower needs your own Lotus deployed.
    let p = pos("W(0,0),c(2,2) -/- - h -");
    let e = play(&mut p.clone(), "(0,0)-(2,2)").unwrap_err();
    assert_eq!(e.code(), "lotus-not-deployed");
    play(&mut pos("W(0,0),c(2,2) -/- H h -"), "(0,0)-(2,2)").unwrap();
    // A non-flower needs both Lotuses.
    assert_eq!(
        code(play(&mut pos("W(0,0),w(2,2) -/- H h -"), "(0,0)-(2,2)")),
        "lotus-not-deployed"
    );
    play(&mut pos("W(0,0),w(2,2) -/- HG h -"), "(0,0)-(2,2)").unwrap();
    // A flower next to its owner's Badgermole is protected.
    let e = play(&mut pos("W(0,0),c(2,2),b(2,3) -/- HG h -"), "(0,0)-(2,2)").unwrap_err();
    assert_eq!(e.code(), "protected");
    assert_eq!(
        e.to_string(),
        "the flower on (2,2) is protected by its owner's Badgermole on (2,3)"
    );
    // Own tiles never; non-capturing tiles never.
    assert_eq!(
        code(play(&mut pos("W(0,0),C(2,2) -/- HG h -"), "(0,0)-(2,2)")),
        "own-tile"
    );
    assert_eq!(
        code(play(&mut pos("L(0,0),c(0,1) -/- HG h -"), "(0,0)-(0,1)")),
        "cannot-capture"
    );
}

#[test]
fn capturing_the_lotus_wins_and_ends_the_game() {
    let mut p = pos("L(0,-6),W(0,0),l(2,2) -/- HG h -");
    play(&mut p, "(0,0)-(2,2)").unwrap();
    let e = Vagabond::ending(&p).unwrap();
    assert_eq!(
        (e.winner, e.reason, e.decided),
        (Some(Side::First), "lotus-captured", true)
    );
}

// --- Draws, prefixes, stuck -------------------------------------------------------

#[test]
fn draw_offers_and_acceptance() {
    let mut p = start();
    play(&mut p, "L(0,-6)~~").unwrap();
    assert!(legal(&p).contains("=="));
    play(&mut p, "==").unwrap();
    let e = Vagabond::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason), (None, "draw-accepted"));
    let mut q = start();
    play(&mut q, "L(0,-6)~~").unwrap();
    play(&mut q, "L(2,6)").unwrap();
    let e = play(&mut q.clone(), "==").unwrap_err();
    assert_eq!(e.code(), "no-offer-pending");
}

#[test]
fn the_garden_gate_prefix_is_checked() {
    let mut p = start();
    play(&mut p, "0H.L(0,-6)").unwrap();
    let e = play(&mut p.clone(), "1G.L(2,6)").unwrap_err();
    assert_eq!(e.code(), "wrong-move-prefix");
    assert_eq!(e.to_string(), "the prefix says 1G., but this turn is 0G.");
    assert_eq!(code(play(&mut p.clone(), "0H.L(2,6)")), "wrong-move-prefix");
    play(&mut p, "0G.L(2,6)").unwrap();
    play(&mut p, "1H.W(-4,0)").unwrap();
    assert_eq!(
        Vagabond::parse_move(&Vagabond::start(&[]).unwrap(), "1G.B(1,6)")
            .unwrap()
            .body,
        Body::Deploy {
            code: super::TileCode::B,
            at: Point { x: 1, y: 6 }
        }
    );
}

#[test]
fn a_side_with_no_legal_move_is_stuck_with_no_result() {
    // Host has only a Chrysanthemum and an empty reserve.
    let p = pos("C(0,0),l(5,5) -/B G h -");
    assert!(legal(&p).is_empty());
    let e = Vagabond::ending(&p).unwrap();
    assert_eq!((e.winner, e.reason, e.decided), (None, "stuck", false));
}

// --- The generator against the rule checks -----------------------------------------

#[test]
fn generator_agrees_with_the_rule_checks_along_the_sample_game() {
    let mut p = start();
    for text in SAMPLE.split(';') {
        let generated = legal(&p);
        let mut brute = BTreeSet::new();
        let points: Vec<Point> = Point::all().collect();
        for &a in &points {
            for code in ['L', 'S', 'B', 'W', 'C', 'F', 'D'] {
                let t = format!("{code}({},{})", a.x, a.y);
                if play(&mut p.clone(), &t).is_ok() {
                    brute.insert(t);
                }
            }
            if p.at(a).is_some_and(|t| t.owner == p.to_move) {
                for &b in &points {
                    let t = format!("({},{})-({},{})", a.x, a.y, b.x, b.y);
                    if play(&mut p.clone(), &t).is_ok() {
                        brute.insert(t);
                    }
                }
            }
        }
        if p.offer_pending {
            brute.insert("==".into());
        }
        assert_eq!(generated, brute, "before {text}");
        play(&mut p, text).unwrap();
    }
}

#[test]
fn the_flying_lemur_flies_within_5_over_anything_and_can_be_frozen() {
    let lemur = TileOptions {
        double_tiles: false,
        lemur: true,
    };
    let lp = |text: &str| Position::parse(text, lemur).unwrap();
    // Alone at (0,0): the 61 points within 5, less its own (no gate is that
    // close).
    assert_eq!(legal(&lp("Y(0,0) -/- HG h -")).len(), 60);
    // Over a wall of tiles, and into what would be a Bison zone.
    let mut p = lp("Y(0,0),b(0,1),b(1,0),W(-1,0),B(0,-1),w(0,4) -/- HG h -");
    play(&mut p.clone(), "(0,0)-(0,3)").unwrap();
    let e = play(&mut p.clone(), "(0,0)-(0,6)").unwrap_err();
    assert_eq!(e.code(), "out-of-range");
    // It captures, and an enemy Chrysanthemum next to it freezes it.
    play(&mut p, "(0,0)-(0,4)").unwrap();
    let f = lp("Y(0,0),c(1,0) -/- HG h -");
    assert_eq!(code(play(&mut f.clone(), "(0,0)-(0,2)")), "frozen");
}

#[test]
fn facts_and_stats_of_the_documented_example_game() {
    use crate::testkit::{played, stat};
    // shared/rules/vagabond-pai-sho.md, the worked example (section 13).
    let moves = "L(0,-6) L(2,6) W(-4,0) B(1,6) S(0,-8) C(0,4) (0,-8)-(-2,-4) S(8,0) \
                 (-4,0)-(-1,3) (8,0)-(4,2) (-1,3)-(0,4) (4,2)-(0,4) W(-1,8) F(-6,0) \
                 (-1,8)-(1,6) D(-6,1)~~ F(4,5) (-6,1)-(-5,3) D(3,3) B(6,-2) (3,3)-(2,6)";
    let (facts, counts) = played::<super::Vagabond>(&[], moves);
    // 5H: the Wheel takes Guest's Chrysanthemum ("5H. HOST moved Wheel from
    // -1,3 to 0,4 and captured GUEST's Chrysanthemum").
    assert_eq!(facts[10].kind, "shift");
    assert_eq!(facts[10].effects[0].what, "captured");
    assert_eq!(
        facts[10].effects[0].piece.as_deref(),
        Some("Guest Chrysanthemum")
    );
    assert_eq!(facts[11].effects[0].piece.as_deref(), Some("Host Wheel"));
    assert_eq!(
        facts[20].effects[0].piece.as_deref(),
        Some("Guest White Lotus")
    );
    assert!(facts[15].offer);
    assert_eq!(facts[0].kind, "deploy");
    assert_eq!(facts[0].to.as_deref(), Some("(0,-6)"));
    let s = |n| stat::<super::Vagabond>(&counts, n);
    assert_eq!(s("captured_chrysanthemum"), Some(1));
    assert_eq!(s("captured_wheel"), Some(1));
    assert_eq!(s("captured_white_lotus"), Some(1));
    assert_eq!(s("captured_sky_bison"), Some(0));
    assert_eq!(s("plies_before_first_capture"), Some(10));
    assert_eq!((s("deploys"), s("shifts")), (Some(13), Some(8)));
}

#[test]
fn no_capture_leaves_the_first_capture_empty() {
    let (_, counts) = crate::testkit::played::<super::Vagabond>(&[], "L(0,-6) L(2,6)");
    assert_eq!(
        crate::testkit::stat::<super::Vagabond>(&counts, "plies_before_first_capture"),
        None
    );
}

#[test]
fn garden_gate_strings_are_recognised_by_their_first_turn() {
    use super::site::looks_garden_gate;
    assert!(looks_garden_gate(b"0H.L(0,-6)"));
    assert!(looks_garden_gate(b"12G.(0,-8)-(-2,-4)"));
    assert!(!looks_garden_gate(b"L(0,-6)"));
    assert!(!looks_garden_gate(b"1."));
    assert!(!looks_garden_gate(b"0X.L(0,-6)"));
}

/// Every turn that can be written: a deploy of each tile type on each
/// point, a move from each point holding the mover's tile to each point,
/// and `==`.
fn candidates(p: &Position) -> Vec<Move> {
    use super::geometry::Point;
    use super::tiles::TileCode;
    let mut out = vec![Move::plain(Body::Accept)];
    for at in Point::all() {
        out.extend(TileCode::ALL.map(|code| Move::plain(Body::Deploy { code, at })));
    }
    for from in Point::all().filter(|&f| p.at(f).is_some_and(|t| t.owner == p.to_move)) {
        out.extend(Point::all().map(|to| Move::plain(Body::Shift { from, to })));
    }
    out
}

#[test]
fn perft_counts_agree_with_trying_every_move() {
    let checked = crate::testkit::check_perft_file::<Vagabond>("vagabond", 20_000, &candidates);
    assert!(checked >= 2, "{checked}");
}

#[test]
fn a_position_holds_no_more_tiles_than_the_set() {
    let refused = |text: &str, o: TileOptions| Position::parse(text, o).unwrap_err().message;
    // A second Lotus, a third Bison, a Bison where Lemurs replace them.
    assert!(refused("L(0,-6) L/- H g -", TileOptions::default()).contains("White Lotus"));
    assert!(refused("S(0,8) SS/- - h -", TileOptions::default()).contains("Sky Bison"));
    let lemur = TileOptions::parse("SwapBisonWithLemur").unwrap();
    assert!(refused("S(0,8) -/- - h -", lemur).contains("the set has 0"));
    // Twice as many with DoubleTiles.
    let double = TileOptions::parse("DoubleTiles").unwrap();
    assert!(Position::parse("S(0,8) SSS/- - h -", double).is_ok());
    assert!(Position::parse("- CCCCC/- - h -", double).is_err());
}

/// Random games' positions (`games` from `seed`), then the sample game's.
fn games_and_sample(seed: u64, games: u64) -> Vec<Position> {
    let mut positions = crate::testkit::random_positions::<super::Vagabond>(seed, games);
    let mut p = start();
    for text in SAMPLE.split(';') {
        positions.push(p.clone());
        play(&mut p, text).unwrap();
    }
    positions
}

/// What the search is told a turn ends, without playing it, is what
/// playing it and asking `ending` says — over random games (which take a
/// Lotus now and then) and the sample game.
#[test]
fn outcomes_told_without_playing_agree_with_play_and_ending() {
    let positions = games_and_sample(51, 40);
    let (open, decided) = crate::testkit::check_outcomes::<super::Vagabond>(&positions);
    assert!(open > 10_000 && decided > 0, "{open} {decided}");
}

/// Whether a turn takes a Lotus, told without generating the turns, is
/// what generating, playing each and asking `ending` says — over random
/// games (the positions before a Lotus is taken among them) and the sample
/// game.
#[test]
fn a_win_at_once_is_told_as_generating_every_turn_tells_it() {
    let positions = games_and_sample(53, 60);
    let [won, none, _] = crate::testkit::check_wins_at_once::<super::Vagabond>(&positions);
    eprintln!("wins at once: {won}, none: {none}");
    assert!(won > 0 && none > 1_000, "{won} {none}");
}

/// Whether the side to move has a turn, asked cheapest first, is what the
/// generator says: over random games, the same positions with the mover's
/// reserve emptied (only moves on the board left), with only Dragons in
/// reserve, with every gate or every point taken, and with no tile at all.
#[test]
fn has_legal_move_agrees_with_the_generator() {
    use super::tiles::{Tile, TileCode};
    let games = crate::testkit::random_positions::<Vagabond>(57, 30);
    let mut positions = games.clone();
    for (i, p) in games.iter().enumerate().step_by(3) {
        let me = p.to_move.index();
        let mut empty = p.clone();
        empty.reserve[me] = [0; 8];
        let mut dragons = empty.clone();
        dragons.reserve[me][TileCode::D.index()] = 1;
        let mut flyers = p.clone();
        flyers.reserve[me] = [0; 8];
        flyers.reserve[me][[TileCode::S, TileCode::Y][i % 2].index()] = 1;
        for g in Point::GATES {
            flyers.board[g.index()].get_or_insert(Tile {
                owner: p.to_move.other(),
                code: TileCode::C,
            });
        }
        positions.extend([empty, dragons, flyers]);
    }
    let mut full = start();
    for p in Point::all() {
        full.board[p.index()] = Some(Tile {
            owner: Side::Second,
            code: TileCode::C,
        });
    }
    let mut bare = start();
    bare.reserve = [[0; 8]; 2];
    positions.extend([full, bare]);
    let (some, none) = crate::testkit::check_has_legal_move::<Vagabond>(&positions);
    assert!(some > 1_000 && none >= 2, "{some} {none}");
}

/// The features read the same board from both sides: the start is even by
/// every one, and in positions of random games the mover's win at once is
/// the other's threat with the turn handed over, every count negated.
#[test]
fn the_evaluation_reads_a_board_alike_from_either_side() {
    let start = Vagabond::start(&[]).unwrap();
    assert!(crate::testkit::features::<Vagabond>(&start)
        .iter()
        .all(|(_, f)| *f == 0.0));
    let (mut threats, mut guarded) = (0, 0);
    for p in crate::testkit::random_positions::<Vagabond>(17, 20) {
        let mut turned = p.clone();
        turned.to_move = p.to_move.other();
        let (f, g) = (
            crate::testkit::features::<Vagabond>(&p),
            crate::testkit::features::<Vagabond>(&turned),
        );
        assert_eq!((f[0].1, f[1].1), (g[1].1, g[0].1), "{f:?} {g:?}");
        for i in 2..f.len() {
            assert_eq!(f[i].1, -g[i].1, "{f:?} {g:?}");
        }
        threats += usize::from(f[0].1 + f[1].1 > 0.0);
        guarded += usize::from(f[5].1 != 0.0);
    }
    // The positions test what they should: wins at once and guarded
    // Lotuses among them.
    assert!(threats > 0 && guarded > 0, "{threats} {guarded}");
}
