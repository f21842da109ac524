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
mod report;
mod root;

pub use error::EngineError;
pub use report::{Decision, EvalBreakdown, NetworkEval, Report, Sink};
pub use root::RootPosition;

use crate::bench::BenchArgs;
use crate::nnue::EvalChoice;
use crate::search::{Limits, SearchOptions, Threads};
use crate::variant::Variant;
use crate::with_root;
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
    /// `Skill Level`, −20 to 20 (20: full strength).
    SkillLevel(i32),
    /// `UCI_LimitStrength`: `UCI_Elo` decides the level.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(u32),
    /// `NodesLimit`: every search stops at this many nodes (0: no limit).
    NodesLimit(u64),
    /// `DepthLimit`: every search stops at this depth (0: no limit).
    DepthLimit(u32),
    /// `UCI_AnalyseMode` (informational).
    AnalyseMode(bool),
    /// `VariantPath`: a Fairy-Stockfish variants file; sections naming
    /// variants Kawari does not play are reported.
    VariantPath(Option<String>),
    /// An option tools send that changes nothing here (`UCI_Chess960 false`).
    Unchanged,
    /// A search tunable's value, by its constant's name (tune build: SPSA).
    #[cfg(feature = "tune")]
    Tune {
        /// The constant's name.
        name: &'static str,
        /// Its new value.
        value: i32,
    },
}

/// The engine: one per protocol session. It keeps the settings and the
/// position, and runs one job at a time on the search's `Threads`.
pub struct Engine {
    sink: Sink,
    variant: &'static Variant,
    root: RootPosition,
    opts: SearchOptions,
    hash_mb: usize,
    ponder: bool,
    /// `UseNNUE`.
    use_network: bool,
    /// The network `EvalFile` loaded, if any.
    eval_file: Option<&'static crate::nnue::Network>,
    /// `NodesLimit` (0: none).
    nodes_limit: u64,
    /// `DepthLimit` (0: none).
    depth_limit: u32,
    /// `UCI_AnalyseMode`.
    analyse_mode: bool,
    threads: Threads,
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
        let threads = Threads::new(
            DEFAULT_HASH_MB,
            Arc::new(move |msg: String| s(Report::Error(msg))),
        )
        .expect("a search thread");
        Engine {
            sink,
            variant,
            root: RootPosition::startpos(variant),
            opts: SearchOptions::default(),
            hash_mb: DEFAULT_HASH_MB,
            ponder: false,
            use_network: true,
            eval_file: None,
            nodes_limit: 0,
            depth_limit: 0,
            analyse_mode: false,
            threads,
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
        self.threads.count()
    }

    /// Whether `USI_Ponder` is on.
    pub fn ponder_allowed(&self) -> bool {
        self.ponder
    }

    /// Whether a job is running and has not given its answer yet.
    pub fn is_busy(&mut self) -> bool {
        self.threads.is_busy()
    }

    /// Applies a setting. The variant and the search options may change while
    /// a search runs (they apply to the next one); the hash table and the
    /// threads change once the running job has answered.
    pub fn set(&mut self, s: Setting) -> Result<(), EngineError> {
        match s {
            Setting::Variant(v) => {
                self.variant = v;
                self.root = RootPosition::startpos(v);
                self.threads.clear_hash();
            }
            Setting::HashMb(mb) => {
                if mb == 0 || mb > MAX_HASH_MB {
                    return Err(EngineError::HashSize(mb));
                }
                self.threads
                    .set_hash(mb)
                    .map_err(|_| EngineError::HashAlloc(mb))?;
                self.hash_mb = mb;
            }
            Setting::Ponder(on) => self.ponder = on,
            Setting::MultiPv(n) => self.opts.multipv = n.max(1),
            Setting::Threads(n) => {
                if n == 0 || n > MAX_THREADS {
                    return Err(EngineError::ThreadCount(n));
                }
                self.threads.resize(n).map_err(|e| EngineError::Threads {
                    index: e.index,
                    count: e.count,
                    reason: e.reason,
                })?;
            }
            Setting::MaxMovesToDraw(n) => self.opts.max_moves_to_draw = n,
            Setting::MoveOverhead(ms) => self.opts.move_overhead = ms,
            Setting::Declaration(on) => self.opts.declaration = on,
            Setting::ClearHash => self.threads.clear_hash(),
            Setting::UseNetwork(on) => {
                self.use_network = on;
                self.choose_evaluation();
            }
            Setting::EvalFile(path) => {
                self.eval_file = match path {
                    None => None,
                    Some(p) => Some(
                        crate::nnue::load_file(std::path::Path::new(&p))
                            .map_err(EngineError::EvalFile)?,
                    ),
                };
                // Not an error (GUIs send options in any order, the variant
                // may come next), but a network that this game will not use
                // is worth a word.
                if let Some(n) = self.eval_file {
                    if n.variant() != self.variant.name() {
                        (self.sink)(Report::Message(format!(
                            "EvalFile: the network is for {}; {} keeps its own until USI_Variant is {}",
                            n.variant(),
                            self.variant.name(),
                            n.variant()
                        )));
                    }
                }
                self.choose_evaluation();
            }
            Setting::SkillLevel(n) => self.opts.skill_level = n,
            Setting::LimitStrength(on) => self.opts.limit_strength = on,
            Setting::Elo(n) => self.opts.elo = n,
            Setting::NodesLimit(n) => self.nodes_limit = n,
            Setting::DepthLimit(n) => self.depth_limit = n,
            Setting::AnalyseMode(on) => self.analyse_mode = on,
            Setting::VariantPath(None) | Setting::Unchanged => {}
            Setting::VariantPath(Some(path)) => self.read_variant_path(&path)?,
            #[cfg(feature = "tune")]
            Setting::Tune { name, value } => self.threads.set_tunable(name, value),
        }
        Ok(())
    }

