//! FEN reading and writing: every dialect, pools, the wait token, errors and round trips.

use jieqi::core::fen::{self, FenDialect, FenErrorKind, FenField};
use jieqi::core::pool::{identity_piece, IDENTITIES};
use jieqi::core::{Color, File, Piece, Pool, Rank, Role, Setup, SetupCell, Square};
use proptest::prelude::*;

mod common;

use common::boards::{JIEQI_HIDDEN, XIANGQI_BOARDS};

const START_BOARD: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
const XIANGQI_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

fn red(role: Role) -> Piece {
    Piece::new(Color::Red, role)
}

fn black(role: Role) -> Piece {
    Piece::new(Color::Black, role)
}

fn revealed(color: Color, role: Role) -> Option<SetupCell> {
    Some(SetupCell::Revealed(Piece::new(color, role)))
}

fn hidden(color: Color) -> Option<SetupCell> {
    Some(SetupCell::Hidden(color))
}

fn ok(text: &str) -> Setup {
    match fen::parse(text) {
        Ok(setup) => setup,
        Err(e) => panic!("{text:?} should parse: {e}"),
    }
}

fn err_kind(text: &str) -> FenErrorKind {
    match fen::parse(text) {
        Ok(setup) => panic!("{text:?} should not parse, got {setup:?}"),
        Err(e) => e.kind().clone(),
    }
}

fn pool(text: &str) -> Pool {
    ok(&format!("{XIANGQI_BOARD} w {text} 0 1")).pool
}

fn assert_start_board(setup: &Setup) {
    assert_eq!(setup.get(sq("e9")), revealed(Color::Black, Role::King));
    assert_eq!(setup.get(sq("e0")), revealed(Color::Red, Role::King));
    for name in ["a9", "d9", "i9", "b7", "h7", "a6", "e6", "i6"] {
        assert_eq!(setup.get(sq(name)), hidden(Color::Black), "{name}");
    }
    for name in ["a0", "f0", "i0", "b2", "h2", "a3", "c3", "i3"] {
        assert_eq!(setup.get(sq(name)), hidden(Color::Red), "{name}");
    }
    for name in ["e1", "a2", "e2", "b3", "e4", "e5", "e8", "c7"] {
        assert_eq!(setup.get(sq(name)), None, "{name}");
    }
    assert_eq!(setup.board.iter().filter(|c| c.is_some()).count(), 32);
}

fn assert_xiangqi_start(setup: &Setup) {
    assert_eq!(setup.get(sq("a0")), revealed(Color::Red, Role::Rook));
    assert_eq!(setup.get(sq("b0")), revealed(Color::Red, Role::Horse));
    assert_eq!(setup.get(sq("c0")), revealed(Color::Red, Role::Elephant));
    assert_eq!(setup.get(sq("d0")), revealed(Color::Red, Role::Advisor));
    assert_eq!(setup.get(sq("e0")), revealed(Color::Red, Role::King));
    assert_eq!(setup.get(sq("h2")), revealed(Color::Red, Role::Cannon));
    assert_eq!(setup.get(sq("g3")), revealed(Color::Red, Role::Pawn));
    assert_eq!(setup.get(sq("i9")), revealed(Color::Black, Role::Rook));
    assert_eq!(setup.get(sq("b7")), revealed(Color::Black, Role::Cannon));
    assert_eq!(setup.get(sq("e6")), revealed(Color::Black, Role::Pawn));
    assert_eq!(setup.get(sq("e5")), None);
    assert_eq!(setup.board.iter().filter(|c| c.is_some()).count(), 32);
}

// ---------------------------------------------------------------- dialects

#[test]
fn jieqibox_start() {
    let s = ok(&format!("{START_BOARD} w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1"));
    assert_start_board(&s);
    assert_eq!(s.side, Color::Red);
    assert_eq!(s.pool, Pool::full());
    assert_eq!(s.captured, Pool::EMPTY);
    assert_eq!((s.halfmove, s.fullmove, s.wait), (0, 1, None));
}

