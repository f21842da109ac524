//! Criterion benches for the rules core: legal move generation, make/unmake and
//! perft from the start position of every variant, and the u64-vs-u128 choice for
//! the 7x9 board. `cargo bench --bench movegen`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use kawari::core::BitWord;
use kawari::perft::perft;
use kawari::position::Position;
use kawari::variant::Variant;
use kawari::width::Width;
use kawari::with_width;

/// A middlegame-ish position: the start position after a few plies of the
/// first legal moves, so that hands and captures appear in drop variants.
fn sample<W: BitWord>(v: &'static Variant) -> Position<W> {
    let mut pos = Position::<W>::startpos(v);
    for i in 0..12 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.do_move(moves[(i * 7) % moves.len()]);
    }
    pos.clear_history();
    pos
}

fn bench_variant<W: BitWord>(c: &mut Criterion, name: &str, label: &str) {
    let v = Variant::by_name(name).unwrap();
    let pos = sample::<W>(v);
    c.bench_function(&format!("{label}/legal_moves"), |b| {
        b.iter(|| black_box(&pos).legal_moves().len())
    });
    c.bench_function(&format!("{label}/make_unmake_all"), |b| {
        let mut p = pos.clone();
        let moves = p.legal_moves();
        b.iter(|| {
            for &m in &moves {
                p.do_move(m);
                p.undo_move();
            }
        })
    });
    c.bench_function(&format!("{label}/perft3_start"), |b| {
        let mut p = Position::<W>::startpos(v);
        b.iter(|| perft(&mut p, 3))
    });
}

fn all(c: &mut Criterion) {
    for v in Variant::all() {
        let name = v.name();
        with_width!(Width::for_variant(v), W => bench_variant::<W>(c, name, name));
    }
    // The 63-square board fits u64; measure u128 beside it.
    bench_variant::<u128>(c, "yarishogi", "yarishogi_u128");
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = all
}
criterion_main!(benches);
