//! The jobs the main pool thread runs: a search (Lazy SMP over the crew),
//! `go perft`, and `bench`. Each ends with exactly one final report and sets
//! its `done` flag just before it, so the engine knows the answer is out.

use super::pool::{panic_message, Crew};
use super::report::{Decision, Report, Sink};
use crate::core::BitWord;
use crate::perft;
use crate::position::Position;
use crate::search::{
    decided_without_search, ponder_move, Driver, Info, Limits, NodeCounters, SearchOptions, Shared,
    Signals, ThreadResult, TranspositionTable, Worker,
};
use crate::variant::Variant;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A running job as the engine sees it.
pub(super) struct JobControl {
    /// Stop, ponderhit.
    pub(super) signals: Arc<Signals>,
    /// Set just before the job's final report.
    pub(super) done: Arc<AtomicBool>,
}

/// One search as every thread shares it (owned, so helper tasks can hold it).
struct SearchState<W: BitWord> {
    root: Position<W>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    limits: Limits,
    opts: SearchOptions,
    nodes: NodeCounters,
    results: Mutex<Vec<ThreadResult>>,
}

impl<W: BitWord> SearchState<W> {
    fn shared(&self) -> Shared<'_> {
        Shared {
            tt: &self.tt,
            signals: &self.signals,
            limits: &self.limits,
            opts: &self.opts,
            nodes: &self.nodes,
        }
    }
}

/// What a search is asked to do: everything but the threads that do it.
pub(super) struct SearchRequest<'a, W: BitWord> {
    /// The position to search.
    pub(super) root: &'a Position<W>,
    /// The shared hash table.
    pub(super) tt: &'a Arc<TranspositionTable>,
    /// Stop and ponderhit.
    pub(super) signals: &'a Arc<Signals>,
    /// Depth, nodes, clock.
    pub(super) limits: &'a Limits,
    /// MultiPV and the rules options.
    pub(super) opts: &'a SearchOptions,
}

/// What a multi-threaded search found.
pub(super) struct Outcome {
    /// The decision, checked for legality.
    pub(super) decision: Decision,
    /// Nodes of all threads.
    pub(super) nodes: u64,
}

/// A search on every thread of the crew (the caller is thread 0 and `main`
/// its worker). Reports each finished iteration of the main thread and a last
/// line for the chosen result through `on_info`; holds the answer while
/// pondering or in `go infinite`.
pub(super) fn search<W: BitWord>(
    req: &SearchRequest<'_, W>,
    main: &mut Worker,
    crew: &Crew,
    sink: &Sink,
    on_info: &mut dyn FnMut(&Info),
) -> Outcome {
    let SearchRequest {
        root,
        tt,
        signals,
        limits,
        opts,
    } = *req;
    if let Some(decision) = decided_without_search(root, opts) {
        signals.hold(limits.infinite);
        return Outcome { decision, nodes: 0 };
    }
    let threads = crew.size();
    let state = Arc::new(SearchState {
        root: root.clone(),
        tt: tt.clone(),
        signals: signals.clone(),
        limits: limits.clone(),
        opts: opts.clone(),
        nodes: NodeCounters::new(threads),
        results: Mutex::new(vec![ThreadResult::default(); threads]),
    });
    tt.new_search();
    for i in 1..threads {
        let st = state.clone();
        crew.run(
            i,
            Box::new(move |w: &mut Worker| {
                let mut pos = st.root.clone();
                let r = w.iterate(&mut pos, &st.shared(), i, None);
                st.results.lock().unwrap_or_else(|p| p.into_inner())[i] = r;
            }),
        );
    }
    let shared = state.shared();
    let mut driver = Driver::new(root, limits, opts, on_info);
    let mut pos = root.clone();
    let run = catch_unwind(AssertUnwindSafe(|| {
        main.iterate(&mut pos, &shared, 0, Some(&mut driver))
    }));
    match run {
        Ok(r) => state.results.lock().unwrap_or_else(|p| p.into_inner())[0] = r,
        Err(payload) => {
            let msg = panic_message(payload.as_ref());
            log::error!("search thread 0 panicked: {msg}");
            sink(Report::Error(format!("search thread 0 panicked: {msg}")));
            *main = Worker::new();
        }
    }
    signals.hold(limits.infinite);
    signals.stop_threads();
    for i in 1..threads {
        crew.wait(i);
    }
    let results = std::mem::take(&mut *state.results.lock().unwrap_or_else(|p| p.into_inner()));
    let best = &results[driver.conclude(&results, &shared)];
    let nodes = state.nodes.total();
    let decision = match best.pv.first() {
        None => fallback(root),
        Some(&mv) if root.is_legal(mv) => {
            let mut pos = root.clone();
            Decision::Move {
                mv,
                ponder: ponder_move(&mut pos, tt, best),
            }
        }
        Some(&mv) => {
            let text = mv.to_usi(root.variant());
            log::error!("search answered the illegal move {text}");
            sink(Report::Error(format!(
                "search answered the illegal move {text}"
            )));
            fallback(root)
        }
    };
    Outcome { decision, nodes }
}

/// A legal move when the search has none to give (it panicked).
pub(super) fn fallback<W: BitWord>(root: &Position<W>) -> Decision {
    match root.legal_moves().first() {
        Some(&mv) => Decision::Move { mv, ponder: None },
        None => Decision::Resign,
    }
}

