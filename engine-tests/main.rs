//! Kawari's integration tests, one crate. `binary` drives the built `kawari`
//! binary as GUIs and users do (USI and UCI transcripts, bad input, the
//! command-line tools, `go mate`, many threads under fire); `library` calls the
//! library directly (perft against the reference data, rules cross-checks,
//! search, short wins, self-play, Heian endings). `common` holds the
//! reference data's readers and the engine-process helper both use.
//!
//! Run one part with a filter, e.g. `cargo test --release --test engine --
//! library::perft`.

mod binary;
mod common;
mod library;
