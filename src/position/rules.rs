//! Game-end rules of play: no legal move, repetition with perpetual check,
//! Heian's bare king, and the entering-king declaration. Perft ignores these
//! (except "no legal move"); search and tools ask for them here.

use super::{Move, Position};
use crate::core::Bitboard;
use crate::core::{BitWord, Color, Square};
use crate::variant::Kind;

/// The outcome of a repetition, from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// Not (enough) repeated.
    None,
    /// Repeated without perpetual check: a draw.
    Draw,
    /// The opponent checked on every move of the cycle: the side to move wins.
    Win,
    /// The side to move checked on every move of the cycle: it loses.
    Loss,
}

/// A finished game, from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameEnd {
    /// The side to move has lost (no legal move, bare king, perpetual check).
    Loss,
    /// The side to move has won (the opponent gave perpetual check).
    Win,
    /// Drawn by repetition.
    Draw,
}

/// Why a game is over, in the order the rules are applied: a bare king and a
/// repetition end the game before the question of a legal move is asked.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// The side to move's king is bare (Heian): it has lost.
    BareKing,
    /// The position repeated (never `Repetition::None`).
    Repetition(Repetition),
    /// No legal move, in check.
    Checkmate,
    /// No legal move, not in check (a loss in every variant here).
    Stalemate,
}

impl EndReason {
    /// The outcome for the side to move.
    pub fn outcome(self) -> GameEnd {
        match self {
            EndReason::Repetition(Repetition::Draw) => GameEnd::Draw,
            EndReason::Repetition(Repetition::Win) => GameEnd::Win,
            _ => GameEnd::Loss,
        }
    }
}

impl<W: BitWord> Position<W> {
    /// Whether the position before history entry `j` (or the current one when
    /// `j == len`) was check.
    fn was_check(&self, j: usize) -> bool {
        if j == self.history.len() {
            self.checkers.any()
        } else {
            self.history[j].checkers_before.any()
        }
    }

    /// Repetition verdict once the current position has occurred `n_fold` times
    /// (counting this one). Looking back stops at a null move.
    pub fn repetition_at(&self, n_fold: usize) -> Repetition {
        let n = self.history.len();
        let mut seen = 1;
        let mut prev = None;
        let mut j = n;
        while j >= 2 {
            if self.history[j - 1].mv.is_none() || self.history[j - 2].mv.is_none() {
                break;
            }
            j -= 2;
            if self.history[j].hash == self.hash {
                seen += 1;
                if prev.is_none() {
                    prev = Some(j);
                }
                if seen >= n_fold {
                    break;
                }
            }
        }
        let p = match prev {
            Some(p) if seen >= n_fold => p,
            _ => return Repetition::None,
        };
        // Positions p+1..=n alternate: p+1, p+3, .. follow our moves; p+2, .. n theirs.
        let they_checked_always = (p + 2..=n).step_by(2).all(|i| self.was_check(i));
        let we_checked_always = (p + 1..n).step_by(2).all(|i| self.was_check(i));
        match (they_checked_always, we_checked_always) {
            (true, false) => Repetition::Win,
            (false, true) => Repetition::Loss,
            _ => Repetition::Draw,
        }
    }

    /// Repetition verdict under the variant's N-fold rule.
    pub fn repetition(&self) -> Repetition {
        self.repetition_at(self.variant().def.repetition as usize)
    }

    /// Heian's bare-king rule: the side to move has only its king left while the
    /// opponent still has another piece.
    pub fn bare_king_loss(&self) -> bool {
        if !self.variant().def.bare_king_loses {
            return false;
        }
        let us = self.side;
        let them = us.opp();
        // A side without a king is never bare, and all its pieces count.
        let their_others = if self.has_king(them) {
            self.by_color[them.index()].more_than_one()
        } else {
            self.by_color[them.index()].any()
        };
        self.has_king(us) && !self.by_color[us.index()].more_than_one() && their_others
    }

    /// A move that wins at once, if there is one: the capture that bares the
    /// opponent's king, or a mate in one (the last move of a short win, for
    /// the root's short-win prover).
    pub fn winning_move(&mut self) -> Option<Move> {
        self.baring_capture().or_else(|| self.mate_in_one())
    }

