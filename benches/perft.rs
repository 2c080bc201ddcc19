//! Move-generation speed: perft on the start positions of the three variants.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jieqi::core::perft::perft;
use jieqi::core::{Position, Variant};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (variant, depth) in [
        (Variant::Xiangqi, 4),
        (Variant::Jieqi, 3),
        (Variant::Maniac, 3),
    ] {
        let pos = Position::startpos(variant);
        let leaves = perft(&pos, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{variant}_start_d{depth}"), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let pos = Position::startpos(Variant::Jieqi);
    c.bench_function("legal_moves_jieqi_start", |b| {
        b.iter(|| std::hint::black_box(&pos).legal_move_list().len())
    });
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
