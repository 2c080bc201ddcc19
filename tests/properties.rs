//! Property tests over random games in all three variants, from the start positions and from
//! the perft positions (`tests/common/boards.rs`): legality and king safety, move counting,
//! `is_legal` against the move list on every from/to pair, FEN round trips, incremental hashing,
//! pool consistency, the colour mirror, and deals.
//!
//! Games are driven by a proptest-generated seed through the tests' seeded generator, which
//! picks the moves, the flip outcomes (weighted by pool counts) and, sometimes, the learned
//! identity of a captured face-down piece.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use jieqi::core::pool::{identity_piece, IDENTITIES};
use jieqi::core::{
    fen, Bitboard, Color, DrawReason, Game, GameResult, Move, Occupant, Piece, PlayError, Pool,
    Position, Reveal, Role, Square, Variant, WinReason,
};
use proptest::prelude::*;

mod common;

use common::boards::{JIEQI_HIDDEN, JIEQI_REVEALED, XIANGQI_BOARDS};
use common::Rng;

// ---------------------------------------------------------------------------------------------
// start positions

fn load(text: &str, variant: Variant) -> Option<Position> {
    let setup = fen::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    Position::from_setup(&setup, variant).ok().map(|(p, _)| p)
}

/// Every start position, in a fixed order. Each variant's start position is listed several
/// times so that a good share of the games start from it.
fn starts() -> &'static [Position] {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let mut out = Vec::new();
        for _ in 0..4 {
            for v in Variant::ALL {
                out.push(Position::startpos(v));
            }
        }
        for board in XIANGQI_BOARDS {
            out.push(load(&format!("{board} w - - 0 1"), Variant::Xiangqi).expect(board));
        }
        for text in JIEQI_REVEALED {
            out.push(load(text, Variant::Jieqi).expect(text));
        }
        for text in JIEQI_HIDDEN {
            out.push(load(text, Variant::Jieqi).expect(text));
        }
        // The same boards read as Maniac (where they are valid Maniac positions at all).
        for text in JIEQI_HIDDEN.iter().chain(JIEQI_REVEALED.iter()) {
            if let Some(pos) = load(text, Variant::Maniac) {
                out.push(pos);
            }
        }
        out
    })
}

// ---------------------------------------------------------------------------------------------
// random games

/// Whether a face-down piece on `sq` may be `piece` as far as colour goes.
fn drawable(variant: Variant, sq: Square, piece: Piece) -> bool {
    variant == Variant::Maniac || piece.color == sq.half()
}

/// A random deal consistent with the pool, in square order of the face-down pieces.
fn random_deal(pos: &Position, rng: &mut Rng) -> Vec<Piece> {
    let mut pool = *pos.pool();
    let mut ids = Vec::new();
    for sq in pos.hidden() {
        let candidates: Vec<(Piece, u32)> = pool
            .iter()
            .filter(|&(p, _)| drawable(pos.variant(), sq, p))
            .map(|(p, n)| (p, n as u32))
            .collect();
        assert!(!candidates.is_empty(), "pool too small to deal {pos:?}");
        let p = rng.weighted(&candidates);
        pool.remove(p);
        ids.push(p);
    }
    ids
}

/// A random reveal for `mv`: a flip outcome by pool weight, and for a capture of a face-down
/// piece sometimes a learned identity.
fn random_reveal(pos: &Position, mv: Move, rng: &mut Rng) -> Reveal {
    let mut reveal = Reveal::default();
    let mut pool = *pos.pool();
    if pos.is_flip(mv) {
        let outcomes: Vec<(Piece, u32)> = pos
            .flip_outcomes(mv.from())
            .iter()
            .map(|(p, w)| (p, w as u32))
            .collect();
        let p = rng.weighted(&outcomes);
        pool.remove(p);
        // A single outcome (always the case in a deal) may be left implicit.
        if outcomes.len() > 1 || rng.below(2) == 0 {
            reveal.flip = Some(p);
        }
    }
    if pos.captures_hidden(mv) && rng.below(2) == 0 {
        reveal.captured = match pos.occupant(mv.to()) {
            Some(Occupant::Hidden {
                identity: Some(id), ..
            }) => (pool.count(id) > 0).then_some(id),
            _ => {
                let candidates: Vec<(Piece, u32)> = pool
                    .iter()
                    .filter(|&(p, _)| drawable(pos.variant(), mv.to(), p))
                    .map(|(p, n)| (p, n as u32))
                    .collect();
                (!candidates.is_empty()).then(|| rng.weighted(&candidates))
            }
        };
    }
    reveal
}

