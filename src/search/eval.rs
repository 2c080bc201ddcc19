//! Static evaluation for all three variants, in centipawns from the side to move's view.
//!
//! Terms: material and square values of revealed pieces (advisors and elephants roam in `jieqi`
//! and `maniac`, so their values there do not depend on the palace); the expected value of each
//! face-down piece over the pool it draws from plus a bonus for its square's role; mobility of
//! chariots, horses and cannons; king safety (attackers near the king, an open file against it);
//! and the no-capture counter pulling the score toward a draw as the 120-ply limit nears.
//! Every term is computed for Red and for Black with mirrored squares, so the evaluation is
//! symmetric by construction.

use once_cell::sync::Lazy;

use crate::core::attacks;
use crate::core::{Bitboard, Color, Occupant, Piece, Position, Role, Square, Variant};

/// The evaluation's weights, in centipawns. Before the no-capture scaling and the clamp the
/// evaluation is a sum of weight times feature ([`features`]), which is what the tuner fits
/// (`jieqi tune`, `docs/strength.md`). Names are stable: weight files use them.
pub mod w {
    /// Revealed pieces, Jieqi and Maniac: advisor, elephant, horse, chariot, cannon, pawn.
    pub const VALUE_J: usize = 0;
    /// Revealed pieces, Xiangqi (same order).
    pub const VALUE_X: usize = 6;
    /// Face-down pieces: the value of each identity they may turn out to be, weighted by its
    /// share of the pool they draw from (same order).
    pub const HIDDEN_VALUE: usize = 12;
    /// Face-down pieces by the role of their square (they move as it before the flip).
    pub const HIDDEN_ROLE: usize = 18;
    /// Mobility per reachable point: horse, chariot, cannon.
    pub const MOBILITY: usize = 24;
    pub const PAWN_CROSSED_J: usize = 27;
    pub const PAWN_CROSSED_X: usize = 28;
    /// Per rank a crossed pawn is past the river (ranks 5 to 8 of its advance).
    pub const PAWN_NEAR: usize = 29;
    /// A pawn on the last rank.
    pub const PAWN_LAST: usize = 30;
    /// Per file a crossed pawn is away from the centre.
    pub const PAWN_OFF_CENTRE: usize = 31;
    /// Per rank an uncrossed pawn has advanced.
    pub const PAWN_ADVANCE: usize = 32;
    pub const HORSE_BASE: usize = 33;
    pub const HORSE_OFF_CENTRE: usize = 34;
    /// Per rank advanced, ranks 3 to 7.
    pub const HORSE_ADVANCE_MID: usize = 35;
    /// Per rank advanced, other ranks.
    pub const HORSE_ADVANCE: usize = 36;
    pub const ROOK_CROSSED: usize = 37;
    pub const ROOK_ADVANCE: usize = 38;
    pub const ROOK_CENTRE: usize = 39;
    pub const CANNON_CENTRE: usize = 40;
    pub const CANNON_SIDE: usize = 41;
    pub const CANNON_OFF_CENTRE: usize = 42;
    pub const CANNON_HOME: usize = 43;
    pub const KING_ADVANCE: usize = 44;
    pub const KING_OFF_CENTRE: usize = 45;
    /// Xiangqi guards (advisors and elephants keep to their palace and half).
    pub const GUARD_X: usize = 46;
    pub const GUARD_X_OFF_CENTRE: usize = 47;
    /// Roaming advisors (Jieqi, Maniac) near the own palace.
    pub const ADVISOR_HOME: usize = 48;
    /// Roaming elephants (Jieqi, Maniac) near the own palace.
    pub const ELEPHANT_HOME: usize = 49;
    pub const TEMPO: usize = 50;
    /// King safety, as penalties: an enemy chariot on the king's line with at most one piece
    /// between, with more; an enemy cannon with exactly one screen, with none or two, with more;
    /// an enemy horse or pawn reaching the palace.
    pub const KS_ROOK_OPEN: usize = 51;
    pub const KS_ROOK_FAR: usize = 52;
    pub const KS_CANNON_SCREEN: usize = 53;
    pub const KS_CANNON_NEAR: usize = 54;
    pub const KS_CANNON_FAR: usize = 55;
    pub const KS_NEAR: usize = 56;
    pub const COUNT: usize = 57;
}

