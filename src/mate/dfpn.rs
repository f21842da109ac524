//! Depth-first proof-number search (Nagai's df-pn) over checks and evasions.
//!
//! OR nodes are the attacker's (every move a check), AND nodes the
//! defender's (every legal evasion). A position repeated on the current path
//! counts as a failure for the attacker (perpetual check is not mate; a mate
//! through a loop is never the shortest), and so does an attacker's check
//! that brings back a board of the path with no more attacker pieces in
//! hand (an inferior repeat, as KomoringHeights has it: whatever mates it
//! mates the earlier position at least as soon). Such a disproof depends on the
//! path: it is not stored while it rests on a position above the node, and
//! travels up the path that found it until the loop's first position, where
//! it no longer depends on anything outside and is stored (a mate from there
//! would not need the loop). The graph-history problem costs re-searches
//! below that position but never makes a false "no mate" of a table entry.
//!
//! The table links each open position to the one its last search came
//! from; where those links show two defences of an AND node of the path
//! joining below, the node counts them by the largest, not the sum
//! (`DfPn::find_merge`): in a loop problem the same positions come back by
//! many orders of moves, and summed they count more than once.

use super::combine::{
    delta, disproven_within, summarize, summed, Child, DISPROVEN, NO_REP, UNGUARDED, UNKNOWN,
};
use super::table::{MateTable, Numbers, INF, NO_LIMIT};
use crate::core::{BitWord, Bitboard, Color};
use crate::position::{Hand, Move, MoveList, Position};
use crate::tables::MAX_HAND_COUNT;
use crate::variant::{Kind, MAX_HAND_KINDS};
use std::time::Instant;

/// Deepest path the solver follows (plies); deeper lines count as failures.
pub const MAX_MATE_PLY: usize = 3000;

/// Slots of the path filter (a power of two).
const PATH_FILTER: usize = 4096;

/// Plies left up to which, in a search for a mate within a bound, an
/// attacker position not in the table starts with its number of checks as
/// disproof number (1 beyond, and in the first, unlimited search). "No
/// mate within 19" after 無双65's 7g6h 5i6h: 1.1M nodes, 2.7M with every
/// defence at 1 (time 0.6x: nodes per second 0.65x when the checks were
/// listed to be counted; counted by `count_checks_by_square`, the same
/// search takes 0.75x the time it did then). At every distance,
/// ミクロコスモス (1525 plies, 16 GB) took 205M nodes, 159M without; up to
/// 16 plies 158M, up to 64 157M. In the first proof 図巧8 took 15.4M, 13.1M
/// without.
const DN_BY_CHECKS_PLIES: u16 = 64;

/// Plies left up to which, in a search for a mate within a bound, an
/// attacker position entered from a defence is searched to the end (proven
/// or disproven) instead of up to thresholds. Such subtrees are small, and
/// leaving one open sends the search back up to re-expand its defence and
/// come down again: most nodes near a bound were such returns. Disproofs
/// "within the published length − 2" of 12 classics: 9.5M nodes in all,
/// 5.1M with this (3 plies 6.1M, 7 plies 6.0M, 9 plies 9.4M; every node
/// at 5: 5.1M). 図巧37 within 21, 18.4M nodes before, 8.7M now. Bounded
/// proofs take somewhat more (6 small ones: 0.68M, 0.97M now).
const FINISH_PLIES: u16 = 5;

/// Links (`MateTable::parent`) followed up from a position about to be
/// searched in looking for where its other way in leaves the path
/// (`DfPn::find_merge`). 夢の旅人's joins are within a round of its
/// 14-ply loop.
const MERGE_WALK: u32 = 32;

/// How much a proof number may grow from one linked position to the one
/// above it for the join to still count as doubled there
/// (`DfPn::find_merge`); KomoringHeights allows 3 of its units, here a few
/// evasions.
const MERGE_GAP: u32 = 4;

