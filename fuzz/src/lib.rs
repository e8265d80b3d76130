//! What the fuzz targets share: each target hands its bytes to one of
//! these functions, which run them through the same library code the
//! command line uses (its diagnostics included: `gamerec::diagnostics`) and
//! assert what must hold for any input. A panic is a
//! finding; so is an overflow (the targets build with overflow checks).

use gamerec::decode::{self, Encoding};
use gamerec::diagnostics::problem_report;
use gamerec::diagnostics::JsonError;
use gamerec::formats::json::{self, JsonSink};
use gamerec::formats::links::LinkSink;
use gamerec::formats::records::RecordSink;
use gamerec::formats::text::TextSink;
use gamerec::formats::{self, Cx, Format, Reading};
use gamerec::game::SiteFiles;
use gamerec::lenient::Lenient;
use gamerec::problem::Problem;
use gamerec::reading::{report, Options};
use gamerec::record::{Chunk, ReadGame};
use gamerec::registry::{tell, AnyGame, GAMES};
use gamerec::sink::out::Rendered;
use gamerec::sink::{Collect, GameSink, Head, Tail, TraceOptions, TurnOut};
use gamerec::stats::{game_row, summary_cell, Summary};
use std::io::{self, BufRead, Cursor};
use std::ops::ControlFlow;

/// Reads `input` in `format` as every command does, on this thread: `map`
/// on each game (where it came from, the game, its rules), `each` with
/// what it made, in order.
pub fn read_mapped<R: BufRead + Send, T: Send>(
    input: R,
    format: Format,
    opts: &Options,
    map: impl Fn(Option<&Chunk>, &mut dyn ReadGame<'_>, Result<&'static dyn AnyGame, Problem>) -> T
        + Sync,
    each: impl FnMut(Option<&Chunk>, T) -> io::Result<ControlFlow<()>>,
) -> io::Result<Reading> {
    let opts = Options { jobs: 1, ..*opts };
    let cx = Cx {
        input: "fuzz",
        format,
        opts: &opts,
    };
    formats::read_mapped(input, cx, |v| map(v.chunk, v.game, v.rules), each)
}

/// The rules a leading byte picks (its low seven bits; the high bit is a
/// target's switch), the byte, and the rest of the input.
pub fn pick_game(data: &[u8]) -> Option<(&'static dyn AnyGame, u8, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((GAMES[usize::from(first & 0x7f) % GAMES.len()], first, rest))
}

/// `rest` with a `[Game "…"]` tag line before it.
fn with_game_tag(game: &dyn AnyGame, rest: &[u8]) -> Vec<u8> {
    let mut text = format!("[Game \"{}\"]\n", game.name()).into_bytes();
    text.extend_from_slice(rest);
    text
}

/// Shows `p` as the outputs do (a diagnostic, and JSON) and checks that no
/// control character reaches a person raw. (Half the problems, by their
/// place, are shown in colour: rendering is most of a run's time.)
fn show(chunk: Option<&Chunk>, p: &Problem) {
    let mut out = Vec::new();
    let color = p.span.start % 2 == 1;
    problem_report(&mut out, "fuzz", chunk, Some(1), Some("a title"), p, color)
        .expect("writing to memory");
    let text = String::from_utf8(out).expect("a diagnostic is UTF-8");
    if !color {
        let raw = text
            .chars()
            .find(|&c| c.is_control() && c != '\n' && c != '\t');
        assert!(raw.is_none(), "a raw {raw:?} in the diagnostic:\n{text}");
    }
    serde_json::to_string(&JsonError::new(chunk, p)).expect("a problem as JSON");
    assert!(p.span.start <= p.span.end, "span {:?}", p.span);
}