/// One value per weight of [`w`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; w::COUNT]);

/// The weight names, in index order (six names for each per-role group).
pub fn weight_names() -> Vec<String> {
    let roles = ["advisor", "elephant", "horse", "chariot", "cannon", "pawn"];
    let mut names = Vec::with_capacity(w::COUNT);
    for group in ["value_j", "value_x", "hidden_value", "hidden_role"] {
        names.extend(roles.iter().map(|r| format!("{group}_{r}")));
    }
    names.extend(
        [
            "mobility_horse",
            "mobility_chariot",
            "mobility_cannon",
            "pawn_crossed_j",
            "pawn_crossed_x",
            "pawn_near",
            "pawn_last",
            "pawn_off_centre",
            "pawn_advance",
            "horse_base",
            "horse_off_centre",
            "horse_advance_mid",
            "horse_advance",
            "rook_crossed",
            "rook_advance",
            "rook_centre",
            "cannon_centre",
            "cannon_side",
            "cannon_off_centre",
            "cannon_home",
            "king_advance",
            "king_off_centre",
            "guard_x",
            "guard_x_off_centre",
            "advisor_home",
            "elephant_home",
            "tempo",
            "ks_rook_open",
            "ks_rook_far",
            "ks_cannon_screen",
            "ks_cannon_near",
            "ks_cannon_far",
            "ks_near",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    debug_assert_eq!(names.len(), w::COUNT);
    names
}

/// The hand-set weights of the first complete version: the built-in weights of Maniac and
/// Xiangqi.
pub const DEFAULT_WEIGHTS: Weights = Weights([
    // value_j: A B N R C P
    243, 218, 616, 1080, 769, 149, //
    // value_x
    200, 200, 420, 950, 470, 90, //
    // hidden_value
    243, 218, 616, 1080, 769, 149, //
    // hidden_role
    0, 0, 10, 40, 25, 5, //
    // mobility N R C
    8, 5, 3, //
    // pawn: crossed_j crossed_x near last off_centre advance
    60, 70, 8, 12, -6, 3, //
    // horse: base off_centre advance_mid advance
    12, -5, 4, 1, //
    // rook: crossed advance centre
    20, 2, 6, //
    // cannon: centre side off_centre home
    18, 6, -1, 4, //
    // king: advance off_centre
    -12, -4, //
    // guards: x, x off centre, advisor home, elephant home
    6, -2, 8, 8, //
    // tempo
    12, //
    // king safety penalties (negative: they count against the king's side)
    -30, -8, -40, -25, -5, -15,
]);

/// The built-in weights of Jieqi: [`DEFAULT_WEIGHTS`] fitted by `jieqi tune` to self-play and
/// match games in two rounds (docs/strength.md, "Evaluation tuning"); filled in by name below.
pub static JIEQI_WEIGHTS: Lazy<Weights> =
    Lazy::new(|| parse_weights(JIEQI_TUNED).expect("the built-in Jieqi weights read"));

/// The second fit (docs/weights/jieqi-tuned-2.txt): `jieqi tune` from the first fit
/// (docs/weights/jieqi-tuned-1.txt) on 1,138 games (766 self-play games at 30,000 against
/// 40,000 nodes per move and 372 match games at 2+0.02 and 10+0.1), `--iterations 400
/// --l2 3e-8` (61,352 positions, K 0.1856, error 0.105602 -> 0.097270), as it wrote them,
/// except the two roaming-guard terms, set to 0 after matches (docs/strength.md, tests 21 and
/// 23); the file is docs/weights/jieqi-built-in.txt.
const JIEQI_TUNED: &str = "\
value_j_advisor 299
value_j_elephant 246
value_j_horse 624
value_j_chariot 1193
value_j_cannon 766
value_j_pawn 143
value_x_advisor 200
value_x_elephant 200
value_x_horse 420
value_x_chariot 950
value_x_cannon 470
value_x_pawn 90
hidden_value_advisor 238
hidden_value_elephant 180
hidden_value_horse 532
hidden_value_chariot 1084
hidden_value_cannon 661
hidden_value_pawn 134
hidden_role_advisor 14
hidden_role_elephant -10
hidden_role_horse -45
hidden_role_chariot -60
hidden_role_cannon 32
hidden_role_pawn -97
mobility_horse 30
mobility_chariot 47
mobility_cannon 6
pawn_crossed_j 82
pawn_crossed_x 70
pawn_near 69
pawn_last 13
pawn_off_centre -31
pawn_advance 18
horse_base 20
horse_off_centre -29
horse_advance_mid 22
horse_advance 13
rook_crossed 96
rook_advance 36
rook_centre 92
cannon_centre 24
cannon_side -3
cannon_off_centre -37
cannon_home 10
king_advance -58
king_off_centre -14
guard_x 6
guard_x_off_centre -2
advisor_home 0
elephant_home 0
tempo 12
ks_rook_open -48
ks_rook_far -23
ks_cannon_screen -40
ks_cannon_near -31
ks_cannon_far -2
ks_near -29
";

/// Reads a weight file: `name value` per line (names of [`weight_names`]), `#` comments;
/// missing names keep the built-in value.
pub fn parse_weights(text: &str) -> Result<Weights, String> {
    let names = weight_names();
    let mut out = DEFAULT_WEIGHTS.clone();
    for (i, line) in text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let mut it = t.split_whitespace();
        let (Some(name), Some(value), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!("line {}: expected 'name value'", i + 1));
        };
        let idx = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("line {}: unknown weight '{name}'", i + 1))?;
        out.0[idx] = value
            .parse()
            .map_err(|_| format!("line {}: '{value}' is not a whole number", i + 1))?;
    }
    Ok(out)
}

