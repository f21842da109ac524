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

    /// Reads USI notation (`7g7f`, `2b3c+`, `P*5e`) for `v`'s board. Only the
    /// syntax is checked (and that a dropped letter names a piece of `v`); see
    /// `Position::parse_move` for legality.
    pub fn from_usi(v: &Variant, s: &str) -> Result<Move, MoveError> {
        let g = v.geometry();
        if let Some((piece, sq)) = s.split_once('*') {
            let mut letters = piece.chars();
            let (Some(letter), None) = (letters.next(), letters.next()) else {
                return Err(MoveError::Malformed);
            };
            if !letter.is_ascii_uppercase() {
                return Err(MoveError::Malformed);
            }
            let to = g.parse(sq).ok_or(MoveError::Malformed)?;
            let kind = v.kind_by_letter(letter, false).ok_or(MoveError::Illegal)?;
            return Ok(Move::drop(kind, to));
        }
        let (body, promote) = match s.strip_suffix('+') {
            Some(b) => (b, true),
            None => (s, false),
        };
        let split = body
            .char_indices()
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, c)| i + c.len_utf8())
            .ok_or(MoveError::Malformed)?;
        let from = g.parse(&body[..split]).ok_or(MoveError::Malformed)?;
        let to = g.parse(&body[split..]).ok_or(MoveError::Malformed)?;
        Ok(Move::normal(from, to, promote))
    }
}

/// Why a USI move string was rejected.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not USI move syntax for this board.
    Malformed,
    /// Well formed, but not a legal move here.
    Illegal,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Malformed => write!(f, "malformed"),
            MoveError::Illegal => write!(f, "illegal"),
        }
    }
}
