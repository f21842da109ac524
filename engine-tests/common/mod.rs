//! Helpers shared by the integration tests: reference data and width dispatch.

use kawari::core::{BitWord, Square};
use kawari::position::{Move, Position};
use kawari::variant::{Kind, Variant};

/// The seven variants, in the order the reference data lists them.
pub const VARIANTS: &[&str] = &[
    "shogi",
    "judkins",
    "yarishogi",
    "heian",
    "heian9x8",
    "heian8x9",
    "heian8x8",
];

/// Path of a file under `engine-tests/data`.
pub fn data_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join("data")
        .join(name)
}

/// Rows of a reference TSV (header skipped), split on tabs.
pub fn rows(name: &str) -> Vec<Vec<String>> {
    let text =
        std::fs::read_to_string(data_path(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Parses an SFEN for a variant, panicking with the SFEN on error.
pub fn position<W: BitWord>(v: &'static Variant, sfen: &str) -> Position<W> {
    Position::<W>::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Path of the built `kawari` binary.
pub fn kawari_bin() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_kawari"))
}

/// A `kawari` process driven through pipes, for USI transcripts. Every read
/// has a timeout, so a broken engine fails the test instead of hanging it.
pub struct UsiProcess {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    stderr: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    /// The thread collecting stderr: it ends when the process has exited
    /// and the pipe is drained.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    /// Everything sent and received, for failure messages.
    pub transcript: Vec<String>,
}

impl UsiProcess {
    /// Starts the engine with no arguments, from another directory, with an
    /// empty environment (as shogiarena does) and stderr captured.
    pub fn start() -> UsiProcess {
        Self::spawn(std::process::Command::new(kawari_bin()))
    }

    /// Starts the engine with its address space limited to `kb` kilobytes
    /// (`ulimit -v`, through `sh`), so that large allocations fail for sure.
    pub fn start_with_memory_limit(kb: u64) -> UsiProcess {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c")
            .arg(format!("ulimit -v {kb} && exec \"$0\""))
            .arg(kawari_bin());
        Self::spawn(cmd)
    }

    fn spawn(mut cmd: std::process::Command) -> UsiProcess {
        use std::io::{BufRead, Read};
        use std::process::Stdio;
        let mut child = cmd
            .env_clear()
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting kawari");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = std::io::BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut err = child.stderr.take().expect("stderr");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let e2 = stderr.clone();
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                e2.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        UsiProcess {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            stderr_reader: Some(stderr_reader),
            transcript: Vec::new(),
        }
    }

    /// Sends one line (a line end is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_string();
        self.transcript.push(format!("> {}", shown.trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("writing to kawari");
        stdin.flush().expect("flushing to kawari");
    }

    /// Closes stdin (EOF).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <EOF>".into());
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn recv(&mut self, timeout: std::time::Duration) -> Option<String> {
        let line = self.lines.recv_timeout(timeout).ok()?;
        self.transcript.push(format!("< {line}"));
        Some(line)
    }

    /// Reads until a line satisfying `done`; returns the lines before it and
    /// that line. Panics with the transcript after `timeout`.
    pub fn until(
        &mut self,
        timeout: std::time::Duration,
        done: impl Fn(&str) -> bool,
    ) -> (Vec<String>, String) {
        let deadline = std::time::Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.recv(left) {
                Some(l) if done(&l) => return (before, l),
                Some(l) => before.push(l),
                None => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.tail()
                ),
            }
        }
    }

    /// Waits until a search reports its first finished iteration (an `info
    /// depth` line): from then on it is running and has a move to give.
    pub fn wait_searching(&mut self) -> String {
        self.until(std::time::Duration::from_secs(10), |l| {
            l.starts_with("info depth ")
        })
        .1
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(std::time::Duration::from_secs(10), |l| l == "readyok")
            .0
    }

    /// Waits for `bestmove` and returns the move (or `resign` / `win`).
    pub fn bestmove(&mut self, timeout: std::time::Duration) -> String {
        let (_, l) = self.until(timeout, |l| l.starts_with("bestmove"));
        l.split_whitespace().nth(1).unwrap_or("").to_string()
    }

    /// The last lines of the transcript.
    pub fn tail(&self) -> String {
        let n = self.transcript.len();
        self.transcript[n.saturating_sub(60)..].join("\n")
    }

    /// What the engine wrote to stderr so far.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).to_string()
    }

    /// Everything the engine wrote to stderr, once it has exited (after
    /// `wait_exit`): waits for the pipe to be drained rather than for a
    /// while.
    pub fn final_stderr(&mut self) -> String {
        assert!(
            self.child.try_wait().expect("try_wait").is_some(),
            "final_stderr before the process exited"
        );
        if let Some(reader) = self.stderr_reader.take() {
            reader.join().expect("stderr reader");
        }
        self.stderr()
    }

    /// Waits for the process to exit and returns its exit code; panics after
    /// `timeout` (and kills it).
    pub fn wait_exit(&mut self, timeout: std::time::Duration) -> Option<i32> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            if std::time::Instant::now() >= deadline {
                let _ = self.child.kill();
                panic!("kawari did not exit within {timeout:?}:\n{}", self.tail());
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Sends `quit` and checks the process exits with code 0 and a silent stderr.
    pub fn quit(mut self) {
        self.send("quit");
        let code = self.wait_exit(std::time::Duration::from_secs(5));
        assert_eq!(code, Some(0), "{}", self.tail());
        assert_eq!(self.final_stderr(), "", "stderr must stay quiet");
    }
}

impl Drop for UsiProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a `stop`, `ponderhit` into a finished search, or `quit` may take
/// to be answered before the test gives up on it: a liveness deadline, far
/// beyond any normal answer (a few milliseconds), not a speed target.
pub const ANSWER_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends a `go`, returns (bestmove, elapsed) measured from sending it.
pub fn timed_go(
    e: &mut UsiProcess,
    go: &str,
    timeout: std::time::Duration,
) -> (String, std::time::Duration) {
    let t = std::time::Instant::now();
    e.send(go);
    let m = e.bestmove(timeout);
    (m, t.elapsed())
}

/// Sends `line`, then `isready`; asserts nothing was printed in between.
pub fn silent(e: &mut UsiProcess, line: &str) {
    e.send(line);
    let lines = e.sync();
    assert!(lines.is_empty(), "{line:?} gave {lines:?}");
}

/// Every syntactically possible move on this board, legal or not (a move to
/// its own square aside): what slow legality tests try one by one.
pub fn all_candidate_moves(v: &Variant) -> Vec<Move> {
    let n = v.geometry().squares() as u8;
    let mut out = Vec::new();
    for from in 0..n {
        for to in 0..n {
            if from != to {
                for promote in [false, true] {
                    out.push(Move::normal(Square::new(from), Square::new(to), promote));
                }
            }
        }
    }
    for k in 0..v.num_kinds() as u8 {
        for to in 0..n {
            out.push(Move::drop(Kind(k), Square::new(to)));
        }
    }
    out
}