    /// Whether `UCI_AnalyseMode` is on.
    pub fn analyse_mode(&self) -> bool {
        self.analyse_mode
    }

    /// Reads a Fairy-Stockfish variants file for `VariantPath`: its sections
    /// (`[name]` or `[name:template]`) that name a variant Kawari plays need
    /// nothing; the others are named in one message. Nothing else changes.
    fn read_variant_path(&self, path: &str) -> Result<(), EngineError> {
        let text = std::fs::read_to_string(path).map_err(|e| EngineError::VariantPath {
            path: path.to_string(),
            reason: e.to_string(),
        })?;
        let unknown: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix('[')?.strip_suffix(']'))
            .map(|section| section.split(':').next().unwrap_or("").trim())
            .filter(|name| Variant::by_name(name).is_none())
            .collect();
        if !unknown.is_empty() {
            (self.sink)(Report::Message(format!(
                "VariantPath: Kawari does not play {}; its own variants are unchanged",
                unknown.join(", ")
            )));
        }
        Ok(())
    }

    /// Sets the searches' evaluation from `UseNNUE` and `EvalFile`. The
    /// table's stored evaluations are the old one's, so it is cleared.
    fn choose_evaluation(&mut self) {
        let eval = match (self.use_network, self.eval_file) {
            (false, _) => EvalChoice::HandMade,
            (true, Some(n)) => EvalChoice::Network(n),
            (true, None) => EvalChoice::Default,
        };
        if eval != self.opts.eval {
            self.opts.eval = eval;
            self.threads.clear_hash();
        }
    }

    /// `isready`: the slow set-up the next game would otherwise pay on its
    /// clock (the hash table's memory) is done now.
    pub fn prepare(&mut self) {
        self.threads.prefault_table();
    }

    /// `usinewgame`: stops any job, forgets the hash table and every thread's
    /// heuristics.
    pub fn new_game(&mut self) {
        self.threads.new_game();
    }

    /// Sets the position (of the current variant; see `RootPosition` for
    /// reading one from text). On error the previous position stays.
    pub fn set_position(&mut self, root: RootPosition) -> Result<(), EngineError> {
        if root.variant().name() != self.variant.name() {
            return Err(EngineError::WrongVariant {
                position: root.variant().name(),
                playing: self.variant.name(),
            });
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

    /// The static evaluation of the position, term by term, and as the
    /// search sees it (the network's and the bare-king hunt if a network is
    /// in use).
    pub fn eval(&self) -> EvalBreakdown {
        let et = crate::eval::tables(self.variant);
        let (sums, hand_made) = with_root!(&self.root, pos => crate::eval::trace(pos.as_ref()));
        let hunt = with_root!(&self.root, pos => crate::eval::hunt_bonus(et, pos.as_ref()));
        let network = self
            .opts
            .eval
            .network_for(self.variant)
            .map(|n| NetworkEval {
                variant: n.variant().to_string(),
                features: n.feature_set().name(),
                inputs: n.inputs(),
                hidden: n.hidden(),
                score: with_root!(&self.root, pos => crate::nnue::evaluate(n, pos.as_ref())),
            });
        let total = match &network {
            Some(n) => n.score + hunt,
            None => hand_made,
        };
        EvalBreakdown {
            terms: crate::eval::Term::ALL
                .iter()
                .zip(sums.0)
                .map(|(t, [b, w])| (t.name(), b, w))
                .collect(),
            hand_made,
            network,
            hunt,
            total,
        }
    }

    /// Starts a search. Exactly one `Report::BestMove` follows; while
    /// pondering or in `infinite` mode it waits for `ponderhit` or `stop` even
    /// when the search ends earlier. Any `limits.searchmoves` that are not
    /// legal are left out (the protocol checks them as it reads them).
    pub fn go(&mut self, mut limits: Limits) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if self.nodes_limit > 0 {
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(self.nodes_limit, |n| n.min(self.nodes_limit)),
            );
        }
        if self.depth_limit > 0 {
            limits.depth = Some(
                limits
                    .depth
                    .map_or(self.depth_limit, |d| d.min(self.depth_limit)),
            );
        }
        self.threads
            .reclaim_table()
            .map_err(|_| EngineError::HashAlloc(self.hash_mb))?;
        let root = self.root.clone();
        let opts = self.opts.clone();
        let (sink, panic_sink) = (self.sink.clone(), self.sink.clone());
        let fallback_root = self.root.clone();
        self.threads.start(
            limits.ponder,
            move |job| with_root!(&root, pos => jobs::go(job, pos, &limits, &opts, &sink)),
            move |msg| {
                panic_sink(Report::Error(format!("search job panicked: {msg}")));
                panic_sink(Report::BestMove {
                    decision: with_root!(&fallback_root, pos => Decision::any_legal(pos)),
                    variant: fallback_root.variant(),
                });
            },
        );
        Ok(())
    }

    /// Starts `go perft <depth>` (interruptible by `stop`).
    pub fn perft(&mut self, depth: u32) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(EngineError::PerftDepth(depth));
        }
        let root = self.root.clone();
        let (sink, panic_sink) = (self.sink.clone(), self.sink.clone());
        self.threads.start(
            false,
            move |job| with_root!(root, pos => jobs::perft(job, *pos, depth, &sink)),
            move |msg| panic_sink(Report::Error(format!("perft job panicked: {msg}"))),
        );
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
        self.threads.release_table();
        let root = self.root.clone();
        let (sink, panic_sink) = (self.sink.clone(), self.sink.clone());
        let hash_mb = self.hash_mb;
        let variant = self.variant;
        self.threads.start(
            false,
            move |job| with_root!(&root, pos => jobs::mate(job, pos, hash_mb, time, &sink)),
            move |msg| {
                panic_sink(Report::Error(format!("mate job panicked: {msg}")));
                panic_sink(Report::Checkmate {
                    answer: crate::mate::MateAnswer::Timeout,
                    variant,
                });
            },
        );
        Ok(())
    }

    /// Starts `bench [hash] [threads] [depth]` on the threads; its lines come
    /// as `Report::Bench`. The threads it asks for are set back after it.
    pub fn bench(&mut self, args: &[String]) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        let args = BenchArgs::parse(args, MAX_THREADS, MAX_HASH_MB).map_err(EngineError::Bench)?;
        self.threads
            .lend(args.threads)
            .map_err(|e| EngineError::Threads {
                index: e.index,
                count: e.count,
                reason: e.reason,
            })?;
        let (sink, panic_sink) = (self.sink.clone(), self.sink.clone());
        self.threads.start(
            false,
            move |job| jobs::bench(job, args, &sink),
            move |msg| panic_sink(Report::Error(format!("bench job panicked: {msg}"))),
        );
        Ok(())
    }

    /// `stop`: the running job answers as soon as it can. Does not wait.
    pub fn stop(&mut self) {
        self.threads.stop();
    }

    /// `ponderhit`: the expected move was played; the clock runs from now.
    /// `clock` holds times sent with it, if any: the budgets are made again
    /// from them.
    pub fn ponderhit(&mut self, clock: Option<Limits>) {
        self.threads.ponderhit(clock);
    }

    /// Waits until the running job (if any) has answered, without stopping it.
    pub fn wait(&mut self) {
        self.threads.wait();
    }

    /// Stops any job and waits until it has answered.
    pub fn finish(&mut self) {
        self.threads.finish();
    }

    /// Like `finish`, but gives up waiting after `timeout` (for `quit`).
    pub fn finish_within(&mut self, timeout: Duration) {
        self.threads.finish_within(timeout);
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
        // The search is under way (it has reported an iteration) when
        // stopped.
        loop {
            match rx.recv_timeout(Duration::from_secs(10)).expect("a report") {
                Report::Info { .. } => break,
                Report::BestMove { decision, .. } => panic!("answered {decision:?} unasked"),
                Report::Error(err) => panic!("{err}"),
                _ => {}
            }
        }
        e.stop();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        e.wait();
        assert_eq!(e.threads(), 2);
        assert_eq!(e.threads.table_buckets(), (2 << 20) / 32);
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
            matches!(answer, crate::mate::MateAnswer::Mate(..)),
            "{answer:?}"
        );
        e.wait();
        assert!(
            e.threads.table_buckets() < (1 << 20) / 32 + 1,
            "{}",
            e.threads.table_buckets()
        );
        e.go(depth(3)).unwrap();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        assert_eq!(e.threads.table_buckets(), (2 << 20) / 32);
    }
}
