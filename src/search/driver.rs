//! The main search thread's duties, apart from searching: the clock (through
//! the `TimeManager`, the one owner of time and ponder decisions), `info`
//! reports with the nodes of every thread, the decision to start another
//! iteration, and at the end the choice of the best thread's move.

use super::score::*;
use super::shared::{RootMove, Shared, ThreadResult};
use super::skill::{weakens, Skill};
use super::time::TimeManager;
use super::{to_score, Info, Limits, SearchOptions, TranspositionTable};
use crate::core::BitWord;
use crate::position::{Move, Position};

// The main thread's decisions between iterations.

/// The count of best-move changes decays by this factor each iteration.
pub const BEST_CHANGE_DECAY: f64 = 0.5;
/// Time scale with a settled best move...
pub const INSTABILITY_BASE: f64 = 0.7;
/// ...plus this per (decayed) best-move change.
pub const INSTABILITY_PER_CHANGE: f64 = 1.2;
/// Iterations whose best scores are compared for a falling score (this one
/// against the mean of the ones before).
pub const FALLING_SCORE_WINDOW: usize = 3;
/// The score change counted, in centipawns: a rise down to this...
pub const FALLING_SCORE_MIN: i32 = -100;
/// ...a fall up to this.
pub const FALLING_SCORE_MAX: i32 = 300;
/// Time scale from a falling score: `1 + fall / FALLING_SCORE_DIVISOR`...
pub const FALLING_SCORE_DIVISOR: f64 = 400.0;
/// ...kept at least this...
pub const FALLING_FACTOR_MIN: f64 = 0.8;
/// ...and at most this.
pub const FALLING_FACTOR_MAX: f64 = 1.75;
/// A proven mate in `n` plies ends the search once the depth passes `2n`
/// plus this.
pub const MATE_STOP_SLACK: i32 = 4;
/// A thread's vote for its move weighs its score above the worst thread's
/// plus this, times its depth.
pub const VOTE_MARGIN: i32 = 14;

/// The main thread's clock and reporting.
pub struct Driver<'a> {
    tm: TimeManager,
    on_info: &'a mut dyn FnMut(&Info),
    last_best: Move,
    best_changes: f64,
    scores: Vec<i32>,
    /// Strength is limited this move: the main thread's choice is the answer.
    weakened: bool,
    /// The move's weakness, until the main thread takes it (`take_skill`).
    skill: Option<Skill>,
    /// The first line of the last report: (depth, score, line, nodes).
    reported: Option<(i32, i32, Vec<Move>, u64)>,
}

impl<'a> Driver<'a> {
    /// A driver for a search of `pos` within `limits`, reporting through `on_info`.
    pub fn new<W: BitWord>(
        pos: &Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        on_info: &'a mut dyn FnMut(&Info),
    ) -> Driver<'a> {
        // Decided once a move, here, so that the choice of thread and the
        // reports agree with the main thread's pick (a top level plays some
        // moves at full strength).
        let skill = weakens(opts, limits)
            .then(|| Skill::new(opts, pos.variant().name()))
            .flatten();
        Driver {
            tm: TimeManager::for_game(
                limits,
                opts.move_overhead,
                pos.side_to_move(),
                pos.game_ply(),
                pos.variant().def.game_moves,
            ),
            on_info,
            last_best: Move::NONE,
            best_changes: 0.0,
            scores: Vec::new(),
            reported: None,
            weakened: skill.is_some(),
            skill,
        }
    }

    /// The move's weakness, for the main thread to pick with (`None` at
    /// full strength, and after the first call).
    pub(super) fn take_skill(&mut self) -> Option<Skill> {
        self.skill.take()
    }

    /// Notices a ponderhit.
    fn follow_ponder(&mut self, shared: &Shared) {
        if self.tm.pondering() && !shared.signals.pondering() {
            if let Some(hit) = shared.signals.take_ponderhit() {
                self.tm.ponderhit(hit);
            }
        }
    }

    /// Called during the search: whether the hard time limit has passed.
    pub(super) fn poll(&mut self, shared: &Shared) -> bool {
        self.follow_ponder(shared);
        self.tm.hard_expired()
    }

    /// The search starts with `first` as its best guess.
    pub(super) fn start(&mut self, first: Move) {
        self.last_best = first;
    }

    /// An iteration finished: report its lines (of `root_moves` root moves);
    /// whether to start no other.
    pub(super) fn iteration_done(
        &mut self,
        shared: &Shared,
        depth: i32,
        lines: &[RootMove],
        root_moves: usize,
    ) -> bool {
        let nodes = shared.nodes.total();
        let time_ms = self.tm.elapsed_total();
        let hashfull = shared.tt.hashfull();
        for (i, rm) in lines.iter().enumerate() {
            (self.on_info)(&Info {
                depth: depth as u32,
                seldepth: rm.seldepth.max(1) as u32,
                multipv: i as u32 + 1,
                score: to_score(rm.score),
                nodes,
                time_ms,
                hashfull,
                pv: rm.pv.clone(),
            });
        }
        let best = &lines[0];
        self.reported = Some((depth, best.score, best.pv.clone(), nodes));
        self.best_changes *= BEST_CHANGE_DECAY;
        if best.mv != self.last_best {
            self.best_changes += 1.0;
            self.last_best = best.mv;
        }
        self.scores.push(best.score);
        self.should_stop_iterating(shared, depth, root_moves)
    }

    /// Time management between iterations.
    fn should_stop_iterating(&mut self, shared: &Shared, depth: i32, root_moves: usize) -> bool {
        self.follow_ponder(shared);
        if self.tm.pondering() || !self.tm.managed() {
            return false;
        }
        if !self.tm.flexible() {
            return self.tm.hard_expired();
        }
        if root_moves == 1 {
            return true;
        }
        let score = *self.scores.last().expect("one iteration done");
        if score.abs() >= MATE_BOUND && depth > 2 * (MATE - score.abs()) + MATE_STOP_SLACK {
            return true;
        }
        // Settled best move: less time; changing best move or falling score: more.
        let instability = INSTABILITY_BASE + INSTABILITY_PER_CHANGE * self.best_changes;
        let scores = &self.scores;
        let falling = if scores.len() >= 2 {
            let window = scores.len().min(FALLING_SCORE_WINDOW);
            let prev = scores[scores.len() - window..scores.len() - 1]
                .iter()
                .sum::<i32>()
                / (window - 1) as i32;
            let fall = (prev - score).clamp(FALLING_SCORE_MIN, FALLING_SCORE_MAX);
            (1.0 + fall as f64 / FALLING_SCORE_DIVISOR)
                .clamp(FALLING_FACTOR_MIN, FALLING_FACTOR_MAX)
        } else {
            1.0
        };
        self.tm.soft_expired(instability * falling)
    }
}

