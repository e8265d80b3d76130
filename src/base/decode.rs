//! Opening an input's bytes: transparent decompression — a gzip (`.gz`,
//! also several members one after another) or Zstandard (`.zst`) stream is
//! recognised by its first bytes, so stdin may be compressed too — and text
//! encodings other than UTF-8 (Latin-1, UTF-16), transcoded to UTF-8 as they
//! are read.

use flate2::bufread::MultiGzDecoder;
use std::io::{self, BufRead, BufReader, Read};

/// A readable input, decompressed.
pub type Input = Box<dyn BufRead + Send>;

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const BUFFER: usize = 1 << 16;

/// The compression a stream starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// The compression `head` (an input's first bytes) announces.
pub(crate) fn sniff(head: &[u8]) -> Compression {
    if head.starts_with(GZIP_MAGIC) {
        Compression::Gzip
    } else if head.starts_with(ZSTD_MAGIC) || is_skippable_frame(head) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Whether `head` starts with a Zstandard skippable frame (magic
/// 0x184D2A50 to 0x184D2A5F, little-endian), as `pzstd` writes one before
/// each of its frames.
fn is_skippable_frame(head: &[u8]) -> bool {
    matches!(head, [0x50..=0x5F, 0x2A, 0x4D, 0x18, ..])
}

/// File name suffixes of compressed inputs (left off to find the format).
pub(crate) const SUFFIXES: &[&str] = &["gz", "zst"];

/// `raw`, decompressed when it starts like a gzip or Zstandard stream.
pub fn decompressed(raw: Box<dyn Read + Send>) -> io::Result<Input> {
    open(raw, None, Encoding::Auto)
}

impl Compression {
    /// The compression a file name's last extension announces.
    pub(crate) fn of_extension(ext: &str) -> Option<Compression> {
        match ext.to_ascii_lowercase().as_str() {
            "gz" => Some(Compression::Gzip),
            "zst" => Some(Compression::Zstd),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Compression::None => "plain",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }
}

/// How an input's text is encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, or UTF-16 when the input starts with a UTF-16 byte-order
    /// mark.
    #[default]
    Auto,
    Utf8,
    /// ISO 8859-1: every byte is the character of that number.
    Latin1,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    /// Every encoding's name (`--encoding`'s values), what it is, and the
    /// encoding, in the order help lists them.
    pub const ALL: [(&'static str, &'static str, Encoding); 5] = [
        (
            "auto",
            "UTF-8, or UTF-16 when the input starts with its byte-order mark",
            Encoding::Auto,
        ),
        ("utf-8", "", Encoding::Utf8),
        (
            "latin-1",
            "ISO 8859-1: every byte is one character",
            Encoding::Latin1,
        ),
        ("utf-16le", "", Encoding::Utf16Le),
        ("utf-16be", "", Encoding::Utf16Be),
    ];

    /// The encoding called `name` (also `utf8`, `latin1`, `iso-8859-1`).
    pub fn named(name: &str) -> Option<Encoding> {
        let name = match name.to_ascii_lowercase().as_str() {
            "utf8" => "utf-8".to_string(),
            "latin1" | "iso-8859-1" => "latin-1".to_string(),
            other => other.to_string(),
        };
        Encoding::ALL
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(_, _, e)| e)
    }
}

/// `raw`, decompressed (when it starts like a gzip or Zstandard stream) and
/// transcoded to UTF-8. `named`: the compression the file's name announces;
/// a file so named that does not start like it is an error ("not a zstd
/// stream"), not text.
pub fn open(
    raw: Box<dyn Read + Send>,
    named: Option<Compression>,
    encoding: Encoding,
) -> io::Result<Input> {
    let mut raw = BufReader::with_capacity(BUFFER, raw);
    let mut head = [0u8; 4];
    let n = peek(&mut raw, &mut head)?;
    let found = sniff(&head[..n]);
    if let Some(named) = named.filter(|&c| c != found && c != Compression::None) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not a {} stream (the name says {}, the first bytes say {})",
                named.name(),
                named.name(),
                found.name()
            ),
        ));
    }
    let plain: Input = match found {
        Compression::None => Box::new(raw),
        Compression::Gzip => Box::new(BufReader::with_capacity(BUFFER, MultiGzDecoder::new(raw))),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUFFER,
            zstd::stream::read::Decoder::with_buffer(raw)?,
        )),
    };
    transcoded(plain, encoding)
}

