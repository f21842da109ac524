//! Scores: the search's integer scale (mates near `MATE`, rule wins at
//! `RULE_WIN`, draws at `DRAW`) and `Score`, the form USI reports.

use super::params::MAX_PLY;

/// Score of mating now; a mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32_000;
/// Above every score.
pub const INFINITE: i32 = 32_001;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Winning by a rule other than mate inside the tree (the opponent's perpetual
/// check): large, but not a mate score.
pub const RULE_WIN: i32 = 20_000;
/// The draw score.
pub const DRAW: i32 = 0;

/// A search score as USI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many plies: positive = we mate, negative = we are mated.
    Mate(i32),
}

/// A score as USI reports it.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}
