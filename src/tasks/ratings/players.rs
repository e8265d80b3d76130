//! Players' names: normalised (spaces trimmed and runs of white space made
//! one space; compared without case) and merged by an alias file, so that
//! `ana  Lopez` and `Ana Lopez` are one player.

use crate::io::sources::read_side_file;
use std::collections::HashMap;
use std::path::Path;

/// A side tag's value as a player's name: trimmed, runs of white space
/// (and control characters) made one space; `None` when nothing is left
/// or it is a placeholder (`?`, `-`).
pub(crate) fn normalise(value: &str) -> Option<String> {
    let mut out = String::with_capacity(value.len());
    for word in value
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (!out.is_empty() && out != "?" && out != "-").then_some(out)
}

/// The key a name is compared by: its normal form without case.
fn key(name: &str) -> String {
    name.to_lowercase()
}

/// The players met so far, numbered in order of first appearance, and the
/// aliases that merge spellings.
#[derive(Debug, Default)]
pub struct Players {
    names: Vec<String>,
    ids: HashMap<String, u32>,
    /// Alias key → the name it stands for.
    aliases: HashMap<String, String>,
    /// The alias file's spelling of each name it gives, by key.
    shown: HashMap<String, String>,
}

/// A line of an alias file that could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct AliasError {
    pub line: usize,
    pub message: String,
}

impl Players {
    /// The players merged by the alias file at `path` (`--alias`; none:
    /// no merging), or why it cannot be read: `PATH: why`, `PATH:LINE: why`.
    pub fn from_alias_file(path: Option<&Path>) -> Result<Players, String> {
        let Some(path) = path else {
            return Ok(Players::default());
        };
        let text = read_side_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Players::with_aliases(&text)
            .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.message))
    }

    /// Players merged by an alias file's text: a line `SPELLING => NAME`
    /// makes SPELLING (compared without case) the player NAME; blank lines
    /// and lines starting with `#` are skipped.
    pub(crate) fn with_aliases(text: &str) -> Result<Players, AliasError> {
        let mut players = Players::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fail = |message: &str| AliasError {
                line: i + 1,
                message: message.to_string(),
            };
            let (from, to) = line
                .split_once("=>")
                .ok_or_else(|| fail("expected `SPELLING => NAME`"))?;
            players.alias(from, to).map_err(|m| fail(&m))?;
        }
        // A chain (`A => B`, `B => C`) files A under C; a loop is refused,
        // at the line that closes it.
        for (i, line) in text.lines().enumerate() {
            let Some((from, _)) = line.split_once("=>") else {
                continue;
            };
            if let Some(from) = normalise(from).filter(|_| !line.trim().starts_with('#')) {
                players.resolve(&from).map_err(|message| AliasError {
                    line: i + 1,
                    message,
                })?;
            }
        }
        Ok(players)
    }

    /// The name `name` stands for, aliases followed to the end of their
    /// chain; an error naming the loop where they go round.
    fn resolve<'a>(&'a self, name: &'a str) -> Result<&'a str, String> {
        let mut at = name;
        let mut seen = vec![key(name)];
        while let Some(next) = self.aliases.get(&key(at)) {
            let k = key(next);
            if k == key(at) {
                // `ana => Ana`: a spelling of itself.
                return Ok(next);
            }
            if seen.contains(&k) {
                return Err(format!(
                    "aliases go round in a loop: {} => {next}",
                    seen.join(" => ")
                ));
            }
            seen.push(k);
            at = next;
        }
        Ok(at)
    }

    /// Makes `from` (compared without case) the player `to`.
    pub fn alias(&mut self, from: &str, to: &str) -> Result<(), String> {
        let (Some(from), Some(to)) = (normalise(from), normalise(to)) else {
            return Err("a spelling or a name is empty".into());
        };
        if let Some(old) = self.aliases.get(&key(&from)) {
            if key(old) != key(&to) {
                return Err(format!("`{from}` is already an alias of `{old}`"));
            }
        }
        self.shown.entry(key(&to)).or_insert_with(|| to.clone());
        self.aliases.insert(key(&from), to);
        Ok(())
    }

    /// The number of the player a (normalised) name stands for, a new one
    /// for a name not met before.
    pub fn id(&mut self, name: &str) -> u32 {
        // Loops were refused when the aliases were read; one made since
        // (`alias` alone) leaves the name as it is.
        let name = self.resolve(name).unwrap_or(name).to_string();
        let name = name.as_str();
        let k = key(name);
        if let Some(&id) = self.ids.get(&k) {
            return id;
        }
        let id = self.names.len() as u32;
        let shown = self.shown.get(&k).map_or(name, String::as_str);
        self.names.push(shown.to_string());
        self.ids.insert(k, id);
        id
    }

    /// A player's name: the alias file's, else the first spelling met.
    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_compared_without_case_and_merged_by_aliases() {
        assert_eq!(normalise("  Ana \t Lopez "), Some("Ana Lopez".into()));
        assert_eq!(normalise(" ? "), None);
        assert_eq!(normalise(""), None);
        let mut p =
            Players::with_aliases("# aliases\nalopez => Ana Lopez\n\nAL => ana lopez\n").unwrap();
        let a = p.id("ana lopez");
        assert_eq!(p.id("ALOPEZ"), a);
        assert_eq!(p.id("al"), a);
        assert_eq!(p.id("Ana LOPEZ"), a);
        assert_ne!(p.id("Ben"), a);
        assert_eq!(p.name(a), "Ana Lopez");
        assert_eq!(p.len(), 2);
        let bad = Players::with_aliases("x => y\nno arrow here\n").unwrap_err();
        assert_eq!(bad.line, 2);
        let twice = Players::with_aliases("x => y\nX => z\n").unwrap_err();
        assert_eq!(twice.line, 2);
    }

    #[test]
    fn alias_chains_are_followed_and_loops_refused() {
        // A chain files A under C (it filed A under B).
        let mut p = Players::with_aliases("A => B\nB => C\n").unwrap();
        let c = p.id("C");
        assert_eq!(p.id("A"), c);
        assert_eq!(p.id("b"), c);
        assert_eq!(p.name(c), "C");
        // A loop is refused (it swapped two players' records).
        let e = Players::with_aliases("A => B\nB => A\n").unwrap_err();
        assert!(e.message.contains("loop"), "{e:?}");
        let e = Players::with_aliases("a => b\nb => c\nc => A\n").unwrap_err();
        assert!(e.message.contains("loop"), "{e:?}");
        // A spelling of itself is no loop.
        let mut p = Players::with_aliases("ana lopez => Ana Lopez\n").unwrap();
        let a = p.id("ANA LOPEZ");
        assert_eq!(p.name(a), "Ana Lopez");
    }
}
