//! The perft positions (their counts are in `tests/perft.rs`): plain Xiangqi boards, the same
//! kind of boards read as Jieqi with every piece face up, and Jieqi boards with face-down pieces.

use jieqi::core::{fen, Position, Variant};

/// Plain Xiangqi boards (board field only; Red to move with ` w - - 0 1`).
pub const XIANGQI_BOARDS: [&str; 11] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3",
];

/// Boards with every piece face up, read as Jieqi (advisors and elephants move anywhere).
pub const JIEQI_REVEALED: [&str; 3] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
];

/// Jieqi boards with face-down pieces and their pools (6-field dialect); the first is the start.
pub const JIEQI_HIDDEN: [&str; 5] = [
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
    "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8",
    "P3kxx1x/4a4/4p1a2/9/4b1p1p/CR2B4/8X/B1r1r4/9/X2XK2XX w R1N1n1A1P2p2 0 18",
    "C1xx1x1xx/4k4/2a5c/1r2C4/2pA2p1b/p6p1/2X3X1X/2B3P1B/3N5/X2XKX2X b R1r1N1n1b1A1a1c1P4 0 12",
    "x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50",
];

/// A position the rules core accepts without any warning (panics otherwise, naming the text).
pub fn load(text: &str, variant: Variant) -> Position {
    let setup = fen::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let (pos, warnings) = Position::from_setup(&setup, variant)
        .unwrap_or_else(|e| panic!("{text:?} ({variant}): {e}"));
    assert!(warnings.is_empty(), "{text:?} ({variant}): {warnings:?}");
    pos
}

/// The position, if the text is a valid position of the variant at all (warnings allowed).
pub fn try_load(text: &str, variant: Variant) -> Option<Position> {
    let setup = fen::parse(text).ok()?;
    Position::from_setup(&setup, variant).ok().map(|(p, _)| p)
}