/// Validates `data` as `gamerec validate` does: decompressed and decoded,
/// its format detected, every game replayed and judged, every problem
/// shown.
pub fn validate_with(data: &[u8], opts: &Options) {
    let raw = Box::new(Cursor::new(data.to_vec()));
    let Ok(mut reader) = decode::open(raw, None, Encoding::Auto) else {
        return;
    };
    let Ok(head) = reader.fill_buf() else {
        return;
    };
    let format = formats::detect(None, head);
    let _ = read_mapped(
        reader,
        format,
        opts,
        |chunk, game, rules| {
            let r = report(game, rules, true);
            assert!(
                r.error.is_some() != r.outcome.is_some(),
                "a game is valid or not: {r:?}"
            );
            if let Some(p) = &r.error {
                show(chunk, p);
            }
        },
        |_, ()| Ok(ControlFlow::Continue(())),
    );
}

/// Validates `data` as it is.
pub fn validate(data: &[u8]) {
    validate_with(
        data,
        &Options {
            turns_only: true,
            ..Options::default()
        },
    );
}

/// Validates `data` after its first byte as a game of the rules that byte
/// picks: with a `[Game]` tag before it, or (high bit set) given as the
/// rules for records without one, as `--game` does (a bare site string).
pub fn validate_game(data: &[u8]) {
    let Some((game, first, rest)) = pick_game(data) else {
        return;
    };
    if first & 0x80 == 0 {
        validate(&with_game_tag(game, rest));
    } else {
        validate_with(
            rest,
            &Options {
                default_game: Some(game),
                turns_only: true,
                ..Options::default()
            },
        );
    }
}

/// The rules the first byte picks, a position in their notation up to the
/// first newline (empty: the start), then one byte per ply of a walk: at
/// every position of it generated turns must be accepted and read back
/// ([`gamerec::perft::check_walk`]: every turn of the position given is
/// played).
pub fn position(data: &[u8]) {
    let Some((game, _, rest)) = pick_game(data) else {
        return;
    };
    let (text, choices) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    // A position can have ten thousand turns, all generated at every step.
    let choices = &choices[..choices.len().min(6)];
    if let Some(Err(e)) = gamerec::perft::check_walk(game, text, choices, false) {
        panic!("{}: {e}", game.name());
    }
}

/// Reads `data` as `format`, validating every game and showing every
/// problem.
pub fn read_as(format: Format, data: &[u8]) {
    let opts = Options::default();
    let _ = read_mapped(
        Cursor::new(data),
        format,
        &opts,
        |chunk, game, rules| {
            let r = report(game, rules, true);
            if let Some(p) = &r.error {
                show(chunk, p);
            }
        },
        |_, ()| Ok(ControlFlow::Continue(())),
    );
}

/// Reads `data` as a Parquet games table, as every command does: a file
/// that is not one, or is damaged, is one invalid game saying so. The
/// Parquet reader's own panics on damaged files are caught and said as a
/// problem (`formats::parquet`), as in the command line; they are counted,
/// not printed. Any other panic is a finding.
pub fn parquet(data: &[u8]) {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    read_as(Format::Parquet, data);
}

/// Reads `data` after its first byte in the site format that byte picks:
/// a site's move strings, the sites' game records (AbstractPlay) or game
/// links (the Garden Gate). A valid game read from a record or a link must
/// come back the same when written as one again and read back (when its
/// tags can all be carried there).
pub fn site(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    // The sites' formats of the table: each site notation's move strings,
    // then AbstractPlay's records and The Garden Gate's links.
    let sites: Vec<Format> = formats::all().filter(|f| f.site().is_some()).collect();
    let format = sites[usize::from(first) % sites.len()];
    read_as(format, rest);
    if matches!(format, Format::Records(_) | Format::Links(_)) {
        for (canonical, valid) in to_text(format, rest) {
            if !valid {
                continue;
            }
            let Some(written) = to_site_file(format, &canonical) else {
                continue;
            };
            let mut back = to_text(format, written.as_bytes());
            if let [(text, _)] = back.as_mut_slice() {
                *text = without_filled(&canonical, text);
            }
            assert_eq!(
                back,
                [(canonical.clone(), true)],
                "written as {} and read back:\n{written}",
                format.name()
            );
        }
    }
}

/// Members an AbstractPlay record must have, which the writer fills in
/// when a game has no tag for them (notation/abstractplay-record.md): the
/// tags they read back as.
const FILLED: [&str; 5] = [
    "Site",
    "SiteGameId",
    "DateStart",
    "DateEnd",
    "DateGenerated",
];

