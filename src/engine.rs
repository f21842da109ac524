//! The engine behind the protocol: it owns the position, the hash table, the
//! options and the search thread, and offers `go`, `stop`, `ponderhit`,
//! `set_position` and friends. It knows nothing of USI text: results leave
//! through a `Sink` callback as typed `Report`s.
//!
//! Width dispatch happens here, once: `Core` is an enum over the `u64` and
//! `u128` instantiations, chosen when the variant is chosen. Everything below
//! it is generic.
//!
//! While a search runs, the searcher and the hash table are lent to the search
//! thread and come back when it is joined; option changes that need them are
//! remembered and applied then.

use crate::core::{BitWord, Color};
use crate::perft;
use crate::position::{Move, Position, SfenError};
use crate::search::{
    BestMove, Info, Limits, Search, SearchControl, SearchOptions, TranspositionTable,
};
use crate::variant::Variant;
use crate::width::Width;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash size accepted, in MB.
pub const MAX_HASH_MB: usize = 4096;
/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// What the engine reports, in order, through its sink.
#[derive(Clone, Debug)]
pub enum Report {
    /// Search progress; `pv` is `info.pv` in USI notation.
    Info {
        /// The search's report.
        info: Info,
        /// The principal variation as USI moves.
        pv: Vec<String>,
    },
    /// The one answer to a search `go`.
    BestMove(Decision),
    /// One root move of `go perft` and its count.
    PerftMove {
        /// The move in USI notation.
        mv: String,
        /// Leaf count below it.
        nodes: u64,
    },
    /// The total of `go perft`.
    PerftTotal(u64),
    /// A remark for the user (`info string`).
    Message(String),
}

/// A search's decision, ready to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play `mv`, expecting `ponder`.
    Move {
        /// The move in USI notation.
        mv: String,
        /// The expected reply, if any.
        ponder: Option<String>,
    },
    /// No legal move, or lost beyond doubt.
    Resign,
    /// The entering-king declaration holds.
    Win,
}

/// Where reports go; called from the engine's threads.
pub type Sink = Arc<dyn Fn(Report) + Send + Sync>;

/// A setting the engine understands (the protocol layer maps option names
/// and values onto these).
#[derive(Copy, Clone, Debug)]
pub enum Setting {
    /// Play this variant; resets the position to its start.
    Variant(&'static Variant),
    /// Hash table size in MB.
    HashMb(usize),
    /// Whether the GUI lets the engine ponder (`USI_Ponder`; informational).
    Ponder(bool),
    /// Lines to report.
    MultiPv(u32),
    /// Search threads (only 1 exists for now).
    Threads(u32),
    /// Game ply at which the game is drawn (0 = off).
    MaxMovesToDraw(u32),
    /// Milliseconds kept back per move for communication delays.
    MoveOverhead(u64),
    /// Whether the entering-king declaration may be used.
    Declaration(bool),
    /// Empty the hash table.
    ClearHash,
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A search or perft is running.
    Busy,
    /// The SFEN does not describe a position of the current variant.
    Sfen {
        /// The current variant.
        variant: &'static str,
        /// What is wrong.
        err: SfenError,
    },
    /// A move of `position ... moves` was rejected.
    Move {
        /// 1-based index in the move list.
        index: usize,
        /// The move as sent (shortened).
        text: String,
        /// Malformed or illegal.
        err: MoveError,
    },
    /// The hash table of that size cannot be allocated.
    HashAlloc(usize),
    /// A value out of the range the engine supports.
    OutOfRange(String),
    /// `bench` failed.
    Bench(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy => write!(f, "a search is running (send stop first)"),
            EngineError::Sfen { variant, err } => write!(f, "bad SFEN for {variant}: {err}"),
            EngineError::Move { index, text, err } => {
                write!(f, "move {index} '{text}' is {err}")
            }
            EngineError::HashAlloc(mb) => write!(f, "cannot allocate a hash table of {mb} MB"),
            EngineError::OutOfRange(s) => write!(f, "{s}"),
            EngineError::Bench(s) => write!(f, "bench: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Why a move string was rejected.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not USI move syntax for this board.
    Malformed,
    /// Well formed, but not a legal move here.
    Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed => write!(f, "malformed"),
            MoveError::Illegal => write!(f, "illegal"),
        }
    }
}

/// At most this many characters of user input are echoed in a message.
const ECHO_MAX: usize = 40;

/// User input made fit to echo in a message: at most `ECHO_MAX` characters,
/// anything but printable ASCII shown as `?` (clients may decode our output as
/// ASCII or Shift-JIS).
pub fn clip(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(ECHO_MAX)
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect();
    if s.chars().nth(ECHO_MAX).is_some() {
        out.push_str("...");
    }
    out
}

/// Parses a USI move (`7g7f`, `2b3c+`, `P*5e`) and checks it is legal in `pos`.
pub fn parse_move<W: BitWord>(pos: &Position<W>, s: &str) -> Result<Move, MoveError> {
    let v = pos.variant();
    let g = v.geometry();
    let m = if let Some((piece, sq)) = s.split_once('*') {
        let mut letters = piece.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(MoveError::Malformed);
        };
        if !letter.is_ascii_uppercase() {
            return Err(MoveError::Malformed);
        }
        let to = g.parse(sq).ok_or(MoveError::Malformed)?;
        let kind = v.kind_by_letter(letter, false).ok_or(MoveError::Illegal)?;
        Move::drop(kind, to)
    } else {
        let (body, promote) = match s.strip_suffix('+') {
            Some(b) => (b, true),
            None => (s, false),
        };
        let split = body
            .char_indices()
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, c)| i + c.len_utf8())
            .ok_or(MoveError::Malformed)?;
        let from = g.parse(&body[..split]).ok_or(MoveError::Malformed)?;
        let to = g.parse(&body[split..]).ok_or(MoveError::Malformed)?;
        Move::normal(from, to, promote)
    };
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(MoveError::Illegal)
    }
}

