//! The search's threads and the one way into a search. `Threads` owns the
//! pool of search threads (each with its `Worker`), the hash table and the
//! running job's signals; a job runs on the main pool thread and reaches the
//! search through its `Job` handle. `Job::search` (Lazy SMP over the pool)
//! and `Search::run` (one thread, for tools and tests) share one body, `run`:
//! the answer is checked and concluded the same way for every caller.
//!
//! The table, the pool's size and the workers' heuristics change only while
//! the pool is idle: a change asked for during a job is kept and made as soon
//! as the job has answered.

use super::driver::{ponder_move, Driver};
use super::pool::{panic_message, Crew, Pool};
use super::shared::{NodeCounters, Shared, ThreadResult};
use super::worker::Worker;
use super::{decided_without_search, Decision, Info, Limits, SearchOptions, Signals};
use super::{AllocError, TranspositionTable};
use crate::core::BitWord;
use crate::position::Position;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use super::pool::ThreadsError;

/// Where the threads tell what went wrong (a panicking thread, a failed
/// change): a message for the user.
pub type ErrorSink = Arc<dyn Fn(String) + Send + Sync>;

/// Why a search's answer is not the search's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchFault {
    /// The main search thread panicked (the message); a legal move was
    /// answered in its place.
    Panicked(String),
    /// The search answered this move (USI text), which is not legal; a legal
    /// move was answered in its place.
    IllegalMove(String),
}

impl fmt::Display for SearchFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchFault::Panicked(msg) => write!(f, "search thread 0 panicked: {msg}"),
            SearchFault::IllegalMove(mv) => write!(f, "search answered the illegal move {mv}"),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The decision, legal in the searched position.
    pub decision: Decision,
    /// Nodes of all threads.
    pub nodes: u64,
    /// What went wrong, if anything (the decision is then a fallback).
    pub fault: Option<SearchFault>,
}

/// The search itself, the same for every caller: iterative deepening on
/// `main` with `driver` duties, after `start_helpers` has set any helper
/// threads going; `join_helpers` stops them, waits for them and hands back
/// every thread's result (thread 0's slot is filled here). Reports each
/// finished iteration and a last line for the chosen result through
/// `on_info`; holds the answer while pondering or in `go infinite`.
fn run<W: BitWord>(
    root: &Position<W>,
    shared: &Shared,
    main: &mut Worker,
    on_info: &mut dyn FnMut(&Info),
    start_helpers: impl FnOnce(),
    join_helpers: impl FnOnce() -> Vec<ThreadResult>,
) -> Outcome {
    if let Some(decision) = decided_without_search(root, shared.opts) {
        shared.signals.hold(shared.limits.infinite);
        return Outcome {
            decision,
            nodes: 0,
            fault: None,
        };
    }
    shared.tt.new_search();
    start_helpers();
    let mut driver = Driver::new(root, shared.limits, shared.opts, on_info);
    let mut pos = root.clone();
    let mut fault = None;
    let ran = catch_unwind(AssertUnwindSafe(|| {
        main.iterate(&mut pos, shared, 0, Some(&mut driver))
    }));
    let main_result = ran.unwrap_or_else(|payload| {
        let msg = panic_message(payload.as_ref());
        log::error!("search thread 0 panicked: {msg}");
        fault = Some(SearchFault::Panicked(msg));
        *main = Worker::new();
        ThreadResult::default()
    });
    shared.signals.hold(shared.limits.infinite);
    let mut results = join_helpers();
    results[0] = main_result;
    let best = &results[driver.conclude(&results, shared)];
    let decision = match best.pv.first() {
        None => Decision::any_legal(root),
        Some(&mv) if root.is_legal(mv) => {
            let mut pos = root.clone();
            Decision::Move {
                mv,
                ponder: ponder_move(&mut pos, shared.tt, best),
            }
        }
        Some(&mv) => {
            let text = mv.to_usi(root.variant());
            log::error!("search answered the illegal move {text}");
            fault = Some(SearchFault::IllegalMove(text));
            Decision::any_legal(root)
        }
    };
    Outcome {
        decision,
        nodes: shared.nodes.total(),
        fault,
    }
}

