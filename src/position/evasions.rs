//! Counting the evasions of a side in check, for the tsume solver, which
//! counts them after every check it looks at (its first proof number) and
//! plays few of them. `count_legal_by_square` walks every piece of the side
//! and tests each king step square by square; a check leaves few squares to
//! answer on, so here each answer square is asked which pieces reach it,
//! and the king's steps are tested against the attacker's attacks worked
//! out once, piece by piece. The count is the same (checked against
//! `count_legal_by_square` in the tests).

use super::Position;
use crate::core::{BitWord, Bitboard, Square};
use crate::variant::Kind;

/// Answer squares (the checker and the squares between) up to which the
/// pieces that can move there are found square by square; beyond, every
/// piece is walked as `generate` does.
const REVERSE_TARGETS: u32 = 2;

impl<W: BitWord> Position<W> {
    /// The number of legal moves, the drops on one square counted once:
    /// `count_legal_by_square`, faster when the side to move is in check.
    pub fn count_evasions_by_square(&self) -> u32 {
        if !self.checkers.any() || !self.has_king(self.side) {
            return self.count_legal_by_square();
        }
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let them = us.opp();
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let ksq = self.king[us.index()];

        let steps = t.attacks(us, v.king, ksq, occ) & !own;
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        // Every attacked square at once: cheaper than a test per step from
        // one king step up (夢の旅人's first 100k nodes).
        let mut attacked = Bitboard::EMPTY;
        if steps.any() {
            for from in self.by_color[them.index()] {
                let k = self.board[from.index()].kind();
                attacked |= t.attacks(them, k, from, occ_no_king);
            }
        }
        let mut count = (steps & !attacked).count();
        if self.checkers.more_than_one() {
            return count;
        }

        let c = self.checkers.lowest();
        let between = t.between(ksq, c);
        let target = between | self.checkers;
        if target.count() > REVERSE_TARGETS {
            return count + self.count_moves_by_piece(target) + self.count_drop_squares(between);
        }
        let zone = t.zone(us);
        let movers = own & !Bitboard::from_square(ksq);
        for to in target {
            for from in self.attackers_to(to, us, occ) & movers {
                if self.uncovers_king(from, to) {
                    continue;
                }
                let k = self.board[from.index()].kind();
                count += 1;
                if v.kind(k).promotes_to.is_some() && (zone.has(from) || zone.has(to)) {
                    count += 1;
                    count -= t.dead(us, k).has(to) as u32;
                }
            }
        }
        count + self.count_drop_squares(between)
    }

    /// Whether moving the side to move's piece on `from` to `to` leaves its
    /// king to a slider behind it (`pinned` for one piece, without working
    /// out every pin).
    #[inline]
    fn uncovers_king(&self, from: Square, to: Square) -> bool {
        let t = self.t;
        let us = self.side;
        let ksq = self.king[us.index()];
        let Some(d) = t.direction(ksq, from) else {
            return false;
        };
        let occ = self.occupied();
        if t.line(ksq, from).has(to) || (t.between(ksq, from) & occ).any() {
            return false;
        }
        (t.slide(d, from, occ) & self.by_slide[us.opp().index()][d.opposite().index()]).any()
    }

    /// Moves of the pieces other than the king of the side to move (in
    /// single check) onto `target`, as `generate` counts them.
    fn count_moves_by_piece(&self, target: Bitboard<W>) -> u32 {
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let own = self.by_color[us.index()];
        let occ = self.occupied();
        let ksq = self.king[us.index()];
        let pinned = self.pinned(us);
        let zone = t.zone(us);
        let mut count = 0;
        for (ki, info) in v.kinds.iter().enumerate() {
            let k = Kind(ki as u8);
            if k == v.king {
                continue;
            }
            let mut pcs = self.by_kind[ki] & own;
            if pcs.is_empty() {
                continue;
            }
            let promotes = info.promotes_to.is_some();
            let dead = t.dead(us, k);
            if let Some(step) = t.single_step(us, k) {
                let a = (pcs & !pinned & step.from).shift(step.delta) & target;
                count += a.count();
                if promotes {
                    count += (a & (zone | step.to_from_zone)).count() - (a & dead).count();
                }
                pcs &= pinned;
            }
            for from in pcs {
                let mut a = t.attacks(us, k, from, occ) & target;
                if pinned.has(from) {
                    a &= t.line(ksq, from);
                }
                count += a.count();
                if promotes {
                    let promo = if zone.has(from) { a } else { a & zone };
                    count += promo.count() - (a & dead).count();
                }
            }
        }
        count
    }

