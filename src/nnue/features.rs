//! The network's inputs: which features are on in a position, seen from one
//! player's side.
//!
//! A feature is a piece on a square or the n-th piece of a kind in hand, and
//! it is named relative to the perspective: "mine" or "theirs", and squares as
//! that player sees the board (White's view is the board turned 180°). Both
//! perspectives therefore share one weight matrix.
//!
//! Index layout for a variant with `K` kinds, `S` squares and `H` hand kinds:
//! `(rel * K + kind) * S + square` for the board (`rel` 0 mine, 1 theirs),
//! then `2 * K * S + (rel * H + kind) * HAND_SLOTS + n` for holding more than
//! `n` of `kind`.

use crate::core::{BitWord, Color, Square};
use crate::position::{Move, Position};
use crate::variant::{Kind, Variant};
use arrayvec::ArrayVec;

/// Hand features per kind: holding 1, 2, ... up to this many (shogi's 18 pawns).
pub const HAND_SLOTS: usize = 18;

/// Most features on at once: a full board and full hands.
pub const MAX_ACTIVE: usize =
    crate::core::MAX_SQUARES + 2 * crate::variant::MAX_HAND_KINDS * HAND_SLOTS;

/// The active features of one perspective.
pub type Features = ArrayVec<u16, MAX_ACTIVE>;

/// The feature space of one variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    files: usize,
    squares: usize,
    kinds: usize,
    hand_kinds: usize,
}

impl Layout {
    /// The layout of `v`'s inputs.
    pub fn of(v: &Variant) -> Layout {
        Layout {
            files: v.geometry().files as usize,
            squares: v.geometry().squares(),
            kinds: v.num_kinds(),
            hand_kinds: v.hand_kinds,
        }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        2 * self.kinds * self.squares + 2 * self.hand_kinds * HAND_SLOTS
    }

    /// The feature of `owner`'s `kind` on `sq`, seen by `persp`.
    #[inline(always)]
    pub fn board(&self, persp: Color, owner: Color, kind: Kind, sq: Square) -> u16 {
        let rel = (persp != owner) as usize;
        let s = if persp == Color::Black {
            sq.index()
        } else {
            self.squares - 1 - sq.index()
        };
        ((rel * self.kinds + kind.index()) * self.squares + s) as u16
    }

    /// The feature of `owner` holding more than `n` of `kind`, seen by
    /// `persp`; `None` past `HAND_SLOTS`.
    #[inline(always)]
    pub fn hand(&self, persp: Color, owner: Color, kind: Kind, n: usize) -> Option<u16> {
        if n >= HAND_SLOTS {
            return None;
        }
        let rel = (persp != owner) as usize;
        let base = 2 * self.kinds * self.squares;
        Some((base + (rel * self.hand_kinds + kind.index()) * HAND_SLOTS + n) as u16)
    }

    /// The same feature seen by the other player: owners swapped, board
    /// turned. `f` must be below `inputs()`.
    pub fn flip(&self, f: u16) -> u16 {
        let f = f as usize;
        let board = 2 * self.kinds * self.squares;
        if f < board {
            let (rel_kind, s) = (f / self.squares, f % self.squares);
            let (rel, kind) = (rel_kind / self.kinds, rel_kind % self.kinds);
            (((1 - rel) * self.kinds + kind) * self.squares + self.squares - 1 - s) as u16
        } else {
            let h = f - board;
            let per_side = self.hand_kinds * HAND_SLOTS;
            let (rel, rest) = (h / per_side, h % per_side);
            (board + (1 - rel) * per_side + rest) as u16
        }
    }

    /// The same feature in the mirrored position (files reversed; hands
    /// unchanged). `f` must be below `inputs()`.
    pub fn mirror(&self, f: u16) -> u16 {
        let f = f as usize;
        if f >= 2 * self.kinds * self.squares {
            return f as u16;
        }
        let (piece, s) = (f / self.squares, f % self.squares);
        let (rank, file) = (s / self.files, s % self.files);
        (piece * self.squares + rank * self.files + self.files - 1 - file) as u16
    }

    /// Every active feature of `pos` seen by `persp`.
    pub fn active<W: BitWord>(&self, pos: &Position<W>, persp: Color) -> Features {
        let mut f = Features::new();
        for sq in pos.occupied() {
            let p = pos.piece_at(sq);
            f.push(self.board(persp, p.color(), p.kind(), sq));
        }
        for owner in Color::ALL {
            for k in 0..self.hand_kinds {
                let kind = Kind(k as u8);
                for n in 0..pos.hand(owner).count(kind) {
                    if let Some(h) = self.hand(persp, owner, kind, n) {
                        f.push(h);
                    }
                }
            }
        }
        f
    }

