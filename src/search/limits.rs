//! What a `go` command asks for: clocks, fixed limits, pondering, root moves.

use crate::position::Move;
use std::time::Instant;

/// Search limits from `go`. Times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining time per colour (`btime`, `wtime`), indexed by `Color::index()`.
    pub time: [Option<u64>; 2],
    /// Increment per colour (`binc`, `winc`).
    pub inc: [u64; 2],
    /// Byoyomi per move (`byoyomi`).
    pub byoyomi: u64,
    /// Moves to the next time control (`movestogo`).
    pub movestogo: Option<u32>,
    /// Fixed time for this move (`movetime`).
    pub movetime: Option<u64>,
    /// Depth limit in plies (`depth`).
    pub depth: Option<u32>,
    /// Node limit (`nodes`), counted over all threads.
    pub nodes: Option<u64>,
    /// Search until `stop` (`infinite`).
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Only these root moves (`searchmoves`); empty = all. Each must be legal.
    pub searchmoves: Vec<Move>,
    /// A mate in this many moves is asked for (UCI's `go mate N`): never
    /// weakened by `Skill Level`.
    pub mate: Option<u32>,
    /// When the `go` was read: the clock's budgets count from here, not from
    /// the search's start (`None`: from the start).
    pub received: Option<Instant>,
}
