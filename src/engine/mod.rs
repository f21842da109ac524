//! The engine behind the protocol: it holds the position, the options, the
//! shared hash table and the pool of search threads, and runs one job at a
//! time on the pool (a search, `go perft`, `bench`). It knows nothing of USI
//! text: results leave through a `Sink` as typed `Report`s.
//!
//! The hash table, the pool's size and the workers' heuristics change only
//! while the pool is idle: a change asked for during a job is kept and made
//! as soon as the job has answered.

mod error;
mod jobs;
mod pool;
mod report;
mod root;

pub use error::EngineError;
pub use jobs::{BenchArgs, BENCH_DEFAULTS};
pub use pool::{panic_message, Crew, PanicSink, Pool, Task};
pub use report::{Decision, Report, Sink};
pub use root::RootPosition;

use crate::nnue::EvalChoice;
use crate::search::{Limits, SearchOptions, Signals, TranspositionTable, Worker};
use crate::variant::Variant;
use crate::with_root;
use jobs::JobControl;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash size accepted, in MB.
pub const MAX_HASH_MB: usize = 65536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 1024;
/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// A setting the engine understands (the protocol layer maps option names
/// and values onto these).
#[derive(Clone, Debug)]
pub enum Setting {
    /// Play this variant; resets the position to its start.
    Variant(&'static Variant),
    /// Hash table size in MB.
    HashMb(usize),
    /// Whether the GUI lets the engine ponder (`USI_Ponder`; informational).
    Ponder(bool),
    /// Lines to report.
    MultiPv(u32),
    /// Search threads.
    Threads(usize),
    /// Game ply at which the game is drawn (0 = off).
    MaxMovesToDraw(u32),
    /// Milliseconds kept back per move for communication delays.
    MoveOverhead(u64),
    /// Whether the entering-king declaration may be used.
    Declaration(bool),
    /// Empty the hash table.
    ClearHash,
    /// Whether to evaluate with networks (`UseNNUE`); off, the hand-made
    /// evaluation.
    UseNetwork(bool),
    /// A network file to use for its variant; `None`, the built-in ones.
    EvalFile(Option<String>),
}

/// Changes that wait for the pool to be idle.
#[derive(Default)]
struct Pending {
    tt: Option<Arc<TranspositionTable>>,
    threads: Option<usize>,
    clear: bool,
}

impl Pending {
    fn any(&self) -> bool {
        self.tt.is_some() || self.threads.is_some() || self.clear
    }
}

/// The engine: one per protocol session.
pub struct Engine {
    sink: Sink,
    variant: &'static Variant,
    root: RootPosition,
    tt: Arc<TranspositionTable>,
    opts: SearchOptions,
    hash_mb: usize,
    ponder: bool,
    /// `UseNNUE`.
    use_network: bool,
    /// The network `EvalFile` loaded, if any.
    eval_file: Option<&'static crate::nnue::Network>,
    threads: usize,
    pool: Pool,
    job: Option<JobControl>,
    pending: Pending,
    /// `go mate` gave back the search table's memory (its own table takes
    /// USI_Hash); the next search makes a fresh one.
    tt_released: bool,
}

impl Engine {
    /// A new engine playing the default variant from its start, with one
    /// search thread, reporting to `sink`.
    ///
    /// # Panics
    /// If the first search thread cannot be started.
    pub fn new(sink: Sink) -> Engine {
        let variant = Variant::default_variant();
        let s = sink.clone();
        let on_panic: PanicSink =
            Arc::new(move |i, msg| s(Report::Error(format!("search thread {i} panicked: {msg}"))));
        Engine {
            sink,
            variant,
            root: RootPosition::startpos(variant),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            opts: SearchOptions::default(),
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            use_network: true,
            eval_file: None,
            threads: 1,
            pool: Pool::new(1, on_panic).expect("a search thread"),
            job: None,
            pending: Pending::default(),
            tt_released: false,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The options the next search will use.
    pub fn search_options(&self) -> &SearchOptions {
        &self.opts
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether `USI_Ponder` is on.
    pub fn ponder_allowed(&self) -> bool {
        self.ponder
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
            self.apply_pending();
        }
    }

    /// Makes the waiting changes (the pool is idle).
    fn apply_pending(&mut self) {
        let p = std::mem::take(&mut self.pending);
        if let Some(n) = p.threads {
            if let Err(e) = self.pool.resize(n) {
                (self.sink)(Report::Error(e));
            }
        }
        self.threads = self.pool.size();
        if let Some(tt) = p.tt {
            self.tt = tt;
        }
        if p.clear {
            self.tt.clear();
        }
    }

    /// Applies a setting. The variant and the search options may change while
    /// a search runs (they apply to the next one); the hash table and the
    /// threads change once the pool is idle.
    pub fn set(&mut self, s: Setting) -> Result<(), EngineError> {
        self.settle();
        let idle = self.job.is_none();
        match s {
            Setting::Variant(v) => {
                self.variant = v;
                self.root = RootPosition::startpos(v);
                self.clear_hash(idle);
            }
            Setting::HashMb(mb) => {
                if mb == 0 || mb > MAX_HASH_MB {
                    return Err(EngineError::OutOfRange(format!(
                        "hash size {mb} MB is out of range 1..{MAX_HASH_MB}"
                    )));
                }
                // The new table is made before the old one goes, so that a
                // failure leaves the old one in place.
                let tt = TranspositionTable::try_new(mb).map_err(|_| EngineError::HashAlloc(mb))?;
                self.hash_mb = mb;
                self.tt_released = false;
                if idle {
                    self.tt = Arc::new(tt);
                } else {
                    self.pending.tt = Some(Arc::new(tt));
                    self.pending.clear = false;
                }
            }
            Setting::Ponder(on) => self.ponder = on,
            Setting::MultiPv(n) => self.opts.multipv = n.max(1),
            Setting::Threads(n) => {
                if n == 0 || n > MAX_THREADS {
                    return Err(EngineError::OutOfRange(format!(
                        "{n} threads is out of range 1..{MAX_THREADS}"
                    )));
                }
                if idle {
                    self.pool.resize(n).map_err(EngineError::Threads)?;
                    self.threads = n;
                } else {
                    self.pending.threads = Some(n);
                }
            }
            Setting::MaxMovesToDraw(n) => self.opts.max_moves_to_draw = n,
            Setting::MoveOverhead(ms) => self.opts.move_overhead = ms,
            Setting::Declaration(on) => self.opts.declaration = on,
            Setting::ClearHash => self.clear_hash(idle),
            Setting::UseNetwork(on) => {
                self.use_network = on;
                self.choose_evaluation(idle);
            }
            Setting::EvalFile(path) => {
                self.eval_file = match path {
                    None => None,
                    Some(p) => Some(
                        crate::nnue::load_file(std::path::Path::new(&p))
                            .map_err(|e| EngineError::OutOfRange(format!("EvalFile: {e}")))?,
                    ),
                };
                self.choose_evaluation(idle);
            }
        }
        Ok(())
    }

    /// Sets the searches' evaluation from `UseNNUE` and `EvalFile`. The
    /// table's stored evaluations are the old one's, so it is cleared.
    fn choose_evaluation(&mut self, idle: bool) {
        let eval = match (self.use_network, self.eval_file) {
            (false, _) => EvalChoice::HandMade,
            (true, Some(n)) => EvalChoice::Network(n),
            (true, None) => EvalChoice::Default,
        };
        if eval != self.opts.eval {
            self.opts.eval = eval;
            self.clear_hash(idle);
        }
    }

    fn clear_hash(&mut self, idle: bool) {
        if idle {
            self.tt.clear();
        } else {
            self.pending.clear = true;
        }
    }

    /// `usinewgame`: stops any job, forgets the hash table and every thread's
    /// heuristics.
    pub fn new_game(&mut self) {
        self.finish();
        self.tt.clear();
        self.pool.crew().each(Worker::clear);
    }

    /// Sets the position (of the current variant; see `RootPosition` for
    /// reading one from text). On error the previous position stays.
    pub fn set_position(&mut self, root: RootPosition) -> Result<(), EngineError> {
        if root.variant().name() != self.variant.name() {
            return Err(EngineError::OutOfRange(format!(
                "a position of {} while playing {}",
                root.variant().name(),
                self.variant.name()
            )));
        }
        self.root = root;
        Ok(())
    }

    /// The position the next search starts from.
    pub fn root(&self) -> &RootPosition {
        &self.root
    }

    /// The position as SFEN.
    pub fn sfen(&self) -> String {
        with_root!(&self.root, pos => pos.to_sfen())
    }

    /// A picture of the position, SFEN, hash and checkers.
    pub fn display(&self) -> String {
        with_root!(&self.root, pos => pos.diagram())
    }

    /// Static evaluation of the position as the search sees it (the
    /// network's and the bare-king hunt if a network is in use), side to
    /// move's view.
    pub fn eval(&self) -> i32 {
        let net = self.opts.eval.network_for(self.variant);
        let et = crate::eval::tables(self.variant);
        with_root!(&self.root, pos => match net {
            Some(n) => crate::nnue::evaluate(n, pos.as_ref()) + crate::eval::hunt_bonus(et, pos.as_ref()),
            None => crate::eval::evaluate(pos.as_ref()),
        })
    }

    /// The static evaluation split by term: one line per term with Black's,
    /// White's and the difference (Black's view), in centipawns.
    pub fn eval_trace(&self) -> Vec<String> {
        let (sums, _) = with_root!(&self.root, pos => crate::eval::trace(pos.as_ref()));
        let mut lines = vec![format!(
            "{:>12} {:>7} {:>7} {:>7}",
            "term", "black", "white", "total"
        )];
        for (term, [b, w]) in crate::eval::Term::ALL.iter().zip(sums.0) {
            lines.push(format!("{:>12} {b:>7} {w:>7} {:>7}", term.name(), b - w));
        }
        let hand_made = with_root!(&self.root, pos => crate::eval::evaluate(pos.as_ref()));
        lines.push(format!("hand-made evaluation {hand_made} (side to move)"));
        let et = crate::eval::tables(self.variant);
        let hunt = with_root!(&self.root, pos => crate::eval::hunt_bonus(et, pos.as_ref()));
        lines.push(match self.opts.eval.network_for(self.variant) {
            Some(n) => format!(
                "network {} {}x{}: {} (side to move){}",
                n.variant(),
                n.inputs(),
                n.hidden(),
                with_root!(&self.root, pos => crate::nnue::evaluate(n, pos.as_ref())),
                if hunt != 0 {
                    format!(", bare-king hunt {hunt:+}")
                } else {
                    String::new()
                }
            ),
            None => "network: none in use, the hand-made evaluation plays".to_string(),
        });
        lines
    }

    /// Starts a job on the main pool thread.
    fn start(
        &mut self,
        ponder: bool,
        job: impl FnOnce(&mut Worker, &Crew, &Arc<Signals>, &AtomicBool) + Send + 'static,
    ) {
        let signals = Arc::new(Signals::new(ponder));
        let done = Arc::new(AtomicBool::new(false));
        let (s, d) = (signals.clone(), done.clone());
        let crew = self.pool.crew().clone();
        self.pool
            .crew()
            .run(0, Box::new(move |w: &mut Worker| job(w, &crew, &s, &d)));
        self.job = Some(JobControl { signals, done });
    }

    /// Starts a search. Exactly one `Report::BestMove` follows; while
    /// pondering or in `infinite` mode it waits for `ponderhit` or `stop` even
    /// when the search ends earlier. `limits.searchmoves`, if any, must be
    /// legal moves of the root.
    pub fn go(&mut self, limits: Limits) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if let Some(&m) = limits
            .searchmoves
            .iter()
            .find(|&&m| !with_root!(&self.root, pos => pos.is_legal(m)))
        {
            let text = m.to_usi(self.variant);
            return Err(EngineError::OutOfRange(format!(
                "searchmoves: {text} is not legal here"
            )));
        }
        if self.tt_released {
            let tt = TranspositionTable::try_new(self.hash_mb)
                .map_err(|_| EngineError::HashAlloc(self.hash_mb))?;
            self.tt = Arc::new(tt);
            self.tt_released = false;
        }
        let root = self.root.clone();
        let tt = self.tt.clone();
        let opts = self.opts.clone();
        let sink = self.sink.clone();
        let ponder = limits.ponder;
        self.start(ponder, move |w, crew, signals, done| {
            let run = catch_unwind(AssertUnwindSafe(|| {
                with_root!(&root, pos => {
                    let req = jobs::SearchRequest {
                        root: pos,
                        tt: &tt,
                        signals,
                        limits: &limits,
                        opts: &opts,
                    };
                    jobs::go(&req, w, crew, &sink, done)
                })
            }));
            // The search catches its own panics; this is for the rest of the
            // job: there must be an answer all the same.
            if let Err(p) = run {
                if !done.swap(true, Ordering::SeqCst) {
                    let msg = panic_message(p.as_ref());
                    sink(Report::Error(format!("search job panicked: {msg}")));
                    let decision = with_root!(&root, pos => jobs::fallback(pos));
                    sink(Report::BestMove {
                        decision,
                        variant: root.variant(),
                    });
                }
            }
        });
        Ok(())
    }

    /// Starts `go perft <depth>` (interruptible by `stop`).
    pub fn perft(&mut self, depth: u32) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(EngineError::OutOfRange(format!(
                "perft depth {depth} is above {MAX_PERFT_DEPTH}"
            )));
        }
        let root = self.root.clone();
        let sink = self.sink.clone();
        self.start(false, move |_, _, signals, done| {
            with_root!(root, pos => jobs::perft(*pos, depth, signals, &sink, done))
        });
        Ok(())
    }