/// `read_back` without the tag lines of [`FILLED`] that `canonical` has
/// not: what the writer added, not what it lost.
fn without_filled(canonical: &str, read_back: &str) -> String {
    let has = |text: &str, tag: &str| text.lines().any(|l| l.starts_with(&format!("[{tag} \"")));
    let added: Vec<_> = FILLED.iter().filter(|t| !has(canonical, t)).collect();
    read_back
        .split_inclusive('\n')
        .filter(|l| !added.iter().any(|t| l.starts_with(&format!("[{t} \""))))
        .collect()
}

/// The one game of `canonical` written as a site record or link (`format`),
/// or `None` when its site cannot carry the game's tags.
fn to_site_file(format: Format, canonical: &str) -> Option<String> {
    let mut written = None;
    let _ = read_mapped(
        Cursor::new(canonical.as_bytes()),
        Format::Text,
        &Options::default(),
        |_, game: &mut dyn ReadGame<'_>, rules| {
            let site = rules.as_ref().ok()?.site()?;
            let to = match format {
                Format::Records(_) => Format::Records(site),
                Format::Links(_) => Format::Links(site),
                _ => return None,
            };
            if !to.can_carry(game.tags()) {
                return None;
            }
            let trace = TraceOptions {
                site: true,
                ..TRACE
            };
            let mut out = Rendered::new();
            match (to, site.format().files) {
                (Format::Records(_), SiteFiles::Records { name, implied }) => tell(
                    game,
                    rules,
                    trace,
                    &mut RecordSink::new(&mut out, name, implied),
                ),
                (Format::Links(_), SiteFiles::Links { game_type, options }) => tell(
                    game,
                    rules,
                    trace,
                    &mut LinkSink::new(&mut out, game_type, options),
                ),
                _ => return None,
            }
            Some(out.into_string())
        },
        |_, game| {
            written = game;
            Ok(ControlFlow::Break(()))
        },
    );
    written
}

/// A game's text as it is converted, and whether it was valid.
struct Checked<'o> {
    text: TextSink<'o>,
    valid: bool,
}

impl GameSink for Checked<'_> {
    fn head(&mut self, head: &Head<'_>) {
        self.text.head(head);
    }

    fn turn(&mut self, turn: TurnOut<'_>) {
        self.text.turn(turn);
    }

    fn tail(&mut self, tail: &Tail<'_>) {
        self.valid = tail.is_valid();
        self.text.tail(tail);
    }
}

const TRACE: TraceOptions = TraceOptions {
    syntax_only: false,
    branching: false,
    site: false,
};

/// Every game of `input` (in `format`) as canonical text, with whether it
/// was valid.
fn to_text(format: Format, input: &[u8]) -> Vec<(String, bool)> {
    to_text_with(format, input, &Options::default(), |_| {})
}

/// [`to_text`] read with `opts`, `check` looking at each game first.
fn to_text_with(
    format: Format,
    input: &[u8],
    opts: &Options,
    check: impl Fn(&dyn ReadGame<'_>) + Sync,
) -> Vec<(String, bool)> {
    let mut games = Vec::new();
    let _ = read_mapped(
        Cursor::new(input),
        format,
        opts,
        |_, game: &mut dyn ReadGame<'_>, rules| {
            check(&*game);
            let mut out = Rendered::new();
            let mut sink = Checked {
                text: TextSink::new(&mut out),
                valid: false,
            };
            tell(game, rules, TRACE, &mut sink);
            let valid = sink.valid;
            (out.into_string(), valid)
        },
        |_, game| {
            games.push(game);
            Ok(ControlFlow::Continue(()))
        },
    );
    games
}

/// Every game of `input` (the record format) as JSON objects (without
/// their `file` and `index`).
fn to_json(input: &[u8]) -> Vec<String> {
    let mut games = Vec::new();
    let _ = read_mapped(
        Cursor::new(input),
        Format::Text,
        &Options::default(),
        |chunk, game: &mut dyn ReadGame<'_>, rules| {
            let mut out = Rendered::new();
            let mut sink = JsonSink::new(&mut out, chunk);
            tell(game, rules, TRACE, &mut sink);
            assert!(sink.failed.is_none(), "JSON could not be written");
            out.into_string()
        },
        |_, game| {
            games.push(game);
            Ok(ControlFlow::Continue(()))
        },
    );
    games
}

