//! Tsume (checkmate problem) solving for `go mate`: a df-pn search over
//! checks and evasions (`dfpn`) on a table with hand superiority (`table`),
//! and the answer line read back from the table (`line`): the attacker's
//! shortest proven mate against the defender's longest defence, or, when the
//! search for it runs out of budget, a line read within the last bound it
//! proved, shortened from its end and then lengthened where another
//! defence is not shown mated within the line's plies (`polish`). Lengths
//! count every ply, as KomoringHeights (the reference data's solver) does;
//! only reading a line within a bound counts a dropped interposition
//! between the king and a far checker 2 plies short (a crude 無駄合, useless
//! interposition), to steer past defences that merely lengthen the mate by
//! their capture.
//!
//! The attacker is the side to move; it may have no king. Every variant
//! works: Heian has no drops, and a bare king there is not a mate.

mod combine;
pub mod dfpn;
pub mod line;
pub mod polish;
pub mod table;

pub use dfpn::{DfPn, MAX_MATE_PLY};
pub use table::{AllocError, MateTable, Numbers, INF, NO_LIMIT};

use crate::core::BitWord;
use crate::position::{Move, Position};
use line::{bounded_line, shortest_line, shortest_line_from, Refined};
use polish::{lengthen_in_walks, polish, POLISH_STEP_NODES};
use std::time::{Duration, Instant};

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A mate: the whole line, ending in checkmate, and how far it is shown
    /// the shortest.
    Mate(Vec<Move>, Shortness),
    /// Proven that no mate by checks exists.
    NoMate,
    /// Stopped (time or `stop`) before an answer.
    Timeout,
}

/// How far a mate answer is shown to be the shortest mate against the
/// longest defence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shortness {
    /// Proven: no shorter mate exists, and no defence lasts longer.
    Proven,
    /// Time or nodes ran out first: a mate within `bound` plies is proven,
    /// a shorter one neither proven nor ruled out, and the line is read
    /// within the bound. `defences`: every defence along the line was shown
    /// mated within the plies the line gives it.
    Bounded {
        /// The shortest length proven to hold a mate.
        bound: u16,
        /// Whether each defence on the line was shown the longest.
        defences: bool,
    },
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

/// Share of a time limit by the end of which the search for the shortest
/// mate stops (the rest is for reading and polishing a line if it has not
/// finished; polishing takes about as many nodes as the proof). At 0.6 the
/// 29 slowest classics at 60 s had 12 proven the shortest, at 0.75 16, with
/// the same lengths: the hard step is disproving a mate 2 plies shorter
/// (10M to 50M nodes), and every line answered at the deadline was as long
/// as the bound, so the polishing rarely needed its time.
const REFINE_TIME_SHARE: f64 = 0.75;

/// Proof lengths (plies) from which, with a time limit, the first search
/// for a shorter mate (2 plies shorter) is given as many nodes as the proof
/// took and, if it runs out, the line read within the proof's bound is
/// polished and its defences checked (`polish_line`), and the search goes
/// on from the polished line's length. Proving two plies shorter re-proves
/// a long line whole, and a first step that costs more than the proof is
/// where a line carries detours far from the root that polishing removes
/// at once and the bounded searches one by one. ミクロコスモス (1525
/// plies): first proof 1585 at 22.96M nodes, "within 1583" 38.7M more, then
/// 13 more steps, 176.2M in all; polished, 1585 to 1525 in 43.4M, then
/// "none within 1523" in 11.4M: 100.8M. 寿 (611) proves its first step
/// within the budget and is searched as before (polished after the budget
/// of its whole search, its line read within 611 went to 105 plies by a
/// defence that is not the longest, and lengthening it cost more than
/// its search). The classics but 寿 are shorter.
const POLISH_FIRST_PLIES: u16 = 300;

/// Share of a time limit by the end of which a line read within a bound
/// stops being shortened: the rest is for checking its defences.
const POLISH_TIME_SHARE: f64 = 0.88;

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
    with_search(
        root,
        table_mb,
        time,
        stop,
        on_progress,
        |dfpn, pos, start| {
            let n = dfpn.solve(pos);
            if dfpn.aborted {
                MateAnswer::Timeout
            } else if n.pn == 0 {
                shortest_after_proof(dfpn, pos, n.len, start, time, POLISH_FIRST_PLIES)
            } else if n.dn == 0 {
                MateAnswer::NoMate
            } else {
                // Neither proven nor disproven (a search ends only so when it was
                // stopped; never read as "no mate").
                MateAnswer::Timeout
            }
        },
    )
}

