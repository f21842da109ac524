//! Input lines as typed commands, in either dialect (the commands are the same
//! but for a few words): `parse` is a pure function from one line to a
//! `Command` or a `ParseError` that says what is wrong.

use super::go::{Clock, GoSearch};
use super::{clip, Dialect};
use std::fmt;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi` or `uci`: speak that dialect, identify, list options.
    Hello(Dialect),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <id> [value <x>]`; both may contain spaces.
    SetOption {
        /// The option's name as sent.
        name: String,
        /// The value, if any (buttons have none).
        value: Option<String>,
    },
    /// `usinewgame` or `ucinewgame`.
    NewGame,
    /// `position startpos | sfen <sfen> | fen <fen> [moves ...]`.
    Position {
        /// Where the game starts.
        start: Start,
        /// Moves to play from there, as sent.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`, possibly with fresh clock times.
    PonderHit(Clock),
    /// `gameover [win|lose|draw]`.
    GameOver(Option<GameResult>),
    /// `quit`.
    Quit,
    /// `debug [on|off]` (UCI): accepted; logging is `RUST_LOG`'s.
    Debug(bool),
    /// `d`: show the position (debugging).
    Display,
    /// `bench [args]`: the fixed search benchmark (debugging).
    Bench(Vec<String>),
    /// `eval`: the static evaluation (debugging).
    Eval,
    /// An empty line: nothing to do.
    Empty,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the variant's start position.
    StartPos,
    /// `sfen <sfen>`.
    Sfen(String),
    /// `fen <fen>` (Fairy-Stockfish's FEN).
    Fen(String),
}

/// What a `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// A normal search.
    Search(GoSearch),
    /// `go mate <ms>` or `go mate infinite` (`None`).
    Mate(Option<u64>),
    /// `go perft <depth>`.
    Perft(u32),
}

