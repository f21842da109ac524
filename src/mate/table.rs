//! The solver's table: proof and disproof numbers per position, with hand
//! superiority. Entries are keyed by the board (and side to move) without the
//! hands, and keep the attacker's hand: the attacker's pieces decide the
//! defender's too (pieces are conserved within a solve), and a board proven
//! with hand `h` is proven with any hand that covers `h`, a board disproven
//! with `h` disproven with any hand that `h` covers.
//!
//! Size is fixed at creation (USI_Hash). A full bucket drops its entry with
//! the least work behind it, so a long solve keeps the expensive results and
//! collects the rest instead of running out.
//!
//! Only a front part of the table is in use at first, doubled (its entries
//! spread over the larger part) whenever it is a quarter full, up to the
//! whole: memory is touched as the solve needs it. On a virtual machine
//! whose host backs a page only when it is first written, a fresh 2 GB
//! table cost 10 to 28 s of page faults spread over the first stores
//! (`clear_page` was 95% of a profile of 夢の旅人's first 8 s), time a
//! short solve spent waiting and a long one lost from its limit.

pub use crate::core::AllocError;
use crate::core::{ZeroValid, ZeroedArray};
use crate::position::Hand;

/// Proof or disproof number meaning "infinite".
pub const INF: u32 = u32::MAX / 2;

/// Plies left in a search without a length limit.
pub const NO_LIMIT: u16 = u16::MAX;

/// Entries per bucket: one board's entries (several hands) share a bucket.
const BUCKET_ENTRIES: usize = 8;

/// One position's numbers. A proof and a disproof under the same hand share
/// the entry: a mate of 21 plies that is not a mate within 19 keeps both
/// bounds, as searches for shorter mates ask for both in turn.
/// Its board key is kept apart, in its bucket's `keys`.
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    /// Attacker's hand, packed.
    hand: u64,
    /// Proof and disproof numbers of the last search that did not end
    /// (with `OPEN`; a proof or disproof stored later clears it).
    pn: u32,
    dn: u32,
    /// With `PROVEN`: mate within this many plies.
    len: u16,
    /// With `DISPROVEN`: no mate within this many plies (`NO_LIMIT`: none
    /// at all).
    limit: u16,
    /// Work behind the entry: log2 of the nodes searched below it, plus one.
    work: u8,
    /// `PROVEN`, `DISPROVEN`, `OPEN`.
    flags: u8,
    /// With `OPEN`: how the attacker's hand of the position the last
    /// search came from differs from `hand` (`hand_step`), and its board
    /// key (0: none). Two ways into one position are found by walking
    /// these links up to the search path (`MateTable::parent`).
    parent_step: u8,
    _pad: u8,
    parent: u64,
}

/// `Entry::flags`: a mate within `len` is known.
const PROVEN: u8 = 1;
/// `Entry::flags`: no mate within `limit` is known.
const DISPROVEN: u8 = 2;
/// `Entry::flags`: `pn` and `dn` hold an unfinished search's numbers.
const OPEN: u8 = 4;

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

/// One cache line of board keys (0: an empty slot; real keys are made
/// nonzero), then their entries: a probe reads the keys and only the
/// entries of its board, mostly one line more (8 entries of 40 bytes with
/// their keys inside were 5 lines read on every probe). The same 320 bytes
/// a bucket, and the same slots, as before.
#[repr(C, align(64))]
struct Bucket {
    keys: [u64; BUCKET_ENTRIES],
    entries: [Entry; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 320);

// SAFETY: integers only; a zero key is an empty slot.
unsafe impl ZeroValid for Bucket {}

/// What the table knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// Proof number (0: proven).
    pub pn: u32,
    /// Disproof number (0: disproven).
    pub dn: u32,
    /// Mate length in plies when proven; when disproven, the plies within
    /// which there is no mate (`NO_LIMIT`: none at all).
    pub len: u16,
    /// When proven: the proof hand, the attacker's pieces the mate needs
    /// (packed); it is what a proven entry is stored under.
    pub hand: u64,
}

/// Buckets in use at the start (4 MB), fewer if the table is smaller.
const FIRST_BUCKETS: usize = 1 << 14;

/// The part in use doubles when more than 1 / `GROW_AT` of its slots are
/// filled. At a quarter, a bucket (8 slots, 2 filled on average) is rarely
/// full, so growing drops almost nothing a table used whole from the start
/// would have kept.
const GROW_AT: usize = 4;

