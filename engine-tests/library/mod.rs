//! Tests that call the library directly.

mod crosscheck;
mod heian_endings;
mod perft;
mod search;
mod search_clock;
mod selfplay;
mod short_wins;
