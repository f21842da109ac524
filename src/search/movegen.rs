//! Search-side move helpers built on the public position API: a fast legality
//! test for hash-table and killer moves, "does this move give check", and the
//! capture/promotion generator of quiescence search.

use crate::core::{BitWord, Bitboard};
use crate::eval::EvalTables;
use crate::position::{Move, MoveList, Position};

/// Whether `m` (possibly garbage from the hash table) is legal in `pos`.
pub fn is_legal<W: BitWord>(pos: &Position<W>, m: Move) -> bool {
    if m.is_none() {
        return false;
    }
    let t = pos.tables();
    let v = t.variant;
    let us = pos.side_to_move();
    let them = us.opp();
    let to = m.to();
    if to.index() >= t.num_squares() {
        return false;
    }
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    if m.is_drop() {
        let k = m.drop_kind();
        if m.is_promotion()
            || k.index() >= v.hand_kinds
            || pos.hand(us).count(k) == 0
            || pos.piece_at(to).is_some()
            || t.dead(us, k).has(to)
        {
            return false;
        }
        if checkers.any()
            && (checkers.more_than_one() || !t.between(ksq, checkers.lowest()).has(to))
        {
            return false;
        }
        if Some(k) == v.pawn {
            let file = t.file(t.geo.file_of(to) as usize);
            if (pos.pieces_of_kind(k) & pos.pieces_of(us) & file).any() {
                return false;
            }
            if v.def.pawn_drop_mate_illegal && t.leap(us, k, to).has(pos.king_square(them)) {
                // Rare: let the generator decide on uchifuzume.
                return pos.is_legal(m);
            }
        }
        return true;
    }
    let from = m.from();
    if from.index() >= t.num_squares() || from == to {
        return false;
    }
    let p = pos.piece_at(from);
    if p.is_none() || p.color() != us {
        return false;
    }
    let target = pos.piece_at(to);
    if target.is_some() && target.color() == us {
        return false;
    }
    let k = p.kind();
    let occ = pos.occupied();
    if !t.attacks(us, k, from, occ).has(to) {
        return false;
    }
    let zone = t.zone(us);
    let may_promote = v.kind(k).promotes_to.is_some() && (zone.has(from) || zone.has(to));
    if m.is_promotion() {
        if !may_promote {
            return false;
        }
    } else if t.dead(us, k).has(to) {
        return false;
    }
    if k == v.king {
        return !pos.is_attacked(to, them, occ ^ Bitboard::from_square(from));
    }
    if checkers.any() {
        if checkers.more_than_one() {
            return false;
        }
        let c = checkers.lowest();
        if to != c && !t.between(ksq, c).has(to) {
            return false;
        }
    }
    if pos.pinned(us).has(from) && !t.line(ksq, from).has(to) {
        return false;
    }
    true
}

/// Pieces of the side to move standing between one of its sliders and the enemy
/// king: moving one off the line gives a discovered check.
pub fn discoverers<W: BitWord>(pos: &Position<W>) -> Bitboard<W> {
    let us = pos.side_to_move();
    pos.blockers(us.opp(), us) & pos.pieces_of(us)
}

/// Whether the legal move `m` gives check; `disc` comes from `discoverers`.
#[inline]
pub fn gives_check<W: BitWord>(pos: &Position<W>, disc: Bitboard<W>, m: Move) -> bool {
    let t = pos.tables();
    let v = t.variant;
    let us = pos.side_to_move();
    let ksq = pos.king_square(us.opp());
    let to = m.to();
    let occ = pos.occupied();
    if m.is_drop() {
        return t.attacks(us, m.drop_kind(), to, occ).has(ksq);
    }
    let from = m.from();
    let mut k = pos.piece_at(from).kind();
    if m.is_promotion() {
        k = v.kind(k).promotes_to.unwrap_or(k);
    }
    let occ_after = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    if k != v.king && t.attacks(us, k, to, occ_after).has(ksq) {
        return true;
    }
    disc.has(from) && !t.line(ksq, from).has(to)
}