/// The variant's position and searcher, over one bit word.
struct Inner<W: BitWord> {
    pos: Position<W>,
    /// `None` while lent to the search thread.
    search: Option<Search<W>>,
}

impl<W: BitWord> Inner<W> {
    fn new(v: &'static Variant) -> Inner<W> {
        Inner {
            pos: Position::startpos(v),
            search: Some(Search::new()),
        }
    }

    /// Builds the whole position first, so a rejection changes nothing.
    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), EngineError> {
        let v = self.pos.variant();
        let mut pos = match sfen {
            None => Position::<W>::startpos(v),
            Some(s) => Position::<W>::from_sfen(v, s).map_err(|err| EngineError::Sfen {
                variant: v.name(),
                err,
            })?,
        };
        for (i, text) in moves.iter().enumerate() {
            let m = parse_move(&pos, text).map_err(|err| EngineError::Move {
                index: i + 1,
                text: clip(text),
                err,
            })?;
            pos.do_move(m);
        }
        self.pos = pos;
        Ok(())
    }

    fn display(&self) -> String {
        display(&self.pos)
    }
}

/// The two widths a variant can run on.
enum Core {
    W64(Box<Inner<u64>>),
    W128(Box<Inner<u128>>),
}

macro_rules! with_core {
    ($core:expr, $inner:ident => $body:expr) => {
        match $core {
            Core::W64($inner) => $body,
            Core::W128($inner) => $body,
        }
    };
}

impl Core {
    fn new(v: &'static Variant) -> Core {
        match Width::for_variant(v) {
            Width::W64 => Core::W64(Box::new(Inner::new(v))),
            Width::W128 => Core::W128(Box::new(Inner::new(v))),
        }
    }
}

/// What a finished job hands back.
enum Returned {
    W64(Search<u64>, TranspositionTable),
    W128(Search<u128>, TranspositionTable),
    Nothing,
}

/// State shared between the engine and one running job.
struct Shared {
    ctl: SearchControl,
    /// `go infinite`: hold the answer until `stop`.
    infinite: bool,
    /// Set just before the job prints its final report: it is as good as done.
    reported: AtomicBool,
    /// `stop` (or the hard time limit): unlike `ctl.stop`, which a restart
    /// also sets for a moment, this one is final.
    stopping: AtomicBool,
    /// Clock sent with `ponderhit`, for the hard time limit.
    ponderhit_limits: Mutex<Option<Limits>>,
    /// For a `go ponder` without a clock (shogiarena's early ponder): the
    /// limits to search with once `ponderhit` brings the clock.
    restart_base: Option<Limits>,
    /// Set by such a `ponderhit`: search again with these limits.
    restart: Mutex<Option<Limits>>,
}

