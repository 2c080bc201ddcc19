//! The `bench` positions: a fixed search over positions of all three variants whose total node
//! count is the build's signature (one thread, fixed depth, a fresh table per position).

use crate::core::{fen, Position, Variant};

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
