//! Tests that call the library directly.

mod crosscheck;
mod heian_endings;
mod perft;
mod search;
mod selfplay;
mod short_wins;
