//! Perft against the verified tables of `shared/perft.md`.
//!
//! Depths up to 4 run by default. Deeper counts are `#[ignore]`d: run them with
//! `cargo test --release --test perft -- --ignored`.

use jieqi::core::perft::{divide, perft};
use jieqi::core::{fen, Position, Variant};

fn position(fen_text: &str, variant: Variant) -> Position {
    let setup = fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    let (pos, warnings) =
        Position::from_setup(&setup, variant).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
    assert!(warnings.is_empty(), "{fen_text}: {warnings:?}");
    pos
}

fn check(fen_text: &str, variant: Variant, counts: &[u64], max_depth: usize) {
    let pos = position(fen_text, variant);
    for (i, &expected) in counts.iter().enumerate().take(max_depth) {
        let depth = i as u32 + 1;
        assert_eq!(
            perft(&pos, depth),
            expected,
            "{variant} perft({depth}) of {fen_text}"
        );
    }
}

const XIANGQI: &[(&str, [u64; 6])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        [44, 1920, 79666, 3290240, 133312995, 5392831844],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2",
        [38, 1128, 43929, 1339047, 53112976, 1663640378],
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1",
        [7, 281, 8620, 326201, 10369923, 380156340],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2",
        [25, 424, 9850, 202884, 4739553, 100055401],
    ),
    (
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3",
        [28, 516, 14808, 395483, 11842230, 367168327],
    ),
    (
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3",
        [21, 364, 7626, 162837, 3500505, 81195154],
    ),
    (
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3",
        [28, 222, 6241, 64971, 1914306, 23496493],
    ),
    (
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5",
        [23, 345, 8124, 149272, 3513104, 71287903],
    ),
    (
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5",
        [21, 195, 3883, 48060, 933096, 12250386],
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4",
        [30, 830, 22787, 649866, 17920736, 517687990],
    ),
    (
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3",
        [19, 583, 11714, 376467, 8148177, 270587571],
    ),
];

const JIEQI_REVEALED: &[(&str, [u64; 5])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        [46, 2098, 91350, 3958056, 168297599],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        [40, 1264, 51933, 1689992, 70684276],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        [31, 536, 14813, 311791, 8755619],
    ),
];

const JIEQI_HIDDEN_PERFT1: &[(&str, u64)] = &[
    ("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1", 44),
    ("x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8", 46),
    ("P3kxx1x/4a4/4p1a2/9/4b1p1p/CR2B4/8X/B1r1r4/9/X2XK2XX w R1N1n1A1P2p2 0 18", 2),
    ("C1xx1x1xx/4k4/2a5c/1r2C4/2pA2p1b/p6p1/2X3X1X/2B3P1B/3N5/X2XKX2X b R1r1N1n1b1A1a1c1P4 0 12", 39),
    ("x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50", 27),
];

#[test]
fn xiangqi_tables_to_depth_4() {
    for (board, counts) in XIANGQI {
        check(&format!("{board} w - - 0 1"), Variant::Xiangqi, counts, 4);
    }
}

#[test]
#[ignore = "long: run with --ignored in release mode"]
fn xiangqi_tables_deep() {
    for (board, counts) in XIANGQI {
        check(&format!("{board} w - - 0 1"), Variant::Xiangqi, counts, 6);
    }
}

#[test]
fn jieqi_revealed_tables_to_depth_4() {
    for (fen_text, counts) in JIEQI_REVEALED {
        check(fen_text, Variant::Jieqi, counts, 4);
    }
}

#[test]
#[ignore = "long: run with --ignored in release mode"]
fn jieqi_revealed_tables_deep() {
    for (fen_text, counts) in JIEQI_REVEALED {
        check(fen_text, Variant::Jieqi, counts, 5);
    }
}

#[test]
fn jieqi_hidden_perft1() {
    for &(fen_text, n) in JIEQI_HIDDEN_PERFT1 {
        check(fen_text, Variant::Jieqi, &[n], 1);
    }
}

#[test]
fn jieqi_hidden_divide_of_46_move_position() {
    let pos = position(JIEQI_HIDDEN_PERFT1[1].0, Variant::Jieqi);
    let mut got: Vec<String> = divide(&pos, 1).iter().map(|(m, _)| m.to_string()).collect();
    let mut want: Vec<String> = "e3e4 i3i4 c4c5 g0i2 e2c0 e0d0 g2f1 g2h1 g2f3 g2h3 g4f3 g4h3 g4f5 \
        g4h5 b0a0 b0c0 b0d0 b0b1 b2b1 b2a2 b2c2 b2d2 b2b3 b2b4 b2b5 b2b6 b2b7 b2b8 b2b9 h2h0 h2h1 \
        h2i2 h2h3 h2h4 h2h5 h2h6 h2h9 i0h0 i0i1 i0i2 a4a0 a4a1 a4a2 a4a3 a4b4 a4a5"
        .split_whitespace()
        .map(String::from)
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn xiangqi_start_divide() {
    let pos = Position::startpos(Variant::Xiangqi);
    let mut got: Vec<String> = divide(&pos, 1).iter().map(|(m, _)| m.to_string()).collect();
    let mut want: Vec<String> = "a3a4 c3c4 e3e4 g3g4 i3i4 c0a2 c0e2 g0e2 g0i2 d0e1 f0e1 b0a2 b0c2 \
        h0g2 h0i2 b2b1 b2a2 b2c2 b2d2 b2e2 b2f2 b2g2 b2b3 b2b4 b2b5 b2b6 b2b9 h2h1 h2c2 h2d2 h2e2 \
        h2f2 h2g2 h2i2 h2h3 h2h4 h2h5 h2h6 h2h9 a0a1 a0a2 i0i1 i0i2 e0e1"
        .split_whitespace()
        .map(String::from)
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn jieqi_start_chance_expanded() {
    check(
        Variant::Jieqi.start_fen(),
        Variant::Jieqi,
        &[44, 11292, 2593799],
        3,
    );
}

#[test]
fn maniac_start_chance_expanded() {
    check(
        Variant::Maniac.start_fen(),
        Variant::Maniac,
        &[44, 22572, 9605113],
        3,
    );
}

/// A position without face-down pieces gives the same counts whichever dialect wrote it.
#[test]
fn revealed_board_counts_same_in_six_field_dialect() {
    let five = JIEQI_REVEALED[2].0;
    let six = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    assert_eq!(
        perft(&position(five, Variant::Jieqi), 3),
        perft(&position(six, Variant::Jieqi), 3)
    );
}
