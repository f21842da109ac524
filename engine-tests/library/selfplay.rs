//! Fast self-play in every variant, refereed independently of the search:
//! every move the engine plays must pass `Position::is_legal_slow` (a legality
//! test that does not use the move generator) and be in the generated list, a
//! `bestmove win` must be a valid declaration, and games end by
//! `Position::game_end`. Tiny node and depth limits keep it fast; a few games
//! on a real clock check that no time is lost.

use kawari::core::BitWord;
use kawari::position::{GameEnd, Position};
use kawari::search::{Decision, Limits, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;

/// How a refereed game ended.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Outcome {
    /// The side that moved first (in the start position) won.
    BlackWins,
    /// The other side won.
    WhiteWins,
    /// Repetition or the ply cap.
    Draw,
}

/// Limits for the side to move: varied per game and per side.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Nodes(u64),
    Depth(u32),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Budget::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        }
    }
}

/// Plays one refereed game; panics on any rule violation.
fn play<W: BitWord>(
    v: &'static Variant,
    rng: &mut StdRng,
    budgets: [Budget; 2],
    max_plies: usize,
) -> Outcome {
    let mut pos = Position::<W>::startpos(v);
    // A few random opening plies for variety.
    for _ in 0..rng.gen_range(0..6) {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        pos.do_move(moves[rng.gen_range(0..moves.len())]);
    }
    let mut searchers = [Search::new(), Search::new()];
    let tts = [TranspositionTable::new(2), TranspositionTable::new(2)];
    let ctl = Signals::default();
    let opts = SearchOptions {
        multipv: if rng.gen_bool(0.1) { 2 } else { 1 },
        ..SearchOptions::default()
    };
    for _ in 0..max_plies {
        let us = pos.side_to_move();
        if let Some(end) = pos.game_end() {
            return match (end, us.index()) {
                (GameEnd::Draw, _) => Outcome::Draw,
                (GameEnd::Win, 0) | (GameEnd::Loss, 1) => Outcome::BlackWins,
                _ => Outcome::WhiteWins,
            };
        }
        let sfen = pos.to_sfen();
        let r = searchers[us.index()].run(
            &pos,
            &budgets[us.index()].limits(),
            &opts,
            &tts[us.index()],
            &ctl,
            &mut |_| {},
        );
        assert_eq!(
            pos.to_sfen(),
            sfen,
            "the search must leave the position as it was"
        );
        match r {
            Decision::Move { mv: m, ponder } => {
                assert!(
                    pos.is_legal_slow(m),
                    "{}: illegal {} in {sfen}",
                    v.name(),
                    m.to_usi(v)
                );
                assert!(
                    pos.legal_moves().contains(&m),
                    "{}: {} not generated",
                    v.name(),
                    m.to_usi(v)
                );
                pos.do_move(m);
                if let Some(p) = ponder {
                    assert!(pos.is_legal_slow(p), "{}: illegal ponder move", v.name());
                }
            }
            Decision::Win => {
                assert!(pos.can_declare(), "{}: bad declaration in {sfen}", v.name());
                return if us.index() == 0 {
                    Outcome::BlackWins
                } else {
                    Outcome::WhiteWins
                };
            }
            Decision::Resign => panic!("{}: resigned with legal moves in {sfen}", v.name()),
        }
    }
    Outcome::Draw
}

fn budget(rng: &mut StdRng) -> Budget {
    if rng.gen_bool(0.5) {
        Budget::Nodes(rng.gen_range(50..4000))
    } else {
        Budget::Depth(rng.gen_range(1..5))
    }
}

/// `games` games of `variant` at tiny limits.
fn selfplay(variant: &str, games: usize, seed: u64) {
    let v = Variant::by_name(variant).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut results = [0usize; 3];
    for _ in 0..games {
        let budgets = [budget(&mut rng), budget(&mut rng)];
        let o = with_width!(Width::for_variant(v), W => play::<W>(v, &mut rng, budgets, 400));
        results[o as usize] += 1;
    }
    // Decisive games must occur: the engine does try to win.
    assert!(results[0] + results[1] > 0, "{variant}: {results:?}");
}

#[test]
fn selfplay_shogi() {
    selfplay("shogi", 40, 1);
}

#[test]
fn selfplay_judkins() {
    selfplay("judkins", 50, 2);
}

#[test]
fn selfplay_yarishogi() {
    selfplay("yarishogi", 40, 3);
}

#[test]
fn selfplay_heian() {
    selfplay("heian", 40, 4);
}

#[test]
fn selfplay_heian9x8() {
    selfplay("heian9x8", 40, 5);
}

#[test]
fn selfplay_heian8x9() {
    selfplay("heian8x9", 40, 6);
}

#[test]
fn selfplay_heian8x8() {
    selfplay("heian8x8", 50, 7);
}

/// Wall-clock delay a loaded test machine may add to a move.
const SCHEDULING_SLACK_MS: i64 = 300;

/// One game on a Fischer clock: the clock (wall time per move, plus the
/// increment after it) must never run out.
fn clock_game<W: BitWord>(
    v: &'static Variant,
    base_ms: u64,
    inc_ms: u64,
    byoyomi: u64,
    max_plies: usize,
) {
    let mut pos = Position::<W>::startpos(v);
    let mut searchers = [Search::new(), Search::new()];
    let tts = [TranspositionTable::new(4), TranspositionTable::new(4)];
    let ctl = Signals::default();
    let opts = SearchOptions {
        move_overhead: 20,
        ..SearchOptions::default()
    };
    let mut clock = [base_ms as i64; 2];
    for _ in 0..max_plies {
        if pos.game_end().is_some() {
            return;
        }
        let us = pos.side_to_move().index();
        let limits = Limits {
            time: [Some(clock[0].max(0) as u64), Some(clock[1].max(0) as u64)],
            inc: [inc_ms, inc_ms],
            byoyomi,
            ..Limits::default()
        };
        let start = Instant::now();
        let r = searchers[us].run(&pos, &limits, &opts, &tts[us], &ctl, &mut |_| {});
        let spent = start.elapsed().as_millis() as i64;
        // Wall time includes waiting for a CPU when other tests run alongside;
        // allow for that much scheduling delay.
        let left = clock[us] + byoyomi as i64 + SCHEDULING_SLACK_MS - spent;
        assert!(
            left > 0,
            "{}: lost on time ({spent} ms with {} ms + {byoyomi} ms)",
            v.name(),
            clock[us]
        );
        clock[us] = (clock[us] - spent).max(0) + inc_ms as i64;
        match r {
            Decision::Move { mv: m, .. } => {
                assert!(pos.is_legal_slow(m));
                pos.do_move(m);
            }
            Decision::Win => {
                assert!(pos.can_declare());
                return;
            }
            Decision::Resign => panic!("resigned with legal moves"),
        }
    }
}

#[test]
fn no_time_losses_on_real_clocks() {
    for v in Variant::all() {
        with_width!(Width::for_variant(v), W => {
            // Sudden death, then Fischer, then byoyomi only.
            clock_game::<W>(v, 1500, 0, 0, 160);
            clock_game::<W>(v, 300, 30, 0, 60);
            clock_game::<W>(v, 0, 0, 150, 12);
        });
    }
}
