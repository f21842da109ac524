//! The accumulator stack: the first layer's sums for both perspectives at
//! every ply of the search, updated from the parent's by the few features a
//! move changes.
//!
//! Updates are lazy: a move only records its feature changes, and the sums
//! are brought up to date when a position is evaluated, from the nearest
//! ply above that has them. Nodes cut off before their evaluation (by the
//! table, by pruning on the parent's evaluation) never pay for an update.

use super::cache::RefreshCache;
use super::features::{Change, FeatureSet, Layout};
use super::network::Network;
use super::simd;
use crate::core::{BitWord, Color};
use crate::position::{Move, Position};

/// The feature changes into one ply, for each perspective.
#[derive(Clone, Debug, Default)]
struct Delta {
    changes: [Change; 2],
}

/// Accumulators for plies `0..capacity` of one search.
pub struct Accumulators {
    net: Option<&'static Network>,
    layout: Option<Layout>,
    hidden: usize,
    /// `values[ply]`: Black's sums then White's, `2 * hidden` values.
    values: Vec<i16>,
    /// `computed[ply][perspective]`: whether those sums are up to date.
    computed: Vec<[bool; 2]>,
    deltas: Vec<Delta>,
    /// King-bucket networks: the sums last refreshed in each frame.
    cache: RefreshCache,
}

impl Accumulators {
    /// A stack for `capacity` plies, without a network.
    pub fn new(capacity: usize) -> Accumulators {
        Accumulators {
            net: None,
            layout: None,
            hidden: 0,
            values: Vec::new(),
            computed: vec![[false; 2]; capacity],
            deltas: vec![Delta::default(); capacity],
            cache: RefreshCache::default(),
        }
    }

