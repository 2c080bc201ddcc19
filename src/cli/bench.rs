//! `jieqi bench`: a fixed search over positions of all three variants. The node count is the
//! build's signature: identical on every run of the same build (one thread, fixed depth, a fresh
//! table per position).

use std::time::Instant;

use jieqi::core::{fen, Position, Variant};
use jieqi::search::{Engine, Limits, Options, Report, Root, SearchMode};

/// The bench positions: (variant, FEN).
pub const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Jieqi, "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"),
    (Variant::Jieqi, "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8"),
    (Variant::Jieqi, "C1xx1x1xx/4k4/2a5c/1r2C4/2pA2p1b/p6p1/2X3X1X/2B3P1B/3N5/X2XKX2X b R1r1N1n1b1A1a1c1P4 0 12"),
    (Variant::Jieqi, "x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50"),
    (Variant::Jieqi, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    (Variant::Maniac, "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"),
    (Variant::Maniac, "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8"),
    (Variant::Xiangqi, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    (Variant::Xiangqi, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"),
    (Variant::Xiangqi, "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1"),
    (Variant::Xiangqi, "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1"),
];

/// Runs the bench at `depth` with `threads` and prints per-position lines, then
/// `Nodes searched: <N>` and `Nodes/second: <N>` as the last two lines.
pub fn run(depth: u32, threads: usize, hash_mb: usize) {
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (i, &(variant, text)) in POSITIONS.iter().enumerate() {
        let setup = fen::parse(text).expect("bench FEN parses");
        let (pos, _) = Position::from_setup(&setup, variant).expect("bench FEN is valid");
        let options = Options {
            threads,
            hash_mb,
            mode: SearchMode::Expectimax,
            ..Options::default()
        };
        let mut engine = Engine::new(options);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t0 = Instant::now();
        let reports = engine.search_blocking(Root::new(pos), limits);
        let mut nodes = 0;
        let mut best = String::from("(none)");
        for r in reports {
            match r {
                Report::Info(info) => nodes = info.nodes,
                Report::Done { best: b, .. } => best = b.map_or(best.clone(), |m| m.to_string()),
                Report::Text(_) => {}
            }
        }
        total_nodes += nodes;
        println!(
            "position {:2} {:8} nodes {:10} time {:6} ms bestmove {}",
            i + 1,
            variant.name(),
            nodes,
            t0.elapsed().as_millis(),
            best
        );
    }
    let secs = start.elapsed().as_secs_f64();
    println!("Total time (ms): {}", (secs * 1000.0) as u64);
    println!("Nodes searched: {total_nodes}");
    println!(
        "Nodes/second: {}",
        (total_nodes as f64 / secs.max(1e-9)) as u64
    );
}
