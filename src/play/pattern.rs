//! Position patterns (`filter --pattern`): what stands on some cells of a
//! position, in one small language for every game — a cell's label (as the
//! game's pictures name its cells), and what is there: nothing, any piece,
//! any piece of one side, or one kind of piece named as the game's text
//! pictures name it (`R3`, an Oshi Red 3-story piece). The language and
//! each game's piece names: notation/pattern.md.

use crate::envelope::record::Tag;
use gamerec_rules::game::{Board, Notation, Picture, Piece, Side};

/// What a term asks of its cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// `-`: no piece.
    Empty,
    /// `*`: some piece.
    Any,
    /// `S*`: some piece of the side whose name starts with `S` (any case).
    Side(char),
    /// A piece with this text name (its glyph's ASCII name).
    Named(String),
}

/// One term: `CELL=WHAT`, or `!CELL=WHAT` (it must not hold).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub cell: String,
    pub want: Want,
    pub not: bool,
}

/// A pattern: every term holds at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub terms: Vec<Term>,
}

impl Pattern {
    /// Reads `a1=R3 e5=W* d4=- !c3=*`; says what is wrong with a term.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let terms = text
            .split_whitespace()
            .map(|t| {
                let (not, body) = match t.strip_prefix('!') {
                    Some(rest) => (true, rest),
                    None => (false, t),
                };
                let Some((cell, what)) = body.split_once('=') else {
                    return Err(format!("`{t}`: write CELL=WHAT (a1=R3, e5=W*, d4=-, c3=*)"));
                };
                if cell.is_empty() || what.is_empty() {
                    return Err(format!("`{t}`: a cell and what stands on it, both"));
                }
                // A cell is a label: letters and digits, or a point `(x,y)`.
                let label = |c: char| c.is_ascii_alphanumeric() || "(),-+".contains(c);
                if !cell.chars().all(label) {
                    return Err(format!(
                        "`{t}`: `{cell}` is not a cell's label (e5, A1, (0,-8)); one `!` at most"
                    ));
                }
                let want = match what {
                    "-" => Want::Empty,
                    "*" => Want::Any,
                    w if w.len() == 2 && w.ends_with('*') => {
                        Want::Side(w.chars().next().unwrap_or('?').to_ascii_lowercase())
                    }
                    w if w.contains(['*', '=']) => {
                        return Err(format!("`{t}`: `*` stands alone or after a side's initial"))
                    }
                    w => Want::Named(w.to_string()),
                };
                Ok(Term {
                    cell: cell.to_string(),
                    want,
                    not,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if terms.is_empty() {
            return Err("an empty pattern: give terms like a1=R3 d4=-".into());
        }
        Ok(Pattern { terms })
    }

    /// The pattern for game `G` on `board`; why not, when it names a cell
    /// the board lacks, or a piece or side the game does not have (no
    /// position of the game can match it).
    pub fn compile<G: Picture>(&self, board: &Board) -> Result<Compiled, String> {
        let terms = self
            .terms
            .iter()
            .map(|t| {
                let cell = (board.cells.iter())
                    .position(|c| c.label.eq_ignore_ascii_case(&t.cell))
                    .and_then(|c| u16::try_from(c).ok())
                    .ok_or_else(|| format!("no cell `{}` on the board", t.cell))?;
                let glyphs: u64 = match &t.want {
                    Want::Empty => 0,
                    Want::Any => u64::MAX,
                    Want::Side(initial) => {
                        let side = side_named::<G>(*initial).ok_or_else(|| {
                            format!(
                                "no side's name starts with `{initial}` ({})",
                                G::SIDES.join(", ")
                            )
                        })?;
                        mask::<G>(|g| g.side == Some(side))
                    }
                    Want::Named(name) => mask::<G>(|g| g.ascii == name),
                };
                if glyphs == 0 && t.want != Want::Empty {
                    let names: Vec<&str> = G::GLYPHS.iter().map(|g| g.ascii).collect();
                    return Err(format!(
                        "`{}` names no piece of the game (its pieces: {})",
                        t.cell.clone() + "=" + &want_text(&t.want),
                        names.join(" ")
                    ));
                }
                Ok((cell, glyphs, t.not))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Compiled { terms })
    }
}

fn want_text(w: &Want) -> String {
    match w {
        Want::Empty => "-".into(),
        Want::Any => "*".into(),
        Want::Side(c) => format!("{c}*"),
        Want::Named(n) => n.clone(),
    }
}

/// The side of `G` whose name starts with `initial` (lower case).
fn side_named<G: Picture>(initial: char) -> Option<Side> {
    let starts = |name: &str| name.chars().next().map(|c| c.to_ascii_lowercase()) == Some(initial);
    [Side::First, Side::Second]
        .into_iter()
        .find(|s| starts(G::SIDES[s.index()]))
}

/// The glyphs of `G` that `keep` keeps, as bits.
fn mask<G: Picture>(keep: impl Fn(&gamerec_rules::game::Glyph) -> bool) -> u64 {
    (G::GLYPHS.iter().enumerate().take(64))
        .filter(|(_, g)| keep(g))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// A pattern resolved against one game's board and pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// Per term: its cell, the glyphs that satisfy it (none: the cell must
    /// be empty), and whether it is negated.
    terms: Vec<(u16, u64, bool)>,
}

impl Compiled {
    /// Whether every term holds among `pieces` (a position's, as
    /// [`Picture::pieces`] lists them).
    pub fn holds(&self, pieces: &[Piece]) -> bool {
        self.terms.iter().all(|&(cell, glyphs, not)| {
            let mut here = pieces.iter().filter(|p| p.cell == cell);
            let met = match glyphs {
                0 => here.next().is_none(),
                g => here.any(|p| p.glyph < 64 && g & (1 << p.glyph) != 0),
            };
            met != not
        })
    }
}

/// The legal move of `pos` spelled `text` in the standard spelling
/// ([`Facts::spell_standard`]): read as the game reads a turn, or, where
/// the position names its cells otherwise (Iqishiqi under AbstractPlay's
/// labels), found among the legal moves.
fn standard_move<G: Notation + gamerec_rules::game::Facts>(
    pos: &G::Position,
    text: &str,
    spelled: &mut String,
    legal: &mut Vec<G::Move>,
) -> Result<G::Move, String> {
    if let Ok(mv) = G::parse_move(pos, text) {
        spelled.clear();
        G::spell_standard(&mv, spelled);
        if spelled == text {
            return Ok(mv);
        }
    }
    legal.clear();
    G::legal_moves(pos, legal);
    legal
        .drain(..)
        .find(|mv| {
            spelled.clear();
            G::spell_standard(mv, spelled);
            spelled == text
        })
        .ok_or_else(|| format!("{text}: no legal move is spelled so"))
}

/// The first ply after which a position of a game matches `pattern`
/// (0: its start): the game set up by `tags`, playing `turns` (standard
/// spellings, white space between — the position index's `turns`);
/// `Ok(None)` when none does; `Err` with why when the pattern cannot match
/// this game, or a turn cannot be replayed.
pub fn first_match<G: Picture + Notation + gamerec_rules::game::Facts>(
    pattern: &Pattern,
    tags: &[Tag],
    turns: &str,
) -> Result<Option<usize>, String> {
    let mut pos = G::start(tags).map_err(|e| format!("[{}]: {}", e.tag, e.message))?;
    let compiled = pattern.compile::<G>(&G::board(&pos))?;
    let mut pieces = Vec::new();
    let (mut spelled, mut legal) = (String::new(), Vec::new());
    for (ply, text) in std::iter::once("")
        .chain(turns.split_whitespace())
        .enumerate()
    {
        if ply > 0 {
            let mv = standard_move::<G>(&pos, text, &mut spelled, &mut legal)?;
            G::play(&mut pos, &mv).map_err(|e| format!("{text}: {e}"))?;
        }
        pieces.clear();
        G::pieces(&pos, &mut pieces);
        if compiled.holds(&pieces) {
            return Ok(Some(ply));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_read_as_written_and_mistakes_are_named() {
        let p = Pattern::parse("a1=R3 e5=W* d4=- !c3=*").unwrap();
        assert_eq!(
            p.terms,
            vec![
                Term {
                    cell: "a1".into(),
                    want: Want::Named("R3".into()),
                    not: false
                },
                Term {
                    cell: "e5".into(),
                    want: Want::Side('w'),
                    not: false
                },
                Term {
                    cell: "d4".into(),
                    want: Want::Empty,
                    not: false
                },
                Term {
                    cell: "c3".into(),
                    want: Want::Any,
                    not: true
                },
            ]
        );
        for bad in ["", "a1", "a1=", "=R3", "a1=R**", "a1=*R"] {
            assert!(Pattern::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_double_negation_or_a_cell_that_is_no_label_is_a_usage_error() {
        for bad in ["!!a1=*", "!a1!=R", "a*1=R", "a1=R3 é1=R"] {
            let e = Pattern::parse(bad).unwrap_err();
            assert!(e.contains("label"), "{bad:?}: {e}");
        }
        // Labels of every game still read.
        assert!(Pattern::parse("(0,-8)=L A1=o !e5=W* z9=R").is_ok());
    }
}
