//! The refresh cache (a "Finny table") for king-bucket networks.
//!
//! A king move into another bucket, or across the centre file, changes every
//! feature of its side, and that side's sums are computed anew. Computing
//! them from the biases adds one row per piece; but the king tends to come
//! back to the buckets it has been in, where most pieces still stand as they
//! did. So each perspective keeps, per frame (bucket, plain or mirrored), the
//! sums of the last position refreshed in that frame and the features they
//! were made from; a refresh then only adds and removes the features that
//! differ, and stores the result back.
//!
//! An entry's sums are always exactly its features' (integer arithmetic), so
//! the cache never changes an evaluation, whatever positions came before; it
//! is only emptied when the network or the variant changes.

use super::features::{Layout, MAX_ACTIVE};
use super::network::Network;
use super::simd;
use crate::core::{BitWord, Color};
use crate::position::Position;
use arrayvec::ArrayVec;

/// Rows added and removed in one pass over the sums (each side).
const ROWS_PER_PASS: usize = 4;

/// The refresh cache of one search thread.
#[derive(Default)]
pub(super) struct RefreshCache {
    /// The network and layout the entries belong to.
    key: Option<(&'static Network, Layout)>,
    hidden: usize,
    /// `u64` words in one entry's feature set.
    words: usize,
    /// Frames per perspective.
    frames: usize,
    /// `sums[entry]`: `hidden` values, entry `persp * frames + slot`.
    sums: Vec<i16>,
    /// `bits[entry]`: the entry's features, relative to its frame's base,
    /// as a bit set of `words` words.
    bits: Vec<u64>,
    /// The current position's feature set, built during a refresh.
    scratch: Vec<u64>,
}

impl RefreshCache {
    /// Makes the cache `net`'s under `layout`: empty entries (the biases,
    /// no features), unless it is that already. Allocates only when the
    /// sizes change.
    pub(super) fn prepare(&mut self, net: &'static Network, layout: Layout) {
        if let Some((n, l)) = self.key {
            if std::ptr::eq(n, net) && l == layout {
                return;
            }
        }
        self.key = Some((net, layout));
        self.hidden = net.hidden();
        self.words = layout.bucket_inputs().div_ceil(64);
        self.frames = layout.frames();
        let entries = 2 * self.frames;
        self.sums.clear();
        for _ in 0..entries {
            self.sums.extend_from_slice(net.bias());
        }
        self.bits.clear();
        self.bits.resize(entries * self.words, 0);
        self.scratch.clear();
        self.scratch.resize(self.words, 0);
    }

    /// Sets `out` to `persp`'s sums in `pos`, from the entry of its frame,
    /// which is brought up to `pos`. The cache must have been prepared for
    /// the network and layout that `out` belongs to.
    pub(super) fn refresh<W: BitWord>(&mut self, pos: &Position<W>, persp: Color, out: &mut [i16]) {
        let Some((net, layout)) = self.key else {
            return;
        };
        let frame = layout.frame(pos, persp);
        let entry = persp.index() * self.frames + frame.slot(&layout);
        let base = frame.base();
        let cur = &mut self.scratch;
        cur.fill(0);
        for f in layout.active(pos, persp) {
            let i = f as usize - base;
            cur[i / 64] |= 1 << (i % 64);
        }
        let bits = &mut self.bits[entry * self.words..][..self.words];
        // Both sets hold a position's features, so neither side of the
        // difference can exceed a position's count.
        let mut removed = ArrayVec::<u16, MAX_ACTIVE>::new();
        let mut added = ArrayVec::<u16, MAX_ACTIVE>::new();
        for (w, (&now, was)) in cur.iter().zip(bits.iter_mut()).enumerate() {
            let mut diff = now ^ *was;
            while diff != 0 {
                let b = diff.trailing_zeros() as usize;
                diff &= diff - 1;
                let f = (base + w * 64 + b) as u16;
                if now >> b & 1 != 0 {
                    added.push(f);
                } else {
                    removed.push(f);
                }
            }
            *was = now;
        }
        let sums = &mut self.sums[entry * self.hidden..][..self.hidden];
        let (mut r, mut a) = (removed.chunks(ROWS_PER_PASS), added.chunks(ROWS_PER_PASS));
        loop {
            let (rs, ads) = (r.next().unwrap_or(&[]), a.next().unwrap_or(&[]));
            if rs.is_empty() && ads.is_empty() {
                break;
            }
            let rows = |fs: &[u16]| -> ArrayVec<&[i16], ROWS_PER_PASS> {
                fs.iter().map(|&f| net.row(f)).collect()
            };
            simd::update(sums, &rows(rs), &rows(ads));
        }
        out.copy_from_slice(sums);
    }
}
