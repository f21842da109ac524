//! A page's engine session: a child process of this executable running the
//! USI engine (no arguments), driven by USI text exactly as a GUI drives it.
//!
//! A reader thread sorts the child's output: search output (`info`,
//! `bestmove`, `checkmate`) goes to the page's event streams, tagged with the
//! search it belongs to; every other line answers the commands a request
//! sent, which end with `isready` so that `readyok` closes the answer. When
//! the child's output ends the session is dead: the streams are told, and
//! `restart` starts a new child from the last position the page set.

use super::error::WebError;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// How long a request waits for the engine's `readyok` before it counts the
/// engine as hung (and kills it).
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// How long `stop` waits for the search's `bestmove` or `checkmate`.
const STOP_WAIT: Duration = Duration::from_secs(5);
/// Each session's hash table in MB: small, since several pages may be open.
const SESSION_HASH_MB: u32 = 32;

/// What the reader thread and the event streams share.
#[derive(Default)]
struct Shared {
    /// The event streams open on this session.
    streams: Vec<Sender<String>>,
    /// The search whose output is coming (the page ignores older ones).
    search: u64,
    /// A search (`go`) is running: its `bestmove`/`checkmate` has not come.
    busy: bool,
    /// The child's output has ended.
    dead: bool,
    /// When the page was last heard from (a request, or an open stream).
    last_seen: Option<Instant>,
    /// Streams open now.
    open_streams: usize,
    /// The child now running (each new child counts one up): a reader of an
    /// older child has no say any more.
    generation: u64,
}

/// The running child.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// Lines that answer commands (not search output).
    answers: Receiver<String>,
}

/// What a request may change, kept to replay on a new child.
struct Setup {
    engine: Option<Engine>,
    /// `setoption` lines in force (variant first), replayed on restart.
    options: Vec<(String, String)>,
    /// The last `position` command the engine accepted.
    position: Option<String>,
}

/// One page's engine session.
pub(crate) struct Session {
    /// The session's number, in its URL.
    pub(crate) id: u64,
    exe: PathBuf,
    setup: Mutex<Setup>,
    shared: Arc<(Mutex<Shared>, Condvar)>,
}

/// Locks `m`, taking over a lock poisoned by a panicking thread.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The game lines `d` prints, read into fields.
#[derive(Default)]
struct Board {
    sfen: String,
    fen: String,
    legal: Vec<String>,
    status: String,
    checkers: Vec<String>,
    declare: bool,
}

impl Session {
    /// Starts a session with its own engine child for `variant`.
    pub(crate) fn start(id: u64, exe: PathBuf, variant: &str) -> Result<Session, WebError> {
        let s = Session {
            id,
            exe,
            setup: Mutex::new(Setup {
                engine: None,
                options: vec![
                    ("USI_Variant".into(), variant.into()),
                    ("USI_Hash".into(), SESSION_HASH_MB.to_string()),
                ],
                position: None,
            }),
            shared: Arc::new((Mutex::new(Shared::default()), Condvar::new())),
        };
        s.touch();
        s.respawn(&mut lock(&s.setup))?;
        Ok(s)
    }

    /// The engine child's process id (the tests kill it to check recovery).
    pub(crate) fn pid(&self) -> Option<u32> {
        lock(&self.setup).engine.as_ref().map(|e| e.child.id())
    }

    /// Notes that the page was heard from.
    pub(crate) fn touch(&self) {
        lock(&self.shared.0).last_seen = Some(Instant::now());
    }

