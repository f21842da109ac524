//! Search: the interface the engine drives (`Search::run`) and its types, and
//! the iterative-deepening driver (aspiration windows, MultiPV, time checks,
//! `info` reports). The tree search itself is in `alphabeta`.

mod alphabeta;
pub mod history;
mod limits;
pub mod movegen;
pub mod params;
pub mod see;
pub mod time;
mod tt;

pub use limits::Limits;
pub use tt::{Bound, TranspositionTable, TtHit};

use crate::core::BitWord;
use crate::eval::{self, EvalTables};
use crate::position::{Move, MoveList, Position, MAX_MOVES};
use history::History;
use params::*;
use std::sync::atomic::{AtomicBool, Ordering};
use time::TimeManager;

/// A search score as USI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// Mate in this many plies: positive = we mate, negative = we are mated.
    Mate(i32),
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index for MultiPV.
    pub multipv: u32,
    /// Score of this line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Flags the engine flips while a search runs (from the input thread).
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Stop as soon as possible and return the best move found.
    pub stop: AtomicBool,
    /// Set while pondering; cleared on `ponderhit` (the clock then starts).
    pub pondering: AtomicBool,
}

impl SearchControl {
    /// Whether `stop` was requested.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Options that shape a search (from `setoption`).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Lines to report (MultiPV).
    pub multipv: u32,
    /// Game ply at which the game is a draw (0 = off).
    pub max_moves_to_draw: u32,
    /// Whether the entering-king declaration is allowed (shogi only).
    pub declaration: bool,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            max_moves_to_draw: 0,
            declaration: true,
            move_overhead: 50,
        }
    }
}

/// What a search decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move, optionally expecting `ponder`.
    Move(Move, Option<Move>),
    /// No legal move or lost beyond doubt: `bestmove resign`.
    Resign,
    /// The declaration rule holds: `bestmove win`.
    Win,
}

/// Per-ply search state.
#[derive(Copy, Clone)]
struct Frame {
    /// Static evaluation (NO_EVAL when in check).
    eval: i32,
    /// Quiet moves that caused cutoffs at this ply.
    killers: [Move; 2],
    /// The move played from this ply (NONE for a null move).
    mv: Move,
    /// History slot of the piece that played `mv`.
    slot: usize,
    /// Hash of the position at this ply.
    key: u64,
    /// Move picker: the hash move, the stage and the cursor into the list.
    tt_move: Move,
    stage: u8,
    cursor: usize,
    len: usize,
    sorted: bool,
    /// Ordering scores below this are not sorted (late quiet moves).
    sort_limit: i32,
}

const NO_EVAL: i32 = -INFINITE;

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            eval: NO_EVAL,
            killers: [Move::NONE; 2],
            mv: Move::NONE,
            slot: 0,
            key: 0,
            tt_move: Move::NONE,
            stage: 0,
            cursor: 0,
            len: 0,
            sorted: false,
            sort_limit: 0,
        }
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    seldepth: usize,
    pv: Vec<Move>,
}

/// Bits of the filter of positions played before the root.
const GAME_FILTER_BITS: usize = 1 << 14;

/// What the tree search needs from `run`'s arguments.
struct Ctx<'a> {
    tt: &'a mut TranspositionTable,
    ctl: &'a SearchControl,
    limits: &'a Limits,
    opts: &'a SearchOptions,
}

/// The searcher: keeps heuristics between searches; the hash table is passed in.
pub struct Search<W: BitWord> {
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    pv_idx: usize,
    root_moves: Vec<RootMove>,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    /// Per-ply move lists, each move packed with its ordering score.
    lists: Vec<[i64; MAX_MOVES]>,
    scratch: Box<MoveList>,
    history: Box<History>,
    lmr: Box<[[i32; 64]; 64]>,
    game_filter: Vec<u64>,
    et: &'static EvalTables,
    tm: TimeManager,
    ponderhit_seen: bool,
    _w: std::marker::PhantomData<W>,
}

