//! The two dialects a session can speak: USI, and UCI as Fairy-Stockfish
//! speaks it for shogi variants. Commands, options and the engine are shared;
//! a dialect decides only words: the handshake's, the notation of positions,
//! moves and scores, and which clock `btime`/`wtime` name.

use super::go::GoSearch;
use crate::engine::{Decision, Report};
use crate::mate::{MateAnswer, Shortness};
use crate::position::Notation;
use crate::search::{Info, Limits, Score};
use crate::variant::Variant;

/// A protocol dialect.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// USI: `usi`/`usiok`, SFEN, `7g7f`, `btime` is the first mover's clock,
    /// mate scores in plies.
    Usi,
    /// UCI: `uci`/`uciok`, FEN, `c3c4`, `wtime` is the first mover's clock
    /// (White, in Fairy-Stockfish's shogi), mate scores in moves.
    Uci,
}

impl Dialect {
    /// The notation of positions and moves.
    pub fn notation(self) -> Notation {
        match self {
            Dialect::Usi => Notation::Usi,
            Dialect::Uci => Notation::Uci,
        }
    }

    /// The end of the handshake.
    pub fn ok_word(self) -> &'static str {
        match self {
            Dialect::Usi => "usiok",
            Dialect::Uci => "uciok",
        }
    }

    /// The search limits of a `go`: the clocks in the engine's order (first
    /// mover, second mover).
    pub fn limits(self, g: &GoSearch) -> Limits {
        let c = &g.clock;
        let (first, second) = match self {
            Dialect::Usi => ((c.btime, c.binc), (c.wtime, c.winc)),
            Dialect::Uci => ((c.wtime, c.winc), (c.btime, c.binc)),
        };
        Limits {
            time: [first.0, second.0],
            inc: [first.1.unwrap_or(0), second.1.unwrap_or(0)],
            byoyomi: c.byoyomi.unwrap_or(0),
            movestogo: g.movestogo,
            movetime: g.movetime,
            depth: g.depth,
            nodes: g.nodes,
            infinite: g.infinite,
            ponder: g.ponder,
            searchmoves: Vec::new(),
            mate: None,
            received: None,
        }
    }

    /// A score: `cp <n>`, or `mate <n>` in plies (USI; `mate -0` when mated)
    /// or in moves (UCI), negative when being mated.
    pub fn score(self, s: Score) -> String {
        match (self, s) {
            (_, Score::Cp(cp)) => format!("cp {cp}"),
            (Dialect::Usi, Score::Mate(0)) => "mate -0".to_string(),
            (Dialect::Usi, Score::Mate(n)) => format!("mate {n}"),
            (Dialect::Uci, Score::Mate(n)) if n > 0 => format!("mate {}", (n + 1) / 2),
            (Dialect::Uci, Score::Mate(n)) => format!("mate {}", n / 2),
        }
    }

    /// An `info` line.
    pub fn info(self, info: &Info, v: &Variant) -> String {
        let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
        let mut s = format!(
            "info depth {} seldepth {} multipv {} score {} time {} nodes {} nps {} hashfull {}",
            info.depth,
            info.seldepth,
            info.multipv,
            self.score(info.score),
            info.time_ms,
            info.nodes,
            nps,
            info.hashfull
        );
        if !info.pv.is_empty() {
            s.push_str(" pv");
            for &m in &info.pv {
                s.push(' ');
                s.push_str(&self.notation().move_text(m, v));
            }
        }
        s
    }

    /// The `bestmove` line. UCI has no `resign` or `win`: a side without a
    /// legal move answers `(none)`, as Fairy-Stockfish does (a UCI session
    /// never declares).
    pub fn bestmove(self, d: Decision, v: &Variant) -> String {
        let n = self.notation();
        match (self, d) {
            (_, Decision::Move { mv, ponder: None }) => format!("bestmove {}", n.move_text(mv, v)),
            (
                _,
                Decision::Move {
                    mv,
                    ponder: Some(p),
                },
            ) => format!(
                "bestmove {} ponder {}",
                n.move_text(mv, v),
                n.move_text(p, v)
            ),
            (Dialect::Usi, Decision::Resign) => "bestmove resign".to_string(),
            (Dialect::Usi, Decision::Win) => "bestmove win".to_string(),
            (Dialect::Uci, Decision::Resign | Decision::Win) => "bestmove (none)".to_string(),
        }
    }

    /// The text of an engine report (one or more lines, without the final
    /// line end).
    pub fn report(self, r: &Report) -> String {
        match r {
            Report::Info { info, variant } => self.info(info, variant),
            Report::BestMove { decision, variant } => self.bestmove(*decision, variant),
            Report::PerftMove { mv, nodes, variant } => {
                format!("{}: {nodes}", self.notation().move_text(*mv, variant))
            }
            Report::PerftTotal(n) => format!("\nNodes searched: {n}"),
            Report::MateProgress(p) => format!(
                "info time {} nodes {} nps {} hashfull {}",
                p.time_ms,
                p.nodes,
                p.nodes.saturating_mul(1000) / p.time_ms.max(1),
                p.hashfull
            ),
            Report::Checkmate { answer, variant } => match answer {
                MateAnswer::Mate(line, shortness) => {
                    let moves: Vec<String> = line
                        .iter()
                        .map(|&m| self.notation().move_text(m, variant))
                        .collect();
                    format!(
                        "info string {}\ncheckmate {}",
                        shortness_text(line.len(), *shortness),
                        moves.join(" ")
                    )
                }
                MateAnswer::NoMate => "checkmate nomate".to_string(),
                MateAnswer::Timeout => "checkmate timeout".to_string(),
            },
            Report::Message(m) | Report::Bench(m) => format!("info string {m}"),
            Report::Error(m) => format!("info string error: {m}"),
        }
    }
}

