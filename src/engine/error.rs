//! Why the engine refused a request.

use crate::position::{MoveError, Notation, SfenError};
use std::fmt;

/// Why the engine refused a request. Messages never echo user input; the
/// protocol layer adds (clipped) input where it helps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A search or perft is running.
    Busy,
    /// The SFEN or FEN does not describe a position of the current variant.
    Position {
        /// The current variant.
        variant: &'static str,
        /// The notation it was written in.
        notation: Notation,
        /// What is wrong.
        err: SfenError,
    },
    /// A move of `position ... moves` (or of `searchmoves`) was rejected.
    Move {
        /// 1-based index in the move list.
        index: usize,
        /// Malformed or illegal.
        err: MoveError,
    },
    /// The hash table of that size cannot be allocated.
    HashAlloc(usize),
    /// A value out of the range the engine supports.
    OutOfRange(String),
    /// Search threads could not be started.
    Threads(String),
    /// Bad `bench` arguments.
    Bench(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy => write!(f, "a search is running (send stop first)"),
            EngineError::Position {
                variant,
                notation,
                err,
            } => {
                let what = match notation {
                    Notation::Usi => "SFEN",
                    Notation::Uci => "FEN",
                };
                write!(f, "bad {what} for {variant}: {err}")
            }
            EngineError::Move { index, err } => write!(f, "move {index} is {err}"),
            EngineError::HashAlloc(mb) => write!(f, "cannot allocate a hash table of {mb} MB"),
            EngineError::OutOfRange(s) | EngineError::Threads(s) => write!(f, "{s}"),
            EngineError::Bench(s) => write!(f, "bench: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}
