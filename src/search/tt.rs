//! Transposition table: one allocation of 32-byte buckets, three entries each.
//! An entry keeps 16 bits of the key for verification, the move, the value
//! (mate scores made relative to the node), the static evaluation, the depth,
//! the bound and the search generation (age) so old entries give way.

use crate::position::Move;

/// The bound a stored value is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No value stored.
    None = 0,
    /// The value is at most this (fail low).
    Upper = 1,
    /// The value is at least this (fail high).
    Lower = 2,
    /// The exact value.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u8) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct Entry {
    key: u16,
    mv: u16,
    value: i16,
    eval: i16,
    depth: u8,
    /// Bits 0-1: bound; bits 2-7: generation.
    gen_bound: u8,
}

const ENTRIES_PER_BUCKET: usize = 3;

/// A cache line half: three entries and padding.
#[derive(Copy, Clone, Debug, Default)]
#[repr(C, align(32))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
    _pad: u16,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 10);
const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// Generation step: the low two bits of `gen_bound` hold the bound.
const GEN_STEP: u8 = 4;
const GEN_MASK: u8 = 0xfc;
/// Depth is stored with this offset so quiescence depths (<= 0) fit a `u8`.
const DEPTH_OFFSET: i32 = 8;

/// What a probe found.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    /// The stored move (not yet checked for legality).
    pub mv: Move,
    /// The stored value, still relative to the node (see `value_from_tt`).
    pub value: i32,
    /// The stored static evaluation.
    pub eval: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// What kind of bound the value is.
    pub bound: Bound,
}

/// The shared hash table, sized in MB by `USI_Hash`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes.
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: vec![Bucket::default(); n],
            generation: 0,
        }
    }

    /// Resizes to about `mb` megabytes (the contents are lost).
    pub fn resize(&mut self, mb: usize) {
        *self = TranspositionTable::new(mb);
    }

    /// Empties the table (`usinewgame`, `Clear_Hash`).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search: entries of older searches become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GEN_STEP);
    }

    /// Permille of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                b.entries
                    .iter()
                    .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound & GEN_MASK == self.generation)
                    .count()
            })
            .sum();
        (used * 1000 / (n * ENTRIES_PER_BUCKET)) as u32
    }

    #[inline(always)]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: the index is in bounds; prefetching never faults.
            let p = self.buckets.as_ptr().add(self.bucket_index(key)) as *const i8;
            std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = &self.buckets[self.bucket_index(key)];
        let k16 = key as u16;
        b.entries
            .iter()
            .find(|e| e.key == k16 && e.gen_bound & 3 != 0)
            .map(|e| TtHit {
                mv: Move::from_raw(e.mv),
                value: e.value as i32,
                eval: e.eval as i32,
                depth: e.depth as i32 - DEPTH_OFFSET,
                bound: Bound::from_bits(e.gen_bound),
            })
    }

    /// Stores a result. `value` must already be relative to the node
    /// (`value_to_tt`). An existing move is kept when `mv` is none.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let i = self.bucket_index(key);
        let b = &mut self.buckets[i];
        let k16 = key as u16;
        // Same key, else the least valuable entry: shallow and old.
        let mut slot = 0;
        let mut worst = i32::MAX;
        for (j, e) in b.entries.iter().enumerate() {
            if e.key == k16 || e.gen_bound & 3 == 0 {
                slot = j;
                break;
            }
            let age = (generation.wrapping_sub(e.gen_bound & GEN_MASK) / GEN_STEP) as i32;
            let worth = e.depth as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                slot = j;
            }
        }
        let e = &mut b.entries[slot];
        let same = e.key == k16 && e.gen_bound & 3 != 0;
        // Keep a deeper entry of the same position unless this one is exact or new.
        if same
            && bound != Bound::Exact
            && depth + DEPTH_OFFSET + 3 < e.depth as i32
            && e.gen_bound & GEN_MASK == generation
        {
            return;
        }
        if !mv.is_none() || !same {
            e.mv = mv.raw();
        }
        e.key = k16;
        e.value = value.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u8;
        e.gen_bound = generation | bound as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Move::from_raw(77), -123, 45, 6, Bound::Lower);
        let h = tt.probe(key).unwrap();
        assert_eq!(h.mv, Move::from_raw(77));
        assert_eq!(
            (h.value, h.eval, h.depth, h.bound),
            (-123, 45, 6, Bound::Lower)
        );
        // A none move keeps the stored one.
        tt.store(key, Move::NONE, 5, 5, 7, Bound::Exact);
        assert_eq!(tt.probe(key).unwrap().mv, Move::from_raw(77));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn quiescence_depths_fit() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, Move::NONE, 0, 0, -3, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().depth, -3);
    }
}
