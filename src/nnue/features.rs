//! The network's inputs: which features are on in a position, seen from one
//! player's side.
//!
//! A feature is a piece on a square or the n-th piece of a kind in hand, and
//! it is named relative to the perspective: "mine" or "theirs", and squares as
//! that player sees the board (White's view is the board turned 180°). Both
//! perspectives therefore share one weight matrix.
//!
//! The piece-square part for a variant with `K` kinds, `S` squares and `H`
//! hand kinds (`P` inputs in all): `(rel * K + kind) * S + square` for the
//! board (`rel` 0 mine, 1 theirs), then `2 * K * S + (rel * H + kind) *
//! HAND_SLOTS + n` for holding more than `n` of `kind`.
//!
//! [`FeatureSet::KingBuckets`] repeats that block once per bucket of the
//! perspective's own king square (`bucket * P + index`), with the board
//! mirrored (files reversed) when that king stands on the right half, so
//! each bucket sees its king on the left: the evaluation knows where its king
//! is, and a king move across a bucket refreshes its side's sums.

use crate::core::{BitWord, Color, Square};
use crate::position::{Move, Position};
use crate::variant::{Kind, Variant};
use arrayvec::ArrayVec;

/// Hand features per kind: holding 1, 2, ... up to this many (shogi's 18 pawns).
pub const HAND_SLOTS: usize = 18;

/// Most features on at once: a full board and full hands.
pub const MAX_ACTIVE: usize =
    crate::core::MAX_SQUARES + 2 * crate::variant::MAX_HAND_KINDS * HAND_SLOTS;

/// King buckets by rank: the back rank, the second, and every rank beyond
/// (a king that has left its camp is rare enough in play to share one).
pub const KING_RANK_BANDS: usize = 3;

/// The active features of one perspective.
pub type Features = ArrayVec<u16, MAX_ACTIVE>;

/// What a network's inputs are; a network file names its set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum FeatureSet {
    /// Pieces on squares and hand counts.
    #[default]
    Psq,
    /// The same once per bucket of the own king's square (HalfKA-style).
    KingBuckets,
}

impl FeatureSet {
    /// Every set, in file-id order.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Psq, FeatureSet::KingBuckets];

    /// The id a network file stores.
    pub fn id(self) -> u32 {
        match self {
            FeatureSet::Psq => 0,
            FeatureSet::KingBuckets => 1,
        }
    }

    /// The set of a file's id, if this build knows it.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Its name on the command line (`kawari train --features`).
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Psq => "psq",
            FeatureSet::KingBuckets => "king-buckets",
        }
    }

    /// The set named `name`.
    pub fn by_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Where one perspective's features start (its king's bucket) and whether
/// its board is read mirrored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Frame {
    base: usize,
    mirror: bool,
}

impl Frame {
    /// The first feature of the frame's bucket.
    #[inline(always)]
    pub fn base(self) -> usize {
        self.base
    }

    /// Which frame of `layout` this is, `0..layout.frames()`: its bucket,
    /// read plain or mirrored.
    #[inline]
    pub fn slot(self, layout: &Layout) -> usize {
        2 * (self.base / layout.bucket_inputs()) + self.mirror as usize
    }
}

/// The feature space of one variant under one feature set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    files: usize,
    ranks: usize,
    squares: usize,
    kinds: usize,
    hand_kinds: usize,
    set: FeatureSet,
}

impl Layout {
    /// The piece-square layout of `v`'s inputs.
    pub fn of(v: &Variant) -> Layout {
        Layout::with(v, FeatureSet::Psq)
    }

    /// The layout of `v`'s inputs under `set`.
    pub fn with(v: &Variant, set: FeatureSet) -> Layout {
        Layout {
            files: v.geometry().files as usize,
            ranks: v.geometry().ranks as usize,
            squares: v.geometry().squares(),
            kinds: v.num_kinds(),
            hand_kinds: v.hand_kinds,
            set,
        }
    }

    /// The feature set.
    pub fn set(&self) -> FeatureSet {
        self.set
    }

    /// Inputs of one bucket: the piece-square block.
    pub fn bucket_inputs(&self) -> usize {
        2 * self.kinds * self.squares + 2 * self.hand_kinds * HAND_SLOTS
    }

    /// Files a king bucket tells apart (the left half, centre included).
    fn half_files(&self) -> usize {
        self.files.div_ceil(2)
    }

