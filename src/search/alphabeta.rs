//! The tree search: principal variation search with a transposition table,
//! null-move pruning, reverse futility, late move reductions and pruning,
//! futility and SEE pruning, check extension, mate-distance pruning, and a
//! quiescence search over captures and promotions (all evasions when in check).
//! The game rules apply at every node: no legal move loses, repetition (the
//! perpetual checker loses), Heian's bare king, the entering-king declaration
//! and MaxMovesToDraw.

use super::history::{self, piece_slot};
use super::params::*;
use super::score::*;
use super::see::{captured_value, see_ge};
use super::tt::TtHit;
use super::worker::{Ctx, Worker, NO_EVAL};
use super::Bound;
use crate::core::BitWord;
use crate::position::{Move, Position, Repetition};
use arrayvec::ArrayVec;

/// A mate score made relative to the node for storing.
#[inline]
fn value_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// A stored mate score made relative to the root again.
#[inline]
fn value_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// Whether a stored result settles the node: deep enough, and its bound on the
/// right side of the window.
#[inline]
fn tt_cuts(hit: &TtHit, value: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    hit.depth >= depth
        && match hit.bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
            Bound::None => false,
        }
}

/// The static evaluation from the table's copy if there is one, and that
/// evaluation corrected by the stored value where its bound allows:
/// `(raw, corrected)`.
#[inline]
fn static_eval<W: BitWord>(
    w: &mut Worker,
    pos: &Position<W>,
    ply: usize,
    hit: Option<TtHit>,
    tt_value: i32,
) -> (i32, i32) {
    let raw = match hit {
        Some(h) if h.eval != NO_EVAL && h.eval.abs() < MATE_BOUND => h.eval,
        _ => w.evaluate(pos, ply),
    };
    let mut e = raw;
    if let Some(h) = hit {
        if tt_value.abs() < MATE_BOUND
            && ((h.bound == Bound::Lower && tt_value > e)
                || (h.bound == Bound::Upper && tt_value < e))
        {
            e = tt_value;
        }
    }
    (raw, e)
}

