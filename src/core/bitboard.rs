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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Geometry;

    fn sq(i: usize) -> Square {
        Square::new(i as u8)
    }

    /// A set of squares from a list of indices.
    fn set<W: BitWord>(indices: &[usize]) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for &i in indices {
            b.set(sq(i));
        }
        b
    }

    fn indices<W: BitWord>(b: Bitboard<W>) -> Vec<usize> {
        b.squares().map(|s| s.index()).collect()
    }

    /// Membership, counting, the lowest and highest square, and iteration
    /// (lowest first, each square once) over a word of `W::BITS` squares.
    fn set_operations<W: BitWord>() {
        let n = W::BITS as usize;
        let e = Bitboard::<W>::EMPTY;
        assert!(e.is_empty() && !e.any() && e.count() == 0 && !e.more_than_one());
        assert_eq!(e.squares().next(), None);
        for i in 0..n {
            let b = Bitboard::<W>::from_square(sq(i));
            assert!(b.has(sq(i)) && b.any() && !b.more_than_one());
            assert_eq!((b.lowest(), b.highest()), (sq(i), sq(i)));
            assert_eq!(indices(b), vec![i]);
            let mut t = b;
            t.toggle(sq(i));
            assert!(t.is_empty(), "toggle {i}");
        }
        let picks = [0, 1, n / 2 - 1, n / 2, n - 9, n - 1];
        let b = set::<W>(&picks);
        assert_eq!(indices(b), picks.to_vec());
        assert_eq!(b.count(), picks.len() as u32);
        assert!(b.more_than_one());
        assert_eq!((b.lowest(), b.highest()), (sq(0), sq(n - 1)));
        assert_eq!(b.into_iter().count(), picks.len());
        // Setting twice keeps one; toggling twice restores.
        let mut c = b;
        c.set(sq(1));
        assert_eq!(c, b);
        c.toggle(sq(7));
        c.toggle(sq(7));
        assert_eq!(c, b);
        // The full word iterates over every square in order.
        let full = !Bitboard::<W>::EMPTY;
        assert_eq!(indices(full), (0..n).collect::<Vec<_>>());
        assert_eq!(Bitboard::<W>::first_n(n), full);
        assert_eq!(
            indices(Bitboard::<W>::first_n(81.min(n))),
            (0..81.min(n)).collect::<Vec<_>>()
        );
    }

    /// `&`, `|`, `^`, `!` are intersection, union, symmetric difference and
    /// complement, in both their plain and assigning forms.
    fn boolean_ops<W: BitWord>() {
        let n = W::BITS as usize;
        let a = set::<W>(&[0, 5, 40, n - 1]);
        let b = set::<W>(&[5, 6, n - 1]);
        assert_eq!(indices(a & b), vec![5, n - 1]);
        assert_eq!(indices(a | b), vec![0, 5, 6, 40, n - 1]);
        assert_eq!(indices(a ^ b), vec![0, 6, 40]);
        assert_eq!((!a).count(), n as u32 - 4);
        assert!(!(!a).has(sq(40)) && (!a).has(sq(41)));
        let mut c = a;
        c &= b;
        assert_eq!(c, a & b);
        c = a;
        c |= b;
        assert_eq!(c, a | b);
        c = a;
        c ^= b;
        assert_eq!(c, a ^ b);
    }

    /// One rank up or down (a shift by the number of files) on a board that
    /// fills `W` as fully as the variants do: squares leaving the board vanish
    /// once the board mask is applied, and the others land on the square the
    /// geometry names.
    fn rank_shifts<W: BitWord>(g: Geometry) {
        let all = Bitboard::<W>::first_n(g.squares());
        let files = g.files as i32;
        for s in g.all() {
            let b = Bitboard::<W>::from_square(s);
            for dr in [-1, 1] {
                let moved = b.shift(dr * files) & all;
                let want = g.square(g.file_of(s), g.rank_of(s) + dr);
                assert_eq!(
                    moved.squares().next(),
                    want,
                    "{} by {dr} rank(s) on {}x{}",
                    g.name(s),
                    g.files,
                    g.ranks
                );
                assert!(moved.count() <= 1);
            }
        }
        // A whole rank at the edge leaves the board together.
        let bottom = Bitboard::<W>::first_n(g.squares())
            & !Bitboard::first_n(g.squares() - g.files as usize);
        assert_eq!(bottom.count(), g.files as u32);
        assert!((bottom.shift(files) & all).is_empty());
        let top = Bitboard::<W>::first_n(g.files as usize);
        assert!((top.shift(-files) & all).is_empty());
    }

    #[test]
    fn u64_bitboards() {
        set_operations::<u64>();
        boolean_ops::<u64>();
        // 8x8 fills all 64 bits: the bottom rank shifts out of the word.
        for (files, ranks) in [(8, 8), (6, 6)] {
            rank_shifts::<u64>(Geometry { files, ranks });
        }
    }

    #[test]
    fn u128_bitboards() {
        set_operations::<u128>();
        boolean_ops::<u128>();
        for (files, ranks) in [(9, 9), (7, 9), (9, 8), (8, 9), (8, 8)] {
            rank_shifts::<u128>(Geometry { files, ranks });
        }
        // The two 64-bit halves behave as one set.
        let b = set::<u128>(&[62, 63, 64, 65]);
        assert_eq!(indices(b.shift(9)), vec![71, 72, 73, 74]);
        assert_eq!(indices(b.shift(-9)), vec![53, 54, 55, 56]);
    }
}
