//! `jieqi bench`: a fixed search over positions of all three variants. The node count is the
//! build's signature: identical on every run of the same build (one thread, fixed depth, a fresh
//! table per position).

use std::time::Instant;

use jieqi::search::bench::{HASH_MB, POSITIONS};
use jieqi::search::{Engine, Limits, Options, Report, Root, SearchMode};

/// Runs the bench (each position at its own depth, or at `depth` for all) and prints one line
/// per position, then `Nodes searched: <N>` and `Nodes/second: <N>` as the last two lines.
pub fn run(depth: Option<u32>, threads: usize) {
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, bp) in POSITIONS.iter().enumerate() {
        let Some(pos) = bp.position() else { continue };
        let options = Options {
            threads,
            hash_mb: HASH_MB,
            mode: SearchMode::Expectimax,
            ..Options::default()
        };
        let mut engine = Engine::new(options);
        let limits = Limits {
            depth: Some(depth.unwrap_or(bp.depth)),
            ..Limits::default()
        };
        let t0 = Instant::now();
        let reports = engine.search_blocking(Root::new(pos), limits);
        let mut nodes = 0;
        let mut best = String::from("(none)");
        for r in reports {
            match r {
                Report::Info(info) => nodes = info.nodes,
                Report::Done { best: Some(b), .. } => best = b.to_string(),
                _ => {}
            }
        }
        total_nodes += nodes;
        outln!(
            "position {:2} {:8} depth {:2} nodes {:10} time {:6} ms bestmove {}",
            i + 1,
            bp.variant.name(),
            depth.unwrap_or(bp.depth),
            nodes,
            t0.elapsed().as_millis(),
            best
        );
    }
    let secs = start.elapsed().as_secs_f64();
    outln!("Total time (ms): {}", (secs * 1000.0) as u64);
    outln!("Nodes searched: {total_nodes}");
    outln!(
        "Nodes/second: {}",
        (total_nodes as f64 / secs.max(1e-9)) as u64
    );
}