impl Driver<'_> {
    /// The search is over: picks the thread whose result to play (`choose`)
    /// and reports that line with the nodes of every thread, unless that
    /// report would repeat the last one word for word. Returns its index.
    pub(super) fn conclude(&mut self, results: &[ThreadResult], shared: &Shared) -> usize {
        let i = if self.weakened { 0 } else { choose(results) };
        let best = &results[i];
        let nodes = shared.nodes.total();
        let repeated = self.reported.as_ref().is_some_and(|(d, s, pv, n)| {
            (*d, *s, pv, *n) == (best.depth, best.score, &best.pv, nodes)
        });
        // A weakened choice is not reported: the lines shown stay the
        // search's true ones.
        if !best.pv.is_empty() && !repeated && !self.weakened {
            (self.on_info)(&Info {
                depth: best.depth.max(1) as u32,
                seldepth: best.seldepth.max(1),
                multipv: 1,
                score: to_score(best.score),
                nodes,
                time_ms: self.tm.elapsed_total(),
                hashfull: shared.tt.hashfull(),
                pv: best.pv.clone(),
            });
        }
        i
    }
}

/// The move to play from the threads' results: each thread votes for its
/// move with its score above the worst and its depth, so a deeper or better
/// line from a helper can win; a proven win is taken as it is.
pub fn choose(results: &[ThreadResult]) -> usize {
    let Some(min) = results
        .iter()
        .filter(|r| !r.pv.is_empty())
        .map(|r| r.score)
        .min()
    else {
        return 0;
    };
    let votes = |mv: Move| -> i64 {
        results
            .iter()
            .filter(|r| r.pv.first() == Some(&mv))
            .map(|r| (r.score - min + VOTE_MARGIN) as i64 * r.depth.max(0) as i64)
            .sum()
    };
    let mut best = 0;
    for (i, r) in results.iter().enumerate().skip(1) {
        let b = &results[best];
        if r.pv.is_empty() || r.depth == 0 {
            continue;
        }
        if b.score >= MATE_BOUND {
            // A mate is proven: a shorter one is better.
            if r.score > b.score {
                best = i;
            }
        } else if r.score >= MATE_BOUND
            || (r.score > -MATE_BOUND && votes(r.pv[0]) > votes(b.pv[0]))
        {
            best = i;
        }
    }
    best
}

/// The expected reply to `best`: the line's second move, else the hash
/// table's move after `best`, if legal.
pub fn ponder_move<W: BitWord>(
    pos: &mut Position<W>,
    tt: &TranspositionTable,
    best: &ThreadResult,
) -> Option<Move> {
    if let Some(&p) = best.pv.get(1) {
        return Some(p);
    }
    let mv = *best.pv.first()?;
    pos.do_move(mv);
    let p = tt
        .probe(pos.hash())
        .map(|h| h.mv)
        .filter(|&m| pos.is_legal(m));
    pos.undo_move();
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(depth: i32, score: i32, mv: u16) -> ThreadResult {
        ThreadResult {
            depth,
            score,
            seldepth: 1,
            pv: vec![Move::from_raw(mv)],
        }
    }

    #[test]
    fn votes_pick_the_agreed_deeper_move() {
        assert_eq!(choose(&[r(10, 50, 1)]), 0);
        // Two helpers agree on another move at a greater depth.
        assert_eq!(choose(&[r(10, 50, 1), r(12, 60, 2), r(12, 55, 2)]), 1);
        // A helper without a finished iteration has no say.
        assert_eq!(choose(&[r(10, 50, 1), r(0, 900, 2)]), 0);
        // A proven mate wins; a shorter one more so.
        assert_eq!(
            choose(&[r(10, 50, 1), r(8, MATE - 9, 2), r(7, MATE - 5, 3)]),
            2
        );
        // A line that is being mated does not outvote.
        assert_eq!(choose(&[r(10, 0, 1), r(30, -MATE + 8, 2)]), 0);
    }
}