impl Shared {
    fn new(limits: &Limits) -> Shared {
        let clockless = limits.time == [None, None]
            && limits.byoyomi == 0
            && limits.movetime.is_none()
            && !limits.infinite;
        Shared {
            ctl: SearchControl::default(),
            infinite: limits.infinite,
            reported: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            ponderhit_limits: Mutex::new(None),
            restart_base: (limits.ponder && clockless).then(|| limits.clone()),
            restart: Mutex::new(None),
        }
    }

    /// The final stop.
    fn request_stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.ctl.stop.store(true, Ordering::SeqCst);
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// The limits of a pending restart, unless a final stop came first; the
    /// stop flag is cleared for the new search.
    fn take_restart(&self) -> Option<Limits> {
        let l = self.restart.lock().ok()?.take()?;
        if self.stopping() {
            return None;
        }
        self.ctl.stop.store(false, Ordering::SeqCst);
        if self.stopping() {
            self.ctl.stop.store(true, Ordering::SeqCst);
            return None;
        }
        Some(l)
    }
}

struct Job {
    handle: JoinHandle<Returned>,
    shared: Arc<Shared>,
}

impl Job {
    fn wake(&self) {
        self.handle.thread().unpark();
    }
}

/// Options as the engine holds them.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    ponder: bool,
    search: SearchOptions,
}

/// The engine: one per protocol session.
pub struct Engine {
    sink: Sink,
    variant: &'static Variant,
    core: Core,
    /// `None` while lent to the search thread.
    tt: Option<TranspositionTable>,
    opts: Options,
    /// The table must be rebuilt at the current size when it comes back.
    pending_resize: bool,
    /// The table must be cleared when it comes back.
    pending_clear: bool,
    job: Option<Job>,
}

