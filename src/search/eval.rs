//! Static evaluation for all three variants, in centipawns from the side to move's view.
//!
//! Terms: material and square values of revealed pieces (advisors and elephants roam in `jieqi`
//! and `maniac`, so their values there do not depend on the palace); the expected value of each
//! face-down piece over the pool it draws from plus a bonus for its square's role; mobility of
//! chariots, horses and cannons; king safety (attackers near the king, an open file against it);
//! and the no-capture counter pulling the score toward a draw as the 120-ply limit nears.
//! Every term is computed for Red and for Black with mirrored squares, so the evaluation is
//! symmetric by construction.

use crate::core::attacks;
use crate::core::{Bitboard, Color, Occupant, Piece, Position, Role, Square, Variant};

/// Material values (centipawns) by role, `[K, A, B, N, R, C, P]`.
const JIEQI_VALUE: [i32; 7] = [0, 243, 218, 616, 1080, 769, 149];
const XIANGQI_VALUE: [i32; 7] = [0, 200, 200, 420, 950, 470, 90];

/// Bonus for a face-down piece by its square's role (it moves as that role before the flip).
const HIDDEN_ROLE_BONUS: [i32; 7] = [0, 0, 0, 10, 40, 25, 5];

const MOBILITY: [i32; 7] = [0, 0, 0, 8, 5, 3, 0];

/// The evaluation split into its terms (Red minus Black, centipawns), for display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    pub material: i32,
    pub squares: i32,
    pub hidden: i32,
    pub mobility: i32,
    pub king_safety: i32,
    /// Final score from the side to move's view, after the no-capture scaling and tempo.
    pub total: i32,
}

/// Value of a piece kind in this variant.
#[inline(always)]
pub fn piece_value(variant: Variant, role: Role) -> i32 {
    match variant {
        Variant::Xiangqi => XIANGQI_VALUE[role.index()],
        _ => JIEQI_VALUE[role.index()],
    }
}

/// Ranks advanced from the owner's side: 0 on its back rank, 9 on the far one.
#[inline(always)]
fn advance(color: Color, sq: Square) -> i32 {
    let r = sq.rank().index() as i32;
    match color {
        Color::Red => r,
        Color::Black => 9 - r,
    }
}

/// Distance of the file from the centre (0 on file e, 4 on a and i).
#[inline(always)]
fn off_centre(sq: Square) -> i32 {
    (sq.file().index() as i32 - 4).abs()
}

/// Square value of a revealed piece of `color` on `sq`.
fn square_value(variant: Variant, p: Piece, sq: Square) -> i32 {
    let adv = advance(p.color, sq);
    let oc = off_centre(sq);
    match p.role {
        Role::Pawn => {
            if adv >= 5 {
                // Crossed: worth more, most near the enemy palace, less on the last rank.
                let base = if variant == Variant::Xiangqi { 70 } else { 60 };
                let near = if adv <= 8 { (adv - 4) * 8 } else { 12 };
                base + near - oc * 6
            } else {
                adv * 3
            }
        }
        Role::Horse => {
            let centre = 12 - oc * 5;
            let forward = if (3..=7).contains(&adv) { adv * 4 } else { adv };
            centre + forward
        }
        Role::Rook => {
            let forward = if adv >= 5 { 20 } else { adv * 2 };
            forward + if oc <= 1 { 6 } else { 0 }
        }
        Role::Cannon => {
            let centre = if oc == 0 { 18 } else { 6 - oc };
            centre + if adv <= 2 { 4 } else { 0 }
        }
        Role::King => {
            // Stay home on the back rank.
            -(adv * 12) - oc * 4
        }
        Role::Advisor | Role::Elephant => {
            if variant == Variant::Xiangqi {
                // Guards near the king.
                6 - oc * 2
            } else {
                // Roaming guards: mild pull toward the own palace where they defend.
                if adv <= 2 && oc <= 2 {
                    8
                } else {
                    0
                }
            }
        }
    }
}

