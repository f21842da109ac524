//! A search thread's own state and its iterative deepening. Every thread of a
//! Lazy SMP search runs `Worker::iterate` on its own copy of the root position,
//! sharing only the hash table; the main thread also carries the `Driver`
//! (time, reports), helpers skip some depths so the threads spread out.

use super::driver::Driver;
use super::history::History;
use super::params::*;
use super::picker::{Heuristics, MovePicker, NodeMoves};
use super::score::*;
use super::shared::{RootMove, Shared, ThreadResult};
use super::shortwin::{Proof, ProofTable, ShortWin};
use super::shortwin::{
    SHORT_WINS_DROPS, SHORT_WINS_NO_DROPS, SHORT_WINS_SMALL_DROPS, SHORT_WINS_SPARSE,
    SMALL_BOARD_SQUARES, SPARSE_PIECES,
};
use crate::core::BitWord;
use crate::eval::{self, EvalTables};
use crate::nnue::Accumulators;
use crate::position::{Move, MoveList, Position, MAX_MOVES};
use arrayvec::ArrayVec;

/// Per-ply search state.
#[derive(Copy, Clone)]
pub(super) struct Frame {
    /// Static evaluation (NO_EVAL when in check).
    pub(super) eval: i32,
    /// Quiet moves that caused cutoffs at this ply.
    pub(super) killers: [Move; 2],
    /// The move played from this ply (NONE for a null move).
    pub(super) mv: Move,
    /// History slot of the piece that played `mv`.
    pub(super) slot: usize,
    /// Hash of the position at this ply.
    pub(super) key: u64,
}

/// "No static evaluation" (in check, or not computed).
pub(super) const NO_EVAL: i32 = -INFINITE;

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            eval: NO_EVAL,
            killers: [Move::NONE; 2],
            mv: Move::NONE,
            slot: 0,
            key: 0,
        }
    }
}

/// What the tree search needs besides the worker: the shared state, the
/// thread's index, and on the main thread its driver.
pub(super) struct Ctx<'a, 'd> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) index: usize,
    pub(super) driver: Option<&'d mut Driver<'a>>,
    /// Stop when own nodes reach this (the node limit less the other
    /// threads' nodes; `u64::MAX` if none or on a helper).
    pub(super) node_budget: u64,
}

/// Helper threads skip depths by these patterns (sizes and phases), so that
/// they are spread over neighbouring depths instead of all repeating the
/// main thread's iteration.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Bits of the filter of positions played before the root.
const GAME_FILTER_BITS: usize = 1 << 14;

/// A search thread's state: heuristics kept between searches, stacks and
/// lists so the search allocates nothing.
pub struct Worker {
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) root_depth: i32,
    pub(super) pv_idx: usize,
    pub(super) root_moves: Vec<RootMove>,
    pub(super) frames: Vec<Frame>,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    pub(super) pickers: Vec<MovePicker>,
    pub(super) scratch: Box<MoveList>,
    pub(super) history: Box<History>,
    pub(super) lmr: Box<[[i32; LMR_TABLE]; LMR_TABLE]>,
    /// The (base, divisor) `lmr` was built from: a tune build rebuilds it
    /// when they change.
    #[cfg(feature = "tune")]
    lmr_from: (i32, i32),
    game_filter: Vec<u64>,
    pub(super) et: &'static EvalTables,
    /// The network's first layer along the current line (unused with the
    /// hand-made evaluation).
    pub(super) acc: Accumulators,
    /// Tests: check every incremental network evaluation against one from
    /// scratch, and panic on a difference.
    pub verify_evaluation: bool,
    /// The score and line (first the root move) of a forced win proven by
    /// `shortwin`; the root search never scores that move lower.
    pub(super) proven: Option<(i32, Vec<Move>)>,
    /// Short-win proofs of this search: the next length to prove, the
    /// budget of its last unfinished attempt, and the nodes they took.
    proof_next: i32,
    proof_last_budget: u64,
    proof_nodes: u64,
    /// The prover's results, for the main thread (made on its first proof).
    proofs: Option<ProofTable>,
}

