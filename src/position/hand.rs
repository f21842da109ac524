//! Pieces in hand: a count per droppable kind.

use crate::variant::{Kind, MAX_HAND_KINDS};

/// One player's pieces in hand, indexed by (base) kind.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand([u8; MAX_HAND_KINDS]);

const _: () = assert!(MAX_HAND_KINDS == 8, "Hand::packed holds eight counts");

impl Hand {
    /// How many of kind `k` are held.
    #[inline(always)]
    pub fn count(&self, k: Kind) -> usize {
        self.0[k.index()] as usize
    }

    /// Adds one of kind `k`.
    #[inline(always)]
    pub fn add(&mut self, k: Kind) {
        self.0[k.index()] += 1;
    }

    /// Removes one of kind `k`; one must be held.
    #[inline(always)]
    pub fn remove(&mut self, k: Kind) {
        self.0[k.index()] -= 1;
    }

    /// Sets the count of kind `k`.
    pub fn set(&mut self, k: Kind, n: u8) {
        self.0[k.index()] = n;
    }

    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// The counts packed one byte per kind (for tables that compare hands).
    #[inline(always)]
    pub fn packed(&self) -> u64 {
        u64::from_le_bytes(self.0)
    }

    /// Whether hand `a` (packed) holds at least as many of every kind as `b`.
    /// Counts stay below 128, so one subtraction compares all eight bytes.
    #[inline(always)]
    pub fn packed_covers(a: u64, b: u64) -> bool {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        ((a | HIGH) - b) & HIGH == HIGH
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_covers_compares_every_kind() {
        let mut a = Hand::default();
        let mut b = Hand::default();
        assert!(Hand::packed_covers(a.packed(), b.packed()));
        a.set(Kind(0), 18);
        a.set(Kind(7), 2);
        b.set(Kind(7), 2);
        assert!(Hand::packed_covers(a.packed(), b.packed()));
        assert!(!Hand::packed_covers(b.packed(), a.packed()));
        b.set(Kind(3), 1);
        assert!(!Hand::packed_covers(a.packed(), b.packed()));
        a.set(Kind(3), 4);
        assert!(Hand::packed_covers(a.packed(), b.packed()));
        b.set(Kind(0), 19);
        assert!(!Hand::packed_covers(a.packed(), b.packed()));
    }
}
