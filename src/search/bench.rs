//! `bench`: a fixed search over positions of all three variants whose total node count is the
//! build's signature (one thread, fixed depth, a fresh engine and table per position). The
//! command line (`jieqi bench`) runs it to the end with [`run`]; the protocol loop's `bench`
//! drives the same [`BenchRun`] one search at a time, so that it keeps answering meanwhile.

use std::time::Instant;

use crate::core::{fen, Move, Position, Variant};

use super::{Engine, Limits, Options, Report, Root, SearchMode};

/// One bench position and the depth it is searched to by default.
pub struct BenchPosition {
    pub variant: Variant,
    pub fen: &'static str,
    pub depth: u32,
}

impl BenchPosition {
    /// The position (the built-in FENs are valid).
    pub fn position(&self) -> Option<Position> {
        let setup = fen::parse(self.fen).ok()?;
        Position::from_setup(&setup, self.variant)
            .ok()
            .map(|(p, _)| p)
    }
}

/// Transposition table size of each bench search, in MiB.
pub const HASH_MB: usize = 16;

/// Positions with many face-down pieces are searched less deep: every flip is a chance node.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        variant: Variant::Jieqi,
        fen: "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
        depth: 4,
    },
    BenchPosition {
        variant: Variant::Jieqi,
        fen: "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8",
        depth: 4,
    },
    BenchPosition {
        variant: Variant::Jieqi,
        fen: "C1xx1x1xx/4k4/2a5c/1r2C4/2pA2p1b/p6p1/2X3X1X/2B3P1B/3N5/X2XKX2X b R1r1N1n1b1A1a1c1P4 0 12",
        depth: 5,
    },
    BenchPosition {
        variant: Variant::Jieqi,
        fen: "x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50",
        depth: 9,
    },
    BenchPosition {
        variant: Variant::Jieqi,
        fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        depth: 8,
    },
    BenchPosition {
        variant: Variant::Maniac,
        fen: "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
        depth: 2,
    },
    BenchPosition {
        variant: Variant::Maniac,
        fen: "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8",
        depth: 4,
    },
    BenchPosition {
        variant: Variant::Xiangqi,
        fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        depth: 9,
    },
    BenchPosition {
        variant: Variant::Xiangqi,
        fen: "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        depth: 8,
    },
    BenchPosition {
        variant: Variant::Xiangqi,
        fen: "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        depth: 8,
    },
    BenchPosition {
        variant: Variant::Xiangqi,
        fen: "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        depth: 10,
    },
];

/// One bench run: the positions in order, each searched by a fresh engine, and the totals.
pub struct BenchRun {
    /// Depth for every position, or `None` for each position's own.
    depth: Option<u32>,
    threads: usize,
    /// Index of the next position.
    next: usize,
    nodes: u64,
    started: Instant,
}

/// The search of one bench position: its engine (the caller runs it), and what its line says.
pub struct BenchSearch {
    pub engine: Engine,
    /// 1-based position number.
    index: usize,
    variant: Variant,
    depth: u32,
    started: Instant,
}

impl BenchRun {
    pub fn new(depth: Option<u32>, threads: usize) -> BenchRun {
        BenchRun {
            depth,
            threads,
            next: 0,
            nodes: 0,
            started: Instant::now(),
        }
    }

    /// The search of the next position and the root and limits to run it with, or `None`
    /// after the last.
    pub fn next_search(&mut self) -> Option<(BenchSearch, Root, Limits)> {
        loop {
            let bp = POSITIONS.get(self.next)?;
            self.next += 1;
            let Some(pos) = bp.position() else {
                continue;
            };
            let depth = self.depth.unwrap_or(bp.depth);
            let engine = Engine::new(Options {
                threads: self.threads,
                hash_mb: HASH_MB,
                mode: SearchMode::Expectimax,
                ..Options::default()
            });
            let search = BenchSearch {
                engine,
                index: self.next,
                variant: bp.variant,
                depth,
                started: Instant::now(),
            };
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            return Some((search, Root::new(pos), limits));
        }
    }

    /// Books a finished search (`nodes` from its last report, its best move) and returns its
    /// line: `position <i> <variant> depth <d> nodes <n> time <ms> ms bestmove <move>`.
    pub fn finish(&mut self, search: &BenchSearch, nodes: u64, best: Option<Move>) -> String {
        self.nodes += nodes;
        format!(
            "position {:2} {:8} depth {:2} nodes {:10} time {:6} ms bestmove {}",
            search.index,
            search.variant.name(),
            search.depth,
            nodes,
            search.started.elapsed().as_millis(),
            best.map_or_else(|| "(none)".to_string(), |m| m.to_string())
        )
    }

    /// The closing lines: `Total time (ms): <t>`, `Nodes searched: <N>`, `Nodes/second: <N>`.
    pub fn totals(&self) -> [String; 3] {
        let secs = self.started.elapsed().as_secs_f64();
        [
            format!("Total time (ms): {}", (secs * 1000.0) as u64),
            format!("Nodes searched: {}", self.nodes),
            format!(
                "Nodes/second: {}",
                (self.nodes as f64 / secs.max(1e-9)) as u64
            ),
        ]
    }
}

/// Runs the whole bench (each position at its own depth, or at `depth` for all), handing each
/// line to `out`: one per position, then the totals.
pub fn run(depth: Option<u32>, threads: usize, mut out: impl FnMut(&str)) {
    let mut bench = BenchRun::new(depth, threads);
    while let Some((mut search, root, limits)) = bench.next_search() {
        let reports = search.engine.search_blocking(root, limits);
        let mut nodes = 0;
        let mut best = None;
        for r in reports {
            match r {
                Report::Info(info) => nodes = info.nodes.max(nodes),
                Report::Done { best: b, .. } => best = b,
                Report::Text(_) => {}
            }
        }
        out(&bench.finish(&search, nodes, best));
    }
    for line in bench.totals() {
        out(&line);
    }
}