impl Engine {
    /// A new engine playing the default variant from its start, reporting to `sink`.
    pub fn new(sink: Sink) -> Engine {
        let variant = Variant::default_variant();
        Engine {
            sink,
            variant,
            core: Core::new(variant),
            tt: Some(TranspositionTable::new(DEFAULT_HASH_MB)),
            opts: Options {
                hash_mb: DEFAULT_HASH_MB,
                ponder: false,
                search: SearchOptions::default(),
            },
            pending_resize: false,
            pending_clear: false,
            job: None,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The options the next search will use.
    pub fn search_options(&self) -> &SearchOptions {
        &self.opts.search
    }

    /// Whether a search or perft is running and has not given its answer yet.
    pub fn is_busy(&mut self) -> bool {
        self.reap();
        self.job.is_some()
    }

    /// Applies a setting. The variant and the search options may change while
    /// a search runs (they apply to the next one); the hash table is resized or
    /// cleared once the running search gives it back.
    pub fn set(&mut self, s: Setting) -> Result<(), EngineError> {
        self.reap();
        match s {
            Setting::Variant(v) => {
                self.variant = v;
                self.core = Core::new(v);
                self.clear_tt();
            }
            Setting::HashMb(mb) => {
                if mb == 0 || mb > MAX_HASH_MB {
                    return Err(EngineError::OutOfRange(format!(
                        "hash size {mb} MB is out of range 1..{MAX_HASH_MB}"
                    )));
                }
                if !can_allocate(mb) {
                    return Err(EngineError::HashAlloc(mb));
                }
                self.opts.hash_mb = mb;
                if self.tt.is_some() {
                    self.tt = None; // free the old table first
                    self.tt = Some(TranspositionTable::new(mb));
                } else {
                    self.pending_resize = true;
                }
            }
            Setting::Ponder(on) => self.opts.ponder = on,
            Setting::MultiPv(n) => self.opts.search.multipv = n.max(1),
            Setting::Threads(n) => {
                if n != 1 {
                    return Err(EngineError::OutOfRange(format!(
                        "{n} threads: only 1 is supported"
                    )));
                }
            }
            Setting::MaxMovesToDraw(n) => self.opts.search.max_moves_to_draw = n,
            Setting::MoveOverhead(ms) => self.opts.search.move_overhead = ms,
            Setting::Declaration(on) => self.opts.search.declaration = on,
            Setting::ClearHash => self.clear_tt(),
        }
        Ok(())
    }

    fn clear_tt(&mut self) {
        match &mut self.tt {
            Some(tt) => tt.clear(),
            None => self.pending_clear = true,
        }
    }

    /// `usinewgame`: stops any search, forgets the hash table and heuristics.
    pub fn new_game(&mut self) {
        self.finish();
        self.clear_tt();
        with_core!(&mut self.core, inner => {
            if let Some(s) = &mut inner.search {
                s.clear();
            }
        });
    }

    /// Sets the position from an SFEN (`None` = the variant's start) and moves.
    /// All or nothing: on error the previous position stays.
    pub fn set_position(
        &mut self,
        sfen: Option<&str>,
        moves: &[String],
    ) -> Result<(), EngineError> {
        with_core!(&mut self.core, inner => inner.set_position(sfen, moves))
    }

    /// The position as SFEN.
    pub fn sfen(&self) -> String {
        with_core!(&self.core, inner => inner.pos.to_sfen())
    }

    /// A human-readable picture of the position, SFEN, hash and checkers.
    pub fn display(&self) -> String {
        with_core!(&self.core, inner => inner.display())
    }

    /// Static evaluation of the position, side to move's view.
    pub fn eval(&self) -> i32 {
        with_core!(&self.core, inner => crate::eval::evaluate(&inner.pos))
    }

    /// The static evaluation split by term: one line per term with Black's,
    /// White's and the difference (Black's view), in centipawns.
    pub fn eval_trace(&self) -> Vec<String> {
        let (sums, _) = with_core!(&self.core, inner => crate::eval::trace(&inner.pos));
        let mut lines = vec![format!(
            "{:>12} {:>7} {:>7} {:>7}",
            "term", "black", "white", "total"
        )];
        for (term, [b, w]) in crate::eval::Term::ALL.iter().zip(sums.0) {
            lines.push(format!("{:>12} {b:>7} {w:>7} {:>7}", term.name(), b - w));
        }
        lines
    }

    /// Runs the benchmark (it prints to stdout itself).
    pub fn bench(&mut self, args: &[String]) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        crate::bench::run(args).map_err(EngineError::Bench)
    }

    /// Starts a search on its own thread. Exactly one `Report::BestMove`
    /// follows; while pondering or in `infinite` mode it waits for `ponderhit`
    /// or `stop` even when the search ends earlier.
    pub fn go(&mut self, limits: Limits) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        let shared = Arc::new(Shared::new(&limits));
        shared.ctl.pondering.store(limits.ponder, Ordering::SeqCst);
        let Some(tt) = self.tt.take() else {
            // Cannot happen: the table is back whenever no job runs.
            self.tt = Some(TranspositionTable::new(self.opts.hash_mb));
            return Err(EngineError::Busy);
        };
        let opts = self.opts.search.clone();
        let sink = self.sink.clone();
        let sh = shared.clone();
        let stm = with_core!(&self.core, inner => inner.pos.side_to_move());
        let hard = hard_limit(&limits, stm, opts.move_overhead);
        let limits_ponder = limits.ponder;
        let spawned = match &mut self.core {
            Core::W64(inner) => {
                let pos = inner.pos.clone();
                let search = inner.search.take().unwrap_or_default();
                thread::Builder::new().name("search".into()).spawn(move || {
                    let (s, tt) = search_job(pos, search, tt, limits, opts, sh, sink);
                    Returned::W64(s, tt)
                })
            }
            Core::W128(inner) => {
                let pos = inner.pos.clone();
                let search = inner.search.take().unwrap_or_default();
                thread::Builder::new().name("search".into()).spawn(move || {
                    let (s, tt) = search_job(pos, search, tt, limits, opts, sh, sink);
                    Returned::W128(s, tt)
                })
            }
        };
        let handle = match spawned {
            Ok(h) => h,
            Err(e) => {
                // The table went with the closure; build a new one.
                self.tt = Some(TranspositionTable::new(self.opts.hash_mb));
                self.restore_searcher();
                return Err(EngineError::OutOfRange(format!(
                    "cannot start a thread: {e}"
                )));
            }
        };
        if hard.is_some() || (limits_ponder && !shared.infinite) {
            let sh = shared.clone();
            let overhead = self.opts.search.move_overhead;
            // Without a watchdog the search's own time management still applies.
            let _ = thread::Builder::new()
                .name("watchdog".into())
                .spawn(move || watchdog(sh, hard, stm, overhead));
        }
        self.job = Some(Job { handle, shared });
        Ok(())
    }

