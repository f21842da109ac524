//! Wall-clock budgets checked without slack, in a test binary of their own:
//! cargo runs test binaries one after another, so no other test competes for
//! the CPU while these measure (in `engine-tests/main.rs` the harness runs a
//! test per core beside them, and a search that is not scheduled overruns
//! whatever the engine does).
//!
//! `cargo test --release --test clock`

// The shared helpers; this binary uses only the engine-process part.
#[allow(dead_code)]
mod common;

use common::{silent, timed_go, UsiProcess};
use std::time::Duration;

/// Without `NetworkDelay` the engine's own margin still answers inside the
/// byoyomi, measured as a GUI does (from sending `go` to reading
/// `bestmove`), with one and with several threads and without main time;
/// and the byoyomi is used, not thrown away.
#[test]
fn byoyomi_is_kept_without_network_delay() {
    let mut e = UsiProcess::start();
    silent(&mut e, "usinewgame");
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    silent(&mut e, "setoption name NetworkDelay value 0");
    for threads in [1, 2] {
        silent(&mut e, &format!("setoption name Threads value {threads}"));
        for _ in 0..3 {
            let (m, took) = timed_go(&mut e, "go byoyomi 1000", Duration::from_secs(5));
            assert!(took < Duration::from_millis(1000), "{threads}: {took:?}");
            assert!(
                took > Duration::from_millis(900),
                "byoyomi unused: {took:?}"
            );
            assert!(!m.is_empty() && m != "resign", "{m}");
        }
    }
    e.quit();
}
