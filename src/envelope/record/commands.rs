//! Comment commands: `[%name value]` inside a comment, in the manner of
//! PGN tools (`{[%eval 0.17] a good move}`). A comment keeps every command;
//! these functions find them and take out the ones a writer replaces.

/// The commands in a comment, in order: `(name, value)`, the value
/// trimmed (`[%clk 0:05:00]` → `("clk", "0:05:00")`). Text that is not a
/// whole command is no command.
pub fn commands(comment: &str) -> Vec<(&str, &str)> {
    spans(comment)
        .map(|(start, end)| split(&comment[start + 2..end - 1]))
        .collect()
}

/// The comment without the commands named in `names`, and whether any was
/// there; the space a command stood in is closed up (white space trimmed
/// at both ends).
pub fn without(comment: &str, names: &[&str]) -> (String, bool) {
    let mut out = String::with_capacity(comment.len());
    let mut last = 0;
    let mut found = false;
    for (start, end) in spans(comment) {
        let (name, _) = split(&comment[start + 2..end - 1]);
        if names.contains(&name) {
            out.push_str(&comment[last..start]);
            last = end;
            found = true;
        }
    }
    if !found {
        return (comment.to_string(), false);
    }
    out.push_str(&comment[last..]);
    let closed = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // Line breaks inside kept text are kept where nothing was taken out.
    let kept = match out.trim() == closed {
        true => closed,
        false => out.trim().to_string(),
    };
    (kept, true)
}

/// Where each `[%…]` stands: (start, end past its `]`).
fn spans(comment: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        let start = from + comment[from..].find("[%")?;
        let end = start + comment[start..].find(']')? + 1;
        from = end;
        Some((start, end))
    })
}

/// `name value` → (`name`, `value`).
fn split(inner: &str) -> (&str, &str) {
    let inner = inner.trim();
    match inner.split_once(char::is_whitespace) {
        Some((name, value)) => (name, value.trim()),
        None => (inner, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_commands_among_text() {
        let c = "a fine move [%eval 0.17] [%clk 0:05:00] and [%mark blunder,missed-win]";
        assert_eq!(
            commands(c),
            [
                ("eval", "0.17"),
                ("clk", "0:05:00"),
                ("mark", "blunder,missed-win")
            ]
        );
        assert_eq!(commands("no [command here] [%unclosed"), []);
        assert_eq!(commands("[%flag]"), [("flag", "")]);
    }

    #[test]
    fn takes_out_only_the_named_commands() {
        let (kept, found) = without("[%value W3] good [%clk 1:00] [%win 0.5]", &["value", "win"]);
        assert_eq!((kept.as_str(), found), ("good [%clk 1:00]", true));
        let (kept, found) = without("[%value W3] [%win 0.5]", &["value", "win"]);
        assert_eq!((kept.as_str(), found), ("", true));
        let (kept, found) = without("two\nlines [%clk 1:00]", &["value"]);
        assert_eq!((kept.as_str(), found), ("two\nlines [%clk 1:00]", false));
    }
}
