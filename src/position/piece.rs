//! A piece on the board: colour and kind packed in a byte.

use crate::core::Color;
use crate::variant::Kind;

/// A coloured piece, or `Piece::NONE` for an empty square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Piece(u8);

impl Piece {
    /// An empty square.
    pub const NONE: Piece = Piece(0);

    /// The piece of kind `k` owned by `c`.
    #[inline(always)]
    pub fn new(c: Color, k: Kind) -> Piece {
        Piece(((c as u8) << 5) | (k.0 + 1))
    }

    /// True for an empty square.
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// True for a real piece.
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self.0 != 0
    }

    /// Owner (meaningless for `NONE`).
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 >> 5 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Kind (meaningless for `NONE`).
    #[inline(always)]
    pub fn kind(self) -> Kind {
        Kind((self.0 & 31).wrapping_sub(1))
    }
}
