//! The protocol front end, in two dialects: USI, and UCI as Fairy-Stockfish
//! speaks it (the first `usi` or `uci` chooses; USI until then). A reader
//! thread turns stdin into lines, `parse` turns lines into `Command`s, the
//! session hands them to the `Engine` and prints what comes back in its
//! dialect. Bad input of any kind is answered by one `info string error: ...`
//! line and the session goes on; EOF acts as `quit`.

mod command;
mod dialect;
mod display;
mod go;
mod options;

pub use command::{parse, Command, GameResult, Go, ParseError, Start};
pub use dialect::Dialect;
pub use go::{Clock, GoSearch};
pub use options::{option_lines, setting, OptionError};

use crate::engine::{Engine, EngineError, EvalBreakdown, Report, RootPosition, Setting, Sink};
use crate::search::Limits;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest input line accepted, in bytes; longer lines are rejected whole.
pub const MAX_LINE: usize = 1 << 20;

/// How long `quit` waits for a running search to give its answer.
const QUIT_WAIT: Duration = Duration::from_millis(1000);

/// The engine's name as `id name` gives it (ASCII).
pub const ENGINE_NAME: &str = concat!("Kawari ", env!("CARGO_PKG_VERSION"));
/// The `id author` line's value (ASCII).
pub const ENGINE_AUTHOR: &str = "the Kawari developers";

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

/// What the reader thread delivers.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, without its line end.
    Line(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped.
    Overlong(usize),
    /// End of input (or a read error).
    Eof,
}

/// Line-at-a-time output shared by the session and the search thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes `text` and a line end, and flushes, as one unit. Write errors
    /// (the GUI has gone) are ignored: there is nobody left to tell.
    pub fn line(&self, text: &str) {
        log::debug!(">> {text}");
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// `info string error: <msg>`.
    pub fn error(&self, msg: impl std::fmt::Display) {
        self.line(&format!("info string error: {msg}"));
    }
}

/// Runs the protocol loop on stdin/stdout until `quit` or EOF. Panics are logged
/// (stderr stays quiet unless `RUST_LOG` is set) and reported on stdout as
/// `info string error` lines by whoever catches them.
pub fn run_stdio() {
    std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
    run(std::io::stdin(), std::io::stdout());
}

/// Runs the protocol loop on any input and output until `quit` or end of input.
pub fn run<R, W>(input: R, output: W)
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let reader = thread::Builder::new()
        .name("usi-input".into())
        .spawn(move || read_lines(BufReader::new(input), &tx));
    if reader.is_err() {
        log::error!("cannot start the input thread");
        return;
    }
    let mut session = Session::new(Out::new(Box::new(output)));
    loop {
        let (input, at) = rx.recv().unwrap_or((Input::Eof, Instant::now()));
        let keep_going = match input {
            Input::Line(line) => session.handle_line(&line, at),
            Input::Overlong(n) => {
                session.out.error(format!(
                    "line of {n} bytes is longer than {MAX_LINE}; ignored"
                ));
                true
            }
            Input::Eof => false,
        };
        if !keep_going {
            break;
        }
    }
    session.engine.finish_within(QUIT_WAIT);
}

/// Sends the lines of `r` to `tx`, each with the moment it was read, until
/// end of input; then `Input::Eof`.
fn read_lines<R: BufRead>(mut r: R, tx: &mpsc::Sender<(Input, Instant)>) {
    let mut buf = Vec::new();
    loop {
        let item = match read_line_capped(&mut r, &mut buf, MAX_LINE) {
            Ok(Some(None)) => Input::Line(
                String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\r', '\n'])
                    .to_string(),
            ),
            Ok(Some(Some(n))) => Input::Overlong(n),
            Ok(None) | Err(_) => {
                let _ = tx.send((Input::Eof, Instant::now()));
                return;
            }
        };
        if tx.send((item, Instant::now())).is_err() {
            return;
        }
    }
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes.
/// `Ok(None)` at end of input; `Ok(Some(Some(len)))` for a line that was too
/// long (its content is dropped); `Ok(Some(None))` otherwise.
pub fn read_line_capped<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<Option<usize>>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        len = len.saturating_add(take);
        if len <= max.saturating_add(2) {
            buf.extend_from_slice(&chunk[..take]);
        } else {
            buf.clear();
        }
        r.consume(take);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    if len > max.saturating_add(2) {
        Ok(Some(Some(len)))
    } else {
        Ok(Some(None))
    }
}

