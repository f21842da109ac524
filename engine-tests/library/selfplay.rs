//! Fast self-play in every variant, refereed independently of the search:
//! every move the engine plays must pass `Position::is_legal_slow` (a legality
//! test that does not use the move generator) and be in the generated list, a
//! `bestmove win` must be a valid declaration, and every game end that
//! `Position::game_end` announces is confirmed from the test's own record of
//! the game (no legal move by the slow test over every conceivable move, the
//! bare king by counting pieces, repetition and perpetual check from the
//! positions seen), as is every end it should have announced. Tiny node and
//! depth limits keep it fast; a few games on a real clock check that no time
//! is lost.

use crate::common::all_candidate_moves;
use kawari::core::{BitWord, Color};
use kawari::position::{GameEnd, Move, Position};
use kawari::search::{Decision, Limits, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::time::Instant;

/// How a refereed game ended, as the referee confirmed it.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Ending {
    /// The side to move had no legal move.
    NoMove,
    /// Heian: the side to move was down to its bare king.
    BareKing,
    /// A repetition where one side checked throughout: that side lost.
    PerpetualCheck,
    /// An entering-king declaration.
    Declaration,
    /// A repetition without perpetual check.
    Repetition,
    /// The ply cap.
    Cap,
}

/// A refereed game's result.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    /// The winner, none for a draw.
    winner: Option<Color>,
    ending: Ending,
}

/// The board, side and hands of an SFEN: the position without its move
/// number, for counting repetitions.
fn key(sfen: &str) -> String {
    sfen.rsplit_once(' ').map_or(sfen, |(k, _)| k).to_string()
}

/// The referee's own record of a game: each position's key and whether the
/// side to move was in check there.
struct Record {
    seen: Vec<(String, bool)>,
    candidates: Vec<Move>,
}

impl Record {
    /// The game end at `pos` (the last position recorded) by the rules,
    /// worked out from the record and the board; `None` while play goes on.
    /// `no_move` is costly and asked only when `game_end` claims it.
    fn verdict<W: BitWord>(&self, pos: &mut Position<W>, claimed: bool) -> Option<Outcome> {
        let v = pos.variant();
        let us = pos.side_to_move();
        let g = v.geometry();
        let count = |c: Color| {
            g.all()
                .filter(|&s| pos.piece_at(s).is_some() && pos.piece_at(s).color() == c)
                .count()
        };
        if v.def.bare_king_loses && count(us) == 1 && count(us.opp()) > 1 {
            return Some(Outcome {
                winner: Some(us.opp()),
                ending: Ending::BareKing,
            });
        }
        let n = self.seen.len() - 1;
        let now = &self.seen[n].0;
        let earlier: Vec<usize> = (0..n).filter(|&i| self.seen[i].0 == *now).collect();
        if earlier.len() + 1 >= v.def.repetition as usize {
            // The cycle since the last occurrence: positions where we are to
            // move were reached by their moves, the others by ours.
            let p = *earlier.last().unwrap();
            let they_checked = (p + 1..=n)
                .filter(|i| (n - i).is_multiple_of(2))
                .all(|i| self.seen[i].1);
            let we_checked = (p + 1..=n)
                .filter(|i| !(n - i).is_multiple_of(2))
                .all(|i| self.seen[i].1);
            let winner = match (they_checked, we_checked) {
                (true, false) => Some(us),
                (false, true) => Some(us.opp()),
                _ => None,
            };
            let ending = if winner.is_some() {
                Ending::PerpetualCheck
            } else {
                Ending::Repetition
            };
            return Some(Outcome { winner, ending });
        }
        if claimed && !self.candidates.iter().any(|&m| pos.is_legal_slow(m)) {
            return Some(Outcome {
                winner: Some(us.opp()),
                ending: Ending::NoMove,
            });
        }
        None
    }
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
    let mut record = Record {
        seen: Vec::new(),
        candidates: all_candidate_moves(v),
    };
    // A few random opening plies for variety.
    for _ in 0..rng.gen_range(0..6) {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        record.seen.push((key(&pos.to_sfen()), pos.in_check()));
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
        let sfen = pos.to_sfen();
        record.seen.push((key(&sfen), pos.in_check()));
        let end = pos.game_end();
        let verdict = record.verdict(&mut pos, end == Some(GameEnd::Loss));
        let announced = end.map(|e| match e {
            GameEnd::Win => Some(us),
            GameEnd::Loss => Some(us.opp()),
            GameEnd::Draw => None,
        });
        assert_eq!(
            announced,
            verdict.map(|o| o.winner),
            "{}: game_end {end:?}, the referee {verdict:?} in {sfen}",
            v.name()
        );
        if let Some(o) = verdict {
            return o;
        }
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
                return Outcome {
                    winner: Some(us),
                    ending: Ending::Declaration,
                };
            }
            Decision::Resign => panic!("{}: resigned with legal moves in {sfen}", v.name()),
        }
    }
    Outcome {
        winner: None,
        ending: Ending::Cap,
    }
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
    let mut endings = Vec::new();
    for _ in 0..games {
        let budgets = [budget(&mut rng), budget(&mut rng)];
        let o = with_width!(Width::for_variant(v), W => play::<W>(v, &mut rng, budgets, 400));
        endings.push(o.ending);
    }
    // The referee's own checks of a decisive end (no legal move, bare king,
    // perpetual check, declaration) must have run and agreed, not only its
    // repetition count: at these limits most games are drawn by repetition.
    let decisive = endings
        .iter()
        .filter(|e| !matches!(e, Ending::Repetition | Ending::Cap))
        .count();
    assert!(decisive > 0, "{variant}: no decisive end: {endings:?}");
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
