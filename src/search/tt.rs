//! Transposition table, shared by every search thread without locks.
//!
//! One allocation of 32-byte buckets, three entries each. An entry is one
//! 64-bit word of data (move, value, static evaluation, depth, bound and
//! generation) and a 16-bit check word: a hash of the key and the data. Threads read and write entries with relaxed atomic loads and stores,
//! so two threads may interleave their writes to one entry; the check word
//! makes such a torn entry (data of one write, check of another) miss instead
//! of hitting with the wrong data, as in Hyatt's lockless hashing. What is left
//! (a 16-bit collision) can cost a wrong bound, never a crash: callers check a
//! table move for legality before playing it.

use crate::core::ZeroedArray;
pub use crate::core::{AllocError, ZeroValid};
use crate::position::Move;
use std::alloc::{self, Layout};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

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
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

const ENTRIES_PER_BUCKET: usize = 3;

/// Half a cache line: three data words and their check words. All zero is empty.
#[repr(C, align(32))]
struct Bucket {
    data: [AtomicU64; ENTRIES_PER_BUCKET],
    check: [AtomicU16; ENTRIES_PER_BUCKET],
    _pad: u16,
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 32);

/// Generation step: the low two bits of the generation byte hold the bound.
const GEN_STEP: u8 = 4;
const GEN_MASK: u8 = 0xfc;
/// Depth is stored with this offset so quiescence depths (<= 0) fit a byte.
const DEPTH_OFFSET: i32 = 8;

/// The fields of a data word (move 0-15, value 16-31, eval 32-47, depth
/// 48-55, generation and bound 56-63).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Data(u64);

impl Data {
    fn pack(mv: Move, value: i32, eval: i32, depth: u8, gen_bound: u8) -> Data {
        let v = value.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let e = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        Data(mv.raw() as u64 | v << 16 | e << 32 | (depth as u64) << 48 | (gen_bound as u64) << 56)
    }
    fn mv(self) -> Move {
        Move::from_raw(self.0 as u16)
    }
    fn value(self) -> i32 {
        (self.0 >> 16) as u16 as i16 as i32
    }
    fn eval(self) -> i32 {
        (self.0 >> 32) as u16 as i16 as i32
    }
    fn depth(self) -> u8 {
        (self.0 >> 48) as u8
    }
    fn gen_bound(self) -> u8 {
        (self.0 >> 56) as u8
    }
    fn is_used(self) -> bool {
        self.gen_bound() & 3 != 0
    }
    /// The check word of this data under `key`: a multiplicative hash of
    /// both, so a word of one write never fits the data of another (but for
    /// a 1 in 65536 chance), whatever the key bits the bucket index used.
    #[inline(always)]
    fn check(self, key: u64) -> u16 {
        let mixed = key ^ self.0.wrapping_mul(0xff51_afd7_ed55_8ccd);
        (mixed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48) as u16
    }
}

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
    buckets: ZeroedArray<Bucket>,
    generation: AtomicU8,
    /// Cleared or searched since it was made: its pages are the process's.
    touched: AtomicBool,
}

// SAFETY: a bucket is atomics and padding; zero is an empty slot.
unsafe impl ZeroValid for Bucket {}

