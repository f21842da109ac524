//! Tests through the built `kawari` binary, one process per session.

mod game_lines;
mod levels;
mod mate;
mod stress;
mod tools;
#[cfg(feature = "tune")]
mod tune;
mod uci;
mod usi;
mod usi_clock;
mod usi_errors;
mod usi_fuzz;
mod web;
