//! Pieces in hand: a count per droppable kind.

use crate::variant::{Kind, MAX_HAND_KINDS};

/// One player's pieces in hand, indexed by (base) kind.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand([u8; MAX_HAND_KINDS]);

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
}
