//! Legal move generation. Moves are generated legal directly (check evasion
//! targets, pins, safe king squares), so nothing pseudo-legal leaks out. The
//! same code either fills a list or only counts (perft's last ply).

use super::{Move, Piece, Position};
use crate::core::{BitWord, Bitboard, Square};
use crate::variant::Kind;
use arrayvec::ArrayVec;

/// Upper bound on legal moves in any position of the built-in variants
/// (standard shogi's maximum is 593).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity move list (no allocation).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Receives generated moves, grouped per origin square or dropped kind.
trait MoveSink<W: BitWord> {
    /// Board moves from `from` to each of `targets`. On squares of `promo` the move
    /// may promote; on squares of `must` (a subset of `promo`) it must.
    fn board(&mut self, from: Square, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>);
    /// Board moves to each of `targets`, each from the square `delta` indices
    /// back (pieces with a single leap, moved set-wise).
    fn shifted(&mut self, delta: i32, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>);
    /// Drops of kind `k` on each of `targets`.
    fn drops(&mut self, k: Kind, targets: Bitboard<W>);
    /// True once a generator may stop (any move found, for existence queries).
    fn done(&self) -> bool {
        false
    }
    /// Whether king moves can be among the moves wanted (computing the safe
    /// squares is costly).
    fn king_moves_matter(&self) -> bool {
        true
    }
}

impl<W: BitWord> MoveSink<W> for MoveList {
    #[inline(always)]
    fn board(&mut self, from: Square, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        for to in targets {
            if promo.has(to) {
                self.push(Move::normal(from, to, true));
                if !must.has(to) {
                    self.push(Move::normal(from, to, false));
                }
            } else {
                self.push(Move::normal(from, to, false));
            }
        }
    }
    #[inline(always)]
    fn shifted(&mut self, delta: i32, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        for to in targets {
            let from = Square::new((to.index() as i32 - delta) as u8);
            if promo.has(to) {
                self.push(Move::normal(from, to, true));
                if !must.has(to) {
                    self.push(Move::normal(from, to, false));
                }
            } else {
                self.push(Move::normal(from, to, false));
            }
        }
    }
    #[inline(always)]
    fn drops(&mut self, k: Kind, targets: Bitboard<W>) {
        for to in targets {
            self.push(Move::drop(k, to));
        }
    }
}

/// Counts moves without listing them.
struct Counter(u64);

impl<W: BitWord> MoveSink<W> for Counter {
    #[inline(always)]
    fn board(&mut self, _: Square, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        self.0 += (targets.count() + promo.count() - must.count()) as u64;
    }
    #[inline(always)]
    fn shifted(&mut self, _: i32, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        self.0 += (targets.count() + promo.count() - must.count()) as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, targets: Bitboard<W>) {
        self.0 += targets.count() as u64;
    }
}

/// Counts moves without listing them, the drops on one square once.
struct CounterBySquare<W: BitWord> {
    board: Counter,
    drop_squares: Bitboard<W>,
}

impl<W: BitWord> MoveSink<W> for CounterBySquare<W> {
    #[inline(always)]
    fn board(&mut self, from: Square, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        self.board.board(from, targets, promo, must);
    }
    #[inline(always)]
    fn shifted(&mut self, delta: i32, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        self.board.shifted(delta, targets, promo, must);
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, targets: Bitboard<W>) {
        self.drop_squares |= targets;
    }
}

/// Stops at the first move.
struct Exists(bool);

impl<W: BitWord> MoveSink<W> for Exists {
    #[inline(always)]
    fn board(&mut self, _: Square, targets: Bitboard<W>, _: Bitboard<W>, _: Bitboard<W>) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn shifted(&mut self, _: i32, targets: Bitboard<W>, _: Bitboard<W>, _: Bitboard<W>) {
        self.0 |= targets.any();
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, targets: Bitboard<W>) {
        self.0 |= targets.any();
    }
    fn done(&self) -> bool {
        self.0
    }
}

/// Where the checks `Checks` finds go: a list, or only their number.
trait CheckOut<W: BitWord> {
    /// A board move that checks.
    fn board_move(&mut self, m: Move);
    /// Drops of kind `k` that check, one on each of `to`.
    fn drops(&mut self, k: Kind, to: Bitboard<W>);
}

