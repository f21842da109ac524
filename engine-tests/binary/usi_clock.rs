//! USI sessions against the clock through the built binary: `go` while a
//! search runs, `stop` and `ponderhit` answered once and in order, and every
//! time-control form within its budget.

use super::usi::{errors, legal_moves, timing};
use crate::common::{silent, timed_go, UsiProcess, ANSWER_DEADLINE};
use std::time::{Duration, Instant};

const SECS5: Duration = Duration::from_secs(5);

#[test]
fn go_while_searching_is_refused() {
    let mut e = UsiProcess::start();
    e.send("go infinite");
    e.wait_searching();
    e.send("go depth 1");
    e.send("isready");
    let (lines, _) = e.until(SECS5, |l| l == "readyok");
    assert_eq!(
        errors(&lines),
        ["info string error: go ignored: a search is running (send stop first)"],
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.bestmove(SECS5);
    // stop again, after the answer: no second bestmove.
    e.send("stop");
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.quit();
}

/// `go infinite` answers only when stopped, once, with the move of the
/// line it reported last.
#[test]
fn stop_during_infinite_answers_once() {
    let mut e = UsiProcess::start();
    silent(&mut e, "setoption name USI_Hash value 16");
    for (pos, moves) in [
        ("startpos", &[][..]),
        (
            "startpos moves 7g7f 3c3d 2g2f",
            &["7g7f", "3c3d", "2g2f"][..],
        ),
    ] {
        e.send(&format!("position {pos}"));
        e.send("go infinite");
        let mut reported = vec![e.wait_searching()];
        // isready is answered during the search, without a bestmove.
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        reported.extend(lines);
        e.send("stop");
        let (lines, last) = e.until(ANSWER_DEADLINE, |l| l.starts_with("bestmove"));
        reported.extend(lines);
        let m = last.split_whitespace().nth(1).unwrap_or("");
        assert!(
            legal_moves("shogi", None, moves).iter().any(|l| l == m),
            "{last}"
        );
        let pv_head = reported
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth "))
            .and_then(|l| l.split(" pv ").nth(1))
            .and_then(|pv| pv.split_whitespace().next());
        assert_eq!(
            pv_head,
            Some(m),
            "bestmove is the last line's first move: {reported:?}"
        );
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
    }
    e.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let _t = timing();
    let mut e = UsiProcess::start();
    silent(&mut e, "setoption name USI_Ponder value true");
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    // No answer while pondering, even once the search has finished (its
    // last depth reported): the answer waits for the ponderhit.
    e.send("go ponder depth 3 btime 1000 wtime 1000 byoyomi 500");
    e.until(SECS5, |l| l.starts_with("info depth 3 "));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    let m = e.bestmove(ANSWER_DEADLINE);
    assert!(legal_moves("shogi", None, &["7g7f", "3c3d"]).contains(&m));
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // ponderhit carrying times.
    e.send("go ponder btime 800 wtime 800 byoyomi 300");
    e.wait_searching();
    let t = Instant::now();
    e.send("ponderhit btime 700 wtime 800 byoyomi 300");
    e.bestmove(SECS5);
    assert!(
        t.elapsed() < Duration::from_millis(1000 + 200),
        "{:?}",
        t.elapsed()
    );
    e.quit();
}

/// shogiarena's early ponder: `go ponder` with no clock, the clock arrives
/// with `ponderhit`.
#[test]
fn clockless_ponder_gets_its_clock_at_ponderhit() {
    let _t = timing();
    let mut e = UsiProcess::start();
    silent(&mut e, "setoption name USI_Ponder value true");
    for (pos, hit, budget_ms) in [
        (
            "startpos moves 7g7f 3c3d",
            "ponderhit btime 0 wtime 0 byoyomi 300",
            300,
        ),
        (
            "startpos moves 2g2f 8c8d",
            "ponderhit btime 0 wtime 0 byoyomi 300",
            300,
        ),
        (
            "startpos moves 7g7f",
            "ponderhit btime 5000 wtime 3000 binc 100 winc 100",
            3000,
        ),
    ] {
        silent(&mut e, &format!("position {pos}"));
        e.send("go ponder");
        e.wait_searching();
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        let t = Instant::now();
        e.send(hit);
        e.bestmove(SECS5);
        let took = t.elapsed();
        assert!(
            took < Duration::from_millis(budget_ms + 150),
            "{hit}: {took:?}"
        );
        let lines = e.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
    }
    e.quit();
}

#[test]
fn ponder_then_stop() {
    let mut e = UsiProcess::start();
    silent(&mut e, "position startpos moves 7g7f");
    e.send("go ponder btime 60000 wtime 60000 byoyomi 10000");
    e.wait_searching();
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let m = e.bestmove(ANSWER_DEADLINE);
    assert!(legal_moves("shogi", None, &["7g7f"]).contains(&m), "{m}");
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // The usual GUI flow after a miss: new position, new go.
    silent(&mut e, "position startpos moves 7g7f 8c8d");
    e.send("go byoyomi 200");
    e.bestmove(SECS5);
    // gameover while pondering ends the ponder with one bestmove.
    e.send("go ponder byoyomi 10000");
    e.wait_searching();
    e.send("gameover lose");
    let lines = e.sync();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{lines:?}"
    );
    e.quit();
}

