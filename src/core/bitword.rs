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