    /// How long the page has been silent: zero while a stream is open.
    pub(crate) fn idle(&self) -> Duration {
        let sh = lock(&self.shared.0);
        if sh.open_streams > 0 {
            return Duration::ZERO;
        }
        sh.last_seen.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Starts a new child, replays the options and the last position.
    fn respawn(&self, setup: &mut Setup) -> Result<(), WebError> {
        if let Some(mut old) = setup.engine.take() {
            let _ = old.child.kill();
            let _ = old.child.wait();
        }
        let mut child = Command::new(&self.exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .map_err(|e| WebError::Internal(format!("cannot start the engine: {e}")))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(WebError::Internal("no pipes to the engine".into()));
            }
        };
        let (tx, rx) = mpsc::channel();
        let generation = {
            let mut sh = lock(&self.shared.0);
            sh.dead = false;
            sh.busy = false;
            sh.generation += 1;
            sh.generation
        };
        let shared = self.shared.clone();
        thread::Builder::new()
            .name(format!("web-engine-{}", self.id))
            .spawn(move || read_engine(BufReader::new(stdout), tx, shared, generation))
            .map_err(|e| WebError::Internal(format!("cannot start a thread: {e}")))?;
        setup.engine = Some(Engine {
            child,
            stdin,
            answers: rx,
        });
        let mut cmds = vec!["usi".to_string()];
        for (name, value) in &setup.options {
            cmds.push(format!("setoption name {name} value {value}"));
        }
        cmds.push("usinewgame".into());
        if let Some(p) = &setup.position {
            cmds.push(p.clone());
        }
        let answer = exchange(setup, &cmds)?;
        if let Some(e) = first_error(&answer) {
            return Err(WebError::Internal(format!("engine set-up: {e}")));
        }
        Ok(())
    }

    /// Stops the running search, if any, and waits for its last line.
    fn stop_search(&self, setup: &mut Setup) -> Result<(), WebError> {
        let (m, cv) = &*self.shared;
        if !lock(m).busy {
            return Ok(());
        }
        send(setup, &["stop".to_string()])?;
        let sh = lock(m);
        let (sh, _) = cv
            .wait_timeout_while(sh, STOP_WAIT, |s| s.busy && !s.dead)
            .unwrap_or_else(|p| p.into_inner());
        if sh.busy && !sh.dead {
            drop(sh);
            kill(setup);
            return Err(WebError::Dead);
        }
        Ok(())
    }

    /// The engine if alive, else `WebError::Dead`.
    fn check_alive(&self, setup: &Setup) -> Result<(), WebError> {
        if setup.engine.is_none() || lock(&self.shared.0).dead {
            return Err(WebError::Dead);
        }
        Ok(())
    }