impl TranspositionTable {
    /// A table of about `mb` megabytes; aborts if it cannot be had (use
    /// `try_new` for sizes a user chose).
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).unwrap_or_else(|_| {
            alloc::handle_alloc_error(Layout::new::<Bucket>());
        })
    }

    /// A table of about `mb` megabytes, or an error if the memory is not there.
    /// The memory is zeroed by the allocator, so a large table costs nothing
    /// until it is written.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        Ok(TranspositionTable {
            buckets: ZeroedArray::with_megabytes(mb)?,
            generation: AtomicU8::new(0),
            touched: AtomicBool::new(false),
        })
    }

    /// The size in buckets.
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    #[inline(always)]
    fn slice(&self) -> &[Bucket] {
        self.buckets.as_slice()
    }

    /// Empties the table (`usinewgame`, `Clear_Hash`). Must not race a search
    /// (it would only lose entries, but the result would not be reproducible).
    pub fn clear(&self) {
        for b in self.slice() {
            for i in 0..ENTRIES_PER_BUCKET {
                b.data[i].store(0, Relaxed);
                b.check[i].store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
        self.touched.store(true, Relaxed);
    }

    /// Writes a table nobody has used yet, so that the system hands over its
    /// memory now (zeroing 64 MB of fresh pages takes about 0.2 s here) and
    /// not in the first `usinewgame` or search, on the game's clock. A table
    /// in use is left alone.
    pub fn prefault(&self) {
        if !self.touched.load(Relaxed) {
            self.clear();
        }
    }

    /// Whether the table was cleared or searched since it was made.
    pub fn touched(&self) -> bool {
        self.touched.load(Relaxed)
    }

    /// Starts a new search: entries of older searches become replaceable.
    pub fn new_search(&self) {
        self.touched.store(true, Relaxed);
        let g = self.generation.load(Relaxed);
        self.generation.store(g.wrapping_add(GEN_STEP), Relaxed);
    }

    /// Permille of entries written during the current search (a sample of the
    /// first thousand buckets).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = &self.slice()[..self.buckets.len().min(1000)];
        let used: usize = sample
            .iter()
            .map(|b| {
                b.data
                    .iter()
                    .map(|d| Data(d.load(Relaxed)))
                    .filter(|d| d.is_used() && d.gen_bound() & GEN_MASK == generation)
                    .count()
            })
            .sum();
        (used * 1000 / (sample.len() * ENTRIES_PER_BUCKET)) as u32
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.slice()[self.buckets.index_of(key)]
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching a valid address never faults.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let d = Data(b.data[i].load(Relaxed));
            if d.is_used() && b.check[i].load(Relaxed) == d.check(key) {
                return Some(TtHit {
                    mv: d.mv(),
                    value: d.value(),
                    eval: d.eval(),
                    depth: d.depth() as i32 - DEPTH_OFFSET,
                    bound: Bound::from_bits(d.gen_bound() as u64),
                });
            }
        }
        None
    }

    /// Stores a result. `value` must already be relative to the node
    /// (`value_to_tt`). An existing move is kept when `mv` is none.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Relaxed);
        let b = self.bucket(key);
        let mut found: [Data; ENTRIES_PER_BUCKET] = [Data(0); ENTRIES_PER_BUCKET];
        // Same key, else the least valuable entry: shallow and old.
        let mut slot = 0;
        let mut same = false;
        let mut worst = i32::MAX;
        for (j, f) in found.iter_mut().enumerate() {
            *f = Data(b.data[j].load(Relaxed));
            let e = *f;
            if !e.is_used() {
                slot = j;
                break;
            }
            if b.check[j].load(Relaxed) == e.check(key) {
                slot = j;
                same = true;
                break;
            }
            let age = (generation.wrapping_sub(e.gen_bound() & GEN_MASK) / GEN_STEP) as i32;
            let worth = e.depth() as i32 - 8 * age;
            if worth < worst {
                worst = worth;
                slot = j;
            }
        }
        let old = found[slot];
        // Keep a deeper entry of the same position unless this one is exact or new.
        if same
            && bound != Bound::Exact
            && depth + DEPTH_OFFSET + 3 < old.depth() as i32
            && old.gen_bound() & GEN_MASK == generation
        {
            return;
        }
        let mv = if mv.is_none() && same { old.mv() } else { mv };
        let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u8;
        let d = Data::pack(mv, value, eval, depth, generation | bound as u8);
        b.data[slot].store(d.0, Relaxed);
        b.check[slot].store(d.check(key), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// `prefault` writes a fresh table once, and never a table a search
    /// has used (`isready` during a game must keep its entries).
    #[test]
    fn prefault_touches_a_fresh_table_only() {
        let tt = TranspositionTable::new(1);
        assert!(!tt.touched());
        tt.prefault();
        assert!(tt.touched());
        let used = TranspositionTable::new(1);
        used.new_search();
        let key = 0x0bad_cafe_1234_5678;
        used.store(key, Move::from_raw(77), 12, 3, 4, Bound::Exact);
        used.prefault();
        assert_eq!(used.probe(key).map(|h| h.value), Some(12));
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
        tt.store(42, Move::NONE, 0, 0, -3, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().depth, -3);
    }

    #[test]
    fn a_torn_entry_misses() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef_0000_0001;
        tt.store(key, Move::from_raw(9), 10, 20, 5, Bound::Exact);
        // Another write's data under this entry's check word: a miss, not a hit
        // with foreign data.
        let b = tt.bucket(key);
        let other = Data::pack(Move::from_raw(1234), -999, 7, 30, GEN_STEP | 3);
        b.data[0].store(other.0, Relaxed);
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn absurd_sizes_fail_cleanly() {
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(AllocError)
        );
        assert!(TranspositionTable::try_new(usize::MAX / (1 << 21)).is_err());
    }

    /// Threads racing on eight keys of one bucket: every hit carries the data
    /// some thread wrote for that key, never another key's (a plain key check
    /// would let a thread read one write's check with another's data).
    #[test]
    fn racing_writers_never_mix_entries() {
        // Eight keys of one bucket (the index is the top bits).
        fn key_of(j: u64) -> u64 {
            0x5555_0000_0000_0000 | (j + 1).wrapping_mul(0x2545_f491_4f6c) & 0xffff_ffff_ffff
        }
        let tt = Arc::new(TranspositionTable::new(1));
        let threads: Vec<_> = (0..4u16)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    let (mut bad, mut hits) = (0, 0);
                    for i in 0..400_000u64 {
                        let j = i % 8;
                        let key = key_of(j);
                        let mv = Move::from_raw((j as u16) << 8 | t);
                        tt.store(key, mv, j as i32, -(j as i32), 3, Bound::Lower);
                        for k in [j, (i * 5 + 3) % 8] {
                            if let Some(h) = tt.probe(key_of(k)) {
                                hits += 1;
                                if h.value != k as i32 || h.mv.raw() >> 8 != k as u16 {
                                    bad += 1;
                                }
                            }
                        }
                    }
                    (bad, hits)
                })
            })
            .collect();
        let (mut bad, mut hits) = (0, 0);
        for h in threads {
            let (b, n) = h.join().unwrap();
            bad += b;
            hits += n;
        }
        assert_eq!(bad, 0);
        assert!(hits > 100_000, "{hits}");
    }
}