impl<W: BitWord> CheckOut<W> for MoveList {
    #[inline(always)]
    fn board_move(&mut self, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn drops(&mut self, k: Kind, to: Bitboard<W>) {
        for s in to {
            self.push(Move::drop(k, s));
        }
    }
}

/// A borrowed output is filled in place (the solver's own list).
impl<W: BitWord, O: CheckOut<W>> CheckOut<W> for &mut O {
    #[inline(always)]
    fn board_move(&mut self, m: Move) {
        (**self).board_move(m);
    }
    #[inline(always)]
    fn drops(&mut self, k: Kind, to: Bitboard<W>) {
        (**self).drops(k, to);
    }
}

/// Counts checks, the drops on one square once (the tsume solver's
/// estimate of how hard a position is to disprove).
struct CheckCount<W: BitWord> {
    board: u32,
    drop_squares: Bitboard<W>,
}

impl<W: BitWord> CheckOut<W> for CheckCount<W> {
    #[inline(always)]
    fn board_move(&mut self, _: Move) {
        self.board += 1;
    }
    #[inline(always)]
    fn drops(&mut self, _: Kind, to: Bitboard<W>) {
        self.drop_squares |= to;
    }
}

/// Keeps the moves that give check, computed per target square instead of
/// by playing each move (the tsume solver's attacker generates only these).
/// A piece's targets are first narrowed to the squares its kind (or the
/// kind it promotes to) would check from, so the exact test runs on few.
struct Checks<'a, W: BitWord, O: CheckOut<W>> {
    pos: &'a Position<W>,
    out: O,
    /// The enemy king.
    ksq: Square,
    /// Our pieces that uncover a check by leaving the line to the king.
    disc: Bitboard<W>,
    /// Per kind: the squares from which it checks, leaping or sliding, with
    /// the board as it is (worked out for a kind when first needed).
    direct: [Bitboard<W>; crate::variant::MAX_KINDS],
    /// The kinds (bit mask) whose `direct` is worked out.
    known: u32,
    /// The squares a slide from the king reaches in any direction, first
    /// blockers included: only a piece leaving one of them can lengthen a
    /// slide to the king.
    rays: Bitboard<W>,
}

impl<'a, W: BitWord, O: CheckOut<W>> Checks<'a, W, O> {
    fn new(pos: &'a Position<W>, out: O) -> Self {
        let t = pos.t;
        let them = pos.side.opp();
        let ksq = pos.king[them.index()];
        let occ = pos.occupied();
        let mut rays = Bitboard::EMPTY;
        for d in crate::core::Direction::ALL {
            rays |= t.slide(d, ksq, occ);
        }
        Checks {
            pos,
            out,
            ksq,
            disc: pos.discoverers(),
            direct: [Bitboard::EMPTY; crate::variant::MAX_KINDS],
            known: 0,
            rays,
        }
    }

    /// The squares from which our kind `k` checks, the board as it is.
    #[inline(always)]
    fn direct(&mut self, k: Kind) -> Bitboard<W> {
        if self.known & (1 << k.index()) == 0 {
            let them = self.pos.side.opp();
            self.direct[k.index()] = self.pos.t.attacks(them, k, self.ksq, self.pos.occupied());
            self.known |= 1 << k.index();
        }
        self.direct[k.index()]
    }

    /// The squares from which kind `k` checks once our pieces on `leaving`
    /// have left them (a superset of the exact answer for a moving piece).
    #[inline(always)]
    fn check_squares(&mut self, k: Kind, leaving: Bitboard<W>) -> Bitboard<W> {
        let t = self.pos.t;
        if (leaving & self.rays).is_empty() || t.slide_dirs(self.pos.side, k) == 0 {
            self.direct(k)
        } else {
            let them = self.pos.side.opp();
            t.attacks(them, k, self.ksq, self.pos.occupied() & !leaving)
        }
    }

    /// Of `targets` of our `k` moving from `leaving` (with promotion possible
    /// on `promo`), the squares where a move might check.
    #[inline(always)]
    fn candidates(
        &mut self,
        k: Kind,
        leaving: Bitboard<W>,
        targets: Bitboard<W>,
        promo: Bitboard<W>,
    ) -> Bitboard<W> {
        let mut c = self.check_squares(k, leaving);
        if promo.any() {
            if let Some(p) = self.pos.t.variant.kind(k).promotes_to {
                c |= self.check_squares(p, leaving) & promo;
            }
        }
        targets & c
    }