impl<W: BitWord> Default for Search<W> {
    fn default() -> Self {
        Self::new()
    }
}

/// A score as USI reports it.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

impl<W: BitWord> Search<W> {
    /// A fresh searcher.
    pub fn new() -> Search<W> {
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        Search {
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            pv_idx: 0,
            root_moves: Vec::new(),
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            lists: vec![[0i64; MAX_MOVES]; MAX_PLY + 2],
            scratch: Box::new(MoveList::new()),
            history: History::new(),
            lmr,
            game_filter: vec![0; GAME_FILTER_BITS / 64],
            et: eval::tables(crate::variant::Variant::default_variant()),
            tm: TimeManager::unlimited(),
            ponderhit_seen: false,
            _w: std::marker::PhantomData,
        }
    }

    /// Forgets learned heuristics (`usinewgame`).
    pub fn clear(&mut self) {
        self.history.clear();
        for f in self.frames.iter_mut() {
            *f = Frame::default();
        }
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `pos` within `limits`, reporting progress through `on_info`.
    /// Returns promptly once `ctl.stop` is set. While `limits.ponder` is true it
    /// does not return before `stop` or `ponderhit` (the engine waits if needed).
    pub fn run(
        &mut self,
        pos: &mut Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        tt: &mut TranspositionTable,
        ctl: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let us = pos.side_to_move();
        self.tm = TimeManager::new(limits, opts.move_overhead, us, pos.game_ply());
        self.ponderhit_seen = false;
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.root_depth = 0;
        if opts.declaration && pos.can_declare() {
            return BestMove::Win;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return BestMove::Resign;
        }
        self.et = eval::tables(pos.variant());
        tt.new_search();
        self.build_game_filter(pos);
        for f in self.frames.iter_mut() {
            f.killers = [Move::NONE; 2];
            f.eval = NO_EVAL;
            f.mv = Move::NONE;
        }
        let mut cx = Ctx {
            tt,
            ctl,
            limits,
            opts,
        };
        self.init_root_moves(pos, &legal, &cx);

        let multipv = (opts.multipv.max(1) as usize).min(self.root_moves.len());
        let max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let mut last_best = self.root_moves[0].mv;
        let mut best_changes = 0.0f64;
        let mut scores: Vec<i32> = Vec::new();

        for depth in 1..=max_depth {
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let v = self.search(&mut cx, pos, alpha, beta, depth, 0, false);
                    self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 5;
                    if delta > 1500 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            // The iteration completed: report it.
            for i in 0..multipv {
                let rm = &self.root_moves[i];
                on_info(&Info {
                    depth: depth as u32,
                    seldepth: rm.seldepth.max(1) as u32,
                    multipv: i as u32 + 1,
                    score: to_score(rm.score),
                    nodes: self.nodes,
                    time_ms: self.tm.elapsed_total(),
                    hashfull: cx.tt.hashfull(),
                    pv: rm.pv.clone(),
                });
            }
            let best = &self.root_moves[0];
            best_changes *= 0.5;
            if best.mv != last_best {
                best_changes += 1.0;
                last_best = best.mv;
            }
            scores.push(best.score);
            if self.should_stop_iterating(&cx, depth, best_changes, &scores) {
                break;
            }
        }

        // `go infinite` and pondering wait for `stop` (or `ponderhit`).
        while !ctl.stopped()
            && (limits.infinite || (limits.ponder && ctl.pondering.load(Ordering::Relaxed)))
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }

        let best = &self.root_moves[0];
        let mut ponder = best.pv.get(1).copied();
        if ponder.is_none() {
            pos.do_move(best.mv);
            if let Some(h) = cx.tt.probe(pos.hash()) {
                if movegen::is_legal(pos, h.mv) {
                    ponder = Some(h.mv);
                }
            }
            pos.undo_move();
        }
        BestMove::Move(best.mv, ponder)
    }

