//! Randomized bad input through the built binary: well over 100,000 random and
//! mutated lines (commands, SFENs, moves, numbers, bytes) in one engine
//! process, which must keep answering `isready` and exit 0 on `quit`; the
//! same in a UCI session (FENs, UCI moves).

use crate::common::UsiProcess;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

const LINES: usize = 120_000;
/// An `isready` every this many lines.
const SYNC_EVERY: usize = 500;

const WORDS: &[&str] = &[
    "usi",
    "uci",
    "ucinewgame",
    "fen",
    "Hash",
    "Ponder",
    "Move Overhead",
    "isready",
    "setoption",
    "name",
    "value",
    "usinewgame",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "perft",
    "stop",
    "ponderhit",
    "gameover",
    "win",
    "lose",
    "draw",
    "d",
    "eval",
    "USI_Variant",
    "UCI_Variant",
    "USI_Hash",
    "USI_Ponder",
    "MultiPV",
    "Threads",
    "MaxMovesToDraw",
    "NetworkDelay",
    "EnteringKingRule",
    "Clear_Hash",
    "true",
    "false",
    "resign",
    "+",
    "*",
    "-",
    "b",
    "w",
];

const OPTION_NAMES: &[&str] = &[
    "USI_Variant",
    "UCI_Variant",
    "USI_Hash",
    "USI_Ponder",
    "MultiPV",
    "USI_MultiPV",
    "Threads",
    "MaxMovesToDraw",
    "NetworkDelay",
    "EnteringKingRule",
    "Clear_Hash",
    "Hash",
    "Foo",
    "",
];

struct Gen {
    rng: StdRng,
    /// Speak UCI: FENs and UCI moves.
    uci: bool,
    /// Good SFENs, or FENs in UCI mode.
    sfens: Vec<String>,
    /// `Threads` values to send (the valid ones keep the session's count).
    threads: &'static [&'static str],
}

impl Gen {
    fn number(&mut self) -> String {
        match self.rng.gen_range(0..8) {
            0 => "0".into(),
            1 => format!("-{}", self.rng.gen_range(1..100_000)),
            2 => self.rng.gen_range(0..2000).to_string(),
            3 => u64::MAX.to_string(),
            4 => "18446744073709551616".into(),
            5 => format!("{}.5", self.rng.gen_range(0..10)),
            6 => "abc".into(),
            _ => self.rng.gen_range(0..50).to_string(),
        }
    }

    fn square(&mut self) -> String {
        if self.uci {
            let file = (b'a' + self.rng.gen_range(0..11)) as char;
            let rank = self.rng.gen_range(0..11);
            return format!("{file}{rank}");
        }
        let file = self.rng.gen_range(0..11);
        let rank = (b'a' + self.rng.gen_range(0..11)) as char;
        format!("{file}{rank}")
    }

