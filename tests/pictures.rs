//! `gamerec show` and `gamerec view`: every picture is checked against the
//! position it draws. Each SVG is parsed with an XML parser; its pieces
//! (`<use class="piece …" data-cell="…">`) must be exactly the pieces the
//! game's `Position` string (in the SVG's title) puts on the board, read
//! here by a decoder of each notation written from notation/<game>.md, and
//! each must stand on its cell. One position per game is kept as a golden
//! file (insta) and rendered to PNG with resvg.

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn gamerec() -> Command {
    Command::cargo_bin("gamerec").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Square name of 0-based (file, rank).
fn square(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Ranks from the top separated by `/`, digits for empty squares (numbers
/// of more than one digit too): (label, letter) of every piece.
fn ranks_field(field: &str) -> Vec<(String, char)> {
    let rows: Vec<&str> = field.split('/').collect();
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = rows.len() - 1 - i;
        let (mut file, mut digits) = (0usize, 0usize);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                digits = digits * 10 + d as usize;
                continue;
            }
            file += digits;
            digits = 0;
            out.push((square(file, rank), c));
            file += 1;
        }
    }
    out
}

/// Retsami's Way: from a1 east, then spiralling inward counter-clockwise.
fn way() -> Vec<String> {
    let mut seen = [[false; 9]; 9];
    let (mut f, mut r) = (0i32, 0i32);
    let dirs = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let mut d = 0;
    let mut out = Vec::new();
    for _ in 0..81 {
        seen[f as usize][r as usize] = true;
        out.push(square(f as usize, r as usize));
        for _ in 0..4 {
            let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
            if (0..9).contains(&nf) && (0..9).contains(&nr) && !seen[nf as usize][nr as usize] {
                (f, r) = (nf, nr);
                break;
            }
            d = (d + 1) % 4;
        }
    }
    out
}

/// The pieces a `Position` string of `game` puts on the board: cell label
/// → the glyph the picture must use there.
fn expected(game: &str, position: &str) -> BTreeMap<String, String> {
    let fields: Vec<&str> = position.split(' ').collect();
    let mut out = BTreeMap::new();
    match game {
        "oshi" => {
            for (label, c) in ranks_field(fields[0]) {
                let owner = if c.is_ascii_uppercase() { 'r' } else { 'w' };
                let height = (c.to_ascii_lowercase() as u8 - b'a' + b'1') as char;
                out.insert(label, format!("oshi-{owner}{height}"));
            }
        }
        "roshi" => {
            for (label, c) in ranks_field(fields[0]) {
                let id = match c {
                    'R' => "roshi-red",
                    'B' => "roshi-blue",
                    'S' => "roshi-stone",
                    other => panic!("no Roshi piece `{other}`"),
                };
                out.insert(label, id.to_string());
            }
        }
        "retsami" => {
            let way = way();
            let (mut i, mut digits) = (0usize, 0usize);
            for c in fields[0].chars() {
                if let Some(d) = c.to_digit(10) {
                    digits = digits * 10 + d as usize;
                    continue;
                }
                i += digits;
                digits = 0;
                let id = if c == 'R' {
                    "retsami-red"
                } else {
                    "retsami-white"
                };
                out.insert(way[i].clone(), id.to_string());
                i += 1;
            }
        }
        "iqishiqi" => {
            out.insert(fields[0].to_string(), "iqishiqi-neutral".to_string());
            if fields[1] != "-" {
                for stone in fields[1].split(',') {
                    out.insert(stone.to_string(), "iqishiqi-stone".to_string());
                }
            }
        }
        "vagabond" => {
            if fields[0] != "-" {
                // `W(-4,0),L(0,-6)`: split before each letter.
                let mut tiles = Vec::new();
                let mut cur = String::new();
                for c in fields[0].chars() {
                    if c.is_ascii_alphabetic() && !cur.is_empty() {
                        tiles.push(std::mem::take(&mut cur));
                    }
                    if !(c == ',' && cur.ends_with(')')) {
                        cur.push(c);
                    }
                }
                tiles.push(cur);
                for t in tiles {
                    let letter = t.chars().next().unwrap();
                    let owner = if letter.is_ascii_uppercase() {
                        'h'
                    } else {
                        'g'
                    };
                    let id = format!("vps-{owner}{}", letter.to_ascii_lowercase());
                    out.insert(t[1..].to_string(), id);
                }
            }
        }
        other => panic!("no decoder for {other}"),
    }
    out
}

