//! Criterion benches for search speed: a fixed-depth search of one bench
//! position per variant (fresh table and heuristics each time), the static
//! evaluation, and exchange evaluation of every capture. `cargo bench --bench search`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use kawari::bench::POSITIONS;
use kawari::core::BitWord;
use kawari::eval::{evaluate_with, tables};
use kawari::position::{MoveList, Position};
use kawari::search::see::see_ge;
use kawari::search::{
    generate_captures, Limits, Search, SearchOptions, Signals, TranspositionTable,
};
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;

/// Depth of the search benches: a few milliseconds per search.
const DEPTH: u32 = 6;

fn bench_variant<W: BitWord>(c: &mut Criterion, v: &'static Variant, sfen: &str) {
    let pos = Position::<W>::from_sfen(v, sfen).expect("bench SFEN");
    let name = v.name();
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    group.bench_function(format!("search_depth_{DEPTH}"), |b| {
        let limits = Limits {
            depth: Some(DEPTH),
            ..Limits::default()
        };
        let ctl = Signals::default();
        let opts = SearchOptions::default();
        b.iter(|| {
            let p = pos.clone();
            let mut search = Search::new();
            let tt = TranspositionTable::new(4);
            search.run(&p, &limits, &opts, &tt, &ctl, &mut |_| {});
            black_box(search.nodes())
        })
    });
    let et = tables(v);
    group.bench_function("evaluate", |b| {
        b.iter(|| evaluate_with(et, black_box(&pos)))
    });
    let mut caps = MoveList::new();
    generate_captures(&pos, et, &mut caps);
    group.bench_function("see_all_captures", |b| {
        b.iter(|| {
            caps.iter()
                .filter(|&&m| see_ge(black_box(&pos), et, m, 0))
                .count()
        })
    });
    group.finish();
}

fn search_benches(c: &mut Criterion) {
    for v in Variant::all() {
        // The second bench position of each variant: an early middlegame.
        let sfen = POSITIONS
            .iter()
            .filter(|(name, _)| *name == v.name())
            .nth(1)
            .map(|(_, s)| *s)
            .expect("bench positions for every variant");
        with_width!(Width::for_variant(v), W => bench_variant::<W>(c, v, sfen));
    }
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