/// The round trip: every valid game of `data` (after a `[Game]` tag its
/// first byte picks) as canonical text must come back the same from
/// canonical text, from a JSON document and from JSON Lines.
pub fn round_trip(data: &[u8]) {
    let Some((game, _, rest)) = pick_game(data) else {
        return;
    };
    let input = with_game_tag(game, rest);
    for (canonical, valid) in to_text(Format::Text, &input) {
        if !valid {
            continue;
        }
        let again = to_text(Format::Text, canonical.as_bytes());
        assert_eq!(again.len(), 1, "one game:\n{canonical}");
        assert_eq!(again[0], (canonical.clone(), true), "text → text");
        let objects = to_json(canonical.as_bytes());
        assert_eq!(objects.len(), 1, "one game:\n{canonical}");
        let object = json::with_place("fuzz", 1, &objects[0]);
        let document = format!("{}{object}{}", json::document_start(), json::DOCUMENT_END);
        let back = to_text(Format::Json, document.as_bytes());
        assert_eq!(
            back,
            [(canonical.clone(), true)],
            "text → JSON → text:\n{document}"
        );
        let back = to_text(Format::Jsonl, format!("{object}\n").as_bytes());
        assert_eq!(
            back,
            [(canonical.clone(), true)],
            "text → JSON Lines → text:\n{object}"
        );
    }
}

/// `--lenient` on `data` after its first byte, which picks the rules (a
/// `[Game]` tag before the rest; bit 7 set: none, so that the game is
/// guessed) and, bit 6, `--keep-broken`: every repair lies in the input
/// and says what it did, and every game valid once repaired converts to
/// canonical text that is valid strictly and converts to itself.
pub fn lenient(data: &[u8]) {
    let Some((game, first, rest)) = pick_game(data) else {
        return;
    };
    let input = match first & 0x80 {
        0 => with_game_tag(game, rest),
        _ => rest.to_vec(),
    };
    let opts = Options {
        lenient: Some(Lenient {
            keep_broken: first & 0x40 != 0,
        }),
        ..Options::default()
    };
    let games = to_text_with(Format::Text, &input, &opts, |game| {
        for r in game.repairs() {
            assert!(
                r.span.start <= r.span.end && r.span.end <= input.len(),
                "a repair outside the input: {r:?}"
            );
            assert!(r.before != r.after, "a repair that changes nothing: {r:?}");
        }
    });
    for (canonical, valid) in games {
        if valid {
            let again = to_text(Format::Text, canonical.as_bytes());
            assert_eq!(
                again,
                [(canonical.clone(), true)],
                "a repaired game's canonical text is valid strictly and converts to itself:\n{canonical}"
            );
        }
    }
}

/// `gamerec stats` (rows as CSV and JSON, and the summary) on `data` after
/// a `[Game]` tag its first byte picks. The branching factor (the legal
/// turns counted before every ply) only when the first byte's high bit is
/// set: it is the move generator's work, which the position target
/// fuzzes, and makes a run many times slower (a Roshi position can have
/// ten thousand turns).
pub fn stats(data: &[u8]) {
    let Some((game, first, rest)) = pick_game(data) else {
        return;
    };
    let input = with_game_tag(game, rest);
    let trace = TraceOptions {
        branching: first & 0x80 != 0,
        ..TRACE
    };
    let mut summary = Summary::default();
    let mut gathered = gamerec::report::Gathered::default();
    let _ = read_mapped(
        Cursor::new(&input[..]),
        Format::Text,
        &Options::default(),
        |_, game: &mut dyn ReadGame<'_>, rules| {
            let mut collect = Collect::new(0).first_only();
            tell(game, rules, trace, &mut collect);
            collect.into_game()
        },
        |_, game| {
            let row = game_row("fuzz", &game);
            let _ = row.to_csv();
            serde_json::to_string(&row.to_json()).expect("a row as JSON");
            summary.add(&game);
            gathered.add("fuzz", &game);
            Ok(ControlFlow::Continue(()))
        },
    );
    for row in summary.rows() {
        for (_, value) in row {
            let _ = summary_cell(&value);
        }
    }
    ratings_and_report(gathered);
}

