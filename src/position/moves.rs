//! `Move`: a board move (maybe promoting) or a drop, packed in 16 bits.

use crate::core::{Geometry, Square};
use crate::variant::{Kind, Variant};

/// bits 0-6: destination; bits 7-13: origin square, or the kind for a drop;
/// bit 14: promotes; bit 15: drop. Zero is no move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(transparent)]
pub struct Move(u16);

const PROMOTE: u16 = 1 << 14;
const DROP: u16 = 1 << 15;

impl Move {
    /// Not a move (an empty slot in tables).
    pub const NONE: Move = Move(0);

    /// A board move.
    #[inline(always)]
    pub fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | (from.index() as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of kind `k` on `to`.
    #[inline(always)]
    pub fn drop(k: Kind, to: Square) -> Move {
        Move(to.index() as u16 | (k.0 as u16) << 7 | DROP)
    }

    /// The raw 16 bits (for hash-table storage).
    #[inline(always)]
    pub fn raw(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from `raw()`.
    #[inline(always)]
    pub fn from_raw(r: u16) -> Move {
        Move(r)
    }

    /// True for `Move::NONE`.
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::new((self.0 & 127) as u8)
    }

    /// Origin square of a board move.
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::new(((self.0 >> 7) & 127) as u8)
    }

    /// Kind dropped by a drop.
    #[inline(always)]
    pub fn drop_kind(self) -> Kind {
        Kind(((self.0 >> 7) & 127) as u8)
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// Whether this board move promotes.
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// USI notation: `7g7f`, `2b3c+`, `P*5e`.
    pub fn to_usi(self, v: &Variant) -> String {
        let g: Geometry = v.geometry();
        if self.is_none() {
            return "none".to_string();
        }
        if self.is_drop() {
            format!("{}*{}", v.kind(self.drop_kind()).letter, g.name(self.to()))
        } else {
            format!(
                "{}{}{}",
                g.name(self.from()),
                g.name(self.to()),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}
