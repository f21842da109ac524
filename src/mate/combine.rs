//! How an expanded node's proof and disproof numbers come from its
//! children's (df-pn's rules, with the sums that tell a king of three
//! flights from one of a single flight), and the mate length and
//! repetition a result carries up. The child record (`Child`) and the
//! result values (`UNKNOWN`, `DISPROVEN`, `disproven_within`) live here:
//! the search (`dfpn`) builds and reads them, this module only reads them,
//! so the dependency runs one way.

use super::table::{Numbers, INF, NO_LIMIT};
use crate::position::Move;

/// A node's numbers from its children's: OR takes the least proof number and
/// for the disproof number the `delta` of its children, AND the least
/// disproof number and for the proof number the `delta`. Also the mate length when
/// proven (shortest for the attacker, longest for the defender) and, when
/// disproven, the highest position on the path the disproof rests on a
/// repetition of (`NO_REP`: none).
pub(super) fn summarize(children: &[Child], or: bool) -> (Numbers, u16) {
    let mut pn_min = INF;
    let mut dn_min = INF;
    let mut len_min = u16::MAX;
    let mut len_max = 0u16;
    // Disproven children: the least reach and the highest repetition
    // (every one counts at OR), and the best disproof (at AND: the one
    // resting least on the path, then with the greatest reach).
    let mut reach_min = NO_LIMIT;
    let mut rep_min = NO_REP;
    let mut best_disproof: Option<(u16, u16)> = None;
    for c in children.iter().filter(|c| !c.hidden) {
        pn_min = pn_min.min(c.n.pn);
        dn_min = dn_min.min(c.n.dn);
        if c.n.pn == 0 {
            len_min = len_min.min(c.n.len);
            len_max = len_max.max(c.n.len);
        }
        if c.n.dn == 0 {
            reach_min = reach_min.min(c.n.len);
            rep_min = rep_min.min(c.rep);
            best_disproof = best_disproof.max(Some((c.rep, c.n.len)));
        }
    }
    let sum = delta(children, or, None).total();
    let (pn_sum, dn_sum) = if or { (0, sum) } else { (sum, 0) };
    if or {
        if children.is_empty() {
            // No check: no mate.
            return (DISPROVEN, NO_REP);
        }
        if dn_sum == 0 {
            return (disproven_within(reach_min.saturating_add(1), true), rep_min);
        }
        let len = if pn_min == 0 { len_min + 1 } else { 0 };
        (
            Numbers {
                pn: pn_min,
                dn: dn_sum,
                len,
                hand: 0,
            },
            NO_REP,
        )
    } else {
        if children.is_empty() {
            // Checked with no legal move: mate.
            // Mated (`mid` sets the proof hand).
            return (
                Numbers {
                    pn: 0,
                    dn: INF,
                    ..UNKNOWN
                },
                NO_REP,
            );
        }
        let len = if pn_sum == 0 { len_max + 1 } else { 0 };
        if let Some((rep, reach)) = best_disproof {
            return (disproven_within(reach.saturating_add(1), false), rep);
        }
        (
            Numbers {
                pn: pn_sum,
                dn: dn_min,
                len,
                hand: 0,
            },
            NO_REP,
        )
    }
}

/// At AND nodes, how many open interpositions besides the largest add one
/// to the proof number (at OR nodes each other open check adds one).
/// Interpositions on different squares between the king and a far checker
/// mostly lead to like positions (the checker takes, or the king is mated
/// the same way behind the piece), and each square counted as one more made
/// a far check look harder at every level of a chain of interpositions (the
/// attacker's line in 図巧8 runs the defender's pawns one by one into a
/// dragon's file): 図巧8's first proof took 24.6M nodes, 13.1M with this;
/// the position 12 plies in along its 3b3c defence 4.9M, 1.35M (counting only
/// the largest: 13.6M and 1.40M; one per two: 21.4M, 3.1M; summing those on
/// squares the defender holds, as real defences: over 30M, and 4.2M).
pub(super) const INTERPOSITIONS_PER_UNIT: u32 = 4;

/// The summed number of a node (the disproof number at OR, the proof number
/// at AND) in two parts: a sum over the children counted in full
/// (`summed`), and over the others (moves that mostly lead to the same
/// positions) the largest plus what the other open children add (`others`).
#[derive(Copy, Clone, Default)]
pub(super) struct Delta {
    /// Sum over the children counted in full.
    sum: u32,
    /// The largest number among the others.
    max: u32,
    /// How many of the others are open (number not 0).
    open: u32,
    /// Whether a child's number is `INF`.
    decided: bool,
    /// Whether the node is an OR node.
    or: bool,
}

impl Delta {
    /// The node's number. Only a child's `INF` (a node decided) makes it
    /// `INF`: sums of open children's numbers stop short of it. Summed
    /// proof numbers grow fast where the same positions are counted along
    /// several paths, and an open `INF` read as a disproof: 無双73 (no mate)
    /// came back with pn `INF`, dn 15 after 7.1M nodes, a false `nomate`
    /// had it been a problem with a mate.
    pub(super) fn total(self) -> u32 {
        let most = if self.open == 0 {
            0
        } else {
            self.max.saturating_add(self.others(self.open - 1))
        };
        if self.decided {
            INF
        } else {
            self.sum.saturating_add(most).min(INF - 1)
        }
    }