    /// What playing `m` in `pos` changes for `persp`: features removed and
    /// features added (at most two each).
    #[inline]
    pub fn changes<W: BitWord>(&self, pos: &Position<W>, m: Move, persp: Color) -> Change {
        let v = pos.variant();
        let us = pos.side_to_move();
        let to = m.to();
        let mut c = Change::default();
        if m.is_drop() {
            let k = m.drop_kind();
            let held = pos.hand(us).count(k);
            if let Some(h) = self.hand(persp, us, k, held - 1) {
                c.removed.push(h);
            }
            c.added.push(self.board(persp, us, k, to));
            return c;
        }
        let from = m.from();
        let k = pos.piece_at(from).kind();
        c.removed.push(self.board(persp, us, k, from));
        let captured = pos.piece_at(to);
        if captured.is_some() {
            c.removed
                .push(self.board(persp, us.opp(), captured.kind(), to));
            if self.hand_kinds > 0 {
                let base = v.kind(captured.kind()).base;
                if let Some(h) = self.hand(persp, us, base, pos.hand(us).count(base)) {
                    c.added.push(h);
                }
            }
        }
        let nk = if m.is_promotion() {
            v.kind(k).promotes_to.unwrap_or(k)
        } else {
            k
        };
        c.added.push(self.board(persp, us, nk, to));
        c
    }
}

/// The features a move turns off and on, for one perspective.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Features turned off.
    pub removed: ArrayVec<u16, 2>,
    /// Features turned on.
    pub added: ArrayVec<u16, 2>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // The start position is symmetric: both sides see the same features.
        for v in Variant::all() {
            let pos = Position::<u128>::startpos(v);
            let l = Layout::of(v);
            let mut b: Vec<u16> = l.active(&pos, Color::Black).to_vec();
            let mut w: Vec<u16> = l.active(&pos, Color::White).to_vec();
            b.sort();
            w.sort();
            assert_eq!(b, w, "{}", v.name());
            assert!(b.iter().all(|&f| (f as usize) < l.inputs()));
            // flip maps one perspective's features onto the other's.
            // ... in positions that are not symmetric, with pieces in hand.
            let mut pos = pos;
            for i in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let capture = moves
                    .iter()
                    .find(|m| !m.is_drop() && pos.piece_at(m.to()).is_some());
                pos.do_move(*capture.unwrap_or(&moves[(i * 7) % moves.len()]));
            }
            for persp in Color::ALL {
                let mut flipped: Vec<u16> =
                    l.active(&pos, persp).iter().map(|&f| l.flip(f)).collect();
                let mut other: Vec<u16> = l.active(&pos, persp.opp()).to_vec();
                flipped.sort();
                other.sort();
                assert_eq!(flipped, other);
            }
            for f in 0..l.inputs() as u16 {
                assert_eq!(l.flip(l.flip(f)), f);
            }
        }
    }

    /// The SFEN with every rank reversed (files mirrored).
    fn mirrored(sfen: &str) -> String {
        let (board, rest) = sfen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| {
                let mut toks: Vec<String> = Vec::new();
                let mut cur = String::new();
                for c in r.chars() {
                    cur.push(c);
                    if c != '+' {
                        toks.push(std::mem::take(&mut cur));
                    }
                }
                toks.reverse();
                toks.concat()
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn mirrored_positions_have_mirrored_features() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            assert!(v.mirror_symmetric(), "{name}");
            let l = Layout::of(v);
            let a = Position::<u128>::from_sfen(v, sfen).unwrap();
            let b = Position::<u128>::from_sfen(v, &mirrored(sfen)).unwrap();
            for persp in Color::ALL {
                let mut m: Vec<u16> = l.active(&a, persp).iter().map(|&f| l.mirror(f)).collect();
                let mut got: Vec<u16> = l.active(&b, persp).to_vec();
                m.sort();
                got.sort();
                assert_eq!(m, got, "{name} {sfen}");
            }
        }
    }

    #[test]
    fn changes_match_the_features_after_the_move() {
        let v = Variant::by_name("shogi").unwrap();
        // Captures with promotion, drops and plain moves.
        let mut pos = Position::<u128>::from_sfen(
            v,
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PP1PPPPPP/1B5R1/LNSGKGSNL b P 3",
        )
        .unwrap();
        let l = Layout::of(v);
        for m in ["8h2b+", "3a2b", "P*7e", "B*5e", "3g3f"] {
            let m = Move::from_usi(v, m).unwrap();
            for persp in Color::ALL {
                let before: Vec<u16> = l.active(&pos, persp).to_vec();
                let c = l.changes(&pos, m, persp);
                pos.do_move(m);
                let mut expect: Vec<u16> = before
                    .iter()
                    .copied()
                    .filter(|f| !c.removed.contains(f))
                    .chain(c.added.iter().copied())
                    .collect();
                let mut got: Vec<u16> = l.active(&pos, persp).to_vec();
                pos.undo_move();
                expect.sort();
                got.sort();
                assert_eq!(expect, got, "{}", m.to_usi(v));
            }
            pos.do_move(m);
        }
    }
}