/// Writes weights in the file format of [`parse_weights`].
pub fn format_weights(weights: &Weights) -> String {
    weight_names()
        .iter()
        .zip(weights.0.iter())
        .map(|(n, v)| format!("{n} {v}\n"))
        .collect()
}

/// The built-in weights of `variant`.
pub fn built_in_weights(variant: Variant) -> &'static Weights {
    if variant == Variant::Jieqi {
        &JIEQI_WEIGHTS
    } else {
        &DEFAULT_WEIGHTS
    }
}

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

/// Index of a non-king role within a six-weight group.
#[inline(always)]
fn role_slot(role: Role) -> usize {
    role.index().saturating_sub(1)
}

/// Value of a revealed piece kind with these weights (the variant picks the Xiangqi values or
/// the Jieqi and Maniac ones).
#[inline(always)]
fn piece_value_in(weights: &Weights, variant: Variant, role: Role) -> i32 {
    if role == Role::King {
        return 0;
    }
    let base = match variant {
        Variant::Xiangqi => w::VALUE_X,
        _ => w::VALUE_J,
    };
    weights.0[base + role_slot(role)]
}

/// Value of a face-down piece's identity with these weights.
#[inline(always)]
fn hidden_identity_value(weights: &Weights, role: Role) -> i32 {
    if role == Role::King {
        return 0;
    }
    weights.0[w::HIDDEN_VALUE + role_slot(role)]
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

/// The square features of a revealed piece of `p.color` on `sq`: at most four (weight, amount).
fn square_features(variant: Variant, p: Piece, sq: Square) -> Vec<(usize, i32)> {
    let adv = advance(p.color, sq);
    let oc = off_centre(sq);
    let xiangqi = variant == Variant::Xiangqi;
    let mut f = Vec::with_capacity(4);
    match p.role {
        Role::Pawn => {
            if adv >= 5 {
                // Crossed: worth more, most near the enemy palace, less on the last rank.
                let base = if xiangqi {
                    w::PAWN_CROSSED_X
                } else {
                    w::PAWN_CROSSED_J
                };
                f.push((base, 1));
                if adv <= 8 {
                    f.push((w::PAWN_NEAR, adv - 4));
                } else {
                    f.push((w::PAWN_LAST, 1));
                }
                f.push((w::PAWN_OFF_CENTRE, oc));
            } else {
                f.push((w::PAWN_ADVANCE, adv));
            }
        }
        Role::Horse => {
            f.push((w::HORSE_BASE, 1));
            f.push((w::HORSE_OFF_CENTRE, oc));
            if (3..=7).contains(&adv) {
                f.push((w::HORSE_ADVANCE_MID, adv));
            } else {
                f.push((w::HORSE_ADVANCE, adv));
            }
        }
        Role::Rook => {
            if adv >= 5 {
                f.push((w::ROOK_CROSSED, 1));
            } else {
                f.push((w::ROOK_ADVANCE, adv));
            }
            if oc <= 1 {
                f.push((w::ROOK_CENTRE, 1));
            }
        }
        Role::Cannon => {
            if oc == 0 {
                f.push((w::CANNON_CENTRE, 1));
            } else {
                f.push((w::CANNON_SIDE, 1));
                f.push((w::CANNON_OFF_CENTRE, oc));
            }
            if adv <= 2 {
                f.push((w::CANNON_HOME, 1));
            }
        }
        Role::King => {
            // Stay home on the back rank.
            f.push((w::KING_ADVANCE, adv));
            f.push((w::KING_OFF_CENTRE, oc));
        }
        Role::Advisor | Role::Elephant => {
            if xiangqi {
                // Guards near the king.
                f.push((w::GUARD_X, 1));
                f.push((w::GUARD_X_OFF_CENTRE, oc));
            } else if adv <= 2 && oc <= 2 {
                // Roaming guards: a pull toward the own palace where they defend.
                let idx = if p.role == Role::Advisor {
                    w::ADVISOR_HOME
                } else {
                    w::ELEPHANT_HOME
                };
                f.push((idx, 1));
            }
        }
    }
    f.retain(|&(_, v)| v != 0);
    f
}

/// Square value of a revealed piece of `color` on `sq`.
fn square_value(weights: &Weights, variant: Variant, p: Piece, sq: Square) -> i32 {
    square_features(variant, p, sq)
        .iter()
        .map(|&(i, v)| weights.0[i] * v)
        .sum()
}

#[inline(always)]
fn sign(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Expected signed (Red-positive) value of a face-down piece drawing from the pool group of
/// `controller`; 0 if the group is empty.
fn hidden_expectation(weights: &Weights, pos: &Position, controller: Color) -> i32 {
    let variant = pos.variant();
    let mut sum = 0i64;
    let mut n = 0i64;
    for (piece, count) in pos.pool().iter() {
        if variant != Variant::Maniac && piece.color != controller {
            continue;
        }
        sum +=
            (sign(piece.color) * hidden_identity_value(weights, piece.role)) as i64 * count as i64;
        n += count as i64;
    }
    if n == 0 {
        // No pool information: value it as its square's role would be (kept symmetric).
        return 0;
    }
    (sum / n) as i32
}

#[inline(always)]
fn table_index(variant: Variant) -> usize {
    match variant {
        Variant::Jieqi => 0,
        Variant::Maniac => 1,
        Variant::Xiangqi => 2,
    }
}

/// The evaluation with one set of weights per variant and the square values built from them.
/// Each engine has its own (the weights are an engine option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluator {
    /// Weights by variant (`table_index`).
    weights: [Weights; 3],
    /// Square values of revealed pieces, `[variant][piece index][square]`.
    squares: Box<[[[i32; 90]; 14]; 3]>,
}

static BUILT_IN: Lazy<Evaluator> = Lazy::new(|| Evaluator::new(None));

impl Evaluator {
    /// The evaluation with `weights` in every variant, or with the built-in weights of each.
    pub fn new(weights: Option<&Weights>) -> Evaluator {
        let weights = Variant::ALL.map(|v| weights.unwrap_or_else(|| built_in_weights(v)).clone());
        let mut squares = Box::new([[[0i32; 90]; 14]; 3]);
        for variant in Variant::ALL {
            let x = table_index(variant);
            for i in 0..14 {
                let p = Piece::from_index(i);
                for sq in Square::all() {
                    squares[x][i][sq.index()] = square_value(&weights[x], variant, p, sq);
                }
            }
        }
        Evaluator { weights, squares }
    }

    /// The evaluation with the built-in weights.
    pub fn built_in() -> &'static Evaluator {
        &BUILT_IN
    }

    /// The weights of `variant`.
    #[inline(always)]
    pub fn weights(&self, variant: Variant) -> &Weights {
        &self.weights[table_index(variant)]
    }

    /// Value of a revealed piece kind in `variant`.
    #[inline(always)]
    pub fn piece_value(&self, variant: Variant, role: Role) -> i32 {
        piece_value_in(self.weights(variant), variant, role)
    }

    /// The evaluation from the side to move's view, within `±EVAL_LIMIT`; `draw_scaling` pulls
    /// it toward a draw over the last 40 plies before the no-capture limit.
    #[inline]
    pub fn evaluate(&self, pos: &Position, draw_scaling: bool) -> i32 {
        self.terms(pos, draw_scaling)
            .total
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The evaluation terms (see [`Evaluator::evaluate`] for `draw_scaling`).
    pub fn terms(&self, pos: &Position, draw_scaling: bool) -> Terms {
        let variant = pos.variant();
        let wt = self.weights(variant);
        terms_with(pos, wt, &self.squares[table_index(variant)], draw_scaling)
    }
}

/// The evaluation terms with weights `weights` and their square values `table`.
fn terms_with(
    pos: &Position,
    weights: &Weights,
    table: &[[i32; 90]; 14],
    draw_scaling: bool,
) -> Terms {
    let variant = pos.variant();
    let occ = pos.occupied();
    let hidden = pos.hidden();
    let wt = &weights.0;
    let mut t = Terms::default();
    let mut hidden_value = [0i32; 2];
    if hidden.any() {
        hidden_value = [
            hidden_expectation(weights, pos, Color::Red),
            hidden_expectation(weights, pos, Color::Black),
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
                t.material += s * piece_value_in(weights, variant, role) * revealed.count() as i32;
                let squares = &table[Piece::new(color, role).index()];
                for sq in revealed {
                    t.squares += s * squares[sq.index()];
                }
            }
            // Face-down pieces moving as `role` (their square's role).
            let face_down = pieces & hidden;
            if face_down.any() {
                let n = face_down.count() as i32;
                if role != Role::King {
                    t.hidden += n * s * wt[w::HIDDEN_ROLE + role_slot(role)];
                }
                if pos.is_dealt() {
                    for sq in face_down {
                        if let Some(Occupant::Hidden {
                            identity: Some(p), ..
                        }) = pos.occupant(sq)
                        {
                            t.hidden += sign(p.color) * hidden_identity_value(weights, p.role);
                        }
                    }
                } else {
                    t.hidden += n * hidden_value[color.index()];
                }
            }
            if let Some(m) = mobility_slot(role) {
                let weight = wt[w::MOBILITY + m];
                for sq in pieces {
                    t.mobility += s * weight * mobility(pos, role, sq, occ, ours);
                }
            }
        }
        t.king_safety += s * king_safety(pos, color, occ, wt);
    }
    let red_view = t.material + t.squares + t.hidden + t.mobility + t.king_safety;
    let mut score = match pos.side_to_move() {
        Color::Red => red_view,
        Color::Black => -red_view,
    };
    score += wt[w::TEMPO];
    let hm = pos.halfmove_clock() as i32;
    let limit = variant.no_capture_draw_plies() as i32;
    if hm > limit - 40 && draw_scaling {
        score = score * (limit - hm).max(0) / 40;
    }
    t.total = score;
    t
}

