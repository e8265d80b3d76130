//! Hostile inputs several test files share (issue 32): a Garden Gate link
//! bomb, and tag values written to break out of an HTML page.
#![allow(dead_code)]

/// A Garden Gate link whose LZ-String payload names, `codes` times, the
/// entry one past the dictionary (w + w[0]): one character longer each
/// time, about codes²/2 characters in all (../shared/repro/lzbomb_min.py).
pub fn lz_bomb(codes: usize) -> String {
    const KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";
    let mut bits: Vec<u8> = Vec::new();
    let put =
        |bits: &mut Vec<u8>, v: usize, n: usize| bits.extend((0..n).map(|i| ((v >> i) & 1) as u8));
    let (mut dict, mut nb, mut enlarge) = (4usize, 3usize, 4usize);
    let mut step = |dict: &mut usize, nb: &mut usize| {
        *dict += 1;
        enlarge -= 1;
        if enlarge == 0 {
            enlarge = 1 << *nb;
            *nb += 1;
        }
    };
    let prefix = "gameType=2&host=a&guest=b&game=";
    put(&mut bits, 0, 2);
    put(&mut bits, prefix.as_bytes()[0] as usize, 8);
    for &c in &prefix.as_bytes()[1..] {
        put(&mut bits, 0, nb);
        put(&mut bits, c as usize, 8);
        step(&mut dict, &mut nb);
        step(&mut dict, &mut nb);
    }
    for _ in 0..codes {
        put(&mut bits, dict, nb);
        step(&mut dict, &mut nb);
    }
    put(&mut bits, 2, nb);
    while !bits.len().is_multiple_of(6) {
        bits.push(0);
    }
    let payload: String = bits
        .chunks(6)
        .map(|c| {
            KEY[c
                .iter()
                .enumerate()
                .map(|(j, &b)| (b as usize) << (5 - j))
                .sum::<usize>()] as char
        })
        .collect();
    format!("https://skudpaisho.com/?{payload}")
}

/// Tag values that must reach the viewer's page as data and nothing else.
pub const INJECTIONS: &[&str] = &[
    "<!--",
    "<!-- <script>",
    "-->",
    "</script><script>window.pwned=1</script>",
    "</SCRIPT >",
    "<script>window.pwned=1</script>",
    "<img src=x onerror=\"window.pwned=1\">",
    "<svg onload=window.pwned=1>",
    "<![CDATA[ ]]>",
    "&lt;&amp;&#x3c;",
    "\u{2028}\u{2029}",
    "'\"`\\",
    "${window.pwned=1}",
    "javascript:window.pwned=1",
];

/// A record whose tags hold every value of [`INJECTIONS`], escaped for the
/// record format.
pub fn injection_record() -> String {
    let mut text = String::from("[Game \"oshi\"]\n");
    for (i, v) in INJECTIONS.iter().enumerate() {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[Inject{i} \"{v}\"]\n"));
    }
    text.push_str("\n1. c2-c3 *\n");
    text
}
