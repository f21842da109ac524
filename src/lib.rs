//! Kawari (変わり): a USI and UCI engine for shogi variants.
//!
//! The layers, bottom up (each uses only those before it; `docs/architecture.md`
//! has the same map, the way from a `go` to its `bestmove`, and where each
//! concern lives):
//!
//! - `core`: bit words (`u64`, `u128`), bitboards, squares, colours, directions,
//!   zero-filled tables.
//! - `variant`: the games as data (pieces, promotions, zones, drop and end rules;
//!   `docs/rules.md`).
//! - `width`: the bit word a variant needs.
//! - `tables`: per-variant lookup tables and Zobrist keys.
//! - `position`: board state, SFEN and the move notations, make/unmake, legal
//!   move generation, game-end rules.
//! - `perft`: counting legal move paths.
//! - `eval`: the hand-made evaluation.
//! - `nnue`: the learned evaluation and the built-in networks.
//! - `search`: the game search (threads, time, playing levels, hash table).
//! - `mate`: the df-pn tsume solver.
//! - `bench`: the bench positions and the node-count signature.
//! - `learn`: self-play training data and the network trainer (offline).
//! - `engine`: the position, settings and jobs behind the protocol, reporting
//!   typed values.
//! - `protocol`: the USI and UCI front end on stdin/stdout.

#![deny(missing_docs)]

pub mod bench;
pub mod core;
pub mod engine;
pub mod eval;
pub mod learn;
pub mod mate;
pub mod nnue;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod search;
pub mod tables;
pub mod variant;
pub mod width;