/// Pieces the attacker must hold in hand for an OR node's disproof number
/// to be the sum of its checks' (KomoringHeights' rule); with fewer, the
/// largest plus one for each other open check. A long problem that spends
/// its hand one piece a round (夢の旅人, 313 plies, 12 pawns) repeats its
/// manoeuvre with like side checks at every round, and with their numbers
/// hardly growing the search came back to its attacker's nodes at every
/// small step: first proof 17.89M nodes, 5.77M summed here, 8.17M summed
/// at every OR node. Summed everywhere, 図巧8's 3b3c position (the unit
/// test `interpositions_on_many_squares_do_not_inflate_the_proof_number`)
/// took 3.39M nodes for 1.33M, 寿 (611 plies) 3.10M for 1.25M and
/// ミクロコスモス after 1300 none within 20M for 9.72M; those never hold
/// this many (寿 does hold 6: summed from 6 pieces, 3.70M). Measured in
/// docs/tsume-long.md (2026-11-28, session 31). A fit to few problems:
/// what counts is that short problems and these long ones keep their
/// numbers.
const SUM_CHECKS_HAND: u32 = 8;

/// How often (in nodes) the solver asks whether to stop.
const POLL_NODES: u64 = 4096;

/// What a search of a node found, and the ply of the highest position on
/// the path a disproof rests on a repetition of (`NO_REP`: none).
#[derive(Copy, Clone)]
struct Found {
    n: Numbers,
    rep: u16,
}

/// Where colour `c`'s kind `k` starts in `DfPn::hand_keys` (one entry per
/// count, 0 to `MAX_HAND_COUNT`).
#[inline(always)]
fn hand_slot(c: Color, k: usize) -> usize {
    (c.index() * MAX_HAND_KINDS + k) * (MAX_HAND_COUNT + 1)
}

/// The proof-number search of one problem.
pub struct DfPn<'t> {
    table: &'t mut MateTable,
    attacker: Color,
    /// XOR of the hand keys for `n` pieces, per colour, kind and count.
    hand_keys: Vec<u64>,
    /// Board keys and attacker hands of the positions on the current path.
    path: Vec<(u64, u64)>,
    /// Counts of the path's board keys by their low bits: most positions
    /// are not on the path, and a long path (hundreds of plies) is slow to
    /// scan.
    path_filter: Box<[u16; PATH_FILTER]>,
    /// Reusable move lists, one per ply.
    frames: Vec<Vec<Child>>,
    /// Per ply of the path: a defence of that (AND) node found to join,
    /// below, the subtree the search is in (`find_merge`), to be counted
    /// with it by the largest once the search returns there.
    merge_at: Vec<Option<(u64, u64)>>,
    /// Nodes searched.
    pub nodes: u64,
    /// Set when `poll` asked to stop.
    pub aborted: bool,
    /// Longest mate searched for, in plies from the root (`NO_LIMIT`: any).
    pub limit: u16,
    /// Nodes after which the search gives up (and sets `out_of_budget`).
    pub node_budget: u64,
    /// Set when `node_budget` ran out, or `deadline` passed; unlike
    /// `aborted`, a new budget lifts it.
    pub out_of_budget: bool,
    /// A time after which the search gives up as on `node_budget`, once it
    /// has searched `.1` nodes.
    pub deadline: Option<(Instant, u64)>,
    poll: &'t mut dyn FnMut(u64, &MateTable) -> bool,
}

