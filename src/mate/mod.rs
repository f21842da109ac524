//! Tsume (checkmate problem) solving for `go mate`: a df-pn search over
//! checks and evasions (`dfpn`) on a table with hand superiority (`table`),
//! and the answer line read back from the table: the attacker's shortest
//! proven mate against the defender's longest defence, or, when the search
//! for it runs out of budget, a line read within the last bound it proved,
//! shortened from its end and then lengthened where a defence is shown (on
//! a small budget) to last longer than the line's. Lengths count every
//! ply, as KomoringHeights (the reference data's solver) does; only reading
//! a line within a bound counts a dropped interposition between the king and
//! a far checker 2 plies short (a crude 無駄合, useless interposition), to
//! steer past defences that merely lengthen the mate by their capture.
//!
//! The attacker is the side to move; it may have no king. Every variant
//! works: Heian has no drops, and a bare king there is not a mate.

pub mod dfpn;
pub mod table;

pub use dfpn::{DfPn, MAX_MATE_PLY};
pub use table::{AllocError, MateTable, Numbers, INF, NO_LIMIT};

use crate::core::{BitWord, Bitboard};
use crate::position::{Move, Position};
use std::time::{Duration, Instant};

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A mate: the whole line, ending in checkmate.
    Mate(Vec<Move>),
    /// Proven that no mate by checks exists.
    NoMate,
    /// Stopped (time or `stop`) before an answer.
    Timeout,
}

/// Progress of a running solve.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the start.
    pub time_ms: u64,
    /// Table use, per thousand.
    pub hashfull: u32,
}

/// Nodes the search for the shortest mate may take beyond as many as the
/// proof took.
const REFINE_NODES: u64 = 200_000;

/// Fewest nodes each step of shortening a line read from the proof trees
/// may take.
const POLISH_STEP_NODES: u64 = 20_000;

/// How often a running solve reports progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Solves `root` (attacker to move) with a table of `table_mb` MB, within
/// `time` (None: until `stop()`), reporting through `on_progress` about once
/// a second and once at the end.
pub fn solve<W: BitWord>(
    root: &Position<W>,
    table_mb: usize,
    time: Option<Duration>,
    stop: &dyn Fn() -> bool,
    on_progress: &mut dyn FnMut(MateProgress),
) -> Result<MateAnswer, AllocError> {
    let mut table = MateTable::try_new(table_mb)?;
    let start = Instant::now();
    let mut last_report = start;
    let mut poll = |nodes: u64, table: &MateTable| -> bool {
        let now = Instant::now();
        if now.duration_since(last_report) >= PROGRESS_EVERY {
            last_report = now;
            on_progress(MateProgress {
                nodes,
                time_ms: now.duration_since(start).as_millis() as u64,
                hashfull: table.hashfull(),
            });
        }
        stop() || time.is_some_and(|t| now.duration_since(start) >= t)
    };
    let mut pos = root.clone();
    let attacker = pos.side_to_move();
    let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut poll);
    let n = dfpn.solve(&mut pos);
    let answer = if dfpn.aborted {
        MateAnswer::Timeout
    } else if n.pn == 0 {
        // A first line from the proof trees, the answer if time runs out
        // before the shortest one is known.
        let first = bounded_line(&mut dfpn, &mut pos, n.len);
        let proof_nodes = dfpn.nodes;
        // Making sure of the shortest mate may take far longer than the
        // proof (disproving every shorter mate): a budget of nodes.
        dfpn.node_budget = dfpn.nodes.saturating_mul(2).saturating_add(REFINE_NODES);
        log::debug!(
            "mate: proven, proof tree {} plies, first line {:?} plies, {} nodes",
            n.len,
            first.as_ref().map(Vec::len),
            dfpn.nodes
        );
        let line = match shortest_line(&mut dfpn, &mut pos, n.len) {
            Refined::Exact(line) => {
                log::debug!(
                    "mate: shortest line {} plies, {} nodes",
                    line.len(),
                    dfpn.nodes
                );
                Some(line)
            }
            Refined::Within(bound) => {
                // The bound's proof trees give a line close to it; the first
                // line is kept for when the table lost too much of them.
                let bounded = bounded_line(&mut dfpn, &mut pos, bound);
                log::debug!(
                    "mate: a mate within {bound} plies, a line of {:?} plies read within it, {} nodes",
                    bounded.as_ref().map(Vec::len),
                    dfpn.nodes
                );
                bounded.or(first).map(|line| {
                    // About half a proof's nodes per attacker move, so that
                    // a long line's far tails get searches of some size.
                    let step = (proof_nodes * 3 / line.len() as u64).max(POLISH_STEP_NODES);
                    let line = polish(&mut dfpn, &mut pos, line, step);
                    lengthen(&mut dfpn, &mut pos, line)
                })
            }
        };
        match line {
            Some(line) => MateAnswer::Mate(line),
            None => MateAnswer::Timeout,
        }
    } else {
        MateAnswer::NoMate
    };
    let nodes = dfpn.nodes;
    drop(dfpn);
    on_progress(MateProgress {
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
        hashfull: table.hashfull(),
    });
    Ok(answer)
}

