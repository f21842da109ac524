//! The learned evaluation (NNUE-style): a small network per variant whose
//! first layer is kept up to date move by move.
//!
//! `features` says what the inputs are, `network` holds the quantized weights
//! and reads network files, `accumulator` keeps the first layer's sums along
//! the search (`cache` spares king-bucket refreshes most rows), `simd` has
//! the inner loops, `train` fits a network to `kawari datagen` records.
//! Networks in `nets/` are built into the binary.

pub mod accumulator;
mod cache;
mod error;
pub mod features;
pub mod network;
mod simd;

pub use accumulator::Accumulators;
pub use error::NetworkError;
pub use features::FeatureSet;
pub use network::Network;

use crate::variant::Variant;
use once_cell::sync::Lazy;

/// The networks built into the binary, by variant name (see
/// `nets/PROVENANCE.md` for how each was made).
const BUILTIN: &[(&str, &[u8])] = &[
    ("shogi", include_bytes!("../../nets/shogi.nnue")),
    ("heian", include_bytes!("../../nets/heian.nnue")),
    ("heian8x8", include_bytes!("../../nets/heian8x8.nnue")),
    ("heian8x9", include_bytes!("../../nets/heian8x9.nnue")),
    ("heian9x8", include_bytes!("../../nets/heian9x8.nnue")),
    ("judkins", include_bytes!("../../nets/judkins.nnue")),
    ("yarishogi", include_bytes!("../../nets/yarishogi.nnue")),
];

static PARSED: Lazy<Vec<(&'static str, Result<Network, NetworkError>)>> = Lazy::new(|| {
    BUILTIN
        .iter()
        .map(|&(name, bytes)| {
            let net = Variant::by_name(name)
                .ok_or_else(|| NetworkError::UnknownVariant(name.to_string()))
                .and_then(|v| Network::from_bytes(v, bytes));
            (name, net)
        })
        .collect()
});

/// The built-in network of `v`, if it has one.
pub fn builtin(v: &Variant) -> Option<&'static Network> {
    PARSED
        .iter()
        .find(|(name, _)| *name == v.name())
        .and_then(|(_, net)| net.as_ref().ok())
}

/// `net`'s score of `pos` for its side to move, computed from scratch.
pub fn evaluate<W: crate::core::BitWord>(
    net: &'static Network,
    pos: &crate::position::Position<W>,
) -> i32 {
    let mut acc = Accumulators::new(1);
    acc.reset(Some(net), pos);
    acc.evaluate(0, pos).unwrap_or(0)
}

/// Networks loaded from files, kept for the life of the process (a search
/// holds `&'static` references); loading the same file again reuses it.
static LOADED: Lazy<std::sync::Mutex<Vec<LoadedFile>>> = Lazy::new(Default::default);

/// A network file's bytes and the network read from them.
type LoadedFile = (Vec<u8>, &'static Network);

/// Loads a network file (`EvalFile`); its header names its variant.
pub fn load_file(path: &std::path::Path) -> Result<&'static Network, NetworkError> {
    let bytes = std::fs::read(path).map_err(|e| NetworkError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let v = Network::variant_of(&bytes)?;
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, n)) = loaded.iter().find(|(b, _)| *b == bytes) {
        return Ok(n);
    }
    let net: &'static Network = Box::leak(Box::new(Network::from_bytes(v, &bytes)?));
    loaded.push((bytes, net));
    Ok(net)
}

/// Which evaluation a search uses.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub enum EvalChoice {
    /// The variant's built-in network, or the hand-made evaluation if it has
    /// none.
    #[default]
    Default,
    /// The hand-made evaluation (`eval::evaluate`).
    HandMade,
    /// This network (loaded with `EvalFile`), for its variant; other
    /// variants use their default.
    Network(&'static Network),
}

impl EvalChoice {
    /// The network to use for `v`, if any.
    pub fn network_for(self, v: &Variant) -> Option<&'static Network> {
        match self {
            EvalChoice::HandMade => None,
            EvalChoice::Network(n) if n.variant() == v.name() => Some(n),
            _ => builtin(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    fn random_net(v: &Variant, set: FeatureSet) -> &'static Network {
        Box::leak(Box::new(Network::random(v, set, 32, 7)))
    }

    #[test]
    fn incremental_equals_scratch_along_random_playouts() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        for (v, set) in Variant::all()
            .iter()
            .flat_map(|v| FeatureSet::ALL.map(|s| (v, s)))
        {
            let net = random_net(v, set);
            for _game in 0..6 {
                let mut pos = Position::<u128>::startpos(v);
                let mut acc = Accumulators::new(200);
                acc.reset(Some(net), &pos);
                for ply in 0..150 {
                    // Evaluate at some plies only, so that updates also
                    // catch up over several moves.
                    if ply % 3 != 1 {
                        let inc = acc.evaluate(ply, &pos).unwrap();
                        assert_eq!(inc, acc.evaluate_from_scratch(&pos), "{}", pos.to_sfen());
                    }
                    if pos.game_end().is_some() {
                        break;
                    }
                    let moves = pos.legal_moves();
                    if !pos.in_check() && ply % 17 == 5 {
                        acc.push_null(ply);
                        pos.do_null_move();
                        continue;
                    }
                    let m = *moves.choose(&mut rng).unwrap();
                    acc.push_move(ply, &pos, m);
                    pos.do_move(m);
                }
            }
        }
    }

