//! `jieqi perft`: chance-expanded move-generation counts.

use std::time::Instant;

use jieqi::core::perft::{divide, perft};
use jieqi::core::Position;

/// Prints the count (and the per-move split with `divide`); the last line is
/// `Nodes searched: <N>`.
pub fn run(pos: &Position, depth: u32, show_divide: bool) {
    let start = Instant::now();
    let total = if show_divide {
        let mut total = 0;
        for (mv, n) in divide(pos, depth) {
            outln!("{mv}: {n}");
            total += n;
        }
        outln!();
        total
    } else {
        perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    outln!("Time: {} ms", (secs * 1000.0).round() as u64);
    outln!("Nodes/second: {}", (total as f64 / secs.max(1e-9)) as u64);
    outln!("Nodes searched: {total}");
}