/// The proof-number table.
pub struct MateTable {
    buckets: ZeroedArray<Bucket>,
    /// Buckets in use, from the front (keys spread evenly over them).
    active: usize,
    /// Filled slots among them.
    used: usize,
}

impl MateTable {
    /// A zeroed table of `mb` megabytes.
    pub fn try_new(mb: usize) -> Result<MateTable, AllocError> {
        let buckets = ZeroedArray::with_megabytes(mb)?;
        let active = buckets.len().min(FIRST_BUCKETS);
        Ok(MateTable {
            buckets,
            active,
            used: 0,
        })
    }

    /// The bucket `key` falls on among `active` (always below `active`).
    #[inline(always)]
    fn index(key: u64, active: usize) -> usize {
        ((key as u128 * active as u128) >> 64) as usize
    }

    #[inline(always)]
    fn bucket(&mut self, key: u64) -> &mut Bucket {
        let i = Self::index(key, self.active);
        &mut self.buckets.as_mut_slice()[i]
    }

    /// Doubles the buckets in use (up to all), moving each entry to its
    /// bucket among the new number. An entry's new bucket is never before
    /// its old one (`index` grows with `active`), so going from the last
    /// old bucket down, every bucket an entry moves to has been emptied and
    /// refilled already, or is new.
    #[cold]
    fn grow(&mut self) {
        let old = self.active;
        let new = (old * 2).min(self.buckets.len());
        if new == old {
            return;
        }
        self.active = new;
        self.used = 0;
        let buckets = self.buckets.as_mut_slice();
        for i in (0..old).rev() {
            let moving = std::mem::replace(
                &mut buckets[i],
                Bucket {
                    keys: [0; BUCKET_ENTRIES],
                    entries: [Entry::default(); BUCKET_ENTRIES],
                },
            );
            for (key, e) in moving.keys.into_iter().zip(moving.entries) {
                if key == 0 {
                    continue;
                }
                let b = &mut buckets[Self::index(key, new)];
                // A bucket can receive from two old ones (when `new` is
                // not twice `old`): the least work goes.
                let slot = (0..BUCKET_ENTRIES)
                    .min_by_key(|&s| {
                        if b.keys[s] == 0 {
                            0
                        } else {
                            b.entries[s].work as u16 + 1
                        }
                    })
                    .unwrap_or(0);
                let free = b.keys[slot] == 0;
                if free || b.entries[slot].work < e.work {
                    b.keys[slot] = key;
                    b.entries[slot] = e;
                }
                self.used += free as usize;
            }
        }
    }

