//! LZ-String's URI-safe decompression with a cap on what it makes.
//!
//! A Garden Gate link's payload is LZ-String compressed, and LZ-String,
//! like every LZ78 variant, lets each code name a dictionary entry one
//! character longer than the last: K codes can make K²/2 characters, and a
//! dictionary that copies every entry holds as much again. Here an entry is
//! held as a link to the entry it extends and its last character (a trie),
//! so the dictionary grows with the payload, not with what it decompresses
//! to, and the output stops at `cap` UTF-16 units with [`Unpacked::TooLarge`].
//! Everything else is the `lz-str` crate's `decompress_from_encoded_uri_component`
//! (which has no cap), bit for bit: the tests compare the two.

/// The URI-safe alphabet: six bits a character (`$`, the 65th, reads as
/// 64, whose bits lie past the six read).
const URI_KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

/// What a payload decompresses to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unpacked {
    /// The UTF-16 units.
    Done(Vec<u16>),
    /// Not LZ-String data (a code past the dictionary, data ending early).
    Broken,
    /// It would make more than the cap's units; decoding stopped there.
    TooLarge,
}

/// One dictionary entry: the entry it extends (`NONE` for a single
/// character), its last and first characters, its length.
#[derive(Clone, Copy)]
struct Entry {
    prefix: u32,
    last: u16,
    first: u16,
    len: u32,
}

const NONE: u32 = u32::MAX;

/// The bits of the payload's characters, read as LZ-String reads them.
struct Bits<I> {
    chars: I,
    val: u16,
    position: u16,
}

impl<I: Iterator<Item = u16>> Bits<I> {
    fn bit(&mut self) -> Option<u32> {
        let bit = u32::from(self.val & self.position != 0);
        self.position >>= 1;
        if self.position == 0 {
            self.position = 32;
            self.val = self.chars.next()?;
        }
        Some(bit)
    }

    fn bits(&mut self, n: u8) -> Option<u32> {
        let mut value = 0;
        for i in 0..n {
            value |= self.bit()? << i;
        }
        Some(value)
    }
}

/// Decompresses `payload` (LZ-String's `compressToEncodedURIComponent`
/// form; characters outside its alphabet are skipped, a space read as
/// `+`), stopping past `cap` units.
pub(crate) fn decompress_uri(payload: &str, cap: usize) -> Unpacked {
    let mut chars = payload.bytes().filter_map(|b| {
        let b = if b == b' ' { b'+' } else { b };
        URI_KEY.iter().position(|&k| k == b).map(|n| n as u16)
    });
    let Some(val) = chars.next() else {
        return Unpacked::Done(Vec::new());
    };
    let mut bits = Bits {
        chars,
        val,
        position: 32,
    };
    match unpack(&mut bits, cap) {
        Ok(units) => Unpacked::Done(units),
        Err(e) => e,
    }
}

fn unpack<I: Iterator<Item = u16>>(bits: &mut Bits<I>, cap: usize) -> Result<Vec<u16>, Unpacked> {
    let broken = || Unpacked::Broken;
    let single = |c: u16| Entry {
        prefix: NONE,
        last: c,
        first: c,
        len: 1,
    };
    let mut dict: Vec<Entry> = (0..3).map(single).collect();
    let first = match bits.bits(2).ok_or_else(broken)? {
        code @ (0 | 1) => bits.bits(8 + 8 * code as u8).ok_or_else(broken)? as u16,
        2 => return Ok(Vec::new()),
        _ => return Err(Unpacked::Broken),
    };
    dict.push(single(first));
    let mut w = dict.len() as u32 - 1;
    let mut out = vec![first];
    let (mut num_bits, mut enlarge_in) = (3u8, 4u64);
    loop {
        let mut code = bits.bits(num_bits).ok_or_else(broken)?;
        match code {
            0 | 1 => {
                let c = bits.bits(8 + 8 * code as u8).ok_or_else(broken)? as u16;
                dict.push(single(c));
                code = dict.len() as u32 - 1;
                enlarge_in -= 1;
            }
            2 => return Ok(out),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let wd = dict[w as usize];
        let entry_first = match dict.get(code as usize) {
            Some(e) => e.first,
            None if code as usize == dict.len() => wd.first,
            None => return Err(Unpacked::Broken),
        };
        // w + entry[0]: for the code one past the dictionary, this is the
        // entry itself (w + w[0]).
        dict.push(Entry {
            prefix: w,
            last: entry_first,
            first: wd.first,
            len: wd.len + 1,
        });
        emit(&dict, code, &mut out, cap)?;
        enlarge_in -= 1;
        w = code;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        // More codes than the cap allows entries cannot be real data (and
        // the next read would need more than 32 bits).
        if num_bits > 30 {
            return Err(Unpacked::TooLarge);
        }
    }
}

/// Appends entry `code` to `out`, walking its links back to front.
fn emit(dict: &[Entry], code: u32, out: &mut Vec<u16>, cap: usize) -> Result<(), Unpacked> {
    let len = dict[code as usize].len as usize;
    let start = out.len();
    if start + len > cap {
        return Err(Unpacked::TooLarge);
    }
    out.resize(start + len, 0);
    let mut at = code;
    for slot in out[start..].iter_mut().rev() {
        let e = dict[at as usize];
        *slot = e.last;
        at = e.prefix;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{decompress_uri, Unpacked};
    use gamerec_rules::random::{below, stream};

    fn theirs(payload: &str) -> Unpacked {
        match lz_str::decompress_from_encoded_uri_component(payload) {
            Some(units) => Unpacked::Done(units),
            None => Unpacked::Broken,
        }
    }

    #[test]
    fn compressed_text_decompresses_as_the_crate_does() {
        let mut rng = stream(11, 1);
        for round in 0..400 {
            let len = below(&mut rng, 300);
            let alphabet: Vec<char> = "ab;=&.1H(-3,4)éΩ🀄".chars().collect();
            let text: String = (0..len)
                .map(|_| alphabet[below(&mut rng, alphabet.len())])
                .collect();
            let packed = lz_str::compress_to_encoded_uri_component(&text);
            let ours = decompress_uri(&packed, 1 << 20);
            assert_eq!(ours, theirs(&packed), "round {round}: {text}");
            assert_eq!(ours, Unpacked::Done(text.encode_utf16().collect()));
        }
    }

    #[test]
    fn garbage_fails_or_decompresses_as_the_crate_does() {
        let mut rng = stream(12, 1);
        let key = super::URI_KEY;
        for round in 0..4000 {
            let len = below(&mut rng, 40);
            let payload: String = (0..len)
                .map(|_| key[below(&mut rng, key.len())] as char)
                .collect();
            assert_eq!(
                decompress_uri(&payload, 1 << 20),
                theirs(&payload),
                "round {round}: {payload}"
            );
        }
    }

    #[test]
    fn a_growing_payload_stops_at_the_cap() {
        // Each code names the entry one past the dictionary: w + w[0], one
        // longer each time (tests/regression.rs has the whole link).
        let text = "a".repeat(5000);
        let packed = lz_str::compress_to_encoded_uri_component(&text);
        assert_eq!(decompress_uri(&packed, 4999), Unpacked::TooLarge);
        assert!(matches!(decompress_uri(&packed, 5000), Unpacked::Done(u) if u.len() == 5000));
    }
}