/// The answer once the root is proven with a mate of `len` plies (`start`
/// and `time`: the solve's): the shortest mate against the longest
/// defence, or, if the search for it runs out of time or nodes, a line
/// read within the last bound proven and polished. `polish_from`: the
/// proof length from which a line is polished within the search for the
/// shortest (`POLISH_FIRST_PLIES`).
fn shortest_after_proof<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    len: u16,
    start: Instant,
    time: Option<Duration>,
    polish_from: u16,
) -> MateAnswer {
    // A first line from the proof trees, the answer if time runs out
    // before the shortest one is known.
    let first = bounded_line(dfpn, pos, len);
    let proof_nodes = dfpn.nodes;
    // Making sure of the shortest mate may take far longer than the
    // proof (disproving every shorter mate): a budget of as many nodes
    // as the proof, or with a time limit until a share of it if later.
    let budget = dfpn
        .nodes
        .saturating_add(proof_nodes)
        .saturating_add(REFINE_NODES);
    let refine_at = time.map(|t| start + t.mul_f64(REFINE_TIME_SHARE));
    // With a time limit, a long proof's first search for a shorter mate
    // is given the budget alone (see `POLISH_FIRST_PLIES`).
    let polish_first = len >= polish_from && refine_at.is_some();
    match refine_at {
        Some(at) => dfpn.deadline = Some((at, budget)),
        None => dfpn.node_budget = budget,
    }
    log::debug!(
        "mate: proven, proof tree {len} plies, first line {:?} plies, {} nodes",
        first.as_ref().map(Vec::len),
        dfpn.nodes
    );
    let mut refined = shortest_line_from(dfpn, pos, len, polish_first.then_some(budget));
    // The line polished within the refinement: the bound it was read
    // within, the line read, and the line polished and whether its
    // defences were checked.
    let mut polished: Option<Polished> = None;
    let out_of_budget = match (refine_at, &refined) {
        (Some(at), &Refined::Within(bound, _)) => {
            polish_first && bound == len && !dfpn.aborted && Instant::now() < at
        }
        _ => false,
    };
    if let (true, Some(at), Refined::Within(bound, read)) = (out_of_budget, refine_at, &refined) {
        // The first search, for a mate 2 plies shorter, took more nodes
        // than the proof: the line read within the proof's bound is
        // polished.
        let bound = *bound;
        let read = read
            .clone()
            .or_else(|| bounded_line(dfpn, pos, bound))
            .or_else(|| first.clone());
        if let Some(read) = read {
            dfpn.deadline = Some((at, 0));
            let PolishedLine { line, checked } = polish_line(dfpn, pos, read.clone(), proof_nodes);
            log::debug!(
                "mate: polished within the search for the shortest: {} plies, defences checked: {checked}, {} nodes",
                line.len(),
                dfpn.nodes
            );
            polished = Some(Polished {
                bound,
                read,
                done: PolishedLine {
                    line: line.clone(),
                    checked,
                },
            });
            if !dfpn.aborted && !dfpn.past_deadline() {
                // The search goes on until the deadline, from the line's
                // length if every defence on it is shown mated within the
                // plies it gives (a mate within that length).
                dfpn.node_budget = u64::MAX;
                dfpn.out_of_budget = false;
                let len = if checked {
                    bound.min(line.len() as u16)
                } else {
                    bound
                };
                refined = shortest_line(dfpn, pos, len);
                if len < bound {
                    polished = Some(Polished {
                        bound: len,
                        read: line.clone(),
                        done: PolishedLine {
                            line,
                            checked: true,
                        },
                    });
                }
            }
        }
    }
    dfpn.deadline = None;
    let line = match refined {
        Refined::Exact(line) => {
            log::debug!(
                "mate: shortest line {} plies, {} nodes",
                line.len(),
                dfpn.nodes
            );
            Some((line, Shortness::Proven))
        }
        Refined::Within(bound, read) => {
            // Polished within this bound already, or the bound's proof
            // trees give a line close to it: read as soon as it was proven,
            // or now; the first line is kept for when the table lost too
            // much of them.
            let done = match polished {
                Some(p) if p.bound == bound => Some((p.read, p.done)),
                _ => {
                    let bounded = read.or_else(|| bounded_line(dfpn, pos, bound));
                    log::debug!(
                        "mate: a mate within {bound} plies, a line of {:?} plies read within it, {} nodes",
                        bounded.as_ref().map(Vec::len),
                        dfpn.nodes
                    );
                    bounded.or(first).map(|read| {
                        if let Some(t) = time {
                            dfpn.deadline = Some((start + t.mul_f64(POLISH_TIME_SHARE), 0));
                        }
                        let done = polish_line(dfpn, pos, read.clone(), proof_nodes);
                        dfpn.deadline = None;
                        (read, done)
                    })
                }
            };
            done.map(|(read, PolishedLine { line, checked })| {
                // Shortened but not checked to the start, a line can
                // have a defence that is not the longest: the longer
                // line read within the bound is the safer answer.
                let shortness = |defences| Shortness::Bounded { bound, defences };
                if checked || line.len() >= read.len() {
                    (line, shortness(checked))
                } else {
                    log::debug!(
                        "mate: defences of the {}-ply line not all checked in time: the {}-ply line read is answered",
                        line.len(),
                        read.len()
                    );
                    (read, shortness(false))
                }
            })
        }
    };
    match line {
        Some((line, shortness)) => MateAnswer::Mate(line, shortness),
        None => MateAnswer::Timeout,
    }
}

