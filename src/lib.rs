//! Kawari (変わり): a USI engine for shogi variants.
//!
//! Layers, bottom up: `core` (bit words, bitboards, squares), `variant` (games as
//! data), `tables` (per-variant lookup tables), `position` (board state, SFEN,
//! make/unmake, legal move generation, game-end rules), `perft`.

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
