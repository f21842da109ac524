//! Short forced wins: the game search finds every one of up to 7 plies at
//! two plies beyond its length, with the exact `Score::Mate` and a winning
//! move played.
//!
//! `data/short-wins.tsv` holds positions from the ends of decisive self-play
//! games (`scripts/find_short_wins.py`), so they are not limited to wins the
//! engine already saw. The length of each is decided here, independently of
//! the engine's search: a brute-force minimax over every legal move, where a
//! side with no legal move, or left with a bare king under Heian's rule, has
//! lost. `label_short_win_candidates` (ignored) labels new candidates.

mod common;

use kawari::core::BitWord;
use kawari::position::Position;
use kawari::search::{Decision, Limits, Score, Search, SearchOptions, Signals, TranspositionTable};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;

/// Longest win the data and the labeller consider, in plies.
const MAX_PLIES: i32 = 7;

/// Brute force with a node budget: `None` when the budget ran out.
struct Brute {
    budget: u64,
}

impl Brute {
    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// Whether the side to move wins within `n` plies (odd).
    fn wins<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        for m in pos.legal_moves() {
            self.spend()?;
            pos.do_move(m);
            let r = self.lost(pos, n - 1);
            pos.undo_move();
            if r? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether the side to move loses within `n` plies (even) whatever it plays.
    fn lost<W: BitWord>(&mut self, pos: &mut Position<W>, n: i32) -> Option<bool> {
        if pos.bare_king_loss() {
            return Some(true);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(true);
        }
        if n == 0 {
            return Some(false);
        }
        for m in moves {
            self.spend()?;
            pos.do_move(m);
            let r = self.wins(pos, n - 1);
            pos.undo_move();
            if !r? {
                return Some(false);
            }
        }
        Some(true)
    }

    /// The shortest win within `max` plies: `Some(None)` if there is none.
    fn shortest<W: BitWord>(&mut self, pos: &mut Position<W>, max: i32) -> Option<Option<i32>> {
        for n in (1..=max).step_by(2) {
            if self.wins(pos, n)? {
                return Some(Some(n));
            }
        }
        Some(None)
    }
}

/// The search's score and move at `depth`.
fn search<W: BitWord>(pos: &mut Position<W>, depth: u32) -> (Score, Decision) {
    let mut s = Search::new();
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut last = None;
    let best = s.run(
        pos,
        &limits,
        &SearchOptions::default(),
        &tt,
        &Signals::default(),
        &mut |i| last = Some(i.score),
    );
    (last.expect("an info line"), best)
}

/// Checks the data's length by brute force, then the search at `depth`: it
/// must report `Mate(n)` and play a winning move.
fn check_row<W: BitWord>(v: &'static Variant, sfen: &str, n: i32, depth: u32) {
    let mut pos = common::position::<W>(v, sfen);
    let mut brute = Brute { budget: 50_000_000 };
    let shortest = brute
        .shortest(&mut pos, n)
        .unwrap_or_else(|| panic!("{sfen}: brute force over budget"));
    assert_eq!(
        shortest,
        Some(n),
        "{} {sfen}: the data's length is wrong",
        v.name()
    );
    let (score, best) = search(&mut pos, depth);
    assert_eq!(score, Score::Mate(n), "{} {sfen}: depth {depth}", v.name());
    // The move played is a winning one of that length.
    let Decision::Move { mv, .. } = best else {
        panic!("{sfen}: no move")
    };
    pos.do_move(mv);
    let mut brute = Brute { budget: 50_000_000 };
    assert_eq!(
        brute.lost(&mut pos, n - 1),
        Some(true),
        "{} {sfen}: {} does not win in {n}",
        v.name(),
        mv.to_usi(v)
    );
}

/// Runs `check` over the data rows.
fn each_row(check: impl Fn(&'static Variant, &str, i32)) {
    for r in common::rows("short-wins.tsv") {
        let v = Variant::by_name(&r[0]).unwrap();
        let n: i32 = r[2].parse().unwrap();
        check(v, &r[1], n);
    }
}

#[test]
fn short_wins_are_found_two_plies_beyond_their_length() {
    let rows = common::rows("short-wins.tsv");
    for name in common::VARIANTS {
        let n = rows.iter().filter(|r| r[0] == *name).count();
        assert!(n >= 3, "{name} needs short-win positions");
    }
    each_row(
        |v, sfen, n| with_width!(Width::for_variant(v), W => check_row::<W>(v, sfen, n, n as u32 + 2)),
    );
}

/// Labels candidates (`KAWARI_CANDIDATES`, lines `variant  sfen  ...`) with
/// their shortest win within `MAX_PLIES`, printing data rows for those that
/// have one and `# none` / `# unknown` lines for the rest.
#[test]
#[ignore]
fn label_short_win_candidates() {
    let path = std::env::var("KAWARI_CANDIDATES").expect("set KAWARI_CANDIDATES");
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let v = Variant::by_name(f[0]).unwrap();
        let verdict = with_width!(Width::for_variant(v), W => {
            let mut pos = common::position::<W>(v, f[1]);
            Brute { budget: 20_000_000 }.shortest(&mut pos, MAX_PLIES)
        });
        match verdict {
            Some(Some(n)) => println!("{}\t{}\t{n}", f[0], f[1]),
            Some(None) => println!("# none\t{}\t{}", f[0], f[1]),
            None => println!("# unknown\t{}\t{}", f[0], f[1]),
        }
    }
}
