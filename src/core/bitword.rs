//! The integer a bitboard is made of: `u64` for boards of at most 64 squares,
//! `u128` for larger ones. Everything above is generic over it and monomorphised.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// An unsigned integer used as a set of squares.
pub trait BitWord:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of bits, i.e. the largest board this word can hold.
    const BITS: u32;
    /// The empty set.
    const ZERO: Self;
    /// Set containing only bit `i`.
    fn bit(i: u32) -> Self;
    /// Number of set bits.
    fn count(self) -> u32;
    /// Index of the lowest set bit (undefined result for zero).
    fn lowest(self) -> u32;
    /// Index of the highest set bit (undefined result for zero).
    fn highest(self) -> u32;
    /// Clears the lowest set bit.
    fn clear_lowest(self) -> Self;
    /// Set of the lowest `n` bits.
    fn low_mask(n: u32) -> Self;
    /// Shifts towards higher bits by `n` (lower bits when negative).
    fn shift(self, n: i32) -> Self;
}

macro_rules! impl_bitword {
    ($t:ty) => {
        impl BitWord for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn shift(self, n: i32) -> Self {
                if n >= 0 {
                    self << n
                } else {
                    self >> -n
                }
            }
            #[inline(always)]
            fn low_mask(n: u32) -> Self {
                if n >= <$t>::BITS {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
        }
    };
}

impl_bitword!(u64);
impl_bitword!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    /// The word's operations against their definitions, bit by bit.
    fn single_bits<W: BitWord>() {
        for i in 0..W::BITS {
            let b = W::bit(i);
            assert_eq!(b.count(), 1, "bit {i}");
            assert_eq!(b.lowest(), i);
            assert_eq!(b.highest(), i);
            assert_eq!(b.clear_lowest(), W::ZERO);
            // Shifts move the bit, and drop it past either end of the word.
            for n in -3i32..=3 {
                let j = i as i32 + n;
                let want = if (0..W::BITS as i32).contains(&j) {
                    W::bit(j as u32)
                } else {
                    W::ZERO
                };
                assert_eq!(b.shift(n), want, "bit {i} shifted by {n}");
            }
        }
    }

    fn masks<W: BitWord>() {
        for n in 0..=W::BITS + 2 {
            let m = W::low_mask(n);
            assert_eq!(m.count(), n.min(W::BITS), "low_mask({n})");
            if n > 0 {
                assert_eq!(m.lowest(), 0);
                assert_eq!(m.highest(), n.min(W::BITS) - 1);
            }
        }
        assert_eq!(W::low_mask(W::BITS), !W::ZERO);
        assert_eq!(W::low_mask(0), W::ZERO);
    }

    /// Lowest, highest and clear_lowest on words with several bits, the two
    /// ends of the word included.
    fn several_bits<W: BitWord>() {
        let top = W::BITS - 1;
        let ends = W::bit(0) | W::bit(top);
        assert_eq!(ends.count(), 2);
        assert_eq!(ends.lowest(), 0);
        assert_eq!(ends.highest(), top);
        assert_eq!(ends.clear_lowest(), W::bit(top));
        let mut w = W::bit(3) | W::bit(top - 5) | W::bit(top / 2);
        let mut popped = Vec::new();
        while w != W::ZERO {
            popped.push(w.lowest());
            w = w.clear_lowest();
        }
        assert_eq!(popped, vec![3, top / 2, top - 5]);
    }

    #[test]
    fn u64_ops_match_their_definitions() {
        single_bits::<u64>();
        masks::<u64>();
        several_bits::<u64>();
    }

    #[test]
    fn u128_ops_match_their_definitions() {
        single_bits::<u128>();
        masks::<u128>();
        several_bits::<u128>();
        // Across the middle of the word, where a pair of u64 halves would
        // need a carry.
        assert_eq!(u128::bit(63).shift(1), u128::bit(64));
        assert_eq!(u128::bit(64).shift(-1), u128::bit(63));
        assert_eq!((u128::bit(64) | u128::bit(100)).lowest(), 64);
        assert_eq!((u128::bit(10) | u128::bit(63)).highest(), 63);
        assert_eq!(u128::low_mask(64), u64::MAX as u128);
    }
}
