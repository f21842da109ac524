//! Many threads under fire: 4 and 8 search threads on a 1 MB table (so
//! threads overwrite each other's entries all the time), random positions of
//! every variant, searches of every kind stopped at random moments. Every
//! answer must come promptly and be legal, nothing may be reported as an
//! error, and the engine must exit cleanly.
//!
//! The default run takes about 20 seconds; the long run is
//! `KAWARI_STRESS_SECS=300 cargo test --release --test engine -- --ignored binary::stress`.

use crate::common::UsiProcess;
use kawari::core::BitWord;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// A random position of `v` a few dozen plies in: (SFEN, legal moves).
fn random_position(v: &'static Variant, rng: &mut StdRng) -> (String, Vec<String>) {
    with_width!(Width::for_variant(v), W => random_position_w::<W>(v, rng))
}

fn random_position_w<W: BitWord>(v: &'static Variant, rng: &mut StdRng) -> (String, Vec<String>) {
    loop {
        let mut pos = Position::<W>::startpos(v);
        let plies = rng.gen_range(0..80);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            pos.do_move(moves[rng.gen_range(0..moves.len())]);
        }
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_usi(v)).collect();
        if !legal.is_empty() && pos.game_end().is_none() {
            pos.clear_history();
            return (pos.to_sfen(), legal);
        }
    }
}

fn stress(seconds: u64, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut e = UsiProcess::start();
    e.send("setoption name USI_Hash value 1");
    let start = Instant::now();
    let (mut searches, mut threads) = (0, 4);
    e.send("setoption name Threads value 4");
    while start.elapsed() < Duration::from_secs(seconds) {
        if rng.gen_bool(0.05) {
            threads = if threads == 4 { 8 } else { 4 };
            e.send(&format!("setoption name Threads value {threads}"));
        }
        if rng.gen_bool(0.05) {
            e.send("usinewgame");
        }
        let v: &'static Variant = Variant::all().choose(&mut rng).unwrap();
        e.send(&format!("setoption name USI_Variant value {}", v.name()));
        let (sfen, legal) = random_position(v, &mut rng);
        e.send(&format!("position sfen {sfen}"));
        let go = match rng.gen_range(0..7) {
            0 => "go infinite".to_string(),
            1 => format!("go movetime {}", rng.gen_range(1..60)),
            2 => format!("go nodes {}", rng.gen_range(1..200_000)),
            3 => format!("go depth {}", rng.gen_range(1..12)),
            4 => format!("go btime {0} wtime {0} byoyomi 20", rng.gen_range(0..500)),
            5 => "go ponder btime 300 wtime 300 byoyomi 30".to_string(),
            _ => format!("go searchmoves {} infinite", legal[0]),
        };
        e.send(&go);
        std::thread::sleep(Duration::from_millis(rng.gen_range(0..40)));
        if go.contains("ponder") && rng.gen_bool(0.5) {
            e.send("ponderhit");
        }
        e.send("stop");
        let (lines, last) = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        for l in &lines {
            assert!(!l.starts_with("info string"), "{go}: {l}\n{}", e.tail());
        }
        let mv = last.split_whitespace().nth(1).unwrap_or("").to_string();
        assert!(
            legal.contains(&mv),
            "{go} at {sfen}: illegal {mv}\n{}",
            e.tail()
        );
        if go.contains("searchmoves") {
            assert_eq!(mv, legal[0], "searchmoves not honoured");
        }
        searches += 1;
        if searches % 50 == 0 {
            e.sync();
            let n = e.transcript.len();
            if n > 2000 {
                e.transcript.drain(..n - 200);
            }
        }
    }
    e.quit();
    eprintln!("{searches} searches in {:?}", start.elapsed());
    assert!(searches > seconds * 5, "{searches}");
}

#[test]
fn threads_searched_and_stopped_at_random() {
    stress(20, 1);
}

#[test]
#[ignore]
fn threads_searched_and_stopped_at_random_for_minutes() {
    let secs = std::env::var("KAWARI_STRESS_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    stress(secs, 2);
}