    /// Asks the CPU to fetch the bucket of `key` (probed soon after).
    #[inline(always)]
    pub fn prefetch(&mut self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            // The keys, and the line of the first two entries (a bucket
            // holds two on average, in its first slots).
            let p = self.bucket(key | 1) as *const Bucket as *const i8;
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
            unsafe { std::arch::x86_64::_mm_prefetch(p.add(64), std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The numbers of board `key` with attacker hand `hand` for a mate within
    /// `plies`, if known exactly or by hand superiority: a proof must be that
    /// short, a disproof must cover that many plies.
    #[inline]
    pub fn probe(&mut self, key: u64, hand: u64, plies: u16) -> Option<Numbers> {
        let key = key | 1;
        let b = self.bucket(key);
        let mut exact = None;
        for (&k, e) in b.keys.iter().zip(&b.entries) {
            if k != key {
                continue;
            }
            if e.flags & PROVEN != 0 && e.len <= plies && Hand::packed_covers(hand, e.hand) {
                return Some(Numbers {
                    pn: 0,
                    dn: INF,
                    len: e.len,
                    hand: e.hand,
                });
            }
            if e.flags & DISPROVEN != 0 && plies <= e.limit && Hand::packed_covers(e.hand, hand) {
                return Some(Numbers {
                    pn: INF,
                    dn: 0,
                    len: e.limit,
                    hand,
                });
            }
            if e.hand == hand && e.flags & OPEN != 0 {
                exact = Some(Numbers {
                    pn: e.pn,
                    dn: e.dn,
                    len: 0,
                    hand,
                });
            }
        }
        exact
    }

    /// Records the numbers of board `key` with attacker hand `hand` (a proof
    /// is recorded under its proof hand `n.hand`), found with `nodes` nodes
    /// of work in a search for a mate within `plies`.
    pub fn store(&mut self, key: u64, hand: u64, n: Numbers, nodes: u64, plies: u16) {
        let key = key | 1;
        let hand = if n.pn == 0 { n.hand } else { hand };
        let work = (64 - nodes.leading_zeros()) as u8 + 1;
        let b = self.bucket(key);
        let mut slot = 0;
        let mut least = u8::MAX;
        let mut same = false;
        for (i, (&k, e)) in b.keys.iter().zip(&b.entries).enumerate() {
            if k == key && e.hand == hand {
                slot = i;
                same = true;
                break;
            }
            // A proof makes the same board's entries with more attacker
            // pieces and no shorter proof (nor any disproof) redundant; a
            // disproof those with fewer pieces and no longer reach (nor any
            // proof).
            let redundant = k == key
                && ((n.pn == 0
                    && e.flags & DISPROVEN == 0
                    && (e.flags & PROVEN == 0 || e.len >= n.len)
                    && Hand::packed_covers(e.hand, hand))
                    || (n.dn == 0
                        && e.flags & PROVEN == 0
                        && (e.flags & DISPROVEN == 0 || e.limit <= plies)
                        && Hand::packed_covers(hand, e.hand)));
            let w = if k == 0 || redundant { 0 } else { e.work };
            if w < least {
                least = w;
                slot = i;
            }
        }
        let filled = b.keys[slot] == 0;
        let e = &mut b.entries[slot];
        if !same {
            b.keys[slot] = key;
            *e = Entry {
                hand,
                ..Entry::default()
            };
        }
        e.work = e.work.max(work);
        if n.pn == 0 {
            e.len = if e.flags & PROVEN != 0 {
                e.len.min(n.len)
            } else {
                n.len
            };
            e.flags = (e.flags | PROVEN) & !OPEN;
            if e.flags & DISPROVEN != 0 && e.limit >= e.len {
                e.flags &= !DISPROVEN;
            }
        } else if n.dn == 0 {
            e.limit = if e.flags & DISPROVEN != 0 {
                e.limit.max(plies)
            } else {
                plies
            };
            e.flags = (e.flags | DISPROVEN) & !OPEN;
            if e.flags & PROVEN != 0 && e.len <= e.limit {
                e.flags &= !PROVEN;
            }
        } else {
            e.pn = n.pn;
            e.dn = n.dn;
            e.flags |= OPEN;
        }
        if filled {
            self.used += 1;
            if self.used * GROW_AT > self.active * BUCKET_ENTRIES {
                self.grow();
            }
        }
    }

    /// Records that the open entry of board `key` with attacker hand `hand`
    /// was last searched from the position (`parent_key`, `parent_hand`),
    /// one ply above (so the hands differ by at most one piece).
    pub fn link(&mut self, key: u64, hand: u64, parent_key: u64, parent_hand: u64) {
        let key = key | 1;
        let Some(step) = hand_step(hand, parent_hand) else {
            return;
        };
        let b = self.bucket(key);
        if let Some((_, e)) = b
            .keys
            .iter()
            .zip(b.entries.iter_mut())
            .find(|(&k, e)| k == key && e.hand == hand && e.flags & OPEN != 0)
        {
            e.parent = parent_key;
            e.parent_step = step;
        }
    }

    /// The proof number of the open entry of board `key` with attacker
    /// hand `hand`, and the board key and attacker hand of the position it
    /// was last searched from (`link`), if the table has them.
    pub fn parent(&mut self, key: u64, hand: u64) -> Option<(u32, u64, u64)> {
        let key = key | 1;
        let b = self.bucket(key);
        let (_, e) = b
            .keys
            .iter()
            .zip(&b.entries)
            .find(|(&k, e)| k == key && e.hand == hand && e.flags & OPEN != 0)?;
        if e.parent == 0 {
            return None;
        }
        Some((e.pn, e.parent, apply_hand_step(hand, e.parent_step)))
    }

    /// The shortest proof the table holds for board `key` with attacker
    /// hand `hand` (by hand superiority too); `probe` takes the first that
    /// is short enough, reading a line wants the tightest bound.
    pub fn probe_shortest(&mut self, key: u64, hand: u64) -> Option<Numbers> {
        let key = key | 1;
        let b = self.bucket(key);
        b.keys
            .iter()
            .zip(&b.entries)
            .filter(|(&k, e)| {
                k == key && e.flags & PROVEN != 0 && Hand::packed_covers(hand, e.hand)
            })
            .map(|(_, e)| e)
            .min_by_key(|e| e.len)
            .map(|e| Numbers {
                pn: 0,
                dn: INF,
                len: e.len,
                hand: e.hand,
            })
    }

    /// Used slots per thousand of the whole table.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / (self.buckets.len() * BUCKET_ENTRIES) as u64) as u32
    }
}

/// `MateTable::link`'s code of the hand one ply above, `above`, from the
/// hand `here`: 0 the same, `2k + 1` one more piece of kind `k`, `2k + 2`
/// one fewer (None: they differ by more, which one ply cannot do).
fn hand_step(here: u64, above: u64) -> Option<u8> {
    if here == above {
        return Some(0);
    }
    let (h, a) = (here.to_le_bytes(), above.to_le_bytes());
    let mut step = None;
    for k in 0..8 {
        let code = match a[k] as i16 - h[k] as i16 {
            0 => continue,
            1 => 2 * k as u8 + 1,
            -1 => 2 * k as u8 + 2,
            _ => return None,
        };
        if step.is_some() {
            return None;
        }
        step = Some(code);
    }
    step
}

/// The hand one ply above `here` from its `hand_step` code.
fn apply_hand_step(here: u64, step: u8) -> u64 {
    if step == 0 {
        return here;
    }
    let k = (step - 1) / 2;
    let unit = 1u64 << (8 * k as u32);
    if step % 2 == 1 {
        here + unit
    } else {
        here - unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(counts: [u8; 8]) -> u64 {
        u64::from_le_bytes(counts)
    }

    /// A proof of `len` plies needing hand `h`.
    fn proof(len: u16, h: u64) -> Numbers {
        Numbers {
            pn: 0,
            dn: INF,
            len,
            hand: h,
        }
    }

    /// A disproof (its reach is the `plies` given to `store`).
    fn disproof(h: u64) -> Numbers {
        Numbers {
            pn: INF,
            dn: 0,
            len: 0,
            hand: h,
        }
    }

    #[test]
    fn superior_hands_share_proofs_and_disproofs() {
        let mut t = MateTable::try_new(1).unwrap();
        let key = 0xdead_beef_0000_1234;
        let h = hand([1, 0, 2, 0, 0, 0, 0, 0]);
        assert_eq!(t.probe(key, h, NO_LIMIT), None);
        t.store(key, h, proof(7, h), 100, NO_LIMIT);
        // More attacker pieces: still proven.
        let more = hand([1, 1, 2, 0, 0, 0, 0, 0]);
        assert_eq!(
            t.probe(key, more, NO_LIMIT).map(|n| (n.pn, n.len)),
            Some((0, 7))
        );
        // Fewer: unknown.
        assert_eq!(t.probe(key, hand([0, 0, 2, 0, 0, 0, 0, 0]), NO_LIMIT), None);
        let other = 0x1111_2222_3333_4444;
        t.store(other, more, disproof(more), 100, NO_LIMIT);
        assert_eq!(t.probe(other, h, NO_LIMIT).map(|n| n.dn), Some(0));
        assert_eq!(
            t.probe(other, hand([2, 1, 2, 0, 0, 0, 0, 0]), NO_LIMIT),
            None
        );
        // Unknown numbers are kept for the exact hand only.
        t.store(
            other,
            hand([5, 0, 0, 0, 0, 0, 0, 0]),
            Numbers {
                pn: 3,
                dn: 4,
                len: 0,
                hand: 0,
            },
            10,
            NO_LIMIT,
        );
        let n = t
            .probe(other, hand([5, 0, 0, 0, 0, 0, 0, 0]), NO_LIMIT)
            .unwrap();
        assert_eq!((n.pn, n.dn), (3, 4));
    }

    #[test]
    fn proofs_and_disproofs_have_a_length() {
        let mut t = MateTable::try_new(1).unwrap();
        let h = hand([1, 0, 0, 0, 0, 0, 0, 0]);
        t.store(7, h, proof(9, h), 10, NO_LIMIT);
        assert_eq!(t.probe(7, h, 9).map(|n| n.len), Some(9));
        assert_eq!(t.probe(7, h, 7), None);
        // No mate within 5 plies: says nothing of 7.
        t.store(8, h, disproof(h), 10, 5);
        assert_eq!(t.probe(8, h, 5).map(|n| n.dn), Some(0));
        assert_eq!(t.probe(8, h, 3).map(|n| n.dn), Some(0));
        assert_eq!(t.probe(8, h, 7), None);
    }

    #[test]
    fn a_proof_and_a_disproof_share_an_entry() {
        let mut t = MateTable::try_new(1).unwrap();
        let h = hand([0, 1, 0, 0, 0, 0, 0, 0]);
        // Mate in 21, not within 19: both bounds stay, in either order.
        for (a, b) in [(proof(21, h), disproof(h)), (disproof(h), proof(21, h))] {
            let key = 0x5eed ^ u64::from(a.pn);
            t.store(key, h, a, 10, 19);
            t.store(key, h, b, 10, 19);
            assert_eq!(t.probe(key, h, 21).map(|n| (n.pn, n.len)), Some((0, 21)));
            assert_eq!(t.probe(key, h, 19).map(|n| n.dn), Some(0));
            assert_eq!(t.probe(key, h, 20), None);
            // Facts that contradict (only a key collision makes them): the
            // newer one stays.
            t.store(key, h, proof(17, h), 10, 17);
            assert_eq!(t.probe(key, h, 19).map(|n| (n.pn, n.len)), Some((0, 17)));
        }
    }

    #[test]
    fn a_full_bucket_keeps_the_most_work() {
        let mut t = MateTable::try_new(1).unwrap();
        let key = 42;
        for i in 0..(2 * BUCKET_ENTRIES as u64) {
            let n = Numbers {
                pn: 1 + i as u32,
                dn: 1,
                len: 0,
                hand: 0,
            };
            // Entry 3 has far more work behind it than the others.
            let nodes = if i == 3 { 1 << 20 } else { 1 + i };
            t.store(
                key,
                hand([i as u8, 0, 0, 0, 0, 0, 0, 0]),
                n,
                nodes,
                NO_LIMIT,
            );
        }
        assert_eq!(
            t.probe(key, hand([3, 0, 0, 0, 0, 0, 0, 0]), NO_LIMIT)
                .unwrap()
                .pn,
            4
        );
        let kept = (0..2 * BUCKET_ENTRIES as u8)
            .filter(|&i| {
                t.probe(key, hand([i, 0, 0, 0, 0, 0, 0, 0]), NO_LIMIT)
                    .is_some()
            })
            .count();
        assert_eq!(kept, BUCKET_ENTRIES);
        assert!(t.hashfull() <= 1000);
    }

    #[test]
    fn open_entries_link_to_the_position_above() {
        let mut t = MateTable::try_new(1).unwrap();
        let open = Numbers {
            pn: 3,
            dn: 5,
            len: 0,
            hand: 0,
        };
        let h = hand([2, 1, 0, 0, 0, 0, 0, 0]);
        t.store(11, h, open, 10, NO_LIMIT);
        assert_eq!(t.parent(11, h), None);
        // A pawn dropped, a silver captured, nothing: the hand above.
        for above in [
            hand([3, 1, 0, 0, 0, 0, 0, 0]),
            hand([2, 1, 0, 0, 0, 0, 0, 0]),
            hand([2, 0, 0, 0, 0, 0, 0, 0]),
        ] {
            t.link(11, h, 22, above);
            assert_eq!(t.parent(11, h), Some((3, 22, above)));
        }
        // Two pieces apart is not one ply: no link.
        t.link(11, h, 23, hand([3, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(t.parent(11, h).map(|p| p.1), Some(22));
        // Only the exact hand's open entry has one, and not once proven.
        assert_eq!(t.parent(11, hand([3, 1, 0, 0, 0, 0, 0, 0])), None);
        t.store(11, h, proof(9, h), 10, NO_LIMIT);
        assert_eq!(t.parent(11, h), None);
    }

    #[test]
    fn growing_keeps_the_entries() {
        // 64 MB: 209k buckets of 320 bytes, of which 16k are in use at
        // first; 200k entries make the part in use double three times.
        let mut t = MateTable::try_new(64).unwrap();
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i << 7);
        let count = 200_000u64;
        for i in 0..count {
            t.store(key(i), 0, disproof(0), 1 + i % 64, NO_LIMIT);
        }
        assert!(t.active >= FIRST_BUCKETS * 8, "{}", t.active);
        let kept = (0..count)
            .filter(|&i| t.probe(key(i), 0, NO_LIMIT).is_some_and(|n| n.dn == 0))
            .count() as u64;
        // A bucket holds 8; at 2 entries a bucket on average a handful
        // overflow and drop their least work.
        assert!(kept * 1000 >= count * 999, "{kept} of {count}");
        assert_eq!(t.used as u64, kept);
        let slots = 64 * (1 << 20) / (std::mem::size_of::<Bucket>() / BUCKET_ENTRIES) as u64;
        assert_eq!(t.hashfull() as u64, kept * 1000 / slots);
    }
}
