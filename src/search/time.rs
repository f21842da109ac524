//! Time management, the one owner of time and ponder decisions: turns `go`
//! limits into a soft target ("optimum", adjusted by how settled the search is)
//! and a hard limit that is never exceeded.
//!
//! Sudden death and Fischer keep a safety margin; byoyomi is used (the soft stop
//! never comes before most of it is spent) but never exceeded; `movetime` is a
//! fixed budget. `move_overhead` and the engine's own `MARGIN_MS` are taken off
//! every budget. While pondering nothing expires; `ponderhit` starts the clock
//! and, if it brings times, the budgets are made again from them.

use super::signals::Ponderhit;
use super::Limits;
use crate::core::Color;
use std::time::Instant;

// Shares of a budget are in permille.

/// Milliseconds every budget keeps back besides `move_overhead`: the time from
/// the stop decision to the `bestmove` line (unwinding, joining threads,
/// printing) and a scheduling delay of a busy machine, so that
/// `NetworkDelay 0` still never overruns (10 ms was overrun once in a full
/// test run on two busy cores).
pub const MARGIN_MS: u64 = 20;
/// A clock below this many milliseconds spends less than the increment.
pub const LOW_CLOCK_MS: u64 = 2_000;
/// Expected moves of ours still to play at the start of a game...
pub const MOVES_TO_GO: u64 = 50;
/// ...one fewer every this many plies played...
pub const MOVES_TO_GO_PLY_DIVISOR: u64 = 4;
/// ...and never fewer than this.
pub const MIN_MOVES_TO_GO: u64 = 20;
/// Sudden death keeps back `MARGIN_MS` for each of `moves to go + this` moves.
pub const SUDDEN_DEATH_EXTRA_MOVES: u64 = 2;
/// Sudden death and Fischer: the hard limit's share of the usable clock.
pub const HARD_LIMIT_PERMILLE: u64 = 800;
/// Share of the increment spent per move (with a clock of at least
/// `LOW_CLOCK_MS`).
pub const INC_SPEND_PERMILLE: u64 = 750;
/// With at most this many moves to the time control, the target may take...
pub const LAST_MOVES_TO_GO: u64 = 2;
/// ...this share of the hard limit...
pub const LAST_MOVES_CAP_PERMILLE: u64 = 750;
/// ...and otherwise this share.
pub const USUAL_CAP_PERMILLE: u64 = 500;
/// The hard limit is at most this many times the target.
pub const MAX_OVER_OPTIMUM: u64 = 5;
/// Byoyomi: the hard limit takes at most the clock over this, besides the
/// period.
pub const BYOYOMI_MAX_CLOCK_DIVISOR: u64 = 4;
/// Byoyomi: the soft stop never comes before this share of the period.
pub const BYOYOMI_FLOOR_PERMILLE: u64 = 950;
/// No iteration starts after this share of the soft time: the next one
/// takes a few times longer than the last, and could not finish.
pub const ITERATION_START_SHARE: f64 = 0.6;

/// Budgets for one search, in milliseconds.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// When the clock started to count (search start, or the ponderhit moment).
    clock_start: Instant,
    /// Whether the clock limits anything at all.
    managed: bool,
    /// Whether the clock may end iterations early (not for `movetime`).
    flexible: bool,
    /// Target time.
    optimum: u64,
    /// Hard limit.
    maximum: u64,
    /// The soft stop never comes before this (byoyomi is use-it-or-lose-it).
    floor: u64,
    /// Nothing expires until `ponderhit`.
    pondering: bool,
    /// What the budgets are made from (for a ponderhit that brings times).
    overhead: u64,
    us: Color,
    game_ply: u32,
    /// Moves a side plays in a typical game of the variant.
    game_moves: u64,
}

