//! Helpers for tests of the layers above the position (evaluation,
//! networks): compiled for unit tests only.

/// The SFEN of the same position seen from the other side: board rotated,
/// colours swapped.
pub fn flip(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            // Tokens: digits, or an optional '+' and a letter.
            let mut toks: Vec<String> = Vec::new();
            let mut cur = String::new();
            for c in r.chars() {
                cur.push(swap(c));
                if c != '+' {
                    toks.push(std::mem::take(&mut cur));
                }
            }
            toks.reverse();
            toks.concat()
        })
        .collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand: String = if f[2] == "-" {
        "-".into()
    } else {
        f[2].chars().map(swap).collect()
    };
    format!("{} {} {} {}", ranks.join("/"), side, hand, f[3])
}