/// What the search for the shortest mate found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refined {
    /// The shortest mate against the longest defence.
    Exact(Vec<Move>),
    /// Stopped or out of budget first: the shortest mate proven is within
    /// this many plies.
    Within(u16),
}

/// The shortest mate against the longest defence, from a root proven with a
/// mate of `len` plies: proves mates of `len - 2`, `len - 4`, ... plies
/// until one fails, then reads a line of exactly the shortest length.
pub fn shortest_line<W: BitWord>(dfpn: &mut DfPn<'_>, pos: &mut Position<W>, len: u16) -> Refined {
    let mut shortest = len;
    while shortest >= 3 {
        dfpn.limit = shortest - 2;
        let n = dfpn.solve(pos);
        if dfpn.aborted || dfpn.out_of_budget {
            log::debug!(
                "mate: no budget left to prove a mate within {}",
                shortest - 2
            );
            dfpn.limit = NO_LIMIT;
            return Refined::Within(shortest);
        }
        log::trace!(
            "mate: within {} plies: {}, {} nodes",
            shortest - 2,
            if n.pn == 0 { "proven" } else { "disproven" },
            dfpn.nodes
        );
        if n.pn != 0 {
            break;
        }
        shortest = n.len.min(shortest - 2);
    }
    log::debug!("mate: shortest mate {shortest} plies");
    let line = exact_line(dfpn, pos, shortest);
    dfpn.limit = NO_LIMIT;
    line.map_or(Refined::Within(shortest), Refined::Exact)
}

/// Nodes a move the table lost may take to be proven again while a line is
/// read within a bound.
const RESOLVE_NODES: u64 = 200_000;

/// A mate line within a proven bound of `plies`: at each step the attacker's
/// check with the shortest mate the table knows and the defence with the
/// longest, among those proven within the plies left (a move the table lost
/// is proven again). After the searches for shorter mates these bounds are
/// tight along the principal line, where the first proof trees' were not.
/// None if stopped, or if a lost move is not proven again on a small budget.
fn bounded_line<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    plies: u16,
) -> Option<Vec<Move>> {
    let attacker = pos.side_to_move();
    let mut line = Vec::new();
    let mut seen = Vec::new();
    let mut left = plies;
    let result = loop {
        if dfpn.aborted {
            break None;
        }
        seen.push(pos.hash());
        let or = pos.side_to_move() == attacker;
        let moves = if or {
            pos.legal_checks()
        } else {
            pos.legal_moves()
        };
        if !or && moves.is_empty() {
            break pos.in_check().then_some(());
        }
        if left == 0 {
            break None;
        }
        let checkers = pos.checkers();
        // (effective length, move) of the best proven move so far.
        let mut best: Option<(i32, Move)> = None;
        let mut refuted = false;
        // The attacker's checks are solved again only if the table proves
        // none of them; every defence must be proven.
        for pass in 0..2 {
            if pass == 1 && (!or || best.is_some()) {
                break;
            }
            for &m in moves.iter() {
                let useless = !or && is_drop_interposition(pos, checkers, m);
                pos.do_move(m);
                let repeated = seen.contains(&pos.hash());
                let mut n = dfpn.probe_shortest(pos).filter(|n| n.len < left);
                if or && n.is_none() && !pos.has_legal_move() {
                    n = Some(Numbers {
                        pn: 0,
                        dn: INF,
                        len: 0,
                        hand: 0,
                    });
                }
                if n.is_none() && !repeated && (!or || pass == 1) {
                    // On a budget of its own: the caller's is left as it was.
                    let budget = (dfpn.node_budget, dfpn.out_of_budget);
                    dfpn.limit = left - 1;
                    dfpn.out_of_budget = false;
                    dfpn.node_budget = dfpn.nodes.saturating_add(RESOLVE_NODES);
                    n = Some(dfpn.solve(pos)).filter(|n| n.pn == 0);
                    dfpn.limit = NO_LIMIT;
                    (dfpn.node_budget, dfpn.out_of_budget) = budget;
                }
                pos.undo_move();
                let proven = n.filter(|_| !repeated);
                let Some(n) = proven else {
                    if !or {
                        refuted = true;
                        break;
                    }
                    continue;
                };
                let len = n.len as i32 - if useless { 2 } else { 0 };
                let better = best.is_none_or(|(b, _)| if or { len < b } else { len > b });
                if better {
                    best = Some((len, m));
                }
                if or && pass == 1 {
                    break;
                }
            }
        }
        if refuted {
            break None;
        }
        let Some((_, m)) = best else { break None };
        line.push(m);
        pos.do_move(m);
        left -= 1;
    };
    for _ in 0..line.len() {
        pos.undo_move();
    }
    result.map(|_| line)
}