/// The protocol session: parses lines, drives the engine, prints.
struct Session {
    out: Out,
    engine: Engine,
    /// Shared with the report sink, which prints from the engine's threads.
    dialect: Arc<Mutex<Dialect>>,
}

impl Session {
    fn new(out: Out) -> Session {
        let o = out.clone();
        let dialect = Arc::new(Mutex::new(Dialect::Usi));
        let d = dialect.clone();
        let sink: Sink = Arc::new(move |r: Report| {
            let dialect = *d.lock().unwrap_or_else(|p| p.into_inner());
            o.line(&dialect.report(&r))
        });
        Session {
            out,
            engine: Engine::new(sink),
            dialect,
        }
    }

    fn dialect(&self) -> Dialect {
        *self.dialect.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Handles one line, read at `at`; false once the session should end. A
    /// panic while handling it (a bug) is reported and the session goes on.
    fn handle_line(&mut self, line: &str, at: Instant) -> bool {
        log::debug!("<< {line}");
        match catch_unwind(AssertUnwindSafe(|| self.handle(line, at))) {
            Ok(go_on) => go_on,
            Err(_) => {
                self.out.error("internal error while handling this command");
                true
            }
        }
    }

    fn handle(&mut self, line: &str, at: Instant) -> bool {
        let cmd = match parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.out.error(e);
                return true;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::Hello(d) => self.hello(d),
            Command::IsReady => {
                self.engine.prepare();
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => {
                let result = setting(&name, value.as_deref())
                    .map_err(|e| e.to_string())
                    .and_then(|s| self.engine.set(s).map_err(|e| e.to_string()));
                if let Err(e) = result {
                    self.out.error(e);
                }
            }
            Command::NewGame => self.engine.new_game(),
            Command::Position { start, moves } => self.position(start, &moves),
            Command::Go(go) => self.go(go, at),
            Command::Stop => self.engine.stop(),
            Command::PonderHit(clock) => {
                self.warn_negative(&clock);
                let fresh = (clock != Clock::default()).then(|| {
                    self.dialect().limits(&GoSearch {
                        clock,
                        ..GoSearch::default()
                    })
                });
                self.engine.ponderhit(fresh);
            }
            Command::GameOver(_) => self.engine.finish(),
            Command::Quit => return false,
            Command::Debug(on) => log::debug!("debug {on}"),
            Command::Display => {
                for l in self.engine.display().lines() {
                    self.out.line(l);
                }
                for l in display::game_lines(&self.engine, self.dialect()) {
                    self.out.line(&l);
                }
            }
            Command::Bench(args) => {
                if let Err(e) = self.engine.bench(&args) {
                    self.out.error(e);
                }
            }
            Command::Eval => {
                for l in eval_lines(&self.engine.eval()) {
                    self.out.line(&format!("info string {l}"));
                }
            }
        }
        true
    }

    /// `usi` or `uci`: from now on the session speaks `d`. UCI has no
    /// `bestmove win`, so a UCI session never declares (and a session that
    /// turns back to USI gets the default rule back).
    fn hello(&mut self, d: Dialect) {
        let before = std::mem::replace(
            &mut *self.dialect.lock().unwrap_or_else(|p| p.into_inner()),
            d,
        );
        if d != before {
            let declare = d == Dialect::Usi && crate::search::SearchOptions::default().declaration;
            if let Err(e) = self.engine.set(Setting::Declaration(declare)) {
                self.out.error(e);
            }
        }
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for l in option_lines(d) {
            self.out.line(&l);
        }
        self.out.line(d.ok_word());
    }

    /// `position`: all or nothing; a rejected one leaves the old position.
    fn position(&mut self, start: Start, moves: &[String]) {
        let v = self.engine.variant();
        let root = match &start {
            Start::StartPos => Ok(RootPosition::startpos(v)),
            Start::Sfen(s) => RootPosition::parse(Dialect::Usi.notation(), v, s),
            Start::Fen(s) => RootPosition::parse(Dialect::Uci.notation(), v, s),
        };
        let result = root.and_then(|mut root| {
            root.play(self.dialect().notation(), moves)?;
            self.engine.set_position(root)
        });
        if let Err(e) = result {
            let why = match e {
                EngineError::Move { index, err } => format!(
                    "move {index} '{}' is {err}",
                    clip(moves.get(index - 1).map_or("", String::as_str))
                ),
                e => e.to_string(),
            };
            self.out.error(format!("position rejected: {why}"));
        }
    }

    fn warn_negative(&self, clock: &Clock) {
        if !clock.negative.is_empty() {
            self.out
                .error(format!("negative {} read as 0", clock.negative.join(", ")));
        }
    }

    /// Starts what `go` asks for; clocks count from `at`, when the line was
    /// read, as the GUI's do.
    fn go(&mut self, go: Go, at: Instant) {
        if self.engine.is_busy() {
            self.out
                .error("go ignored: a search is running (send stop first)");
            return;
        }
        let result = match go {
            Go::Search(g) => {
                self.warn_negative(&g.clock);
                let mut limits: Limits = self.dialect().limits(&g);
                limits.received = Some(at);
                let notation = self.dialect().notation();
                for (i, text) in g.searchmoves.iter().enumerate() {
                    match self.engine.root().parse_move(notation, text) {
                        Ok(m) => limits.searchmoves.push(m),
                        Err(EngineError::Move { err, .. }) => self.out.error(format!(
                            "searchmoves: move {} '{}' is {err}; left out",
                            i + 1,
                            clip(text)
                        )),
                        Err(e) => self.out.error(e),
                    }
                }
                self.engine.go(limits)
            }
            Go::Perft(depth) => self.engine.perft(depth),
            // UCI's `go mate N` asks for a mate in N moves and a `bestmove`:
            // a search of the 2N - 1 plies such a mate takes.
            Go::Mate(Some(n)) if self.dialect() == Dialect::Uci => {
                let plies = n.clamp(1, 64) as u32 * 2 - 1;
                self.engine.go(Limits {
                    depth: Some(plies),
                    mate: Some(plies.div_ceil(2)),
                    ..Limits::default()
                })
            }
            Go::Mate(None) if self.dialect() == Dialect::Uci => Err(EngineError::MateNeedsMoves),
            Go::Mate(ms) => self.engine.mate(ms.map(Duration::from_millis)),
        };
        if let Err(e) = result {
            self.out.error(format!("go ignored: {e}"));
        }
    }
}

/// The `eval` table: one line per term with Black's, White's and the
/// difference (Black's view), the hand-made and network scores, and last the
/// evaluation the search uses.
fn eval_lines(e: &EvalBreakdown) -> Vec<String> {
    let mut lines = vec![format!(
        "{:>12} {:>7} {:>7} {:>7}",
        "term", "black", "white", "total"
    )];
    for &(term, b, w) in &e.terms {
        lines.push(format!("{term:>12} {b:>7} {w:>7} {:>7}", b - w));
    }
    lines.push(format!(
        "hand-made evaluation {} (side to move)",
        e.hand_made
    ));
    lines.push(match &e.network {
        Some(n) => format!(
            "network {} {} {}x{}: {} (side to move){}",
            n.variant,
            n.features,
            n.inputs,
            n.hidden,
            n.score,
            if e.hunt != 0 {
                format!(", bare-king hunt {:+}", e.hunt)
            } else {
                String::new()
            }
        ),
        None => "network: none in use, the hand-made evaluation plays".to_string(),
    });
    lines.push(format!("eval {}", e.total));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn capped(input: &[u8], max: usize) -> Vec<Input> {
        let mut r = Cursor::new(input.to_vec());
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(res) = read_line_capped(&mut r, &mut buf, max).unwrap() {
            out.push(match res {
                None => Input::Line(String::from_utf8_lossy(&buf).into_owned()),
                Some(n) => Input::Overlong(n),
            });
        }
        out
    }

    #[test]
    fn line_reading() {
        assert_eq!(
            capped(b"usi\r\nisready\n\nquit", 100),
            vec![
                Input::Line("usi".into()),
                Input::Line("isready".into()),
                Input::Line("".into()),
                Input::Line("quit".into())
            ]
        );
        let mut long = vec![b'x'; 1000];
        long.extend_from_slice(b"\nok\n");
        assert_eq!(
            capped(&long, 100),
            vec![Input::Overlong(1001), Input::Line("ok".into())]
        );
    }

    /// In-process transcript through `run` with a scripted input.
    #[test]
    fn transcript_in_process() {
        #[derive(Clone)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Shared(Arc::new(Mutex::new(Vec::new())));
        let input = "usi\nisready\nposition startpos moves 7g7f\ngo depth 1\nfoo\n";
        run(Cursor::new(input.as_bytes().to_vec()), buf.clone());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("usiok\nreadyok\n"), "{text}");
        assert!(text.contains("bestmove "), "{text}");
        assert!(
            text.contains("info string error: unknown command 'foo'"),
            "{text}"
        );
    }
}