/// The `go` job: search, report, answer.
pub(super) fn go<W: BitWord>(
    req: &SearchRequest<'_, W>,
    main: &mut Worker,
    crew: &Crew,
    sink: &Sink,
    done: &AtomicBool,
) {
    let variant = req.root.variant();
    let mut on_info = |info: &Info| {
        sink(Report::Info {
            info: info.clone(),
            variant,
        })
    };
    let out = search(req, main, crew, sink, &mut on_info);
    done.store(true, Ordering::SeqCst);
    sink(Report::BestMove {
        decision: out.decision,
        variant,
    });
}

/// `go perft`: divide at the root, checking `stop` between subtrees.
pub(super) fn perft<W: BitWord>(
    mut pos: Position<W>,
    depth: u32,
    signals: &Signals,
    sink: &Sink,
    done: &AtomicBool,
) {
    let variant = pos.variant();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for m in pos.legal_moves() {
            pos.do_move(m);
            let n = perft::perft_until(&mut pos, depth - 1, &|| signals.stopped());
            pos.undo_move();
            let Some(n) = n else {
                done.store(true, Ordering::SeqCst);
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
    done.store(true, Ordering::SeqCst);
    sink(Report::PerftTotal(total));
}

/// `go mate`: the tsume solver on a table of `hash_mb`, answering exactly one
/// `Report::Checkmate`.
pub(super) fn mate<W: BitWord>(
    pos: Position<W>,
    hash_mb: usize,
    time: Option<std::time::Duration>,
    signals: &Signals,
    sink: &Sink,
    done: &AtomicBool,
) {
    let variant = pos.variant();
    let answer = match crate::mate::solve(&pos, hash_mb, time, &|| signals.stopped(), &mut |p| {
        sink(Report::MateProgress(p))
    }) {
        Ok(a) => a,
        Err(_) => {
            sink(Report::Error(format!(
                "go mate: no memory for a {hash_mb} MB table"
            )));
            crate::mate::MateAnswer::Timeout
        }
    };
    done.store(true, Ordering::SeqCst);
    sink(Report::Checkmate { answer, variant });
}

/// `bench` settings, as Stockfish takes them: `bench [hash MB] [threads] [depth]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// Hash table size in MB (a table of the bench's own, fresh per position).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Search depth.
    pub depth: u32,
}

/// The bench's defaults: the node signature is taken with these.
pub const BENCH_DEFAULTS: BenchArgs = BenchArgs {
    hash_mb: 16,
    threads: 1,
    depth: 9,
};

impl BenchArgs {
    /// Parses `[hash] [threads] [depth]`; missing values take the defaults.
    pub fn parse(
        args: &[String],
        max_threads: usize,
        max_hash: usize,
    ) -> Result<BenchArgs, String> {
        if args.len() > 3 {
            return Err("usage: bench [hash MB] [threads] [depth]".into());
        }
        let num = |i: usize, name: &str, lo: u64, hi: u64, default: u64| -> Result<u64, String> {
            match args.get(i) {
                None => Ok(default),
                Some(s) => s
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "bad {name} '{}' (expected {lo}..{hi})",
                            s.chars().take(20).collect::<String>()
                        )
                    }),
            }
        };
        let d = BENCH_DEFAULTS;
        Ok(BenchArgs {
            hash_mb: num(0, "hash", 1, max_hash as u64, d.hash_mb as u64)? as usize,
            threads: num(1, "threads", 1, max_threads as u64, d.threads as u64)? as usize,
            depth: num(2, "depth", 1, 64, d.depth as u64)? as u32,
        })
    }
}

/// The `bench` job: a fixed-depth search of each bench position with a fresh
/// table and fresh heuristics on every thread; a line per position, then the
/// totals and `Bench: <nodes>`.
pub(super) fn bench(
    args: BenchArgs,
    main: &mut Worker,
    crew: &Crew,
    signals: &Arc<Signals>,
    sink: &Sink,
    done: &AtomicBool,
) {
    let say = |s: String| sink(Report::Bench(s));
    let tt = match TranspositionTable::try_new(args.hash_mb) {
        Ok(t) => Arc::new(t),
        Err(_) => {
            done.store(true, Ordering::SeqCst);
            sink(Report::Error(format!(
                "bench: cannot allocate a hash table of {} MB",
                args.hash_mb
            )));
            return;
        }
    };
    let limits = Limits {
        depth: Some(args.depth),
        ..Limits::default()
    };
    let opts = SearchOptions::default();
    let positions = crate::bench::POSITIONS;
    let start = Instant::now();
    let mut total = 0u64;
    for (i, &(name, sfen)) in positions.iter().enumerate() {
        let Some(v) = Variant::by_name(name) else {
            continue;
        };
        tt.clear();
        main.clear();
        for h in 1..crew.size() {
            crew.run(h, Box::new(|w: &mut Worker| w.clear()));
            crew.wait(h);
        }
        let Ok(root) = super::RootPosition::from_sfen(v, sfen) else {
            continue;
        };
        let nodes = crate::with_root!(&root, pos => {
            let req = SearchRequest {
                root: pos,
                tt: &tt,
                signals,
                limits: &limits,
                opts: &opts,
            };
            search(&req, main, crew, sink, &mut |_| {}).nodes
        });
        total += nodes;
        say(format!(
            "Position {}/{} ({}): {}",
            i + 1,
            positions.len(),
            name,
            nodes
        ));
        if !signals.rearm() {
            done.store(true, Ordering::SeqCst);
            sink(Report::Bench("bench stopped".into()));
            return;
        }
    }
    let ms = start.elapsed().as_millis() as u64;
    say("===========================".into());
    say(format!("Total time (ms) : {ms}"));
    say(format!("Nodes searched  : {total}"));
    say(format!("Nodes/second    : {}", total * 1000 / ms.max(1)));
    done.store(true, Ordering::SeqCst);
    say(format!("Bench: {total}"));
}