    /// Number of king buckets (1 for `Psq`).
    pub fn buckets(&self) -> usize {
        match self.set {
            FeatureSet::Psq => 1,
            FeatureSet::KingBuckets => KING_RANK_BANDS * self.half_files(),
        }
    }

    /// Number of frames a perspective can be in: each bucket, plain or
    /// mirrored.
    pub fn frames(&self) -> usize {
        2 * self.buckets()
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.buckets() * self.bucket_inputs()
    }

    /// The piece-square feature a feature repeats (its bucket dropped): the
    /// trainer learns a factor shared by all buckets on these.
    #[inline(always)]
    pub fn factor(&self, f: u16) -> u16 {
        (f as usize % self.bucket_inputs()) as u16
    }

    /// `sq` as `persp` sees the board.
    #[inline(always)]
    fn oriented(&self, persp: Color, sq: Square) -> usize {
        if persp == Color::Black {
            sq.index()
        } else {
            self.squares - 1 - sq.index()
        }
    }

    /// The frame of `persp` whose king stands on `king`.
    #[inline]
    fn frame_at(&self, persp: Color, king: Square) -> Frame {
        if self.set == FeatureSet::Psq {
            return Frame::default();
        }
        let s = self.oriented(persp, king);
        let (rank, file) = (s / self.files, s % self.files);
        let mirror = file >= self.half_files();
        let file = if mirror { self.files - 1 - file } else { file };
        let band = (self.ranks - 1 - rank).min(KING_RANK_BANDS - 1);
        Frame {
            base: (band * self.half_files() + file) * self.bucket_inputs(),
            mirror,
        }
    }

    /// The frame of `persp` in `pos` (the first bucket without a king).
    #[inline]
    pub fn frame<W: BitWord>(&self, pos: &Position<W>, persp: Color) -> Frame {
        if self.set == FeatureSet::Psq || !pos.has_king(persp) {
            return Frame::default();
        }
        self.frame_at(persp, pos.king_square(persp))
    }

    /// The feature of `owner`'s `kind` on `sq`, seen by `persp` in `frame`.
    #[inline(always)]
    pub fn board(&self, frame: Frame, persp: Color, owner: Color, kind: Kind, sq: Square) -> u16 {
        let rel = (persp != owner) as usize;
        let mut s = self.oriented(persp, sq);
        if frame.mirror {
            let file = s % self.files;
            s = s - file + (self.files - 1 - file);
        }
        (frame.base + (rel * self.kinds + kind.index()) * self.squares + s) as u16
    }

    /// The feature of `owner` holding more than `n` of `kind`, seen by
    /// `persp` in `frame`; `None` past `HAND_SLOTS`.
    #[inline(always)]
    pub fn hand(
        &self,
        frame: Frame,
        persp: Color,
        owner: Color,
        kind: Kind,
        n: usize,
    ) -> Option<u16> {
        if n >= HAND_SLOTS {
            return None;
        }
        let rel = (persp != owner) as usize;
        let base = frame.base + 2 * self.kinds * self.squares;
        Some((base + (rel * self.hand_kinds + kind.index()) * HAND_SLOTS + n) as u16)
    }