    /// Under the bare-king rule, the capture of the opponent's last piece
    /// besides the king (which wins at once); cheap when there is none.
    pub fn baring_capture(&mut self) -> Option<Move> {
        let target = self.lone_piece(self.side.opp())?;
        // Only the attackers of that piece can take it.
        let attackers = self.attackers_to(target, self.side, self.occupied());
        for from in attackers {
            for promote in [false, true] {
                let m = Move::normal(from, target, promote);
                if !self.is_legal(m) {
                    continue;
                }
                self.do_move(m);
                let won = self.bare_king_loss();
                self.undo_move();
                if won {
                    return Some(m);
                }
            }
        }
        None
    }

    /// Under the bare-king rule, whether the side to move is down to its king
    /// and one piece, and that piece is attacked: standing pat would ignore
    /// that losing it loses the game.
    pub fn last_piece_attacked(&self) -> bool {
        self.lone_piece(self.side)
            .is_some_and(|sq| self.is_attacked(sq, self.side.opp(), self.occupied()))
    }

    /// Under the bare-king rule, the square of colour `c`'s only piece besides
    /// its king, if it has exactly one.
    fn lone_piece(&self, c: Color) -> Option<Square> {
        if !self.variant().def.bare_king_loses || !self.has_king(c) {
            return None;
        }
        let others = self.by_color[c.index()] & !Bitboard::from_square(self.king[c.index()]);
        (others.any() && !others.more_than_one()).then(|| others.lowest())
    }

    /// A check that leaves the opponent no legal move. Mate by pawn drop is
    /// not legal where the variant forbids it, so it is never returned.
    pub fn mate_in_one(&mut self) -> Option<Move> {
        for m in self.legal_checks() {
            self.do_move(m);
            let mated = !self.has_legal_move();
            self.undo_move();
            if mated {
                return Some(m);
            }
        }
        None
    }

    /// Impasse points of colour `c`: pieces on the board and in hand (kings 0,
    /// promoted pieces count as their base kind).
    pub fn impasse_points(&self, c: Color) -> u32 {
        let v = self.variant();
        let mut pts = 0;
        for sq in self.by_color[c.index()] {
            pts += v.kind(self.board[sq.index()].kind()).points as u32;
        }
        for k in 0..v.hand_kinds {
            pts += self.hands[c.index()].count(Kind(k as u8)) as u32 * v.kinds[k].points as u32;
        }
        pts
    }

    /// Whether the side to move may declare a win under the entering-king rule.
    pub fn can_declare(&self) -> bool {
        let Some(rule) = self.variant().def.declaration else {
            return false;
        };
        let t = self.t;
        let v = t.variant;
        let us = self.side;
        let zone = t.zone(us);
        if !self.has_king(us) || !zone.has(self.king[us.index()]) || self.in_check() {
            return false;
        }
        let in_zone = self.by_color[us.index()] & zone;
        if in_zone.count() < rule.pieces_in_zone + 1 {
            return false;
        }
        let mut pts = 0;
        for sq in in_zone {
            pts += v.kind(self.board[sq.index()].kind()).points as u32;
        }
        for k in 0..v.hand_kinds {
            pts += self.hands[us.index()].count(Kind(k as u8)) as u32 * v.kinds[k].points as u32;
        }
        let need = match us {
            Color::Black => rule.black_points,
            Color::White => rule.white_points,
        };
        pts >= need
    }

    /// Whether the game is over at this position, and how.
    pub fn game_end(&self) -> Option<GameEnd> {
        self.end_reason().map(EndReason::outcome)
    }