    /// Starts `go perft <depth>` on its own thread (interruptible by `stop`).
    pub fn perft(&mut self, depth: u32) -> Result<(), EngineError> {
        if self.is_busy() {
            return Err(EngineError::Busy);
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(EngineError::OutOfRange(format!(
                "perft depth {depth} is above {MAX_PERFT_DEPTH}"
            )));
        }
        let shared = Arc::new(Shared::new(&Limits::default()));
        let sink = self.sink.clone();
        let sh = shared.clone();
        let spawned = with_core!(&self.core, inner => {
            let pos = inner.pos.clone();
            thread::Builder::new().name("perft".into()).spawn(move || {
                perft_job(pos, depth, &sh, &sink);
                Returned::Nothing
            })
        });
        let handle =
            spawned.map_err(|e| EngineError::OutOfRange(format!("cannot start a thread: {e}")))?;
        self.job = Some(Job { handle, shared });
        Ok(())
    }

    /// `stop`: the running job answers as soon as it can. Does not wait.
    pub fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.shared.request_stop();
            job.wake();
        }
    }

    /// `ponderhit`: the expected move was played; the clock now runs. `clock`
    /// holds times sent with it, if any: they set the hard time limit, and a
    /// `go ponder` that had no clock at all is searched again with them (the
    /// hash table keeps what pondering found), so the search's own time
    /// management applies.
    pub fn ponderhit(&mut self, clock: Option<Limits>) {
        let Some(job) = &self.job else {
            return;
        };
        let sh = &job.shared;
        if let Some(c) = clock {
            if let Ok(mut l) = sh.ponderhit_limits.lock() {
                *l = Some(c.clone());
            }
            let pondering = sh.ctl.pondering.load(Ordering::SeqCst);
            if let (Some(base), true) = (&sh.restart_base, pondering) {
                let again = Limits {
                    ponder: false,
                    depth: base.depth,
                    nodes: base.nodes,
                    ..c
                };
                if let Ok(mut r) = sh.restart.lock() {
                    *r = Some(again);
                }
                sh.ctl.stop.store(true, Ordering::SeqCst);
            }
        }
        sh.ctl.pondering.store(false, Ordering::SeqCst);
        job.wake();
    }

    /// Stops any job and waits until it has answered and returned what it
    /// borrowed.
    pub fn finish(&mut self) {
        self.stop();
        self.join();
    }

    /// Like `finish`, but gives up waiting after `timeout` (for `quit`).
    pub fn finish_within(&mut self, timeout: Duration) {
        self.stop();
        let start = Instant::now();
        while let Some(job) = &self.job {
            if job.handle.is_finished() || start.elapsed() >= timeout {
                break;
            }
            thread::sleep(Duration::from_millis(1));
        }
        if self.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
            self.join();
        }
    }

    /// Joins a job that has answered or was told to stop.
    fn reap(&mut self) {
        let done = self.job.as_ref().is_some_and(|j| {
            j.handle.is_finished()
                || j.shared.reported.load(Ordering::SeqCst)
                || j.shared.stopping()
        });
        if done {
            self.join();
        }
    }

    fn join(&mut self) {
        let Some(job) = self.job.take() else {
            return;
        };
        match job.handle.join() {
            Ok(Returned::W64(s, tt)) => {
                if let Core::W64(inner) = &mut self.core {
                    inner.search.get_or_insert(s);
                }
                self.tt = Some(tt);
            }
            Ok(Returned::W128(s, tt)) => {
                if let Core::W128(inner) = &mut self.core {
                    inner.search.get_or_insert(s);
                }
                self.tt = Some(tt);
            }
            Ok(Returned::Nothing) => {}
            Err(_) => log::error!("the search thread panicked"),
        }
        self.restore_searcher();
        if self.tt.is_none() || self.pending_resize {
            self.tt = None;
            self.tt = Some(TranspositionTable::new(self.opts.hash_mb));
            self.pending_clear = false;
        }
        self.pending_resize = false;
        if std::mem::take(&mut self.pending_clear) {
            if let Some(tt) = &mut self.tt {
                tt.clear();
            }
        }
    }

    /// Gives the core a fresh searcher if it has none.
    fn restore_searcher(&mut self) {
        with_core!(&mut self.core, inner => {
            if inner.search.is_none() {
                inner.search = Some(Search::new());
            }
        });
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_within(Duration::from_millis(500));
    }
}