/// Shortens a mate line read from the proof trees from its end backwards:
/// from each attacker position, a shorter mate against the longest defence
/// (`shortest_line` on `step_nodes` nodes, or a line within the shorter
/// bound it proved) replaces the rest of the line. Proof trees' lengths are
/// only bounds, and a long line can carry a detour far from the root that a
/// search there removes (in ミクロコスモス, a piece stepping aside and back).
fn polish<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    mut line: Vec<Move>,
    step_nodes: u64,
) -> Vec<Move> {
    let before = line.len();
    let mut i = (line.len() - 1) & !1;
    loop {
        if dfpn.aborted {
            break;
        }
        let rest = line.len() - i;
        if rest >= 3 {
            for &m in &line[..i] {
                pos.do_move(m);
            }
            dfpn.out_of_budget = false;
            dfpn.node_budget = dfpn.nodes.saturating_add(step_nodes);
            let tail = match shortest_line(dfpn, pos, rest as u16) {
                Refined::Exact(tail) => Some(tail),
                // A shorter mate proven, not yet the shortest.
                Refined::Within(bound) if (bound as usize) < rest => bounded_line(dfpn, pos, bound),
                // Nothing shorter found: the search may have spent itself on
                // the line's own move, whose tail is already polished.
                Refined::Within(_) => {
                    let later: Vec<Move> = line[i..]
                        .iter()
                        .step_by(2)
                        .skip(1)
                        .take(4)
                        .copied()
                        .collect();
                    a_later_check_sooner(dfpn, pos, &later, rest as u16, step_nodes)
                }
            };
            for _ in 0..i {
                pos.undo_move();
            }
            if let Some(tail) = tail.filter(|t| t.len() < rest) {
                line.truncate(i);
                line.extend(tail);
            }
        }
        if i < 2 {
            break;
        }
        i -= 2;
    }
    log::debug!("mate: line polished from {before} to {} plies", line.len());
    line
}

/// A mate shorter than `rest` plies that starts with one of the line's
/// `later` checks played now, each tried on `step_nodes`: a line can carry
/// a detour (in ミクロコスモス, a piece stepping aside and back while the
/// king follows) that a later check played sooner cuts out, transposing
/// into the line's tail, which is proven already.
fn a_later_check_sooner<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    later: &[Move],
    rest: u16,
    step_nodes: u64,
) -> Option<Vec<Move>> {
    let checks = pos.legal_checks();
    for &c in later.iter().filter(|c| checks.contains(c)) {
        if dfpn.aborted {
            break;
        }
        dfpn.out_of_budget = false;
        dfpn.node_budget = dfpn.nodes.saturating_add(step_nodes);
        let mated = mates_within(dfpn, pos, c, rest - 3);
        dfpn.limit = NO_LIMIT;
        log::trace!("mate: a later check sooner, within {}: {mated}", rest - 3);
        if !mated {
            continue;
        }
        pos.do_move(c);
        let bound = dfpn
            .probe_shortest(pos)
            .map_or(rest - 3, |n| n.len.min(rest - 3));
        let tail = bounded_line(dfpn, pos, bound);
        pos.undo_move();
        if let Some(tail) = tail {
            return Some([vec![c], tail].concat());
        }
    }
    None
}

