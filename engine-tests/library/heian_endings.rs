//! Won Heian endings are converted (issue #11, item 6): from each position
//! below Kawari plays itself at a fixed node budget per move, and the stronger
//! side must win (bare king, mate, or the opponent left without a move) within
//! `MAX_PLIES`. Kawari once shuffled in such endings until the game's ply limit.
//!
//! Provenance: the positions were constructed by hand for this test (by the
//! engineer writing it, an AI assistant working on Kawari, 2026-11-24), on all
//! four Heian board sizes, with the stronger side to move in some and the
//! weaker in others. `endings_are_legal_and_open` checks that each one is a
//! legal position (the SFEN reader refuses a side not to move in check, dead
//! pieces and wrong piece counts), that the game is not over, and that the side
//! to move cannot win in one ply.

use kawari::core::{BitWord, Color};
use kawari::position::{GameEnd, Position, Repetition};
use kawari::search::{Decision, Limits, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;

/// One ending a line: variant, SFEN, the side that should win (`b` or `w`),
/// and what each side has.
const ENDINGS: &str = "
heian    | 4k3l/9/9/9/9/9/2P3P2/3S1G3/4K4 b - 1         | b | K G S 2P against K L (out of reach)
heian    | 9/4kg3/3p5/9/9/9/2S1GS3/3K5/9 w - 1          | b | K G 2S against K G P
heian    | 1n7/3gkg3/4s4/7p1/9/9/8P/1S3K3/9 w - 1       | w | K 2G S N P against K S P
heian    | 8n/3k5/2p6/9/5S3/3P5/9/6GK1/L8 b - 1         | b | K G S L P against K N P
heian    | 4k4/9/p2+S1+P3/9/9/4G4/9/4K4/9 w - 1         | b | K +S +P G against K P
heian9x8 | l8/5k3/3s2g2/4p2p1/9/9/4K4/3G5 w - 1         | w | K G S L 2P against K G
heian9x8 | 9/7k1/p6s1/9/8P/6S2/1KG6/2N6 b - 1           | b | K G S N P against K S P
heian9x8 | 9/4gkn2/3s5/9/7P1/1P7/4K4/9 b - 1            | w | K G S N against K 2P
heian8x9 | l3k3/8/8/8/8/4P3/2P3P1/3G1S2/4K3 b - 1       | b | K G S 3P against K L
heian8x9 | 3kg2n/2s5/8/8/5+p2/8/P7/1K6/6L1 w - 1        | w | K G S N +P against K L P
heian8x8 | 3k4/8/1p6/8/8/5P2/2S1G3/3K4 b - 1            | b | K G S P against K P
heian8x8 | 1n5l/5k2/4g1s1/2p5/8/3S4/2K5/8 w - 1         | w | K G S N L P against K S
heian8x8 | 8/1k6/p6p/8/1P6/4S1S1/5GK1/8 w - 1           | b | K G 2S P against K 2P
";

/// The endings: (variant, SFEN, the side that should win).
fn endings() -> Vec<(&'static Variant, &'static str, Color)> {
    ENDINGS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            let strong = match f[2] {
                "b" => Color::Black,
                "w" => Color::White,
                s => panic!("{l}: bad side {s}"),
            };
            (variant(f[0]), f[1], strong)
        })
        .collect()
}

/// Nodes per move, for both sides.
const NODES: u64 = 20_000;

/// Plies within which the stronger side must have won.
const MAX_PLIES: usize = 120;

fn variant(name: &str) -> &'static Variant {
    Variant::by_name(name).unwrap_or_else(|| panic!("no variant {name}"))
}

fn position<W: BitWord>(v: &'static Variant, sfen: &str) -> Position<W> {
    Position::<W>::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// How a game from an ending finished.
struct Played {
    /// The winner, if the game ended within `MAX_PLIES`.
    winner: Option<Color>,
    /// How it ended, in words.
    how: &'static str,
    plies: usize,
    moves: Vec<String>,
    last: String,
}

/// Plays Kawari against itself from `sfen`: one searcher and a fresh table for
/// the game, `NODES` per move.
fn play<W: BitWord>(v: &'static Variant, sfen: &str) -> Played {
    let mut pos = position::<W>(v, sfen);
    let mut search = Search::new();
    let tt = TranspositionTable::new(16);
    let opts = SearchOptions {
        declaration: false,
        ..SearchOptions::default()
    };
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let mut moves = Vec::new();
    let (winner, how) = loop {
        let us = pos.side_to_move();
        if let Some(end) = pos.game_end() {
            break match end {
                GameEnd::Draw => (None, "draw by repetition"),
                GameEnd::Win => (Some(us), "perpetual check"),
                GameEnd::Loss if pos.bare_king_loss() => (Some(us.opp()), "bare king"),
                GameEnd::Loss if pos.repetition() != Repetition::None => {
                    (Some(us.opp()), "perpetual check")
                }
                GameEnd::Loss if pos.in_check() => (Some(us.opp()), "checkmate"),
                GameEnd::Loss => (Some(us.opp()), "no legal move"),
            };
        }
        if moves.len() >= MAX_PLIES {
            break (None, "ply limit");
        }
        // Fresh signals: a search that reaches its node budget stops them.
        let signals = Signals::default();
        match search.run(&pos, &limits, &opts, &tt, &signals, &mut |_| {}) {
            Decision::Move { mv, .. } => {
                moves.push(mv.to_usi(v));
                pos.do_move(mv);
            }
            Decision::Resign => break (Some(us.opp()), "resigned"),
            Decision::Win => panic!("{sfen}: declaration with declaration off"),
        }
    };
    Played {
        winner,
        how,
        plies: moves.len(),
        moves,
        last: pos.to_sfen(),
    }
}

#[test]
fn endings_are_legal_and_open() {
    for (v, sfen, strong) in endings() {
        let name = v.name();
        with_width!(Width::for_variant(v), W => {
            let mut pos = position::<W>(v, sfen);
            assert!(v.def.bare_king_loses, "{name}");
            assert_eq!(pos.game_end(), None, "{name} {sfen}: already over");
            assert_eq!(pos.winning_move(), None, "{name} {sfen}: won in one ply");
            // Pieces besides the king: 3 to 6 against 1 or 2.
            let others = |c: Color| pos.pieces_of(c).count() - 1;
            assert!(
                (3..=6).contains(&others(strong)) && (1..=2).contains(&others(strong.opp())),
                "{name} {sfen}: not king and 3 to 6 against king and 1 or 2"
            );
        });
    }
}

#[test]
fn won_endings_are_converted() {
    let mut failures = Vec::new();
    let endings = endings();
    for &(v, sfen, strong) in &endings {
        let name = v.name();
        let p = with_width!(Width::for_variant(v), W => play::<W>(v, sfen));
        println!(
            "{name} {sfen}: {} after {} plies{}",
            p.how,
            p.plies,
            match p.winner {
                Some(c) if c == strong => "",
                Some(_) => " (won by the weaker side)",
                None => " (not won)",
            }
        );
        if p.winner != Some(strong) {
            failures.push(format!(
                "{name} {sfen}: {} after {} plies, final position {}\n  moves: {}",
                p.how,
                p.plies,
                p.last,
                p.moves.join(" ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} won endings not converted within {MAX_PLIES} plies at {NODES} nodes a move:\n{}",
        failures.len(),
        endings.len(),
        failures.join("\n")
    );
}