#[test]
fn pikafish_start() {
    let s = ok(JIEQI_HIDDEN[0]);
    assert_start_board(&s);
    assert_eq!(s.side, Color::Red);
    assert_eq!(s.pool, Pool::full());
    assert_eq!(s.captured, Pool::EMPTY);
    assert_eq!((s.halfmove, s.fullmove), (0, 1));
}

#[test]
fn pikafish_midgame() {
    let s = ok(JIEQI_HIDDEN[1]);
    assert_eq!(s.side, Color::Red);
    assert_eq!((s.halfmove, s.fullmove), (1, 8));
    assert_eq!(s.get(sq("a9")), hidden(Color::Black));
    assert_eq!(s.get(sq("b9")), None);
    assert_eq!(s.get(sq("a7")), revealed(Color::Black, Role::Cannon));
    assert_eq!(s.get(sq("a5")), revealed(Color::Black, Role::Advisor));
    assert_eq!(s.get(sq("e5")), revealed(Color::Black, Role::Rook));
    assert_eq!(s.get(sq("a4")), revealed(Color::Red, Role::Rook));
    assert_eq!(s.get(sq("g4")), revealed(Color::Red, Role::Advisor));
    assert_eq!(s.get(sq("h2")), hidden(Color::Red));
    assert_eq!(s.get(sq("b0")), revealed(Color::Red, Role::Cannon));
    assert_eq!(s.get(sq("i0")), hidden(Color::Red));
    let p = s.pool;
    assert_eq!(p.count(red(Role::Rook)), 1);
    assert_eq!(p.count(red(Role::Horse)), 1);
    assert_eq!(p.count(black(Role::Horse)), 1);
    assert_eq!(p.count(red(Role::Elephant)), 1);
    assert_eq!(p.count(black(Role::Elephant)), 2);
    assert_eq!(p.count(black(Role::Advisor)), 1);
    assert_eq!(p.count(red(Role::Advisor)), 0);
    assert_eq!(p.count(red(Role::Pawn)), 3);
    assert_eq!(p.count(black(Role::Pawn)), 4);
    assert_eq!(p.count(black(Role::Rook)), 0);
    assert_eq!(p.total(), 16);
}

#[test]
fn pikafish_other_perft_positions() {
    let s = ok(JIEQI_HIDDEN[2]);
    assert_eq!((s.side, s.halfmove, s.fullmove), (Color::Red, 0, 18));
    assert_eq!(s.get(sq("a9")), revealed(Color::Red, Role::Pawn));
    assert_eq!(s.pool.total(), 8);

    let s = ok(JIEQI_HIDDEN[3]);
    assert_eq!((s.side, s.halfmove, s.fullmove), (Color::Black, 0, 12));
    assert_eq!(s.get(sq("a9")), revealed(Color::Red, Role::Cannon));
    assert_eq!(s.pool.count(red(Role::Pawn)), 4);
    assert_eq!(s.pool.total(), 12);

    let s = ok(JIEQI_HIDDEN[4]);
    assert_eq!((s.side, s.halfmove, s.fullmove), (Color::Black, 0, 50));
    assert_eq!(s.get(sq("d9")), revealed(Color::Black, Role::King));
    assert_eq!(s.get(sq("a9")), hidden(Color::Black));
    assert_eq!(s.get(sq("g6")), hidden(Color::Black));
    assert_eq!(s.get(sq("f0")), revealed(Color::Red, Role::Cannon));
    assert_eq!(s.pool.count(black(Role::Pawn)), 2);
    assert_eq!(s.pool.total(), 2);
}

#[test]
fn jieqibox_captured_pool() {
    // Red's view after Red captured a face-down Black pawn.
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/X1X1X1X2/1X5X1/9/XXXXKXXXX";
    let s = ok(&format!("{board} b R2r2N2n2B2b2A2a2C2c2P4p4 p1 0 1"));
    assert_eq!(s.side, Color::Black);
    assert_eq!(s.pool.count(red(Role::Pawn)), 4);
    assert_eq!(s.pool.count(black(Role::Pawn)), 4);
    assert_eq!(s.pool.count(black(Role::Rook)), 2);
    assert_eq!(s.pool.total(), 28);
    assert_eq!(s.captured.count(black(Role::Pawn)), 1);
    assert_eq!(s.captured.total(), 1);
    assert_eq!(s.get(sq("i6")), revealed(Color::Red, Role::Rook));
    assert_eq!(s.get(sq("i3")), None);

    // Black's view of the same position.
    let s = ok(&format!("{board} b R2r2N2n2B2b2A2a2C2c2P4p5 - 0 1"));
    assert_eq!(s.pool.count(black(Role::Pawn)), 5);
    assert_eq!(s.captured, Pool::EMPTY);
}