/// Nodes each check of a defence against a line may take.
const LENGTHEN_STEP_NODES: u64 = 2_000;

/// Most defences `lengthen` replaces.
const LENGTHEN_ROUNDS: usize = 32;

/// Checks a shortened line's defences from its end backwards: a defence
/// shown (on a small budget) not to be mated within the plies the line's
/// own defence takes is longer, and replaces it, with a shortened line read
/// from the proof trees after it.
fn lengthen<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    mut line: Vec<Move>,
) -> Vec<Move> {
    let mut rounds = 0;
    let last_defence = |len: usize| if len >= 2 { (len - 2) | 1 } else { 0 };
    let mut j = last_defence(line.len());
    while j >= 1 && rounds < LENGTHEN_ROUNDS && !dfpn.aborted {
        for &m in &line[..j] {
            pos.do_move(m);
        }
        let t = (line.len() - j) as u16;
        let mut longer = None;
        for d in pos.legal_moves() {
            if d == line[j] {
                continue;
            }
            dfpn.out_of_budget = false;
            dfpn.node_budget = dfpn.nodes.saturating_add(LENGTHEN_STEP_NODES);
            // A line ends with the attacker's move: `t` is at least 2.
            let mated = mates_within(dfpn, pos, d, t - 1);
            dfpn.limit = NO_LIMIT;
            if !mated && !dfpn.out_of_budget && !dfpn.aborted {
                longer = Some(d);
                break;
            }
        }
        let tail = longer.and_then(|d| {
            pos.do_move(d);
            dfpn.out_of_budget = false;
            dfpn.node_budget = dfpn.nodes.saturating_add(POLISH_STEP_NODES * 10);
            // Proven (the table may have lost it), then read and shortened.
            let n = dfpn.solve(pos);
            let tail = if n.pn == 0 {
                bounded_line(dfpn, pos, n.len)
            } else {
                None
            };
            let tail = tail.map(|t| polish(dfpn, pos, t, POLISH_STEP_NODES));
            pos.undo_move();
            tail.map(|t| (d, t))
        });
        for _ in 0..j {
            pos.undo_move();
        }
        match tail {
            // A defence proven to last longer is taken even if the line read
            // after it is not longer yet: the walk from the end lengthens
            // that line's own defences in turn.
            Some((d, t)) => {
                log::debug!(
                    "mate: defence {j} lengthened from {} to {}",
                    line.len() - j,
                    t.len() + 1
                );
                line.truncate(j);
                line.push(d);
                line.extend(t);
                rounds += 1;
                j = last_defence(line.len());
            }
            _ => {
                if j < 2 {
                    break;
                }
                j -= 2;
            }
        }
    }
    line
}

/// Whether the position after `m` has a mate within `plies` (solved if the
/// table does not know).
fn mates_within<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    m: Move,
    plies: u16,
) -> bool {
    pos.do_move(m);
    let n = match dfpn.probe(pos, plies) {
        Some(n) if n.pn == 0 || n.dn == 0 => n,
        _ => {
            dfpn.limit = plies;
            dfpn.solve(pos)
        }
    };
    pos.undo_move();
    n.pn == 0
}

