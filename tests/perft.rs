//! Perft against verified tables: plain Xiangqi boards, Jieqi boards with every piece face up,
//! Jieqi boards with face-down pieces (the boards are in `tests/common/boards.rs`), and the
//! chance-expanded counts of the Jieqi and Maniac start positions.
//!
//! Depths up to 4 run by default. Deeper counts are `#[ignore]`d: run them with
//! `cargo test --release --test perft -- --ignored`.

use jieqi::core::perft::{divide, perft};
use jieqi::core::{Position, Variant};

mod common;

use common::boards::{load as position, JIEQI_HIDDEN, JIEQI_REVEALED, XIANGQI_BOARDS};

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

/// Perft 1-6 of each board of `XIANGQI_BOARDS`, in order.
const XIANGQI_COUNTS: [[u64; 6]; 11] = [
    [44, 1920, 79666, 3290240, 133312995, 5392831844],
    [38, 1128, 43929, 1339047, 53112976, 1663640378],
    [7, 281, 8620, 326201, 10369923, 380156340],
    [25, 424, 9850, 202884, 4739553, 100055401],
    [28, 516, 14808, 395483, 11842230, 367168327],
    [21, 364, 7626, 162837, 3500505, 81195154],
    [28, 222, 6241, 64971, 1914306, 23496493],
    [23, 345, 8124, 149272, 3513104, 71287903],
    [21, 195, 3883, 48060, 933096, 12250386],
    [30, 830, 22787, 649866, 17920736, 517687990],
    [19, 583, 11714, 376467, 8148177, 270587571],
];

/// Perft 1-5 of each position of `JIEQI_REVEALED` (every piece face up), in order.
const JIEQI_REVEALED_COUNTS: [[u64; 5]; 3] = [
    [46, 2098, 91350, 3958056, 168297599],
    [40, 1264, 51933, 1689992, 70684276],
    [31, 536, 14813, 311791, 8755619],
];

/// Perft 1 of each position of `JIEQI_HIDDEN` (face-down pieces), in order.
const JIEQI_HIDDEN_PERFT1: [u64; 5] = [44, 46, 2, 39, 27];

#[test]
fn xiangqi_tables_to_depth_4() {
    for (board, counts) in XIANGQI_BOARDS.iter().zip(&XIANGQI_COUNTS) {
        check(&format!("{board} w - - 0 1"), Variant::Xiangqi, counts, 4);
    }
}

#[test]
#[ignore = "long: run with --ignored in release mode"]
fn xiangqi_tables_deep() {
    for (board, counts) in XIANGQI_BOARDS.iter().zip(&XIANGQI_COUNTS) {
        check(&format!("{board} w - - 0 1"), Variant::Xiangqi, counts, 6);
    }
}

#[test]
fn jieqi_revealed_tables_to_depth_4() {
    for (fen_text, counts) in JIEQI_REVEALED.iter().zip(&JIEQI_REVEALED_COUNTS) {
        check(fen_text, Variant::Jieqi, counts, 4);
    }
}

#[test]
#[ignore = "long: run with --ignored in release mode"]
fn jieqi_revealed_tables_deep() {
    for (fen_text, counts) in JIEQI_REVEALED.iter().zip(&JIEQI_REVEALED_COUNTS) {
        check(fen_text, Variant::Jieqi, counts, 5);
    }
}

#[test]
fn jieqi_hidden_perft1() {
    for (fen_text, &n) in JIEQI_HIDDEN.iter().zip(&JIEQI_HIDDEN_PERFT1) {
        check(fen_text, Variant::Jieqi, &[n], 1);
    }
}

#[test]
fn jieqi_hidden_divide_of_46_move_position() {
    let pos = position(JIEQI_HIDDEN[1], Variant::Jieqi);
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
    let five = JIEQI_REVEALED[2];
    let six = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    assert_eq!(
        perft(&position(five, Variant::Jieqi), 3),
        perft(&position(six, Variant::Jieqi), 3)
    );
}
