//! Search speed: fixed-depth searches (one thread, fresh table) of the three start positions.
//! Throughput is in nodes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use jieqi::core::{Position, Variant};
use jieqi::search::{Engine, Limits, Options, Report, Root, SearchMode};

fn search_nodes(pos: Position, depth: u32) -> u64 {
    let mut engine = Engine::new(Options {
        hash_mb: 16,
        mode: SearchMode::Expectimax,
        ..Options::default()
    });
    let reports = engine.search_blocking(
        Root::new(pos),
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    reports
        .iter()
        .filter_map(|r| match r {
            Report::Info(i) => Some(i.nodes),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (variant, depth) in [
        (Variant::Jieqi, 3),
        (Variant::Maniac, 2),
        (Variant::Xiangqi, 7),
    ] {
        let pos = Position::startpos(variant);
        // The node count is fixed for a given build: throughput is nodes per second.
        let nodes = search_nodes(pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant}_start_d{depth}"), |b| {
            b.iter(|| search_nodes(pos, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
