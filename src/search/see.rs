//! Static exchange evaluation: does a move win at least `threshold` once every
//! capture sequence on its destination is played out, least valuable attacker
//! first? X-rays are found by recomputing attackers with the shrinking occupancy.
//! Values are `EvalTables::exchange` (board value plus, with drops, the hand
//! value the capturer gains).

use crate::core::{BitWord, Bitboard};
use crate::eval::EvalTables;
use crate::position::{Move, Position};

/// Value a move captures (0 for drops and quiet moves).
#[inline]
pub fn captured_value<W: BitWord>(pos: &Position<W>, et: &EvalTables, m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    let p = pos.piece_at(m.to());
    if p.is_some() {
        et.exchange[p.kind().index()]
    } else {
        0
    }
}

/// Whether the exchange started by `m` gains at least `threshold`.
pub fn see_ge<W: BitWord>(pos: &Position<W>, et: &EvalTables, m: Move, threshold: i32) -> bool {
    let t = pos.tables();
    let v = t.variant;
    let to = m.to();
    let us = pos.side_to_move();
    let mut occ = pos.occupied();
    let (mover, from_bb) = if m.is_drop() {
        (m.drop_kind(), Bitboard::EMPTY)
    } else {
        let k = pos.piece_at(m.from()).kind();
        (k, Bitboard::from_square(m.from()))
    };
    let mut swap = captured_value(pos, et, m) - threshold;
    let mut on_square = mover;
    if m.is_promotion() {
        swap += et.promotion_gain[mover.index()];
        on_square = v.kind(mover).promotes_to.unwrap_or(mover);
    }
    if swap < 0 {
        return false;
    }
    swap = et.exchange[on_square.index()] - swap;
    if swap <= 0 {
        return true;
    }
    occ = (occ ^ from_bb) | Bitboard::from_square(to);
    let mut stm = us;
    let mut res = true;
    loop {
        stm = stm.opp();
        let attackers = pos.attackers_to(to, stm, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker.
        let mut best_sq = None;
        let mut best_val = i32::MAX;
        for sq in attackers {
            let val = et.exchange[pos.piece_at(sq).kind().index()];
            if val < best_val {
                best_val = val;
                best_sq = Some(sq);
            }
        }
        let sq = best_sq.expect("attackers is not empty");
        if pos.piece_at(sq).kind() == v.king {
            // The king may only take if the other side has no attacker left.
            let other = pos.attackers_to(to, stm.opp(), occ) & occ;
            return if other.any() { !res } else { res };
        }
        swap = best_val - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn mv(pos: &Position<u128>, usi: &str) -> Move {
        let v = pos.variant();
        *pos.legal_moves()
            .iter()
            .find(|m| m.to_usi(v) == usi)
            .unwrap_or_else(|| panic!("{usi} not legal"))
    }

    #[test]
    fn exchanges() {
        let v = Variant::by_name("shogi").unwrap();
        let et = crate::eval::tables(v);
        // Rook takes a pawn defended by a pawn: loses material.
        let pos = Position::<u128>::from_sfen(v, "4k4/9/3s5/4p4/9/9/9/4R4/4K4 b - 1").unwrap();
        let m = mv(&pos, "5h5d");
        assert!(!see_ge(&pos, et, m, 0));
        assert!(see_ge(&pos, et, m, -2000));
        // Rook takes an undefended pawn: wins it.
        let pos = Position::<u128>::from_sfen(v, "4k4/9/9/4p4/9/9/9/4R4/4K4 b - 1").unwrap();
        let m = mv(&pos, "5h5d");
        assert!(see_ge(&pos, et, m, 0));
        assert!(see_ge(&pos, et, m, et.exchange[6]));
        assert!(!see_ge(&pos, et, m, et.exchange[6] + 1));
        // A drop on an attacked square loses the piece.
        let pos = Position::<u128>::from_sfen(v, "4k4/9/4p4/9/9/9/9/9/4K4 b G 1").unwrap();
        let m = mv(&pos, "G*5d");
        assert!(!see_ge(&pos, et, m, 0));
        let m = mv(&pos, "G*1e");
        assert!(see_ge(&pos, et, m, 0));
    }
}