    /// The network in use, if any.
    #[inline(always)]
    pub fn network(&self) -> Option<&'static Network> {
        self.net
    }

    /// Uses `net` (or none) and sets ply 0 to `pos`, computed from scratch.
    pub fn reset<W: BitWord>(&mut self, net: Option<&'static Network>, pos: &Position<W>) {
        self.net = net;
        self.computed.iter_mut().for_each(|c| *c = [false; 2]);
        let Some(net) = net else {
            self.layout = None;
            return;
        };
        let layout = net.layout(pos.variant());
        self.layout = Some(layout);
        self.hidden = net.hidden();
        if layout.set() == FeatureSet::KingBuckets {
            self.cache.prepare(net, layout);
        }
        let need = self.computed.len() * 2 * self.hidden;
        if self.values.len() != need {
            self.values = vec![0; need];
        }
        for persp in Color::ALL {
            self.refresh(0, persp, pos);
        }
    }

    /// Computes `persp`'s sums at ply `ply` anew: through the refresh cache
    /// for king buckets, from scratch for piece-square networks (which only
    /// come here at the root).
    fn refresh<W: BitWord>(&mut self, ply: usize, persp: Color, pos: &Position<W>) {
        let (Some(net), Some(layout)) = (self.net, self.layout) else {
            return;
        };
        let h = self.hidden;
        let at = (2 * ply + persp.index()) * h;
        let out = &mut self.values[at..at + h];
        if layout.set() == FeatureSet::KingBuckets {
            self.cache.refresh(pos, persp, out);
        } else {
            net.accumulate(out, layout.active(pos, persp));
        }
        self.computed[ply][persp.index()] = true;
    }

    /// Records that ply `ply + 1` is `pos` (at `ply`) after `m`; call before
    /// `pos.do_move(m)`.
    #[inline]
    pub fn push_move<W: BitWord>(&mut self, ply: usize, pos: &Position<W>, m: Move) {
        let Some(layout) = self.layout else {
            return;
        };
        if ply + 1 >= self.computed.len() {
            return;
        }
        self.deltas[ply + 1].changes = layout.changes_both(pos, m);
        self.computed[ply + 1] = [false; 2];
    }

    /// Records that ply `ply + 1` is ply `ply` with the turn passed.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        if self.layout.is_none() || ply + 1 >= self.computed.len() {
            return;
        }
        self.deltas[ply + 1] = Delta::default();
        self.computed[ply + 1] = [false; 2];
    }

    /// The network's score of `pos`, which is at `ply`, for its side to
    /// move; `None` without a network.
    #[inline]
    pub fn evaluate<W: BitWord>(&mut self, ply: usize, pos: &Position<W>) -> Option<i32> {
        let net = self.net?;
        if ply >= self.computed.len() {
            return Some(self.evaluate_from_scratch(pos));
        }
        self.bring_up_to_date(ply, pos);
        let h = self.hidden;
        let acc = &self.values[ply * 2 * h..(ply + 1) * 2 * h];
        let (black, white) = acc.split_at(h);
        Some(match pos.side_to_move() {
            Color::Black => net.output(black, white),
            Color::White => net.output(white, black),
        })
    }

    /// The ply whose sums `persp`'s at `ply` are to be updated from, or
    /// `None` if they must be computed from scratch (no ply above has them,
    /// or a king move on the way changed the perspective's frame).
    #[inline(always)]
    fn start(&self, ply: usize, side: usize) -> Option<usize> {
        let mut from = ply;
        while !self.computed[from][side] {
            if from == 0 || self.deltas[from].changes[side].refresh {
                return None;
            }
            from -= 1;
        }
        Some(from)
    }

    /// Brings both perspectives' sums at `ply` up to date.
    #[inline]
    fn bring_up_to_date<W: BitWord>(&mut self, ply: usize, pos: &Position<W>) {
        let Some(net) = self.net else {
            return;
        };
        let starts = [self.start(ply, 0), self.start(ply, 1)];
        let h = self.hidden;
        // The usual case: both from the same ply, one copy of both halves.
        if let [Some(a), Some(b)] = starts {
            if a == b {
                for p in a + 1..=ply {
                    let (done, rest) = self.values.split_at_mut(p * 2 * h);
                    rest[..2 * h].copy_from_slice(&done[(p - 1) * 2 * h..]);
                    for side in 0..2 {
                        apply(
                            net,
                            &self.deltas[p].changes[side],
                            &mut rest[side * h..][..h],
                        );
                    }
                    self.computed[p] = [true; 2];
                }
                return;
            }
        }
        for (side, start) in starts.into_iter().enumerate() {
            let Some(from) = start else {
                self.refresh(ply, Color::ALL[side], pos);
                continue;
            };
            for p in from + 1..=ply {
                let (done, rest) = self.values.split_at_mut(p * 2 * h);
                let part = &mut rest[side * h..][..h];
                part.copy_from_slice(&done[(p - 1) * 2 * h + side * h..][..h]);
                apply(net, &self.deltas[p].changes[side], part);
                self.computed[p][side] = true;
            }
        }
    }

    /// The network's score of `pos` computed from scratch (to check the
    /// incremental one); 0 without a network.
    pub fn evaluate_from_scratch<W: BitWord>(&self, pos: &Position<W>) -> i32 {
        let (Some(net), Some(layout)) = (self.net, self.layout) else {
            return 0;
        };
        let sums = |persp: Color| {
            let mut acc = vec![0; net.hidden()];
            net.accumulate(&mut acc, layout.active(pos, persp));
            acc
        };
        let (us, them) = (sums(pos.side_to_move()), sums(pos.side_to_move().opp()));
        net.output(&us, &them)
    }
}

/// Applies one perspective's feature changes `c` to its sums `part`.
#[inline(always)]
fn apply(net: &Network, c: &Change, part: &mut [i16]) {
    match (c.removed.as_slice(), c.added.as_slice()) {
        (&[r], &[a]) => simd::update(part, &[net.row(r)], &[net.row(a)]),
        (&[r1, r2], &[a]) => simd::update(part, &[net.row(r1), net.row(r2)], &[net.row(a)]),
        (&[r1, r2], &[a1, a2]) => simd::update(
            part,
            &[net.row(r1), net.row(r2)],
            &[net.row(a1), net.row(a2)],
        ),
        (removed, added) => {
            for &r in removed {
                simd::update(part, &[net.row(r)], &[]);
            }
            for &a in added {
                simd::update(part, &[], &[net.row(a)]);
            }
        }
    }
}
