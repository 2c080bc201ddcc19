//! Scenario tests of the rules (`docs/rules.md`): small hand-made positions for Jieqi piece
//! movement, face-down pieces, pools, the 120-ply and repetition rules, the Maniac rules
//! (ownership, waiting turn, pass, capture by control, check exception, decision 4), perpetual
//! check, the wait token, and setups the reader must refuse or repair.

use std::collections::BTreeSet;

use jieqi::core::{
    fen, Color, DrawReason, Game, GameResult, Move, Occupant, Piece, PlayError, Pool, Position,
    PositionError, Reveal, Role, SetupWarning, Square, Variant, WinReason,
};

// ---------------------------------------------------------------------------------------------
// helpers

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad test square {name}"))
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|| panic!("bad test move {text}"))
}

fn red(role: Role) -> Piece {
    Piece::new(Color::Red, role)
}

fn black(role: Role) -> Piece {
    Piece::new(Color::Black, role)
}

fn try_load(text: &str, variant: Variant) -> Result<(Position, Vec<SetupWarning>), PositionError> {
    let setup = fen::parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"));
    Position::from_setup(&setup, variant)
}

/// A position that must be valid and need no repair.
fn load(text: &str, variant: Variant) -> Position {
    let (pos, warnings) =
        try_load(text, variant).unwrap_or_else(|e| panic!("{variant} {text:?} rejected: {e}"));
    assert!(warnings.is_empty(), "{variant} {text:?}: {warnings:?}");
    assert_eq!(pos.hash(), pos.compute_hash());
    pos
}

fn load_err(text: &str, variant: Variant) -> PositionError {
    match try_load(text, variant) {
        Ok((pos, _)) => panic!("{variant} {text:?} should be rejected, got {pos:?}"),
        Err(e) => e,
    }
}

