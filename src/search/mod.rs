//! Search. The way in is `threads`: `Threads` (the pool of search threads,
//! the hash table and the running job, with `Job::search` for Lazy SMP) and
//! `Search` (the same search on the caller's one thread). Inside: a thread's
//! state and iterative deepening (`worker`), the tree search (`alphabeta`)
//! and its move picker, the main thread's clock and reports (`driver`), what
//! the threads share (`shared`), the lock-free hash table (`tt`), the score
//! scale (`score`); tunables in `params`, other constants beside their owners.

mod alphabeta;
mod driver;
pub mod history;
mod limits;
pub mod params;
mod picker;
mod pool;
mod score;
pub mod see;
mod shared;
mod shortwin;
mod signals;
mod skill;
mod threads;
pub mod time;
mod tt;
mod worker;

pub use limits::Limits;
pub use picker::generate_captures;
pub use score::{to_score, Score};
pub use signals::{Ponderhit, Signals};
pub use skill::{level_for_elo, ELO_MAX, ELO_MIN, SKILL_MAX_LEVEL, SKILL_MIN_LEVEL};
pub use threads::{ErrorSink, Job, Outcome, Search, SearchFault, Threads, ThreadsError};
pub use tt::{AllocError, Bound, TranspositionTable, TtHit};

use crate::core::BitWord;
use crate::nnue::EvalChoice;
use crate::position::{Move, Position};
use skill::ELO_DEFAULT;

/// One `info` report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index for MultiPV.
    pub multipv: u32,
    /// Score of this line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Options that shape a search (from `setoption`).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Lines to report (MultiPV).
    pub multipv: u32,
    /// Game ply at which the game is a draw (0 = off).
    pub max_moves_to_draw: u32,
    /// Whether the entering-king declaration is allowed (shogi only).
    pub declaration: bool,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
    /// The evaluation: the variant's network or the hand-made one.
    pub eval: EvalChoice,
    /// `Skill Level`, −20 to 20 (20: full strength).
    pub skill_level: i32,
    /// `UCI_LimitStrength`: `elo` decides the level.
    pub limit_strength: bool,
    /// `UCI_Elo`, with `limit_strength`.
    pub elo: u32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            max_moves_to_draw: 0,
            declaration: true,
            move_overhead: 50,
            eval: EvalChoice::Default,
            skill_level: SKILL_MAX_LEVEL,
            limit_strength: false,
            elo: ELO_DEFAULT,
        }
    }
}

/// What a search decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play `mv`, expecting `ponder`.
    Move {
        /// The move, legal in the searched position.
        mv: Move,
        /// The expected reply, if any.
        ponder: Option<Move>,
    },
    /// No legal move.
    Resign,
    /// The entering-king declaration holds.
    Win,
}

impl Decision {
    /// A legal move of `pos` when no search can give one (it panicked), or
    /// `Resign` if there is none.
    pub fn any_legal<W: BitWord>(pos: &Position<W>) -> Decision {
        match pos.legal_moves().first() {
            Some(&mv) => Decision::Move { mv, ponder: None },
            None => Decision::Resign,
        }
    }
}

/// The decision that needs no search: the declaration holds, or there is no
/// legal move.
pub fn decided_without_search<W: BitWord>(
    pos: &Position<W>,
    opts: &SearchOptions,
) -> Option<Decision> {
    if opts.declaration && pos.can_declare() {
        Some(Decision::Win)
    } else if !pos.has_legal_move() {
        Some(Decision::Resign)
    } else {
        None
    }
}