/// Which mobility weight a role uses.
#[inline(always)]
fn mobility_slot(role: Role) -> Option<usize> {
    match role {
        Role::Horse => Some(0),
        Role::Rook => Some(1),
        Role::Cannon => Some(2),
        _ => None,
    }
}

/// Points a horse, chariot or cannon (or a face-down piece moving as one) on `sq` reaches,
/// not counting its own side's pieces (cannons counted as chariots).
#[inline(always)]
fn mobility(pos: &Position, role: Role, sq: Square, occ: Bitboard, ours: Bitboard) -> i32 {
    let reach = match role {
        Role::Horse => attacks::horse_attacks(sq, occ.0),
        _ => pos.rook_attacks_at(sq),
    } & !ours;
    reach.count() as i32
}

/// King-safety feature counts for `color`'s king, in the order of the `KS_*` weights.
fn king_safety_counts(pos: &Position, color: Color, occ: Bitboard) -> [i32; 6] {
    let k = pos.king(color);
    let them = !color;
    let enemy = pos.pieces_of(them);
    let zone = attacks::PALACE[color.index()];
    let mut c = [0i32; 6];
    // Chariots and cannons on the king's file or rank.
    let lines = attacks::rook_lines(k);
    for sq in lines & enemy & pos.occupied() {
        match pos.moving_role(sq) {
            Some(Role::Rook) => {
                let between = (attacks::between(k, sq) & occ).count();
                c[if between <= 1 { 0 } else { 1 }] += 1;
            }
            Some(Role::Cannon) => {
                let between = (attacks::between(k, sq) & occ).count();
                c[match between {
                    1 => 2,
                    0 | 2 => 3,
                    _ => 4,
                }] += 1;
            }
            _ => {}
        }
    }
    // Horses and pawns near the palace.
    for sq in enemy & (pos.pieces(them, Role::Horse) | pos.pieces(them, Role::Pawn)) {
        let near = attacks::horse_attacks(sq, occ.0) | attacks::pawn_attacks(them, sq);
        if (near & zone).any() {
            c[5] += 1;
        }
    }
    c
}