#[test]
fn plain_xiangqi_forms() {
    for tail in [
        "w - - 0 1",
        "w",
        "w - -",
        "w  -   -  0  1",
        "r - - 0 1",
        "w - 0 1",
        "w 0 1",
    ] {
        let s = ok(&format!("{XIANGQI_BOARD} {tail}"));
        assert_xiangqi_start(&s);
        assert_eq!(s.side, Color::Red, "{tail}");
        assert_eq!(s.pool, Pool::EMPTY, "{tail}");
        assert_eq!(s.captured, Pool::EMPTY, "{tail}");
        assert_eq!((s.halfmove, s.fullmove), (0, 1), "{tail}");
    }
    let s = ok(&format!("{XIANGQI_BOARD} b - - 17 42"));
    assert_eq!((s.side, s.halfmove, s.fullmove), (Color::Black, 17, 42));
    for board in XIANGQI_BOARDS {
        let s = ok(&format!("{board} w - - 0 1"));
        assert_eq!(s.pool, Pool::EMPTY);
        assert!(s
            .board
            .iter()
            .all(|c| !matches!(c, Some(SetupCell::Hidden(_)))));
    }
}

#[test]
fn legacy_pool_before_side() {
    let full = "R2A2C2P5N2B2r2a2c2p5n2b2";
    for tail in [
        format!("{full} w - - 0 1"),
        format!("{full} w"),
        format!("{full} w 0 1"),
        format!("{full} w - 0 1"),
        format!("{full} r - -"),
    ] {
        let s = ok(&format!("{START_BOARD} {tail}"));
        assert_start_board(&s);
        assert_eq!(s.side, Color::Red, "{tail}");
        assert_eq!(s.pool, Pool::full(), "{tail}");
        assert_eq!((s.halfmove, s.fullmove), (0, 1), "{tail}");
    }
    let s = ok(&format!("{START_BOARD} p2R1 b - - 3 9"));
    assert_eq!(s.side, Color::Black);
    assert_eq!(s.pool.count(black(Role::Pawn)), 2);
    assert_eq!(s.pool.count(red(Role::Rook)), 1);
    assert_eq!((s.halfmove, s.fullmove), (3, 9));
    let s = ok(&format!("{START_BOARD} - b"));
    assert_eq!((s.side, s.pool), (Color::Black, Pool::EMPTY));
}

#[test]
fn side_first_pool_without_counters() {
    let s = ok(&format!("{START_BOARD} b R2"));
    assert_eq!(s.side, Color::Black);
    assert_eq!(s.pool.count(red(Role::Rook)), 2);
    assert_eq!((s.halfmove, s.fullmove), (0, 1));
    // One number after the pool is the halfmove counter.
    let s = ok(&format!("{START_BOARD} w R2 7"));
    assert_eq!((s.halfmove, s.fullmove), (7, 1));
    // A second pool is the captured pool.
    let s = ok(&format!("{START_BOARD} w R2 p1"));
    assert_eq!(s.captured.count(black(Role::Pawn)), 1);
    let s = ok(&format!("{START_BOARD} w - - 4"));
    assert_eq!((s.halfmove, s.fullmove), (4, 1));
}

#[test]
fn whitespace_is_flexible() {
    let text = format!("  \t{START_BOARD}\t w\n R2A2C2P5N2B2r2a2c2p5n2b2   -\r\n 0  1 \n");
    let s = ok(&text);
    assert_start_board(&s);
    assert_eq!(s.pool, Pool::full());
}