    /// The root moves in a first order: hash move, then the usual ordering.
    fn init_root_moves(&mut self, pos: &Position<W>, legal: &MoveList, cx: &Ctx) {
        let tt_move = cx.tt.probe(pos.hash()).map_or(Move::NONE, |h| h.mv);
        let mut scored: Vec<(i32, Move)> = legal
            .iter()
            .map(|&m| {
                let s = if m == tt_move {
                    i32::MAX
                } else {
                    self.score_move(pos, 0, m, Move::NONE)
                };
                (s, m)
            })
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        self.root_moves = scored
            .into_iter()
            .map(|(_, m)| RootMove {
                mv: m,
                score: -INFINITE,
                prev_score: -INFINITE,
                seldepth: 0,
                pv: vec![m],
            })
            .collect();
    }

    /// Whether to start no further iteration (time management).
    fn should_stop_iterating(
        &mut self,
        cx: &Ctx,
        depth: i32,
        changes: f64,
        scores: &[i32],
    ) -> bool {
        if cx.limits.ponder && cx.ctl.pondering.load(Ordering::Relaxed) {
            return false;
        }
        self.observe_ponderhit(cx);
        if !self.tm.managed() {
            return false;
        }
        if !self.tm.flexible() {
            return self.tm.hard_expired();
        }
        if self.root_moves.len() == 1 {
            return true;
        }
        let score = *scores.last().expect("one iteration done");
        if score.abs() >= MATE_BOUND && depth > 2 * (MATE - score.abs()) + 4 {
            return true;
        }
        // Settled best move: less time; changing best move or falling score: more.
        let instability = 0.7 + 1.2 * changes;
        let falling = if scores.len() >= 2 {
            let prev = scores[scores.len().saturating_sub(3)..scores.len() - 1]
                .iter()
                .sum::<i32>()
                / (scores.len().min(3) - 1) as i32;
            (1.0 + (prev - score).clamp(-100, 300) as f64 / 400.0).clamp(0.8, 1.75)
        } else {
            1.0
        };
        self.tm.soft_expired(instability * falling)
    }

    /// Notices `ponderhit`: the clock starts counting then.
    fn observe_ponderhit(&mut self, cx: &Ctx) {
        if cx.limits.ponder && !self.ponderhit_seen && !cx.ctl.pondering.load(Ordering::Relaxed) {
            self.ponderhit_seen = true;
            self.tm.ponderhit();
        }
    }

    /// Sets `stopped` when `stop` was requested or a limit is reached.
    #[inline]
    fn check_stop(&mut self, cx: &Ctx) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            if cx.ctl.stopped() {
                self.stopped = true;
                return true;
            }
            if self.root_depth > 1 {
                let pondering = cx.limits.ponder && cx.ctl.pondering.load(Ordering::Relaxed);
                if !pondering {
                    self.observe_ponderhit(cx);
                    if self.tm.hard_expired() {
                        self.stopped = true;
                    }
                }
            }
        }
        if let Some(n) = cx.limits.nodes {
            if self.root_depth > 1 && self.nodes >= n {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Records the positions played before the root in a bit filter, so the
    /// search asks the position for the full repetition rule only on a hit.
    fn build_game_filter(&mut self, pos: &mut Position<W>) {
        self.game_filter.iter_mut().for_each(|w| *w = 0);
        let mut moves = Vec::with_capacity(pos.plies_from_root());
        while let Some(m) = pos.last_move() {
            pos.undo_move();
            let h = pos.hash();
            self.game_filter[(h as usize % GAME_FILTER_BITS) / 64] |= 1 << (h % 64);
            moves.push(m);
            if pos.plies_from_root() == 0 {
                break;
            }
        }
        for &m in moves.iter().rev() {
            pos.do_move(m);
        }
    }

    /// Whether `key` may have occurred before the root.
    #[inline(always)]
    fn in_game_filter(&self, key: u64) -> bool {
        self.game_filter[(key as usize % GAME_FILTER_BITS) / 64] & (1 << (key % 64)) != 0
    }
}
