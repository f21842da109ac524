//! Heian's bare-king hunt: the term that drives a side far ahead in material
//! to take the opponent's last pieces. The hand-made evaluation includes it;
//! a network's score gets it added (`hunt_bonus`).

use super::params;
use super::tables::EvalTables;
use super::trace::{Acc, NoTrace, Term, Trace};
use crate::core::{BitWord, Bitboard, Color};
use crate::position::Position;

/// The bare-king hunt (Heian): once a side leads in material by
/// `params::MOP_UP_LEAD` and the opponent is down to one or two pieces besides
/// the king, taking those wins (the last one at once, even where it could be
/// taken back), so the leader's pieces hunt them. Each such piece gives its
/// side `params::HUNT_FLIGHT` per square it could move to that the hunter does
/// not hold; the hunter gets `params::HUNT_NEAR` per piece per step closer to
/// the nearest of them, and its pieces are placed at their kind's average
/// piece-square value wherever they stand (with `placement`: the tables are
/// in the sum).
pub(super) fn hunt<W: BitWord, T: Trace>(
    et: &EvalTables,
    pos: &Position<W>,
    attacked: &[Bitboard<W>; 2],
    kzone: &[Bitboard<W>; 2],
    material: &[i32; 2],
    placement: bool,
    acc: &mut Acc<'_, T>,
) {
    let t = pos.tables();
    let g = t.geo;
    let occ = pos.occupied();
    for c in Color::ALL {
        let (ci, ti) = (c.index(), c.opp().index());
        if !pos.has_king(c.opp()) || material[ci] < material[ti] + params::MOP_UP_LEAD {
            continue;
        }
        let prey = pos.pieces_of(c.opp()) & !Bitboard::from_square(pos.king_square(c.opp()));
        if prey.is_empty() || prey.count() > params::HUNT_MAX_PREY {
            continue;
        }
        // Squares we hold: attacked by one of our pieces, or next to our king
        // and not defended by theirs.
        let held = attacked[ci] | (kzone[ci] & !attacked[ti] & !kzone[ti]);
        for sq in prey {
            let k = pos.piece_at(sq).kind();
            let free = t.attacks(c.opp(), k, sq, occ) & !pos.pieces_of(c.opp()) & !held;
            acc.add(Term::Endgame, ti, params::HUNT_FLIGHT * free.count() as i32);
        }
        for from in pos.pieces_of(c) {
            let (f, r) = (g.file_of(from), g.rank_of(from));
            let d = prey
                .into_iter()
                .map(|sq| (g.file_of(sq) - f).abs().max((g.rank_of(sq) - r).abs()))
                .min()
                .unwrap_or(params::DRIVE_RANGE);
            acc.add(
                Term::Endgame,
                ci,
                params::HUNT_NEAR * (params::DRIVE_RANGE - d.min(params::DRIVE_RANGE)),
            );
            if !placement {
                continue;
            }
            // The fitted tables would keep the hunters off the edges where
            // the prey hides: each counts its kind's average square instead.
            let ki = pos.piece_at(from).kind().index();
            acc.add(
                Term::Placement,
                ci,
                et.pst_mean[ki] - et.pst[ci][ki][from.index()],
            );
        }
    }
}

/// The bare-king hunt (see `hunt`) on its own, from the side to move's point
/// of view, to add to a network's score: self-play games rarely reach such
/// endings, so the networks did not learn to finish them. Costs two
/// popcounts unless a side is down to two pieces besides its king.
pub fn hunt_bonus<W: BitWord>(et: &EvalTables, pos: &Position<W>) -> i32 {
    let t = pos.tables();
    if et.mop_up == 0
        || !t.variant.def.bare_king_loses
        || Color::ALL
            .iter()
            .all(|&c| pos.pieces_of(c).count() > params::HUNT_MAX_PREY + 1)
    {
        return 0;
    }
    let occ = pos.occupied();
    let king = t.variant.king;
    let mut material = [0; 2];
    let mut attacked = [Bitboard::<W>::EMPTY; 2];
    let mut kzone = [Bitboard::<W>::EMPTY; 2];
    for c in Color::ALL {
        let ci = c.index();
        for sq in pos.pieces_of(c) {
            let k = pos.piece_at(sq).kind();
            material[ci] += et.board[k.index()];
            if k == king {
                kzone[ci] = t.attacks(c, king, sq, occ);
            } else {
                attacked[ci] |= t.attacks(c, k, sq, occ);
            }
        }
    }
    let mut acc = Acc {
        score: [0; 2],
        tr: &mut NoTrace,
    };
    hunt(et, pos, &attacked, &kzone, &material, false, &mut acc);
    let us = pos.side_to_move().index();
    acc.score[us] - acc.score[1 - us]
}