    fn mv(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0..=5 => {
                let (a, b) = (self.square(), self.square());
                let plus = if self.rng.gen_bool(0.2) { "+" } else { "" };
                format!("{a}{b}{plus}")
            }
            6 | 7 => {
                let p = *b"PLNSGBRKXp".choose(&mut self.rng).unwrap() as char;
                let at = if self.uci { '@' } else { '*' };
                format!("{p}{at}{}", self.square())
            }
            8 if self.uci => ["c3c4", "g7g6", "h3h4", "b7b6", "a1a2", "d4d5"]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
            8 => ["7g7f", "3c3d", "2g2f", "8c8d", "1e1d", "5f5e"]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
            _ => self.junk(6),
        }
    }

    fn junk(&mut self, max: usize) -> String {
        let n = self.rng.gen_range(0..=max);
        (0..n)
            .map(|_| match self.rng.gen_range(0..20) {
                0 => char::from_u32(self.rng.gen_range(0x80..0x3100)).unwrap_or('?'),
                1 => '\t',
                _ => self.rng.gen_range(' '..='~'),
            })
            .collect()
    }

    fn mutated_sfen(&mut self) -> String {
        let mut s: Vec<char> = self.sfens.choose(&mut self.rng).unwrap().chars().collect();
        for _ in 0..self.rng.gen_range(0..4) {
            let i = self.rng.gen_range(0..s.len().max(1));
            let c = *b"pPlLnNsSgGbBrRkK+123456789/ bw-x0[]"
                .choose(&mut self.rng)
                .unwrap() as char;
            match self.rng.gen_range(0..3) {
                0 if i < s.len() => s[i] = c,
                1 if i < s.len() => {
                    s.remove(i);
                }
                _ => s.insert(i.min(s.len()), c),
            }
        }
        s.into_iter().collect()
    }

    fn go(&mut self) -> String {
        let mut line = String::from("go");
        let keys = [
            "btime", "wtime", "binc", "winc", "byoyomi", "movetime", "depth", "nodes", "infinite",
            "ponder", "mate", "perft",
        ];
        for _ in 0..self.rng.gen_range(0..5) {
            let k = *keys.choose(&mut self.rng).unwrap();
            line.push(' ');
            line.push_str(k);
            match k {
                "infinite" | "ponder" => {}
                // Keep searches and perfts short even when no stop follows.
                "depth" => line.push_str(&format!(" {}", self.rng.gen_range(0..3))),
                "perft" => line.push_str(&format!(" {}", self.rng.gen_range(0..3))),
                "nodes" => line.push_str(&format!(" {}", self.rng.gen_range(0..2000))),
                _ => {
                    if self.rng.gen_bool(0.9) {
                        let n = self.number();
                        line.push(' ');
                        line.push_str(&n);
                    }
                }
            }
        }
        if self.rng.gen_bool(0.1) {
            line.push(' ');
            line.push_str(&self.junk(5));
        }
        line
    }

    fn position(&mut self) -> String {
        let kw = if self.uci { "fen" } else { "sfen" };
        let mut line = match self.rng.gen_range(0..4) {
            0 => "position startpos".to_string(),
            1 => format!(
                "position {kw} {}",
                self.sfens.choose(&mut self.rng).unwrap()
            ),
            _ => format!("position {kw} {}", self.mutated_sfen()),
        };
        if self.rng.gen_bool(0.7) {
            line.push_str(" moves");
            for _ in 0..self.rng.gen_range(0..6) {
                line.push(' ');
                let m = self.mv();
                line.push_str(&m);
            }
        }
        line
    }

    fn setoption(&mut self) -> String {
        let name = *OPTION_NAMES.choose(&mut self.rng).unwrap();
        let value = match name {
            "USI_Variant" | "UCI_Variant" => {
                if self.rng.gen_bool(0.7) {
                    Variant::all()
                        .choose(&mut self.rng)
                        .unwrap()
                        .name()
                        .to_string()
                } else {
                    self.junk(8)
                }
            }
            // Small tables: resizing must stay cheap.
            "USI_Hash" | "Hash" => ["1", "2", "0", "-1", "x", "99999999"]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
            // Few threads: every search starts them all on a two-core machine;
            // many threads are the stress test's.
            "Threads" => self.threads.choose(&mut self.rng).unwrap().to_string(),
            "EnteringKingRule" => ["NoEnteringKing", "CSARule27", "TryRule", ""]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
            "USI_Ponder" => ["true", "false", "1"]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
            _ => self.number(),
        };
        match self.rng.gen_range(0..6) {
            0 => format!("setoption name {name}"),
            1 => format!("setoption {name} {value}"),
            _ => format!("setoption name {name} value {value}"),
        }
    }

    fn word_salad(&mut self) -> String {
        let n = self.rng.gen_range(0..8);
        let mut words = Vec::new();
        for _ in 0..n {
            words.push(match self.rng.gen_range(0..4) {
                0 => self.number(),
                1 => self.mv(),
                2 => self.junk(4),
                _ => WORDS.choose(&mut self.rng).unwrap().to_string(),
            });
        }
        let sep = [" ", "  ", "\t", " \r"].choose(&mut self.rng).unwrap();
        words.join(sep)
    }

    /// One line; `true` when it starts a `go` (a `stop` follows it).
    fn line(&mut self) -> (Vec<u8>, bool) {
        let (text, is_go) = match self.rng.gen_range(0..100) {
            0..=24 => (self.position(), false),
            25..=44 => (self.go(), true),
            45..=54 => (self.setoption(), false),
            55..=59 => (
                [
                    if self.uci { "ucinewgame" } else { "usinewgame" },
                    "stop",
                    "ponderhit",
                    "gameover",
                    "gameover win",
                    "d",
                    "eval",
                ]
                .choose(&mut self.rng)
                .unwrap()
                .to_string(),
                false,
            ),
            60..=94 => (self.word_salad(), false),
            _ => {
                // Raw bytes, possibly not UTF-8.
                let n = self.rng.gen_range(0..40);
                let bytes: Vec<u8> = (0..n)
                    .map(|_| self.rng.gen::<u8>())
                    .filter(|&b| b != b'\n')
                    .collect();
                let mut b = bytes;
                b.push(b'\n');
                return (b, false);
            }
        };
        // Never quit or bench from here: those are checked elsewhere; a UCI
        // session is not turned back to USI.
        let head = text.trim_start();
        let text = if head.starts_with("quit")
            || head.starts_with("bench")
            || (self.uci && head.starts_with("usi"))
        {
            format!("x{text}")
        } else {
            text
        };
        let end = if self.rng.gen_bool(0.1) { "\r\n" } else { "\n" };
        (format!("{text}{end}").into_bytes(), is_go)
    }
}