/// King safety of `color` (the weights are penalties, so this is at most 0 by default).
fn king_safety(pos: &Position, color: Color, occ: Bitboard, wt: &[i32; w::COUNT]) -> i32 {
    let c = king_safety_counts(pos, color, occ);
    (0..6).map(|i| c[i] * wt[w::KS_ROOK_OPEN + i]).sum()
}

/// The features of `pos` from Red's point of view: the evaluation before the no-capture
/// scaling and the clamp is `sum(weights[i] * features[i])` (the face-down expectation exactly,
/// where the evaluation rounds it), with the tempo feature +1 when Red is to move and -1 when
/// Black is. For the tuner.
pub fn features(pos: &Position) -> [f64; w::COUNT] {
    let variant = pos.variant();
    let occ = pos.occupied();
    let hidden = pos.hidden();
    let mut f = [0f64; w::COUNT];
    // Each controller's expected identity mix: per role, the signed share of the pool.
    let mut mix = [[0f64; 6]; 2];
    for controller in Color::ALL {
        let mut n = 0u32;
        let mut counts = [0f64; 6];
        for (piece, count) in pos.pool().iter() {
            if variant != Variant::Maniac && piece.color != controller {
                continue;
            }
            if piece.role != Role::King {
                counts[role_slot(piece.role)] += sign(piece.color) as f64 * count as f64;
            }
            n += count as u32;
        }
        if n > 0 {
            for r in 0..6 {
                mix[controller.index()][r] = counts[r] / n as f64;
            }
        }
    }
    for color in Color::ALL {
        let s = sign(color) as f64;
        let ours = pos.pieces_of(color);
        for role in Role::ALL {
            let pieces = pos.pieces(color, role);
            for sq in pieces & !hidden {
                if role != Role::King {
                    let base = if variant == Variant::Xiangqi {
                        w::VALUE_X
                    } else {
                        w::VALUE_J
                    };
                    f[base + role_slot(role)] += s;
                }
                for (i, v) in square_features(variant, Piece::new(color, role), sq) {
                    f[i] += s * v as f64;
                }
            }
            for sq in pieces & hidden {
                if role != Role::King {
                    f[w::HIDDEN_ROLE + role_slot(role)] += s;
                }
                match pos.occupant(sq) {
                    Some(Occupant::Hidden {
                        identity: Some(p), ..
                    }) if pos.is_dealt() => {
                        if p.role != Role::King {
                            f[w::HIDDEN_VALUE + role_slot(p.role)] += sign(p.color) as f64;
                        }
                    }
                    _ => {
                        for r in 0..6 {
                            f[w::HIDDEN_VALUE + r] += mix[color.index()][r];
                        }
                    }
                }
            }
            if let Some(m) = mobility_slot(role) {
                for sq in pieces {
                    f[w::MOBILITY + m] += s * mobility(pos, role, sq, occ, ours) as f64;
                }
            }
        }
        let c = king_safety_counts(pos, color, occ);
        for i in 0..6 {
            f[w::KS_ROOK_OPEN + i] += s * c[i] as f64;
        }
    }
    f[w::TEMPO] = sign(pos.side_to_move()) as f64;
    f
}