    /// With `self` taken over a node's other children: what they add to a
    /// child's number in the node's (counted in full if `child_summed`,
    /// else as the largest of those not counted in full: the node reaches
    /// its threshold when the child reaches the threshold less this).
    pub(super) fn rest(self, child_summed: bool) -> u32 {
        if child_summed {
            self.total()
        } else {
            self.sum.saturating_add(self.others(self.open)).min(INF)
        }
    }

    /// What `n` open children besides the largest of those not counted in
    /// full add to the node's number.
    fn others(self, n: u32) -> u32 {
        if self.or {
            n
        } else {
            n / INTERPOSITIONS_PER_UNIT
        }
    }
}

/// Whether `c`'s number counts in full in its node's summed number: at AND
/// nodes the defender's moves that are not drops (king moves, captures of
/// the checker, pieces moved between). Their proofs are different work,
/// and counting them by the largest plus one made a king with three flights
/// look as easy as one with a single flight plus two: the search went deep
/// into wide defences it took for narrow. 図巧4's first proof took 20.1M
/// nodes (14.2M with the thresholds fixed), 0.2M now; 無双48's none in 30M,
/// 8.5M now. Drops (interpositions, one kind per square shown at a time)
/// mostly lead to the same positions, and the attacker's checks at OR nodes
/// often transpose; those count by the largest and a little for each other
/// (checks but where the attacker holds many pieces, see below)
/// (`Delta::others`; summing the checks' disproof numbers too took more
/// nodes on a sample of 38 classics solved in full: 38.3M against 36.6M;
/// 夢の旅人, a 313-ply loop, took 13.1M to its first proof summed, 31.3M
/// not, but 図巧8's 3b3c position below went from 1.33M to none in 2.5M,
/// summing only the checks that are not drops, or only at nodes of at most
/// 3 checks, too; summing the drops too left that position, see
/// `INTERPOSITIONS_PER_UNIT`, unproven after 20M nodes, 4.9M without).
/// Defences found to join another's subtree (`Child::merged`) count by the
/// largest. At OR nodes the checks count in full unless marked
/// (`Child::merged`), which `DfPn::mid` does where the attacker holds
/// fewer than `dfpn::SUM_CHECKS_HAND` pieces.
#[inline]
pub(super) fn summed(c: &Child, or: bool) -> bool {
    if or {
        !c.merged
    } else {
        !c.mv.is_drop() && !c.merged
    }
}

/// The summed number (dn at OR, pn at AND) over the shown children but
/// `skip`.
pub(super) fn delta(children: &[Child], or: bool, skip: Option<usize>) -> Delta {
    let mut d = Delta {
        or,
        ..Delta::default()
    };
    for (i, c) in children.iter().enumerate() {
        if c.hidden || Some(i) == skip {
            continue;
        }
        let x = if or { c.n.dn } else { c.n.pn };
        if x == 0 {
            continue;
        }
        d.decided |= x >= INF;
        if summed(c, or) {
            d.sum = d.sum.saturating_add(x);
        } else {
            d.max = d.max.max(x);
            d.open += 1;
        }
    }
    d
}

/// One move of an expanded node and what is known below it.
#[derive(Copy, Clone)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) n: Numbers,
    /// A drop of the same `group` as one before it (on the same square,
    /// or both on squares the defender does not guard): searched only once
    /// the shown ones of its group are proven (most interpositions fail
    /// alike, and the first proof usually covers the rest by hand
    /// superiority). The weakest kind comes first: its capture gives the
    /// attacker least, so it is the likeliest to hold.
    pub(super) hidden: bool,
    /// A defence whose subtree joins another defence's (found by
    /// `DfPn::find_merge`): counted as a drop is, by the largest, so the
    /// positions below the join are not counted twice in the proof number.
    /// At an OR node, a check counted by the largest (every check where
    /// the attacker holds fewer than `dfpn::SUM_CHECKS_HAND` pieces).
    pub(super) merged: bool,
    /// For a drop at an AND node, the drops it is shown in turn with
    /// (`hidden`): its square, or `UNGUARDED` for a drop on a square no
    /// piece of the defender guards.
    pub(super) group: u16,
    /// When disproven: the ply of the highest position on the path the
    /// disproof rests on a repetition of (`NO_REP`: none).
    pub(super) rep: u16,
    /// Board key after `mv`.
    pub(super) key: u64,
    /// The attacker's hand after `mv`, packed.
    pub(super) hand: u64,
}

/// `Child::group` of the drops on squares the defender does not guard
/// (squares are below it).
pub(super) const UNGUARDED: u16 = u16::MAX;

/// `rep` of a disproof that rests on no repetition (and of every result
/// that is not a disproof).
pub(super) const NO_REP: u16 = u16::MAX;

/// Numbers of a position not searched yet.
pub(super) const UNKNOWN: Numbers = Numbers {
    pn: 1,
    dn: 1,
    len: 0,
    hand: 0,
};

/// Numbers of a position without a mate (`len`: within any number of
/// plies).
pub(super) const DISPROVEN: Numbers = Numbers {
    pn: INF,
    dn: 0,
    len: NO_LIMIT,
    hand: 0,
};

/// Numbers of a position (attacker to move if `or`) with no mate within
/// `plies`: the reach is rounded up to the next length a mate could not
/// have (the attacker mates in an odd number of plies, the defender is
/// mated in an even number).
pub(super) fn disproven_within(plies: u16, or: bool) -> Numbers {
    let odd = plies % 2 == 1;
    let plies = if plies != NO_LIMIT && odd == or {
        plies + 1
    } else {
        plies
    };
    Numbers {
        len: plies,
        ..DISPROVEN
    }
}