/// A line polished within the search for the shortest mate.
struct Polished {
    /// The bound the line was read within.
    bound: u16,
    /// The line as read.
    read: Vec<Move>,
    /// `polish_line`'s answer for it.
    done: PolishedLine,
}

/// A line shortened from its end, and whether every defence on it was
/// shown mated within the plies the line gives it.
struct PolishedLine {
    line: Vec<Move>,
    checked: bool,
}

/// A line read within a bound, shortened from its end (`polish`, until the
/// search's deadline if it has one) and its defences checked for longer
/// ones (`lengthen_in_walks`): the line, and whether every defence on it
/// was shown mated within the plies the line gives it (then a mate within
/// the line's length is proven).
fn polish_line<W: BitWord>(
    dfpn: &mut DfPn<'_>,
    pos: &mut Position<W>,
    read: Vec<Move>,
    proof_nodes: u64,
) -> PolishedLine {
    // About half a proof's nodes per attacker move, so that a long line's
    // far tails get searches of some size.
    let step = (proof_nodes * 3 / read.len() as u64).max(POLISH_STEP_NODES);
    let line = polish(dfpn, pos, read, step);
    let deadline = dfpn.deadline.take();
    let (line, checked) = lengthen_in_walks(dfpn, pos, line);
    dfpn.deadline = deadline;
    PolishedLine { line, checked }
}

/// What a search for a mate within a number of plies found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WithinAnswer {
    /// A mate within the plies: the length proven, and a line read within
    /// it (None if the table no longer holds the proof whole).
    Mate(u16, Option<Vec<Move>>),
    /// Proven that no mate within the plies exists.
    NoMate,
    /// Stopped (time or `stop`) before an answer.
    Timeout,
}

/// Searches `root` (attacker to move) for a mate within `plies` plies, every
/// ply counted (interpositions too), with a table of `table_mb` MB, within
/// `time` (None: until `stop()`), reporting as `solve` does. This is the
/// check that a mate is the shortest ("no mate within its length − 2") or
/// that a problem has no shorter solution.
pub fn mate_within<W: BitWord>(
    root: &Position<W>,
    table_mb: usize,
    plies: u16,
    time: Option<Duration>,
    stop: &dyn Fn() -> bool,
    on_progress: &mut dyn FnMut(MateProgress),
) -> Result<WithinAnswer, AllocError> {
    with_search(root, table_mb, time, stop, on_progress, |dfpn, pos, _| {
        dfpn.limit = plies.min(NO_LIMIT - 1);
        let n = dfpn.solve(pos);
        if dfpn.aborted {
            WithinAnswer::Timeout
        } else if n.pn == 0 {
            WithinAnswer::Mate(n.len, bounded_line(dfpn, pos, n.len))
        } else if n.dn == 0 {
            WithinAnswer::NoMate
        } else {
            WithinAnswer::Timeout
        }
    })
}