/// What a mate answer of `plies` is shown to be: the line a solver user
/// reads to know whether the length is final.
fn shortness_text(plies: usize, shortness: Shortness) -> String {
    match shortness {
        Shortness::Proven => format!("mate in {plies} plies, proven the shortest"),
        Shortness::Bounded { bound, defences } => format!(
            "mate in {plies} plies, not proven the shortest: a mate within {bound} plies is proven, \
             a shorter one not ruled out in time; {} defence on the line shown the longest",
            if defences { "every" } else { "not every" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mate_answer_says_whether_it_is_proven_the_shortest() {
        let answer = |shortness| Report::Checkmate {
            answer: MateAnswer::Mate(Vec::new(), shortness),
            variant: Variant::by_name("shogi").unwrap(),
        };
        let proven = Dialect::Usi.report(&answer(Shortness::Proven));
        assert_eq!(
            proven,
            "info string mate in 0 plies, proven the shortest\ncheckmate "
        );
        let bounded = Dialect::Usi.report(&answer(Shortness::Bounded {
            bound: 23,
            defences: false,
        }));
        let first = bounded.lines().next().unwrap();
        assert!(
            first.starts_with(
                "info string mate in 0 plies, not proven the shortest: a mate within 23 plies"
            ) && first.ends_with("not every defence on the line shown the longest"),
            "{first}"
        );
    }

    #[test]
    fn scores() {
        let usi = Dialect::Usi;
        assert_eq!(usi.score(Score::Cp(-35)), "cp -35");
        assert_eq!(usi.score(Score::Mate(3)), "mate 3");
        assert_eq!(usi.score(Score::Mate(-2)), "mate -2");
        assert_eq!(usi.score(Score::Mate(0)), "mate -0");
        let uci = Dialect::Uci;
        assert_eq!(uci.score(Score::Cp(-35)), "cp -35");
        assert_eq!(uci.score(Score::Mate(1)), "mate 1");
        assert_eq!(uci.score(Score::Mate(3)), "mate 2");
        assert_eq!(uci.score(Score::Mate(4)), "mate 2");
        assert_eq!(uci.score(Score::Mate(-2)), "mate -1");
        assert_eq!(uci.score(Score::Mate(-4)), "mate -2");
        assert_eq!(uci.score(Score::Mate(0)), "mate 0");
    }

    #[test]
    fn clocks_are_the_first_movers() {
        let g = GoSearch {
            clock: super::super::go::Clock {
                btime: Some(1000),
                wtime: Some(2000),
                binc: Some(10),
                winc: Some(20),
                ..Default::default()
            },
            ..Default::default()
        };
        let usi = Dialect::Usi.limits(&g);
        assert_eq!((usi.time, usi.inc), ([Some(1000), Some(2000)], [10, 20]));
        let uci = Dialect::Uci.limits(&g);
        assert_eq!((uci.time, uci.inc), ([Some(2000), Some(1000)], [20, 10]));
    }
}
