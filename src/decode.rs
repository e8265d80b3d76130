//! Transparent decompression: a gzip (`.gz`, also several members one after
//! another) or Zstandard (`.zst`) stream is recognised by its first bytes,
//! whatever the file is called, so stdin may be compressed too.

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
pub fn sniff(head: &[u8]) -> Compression {
    if head.starts_with(GZIP_MAGIC) {
        Compression::Gzip
    } else if head.starts_with(ZSTD_MAGIC) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// File name suffixes of compressed inputs (left off to find the format).
pub const SUFFIXES: &[&str] = &["gz", "zst"];

/// `raw`, decompressed when it starts like a gzip or Zstandard stream.
pub fn decompressed(raw: Box<dyn Read + Send>) -> io::Result<Input> {
    let mut raw = BufReader::with_capacity(BUFFER, raw);
    let mut head = [0u8; 4];
    let n = peek(&mut raw, &mut head)?;
    Ok(match sniff(&head[..n]) {
        Compression::None => Box::new(raw),
        Compression::Gzip => Box::new(BufReader::with_capacity(BUFFER, MultiGzDecoder::new(raw))),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUFFER,
            zstd::stream::read::Decoder::with_buffer(raw)?,
        )),
    })
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

    #[test]
    fn empty_and_tiny_inputs_are_plain() {
        assert_eq!(read_all(Vec::new()), b"");
        assert_eq!(read_all(vec![0x1f]), vec![0x1f]);
    }
}