/// Captures (promoting where that gains) and pawn promotions, for quiescence.
/// The side to move must not be in check. Every move is legal.
pub fn generate_captures<W: BitWord>(pos: &Position<W>, et: &EvalTables, list: &mut MoveList) {
    let t = pos.tables();
    let v = t.variant;
    let us = pos.side_to_move();
    let them = us.opp();
    let own = pos.pieces_of(us);
    let theirs = pos.pieces_of(them);
    let occ = pos.occupied();
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let zone = t.zone(us);
    for (ki, info) in v.kinds.iter().enumerate() {
        let k = crate::variant::Kind(ki as u8);
        let pcs = pos.pieces_of_kind(k) & own;
        if pcs.is_empty() {
            continue;
        }
        let dead = t.dead(us, k);
        let promotes = info.promotes_to.is_some();
        let prefer_promotion = et.promotion_gain[ki] > 0;
        let is_pawn = Some(k) == v.pawn;
        for from in pcs {
            let reach = t.attacks(us, k, from, occ);
            let mut a = reach & theirs;
            if is_pawn {
                let quiet = reach & !occ;
                a |= if zone.has(from) { quiet } else { quiet & zone };
            }
            if k == v.king {
                let no_king = occ ^ Bitboard::from_square(from);
                for to in a {
                    if !pos.is_attacked(to, them, no_king) {
                        list.push(Move::normal(from, to, false));
                    }
                }
                continue;
            }
            if pinned.has(from) {
                a &= t.line(ksq, from);
            }
            for to in a {
                let can_promote = promotes && (zone.has(from) || zone.has(to));
                let capture = theirs.has(to);
                if can_promote && (prefer_promotion || dead.has(to)) {
                    list.push(Move::normal(from, to, true));
                } else if capture && !dead.has(to) {
                    list.push(Move::normal(from, to, false));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// Random playouts in every variant: the fast legality test agrees with the
    /// generator on every legal move and on moves taken from other positions;
    /// `gives_check` agrees with playing the move; captures are legal.
    #[test]
    fn helpers_agree_with_the_generator() {
        let mut rng = StdRng::seed_from_u64(7);
        for v in Variant::all() {
            let et = crate::eval::tables(v);
            let mut foreign: Vec<Move> = Vec::new();
            for _game in 0..12 {
                let mut pos = Position::<u128>::startpos(v);
                for _ply in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        assert!(is_legal(&pos, m), "{} {}", pos.to_sfen(), m.to_usi(v));
                    }
                    for &m in foreign.iter().rev().take(60) {
                        assert_eq!(
                            is_legal(&pos, m),
                            moves.contains(&m),
                            "{} {}",
                            pos.to_sfen(),
                            m.to_usi(v)
                        );
                    }
                    for _ in 0..20 {
                        let m = Move::from_raw(rng.gen());
                        assert_eq!(
                            is_legal(&pos, m),
                            moves.contains(&m),
                            "{} raw {:x}",
                            pos.to_sfen(),
                            m.raw()
                        );
                    }
                    let disc = discoverers(&pos);
                    for &m in &moves {
                        let gc = gives_check(&pos, disc, m);
                        pos.do_move(m);
                        assert_eq!(gc, pos.in_check(), "{} {}", pos.to_sfen(), m.to_usi(v));
                        pos.undo_move();
                    }
                    if !pos.in_check() {
                        let mut caps = MoveList::new();
                        generate_captures(&pos, et, &mut caps);
                        for &m in &caps {
                            assert!(moves.contains(&m), "{} {}", pos.to_sfen(), m.to_usi(v));
                        }
                    }
                    foreign.extend(moves.iter().copied().take(5));
                    let m = moves[rng.gen_range(0..moves.len())];
                    pos.do_move(m);
                }
            }
        }
    }
}