fn strings(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// All legal moves, as text.
fn moves(pos: &Position) -> BTreeSet<String> {
    pos.legal_move_list()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// Destinations of the legal moves of the piece on `from`.
fn targets(pos: &Position, from: &str) -> BTreeSet<String> {
    let from = sq(from);
    pos.legal_move_list()
        .iter()
        .filter(|m| !m.is_pass() && m.from() == from)
        .map(|m| m.to().to_string())
        .collect()
}

/// Checks that `is_legal` agrees with the move list for every move from `from`.
fn assert_is_legal_agrees(pos: &Position, from: &str) {
    let list = pos.legal_move_list();
    let from = sq(from);
    for to in Square::all().filter(|&t| t != from) {
        let m = Move::new(from, to);
        assert_eq!(pos.is_legal(m), list.contains(m), "{m} in {pos:?}");
    }
}

fn flip(piece: Piece) -> Reveal {
    Reveal {
        flip: Some(piece),
        captured: None,
    }
}

fn play(pos: &mut Position, text: &str, reveal: Reveal) {
    pos.play(mv(text), reveal)
        .unwrap_or_else(|e| panic!("{text} in {pos:?}: {e}"));
    assert_eq!(pos.hash(), pos.compute_hash(), "hash after {text}");
}

fn game_play(game: &mut Game, text: &str, reveal: Reveal) {
    game.play(mv(text), reveal)
        .unwrap_or_else(|e| panic!("{text} in {:?}: {e}", game.position()));
}

fn pool_of(items: &[(Piece, u8)]) -> Pool {
    let mut pool = Pool::EMPTY;
    for &(p, n) in items {
        pool.set(p, n);
    }
    pool
}

const J: Variant = Variant::Jieqi;
const M: Variant = Variant::Maniac;
const X: Variant = Variant::Xiangqi;

// ---------------------------------------------------------------------------------------------
// Jieqi: face-down pieces move by their square's role

#[test]
fn hidden_advisor_stays_in_its_palace() {
    let pos = Position::startpos(J);
    assert!(
        !pos.is_legal(mv("d0c1")),
        "face-down advisor d0 may not leave the palace"
    );
    assert!(pos.is_legal(mv("d0e1")));
    assert!(!pos.is_legal(mv("f0g1")));
    assert!(pos.is_legal(mv("f0e1")));
    assert_eq!(targets(&pos, "d0"), strings(&["e1"]));
    assert_eq!(targets(&pos, "f0"), strings(&["e1"]));
    assert_is_legal_agrees(&pos, "d0");
    // The same for a Red-controlled face-down advisor in Maniac.
    let pos = Position::startpos(M);
    assert!(!pos.is_legal(mv("d0c1")));
    assert!(pos.is_legal(mv("d0e1")));
}

#[test]
fn revealed_advisor_leaves_the_palace_in_jieqi_only() {
    let text = "5k3/9/9/9/9/9/9/9/9/3AK4 w - 0 1";
    let pos = load(text, J);
    assert_eq!(targets(&pos, "d0"), strings(&["c1", "e1"]));
    assert_is_legal_agrees(&pos, "d0");
    let pos = load(text, X);
    assert_eq!(targets(&pos, "d0"), strings(&["e1"]));
    // Anywhere on the board, one step diagonally.
    let pos = load("5k3/9/9/9/9/2A6/9/9/9/4K4 w - 0 1", J);
    assert_eq!(targets(&pos, "c4"), strings(&["b3", "d3", "b5", "d5"]));
}

#[test]
fn revealed_elephant_crosses_the_river_but_its_eye_still_blocks() {
    // Red elephant e4, Black pawn on f5 blocks the eye towards g6.
    let text = "5k3/9/9/9/5p3/4B4/9/9/9/4K4 w - 0 1";
    let pos = load(text, J);
    assert_eq!(targets(&pos, "e4"), strings(&["c2", "g2", "c6"]));
    assert!(
        pos.is_legal(mv("e4c6")),
        "revealed elephant crosses the river"
    );
    assert!(!pos.is_legal(mv("e4g6")), "elephant eye f5 is blocked");
    assert_is_legal_agrees(&pos, "e4");
    // Xiangqi elephants stay at home: from the river bank they cannot cross it, and e4 is no
    // point of theirs.
    let pos = load("5k3/9/9/9/9/2B6/9/9/9/4K4 w - 0 1", X);
    assert_eq!(targets(&pos, "c4"), strings(&["a2", "e2"]));
    assert_eq!(
        load_err(text, X),
        PositionError::Unreachable(Piece::new(Color::Red, Role::Elephant), sq("e4"))
    );
}

#[test]
fn hidden_elephant_moves_as_an_elephant_of_its_half() {
    let pos = Position::startpos(J);
    assert_eq!(targets(&pos, "c0"), strings(&["a2", "e2"]));
    assert_eq!(targets(&pos, "g0"), strings(&["e2", "i2"]));
    // Blocked eye b1.
    let pos = load("5k3/9/9/9/9/9/9/9/1P7/2X1K4 w B1 0 1", J);
    assert_eq!(targets(&pos, "c0"), strings(&["e2"]));
    assert_is_legal_agrees(&pos, "c0");
    // Black's face-down elephant.
    let pos = load("2x1k4/9/9/9/9/9/9/9/9/3K5 b b1 0 1", J);
    assert_eq!(targets(&pos, "c9"), strings(&["a7", "e7"]));
}

#[test]
fn pawn_revealed_on_its_own_back_rank_only_goes_forward() {
    let pos = load("5k3/9/9/9/9/9/9/9/9/2P1K4 w - 0 1", J);
    assert_eq!(targets(&pos, "c0"), strings(&["c1"]));
    assert_is_legal_agrees(&pos, "c0");
    // On the far back rank only sideways (decision 3).
    let pos = load("2P2k3/9/9/9/9/9/9/9/9/4K4 w - 0 1", J);
    assert_eq!(targets(&pos, "c9"), strings(&["b9", "d9"]));
    // Black pawn on its own back rank.
    let pos = load("2p2k3/9/9/9/9/9/9/9/9/4K4 b - 0 1", J);
    assert_eq!(targets(&pos, "c9"), strings(&["c8"]));
}

#[test]
fn crossed_pawn_moves_sideways_but_never_backward() {
    let pos = load("5k3/9/9/9/2P6/6P2/9/9/9/4K4 w - 0 1", J);
    assert_eq!(targets(&pos, "c5"), strings(&["b5", "c6", "d5"]));
    assert_eq!(targets(&pos, "g4"), strings(&["g5"]));
    assert!(!pos.is_legal(mv("c5c4")));
    let pos = load("5k3/9/9/9/2p6/6p2/9/9/9/4K4 b - 0 1", J);
    assert_eq!(targets(&pos, "c5"), strings(&["c4"]));
    assert_eq!(targets(&pos, "g4"), strings(&["f4", "g3", "h4"]));
    assert!(!pos.is_legal(mv("g4g5")));
}

#[test]
fn hidden_pawn_square_piece_moves_only_forward() {
    let mut pos = Position::startpos(J);
    for f in ["a", "c", "e", "g", "i"] {
        let from = format!("{f}3");
        assert_eq!(targets(&pos, &from), strings(&[&format!("{f}4")]));
    }
    // A face-down piece on a pawn square stays a pawn-role piece even with open sides.
    let p = load("5k3/9/9/9/9/9/2X6/9/9/4K4 w P1 0 1", J);
    assert_eq!(targets(&p, "c3"), strings(&["c4"]));
    play(&mut pos, "a3a4", flip(red(Role::Pawn)));
    for f in ["a", "c", "e", "g", "i"] {
        let from = format!("{f}6");
        assert_eq!(targets(&pos, &from), strings(&[&format!("{f}5")]));
    }
}

#[test]
fn hidden_pieces_block_chariots_and_screen_cannons() {
    // Red chariot a1 under a face-down a3; Red cannon h4 with a Black face-down screen on h7
    // and a Black chariot on h9.
    let pos = load("4k2r1/9/7x1/9/9/7C1/X8/9/R8/3K5 w P1c1 0 1", J);
    assert_eq!(
        targets(&pos, "a1"),
        strings(&["a0", "a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"])
    );
    let cannon = targets(&pos, "h4");
    assert!(
        cannon.contains("h9"),
        "cannon captures over a face-down screen"
    );
    assert!(!cannon.contains("h7"), "no capture without a screen");
    assert!(
        !cannon.contains("h8"),
        "no quiet move past a face-down piece"
    );
    assert!(cannon.contains("h6") && cannon.contains("a4"));
    assert_is_legal_agrees(&pos, "a1");
    assert_is_legal_agrees(&pos, "h4");
    // The start position: the face-down cannon on h2 captures h9 over h7, not h7 itself.
    let start = Position::startpos(J);
    assert!(start.is_legal(mv("h2h9")));
    assert!(!start.is_legal(mv("h2h7")));
    assert!(!start.is_legal(mv("h2h8")));
}

#[test]
fn face_down_piece_blocks_a_horse_leg() {
    let pos = Position::startpos(J);
    assert_eq!(
        targets(&pos, "b0"),
        strings(&["a2", "c2"]),
        "leg c0 is blocked"
    );
    assert_eq!(targets(&pos, "h0"), strings(&["g2", "i2"]));
    let pos = load("5k3/9/9/9/9/2N6/2X6/9/9/4K4 w P1 0 1", J);
    assert_eq!(
        targets(&pos, "c4"),
        strings(&["b6", "d6", "a5", "a3", "e5", "e3"])
    );
    assert_is_legal_agrees(&pos, "c4");
}

#[test]
fn flying_kings() {
    // The only piece between the kings may not leave the file.
    let pos = load("4k4/9/9/9/4P4/9/9/9/9/4K4 w - 0 1", J);
    assert_eq!(targets(&pos, "e5"), strings(&["e6"]));
    assert!(!pos.is_legal(mv("e5d5")));
    assert!(!pos.is_legal(mv("e5f5")));
    // A face-down piece blocks the file like any piece.
    let pos = load("4k4/9/9/9/9/9/4X4/9/9/3K5 w P1 0 1", J);
    assert!(pos.is_legal(mv("d0e0")));
    assert!(pos.is_legal(mv("e3e4")));
    let pos = load("4k4/9/9/9/9/9/9/9/9/3K5 w - 0 1", J);
    assert!(!pos.is_legal(mv("d0e0")));
    assert!(pos.is_legal(mv("d0d1")));
    assert_eq!(moves(&pos), strings(&["d0d1"]));
}

// ---------------------------------------------------------------------------------------------
// Jieqi: pools

#[test]
fn flip_outcomes_are_own_colour_with_pool_weights() {
    let pos = Position::startpos(J);
    let outcomes: BTreeSet<(Piece, u8)> = pos.flip_outcomes(sq("a0")).iter().collect();
    let expected: BTreeSet<(Piece, u8)> = [
        (red(Role::Rook), 2),
        (red(Role::Advisor), 2),
        (red(Role::Elephant), 2),
        (red(Role::Horse), 2),
        (red(Role::Cannon), 2),
        (red(Role::Pawn), 5),
    ]
    .into_iter()
    .collect();
    assert_eq!(outcomes, expected);
    assert_eq!(pos.flip_outcomes(sq("a0")).total_weight(), 15);
    assert!(pos
        .flip_outcomes(sq("h9"))
        .iter()
        .all(|(p, _)| p.color == Color::Black));
    assert!(
        pos.flip_outcomes(sq("e0")).is_empty(),
        "the king is not face down"
    );
    assert!(pos.flip_outcomes(sq("e4")).is_empty(), "empty square");

    let pos = load("x4k3/9/9/9/9/9/9/9/9/X3K4 w R1P2r1n2 0 1", J);
    let outcomes: BTreeSet<(Piece, u8)> = pos.flip_outcomes(sq("a0")).iter().collect();
    assert_eq!(
        outcomes,
        [(red(Role::Rook), 1), (red(Role::Pawn), 2)]
            .into_iter()
            .collect()
    );
    let outcomes: BTreeSet<(Piece, u8)> = pos.flip_outcomes(sq("a9")).iter().collect();
    assert_eq!(
        outcomes,
        [(black(Role::Rook), 1), (black(Role::Horse), 2)]
            .into_iter()
            .collect()
    );
    // In Maniac the same piece draws from the whole pool.
    let pos = load("x4k3/9/9/9/9/9/9/9/9/X3K4 w R1P2r1n2 0 1", M);
    assert_eq!(pos.flip_outcomes(sq("a0")).len(), 4);
    assert_eq!(pos.flip_outcomes(sq("a0")).total_weight(), 6);
}

#[test]
fn flip_removes_the_identity_from_the_pool() {
    let start = Position::startpos(J);
    let mut pos = start;
    assert_eq!(pos.hidden_in_group(Color::Red), 15);
    play(&mut pos, "a3a4", flip(red(Role::Pawn)));
    assert_eq!(pos.pool().count(red(Role::Pawn)), 4);
    assert_eq!(pos.pool().total_of(Color::Red), 14);
    assert_eq!(pos.pool().total_of(Color::Black), 15);
    assert_eq!(pos.hidden_in_group(Color::Red), 14);
    assert_eq!(
        pos.occupant(sq("a4")),
        Some(Occupant::Revealed(red(Role::Pawn)))
    );
    assert_eq!(pos.occupant(sq("a3")), None);
    assert_eq!(pos.halfmove_clock(), 1);

    // Any Red identity may come out of a3; a Black one may not; one is needed.
    let mut pos = start;
    play(&mut pos, "a3a4", flip(red(Role::Rook)));
    assert_eq!(pos.pool().count(red(Role::Rook)), 1);
    let mut pos = start;
    assert_eq!(
        pos.play(mv("a3a4"), flip(black(Role::Pawn))),
        Err(PlayError::ImpossibleFlip(mv("a3a4"), black(Role::Pawn)))
    );
    assert_eq!(
        pos.play(mv("a3a4"), Reveal::default()),
        Err(PlayError::FlipNeeded(mv("a3a4")))
    );
    assert_eq!(pos, start, "a refused move changes nothing");
    // An identity whose pool count is zero cannot come out.
    let mut pos = load("5k3/9/9/9/9/9/9/9/9/X3K4 w R1 0 1", J);
    assert_eq!(
        pos.play(mv("a0a1"), flip(red(Role::Pawn))),
        Err(PlayError::ImpossibleFlip(mv("a0a1"), red(Role::Pawn)))
    );
    // A single outcome needs no identity.
    play(&mut pos, "a0a1", Reveal::default());
    assert_eq!(
        pos.occupant(sq("a1")),
        Some(Occupant::Revealed(red(Role::Rook)))
    );
    assert!(pos.pool().is_empty());
}

#[test]
fn capturing_a_hidden_piece_changes_the_pool_only_when_learned() {
    let start = Position::startpos(J);
    // h2 (face-down cannon) captures the face-down h9 over h7.
    let mut pos = start;
    play(&mut pos, "h2h9", flip(red(Role::Cannon)));
    assert_eq!(pos.pool().total_of(Color::Black), 15, "nothing learned");
    assert_eq!(pos.hidden_in_group(Color::Black), 14);
    assert!(pos.known_captures().is_empty());
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(
        pos.occupant(sq("h9")),
        Some(Occupant::Revealed(red(Role::Cannon)))
    );

    let mut pos = start;
    play(
        &mut pos,
        "h2h9",
        Reveal {
            flip: Some(red(Role::Cannon)),
            captured: Some(black(Role::Rook)),
        },
    );
    assert_eq!(pos.pool().count(black(Role::Rook)), 1);
    assert_eq!(pos.pool().total_of(Color::Black), 14);
    assert_eq!(pos.pool().total_of(Color::Red), 14);
    assert_eq!(pos.known_captures().count(black(Role::Rook)), 1);
    assert_eq!(pos.known_captures().total(), 1);
    assert_eq!(pos.hidden_in_group(Color::Black), 14);

    // A captured identity of the wrong colour, or for a move that captures no face-down piece.
    let mut pos = start;
    let wrong = Reveal {
        flip: Some(red(Role::Cannon)),
        captured: Some(red(Role::Rook)),
    };
    assert_eq!(
        pos.play(mv("h2h9"), wrong),
        Err(PlayError::ImpossibleCapture(mv("h2h9"), red(Role::Rook)))
    );
    let not_hidden = Reveal {
        flip: Some(red(Role::Pawn)),
        captured: Some(black(Role::Rook)),
    };
    assert_eq!(
        pos.play(mv("a3a4"), not_hidden),
        Err(PlayError::NotAHiddenCapture(mv("a3a4")))
    );
    assert_eq!(pos, start);

    // A revealed chariot capturing a face-down piece.
    let mut pos = load("4k4/9/9/x8/R8/9/9/9/9/3K5 w p1 0 1", J);
    play(&mut pos, "a5a6", Reveal::default());
    assert_eq!(pos.pool().count(black(Role::Pawn)), 1);
    assert_eq!(pos.hidden_in_group(Color::Black), 0);
}

// ---------------------------------------------------------------------------------------------
// Jieqi: end of the game

#[test]
fn draw_after_120_plies_without_capture() {
    let mut game = Game::new(load("5k3/9/9/9/9/9/9/9/9/R3K4 w - 119 60", J));
    assert_eq!(game.result(), None);
    game_play(&mut game, "a0a1", Reveal::default());
    assert_eq!(game.position().halfmove_clock(), 120);
    assert_eq!(game.result(), Some(GameResult::Draw(DrawReason::NoCapture)));

    let mut game = Game::new(load("5k3/9/9/9/9/9/9/9/9/R3K4 w - 118 60", J));
    game_play(&mut game, "a0a1", Reveal::default());
    assert_eq!(game.result(), None);
    game_play(&mut game, "f9f8", Reveal::default());
    assert_eq!(game.result(), Some(GameResult::Draw(DrawReason::NoCapture)));
}

#[test]
fn flips_do_not_reset_the_no_capture_count_captures_do() {
    let mut pos = load("5k3/9/9/9/9/9/9/9/9/X3K4 w R1 100 50", J);
    play(&mut pos, "a0a1", Reveal::default());
    assert_eq!(pos.halfmove_clock(), 101);

    let mut game = Game::new(load("5k3/9/9/9/9/9/9/9/9/X3K4 w R1 119 60", J));
    game_play(&mut game, "a0a1", Reveal::default());
    assert_eq!(game.result(), Some(GameResult::Draw(DrawReason::NoCapture)));

    let mut game = Game::new(load("5k3/9/9/9/p8/9/9/9/9/R3K4 w - 119 60", J));
    game_play(&mut game, "a0a5", Reveal::default());
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.result(), None);

    // A flip that captures resets too.
    let mut pos = load("4k4/9/9/9/9/p8/X8/9/9/3K5 w P1 77 50", J);
    play(&mut pos, "a3a4", Reveal::default());
    assert_eq!(pos.halfmove_clock(), 0);
}

const SHUFFLE: [&str; 4] = ["a0a1", "a9a8", "a1a0", "a8a9"];

fn shuffle_game(variant: Variant) -> Game {
    let mut game = Game::new(load("r4k3/9/9/9/9/9/9/9/9/R2K5 w - 0 1", variant));
    for round in 0..2 {
        for (i, m) in SHUFFLE.iter().enumerate() {
            game_play(&mut game, m, Reveal::default());
            if round == 0 || i < 3 {
                assert_eq!(game.result(), None, "{variant} after {m}");
            }
        }
    }
    game
}

#[test]
fn repetition_is_not_a_draw_in_jieqi() {
    let mut game = shuffle_game(J);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.result(), None);
    for m in SHUFFLE {
        game_play(&mut game, m, Reveal::default());
        assert_eq!(game.result(), None);
    }
    assert_eq!(game.repetitions(), 4);
}