/// Expected number of our moves still to play, from the game ply and the
/// variant's typical game: at first its length in moves (at most
/// `MOVES_TO_GO`), one fewer every few plies, never below the same share of
/// it as `MIN_MOVES_TO_GO` is of `MOVES_TO_GO`. Short games (Judkins) so
/// spend their clock instead of ending with half of it left; variants whose
/// games outlast `MOVES_TO_GO` all get the same curve.
fn moves_to_go(game_ply: u32, game_moves: u64) -> u64 {
    let start = game_moves.clamp(1, MOVES_TO_GO);
    let least = (start * MIN_MOVES_TO_GO / MOVES_TO_GO).max(1);
    start
        .saturating_sub(game_ply as u64 / MOVES_TO_GO_PLY_DIVISOR)
        .max(least)
}

impl TimeManager {
    /// Budgets for `us` from `limits`, starting now, in a game of typical
    /// length (`MOVES_TO_GO` moves a side or more).
    pub fn new(limits: &Limits, overhead: u64, us: Color, game_ply: u32) -> TimeManager {
        TimeManager::for_game(limits, overhead, us, game_ply, MOVES_TO_GO)
    }

    /// `new`, in a variant whose games last about `game_moves` moves a side.
    pub fn for_game(
        limits: &Limits,
        overhead: u64,
        us: Color,
        game_ply: u32,
        game_moves: u64,
    ) -> TimeManager {
        let now = limits.received.unwrap_or_else(Instant::now);
        let mut tm = TimeManager {
            start: now,
            clock_start: now,
            managed: false,
            flexible: false,
            optimum: u64::MAX,
            maximum: u64::MAX,
            floor: 0,
            pondering: limits.ponder,
            overhead,
            us,
            game_ply,
            game_moves,
        };
        tm.budget(limits);
        tm
    }

    /// Sets the budgets from `limits` (the clock start is left alone).
    fn budget(&mut self, limits: &Limits) {
        let tm = self;
        let overhead = tm.overhead.saturating_add(MARGIN_MS);
        let us = tm.us;
        (tm.managed, tm.flexible, tm.optimum, tm.maximum, tm.floor) =
            (false, false, u64::MAX, u64::MAX, 0);
        if limits.infinite {
            return;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            tm.managed = true;
            tm.optimum = t;
            tm.maximum = t;
            return;
        }
        let byo = limits.byoyomi;
        let inc = limits.inc[us.index()];
        // `go byoyomi N` (or only an increment) without clocks: no main time left.
        let Some(remaining) = limits.time[us.index()].or((byo > 0 || inc > 0).then_some(0)) else {
            return;
        };
        // In sudden death a game longer than expected cannot be paid for by
        // increments: every variant keeps the long games' curve (a 256-move
        // Judkins game at 3 s was overdrawn with its own).
        let sudden_death = byo == 0 && inc == 0 && limits.movestogo.is_none();
        let game_moves = if sudden_death {
            MOVES_TO_GO
        } else {
            tm.game_moves
        };
        let expected = moves_to_go(tm.game_ply, game_moves);
        let mtg = match limits.movestogo {
            Some(n) => (n.max(1) as u64).min(expected),
            None => expected,
        };
        tm.managed = true;
        tm.flexible = true;
        if byo > 0 {
            // Everything left on the clock plus the byoyomi period.
            let hard = (remaining + byo).saturating_sub(overhead).max(1);
            let opt = remaining / mtg + byo.saturating_sub(overhead);
            tm.optimum = opt.min(hard);
            tm.maximum = (remaining / BYOYOMI_MAX_CLOCK_DIVISOR + byo.saturating_sub(overhead))
                .min(hard)
                .max(tm.optimum);
            tm.floor = byo.saturating_sub(overhead).min(tm.maximum) * BYOYOMI_FLOOR_PERMILLE / 1000;
        } else {
            // The increment arrives after the move: only `remaining` may be spent.
            let usable = remaining.saturating_sub(overhead);
            let hard = (usable * HARD_LIMIT_PERMILLE / 1000).max(1);
            // Below LOW_CLOCK_MS only part of the increment is spent, so a long
            // game settles with a reserve that absorbs a stall of the machine.
            let inc_share =
                inc * INC_SPEND_PERMILLE / 1000 * remaining.min(LOW_CLOCK_MS) / LOW_CLOCK_MS;
            // Sudden death: every move still to come costs a few ms that we
            // spend whether we think or not (answering, pipes, a busy
            // machine), so our margin is kept back for each of them, as
            // Stockfish keeps its Move Overhead. Without it a long game ends
            // with each move overdrawing the clock a little (a 484-ply Heian
            // game at 3 s lost so in the soak). `NetworkDelay` is taken off
            // each move as it comes, not reserved ahead: 50 ms for 50 moves
            // would leave nothing to think with on a short clock.
            let reserve = if sudden_death {
                MARGIN_MS * (mtg + SUDDEN_DEATH_EXTRA_MOVES)
            } else {
                0
            };
            let opt = remaining.saturating_sub(reserve) / mtg + inc_share;
            // The last moves before a time control may spend more of the clock.
            let cap = if mtg <= LAST_MOVES_TO_GO {
                hard * LAST_MOVES_CAP_PERMILLE / 1000
            } else {
                hard * USUAL_CAP_PERMILLE / 1000
            };
            tm.optimum = opt.min(cap).max(1);
            tm.maximum = (tm.optimum * MAX_OVER_OPTIMUM).min(hard).max(1);
        }
    }

