//! The hand-made evaluation: material on the board and in hand,
//! piece-square terms, king safety (attacks and defenders around each king,
//! open lines, drop squares), slider mobility, control of the promotion zone,
//! threats and the endgame terms.

use super::hunt::hunt;
use super::params;
use super::tables::{tables, EvalTables};
use super::trace::{Acc, NoTrace, Term, TermSums, Trace};
use crate::core::{BitWord, Bitboard, Color, Direction};
use crate::position::Position;
use crate::variant::{Kind, MAX_KINDS};

/// Evaluation in centipawns from the side to move's point of view.
pub fn evaluate<W: BitWord>(pos: &Position<W>) -> i32 {
    evaluate_with(tables(pos.variant()), pos)
}

/// The evaluation split by term, and the total from the side to move's point
/// of view.
pub fn trace<W: BitWord>(pos: &Position<W>) -> (TermSums, i32) {
    let mut sums = TermSums::default();
    let v = evaluate_traced(tables(pos.variant()), pos, &mut sums);
    (sums, v)
}

/// `evaluate` with the variant's tables already looked up.
pub fn evaluate_with<W: BitWord>(et: &EvalTables, pos: &Position<W>) -> i32 {
    evaluate_traced(et, pos, &mut NoTrace)
}

pub(super) fn evaluate_traced<W: BitWord, T: Trace>(
    et: &EvalTables,
    pos: &Position<W>,
    tr: &mut T,
) -> i32 {
    let t = pos.tables();
    let v = t.variant;
    let occ = pos.occupied();
    let king = v.king;
    let ksq = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let kzone = [
        t.attacks(Color::Black, king, ksq[0], occ),
        t.attacks(Color::White, king, ksq[1], occ),
    ];
    // The outer ring: squares two steps from each king (used when weighted).
    let mut outer = [Bitboard::<W>::EMPTY; 2];
    if et.king.outer_ring != 0 {
        for c in Color::ALL {
            let ci = c.index();
            let mut ring = Bitboard::<W>::EMPTY;
            for sq in kzone[ci] {
                ring |= t.leap(c, king, sq);
            }
            outer[ci] = ring & !kzone[ci] & !Bitboard::from_square(ksq[ci]);
        }
    }
    // Squares each side attacks, per kind (for safe checks).
    let mut by_kind = [[Bitboard::<W>::EMPTY; MAX_KINDS]; 2];
    let mut acc = Acc { score: [0; 2], tr };
    let mut material = [0i32; 2];
    let mut attacked = [Bitboard::<W>::EMPTY; 2];
    // Danger units against the king of each colour.
    let mut danger = [0i32; 2];
    // Pawns of both sides and the squares each side's pawns attack. Only tables
    // that weigh threats compute them; there the attacked squares are also left
    // out of the other side's mobility (elsewhere mobility counts every square).
    let threats = et.pawn_threat != 0 || et.hanging != 0;
    let mut pawns = Bitboard::<W>::EMPTY;
    let mut pawn_attacks = [Bitboard::<W>::EMPTY; 2];
    if threats {
        let mut kinds = et.pawn_kinds;
        while kinds != 0 {
            let k = Kind(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            pawns |= pos.pieces_of_kind(k);
            for c in Color::ALL {
                for sq in pos.pieces_of_kind(k) & pos.pieces_of(c) {
                    pawn_attacks[c.index()] |= t.attacks(c, k, sq, occ);
                }
            }
        }
    }

    for c in Color::ALL {
        let ci = c.index();
        let them = c.opp().index();
        let own = pos.pieces_of(c);
        for sq in own {
            let k = pos.piece_at(sq).kind();
            let ki = k.index();
            material[ci] += et.board[ki];
            acc.add(Term::Material, ci, et.board[ki]);
            acc.add(Term::Placement, ci, et.pst[ci][ki][sq.index()]);
            if k == king {
                continue;
            }
            let a = t.attacks(c, k, sq, occ);
            attacked[ci] |= a;
            if et.mobility[ki] != 0 {
                let n = (a & !own & !pawn_attacks[them]).count() as i32;
                acc.add(Term::Mobility, ci, et.mobility[ki] * n);
            }
            let hits = (a & kzone[them]).count() as i32;
            danger[them] += et.king_attack[ki] * hits;
            if et.king.outer_ring != 0 {
                let far = (a & outer[them]).count() as i32;
                danger[them] +=
                    et.king_attack[ki] * et.king.outer_ring * far / params::OUTER_RING_DIVISOR;
            }
            if et.king.safe_check != 0 {
                by_kind[ci][ki] |= a;
            }
            if et.defend[ki] != 0 && kzone[ci].has(sq) {
                acc.add(Term::Placement, ci, et.defend[ki]);
                danger[ci] -= et.king.defender;
            }
        }
        let hand = pos.hand(c);
        for hk in 0..v.hand_kinds {
            let n = hand.count(Kind(hk as u8)) as i32;
            if n > 0 {
                acc.add(Term::Material, ci, n * et.hand[hk]);
                danger[them] += et.hand_threat[hk];
            }
        }
    }

    for c in Color::ALL {
        let ci = c.index();
        let them = c.opp();
        let ti = them.index();
        let kw = &et.king;
        let weak = kzone[ci] & attacked[ti] & !attacked[ci];
        let mut u = danger[ci] + kw.weak_square * weak.count() as i32;
        if v.hand_kinds > 0 && !pos.hand(them).is_empty() {
            u += kw.drop_square * (weak & !occ).count() as i32;
        }
        if kw.open_line != 0 {
            u += kw.open_line * open_lines(pos, ksq[ci], them, occ);
        }
        if kw.safe_check != 0 {
            // Squares from which one of their pieces could check us, reachable by
            // it and not covered by our other pieces.
            let unsafe_for_them = attacked[ci] | pos.pieces_of(them);
            for (ki, &reach) in by_kind[ti].iter().enumerate().take(v.kinds.len()) {
                if reach.is_empty() {
                    continue;
                }
                let from = t.attacks(c, Kind(ki as u8), ksq[ci], occ);
                u += kw.safe_check * (reach & from & !unsafe_for_them).count() as i32;
            }
        }
        if u > 0 {
            let penalty =
                (kw.linear * u + kw.quadratic * u * u / params::QUADRATIC_DIVISOR).min(kw.cap);
            acc.add(Term::KingSafety, ci, -penalty);
        }
        let n = (attacked[ci] & t.zone(c)).count() as i32;
        acc.add(Term::ZoneControl, ci, et.zone_control * n);
        if et.few_pieces != 0 {
            let n = pos.pieces_of(c).count() as i32 - 1;
            if n < params::FEW_PIECES {
                acc.add(Term::Endgame, ci, -et.few_pieces * (params::FEW_PIECES - n));
            }
        }
    }

    if threats {
        for c in Color::ALL {
            let (ci, ti) = (c.index(), c.opp().index());
            // Their pieces (not the king) we attack and they do not defend.
            let targets = pos.pieces_of(c.opp()) & !pos.pieces_of_kind(king);
            let hanging = (targets & attacked[ci] & !attacked[ti]).count() as i32;
            acc.add(Term::Threats, ci, et.hanging * hanging);
            let hit = (targets & !pawns & pawn_attacks[ci]).count() as i32;
            acc.add(Term::Threats, ci, et.pawn_threat * hit);
        }
    }

    if et.mop_up != 0 {
        for c in Color::ALL {
            let (ci, ti) = (c.index(), c.opp().index());
            if pos.pieces_of(c.opp()).count() <= params::MOP_UP_MAX_PIECES
                && material[ci] >= material[ti] + params::MOP_UP_LEAD
            {
                let g = t.geo;
                let (kf, kr) = (g.file_of(ksq[ti]), g.rank_of(ksq[ti]));
                for sq in pos.pieces_of(c) {
                    let d = (g.file_of(sq) - kf).abs().max((g.rank_of(sq) - kr).abs());
                    acc.add(
                        Term::Endgame,
                        ci,
                        et.mop_up * (params::DRIVE_RANGE - d.min(params::DRIVE_RANGE)),
                    );
                }
            }
        }
    }

    if et.mop_up != 0 && v.def.bare_king_loses {
        hunt(et, pos, &attacked, &kzone, &material, true, &mut acc);
    }

    let us = pos.side_to_move().index();
    acc.score[us] - acc.score[1 - us] + et.tempo
}

/// Empty squares on the lines out of `ksq` along which `them` has a slider able
/// to come (on the board, or in hand).
fn open_lines<W: BitWord>(
    pos: &Position<W>,
    ksq: crate::core::Square,
    them: Color,
    occ: Bitboard<W>,
) -> i32 {
    let t = pos.tables();
    let v = t.variant;
    let theirs = pos.pieces_of(them);
    let hand = pos.hand(them);
    let mut n = 0;
    for d in Direction::ALL {
        // Their pieces that slide from the far end of the ray towards the king.
        let mut kinds = t.sliders_toward(them, d.opposite());
        let mut present = false;
        while kinds != 0 {
            let k = Kind(kinds.trailing_zeros() as u8);
            kinds &= kinds - 1;
            if (k.index() < v.hand_kinds && hand.count(k) > 0)
                || (pos.pieces_of_kind(k) & theirs).any()
            {
                present = true;
                break;
            }
        }
        if present {
            n += (t.slide(d, ksq, occ) & !occ).count() as i32;
        }
    }
    n
}