/// Runs `f(search, position, start)` on a copy of `root` (attacker to move)
/// with a fresh table of `table_mb` MB, polled by `poller` from now, then
/// makes the final progress report: the frame `solve` and `mate_within` share.
fn with_search<W: BitWord, R>(
    root: &Position<W>,
    table_mb: usize,
    time: Option<Duration>,
    stop: &dyn Fn() -> bool,
    on_progress: &mut dyn FnMut(MateProgress),
    f: impl FnOnce(&mut DfPn<'_>, &mut Position<W>, Instant) -> R,
) -> Result<R, AllocError> {
    let mut table = MateTable::try_new(table_mb)?;
    let start = Instant::now();
    let mut poll = poller(start, time, stop, on_progress);
    let mut pos = root.clone();
    let attacker = pos.side_to_move();
    let mut search_poll = |nodes, table: &MateTable| poll(nodes, table, false);
    let mut dfpn = DfPn::new(&pos, attacker, &mut table, &mut search_poll);
    let answer = f(&mut dfpn, &mut pos, start);
    let nodes = dfpn.nodes;
    drop(dfpn);
    poll(nodes, &table, true);
    Ok(answer)
}

/// A solve's poll: reports progress through `on_progress` about once a
/// second (and whenever `last` is set, for the final report), and says
/// whether to stop (`stop()` or `time` since `start` passed).
fn poller<'a>(
    start: Instant,
    time: Option<Duration>,
    stop: &'a dyn Fn() -> bool,
    on_progress: &'a mut dyn FnMut(MateProgress),
) -> impl FnMut(u64, &MateTable, bool) -> bool + 'a {
    let mut last_report = start;
    move |nodes, table, last| {
        let now = Instant::now();
        if last || now.duration_since(last_report) >= PROGRESS_EVERY {
            last_report = now;
            on_progress(MateProgress {
                nodes,
                time_ms: now.duration_since(start).as_millis() as u64,
                hashfull: table.hashfull(),
            });
        }
        stop() || time.is_some_and(|t| now.duration_since(start) >= t)
    }
}

