//! The two players.

/// Black (sente, moves first, uppercase in SFEN) or White (gote).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Sente, `b` in SFEN.
    Black = 0,
    /// Gote, `w` in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[inline(always)]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side character.
    pub fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_pair_up() {
        assert_eq!(Color::ALL, [Color::Black, Color::White]);
        for (i, c) in Color::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(c.opp().opp(), c);
            assert_ne!(c.opp(), c);
        }
        assert_eq!(Color::Black.sfen_char(), 'b');
        assert_eq!(Color::White.sfen_char(), 'w');
    }
}
