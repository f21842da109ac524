//! What can go wrong in self-play data and training, with the file or
//! position it concerns; the messages are the ones `kawari datagen` and
//! `kawari train` print.

use std::fmt;
use std::path::PathBuf;

/// Why a book line is not a position to play a game from.
#[derive(Debug)]
pub enum StartProblem {
    /// The rules core refuses the SFEN (its reason).
    BadSfen(String),
    /// The game has already ended there.
    Ended,
}

/// A datagen or training failure.
#[derive(Debug)]
pub enum LearnError {
    /// Reading or writing `path` failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// `path` is not made of datagen records.
    NotRecords(PathBuf),
    /// A record of `path` holds a position the rules core refuses.
    BadRecord {
        /// The file.
        path: PathBuf,
        /// The record's SFEN.
        sfen: String,
        /// The rules core's reason.
        reason: String,
    },
    /// A start position that cannot start a game.
    BadStart {
        /// The book file and its line (1-based), when it came from one.
        at: Option<(PathBuf, usize)>,
        /// The SFEN.
        sfen: String,
        /// What is wrong with it.
        problem: StartProblem,
    },
    /// A book file without positions.
    EmptyBook(PathBuf),
    /// The hidden layer's size is not a multiple of 16.
    Hidden(usize),
    /// The data hold no positions of the variant (its name).
    NoPositions(&'static str),
    /// A training thread panicked.
    TrainingThread,
    /// A writer thread panicked while holding the output file.
    OutputLock,
}

impl LearnError {
    /// An I/O error on `path`.
    pub(super) fn io(path: &std::path::Path, error: std::io::Error) -> LearnError {
        LearnError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LearnError::NotRecords(path) => write!(f, "{}: not a datagen file", path.display()),
            LearnError::BadRecord { path, sfen, reason } => {
                write!(f, "{}: bad record {sfen}: {reason}", path.display())
            }
            LearnError::BadStart { at, sfen, problem } => {
                if let Some((path, line)) = at {
                    write!(f, "{}:{line}: ", path.display())?;
                }
                match problem {
                    StartProblem::BadSfen(reason) => write!(f, "bad SFEN '{sfen}': {reason}"),
                    StartProblem::Ended => write!(f, "the game has ended in '{sfen}'"),
                }
            }
            LearnError::EmptyBook(path) => write!(f, "{}: no positions", path.display()),
            LearnError::Hidden(n) => write!(f, "--hidden {n}: a multiple of 16"),
            LearnError::NoPositions(variant) => write!(f, "no {variant} positions in the data"),
            LearnError::TrainingThread => write!(f, "a training thread failed"),
            LearnError::OutputLock => write!(f, "output lock poisoned"),
        }
    }
}

impl std::error::Error for LearnError {}