    /// The same piece-square feature in the mirrored position (files
    /// reversed; hands unchanged). `f` must be below `bucket_inputs()`.
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
        let frame = self.frame(pos, persp);
        let mut f = Features::new();
        for sq in pos.occupied() {
            let p = pos.piece_at(sq);
            f.push(self.board(frame, persp, p.color(), p.kind(), sq));
        }
        for owner in Color::ALL {
            for k in 0..self.hand_kinds {
                let kind = Kind(k as u8);
                for n in 0..pos.hand(owner).count(kind) {
                    if let Some(h) = self.hand(frame, persp, owner, kind, n) {
                        f.push(h);
                    }
                }
            }
        }
        f
    }

    /// What playing `m` in `pos` changes for each perspective (Black's,
    /// White's), the move read once: features removed and features added
    /// (at most two each), or a refresh when that perspective's own king
    /// moves to another frame.
    #[inline]
    pub fn changes_both<W: BitWord>(&self, pos: &Position<W>, m: Move) -> [Change; 2] {
        // Compiled apart per set, so piece-square networks pay nothing for
        // frames.
        match self.set {
            FeatureSet::Psq => self.changes_in::<false, W>(pos, m),
            FeatureSet::KingBuckets => self.changes_in::<true, W>(pos, m),
        }
    }

    #[inline(always)]
    fn changes_in<const KING: bool, W: BitWord>(&self, pos: &Position<W>, m: Move) -> [Change; 2] {
        let v = pos.variant();
        let us = pos.side_to_move();
        let to = m.to();
        let mut out = [Change::default(), Change::default()];
        let frames = if KING {
            Color::ALL.map(|persp| self.frame(pos, persp))
        } else {
            [Frame::default(); 2]
        };
        if m.is_drop() {
            let k = m.drop_kind();
            let held = pos.hand(us).count(k);
            for (persp, c) in Color::ALL.into_iter().zip(&mut out) {
                let frame = frames[persp.index()];
                if let Some(h) = self.hand(frame, persp, us, k, held - 1) {
                    c.removed.push(h);
                }
                c.added.push(self.board(frame, persp, us, k, to));
            }
            return out;
        }
        let from = m.from();
        let k = pos.piece_at(from).kind();
        let captured = pos.piece_at(to);
        let nk = if m.is_promotion() {
            v.kind(k).promotes_to.unwrap_or(k)
        } else {
            k
        };
        for (persp, c) in Color::ALL.into_iter().zip(&mut out) {
            let frame = frames[persp.index()];
            if KING && k == v.king && us == persp && self.frame_at(persp, to) != frame {
                c.refresh = true;
                continue;
            }
            c.removed.push(self.board(frame, persp, us, k, from));
            if captured.is_some() {
                c.removed
                    .push(self.board(frame, persp, us.opp(), captured.kind(), to));
                if self.hand_kinds > 0 {
                    let base = v.kind(captured.kind()).base;
                    let n = pos.hand(us).count(base);
                    if let Some(h) = self.hand(frame, persp, us, base, n) {
                        c.added.push(h);
                    }
                }
            }
            c.added.push(self.board(frame, persp, us, nk, to));
        }
        out
    }
}

