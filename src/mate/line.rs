//! Reading a mate line back from the solver's table: the shortest mate
//! against the longest defence once the searches for shorter mates have
//! found it (`shortest_line`), or a line within the last length they proved
//! (`bounded_line`).

use super::dfpn::DfPn;
use super::table::{Numbers, INF, NO_LIMIT};
use crate::core::{BitWord, Bitboard};
use crate::position::{Move, Position};

/// What the search for the shortest mate found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refined {
    /// The shortest mate against the longest defence.
    Exact(Vec<Move>),
    /// Stopped or out of budget first: the shortest mate proven is within
    /// this many plies; with the line read within it as soon as it was
    /// proven (a failed search for a shorter one may leave too little of its
    /// proof in the table to read it after).
    Within(u16, Option<Vec<Move>>),
}

/// The shortest mate against the longest defence, from a root proven with a
/// mate of `len` plies: proves mates of `len - 2`, `len - 4`, ... plies
/// until one fails, then reads a line of exactly the shortest length.
pub fn shortest_line<W: BitWord>(dfpn: &mut DfPn<'_>, pos: &mut Position<W>, len: u16) -> Refined {
    shortest_line_from(dfpn, pos, len, None)
}

/// `shortest_line`, its first search (a mate within `len - 2`) stopped
/// once the search has `first_budget` nodes if set (then it answers
/// `Refined::Within(len, None)`); the searches after it have the caller's
/// budget only.
pub(super) fn shortest_line_from<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    len: u16,
    mut first_budget: Option<u64>,
) -> Refined {
    let mut shortest = len;
    // The line read within the last bound this call proved.
    let mut read: Option<Vec<Move>> = None;
    while shortest >= 3 {
        dfpn.limit = shortest - 2;
        let budget = dfpn.node_budget;
        if let Some(first) = first_budget.take() {
            dfpn.node_budget = budget.min(first);
        }
        let n = dfpn.solve(pos);
        dfpn.node_budget = budget;
        if dfpn.aborted || dfpn.out_of_budget {
            log::debug!(
                "mate: no budget left to prove a mate within {}",
                shortest - 2
            );
            dfpn.limit = NO_LIMIT;
            return Refined::Within(shortest, read);
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
        read = read_now(dfpn, pos, shortest);
    }
    log::debug!("mate: shortest mate {shortest} plies");
    // The searches for shorter mates leave tight bounds along the line:
    // read within the shortest, a line usually has its length at once,
    // where `exact_line` disproves every defence's shorter mates again.
    let line = bounded_line(dfpn, pos, shortest)
        .filter(|line| line.len() == shortest as usize)
        .or_else(|| exact_line(dfpn, pos, shortest));
    dfpn.limit = NO_LIMIT;
    line.map_or(Refined::Within(shortest, None), Refined::Exact)
}

/// A line read within `plies`, just proven, from the table alone: cheap
/// while the proof is fresh, so it is done after every bound (none if the
/// table already lost part of it; `bounded_line` may then prove that again).
fn read_now<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    plies: u16,
) -> Option<Vec<Move>> {
    read_within(dfpn, pos, plies, 0)
}

/// Nodes a move the table lost may take to be proven again while a line is
/// read within a bound.
const RESOLVE_NODES: u64 = 200_000;

/// A mate line within a proven bound of `plies`: at each step the attacker's
/// check with the shortest mate the table knows and the defence with the
/// longest, among those proven within the plies left (a move the table lost
/// is proven again). After the searches for shorter mates these bounds are
/// tight along the principal line, where the first proof trees' were not.
/// None if a lost move is not proven again on a small budget, or, once
/// stopped, not proven in the table.
pub(super) fn bounded_line<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    plies: u16,
) -> Option<Vec<Move>> {
    read_within(dfpn, pos, plies, RESOLVE_NODES)
}

