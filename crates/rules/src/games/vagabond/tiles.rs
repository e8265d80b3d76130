//! Tiles, their codes, and the reserves (with the two game options).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileCode {
    L,
    S,
    B,
    W,
    C,
    F,
    D,
    Y,
}

impl TileCode {
    pub const ALL: [TileCode; 8] = [
        TileCode::L,
        TileCode::S,
        TileCode::B,
        TileCode::W,
        TileCode::C,
        TileCode::F,
        TileCode::D,
        TileCode::Y,
    ];

    pub fn letter(self) -> char {
        match self {
            TileCode::L => 'L',
            TileCode::S => 'S',
            TileCode::B => 'B',
            TileCode::W => 'W',
            TileCode::C => 'C',
            TileCode::F => 'F',
            TileCode::D => 'D',
            TileCode::Y => 'Y',
        }
    }

    pub fn from_letter(c: char) -> Option<TileCode> {
        TileCode::ALL.into_iter().find(|k| k.letter() == c)
    }

    pub fn name(self) -> &'static str {
        match self {
            TileCode::L => "White Lotus",
            TileCode::S => "Sky Bison",
            TileCode::B => "Badgermole",
            TileCode::W => "Wheel",
            TileCode::C => "Chrysanthemum",
            TileCode::F => "Fire Lily",
            TileCode::D => "White Dragon",
            TileCode::Y => "Flying Lemur",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// L, C and F.
    pub fn is_flower(self) -> bool {
        matches!(self, TileCode::L | TileCode::C | TileCode::F)
    }

    /// S, W, D and Y.
    pub fn can_capture(self) -> bool {
        matches!(self, TileCode::S | TileCode::W | TileCode::D | TileCode::Y)
    }

    /// S and Y deploy on gates and are frozen by an enemy Chrysanthemum.
    pub fn is_flyer(self) -> bool {
        matches!(self, TileCode::S | TileCode::Y)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub owner: crate::game::Side,
    pub code: TileCode,
}

/// The `Options` tag: `DoubleTiles`, `SwapBisonWithLemur`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TileOptions {
    pub double_tiles: bool,
    pub lemur: bool,
}

impl TileOptions {
    /// A player's reserve at the start, by code index.
    pub fn reserve(self) -> [u8; 8] {
        let k = if self.double_tiles { 2 } else { 1 };
        let mut r = [0u8; 8];
        r[TileCode::L.index()] = 1;
        r[if self.lemur { TileCode::Y } else { TileCode::S }.index()] = 2 * k;
        r[TileCode::B.index()] = 2 * k;
        r[TileCode::W.index()] = 2 * k;
        r[TileCode::C.index()] = 2 * k;
        r[TileCode::F.index()] = k;
        r[TileCode::D.index()] = k;
        r
    }

    pub fn parse(text: &str) -> Result<TileOptions, String> {
        let mut o = TileOptions::default();
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
        let total = |o: TileOptions| o.reserve().iter().map(|&n| n as u32).sum::<u32>();
        assert_eq!(total(TileOptions::default()), 11);
        let double = TileOptions {
            double_tiles: true,
            lemur: false,
        };
        assert_eq!(total(double), 21);
        assert_eq!(double.reserve()[TileCode::L.index()], 1);
        let lemur = TileOptions::parse("SwapBisonWithLemur").unwrap();
        assert_eq!(lemur.reserve()[TileCode::Y.index()], 2);
        assert_eq!(lemur.reserve()[TileCode::S.index()], 0);
        assert!(
            TileOptions::parse("DoubleTiles, SwapBisonWithLemur")
                .unwrap()
                .double_tiles
        );
        assert!(TileOptions::parse("Chess").is_err());
    }
}