/// One thread's whole search on the caller's thread, for callers without a
/// pool (tests, tools, datagen): the one-thread case of `Job::search`.
#[derive(Default)]
pub struct Search {
    worker: Worker,
}

impl Search {
    /// A fresh searcher.
    pub fn new() -> Search {
        Search {
            worker: Worker::new(),
        }
    }

    /// Checks every incremental network evaluation against one computed
    /// from scratch, and panics on a difference (slow; for tests).
    pub fn verify_evaluation(&mut self, on: bool) {
        self.worker.verify_evaluation = on;
    }

    /// Forgets learned heuristics.
    pub fn clear(&mut self) {
        self.worker.clear();
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.worker.nodes()
    }

    /// Searches `pos` within `limits`, reporting each finished iteration
    /// (and the chosen line once more at the end) through `on_info`. Returns
    /// promptly once `signals` stop it; while pondering or in `go infinite` it
    /// holds its answer until `stop` or `ponderhit`.
    ///
    /// # Panics
    /// If the search panicked or answered an illegal move, with that fault's
    /// message: a caller without a protocol has no other way to see it.
    pub fn run<W: BitWord>(
        &mut self,
        pos: &Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        tt: &TranspositionTable,
        signals: &Signals,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision {
        let nodes = NodeCounters::new(1);
        let shared = Shared {
            tt,
            signals,
            limits,
            opts,
            nodes: &nodes,
        };
        let out = run(
            pos,
            &shared,
            &mut self.worker,
            on_info,
            || {},
            || vec![ThreadResult::default()],
        );
        if let Some(fault) = out.fault {
            panic!("{fault}");
        }
        out.decision
    }
}

/// One search as every thread shares it, owned so helper tasks can hold it.
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

    fn results(&self) -> std::sync::MutexGuard<'_, Vec<ThreadResult>> {
        self.results.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A running job, as the main pool thread sees it: its worker, the other
/// threads, the table and the job's signals.
pub struct Job<'a> {
    main: &'a mut Worker,
    crew: &'a Crew,
    table: Arc<TranspositionTable>,
    signals: &'a Arc<Signals>,
    done: &'a AtomicBool,
    on_error: &'a ErrorSink,
}

impl Job<'_> {
    /// A search of `root` on every thread of the pool (Lazy SMP), as `run`
    /// describes. A fault is told to the threads' error sink before this
    /// returns, so it comes before the answer.
    pub fn search<W: BitWord>(
        &mut self,
        root: &Position<W>,
        limits: &Limits,
        opts: &SearchOptions,
        on_info: &mut dyn FnMut(&Info),
    ) -> Outcome {
        let threads = self.crew.size();
        let state = Arc::new(SearchState {
            root: root.clone(),
            tt: self.table.clone(),
            signals: self.signals.clone(),
            limits: limits.clone(),
            opts: opts.clone(),
            nodes: NodeCounters::new(threads),
            results: Mutex::new(vec![ThreadResult::default(); threads]),
        });
        let crew = self.crew;
        let start_helpers = || {
            for i in 1..threads {
                let st = state.clone();
                crew.run(
                    i,
                    Box::new(move |w: &mut Worker| {
                        let mut pos = st.root.clone();
                        let r = w.iterate(&mut pos, &st.shared(), i, None);
                        st.results()[i] = r;
                    }),
                );
            }
        };
        let join_helpers = || {
            state.signals.stop_threads();
            for i in 1..threads {
                crew.wait(i);
            }
            std::mem::take(&mut *state.results())
        };
        let shared = state.shared();
        let out = run(
            root,
            &shared,
            self.main,
            on_info,
            start_helpers,
            join_helpers,
        );
        if let Some(fault) = &out.fault {
            (self.on_error)(fault.to_string());
        }
        out
    }

    /// Whether the job was told to stop (or a search of it ended by a limit).
    pub fn stopped(&self) -> bool {
        self.signals.stopped()
    }

    /// Lets the threads search again after a search of this job ended (for a
    /// job of several searches); false if `stop` came meanwhile.
    pub fn rearm(&self) -> bool {
        self.signals.rearm()
    }

    /// The rest of this job searches with a fresh table of `mb` megabytes of
    /// its own (the engine's table is left as it is).
    pub fn use_own_table(&mut self, mb: usize) -> Result<(), AllocError> {
        self.table = Arc::new(TranspositionTable::try_new(mb)?);
        Ok(())
    }

    /// Empties the job's table and every thread's heuristics.
    pub fn clear(&mut self) {
        self.table.clear();
        self.main.clear();
        for i in 1..self.crew.size() {
            self.crew.run(i, Box::new(|w: &mut Worker| w.clear()));
            self.crew.wait(i);
        }
    }

    /// Marks the job as answered: call it just before the one final report.
    /// False if it had answered already.
    pub fn answer(&self) -> bool {
        !self.done.swap(true, Ordering::SeqCst)
    }
}