/// Whether `mb` megabytes can be had (so that a huge `USI_Hash` is refused
/// instead of aborting the process).
fn can_allocate(mb: usize) -> bool {
    let Some(bytes) = mb.checked_mul(1 << 20) else {
        return false;
    };
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// The hard time limit in ms after which the watchdog stops the search, if the
/// limits have a clock: never more than the mover's remaining time plus
/// byoyomi, less the overhead (whatever the GUI's increment convention), and
/// never more than `movetime`. The search's own time management normally
/// stops well before.
pub fn hard_limit(limits: &Limits, stm: Color, overhead: u64) -> Option<u64> {
    if limits.infinite {
        return None;
    }
    let clock = limits.time[stm.index()];
    let by_clock = (clock.is_some() || limits.byoyomi > 0).then(|| {
        clock
            .unwrap_or(0)
            .saturating_add(limits.byoyomi)
            .saturating_sub(overhead)
    });
    match (limits.movetime, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Stops the search at the hard limit, counted from `ponderhit` when pondering
/// (with the times `ponderhit` brought, if any).
fn watchdog(sh: Arc<Shared>, budget: Option<u64>, stm: Color, overhead: u64) {
    let mut start = Instant::now();
    let mut was_pondering = sh.ctl.pondering.load(Ordering::SeqCst);
    let mut budget = budget;
    loop {
        if sh.reported.load(Ordering::SeqCst) || sh.stopping() {
            return;
        }
        if sh.ctl.pondering.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(2));
            continue;
        }
        if was_pondering {
            was_pondering = false;
            start = Instant::now();
            let fresh = sh.ponderhit_limits.lock().ok().and_then(|l| l.clone());
            if let Some(b) = fresh.and_then(|l| hard_limit(&l, stm, overhead)) {
                budget = Some(b);
            }
        }
        let Some(budget) = budget else {
            return;
        };
        let elapsed = start.elapsed().as_millis() as u64;
        if elapsed >= budget {
            log::debug!("watchdog: hard time limit of {budget} ms reached");
            sh.request_stop();
            return;
        }
        thread::sleep(Duration::from_millis((budget - elapsed).min(2)));
    }
}

/// Waits while the answer must be held back: pondering until `ponderhit` or
/// `stop`, `infinite` until `stop`.
fn hold(sh: &Shared) {
    loop {
        if sh.ctl.stopped() {
            return;
        }
        if sh.ctl.pondering.load(Ordering::SeqCst) || sh.infinite {
            thread::park_timeout(Duration::from_millis(20));
            continue;
        }
        return;
    }
}

/// The search thread's body: search, check the answer, hold it if needed,
/// report it, give back the searcher and the table.
fn search_job<W: BitWord>(
    mut pos: Position<W>,
    mut search: Search<W>,
    mut tt: TranspositionTable,
    limits: Limits,
    opts: SearchOptions,
    sh: Arc<Shared>,
    sink: Sink,
) -> (Search<W>, TranspositionTable) {
    let root = pos.clone();
    let v = root.variant();
    let best = if opts.declaration && root.can_declare() {
        BestMove::Win
    } else if !root.has_legal_move() {
        BestMove::Resign
    } else {
        let mut on_info = |info: &Info| {
            let pv = info.pv.iter().map(|m| m.to_usi(v)).collect();
            sink(Report::Info {
                info: info.clone(),
                pv,
            });
        };
        let mut limits = limits;
        loop {
            let run = catch_unwind(AssertUnwindSafe(|| {
                search.run(&mut pos, &limits, &opts, &mut tt, &sh.ctl, &mut on_info)
            }));
            match run {
                Ok(b) => match sh.take_restart() {
                    Some(again) => {
                        log::debug!("ponderhit brought the clock: searching again");
                        pos = root.clone();
                        limits = again;
                    }
                    None => break b,
                },
                Err(_) => {
                    log::error!("search panicked; answering with a legal move");
                    search = Search::new();
                    tt.clear();
                    break BestMove::Move(Move::NONE, None);
                }
            }
        }
    };
    let decision = checked(&root, best, opts.declaration);
    hold(&sh);
    sh.reported.store(true, Ordering::SeqCst);
    sink(Report::BestMove(decision));
    (search, tt)
}

/// The search's answer, made safe to send: an illegal best move is replaced by
/// a legal one, an illegal ponder move dropped, a false `win` not declared.
fn checked<W: BitWord>(root: &Position<W>, best: BestMove, declaration: bool) -> Decision {
    let v = root.variant();
    let fallback = || match root.legal_moves().first() {
        Some(m) => Decision::Move {
            mv: m.to_usi(v),
            ponder: None,
        },
        None => Decision::Resign,
    };
    match best {
        BestMove::Resign => Decision::Resign,
        BestMove::Win if declaration && root.can_declare() => Decision::Win,
        BestMove::Win => {
            log::error!("search answered win where the declaration does not hold");
            fallback()
        }
        BestMove::Move(m, ponder) => {
            if !root.is_legal(m) {
                if !m.is_none() {
                    log::error!("search answered the illegal move {}", m.to_usi(v));
                }
                return fallback();
            }
            let ponder = ponder.filter(|&p| {
                let mut after = root.clone();
                after.do_move(m);
                after.is_legal(p)
            });
            Decision::Move {
                mv: m.to_usi(v),
                ponder: ponder.map(|p| p.to_usi(v)),
            }
        }
    }
}

/// `go perft`: divide at the root, checking `stop` between subtrees.
fn perft_job<W: BitWord>(mut pos: Position<W>, depth: u32, sh: &Shared, sink: &Sink) {
    let v = pos.variant();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for m in pos.legal_moves() {
            pos.do_move(m);
            let n = perft_stoppable(&mut pos, depth - 1, &sh.ctl);
            pos.undo_move();
            let Some(n) = n else {
                sh.reported.store(true, Ordering::SeqCst);
                sink(Report::Message("perft stopped".into()));
                return;
            };
            sink(Report::PerftMove {
                mv: m.to_usi(v),
                nodes: n,
            });
            total += n;
        }
    }
    sh.reported.store(true, Ordering::SeqCst);
    sink(Report::PerftTotal(total));
}