/// A mate line of exactly `plies` from a position whose shortest mate
/// against the longest defence has that length: each attacker move keeps a
/// mate within the plies left, each defender move is one after which no
/// shorter mate exists.
fn exact_line<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    plies: u16,
) -> Option<Vec<Move>> {
    let attacker = pos.side_to_move();
    let mut line = Vec::new();
    let mut left = plies;
    let result = loop {
        if dfpn.aborted || dfpn.out_of_budget {
            break None;
        }
        let or = pos.side_to_move() == attacker;
        let moves = pos.legal_moves();
        if left == 0 {
            break (!or && moves.is_empty() && pos.in_check()).then_some(());
        }
        let mut chosen = None;
        if or {
            // Checks the table already proves short first, then the others
            // by the length of their proof trees (disproving is the cost).
            let mut order: Vec<(u16, Move)> = pos
                .legal_checks()
                .into_iter()
                .map(|m| {
                    pos.do_move(m);
                    let known = dfpn.probe(pos, left - 1).filter(|n| n.pn == 0);
                    let len = dfpn.probe(pos, NO_LIMIT).filter(|n| n.pn == 0);
                    pos.undo_move();
                    let rank = if known.is_some() {
                        0
                    } else {
                        len.map_or(u16::MAX, |n| n.len.saturating_add(1))
                    };
                    (rank, m)
                })
                .collect();
            order.sort_by_key(|&(rank, _)| rank);
            for (_, m) in order {
                if mates_within(dfpn, pos, m, left - 1) {
                    chosen = Some(m);
                    break;
                }
            }
        } else {
            // Every defence is mated within `left - 1`; the longest is one
            // that is not mated within `left - 3`. Tried longest-looking
            // first (by the proof trees' lengths), as proving the others
            // short is cheap and disproving is not.
            let mut order: Vec<(u16, Move)> = moves
                .iter()
                .map(|&m| {
                    pos.do_move(m);
                    let len = dfpn.probe(pos, NO_LIMIT).map_or(u16::MAX, |n| n.len);
                    pos.undo_move();
                    (len, m)
                })
                .collect();
            order.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
            for (_, m) in order {
                if left < 3 || !mates_within(dfpn, pos, m, left - 3) {
                    chosen = Some(m);
                    break;
                }
            }
        }
        let Some(m) = chosen else { break None };
        line.push(m);
        pos.do_move(m);
        left -= 1;
    };
    for _ in 0..line.len() {
        pos.undo_move();
    }
    result.map(|_| line)
}

