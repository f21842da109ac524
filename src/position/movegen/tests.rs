//! The generator's rules, checked against definitions worked out here from
//! the variant's movement data (not from the lookup tables the generator
//! uses): every move leaves the mover's king safe and unmakes cleanly,
//! promotion is offered where the zone allows and forced where the piece
//! would be dead, drops obey nifu, drop-pawn-mate and dead squares, and both
//! bit widths agree.

use super::super::{Move, Position};
use crate::core::{BitWord, Color, Square};
use crate::variant::{Kind, Variant};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::collections::BTreeSet;

fn pos<W: BitWord>(variant: &str, sfen: &str) -> Position<W> {
    let v = Variant::by_name(variant).unwrap();
    Position::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn names<W: BitWord>(p: &Position<W>) -> BTreeSet<String> {
    let v = p.variant();
    p.legal_moves().iter().map(|m| m.to_usi(v)).collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

/// Whether colour `c`'s kind `k` on `sq` has any move on an empty board.
fn can_move_from(v: &Variant, c: Color, k: Kind, sq: Square) -> bool {
    let g = v.geometry();
    // Offsets are (right, forward); Black's right and forward both lower
    // the file and rank indices.
    let sign = if c == Color::Black { -1 } else { 1 };
    let m = v.kind(k).movement;
    m.leaps.iter().chain(m.slides).any(|&(dx, dy)| {
        g.square(
            g.file_of(sq) + sign * dx as i32,
            g.rank_of(sq) + sign * dy as i32,
        )
        .is_some()
    })
}

/// Whether `sq` is in colour `c`'s promotion zone (its far ranks).
fn in_zone(v: &Variant, c: Color, sq: Square) -> bool {
    let g = v.geometry();
    let r = g.rank_of(sq);
    let z = v.def.zone_ranks as i32;
    match c {
        Color::Black => r < z,
        Color::White => r >= g.ranks as i32 - z,
    }
}

/// The rules every generated list must obey in `p`, worked out per move.
fn check_rules<W: BitWord>(p: &mut Position<W>) {
    let v = p.variant();
    let g = v.geometry();
    let us = p.side_to_move();
    let sfen = p.to_sfen();
    let hash = p.hash();
    let moves = p.legal_moves();
    let raw: BTreeSet<u16> = moves.iter().map(|m| m.raw()).collect();
    assert_eq!(raw.len(), moves.len(), "a move listed twice in {sfen}");
    assert_eq!(p.count_legal(), moves.len() as u64, "{sfen}");
    assert_eq!(p.has_legal_move(), !moves.is_empty(), "{sfen}");
    let drop_squares: BTreeSet<Square> = moves
        .iter()
        .filter(|m| m.is_drop())
        .map(|m| m.to())
        .collect();
    let board_moves = moves.iter().filter(|m| !m.is_drop()).count();
    assert_eq!(
        p.count_legal_by_square() as usize,
        board_moves + drop_squares.len(),
        "{sfen}"
    );
    assert_eq!(
        p.count_evasions_by_square() as usize,
        board_moves + drop_squares.len(),
        "{sfen}"
    );
    for &m in &moves {
        let name = m.to_usi(v);
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            assert!(p.hand(us).count(k) > 0, "{name} not in hand in {sfen}");
            assert!(p.piece_at(to).is_none(), "{name} on a piece in {sfen}");
            assert!(
                can_move_from(v, us, k, to),
                "{name} drops a dead piece in {sfen}"
            );
            if Some(k) == v.pawn {
                let nifu = g.all().any(|s| {
                    g.file_of(s) == g.file_of(to)
                        && p.piece_at(s).is_some()
                        && p.piece_at(s).color() == us
                        && p.piece_at(s).kind() == k
                });
                assert!(!nifu, "{name}: two pawns on a file in {sfen}");
            }
        } else {
            let from = m.from();
            let piece = p.piece_at(from);
            assert!(piece.is_some() && piece.color() == us, "{name} in {sfen}");
            let k = piece.kind();
            let may =
                v.kind(k).promotes_to.is_some() && (in_zone(v, us, from) || in_zone(v, us, to));
            let must = may && !can_move_from(v, us, k, to);
            let other = Move::normal(from, to, !m.is_promotion());
            if m.is_promotion() {
                assert!(may, "{name} promotes outside the zone in {sfen}");
                assert_eq!(
                    raw.contains(&other.raw()),
                    !must,
                    "{name}: the non-promotion must be offered iff the piece can move on, in {sfen}"
                );
            } else {
                assert!(!must, "{name} leaves a dead piece in {sfen}");
                assert_eq!(
                    raw.contains(&other.raw()),
                    may,
                    "{name}: the promotion must be offered iff the zone allows, in {sfen}"
                );
            }
        }
        p.do_move(m);
        // The mover's king is not attacked afterwards.
        if p.has_king(us) {
            let ksq = p.king_square(us);
            assert!(
                p.attackers_to(ksq, us.opp(), p.occupied()).is_empty(),
                "{name} leaves the king attacked in {sfen}"
            );
        }
        assert_eq!(p.hash(), p.compute_hash(), "{name} in {sfen}");
        p.undo_move();
        assert_eq!(p.to_sfen(), sfen, "undo of {name}");
        assert_eq!(p.hash(), hash, "hash after undo of {name}");
    }
}

/// Short random games in every variant, biased towards captures so that
/// hands fill and drops come into play; `check_rules` at every ply.
#[test]
fn every_move_obeys_the_rules_in_random_games() {
    let mut rng = StdRng::seed_from_u64(48);
    for v in Variant::all() {
        for _game in 0..4 {
            let mut p = Position::<u128>::startpos(v);
            for _ply in 0..rng.gen_range(40..90) {
                check_rules(&mut p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| !m.is_drop() && p.piece_at(m.to()).is_some())
                    .collect();
                let m = if !captures.is_empty() && rng.gen_bool(0.7) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                p.do_move(m);
            }
        }
    }
}

/// Boards of at most 64 squares run on either word: the two generate the
/// same moves, in the same order.
#[test]
fn both_widths_generate_the_same_moves() {
    let mut rng = StdRng::seed_from_u64(64);
    for v in Variant::all()
        .iter()
        .filter(|v| v.geometry().squares() <= 64)
    {
        for _game in 0..4 {
            let mut narrow = Position::<u64>::startpos(v);
            let mut wide = Position::<u128>::startpos(v);
            for _ply in 0..80 {
                let a = narrow.legal_moves();
                let b = wide.legal_moves();
                assert_eq!(a, b, "{} {}", v.name(), narrow.to_sfen());
                assert_eq!(narrow.hash(), wide.hash());
                if a.is_empty() {
                    break;
                }
                let m = a[rng.gen_range(0..a.len())];
                narrow.do_move(m);
                wide.do_move(m);
            }
        }
    }
}

/// No pawn drop on a file holding one's own unpromoted pawn; a promoted
/// pawn or the opponent's pawn does not count.
#[test]
fn nifu() {
    let pawn_drops = |p: &Position<u128>| -> BTreeSet<String> {
        names(p)
            .into_iter()
            .filter(|m| m.starts_with("P*"))
            .collect()
    };
    let p = pos::<u128>("shogi", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    let drops = pawn_drops(&p);
    // 81 squares, minus the three pieces, minus the rest of file 5 and of
    // rank a (dead): 8 files x 8 ranks, less the king's square on 5i...
    assert!(drops.iter().all(|m| !m.ends_with('a')), "{drops:?}");
    assert!(!drops.iter().any(|m| m.starts_with("P*5")), "{drops:?}");
    assert_eq!(drops.len(), 8 * 8, "{drops:?}");
    let tokin = pos::<u128>("shogi", "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
    assert!(pawn_drops(&tokin).contains("P*5e"));
    let theirs = pos::<u128>("shogi", "4k4/4p4/9/9/9/9/9/9/4K4 b P 1");
    assert!(pawn_drops(&theirs).contains("P*5e"));
    // White too, in a variant on the narrow word.
    let judkins = pos::<u64>("judkins", "4k1/6/1p4/6/6/K5 w p 1");
    let drops: BTreeSet<String> = names(&judkins)
        .into_iter()
        .filter(|m| m.starts_with("P*"))
        .collect();
    assert!(!drops.iter().any(|m| m.starts_with("P*5")), "{drops:?}");
    assert!(
        drops.contains("P*4c") && !drops.contains("P*4f"),
        "{drops:?}"
    );
}

/// A pawn dropped to mate is illegal in shogi and Judkins, legal in Yari;
/// a pawn drop that checks but does not mate, and a pawn push that mates,
/// are legal everywhere.
#[test]
fn drop_pawn_mate() {
    // White's king on 1a: the knight on 3c covers 2a, the gold on 2c
    // covers 2b and guards 1b.
    let mate = pos::<u128>("shogi", "8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
    let m = names(&mate);
    assert!(!m.contains("P*1b"), "drop-pawn mate generated");
    assert!(m.contains("P*1c"), "{m:?}");
    // Without the knight the king escapes to 2a: the drop is legal.
    let check = pos::<u128>("shogi", "8k/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert!(names(&check).contains("P*1b"));
    // Mate by pushing a pawn is not a drop.
    let push = pos::<u128>("shogi", "8k/9/6NGP/9/9/9/9/9/4K4 b - 1");
    assert!(names(&push).contains("1c1b"));
    let mut after = push.clone();
    after.do_move(after.parse_move("1c1b").unwrap());
    assert!(after.in_check() && !after.has_legal_move());
    // Judkins (6x6, the narrow word) forbids it too.
    let judkins = pos::<u64>("judkins", "5k/6/3NG1/6/6/K5 b P 1");
    assert!(!names(&judkins).contains("P*1b"));
    // Yari allows it: the drop mates.
    // The yari bishop on 2c guards 1b and slides over 2b and 2a.
    let mut yari = pos::<u128>("yarishogi", "6k/7/5B1/7/7/7/7/7/K6 b P 1");
    let drop = yari
        .parse_move("P*1b")
        .expect("drop-pawn mate is legal in yari");
    yari.do_move(drop);
    assert!(
        yari.in_check() && !yari.has_legal_move(),
        "{}",
        yari.to_sfen()
    );
}

/// Drops land only on empty squares the piece can move on from: for each
/// variant with drops and each kind in hand, the drop squares on an
/// otherwise empty board are exactly those, for both colours.
#[test]
fn no_drop_on_a_dead_square() {
    for v in Variant::all().iter().filter(|v| v.hand_kinds > 0) {
        let g = v.geometry();
        for c in [Color::Black, Color::White] {
            for ki in 0..v.hand_kinds {
                let k = Kind(ki as u8);
                // The kings on the middle files of the edge ranks, one kind
                // in hand for the side to move.
                let (f, r) = (g.files as usize, g.ranks as usize);
                let edge = |king: char| {
                    let left = f / 2;
                    let right = f - left - 1;
                    let mut s = String::new();
                    if left > 0 {
                        s.push_str(&left.to_string());
                    }
                    s.push(king);
                    if right > 0 {
                        s.push_str(&right.to_string());
                    }
                    s
                };
                let mut ranks = vec![edge('k')];
                ranks.extend(std::iter::repeat_n(f.to_string(), r - 2));
                ranks.push(edge('K'));
                let letter = v.kind(k).letter;
                let hand = match c {
                    Color::Black => letter.to_ascii_uppercase(),
                    Color::White => letter.to_ascii_lowercase(),
                };
                let sfen = format!("{} {} {hand} 1", ranks.join("/"), c.sfen_char());
                let p =
                    Position::<u128>::from_sfen(v, &sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
                let got: BTreeSet<Square> = p
                    .legal_moves()
                    .iter()
                    .filter(|m| m.is_drop())
                    .map(|m| m.to())
                    .collect();
                let want: BTreeSet<Square> = g
                    .all()
                    .filter(|&s| p.piece_at(s).is_none() && can_move_from(v, c, k, s))
                    .collect();
                assert_eq!(got, want, "{} {sfen}", v.name());
                if Some(k) == v.pawn {
                    assert!(
                        want.len() < g.squares() - 2,
                        "no dead square for a pawn: {sfen}"
                    );
                }
            }
        }
    }
}

/// Promotion: forced where the piece could not move on, optional elsewhere
/// in the zone (entering, inside, or leaving it), never outside it or for a
/// piece that does not promote.
#[test]
fn promotion_forced_or_optional() {
    let p = pos::<u128>("shogi", "4k4/P8/1P6G/2P6/3L5/5N3/5S3/9/4K4 b - 1");
    let m = names(&p);
    for (want, why) in [
        ("9b9a+", "pawn to the last rank"),
        ("8c8b+", "pawn inside the zone"),
        ("8c8b", "pawn inside the zone may stay"),
        ("7d7c+", "pawn entering the zone"),
        ("7d7c", "pawn entering the zone may stay"),
        ("6e6a+", "lance to the last rank"),
        ("6e6b", "lance to the second rank may stay"),
        ("4f5d", "knight outside the zone"),
        ("1c1b", "gold in the zone"),
    ] {
        assert!(m.contains(want), "{why}: {want} missing from {m:?}");
    }
    for (not, why) in [
        ("9b9a", "a pawn on the last rank could never move"),
        ("6e6a", "a lance on the last rank could never move"),
        ("6e6d+", "the lance stays outside the zone"),
        ("4f5d+", "knight outside the zone"),
        ("4g3f+", "silver outside the zone"),
        ("1c1b+", "gold never promotes"),
    ] {
        assert!(!m.contains(not), "{why}: {not} in {m:?}");
    }
    // A knight must promote on the last two ranks; a silver leaving the
    // zone may.
    let p = pos::<u128>("shogi", "4k4/9/9/N3S4/9/9/9/9/4K4 b - 1");
    let m = names(&p);
    assert!(m.contains("9d8b+") && !m.contains("9d8b"), "{m:?}");
    let p = pos::<u128>("shogi", "4k4/9/4S4/9/9/9/9/9/4K4 b - 1");
    let m = names(&p);
    assert!(m.contains("5c4d+") && m.contains("5c4d"), "{m:?}");
    // White's zone is the bottom ranks; Heian (no drops) forces pawns too.
    let p = pos::<u128>("heian", "4k4/9/9/9/9/9/9/p8/4K4 w - 1");
    let m = names(&p);
    assert!(m.contains("9h9i+") && !m.contains("9h9i"), "{m:?}");
    // Judkins' zone is two ranks: a pawn entering it may promote, a knight
    // on its last two ranks must.
    let p = pos::<u64>("judkins", "3k2/6/P5/2N3/6/K5 b - 1");
    let m = names(&p);
    assert!(m.contains("6c6b+") && m.contains("6c6b"), "{m:?}");
    assert!(m.contains("4d3b+") && !m.contains("4d3b"), "{m:?}");
}

/// In check: king moves to safe squares, capturing the checker, and blocking
/// it (on the board or by a drop); in double check only the king moves; a
/// pinned piece moves only along its pin.
#[test]
fn checks_and_pins() {
    // The rook on 5a checks down the file; a gold in hand blocks on each
    // square between; 5h stays attacked once the king leaves 5i.
    let single = pos::<u128>("shogi", "4r3k/9/9/9/9/9/9/9/4K4 b G 1");
    let mut want = set(&["5i4h", "5i6h", "5i4i", "5i6i"]);
    for rank in 'b'..='h' {
        want.insert(format!("G*5{rank}"));
    }
    assert_eq!(names(&single), want);
    // Rook on 5a and bishop on 1e both check: the rook on 9a could take the
    // checker and the gold could block, but only the king may move.
    let double = pos::<u128>("shogi", "R3r3k/9/9/9/8b/9/9/9/4K4 b G 1");
    assert_eq!(double.checkers().count(), 2);
    assert_eq!(names(&double), set(&["5i6h", "5i4i", "5i6i"]));
    // With the bishop gone the rook on 9a captures the checker.
    let capture = pos::<u128>("shogi", "R3r3k/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(names(&capture).contains("9a5a"));
    // The gold on 5h is pinned by the rook: it may only step up the file.
    let pinned = pos::<u128>("shogi", "4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    let from_5h: BTreeSet<String> = names(&pinned)
        .into_iter()
        .filter(|m| m.starts_with("5h"))
        .collect();
    assert_eq!(from_5h, set(&["5h5g"]));
    // A pinned slider slides along the pin, up to taking the pinner.
    let lance = pos::<u128>("shogi", "4r3k/9/9/9/9/9/9/4L4/4K4 b - 1");
    let from_5h: BTreeSet<String> = names(&lance)
        .into_iter()
        .filter(|m| m.starts_with("5h"))
        .collect();
    let mut want = set(&["5h5a+", "5h5b", "5h5b+", "5h5c", "5h5c+"]);
    for rank in 'd'..='g' {
        want.insert(format!("5h5{rank}"));
    }
    assert_eq!(from_5h, want);
}