/// A picture as parsed: its game, its position, and its pieces (cell label
/// → glyph id), each checked to stand on its cell.
struct Parsed {
    game: String,
    position: String,
    pieces: BTreeMap<String, String>,
    marks: usize,
}

/// The centre of a cell element: a polygon's vertices' mean, a circle's
/// centre.
fn centre(node: roxmltree::Node) -> (f64, f64) {
    let num = |a: &str| node.attribute(a).unwrap().parse::<f64>().unwrap();
    match node.tag_name().name() {
        "circle" => (num("cx"), num("cy")),
        "polygon" => {
            let pts: Vec<(f64, f64)> = node
                .attribute("points")
                .unwrap()
                .split(' ')
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let n = pts.len() as f64;
            (
                pts.iter().map(|p| p.0).sum::<f64>() / n,
                pts.iter().map(|p| p.1).sum::<f64>() / n,
            )
        }
        other => panic!("a cell is a circle or a polygon, not a {other}"),
    }
}

fn parse(svg: &str) -> Parsed {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(root.attribute("viewBox").is_some(), "a viewBox");
    let game = root
        .attribute("class")
        .and_then(|c| c.strip_prefix("gamerec "))
        .expect("class=\"gamerec GAME\"")
        .to_string();
    let title = root
        .children()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .expect("a title");
    let position = title
        .split_once(" — ")
        .expect("TITLE — POSITION")
        .1
        .to_string();
    let class_has = |n: &roxmltree::Node, word: &str| {
        n.attribute("class")
            .is_some_and(|c| c.split(' ').any(|w| w == word))
    };
    // Every cell: its label (the class's second word) → its centre.
    let mut cells = BTreeMap::new();
    for n in doc.descendants().filter(|n| class_has(n, "cell")) {
        let label = n.attribute("class").unwrap().split(' ').nth(1).unwrap();
        assert_eq!(n.attribute("data-label"), Some(label));
        assert!(
            cells.insert(label.to_string(), centre(n)).is_none(),
            "one cell {label}"
        );
    }
    // Glyphs are defined once.
    let defs: Vec<&str> = doc
        .descendants()
        .filter(|n| class_has(n, "glyph"))
        .map(|n| n.attribute("id").unwrap())
        .collect();
    let mut unique = defs.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), defs.len(), "each glyph defined once");
    let mut pieces = BTreeMap::new();
    for n in doc.descendants().filter(|n| class_has(n, "piece")) {
        assert!(n.has_tag_name("use"));
        let cell = n.attribute("data-cell").expect("data-cell").to_string();
        let id = n.attribute("href").unwrap().strip_prefix('#').unwrap();
        assert!(defs.contains(&id), "{id} is defined");
        let (x, y) = (
            n.attribute("x").unwrap().parse::<f64>().unwrap(),
            n.attribute("y").unwrap().parse::<f64>().unwrap(),
        );
        let (cx, cy) = cells[&cell];
        assert!(
            (x - cx).abs() < 0.5 && (y - cy).abs() < 0.5,
            "the piece on {cell} stands at ({x}, {y}), the cell's centre is ({cx}, {cy})"
        );
        assert!(
            pieces.insert(cell.clone(), id.to_string()).is_none(),
            "one piece on {cell}"
        );
    }
    let marks = doc.descendants().filter(|n| class_has(n, "mark")).count();
    Parsed {
        game,
        position,
        pieces,
        marks,
    }
}

fn fixture_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root().join("fixtures"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "grec"))
        .collect();
    files.sort();
    files
}