    /// Whether moving our `k` from `from` to `to` (promoting or not) checks.
    #[inline(always)]
    fn checks(&self, from: Square, to: Square, k: Kind, promote: bool) -> bool {
        let t = self.pos.t;
        if self.disc.has(from) && !t.line(self.ksq, from).has(to) {
            return true;
        }
        let k = if promote {
            t.variant.kind(k).promotes_to.unwrap_or(k)
        } else {
            k
        };
        // The king's leap squares for the other colour: shogi pieces
        // mirror each other.
        if t.leap(self.pos.side.opp(), k, self.ksq).has(to) {
            return true;
        }
        let us = self.pos.side;
        if t.slide_dirs(us, k) == 0 {
            return false;
        }
        let occ = (self.pos.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        t.attacks(us, k, to, occ).has(self.ksq)
    }

    #[inline(always)]
    fn push_board(
        &mut self,
        from: Square,
        to: Square,
        k: Kind,
        promo: Bitboard<W>,
        must: Bitboard<W>,
    ) {
        if promo.has(to) && self.checks(from, to, k, true) {
            self.out.board_move(Move::normal(from, to, true));
        }
        if !must.has(to) && self.checks(from, to, k, false) {
            self.out.board_move(Move::normal(from, to, false));
        }
    }
}

impl<W: BitWord, O: CheckOut<W>> MoveSink<W> for Checks<'_, W, O> {
    #[inline(always)]
    fn board(&mut self, from: Square, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        let k = self.pos.board[from.index()].kind();
        let targets = if self.disc.has(from) {
            targets
        } else {
            self.candidates(k, Bitboard::from_square(from), targets, promo)
        };
        for to in targets {
            self.push_board(from, to, k, promo, must);
        }
    }
    #[inline(always)]
    fn shifted(&mut self, delta: i32, targets: Bitboard<W>, promo: Bitboard<W>, must: Bitboard<W>) {
        let Some(first) = targets.squares().next() else {
            return;
        };
        let k = self.pos.board[(first.index() as i32 - delta) as usize].kind();
        // All of them leave at once: the narrowing stays a superset.
        let froms = targets.shift(-delta);
        let targets =
            (targets & self.disc.shift(delta)) | self.candidates(k, froms, targets, promo);
        for to in targets {
            let from = Square::new((to.index() as i32 - delta) as u8);
            self.push_board(from, to, k, promo, must);
        }
    }
    #[inline(always)]
    fn drops(&mut self, k: Kind, targets: Bitboard<W>) {
        let to = targets & self.direct(k);
        self.out.drops(k, to);
    }
    fn king_moves_matter(&self) -> bool {
        // A king never checks by itself: only by uncovering one.
        let us = self.pos.side;
        self.pos.has_king(us) && self.disc.has(self.pos.king[us.index()])
    }
}

impl<W: BitWord> Position<W> {
    /// Every legal move that gives check (none against a side without a
    /// king).
    pub fn legal_checks(&self) -> MoveList {
        if !self.has_king(self.side.opp()) {
            return MoveList::new();
        }
        let mut sink = Checks::new(self, MoveList::new());
        self.generate(&mut sink);
        sink.out
    }

    /// Appends every legal move that gives check to `list` (`legal_checks`
    /// without returning a list, which copies it).
    pub fn legal_checks_into(&self, list: &mut MoveList) {
        if !self.has_king(self.side.opp()) {
            return;
        }
        let mut sink = Checks::new(self, list);
        self.generate(&mut sink);
    }