    /// A manager with no time limit.
    pub fn unlimited() -> TimeManager {
        TimeManager::new(&Limits::default(), 0, Color::Black, 0)
    }

    /// Milliseconds since the search started.
    pub fn elapsed_total(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock (since the search or the ponderhit).
    pub fn elapsed(&self) -> u64 {
        self.clock_start.elapsed().as_millis() as u64
    }

    /// Whether the search still ponders (nothing expires).
    pub fn pondering(&self) -> bool {
        self.pondering
    }

    /// `ponderhit`: the clock runs from its moment, with fresh budgets if it
    /// brought times.
    pub fn ponderhit(&mut self, hit: Ponderhit) {
        self.pondering = false;
        self.clock_start = hit.at;
        if let Some(mut clock) = hit.clock {
            clock.ponder = false;
            self.budget(&clock);
        }
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        !self.pondering && self.managed && self.elapsed() >= self.maximum
    }

    /// Whether the clock limits this search.
    pub fn managed(&self) -> bool {
        self.managed
    }

    /// Whether to start no further iteration. `scale` grows with instability and
    /// a falling score, shrinks when the best move is settled.
    pub fn soft_expired(&self, scale: f64) -> bool {
        if self.pondering || !self.managed {
            return false;
        }
        if !self.flexible {
            return self.hard_expired();
        }
        let soft = ((self.optimum as f64 * scale) as u64).min(self.maximum);
        let e = self.elapsed();
        // An iteration takes a few times longer than the last one: do not start
        // one that cannot finish.
        e >= self.floor && (e as f64) >= soft as f64 * ITERATION_START_SHARE
    }

    /// Whether the clock governs the search flexibly (time controls, not fixed budgets).
    pub fn flexible(&self) -> bool {
        self.flexible
    }

    /// The hard limit in milliseconds (for tests and logs).
    pub fn maximum(&self) -> u64 {
        self.maximum
    }

    /// The target in milliseconds.
    pub fn optimum(&self) -> u64 {
        self.optimum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: u64, inc: u64, byo: u64) -> Limits {
        Limits {
            time: [Some(time), Some(time)],
            inc: [inc, inc],
            byoyomi: byo,
            ..Limits::default()
        }
    }

    #[test]
    fn byoyomi_only_stays_inside_the_period() {
        let tm = TimeManager::new(&limits(0, 0, 1000), 50, Color::Black, 40);
        assert!(tm.maximum() <= 950 - MARGIN_MS);
        assert!(tm.optimum() >= 800);
        // `go byoyomi 1000` without clocks is the same clock.
        let bare = Limits {
            byoyomi: 1000,
            ..Limits::default()
        };
        let tm2 = TimeManager::new(&bare, 50, Color::Black, 40);
        assert!(tm2.managed());
        assert_eq!((tm2.optimum(), tm2.maximum()), (tm.optimum(), tm.maximum()));
        // NetworkDelay 0 still keeps the engine's margin.
        let tm = TimeManager::new(&bare, 0, Color::Black, 40);
        assert_eq!(tm.maximum(), 1000 - MARGIN_MS);
        // No iteration ends the search before 95% of the period: the usi
        // tests time `go byoyomi 1000` at over 900 ms (a 90% floor, 882 ms,
        // made them fail now and then on a busy machine).
        assert!(tm.floor > 900, "{}", tm.floor);
        assert!(!TimeManager::new(&bare, 0, Color::Black, 40).soft_expired(0.0));
    }

    /// The budgets count from when `go` was read: time spent before the
    /// search starts (threads starting, a table reclaimed, a busy machine)
    /// is the GUI's time too.
    #[test]
    fn the_clock_starts_when_go_is_read() {
        let read = Instant::now() - std::time::Duration::from_millis(400);
        let go = Limits {
            movetime: Some(2000),
            received: Some(read),
            ..Limits::default()
        };
        let tm = TimeManager::new(&go, 0, Color::Black, 0);
        assert!(tm.elapsed() >= 400, "{}", tm.elapsed());
        assert!(tm.elapsed_total() >= 400);
        assert!(!tm.hard_expired());
        let late = Limits {
            received: Some(Instant::now() - std::time::Duration::from_millis(2500)),
            ..go
        };
        assert!(TimeManager::new(&late, 0, Color::Black, 0).hard_expired());
    }

    /// A sudden-death game as long as a match's move cap (256 moves of ours)
    /// with 3 s on the clock, each move costing its target plus 3 ms the
    /// engine cannot see (GUI, pipes, a busy machine), `NetworkDelay 0`:
    /// the clock is never overdrawn by the referee's 200 ms margin. Without
    /// the reserve it was at the 152nd move. Run with every built-in
    /// variant's game length: a short one must not shorten the reserve.
    #[test]
    fn sudden_death_keeps_a_reserve_for_the_moves_to_come() {
        for def in crate::variant::BUILTIN {
            let mut remaining: i64 = 3000;
            for ply in (0..512).step_by(2) {
                let clock = remaining.max(0) as u64;
                let tm = TimeManager::for_game(
                    &limits(clock, 0, 0),
                    0,
                    Color::Black,
                    ply,
                    def.game_moves,
                );
                assert!(tm.optimum() <= tm.maximum());
                remaining -= tm.optimum() as i64 + 3;
                assert!(
                    remaining > -200,
                    "{}: overdrawn {remaining} ms at ply {ply}",
                    def.name
                );
            }
        }
        // A long clock hardly notices it, and NetworkDelay is not reserved
        // ahead: 50 ms still thinks at 3 s.
        let tm = TimeManager::new(&limits(60_000, 0, 0), 0, Color::Black, 0);
        assert!(tm.optimum() * MOVES_TO_GO >= 58_000, "{}", tm.optimum());
        let tm = TimeManager::new(&limits(3000, 0, 0), 50, Color::Black, 0);
        assert!(tm.optimum() >= 35, "{}", tm.optimum());
    }

    /// A short variant (Judkins, 27 moves a side) spends more of a 5+0.05
    /// clock on each move than shogi, throughout; variants whose games last
    /// `MOVES_TO_GO` moves or more keep the one curve.
    #[test]
    fn short_games_spend_their_clock_sooner() {
        let judkins = crate::variant::Variant::by_name("judkins")
            .unwrap()
            .def
            .game_moves;
        let shogi = crate::variant::Variant::by_name("shogi")
            .unwrap()
            .def
            .game_moves;
        assert!(judkins < MOVES_TO_GO && shogi >= MOVES_TO_GO);
        for ply in [0, 20, 40, 60, 100, 200] {
            let clock = limits(5000, 50, 0);
            let short = TimeManager::for_game(&clock, 0, Color::Black, ply, judkins);
            let long = TimeManager::for_game(&clock, 0, Color::Black, ply, shogi);
            let usual = TimeManager::new(&clock, 0, Color::Black, ply);
            assert!(short.optimum() > long.optimum(), "ply {ply}");
            assert_eq!(long.optimum(), usual.optimum(), "ply {ply}");
            assert_eq!(long.maximum(), usual.maximum(), "ply {ply}");
        }
        // At the start a Judkins move gets the clock over its 27 moves.
        let tm = TimeManager::for_game(&limits(5000, 50, 0), 0, Color::Black, 0, judkins);
        assert_eq!(tm.optimum(), 5000 / 27 + 50 * INC_SPEND_PERMILLE / 1000);
    }

    #[test]
    fn movestogo_spends_the_clock_before_the_control() {
        let base = TimeManager::new(&limits(10_000, 0, 0), 50, Color::Black, 10);
        let l = Limits {
            movestogo: Some(2),
            ..limits(10_000, 0, 0)
        };
        let tm = TimeManager::new(&l, 50, Color::Black, 10);
        assert!(tm.optimum() > 10 * base.optimum(), "{}", tm.optimum());
        assert!(tm.maximum() <= 10_000 - 50 - MARGIN_MS);
        let l = Limits {
            movestogo: Some(40),
            ..limits(10_000, 0, 0)
        };
        let tm = TimeManager::new(&l, 50, Color::Black, 10);
        assert_eq!(tm.optimum(), 10_000 / 40);
    }

    #[test]
    fn pondering_never_expires_until_ponderhit() {
        let l = Limits {
            ponder: true,
            movetime: Some(1),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&l, 0, Color::Black, 0);
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!tm.hard_expired() && !tm.soft_expired(1.0));
        tm.ponderhit(Ponderhit {
            at: Instant::now(),
            clock: Some(limits(0, 0, 5_000)),
        });
        assert!(!tm.hard_expired());
        assert_eq!(tm.maximum(), 5_000 - MARGIN_MS);
    }