struct Step {
    before: Position,
    mv: Move,
    reveal: Reveal,
    after: Position,
}

/// A random game of at most `max_plies` plies from start position `index` (modulo their
/// number), dealt at the start if `deal`. Every move is played through the checked
/// `Position::play`.
fn random_game(index: usize, seed: u64, max_plies: usize, deal: bool) -> Vec<Step> {
    let mut rng = Rng::new(seed);
    let all = starts();
    let mut pos = all[index % all.len()];
    if deal {
        let ids = random_deal(&pos, &mut rng);
        assert!(pos.set_deal(&ids), "deal {ids:?} refused in {pos:?}");
    }
    let mut steps = Vec::new();
    for _ in 0..max_plies {
        let list = pos.legal_move_list();
        if list.is_empty() {
            break;
        }
        let mv = list.as_slice()[rng.below(list.len())];
        let reveal = random_reveal(&pos, mv, &mut rng);
        let before = pos;
        pos.play(mv, reveal)
            .unwrap_or_else(|e| panic!("{mv} {reveal:?} refused in {before:?}: {e}"));
        steps.push(Step {
            before,
            mv,
            reveal,
            after: pos,
        });
    }
    steps
}

/// The positions of a game: the start and the position after every ply.
fn positions(index: usize, seed: u64, max_plies: usize, deal: bool) -> Vec<Position> {
    let steps = random_game(index, seed, max_plies, deal);
    if steps.is_empty() {
        let all = starts();
        let mut pos = all[index % all.len()];
        if deal {
            let mut rng = Rng::new(seed);
            let ids = random_deal(&pos, &mut rng);
            assert!(pos.set_deal(&ids));
        }
        return vec![pos];
    }
    let mut out = vec![steps[0].before];
    out.extend(steps.iter().map(|s| s.after));
    out
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn is_king(pos: &Position, sq: Square) -> bool {
    matches!(pos.occupant(sq), Some(Occupant::Revealed(p)) if p.role == Role::King)
}

fn mirror_move(mv: Move) -> Move {
    if mv.is_pass() {
        Move::PASS
    } else {
        Move::new(mv.from().flip_rank(), mv.to().flip_rank())
    }
}

fn move_set(pos: &Position) -> BTreeSet<Move> {
    pos.legal_move_list().iter().copied().collect()
}

/// For each identity: on the board face up, in the pool, or known captured.
fn identity_totals(pos: &Position) -> [u32; IDENTITIES] {
    let mut out = [0u32; IDENTITIES];
    for (i, slot) in out.iter_mut().enumerate() {
        let piece = identity_piece(i);
        let on_board = Square::all()
            .filter(|&s| pos.occupant(s) == Some(Occupant::Revealed(piece)))
            .count() as u32;
        *slot =
            on_board + pos.pool().count(piece) as u32 + pos.known_captures().count(piece) as u32;
    }
    out
}

// ---------------------------------------------------------------------------------------------
// checks on one position

/// Every generated move is legal, captures no king and leaves the mover's king safe (in Maniac
/// a flip that hands the piece to the opponent may attack the mover's king from its
/// destination, and nothing else may).
fn check_moves_safe(pos: &Position) {
    let list = pos.legal_move_list();
    let mover = pos.side_to_move();
    let variant = pos.variant();
    for &mv in list.iter() {
        assert!(
            pos.is_legal(mv),
            "{mv} generated but not is_legal in {pos:?}"
        );
        if mv.is_pass() {
            assert_eq!(variant, Variant::Maniac);
            assert!(pos.waiting_square().is_some() && !pos.in_check());
            assert_eq!(list.len(), 1, "a pass is the only move: {pos:?}");
            let mut after = *pos;
            after.play_unchecked(mv, None);
            assert!(after.attackers(after.king(mover), !mover).is_empty());
            continue;
        }
        assert!(!is_king(pos, mv.to()), "{mv} captures a king in {pos:?}");
        assert_eq!(pos.controller(mv.from()), Some(mover), "{mv} in {pos:?}");
        assert_ne!(pos.waiting_square(), Some(mv.from()), "{mv} in {pos:?}");
        let outcomes: Vec<Option<Piece>> = if pos.is_flip(mv) {
            let o = pos.flip_outcomes(mv.from());
            assert!(!o.is_empty(), "no outcome for {mv} in {pos:?}");
            o.iter().map(|(p, _)| Some(p)).collect()
        } else {
            vec![None]
        };
        for outcome in outcomes {
            if variant != Variant::Maniac {
                assert!(outcome.is_none_or(|p| p.color == mover), "{mv} {outcome:?}");
            }
            let mut after = *pos;
            after.play_unchecked(mv, outcome);
            let attackers = after.attackers(after.king(mover), !mover);
            let handed_over = outcome.is_some_and(|p| p.color != mover);
            if handed_over {
                assert_eq!(after.waiting_square(), Some(mv.to()));
                assert!(
                    (attackers & !Bitboard::from_square(mv.to())).is_empty(),
                    "{mv} -> {outcome:?} exposes the mover's king in {pos:?}"
                );
            } else {
                assert!(
                    attackers.is_empty(),
                    "{mv} {outcome:?} leaves the mover's king attacked in {pos:?}"
                );
                assert_eq!(after.waiting_square(), None);
            }
        }
    }
}

fn check_pools(pos: &Position) {
    let hidden = pos.hidden();
    match pos.variant() {
        Variant::Xiangqi => {
            assert!(hidden.is_empty());
            assert!(pos.pool().is_empty());
        }
        Variant::Jieqi => {
            for c in Color::ALL {
                let group = (hidden & c.half()).count();
                assert_eq!(pos.hidden_in_group(c), group);
                assert!(
                    pos.pool().total_of(c) >= group,
                    "{c:?} pool too small in {pos:?}"
                );
            }
        }
        Variant::Maniac => {
            for c in Color::ALL {
                assert_eq!(pos.hidden_in_group(c), hidden.count());
            }
            assert!(
                pos.pool().total() >= hidden.count(),
                "pool too small: {pos:?}"
            );
        }
    }
    for sq in hidden {
        let outcomes = pos.flip_outcomes(sq);
        assert!(!outcomes.is_empty(), "no outcome for {sq} in {pos:?}");
        if !pos.is_dealt() {
            let expected = match pos.variant() {
                Variant::Maniac => pos.pool().total(),
                _ => pos.pool().total_of(sq.half()),
            };
            assert_eq!(outcomes.total_weight(), expected);
        }
    }
}

fn check_fen_round_trip(pos: &Position) {
    let mut public = *pos;
    if public.is_dealt() {
        public.clear_deal();
        assert_eq!(public.hash(), public.compute_hash());
    }
    for six in [false, true] {
        let text = if six { public.fen6() } else { public.fen() };
        let setup = fen::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let (back, warnings) = Position::from_setup(&setup, public.variant())
            .unwrap_or_else(|e| panic!("{text:?} rejected: {e}"));
        assert!(warnings.is_empty(), "{text:?}: {warnings:?}");
        assert_eq!(back.hash(), public.hash(), "{text:?}");
        assert_eq!(back.fen(), public.fen());
        assert_eq!(move_set(&back), move_set(&public), "{text:?}");
        // The 5-field form does not carry the known captures (the 6-field form does, in every
        // variant; decision 9): compare the rest.
        if six || public.known_captures().is_empty() {
            assert_eq!(back, public, "{text:?}");
        } else {
            assert_eq!(back.pool(), public.pool(), "{text:?}");
            assert_eq!(back.waiting_square(), public.waiting_square());
            assert_eq!(back.halfmove_clock(), public.halfmove_clock());
            assert_eq!(back.fullmove_number(), public.fullmove_number());
        }
    }
}

fn check_mirror(pos: &Position) {
    let m = pos.mirrored();
    assert_eq!(m.hash(), m.compute_hash());
    assert_eq!(m.count_legal(), pos.count_legal(), "{pos:?} vs {m:?}");
    let mirrored: BTreeSet<Move> = pos
        .legal_move_list()
        .iter()
        .map(|&mv| mirror_move(mv))
        .collect();
    assert_eq!(move_set(&m), mirrored, "{pos:?} vs {m:?}");
    assert_eq!(m.in_check(), pos.in_check());
    assert_eq!(m.side_to_move(), !pos.side_to_move());
    assert_eq!(
        m.waiting_square(),
        pos.waiting_square().map(|s| s.flip_rank())
    );
    for sq in pos.hidden() {
        let a: BTreeSet<(Piece, u8)> = pos
            .flip_outcomes(sq)
            .iter()
            .map(|(p, w)| (Piece::new(!p.color, p.role), w))
            .collect();
        let b: BTreeSet<(Piece, u8)> = m.flip_outcomes(sq.flip_rank()).iter().collect();
        assert_eq!(a, b);
    }
    let back = m.mirrored();
    assert_eq!(back, *pos);
    assert_eq!(back.hash(), pos.hash());
}

fn check_all_pairs(pos: &Position) {
    let list = pos.legal_move_list();
    let mut legal = [[false; 90]; 90];
    for &mv in list.iter() {
        if !mv.is_pass() {
            legal[mv.from().index()][mv.to().index()] = true;
        }
    }
    for from in Square::all() {
        for to in Square::all() {
            if from == to {
                continue;
            }
            let mv = Move::new(from, to);
            assert_eq!(
                pos.is_legal(mv),
                legal[from.index()][to.index()],
                "{mv} in {pos:?}"
            );
        }
    }
    assert_eq!(
        pos.is_legal(Move::PASS),
        list.contains(Move::PASS),
        "{pos:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// a slow, independent reading of the movement rules (docs/rules.md), for cross-checking

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Up(Piece),
    /// Face down, with its controller.
    Down(Color),
}

#[derive(Clone)]
struct RefBoard {
    cells: [Cell; 90],
    variant: Variant,
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| (r * 9 + f) as usize)
}

fn fr(i: usize) -> (i32, i32) {
    ((i % 9) as i32, (i / 9) as i32)
}

/// The role of a face-down piece on square `i` (the piece that starts there).
fn ref_start_role(i: usize) -> Option<Role> {
    let (f, r) = fr(i);
    match r {
        0 | 9 => match f {
            0 | 8 => Some(Role::Rook),
            1 | 7 => Some(Role::Horse),
            2 | 6 => Some(Role::Elephant),
            3 | 5 => Some(Role::Advisor),
            _ => None,
        },
        2 | 7 => (f == 1 || f == 7).then_some(Role::Cannon),
        3 | 6 => (f % 2 == 0).then_some(Role::Pawn),
        _ => None,
    }
}

fn ref_in_palace(c: Color, i: usize) -> bool {
    let (f, r) = fr(i);
    (3..=5).contains(&f) && if c == Color::Red { r <= 2 } else { r >= 7 }
}

fn ref_on_half(c: Color, i: usize) -> bool {
    let (_, r) = fr(i);
    if c == Color::Red {
        r <= 4
    } else {
        r >= 5
    }
}

impl RefBoard {
    fn of(pos: &Position) -> RefBoard {
        let mut cells = [Cell::Empty; 90];
        for sq in Square::all() {
            cells[sq.index()] = match pos.occupant(sq) {
                None => Cell::Empty,
                Some(Occupant::Revealed(p)) => Cell::Up(p),
                Some(Occupant::Hidden { controller, .. }) => Cell::Down(controller),
            };
        }
        RefBoard {
            cells,
            variant: pos.variant(),
        }
    }

    fn owner(&self, i: usize) -> Option<Color> {
        match self.cells[i] {
            Cell::Empty => None,
            Cell::Up(p) => Some(p.color),
            Cell::Down(c) => Some(c),
        }
    }

    fn empty(&self, i: usize) -> bool {
        self.cells[i] == Cell::Empty
    }

    /// Where the piece on `i` may go by its movement rule alone (targets may hold any piece:
    /// the caller filters own pieces and kings). A square holding a piece is in the list
    /// exactly when the piece on `i` attacks it.
    fn reach(&self, i: usize) -> Vec<usize> {
        let (c, role, hidden) = match self.cells[i] {
            Cell::Empty => return Vec::new(),
            Cell::Up(p) => (p.color, p.role, false),
            Cell::Down(c) => (
                c,
                ref_start_role(i).expect("face-down piece on a start square"),
                true,
            ),
        };
        let restricted = hidden || self.variant == Variant::Xiangqi;
        let (f, r) = fr(i);
        let mut out = Vec::new();
        const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match role {
            Role::King => {
                for (df, dr) in ORTHO {
                    if let Some(t) = at(f + df, r + dr) {
                        if ref_in_palace(c, t) {
                            out.push(t);
                        }
                    }
                }
            }
            Role::Advisor => {
                for (df, dr) in DIAG {
                    if let Some(t) = at(f + df, r + dr) {
                        if !restricted || ref_in_palace(c, t) {
                            out.push(t);
                        }
                    }
                }
            }
            Role::Elephant => {
                for (df, dr) in DIAG {
                    if let (Some(eye), Some(t)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr)) {
                        if self.empty(eye) && (!restricted || ref_on_half(c, t)) {
                            out.push(t);
                        }
                    }
                }
            }
            Role::Horse => {
                for (df, dr) in ORTHO {
                    let Some(leg) = at(f + df, r + dr) else {
                        continue;
                    };
                    if !self.empty(leg) {
                        continue;
                    }
                    let (sf, sr) = (dr.abs(), df.abs()); // the sideways axis
                    for side in [-1, 1] {
                        if let Some(t) = at(f + 2 * df + side * sf, r + 2 * dr + side * sr) {
                            out.push(t);
                        }
                    }
                }
            }
            Role::Rook | Role::Cannon => {
                for (df, dr) in ORTHO {
                    let mut screens = 0;
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(t) = at(x, y) {
                        if self.empty(t) {
                            if screens == 0 {
                                out.push(t);
                            }
                        } else {
                            if role == Role::Rook || screens == 1 {
                                out.push(t);
                                break;
                            }
                            screens += 1;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
            Role::Pawn => {
                let fwd = if c == Color::Red { 1 } else { -1 };
                if let Some(t) = at(f, r + fwd) {
                    out.push(t);
                }
                if !ref_on_half(c, i) {
                    for df in [-1, 1] {
                        if let Some(t) = at(f + df, r) {
                            out.push(t);
                        }
                    }
                }
            }
        }
        out
    }

    fn king(&self, c: Color) -> usize {
        (0..90)
            .find(|&i| self.cells[i] == Cell::Up(Piece::new(c, Role::King)))
            .expect("king")
    }

    /// Whether `by` attacks the square `k` (which holds a king), flying kings included.
    fn attacked(&self, k: usize, by: Color) -> bool {
        for i in 0..90 {
            if self.owner(i) == Some(by) && self.reach(i).contains(&k) {
                return true;
            }
        }
        let other = self.king(by);
        let (kf, kr) = fr(k);
        let (of, or) = fr(other);
        kf == of && (kr.min(or) + 1..kr.max(or)).all(|r| self.empty(at(kf, r).unwrap()))
    }
}

/// The legal moves by the slow reference reading of the rules.
fn reference_moves(pos: &Position) -> BTreeSet<Move> {
    let board = RefBoard::of(pos);
    let us = pos.side_to_move();
    let wait = pos.waiting_square().map(|s| s.index());
    let mut out = BTreeSet::new();
    for i in 0..90 {
        if board.owner(i) != Some(us) || wait == Some(i) {
            continue;
        }
        for t in board.reach(i) {
            match board.cells[t] {
                Cell::Up(p) if p.role == Role::King => continue,
                _ if board.owner(t) == Some(us) => continue,
                _ => {}
            }
            let mut after = board.clone();
            // The moved piece counts as the mover's own (decision 4): it only blocks.
            after.cells[t] = board.cells[i];
            after.cells[i] = Cell::Empty;
            if !after.attacked(after.king(us), !us) {
                out.insert(Move::new(Square::from_index(i), Square::from_index(t)));
            }
        }
    }
    if out.is_empty() && wait.is_some() && !board.attacked(board.king(us), !us) {
        out.insert(Move::PASS);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// properties

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn generated_moves_are_legal_and_keep_the_king_safe(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 100, deal) {
            check_moves_safe(&pos);
        }
    }

    #[test]
    fn move_generation_matches_a_slow_reference(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 100, deal) {
            let reference = reference_moves(&pos);
            let generated = move_set(&pos);
            let missing: Vec<String> =
                reference.difference(&generated).map(|m| m.to_string()).collect();
            let extra: Vec<String> =
                generated.difference(&reference).map(|m| m.to_string()).collect();
            assert!(missing.is_empty() && extra.is_empty(),
                "{pos:?}: missing {missing:?}, extra {extra:?}");
        }
    }

    #[test]
    fn fen_round_trip_keeps_position_and_hash(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 100, deal) {
            check_fen_round_trip(&pos);
        }
    }

    #[test]
    fn mirror_has_mirrored_moves(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 100, deal) {
            check_mirror(&pos);
        }
    }

    #[test]
    fn dealt_position_has_one_flip_outcome(index in 0usize..1000, seed in any::<u64>()) {
        let mut rng = Rng::new(seed.rotate_left(17));
        for pos in positions(index, seed, 60, false) {
            if pos.hidden().is_empty() {
                continue;
            }
            let ids = random_deal(&pos, &mut rng);
            let mut dealt = pos;
            assert!(dealt.set_deal(&ids), "{ids:?} in {pos:?}");
            assert!(dealt.is_dealt());
            assert_eq!(dealt.hash(), dealt.compute_hash());
            for (sq, &id) in pos.hidden().zip(&ids) {
                let outcomes: Vec<(Piece, u8)> = dealt.flip_outcomes(sq).iter().collect();
                assert_eq!(outcomes, vec![(id, 1)], "{sq} in {dealt:?}");
                assert_eq!(
                    dealt.occupant(sq),
                    Some(Occupant::Hidden { controller: sq.half(), identity: Some(id) })
                );
            }
            // The deal does not change what may be played.
            assert_eq!(move_set(&dealt), move_set(&pos));
            // Forgetting the deal gives the public position back.
            let mut public = dealt;
            public.clear_deal();
            assert_eq!(public, pos);
            assert_eq!(public.hash(), pos.hash());
            // A flip reveals the dealt identity; another identity is refused.
            let flips: Vec<Move> =
                dealt.legal_move_list().iter().copied().filter(|&m| dealt.is_flip(m)).collect();
            if !flips.is_empty() {
                let mv = flips[rng.below(flips.len())];
                let id = ids[pos.hidden().position(|s| s == mv.from()).unwrap()];
                let mut after = dealt;
                after.play(mv, Reveal::default()).unwrap();
                assert_eq!(after.occupant(mv.to()), Some(Occupant::Revealed(id)));
                assert_eq!(after.hash(), after.compute_hash());
                let other = Piece::new(id.color, if id.role == Role::Pawn { Role::Rook } else { Role::Pawn });
                let mut refused = dealt;
                assert_eq!(
                    refused.play(mv, Reveal { flip: Some(other), captured: None }),
                    Err(PlayError::WrongFlip(mv, other))
                );
                assert_eq!(refused, dealt);
            }
            // Deals that do not fit are refused and change nothing.
            let mut bad = pos;
            assert!(!bad.set_deal(&ids[1..]));
            let mut too_many = ids.clone();
            too_many[0] = Piece::new(too_many[0].color, Role::King);
            assert!(!bad.set_deal(&too_many));
            if pos.variant() == Variant::Jieqi {
                let mut wrong_colour = ids.clone();
                wrong_colour[0] = Piece::new(!wrong_colour[0].color, wrong_colour[0].role);
                assert!(!bad.set_deal(&wrong_colour));
            }
            let mut over: Vec<Piece> = ids.clone();
            let first = over[0];
            let room = pos.pool().count(first) as usize;
            let same_group: Vec<usize> = pos
                .hidden()
                .enumerate()
                .filter(|&(_, s)| drawable(pos.variant(), s, first))
                .map(|(i, _)| i)
                .collect();
            if same_group.len() > room {
                for &i in &same_group {
                    over[i] = first;
                }
                assert!(!bad.set_deal(&over), "{over:?} exceeds the pool of {pos:?}");
            }
            assert_eq!(bad, pos);
            assert!(!bad.is_dealt());
        }
    }
}

proptest! {
    #![proptest_config(config(160))]

    #[test]
    fn count_legal_matches_the_list(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 150, deal) {
            let list = pos.legal_move_list();
            assert_eq!(pos.count_legal(), list.len(), "{pos:?}");
            assert_eq!(pos.has_no_moves(), list.is_empty());
            let distinct: BTreeSet<Move> = list.iter().copied().collect();
            assert_eq!(distinct.len(), list.len(), "duplicate moves in {pos:?}");
        }
    }

    #[test]
    fn incremental_hash_matches_recomputation(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for step in random_game(index, seed, 150, deal) {
            let after = &step.after;
            assert_eq!(after.hash(), after.compute_hash(), "{} {:?} from {:?}",
                step.mv, step.reveal, step.before);
            // The checked and the unchecked path agree.
            if step.reveal.captured.is_none() {
                let flip = if step.before.is_flip(step.mv) {
                    match after.occupant(step.mv.to()) {
                        Some(Occupant::Revealed(p)) => Some(p),
                        other => panic!("flip left {other:?}"),
                    }
                } else {
                    None
                };
                let mut alt = step.before;
                alt.play_unchecked(step.mv, flip);
                assert_eq!(alt, *after);
                assert_eq!(alt.hash(), after.hash());
            }
            // Forgetting and re-dealing keeps the hash in step.
            if after.is_dealt() {
                let mut public = *after;
                public.clear_deal();
                assert_eq!(public.hash(), public.compute_hash());
            }
        }
    }

    #[test]
    fn pools_cover_the_face_down_pieces(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        let all = positions(index, seed, 150, deal);
        let initial = identity_totals(&all[0]);
        for pos in &all {
            check_pools(pos);
            // Identities are never created: face up + unseen + known captured only shrinks.
            let now = identity_totals(pos);
            for i in 0..IDENTITIES {
                assert!(now[i] <= initial[i], "{} grew in {pos:?}", identity_piece(i));
            }
        }
    }
}