    /// Whether the game is over at this position, and by which rule.
    pub fn end_reason(&self) -> Option<EndReason> {
        if self.bare_king_loss() {
            return Some(EndReason::BareKing);
        }
        match self.repetition() {
            Repetition::None => {}
            r => return Some(EndReason::Repetition(r)),
        }
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn pos(variant: &str, sfen: &str) -> Position<u128> {
        Position::from_sfen(Variant::by_name(variant).unwrap(), sfen).unwrap()
    }

    fn play(p: &mut Position<u128>, moves: &[&str]) {
        let v = p.variant();
        for m in moves {
            let mv = *p
                .legal_moves()
                .iter()
                .find(|x| x.to_usi(v) == *m)
                .unwrap_or_else(|| panic!("{m} not legal in {}", p.to_sfen()));
            p.do_move(mv);
        }
    }

    #[test]
    fn fourfold_repetition_is_a_draw() {
        let mut p = pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 b - 1");
        let cycle = ["5i4i", "5a4a", "4i5i", "4a5a"];
        play(&mut p, &cycle);
        play(&mut p, &cycle);
        assert_eq!(p.repetition(), Repetition::None, "third occurrence");
        assert_eq!(p.repetition_at(2), Repetition::Draw);
        play(&mut p, &cycle);
        assert_eq!(p.repetition(), Repetition::Draw, "fourth occurrence");
        assert_eq!(p.game_end(), Some(GameEnd::Draw));
    }

    #[test]
    fn yari_repeats_threefold() {
        let mut p = pos("yarishogi", "3k3/7/7/7/7/7/7/7/3K3 b - 1");
        let cycle = ["4i3i", "4a3a", "3i4i", "3a4a"];
        play(&mut p, &cycle);
        assert_eq!(p.repetition(), Repetition::None);
        play(&mut p, &cycle);
        assert_eq!(p.repetition(), Repetition::Draw);
    }

    #[test]
    fn perpetual_check_loses() {
        let mut p = pos("shogi", "8k/9/7R1/9/9/9/9/9/K8 b - 1");
        let cycle = ["2c1c", "1a2a", "1c2c", "2a1a"];
        for _ in 0..3 {
            play(&mut p, &cycle);
        }
        // Black, to move, checked with every move of the cycle.
        assert_eq!(p.repetition(), Repetition::Loss);
        assert_eq!(p.game_end(), Some(GameEnd::Loss));
        // One ply earlier White (to move after Black's check) is the winner.
        let mut q = pos("shogi", "8k/9/7R1/9/9/9/9/9/K8 b - 1");
        for _ in 0..3 {
            play(&mut q, &cycle);
        }
        play(&mut q, &["2c1c"]);
        assert_eq!(q.repetition(), Repetition::Win);
    }

    #[test]
    fn bare_king_loses_in_heian_only() {
        let p = pos("heian", "4k4/9/9/9/9/9/9/9/G3K4 w - 1");
        assert!(p.bare_king_loss());
        assert_eq!(p.game_end(), Some(GameEnd::Loss));
        let both_bare = pos("heian", "4k4/9/9/9/9/9/9/9/4K4 w - 1");
        assert!(!both_bare.bare_king_loss());
        let shogi = pos("shogi", "4k4/9/9/9/9/9/9/9/G3K4 w - 1");
        assert!(!shogi.bare_king_loss());
        // A capture that leaves the opponent bare ends the game at once.
        let mut q = pos("heian", "4k4/9/9/9/9/9/9/3p5/G3K4 b - 1");
        assert!(!q.bare_king_loss());
        play(&mut q, &["5i6h"]);
        assert!(q.bare_king_loss());
    }

    #[test]
    fn entering_king_declaration() {
        let yes = pos("shogi", "4K4/PPPPPPPPP/7BR/9/9/9/9/9/4k4 b 4G4SN 1");
        assert_eq!(yes.impasse_points(Color::Black), 28);
        assert!(yes.can_declare());
        let short = pos("shogi", "4K4/PPPPPPPPP/7BR/9/9/9/9/9/4k4 b 4G4S 1");
        assert!(!short.can_declare(), "27 points are not enough for Black");
        let white = pos("shogi", "4K4/PPPPPPPPP/7BR/9/9/9/9/9/4k4 w 4G4SN 1");
        assert!(!white.can_declare());
        let judkins = pos("judkins", "2K3/1PP3/6/6/6/5k b 2R2B2G2S2N 1");
        assert!(!judkins.can_declare(), "no declaration rule in judkins");
    }

    #[test]
    fn no_legal_move_loses_even_without_check() {
        // Heian stalemate: White's king is boxed in but not attacked.
        let p = pos("heian", "8k/6G2/7G1/9/9/9/9/9/4K4 w - 1");
        assert!(!p.in_check());
        assert_eq!(p.count_legal(), 0);
        assert_eq!(p.game_end(), Some(GameEnd::Loss));
    }
}