    /// Sets the variant and the position (`start`: `startpos`, `sfen ...` or
    /// `fen ...`; then the moves) and answers with the engine's view of it.
    /// A position the engine rejects changes nothing and answers its message.
    pub(crate) fn position(
        &self,
        variant: &str,
        start: &str,
        moves: &[String],
    ) -> Result<Value, WebError> {
        self.touch();
        let mut setup = lock(&self.setup);
        self.check_alive(&setup)?;
        self.stop_search(&mut setup)?;
        let mut cmds = Vec::new();
        let variant_changed = setup.options[0].1 != variant;
        if variant_changed {
            cmds.push(format!("setoption name USI_Variant value {variant}"));
            cmds.push("usinewgame".into());
        }
        let mut command = format!("position {start}");
        if !moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&moves.join(" "));
        }
        cmds.push(command.clone());
        cmds.push("d".into());
        let answer = exchange(&mut setup, &cmds)?;
        if let Some(e) = first_error(&answer) {
            // The engine kept its last good position, but a new variant
            // came with a start position: the old variant and position go
            // back, so that nothing changed.
            if variant_changed {
                let mut back = vec![
                    format!("setoption name USI_Variant value {}", setup.options[0].1),
                    "usinewgame".to_string(),
                ];
                back.extend(setup.position.clone());
                exchange(&mut setup, &back)?;
            }
            return Err(WebError::Engine(e));
        }
        setup.options[0].1 = variant.to_string();
        setup.position = Some(command);
        let b = read_board(&answer);
        Ok(json!({
            "sfen": b.sfen,
            "fen": b.fen,
            "legal": b.legal,
            "status": b.status,
            "checkers": b.checkers,
            "declare": b.declare,
        }))
    }

    /// Sets the playing level: a `Skill_Level`, or a `USI_Elo` (limited
    /// strength).
    pub(crate) fn level(&self, skill: Option<i64>, elo: Option<i64>) -> Result<(), WebError> {
        self.touch();
        let mut setup = lock(&self.setup);
        self.check_alive(&setup)?;
        self.stop_search(&mut setup)?;
        let mut opts = vec![("USI_LimitStrength".to_string(), elo.is_some().to_string())];
        if let Some(e) = elo {
            opts.push(("USI_Elo".into(), e.to_string()));
        }
        opts.push(("Skill_Level".into(), skill.unwrap_or(20).to_string()));
        let cmds: Vec<String> = opts
            .iter()
            .map(|(n, v)| format!("setoption name {n} value {v}"))
            .collect();
        let answer = exchange(&mut setup, &cmds)?;
        if let Some(e) = first_error(&answer) {
            return Err(WebError::Engine(e));
        }
        for (n, v) in opts {
            match setup.options.iter_mut().find(|(name, _)| *name == n) {
                Some(o) => o.1 = v,
                None => setup.options.push((n, v)),
            }
        }
        Ok(())
    }

    /// Starts a search (`go ...` as given) with MultiPV `multipv`; its output
    /// comes on the event stream tagged with the number returned.
    pub(crate) fn go(&self, go: &str, multipv: u32) -> Result<u64, WebError> {
        self.touch();
        let mut setup = lock(&self.setup);
        self.check_alive(&setup)?;
        self.stop_search(&mut setup)?;
        let answer = exchange(
            &mut setup,
            &[format!("setoption name MultiPV value {multipv}")],
        )?;
        if let Some(e) = first_error(&answer) {
            return Err(WebError::Engine(e));
        }
        let search = {
            let mut sh = lock(&self.shared.0);
            sh.search += 1;
            sh.busy = true;
            sh.search
        };
        let answer = exchange(&mut setup, &[go.to_string()])?;
        if let Some(e) = first_error(&answer) {
            lock(&self.shared.0).busy = false;
            return Err(WebError::Engine(e));
        }
        Ok(search)
    }

    /// Stops the search, if one runs.
    pub(crate) fn stop(&self) -> Result<(), WebError> {
        self.touch();
        let mut setup = lock(&self.setup);
        self.check_alive(&setup)?;
        self.stop_search(&mut setup)
    }

    /// A new engine child, set up as the old one was (options and position).
    pub(crate) fn restart(&self) -> Result<(), WebError> {
        self.touch();
        let mut setup = lock(&self.setup);
        self.respawn(&mut setup)
    }

    /// Stops any search and ends the child: `stop`, `quit`, then a kill if
    /// it has not gone within a second.
    pub(crate) fn close(&self) {
        // The event streams end (their connections close, which browsers
        // count against their few connections a host).
        lock(&self.shared.0).streams.clear();
        let mut setup = lock(&self.setup);
        let _ = send(&mut setup, &["stop".to_string(), "quit".to_string()]);
        if let Some(mut e) = setup.engine.take() {
            let t = Instant::now();
            while t.elapsed() < Duration::from_secs(1) {
                if let Ok(Some(_)) = e.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(20));
            }
            let _ = e.child.kill();
            let _ = e.child.wait();
        }
    }

    /// Opens an event stream: the receiver gets each event as a JSON text.
    /// The stream's first event says whether the engine is alive.
    pub(crate) fn subscribe(&self) -> Receiver<String> {
        let (tx, rx) = mpsc::channel();
        let mut sh = lock(&self.shared.0);
        let hello = json!({"type": "hello", "session": self.id, "dead": sh.dead});
        let _ = tx.send(hello.to_string());
        sh.streams.push(tx);
        sh.open_streams += 1;
        rx
    }

    /// A stream has closed (the page went away or reloads).
    pub(crate) fn unsubscribe(&self) {
        let mut sh = lock(&self.shared.0);
        sh.open_streams = sh.open_streams.saturating_sub(1);
        sh.last_seen = Some(Instant::now());
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.close();
    }
}