#[test]
fn counters() {
    let s = ok(&format!("{XIANGQI_BOARD} w - - 0 0"));
    assert_eq!(s.fullmove, 1, "fullmove 0 reads as 1");
    let s = ok(&format!("{XIANGQI_BOARD} w - - 119 007"));
    assert_eq!((s.halfmove, s.fullmove), (119, 7));
    let s = ok(&format!("{XIANGQI_BOARD} w - - 4294967295 4294967295"));
    assert_eq!((s.halfmove, s.fullmove), (u32::MAX, u32::MAX));
}

// ---------------------------------------------------------------- pools

#[test]
fn pool_any_order_and_counts() {
    let a = pool("R2A2C2P5N2B2r2a2c2p5n2b2");
    let b = pool("p5n2b2r2a2c2B2N2P5C2A2R2");
    let c = pool("A2B2N2R2C2P5a2b2n2r2c2p5");
    assert_eq!(a, Pool::full());
    assert_eq!(b, a);
    assert_eq!(c, a);

    let p = pool("R12p0N");
    assert_eq!(p.count(red(Role::Rook)), 12);
    assert_eq!(p.count(black(Role::Pawn)), 0);
    assert_eq!(p.count(red(Role::Horse)), 1);
    assert_eq!(p.total(), 13);

    let p = pool("RRnP255");
    assert_eq!(p.count(red(Role::Rook)), 2);
    assert_eq!(p.count(black(Role::Horse)), 1);
    assert_eq!(p.count(red(Role::Pawn)), 255);

    assert_eq!(pool("-"), Pool::EMPTY);
    assert_eq!(pool("R0"), Pool::EMPTY);
    assert_eq!(pool("R000"), Pool::EMPTY);
}

#[test]
fn pool_aliases_and_repeats() {
    let p = pool("E2H3e1h1B1");
    assert_eq!(p.count(red(Role::Elephant)), 3);
    assert_eq!(p.count(red(Role::Horse)), 3);
    assert_eq!(p.count(black(Role::Elephant)), 1);
    assert_eq!(p.count(black(Role::Horse)), 1);

    let p = pool("P1P2p3P4");
    assert_eq!(p.count(red(Role::Pawn)), 7);
    assert_eq!(p.count(black(Role::Pawn)), 3);

    let p = pool("P200P55");
    assert_eq!(p.count(red(Role::Pawn)), 255);
}