/// The features a move turns off and on, for one perspective.
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// Features turned off.
    pub removed: ArrayVec<u16, 2>,
    /// Features turned on.
    pub added: ArrayVec<u16, 2>,
    /// Every feature changes: compute the sums afresh.
    pub refresh: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same piece-square feature seen by the other player: owners
    /// swapped, board turned. `f` must be below `bucket_inputs()`.
    fn flip(l: &Layout, f: u16) -> u16 {
        let f = f as usize;
        let board = 2 * l.kinds * l.squares;
        if f < board {
            let (rel_kind, s) = (f / l.squares, f % l.squares);
            let (rel, kind) = (rel_kind / l.kinds, rel_kind % l.kinds);
            (((1 - rel) * l.kinds + kind) * l.squares + l.squares - 1 - s) as u16
        } else {
            let h = f - board;
            let per_side = l.hand_kinds * HAND_SLOTS;
            let (rel, rest) = (h / per_side, h % per_side);
            (board + (1 - rel) * per_side + rest) as u16
        }
    }

    /// `before`, sorted, with change `c` applied.
    fn applied(before: &[u16], c: &Change) -> Vec<u16> {
        let mut after: Vec<u16> = before
            .iter()
            .copied()
            .filter(|f| !c.removed.contains(f))
            .chain(c.added.iter().copied())
            .collect();
        after.sort();
        after
    }

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
            scramble(&mut pos, 40, 0);
            for persp in Color::ALL {
                let mut flipped: Vec<u16> =
                    l.active(&pos, persp).iter().map(|&f| flip(&l, f)).collect();
                let mut other: Vec<u16> = l.active(&pos, persp.opp()).to_vec();
                flipped.sort();
                other.sort();
                assert_eq!(flipped, other);
            }
            for f in 0..l.inputs() as u16 {
                assert_eq!(flip(&l, flip(&l, f)), f);
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
                let c = l.changes_both(&pos, m)[persp.index()].clone();
                pos.do_move(m);
                let expect = applied(&before, &c);
                let mut got: Vec<u16> = l.active(&pos, persp).to_vec();
                pos.undo_move();
                got.sort();
                assert_eq!(expect, got, "{}", m.to_usi(v));
            }
            pos.do_move(m);
        }
    }

    /// Plays a few moves into `pos`, captures first, so hands fill.
    fn scramble(pos: &mut Position<u128>, plies: usize, salt: usize) {
        for i in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let capture = moves
                .iter()
                .find(|m| !m.is_drop() && pos.piece_at(m.to()).is_some());
            pos.do_move(*capture.unwrap_or(&moves[(i * 7 + salt) % moves.len()]));
        }
    }

    #[test]
    fn king_buckets_see_their_king_on_the_left() {
        for v in Variant::all() {
            let l = Layout::with(v, FeatureSet::KingBuckets);
            assert_eq!(
                l.buckets(),
                KING_RANK_BANDS * (v.geometry().files as usize).div_ceil(2)
            );
            for salt in 0..6 {
                let mut pos = Position::<u128>::startpos(v);
                scramble(&mut pos, 30, salt);
                let sfen = pos.to_sfen();
                let m = Position::<u128>::from_sfen(v, &mirrored(&sfen)).unwrap();
                for persp in Color::ALL {
                    let a = l.active(&pos, persp);
                    assert!(a.iter().all(|&f| (f as usize) < l.inputs()), "{sfen}");
                    // Every feature of one perspective lies in one bucket.
                    let bucket = a[0] as usize / l.bucket_inputs();
                    assert!(a.iter().all(|&f| f as usize / l.bucket_inputs() == bucket));
                    // Off the centre file, the mirrored position is the same
                    // position to its king's side.
                    let g = v.geometry();
                    let file = g.file_of(pos.king_square(persp)) as usize;
                    if 2 * file + 1 != g.files as usize {
                        let mut x = a.to_vec();
                        let mut y = l.active(&m, persp).to_vec();
                        x.sort();
                        y.sort();
                        assert_eq!(x, y, "{} {sfen}", v.name());
                    }
                    // The piece-square factor of each is the plain feature,
                    // mirrored when the king stands on the right half as
                    // the perspective sees the board.
                    let files = g.files as usize;
                    let seen = if persp == Color::Black {
                        file
                    } else {
                        files - 1 - file
                    };
                    let mirror = seen >= files.div_ceil(2);
                    let mut x: Vec<u16> = a.iter().map(|&f| l.factor(f)).collect();
                    let plain = Layout::of(v).active(&pos, persp);
                    let mut y: Vec<u16> = plain
                        .iter()
                        .map(|&f| if mirror { l.mirror(f) } else { f })
                        .collect();
                    x.sort();
                    y.sort();
                    assert_eq!(x, y, "{} {sfen}", v.name());
                }
            }
        }
    }

    #[test]
    fn king_bucket_changes_match_the_features_after_the_move() {
        for v in Variant::all() {
            let l = Layout::with(v, FeatureSet::KingBuckets);
            for salt in 0..4 {
                let mut pos = Position::<u128>::startpos(v);
                let (mut refreshes, mut king_moves) = (0, 0);
                for i in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.game_end().is_some() {
                        break;
                    }
                    // Prefer king moves, so that buckets change often.
                    let king = moves
                        .iter()
                        .find(|m| !m.is_drop() && pos.piece_at(m.from()).kind() == v.king);
                    let m = match king {
                        Some(&k) if i % 3 == salt % 3 => k,
                        _ => moves[(i * 13 + salt) % moves.len()],
                    };
                    let is_king = !m.is_drop() && pos.piece_at(m.from()).kind() == v.king;
                    king_moves += is_king as u32;
                    for persp in Color::ALL {
                        let before: Vec<u16> = l.active(&pos, persp).to_vec();
                        let c = l.changes_both(&pos, m)[persp.index()].clone();
                        pos.do_move(m);
                        let mut got: Vec<u16> = l.active(&pos, persp).to_vec();
                        pos.undo_move();
                        got.sort();
                        if c.refresh {
                            refreshes += 1;
                            assert!(is_king && persp == pos.side_to_move());
                            let mut b = before.clone();
                            b.sort();
                            assert_ne!(b, got, "a refresh changes the bucket or mirror");
                            continue;
                        }
                        assert_eq!(applied(&before, &c), got, "{} {}", v.name(), m.to_usi(v));
                    }
                    pos.do_move(m);
                }
                assert!(king_moves > 0, "{}", v.name());
                if salt == 0 {
                    assert!(refreshes > 0, "{}: no king move changed bucket", v.name());
                }
            }
        }
    }
}