/// The games' ratings (with history and predictions) and their report:
/// a history row per rated game per player, every rating a number, and a
/// page that ends.
fn ratings_and_report(gathered: gamerec::report::Gathered) {
    use gamerec::ratings::{self, systems::RatingOptions, table};
    let opts = RatingOptions {
        history: true,
        predict: true,
        ..RatingOptions::default()
    };
    let rated = ratings::rate(&gathered.rated, opts);
    let games: usize = rated.iter().map(|t| t.games.len()).sum();
    assert_eq!(games, gathered.rated.games.len());
    for t in &rated {
        assert_eq!(t.history.len(), 2 * t.games.len());
        for r in &t.players {
            let row = table::player_row(&gathered.rated, t, r);
            assert!(r.elo.is_finite() && r.bt.is_finite(), "{row:?}");
        }
    }
    let _ = table::predict_rows(&rated);
    let opts = gamerec::report::PageOptions {
        title: "fuzz".into(),
        player: None,
        players: 3,
        ratings: RatingOptions::default(),
    };
    let types = gathered.by_type().len();
    let (page, _) = gamerec::report::page(gathered, &opts);
    assert!(page.ends_with("</html>\n"));
    assert_eq!(page.matches("<section id=\"type-").count(), types);
}

/// Draws the games of `rest` (and looks at them as `filter` does) (under the rules the first byte picks; its
/// high bit flips the boards): every position of each replay as the viewer
/// does, and its last as text (Unicode and ASCII) and SVG. Every piece of
/// every frame stands on a cell of its board with a glyph of its game; the
/// SVG has one piece element a piece; the ASCII text is ASCII; the page's
/// data cannot end its script.
pub fn picture(data: &[u8]) {
    use gamerec::picture::html::{self, ViewerGame};
    use gamerec::picture::svg::{self, SvgOptions};
    use gamerec::picture::text::{self, TextOptions};
    let Some((game, first, rest)) = pick_game(data) else {
        return;
    };
    let flip = first & 0x80 != 0;
    let text_in = with_game_tag(game, rest);
    let _ = read_mapped(
        Cursor::new(text_in),
        Format::Text,
        &Options::default(),
        |_, g, rules| {
            let Ok(rules) = rules else {
                return;
            };
            let parsed = g.record();
            let source =
                || gamerec::record::RecordSource::new(&parsed.record, parsed.error.clone());
            let Ok(replayed) = gamerec::show::replayed(rules, &mut source()) else {
                return;
            };
            // `filter`'s look at the same game: it reaches its own last
            // position, and opens with its own first turns when they were
            // played.
            let opening: Vec<String> = parsed
                .record
                .turns
                .iter()
                .take(3)
                .map(|t| t.text.to_string())
                .collect();
            let probe = gamerec::select::Probe {
                opening,
                reaches: Some(replayed.scene.position.clone()),
                pattern: Some(final_pattern(&replayed.scene)),
            };
            let examined = gamerec::filter::examine(rules, &mut source(), &probe);
            assert_eq!(examined.plies, replayed.moves.len());
            assert!(examined.reaches, "the last position is reached");
            assert!(
                examined.pattern_at.is_some(),
                "a pattern of the last position matches: {:?}",
                probe.pattern
            );
            // The position index's trace of the game: a key a position, the
            // last the key of the last position read back from its
            // notation under the game's settings; the index's turns replay
            // to a position the pattern matches.
            let traced = gamerec::index::trace_game(rules, &mut source());
            assert_eq!(traced.keys.len(), examined.plies + 1);
            let settings: Vec<gamerec::record::Tag> = (parsed.record.tags.iter())
                .filter(|t| rules.settings().contains(&t.name.as_str()))
                .cloned()
                .collect();
            let last = gamerec::index::position_key(rules, &settings, &replayed.scene.position);
            assert_eq!(traced.keys.last().copied(), last.ok(), "the last key");
            let again = gamerec::index::first_match(
                rules,
                probe.pattern.as_ref().expect("a pattern"),
                &parsed.record.tags,
                &traced.turns,
            );
            assert!(matches!(again, Ok(Some(_))), "the index's turns: {again:?}");
            if examined.plies >= probe.opening.len() {
                assert!(
                    examined.opens,
                    "opens with its own turns: {:?}",
                    probe.opening
                );
            }
            // `dedup`'s keys: both or neither (the moves replay to the end
            // and the record is whole); by final position, the key ends
            // with the game's last position (written in the standard
            // labels: checked where the record uses them).
            use gamerec::select::SameBy;
            let by_moves = gamerec::dedup::key(rules, &mut source(), SameBy::Moves);
            let by_end = gamerec::dedup::key(rules, &mut source(), SameBy::FinalPosition);
            assert_eq!(by_moves.is_some(), by_end.is_some());
            let standard_labels = gamerec::game::tag_value(&parsed.record.tags, "Coords")
                .is_none_or(|c| c.trim().eq_ignore_ascii_case("ludii"));
            if let Some(k) = by_end.as_ref().filter(|_| standard_labels) {
                assert!(
                    k.ends_with(replayed.scene.position.as_bytes()),
                    "{k:?} ends with {}",
                    replayed.scene.position
                );
            }
            let scene = &replayed.scene;
            assert_eq!(replayed.frames.len(), replayed.moves.len() + 1);
            for f in &replayed.frames {
                for p in &f.pieces {
                    assert!(usize::from(p.cell) < scene.board.cells.len(), "{p:?}");
                    assert!(usize::from(p.glyph) < scene.glyphs.len(), "{p:?}");
                }
                for &c in f.marks.from.iter().chain(&f.marks.to) {
                    assert!(usize::from(c) < scene.board.cells.len(), "mark {c}");
                }
            }
            let opts = SvgOptions {
                flip,
                rotate: f64::from(first % 8) * 45.0,
                ..SvgOptions::default()
            };
            let drawn = svg::write(scene, &opts);
            assert_eq!(
                drawn.matches("<use class=\"piece ").count(),
                scene.frame.pieces.len(),
                "{drawn}"
            );
            for ascii in [false, true] {
                let t = text::write(
                    scene,
                    TextOptions {
                        ascii,
                        color: !ascii,
                        flip,
                    },
                );
                assert!(!ascii || t.is_ascii(), "{t}");
            }
            let page = html::page("fuzz", &opts, vec![ViewerGame::Played(Box::new(replayed))]);
            assert_eq!(
                page.matches("</script>").count(),
                3,
                "the data ends its script"
            );
        },
        |_, ()| Ok(ControlFlow::Continue(())),
    );
}