#[test]
fn board_aliases() {
    let s = ok("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    assert_xiangqi_start(&s);
    assert_eq!(
        fen::write(&s, FenDialect::JieqiBox),
        format!("{XIANGQI_BOARD} w - - 0 1")
    );
}

#[test]
fn board_digit_runs_are_single_digits() {
    let s = ok("4k4/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(s.get(sq("e9")), revealed(Color::Black, Role::King));
    assert_eq!(s.board.iter().filter(|c| c.is_some()).count(), 2);
    // Two digits in a row are refused, even where they add up to 9: `4K13` is no `4K4`.
    for (text, digits, file) in [
        ("4k4/9/9/9/9/9/9/9/9/4K13 w", "13", 'f'),
        ("4k4/9/9/9/9/9/9/9/9/45 w", "45", 'a'),
        ("3k5/9/9/9/9/9/9/9/9/111K11111 w", "111", 'a'),
    ] {
        let e = fen::parse(text).unwrap_err();
        assert_eq!(
            e.kind(),
            &FenErrorKind::AdjacentDigits {
                digits: digits.into()
            },
            "{text}"
        );
        assert_eq!(e.rank(), Rank::new(0), "{text}");
        assert_eq!(e.file(), File::from_char(file), "{text}");
        assert!(e.to_string().contains("one digit 1-9"), "{e}");
    }
}

// ---------------------------------------------------------------- wait token

#[test]
fn wait_token_in_every_dialect() {
    let cases = [
        format!("{START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b2 - 0 1 wait=e3"),
        format!("{START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b2 0 1 wait=e3"),
        format!("{START_BOARD} R2A2C2P5N2B2r2a2c2p5n2b2 w - - 0 1 wait=e3"),
        format!("{START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b2 wait=e3"),
    ];
    for text in &cases {
        let s = ok(text);
        assert_eq!(s.wait, Some(sq("e3")), "{text}");
        assert_eq!(s.pool, Pool::full(), "{text}");
    }
    let s = ok(&format!("{XIANGQI_BOARD} b wait=a0"));
    assert_eq!((s.side, s.wait), (Color::Black, Some(sq("a0"))));
    let s = ok(&format!("{XIANGQI_BOARD} w - - 3 4 wait=i9"));
    assert_eq!((s.halfmove, s.fullmove, s.wait), (3, 4, Some(sq("i9"))));
}

// ---------------------------------------------------------------- writing

#[test]
fn write_canonical_text() {
    let s = ok(JIEQI_HIDDEN[0]);
    assert_eq!(fen::write(&s, FenDialect::Pikafish), JIEQI_HIDDEN[0]);
    assert_eq!(
        fen::write(&s, FenDialect::JieqiBox),
        format!("{START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b2 - 0 1")
    );
    for board in XIANGQI_BOARDS {
        let text = format!("{board} w - - 0 1");
        assert_eq!(fen::write(&ok(&text), FenDialect::JieqiBox), text);
        assert_eq!(
            fen::write(&ok(&text), FenDialect::Pikafish),
            format!("{board} w - 0 1")
        );
    }
    let mut s = ok(&format!("{START_BOARD} b p2 R1 5 30"));
    s.wait = Some(sq("b7"));
    assert_eq!(
        fen::write(&s, FenDialect::JieqiBox),
        format!("{START_BOARD} b p2 R1 5 30 wait=b7")
    );
    assert_eq!(
        fen::write(&s, FenDialect::Pikafish),
        format!("{START_BOARD} b p2 5 30 wait=b7")
    );
}

fn assert_round_trip(setup: &Setup) {
    let text = fen::write(setup, FenDialect::JieqiBox);
    assert_eq!(&ok(&text), setup, "JieqiBox {text}");
    let text = fen::write(setup, FenDialect::Pikafish);
    let expected = Setup {
        captured: Pool::EMPTY,
        ..setup.clone()
    };
    assert_eq!(ok(&text), expected, "Pikafish {text}");
}

#[test]
fn round_trip_perft_positions() {
    let mut texts: Vec<String> = JIEQI_HIDDEN.iter().map(|s| s.to_string()).collect();
    for board in XIANGQI_BOARDS {
        texts.push(format!("{board} w - - 0 1"));
        texts.push(format!("{board} b"));
    }
    texts.push(format!("{START_BOARD} b R2r2N2n2B2b2A2a2C2c2P4p4 p1 0 1"));
    for text in &texts {
        let setup = ok(text);
        assert_round_trip(&setup);
        let mut with_extras = setup.clone();
        with_extras.wait = Some(sq("h2"));
        with_extras.captured = pool("p1R3");
        with_extras.halfmove = 99;
        with_extras.fullmove = 1234;
        assert_round_trip(&with_extras);
        // Writing is canonical: a second write of the parsed text gives the same text.
        for dialect in [FenDialect::Pikafish, FenDialect::JieqiBox] {
            let once = fen::write(&with_extras, dialect);
            assert_eq!(fen::write(&ok(&once), dialect), once);
        }
    }
}

// ---------------------------------------------------------------- errors

#[test]
fn malformed_fens() {
    let x = XIANGQI_BOARD;
    let cases: Vec<(String, FenErrorKind)> = vec![
        (String::new(), FenErrorKind::Empty),
        (" \t\n ".into(), FenErrorKind::Empty),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::WrongRankCount { found: 9 },
        ),
        (
            format!("{x}/9 w - - 0 1"),
            FenErrorKind::WrongRankCount { found: 11 },
        ),
        ("rnbakab".into(), FenErrorKind::WrongRankCount { found: 1 }),
        (
            "rnbakab w - - 0 1".into(),
            FenErrorKind::WrongRankCount { found: 1 },
        ),
        (
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::RankTooLong { files: 10 },
        ),
        (
            "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::RankTooShort { files: 8 },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/ w".into(),
            FenErrorKind::RankTooShort { files: 0 },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1z1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::BadPieceChar { ch: 'z' },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/0/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::BadPieceChar { ch: '0' },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/é8/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            FenErrorKind::BadPieceChar { ch: 'é' },
        ),
        (x.into(), FenErrorKind::MissingSide),
        (format!("{x} R2"), FenErrorKind::MissingSide),
        (format!("{x} z - - 0 1"), FenErrorKind::BadSide("z".into())),
        (format!("{x} W - - 0 1"), FenErrorKind::BadSide("W".into())),
        (format!("{x} red"), FenErrorKind::BadSide("red".into())),
        (format!("{x} R2 x 0 1"), FenErrorKind::BadSide("R2".into())),
        (
            format!("{x} w R2Z1 0 1"),
            FenErrorKind::BadPoolChar { ch: 'Z' },
        ),
        (
            format!("{x} w R2X1 0 1"),
            FenErrorKind::BadPoolChar { ch: 'X' },
        ),
        (
            format!("{x} w R2- 0 1"),
            FenErrorKind::BadPoolChar { ch: '-' },
        ),
        (
            format!("{x} w -- 0 1"),
            FenErrorKind::BadPoolChar { ch: '-' },
        ),
        (
            format!("{x} w - Q1 0 1"),
            FenErrorKind::BadPoolChar { ch: 'Q' },
        ),
        (
            format!("{x} w 2R 0 1"),
            FenErrorKind::PoolCountWithoutLetter,
        ),
        (format!("{x} w K1 0 1"), FenErrorKind::KingInPool),
        (format!("{x} w R2k 0 1"), FenErrorKind::KingInPool),
        (format!("{x} K1 w - - 0 1"), FenErrorKind::KingInPool),
        (
            format!("{x} w P256 0 1"),
            FenErrorKind::PoolCountTooLarge { piece: 'P' },
        ),
        (
            format!("{x} w n99999999999999999999999 0 1"),
            FenErrorKind::PoolCountTooLarge { piece: 'n' },
        ),
        (
            format!("{x} w P200P56 0 1"),
            FenErrorKind::PoolCountTooLarge { piece: 'P' },
        ),
        (
            format!("{x} w h200H56h56 0 1"),
            FenErrorKind::PoolCountTooLarge { piece: 'n' },
        ),
        (
            format!("{x} w - - -1 1"),
            FenErrorKind::BadHalfmove("-1".into()),
        ),
        (
            format!("{x} w - -1 1"),
            FenErrorKind::BadHalfmove("-1".into()),
        ),
        (format!("{x} w -1"), FenErrorKind::BadHalfmove("-1".into())),
        (
            format!("{x} w - - +1 1"),
            FenErrorKind::BadHalfmove("+1".into()),
        ),
        (
            format!("{x} w - - 0 -1"),
            FenErrorKind::BadFullmove("-1".into()),
        ),
        (
            format!("{x} w - - 0 one"),
            FenErrorKind::BadFullmove("one".into()),
        ),
        (
            format!("{x} w - - 0 1.5"),
            FenErrorKind::BadFullmove("1.5".into()),
        ),
        (
            format!("{x} w - - 4294967296 1"),
            FenErrorKind::BadHalfmove("4294967296".into()),
        ),
        (
            format!("{x} R2 w - - x 1"),
            FenErrorKind::BadHalfmove("x".into()),
        ),
        (
            format!("{x} R2 w - - - 1"),
            FenErrorKind::BadHalfmove("-".into()),
        ),
        (
            format!("{x} w - - 0 1 junk"),
            FenErrorKind::UnexpectedToken("junk".into()),
        ),
        (
            format!("{x} w - 0 1 2"),
            FenErrorKind::UnexpectedToken("2".into()),
        ),
        (
            format!("{x} R2 w - - 0 1 -"),
            FenErrorKind::UnexpectedToken("-".into()),
        ),
        (
            format!("{x} w - - 0 1 wait=j0"),
            FenErrorKind::BadWait("wait=j0".into()),
        ),
        (
            format!("{x} w - - 0 1 wait=e10"),
            FenErrorKind::BadWait("wait=e10".into()),
        ),
        (
            format!("{x} w - - 0 1 wait="),
            FenErrorKind::BadWait("wait=".into()),
        ),
        (
            format!("{x} w - - 0 1 wait=E4"),
            FenErrorKind::BadWait("wait=E4".into()),
        ),
        (
            format!("{x} w - - wait=e4 0 1"),
            FenErrorKind::MisplacedWait,
        ),
        (
            format!("{x} w - - 0 1 wait=e4 wait=e5"),
            FenErrorKind::MisplacedWait,
        ),
        (format!("{x} wait=e4"), FenErrorKind::MissingSide),
    ];
    for (text, kind) in &cases {
        assert_eq!(&err_kind(text), kind, "{text:?}");
    }
}

#[test]
fn error_locations_and_messages() {
    let e = fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 x")
        .unwrap_err();
    assert_eq!(e.field_number(), Some(6));
    assert_eq!(e.field(), Some(FenField::Fullmove));
    assert_eq!(e.rank(), None);

    let e =
        fen::parse("rnbakabnr/9/1c5c1c/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap_err();
    assert_eq!(e.field_number(), Some(1));
    assert_eq!(e.field(), Some(FenField::Board));
    assert_eq!(e.rank(), Rank::new(7));
    assert_eq!(e.file(), None);
    assert_eq!(e.to_string(), "FEN board, rank 7: 10 files instead of 9");

    let e =
        fen::parse("rnbakabnr/9/1c5c1/p1p1p1z1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap_err();
    assert_eq!(e.rank(), Rank::new(6));
    assert_eq!(e.file(), File::from_char('g'));
    assert!(
        e.to_string().starts_with("FEN board, rank 6, file g: 'z'"),
        "{e}"
    );

    let e = fen::parse("9/9/9/9/9/9/9/9/9 w").unwrap_err();
    assert_eq!(e.to_string(), "FEN board: 9 ranks instead of 10");

    let e = fen::parse(&format!("{XIANGQI_BOARD} w - Z1 0 1")).unwrap_err();
    assert_eq!(e.field_number(), Some(4));
    assert_eq!(e.field(), Some(FenField::Captured));
    assert!(
        e.to_string()
            .starts_with("FEN field 4 (captured pool): 'Z'"),
        "{e}"
    );

    let e = fen::parse(&format!("{XIANGQI_BOARD} w K 0 1")).unwrap_err();
    assert_eq!(e.field(), Some(FenField::Pool));
    assert_eq!(
        e.to_string(),
        "FEN field 3 (pool): a king cannot be face down"
    );

    let e = fen::parse(&format!("{XIANGQI_BOARD} R2 r2 - - 0 1")).unwrap_err();
    assert_eq!(
        (e.field_number(), e.field()),
        (Some(2), Some(FenField::Side))
    );

    let e = fen::parse(&format!("{XIANGQI_BOARD}  w  -  -  0  1  junk")).unwrap_err();
    assert_eq!(
        (e.field_number(), e.field()),
        (Some(7), Some(FenField::Extra))
    );
    assert_eq!(
        e.to_string(),
        "FEN field 7 (extra token): unexpected token \"junk\""
    );

    let e = fen::parse(&format!("{XIANGQI_BOARD} w - - wait=e4 1")).unwrap_err();
    assert_eq!(
        (e.field_number(), e.field()),
        (Some(5), Some(FenField::Wait))
    );

    let e = fen::parse("").unwrap_err();
    assert_eq!(e.field_number(), None);
    assert_eq!(e.to_string(), "FEN: empty text");

    // It is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(!boxed.to_string().is_empty());
}

// ---------------------------------------------------------------- properties

fn cell_strategy() -> impl Strategy<Value = Option<SetupCell>> {
    let color = prop_oneof![Just(Color::Red), Just(Color::Black)];
    let role = prop::sample::select(Role::ALL.to_vec());
    prop_oneof![
        6 => Just(None),
        1 => color.clone().prop_map(|c| Some(SetupCell::Hidden(c))),
        2 => (color, role).prop_map(|(c, r)| Some(SetupCell::Revealed(Piece::new(c, r)))),
    ]
}

fn pool_strategy() -> impl Strategy<Value = Pool> {
    prop::collection::vec(prop_oneof![3 => 0u8..=5, 1 => any::<u8>()], IDENTITIES).prop_map(
        |counts| {
            let mut pool = Pool::EMPTY;
            for (i, n) in counts.into_iter().enumerate() {
                pool.set(identity_piece(i), n);
            }
            pool
        },
    )
}

fn setup_strategy() -> impl Strategy<Value = Setup> {
    (
        prop::collection::vec(cell_strategy(), 90),
        any::<bool>(),
        pool_strategy(),
        pool_strategy(),
        any::<u32>(),
        1u32..,
        prop::option::of(0u8..90),
    )
        .prop_map(|(cells, black, pool, captured, halfmove, fullmove, wait)| {
            let mut board = [None; 90];
            board.copy_from_slice(&cells);
            Setup {
                board,
                side: if black { Color::Black } else { Color::Red },
                pool,
                captured,
                halfmove,
                fullmove,
                wait: wait.and_then(Square::new),
            }
        })
}

/// Valid FENs to mutate.
fn seed_fens() -> Vec<String> {
    let mut seeds: Vec<String> = JIEQI_HIDDEN.iter().map(|s| s.to_string()).collect();
    seeds.push(format!("{START_BOARD} w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1"));
    seeds.push(format!("{START_BOARD} R2A2C2P5N2B2r2a2c2p5n2b2 w - - 0 1"));
    seeds.push(format!(
        "{START_BOARD} b R2r2N2n2B2b2A2a2C2c2P4p4 p1 0 1 wait=e3"
    ));
    seeds.push(format!("{XIANGQI_BOARD} w - - 0 1"));
    seeds.push(format!("{XIANGQI_BOARD} w"));
    seeds
}

/// One edit: at a position (taken modulo the length), delete, insert or replace a character.
fn edit_strategy() -> impl Strategy<Value = (usize, u8, char)> {
    let interesting = prop::sample::select(
        "0123456789/ -+=wbrXxKkABNRCPEHabnrcpeh\t\nzé\u{0}"
            .chars()
            .collect::<Vec<_>>(),
    );
    (
        any::<usize>(),
        0u8..3,
        prop_oneof![3 => interesting, 1 => any::<char>()],
    )
}

fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, op, ch) in edits {
        let at = at % (chars.len() + 1);
        match op {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = ch,
            _ => chars.insert(at, ch),
        }
    }
    chars.into_iter().collect()
}

/// Whatever `parse` accepts must survive writing and reading back.
fn check_accepted(text: &str) -> Result<(), TestCaseError> {
    if let Ok(setup) = fen::parse(text) {
        prop_assert!(setup.fullmove >= 1);
        let again = fen::write(&setup, FenDialect::JieqiBox);
        prop_assert_eq!(fen::parse(&again), Ok(setup.clone()), "{}", again);
        let pika = fen::write(&setup, FenDialect::Pikafish);
        let expected = Setup {
            captured: Pool::EMPTY,
            ..setup
        };
        prop_assert_eq!(fen::parse(&pika), Ok(expected), "{}", pika);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn never_panics_on_arbitrary_text(text in any::<String>()) {
        check_accepted(&text)?;
    }

    #[test]
    fn never_panics_on_fen_like_text(text in "[0-9/ a-zA-Z=+-]{0,120}") {
        check_accepted(&text)?;
    }

    #[test]
    fn never_panics_on_mutated_fens(
        seed in prop::sample::select(seed_fens()),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        check_accepted(&mutate(&seed, &edits))?;
    }

    #[test]
    fn written_setups_read_back(setup in setup_strategy()) {
        let text = fen::write(&setup, FenDialect::JieqiBox);
        prop_assert_eq!(fen::parse(&text), Ok(setup.clone()), "{}", text);
        let text = fen::write(&setup, FenDialect::Pikafish);
        let expected = Setup { captured: Pool::EMPTY, ..setup };
        prop_assert_eq!(fen::parse(&text), Ok(expected), "{}", text);
    }
}
