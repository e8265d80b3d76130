//! Algebraic square names for rectangular boards (Oshi, Retsami, Roshi):
//! files `a`.. from the left, ranks `1`.. from the bottom; uppercase
//! accepted on input.

use std::fmt::Write;

/// Reads a square on a board of `files` × `ranks` (at most 26 × 99) as
/// 0-based (file, rank).
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<(u8, u8)> {
    let bytes = text.as_bytes();
    let (&f, digits) = bytes.split_first()?;
    if !f.is_ascii_alphabetic()
        || digits.is_empty()
        || digits.len() > 2
        || digits[0] == b'0'
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let file = f.to_ascii_lowercase() - b'a';
    let rank: u8 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    (file < files && (1..=ranks).contains(&rank)).then_some((file, rank - 1))
}

/// Writes a 0-based (file, rank) as `e3`.
pub fn write_square(file: u8, rank: u8, out: &mut String) {
    let _ = write!(out, "{}{}", (b'a' + file) as char, rank + 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_on_boards_of_every_size() {
        for size in [7u8, 9, 19] {
            for file in 0..size {
                for rank in 0..size {
                    let mut s = String::new();
                    write_square(file, rank, &mut s);
                    assert_eq!(parse_square(&s, size, size), Some((file, rank)), "{s}");
                    assert_eq!(
                        parse_square(&s.to_uppercase(), size, size),
                        Some((file, rank))
                    );
                }
            }
        }
        for bad in ["j1", "a0", "a10", "", "e", "3e", "a01", "é3"] {
            assert_eq!(parse_square(bad, 9, 9), None, "{bad}");
        }
        assert_eq!(parse_square("s19", 19, 19), Some((18, 18)));
    }
}
