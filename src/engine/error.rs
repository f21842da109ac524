//! Why the engine refused a request.

use crate::bench::BenchArgsError;
use crate::nnue::NetworkError;
use crate::position::{MoveError, Notation, SfenError};
use std::fmt;

/// Why the engine refused a request, one variant per kind of failure.
/// Messages never echo user input; the protocol layer adds (clipped) input
/// where it helps.
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
    /// A position of another variant than the one being played.
    WrongVariant {
        /// The position's variant.
        position: &'static str,
        /// The variant being played.
        playing: &'static str,
    },
    /// The hash table of that size cannot be allocated.
    HashAlloc(usize),
    /// A hash size (MB) outside 1..=`MAX_HASH_MB`.
    HashSize(usize),
    /// A thread count outside 1..=`MAX_THREADS`.
    ThreadCount(usize),
    /// A search thread could not be started.
    Threads {
        /// Index of the thread that failed.
        index: usize,
        /// Threads asked for.
        count: usize,
        /// What the system said.
        reason: String,
    },
    /// A `go perft` depth above `MAX_PERFT_DEPTH`.
    PerftDepth(u32),
    /// The `EvalFile` network could not be loaded.
    EvalFile(NetworkError),
    /// UCI's `go mate` without a number of moves (UCI has no tsume search).
    MateNeedsMoves,
    /// Bad `bench` arguments.
    Bench(BenchArgsError),
    /// The `VariantPath` file could not be read.
    VariantPath {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::{MAX_HASH_MB, MAX_PERFT_DEPTH, MAX_THREADS};
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
            EngineError::WrongVariant { position, playing } => {
                write!(f, "a position of {position} while playing {playing}")
            }
            EngineError::HashAlloc(mb) => write!(f, "cannot allocate a hash table of {mb} MB"),
            EngineError::HashSize(mb) => {
                write!(f, "hash size {mb} MB is out of range 1..{MAX_HASH_MB}")
            }
            EngineError::ThreadCount(n) => {
                write!(f, "{n} threads is out of range 1..{MAX_THREADS}")
            }
            EngineError::Threads {
                index,
                count,
                reason,
            } => write!(f, "cannot start search thread {index} of {count}: {reason}"),
            EngineError::PerftDepth(d) => {
                write!(f, "perft depth {d} is above {MAX_PERFT_DEPTH}")
            }
            EngineError::EvalFile(e) => write!(f, "EvalFile: {e}"),
            EngineError::MateNeedsMoves => write!(f, "go mate needs a number of moves in UCI"),
            EngineError::Bench(e) => write!(f, "bench: {e}"),
            EngineError::VariantPath { path, reason } => {
                write!(
                    f,
                    "VariantPath: cannot read {}: {reason}",
                    path.chars().take(60).collect::<String>()
                )
            }
        }
    }
}

impl std::error::Error for EngineError {}
