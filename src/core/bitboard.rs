//! `Bitboard<W>`: a set of squares backed by a `BitWord`.

use super::{BitWord, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Bit `i` stands for `Square(i)`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
#[repr(transparent)]
pub struct Bitboard<W: BitWord>(pub(crate) W);

impl<W: BitWord> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Self = Bitboard(W::ZERO);

    /// The set holding one square.
    #[inline(always)]
    pub fn from_square(sq: Square) -> Self {
        Bitboard(W::bit(sq.index() as u32))
    }

    /// The set of squares `0..n`.
    #[inline]
    pub fn first_n(n: usize) -> Self {
        Bitboard(W::low_mask(n as u32))
    }

    /// True when no square is set.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// True when at least one square is set.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count()
    }

    /// True when more than one square is set.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0.clear_lowest() != W::ZERO
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        (self.0 & W::bit(sq.index() as u32)) != W::ZERO
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub fn lowest(self) -> Square {
        Square::new(self.0.lowest() as u8)
    }

    /// The highest square; the set must not be empty.
    #[inline(always)]
    pub fn highest(self) -> Square {
        Square::new(self.0.highest() as u8)
    }

    /// Adds a square.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= W::bit(sq.index() as u32);
    }

    /// Toggles a square.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= W::bit(sq.index() as u32);
    }

    /// Every square moved by `delta` indices (the caller masks off wrap-arounds).
    #[inline(always)]
    pub fn shift(self, delta: i32) -> Self {
        Bitboard(self.0.shift(delta))
    }

    /// Iterates over the squares, lowest first.
    #[inline(always)]
    pub fn squares(self) -> Squares<W> {
        Squares(self.0)
    }
}

/// Iterator over the squares of a bitboard.
pub struct Squares<W: BitWord>(W);

impl<W: BitWord> Iterator for Squares<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            None
        } else {
            let sq = Square::new(self.0.lowest() as u8);
            self.0 = self.0.clear_lowest();
            Some(sq)
        }
    }
}

impl<W: BitWord> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = Squares<W>;
    fn into_iter(self) -> Squares<W> {
        self.squares()
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<W: BitWord> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: BitWord> $atr for Bitboard<W> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: BitWord> Not for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}