/// Helpers for the solver's unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::variant::Variant;

    /// Shogi problems with their published lengths.
    pub const SAMPLES: [(&str, usize); 3] = [
        ("9/9/9/1B7/9/7+S1/7+R1/9/8k b rb4g3s4n4l18p 1", 11),
        ("8k/8p/9/9/9/9/9/9/R6L1 b r2b4g4s4n3l17p 1", 15),
        ("6Snl/8k/9/8s/8s/9/9/9/9 b RGSr2b3g3n3l18p 1", 9),
    ];

    /// The solver's answer for `sfen` (16 MB, 20 s).
    pub fn solve_sfen(variant: &str, sfen: &str) -> MateAnswer {
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

    /// A shogi problem's position and the solver's line, which must have
    /// the `published` length.
    pub fn solved(sfen: &str, published: usize) -> (Position<u128>, Vec<Move>) {
        let v = Variant::by_name("shogi").unwrap();
        let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        let MateAnswer::Mate(line, _) = solve_sfen("shogi", sfen) else {
            panic!("{sfen}: no mate");
        };
        assert_eq!(line.len(), published, "{sfen}");
        (pos, line)
    }

    /// Runs `f` with a search for a mate by the side to move in `pos`, on a
    /// fresh table of `mb` MB.
    pub fn with_dfpn<R>(
        pos: &mut Position<u128>,
        mb: usize,
        f: impl FnOnce(&mut DfPn<'_>, &mut Position<u128>) -> R,
    ) -> R {
        let attacker = pos.side_to_move();
        let mut table = MateTable::try_new(mb).unwrap();
        let mut poll = |_: u64, _: &MateTable| false;
        let mut dfpn = DfPn::new(pos, attacker, &mut table, &mut poll);
        f(&mut dfpn, pos)
    }

    /// Runs `f(dfpn, position, proof length, sfen, published length)` for
    /// each sample problem, once its root is proven on a fresh 16 MB table.
    pub fn each_sample_proven(
        mut f: impl FnMut(&mut DfPn<'_>, &mut Position<u128>, u16, &str, usize),
    ) {
        let v = Variant::by_name("shogi").unwrap();
        for (sfen, published) in SAMPLES {
            let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
            with_dfpn(&mut pos, 16, |dfpn, pos| {
                let n = dfpn.solve(pos);
                assert_eq!(n.pn, 0, "{sfen}");
                f(dfpn, pos, n.len, sfen, published);
            });
        }
    }

    /// Checks that `line` is a mate from `pos`: legal moves, the attacker's
    /// all checks, mate at the end.
    pub fn assert_mate_line(pos: &mut Position<u128>, line: &[Move], what: &str) {
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
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::variant::Variant;

    fn usi(answer: &MateAnswer, variant: &str) -> Vec<String> {
        let v = Variant::by_name(variant).unwrap();
        match answer {
            MateAnswer::Mate(line, _) => line.iter().map(|m| m.to_usi(v)).collect(),
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
        assert!(matches!(a, MateAnswer::Mate(_, Shortness::Proven)), "{a:?}");
    }

    /// An answer whose search for the shortest mate ran out says so: 無双18
    /// without a time limit (budget: twice the proof's nodes and 200k)
    /// proves a mate within 27 plies (its published length) but does not
    /// rule out 25. (無双35, the problem here before, is now proven the
    /// shortest within its budget.)
    #[test]
    fn an_answer_out_of_budget_says_it_is_bounded() {
        let sfen = "2p+P3l+L/3p1gk2/3+Rppp2/2N1n2pg/B5P2/1+p7/3N5/9/9 b RBSN2g3s2l9p 1";
        let v = Variant::by_name("shogi").unwrap();
        let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        let answer = solve(&pos, 64, None, &|| false, &mut |_| {}).unwrap();
        let MateAnswer::Mate(line, Shortness::Bounded { bound, .. }) = answer else {
            panic!("{answer:?}");
        };
        assert_eq!(bound, 27);
        assert!(line.len() <= bound as usize, "{}", line.len());
        assert_mate_line(&mut pos, &line, sfen);
    }

    /// With a time limit, a long line's search for shorter mates that runs
    /// out of the proof's nodes polishes the line read and goes on from
    /// it (`POLISH_FIRST_PLIES`, here from any length): 無双18, which
    /// without a time limit stops within 27 plies, is answered at 27 with
    /// every defence shown the longest.
    #[test]
    fn a_polished_line_lets_the_search_go_on() {
        let sfen = "2p+P3l+L/3p1gk2/3+Rppp2/2N1n2pg/B5P2/1+p7/3N5/9/9 b RBSN2g3s2l9p 1";
        let v = Variant::by_name("shogi").unwrap();
        let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        // A limit far beyond what it takes (a loaded machine must not
        // reach its deadline).
        let time = Some(Duration::from_secs(600));
        let answer = with_search(
            &pos,
            64,
            time,
            &|| false,
            &mut |_| {},
            |dfpn, pos, start| {
                let n = dfpn.solve(pos);
                assert_eq!(n.pn, 0);
                shortest_after_proof(dfpn, pos, n.len, start, time, 0)
            },
        )
        .unwrap();
        let MateAnswer::Mate(line, shortness) = answer else {
            panic!("{answer:?}");
        };
        assert!(
            matches!(
                shortness,
                Shortness::Proven
                    | Shortness::Bounded {
                        bound: 27,
                        defences: true
                    }
            ),
            "{shortness:?}"
        );
        assert_eq!(line.len(), 27);
        assert_mate_line(&mut pos, &line, sfen);
    }

    /// `mate_within` on a 15-ply problem: none within 13, one within 15
    /// (and 17) with a mating line of at most that length; and a stopped
    /// search says it has no answer.
    #[test]
    fn mate_within_says_whether_a_mate_fits_the_bound() {
        let (sfen, published) = SAMPLES[1];
        let v = Variant::by_name("shogi").unwrap();
        let mut pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        let within = |pos: &Position<u128>, plies, stop: &dyn Fn() -> bool| {
            mate_within(pos, 16, plies, None, stop, &mut |_| {}).unwrap()
        };
        let never = || false;
        assert_eq!(
            within(&pos, published as u16 - 2, &never),
            WithinAnswer::NoMate
        );
        for plies in [published as u16, published as u16 + 2] {
            let WithinAnswer::Mate(len, Some(line)) = within(&pos, plies, &never) else {
                panic!("no mate within {plies}");
            };
            assert!(
                len <= plies && line.len() <= len as usize,
                "{len} {}",
                line.len()
            );
            assert_mate_line(&mut pos, &line, sfen);
        }
        // 図巧13 within 15 takes about 100k nodes: stopped at the first poll.
        let sfen = "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1";
        let pos = Position::<u128>::from_sfen(v, sfen).unwrap();
        assert_eq!(within(&pos, 15, &|| true), WithinAnswer::Timeout);
    }

    #[test]
    fn no_check_means_no_mate() {
        let a = solve_sfen("shogi", "4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1");
        assert_eq!(a, MateAnswer::NoMate);
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
            let MateAnswer::Mate(line, _) = solve_sfen(variant, sfen) else {
                panic!("{sfen}: no mate");
            };
            for (i, &m) in line.iter().enumerate() {
                if pos.side_to_move() == attacker {
                    with_dfpn(&mut pos, 4, |dfpn, pos| {
                        for plies in [1u16, 3, 5] {
                            dfpn.limit = plies;
                            let n = dfpn.solve(pos);
                            let want = mates_by_force(pos, plies, attacker);
                            assert_eq!(n.pn == 0, want, "{sfen} after {i} plies, mate in {plies}");
                            assert!(n.pn == 0 || n.dn == 0);
                            checked += 1;
                        }
                    });
                }
                pos.do_move(m);
            }
        }
        assert!(checked >= 20, "{checked}");
    }
}
