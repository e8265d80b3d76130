//! [`Rendered`]: a game's output as a writer makes it — in memory, or past
//! [`SPILL`] bytes in a temporary file — so that a game of any length is
//! written without being held in memory, also while it waits its turn to be
//! written (the pipeline keeps the input's order).

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, Write};

/// Bytes kept in memory before the rest goes to a temporary file.
pub(crate) const SPILL: usize = 4 << 20;

/// A game's rendered output.
#[derive(Debug, Default)]
pub struct Rendered {
    mem: Vec<u8>,
    file: Option<BufWriter<File>>,
    len: usize,
    /// A temporary file could not be made: kept in memory after all.
    no_file: bool,
}

impl Rendered {
    pub fn new() -> Rendered {
        Rendered::default()
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.push_bytes(s.as_bytes());
    }

    #[inline]
    pub fn push(&mut self, c: char) {
        let mut tmp = [0u8; 4];
        self.push_str(c.encode_utf8(&mut tmp));
    }

    #[inline]
    pub(crate) fn push_bytes(&mut self, b: &[u8]) {
        // The common case: in memory, well below SPILL.
        if self.file.is_none() && self.mem.len() + b.len() <= SPILL {
            self.len += b.len();
            self.mem.extend_from_slice(b);
            return;
        }
        self.push_spilling(b);
    }

    #[cold]
    fn push_spilling(&mut self, b: &[u8]) {
        self.len += b.len();
        // Spill before a piece that would take the memory past SPILL, so
        // that one large piece (a 10 MB token) never sits in memory too.
        if self.file.is_none() && !self.no_file && self.mem.len() + b.len() > SPILL {
            match tempfile::tempfile() {
                Ok(f) => {
                    let mut f = BufWriter::with_capacity(1 << 16, f);
                    let _ = f.write_all(&self.mem);
                    self.mem = Vec::new();
                    self.file = Some(f);
                }
                Err(_) => self.no_file = true,
            }
        }
        if let Some(f) = &mut self.file {
            // A failure to write the temporary file is found when it is
            // read back (the length is then wrong): see `write_to`.
            let _ = f.write_all(b);
            return;
        }
        self.mem.extend_from_slice(b);
    }

    /// Writes the output to `out`, the first `skip` bytes left out and
    /// every `mark` byte replaced by `with` (a value known only when the
    /// game is written, like its index).
    pub fn write_to(
        self,
        out: &mut dyn Write,
        skip: usize,
        mark: Option<(u8, &[u8])>,
    ) -> io::Result<()> {
        let put = |out: &mut dyn Write, bytes: &[u8]| -> io::Result<()> {
            match mark {
                None => out.write_all(bytes),
                Some((m, with)) => {
                    let mut rest = bytes;
                    while let Some(i) = memchr::memchr(m, rest) {
                        out.write_all(&rest[..i])?;
                        out.write_all(with)?;
                        rest = &rest[i + 1..];
                    }
                    out.write_all(rest)
                }
            }
        };
        match self.file {
            None => put(out, &self.mem[skip.min(self.mem.len())..]),
            Some(f) => {
                let mut f = f.into_inner().map_err(|e| e.into_error())?;
                f.rewind()?;
                let mut buf = vec![0u8; 1 << 16];
                let (mut left_to_skip, mut total) = (skip, 0);
                loop {
                    let n = f.read(&mut buf)?;
                    if n == 0 {
                        break;
                    }
                    total += n;
                    let from = left_to_skip.min(n);
                    left_to_skip -= from;
                    put(out, &buf[from..n])?;
                }
                if total != self.len {
                    return Err(io::Error::other(
                        "a temporary file holding a game's output could not be written whole",
                    ));
                }
                Ok(())
            }
        }
    }

    /// The output as text (a writer's output is UTF-8).
    pub fn into_string(self) -> String {
        let mut v = Vec::with_capacity(self.len);
        self.write_to(&mut v, 0, None)
            .expect("reading back a temporary file");
        String::from_utf8(v).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

impl Write for Rendered {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.push_bytes(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_output_goes_to_a_file_and_comes_back_whole() {
        let mut r = Rendered::new();
        let line = "0123456789abcdef\n".repeat(1000);
        for _ in 0..400 {
            r.push_str(&line);
        }
        assert!(r.file.is_some(), "spilled past {SPILL} bytes");
        assert!(r.mem.is_empty());
        let expected = line.repeat(400);
        assert_eq!(r.len(), expected.len());
        let mut out = Vec::new();
        r.write_to(&mut out, 3, None).unwrap();
        assert_eq!(out, expected.as_bytes()[3..]);
    }

    #[test]
    fn marks_are_replaced_as_it_is_written() {
        let mut r = Rendered::new();
        r.push_bytes(b"a,\xFF,b\nc,\xFF,d\n");
        let mut out = Vec::new();
        r.write_to(&mut out, 0, Some((0xFF, b"17"))).unwrap();
        assert_eq!(out, b"a,17,b\nc,17,d\n");
    }
}