    #[test]
    fn sudden_death_keeps_a_margin() {
        let tm = TimeManager::new(&limits(10_000, 0, 0), 50, Color::White, 10);
        assert!(tm.maximum() <= 8_000);
        assert!(tm.optimum() < 1_000);
        let tm = TimeManager::new(&limits(30, 0, 0), 50, Color::White, 10);
        assert!(tm.maximum() <= 1);
    }

    #[test]
    fn increment_cannot_be_spent_ahead() {
        let tm = TimeManager::new(&limits(1_000, 10_000, 0), 50, Color::Black, 10);
        assert!(tm.maximum() < 1_000);
    }

    #[test]
    fn low_clock_is_rebuilt_from_the_increment() {
        // Late in a long game at 5+0.05: spend less than the increment.
        let tm = TimeManager::new(&limits(400, 50, 0), 50, Color::Black, 300);
        assert!(tm.optimum() < 50, "{}", tm.optimum());
        // Simulate the clock move by move: it settles well above a stall.
        let mut clock = 300u64;
        for _ in 0..400 {
            let tm = TimeManager::new(&limits(clock, 50, 0), 50, Color::Black, 300);
            clock = clock - tm.optimum().min(clock) + 50;
        }
        assert!(clock >= 600, "{clock}");
    }

    #[test]
    fn movetime_is_fixed() {
        let l = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 50, Color::Black, 0);
        assert_eq!(
            (tm.optimum(), tm.maximum()),
            (450 - MARGIN_MS, 450 - MARGIN_MS)
        );
    }
}
