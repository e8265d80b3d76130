//! Never panic on input: any byte sequence gets located errors (and goes
//! through every convert and stats writer), and a stream of many games is
//! read game by game.

use gamerec::formats::text::TextWriter;
use gamerec::formats::{self, csv, json, Cx, Format};
use gamerec::problem::Problem;
use gamerec::reading;
use gamerec::record::Parsed;
use gamerec::registry::{convert, AnyGame};
use gamerec::sink::TraceOptions;
use gamerec::stats;
use gamerec::validate;
use proptest::prelude::*;
use std::io::Read;
use std::ops::ControlFlow;

/// Reads every game of `bytes` in `format` whole, on this thread.
fn read_whole(
    bytes: &[u8],
    format: Format,
    each: &mut dyn FnMut(Parsed, Result<&'static dyn AnyGame, Problem>),
) {
    let opts = reading::Options::default();
    let cx = Cx {
        input: "x",
        format,
        opts: &opts,
    };
    formats::read(bytes, cx, &mut |v| {
        each(v.game.record(), v.rules);
        Ok(ControlFlow::Continue(()))
    })
    .unwrap();
}

/// Runs the convert and stats pipeline over `bytes` read as `format`:
/// every writer, and the JSON read back.
fn convert_all(bytes: &[u8], format: Format) {
    let trace = TraceOptions {
        syntax_only: false,
        branching: true,
        site: true,
    };
    let syntax = TraceOptions {
        syntax_only: true,
        ..trace
    };
    let mut json = String::new();
    let mut text = TextWriter::default();
    read_whole(bytes, format, &mut |parsed, rules| {
        let _ = text.game(&convert(
            1,
            parsed.record.clone(),
            parsed.error.clone(),
            rules.clone(),
            syntax,
        ));
        let g = convert(1, parsed.record, parsed.error, rules, trace);
        let _ = text.game(&g);
        csv::rows("x", &g).for_each(drop);
        let _ = stats::game_row("x", &g).to_csv();
        json.push_str(&json::game_value("x", &g, None).unwrap());
        json.push('\n');
    });
    read_whole(json.as_bytes(), Format::Jsonl, &mut |parsed, rules| {
        let _ = convert(1, parsed.record, parsed.error, rules, trace);
    });
}

fn validate_all(bytes: &[u8]) -> usize {
    convert_all(bytes, Format::Text);
    convert_all(bytes, formats::detect(None, bytes));
    let mut reports = 0;
    validate::validate(bytes, &mut |chunk, report| {
        reports += 1;
        if let Some(p) = &report.error {
            let end = chunk.offset + chunk.bytes.len();
            assert!(p.span.start <= p.span.end && p.span.end <= end.max(1));
            let (line, col) = chunk.locate(p.span.start);
            assert!(line >= 1 && col >= 1);
        }
        Ok(())
    })
    .unwrap();
    reports
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        prop_assert!(validate_all(&bytes) >= 1);
    }

    #[test]
    fn record_like_text_never_panics(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("[Game \"oshi\"]\n".to_string()),
                Just("[Position \"9/9/9/9/9/9/9/9/A8 r 0-0 R(a1=a2)\"]\n".to_string()),
                Just("[Result \"1-0\"]\n".to_string()),
                Just("[Game \"iqishiqi\"]\n".to_string()),
                Just("[Game \"retsami\"]\n".to_string()),
                Just("[Game \"roshi\"]\n".to_string()),
                Just("[Game \"vagabond\"]\n".to_string()),
                Just("[Options \"DoubleTiles\"]\n".to_string()),
                Just(";".to_string()),
                "([0-9]{1,2}[HG]\\.)?([LSBWCFDY]\\(-?[0-9],-?[0-9]\\)|\\(-?[0-9],-?[0-9]\\)-\\(-?[0-9],-?[0-9]\\))(~~)?;?",
                Just("[Board \"5x5\"]\n".to_string()),
                Just("[Slide \"line\"]\n".to_string()),
                Just(" -- ".to_string()),
                "(R?@[a-t][0-9]{1,2}|[a-h][1-9][->][a-h][1-9])(,@[a-h][1-9])? ",
                Just("[FirstPlayer \"White\"]\n".to_string()),
                Just(" == ".to_string()),
                "@?[a-j][0-9][-x]?([a-j][0-9])?(~~)? ",
                Just("[Coords \"abstractplay\"]\n".to_string()),
                Just("[StoneLimit \"1\"]\n".to_string()),
                Just("[Position \"E7 H2,E5,D6 n\"]\n".to_string()),
                "[A-Oa-o][0-9]{1,2}(/[A-Oa-o][0-9]{1,2})? ",
                Just("{".to_string()), Just("}".to_string()), Just("\n".to_string()),
                Just("1.".to_string()), Just("1...".to_string()), Just(" * ".to_string()),
                "[a-j][0-9]-[a-j][0-9] ",
                "[ -~]{0,6}",
            ],
            0..40,
        )
    ) {
        validate_all(parts.concat().as_bytes());
    }
}

/// Mutating every byte of a real fixture still gives reports, never a panic.
#[test]
fn single_byte_mutations_of_a_fixture_never_panic() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/oshi/points-win.grec");
    let original = std::fs::read(path).unwrap();
    for i in 0..original.len() {
        for b in [b'[', b'{', b'}', b'"', b'\n', b'9', b'x', 0xFF] {
            let mut bytes = original.clone();
            bytes[i] = b;
            validate_all(&bytes);
            bytes.truncate(i);
            validate_all(&bytes);
        }
    }
}

/// A reader that produces `n` copies of a game without holding them.
struct Repeat {
    game: &'static [u8],
    left: usize,
    at: usize,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Ok(0);
        }
        let n = buf.len().min(self.game.len() - self.at);
        buf[..n].copy_from_slice(&self.game[self.at..self.at + n]);
        self.at += n;
        if self.at == self.game.len() {
            self.at = 0;
            self.left -= 1;
        }
        Ok(n)
    }
}

#[test]
fn a_long_stream_is_read_game_by_game() {
    let game: &'static [u8] =
        b"[Game \"oshi\"]\n[Result \"*\"]\n1. e3-e4 e7-e6 2. a1-a4 {ok} a9-a6 *\n\n";
    let n = 20_000;
    let reader = std::io::BufReader::new(Repeat {
        game,
        left: n,
        at: 0,
    });
    let mut valid = 0;
    let mut biggest_chunk = 0;
    let mut last_offset = 0;
    validate::validate(reader, &mut |chunk, report| {
        assert!(report.is_valid(), "{:?}", report.error);
        valid += 1;
        biggest_chunk = biggest_chunk.max(chunk.bytes.len());
        last_offset = chunk.offset;
        Ok(())
    })
    .unwrap();
    assert_eq!(valid, n);
    // Each chunk holds one game: what is in memory does not grow with the
    // input.
    assert_eq!(biggest_chunk, game.len());
    assert_eq!(last_offset, game.len() * (n - 1));
}