impl<'t> DfPn<'t> {
    /// A search for a mate by `attacker` using `table`; `poll(nodes, table)`
    /// is called now and then and returns true to stop.
    pub fn new<W: BitWord>(
        pos: &Position<W>,
        attacker: Color,
        table: &'t mut MateTable,
        poll: &'t mut dyn FnMut(u64, &MateTable) -> bool,
    ) -> DfPn<'t> {
        let t = pos.tables();
        let mut hand_keys = vec![0u64; 2 * MAX_HAND_KINDS * (MAX_HAND_COUNT + 1)];
        for c in Color::ALL {
            for k in 0..t.variant.hand_kinds {
                let mut acc = 0;
                for n in 1..=MAX_HAND_COUNT {
                    acc ^= t.hand_key(c, Kind(k as u8), n);
                    hand_keys[hand_slot(c, k) + n] = acc;
                }
            }
        }
        DfPn {
            table,
            attacker,
            hand_keys,
            path: Vec::with_capacity(256),
            path_filter: Box::new([0; PATH_FILTER]),
            frames: Vec::new(),
            merge_at: Vec::new(),
            nodes: 0,
            aborted: false,
            limit: NO_LIMIT,
            node_budget: u64::MAX,
            out_of_budget: false,
            deadline: None,
            poll,
        }
    }

    /// The position's key without its hands.
    #[inline]
    pub fn board_key<W: BitWord>(&self, pos: &Position<W>) -> u64 {
        let mut k = pos.hash();
        for c in Color::ALL {
            let hand = pos.hand(c);
            for ki in 0..pos.variant().hand_kinds {
                k ^= self.hand_keys[hand_slot(c, ki) + hand.count(Kind(ki as u8))];
            }
        }
        k
    }

    /// The attacker's hand in `pos`, packed.
    #[inline]
    pub fn attacker_hand<W: BitWord>(&self, pos: &Position<W>) -> u64 {
        pos.hand(self.attacker).packed()
    }

    /// What the table says of a mate within `plies` from `pos` (None:
    /// nothing).
    pub fn probe<W: BitWord>(&mut self, pos: &Position<W>, plies: u16) -> Option<Numbers> {
        let (key, hand) = (self.board_key(pos), self.attacker_hand(pos));
        self.table.probe(key, hand, plies)
    }

    /// The shortest mate the table knows from `pos`.
    pub fn probe_shortest<W: BitWord>(&mut self, pos: &Position<W>) -> Option<Numbers> {
        let (key, hand) = (self.board_key(pos), self.attacker_hand(pos));
        self.table.probe_shortest(key, hand)
    }

    /// Whether `deadline` has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|(at, _)| Instant::now() >= at)
    }

    /// Plies left for the mate at `ply` from the root.
    #[inline]
    fn plies_left(&self, ply: usize) -> u16 {
        if self.limit == NO_LIMIT {
            NO_LIMIT
        } else {
            self.limit.saturating_sub(ply as u16)
        }
    }

    /// Searches `pos` until it is proven or disproven, or `poll` stops it.
    pub fn solve<W: BitWord>(&mut self, pos: &mut Position<W>) -> Numbers {
        while let Some((k, _)) = self.path.pop() {
            self.path_filter[k as usize % PATH_FILTER] -= 1;
        }
        let keys = (self.board_key(pos), self.attacker_hand(pos));
        let f = self.mid(pos, keys, INF, INF, 0);
        f.n
    }

    /// The moves to consider: checks at OR nodes, every legal move at AND
    /// nodes, with their first numbers (`key` and `hand`: the position's
    /// board key and attacker hand).
    #[inline(never)]
    fn expand<W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        (key, hand): (u64, u64),
        or: bool,
        child_left: u16,
        out: &mut Vec<Child>,
    ) {
        out.clear();
        // Filled in place: a list returned by value is copied (2 KB).
        let mut moves = MoveList::new();
        if or {
            pos.legal_checks_into(&mut moves);
        } else {
            pos.generate_into(&mut moves);
        }
        if !or {
            // Drops come last, by kind in hand order (strongest first):
            // reversed, the weakest kind comes first on each square. Its
            // capture gives the attacker least, so it is the defence most
            // likely to hold; shown first, the search proves the real mate
            // before the easy captures. Strongest first, the attacker's
            // captured rooks and golds opened long side lines: 図巧92 (13
            // plies, a full defender's hand) took over 5M nodes, 9.4k now.
            let first = moves
                .iter()
                .position(|m| m.is_drop())
                .unwrap_or(moves.len());
            debug_assert!(moves[first..].iter().all(|m| m.is_drop()));
            moves[first..].reverse();
        }
        // First the keys (and a prefetch of their buckets), then the probes:
        // the table is large and each probe a likely cache miss.
        let mut drop_squares = Bitboard::<W>::EMPTY;
        let mut unguarded_shown = false;
        let hands_key = pos.hash() ^ key;
        let occ = pos.occupied();
        // An interposition the defender does not guard is taken for
        // nothing: those on different squares mostly fail alike, and are
        // shown one at a time, as KomoringHeights delays them (with an
        // attacker's king, such a drop may check it: not grouped).
        // 夢の旅人 proven at 313 in 19.4M nodes, 26.8M before; the
        // classics' quick part 0.998x.
        let group_unguarded = !or && !pos.has_king(self.attacker);
        for &m in moves.iter() {
            let mut group = 0;
            let mut hidden = false;
            if !or && m.is_drop() {
                let to = m.to();
                hidden = drop_squares.has(to);
                group = to.index() as u16;
                if group_unguarded && !pos.attackers_to(to, pos.side_to_move(), occ).any() {
                    group = UNGUARDED;
                    hidden |= std::mem::replace(&mut unguarded_shown, true);
                }
            }
            if m.is_drop() {
                drop_squares.set(m.to());
            }
            let (key, child_hand, h) = self.child_keys(pos, m, hands_key, hand);
            debug_assert!({
                pos.do_move(m);
                let played = (self.board_key(pos), self.attacker_hand(pos), pos.hash());
                pos.undo_move();
                played == (key, child_hand, h)
            });
            // The same position on the path, or after a check the same
            // board with at least the attacker's pieces now in hand (the
            // deepest such is the one the failure rests on). Classics'
            // quick part 0.98x nodes, ACTの夢's first proof 1.27M -> 1.20M.
            // Defences into an inferior repeat are searched as before:
            // cut too, ACTの夢 took 1.10M but 図巧8 after 12 plies
            // (`interpositions_on_many_squares...`) over 2.5M, 1.33M
            // without: those failures rest on the path and are searched
            // again from each way in.
            let rep = if self.path_filter[key as usize % PATH_FILTER] != 0 {
                self.path
                    .iter()
                    .rposition(|&(k, ph)| {
                        k == key && (ph == child_hand || or && Hand::packed_covers(ph, child_hand))
                    })
                    .map_or(NO_REP, |ply| ply as u16)
            } else {
                NO_REP
            };
            self.table.prefetch(key);
            out.push(Child {
                mv: m,
                n: UNKNOWN,
                rep,
                hidden,
                merged: false,
                group,
                key,
                hand: child_hand,
            });
        }
        for c in out.iter_mut() {
            if c.rep != NO_REP {
                c.n = DISPROVEN;
            } else if !or && child_left == 1 && !c.hidden {
                // A mate in one after this defence, or not: known at once
                // (not searched as a node). One defence that holds
                // disproves this node, and the rest need no look: near a
                // bound most defences hold.
                c.n = match self.table.probe(c.key, c.hand, child_left) {
                    Some(n) => n,
                    None => {
                        pos.do_move(c.mv);
                        let n = match mate_in_one(pos) {
                            None => DISPROVEN,
                            Some(false) => disproven_within(1, true),
                            Some(true) => Numbers {
                                dn: check_count(pos),
                                ..UNKNOWN
                            },
                        };
                        pos.undo_move();
                        n
                    }
                };
                if c.n.dn == 0 {
                    break;
                }
            } else if or && child_left == 0 {
                // The last ply: known without a search (nor a probe).
                pos.do_move(c.mv);
                c.n = self.at_horizon(pos, false);
                pos.undo_move();
            } else if let Some(n) = self.table.probe(c.key, c.hand, child_left) {
                c.n = n;
            } else if !or && child_left <= DN_BY_CHECKS_PLIES {
                // Close to a bound, most of the work is disproving: the
                // fewer the checks, the likelier no mate (none is none), so
                // the defence leading there is tried first.
                pos.do_move(c.mv);
                let checks = check_count(pos);
                c.n = if checks == 0 {
                    DISPROVEN
                } else {
                    Numbers {
                        dn: checks,
                        ..UNKNOWN
                    }
                };
                pos.undo_move();
            } else if or {
                // The fewer the evasions, the likelier the mate; none is mate.
                pos.do_move(c.mv);
                let evasions = evasion_count(pos);
                c.n = if evasions == 0 {
                    self.mated(pos)
                } else {
                    Numbers {
                        pn: evasions,
                        ..UNKNOWN
                    }
                };
                pos.undo_move();
            }
        }
    }

    /// The board key, attacker's hand and full hash after `m`, from the
    /// position's hand keys (`hash ^ board_key`) and attacker's hand, without
    /// playing `m` (most children are only probed, never searched).
    #[inline]
    fn child_keys<W: BitWord>(
        &self,
        pos: &Position<W>,
        m: Move,
        hands_key: u64,
        hand_now: u64,
    ) -> (u64, u64, u64) {
        let h = pos.hash_after(m);
        let us = pos.side_to_move();
        // The mover's hand changes by one piece of one kind, or not at all.
        let change = if m.is_drop() {
            Some((m.drop_kind(), -1i64))
        } else {
            let captured = pos.piece_at(m.to());
            (captured.is_some() && pos.variant().hand_kinds > 0)
                .then(|| (pos.variant().kind(captured.kind()).base, 1))
        };
        let Some((k, d)) = change else {
            return (h ^ hands_key, hand_now, h);
        };
        let n = pos.hand(us).count(k);
        let slot = hand_slot(us, k.0 as usize);
        let after = (n as i64 + d) as usize;
        let hands_key = hands_key ^ self.hand_keys[slot + n] ^ self.hand_keys[slot + after];
        let hand = if us == self.attacker {
            let unit = 1u64 << (8 * k.0 as u32);
            if d > 0 {
                hand_now + unit
            } else {
                hand_now - unit
            }
        } else {
            hand_now
        };
        (h ^ hands_key, hand, h)
    }

    /// Makes the next hidden drop searchable in every group whose shown
    /// drops are all proven, with what the table knows of it (which may
    /// prove it at once, and then the next is shown).
    fn reveal_drops(&mut self, child_left: u16, children: &mut [Child]) {
        let mut i = 0;
        while i < children.len() {
            let c = children[i];
            if !c.hidden {
                i += 1;
                continue;
            }
            let open = children
                .iter()
                .any(|o| !o.hidden && o.mv.is_drop() && o.group == c.group && o.n.pn != 0);
            if open {
                i += 1;
                continue;
            }
            children[i].hidden = false;
            if let Some(n) = self.table.probe(c.key, c.hand, child_left) {
                children[i].n = n;
            }
            // A proven reveal may free the next one of its group,
            // which comes later in the list.
            i += 1;
        }
    }

    /// The numbers of a mated position (defender to move): proven, and the
    /// attacker needs every piece of a kind the defender has none of in hand
    /// (with fewer, the defender would hold one to interpose).
    fn mated<W: BitWord>(&self, pos: &Position<W>) -> Numbers {
        Numbers {
            pn: 0,
            dn: INF,
            len: 0,
            hand: self.withheld(pos, 0),
        }
    }

    /// The numbers of a position with no plies left: mated now, or no mate
    /// within the limit.
    fn at_horizon<W: BitWord>(&self, pos: &Position<W>, or: bool) -> Numbers {
        if or || pos.has_legal_move() {
            disproven_within(0, or)
        } else {
            self.mated(pos)
        }
    }

    /// Proof hand `ph` at an AND node, raised to all the attacker holds of
    /// every kind the defender lacks.
    fn withheld<W: BitWord>(&self, pos: &Position<W>, ph: u64) -> u64 {
        let ours = self.attacker_hand(pos).to_le_bytes();
        let theirs = pos.hand(self.attacker.opp()).packed().to_le_bytes();
        let mut out = ph.to_le_bytes();
        for k in 0..pos.variant().hand_kinds {
            if theirs[k] == 0 {
                out[k] = ours[k];
            }
        }
        u64::from_le_bytes(out)
    }

    /// Multiple-iterative deepening at one node: searches below `pos` (with
    /// board key `key` and attacker hand `hand`) until its proof number
    /// reaches `th_pn` or its disproof number `th_dn`.
    fn mid<W: BitWord>(
        &mut self,
        pos: &mut Position<W>,
        (key, hand): (u64, u64),
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> Found {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_NODES) {
            if (self.poll)(self.nodes, self.table) {
                self.aborted = true;
            }
            if let Some((at, after_nodes)) = self.deadline {
                if self.nodes >= after_nodes && Instant::now() >= at {
                    self.out_of_budget = true;
                }
            }
        }
        if self.nodes >= self.node_budget {
            self.out_of_budget = true;
        }
        if ply >= MAX_MATE_PLY {
            // Too deep: a failure that rests on the whole path.
            return Found {
                n: DISPROVEN,
                rep: 0,
            };
        }
        let or = pos.side_to_move() == self.attacker;
        let left = self.plies_left(ply);
        if left == 0 {
            return Found {
                n: self.at_horizon(pos, or),
                rep: NO_REP,
            };
        }
        let child_left = if left == NO_LIMIT { NO_LIMIT } else { left - 1 };
        if self.frames.len() <= ply {
            self.frames.resize_with(ply + 1, Vec::new);
            self.merge_at.resize(ply + 1, None);
        }
        self.merge_at[ply] = None;
        let mut children = std::mem::take(&mut self.frames[ply]);
        self.expand(pos, (key, hand), or, child_left, &mut children);
        if or && hand.to_le_bytes().iter().map(|&n| n as u32).sum::<u32>() < SUM_CHECKS_HAND {
            // With a small hand the checks count by the largest.
            for c in children.iter_mut() {
                c.merged = true;
            }
        }
        self.path.push((key, hand));
        self.path_filter[key as usize % PATH_FILTER] += 1;
        let start_nodes = self.nodes;

        let mut found = loop {
            if !or {
                self.reveal_drops(child_left, &mut children);
            }
            let (n, rep) = summarize(&children, or);
            if n.pn >= th_pn || n.dn >= th_dn || self.aborted || self.out_of_budget {
                break Found { n, rep };
            }
            // The most promising child and the runner-up's number.
            let num = |c: &Child| if or { c.n.pn } else { c.n.dn };
            let mut best = children.iter().position(|c| !c.hidden).unwrap_or(0);
            let mut second = INF;
            for (i, c) in children.iter().enumerate().skip(best + 1) {
                if c.hidden {
                    continue;
                }
                if num(c) < num(&children[best]) {
                    second = num(&children[best]);
                    best = i;
                } else if num(c) < second {
                    second = num(c);
                }
            }
            // A little beyond the runner-up (1 + 1/4), so that the search
            // does not switch between two close children at every step.
            let second = second.saturating_add(1 + second / 4).min(INF);
            let c = children[best];
            if let Some((at, way)) = self.find_merge((c.key, c.hand), (key, hand), ply) {
                if at == ply {
                    if merge(&mut children, best, way) {
                        continue;
                    }
                } else {
                    self.merge_at[at] = Some(way);
                }
            }
            // The child's threshold for the number summed here (pn at AND,
            // dn at OR): the node's threshold less what the other children
            // add (`Delta::rest`). The plain df-pn `th - sum + child` is too
            // small for a child counted by the largest-plus-one rule when it
            // is not the largest: it came back after each small step to be
            // expanded again (threshold thrashing; 図巧4's first proof took
            // 20.1M nodes, 14.2M with this alone).
            let rest = delta(&children, or, Some(best)).rest(summed(&c, or));
            let (cth_pn, cth_dn) = if or {
                (
                    th_pn.min(second),
                    th_dn.saturating_sub(rest).max(c.n.dn + 1).min(INF),
                )
            } else if child_left <= FINISH_PLIES {
                (INF, INF)
            } else {
                (
                    th_pn.saturating_sub(rest).max(c.n.pn + 1).min(INF),
                    th_dn.min(second),
                )
            };
            pos.do_move(c.mv);
            let f = self.mid(pos, (c.key, c.hand), cth_pn, cth_dn, ply + 1);
            pos.undo_move();
            children[best].n = f.n;
            children[best].rep = f.rep;
            if let Some(way) = self.merge_at[ply].take() {
                merge(&mut children, best, way);
            }
        };

        if found.n.pn == 0 {
            found.n.hand = self.proof_hand(pos, or, &children);
        }
        self.path.pop();
        self.path_filter[key as usize % PATH_FILTER] -= 1;
        self.frames[ply] = children;
        if !self.aborted && !self.out_of_budget {
            // A disproof that rests on a repetition of a position above
            // this one is not kept: reached otherwise, it may mate. One that
            // rests only on repetitions of this position or below is sound.
            if found.rep as usize >= ply {
                found.rep = NO_REP;
            }
            if found.rep == NO_REP {
                let work = self.nodes - start_nodes + 1;
                // A disproof is kept with all it shows, which may reach
                // beyond this search's limit (a disproof of the unlimited
                // search below, or no check at all).
                let plies = if found.n.dn == 0 {
                    debug_assert!(found.n.len >= left, "{} < {left}", found.n.len);
                    found.n.len.max(left)
                } else {
                    left
                };
                self.table.store(key, hand, found.n, work, plies);
                if found.n.pn != 0 && found.n.dn != 0 {
                    if let Some(&(pk, ph)) = self.path.last() {
                        self.table.link(key, hand, pk, ph);
                    }
                }
            }
        }
        found
    }

    /// Whether the position (`child`) the search is about to enter from the
    /// node at `ply` (`here`) was last searched from another position whose
    /// table links lead up to an AND node of the path by another defence
    /// than the path's: then the proof number there counts the positions
    /// below the join twice (KomoringHeights' double-count elimination; at
    /// OR nodes the checks are not summed). Returns the ply of that AND node
    /// and its other defence's position.
    fn find_merge(
        &mut self,
        child: (u64, u64),
        here: (u64, u64),
        ply: usize,
    ) -> Option<(usize, (u64, u64))> {
        let (mut k, mut h) = child;
        let mut last_pn = INF;
        for step in 0..MERGE_WALK {
            let (pn, pk, ph) = self.table.parent(k, h)?;
            if step == 0 && (pk, ph) == here {
                return None;
            }
            // A proof number well above the one below it comes mostly from
            // other children: the join hardly counts there.
            if pn > last_pn.saturating_add(MERGE_GAP) {
                return None;
            }
            if self.path_filter[pk as usize % PATH_FILTER] != 0 {
                if let Some(at) = self.path[..=ply]
                    .iter()
                    .rposition(|&(a, b)| a == pk && b == ph)
                {
                    return (at % 2 == 1).then_some((at, (k, h)));
                }
            }
            last_pn = pn;
            (k, h) = (pk, ph);
        }
        None
    }

    /// The proof hand of a proven node: at OR nodes the shortest proven
    /// child's, plus a dropped piece and less a captured one; at AND nodes
    /// the union of the children's, raised by `withheld`.
    fn proof_hand<W: BitWord>(&self, pos: &mut Position<W>, or: bool, children: &[Child]) -> u64 {
        let here = self.attacker_hand(pos).to_le_bytes();
        if or {
            let Some(c) = children
                .iter()
                .filter(|c| c.n.pn == 0)
                .min_by_key(|c| c.n.len)
            else {
                return self.attacker_hand(pos);
            };
            pos.do_move(c.mv);
            let after = self.attacker_hand(pos).to_le_bytes();
            pos.undo_move();
            let child = c.n.hand.to_le_bytes();
            let mut out = [0u8; 8];
            for k in 0..8 {
                let dropped = here[k].saturating_sub(after[k]);
                out[k] = here[k].min(child[k] + dropped);
            }
            u64::from_le_bytes(out)
        } else {
            let mut out = [0u8; 8];
            for c in children.iter().filter(|c| !c.hidden) {
                for (o, h) in out.iter_mut().zip(c.n.hand.to_le_bytes()) {
                    *o = (*o).max(h);
                }
            }
            for k in 0..8 {
                out[k] = out[k].min(here[k]);
            }
            self.withheld(pos, u64::from_le_bytes(out))
        }
    }
}