    /// The number of legal moves that give check, the drops on one square
    /// counted once (without listing them).
    pub fn count_checks_by_square(&self) -> u32 {
        if !self.has_king(self.side.opp()) {
            return 0;
        }
        let count = CheckCount {
            board: 0,
            drop_squares: Bitboard::<W>::EMPTY,
        };
        let mut sink = Checks::new(self, count);
        self.generate(&mut sink);
        sink.out.board + sink.out.drop_squares.count()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Appends every legal move to `list`.
    pub fn generate_into(&self, list: &mut MoveList) {
        self.generate(list);
    }

    /// The number of legal moves (perft 1), without listing them.
    pub fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// The number of legal moves, the drops on one square counted once
    /// (without listing them).
    pub fn count_legal_by_square(&self) -> u32 {
        let mut c = CounterBySquare {
            board: Counter(0),
            drop_squares: Bitboard::<W>::EMPTY,
        };
        self.generate(&mut c);
        c.board.0 as u32 + c.drop_squares.count()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut e = Exists(false);
        self.generate(&mut e);
        e.0
    }

    fn generate<S: MoveSink<W>>(&self, sink: &mut S) {
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let them = us.opp();
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let ksq = self.king[us.index()];

        // King moves: to squares the enemy does not attack once the king has left.
        if self.has_king(us) && sink.king_moves_matter() {
            let mut safe = Bitboard::EMPTY;
            let occ_no_king = occ ^ Bitboard::from_square(ksq);
            for to in t.attacks(us, v.king, ksq, occ) & !own {
                if !self.is_attacked(to, them, occ_no_king) {
                    safe.set(to);
                }
            }
            sink.board(ksq, safe, Bitboard::EMPTY, Bitboard::EMPTY);
        }
        if self.checkers.more_than_one() || sink.done() {
            return;
        }

        let (target, drop_target) = if self.checkers.any() {
            let c = self.checkers.lowest();
            let b = t.between(ksq, c);
            (b | self.checkers, b)
        } else {
            (t.all & !own, t.all & !occ)
        };
        let pinned = self.pinned(us);
        let zone = t.zone(us);

        for (ki, info) in v.kinds.iter().enumerate() {
            let k = Kind(ki as u8);
            if k == v.king {
                continue;
            }
            let pcs = self.by_kind[ki] & own;
            if pcs.is_empty() {
                continue;
            }
            let promotes = info.promotes_to.is_some();
            let dead = t.dead(us, k);
            let mut pcs = pcs;
            if let Some(step) = t.single_step(us, k) {
                // All unpinned pieces of this kind step at once; pinned ones below.
                let free = pcs & !pinned & step.from;
                let a = free.shift(step.delta) & target;
                if promotes {
                    let promo = a & (zone | step.to_from_zone);
                    sink.shifted(step.delta, a, promo, a & dead);
                } else {
                    sink.shifted(step.delta, a, Bitboard::EMPTY, Bitboard::EMPTY);
                }
                pcs &= pinned;
            }
            for from in pcs {
                let mut a = t.attacks(us, k, from, occ) & target;
                if pinned.has(from) {
                    a &= t.line(ksq, from);
                }
                if a.is_empty() {
                    continue;
                }
                if promotes {
                    let promo = if zone.has(from) { a } else { a & zone };
                    sink.board(from, a, promo, a & dead);
                } else {
                    sink.board(from, a, Bitboard::EMPTY, Bitboard::EMPTY);
                }
            }
            if sink.done() {
                return;
            }
        }

        if v.hand_kinds == 0 || drop_target.is_empty() {
            return;
        }
        let hand = &self.hands[us.index()];
        for ki in 0..v.hand_kinds {
            let k = Kind(ki as u8);
            if hand.count(k) == 0 {
                continue;
            }
            let mut to = drop_target & !t.dead(us, k);
            if Some(k) == v.pawn {
                for p in self.by_kind[ki] & own {
                    to &= !t.file(t.geo.file_of(p) as usize);
                }
                if v.def.pawn_drop_mate_illegal && self.has_king(them) {
                    // Our pawn on `s` attacks their king iff their pawn on the king's
                    // square attacks `s`.
                    let checks = to & t.leap(them, k, self.king[them.index()]);
                    for s in checks {
                        if self.pawn_drop_mates(s, k) {
                            to.toggle(s);
                        }
                    }
                }
            }
            sink.drops(k, to);
        }
    }

    /// Whether dropping our pawn (kind `pawn`) on `s`, giving check, leaves the
    /// opponent without a legal move. Worked out without playing the drop: the
    /// check is a contact check, so only king moves and captures of the pawn can
    /// answer it.
    pub(super) fn pawn_drop_mates(&self, s: Square, pawn: Kind) -> bool {
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let them = us.opp();
        let ksq = self.king[them.index()];
        let occ = self.occupied() | Bitboard::from_square(s);
        let theirs = self.by_color[them.index()];
        let pawn_attacks = t.leap(us, pawn, s);

        // King steps (including taking the pawn).
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        for to in t.attacks(them, v.king, ksq, occ) & !theirs {
            let hit_by_pawn = to != s && pawn_attacks.has(to);
            if !hit_by_pawn && !self.is_attacked(to, us, occ_no_king) {
                return false;
            }
        }
        // Another piece takes the pawn without exposing its king.
        let takers = self.attackers_to(s, them, occ) & !Bitboard::from_square(ksq);
        for from in takers {
            let after = occ ^ Bitboard::from_square(from);
            if !self.is_attacked(ksq, us, after) {
                return false;
            }
        }
        // A drop or move between is impossible for a contact check, but stay exact
        // for pawns that would check from afar.
        !t.between(ksq, s).any()
    }

    /// A slow, independent legality test by playing the move and looking for an
    /// attack on the mover's king, plus the drop and promotion rules. Used by tests
    /// to cross-check the generator.
    pub fn is_legal_slow(&mut self, m: Move) -> bool {
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let g = t.geo;
        if m.is_none() || m.to().index() >= g.squares() {
            return false;
        }
        let to = m.to();
        let target = self.board[to.index()];
        if m.is_drop() {
            let k = m.drop_kind();
            if k.index() >= v.hand_kinds || self.hands[us.index()].count(k) == 0 || target.is_some()
            {
                return false;
            }
            if t.dead(us, k).has(to) {
                return false;
            }
            if Some(k) == v.pawn {
                let file = g.file_of(to);
                let nifu = g
                    .all()
                    .any(|sq| g.file_of(sq) == file && self.board[sq.index()] == Piece::new(us, k));
                if nifu {
                    return false;
                }
            }
        } else {
            let from = m.from();
            if from.index() >= g.squares() {
                return false;
            }
            let p = self.board[from.index()];
            if p.is_none() || p.color() != us {
                return false;
            }
            if target.is_some() && target.color() == us {
                return false;
            }
            // Recompute reach from scratch by walking the piece's movement data.
            let info = v.kind(p.kind());
            let sign = if us == crate::core::Color::Black {
                -1
            } else {
                1
            };
            let (ff, fr) = (g.file_of(from), g.rank_of(from));
            let mut reach = false;
            for &(dx, dy) in info.movement.leaps {
                if g.square(ff + sign * dx as i32, fr + sign * dy as i32) == Some(to) {
                    reach = true;
                }
            }
            for &(dx, dy) in info.movement.slides {
                let (mut f, mut r) = (ff, fr);
                loop {
                    f += sign * dx as i32;
                    r += sign * dy as i32;
                    match g.square(f, r) {
                        None => break,
                        Some(sq) => {
                            if sq == to {
                                reach = true;
                            }
                            if self.board[sq.index()].is_some() {
                                break;
                            }
                        }
                    }
                }
            }
            if !reach {
                return false;
            }
            let zone_ranks = v.def.zone_ranks as i32;
            let in_zone = |sq: Square| {
                let r = g.rank_of(sq);
                if us == crate::core::Color::Black {
                    r < zone_ranks
                } else {
                    r >= g.ranks as i32 - zone_ranks
                }
            };
            let may_promote = info.promotes_to.is_some() && (in_zone(from) || in_zone(to));
            if m.is_promotion() && !may_promote {
                return false;
            }
            if !m.is_promotion() && t.dead(us, p.kind()).has(to) {
                return false;
            }
        }
        self.do_move(m);
        let mover_king = self.king[us.index()];
        let exposed = self.has_king(us) && self.is_attacked(mover_king, us.opp(), self.occupied());
        let mut legal = !exposed;
        if legal
            && m.is_drop()
            && Some(m.drop_kind()) == v.pawn
            && v.def.pawn_drop_mate_illegal
            && self.in_check()
            && !self.has_legal_move()
        {
            legal = false;
        }
        self.undo_move();
        legal
    }
}

#[cfg(test)]
mod tests;
