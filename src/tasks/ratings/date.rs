//! A game's `Date` tag, read for ordering: `YYYY.MM.DD` as PGN writes it,
//! `YYYY-MM-DD` (an ISO date or time, as AbstractPlay's records hold) or
//! `YYYY/MM/DD`; a part written `??` (or absent) is unknown and orders
//! before every known one.

use std::fmt;

/// Year, month and day; 0 for an unknown month or day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// Reads a `Date` tag's value; `None` when its year is not four digits
    /// or a known part is out of range.
    pub fn read(text: &str) -> Option<Date> {
        let text = text.trim();
        let b = text.as_bytes();
        let digits = |from: usize, n: usize| -> Option<Option<u32>> {
            let part = b.get(from..from + n)?;
            if part.iter().all(|&c| c == b'?') {
                return Some(None);
            }
            if !part.iter().all(u8::is_ascii_digit) {
                return None;
            }
            Some(Some(
                part.iter().fold(0, |v, &c| v * 10 + u32::from(c - b'0')),
            ))
        };
        let year = digits(0, 4)??;
        let sep = |at: usize| matches!(b.get(at), Some(b'.' | b'-' | b'/'));
        // Each part ends the text or is followed by a separator (a day by
        // an ISO time's `T` or a space): `99999.01.01` is no date.
        let ends = |at: usize, more: &[u8]| b.get(at).is_none_or(|c| more.contains(c));
        if !ends(4, b".-/") {
            return None;
        }
        let month = if sep(4) { digits(5, 2)? } else { None };
        if sep(4) && !ends(7, b".-/") {
            return None;
        }
        let day = if sep(4) && sep(7) {
            digits(8, 2)?
        } else {
            None
        };
        if sep(4) && sep(7) && !ends(10, b"T ") {
            return None;
        }
        if year == 0 || month.is_some_and(|m| !(1..=12).contains(&m)) {
            return None;
        }
        // A day the month has (February's 29th in leap years only); with
        // the month unknown, any of 1 to 31.
        let longest = month.map_or(31, |m| days_in(year, m));
        if day.is_some_and(|d| !(1..=longest).contains(&d)) {
            return None;
        }
        Some(Date {
            year: year as u16,
            month: month.unwrap_or(0) as u8,
            day: day.unwrap_or(0) as u8,
        })
    }

    /// Days since 1970-01-01 (an unknown month or day read as the first).
    pub(crate) fn days(self) -> i64 {
        let (y, m, d) = (
            i64::from(self.year),
            i64::from(self.month.max(1)),
            i64::from(self.day.max(1)),
        );
        // Howard Hinnant's days_from_civil.
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }
}

/// The days of month `m` (1–12) of `year`.
fn days_in(year: u32, m: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `2026-11-25`, `2026-11-??`, `2026-??-??`.
impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        for part in [self.month, self.day] {
            match part {
                0 => f.write_str("-??")?,
                n => write!(f, "-{n:02}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_in_every_spelling_and_order_unknown_parts_first() {
        let d = |t| Date::read(t);
        assert_eq!(d("2026.11.25"), d("2026-11-25"));
        assert_eq!(d("2026-11-25T10:00:00Z"), d("2026/11/25"));
        assert_eq!(d("2026.11.25").unwrap().to_string(), "2026-11-25");
        assert_eq!(d("2026.??.??").unwrap().to_string(), "2026-??-??");
        assert!(d("2026.??.??") < d("2026.01.01"));
        assert!(d("2025.12.31") < d("2026.01.01"));
        for bad in [
            "????.??.??",
            "26.11.25",
            "2026.13.01",
            "2026.11.32",
            "",
            "soon",
            // A fifth digit of year, a third of month or day, days the
            // month lacks.
            "99999.01.01",
            "2026.011.01",
            "2026.01.011",
            "2026/02/31",
            "2026.04.31",
            "2025.02.29",
        ] {
            assert_eq!(d(bad), None, "{bad}");
        }
        assert_eq!(d("2024.02.29").unwrap().to_string(), "2024-02-29");
        assert_eq!(d("2000.02.29").unwrap().to_string(), "2000-02-29");
        assert_eq!(d("1900.02.29"), None);
        assert_eq!(d("2026.??.31").unwrap().to_string(), "2026-??-31");
        assert_eq!(d("1970.01.01").unwrap().days(), 0);
        assert_eq!(d("2000.03.01").unwrap().days(), 11_017);
        assert_eq!(d("1969.12.31").unwrap().days(), -1);
    }
}