#[test]
fn random_lines_never_break_the_engine() {
    fuzz(
        0x6b61_7761_7269,
        false,
        1,
        &["1", "2", "0", "-1", "1025", "x"],
        LINES,
    );
}

/// The same in a UCI session.
#[test]
fn random_uci_lines_never_break_the_engine() {
    fuzz(
        0x7563_6920_6675,
        true,
        1,
        &["1", "2", "0", "-1", "1025", "x"],
        LINES / 2,
    );
}

/// The same with four search threads: stop, ponderhit, option changes and
/// new games meet a pool of helpers.
#[test]
fn random_lines_never_break_four_threads() {
    fuzz(
        0x7468_7265_6164,
        false,
        4,
        &["4", "0", "-1", "1025", "x"],
        LINES / 2,
    );
}

/// The position text of `sfen` in `v` (SFEN, or FEN in UCI mode).
fn position_text(v: &'static Variant, sfen: &str, uci: bool) -> String {
    if !uci {
        return sfen.to_string();
    }
    with_width!(Width::for_variant(v), W => Position::<W>::from_sfen(v, sfen).unwrap().to_fen())
}

fn fuzz(
    seed: u64,
    uci: bool,
    threads: usize,
    thread_values: &'static [&'static str],
    lines: usize,
) {
    let shogi = Variant::by_name("shogi").unwrap();
    let mut g = Gen {
        threads: thread_values,
        rng: StdRng::seed_from_u64(seed),
        uci,
        sfens: Variant::all()
            .iter()
            .map(|v| position_text(v, v.def.start_sfen, uci))
            .chain(
                [
                    "4k4/9/9/9/9/9/9/9/4K4 b P 1",
                    "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
                    "RBGGGG3/SSSS1K3/9/9/9/9/9/9/4k4 b L9P 1",
                ]
                .map(|s| position_text(shogi, s, uci)),
            )
            .collect(),
    };
    let mut e = UsiProcess::start();
    if uci {
        e.send("uci");
    }
    e.send("setoption name USI_Hash value 1");
    e.send(&format!("setoption name Threads value {threads}"));
    let start = Instant::now();
    let mut sent = 0;
    let mut batch: Vec<u8> = Vec::new();
    let (mut bestmoves, mut errors, mut other) = (0usize, 0usize, 0usize);
    while sent < lines {
        let (line, is_go) = g.line();
        batch.extend_from_slice(&line);
        if is_go {
            batch.extend_from_slice(b"stop\n");
        }
        sent += 1;
        if sent % 10_000 == 0 {
            // A line far over the limit now and then.
            batch.extend(std::iter::repeat_n(b'a', (1 << 20) + 10));
            batch.push(b'\n');
        }
        if sent % SYNC_EVERY == 0 {
            e.send_raw(&batch);
            batch.clear();
            e.send("isready");
            let (lines, _) = e.until(Duration::from_secs(30), |l| l == "readyok");
            for l in &lines {
                assert!(!l.contains("panic"), "{l}\n{}", e.tail());
                assert!(!l.contains("internal error"), "{l}\n{}", e.tail());
                assert!(l.is_ascii(), "non-ASCII output {l:?}");
                if l.starts_with("bestmove") {
                    bestmoves += 1;
                } else if l.starts_with("info string error: ") {
                    errors += 1;
                } else {
                    other += 1;
                }
            }
            // Keep the transcript small: only the tail matters on failure.
            let n = e.transcript.len();
            if n > 2000 {
                e.transcript.drain(..n - 200);
            }
        }
    }
    e.send("stop");
    e.sync();
    e.quit();
    eprintln!(
        "{lines} lines in {:?}: {bestmoves} bestmoves, {errors} errors, {other} other lines",
        start.elapsed()
    );
    // The input reached the search and the error paths both, often.
    assert!(
        bestmoves > lines / 120 && errors > lines / 12,
        "{bestmoves} {errors}"
    );
}