/// A running job as `Threads` watches it.
struct JobControl {
    /// Stop, ponderhit.
    signals: Arc<Signals>,
    /// Set just before the job's final report.
    done: Arc<AtomicBool>,
}

/// Changes that wait for the pool to be idle.
#[derive(Default)]
struct Pending {
    table: Option<Arc<TranspositionTable>>,
    threads: Option<usize>,
    clear: bool,
}

impl Pending {
    fn any(&self) -> bool {
        self.table.is_some() || self.threads.is_some() || self.clear
    }
}

/// The search threads, their table and the running job: the engine's one
/// door to the search.
pub struct Threads {
    pool: Pool,
    table: Arc<TranspositionTable>,
    /// The table's size in MB (what `reclaim_table` makes again).
    hash_mb: usize,
    /// `release_table` gave the table's memory back.
    released: bool,
    job: Option<JobControl>,
    pending: Pending,
    on_error: ErrorSink,
}

impl Threads {
    /// One search thread and a table of `hash_mb` megabytes; faults are told
    /// to `on_error`.
    pub fn new(hash_mb: usize, on_error: ErrorSink) -> Result<Threads, ThreadsError> {
        let e = on_error.clone();
        let pool = Pool::new(
            1,
            Arc::new(move |i: usize, msg: String| e(format!("search thread {i} panicked: {msg}"))),
        )?;
        Ok(Threads {
            pool,
            table: Arc::new(TranspositionTable::new(hash_mb)),
            hash_mb,
            released: false,
            job: None,
            pending: Pending::default(),
            on_error,
        })
    }

    /// Threads in the pool now (a change asked for during a job counts once
    /// the job has answered).
    pub fn count(&self) -> usize {
        self.pool.size()
    }

    /// Whether a job is running and has not given its answer yet.
    pub fn is_busy(&mut self) -> bool {
        self.settle();
        self.job.is_some()
    }

    /// If the running job has answered or was told to stop: waits for it to
    /// end and makes the changes that waited for it.
    fn settle(&mut self) {
        let over = self.job.as_ref().is_some_and(|j| {
            j.done.load(Ordering::SeqCst)
                || j.signals.stop_requested()
                || self.pool.crew().is_idle(0)
        });
        if over {
            self.pool.crew().wait(0);
            self.job = None;
        }
        if self.job.is_none() && self.pending.any() {
            let p = std::mem::take(&mut self.pending);
            if let Some(n) = p.threads {
                if let Err(e) = self.pool.resize(n) {
                    (self.on_error)(e.to_string());
                }
            }
            if let Some(t) = p.table {
                self.table = t;
            }
            if p.clear {
                self.table.clear();
            }
        }
    }

    /// Makes the pool `n` threads, now or once the running job has answered.
    pub fn resize(&mut self, n: usize) -> Result<(), ThreadsError> {
        if self.is_busy() {
            self.pending.threads = Some(n);
            Ok(())
        } else {
            self.pool.resize(n)
        }
    }

    /// Makes the pool `n` threads for the next job only (the pool must be
    /// idle): the count before comes back once that job has answered.
    pub fn lend(&mut self, n: usize) -> Result<(), ThreadsError> {
        let before = self.pool.size();
        if n != before {
            self.pool.resize(n)?;
            self.pending.threads = Some(before);
        }
        Ok(())
    }