/// `bounded_line`, a lost move proven again on `resolve_nodes` (0: read
/// from the table alone).
fn read_within<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    plies: u16,
    resolve_nodes: u64,
) -> Option<Vec<Move>> {
    let attacker = pos.side_to_move();
    let mut line = Vec::new();
    let mut seen = Vec::new();
    let mut left = plies;
    let result = loop {
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
                // Stopped, the line is read from the table alone (at once).
                if n.is_none()
                    && !repeated
                    && (!or || pass == 1)
                    && !dfpn.aborted
                    && resolve_nodes > 0
                {
                    // On a budget of its own: the caller's is left as it was.
                    let budget = (dfpn.node_budget, dfpn.out_of_budget);
                    dfpn.limit = left - 1;
                    dfpn.out_of_budget = false;
                    dfpn.node_budget = dfpn.nodes.saturating_add(resolve_nodes);
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
    take_back(pos, line, result.is_some())
}

/// Undoes a walk's `line` on `pos`; the line if the walk reached a mate.
fn take_back<W: BitWord>(pos: &mut Position<W>, line: Vec<Move>, mated: bool) -> Option<Vec<Move>> {
    for _ in 0..line.len() {
        pos.undo_move();
    }
    mated.then_some(line)
}

/// Whether the position after `m` has a mate within `plies` (solved if the
/// table does not know).
pub(super) fn mates_within<W: BitWord>(
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
    take_back(pos, line, result.is_some())
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
    use super::super::testing::*;
    use super::*;
    use crate::variant::Variant;

    /// Within a proven bound, a line is read at that bound once the
    /// searches for shorter mates have tightened the proof trees; within
    /// the first proof's bound alone it is still a mate, and no longer.
    #[test]
    fn a_line_is_read_within_a_bound() {
        each_sample_proven(|dfpn, pos, len, sfen, published| {
            let first = bounded_line(dfpn, pos, len).expect("a line");
            assert!(first.len() <= len as usize, "{sfen}");
            assert_mate_line(pos, &first, sfen);
            let Refined::Exact(exact) = shortest_line(dfpn, pos, len) else {
                panic!("{sfen}: not refined");
            };
            assert_eq!(exact.len(), published, "{sfen}");
            // Within the shortest bound a line is at most that long (with
            // interpositions tried weakest first, sample-15's is 11 plies:
            // the table's bounds along it are not all tight).
            let line = bounded_line(dfpn, pos, published as u16).expect("a line");
            assert!(line.len() <= published, "{sfen}");
            assert_mate_line(pos, &line, sfen);
        });
    }

    /// A search for the shortest mate that runs out of budget after proving
    /// a shorter bound than the first proof's brings the line read within
    /// that bound as soon as it was proven (the failed search after it may
    /// overwrite what the line is read from). 図巧34: the first proof is 19
    /// plies, 17 is proven in about 300 nodes more, 15 fails after 130k.
    #[test]
    fn a_line_is_read_as_soon_as_a_bound_is_proven() {
        let sfen = "9/7lS/7pb/5S1B1/5rgk1/8p/4+R2G1/9/9 b SN2gs3n3l16p 1";
        let v = Variant::by_name("shogi").unwrap();
        let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        let refined = with_dfpn(&mut pos, 16, |dfpn, pos| {
            let n = dfpn.solve(pos);
            assert_eq!((n.pn, n.len), (0, 19));
            dfpn.node_budget = dfpn.nodes + 10_000;
            shortest_line(dfpn, pos, n.len)
        });
        let Refined::Within(17, Some(line)) = refined else {
            panic!("{refined:?}");
        };
        assert!(line.len() <= 17, "{line:?}");
        assert_mate_line(&mut pos, &line, sfen);
    }

    /// Once stopped, a line is still read from what the table holds, without
    /// searching: `stop` during the search for the shortest mate answers
    /// with the line within the bound proven so far.
    #[test]
    fn a_stopped_search_still_reads_a_line() {
        each_sample_proven(|dfpn, pos, len, sfen, _| {
            dfpn.aborted = true;
            let nodes = dfpn.nodes;
            let line = bounded_line(dfpn, pos, len).expect("a line");
            assert_eq!(dfpn.nodes, nodes, "{sfen}: searched after the stop");
            assert!(line.len() <= len as usize, "{sfen}");
            assert_mate_line(pos, &line, sfen);
        });
    }
}
