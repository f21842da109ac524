//! Time management: turns `go` limits into a soft target ("optimum", adjusted by
//! how settled the search is) and a hard limit that is never exceeded.
//!
//! Sudden death and Fischer keep a safety margin; byoyomi is used (the soft stop
//! never comes before most of it is spent) but never exceeded; `movetime` is a
//! fixed budget. `move_overhead` is taken off every budget. While pondering the
//! clock is ignored; after `ponderhit` the budget counts from that moment.

use super::Limits;
use crate::core::Color;
use std::time::Instant;

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
}

/// A clock below this many milliseconds spends less than the increment.
const LOW_CLOCK_MS: u64 = 2_000;

/// Expected number of our moves still to play, from the game ply.
fn moves_to_go(game_ply: u32) -> u64 {
    (50u64.saturating_sub(game_ply as u64 / 4)).max(20)
}

impl TimeManager {
    /// Budgets for `us` from `limits`, starting now.
    pub fn new(limits: &Limits, overhead: u64, us: Color, game_ply: u32) -> TimeManager {
        let now = Instant::now();
        let mut tm = TimeManager {
            start: now,
            clock_start: now,
            managed: false,
            flexible: false,
            optimum: u64::MAX,
            maximum: u64::MAX,
            floor: 0,
        };
        if limits.infinite {
            return tm;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(1);
            tm.managed = true;
            tm.optimum = t;
            tm.maximum = t;
            return tm;
        }
        let Some(remaining) = limits.time[us.index()] else {
            return tm;
        };
        let inc = limits.inc[us.index()];
        let byo = limits.byoyomi;
        let mtg = moves_to_go(game_ply);
        tm.managed = true;
        tm.flexible = true;
        if byo > 0 {
            // Everything left on the clock plus the byoyomi period.
            let hard = (remaining + byo).saturating_sub(overhead).max(1);
            let opt = remaining / mtg + byo.saturating_sub(overhead);
            tm.optimum = opt.min(hard);
            tm.maximum = (remaining / 4 + byo.saturating_sub(overhead))
                .min(hard)
                .max(tm.optimum);
            tm.floor = byo.saturating_sub(overhead).min(tm.maximum) * 9 / 10;
        } else {
            // The increment arrives after the move: only `remaining` may be spent.
            let usable = remaining.saturating_sub(overhead);
            let hard = (usable * 8 / 10).max(1);
            // Below LOW_CLOCK_MS only part of the increment is spent, so a long
            // game settles with a reserve that absorbs a stall of the machine.
            let inc_share = inc * 3 / 4 * remaining.min(LOW_CLOCK_MS) / LOW_CLOCK_MS;
            let opt = remaining / mtg + inc_share;
            tm.optimum = opt.min(hard / 2).max(1);
            tm.maximum = (tm.optimum * 5).min(hard).max(1);
        }
        tm
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

    /// The clock starts now (`ponderhit`).
    pub fn ponderhit(&mut self) {
        self.clock_start = Instant::now();
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.managed && self.elapsed() >= self.maximum
    }

    /// Whether the clock limits this search.
    pub fn managed(&self) -> bool {
        self.managed
    }

    /// Whether to start no further iteration. `scale` grows with instability and
    /// a falling score, shrinks when the best move is settled.
    pub fn soft_expired(&self, scale: f64) -> bool {
        if !self.managed {
            return false;
        }
        if !self.flexible {
            return self.hard_expired();
        }
        let soft = ((self.optimum as f64 * scale) as u64).min(self.maximum);
        let e = self.elapsed();
        // An iteration takes a few times longer than the last one: do not start
        // one that cannot finish.
        e >= self.floor && (e as f64) >= soft as f64 * 0.6
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
        assert!(tm.maximum() <= 950);
        assert!(tm.optimum() >= 800);
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
        assert_eq!((tm.optimum(), tm.maximum()), (450, 450));
    }
}