/// The bound a node's result is, from its best score and window.
#[inline]
fn result_bound(best: i32, beta: i32, pv_node: bool, best_move: Move) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv_node && !best_move.is_none() {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

impl Worker {
    /// The score the game rules give this (non-root) node, if they end the game
    /// or the line here.
    #[inline]
    fn rule_score<W: BitWord>(&self, cx: &Ctx, pos: &Position<W>, ply: usize) -> Option<i32> {
        if pos.bare_king_loss() {
            return Some(-MATE + ply as i32);
        }
        let key = pos.hash();
        let verdict = if self.in_tree_repetition(ply, key) {
            pos.repetition_at(2)
        } else if self.in_game_filter(key) {
            pos.repetition()
        } else {
            Repetition::None
        };
        match verdict {
            Repetition::None => {}
            Repetition::Draw => return Some(DRAW),
            Repetition::Win => return Some(RULE_WIN - ply as i32),
            Repetition::Loss => return Some(-RULE_WIN + ply as i32),
        }
        let max = cx.shared.opts.max_moves_to_draw;
        if max > 0 && pos.game_ply() >= max && (!pos.in_check() || pos.has_legal_move()) {
            // The move limit draws, unless the last move mated.
            return Some(DRAW);
        }
        if cx.shared.opts.declaration && pos.can_declare() {
            return Some(MATE - ply as i32);
        }
        None
    }

    /// Whether the position at `ply` occurred earlier in the search path (no
    /// null move in between).
    #[inline]
    fn in_tree_repetition(&self, ply: usize, key: u64) -> bool {
        let mut j = ply;
        while j >= 2 {
            if self.frames[j - 1].mv.is_none() || self.frames[j - 2].mv.is_none() {
                return false;
            }
            j -= 2;
            if self.frames[j].key == key {
                return true;
            }
        }
        false
    }

    /// Updates killers, counter-move and history after a quiet move caused a
    /// cutoff; the other quiet moves tried are penalised.
    fn update_quiet_stats<W: BitWord>(
        &mut self,
        pos: &Position<W>,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        let f = &mut self.frames[ply];
        if f.killers[0] != m {
            f.killers[1] = f.killers[0];
            f.killers[0] = m;
        }
        if ply > 0 && !self.frames[ply - 1].mv.is_none() {
            let p = self.frames[ply - 1];
            self.history.set_counter(p.slot, p.mv, m);
        }
        let b = history::bonus(depth);
        self.history.update(piece_slot(pos, m), m, b);
        for &q in tried {
            self.history.update(piece_slot(pos, q), q, -b);
        }
    }

    /// Stores the line `m` + the child's line as the line of `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = m;
        let n = child_len.min(MAX_PLY);
        line[1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Principal variation search to `depth` from `ply`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search<W: BitWord>(
        &mut self,
        cx: &mut Ctx,
        pos: &mut Position<W>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if depth <= 0 {
            // A last piece en prise (bare-king rule) is searched one ply
            // like a check: every move, not just captures.
            if ply >= MAX_PLY - 1 || !pos.last_piece_attacked() || pos.in_check() {
                return self.qsearch(cx, pos, alpha, beta, ply);
            }
            depth = 1;
        }
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_stop(cx) {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = pos.hash();
        self.frames[ply].key = key;
        let in_check = pos.in_check();
        if !root {
            if let Some(v) = self.rule_score(cx, pos, ply) {
                return v;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.evaluate(pos, ply)
                };
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Check extension: a node in check is searched one ply deeper.
        if in_check
            && ply
                < CHECK_EXTENSION_PLY_FACTOR * self.root_depth as usize + CHECK_EXTENSION_PLY_SLACK
        {
            depth += 1;
        }

        let hit = cx.shared.tt.probe(key);
        let tt_value = hit.map_or(NO_EVAL, |h| value_from_tt(h.value, ply));
        let mut tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            hit.map_or(Move::NONE, |h| h.mv)
        };
        if !root && !tt_move.is_none() && !pos.is_legal(tt_move) {
            tt_move = Move::NONE;
        }
        if !pv_node && hit.is_some_and(|h| tt_cuts(&h, tt_value, depth, alpha, beta)) {
            return tt_value;
        }

        // Baring the king wins at once, and the capture often fails SEE and
        // would be pruned. (A mate in one is never pruned here: checks are
        // exempt, and the reply in check is searched in full.)
        if !root && !in_check && pos.baring_capture().is_some() {
            return MATE - ply as i32 - 1;
        }

        // Static evaluation.
        let (raw_eval, eval) = if in_check {
            (NO_EVAL, NO_EVAL)
        } else {
            static_eval(self, pos, ply, hit, tt_value)
        };
        self.frames[ply].eval = raw_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].eval != NO_EVAL
            && raw_eval > self.frames[ply - 2].eval;
        self.frames[ply + 2].killers = [Move::NONE; 2];

        if !pv_node && !in_check && !root {
            // Reverse futility pruning.
            if depth <= RFP_DEPTH.get()
                && eval.abs() < MATE_BOUND
                && beta.abs() < MATE_BOUND
                && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null move pruning.
            if depth >= NMP_DEPTH.get()
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && !self.frames[ply - 1].mv.is_none()
                && self.has_material_for_null(pos)
            {
                let r = NMP_BASE.get()
                    + depth / NMP_DIVISOR.get()
                    + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX.get());
                self.frames[ply].mv = Move::NONE;
                self.acc.push_null(ply);
                pos.do_null_move();
                let v = -self.search(cx, pos, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                pos.undo_null_move();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative reduction: no hash move, so this node was not
        // searched before; spend less on it.
        if depth >= IIR_DEPTH.get() && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }

        let disc = pos.discoverers();
        let node = self.node_moves(ply);
        self.pickers[ply].start(tt_move, depth, SORT_LIMIT_PER_PLY, node);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0usize;
        let mut skip_quiets = false;
        let mut quiets: ArrayVec<Move, MAX_QUIETS> = ArrayVec::new();
        let killers = self.frames[ply].killers;
        let mut root_index = self.pv_idx;

        loop {
            let m = if root {
                if root_index >= self.root_moves.len() {
                    break;
                }
                root_index += 1;
                self.root_moves[root_index - 1].mv
            } else {
                match self.next_move(pos, ply) {
                    Some(m) => m,
                    None => break,
                }
            };
            move_count += 1;
            let capture = !m.is_drop() && pos.piece_at(m.to()).is_some();
            let quiet = !capture && !m.is_promotion();
            let check = pos.gives_check(disc, m);

            if !root && best > -MATE_BOUND {
                let r = self.lmr[depth.min(LMR_TABLE as i32 - 1) as usize]
                    [move_count.min(LMR_TABLE - 1)];
                let lmr_depth = (depth - 1 - r).max(0);
                if quiet && !check {
                    if skip_quiets {
                        continue;
                    }
                    if depth <= LMP_DEPTH.get()
                        && move_count as i32
                            >= (LMP_BASE.get() + depth * depth) / (2 - improving as i32)
                    {
                        skip_quiets = true;
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= FUTILITY_DEPTH.get()
                        && eval + FUTILITY_BASE.get() + FUTILITY_MARGIN.get() * lmr_depth <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= SEE_DEPTH.get()
                        && !see_ge(pos, self.et, m, -SEE_QUIET.get() * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if !quiet
                    && !check
                    && depth <= SEE_DEPTH.get()
                    && !see_ge(pos, self.et, m, -SEE_CAPTURE.get() * depth)
                {
                    continue;
                }
            }

            let new_depth = depth - 1;
            self.frames[ply].mv = m;
            self.frames[ply].slot = piece_slot(pos, m);
            let hist = if quiet {
                self.history.get(self.frames[ply].slot, m)
            } else {
                0
            };
            self.acc.push_move(ply, pos, m);
            pos.do_move(m);
            cx.shared.tt.prefetch(pos.hash());

            let mut v = -INFINITE;
            let mut full = !pv_node || move_count > 1;
            if depth >= LMR_DEPTH.get() && move_count > 1 + root as usize && (quiet || !pv_node) {
                let mut r = self.lmr[depth.min(LMR_TABLE as i32 - 1) as usize]
                    [move_count.min(LMR_TABLE - 1)];
                if pv_node {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if check || in_check {
                    r -= 1;
                }
                if m == killers[0] || m == killers[1] {
                    r -= 1;
                }
                if quiet {
                    r -= hist / LMR_HISTORY_DIVISOR.get();
                } else {
                    r -= 1;
                }
                let d = (new_depth - r).clamp(1, new_depth.max(1));
                v = -self.search(cx, pos, -alpha - 1, -alpha, d, ply + 1, true);
                full = v > alpha && d < new_depth;
            }
            if full {
                v = -self.search(cx, pos, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if pv_node && (move_count == 1 || v > alpha) {
                v = -self.search(cx, pos, -beta, -alpha, new_depth, ply + 1, false);
            }
            pos.undo_move();
            if self.stopped {
                return 0;
            }

            if root {
                // A proven short win stands whatever this depth saw.
                if let Some((ps, pline)) = &self.proven {
                    if pline[0] == m && v < *ps {
                        v = *ps;
                        let tail = &pline[1..];
                        self.pv[1][..tail.len()].copy_from_slice(tail);
                        self.pv_len[1] = tail.len();
                    }
                }
                let seldepth = self.seldepth;
                let child_len = self.pv_len[1];
                let line: ArrayVec<Move, { MAX_PLY + 1 }> =
                    self.pv[1][..child_len].iter().copied().collect();
                let rm = self
                    .root_moves
                    .iter_mut()
                    .find(|r| r.mv == m)
                    .expect("a root move");
                if move_count == 1 || v > alpha {
                    rm.score = v;
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&line);
                } else {
                    rm.score = -INFINITE;
                }
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if m != best_move && quiet && !quiets.is_full() {
                quiets.push(m);
            }
        }

        if move_count == 0 {
            // No legal move: a loss, in check or not.
            return -MATE + ply as i32;
        }
        if best >= beta && !best_move.is_none() {
            let bm_quiet = best_move.is_drop()
                || (pos.piece_at(best_move.to()).is_none() && !best_move.is_promotion());
            if bm_quiet {
                self.update_quiet_stats(pos, ply, best_move, depth, &quiets);
            }
        }
        let bound = result_bound(best, beta, pv_node, best_move);
        cx.shared.tt.store(
            key,
            best_move,
            value_to_tt(best, ply),
            raw_eval,
            depth,
            bound,
        );
        best
    }

    /// Whether a null move is safe enough: not a bare endgame where zugzwang
    /// is likely.
    #[inline]
    fn has_material_for_null<W: BitWord>(&self, pos: &Position<W>) -> bool {
        let us = pos.side_to_move();
        pos.pieces_of(us).count() >= NMP_MIN_PIECES || !pos.hand(us).is_empty()
    }

    /// Quiescence search: captures and pawn promotions, or every evasion when in
    /// check.
    pub(super) fn qsearch<W: BitWord>(
        &mut self,
        cx: &mut Ctx,
        pos: &mut Position<W>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.check_stop(cx) {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = pos.hash();
        self.frames[ply].key = key;
        if pos.bare_king_loss() {
            return -MATE + ply as i32;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.evaluate(pos, ply)
            };
        }
        let hit = cx.shared.tt.probe(key);
        let tt_value = hit.map_or(NO_EVAL, |h| value_from_tt(h.value, ply));
        // Any stored depth is enough here.
        if !pv_node && hit.is_some_and(|h| tt_cuts(&h, tt_value, i32::MIN, alpha, beta)) {
            return tt_value;
        }
        let tt_move = hit.map_or(Move::NONE, |h| h.mv);

        let mut best;
        let raw_eval;
        let stand_pat;
        if in_check {
            best = -INFINITE;
            raw_eval = NO_EVAL;
            stand_pat = NO_EVAL;
        } else {
            (raw_eval, stand_pat) = static_eval(self, pos, ply, hit, tt_value);
            if stand_pat >= beta {
                if hit.is_none() {
                    cx.shared.tt.store(
                        key,
                        Move::NONE,
                        value_to_tt(stand_pat, ply),
                        raw_eval,
                        -1,
                        Bound::Lower,
                    );
                }
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }

        let node = self.node_moves(ply);
        self.pickers[ply].start_quiescence(tt_move, in_check, node);
        let mut searched = 0;
        let mut best_move = Move::NONE;
        while let Some(m) = self.next_move(pos, ply) {
            if !in_check {
                let gain = captured_value(pos, self.et, m)
                    + if m.is_promotion() {
                        self.et.promotion_gain[pos.piece_at(m.from()).kind().index()]
                    } else {
                        0
                    };
                if stand_pat + gain + DELTA_MARGIN.get() <= alpha {
                    continue;
                }
                if !see_ge(pos, self.et, m, 0) {
                    continue;
                }
            }
            searched += 1;
            self.frames[ply].mv = m;
            self.frames[ply].slot = piece_slot(pos, m);
            self.acc.push_move(ply, pos, m);
            pos.do_move(m);
            let v = -self.qsearch(cx, pos, -beta, -alpha, ply + 1);
            pos.undo_move();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && searched == 0 {
            // No evasion: mated.
            return -MATE + ply as i32;
        }
        let bound = result_bound(best, beta, pv_node, best_move);
        let depth = if in_check { 0 } else { -1 };
        cx.shared.tt.store(
            key,
            best_move,
            value_to_tt(best, ply),
            raw_eval,
            depth,
            bound,
        );
        best
    }
}