/// `input` as UTF-8: as it is (UTF-8, or no byte-order mark under `Auto`),
/// or transcoded from Latin-1 or UTF-16 (under `Auto` when it starts with a
/// UTF-16 byte-order mark, which is dropped).
fn transcoded(mut input: Input, encoding: Encoding) -> io::Result<Input> {
    let encoding = match encoding {
        Encoding::Auto => match input.fill_buf()? {
            [0xFF, 0xFE, ..] => Encoding::Utf16Le,
            [0xFE, 0xFF, ..] => Encoding::Utf16Be,
            _ => Encoding::Utf8,
        },
        other => other,
    };
    Ok(match encoding {
        Encoding::Auto | Encoding::Utf8 => input,
        Encoding::Latin1 => transcoder(input, Latin1),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let big_endian = encoding == Encoding::Utf16Be;
            let bom = if big_endian {
                [0xFE, 0xFF]
            } else {
                [0xFF, 0xFE]
            };
            if input.fill_buf()?.starts_with(&bom) {
                input.consume(2);
            }
            transcoder(
                input,
                Utf16 {
                    big_endian,
                    odd: None,
                    high: None,
                },
            )
        }
    })
}

/// Reads UTF-8 made by `decode` from each buffer of `inner`.
struct Transcoder<D> {
    inner: Input,
    decode: D,
    /// UTF-8 made but not yet handed out.
    pending: Vec<u8>,
    done: usize,
}

/// Turns the next bytes of an input into UTF-8; `end`: there are no more.
trait Decode {
    fn decode(&mut self, bytes: &[u8], end: bool, out: &mut Vec<u8>);
}

impl<D: Decode> Read for Transcoder<D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.done == self.pending.len() {
            self.pending.clear();
            self.done = 0;
            let src = self.inner.fill_buf()?;
            let end = src.is_empty();
            self.decode.decode(src, end, &mut self.pending);
            let used = src.len();
            self.inner.consume(used);
            if end && self.pending.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.done);
        buf[..n].copy_from_slice(&self.pending[self.done..self.done + n]);
        self.done += n;
        Ok(n)
    }
}

fn transcoder<D: Decode + Send + 'static>(inner: Input, decode: D) -> Input {
    Box::new(BufReader::with_capacity(
        BUFFER,
        Transcoder {
            inner,
            decode,
            pending: Vec::new(),
            done: 0,
        },
    ))
}