    /// Starts `go mate`: the tsume solver, for `time` (None: until `stop`),
    /// on a table of USI_Hash megabytes. Exactly one `Report::Checkmate`
    /// follows.
    pub fn mate(&mut self, time: Option<Duration>) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        // The solver's table takes USI_Hash; the search table's memory is
        // given back meanwhile, so the two never hold twice that.
        if !self.tt_released {
            self.tt = Arc::new(TranspositionTable::new(1));
            self.tt_released = true;
        }
        let root = self.root.clone();
        let sink = self.sink.clone();
        let hash_mb = self.hash_mb;
        self.start(false, move |_, _, signals, done| {
            let run = catch_unwind(AssertUnwindSafe(|| {
                with_root!(&root, pos => jobs::mate((**pos).clone(), hash_mb, time, signals, &sink, done))
            }));
            if let Err(p) = run {
                if !done.swap(true, Ordering::SeqCst) {
                    let msg = panic_message(p.as_ref());
                    sink(Report::Error(format!("mate job panicked: {msg}")));
                    sink(Report::Checkmate {
                        answer: crate::mate::MateAnswer::Timeout,
                        variant: root.variant(),
                    });
                }
            }
        });
        Ok(())
    }

    /// Starts `bench [hash] [threads] [depth]` on the pool; its lines come as
    /// `Report::Bench`. The threads it asks for are set back after it.
    pub fn bench(&mut self, args: &[String]) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        let args = BenchArgs::parse(args, MAX_THREADS, MAX_HASH_MB).map_err(EngineError::Bench)?;
        if args.threads != self.pool.size() {
            self.pool
                .resize(args.threads)
                .map_err(EngineError::Threads)?;
            self.pending.threads = Some(self.threads);
        }
        let sink = self.sink.clone();
        self.start(false, move |w, crew, signals, done| {
            jobs::bench(args, w, crew, signals, &sink, done)
        });
        Ok(())
    }

    /// `stop`: the running job answers as soon as it can. Does not wait.
    pub fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.signals.request_stop();
        }
    }

    /// `ponderhit`: the expected move was played; the clock runs from now.
    /// `clock` holds times sent with it, if any: the budgets are made again
    /// from them.
    pub fn ponderhit(&mut self, clock: Option<Limits>) {
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
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_within(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Notation;
    use std::sync::mpsc;
    use std::sync::Mutex;

    fn engine() -> (Engine, mpsc::Receiver<Report>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let sink: Sink = Arc::new(move |r| {
            let _ = tx.lock().map(|t| t.send(r));
        });
        (Engine::new(sink), rx)
    }

    /// `position` as the protocol does it, in USI notation.
    fn set_position(e: &mut Engine, sfen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        let v = e.variant();
        let mut root = match sfen {
            None => RootPosition::startpos(v),
            Some(s) => RootPosition::from_sfen(v, s)?,
        };
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        root.play(Notation::Usi, &moves)?;
        e.set_position(root)
    }

    fn bestmove(rx: &mpsc::Receiver<Report>) -> Decision {
        loop {
            match rx.recv_timeout(Duration::from_secs(10)).expect("bestmove") {
                Report::BestMove { decision, .. } => return decision,
                Report::Error(e) => panic!("error report: {e}"),
                _ => continue,
            }
        }
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn rejected_position_keeps_the_old_one() {
        let (mut e, _rx) = engine();
        set_position(&mut e, None, &["7g7f"]).unwrap();
        let before = e.sfen();
        let err = set_position(&mut e, None, &["7g7f", "3c3d", "1a1b"]);
        assert!(
            matches!(err, Err(EngineError::Move { index: 3, .. })),
            "{err:?}"
        );
        assert_eq!(e.sfen(), before);
        assert!(set_position(&mut e, Some("rbnsgk/5p/6/6/P5/KGSNBR b - 1"), &[]).is_err());
        let judkins = RootPosition::startpos(Variant::by_name("judkins").unwrap());
        assert!(e.set_position(judkins).is_err());
        assert_eq!(e.sfen(), before);
    }

    #[test]
    fn variant_change_resets_position() {
        let (mut e, _rx) = engine();
        e.set(Setting::Variant(Variant::by_name("judkins").unwrap()))
            .unwrap();
        assert_eq!(e.sfen(), "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
    }

    #[test]
    fn infinite_holds_until_stop() {
        let (mut e, rx) = engine();
        let limits = Limits {
            infinite: true,
            depth: Some(1),
            ..Limits::default()
        };
        e.go(limits).unwrap();
        assert!(rx
            .recv_timeout(Duration::from_millis(300))
            .map_or(true, |r| !matches!(r, Report::BestMove { .. })));
        assert_eq!(e.go(Limits::default()), Err(EngineError::Busy));
        e.stop();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        e.go(depth(1)).unwrap();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
    }

    #[test]
    fn mated_position_resigns() {
        let (mut e, rx) = engine();
        // Black king on 1i, mated by a gold on 1h backed by a lance.
        let sfen = "k8/9/9/9/9/9/8l/8g/8K b - 1";
        set_position(&mut e, Some(sfen), &[]).unwrap();
        e.go(Limits::default()).unwrap();
        assert_eq!(bestmove(&rx), Decision::Resign);
    }

    /// Threads and table changes asked for during a search wait for it, then
    /// take effect; the search itself is not disturbed.
    #[test]
    fn settings_wait_for_an_idle_pool() {
        let (mut e, rx) = engine();
        e.set(Setting::Threads(3)).unwrap();
        assert_eq!(e.threads(), 3);
        e.go(Limits {
            infinite: true,
            ..Limits::default()
        })
        .unwrap();
        e.set(Setting::Threads(2)).unwrap();
        e.set(Setting::HashMb(2)).unwrap();
        e.set(Setting::ClearHash).unwrap();
        assert_eq!(e.threads(), 3, "changed under a running search");
        std::thread::sleep(Duration::from_millis(50));
        e.stop();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        e.wait();
        assert_eq!(e.threads(), 2);
        assert_eq!(e.tt.buckets(), (2 << 20) / 32);
        assert!(e.set(Setting::HashMb(MAX_HASH_MB + 1)).is_err());
        assert!(e.set(Setting::Threads(MAX_THREADS + 1)).is_err());
        e.go(depth(3)).unwrap();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
    }

    /// With several threads the answer is legal and `nodes` counts them all.
    #[test]
    fn threads_search_together() {
        let (mut e, rx) = engine();
        e.set(Setting::Threads(4)).unwrap();
        set_position(&mut e, None, &["7g7f", "3c3d"]).unwrap();
        e.go(depth(8)).unwrap();
        let mut last_nodes = 0;
        let d = loop {
            match rx.recv_timeout(Duration::from_secs(20)).expect("report") {
                Report::Info { info, .. } => last_nodes = info.nodes,
                Report::BestMove { decision, .. } => break decision,
                Report::Error(err) => panic!("{err}"),
                _ => {}
            }
        };
        let Decision::Move { mv, .. } = d else {
            panic!("{d:?}")
        };
        let legal = with_root!(&e.root, p => p.is_legal(mv));
        assert!(legal, "{mv:?}");
        assert!(last_nodes > 0);
    }

    /// `go mate` gives the search table's memory back while its own table
    /// takes USI_Hash, and the next search has a full-size table again.
    #[test]
    fn go_mate_releases_the_search_table() {
        let (mut e, rx) = engine();
        e.set(Setting::HashMb(2)).unwrap();
        set_position(
            &mut e,
            Some("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"),
            &[],
        )
        .unwrap();
        e.mate(Some(Duration::from_secs(10))).unwrap();
        let answer = loop {
            match rx.recv_timeout(Duration::from_secs(20)).expect("report") {
                Report::Checkmate { answer, .. } => break answer,
                Report::Error(err) => panic!("{err}"),
                _ => {}
            }
        };
        assert!(
            matches!(answer, crate::mate::MateAnswer::Mate(_)),
            "{answer:?}"
        );
        e.wait();
        assert!(e.tt.buckets() < (1 << 20) / 32 + 1, "{}", e.tt.buckets());
        e.go(depth(3)).unwrap();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        assert_eq!(e.tt.buckets(), (2 << 20) / 32);
    }
}
