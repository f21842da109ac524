//! What the engine says, as typed values: the protocol layer turns them into
//! text.

use crate::search::Info;
use std::sync::Arc;

/// What the engine reports, in order, through its sink.
#[derive(Clone, Debug)]
pub enum Report {
    /// Search progress; `pv` is `info.pv` in USI notation.
    Info {
        /// The search's report.
        info: Info,
        /// The principal variation as USI moves.
        pv: Vec<String>,
    },
    /// The one answer to a search `go`.
    BestMove(Decision),
    /// One root move of `go perft` and its count.
    PerftMove {
        /// The move in USI notation.
        mv: String,
        /// Leaf count below it.
        nodes: u64,
    },
    /// The total of `go perft`.
    PerftTotal(u64),
    /// A line of `bench` output.
    Bench(String),
    /// A remark for the user.
    Message(String),
    /// Something went wrong inside the engine (a panicking thread, a failed
    /// allocation noticed late).
    Error(String),
}

/// A search's decision, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play `mv`, expecting `ponder`.
    Move {
        /// The move in USI notation.
        mv: String,
        /// The expected reply, if any.
        ponder: Option<String>,
    },
    /// No legal move, or lost beyond doubt.
    Resign,
    /// The entering-king declaration holds.
    Win,
}

/// Where reports go; called from the engine's threads.
pub type Sink = Arc<dyn Fn(Report) + Send + Sync>;
