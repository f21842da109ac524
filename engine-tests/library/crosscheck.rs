//! Cross-checks of the rules core on random playouts in every variant:
//! make/unmake restores position and hash, the incremental hash equals a
//! recomputed one, SFEN round-trips, every generated move passes a slow
//! independent legality test, and no legal move is missed.

use crate::common::{all_candidate_moves, VARIANTS};
use kawari::core::BitWord;
use kawari::perft::perft;
use kawari::position::{Move, Position};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn check_position<W: BitWord>(pos: &mut Position<W>, candidates: &[Move]) {
    let v = pos.variant();
    let sfen = pos.to_sfen();
    let hash = pos.hash();
    assert_eq!(hash, pos.compute_hash(), "incremental hash of {sfen}");
    let reparsed = Position::<W>::from_sfen(v, &sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(reparsed.to_sfen(), sfen, "SFEN round trip");
    assert_eq!(reparsed.hash(), hash, "hash after SFEN round trip");
    assert_eq!(
        reparsed.checkers(),
        pos.checkers(),
        "checkers after round trip"
    );

    let generated: BTreeSet<u16> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    assert_eq!(
        generated.len(),
        pos.legal_moves().len(),
        "duplicate move in {sfen}"
    );
    assert_eq!(
        pos.count_legal(),
        generated.len() as u64,
        "count_legal of {sfen}"
    );
    assert_eq!(pos.has_legal_move(), !generated.is_empty());
    let slow: BTreeSet<u16> = candidates
        .iter()
        .filter(|&&m| pos.is_legal_slow(m))
        .map(|m| m.raw())
        .collect();
    if generated != slow {
        let names = |s: &BTreeSet<u16>| -> Vec<String> {
            s.iter().map(|&r| Move::from_raw(r).to_usi(v)).collect()
        };
        panic!(
            "{sfen}: generated but not legal {:?}; legal but not generated {:?}",
            names(&generated.difference(&slow).copied().collect()),
            names(&slow.difference(&generated).copied().collect())
        );
    }
    for &r in &generated {
        let m = Move::from_raw(r);
        pos.do_move(m);
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after {}", m.to_usi(v));
        pos.undo_move();
        assert_eq!(pos.to_sfen(), sfen, "undo of {}", m.to_usi(v));
        assert_eq!(pos.hash(), hash, "hash after undo of {}", m.to_usi(v));
    }
}

/// Random games biased towards captures and promotions (so hands fill up).
fn playouts<W: BitWord>(v: &'static Variant, games: usize, seed: u64) -> usize {
    let candidates = all_candidate_moves(v);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::<W>::startpos(v);
        for _ in 0..rng.gen_range(20..160) {
            check_position(&mut pos, &candidates);
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_promotion() || (!m.is_drop() && pos.piece_at(m.to()).is_some()))
                .collect();
            let m = if !captures.is_empty() && rng.gen_bool(0.6) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            pos.do_move(m);
        }
        // Unwinding the whole game restores the start position exactly.
        let start = Position::<W>::startpos(v);
        while pos.plies_from_root() > 0 {
            pos.undo_move();
        }
        assert_eq!(pos.to_sfen(), start.to_sfen());
        assert_eq!(pos.hash(), start.hash());
    }
    checked
}

#[test]
fn random_playouts_every_variant() {
    for (i, name) in VARIANTS.iter().enumerate() {
        let v = Variant::by_name(name).unwrap();
        let checked =
            with_width!(Width::for_variant(v), W => playouts::<W>(v, 40, 1000 + i as u64));
        assert!(checked > 300, "{name}: only {checked} positions checked");
    }
}

/// The other width gives identical results where both fit (u128 for 64-square boards).
#[test]
fn widths_agree() {
    for name in ["judkins", "yarishogi", "heian8x8"] {
        let v = Variant::by_name(name).unwrap();
        let a = perft(&mut Position::<u64>::startpos(v), 4);
        let b = perft(&mut Position::<u128>::startpos(v), 4);
        assert_eq!(a, b, "{name}");
        playouts::<u128>(v, 2, 7);
    }
}

/// Hash includes both hands: same board, different hands, different hash.
#[test]
fn hash_covers_hands_and_side() {
    let v = Variant::by_name("shogi").unwrap();
    let board = "4k4/9/9/9/9/9/9/9/4K4";
    let h = |rest: &str| {
        Position::<u128>::from_sfen(v, &format!("{board} {rest}"))
            .unwrap()
            .hash()
    };
    let all = [
        h("b - 1"),
        h("w - 1"),
        h("b P 1"),
        h("b p 1"),
        h("b 2P 1"),
        h("b PG 1"),
    ];
    let distinct: BTreeSet<u64> = all.iter().copied().collect();
    assert_eq!(distinct.len(), all.len());
    // Hand order on input does not matter, and the output order is R B G S N L P.
    let p = Position::<u128>::from_sfen(v, &format!("{board} b P2GRbs 1")).unwrap();
    assert_eq!(p.to_sfen(), format!("{board} b R2GPbs 1"));
}