/// The SVG of `show` with `args`, when it drew one (an invalid game is
/// drawn where its error stopped it, exit code 1).
fn show_svg(args: &[&str]) -> Option<(String, i32)> {
    let out = gamerec()
        .arg("show")
        .args(args)
        .args(["--format", "svg"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(code <= 2, "{args:?}: exit {code}");
    (!out.stdout.is_empty()).then(|| (String::from_utf8(out.stdout).unwrap(), code))
}

#[test]
fn every_fixture_position_is_drawn_with_exactly_its_pieces_on_their_cells() {
    let mut per_game: BTreeMap<String, usize> = BTreeMap::new();
    let mut marked = 0;
    for file in fixture_files() {
        let path = file.to_str().unwrap();
        for index in 1.. {
            let n = index.to_string();
            let out = gamerec()
                .args(["show", path, "--index", &n, "--format", "svg"])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains(&format!("there is no game {index}")) {
                break;
            }
            if out.stdout.is_empty() {
                // The start cannot be set up: nothing to draw, and said.
                assert_eq!(out.status.code(), Some(1), "{path} #{index}: {stderr}");
                continue;
            }
            // The end (or where the error stopped it) and the first plies.
            let mut svgs = vec![String::from_utf8(out.stdout).unwrap()];
            for ply in ["1", "2", "3"] {
                if let Some((svg, _)) = show_svg(&[path, "--index", &n, "--ply", ply]) {
                    svgs.push(svg);
                }
            }
            for (k, svg) in svgs.iter().enumerate() {
                let p = parse(svg);
                assert_eq!(
                    p.pieces,
                    expected(&p.game, &p.position),
                    "{path} #{index} picture {k}: {}",
                    p.position
                );
                *per_game.entry(p.game).or_default() += 1;
                marked += usize::from(p.marks > 0);
            }
        }
    }
    for game in ["oshi", "retsami", "roshi", "iqishiqi", "vagabond"] {
        assert!(
            per_game.get(game).copied().unwrap_or(0) >= 20,
            "{game}: {per_game:?}"
        );
    }
    assert!(marked > 100, "last moves marked in {marked} pictures");
}

#[test]
fn a_bare_position_and_the_starts_are_drawn() {
    let cases = [
        ("oshi", "C7C/2b1aab2/9/9/3aa4/9/4A4/2BAAAB2/9 w 6-0 -"),
        ("retsami", "WRWRWRWR73 0-0 r -"),
        ("roshi", "7/7/2R4/3S3/7/1B3B1/7 c3-e5 7-6 r play -"),
        ("iqishiqi", "E7 H2,E5,D6,G6,H7,I9,J9,H11,I11 n"),
        (
            "vagabond",
            "W(-4,0),L(0,-6),b(1,6),l(2,6) SSBBWCCFD/SSBWWCCFD HG g -",
        ),
    ];
    for (game, position) in cases {
        let (svg, code) = show_svg(&["--game", game, "--position", position]).unwrap();
        assert_eq!(code, 0);
        let p = parse(&svg);
        assert_eq!(p.game, game);
        let want = expected(game, position);
        assert!(!want.is_empty());
        assert_eq!(p.pieces, want, "{game}");
        // The start, too.
        let (svg, _) = show_svg(&["--game", game]).unwrap();
        let p = parse(&svg);
        assert_eq!(p.pieces, expected(game, &p.position), "{game} start");
    }
}

#[test]
fn the_same_position_gives_the_same_bytes_and_flipping_twice_is_no_flip() {
    let file = root().join("fixtures/oshi/points-win.grec");
    let f = file.to_str().unwrap();
    let a = show_svg(&[f, "--ply", "9"]).unwrap().0;
    let b = show_svg(&[f, "--ply", "9"]).unwrap().0;
    assert_eq!(a, b);
    let flipped = show_svg(&[f, "--ply", "9", "--flip"]).unwrap().0;
    assert_ne!(a, flipped);
    // Flipped, every piece still stands on its own cell.
    assert_eq!(parse(&flipped).pieces, parse(&a).pieces);
    let rotated = show_svg(&[f, "--ply", "9", "--rotate", "360"]).unwrap().0;
    assert_eq!(a, rotated);
    let wide = show_svg(&[f, "--ply", "9", "--size", "1000"]).unwrap().0;
    assert!(wide.contains("width=\"1000\""));
}

/// One position per game, as kept in the golden files.
const GOLDEN: &[(&str, &str, &[&str])] = &[
    ("oshi", "fixtures/oshi/points-win.grec", &["--ply", "12"]),
    (
        "retsami",
        "fixtures/retsami/endings.grec",
        &["--index", "1"],
    ),
    ("roshi", "fixtures/roshi/endings.grec", &["--index", "1"]),
    (
        "iqishiqi",
        "fixtures/iqishiqi/endings.grec",
        &["--index", "1"],
    ),
    (
        "vagabond",
        "fixtures/vagabond/games.grec",
        &["--index", "2", "--rotate"],
    ),
];

fn golden(file: &str, args: &[&str], format: &str) -> String {
    let out = gamerec()
        .current_dir(root())
        .args(["show", file, "--format", format, "--color", "never"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{file} {args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn golden_pictures() {
    for &(game, file, args) in GOLDEN {
        insta::assert_snapshot!(format!("{game}_svg"), golden(file, args, "svg"));
        insta::assert_snapshot!(format!("{game}_text"), golden(file, args, "text"));
    }
}

#[test]
fn the_golden_svgs_render_to_png() {
    for &(game, file, args) in GOLDEN {
        let svg = golden(file, args, "svg");
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{game}: usvg cannot read the SVG: {e}"));
        let size = tree.size().to_int_size();
        let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        let png = pixmap.encode_png().unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{game}");
        // Drawn: the pieces' own colours are on it, not only the
        // background.
        let pixels = pixmap.data().chunks(4);
        let distinct: std::collections::BTreeSet<&[u8]> = pixels.collect();
        assert!(distinct.len() > 20, "{game}: {} colours", distinct.len());
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{game}.png"));
        std::fs::write(&out, &png).unwrap();
    }
}

#[test]
fn text_pictures_mark_the_last_move_and_colour_only_when_asked() {
    let file = root().join("fixtures/oshi/points-win.grec");
    let f = file.to_str().unwrap();
    let plain = golden(f, &["--ply", "12"], "text");
    assert!(plain.contains(">R3") && plain.contains("◦·"), "{plain}");
    assert!(plain.contains("Last move: 6. i7-i9"));
    assert!(!plain.contains('\x1b'));
    let out = gamerec()
        .args(["show", f, "--ply", "12", "--color", "always"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\x1b[1;38;2;198;40;40m"));
    let ascii = golden(f, &["--ply", "12", "--ascii"], "text");
    assert!(ascii.is_ascii(), "{ascii}");
    // Flipped, i9 is in the bottom-left corner.
    let flipped = golden(f, &["--ply", "12", "--flip"], "text");
    // Flipped: the files run i..a along the top, rank 1 first, and i9 (the
    // last move's square, its mark now after it) in the bottom-left corner.
    let lines: Vec<&str> = flipped.lines().collect();
    assert!(lines[1].trim().starts_with("i  h"), "{flipped}");
    assert!(lines[2].trim_end().ends_with('1'), "{flipped}");
    assert!(lines[10].starts_with("R3>"), "{flipped}");
}

#[test]
fn an_invalid_game_is_shown_where_its_error_stopped_it() {
    let file = root().join("fixtures/oshi/illegal-moves.grec");
    let out = gamerec()
        .args(["show", file.to_str().unwrap(), "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no piece on e4"));
    let p = parse(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(p.pieces.len(), 16);
    // No such ply: a usage error, nothing drawn.
    let valid = root().join("fixtures/oshi/points-win.grec");
    let out = gamerec()
        .args(["show", valid.to_str().unwrap(), "--ply", "99"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn show_reads_standard_input_and_never_writes_over_its_input() {
    let text = std::fs::read_to_string(root().join("fixtures/oshi/points-win.grec")).unwrap();
    let out = gamerec()
        .args(["show", "--ply", "3"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Last move: 1... e7-e6"));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("game.grec");
    std::fs::write(&input, &text).unwrap();
    let out = gamerec()
        .args([
            "show",
            input.to_str().unwrap(),
            "-o",
            input.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    let svg = dir.path().join("game.svg");
    gamerec()
        .args(["show", input.to_str().unwrap(), "-o", svg.to_str().unwrap()])
        .assert()
        .success();
    parse(&std::fs::read_to_string(&svg).unwrap());
}

/// The viewer's data, as the page's script finds it: every board's JSON
/// element in order (`boards`), and every game's (`games`, each with its
/// `board` number and `index` from the element's attributes).
fn viewer_data(html: &str) -> serde_json::Value {
    let (mut boards, mut games) = (Vec::new(), Vec::new());
    let open = "<script type=\"application/json\" class=\"";
    for (at, _) in html.match_indices(open) {
        let element = &html[at..];
        let tag_end = element.find('>').unwrap();
        let tag = &element[..tag_end];
        let body = &element[tag_end + 1..element.find("</script>").unwrap()];
        let mut value: serde_json::Value = serde_json::from_str(body).unwrap();
        let attr = |name: &str| {
            let key = format!(" {name}=\"");
            tag.find(&key).map(|i| {
                let rest = &tag[i + key.len()..];
                rest[..rest.find('"').unwrap()].to_string()
            })
        };
        if tag[open.len()..].starts_with("board") {
            boards.push(value);
        } else {
            value["board"] = attr("data-board").map_or(serde_json::Value::Null, |b| {
                b.parse::<u64>().unwrap().into()
            });
            value["index"] = attr("data-index").unwrap().parse::<u64>().unwrap().into();
            games.push(value);
        }
    }
    serde_json::json!({ "boards": boards, "games": games })
}

fn view(args: &[&str]) -> (String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("view.html");
    let out = gamerec()
        .current_dir(root())
        .arg("view")
        .args(args)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    (std::fs::read_to_string(&page).unwrap_or_default(), code)
}

#[test]
fn the_viewer_is_one_self_contained_page_with_a_picker_and_every_games_errors() {
    let (html, code) = view(&["fixtures/"]);
    assert_eq!(code, 1, "some fixture games are invalid");
    // Nothing from the network: no external script, style, font or image.
    for needle in ["src=", "<link", "@import", "url(http", "https://"] {
        assert!(!html.contains(needle), "{needle}");
    }
    let outside: Vec<&str> = html
        .match_indices("http://")
        .map(|(i, _)| &html[i..(i + 30).min(html.len())])
        .filter(|s| !s.starts_with("http://www.w3.org/2000/svg"))
        .collect();
    assert!(outside.is_empty(), "{outside:?}");
    let data = viewer_data(&html);
    let games = data["games"].as_array().unwrap();
    // Every game of the fixtures (validate counts 176), each in the picker.
    assert_eq!(games.len(), 176);
    let invalid = games.iter().filter(|g| !g["error"].is_null()).count();
    assert_eq!(invalid, 113, "validate's count of invalid games");
    for g in games {
        let frames = g["frames"].as_array().unwrap().len();
        let moves = g["moves"].as_array().unwrap().len();
        if !g["board"].is_null() {
            assert_eq!(frames, moves + 1, "{}", g["title"]);
        }
    }
    // One board per kind of board, not one per game.
    assert!(data["boards"].as_array().unwrap().len() < 20);
    // An invalid game says where.
    let bad = games
        .iter()
        .find(|g| {
            g["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("no piece on e4"))
        })
        .expect("oshi/illegal-moves.grec's first game");
    assert_eq!(bad["error"]["ply"], 1);
}

#[test]
fn a_long_game_costs_a_few_bytes_a_ply() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("long.grec");
    gamerec()
        .args([
            "gen",
            "--game",
            "roshi",
            "--stop-after",
            "400",
            "--seed",
            "2",
            "-o",
        ])
        .arg(&games)
        .assert()
        .success();
    let (html, _) = view(&[games.to_str().unwrap(), "--index", "1"]);
    let data = viewer_data(&html);
    let plies = data["games"][0]["moves"].as_array().unwrap().len();
    assert!(plies >= 100, "{plies} plies");
    let one_svg = svg_size(&games);
    // A full SVG a ply would cost `plies * one_svg`; the frames cost far less.
    assert!(
        html.len() < plies * one_svg / 10,
        "{} bytes for {plies} plies ({one_svg} bytes an SVG)",
        html.len()
    );
}

fn svg_size(file: &Path) -> usize {
    show_svg(&[file.to_str().unwrap()]).unwrap().0.len()
}

#[test]
fn a_push_off_the_board_is_drawn_with_an_arrow_over_the_edge() {
    // Ply 11 of points-win is i7-i9: Red's 3-story piece pushes White's off
    // i9 (the score goes from 3 to 6).
    let file = root().join("fixtures/oshi/points-win.grec");
    let (svg, _) = show_svg(&[file.to_str().unwrap(), "--ply", "12"]).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let class = |n: &roxmltree::Node| n.attribute("class").unwrap_or("").to_string();
    let arrows: Vec<(f64, f64, f64, f64)> = doc
        .descendants()
        .filter(|n| class(n) == "arrow")
        .map(|n| {
            let v = |a| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (v("x1"), v("y1"), v("x2"), v("y2"))
        })
        .collect();
    assert_eq!(
        arrows.len(),
        2,
        "the mover's and the pushed piece's: {arrows:?}"
    );
    // The pushed piece's arrow leaves the board: past the top edge.
    let top = doc
        .descendants()
        .filter(|n| class(n).starts_with("cell "))
        .map(|n| centre(n).1)
        .fold(f64::MAX, f64::min);
    assert!(
        arrows.iter().any(|a| a.3 < top - 50.0),
        "{arrows:?} top {top}"
    );
    let marked: Vec<String> = doc
        .descendants()
        .filter(|n| class(n).starts_with("mark "))
        .map(|n| format!("{} {}", class(&n), n.attribute("data-cell").unwrap()))
        .collect();
    assert_eq!(marked, ["mark from i7", "mark to i9"]);
}