/// Perft that gives up (`None`) once `stop` is set; subtrees of depth 3 or
/// less are counted without checking.
fn perft_stoppable<W: BitWord>(
    pos: &mut Position<W>,
    depth: u32,
    ctl: &SearchControl,
) -> Option<u64> {
    if depth <= 3 {
        return Some(perft::perft(pos, depth));
    }
    if ctl.stopped() {
        return None;
    }
    let mut n = 0;
    for m in pos.legal_moves() {
        pos.do_move(m);
        let sub = perft_stoppable(pos, depth - 1, ctl);
        pos.undo_move();
        n += sub?;
    }
    Some(n)
}

/// The board as text (White's pieces in lowercase, `+` for promoted), then
/// SFEN, hash and checkers.
pub fn display<W: BitWord>(pos: &Position<W>) -> String {
    let v = pos.variant();
    let g = v.geometry();
    let mut s = String::new();
    s.push_str(&format!("variant {}\n", v.name()));
    s.push(' ');
    for f in (1..=g.files).rev() {
        s.push_str(&format!("{f:>3}"));
    }
    s.push('\n');
    let rule = format!(" +{}+\n", "-".repeat(3 * g.files as usize + 1));
    s.push_str(&rule);
    for r in 0..g.ranks as i32 {
        s.push_str(" |");
        for f in (0..g.files as i32).rev() {
            let Some(sq) = g.square(f, r) else { continue };
            let p = pos.piece_at(sq);
            let token = if p.is_none() {
                ".".to_string()
            } else {
                let t = v.kind_token(p.kind());
                if p.color() == Color::White {
                    t.to_ascii_lowercase()
                } else {
                    t
                }
            };
            s.push_str(&format!("{token:>3}"));
        }
        s.push_str(&format!(" | {}\n", (b'a' + r as u8) as char));
    }
    s.push_str(&rule);
    let sfen = pos.to_sfen();
    let hand = sfen.split(' ').nth(2).unwrap_or("-");
    s.push_str(&format!("hands: {hand}\n"));
    s.push_str(&format!("sfen: {sfen}\n"));
    s.push_str(&format!("key: {:016X}\n", pos.hash()));
    let checkers: Vec<String> = pos.checkers().squares().map(|sq| g.name(sq)).collect();
    s.push_str(&format!(
        "checkers: {}\n",
        if checkers.is_empty() {
            "-".to_string()
        } else {
            checkers.join(" ")
        }
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn engine() -> (Engine, mpsc::Receiver<Report>) {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let sink: Sink = Arc::new(move |r| {
            let _ = tx.lock().map(|t| t.send(r));
        });
        (Engine::new(sink), rx)
    }

    fn bestmove(rx: &mpsc::Receiver<Report>) -> Decision {
        loop {
            match rx.recv_timeout(Duration::from_secs(10)).expect("bestmove") {
                Report::BestMove(d) => return d,
                _ => continue,
            }
        }
    }

    #[test]
    fn moves_parse_and_check_legality() {
        let v = Variant::by_name("shogi").unwrap();
        let pos = Position::<u128>::startpos(v);
        assert!(parse_move(&pos, "7g7f").is_ok());
        assert_eq!(parse_move(&pos, "7g7e"), Err(MoveError::Illegal));
        assert_eq!(parse_move(&pos, "P*5e"), Err(MoveError::Illegal));
        assert_eq!(parse_move(&pos, "7g7f+"), Err(MoveError::Illegal));
        for bad in [
            "", "7g", "7g7", "0a1a", "7g7f++", "p*5e", "PP*5e", "*5e", "P*", "10a1a", "é7f",
        ] {
            assert_eq!(parse_move(&pos, bad), Err(MoveError::Malformed), "{bad}");
        }
    }

    #[test]
    fn rejected_position_keeps_the_old_one() {
        let (mut e, _rx) = engine();
        e.set_position(None, &["7g7f".into()]).unwrap();
        let before = e.sfen();
        let err = e.set_position(None, &["7g7f".into(), "3c3d".into(), "1a1b".into()]);
        assert!(
            matches!(err, Err(EngineError::Move { index: 3, .. })),
            "{err:?}"
        );
        assert_eq!(e.sfen(), before);
        assert!(e
            .set_position(Some("rbnsgk/5p/6/6/P5/KGSNBR b - 1"), &[])
            .is_err());
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
            .map_or(true, |r| !matches!(r, Report::BestMove(_))));
        assert_eq!(e.go(Limits::default()), Err(EngineError::Busy));
        e.stop();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
        e.go(Limits {
            depth: Some(1),
            ..Limits::default()
        })
        .unwrap();
        assert!(matches!(bestmove(&rx), Decision::Move { .. }));
    }

    #[test]
    fn mated_position_resigns() {
        let (mut e, rx) = engine();
        // Black king on 1i, mated by a gold on 1h backed by a lance.
        let sfen = "k8/9/9/9/9/9/8l/8g/8K b - 1";
        e.set_position(Some(sfen), &[]).unwrap();
        e.go(Limits::default()).unwrap();
        assert_eq!(bestmove(&rx), Decision::Resign);
    }

    #[test]
    fn hard_limits() {
        let b = Color::Black;
        let l = |f: &dyn Fn(&mut Limits)| {
            let mut x = Limits::default();
            f(&mut x);
            x
        };
        assert_eq!(hard_limit(&Limits::default(), b, 50), None);
        assert_eq!(
            hard_limit(&l(&|x| x.movetime = Some(200)), b, 50),
            Some(200)
        );
        assert_eq!(hard_limit(&l(&|x| x.byoyomi = 1000), b, 50), Some(950));
        assert_eq!(
            hard_limit(&l(&|x| x.time = [Some(1000), Some(5)]), b, 50),
            Some(950)
        );
        assert_eq!(
            hard_limit(&l(&|x| x.time = [Some(10), Some(5000)]), Color::White, 50),
            Some(4950)
        );
        assert_eq!(
            hard_limit(
                &l(&|x| {
                    x.time = [Some(10), None];
                    x.infinite = true
                }),
                b,
                50
            ),
            None
        );
    }
}
