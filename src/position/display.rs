//! The position as text for people (`d`): a board diagram, hands, SFEN, hash
//! and checkers.

use super::Position;
use crate::core::{BitWord, Color};

impl<W: BitWord> Position<W> {
    /// The board as text (White's pieces in lowercase, `+` for promoted), then
    /// hands, SFEN, hash and checkers, one item per line.
    pub fn diagram(&self) -> String {
        let v = self.variant();
        let g = v.geometry();
        let mut s = format!("variant {}\n ", v.name());
        for f in (1..=g.files).rev() {
            s.push_str(&format!("{f:>3}"));
        }
        s.push('\n');
        let rule = format!(" +{}+\n", "-".repeat(3 * g.files as usize + 1));
        s.push_str(&rule);
        for r in 0..g.ranks as i32 {
            s.push_str(" |");
            for f in (0..g.files as i32).rev() {
                let Some(sq) = g.square(f, r) else { continue };
                let p = self.piece_at(sq);
                let token = if p.is_none() {
                    ".".to_string()
                } else {
                    let t = v.kind_token(p.kind());
                    if p.color() == Color::White {
                        t.to_ascii_lowercase()
                    } else {
                        t
                    }
                };
                s.push_str(&format!("{token:>3}"));
            }
            s.push_str(&format!(" | {}\n", (b'a' + r as u8) as char));
        }
        s.push_str(&rule);
        let sfen = self.to_sfen();
        let hand = sfen.split(' ').nth(2).unwrap_or("-");
        let checkers: Vec<String> = self.checkers().squares().map(|sq| g.name(sq)).collect();
        let checkers = if checkers.is_empty() {
            "-".to_string()
        } else {
            checkers.join(" ")
        };
        s.push_str(&format!(
            "hands: {hand}\nsfen: {sfen}\nkey: {:016X}\ncheckers: {checkers}\n",
            self.hash()
        ));
        s
    }
}