/// The late move reductions by depth and move count: `base + ln(depth) *
/// ln(moves) / divisor`, truncated.
fn lmr_table() -> Box<[[i32; LMR_TABLE]; LMR_TABLE]> {
    // Hundredths divided as f64 are the nearest doubles to 0.6 and 2.3, the
    // literals this table was first built from: the same table.
    let base = LMR_BASE_X100.get() as f64 / 100.0;
    let divisor = LMR_DIVISOR_X100.get() as f64 / 100.0;
    let mut lmr = Box::new([[0i32; LMR_TABLE]; LMR_TABLE]);
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

impl Default for Worker {
    fn default() -> Self {
        Self::new()
    }
}

impl Worker {
    /// A fresh worker.
    pub fn new() -> Worker {
        Worker {
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            pv_idx: 0,
            root_moves: Vec::new(),
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            pickers: (0..MAX_PLY + 2).map(|_| MovePicker::new()).collect(),
            scratch: Box::new(MoveList::new()),
            history: History::new(),
            lmr: lmr_table(),
            #[cfg(feature = "tune")]
            lmr_from: (LMR_BASE_X100.get(), LMR_DIVISOR_X100.get()),
            game_filter: vec![0; GAME_FILTER_BITS / 64],
            et: eval::tables(crate::variant::Variant::default_variant()),
            acc: Accumulators::new(MAX_PLY + 2),
            verify_evaluation: false,
            proven: None,
            proof_next: 1,
            proof_last_budget: 0,
            proof_nodes: 0,
            proofs: None,
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

    /// Iterative deepening on `pos` (which must have a legal move; the
    /// `searchmoves` of the limits, if any, must be legal) until a limit, the
    /// driver or `stop` ends it. `index` 0 is the main thread, which must
    /// bring the `driver`; other threads are helpers.
    pub fn iterate<'a, W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        shared: &'a Shared<'a>,
        index: usize,
        driver: Option<&mut Driver<'a>>,
    ) -> ThreadResult {
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.root_depth = 0;
        #[cfg(feature = "tune")]
        {
            let from = (LMR_BASE_X100.get(), LMR_DIVISOR_X100.get());
            if from != self.lmr_from {
                self.lmr = lmr_table();
                self.lmr_from = from;
            }
        }
        self.et = eval::tables(pos.variant());
        self.acc
            .reset(shared.opts.eval.network_for(pos.variant()), pos);
        self.build_game_filter(pos);
        for f in self.frames.iter_mut() {
            f.killers = [Move::NONE; 2];
            f.eval = NO_EVAL;
            f.mv = Move::NONE;
        }
        let main = driver.is_some();
        let mut cx = Ctx {
            shared,
            index,
            driver,
            node_budget: u64::MAX,
        };
        if main {
            if let Some(n) = shared.limits.nodes {
                cx.node_budget = n;
            }
        }
        self.init_root_moves(pos, &cx);
        if let Some(d) = cx.driver.as_deref_mut() {
            d.start(self.root_moves[0].mv);
        }
        let mut result = ThreadResult {
            pv: vec![self.root_moves[0].mv],
            ..ThreadResult::default()
        };

        let opts = shared.opts;
        // A weakened main thread searches a few lines to choose from; it
        // reports those asked for. `go mate N` is never weakened.
        let mut skill = cx.driver.as_deref_mut().and_then(Driver::take_skill);
        let shown = if main {
            (opts.multipv.max(1) as usize).min(self.root_moves.len())
        } else {
            1
        };
        let multipv = skill
            .as_ref()
            .map_or(shown, |s| s.lines(shown).min(self.root_moves.len()));
        let max_depth = shared
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let skip = (index > 0).then(|| (index - 1) % SKIP_SIZE.len());
        self.proven = None;
        self.proof_next = 1;
        self.proof_last_budget = 0;
        self.proof_nodes = 0;
        // Short wins are proven on the main thread, and only over every legal
        // root move (`searchmoves` would change the question).
        let prove_wins = main && shared.limits.searchmoves.is_empty();
        if let Some(table) = self.proofs.as_mut() {
            table.clear();
        }

        for depth in 1..=max_depth {
            // A stop that came before this iteration (a helper may start late
            // on a busy machine): no need to search its first nodes.
            if shared.signals.stopped() {
                self.stopped = true;
                break;
            }
            if let Some(i) = skip {
                if (depth + pos.game_ply() as i32 + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 != 0 {
                    continue;
                }
            }
            self.root_depth = depth;
            if prove_wins {
                self.prove_short_wins(pos, &mut cx, depth);
            }
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = ASPIRATION_DELTA.get();
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH.get() && prev.abs() < MATE_BOUND {
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
                    delta += delta / ASPIRATION_GROWTH_DIVISOR.get() + ASPIRATION_GROWTH_STEP.get();
                    if delta > ASPIRATION_MAX_DELTA.get() {
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
            let best = &self.root_moves[0];
            result = ThreadResult {
                depth,
                score: best.score,
                seldepth: best.seldepth.max(1) as u32,
                pv: best.pv.clone(),
            };
            shared.nodes.set(index, self.nodes);
            if let Some(s) = skill.as_mut() {
                s.iteration_done(depth, &self.root_moves[..multipv]);
            }
            if let Some(d) = cx.driver.as_deref_mut() {
                if d.iteration_done(
                    shared,
                    depth,
                    &self.root_moves[..shown],
                    self.root_moves.len(),
                ) {
                    break;
                }
            }
        }
        shared.nodes.set(index, self.nodes);
        // An unfinished iteration's new best move, found with a full window,
        // is better than the last finished one.
        let best = &self.root_moves[0];
        if self.stopped && best.score > -INFINITE && best.mv != result.pv[0] {
            result.pv = best.pv.clone();
            result.score = best.score;
        }
        if let Some(r) = skill.and_then(|s| s.choice(&self.root_moves[..multipv])) {
            if r.mv != result.pv[0] {
                result.pv = r.pv;
                result.score = r.score;
            }
        }
        result
    }

    /// Proves or rules out forced wins of up to `depth` plies (and at most
    /// `ShortWinBudget::plies`), shortest first, each within a node budget: one
    /// that ran out is tried again when the budget has grown fourfold.
    /// A win found is kept in `proven`.
    fn prove_short_wins<W: BitWord>(&mut self, pos: &mut Position<W>, cx: &mut Ctx, depth: i32) {
        let shared = cx.shared;
        let v = pos.variant();
        let b = if v.def.drops && v.geometry().squares() <= SMALL_BOARD_SQUARES {
            SHORT_WINS_SMALL_DROPS
        } else if v.def.drops {
            SHORT_WINS_DROPS
        } else if pos.occupied().count() <= SPARSE_PIECES + 2 {
            // Two kings on the board (a kingless side has none to hunt, but
            // that costs only a smaller threshold).
            SHORT_WINS_SPARSE
        } else {
            SHORT_WINS_NO_DROPS
        };
        while self.proven.is_none() && self.proof_next <= depth.min(b.plies) {
            let budget = b.min_nodes.max((self.nodes - self.proof_nodes) / b.divisor);
            if self.proof_last_budget > 0 && budget < 4 * self.proof_last_budget {
                return;
            }
            // `go nodes` counts these nodes too.
            let budget = budget.min(cx.node_budget.saturating_sub(self.nodes + 1));
            let order: ArrayVec<Move, MAX_MOVES> = self.root_moves.iter().map(|r| r.mv).collect();
            // The clock is the main thread's to watch, here as in the search.
            let driver = &mut cx.driver;
            let mut stop = || {
                let out = shared.signals.stopped()
                    || driver.as_deref_mut().is_some_and(|d| d.poll(shared));
                if out {
                    shared.signals.stop_threads();
                }
                out
            };
            let table = self.proofs.get_or_insert_with(ProofTable::new);
            let mut prover = ShortWin::new(shared.opts, table, budget, &mut stop, &order);
            let proof = prover.prove(pos, self.proof_next);
            self.nodes += prover.nodes();
            self.proof_nodes += prover.nodes();
            log::debug!(
                "short win within {}: {proof:?} after {} of {budget} nodes",
                self.proof_next,
                prover.nodes()
            );
            match proof {
                Proof::Win(line) => self.proven = Some((MATE - self.proof_next, line)),
                Proof::NoWin => {
                    self.proof_next += 2;
                    self.proof_last_budget = 0;
                }
                Proof::Unknown => {
                    self.proof_last_budget = budget;
                    return;
                }
            }
        }
    }

    /// The root moves (those of `searchmoves`, if any) in a first order: hash
    /// move, then the usual ordering.
    fn init_root_moves<W: BitWord>(&mut self, pos: &Position<W>, cx: &Ctx) {
        let legal = pos.legal_moves();
        let only = &cx.shared.limits.searchmoves;
        let tt_move = cx.shared.tt.probe(pos.hash()).map_or(Move::NONE, |h| h.mv);
        let mut scored: Vec<(i32, Move)> = legal
            .iter()
            .filter(|m| only.is_empty() || only.contains(m))
            .map(|&m| {
                let s = if m == tt_move {
                    i32::MAX
                } else {
                    let h = Heuristics {
                        et: self.et,
                        history: &self.history,
                    };
                    h.score(pos, m, &self.frames[0].killers, Move::NONE)
                };
                (s, m)
            })
            .collect();
        if scored.is_empty() {
            // `searchmoves` named no legal move: search them all.
            scored = legal.iter().map(|&m| (0, m)).collect();
        }
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

    /// Sets `stopped` when `stop` was requested or a limit is reached; the
    /// main thread looks at its clock and limits every `CHECK_INTERVAL` nodes.
    #[inline]
    pub(super) fn check_stop(&mut self, cx: &mut Ctx) -> bool {
        if self.stopped {
            // The node just counted is not searched: `go nodes N` reports N.
            self.nodes -= 1;
            return true;
        }
        if self.nodes >= cx.node_budget {
            cx.shared.signals.stop_threads();
            self.stopped = true;
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            let shared = cx.shared;
            shared.nodes.set(cx.index, self.nodes);
            if shared.signals.stopped() {
                self.stopped = true;
                return true;
            }
            if let Some(d) = cx.driver.as_deref_mut() {
                if d.poll(shared) {
                    shared.signals.stop_threads();
                    self.stopped = true;
                }
                if let Some(n) = shared.limits.nodes {
                    let others = shared.nodes.total() - self.nodes;
                    cx.node_budget = n.saturating_sub(others);
                }
            }
        }
        self.stopped
    }

    /// The static evaluation of `pos`, at `ply` of the current line, for its
    /// side to move: the network's if the search has one, else the
    /// hand-made one.
    #[inline]
    pub(super) fn evaluate<W: BitWord>(&mut self, pos: &Position<W>, ply: usize) -> i32 {
        match self.acc.evaluate(ply, pos) {
            Some(v) => {
                if self.verify_evaluation {
                    let scratch = self.acc.evaluate_from_scratch(pos);
                    assert_eq!(
                        v,
                        scratch,
                        "incremental network evaluation differs: {}",
                        pos.to_sfen()
                    );
                }
                v + eval::hunt_bonus(self.et, pos)
            }
            None => eval::evaluate_with(self.et, pos),
        }
    }

    /// Records the positions played before the root in a bit filter, so the
    /// search asks the position for the full repetition rule only on a hit.
    fn build_game_filter<W: BitWord>(&mut self, pos: &mut Position<W>) {
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

    /// The next move of the picker of `ply`, best first.
    #[inline]
    pub(super) fn next_move<W: BitWord>(&mut self, pos: &Position<W>, ply: usize) -> Option<Move> {
        let h = Heuristics {
            et: self.et,
            history: &self.history,
        };
        self.pickers[ply].next(pos, &h, &mut self.scratch)
    }

    /// What the picker of `ply` needs of its node: the ply's killers and the
    /// move that led there.
    #[inline]
    pub(super) fn node_moves(&self, ply: usize) -> NodeMoves {
        let prev = match ply.checked_sub(1) {
            Some(p) => (self.frames[p].slot, self.frames[p].mv),
            None => (0, Move::NONE),
        };
        NodeMoves {
            killers: self.frames[ply].killers,
            prev,
        }
    }

    /// Whether `key` may have occurred before the root.
    #[inline(always)]
    pub(super) fn in_game_filter(&self, key: u64) -> bool {
        self.game_filter[(key as usize % GAME_FILTER_BITS) / 64] & (1 << (key % 64)) != 0
    }
}