#[test]
fn repetition_is_a_draw_in_xiangqi_and_maniac() {
    for variant in [X, M] {
        let game = shuffle_game(variant);
        assert_eq!(game.repetitions(), 3);
        assert_eq!(
            game.result(),
            Some(GameResult::Draw(DrawReason::Repetition)),
            "{variant}"
        );
    }
}

#[test]
fn no_legal_move_is_a_loss() {
    // Black king e9: d9, f9 (chariots) and e8 (pawn) are covered, e9 is not attacked.
    let game = Game::new(load("4k4/9/4P4/9/9/9/9/9/3R1R3/3K5 b - 0 1", J));
    assert!(!game.position().in_check());
    assert_eq!(game.position().count_legal(), 0);
    assert_eq!(
        game.result(),
        Some(GameResult::Win {
            winner: Color::Red,
            reason: WinReason::NoLegalMoves
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Maniac

#[test]
fn maniac_flip_to_the_other_colour_changes_the_owner() {
    let mut pos = Position::startpos(M);
    assert_eq!(pos.flip_outcomes(sq("a3")).len(), 12, "shared pool");
    play(&mut pos, "a3a4", flip(black(Role::Pawn)));
    assert_eq!(
        pos.occupant(sq("a4")),
        Some(Occupant::Revealed(black(Role::Pawn)))
    );
    assert_eq!(pos.controller(sq("a4")), Some(Color::Black));
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.waiting_square(), Some(sq("a4")));
    assert_eq!(pos.pool().count(black(Role::Pawn)), 4);
    assert_eq!(pos.pool().total(), 29);
    // The waiting turn: the received piece may not move.
    assert!(targets(&pos, "a4").is_empty());
    assert!(!pos.is_legal(mv("a4a3")));
    assert!(!pos.is_legal(mv("a4b4")));
    assert!(!pos.is_legal(Move::PASS), "Black has other moves");
    assert!(pos.count_legal() > 0);

    // Black moves another piece (staying Black): the waiting turn is over.
    play(&mut pos, "i6i5", flip(black(Role::Pawn)));
    assert_eq!(pos.waiting_square(), None);
    play(&mut pos, "i3i4", flip(red(Role::Pawn)));
    assert_eq!(pos.waiting_square(), None);
    // A Black pawn on Red's half has crossed the river for Black.
    assert_eq!(targets(&pos, "a4"), strings(&["a3", "b4"]));
}

#[test]
fn maniac_owner_changing_flip_in_a_waiting_turn_starts_a_new_one() {
    // Decision 6: Black's waiting-turn move hands a piece to Red; now Red waits for it.
    let mut pos = Position::startpos(M);
    play(&mut pos, "a3a4", flip(black(Role::Pawn)));
    assert_eq!(pos.waiting_square(), Some(sq("a4")));
    play(&mut pos, "a6a5", flip(red(Role::Pawn)));
    assert_eq!(pos.side_to_move(), Color::Red);
    assert_eq!(pos.waiting_square(), Some(sq("a5")));
    assert_eq!(pos.controller(sq("a5")), Some(Color::Red));
    assert!(targets(&pos, "a5").is_empty());
    play(&mut pos, "e3e4", flip(red(Role::Pawn)));
    assert_eq!(pos.waiting_square(), None);
    // Black's pawn on a4 may move again; Red's on a5 (crossed for Red) later too.
    assert_eq!(targets(&pos, "a4"), strings(&["a3", "b4"]));
    play(&mut pos, "e6e5", flip(black(Role::Pawn)));
    assert_eq!(targets(&pos, "a5"), strings(&["a6", "b5"]));
}

#[test]
fn maniac_flip_keeping_the_colour_starts_no_waiting_turn() {
    let mut pos = Position::startpos(M);
    play(&mut pos, "a3a4", flip(red(Role::Horse)));
    assert_eq!(pos.waiting_square(), None);
    assert_eq!(pos.controller(sq("a4")), Some(Color::Red));
}

const PASS_FEN: &str = "4k4/R8/9/9/9/p8/9/9/3R5/5K3 b - 0 1 wait=a4";
const PASS_IN_CHECK_FEN: &str = "4k4/9/9/9/9/p8/9/9/3RR4/5K3 b - 0 1 wait=a4";

#[test]
fn maniac_waiting_turn_without_other_moves_passes() {
    let pos = load(PASS_FEN, M);
    assert_eq!(pos.waiting_square(), Some(sq("a4")));
    assert!(!pos.in_check());
    assert_eq!(pos.legal_move_list().as_slice(), &[Move::PASS]);
    assert_eq!(pos.count_legal(), 1);
    assert!(pos.is_legal(Move::PASS));
    assert!(!pos.is_legal(mv("a4a3")));
    assert!(!pos.is_legal(mv("a4b4")));

    let mut game = Game::new(pos);
    assert_eq!(game.result(), None);
    game_play(&mut game, "0000", Reveal::default());
    let after = game.position();
    assert_eq!(after.side_to_move(), Color::Red);
    assert_eq!(after.waiting_square(), None);
    assert_eq!(after.halfmove_clock(), 1);
    assert_eq!(after.fullmove_number(), 2);
    assert_eq!(after.hash(), after.compute_hash());
    assert!(!after.is_legal(Move::PASS));
    assert_eq!(game.result(), None);

    // Passing is never legal outside a waiting turn.
    assert!(!Position::startpos(M).is_legal(Move::PASS));
    let no_wait = load("4k4/R8/9/9/9/p8/9/9/3R5/5K3 b - 0 1", M);
    assert!(!no_wait.is_legal(Move::PASS));
    assert!(!no_wait.legal_move_list().contains(Move::PASS));
}

#[test]
fn maniac_waiting_turn_in_check_without_other_moves_loses() {
    let pos = load(PASS_IN_CHECK_FEN, M);
    assert!(pos.in_check());
    assert!(pos.legal_move_list().is_empty());
    assert_eq!(pos.count_legal(), 0);
    assert!(!pos.is_legal(Move::PASS));
    let game = Game::new(pos);
    assert_eq!(
        game.result(),
        Some(GameResult::Win {
            winner: Color::Red,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn maniac_same_colour_capture_by_control() {
    // Red controls the face-down a3, which captures the Black chariot on a4 and is one itself.
    let mut pos = load("4k4/9/9/9/9/r8/X8/9/9/3K5 w r1 0 1", M);
    assert!(pos.is_legal(mv("a3a4")));
    play(&mut pos, "a3a4", flip(black(Role::Rook)));
    assert_eq!(
        pos.occupant(sq("a4")),
        Some(Occupant::Revealed(black(Role::Rook)))
    );
    assert_eq!(pos.controller(sq("a4")), Some(Color::Black));
    assert_eq!(pos.waiting_square(), Some(sq("a4")));
    assert_eq!(pos.halfmove_clock(), 0);
    assert!(pos.pool().is_empty());
    assert!(targets(&pos, "a4").is_empty());
}

#[test]
fn maniac_capture_is_decided_by_control_not_identity() {
    let text = "4k4/9/9/x8/R8/9/2X6/2R6/9/3K5 w P1p1 0 1";
    let public = load(text, M);
    let mut pos = public;
    // Square order: c3 then a6. c3 is a Black piece under Red control, a6 a Red one under
    // Black control.
    assert!(pos.set_deal(&[black(Role::Pawn), red(Role::Pawn)]));
    assert_eq!(pos.hash(), pos.compute_hash());
    for p in [&public, &pos] {
        assert!(
            p.is_legal(mv("a5a6")),
            "a Black-controlled piece is capturable"
        );
        assert!(
            !p.is_legal(mv("c2c3")),
            "a Red-controlled piece is not capturable by Red"
        );
        assert!(!targets(p, "c2").contains("c4"));
    }
    play(&mut pos, "a5a6", Reveal::default());
    assert_eq!(
        pos.occupant(sq("a6")),
        Some(Occupant::Revealed(red(Role::Rook)))
    );
    assert_eq!(pos.pool().count(red(Role::Pawn)), 1, "nothing learned");
    // Learning the captured identity in the public view: a Red pawn on Black's half is possible.
    let mut pos = public;
    play(
        &mut pos,
        "a5a6",
        Reveal {
            flip: None,
            captured: Some(red(Role::Pawn)),
        },
    );
    assert_eq!(pos.pool().count(red(Role::Pawn)), 0);
    assert_eq!(pos.known_captures().count(red(Role::Pawn)), 1);
}

#[test]
fn maniac_check_exception() {
    // Red's face-down e3 turns out a Black chariot that checks the Red king.
    let start = load("5k3/9/9/p8/9/9/4X4/9/9/4K4 w r1 0 1", M);
    assert!(start.is_legal(mv("e3e4")));
    let outcomes: Vec<(Piece, u8)> = start.flip_outcomes(sq("e3")).iter().collect();
    assert_eq!(outcomes, vec![(black(Role::Rook), 1)]);
    let mut game = Game::new(start);
    game_play(&mut game, "e3e4", Reveal::default());
    let pos = *game.position();
    assert_eq!(
        pos.occupant(sq("e4")),
        Some(Occupant::Revealed(black(Role::Rook)))
    );
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.waiting_square(), Some(sq("e4")));
    let checkers: Vec<Square> = pos.attackers(sq("e0"), Color::Black).collect();
    assert_eq!(checkers, vec![sq("e4")], "the mover's king is attacked");
    // Black may not capture the king, nor move the received chariot at all.
    assert!(!pos.is_legal(mv("e4e0")));
    assert!(targets(&pos, "e4").is_empty());
    assert!(pos
        .legal_move_list()
        .iter()
        .all(|m| m.is_pass() || m.to() != sq("e0")));
    assert!(pos.is_legal(mv("a6a5")));
    assert!(!pos.is_legal(Move::PASS));
    assert_eq!(game.result(), None);

    game_play(&mut game, "a6a5", Reveal::default());
    let pos = *game.position();
    assert_eq!(pos.side_to_move(), Color::Red);
    assert_eq!(pos.waiting_square(), None);
    assert!(pos.in_check());
    // Red must answer: e1 stays on the file, f0 faces the Black king.
    assert_eq!(moves(&pos), strings(&["e0d0"]));
    assert!(!pos.is_legal(mv("e0e1")));
    assert!(!pos.is_legal(mv("e0f0")));
    assert_eq!(game.result(), None);

    game_play(&mut game, "e0d0", Reveal::default());
    let pos = *game.position();
    assert!(
        !targets(&pos, "e4").is_empty(),
        "the chariot moves freely now"
    );
    assert!(pos.is_legal(mv("e4d4")));
}

#[test]
fn maniac_decision_4_face_down_blocker_may_not_expose_its_king() {
    // Black chariot a0 is blocked by Red's face-down c0; Black cannon e6 has no screen.
    let text = "5k3/9/9/4c4/9/9/9/1X7/9/r1X1K4 w A1C1 0 1";
    for variant in [M, J] {
        let pos = load(text, variant);
        assert!(!pos.in_check());
        assert!(!pos.is_legal(mv("c0a2")), "{variant}: opens the rank");
        assert!(!pos.is_legal(mv("c0e2")), "{variant}: opens the rank");
        assert!(targets(&pos, "c0").is_empty());
        assert!(
            !pos.is_legal(mv("b2e2")),
            "{variant}: becomes a cannon screen"
        );
        assert!(pos.is_legal(mv("b2d2")));
        assert!(pos.is_legal(mv("b2b3")));
        assert_is_legal_agrees(&pos, "c0");
        assert_is_legal_agrees(&pos, "b2");
    }
}

const CHECKING_CYCLE: [&str; 4] = ["a8a9", "e9e8", "a9a8", "e8e9"];
const QUIET_CYCLE: [&str; 4] = ["a8a7", "e9f9", "a7a8", "f9e9"];
const CYCLE_FEN: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w - 0 1";

fn play_cycle(variant: Variant, cycle: &[&str; 4]) -> Game {
    let mut game = Game::new(load(CYCLE_FEN, variant));
    for round in 0..2 {
        for (i, m) in cycle.iter().enumerate() {
            game_play(&mut game, m, Reveal::default());
            if round == 0 || i < 3 {
                assert_eq!(game.result(), None, "{variant} round {round} after {m}");
            }
        }
    }
    game
}

#[test]
fn perpetual_check_loses() {
    for variant in [X, M] {
        let game = play_cycle(variant, &CHECKING_CYCLE);
        assert_eq!(game.repetitions(), 3);
        assert_eq!(
            game.result(),
            Some(GameResult::Win {
                winner: Color::Black,
                reason: WinReason::PerpetualCheck
            }),
            "{variant}"
        );
    }
    // In jieqi the repetition does not end the game.
    let game = play_cycle(J, &CHECKING_CYCLE);
    assert_eq!(game.result(), None);

    // A cycle that starts after a few quiet plies: only the plies of the cycle count.
    for variant in [X, M] {
        let mut game = Game::new(load("4k4/9/R8/9/9/9/9/9/9/3K5 w - 0 1", variant));
        game_play(&mut game, "a7a8", Reveal::default());
        game_play(&mut game, "e9f9", Reveal::default());
        for round in 0..2 {
            for m in ["a8a9", "f9f8", "a9a8", "f8f9"] {
                assert_eq!(game.result(), None, "{variant} round {round} before {m}");
                game_play(&mut game, m, Reveal::default());
            }
        }
        assert_eq!(game.repetitions(), 3);
        assert_eq!(
            game.result(),
            Some(GameResult::Win {
                winner: Color::Black,
                reason: WinReason::PerpetualCheck
            }),
            "{variant}"
        );
    }
}

#[test]
fn quiet_cycle_is_a_repetition_draw() {
    for variant in [X, M] {
        let game = play_cycle(variant, &QUIET_CYCLE);
        assert_eq!(
            game.result(),
            Some(GameResult::Draw(DrawReason::Repetition)),
            "{variant}"
        );
    }
}

#[test]
fn repetition_counts_the_position_right_after_a_capture() {
    // Red captures on a8 first; the position right after the capture then occurs three times.
    for variant in [X, M] {
        let mut game = Game::new(load("4k4/n8/R8/9/9/9/9/9/9/3K5 w - 0 1", variant));
        game_play(&mut game, "a7a8", Reveal::default());
        for round in 0..2 {
            for m in ["e9f9", "a8a7", "f9e9", "a7a8"] {
                game_play(&mut game, m, Reveal::default());
            }
            assert_eq!(game.repetitions(), round + 2, "{variant} round {round}");
        }
        assert_eq!(
            game.result(),
            Some(GameResult::Draw(DrawReason::Repetition)),
            "{variant}"
        );
    }
}

#[test]
fn repetition_counts_the_position_right_after_a_flip() {
    let mut game = Game::new(load("5k3/9/9/9/9/9/9/9/9/X2K5 w R1 0 1", M));
    game_play(&mut game, "a0a1", Reveal::default());
    for round in 0..2 {
        for m in ["f9e9", "a1a0", "e9f9", "a0a1"] {
            game_play(&mut game, m, Reveal::default());
        }
        assert_eq!(game.repetitions(), round + 2, "round {round}");
    }
    assert_eq!(
        game.result(),
        Some(GameResult::Draw(DrawReason::Repetition))
    );
}

#[test]
fn wait_token_round_trips() {
    let pos = load(PASS_FEN, M);
    assert_eq!(pos.fen(), PASS_FEN);
    assert!(pos.fen6().ends_with(" wait=a4"));
    for text in [pos.fen(), pos.fen6()] {
        let back = load(&text, M);
        assert_eq!(back, pos);
        assert_eq!(back.hash(), pos.hash());
    }
    // A wait token changes the position and its hash.
    let no_wait = load("4k4/R8/9/9/9/p8/9/9/3R5/5K3 b - 0 1", M);
    assert_ne!(no_wait, pos);
    assert_ne!(no_wait.hash(), pos.hash());

    // After a real owner change.
    let mut pos = Position::startpos(M);
    play(&mut pos, "a3a4", flip(black(Role::Cannon)));
    let text = pos.fen();
    assert!(text.ends_with(" wait=a4"), "{text}");
    let back = load(&text, M);
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.waiting_square(), Some(sq("a4")));

    // Only Maniac has waiting turns, and only for a piece of the side to move.
    assert_eq!(load_err(PASS_FEN, J), PositionError::BadWait(sq("a4")));
    assert_eq!(
        load_err("4k4/R8/9/9/9/p8/9/9/3R5/5K3 b - 0 1 wait=a8", M),
        PositionError::BadWait(sq("a8"))
    );
    assert_eq!(
        load_err("4k4/R8/9/9/9/p8/9/9/3R5/5K3 b - 0 1 wait=b4", M),
        PositionError::BadWait(sq("b4"))
    );
}

#[test]
fn maniac_captured_field_does_not_change_the_position() {
    // Decision 9: the pool field is the shared pool; a captured field is read and ignored.
    let board = "5k3/9/9/9/9/9/9/9/9/X3K4";
    let plain = load(&format!("{board} w R1p2 - 0 1"), M);
    let with = load(&format!("{board} w R1p2 r1 0 1"), M);
    assert_eq!(
        *plain.pool(),
        pool_of(&[(red(Role::Rook), 1), (black(Role::Pawn), 2)])
    );
    assert_eq!(*with.pool(), *plain.pool());
    assert_eq!(with.hash(), plain.hash());
    assert_eq!(with.fen(), plain.fen());
    assert_eq!(moves(&with), moves(&plain));
    let a: Vec<(Piece, u8)> = with.flip_outcomes(sq("a0")).iter().collect();
    let b: Vec<(Piece, u8)> = plain.flip_outcomes(sq("a0")).iter().collect();
    assert_eq!(a, b);
    assert_eq!(a.len(), 2, "a Red-controlled piece may be a Black pawn");
}

// ---------------------------------------------------------------------------------------------
// Setups the reader refuses or repairs

#[test]
fn bad_setups_are_rejected() {
    assert_eq!(
        load_err("4k4/9/9/X8/9/9/9/9/9/3K5 w P1 0 1", J),
        PositionError::HiddenWrongHalf(sq("a6"))
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/x8/9/9/3K5 w p1 0 1", J),
        PositionError::HiddenWrongHalf(sq("a3"))
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/X8/9/9/9/3K5 w P1 0 1", J),
        PositionError::HiddenOffStart(sq("a4"))
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/4X4/3K5 w P1 0 1", M),
        PositionError::HiddenOffStart(sq("e1"))
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/9/9 w - 0 1", J),
        PositionError::MissingKing(Color::Red)
    );
    assert_eq!(
        load_err("9/9/9/9/9/9/9/9/9/3K5 w - 0 1", X),
        PositionError::MissingKing(Color::Black)
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/9/K8 w - 0 1", J),
        PositionError::KingOutsidePalace(sq("a0"))
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/3K5/9/9/9 w - 0 1", X),
        PositionError::KingOutsidePalace(sq("d3"))
    );
    assert_eq!(
        load_err("5k3/9/9/9/9/4K4/9/9/9/9 w - 0 1", M),
        PositionError::KingOutsidePalace(sq("e4"))
    );
    // A Red king in Black's palace.
    assert_eq!(
        load_err("3K1k3/9/9/9/9/9/9/9/9/9 w - 0 1", J),
        PositionError::KingOutsidePalace(sq("d9"))
    );
    assert_eq!(
        load_err(Variant::Jieqi.start_fen(), X),
        PositionError::HiddenInXiangqi(sq("a0"))
    );
    // The side not to move in check: a chariot, and facing kings.
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/9/3KR4 w - 0 1", J),
        PositionError::OpponentInCheck
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/9/4K4 w - 0 1", X),
        PositionError::OpponentInCheck
    );
    assert_eq!(
        load_err("4k4/9/9/9/9/9/9/9/9/4K4 b - 0 1", M),
        PositionError::OpponentInCheck
    );
    // The side to move may be in check.
    let pos = load("4k4/9/9/9/9/9/9/9/9/3KR4 b - 0 1", J);
    assert!(pos.in_check());
}

#[test]
fn inconsistent_pools_are_repaired() {
    // Three Red face-down pieces, a pool of one: add a0's and b0's role identities (decision 10).
    let (pos, warnings) = try_load("5k3/9/9/9/9/9/9/9/9/XXX1K4 w R1 0 1", J).unwrap();
    let added = pool_of(&[(red(Role::Rook), 1), (red(Role::Horse), 1)]);
    assert_eq!(
        warnings,
        vec![SetupWarning::PoolTooSmall {
            color: Some(Color::Red),
            added
        }]
    );
    assert_eq!(
        *pos.pool(),
        pool_of(&[(red(Role::Rook), 2), (red(Role::Horse), 1)])
    );
    assert_eq!(pos.hash(), pos.compute_hash());

    // Empty pool on the start board: each side's role identities, i.e. the full pool.
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
    let (pos, warnings) = try_load(&format!("{board} w - 0 1"), J).unwrap();
    assert_eq!(*pos.pool(), Pool::full());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings.iter().all(|w| matches!(w,
        SetupWarning::PoolTooSmall { color: Some(_), added } if added.total() == 15)));

    // Maniac: one shared pool, in square order a0 then a9.
    let (pos, warnings) = try_load("x4k3/9/9/9/9/9/9/9/9/X3K4 w - 0 1", M).unwrap();
    let added = pool_of(&[(red(Role::Rook), 1), (black(Role::Rook), 1)]);
    assert_eq!(
        warnings,
        vec![SetupWarning::PoolTooSmall { color: None, added }]
    );
    assert_eq!(*pos.pool(), added);
    // Maniac: two face-down pieces need two identities of either colour.
    let (pos, warnings) = try_load("x4k3/9/9/9/9/9/9/9/9/X3K4 w c1 0 1", M).unwrap();
    assert_eq!(
        warnings,
        vec![SetupWarning::PoolTooSmall {
            color: None,
            added: pool_of(&[(red(Role::Rook), 1)])
        }]
    );
    assert_eq!(
        *pos.pool(),
        pool_of(&[(black(Role::Cannon), 1), (red(Role::Rook), 1)])
    );

    // Larger pools are normal and stay.
    let (pos, warnings) = try_load("5k3/9/9/9/9/9/9/9/9/XXX1K4 w R2N2P5 0 1", J).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(pos.pool().total(), 9);
    // Xiangqi drops a pool.
    let (pos, warnings) = try_load("4k4/9/9/9/9/9/9/9/9/3K5 w R1 0 1", X).unwrap();
    assert_eq!(warnings, vec![SetupWarning::PoolIgnored]);
    assert!(pos.pool().is_empty());
}

/// A king attacks only the points of its palace next to it, and the other king's point when
/// the two face each other on a clear file: not every point along its file and rank.
#[test]
fn a_king_attacks_its_palace_neighbours_and_the_facing_king_only() {
    // Black king e9 on an open file and rank; Red king d0.
    let pos = load("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", Variant::Xiangqi);
    for far in ["a9", "i9", "e7", "e5", "e0"] {
        assert!(!pos.is_attacked_by(sq(far), Color::Black), "{far}");
    }
    for near in ["d9", "f9", "e8"] {
        assert!(pos.is_attacked_by(sq(near), Color::Black), "{near}");
    }
    // d8 is diagonal to the king; d1 and d2 are in Red's palace, d3 outside it.
    assert!(!pos.is_attacked_by(sq("d8"), Color::Black));
    assert!(pos.is_attacked_by(sq("d1"), Color::Red));
    assert!(!pos.is_attacked_by(sq("d3"), Color::Red));
    assert!(!pos.is_attacked_by(sq("c0"), Color::Red));
    // Facing kings: the king's point is attacked by the other king along the clear file, so
    // the move that opens the file is illegal and a king may not step onto it.
    let facing = load("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", Variant::Xiangqi);
    assert!(!facing.in_check());
    assert!(!moves(&facing).contains("e0d0"), "{:?}", moves(&facing));
    assert!(!facing.is_attacked_by(sq("d5"), Color::Black));
}