/// The `bestmove` line if one arrives within `d`.
pub(super) fn bestmove_within(e: &mut UsiProcess, d: Duration) -> Option<String> {
    let deadline = Instant::now() + d;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        match e.recv(left) {
            Some(l) if l.starts_with("bestmove") => return Some(l),
            Some(_) => continue,
            None => return None,
        }
    }
}

/// Every time-control form answers within its budget (measured from sending
/// `go` to reading `bestmove`, with slack for process scheduling of a quarter
/// of the budget at most; the engine keeps `NetworkDelay` 50 ms back anyway).
#[test]
fn time_controls_keep_their_budget() {
    let _t = timing();
    let mut e = UsiProcess::start();
    let slack = |budget_ms: u64| Duration::from_millis((budget_ms / 4).min(250));
    silent(&mut e, "usinewgame");
    silent(&mut e, "position startpos moves 7g7f 3c3d");
    for (go, budget_ms) in [
        ("go byoyomi 1000", 1000),
        ("go btime 0 wtime 0 byoyomi 1000", 1000),
        ("go movetime 200", 200),
        ("go btime 1000 wtime 1000", 1000),
        ("go btime 2000 wtime 2000 binc 500 winc 500", 2000),
        (
            "go btime 1000 wtime 1000 byoyomi 500 binc 100 winc 100",
            1500,
        ),
        ("go btime 300 wtime 300 byoyomi 0", 300),
        ("go btime 100000 wtime 100000 byoyomi 300 movetime 300", 300),
    ] {
        let (m, took) = timed_go(&mut e, go, SECS5 * 4);
        assert!(
            took < Duration::from_millis(budget_ms) + slack(budget_ms),
            "{go}: {took:?}"
        );
        assert!(
            legal_moves("shogi", None, &["7g7f", "3c3d"]).contains(&m),
            "{go}: {m}"
        );
    }
    // White to move: White's clock is the one that counts.
    silent(&mut e, "position startpos moves 7g7f");
    let (_, took) = timed_go(&mut e, "go btime 600000 wtime 800", SECS5);
    assert!(took < Duration::from_millis(800) + slack(800), "{took:?}");
    // `NetworkDelay 0` without slack is `engine-tests/clock.rs`'s, alone.
    // Fixed limits.
    for go in ["go depth 1", "go nodes 1000", "go depth 2 nodes 5000"] {
        timed_go(&mut e, go, SECS5 * 6);
    }
    e.quit();
}