#[inline(always)]
fn sign(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Expected signed (Red-positive) value of a face-down piece drawing from the pool group of
/// `controller`, times 16, and the weight sum; `None` if the group is empty.
fn hidden_expectation(pos: &Position, controller: Color) -> i32 {
    let variant = pos.variant();
    let mut sum = 0i64;
    let mut n = 0i64;
    for (piece, count) in pos.pool().iter() {
        if variant != Variant::Maniac && piece.color != controller {
            continue;
        }
        sum += (sign(piece.color) * piece_value(variant, piece.role)) as i64 * count as i64;
        n += count as i64;
    }
    if n == 0 {
        // No pool information: value it as its square's role would be (kept symmetric).
        return 0;
    }
    (sum / n) as i32
}

/// The evaluation terms.
/// Square values of revealed pieces, `[xiangqi?][piece index][square]`, built once.
static SQUARE_TABLE: once_cell::sync::Lazy<Box<[[[i32; 90]; 14]; 2]>> =
    once_cell::sync::Lazy::new(|| {
        let mut t = Box::new([[[0i32; 90]; 14]; 2]);
        for (x, variant) in [Variant::Jieqi, Variant::Xiangqi].into_iter().enumerate() {
            for i in 0..14 {
                let p = Piece::from_index(i);
                for sq in Square::all() {
                    t[x][i][sq.index()] = square_value(variant, p, sq);
                }
            }
        }
        t
    });

pub fn terms(pos: &Position) -> Terms {
    let variant = pos.variant();
    let occ = pos.occupied();
    let hidden = pos.hidden();
    let table = &SQUARE_TABLE[(variant == Variant::Xiangqi) as usize];
    let mut t = Terms::default();
    let mut hidden_value = [0i32; 2];
    if hidden.any() {
        hidden_value = [
            hidden_expectation(pos, Color::Red),
            hidden_expectation(pos, Color::Black),
        ];
    }
    for color in Color::ALL {
        let s = sign(color);
        let ours = pos.pieces_of(color);
        for role in Role::ALL {
            let pieces = pos.pieces(color, role);
            if pieces.is_empty() {
                continue;
            }
            let revealed = pieces & !hidden;
            if revealed.any() {
                t.material += s * piece_value(variant, role) * revealed.count() as i32;
                let squares = &table[Piece::new(color, role).index()];
                for sq in revealed {
                    t.squares += s * squares[sq.index()];
                }
            }
            // Face-down pieces moving as `role` (their square's role).
            let face_down = pieces & hidden;
            if face_down.any() {
                let n = face_down.count() as i32;
                t.hidden += n * s * HIDDEN_ROLE_BONUS[role.index()];
                if pos.is_dealt() {
                    for sq in face_down {
                        if let Some(Occupant::Hidden {
                            identity: Some(p), ..
                        }) = pos.occupant(sq)
                        {
                            t.hidden += sign(p.color) * piece_value(variant, p.role);
                        }
                    }
                } else {
                    t.hidden += n * hidden_value[color.index()];
                }
            }
            let w = MOBILITY[role.index()];
            if w != 0 {
                for sq in pieces {
                    let reach = match role {
                        Role::Horse => attacks::horse_attacks(sq, occ.0),
                        _ => pos.rook_attacks_at(sq),
                    } & !ours;
                    t.mobility += s * w * reach.count() as i32;
                }
            }
        }
        t.king_safety += s * king_safety(pos, color, occ);
    }
    let red_view = t.material + t.squares + t.hidden + t.mobility + t.king_safety;
    let mut score = match pos.side_to_move() {
        Color::Red => red_view,
        Color::Black => -red_view,
    };
    score += 12; // tempo
    let hm = pos.halfmove_clock() as i32;
    let limit = variant.no_capture_draw_plies() as i32;
    if hm > limit - 40 {
        score = score * (limit - hm).max(0) / 40;
    }
    t.total = score;
    t
}

/// Penalty for enemy pieces bearing on the king's surroundings and for an exposed king file.
fn king_safety(pos: &Position, color: Color, occ: Bitboard) -> i32 {
    let k = pos.king(color);
    let them = !color;
    let enemy = pos.pieces_of(them);
    let zone = attacks::PALACE[color.index()];
    let mut penalty = 0;
    // Chariots and cannons on the king's file or rank.
    let lines = attacks::rook_lines(k);
    for sq in lines & enemy & pos.occupied() {
        match pos.moving_role(sq) {
            Some(Role::Rook) => {
                let between = (attacks::between(k, sq) & occ).count();
                penalty += if between <= 1 { 30 } else { 8 };
            }
            Some(Role::Cannon) => {
                let between = (attacks::between(k, sq) & occ).count();
                penalty += match between {
                    1 => 40,
                    0 | 2 => 25,
                    _ => 5,
                };
            }
            _ => {}
        }
    }
    // Horses and pawns near the palace.
    for sq in enemy & (pos.pieces(them, Role::Horse) | pos.pieces(them, Role::Pawn)) {
        let near = attacks::horse_attacks(sq, occ.0) | attacks::pawn_attacks(them, sq);
        if (near & zone).any() {
            penalty += 15;
        }
    }
    -penalty
}

/// Largest evaluation (in absolute value) of a position that is not a mate. Expected-score
/// averaging at chance nodes keeps full precision within this range.
pub const EVAL_LIMIT: i32 = 4000;

/// The evaluation from the side to move's view, within `±EVAL_LIMIT`.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    terms(pos).total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
