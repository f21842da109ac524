//! Search at library level against the clock: `stop` from the caller and
//! from another thread, byoyomi and movetime kept, a single legal move played
//! at once, pondering that ignores the clock until `ponderhit`.

use super::search::{depth, run_search};
use kawari::position::Position;
use kawari::search::{Decision, Info, Limits, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use std::time::Duration;

#[test]
fn stop_returns_a_legal_move_at_once() {
    let v = Variant::by_name("shogi").unwrap();
    let mut pos = Position::<u128>::startpos(v);
    let ctl = Signals::default();
    ctl.request_stop();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let o = run_search(&mut pos, &infinite, &SearchOptions::default(), &ctl);
    let Decision::Move { mv: m, .. } = o.best else {
        panic!()
    };
    assert!(pos.is_legal_slow(m));
    // Stopped before it began: at most the first iteration, for a move.
    let deepest = o.infos.iter().map(|i| i.depth).max();
    assert!(deepest <= Some(1), "searched on after stop: {deepest:?}");
}

/// `stop` from another thread ends a search without limit within the
/// iteration it arrives in. The search thread waits, at the end of its
/// `STOP_AT`th iteration, until the stop has been sent, so the order of
/// events is fixed whatever the machine's load.
#[test]
fn stop_from_another_thread_ends_the_iteration() {
    const STOP_AT: u32 = 4;
    // A safety net only: without a working stop the search would run on.
    const NODE_CAP: u64 = 5_000_000;
    let v = Variant::by_name("shogi").unwrap();
    let pos = Position::<u128>::startpos(v);
    let limits = Limits {
        infinite: true,
        nodes: Some(NODE_CAP),
        ..Limits::default()
    };
    let ctl = Signals::default();
    let (to_stopper, stopper_hears) = std::sync::mpsc::channel::<u32>();
    let (to_search, search_hears) = std::sync::mpsc::channel::<()>();
    let (best, infos) = std::thread::scope(|s| {
        let ctl = &ctl;
        s.spawn(move || {
            let heard = stopper_hears.recv_timeout(Duration::from_secs(30));
            ctl.request_stop();
            let _ = to_search.send(());
            assert_eq!(heard, Ok(STOP_AT), "the search reported no such iteration");
        });
        let mut search = Search::new();
        let tt = TranspositionTable::new(16);
        let mut infos: Vec<Info> = Vec::new();
        let mut asked = false;
        let best = search.run(
            &pos,
            &limits,
            &SearchOptions::default(),
            &tt,
            ctl,
            &mut |i| {
                infos.push(i.clone());
                if i.depth == STOP_AT && !asked {
                    asked = true;
                    to_stopper.send(i.depth).unwrap();
                    search_hears
                        .recv_timeout(Duration::from_secs(30))
                        .expect("the stopper answered");
                }
            },
        );
        (best, infos)
    });
    let Decision::Move { mv: m, .. } = best else {
        panic!("{best:?}")
    };
    let mut pos = pos;
    assert!(pos.is_legal_slow(m));
    let deepest = infos.iter().map(|i| i.depth).max().unwrap();
    assert!(
        deepest <= STOP_AT + 1,
        "iterations went on after the stop: depth {deepest}"
    );
    let nodes = infos.last().unwrap().nodes;
    assert!(nodes < NODE_CAP, "ended by the node cap, not the stop");
}

#[test]
fn byoyomi_and_movetime_are_respected() {
    let v = Variant::by_name("shogi").unwrap();
    let sfen = "l1sg2s1l/1r1kg4/2ppppnpp/p5p2/1p1P1+bn2/2P3B2/PPS1PPPPP/4GSR2/L1G1K2NL b N 31";
    let mut pos = crate::common::position::<u128>(v, sfen);
    let byoyomi = Limits {
        time: [Some(0), Some(0)],
        byoyomi: 1000,
        ..Limits::default()
    };
    let o = run_search(
        &mut pos,
        &byoyomi,
        &SearchOptions::default(),
        &Signals::default(),
    );
    assert!(o.elapsed < Duration::from_millis(1000), "{:?}", o.elapsed);
    assert!(
        o.elapsed > Duration::from_millis(500),
        "byoyomi left unused: {:?}",
        o.elapsed
    );
    let movetime = Limits {
        movetime: Some(300),
        ..Limits::default()
    };
    let o = run_search(
        &mut pos,
        &movetime,
        &SearchOptions::default(),
        &Signals::default(),
    );
    assert!(o.elapsed < Duration::from_millis(300), "{:?}", o.elapsed);
    // Sudden death with little left: answer well inside it.
    let sudden = Limits {
        time: [Some(500), Some(500)],
        ..Limits::default()
    };
    let o = run_search(
        &mut pos,
        &sudden,
        &SearchOptions::default(),
        &Signals::default(),
    );
    assert!(o.elapsed < Duration::from_millis(400), "{:?}", o.elapsed);
}

#[test]
fn a_single_legal_move_is_played_quickly() {
    // White's king in check by a rook with one flight square.
    let v = Variant::by_name("shogi").unwrap();
    let mut pos = crate::common::position::<u128>(v, "8k/9/8R/9/9/9/9/9/4K4 w - 1");
    assert_eq!(pos.legal_moves().len(), 2);
    let mut pos2 = crate::common::position::<u128>(v, "7lk/9/8R/9/9/9/9/9/4K4 w - 1");
    assert_eq!(pos2.legal_moves().len(), 1);
    let clock = Limits {
        time: [Some(60_000), Some(60_000)],
        byoyomi: 0,
        ..Limits::default()
    };
    let o = run_search(
        &mut pos2,
        &clock,
        &SearchOptions::default(),
        &Signals::default(),
    );
    // With one legal move the clock is not spent: the search stops after
    // its first iteration (a depth, not a wall time, so a loaded machine
    // cannot fail it).
    let depths: Vec<u32> = o.infos.iter().map(|i| i.depth).collect();
    assert_eq!(depths.iter().max(), Some(&1), "{depths:?}");
    let _ = run_search(
        &mut pos,
        &depth(3),
        &SearchOptions::default(),
        &Signals::default(),
    );
}

/// While pondering the search runs past the time its clock would allow; at
/// `ponderhit` the clock starts and the search answers by itself. The search
/// thread waits, at the first iteration ending after twice the byoyomi,
/// until the ponderhit has been sent, so the order of events is fixed.
#[test]
fn ponder_ignores_the_clock_until_ponderhit() {
    const BYOYOMI: u64 = 300;
    let v = Variant::by_name("judkins").unwrap();
    let pos = Position::<u64>::startpos(v);
    let limits = Limits {
        time: [Some(0), Some(0)],
        byoyomi: BYOYOMI,
        ponder: true,
        ..Limits::default()
    };
    let ctl = Signals::new(true);
    let (to_ponderer, ponderer_hears) = std::sync::mpsc::channel::<u64>();
    let (to_search, search_hears) = std::sync::mpsc::channel::<()>();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let (best, pondered_ms) = std::thread::scope(|s| {
        let ctl = &ctl;
        let ponderer = s.spawn(move || {
            let Ok(at) = ponderer_hears.recv_timeout(Duration::from_secs(30)) else {
                // End the search, then fail.
                ctl.request_stop();
                panic!("the search stopped reporting while pondering");
            };
            ctl.ponderhit(None);
            to_search.send(()).unwrap();
            // The search must now answer by itself; give up on it (and stop
            // it, to end the test) only far beyond its budget.
            let answered = finished
                .recv_timeout(Duration::from_millis(20 * BYOYOMI))
                .is_ok();
            if !answered {
                ctl.request_stop();
            }
            (at, answered)
        });
        let mut search = Search::new();
        let tt = TranspositionTable::new(16);
        let mut asked = false;
        let best = search.run(
            &pos,
            &limits,
            &SearchOptions::default(),
            &tt,
            ctl,
            &mut |i| {
                if i.time_ms > 2 * BYOYOMI && !asked {
                    asked = true;
                    to_ponderer.send(i.time_ms).unwrap();
                    search_hears
                        .recv_timeout(Duration::from_secs(30))
                        .expect("the ponderer answered");
                }
            },
        );
        let _ = done.send(());
        let (at, answered) = ponderer.join().unwrap();
        assert!(answered, "no answer after the ponderhit");
        (best, at)
    });
    assert!(pondered_ms > 2 * BYOYOMI);
    assert!(matches!(best, Decision::Move { .. }), "{best:?}");
}
