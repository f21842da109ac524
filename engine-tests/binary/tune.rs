//! The tune build (`--features tune`): the search tunables are listed as
//! spin options and `setoption` reaches the search, the derived LMR table
//! included; the defaults search as the normal build does.

use crate::common::UsiProcess;
use std::time::Duration;

const SECS: Duration = Duration::from_secs(60);

/// Nodes of a fresh `go depth 9` from a shogi middlegame (hash and
/// heuristics cleared first, one thread: the count is exact).
fn nodes(e: &mut UsiProcess) -> u64 {
    e.send("setoption name Clear_Hash");
    e.send("usinewgame");
    e.send(
        "position sfen l1sg2s1l/1r1kg4/2ppppnpp/p5p2/1p1P1+bn2/2P3B2/PPS1PPPPP/4GSR2/L1G1K2NL b N 31",
    );
    e.sync();
    e.send("go depth 9");
    let (lines, _) = e.until(SECS, |l| l.starts_with("bestmove"));
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let i = t.iter().position(|&w| w == "nodes")?;
            t.get(i + 1)?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn tunables_are_options_that_reach_the_search() {
    let mut e = UsiProcess::start();
    e.send("usi");
    let (lines, _) = e.until(SECS, |l| l == "usiok");
    for want in [
        "option name RFP_MARGIN type spin default 90 min 45 max 180",
        "option name LMR_BASE_X100 type spin default 60 min 30 max 120",
        "option name LMR_DIVISOR_X100 type spin default 230 min 115 max 460",
        "option name ASPIRATION_DELTA type spin default 30 min 15 max 60",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want} in {lines:?}");
    }
    let base = nodes(&mut e);
    for (name, value, default) in [
        ("RFP_MARGIN", 45, 90),
        ("FUTILITY_MARGIN", 55, 110),
        ("LMR_BASE_X100", 120, 60),
        ("LMR_DIVISOR_X100", 115, 230),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
        let changed = nodes(&mut e);
        assert_ne!(changed, base, "{name} {value} changed nothing");
        // Back to the default: the same search again (the LMR table is rebuilt).
        e.send(&format!("setoption name {name} value {default}"));
        assert_eq!(nodes(&mut e), base, "{name} back to {default}");
    }
    // Out of range: refused, and the value stays.
    e.send("setoption name RFP_MARGIN value 1000");
    let refused = e.sync();
    assert!(
        refused.iter().any(|l| l.contains("RFP_MARGIN")),
        "{refused:?}"
    );
    assert_eq!(nodes(&mut e), base);
    e.quit();
}
