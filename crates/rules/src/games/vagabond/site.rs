//! The Garden Gate's move strings: `0H.L(0,-6);0G.L(2,6);…`, numbered from
//! 0, Host and the Guest turn after it sharing a number.

use super::notation::Move;
use super::position::Position;
use super::Vagabond;
use crate::game::{MoveFacts, Side, SiteFiles, SiteFormat, SiteNotation};

/// `0H.…` / `12G.…`: a Garden Gate turn.
pub fn looks_garden_gate(token: &[u8]) -> bool {
    let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && matches!(token.get(digits..digits + 2), Some([b'H' | b'G', b'.']))
}

impl SiteNotation for Vagabond {
    const SITE: SiteFormat = SiteFormat {
        name: "gardengate",
        title: "Vagabond games as The Garden Gate's `;`-joined move strings",
        example: "0H.L(0,-6)",
        tags: &[],
        separator: ";",
        commas: false,
        game_start: Some("0H."),
        recognizes: looks_garden_gate,
        files: SiteFiles::Links {
            game_type: 2,
            options: "Options",
        },
    };

    /// The turn as The Garden Gate writes it: `0H.L(0,-6)`.
    fn site_move(before: &Position, _: &Move, _: &Position, facts: &MoveFacts) -> String {
        let player = match before.to_move {
            Side::First => 'H',
            Side::Second => 'G',
        };
        format!("{}{player}.{}", before.turn / 2, facts.canonical)
    }
}
