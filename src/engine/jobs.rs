//! The jobs the engine runs on the search threads: a search (`go`), `go
//! perft`, `go mate` and `bench`. Each ends with exactly one final report and
//! marks the job answered (`Job::answer`) just before it, so the engine knows
//! the answer is out.

use super::report::{Report, Sink};
use super::RootPosition;
use crate::bench::{BenchArgs, POSITIONS};
use crate::core::BitWord;
use crate::perft;
use crate::position::Position;
use crate::search::{Info, Job, Limits, SearchOptions};
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// The `go` job: search, report, answer.
pub(super) fn go<W: BitWord>(
    job: &mut Job,
    root: &Position<W>,
    limits: &Limits,
    opts: &SearchOptions,
    sink: &Sink,
) {
    let variant = root.variant();
    let mut on_info = |info: &Info| {
        sink(Report::Info {
            info: info.clone(),
            variant,
        })
    };
    let out = job.search(root, limits, opts, &mut on_info);
    job.answer();
    sink(Report::BestMove {
        decision: out.decision,
        variant,
    });
}

/// `go perft`: divide at the root, checking `stop` between subtrees.
pub(super) fn perft<W: BitWord>(job: &mut Job, mut pos: Position<W>, depth: u32, sink: &Sink) {
    let variant = pos.variant();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for m in pos.legal_moves() {
            pos.do_move(m);
            let n = perft::perft_until(&mut pos, depth - 1, &|| job.stopped());
            pos.undo_move();
            let Some(n) = n else {
                job.answer();
                sink(Report::Message("perft stopped".into()));
                return;
            };
            sink(Report::PerftMove {
                mv: m,
                nodes: n,
                variant,
            });
            total += n;
        }
    }
    job.answer();
    sink(Report::PerftTotal(total));
}

/// `go mate`: the tsume solver on a table of `hash_mb`, answering exactly one
/// `Report::Checkmate`.
pub(super) fn mate<W: BitWord>(
    job: &mut Job,
    pos: &Position<W>,
    hash_mb: usize,
    time: Option<Duration>,
    sink: &Sink,
) {
    let variant = pos.variant();
    let solved = crate::mate::solve(pos, hash_mb, time, &|| job.stopped(), &mut |p| {
        sink(Report::MateProgress(p))
    });
    let answer = solved.unwrap_or_else(|_| {
        sink(Report::Error(format!(
            "go mate: no memory for a {hash_mb} MB table"
        )));
        crate::mate::MateAnswer::Timeout
    });
    job.answer();
    sink(Report::Checkmate { answer, variant });
}

/// The `bench` job: a fixed-depth search of each bench position with a fresh
/// table and fresh heuristics on every thread; a line per position, then the
/// totals and `Bench: <nodes>`.
pub(super) fn bench(job: &mut Job, args: BenchArgs, sink: &Sink) {
    let say = |s: String| sink(Report::Bench(s));
    if job.use_own_table(args.hash_mb).is_err() {
        job.answer();
        sink(Report::Error(format!(
            "bench: cannot allocate a hash table of {} MB",
            args.hash_mb
        )));
        return;
    }
    let limits = Limits {
        depth: Some(args.depth),
        ..Limits::default()
    };
    let opts = SearchOptions::default();
    let start = Instant::now();
    let mut total = 0u64;
    for (i, &(name, sfen)) in POSITIONS.iter().enumerate() {
        let Some(v) = Variant::by_name(name) else {
            continue;
        };
        let Ok(root) = RootPosition::from_sfen(v, sfen) else {
            continue;
        };
        job.clear();
        let nodes = crate::with_root!(&root, pos => {
            job.search(pos.as_ref(), &limits, &opts, &mut |_| {}).nodes
        });
        total += nodes;
        say(format!(
            "Position {}/{} ({}): {}",
            i + 1,
            POSITIONS.len(),
            name,
            nodes
        ));
        if !job.rearm() {
            job.answer();
            sink(Report::Bench("bench stopped".into()));
            return;
        }
    }
    let ms = start.elapsed().as_millis() as u64;
    say("===========================".into());
    say(format!("Total time (ms) : {ms}"));
    say(format!("Nodes searched  : {total}"));
    say(format!("Nodes/second    : {}", total * 1000 / ms.max(1)));
    job.answer();
    say(format!("Bench: {total}"));
}
