//! Reading Rust source as the layering checks need it: comments and
//! literals masked, test code cut, `use` trees and paths written in full
//! found and resolved to the module they name. No parser crate: a small
//! scanner that knows Rust's lexical shapes (comments nest, raw strings,
//! char literals versus lifetimes) is all the checks need.

/// A file's code with the same byte offsets as the file: comments are
/// blanked (both versions), and in `masked` the contents of string and
/// char literals are blanked too, so that braces and `use` inside them are
/// not seen.
pub struct Code {
    /// Comments blanked, literals kept (for names written in strings).
    pub text: String,
    /// Comments and literals' contents blanked (for the structure).
    pub masked: String,
}

fn blank(out: &mut [u8], from: usize, to: usize) {
    for b in &mut out[from..to] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// The end of a string literal opening at `i` (at its `"`), raw or not
/// (`hashes` is `None` for a plain string).
fn string_end(b: &[u8], mut i: usize, hashes: Option<usize>) -> usize {
    i += 1;
    while i < b.len() {
        match (b[i], hashes) {
            (b'\\', None) => i += 2,
            (b'"', None) => return i + 1,
            (b'"', Some(n)) if b[i + 1..].iter().take(n).filter(|&&c| c == b'#').count() == n => {
                return i + 1 + n
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// The end of a char literal opening at `i`, or `None` for a lifetime.
fn char_end(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i + 1) == Some(&b'\\') {
        let close = b[i + 2..].iter().position(|&c| c == b'\'')?;
        return Some(i + 2 + close + 1);
    }
    // One character (up to four bytes of UTF-8), then the closing quote.
    let len = match b.get(i + 1)? {
        c if *c < 0x80 => 1,
        c if *c >= 0xF0 => 4,
        c if *c >= 0xE0 => 3,
        _ => 2,
    };
    (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 2 + len)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Blanks comments and (in the masked copy) literals' contents.
pub fn read(text: &str) -> Code {
    let b = text.as_bytes();
    let mut plain = b.to_vec();
    let mut masked = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |e| i + e);
            blank(&mut plain, i, end);
            blank(&mut masked, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut plain, i, j);
            blank(&mut masked, i, j);
            i = j;
        } else if b[i] == b'"' || (b[i] == b'r' && (i == 0 || !is_ident(b[i - 1]))) {
            let (start, hashes) = if b[i] == b'"' {
                (i, None)
            } else {
                let n = rest[1..].iter().take_while(|&&c| c == b'#').count();
                if rest.get(1 + n) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                (i + 1 + n, Some(n))
            };
            let end = string_end(b, start, hashes);
            blank(&mut masked, start + 1, end.saturating_sub(1).max(start + 1));
            i = end;
        } else if b[i] == b'\'' {
            match char_end(b, i) {
                Some(end) => {
                    blank(&mut masked, i + 1, end - 1);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    Code {
        text: String::from_utf8(plain).unwrap(),
        masked: String::from_utf8(masked).unwrap(),
    }
}

/// The index just past the `}` matching the `{` at `open`.
fn matching_brace(masked: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (j, &c) in masked.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    masked.len()
}

/// The next word at or after `i` (skipping white space and attributes).
fn next_item(m: &[u8], mut i: usize) -> usize {
    loop {
        while i < m.len() && m[i].is_ascii_whitespace() {
            i += 1;
        }
        if m[i..].starts_with(b"#[") {
            i = m[i..]
                .iter()
                .position(|&c| c == b']')
                .map_or(m.len(), |e| i + e + 1);
        } else {
            return i;
        }
    }
}

/// Cuts test code wherever it stands: an item under `#[cfg(test)]` (a
/// module, a `use`, a function or an impl, up to its matching brace or its
/// `;`). Fields and statements under the attribute are left (they import
/// nothing).
pub fn without_tests(code: &Code) -> Code {
    let m = code.masked.as_bytes();
    let mut cut = Vec::new();
    for (at, _) in code.masked.match_indices("#[cfg(test)]") {
        let i = next_item(m, at + "#[cfg(test)]".len());
        let word_end = |j: usize| j + m[j..].iter().take_while(|&&c| is_ident(c)).count();
        let mut j = i;
        if m[j..].starts_with(b"pub") {
            j = next_item(m, word_end(j));
        }
        let word = &code.masked[j..word_end(j)];
        if !["mod", "use", "fn", "impl"].contains(&word) {
            continue;
        }
        let stop = m[j..]
            .iter()
            .position(|&c| c == b'{' || c == b';')
            .map_or(m.len(), |e| j + e);
        let end = if m.get(stop) == Some(&b'{') {
            matching_brace(m, stop)
        } else {
            stop + 1
        };
        cut.push((at, end));
    }
    let mut text = code.text.clone().into_bytes();
    let mut masked = code.masked.clone().into_bytes();
    for (from, to) in cut {
        blank(&mut text, from, to);
        blank(&mut masked, from, to);
    }
    Code {
        text: String::from_utf8(text).unwrap(),
        masked: String::from_utf8(masked).unwrap(),
    }
}

/// Inline modules (`mod name { … }`) with their byte ranges, so that a
/// path inside one resolves from it.
fn inline_modules(masked: &str) -> Vec<(usize, usize, String)> {
    let m = masked.as_bytes();
    let mut out = Vec::new();
    for (at, _) in masked.match_indices("mod ") {
        if at > 0 && is_ident(m[at - 1]) {
            continue;
        }
        let name_at = next_item(m, at + 4);
        let name_end = name_at + m[name_at..].iter().take_while(|&&c| is_ident(c)).count();
        let after = next_item(m, name_end);
        if m.get(after) == Some(&b'{') {
            out.push((
                after,
                matching_brace(m, after),
                masked[name_at..name_end].to_string(),
            ));
        }
    }
    out
}

/// Every path a file's code names: the leaves of its `use` trees, and the
/// paths written in full (`crate::…`, `super::…`, `self::…`, `$crate::…`)
/// anywhere in its code, each resolved against the module the path stands
/// in. `module` is the file's module path (`["convert", "text"]`; the
/// crate root is empty). A path's first segments are returned as written
/// from the crate root; paths into other crates are left out.
pub fn paths(code: &Code, module: &[String]) -> Vec<Vec<String>> {
    let inline = inline_modules(&code.masked);
    let module_at = |pos: usize| {
        let mut m = module.to_vec();
        for (from, to, name) in &inline {
            if (*from..*to).contains(&pos) {
                m.push(name.clone());
            }
        }
        m
    };
    let mut out = Vec::new();
    for (at, tree) in use_trees(&code.masked) {
        for path in tree {
            out.extend(resolve(&path, &module_at(at)));
        }
    }
    for (at, path) in full_paths(&code.masked) {
        out.extend(resolve(&path, &module_at(at)));
    }
    out
}

/// Every path into the crate `name` a file's code names (`use name::…`
/// trees and `name::…` written in full), as written after the crate's name.
pub fn crate_paths(code: &Code, name: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = use_trees(&code.masked)
        .into_iter()
        .flat_map(|(_, tree)| tree)
        .filter(|p| p.first().is_some_and(|f| f == name))
        .map(|p| p[1..].to_vec())
        .collect();
    let m = code.masked.as_bytes();
    let start = format!("{name}::");
    for (at, _) in code.masked.match_indices(&start) {
        if at > 0 && (is_ident(m[at - 1]) || m[at - 1] == b':') {
            continue;
        }
        let from = at + start.len();
        let len = m[from..].iter().take_while(|&&c| is_ident(c)).count();
        if len > 0 {
            out.push(vec![code.masked[from..from + len].to_string()]);
        }
    }
    out
}

/// A path resolved from the module it is written in: `None` where it leads
/// out of the crate (another crate's name first).
fn resolve(path: &[String], module: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" | "$crate" => Vec::new(),
        "self" | "super" => module.to_vec(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if first == "super" {
        base.pop();
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// Paths written in full in code (not in a `use`): a `crate`, `$crate`,
/// `super` or `self` segment followed by `::`, with the segments after it.
/// A macro's name (followed by `!`) is left off its path.
fn full_paths(masked: &str) -> Vec<(usize, Vec<String>)> {
    let m = masked.as_bytes();
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in masked.match_indices(start) {
            let mut from = at;
            if start == "crate::" && at > 0 && m[at - 1] == b'$' {
                from -= 1;
            } else if at > 0 && (is_ident(m[at - 1]) || m[at - 1] == b':') {
                continue;
            }
            let mut segments = Vec::new();
            let mut j = from;
            loop {
                let len = m[j..]
                    .iter()
                    .take_while(|&&c| is_ident(c) || c == b'$')
                    .count();
                if len == 0 {
                    break;
                }
                let seg = &masked[j..j + len];
                j += len;
                if m.get(j) == Some(&b'!') {
                    break;
                }
                segments.push(seg.to_string());
                if !m[j..].starts_with(b"::") {
                    break;
                }
                j += 2;
            }
            out.push((at, segments));
        }
    }
    out
}

/// Every `use` item's tree, flattened into the paths it names, with where
/// it stands.
fn use_trees(masked: &str) -> Vec<(usize, Vec<Vec<String>>)> {
    let m = masked.as_bytes();
    let mut out = Vec::new();
    for (at, _) in masked.match_indices("use") {
        let before_ok = at == 0 || !is_ident(m[at - 1]);
        let after_ok = m.get(at + 3).is_some_and(|c| c.is_ascii_whitespace());
        if !before_ok || !after_ok {
            continue;
        }
        let end = m[at..]
            .iter()
            .position(|&c| c == b';')
            .map_or(m.len(), |e| at + e);
        let tokens = tokens(&masked[at + 3..end]);
        let mut paths = Vec::new();
        let mut pos = 0;
        tree(&tokens, &mut pos, &[], &mut paths);
        out.push((at, paths));
    }
    out
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if is_ident(c) || c == b'$' {
            let len = b[i..]
                .iter()
                .take_while(|&&c| is_ident(c) || c == b'$')
                .count();
            out.push(text[i..i + len].to_string());
            i += len;
        } else if b[i..].starts_with(b"::") {
            out.push("::".into());
            i += 2;
        } else {
            out.push((c as char).to_string());
            i += 1;
        }
    }
    out
}

/// One use tree: `path`, `path::{tree, …}`, `path::*`, `path as name`,
/// `{tree, …}`. Each leaf's full path goes to `out`.
fn tree(t: &[String], pos: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    if t.get(*pos).is_some_and(|s| s == "::") {
        *pos += 1;
    }
    loop {
        match t.get(*pos).map(String::as_str) {
            Some("{") => {
                *pos += 1;
                while t.get(*pos).is_some_and(|s| s != "}") {
                    tree(t, pos, &path, out);
                    if t.get(*pos).is_some_and(|s| s == ",") {
                        *pos += 1;
                    }
                }
                *pos += 1;
                return;
            }
            Some("*") => {
                *pos += 1;
                break;
            }
            Some(s)
                if s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
            {
                path.push(s.to_string());
                *pos += 1;
                if t.get(*pos).is_some_and(|s| s == "::") {
                    *pos += 1;
                    continue;
                }
                break;
            }
            _ => break,
        }
    }
    if t.get(*pos).is_some_and(|s| s == "as") {
        *pos += 2;
    }
    out.push(path);
}