    /// A new table of `mb` megabytes, in use now or once the running job has
    /// answered. It is made at once, so a failure leaves the old one.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        let table = Arc::new(TranspositionTable::try_new(mb)?);
        self.hash_mb = mb;
        self.released = false;
        if self.is_busy() {
            self.pending.table = Some(table);
            self.pending.clear = false;
        } else {
            self.table = table;
        }
        Ok(())
    }

    /// Takes the memory of a table nobody has used yet (for `isready`; a
    /// table in use, by a running job too, is left alone).
    pub fn prefault_table(&self) {
        self.table.prefault();
    }

    /// Empties the table, now or once the running job has answered.
    pub fn clear_hash(&mut self) {
        if self.is_busy() {
            self.pending.clear = true;
        } else {
            self.table.clear();
        }
    }

    /// Sets the search tunable named `name` (tune build; within its range,
    /// from the next search on). An unknown name changes nothing: the
    /// protocol lists and checks the names.
    #[cfg(feature = "tune")]
    pub fn set_tunable(&self, name: &str, value: i32) {
        if let Some(t) = super::params::Tunable::by_name(name) {
            t.set(value);
        }
    }

    /// A new game: stops any job, empties the table and every thread's
    /// heuristics.
    pub fn new_game(&mut self) {
        self.finish();
        self.table.clear();
        self.pool.crew().each(Worker::clear);
    }

    /// Gives the table's memory back (for a job that needs the memory for a
    /// table of its own); `reclaim_table` makes it again.
    pub fn release_table(&mut self) {
        if !self.released {
            self.table = Arc::new(TranspositionTable::new(1));
            self.released = true;
        }
    }

    /// Makes the table again after `release_table`.
    pub fn reclaim_table(&mut self) -> Result<(), AllocError> {
        if self.released {
            self.table = Arc::new(TranspositionTable::try_new(self.hash_mb)?);
            self.released = false;
        }
        Ok(())
    }

    /// Starts `job` on the main pool thread (the pool must be idle), with
    /// signals that ponder if `ponder`. If the job panics before it has
    /// answered, `on_panic` gets the message and must answer in its place.
    pub fn start(
        &mut self,
        ponder: bool,
        job: impl FnOnce(&mut Job) + Send + 'static,
        on_panic: impl FnOnce(String) + Send + 'static,
    ) {
        let signals = Arc::new(Signals::new(ponder));
        let done = Arc::new(AtomicBool::new(false));
        let (s, d) = (signals.clone(), done.clone());
        let crew = self.pool.crew().clone();
        let table = self.table.clone();
        let on_error = self.on_error.clone();
        self.pool.crew().run(
            0,
            Box::new(move |w: &mut Worker| {
                let mut handle = Job {
                    main: w,
                    crew: &crew,
                    table,
                    signals: &s,
                    done: &d,
                    on_error: &on_error,
                };
                if let Err(p) = catch_unwind(AssertUnwindSafe(|| job(&mut handle))) {
                    let msg = panic_message(p.as_ref());
                    log::error!("job panicked: {msg}");
                    if handle.answer() {
                        on_panic(msg);
                    }
                }
            }),
        );
        self.job = Some(JobControl { signals, done });
    }

    /// `stop`: the running job answers as soon as it can. Does not wait.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.signals.request_stop();
        }
    }

    /// `ponderhit`: the expected move was played; the clock runs from now,
    /// with `clock` if times were sent with it.
    pub fn ponderhit(&self, clock: Option<Limits>) {
        if let Some(job) = &self.job {
            job.signals.ponderhit(clock);
        }
    }

    /// Waits until the running job (if any) has answered, without stopping it.
    pub fn wait(&mut self) {
        if self.job.is_some() {
            self.pool.crew().wait(0);
        }
        self.settle();
    }

    /// Stops any job and waits until it has answered.
    pub fn finish(&mut self) {
        self.stop();
        self.wait();
    }

    /// Like `finish`, but gives up waiting after `timeout` (for `quit`).
    pub fn finish_within(&mut self, timeout: Duration) {
        self.stop();
        if self.job.is_some() && self.pool.crew().wait_for(0, timeout) {
            self.settle();
        }
    }

    /// Buckets of the table in use (for tests of its life cycle).
    pub fn table_buckets(&self) -> usize {
        self.table.buckets()
    }
}
