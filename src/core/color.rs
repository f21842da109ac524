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