/// Marks `children[best]` and the child reaching position `way` (board key
/// and attacker hand) as joining below (`Child::merged`); false if they
/// were already, or `way` is not among the children.
fn merge(children: &mut [Child], best: usize, way: (u64, u64)) -> bool {
    let Some(other) = children
        .iter()
        .position(|c| !c.hidden && (c.key, c.hand) == way)
    else {
        return false;
    };
    if other == best || children[best].merged && children[other].merged {
        return false;
    }
    children[best].merged = true;
    children[other].merged = true;
    true
}

/// Whether the attacker to move mates at once (None: it has no check).
fn mate_in_one<W: BitWord>(pos: &mut Position<W>) -> Option<bool> {
    let checks = pos.legal_checks();
    if checks.is_empty() {
        return None;
    }
    let mates = checks.iter().any(|&m| {
        pos.do_move(m);
        let mated = !pos.has_legal_move();
        pos.undo_move();
        mated
    });
    Some(mates)
}

/// Checks of the attacker to move, the drops on one square counted once.
fn check_count<W: BitWord>(pos: &Position<W>) -> u32 {
    pos.count_checks_by_square()
}

/// Evasions of the defender to move, with the drops on one square counted
/// once (as `expand` searches them).
fn evasion_count<W: BitWord>(pos: &Position<W>) -> u32 {
    pos.count_evasions_by_square()
}

#[cfg(test)]
mod tests;