    #[test]
    fn refresh_cache_equals_scratch_along_king_walks() {
        // King moves first, so frames change often and entries are reused
        // across many different positions; one stack over several games and
        // two networks, so entries outlive their game and a network change
        // must empty them.
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for v in Variant::all() {
            let nets = [
                random_net(v, FeatureSet::KingBuckets),
                Box::leak(Box::new(Network::random(v, FeatureSet::KingBuckets, 32, 8))),
            ];
            let layout = nets[0].layout(v);
            let mut acc = Accumulators::new(40);
            let mut frame_changes = 0;
            for game in 0..8 {
                let mut pos = Position::<u128>::startpos(v);
                acc.reset(Some(nets[game / 2 % 2]), &pos);
                for i in 0..200 {
                    // Ply 0 again now and then: the stack is short, and the
                    // refreshes then come from entries of deeper positions.
                    let ply = i % 39;
                    if ply == 0 && i > 0 {
                        acc.reset(Some(nets[game / 2 % 2]), &pos);
                    }
                    let inc = acc.evaluate(ply, &pos).unwrap();
                    assert_eq!(inc, acc.evaluate_from_scratch(&pos), "{}", pos.to_sfen());
                    if pos.game_end().is_some() {
                        break;
                    }
                    let moves = pos.legal_moves();
                    let king = moves
                        .iter()
                        .filter(|m| !m.is_drop() && pos.piece_at(m.from()).kind() == v.king)
                        .copied()
                        .collect::<Vec<_>>();
                    let m = match king.choose(&mut rng) {
                        Some(&k) if i % 4 != 3 => k,
                        _ => *moves.choose(&mut rng).unwrap(),
                    };
                    let us = pos.side_to_move();
                    let before = layout.frame(&pos, us);
                    acc.push_move(ply, &pos, m);
                    pos.do_move(m);
                    frame_changes += (layout.frame(&pos, us) != before) as u32;
                }
            }
            assert!(frame_changes > 50, "{}: {frame_changes}", v.name());
        }
    }

    /// Each bench position with a random network of its variant, for each
    /// feature set.
    fn bench_positions(
    ) -> impl Iterator<Item = (&'static str, &'static str, &'static Network, Position<u128>)> {
        crate::bench::POSITIONS.iter().flat_map(|&(name, sfen)| {
            let v = Variant::by_name(name).unwrap();
            FeatureSet::ALL.map(|set| {
                (
                    name,
                    sfen,
                    random_net(v, set),
                    Position::<u128>::from_sfen(v, sfen).unwrap(),
                )
            })
        })
    }

    #[test]
    fn network_evaluation_is_colour_symmetric() {
        for (name, sfen, net, a) in bench_positions() {
            let v = a.variant();
            let fl = crate::position::testing::flip(sfen);
            let b = Position::<u128>::from_sfen(v, &fl).unwrap();
            assert_eq!(evaluate(net, &a), evaluate(net, &b), "{name} {sfen}");
        }
    }

    #[test]
    fn searches_keep_the_accumulators_exact() {
        use crate::search::{Limits, Search, SearchOptions, Signals, TranspositionTable};
        for (name, sfen, net, pos) in bench_positions() {
            let mut search = Search::new();
            search.verify_evaluation(true);
            let opts = SearchOptions {
                eval: EvalChoice::Network(net),
                ..SearchOptions::default()
            };
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let tt = TranspositionTable::new(1);
            let mut depth = 0;
            search.run(&pos, &limits, &opts, &tt, &Signals::default(), &mut |i| {
                depth = i.depth
            });
            assert!(depth >= 3, "{name} {sfen}");
        }
    }

    #[test]
    fn built_in_networks_load() {
        for (name, net) in PARSED.iter() {
            assert!(net.is_ok(), "{name}: {:?}", net.as_ref().err());
        }
    }
}