/// A pattern the scene's position matches: a few of its pieces by name,
/// and a cell it leaves empty.
fn final_pattern(scene: &gamerec::picture::Scene) -> gamerec::pattern::Pattern {
    let label = |cell: u16| scene.board.cells[cell as usize].label.clone();
    let mut terms: Vec<String> = (scene.frame.pieces.iter().take(3))
        .map(|p| format!("{}={}", label(p.cell), scene.glyphs[p.glyph as usize].ascii))
        .collect();
    let taken = |i: usize| scene.frame.pieces.iter().any(|p| p.cell as usize == i);
    if let Some(i) = (0..scene.board.cells.len()).find(|&i| !taken(i)) {
        terms.push(format!("{}=-", scene.board.cells[i].label));
    }
    if terms.is_empty() {
        terms.push(format!(
            "{}=-",
            scene.board.cells.first().map_or("a1", |c| &c.label)
        ));
    }
    gamerec::pattern::Pattern::parse(&terms.join(" ")).expect("a pattern of labels and names")
}

/// The index the `index` target damages: three generated games of every
/// game, indexed once per process into a folder of its own.
fn base_index() -> Option<&'static std::path::Path> {
    static BASE: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gamerec-fuzz-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut text = String::new();
        for g in GAMES {
            for i in 1..=3 {
                let game = gamerec::gen::generate(*g, 7, i, &gamerec::gen::GenOptions::default());
                formats::text::write_game(&game, &mut text);
                text.push('\n');
            }
        }
        let mut builder =
            gamerec::index::Builder::create(&dir.join("base"), 1 << 20, 1, &mut || {}).ok()?;
        builder.begin(&[]).ok()?;
        builder.file("base.grec", None).ok()?;
        let turns = builder.turns();
        let opts = Options {
            jobs: 1,
            ..Options::default()
        };
        let cx = Cx {
            input: "base.grec",
            format: Format::Text,
            opts: &opts,
        };
        let mut index = 0;
        formats::read_mapped(
            Cursor::new(text.into_bytes()),
            cx,
            |v| gamerec::index::trace(v, &turns),
            |_, entry| {
                index += 1;
                builder
                    .add(index, entry)
                    .map(|()| ControlFlow::Continue(()))
            },
        )
        .ok()?;
        builder.finish().ok()?;
        Some(dir)
    })
    .as_deref()
}