/// Whether the defender's move `m` drops a piece between its king and a
/// single distant checker (an interposition the attacker may simply take).
fn is_drop_interposition<W: BitWord>(pos: &Position<W>, checkers: Bitboard<W>, m: Move) -> bool {
    if !m.is_drop() || checkers.more_than_one() || checkers.is_empty() {
        return false;
    }
    let t = pos.tables();
    let ksq = pos.king_square(pos.side_to_move());
    t.between(ksq, checkers.lowest()).has(m.to())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn solve_sfen(variant: &str, sfen: &str) -> MateAnswer {
        let v = Variant::by_name(variant).unwrap();
        let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        solve(
            &pos,
            16,
            Some(Duration::from_secs(20)),
            &|| false,
            &mut |_| {},
        )
        .unwrap()
    }

    fn usi(answer: &MateAnswer, variant: &str) -> Vec<String> {
        let v = Variant::by_name(variant).unwrap();
        match answer {
            MateAnswer::Mate(line) => line.iter().map(|m| m.to_usi(v)).collect(),
            other => panic!("expected a mate, got {other:?}"),
        }
    }

    #[test]
    fn mate_in_one_and_three() {
        // Head gold drop.
        let a = solve_sfen("shogi", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        assert_eq!(usi(&a, "shogi"), vec!["G*5b"]);
        let a = solve_sfen("shogi", "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1");
        assert_eq!(usi(&a, "shogi").len(), 3);
    }

    #[test]
    fn no_check_means_no_mate() {
        let a = solve_sfen("shogi", "4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1");
        assert_eq!(a, MateAnswer::NoMate);
    }

    /// Checks that `line` is a mate from `pos`: legal moves, the attacker's
    /// all checks, mate at the end.
    fn assert_mate_line(pos: &mut Position<u128>, line: &[Move], what: &str) {
        for (i, &m) in line.iter().enumerate() {
            assert!(pos.legal_moves().contains(&m), "{what}: ply {i}");
            pos.do_move(m);
            assert!(i % 2 == 1 || pos.in_check(), "{what}: ply {i}");
        }
        assert!(!pos.has_legal_move() && pos.in_check(), "{what}: not mate");
        for _ in line {
            pos.undo_move();
        }
    }

    /// Within a proven bound, a line is read at that bound once the
    /// searches for shorter mates have tightened the proof trees; within
    /// the first proof's bound alone it is still a mate, and no longer.
    #[test]
    fn a_line_is_read_within_a_bound() {
        for (sfen, published) in [
            ("9/9/9/1B7/9/7+S1/7+R1/9/8k b rb4g3s4n4l18p 1", 11),
            ("8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1", 15),
            ("6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1", 9),
        ] {
            let v = Variant::by_name("shogi").unwrap();
            let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let attacker = pos.side_to_move();
            let mut table = MateTable::try_new(16).unwrap();
            let mut poll = |_: u64, _: &MateTable| false;
            let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut poll);
            let n = dfpn.solve(&mut pos);
            assert_eq!(n.pn, 0, "{sfen}");
            let first = bounded_line(&mut dfpn, &mut pos, n.len).expect("a line");
            assert!(first.len() <= n.len as usize, "{sfen}");
            assert_mate_line(&mut pos, &first, sfen);
            let Refined::Exact(exact) = shortest_line(&mut dfpn, &mut pos, n.len) else {
                panic!("{sfen}: not refined");
            };
            assert_eq!(exact.len(), published, "{sfen}");
            let line = bounded_line(&mut dfpn, &mut pos, published as u16).expect("a line");
            assert_eq!(line.len(), published, "{sfen}");
            assert_mate_line(&mut pos, &line, sfen);
        }
    }

    /// A loop of four plies that leads back to the position it starts from
    /// (a check, a reply, a check, a reply), if one exists.
    fn a_loop(pos: &mut Position<u128>) -> Option<[Move; 4]> {
        let start = pos.hash();
        for c1 in pos.legal_checks() {
            pos.do_move(c1);
            for r1 in pos.legal_moves() {
                pos.do_move(r1);
                for c2 in pos.legal_checks() {
                    pos.do_move(c2);
                    for r2 in pos.legal_moves() {
                        pos.do_move(r2);
                        let back = pos.hash() == start;
                        pos.undo_move();
                        if back {
                            for _ in 0..3 {
                                pos.undo_move();
                            }
                            return Some([c1, r1, c2, r2]);
                        }
                    }
                    pos.undo_move();
                }
                pos.undo_move();
            }
            pos.undo_move();
        }
        None
    }

    /// A detour (a loop of four plies inserted into a solved line) is
    /// polished out: the line comes back to the published length.
    #[test]
    fn a_detour_is_polished_out() {
        let mut tried = 0;
        for (sfen, published) in [
            ("9/9/9/1B7/9/7+S1/7+R1/9/8k b rb4g3s4n4l18p 1", 11),
            ("8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1", 15),
            ("6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1", 9),
        ] {
            let v = Variant::by_name("shogi").unwrap();
            let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let MateAnswer::Mate(line) = solve_sfen("shogi", sfen) else {
                panic!("{sfen}: no mate");
            };
            assert_eq!(line.len(), published, "{sfen}");
            // The first attacker position along the line with a loop.
            let mut detour = None;
            let mut played = 0;
            for i in (0..line.len() - 1).step_by(2) {
                if let Some(l) = a_loop(&mut pos) {
                    detour = Some([&line[..i], &l[..], &line[i..]].concat());
                    break;
                }
                pos.do_move(line[i]);
                pos.do_move(line[i + 1]);
                played += 2;
            }
            for _ in 0..played {
                pos.undo_move();
            }
            let Some(detour) = detour else { continue };
            tried += 1;
            assert_mate_line(&mut pos, &detour, sfen);
            let attacker = pos.side_to_move();
            let mut table = MateTable::try_new(16).unwrap();
            let mut poll = |_: u64, _: &MateTable| false;
            let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut poll);
            let polished = polish(&mut dfpn, &mut pos, detour, POLISH_STEP_NODES);
            assert_eq!(polished.len(), published, "{sfen}");
            assert_mate_line(&mut pos, &polished, sfen);
        }
        assert!(tried >= 2, "{tried} problems with a loop");
    }

    /// A line whose first defence is not the longest (a shorter mate after
    /// another defence) is lengthened back to the published length.
    #[test]
    fn a_short_defence_is_lengthened() {
        let mut tried = 0;
        for (sfen, published) in [
            ("9/9/9/1B7/9/7+S1/7+R1/9/8k b rb4g3s4n4l18p 1", 11),
            ("6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1", 9),
            ("8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1", 15),
        ] {
            let v = Variant::by_name("shogi").unwrap();
            let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let MateAnswer::Mate(line) = solve_sfen("shogi", sfen) else {
                panic!("{sfen}: no mate");
            };
            assert_eq!(line.len(), published, "{sfen}");
            let attacker = pos.side_to_move();
            let mut table = MateTable::try_new(16).unwrap();
            let mut poll = |_: u64, _: &MateTable| false;
            let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut poll);
            pos.do_move(line[0]);
            // The quickest-mated other first defence, and its mate.
            let mut short: Option<Vec<Move>> = None;
            for d in pos.legal_moves() {
                if d == line[1] {
                    continue;
                }
                pos.do_move(d);
                dfpn.limit = NO_LIMIT;
                let n = dfpn.solve(&mut pos);
                let tail = match (n.pn, n.pn == 0) {
                    (_, true) => match shortest_line(&mut dfpn, &mut pos, n.len) {
                        Refined::Exact(t) => Some(t),
                        Refined::Within(_) => None,
                    },
                    _ => None,
                };
                pos.undo_move();
                if let Some(t) = tail.filter(|t| t.len() + 2 < published) {
                    if short.as_ref().is_none_or(|s| t.len() + 1 < s.len()) {
                        short = Some([vec![d], t].concat());
                    }
                }
            }
            pos.undo_move();
            let Some(short) = short else { continue };
            tried += 1;
            let bad = [vec![line[0]], short].concat();
            assert!(bad.len() < published);
            let fixed = lengthen(&mut dfpn, &mut pos, bad.clone());
            assert_eq!(fixed.len(), published, "{sfen}: from {}", bad.len());
            assert_mate_line(&mut pos, &fixed, sfen);
        }
        assert!(tried >= 2, "{tried}");
    }

    /// Mate within `plies` by brute force over checks and evasions.
    fn mates_by_force(pos: &mut Position<u128>, plies: u16, attacker: crate::core::Color) -> bool {
        if pos.side_to_move() == attacker {
            if plies == 0 {
                return false;
            }
            pos.legal_checks().into_iter().any(|m| {
                pos.do_move(m);
                let r = mates_by_force(pos, plies - 1, attacker);
                pos.undo_move();
                r
            })
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return true;
            }
            plies > 0
                && moves.into_iter().all(|m| {
                    pos.do_move(m);
                    let r = mates_by_force(pos, plies - 1, attacker);
                    pos.undo_move();
                    r
                })
        }
    }

    /// The length-limited search agrees with brute force on short limits,
    /// on the positions along solved lines (mates of every distance) of
    /// several problems, in three variants.
    #[test]
    fn limited_search_agrees_with_brute_force() {
        let mut checked = 0;
        for (variant, sfen) in [
            ("shogi", "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"),
            ("shogi", "6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1"),
            ("shogi", "8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1"),
            ("yarishogi", "6k/7/6P/7/7/7/7/7/7 b 2R 1"),
            ("judkins", "5k/6/5P/6/6/6 b GS 1"),
        ] {
            let v = Variant::by_name(variant).unwrap();
            let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            let attacker = pos.side_to_move();
            let MateAnswer::Mate(line) = solve_sfen(variant, sfen) else {
                panic!("{sfen}: no mate");
            };
            for (i, &m) in line.iter().enumerate() {
                if pos.side_to_move() == attacker {
                    let mut table = MateTable::try_new(4).unwrap();
                    let mut poll = |_: u64, _: &MateTable| false;
                    let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut poll);
                    for plies in [1u16, 3, 5] {
                        dfpn.limit = plies;
                        let n = dfpn.solve(&mut pos);
                        let want = mates_by_force(&mut pos, plies, attacker);
                        assert_eq!(n.pn == 0, want, "{sfen} after {i} plies, mate in {plies}");
                        assert!(n.pn == 0 || n.dn == 0);
                        checked += 1;
                    }
                }
                pos.do_move(m);
            }
        }
        assert!(checked >= 20, "{checked}");
    }
}