/// Kills the child (a hung engine).
fn kill(setup: &mut Setup) {
    if let Some(mut e) = setup.engine.take() {
        let _ = e.child.kill();
        let _ = e.child.wait();
    }
}

/// Writes `cmds` to the engine, one a line.
fn send(setup: &mut Setup, cmds: &[String]) -> Result<(), WebError> {
    let e = setup.engine.as_mut().ok_or(WebError::Dead)?;
    let mut text = String::new();
    for c in cmds {
        text.push_str(c);
        text.push('\n');
    }
    e.stdin
        .write_all(text.as_bytes())
        .and_then(|_| e.stdin.flush())
        .map_err(|_| WebError::Dead)
}

/// Sends `cmds` and `isready`, and returns the answer lines up to `readyok`.
fn exchange(setup: &mut Setup, cmds: &[String]) -> Result<Vec<String>, WebError> {
    // Answers left from a command nobody waited for are dropped.
    if let Some(e) = setup.engine.as_ref() {
        while e.answers.try_recv().is_ok() {}
    }
    let mut all = cmds.to_vec();
    all.push("isready".into());
    send(setup, &all)?;
    let e = setup.engine.as_ref().ok_or(WebError::Dead)?;
    let deadline = Instant::now() + ANSWER_WAIT;
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match e.answers.recv_timeout(left) {
            Ok(l) if l == "readyok" => return Ok(lines),
            Ok(l) => lines.push(l),
            Err(RecvTimeoutError::Disconnected) => return Err(WebError::Dead),
            Err(RecvTimeoutError::Timeout) => {
                kill(setup);
                return Err(WebError::Dead);
            }
        }
    }
}

/// The first `info string error: ...` message in `lines`.
fn first_error(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string error: "))
        .map(str::to_string)
}

/// The `d` lines read into fields.
fn read_board(lines: &[String]) -> Board {
    let mut b = Board::default();
    let words = |s: &str| -> Vec<String> {
        s.split_whitespace()
            .filter(|w| *w != "-")
            .map(str::to_string)
            .collect()
    };
    for l in lines {
        if let Some(s) = l.strip_prefix("sfen: ") {
            b.sfen = s.to_string();
        } else if let Some(s) = l.strip_prefix("Fen: ") {
            b.fen = s.to_string();
        } else if let Some(s) = l.strip_prefix("legal: ") {
            b.legal = words(s);
        } else if let Some(s) = l.strip_prefix("status: ") {
            b.status = s.to_string();
        } else if let Some(s) = l.strip_prefix("checkers: ") {
            b.checkers = words(s);
        } else if let Some(s) = l.strip_prefix("declare: ") {
            b.declare = s == "yes";
        }
    }
    b
}

/// The reader thread: sorts the engine's lines until its output ends.
fn read_engine<R: BufRead>(
    r: R,
    answers: Sender<String>,
    shared: Arc<(Mutex<Shared>, Condvar)>,
    generation: u64,
) {
    let (m, cv) = &*shared;
    for line in r.lines() {
        let Ok(line) = line else { break };
        let ends = line.starts_with("bestmove") || line.starts_with("checkmate");
        let search_output =
            ends || (line.starts_with("info ") && !line.starts_with("info string error"));
        if !search_output {
            if answers.send(line).is_err() {
                break;
            }
            continue;
        }
        let mut sh = lock(m);
        if sh.generation != generation {
            return;
        }
        let event = json!({"type": "engine", "search": sh.search, "line": line}).to_string();
        sh.streams.retain(|s| s.send(event.clone()).is_ok());
        if ends {
            sh.busy = false;
            cv.notify_all();
        }
    }
    let mut sh = lock(m);
    if sh.generation != generation {
        return;
    }
    sh.dead = true;
    sh.busy = false;
    let event = json!({"type": "dead"}).to_string();
    sh.streams.retain(|s| s.send(event.clone()).is_ok());
    cv.notify_all();
}