/// The result announced by `gameover`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `win`.
    Win,
    /// `lose`.
    Lose,
    /// `draw`.
    Draw,
}

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is no command.
    UnknownCommand(String),
    /// A command took no arguments but got some.
    UnexpectedArgument {
        /// The command.
        command: &'static str,
        /// The first extra word.
        arg: String,
    },
    /// `setoption` without `name <id>`.
    SetOptionSyntax,
    /// `position` not followed by `startpos`, `sfen <sfen>` or `fen <fen>`.
    PositionSyntax(String),
    /// A `go` or `ponderhit` keyword is missing its value.
    MissingValue(&'static str),
    /// A value is not a number in range.
    BadNumber {
        /// The keyword.
        field: &'static str,
        /// The value sent.
        value: String,
    },
    /// A `go` keyword that is not one.
    UnknownGoToken(String),
    /// `gameover` with something other than win, lose or draw.
    BadGameResult(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseError::*;
        match self {
            UnknownCommand(c) => write!(f, "unknown command '{}'", clip(c)),
            UnexpectedArgument { command, arg } => {
                write!(f, "'{command}' takes no argument, got '{}'", clip(arg))
            }
            SetOptionSyntax => write!(f, "expected 'setoption name <id> [value <x>]'"),
            PositionSyntax(got) => write!(
                f,
                "expected 'position startpos|sfen <sfen>|fen <fen> [moves ...]', got '{}'",
                clip(got)
            ),
            MissingValue(field) => write!(f, "'{field}' needs a value"),
            BadNumber { field, value } => {
                write!(f, "bad value '{}' for '{field}'", clip(value))
            }
            UnknownGoToken(t) => write!(f, "unknown go parameter '{}'", clip(t)),
            BadGameResult(r) => {
                write!(f, "bad gameover result '{}' (win, lose or draw)", clip(r))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one input line (without its line end; a trailing `\r` and any extra
/// whitespace are ignored).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    let bare = |cmd: &'static str, c: Command| match rest.first() {
        None => Ok(c),
        Some(a) => Err(ParseError::UnexpectedArgument {
            command: cmd,
            arg: a.to_string(),
        }),
    };
    match head {
        "usi" => bare("usi", Command::Hello(Dialect::Usi)),
        "uci" => bare("uci", Command::Hello(Dialect::Uci)),
        "isready" => bare("isready", Command::IsReady),
        "usinewgame" => bare("usinewgame", Command::NewGame),
        "ucinewgame" => bare("ucinewgame", Command::NewGame),
        "stop" => bare("stop", Command::Stop),
        "quit" => bare("quit", Command::Quit),
        "d" => bare("d", Command::Display),
        "eval" => bare("eval", Command::Eval),
        "bench" => Ok(Command::Bench(rest.iter().map(|s| s.to_string()).collect())),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "ponderhit" => {
            let mut clock = Clock::default();
            let mut it = rest.iter().copied();
            while let Some(t) = it.next() {
                if !clock_field(&mut clock, t, &mut it)? {
                    return Err(ParseError::UnknownGoToken(t.to_string()));
                }
            }
            Ok(Command::PonderHit(clock))
        }
        "debug" => match rest.as_slice() {
            [] | ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err(ParseError::UnexpectedArgument {
                command: "debug",
                arg: rest.join(" "),
            }),
        },
        "gameover" => match rest.as_slice() {
            [] => Ok(Command::GameOver(None)),
            ["win"] => Ok(Command::GameOver(Some(GameResult::Win))),
            ["lose"] => Ok(Command::GameOver(Some(GameResult::Lose))),
            ["draw"] => Ok(Command::GameOver(Some(GameResult::Draw))),
            _ => Err(ParseError::BadGameResult(rest.join(" "))),
        },
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    if rest.first() != Some(&"name") {
        return Err(ParseError::SetOptionSyntax);
    }
    let rest = &rest[1..];
    let (name, value) = match rest.iter().position(|&w| w == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::SetOptionSyntax);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let (start, after) = match rest.first() {
        Some(&"startpos") => (Start::StartPos, &rest[1..]),
        Some(&kw @ ("sfen" | "fen")) => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            if end == 1 {
                return Err(ParseError::PositionSyntax(rest.join(" ")));
            }
            let text = rest[1..end].join(" ");
            let start = if kw == "sfen" {
                Start::Sfen(text)
            } else {
                Start::Fen(text)
            };
            (start, &rest[end..])
        }
        _ => return Err(ParseError::PositionSyntax(rest.join(" "))),
    };
    let moves = match after.first() {
        None => Vec::new(),
        Some(&"moves") => after[1..].iter().map(|s| s.to_string()).collect(),
        Some(_) => return Err(ParseError::PositionSyntax(after.join(" "))),
    };
    Ok(Command::Position { start, moves })
}

/// Reads a non-negative number; negative values are reported by the caller.
fn number<'a>(
    field: &'static str,
    it: &mut impl Iterator<Item = &'a str>,
) -> Result<u64, ParseError> {
    let v = it.next().ok_or(ParseError::MissingValue(field))?;
    v.parse::<u64>().map_err(|_| ParseError::BadNumber {
        field,
        value: v.to_string(),
    })
}

/// Reads a time: a negative time (some GUIs send one when a clock has run out)
/// is read as 0 and noted.
fn time<'a>(
    field: &'static str,
    clock_negative: &mut Vec<&'static str>,
    it: &mut impl Iterator<Item = &'a str>,
) -> Result<u64, ParseError> {
    let v = it.next().ok_or(ParseError::MissingValue(field))?;
    if let Ok(n) = v.parse::<u64>() {
        return Ok(n);
    }
    match v.parse::<i64>() {
        Ok(n) if n < 0 => {
            clock_negative.push(field);
            Ok(0)
        }
        _ => Err(ParseError::BadNumber {
            field,
            value: v.to_string(),
        }),
    }
}

/// Reads one clock field if `t` names one; `Ok(false)` if it does not.
fn clock_field<'a>(
    clock: &mut Clock,
    t: &str,
    it: &mut impl Iterator<Item = &'a str>,
) -> Result<bool, ParseError> {
    let neg = &mut clock.negative;
    match t {
        "btime" => clock.btime = Some(time("btime", neg, it)?),
        "wtime" => clock.wtime = Some(time("wtime", neg, it)?),
        "binc" => clock.binc = Some(time("binc", neg, it)?),
        "winc" => clock.winc = Some(time("winc", neg, it)?),
        "byoyomi" => clock.byoyomi = Some(time("byoyomi", neg, it)?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// The words that end a `searchmoves` list.
const GO_KEYWORDS: &[&str] = &[
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "perft",
    "searchmoves",
];

fn parse_go(rest: &[&str]) -> Result<Go, ParseError> {
    let mut g = GoSearch::default();
    let mut mate: Option<Option<u64>> = None;
    let mut perft: Option<u32> = None;
    let mut it = rest.iter().copied().peekable();
    while let Some(t) = it.next() {
        if clock_field(&mut g.clock, t, &mut it)? {
            continue;
        }
        match t {
            "movetime" => {
                let mut neg = Vec::new();
                g.movetime = Some(time("movetime", &mut neg, &mut it)?);
                g.clock.negative.extend(neg);
            }
            "depth" => {
                let d = number("depth", &mut it)?;
                g.depth = Some(u32::try_from(d).map_err(|_| ParseError::BadNumber {
                    field: "depth",
                    value: d.to_string(),
                })?);
            }
            "nodes" => g.nodes = Some(number("nodes", &mut it)?),
            "movestogo" => {
                let n = number("movestogo", &mut it)?;
                g.movestogo = Some(u32::try_from(n).map_err(|_| ParseError::BadNumber {
                    field: "movestogo",
                    value: n.to_string(),
                })?);
            }
            "searchmoves" => {
                while let Some(m) = it.next_if(|w| !GO_KEYWORDS.contains(w)) {
                    g.searchmoves.push(m.to_string());
                }
            }
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "mate" => {
                // A bare `go mate` means infinite, as YaneuraOu reads it.
                mate = Some(match it.next_if(|w| !GO_KEYWORDS.contains(w)) {
                    Some("infinite") | None => None,
                    Some(v) => Some(v.parse::<u64>().map_err(|_| ParseError::BadNumber {
                        field: "mate",
                        value: v.to_string(),
                    })?),
                })
            }
            "perft" => {
                let v = it.next().ok_or(ParseError::MissingValue("perft"))?;
                perft = Some(v.parse::<u32>().map_err(|_| ParseError::BadNumber {
                    field: "perft",
                    value: v.to_string(),
                })?)
            }
            other => return Err(ParseError::UnknownGoToken(other.to_string())),
        }
    }
    Ok(match (perft, mate) {
        (Some(d), _) => Go::Perft(d),
        (None, Some(m)) => Go::Mate(m),
        (None, None) => Go::Search(g),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("usi"), Command::Hello(Dialect::Usi));
        assert_eq!(ok("uci"), Command::Hello(Dialect::Uci));
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("usinewgame"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("debug off"), Command::Debug(false));
        assert!(parse("debug maybe").is_err());
        assert_eq!(ok("eval"), Command::Eval);
        assert_eq!(ok("bench"), Command::Bench(vec![]));
        assert_eq!(ok(""), Command::Empty);
        assert_eq!(ok(" \t \r"), Command::Empty);
        assert!(matches!(
            parse("isready now"),
            Err(ParseError::UnexpectedArgument { .. })
        ));
        assert!(matches!(parse("USI"), Err(ParseError::UnknownCommand(_))));
    }

    #[test]
    fn setoption() {
        assert_eq!(
            ok("setoption name USI_Hash value 128"),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("128".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear_Hash"),
            Command::SetOption {
                name: "Clear_Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption  name Move  Overhead value  a  b \r"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("a b".into())
            }
        );
        assert_eq!(
            ok("setoption name X value"),
            Command::SetOption {
                name: "X".into(),
                value: Some("".into())
            }
        );
        assert_eq!(parse("setoption"), Err(ParseError::SetOptionSyntax));
        assert_eq!(parse("setoption name"), Err(ParseError::SetOptionSyntax));
        assert_eq!(
            parse("setoption name value 3"),
            Err(ParseError::SetOptionSyntax)
        );
        assert_eq!(
            parse("setoption USI_Hash 3"),
            Err(ParseError::SetOptionSyntax)
        );
    }

    #[test]
    fn position() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves 7g7f 3c3d"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["7g7f".into(), "3c3d".into()]
            }
        );
        assert_eq!(
            ok("position sfen 4k/5 b - 1 moves"),
            Command::Position {
                start: Start::Sfen("4k/5 b - 1".into()),
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position   sfen a  b c moves x\r"),
            Command::Position {
                start: Start::Sfen("a b c".into()),
                moves: vec!["x".into()]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position sfen").is_err());
        assert!(parse("position sfen moves 7g7f").is_err());
        assert!(parse("position startpos 7g7f").is_err());
        assert!(parse("position start").is_err());
        assert_eq!(
            ok("position fen rbnsgk/5p/6/6/P5/KGSNBR[-] w - - 0 1 moves a2a3"),
            Command::Position {
                start: Start::Fen("rbnsgk/5p/6/6/P5/KGSNBR[-] w - - 0 1".into()),
                moves: vec!["a2a3".into()]
            }
        );
        assert!(parse("position fen").is_err());
        assert!(parse("position fen moves a2a3").is_err());
    }

    #[test]
    fn go_forms() {
        let g = |l: &str| match ok(l) {
            Command::Go(Go::Search(s)) => s,
            c => panic!("{l}: {c:?}"),
        };
        let s = g("go btime 1000 wtime 2000 byoyomi 300");
        assert_eq!(s.clock.btime, Some(1000));
        assert_eq!(s.clock.wtime, Some(2000));
        assert_eq!(s.clock.byoyomi, Some(300));
        let s = g("go byoyomi 300");
        assert_eq!((s.clock.btime, s.clock.byoyomi), (None, Some(300)));
        let s = g("go btime 10 wtime 10 binc 5 winc 6 byoyomi 0");
        assert_eq!((s.clock.binc, s.clock.winc), (Some(5), Some(6)));
        let s = g("go ponder btime 1 wtime 2 byoyomi 3");
        assert!(s.ponder);
        let s = g("go infinite");
        assert!(s.infinite);
        let s = g("go movetime 200 depth 3 nodes 1000");
        assert_eq!(
            (s.movetime, s.depth, s.nodes),
            (Some(200), Some(3), Some(1000))
        );
        assert_eq!(g("go"), GoSearch::default());
        let s = g("go btime 100 wtime 100 movestogo 3");
        assert_eq!(s.movestogo, Some(3));
        let s = g("go searchmoves 7g7f 2g2f byoyomi 100");
        assert_eq!(s.searchmoves, vec!["7g7f".to_string(), "2g2f".to_string()]);
        assert_eq!(s.clock.byoyomi, Some(100));
        assert!(g("go searchmoves").searchmoves.is_empty());
        // Every word that ends a searchmoves list is one `go` knows, and the
        // list ends at each of them.
        for &kw in GO_KEYWORDS {
            let value = match kw {
                "infinite" | "ponder" => "",
                "searchmoves" => "2g2f",
                _ => "1",
            };
            let line = format!("go searchmoves 7g7f {kw} {value}");
            let expected: &[&str] = if kw == "searchmoves" {
                &["7g7f", "2g2f"]
            } else {
                &["7g7f"]
            };
            match parse(&line) {
                Ok(Command::Go(Go::Search(s))) => assert_eq!(s.searchmoves, expected, "{kw}"),
                Ok(Command::Go(_)) => {}
                other => panic!("{line}: {other:?}"),
            }
        }
        assert!(parse("go movestogo").is_err());
        assert!(parse("go movestogo -2").is_err());
        let s = g("go btime -5 wtime 3");
        assert_eq!(s.clock.btime, Some(0));
        assert_eq!(s.clock.negative, vec!["btime"]);
        assert_eq!(ok("go mate 1000"), Command::Go(Go::Mate(Some(1000))));
        assert_eq!(ok("go mate infinite"), Command::Go(Go::Mate(None)));
        assert_eq!(ok("go perft 3"), Command::Go(Go::Perft(3)));
        assert!(parse("go btime").is_err());
        assert!(parse("go btime x").is_err());
        assert!(parse("go depth -1").is_err());
        assert!(parse("go nodes -1").is_err());
        assert!(parse("go perft -1").is_err());
        assert_eq!(ok("go mate"), Command::Go(Go::Mate(None)));
        assert!(parse("go mate x").is_err());
        assert!(parse("go perft").is_err());
        assert!(parse("go fast").is_err());
        assert!(parse("go btime 99999999999999999999999").is_err());
        assert!(parse("go depth 99999999999").is_err());
    }

    #[test]
    fn ponderhit_and_gameover() {
        assert_eq!(ok("ponderhit"), Command::PonderHit(Clock::default()));
        match ok("ponderhit btime 5 wtime 6 byoyomi 7") {
            Command::PonderHit(c) => assert_eq!((c.btime, c.byoyomi), (Some(5), Some(7))),
            c => panic!("{c:?}"),
        }
        assert!(parse("ponderhit now").is_err());
        assert_eq!(ok("gameover"), Command::GameOver(None));
        assert_eq!(ok("gameover win"), Command::GameOver(Some(GameResult::Win)));
        assert_eq!(
            ok("gameover lose"),
            Command::GameOver(Some(GameResult::Lose))
        );
        assert_eq!(
            ok("gameover draw"),
            Command::GameOver(Some(GameResult::Draw))
        );
        assert!(parse("gameover maybe").is_err());
        assert!(parse("gameover win lose").is_err());
    }

    #[test]
    fn error_messages_clip_long_input() {
        let long = "x".repeat(10_000);
        let msg = parse(&long).unwrap_err().to_string();
        assert!(msg.len() < 100, "{msg}");
        let msg = parse("\u{1b}[31m\u{0}é").unwrap_err().to_string();
        assert!(
            msg.chars().all(|c| c == ' ' || c.is_ascii_graphic()),
            "{msg}"
        );
    }

    const WORDS: &[&str] = &[
        "usi",
        "uci",
        "ucinewgame",
        "fen",
        "isready",
        "setoption",
        "name",
        "value",
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
        "movestogo",
        "searchmoves",
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
        "quit",
        "d",
        "eval",
        "7g7f",
        "P*5e",
        "-1",
        "0",
        "300",
        "18446744073709551616",
        "b",
        "w",
        "-",
        "1",
        "+",
        "\r",
        "\t",
        "",
    ];

    /// Random lines never panic, and parsing is deterministic.
    #[test]
    fn random_lines() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200_000 {
            let n = rng.gen_range(0..10);
            let mut line = String::new();
            for _ in 0..n {
                if rng.gen_bool(0.7) {
                    line.push_str(WORDS[rng.gen_range(0..WORDS.len())]);
                } else {
                    for _ in 0..rng.gen_range(0..6) {
                        line.push(rng.gen_range(' '..='~'));
                    }
                    if rng.gen_bool(0.05) {
                        line.push(char::from_u32(rng.gen_range(0x80..0x3000)).unwrap_or('?'));
                    }
                }
                line.push(' ');
            }
            let a = parse(&line);
            assert_eq!(a, parse(&line));
            if let Err(e) = a {
                names_its_culprit(&line, &e);
            }
        }
    }

    /// An error message quotes the part of `line` it rejects (clipped for
    /// echoing, printable ASCII only) and what it expected there.
    fn names_its_culprit(line: &str, e: &ParseError) {
        use ParseError::*;
        let msg = e.to_string();
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = words[1..].join(" ");
        let (culprit, expected): (String, &str) = match e {
            UnknownCommand(c) => {
                assert_eq!(c, words[0], "{line:?}");
                (c.clone(), "unknown command")
            }
            UnexpectedArgument { command, arg } => {
                assert_eq!(*command, words[0], "{line:?}");
                assert!(rest.starts_with(arg.as_str()), "{line:?}: {arg:?}");
                assert!(
                    msg.contains(&format!("'{command}' takes no argument")),
                    "{msg}"
                );
                (arg.clone(), "takes no argument")
            }
            SetOptionSyntax => {
                assert_eq!(words[0], "setoption", "{line:?}");
                (String::new(), "setoption name <id>")
            }
            PositionSyntax(got) => {
                assert_eq!(words[0], "position", "{line:?}");
                assert!(rest.ends_with(got.as_str()), "{line:?}: {got:?}");
                (got.clone(), "position startpos|sfen <sfen>|fen <fen>")
            }
            MissingValue(field) => {
                assert_eq!(words.last(), Some(field), "{line:?}");
                (field.to_string(), "needs a value")
            }
            BadNumber { field, value } => {
                // The word after the keyword, or the number it was read as
                // when out of range.
                let sent =
                    |w: &str| w == value || w.parse::<u64>().is_ok_and(|n| n.to_string() == *value);
                assert!(
                    words.windows(2).any(|p| p[0] == *field && sent(p[1])),
                    "{line:?}: {field} {value}"
                );
                assert!(msg.contains(&format!("'{field}'")), "{msg}");
                (value.clone(), "bad value")
            }
            UnknownGoToken(t) => {
                assert!(matches!(words[0], "go" | "ponderhit"), "{line:?}");
                assert!(words.contains(&t.as_str()), "{line:?}: {t:?}");
                (t.clone(), "unknown go parameter")
            }
            BadGameResult(r) => {
                assert_eq!(words[0], "gameover", "{line:?}");
                assert_eq!(*r, rest, "{line:?}");
                (r.clone(), "win, lose or draw")
            }
        };
        assert!(msg.contains(expected), "{line:?}: {msg}");
        assert!(
            msg.contains(&format!("'{}'", clip(&culprit))) || culprit.is_empty(),
            "{line:?}: {msg} does not quote {culprit:?}"
        );
        assert!(
            msg.chars().all(|c| c == ' ' || c.is_ascii_graphic()),
            "{msg:?}"
        );
    }
}