fn push(c: char, out: &mut Vec<u8>) {
    let mut tmp = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// ISO 8859-1: each byte is the character of its number.
struct Latin1;

impl Decode for Latin1 {
    fn decode(&mut self, bytes: &[u8], _: bool, out: &mut Vec<u8>) {
        for &b in bytes {
            push(char::from(b), out);
        }
    }
}

/// UTF-16: a lone surrogate becomes its three WTF-8 bytes (0xED …), which
/// are not UTF-8, so the reader reports `invalid-utf8` at its line and
/// column, as for any byte that is not text; an odd byte at the end
/// becomes U+FFFD.
struct Utf16 {
    big_endian: bool,
    /// The first byte of a code unit whose second byte is still to come.
    odd: Option<u8>,
    /// A high surrogate whose low half is still to come.
    high: Option<u16>,
}

impl Decode for Utf16 {
    fn decode(&mut self, bytes: &[u8], end: bool, out: &mut Vec<u8>) {
        let mut units = Vec::with_capacity(bytes.len() / 2 + 2);
        units.extend(self.high.take());
        let mut bytes = bytes.iter().copied();
        let mut first = self.odd.take().or_else(|| bytes.next());
        while let Some(a) = first {
            let Some(b) = bytes.next() else {
                self.odd = Some(a);
                break;
            };
            units.push(if self.big_endian {
                u16::from_be_bytes([a, b])
            } else {
                u16::from_le_bytes([a, b])
            });
            first = bytes.next();
        }
        if !end && units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
            self.high = units.pop();
        }
        for c in char::decode_utf16(units) {
            match c {
                Ok(c) => push(c, out),
                Err(lone) => {
                    let u = lone.unpaired_surrogate();
                    out.extend([
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
            }
        }
        if end && self.odd.take().is_some() {
            push(char::REPLACEMENT_CHARACTER, out);
        }
    }
}

/// Up to `head.len()` first bytes of `r`, left unread: what its first read
/// delivers (a pipe delivering fewer than the magic's 2 or 4 bytes at first
/// would be read as plain text).
fn peek(r: &mut BufReader<Box<dyn Read + Send>>, head: &mut [u8]) -> io::Result<usize> {
    let got = r.fill_buf()?;
    let n = got.len().min(head.len());
    head[..n].copy_from_slice(&got[..n]);
    Ok(n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_encoding_is_named_by_its_value_and_its_usual_spellings() {
        for (name, _, encoding) in super::Encoding::ALL {
            assert_eq!(super::Encoding::named(name), Some(encoding));
            assert_eq!(super::Encoding::named(&name.to_uppercase()), Some(encoding));
        }
        assert_eq!(super::Encoding::named("utf8"), Some(super::Encoding::Utf8));
        assert_eq!(
            super::Encoding::named("latin1"),
            Some(super::Encoding::Latin1)
        );
        assert_eq!(
            super::Encoding::named("ISO-8859-1"),
            Some(super::Encoding::Latin1)
        );
        assert_eq!(super::Encoding::named("utf-32"), None);
    }

    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"[Game \"oshi\"]\n\n1. e3-e4 *\n";

    fn read_all(bytes: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::new();
        decompressed(Box::new(io::Cursor::new(bytes)))
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn plain_gzip_multi_member_and_zstd_read_the_same() {
        assert_eq!(read_all(TEXT.to_vec()), TEXT);
        let gz = |part: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(part).unwrap();
            e.finish().unwrap()
        };
        assert_eq!(read_all(gz(TEXT)), TEXT);
        // `cat a.gz b.gz` is one gzip stream of two members.
        let mut two = gz(&TEXT[..10]);
        two.extend(gz(&TEXT[10..]));
        assert_eq!(read_all(two), TEXT);
        assert_eq!(read_all(zstd::encode_all(TEXT, 3).unwrap()), TEXT);
    }

    #[test]
    fn a_corrupt_stream_is_an_error_not_a_panic() {
        let mut gz = Vec::from(GZIP_MAGIC);
        gz.extend_from_slice(b"\x08\x00garbage");
        let mut out = Vec::new();
        let r =
            decompressed(Box::new(io::Cursor::new(gz))).and_then(|mut d| d.read_to_end(&mut out));
        assert!(r.is_err());
        let mut zst = Vec::from(ZSTD_MAGIC);
        zst.extend_from_slice(b"garbage");
        let r =
            decompressed(Box::new(io::Cursor::new(zst))).and_then(|mut d| d.read_to_end(&mut out));
        assert!(r.is_err());
    }

    fn read_as(bytes: &[u8], named: Option<Compression>, encoding: Encoding) -> io::Result<String> {
        let mut out = String::new();
        open(Box::new(io::Cursor::new(bytes.to_vec())), named, encoding)?
            .read_to_string(&mut out)?;
        Ok(out)
    }

    #[test]
    fn latin1_and_utf16_are_read_as_utf8() {
        assert_eq!(
            read_as(b"Jos\xe9 \xff", None, Encoding::Latin1).unwrap(),
            "José ÿ"
        );
        let text = "[Red \"José 🎲\"]\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        // Recognised by the byte-order mark, or named.
        assert_eq!(read_as(&le, None, Encoding::Auto).unwrap(), text);
        assert_eq!(read_as(&be, None, Encoding::Auto).unwrap(), text);
        assert_eq!(read_as(&le[2..], None, Encoding::Utf16Le).unwrap(), text);
        // Compressed UTF-16.
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&le).unwrap();
            e.finish().unwrap()
        };
        assert_eq!(read_as(&gz, None, Encoding::Auto).unwrap(), text);
        // A lone surrogate: its WTF-8 bytes, not UTF-8 (the reader says
        // invalid-utf8 there); an odd last byte: U+FFFD.
        let bad = [0x00, 0xD8, 0x41, 0x00, 0x42];
        let mut got = Vec::new();
        open(
            Box::new(io::Cursor::new(bad.to_vec())),
            None,
            Encoding::Utf16Le,
        )
        .unwrap()
        .read_to_end(&mut got)
        .unwrap();
        assert_eq!(got, b"\xED\xA0\x80A\xEF\xBF\xBD");
        assert!(std::str::from_utf8(&got).is_err());
    }

    #[test]
    fn utf16_split_anywhere_reads_the_same() {
        // One byte at a time: code units and surrogate pairs cut in two.
        struct Trickle(Vec<u8>, usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.1 == self.0.len() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[self.1];
                self.1 += 1;
                Ok(1)
            }
        }
        let text = "a🎲é\n🎲";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let inner: Input = Box::new(BufReader::with_capacity(1, Trickle(le, 0)));
        let mut out = String::new();
        transcoded(inner, Encoding::Utf16Le)
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn a_named_compression_without_its_magic_is_an_error() {
        let e = read_as(
            b"[Game \"x\"]\n*\n",
            Some(Compression::Zstd),
            Encoding::Auto,
        )
        .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("not a zstd stream"), "{e}");
        assert!(read_as(b"x", Some(Compression::Gzip), Encoding::Auto).is_err());
        // Named right: read.
        let zst = zstd::encode_all(&b"abc"[..], 3).unwrap();
        assert_eq!(
            read_as(&zst, Some(Compression::Zstd), Encoding::Auto).unwrap(),
            "abc"
        );
    }

    #[test]
    fn pzstd_frames_behind_skippable_frames_are_zstd() {
        // What pzstd writes: a skippable frame before each zstd frame.
        let mut bytes = Vec::new();
        for part in [&b"first half, "[..], &b"second half"[..]] {
            bytes.extend([0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);
            bytes.extend(zstd::encode_all(part, 3).unwrap());
        }
        assert_eq!(sniff(&bytes), Compression::Zstd);
        assert_eq!(
            read_as(&bytes, Some(Compression::Zstd), Encoding::Auto).unwrap(),
            "first half, second half"
        );
    }

    #[test]
    fn empty_and_tiny_inputs_are_plain() {
        assert_eq!(read_all(Vec::new()), b"");
        assert_eq!(read_all(vec![0x1f]), vec![0x1f]);
    }
}
