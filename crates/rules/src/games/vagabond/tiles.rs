//! Tiles, their codes, and the reserves (with the two game options).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    L,
    S,
    B,
    W,
    C,
    F,
    D,
    Y,
}

impl Code {
    pub const ALL: [Code; 8] = [
        Code::L,
        Code::S,
        Code::B,
        Code::W,
        Code::C,
        Code::F,
        Code::D,
        Code::Y,
    ];

    pub fn letter(self) -> char {
        match self {
            Code::L => 'L',
            Code::S => 'S',
            Code::B => 'B',
            Code::W => 'W',
            Code::C => 'C',
            Code::F => 'F',
            Code::D => 'D',
            Code::Y => 'Y',
        }
    }

    pub fn from_letter(c: char) -> Option<Code> {
        Code::ALL.into_iter().find(|k| k.letter() == c)
    }

    pub fn name(self) -> &'static str {
        match self {
            Code::L => "White Lotus",
            Code::S => "Sky Bison",
            Code::B => "Badgermole",
            Code::W => "Wheel",
            Code::C => "Chrysanthemum",
            Code::F => "Fire Lily",
            Code::D => "White Dragon",
            Code::Y => "Flying Lemur",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// L, C and F.
    pub fn is_flower(self) -> bool {
        matches!(self, Code::L | Code::C | Code::F)
    }

    /// S, W, D and Y.
    pub fn can_capture(self) -> bool {
        matches!(self, Code::S | Code::W | Code::D | Code::Y)
    }

    /// S and Y deploy on gates and are frozen by an enemy Chrysanthemum.
    pub fn is_flyer(self) -> bool {
        matches!(self, Code::S | Code::Y)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: crate::game::Side,
    pub code: Code,
}

/// The `Options` tag: `DoubleTiles`, `SwapBisonWithLemur`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    pub double_tiles: bool,
    pub lemur: bool,
}

impl Options {
    /// A player's reserve at the start, by code index.
    pub fn reserve(self) -> [u8; 8] {
        let k = if self.double_tiles { 2 } else { 1 };
        let mut r = [0u8; 8];
        r[Code::L.index()] = 1;
        r[if self.lemur { Code::Y } else { Code::S }.index()] = 2 * k;
        r[Code::B.index()] = 2 * k;
        r[Code::W.index()] = 2 * k;
        r[Code::C.index()] = 2 * k;
        r[Code::F.index()] = k;
        r[Code::D.index()] = k;
        r
    }

    pub fn parse(text: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part.to_ascii_lowercase().as_str() {
                "doubletiles" => o.double_tiles = true,
                "swapbisonwithlemur" => o.lemur = true,
                _ => return Err(format!("unknown option `{part}`")),
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserves_hold_11_or_21_tiles() {
        let total = |o: Options| o.reserve().iter().map(|&n| n as u32).sum::<u32>();
        assert_eq!(total(Options::default()), 11);
        let double = Options {
            double_tiles: true,
            lemur: false,
        };
        assert_eq!(total(double), 21);
        assert_eq!(double.reserve()[Code::L.index()], 1);
        let lemur = Options::parse("SwapBisonWithLemur").unwrap();
        assert_eq!(lemur.reserve()[Code::Y.index()], 2);
        assert_eq!(lemur.reserve()[Code::S.index()], 0);
        assert!(
            Options::parse("DoubleTiles, SwapBisonWithLemur")
                .unwrap()
                .double_tiles
        );
        assert!(Options::parse("Chess").is_err());
    }
}