    /// The squares of `between` (the side to move in single check) on which
    /// a piece in hand may be dropped, as `generate` finds them.
    fn count_drop_squares(&self, between: Bitboard<W>) -> u32 {
        let t = self.t;
        let v = t.variant;
        if v.hand_kinds == 0 || between.is_empty() {
            return 0;
        }
        let us = self.side;
        let them = us.opp();
        let own = self.by_color[us.index()];
        let hand = &self.hands[us.index()];
        let mut squares = Bitboard::EMPTY;
        for ki in 0..v.hand_kinds {
            let k = Kind(ki as u8);
            if hand.count(k) == 0 {
                continue;
            }
            let mut to = between & !t.dead(us, k);
            if Some(k) == v.pawn {
                // The squares between are fewer than the pawns (nifu).
                let pawns = self.by_kind[ki] & own;
                for s in to {
                    if (pawns & t.file(t.geo.file_of(s) as usize)).any() {
                        to.toggle(s);
                    }
                }
                if v.def.pawn_drop_mate_illegal && self.has_king(them) {
                    let checks = to & t.leap(them, k, self.king[them.index()]);
                    for s in checks {
                        if self.pawn_drop_mates(s, k) {
                            to.toggle(s);
                        }
                    }
                }
            }
            squares |= to;
        }
        squares.count()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::variant::Variant;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// Random checks and evasions from tsume positions and from the start
    /// of every variant: the count agrees with `count_legal_by_square` in
    /// every position, the positions in check among them (far checks,
    /// pins, interpositions, promotions) by the thousand.
    #[test]
    fn evasions_count_as_every_legal_move() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut in_check = 0;
        let mut starts: Vec<(&'static Variant, String)> = [
            (
                "shogi",
                "9/S3p3n/G2p5/1G7/2P+B4N/+rnB2S2R/N3G4/2L2ppp1/G1sks4 b 12P3l 1",
            ),
            ("shogi", "8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1"),
            ("shogi", "7nl/6s2/5N2k/6G2/9/9/9/9/9 b 2RG2b2g3s2n3l18p 1"),
            (
                "shogi",
                "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1",
            ),
            ("judkins", "5k/6/5P/6/6/6 b GRB 1"),
            ("yarishogi", "6k/7/6P/7/7/7/7/7/7 b 2RBN 1"),
        ]
        .iter()
        .map(|&(v, s)| (Variant::by_name(v).unwrap(), s.to_string()))
        .collect();
        for v in Variant::all() {
            starts.push((v, v.def.start_sfen.to_string()));
        }
        for (v, sfen) in starts {
            for _ in 0..30 {
                let mut pos = Position::<u128>::from_sfen(v, &sfen).unwrap();
                for ply in 0..60 {
                    let all = pos.count_legal_by_square();
                    assert_eq!(pos.count_evasions_by_square(), all, "{}", pos.to_sfen());
                    in_check += pos.in_check() as u32;
                    // Mostly checks, to reach positions in check.
                    let checks = pos.legal_checks();
                    let moves = if ply % 2 == 0 && !checks.is_empty() && rng.gen_bool(0.8) {
                        checks
                    } else {
                        pos.legal_moves()
                    };
                    if moves.is_empty() {
                        break;
                    }
                    pos.do_move(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(in_check >= 2000, "{in_check}");
    }
}