/// Largest evaluation (in absolute value) of a position that is not a mate. Expected-score
/// averaging at chance nodes keeps full precision within this range.
pub const EVAL_LIMIT: i32 = 4000;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The Red-view evaluation before the no-capture scaling and the clamp.
    fn red_view(pos: &Position) -> i32 {
        let t = Evaluator::built_in().terms(pos, false);
        t.material
            + t.squares
            + t.hidden
            + t.mobility
            + t.king_safety
            + sign(pos.side_to_move()) * built_in_weights(pos.variant()).0[w::TEMPO]
    }

    #[test]
    fn the_evaluation_is_the_weighted_sum_of_its_features() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for variant in [Variant::Jieqi, Variant::Maniac, Variant::Xiangqi] {
            for _game in 0..40 {
                let mut pos = Position::startpos(variant);
                for _ply in 0..80 {
                    let f = features(&pos);
                    let wt = &built_in_weights(variant).0;
                    let sum: f64 = (0..w::COUNT).map(|i| f[i] * wt[i] as f64).sum();
                    // The evaluation rounds each controller's expected face-down value down.
                    let slack = pos.hidden().count() as f64 + 1e-6;
                    let e = red_view(&pos) as f64;
                    assert!(
                        (sum - e).abs() <= slack,
                        "{variant:?} {}: features {sum} vs evaluation {e}",
                        pos.fen()
                    );
                    checked += 1;
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                    let flip = pos.is_flip(mv).then(|| {
                        let outs = pos.flip_outcomes(mv.from());
                        let o = outs.as_slice();
                        o[rng.gen_range(0..o.len())].0
                    });
                    pos.play_unchecked(mv, flip);
                }
            }
        }
        assert!(checked > 5000);
    }

    #[test]
    fn weight_files_round_trip_and_refuse_bad_lines() {
        let names = weight_names();
        assert_eq!(names.len(), w::COUNT);
        let mut seen = std::collections::HashSet::new();
        assert!(names.iter().all(|n| seen.insert(n.clone())), "unique names");
        let text = format_weights(&DEFAULT_WEIGHTS);
        assert_eq!(parse_weights(&text).unwrap(), DEFAULT_WEIGHTS);
        let w2 = parse_weights("# tuned\ntempo 20\nvalue_j_pawn 150 # comment\n").unwrap();
        assert_eq!(w2.0[w::TEMPO], 20);
        assert_eq!(w2.0[w::VALUE_J + 5], 150);
        assert_eq!(w2.0[w::VALUE_X], DEFAULT_WEIGHTS.0[w::VALUE_X]);
        assert!(parse_weights("tempo").is_err());
        assert!(parse_weights("tempo x").is_err());
        assert!(parse_weights("nosuch 3").is_err());
        assert!(parse_weights("tempo 3 4").is_err());
    }

    #[test]
    fn the_weight_files_in_docs_are_the_built_in_weights() {
        let handset = include_str!("../../docs/weights/handset.txt");
        assert_eq!(parse_weights(handset).unwrap(), DEFAULT_WEIGHTS);
        let built_in = include_str!("../../docs/weights/jieqi-built-in.txt");
        assert_eq!(parse_weights(built_in).unwrap(), *JIEQI_WEIGHTS);
        // The second fit as the tuner wrote it differs in the roaming-guard terms only.
        let tuned = parse_weights(include_str!("../../docs/weights/jieqi-tuned-2.txt")).unwrap();
        let differ: Vec<usize> = (0..tuned.0.len())
            .filter(|&i| tuned.0[i] != JIEQI_WEIGHTS.0[i])
            .collect();
        assert_eq!(differ, vec![w::ADVISOR_HOME, w::ELEPHANT_HOME]);
        // The first fit is kept for comparison matches (`WeightsFile`).
        let first = include_str!("../../docs/weights/jieqi-tuned-1.txt");
        assert_ne!(parse_weights(first).unwrap(), *JIEQI_WEIGHTS);
        assert_eq!(built_in_weights(Variant::Maniac), &DEFAULT_WEIGHTS);
        assert_eq!(built_in_weights(Variant::Xiangqi), &DEFAULT_WEIGHTS);
    }
}