/// The index's tables, in the order the `index` target's first byte picks
/// one (the seeds name them the same way).
pub const INDEX_TABLES: [&str; 20] = [
    "games.parquet",
    "turns.parquet",
    "files.parquet",
    "setups.parquet",
    "postings-00.parquet",
    "postings-01.parquet",
    "postings-02.parquet",
    "postings-03.parquet",
    "postings-04.parquet",
    "postings-05.parquet",
    "postings-06.parquet",
    "postings-07.parquet",
    "postings-08.parquet",
    "postings-09.parquet",
    "postings-10.parquet",
    "postings-11.parquet",
    "postings-12.parquet",
    "postings-13.parquet",
    "postings-14.parquet",
    "postings-15.parquet",
];

/// A position index with one table replaced by `data` after its first
/// byte (which picks the table): every query answers or errs, never
/// panics, and a query's memory follows the tables' caps.
pub fn index(data: &[u8]) {
    let Some((&first, table)) = data.split_first() else {
        return;
    };
    let Some(base) = base_index() else {
        return;
    };
    let damaged = base.join("damaged");
    let _ = std::fs::remove_dir_all(&damaged);
    if copy_dir(&base.join("base"), &damaged).is_err() {
        return;
    }
    let Ok(manifest) = std::fs::read_to_string(damaged.join("index.json")) else {
        return;
    };
    let Some(generation) = serde_json::from_str::<serde_json::Value>(&manifest)
        .ok()
        .and_then(|v| v["generation"].as_str().map(String::from))
    else {
        return;
    };
    let name = INDEX_TABLES[usize::from(first) % INDEX_TABLES.len()];
    if std::fs::write(damaged.join(&generation).join(name), table).is_err() {
        return;
    }
    let Ok(index) = gamerec::index::Index::open(&damaged) else {
        return;
    };
    let _ = index.stale();
    let _ = index.turn_texts();
    let _ = index.setups();
    // Each game's start, as a query gives it (`moves --game G
    // --show-position`).
    let starts = [
        "c7c/2baaab2/4a4/9/9/9/4A4/2BAAAB2/C7C r 0-0 -",
        "7/7/7/7/7/7/7 c3-e5 8-8 r setup -",
        "H8 - n",
        "- LSSBBWWCCFD/LSSBBWWCCFD - h -",
        "WRWRWRWR73 0-0 r -",
    ];
    for position in starts {
        if let Ok(Ok(hits)) = index.reaches(position) {
            let placed: Vec<_> = hits.iter().map(|h| h.game.placed()).collect();
            let _ = index.plan(&placed);
        }
    }
    if let Ok(pattern) = gamerec::pattern::Pattern::parse("a1=* e5=-") {
        let _ = index.pattern(&pattern);
    }
    let query = gamerec::tree::Query {
        line: Vec::new(),
        depth: 6,
        player: None,
        side: None,
    };
    let _ = gamerec::index::explore(&index, &query, 1);
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_dir(&e.path(), &target)?;
        } else {
            std::fs::copy(e.path(), target)?;
        }
    }
    Ok(())
}
