//! Static evaluation by hand-made terms. Weights live in `params`; `tables`
//! resolves them per variant once; `evaluate` sums the terms (named in
//! `trace`); `hunt` is Heian's bare-king hunt, which the network path adds
//! to its score too.

mod evaluate;
mod hunt;
pub mod params;
mod tables;
mod trace;

pub use evaluate::{evaluate, evaluate_with, trace};
pub use hunt::hunt_bonus;
pub use tables::{tables, EvalTables, KING_VALUE};
pub use trace::{NoTrace, Term, TermSums, Trace};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::position::testing::flip;
    use crate::position::Position;
    use crate::variant::Variant;
    use params::VariantWeights;

    #[test]
    fn start_positions_are_balanced() {
        for v in Variant::all() {
            let mut pos = Position::<u128>::startpos(v);
            let e = evaluate(&pos);
            // Only the tempo separates the sides at the start.
            assert_eq!(e, tables(v).tempo, "{}", v.name());
            let m = pos.legal_moves()[0];
            pos.do_move(m);
            let _ = evaluate(&pos);
        }
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let a = Position::<u128>::from_sfen(v, sfen).unwrap();
            let fl = flip(sfen);
            let b = Position::<u128>::from_sfen(v, &fl).unwrap_or_else(|e| panic!("{fl}: {e}"));
            assert_eq!(evaluate(&a), evaluate(&b), "{name} {sfen} / {fl}");
        }
    }

    #[test]
    fn term_indices_follow_term_all() {
        for (i, t) in Term::ALL.iter().enumerate() {
            assert_eq!(*t as usize, i, "{}", t.name());
        }
    }

    #[test]
    fn trace_adds_up_to_the_evaluation() {
        for &(name, sfen) in crate::bench::POSITIONS {
            let v = Variant::by_name(name).unwrap();
            let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let (sums, total) = trace(&pos);
            assert_eq!(total, evaluate(&pos), "{name} {sfen}");
            let us = pos.side_to_move().index();
            let diff: i32 = sums.0.iter().map(|t| t[us] - t[1 - us]).sum();
            assert_eq!(diff + tables(v).tempo, total, "{name} {sfen}");
            // Both sides have material.
            assert!(sums.0[0][0] > 0 && sums.0[0][1] > 0, "{name} {sfen}");
        }
    }

    /// A piece in hand is worth more than the same piece on an average square
    /// (its value plus the piece-square term, which fitted tables use for part
    /// of the value).
    #[test]
    fn hand_pieces_are_worth_more() {
        for v in Variant::all() {
            let et = tables(v);
            let squares = v.geometry().squares();
            for k in 0..v.hand_kinds {
                let placed: i32 = (0..squares).map(|sq| et.pst[0][k][sq]).sum();
                let on_board = et.board[k] + placed / squares as i32;
                assert!(
                    et.hand[k] > on_board,
                    "{} kind {k}: hand {} board {on_board}",
                    v.name(),
                    et.hand[k]
                );
            }
        }
    }

    #[test]
    fn material_counts() {
        let v = Variant::by_name("shogi").unwrap();
        let base = Position::<u128>::startpos(v);
        let up = Position::<u128>::from_sfen(
            v,
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1",
        )
        .unwrap();
        assert!(evaluate(&up) > evaluate(&base) + 800);
    }

    /// Heian's bare-king hunt: with the opponent down to one piece besides the
    /// king, the leader gains by taking that piece's squares and closing in on
    /// it, wherever its own piece-square tables would rather have it; both
    /// sides see the same.
    #[test]
    fn the_hunt_closes_in_on_the_last_piece() {
        let v = Variant::by_name("heian8x8").unwrap();
        // Black (K G S P) against White's king and silver. The gold two
        // squares below the silver holds its three forward squares; in the
        // corner it holds none.
        let near = "k7/8/8/8/4s3/8/2S1G3/2P1K3 b - 1";
        let far = "k7/8/8/8/4s3/8/2S5/G1P1K3 b - 1";
        let eval_of = |sfen: &str| {
            let pos = Position::<u64>::from_sfen(v, sfen).unwrap();
            let flipped = Position::<u64>::from_sfen(v, &flip(sfen)).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&flipped), "{sfen}");
            evaluate(&pos)
        };
        let (n, f) = (eval_of(near), eval_of(far));
        // Two squares taken from the silver and two steps closer, at least.
        let gain = 2 * params::HUNT_FLIGHT + 2 * params::HUNT_NEAR;
        assert!(n >= f + gain, "near {n}, far {f}");
        // The hunt waits until White is down to two pieces besides the king.
        let endgame = |sfen: &str| {
            let (sums, _) = trace(&Position::<u64>::from_sfen(v, sfen).unwrap());
            sums.0[Term::Endgame as usize][Color::White.index()]
        };
        assert_eq!(endgame("k7/pp6/8/8/4s3/8/2S1G3/2P1K3 b - 1"), 0);
        assert!(endgame("k7/p7/8/8/4s3/8/2S1G3/2P1K3 b - 1") > -tables(v).few_pieces);
    }

    /// The hunt added to a network's score: the same flight and distance
    /// terms as in the hand-made evaluation, nothing outside such endings,
    /// and the same from both sides.
    #[test]
    fn the_hunt_bonus_alone_drives_the_same_ending() {
        let v = Variant::by_name("heian8x8").unwrap();
        let et = tables(v);
        let bonus = |sfen: &str| {
            let pos = Position::<u64>::from_sfen(v, sfen).unwrap();
            let flipped = Position::<u64>::from_sfen(v, &flip(sfen)).unwrap();
            assert_eq!(hunt_bonus(et, &pos), hunt_bonus(et, &flipped), "{sfen}");
            hunt_bonus(et, &pos)
        };
        let near = bonus("k7/8/8/8/4s3/8/2S1G3/2P1K3 b - 1");
        let far = bonus("k7/8/8/8/4s3/8/2S5/G1P1K3 b - 1");
        assert!(near >= far + 2 * params::HUNT_FLIGHT + 2 * params::HUNT_NEAR);
        assert!(far > 0, "{far}");
        // White to move sees the same ending from the other side.
        assert_eq!(bonus("k7/8/8/8/4s3/8/2S1G3/2P1K3 w - 1"), -near);
        assert_eq!(bonus("k7/pp6/8/8/4s3/8/2S1G3/2P1K3 b - 1"), 0);
        for v in Variant::all() {
            let pos = Position::<u128>::startpos(v);
            assert_eq!(hunt_bonus(tables(v), &pos), 0, "{}", v.name());
        }
    }

    /// The rank and file factors of the piece-square table count from each
    /// side's own back rank and from the centre file.
    #[test]
    fn rank_and_file_terms_apply_per_side() {
        let v = Variant::by_name("heian").unwrap();
        let base = *params::for_variant("heian");
        let mut pieces = base.pieces.to_vec();
        let pawn = pieces.iter_mut().find(|p| p.letter == 'P' && !p.promoted);
        let pawn = pawn.unwrap();
        pawn.rank[3] += 40;
        pawn.file[4] += 7;
        let changed = VariantWeights {
            pieces: &pieces,
            ..base
        };
        let (a, b) = (
            EvalTables::from_weights(v, &base),
            EvalTables::from_weights(v, &changed),
        );
        // Black has pushed the pawn of file 9 (an edge file) to rank 3 from
        // its back rank; White to move.
        let mut pos = Position::<u128>::startpos(v);
        pos.do_move(pos.parse_move("9g9f").unwrap());
        assert_eq!(evaluate_with(&b, &pos) - evaluate_with(&a, &pos), -40);
        // The edge-file pawns of both sides cancel.
        let start = Position::<u128>::startpos(v);
        assert_eq!(evaluate_with(&b, &start), evaluate_with(&a, &start));

        // The file factor: Black's gold steps from file 6 (one file from the
        // centre) to file 7 (two files).
        let mut pieces = base.pieces.to_vec();
        let gold = pieces.iter_mut().find(|p| p.letter == 'G').unwrap();
        gold.file[2] += 11;
        let gold_file = VariantWeights {
            pieces: &pieces,
            ..base
        };
        let c = EvalTables::from_weights(v, &gold_file);
        let mut pos = Position::<u128>::startpos(v);
        pos.do_move(pos.parse_move("6i7h").unwrap());
        assert_eq!(evaluate_with(&c, &pos) - evaluate_with(&a, &pos), -11);
    }
}
