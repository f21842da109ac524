//! Move tests the search asks many times per node: a fast legality test for
//! moves from the hash table, killers or user input, the pieces that would give
//! a discovered check, and whether a move gives check.

use super::{Move, MoveError, Position};
use crate::core::{BitWord, Bitboard};

impl<W: BitWord> Position<W> {
    /// Reads a USI move and checks that it is legal here.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let m = Move::from_usi(self.variant(), s)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal)
        }
    }

    /// Whether `m` (possibly garbage from the hash table) is legal in `pos`.
    pub fn is_legal(&self, m: Move) -> bool {
        let pos = self;
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
                if v.def.pawn_drop_mate_illegal
                    && pos.has_king(them)
                    && t.leap(us, k, to).has(pos.king_square(them))
                {
                    // Rare: let the generator decide on uchifuzume.
                    return pos.legal_moves().contains(&m);
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
    pub fn discoverers(&self) -> Bitboard<W> {
        let pos = self;
        let us = pos.side_to_move();
        pos.blockers(us.opp(), us) & pos.pieces_of(us)
    }

    /// Whether the legal move `m` gives check; `disc` comes from `discoverers`.
    #[inline]
    pub fn gives_check(&self, disc: Bitboard<W>, m: Move) -> bool {
        let pos = self;
        let t = pos.tables();
        let v = t.variant;
        let us = pos.side_to_move();
        if !pos.has_king(us.opp()) {
            return false;
        }
        let ksq = pos.king_square(us.opp());
        let to = m.to();
        let occ = pos.occupied();
        if m.is_drop() {
            return t.attacks_square(us, m.drop_kind(), to, ksq, occ);
        }
        let from = m.from();
        let mut k = pos.piece_at(from).kind();
        if m.is_promotion() {
            k = v.kind(k).promotes_to.unwrap_or(k);
        }
        let occ_after = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        if k != v.king && t.attacks_square(us, k, to, ksq, occ_after) {
            return true;
        }
        disc.has(from) && !t.line(ksq, from).has(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    #[test]
    fn moves_parse_and_check_legality() {
        let v = Variant::by_name("shogi").unwrap();
        let pos = Position::<u128>::startpos(v);
        assert!(pos.parse_move("7g7f").is_ok());
        assert_eq!(pos.parse_move("7g7e"), Err(MoveError::Illegal));
        assert_eq!(pos.parse_move("P*5e"), Err(MoveError::Illegal));
        assert_eq!(pos.parse_move("7g7f+"), Err(MoveError::Illegal));
        for bad in [
            "", "7g", "7g7", "0a1a", "7g7f++", "p*5e", "PP*5e", "*5e", "P*", "10a1a", "é7f",
        ] {
            assert_eq!(pos.parse_move(bad), Err(MoveError::Malformed), "{bad}");
        }
        for m in pos.legal_moves() {
            assert_eq!(Move::from_usi(v, &m.to_usi(v)), Ok(m));
        }
    }

    /// Random playouts in every variant: the fast legality test agrees with the
    /// generator on every legal move and on moves taken from other positions;
    /// `gives_check` and `hash_after` agree with playing the move.
    #[test]
    fn helpers_agree_with_the_generator() {
        let mut rng = StdRng::seed_from_u64(7);
        for v in Variant::all() {
            let mut foreign: Vec<Move> = Vec::new();
            for _game in 0..12 {
                let mut pos = Position::<u128>::startpos(v);
                for _ply in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        assert!(pos.is_legal(m), "{} {}", pos.to_sfen(), m.to_usi(v));
                    }
                    for &m in foreign.iter().rev().take(60) {
                        assert_eq!(
                            pos.is_legal(m),
                            moves.contains(&m),
                            "{} {}",
                            pos.to_sfen(),
                            m.to_usi(v)
                        );
                    }
                    for _ in 0..20 {
                        let m = Move::from_raw(rng.gen());
                        assert_eq!(
                            pos.is_legal(m),
                            moves.contains(&m),
                            "{} raw {:x}",
                            pos.to_sfen(),
                            m.raw()
                        );
                    }
                    let disc = pos.discoverers();
                    for &m in &moves {
                        let gc = pos.gives_check(disc, m);
                        let hash = pos.hash_after(m);
                        pos.do_move(m);
                        assert_eq!(gc, pos.in_check(), "{} {}", pos.to_sfen(), m.to_usi(v));
                        assert_eq!(hash, pos.hash(), "{} {}", pos.to_sfen(), m.to_usi(v));
                        pos.undo_move();
                    }
                    checks_agree(&pos);
                    foreign.extend(moves.iter().copied().take(5));
                    let m = moves[rng.gen_range(0..moves.len())];
                    pos.do_move(m);
                }
            }
        }
    }

    /// `legal_checks` is exactly the legal moves that give check (and
    /// `legal_checks_into` the same list), and
    /// `count_checks_by_square` their number with drops counted by square
    /// (`count_legal_by_square` and `count_evasions_by_square` that of all
    /// legal moves).
    fn checks_agree(pos: &Position<u128>) {
        let v = pos.variant();
        let disc = pos.discoverers();
        let mut want: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| pos.gives_check(disc, m))
            .collect();
        let mut into = crate::position::MoveList::new();
        pos.legal_checks_into(&mut into);
        assert_eq!(&into[..], &pos.legal_checks()[..], "{}", pos.to_sfen());
        let mut got: Vec<Move> = pos.legal_checks().into_iter().collect();
        want.sort_by_key(|m| m.raw());
        got.sort_by_key(|m| m.raw());
        let names = |l: &[Move]| l.iter().map(|m| m.to_usi(v)).collect::<Vec<_>>();
        assert_eq!(names(&got), names(&want), "{}", pos.to_sfen());
        let sfen = pos.to_sfen();
        assert_eq!(pos.count_checks_by_square(), by_square(&want), "{sfen}");
        let all = pos.legal_moves();
        assert_eq!(pos.count_legal_by_square(), by_square(&all), "{sfen}");
        assert_eq!(pos.count_evasions_by_square(), by_square(&all), "{sfen}");
    }

    /// The number of `moves`, the drops on one square counted once.
    fn by_square(moves: &[Move]) -> u32 {
        let drop_squares: std::collections::BTreeSet<_> = moves
            .iter()
            .filter(|m| m.is_drop())
            .map(|m| m.to())
            .collect();
        let board = moves.iter().filter(|m| !m.is_drop()).count();
        (board + drop_squares.len()) as u32
    }

    /// The check generator on tsume positions (the attacker has no king) and
    /// random play from them.
    #[test]
    fn checks_of_kingless_attackers() {
        let mut rng = StdRng::seed_from_u64(11);
        for (variant, sfen) in [
            ("shogi", "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"),
            ("shogi", "8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1"),
            ("shogi", "7nl/6s2/5N2k/6G2/9/9/9/9/9 b 2RG2b2g3s2n3l18p 1"),
            ("judkins", "5k/6/5P/6/6/6 b GRB 1"),
            ("yarishogi", "6k/7/6P/7/7/7/7/7/7 b 2RBN 1"),
            ("heian", "4k4/9/3GG4/9/9/9/9/9/LNSG1GSNL b - 1"),
        ] {
            let v = Variant::by_name(variant).unwrap();
            for _game in 0..20 {
                let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
                for _ply in 0..40 {
                    checks_agree(&pos);
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.do_move(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }
}