/// Plays a random game through `Game` and checks `repetitions()` and `result()` against a
/// reference reading of the end-of-game rules after every ply.
fn check_game_results(index: usize, seed: u64, max_plies: usize) {
    let mut rng = Rng::new(seed);
    let all = starts();
    let start = all[index % all.len()];
    let mut game = Game::new(start);
    // Hashes of the positions that can still repeat: from the one right after the last
    // capture or flip (or the start) to now.
    let mut history = vec![start.hash()];
    for _ in 0..max_plies {
        let pos = *game.position();
        let list = pos.legal_move_list();
        let reps = history.iter().filter(|&&h| h == pos.hash()).count();
        assert_eq!(
            game.repetitions(),
            reps,
            "occurrences of {pos:?} (ply {}, {} plies since the last capture or flip or the start)",
            game.len(),
            history.len() - 1
        );
        let result = game.result();
        if list.is_empty() {
            let reason = if pos.in_check() {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMoves
            };
            let winner = !pos.side_to_move();
            assert_eq!(result, Some(GameResult::Win { winner, reason }), "{pos:?}");
            return;
        }
        if pos.variant() != Variant::Jieqi && reps >= 3 {
            assert!(
                matches!(
                    result,
                    Some(GameResult::Draw(DrawReason::Repetition))
                        | Some(GameResult::Draw(DrawReason::MutualPerpetualCheck))
                        | Some(GameResult::Win {
                            reason: WinReason::PerpetualCheck,
                            ..
                        })
                ),
                "{result:?} at the third occurrence of {pos:?}"
            );
            return;
        }
        if pos.halfmove_clock() >= 120 {
            assert_eq!(result, Some(GameResult::Draw(DrawReason::NoCapture)));
            return;
        }
        assert_eq!(result, None, "{pos:?}");
        let mv = list.as_slice()[rng.below(list.len())];
        let reveal = random_reveal(&pos, mv, &mut rng);
        let irreversible = pos.is_flip(mv) || (!mv.is_pass() && pos.occupant(mv.to()).is_some());
        game.play(mv, reveal).unwrap();
        assert_eq!(game.position().hash(), game.position().compute_hash());
        if irreversible {
            history.clear();
        }
        history.push(game.position().hash());
    }
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn game_results_follow_the_rules(index in 0usize..1000, seed in any::<u64>()) {
        check_game_results(index, seed, 300);
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn is_legal_agrees_with_the_list_on_every_from_to_pair(
        index in 0usize..1000, seed in any::<u64>(), deal in any::<bool>()
    ) {
        for pos in positions(index, seed, 60, deal) {
            check_all_pairs(&pos);
        }
    }
}

/// The deterministic part: every start position passes every check.
#[test]
fn start_positions_pass_every_check() {
    let all = starts();
    assert!(all
        .iter()
        .any(|p| p.variant() == Variant::Maniac && p.hidden().count() < 30));
    for pos in all {
        check_moves_safe(pos);
        check_pools(pos);
        check_fen_round_trip(pos);
        check_mirror(pos);
        check_all_pairs(pos);
        assert_eq!(move_set(pos), reference_moves(pos), "{pos:?}");
    }
}

/// A sanity check of the driver: learned captures happen and keep the pools consistent.
#[test]
fn random_games_learn_captured_identities() {
    let mut learned = 0;
    let mut waits = 0;
    for seed in 0..6u64 {
        for index in 0..starts().len() {
            for step in random_game(index, seed * 7919 + index as u64, 60, seed % 2 == 1) {
                if let Some(victim) = step.reveal.captured {
                    learned += 1;
                    assert_eq!(
                        step.after.known_captures().count(victim),
                        step.before.known_captures().count(victim) + 1
                    );
                    let mut expected: Pool = *step.before.pool();
                    if step.before.is_flip(step.mv) {
                        if let Some(Occupant::Revealed(p)) = step.after.occupant(step.mv.to()) {
                            expected.remove(p);
                        }
                    }
                    expected.remove(victim);
                    assert_eq!(*step.after.pool(), expected);
                }
                if step.after.waiting_square().is_some() {
                    waits += 1;
                }
            }
        }
    }
    assert!(learned > 0 && waits > 0, "learned {learned}, waits {waits}");
}
