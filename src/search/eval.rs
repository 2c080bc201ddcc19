//! Static evaluation for all three variants, in centipawns from the side to move's view.
//!
//! Terms: material and square values of revealed pieces (advisors and elephants roam in `jieqi`
//! and `maniac`, so their values there do not depend on the palace); the expected value of each
//! face-down piece over the pool it draws from plus a bonus for its square's role; mobility of
//! chariots, horses and cannons; king safety (attackers near the king, an open file against it);
//! and the no-capture counter pulling the score toward a draw as the 120-ply limit nears.
//! Every weight has a middle-game and an end-game value; the evaluation blends the two sums by
//! the game phase (the chariots, horses and cannons left on the board, face-down ones counted by
//! the role they move as). Every term is computed for Red and for Black with mirrored squares,
//! so the evaluation is symmetric by construction.

use once_cell::sync::Lazy;

use crate::core::attacks;
use crate::core::{Bitboard, Color, Occupant, Piece, Position, Role, Square, Variant};

/// The evaluation's named terms, in centipawns, by name in index order; the square weights
/// ([`w::SQUARE`]) follow them (see [`weight_names`] for the whole list). Before the
/// no-capture scaling and the clamp the evaluation is a sum of weight times feature
/// ([`features`]), which is what the tuner fits (`jieqi tune`, `docs/strength.md`). Names are
/// stable: weight files use them. Per-role groups list advisor, elephant, horse, chariot,
/// cannon, pawn; the index constants of [`w`] are looked up here.
const CORE_NAMES: &[&str] = &[
    "value_j_advisor",
    "value_j_elephant",
    "value_j_horse",
    "value_j_chariot",
    "value_j_cannon",
    "value_j_pawn",
    "value_x_advisor",
    "value_x_elephant",
    "value_x_horse",
    "value_x_chariot",
    "value_x_cannon",
    "value_x_pawn",
    "hidden_value_advisor",
    "hidden_value_elephant",
    "hidden_value_horse",
    "hidden_value_chariot",
    "hidden_value_cannon",
    "hidden_value_pawn",
    "hidden_role_advisor",
    "hidden_role_elephant",
    "hidden_role_horse",
    "hidden_role_chariot",
    "hidden_role_cannon",
    "hidden_role_pawn",
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
];

/// Whether two names are equal (for the index constants, computed at compile time).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The index of a weight in [`CORE_NAMES`] (a compile error if there is none).
const fn index_of(name: &str) -> usize {
    let mut i = 0;
    while i < CORE_NAMES.len() {
        if same(CORE_NAMES[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("no weight of that name")
}

/// Indices of the weights and weight groups in [`weight_names`].
pub mod w {
    use super::index_of;

    /// Revealed pieces, Jieqi and Maniac (six roles).
    pub const VALUE_J: usize = index_of("value_j_advisor");
    /// Revealed pieces, Xiangqi (six roles).
    pub const VALUE_X: usize = index_of("value_x_advisor");
    /// Face-down pieces: the value of each identity they may turn out to be, weighted by its
    /// share of the pool they draw from (six roles).
    pub const HIDDEN_VALUE: usize = index_of("hidden_value_advisor");
    /// Face-down pieces by the role of their square (they move as it before the flip).
    pub const HIDDEN_ROLE: usize = index_of("hidden_role_advisor");
    /// Mobility per reachable point: horse, chariot, cannon.
    pub const MOBILITY: usize = index_of("mobility_horse");
    pub const PAWN_CROSSED_J: usize = index_of("pawn_crossed_j");
    pub const PAWN_CROSSED_X: usize = index_of("pawn_crossed_x");
    /// Per rank a crossed pawn is past the river (ranks 5 to 8 of its advance).
    pub const PAWN_NEAR: usize = index_of("pawn_near");
    /// A pawn on the last rank.
    pub const PAWN_LAST: usize = index_of("pawn_last");
    /// Per file a crossed pawn is away from the centre.
    pub const PAWN_OFF_CENTRE: usize = index_of("pawn_off_centre");
    /// Per rank an uncrossed pawn has advanced.
    pub const PAWN_ADVANCE: usize = index_of("pawn_advance");
    pub const HORSE_BASE: usize = index_of("horse_base");
    pub const HORSE_OFF_CENTRE: usize = index_of("horse_off_centre");
    /// Per rank advanced, ranks 3 to 7.
    pub const HORSE_ADVANCE_MID: usize = index_of("horse_advance_mid");
    /// Per rank advanced, other ranks.
    pub const HORSE_ADVANCE: usize = index_of("horse_advance");
    pub const ROOK_CROSSED: usize = index_of("rook_crossed");
    pub const ROOK_ADVANCE: usize = index_of("rook_advance");
    pub const ROOK_CENTRE: usize = index_of("rook_centre");
    pub const CANNON_CENTRE: usize = index_of("cannon_centre");
    pub const CANNON_SIDE: usize = index_of("cannon_side");
    pub const CANNON_OFF_CENTRE: usize = index_of("cannon_off_centre");
    pub const CANNON_HOME: usize = index_of("cannon_home");
    pub const KING_ADVANCE: usize = index_of("king_advance");
    pub const KING_OFF_CENTRE: usize = index_of("king_off_centre");
    /// Xiangqi guards (advisors and elephants keep to their palace and half).
    pub const GUARD_X: usize = index_of("guard_x");
    pub const GUARD_X_OFF_CENTRE: usize = index_of("guard_x_off_centre");
    /// Roaming advisors (Jieqi, Maniac) near the own palace.
    pub const ADVISOR_HOME: usize = index_of("advisor_home");
    /// Roaming elephants (Jieqi, Maniac) near the own palace.
    pub const ELEPHANT_HOME: usize = index_of("elephant_home");
    pub const TEMPO: usize = index_of("tempo");
    /// King safety, as penalties (six in a row): an enemy chariot on the king's line with at
    /// most one piece between, with more; an enemy cannon with exactly one screen, with none or
    /// two, with more; an enemy horse or pawn reaching the palace.
    pub const KS_ROOK_OPEN: usize = index_of("ks_rook_open");
    /// The named terms; every weight file names each of them.
    pub const CORE: usize = super::CORE_NAMES.len();
    /// Square weights: a revealed piece's value on its square, beyond the named square terms,
    /// per role (king, advisor, elephant, horse, chariot, cannon, pawn; 50 each), per file
    /// away from the centre (0-4, mirrored) and rank from its own back rank (0-9), at
    /// `SQUARE + role * 50 + file * 10 + rank`. A weight file may leave them out (0).
    pub const SQUARE: usize = CORE;
    pub const SQUARE_PER_ROLE: usize = 50;
    /// The weights of one phase: the named terms and the square weights.
    pub const PER_PHASE: usize = CORE + 7 * SQUARE_PER_ROLE;
    /// The end-game weights (`eg_<name>`) follow the middle-game ones in the same order: the
    /// end-game weight of index `i` is at `EG + i`. A weight file that leaves an end-game
    /// weight out gives it the middle-game value.
    pub const EG: usize = PER_PHASE;
    pub const COUNT: usize = 2 * PER_PHASE;
}

/// The game phase of a position with all its chariots, horses and cannons (the middle game);
/// 0 is a board without them (the end game).
pub const PHASE_MAX: i32 = 32;

/// The game phase of `pos`, 0 to [`PHASE_MAX`]: four per chariot and two per horse and cannon
/// on the board, of either colour (a face-down piece counts as the role it moves as).
#[inline]
pub fn phase(pos: &Position) -> i32 {
    let count =
        |role: Role| (pos.pieces(Color::Red, role) | pos.pieces(Color::Black, role)).count() as i32;
    (4 * count(Role::Rook) + 2 * (count(Role::Horse) + count(Role::Cannon))).min(PHASE_MAX)
}

/// Blends a middle-game and an end-game value by `phase`.
#[inline(always)]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The index of the square weight of `role` on `sq` for a piece of `color`.
#[inline(always)]
fn square_index(color: Color, role: Role, sq: Square) -> usize {
    w::SQUARE
        + role.index() * w::SQUARE_PER_ROLE
        + off_centre(sq) as usize * 10
        + advance(color, sq) as usize
}

/// Every weight name in index order: the named terms, then the square weights
/// (`sq_<role>_<file from the centre>_<rank from the own back rank>`, e.g. `sq_horse_1_2`), all
/// of them for the middle game; then the same for the end game, named with `eg_` in front.
static NAMES: Lazy<Vec<&'static str>> = Lazy::new(|| {
    let mut names: Vec<&'static str> = CORE_NAMES.to_vec();
    for role in Role::ALL {
        for file in 0..5 {
            for rank in 0..10 {
                let name = format!("sq_{}_{file}_{rank}", role_word(role));
                names.push(Box::leak(name.into_boxed_str()));
            }
        }
    }
    let end_game: Vec<&'static str> = names
        .iter()
        .map(|n| &*Box::leak(format!("eg_{n}").into_boxed_str()))
        .collect();
    names.extend(end_game);
    names
});

/// The word for `role` in the square weights' names.
fn role_word(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Rook => "chariot",
        Role::Cannon => "cannon",
        Role::Pawn => "pawn",
    }
}

/// One value per weight of [`weight_names`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; w::COUNT]);

/// The weight names, in index order.
pub fn weight_names() -> &'static [&'static str] {
    &NAMES
}

/// The hand-set weights: the built-in weights of Maniac, the starting point of the fits, and
/// the values of the names a weight file leaves out (`docs/weights/handset.txt`).
pub static HANDSET_WEIGHTS: Lazy<Weights> = Lazy::new(|| {
    read_weights(None, include_str!("../../docs/weights/handset.txt"))
        .expect("the hand-set weights name every weight")
});

/// The built-in weights of Jieqi: the hand-set ones fitted by `jieqi tune` to self-play and
/// match games in two rounds (`docs/weights/jieqi-built-in.txt`; docs/strength.md,
/// "Evaluation tuning").
pub static JIEQI_WEIGHTS: Lazy<Weights> = Lazy::new(|| {
    read_weights(None, include_str!("../../docs/weights/jieqi-built-in.txt"))
        .expect("the built-in Jieqi weights name every weight")
});

/// The built-in weights of Xiangqi: the hand-set ones fitted by `jieqi tune` to Xiangqi games
/// in three rounds, the second with the square weights, the third with end-game weights of
/// their own (`docs/weights/xiangqi-built-in.txt`; docs/strength.md, "Evaluation weights").
pub static XIANGQI_WEIGHTS: Lazy<Weights> = Lazy::new(|| {
    read_weights(
        None,
        include_str!("../../docs/weights/xiangqi-built-in.txt"),
    )
    .expect("the built-in Xiangqi weights name every weight")
});

/// Why a weight file was refused (lines are 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("line {0}: expected 'name value'")]
    NotNameValue(usize),
    #[error("line {line}: unknown weight '{name}'")]
    UnknownName { line: usize, name: String },
    #[error("line {line}: '{value}' is not a whole number")]
    NotNumber { line: usize, value: String },
    #[error("no value for '{0}'")]
    Missing(&'static str),
}

/// Reads a weight file: `name value` per line (names of [`weight_names`]), `#` comments;
/// missing names keep their hand-set value, missing end-game names the file's middle-game one.
pub fn parse_weights(text: &str) -> Result<Weights, WeightsError> {
    read_weights(Some(&HANDSET_WEIGHTS), text)
}

/// Reads a weight file over `base`, or (`None`) one that must name every named term (square
/// weights it leaves out are 0). End-game weights it leaves out take the middle-game value.
fn read_weights(base: Option<&Weights>, text: &str) -> Result<Weights, WeightsError> {
    let mut out = base.cloned().unwrap_or(Weights([0; w::COUNT]));
    let mut named = [false; w::COUNT];
    for (i, line) in text.lines().enumerate() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        let mut it = t.split_whitespace();
        let (Some(name), Some(value), None) = (it.next(), it.next(), it.next()) else {
            return Err(WeightsError::NotNameValue(i + 1));
        };
        let idx = weight_names()
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| WeightsError::UnknownName {
                line: i + 1,
                name: name.to_string(),
            })?;
        out.0[idx] = value.parse().map_err(|_| WeightsError::NotNumber {
            line: i + 1,
            value: value.to_string(),
        })?;
        named[idx] = true;
    }
    if base.is_none() {
        if let Some(i) = named[..w::CORE].iter().position(|&n| !n) {
            return Err(WeightsError::Missing(CORE_NAMES[i]));
        }
    }
    // An end-game weight left out is the middle-game one.
    for i in 0..w::PER_PHASE {
        if !named[w::EG + i] {
            out.0[w::EG + i] = out.0[i];
        }
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
    match variant {
        Variant::Jieqi => &JIEQI_WEIGHTS,
        Variant::Maniac => &HANDSET_WEIGHTS,
        Variant::Xiangqi => &XIANGQI_WEIGHTS,
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
/// the Jieqi and Maniac ones), in the phase whose weights start at `at` (0 or [`w::EG`]).
#[inline(always)]
fn piece_value_in(weights: &Weights, variant: Variant, role: Role, at: usize) -> i32 {
    if role == Role::King {
        return 0;
    }
    let base = match variant {
        Variant::Xiangqi => w::VALUE_X,
        _ => w::VALUE_J,
    };
    weights.0[at + base + role_slot(role)]
}

/// Value of a face-down piece's identity with these weights, in the phase at `at`.
#[inline(always)]
fn hidden_identity_value(weights: &Weights, role: Role, at: usize) -> i32 {
    if role == Role::King {
        return 0;
    }
    weights.0[at + w::HIDDEN_VALUE + role_slot(role)]
}

/// Value of a face-down piece's square role (the role it moves as) with these weights, on top
/// of its identities' expected value, in the phase at `at`.
#[inline(always)]
fn hidden_role_value(weights: &Weights, role: Role, at: usize) -> i32 {
    if role == Role::King {
        return 0;
    }
    weights.0[at + w::HIDDEN_ROLE + role_slot(role)]
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

/// The square features of a revealed piece of `p.color` on `sq`: at most five (weight, amount),
/// the last its square weight.
fn square_features(variant: Variant, p: Piece, sq: Square) -> Vec<(usize, i32)> {
    let adv = advance(p.color, sq);
    let oc = off_centre(sq);
    let xiangqi = variant == Variant::Xiangqi;
    let mut f = Vec::with_capacity(5);
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
    f.push((square_index(p.color, p.role, sq), 1));
    f
}

/// Square value of a revealed piece of `color` on `sq`, in the phase at `at`.
fn square_value(weights: &Weights, variant: Variant, p: Piece, sq: Square, at: usize) -> i32 {
    square_features(variant, p, sq)
        .iter()
        .map(|&(i, v)| weights.0[at + i] * v)
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
/// each controller (indexed by colour), in the phases at `at[..halves]`; 0 for an empty group.
/// In Maniac both draw from the whole pool. One pass over the pool for all of them.
fn hidden_expectations(
    weights: &Weights,
    pos: &Position,
    at: &[usize; 2],
    halves: usize,
) -> [[i32; 2]; 2] {
    let mut sum = [[0i64; 2]; 2];
    let mut n = [0i64; 2];
    for (piece, count) in pos.pool().iter() {
        let c = piece.color.index();
        n[c] += count as i64;
        for h in 0..halves {
            let value = sign(piece.color) * hidden_identity_value(weights, piece.role, at[h]);
            sum[h][c] += value as i64 * count as i64;
        }
    }
    let whole = pos.variant() == Variant::Maniac;
    let mut out = [[0i32; 2]; 2];
    for h in 0..halves {
        for c in 0..2 {
            let (s, k) = if whole {
                (sum[h][0] + sum[h][1], n[0] + n[1])
            } else {
                (sum[h][c], n[c])
            };
            // No pool information: value it as its square's role would be (kept symmetric).
            out[h][c] = if k == 0 { 0 } else { (s / k) as i32 };
        }
    }
    out
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
    /// Square values of revealed pieces, `[variant][phase][piece index][square]` (phase 0 the
    /// middle game, 1 the end game).
    squares: Box<[SquareTables; 3]>,
    /// Whether the variant's end-game weights differ from its middle-game ones (when they do
    /// not, one sum is the evaluation, whatever the phase).
    tapered: [bool; 3],
}

/// Square values of revealed pieces in the middle and the end game, `[phase][piece][square]`.
type SquareTables = [[[i32; 90]; 14]; 2];

static BUILT_IN: Lazy<Evaluator> = Lazy::new(|| Evaluator::new(None));

impl Evaluator {
    /// The evaluation with `weights` in every variant, or with the built-in weights of each.
    pub fn new(weights: Option<&Weights>) -> Evaluator {
        let weights = Variant::ALL.map(|v| weights.unwrap_or_else(|| built_in_weights(v)).clone());
        let mut squares = Box::new([[[[0i32; 90]; 14]; 2]; 3]);
        for variant in Variant::ALL {
            let x = table_index(variant);
            for (half, at) in [0, w::EG].into_iter().enumerate() {
                for i in 0..14 {
                    let p = Piece::from_index(i);
                    for sq in Square::all() {
                        squares[x][half][i][sq.index()] =
                            square_value(&weights[x], variant, p, sq, at);
                    }
                }
            }
        }
        let tapered = weights
            .each_ref()
            .map(|x| (0..w::PER_PHASE).any(|i| x.0[w::EG + i] != x.0[i]));
        Evaluator {
            weights,
            squares,
            tapered,
        }
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

    /// Value of a revealed piece kind in `variant` (its middle-game weight: the search orders
    /// and prunes captures by it).
    #[inline(always)]
    pub fn piece_value(&self, variant: Variant, role: Role) -> i32 {
        piece_value_in(self.weights(variant), variant, role, 0)
    }

    /// What the flip `from`-`to` gains the mover by the middle-game weights, for move ordering:
    /// the weighted mean square value of the identities it can turn out as on `to`, less the
    /// square-role bonus of a face-down piece on `from` (material cancels out: the identities'
    /// mean stays the mean). Mobility and threats are left to the search.
    pub fn flip_gain(&self, pos: &Position, from: Square, to: Square) -> i32 {
        let variant = pos.variant();
        let x = table_index(variant);
        let role_bonus = pos
            .moving_role(from)
            .map_or(0, |role| hidden_role_value(&self.weights[x], role, 0));
        let outcomes = pos.flip_outcomes(from);
        let total = outcomes.total_weight() as i32;
        if total == 0 {
            return 0;
        }
        let squares = &self.squares[x][0];
        let sum: i32 = outcomes
            .iter()
            .map(|(p, n)| n as i32 * squares[p.index()][to.index()])
            .sum();
        sum / total - role_bonus
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
        let x = table_index(variant);
        terms_with(
            pos,
            &self.weights[x],
            &self.squares[x],
            self.tapered[x],
            draw_scaling,
        )
    }
}

/// The evaluation terms with weights `weights` and their square values `table`: each term is
/// summed with the middle-game and the end-game weights, and the two sums are blended by the
/// position's [`phase`]. Without `tapered` the two sets are equal and the middle-game sum is
/// the evaluation.
fn terms_with(
    pos: &Position,
    weights: &Weights,
    table: &SquareTables,
    tapered: bool,
    draw_scaling: bool,
) -> Terms {
    let variant = pos.variant();
    let occ = pos.occupied();
    let hidden = pos.hidden();
    let wt = &weights.0;
    // The sums with the [middle-game, end-game] weights; only the first when not `tapered`.
    let mut t = [Terms::default(); 2];
    const AT: [usize; 2] = [0, w::EG];
    let halves = if tapered { 2 } else { 1 };
    let hidden_value = if hidden.any() {
        hidden_expectations(weights, pos, &AT, halves)
    } else {
        [[0i32; 2]; 2]
    };
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
                let n = revealed.count() as i32;
                let index = Piece::new(color, role).index();
                for h in 0..halves {
                    t[h].material += s * piece_value_in(weights, variant, role, AT[h]) * n;
                    let squares = &table[h][index];
                    for sq in revealed {
                        t[h].squares += s * squares[sq.index()];
                    }
                }
            }
            // Face-down pieces moving as `role` (their square's role).
            let face_down = pieces & hidden;
            if face_down.any() {
                let n = face_down.count() as i32;
                for h in 0..halves {
                    t[h].hidden += n * s * hidden_role_value(weights, role, AT[h]);
                    if !pos.is_dealt() {
                        t[h].hidden += n * hidden_value[h][color.index()];
                    }
                }
                if pos.is_dealt() {
                    for sq in face_down {
                        if let Some(Occupant::Hidden {
                            identity: Some(p), ..
                        }) = pos.occupant(sq)
                        {
                            for h in 0..halves {
                                t[h].hidden +=
                                    sign(p.color) * hidden_identity_value(weights, p.role, AT[h]);
                            }
                        }
                    }
                }
            }
            if let Some(m) = mobility_slot(role) {
                let reach: i32 = pieces
                    .into_iter()
                    .map(|sq| mobility(pos, role, sq, occ, ours))
                    .sum();
                for h in 0..halves {
                    t[h].mobility += s * wt[AT[h] + w::MOBILITY + m] * reach;
                }
            }
        }
        let c = king_safety_counts(pos, color, occ);
        for h in 0..halves {
            t[h].king_safety += s
                * (0..6)
                    .map(|i| c[i] * wt[AT[h] + w::KS_ROOK_OPEN + i])
                    .sum::<i32>();
        }
    }
    // Untapered, the middle-game sums alone are the evaluation (the full middle-game share).
    let ph = if tapered { phase(pos) } else { PHASE_MAX };
    let score = |h: usize| {
        let x = &t[h];
        let red_view = x.material + x.squares + x.hidden + x.mobility + x.king_safety;
        let own = match pos.side_to_move() {
            Color::Red => red_view,
            Color::Black => -red_view,
        };
        own + wt[AT[h] + w::TEMPO]
    };
    let mut score = blend(score(0), score(1), ph);
    if scales_toward_draw(pos, draw_scaling) {
        let hm = pos.halfmove_clock() as i32;
        let limit = variant.no_capture_draw_plies() as i32;
        score = score * (limit - hm).max(0) / DRAW_SCALING_PLIES as i32;
    }
    let [mg, eg] = t;
    Terms {
        material: blend(mg.material, eg.material, ph),
        squares: blend(mg.squares, eg.squares, ph),
        hidden: blend(mg.hidden, eg.hidden, ph),
        mobility: blend(mg.mobility, eg.mobility, ph),
        king_safety: blend(mg.king_safety, eg.king_safety, ph),
        total: score,
    }
}

/// Over the last plies before the no-capture limit the evaluation (with `draw_scaling`) is
/// scaled toward a draw.
const DRAW_SCALING_PLIES: u32 = 40;

/// Whether the evaluation of `pos` reads the no-capture counter: `draw_scaling` on and the count
/// within the last [`DRAW_SCALING_PLIES`] plies before the limit.
#[inline]
pub(crate) fn scales_toward_draw(pos: &Position, draw_scaling: bool) -> bool {
    draw_scaling
        && pos.halfmove_clock() + DRAW_SCALING_PLIES > pos.variant().no_capture_draw_plies()
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

/// For each colour's palace: the points from which a horse on an empty board or an enemy pawn
/// reaches it. Pieces elsewhere cannot reach it, whatever blocks them.
static NEAR_PALACE: Lazy<[Bitboard; 2]> = Lazy::new(|| {
    Color::ALL.map(|color| {
        let zone = attacks::PALACE[color.index()];
        let mut near = Bitboard::EMPTY;
        for sq in Square::all() {
            let reach = attacks::horse_attacks(sq, 0) | attacks::pawn_attacks(!color, sq);
            if (reach & zone).any() {
                near.set(sq);
            }
        }
        near
    })
});

/// The enemy pieces bearing on `color`'s king: chariots on its file or rank with at most one
/// piece between, cannons with exactly one screen, horses and pawns reaching its palace (the
/// king-safety counts whose weights are the largest).
pub(crate) fn king_attackers(pos: &Position, color: Color) -> i32 {
    let c = king_safety_counts(pos, color, pos.occupied());
    c[0] + c[2] + c[5]
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
    // Horses and pawns near the palace: a horse leap or a pawn step from their point reaches
    // it (either, for both kinds). Only pieces within a leap or a step of it can.
    let candidates =
        (pos.pieces(them, Role::Horse) | pos.pieces(them, Role::Pawn)) & NEAR_PALACE[color.index()];
    for sq in enemy & candidates {
        let near = attacks::horse_attacks(sq, occ.0) | attacks::pawn_attacks(them, sq);
        if (near & zone).any() {
            c[5] += 1;
        }
    }
    c
}

/// The features of `pos` from Red's point of view: the evaluation before the no-capture
/// scaling and the clamp is `sum(weights[i] * features[i])` (the face-down expectation and the
/// phase blend exactly, where the evaluation rounds them), with the tempo feature +1 when Red
/// is to move and -1 when Black is. Each feature of one phase's weights appears twice: times
/// the phase's share for the middle-game weight and times the rest for the end-game one. For
/// the tuner.
pub fn features(pos: &Position) -> [f64; w::COUNT] {
    let f = phase_features(pos);
    let mg = phase(pos) as f64 / PHASE_MAX as f64;
    let mut out = [0f64; w::COUNT];
    for i in 0..w::PER_PHASE {
        out[i] = f[i] * mg;
        out[w::EG + i] = f[i] * (1.0 - mg);
    }
    out
}

/// The features of `pos` for one phase's weights (see [`features`]).
fn phase_features(pos: &Position) -> [f64; w::PER_PHASE] {
    let variant = pos.variant();
    let occ = pos.occupied();
    let hidden = pos.hidden();
    let mut f = [0f64; w::PER_PHASE];
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
    fn red_view(pos: &Position, evaluator: &Evaluator) -> i32 {
        sign(pos.side_to_move()) * evaluator.terms(pos, false).total
    }

    #[test]
    fn the_evaluation_is_the_weighted_sum_of_its_features() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        let mut blended = 0;
        for variant in [Variant::Jieqi, Variant::Maniac, Variant::Xiangqi] {
            // The built-in weights, and the same with end-game weights of their own.
            let built_in = built_in_weights(variant).clone();
            let mut tapered = built_in.clone();
            for i in 0..w::PER_PHASE {
                tapered.0[w::EG + i] = tapered.0[i] * 3 / 4 + (i as i32 % 7) - 3;
            }
            let evaluators = [
                (built_in.clone(), Evaluator::new(Some(&built_in))),
                (tapered.clone(), Evaluator::new(Some(&tapered))),
            ];
            for _game in 0..40 {
                let mut pos = Position::startpos(variant);
                for _ply in 0..80 {
                    let f = features(&pos);
                    for (weights, evaluator) in &evaluators {
                        let wt = &weights.0;
                        let sum: f64 = (0..w::COUNT).map(|i| f[i] * wt[i] as f64).sum();
                        // The evaluation rounds each controller's expected face-down value
                        // down, and the phase blend toward zero.
                        let slack = pos.hidden().count() as f64 + 1.0 + 1e-6;
                        let e = red_view(&pos, evaluator) as f64;
                        assert!(
                            (sum - e).abs() <= slack,
                            "{variant:?} {}: features {sum} vs evaluation {e}",
                            pos.fen()
                        );
                    }
                    let ph = phase(&pos);
                    assert!((0..=PHASE_MAX).contains(&ph));
                    if ph < PHASE_MAX {
                        blended += 1;
                        // End-game weights of their own change the evaluation off the full
                        // middle game.
                    }
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
        assert!(blended > 1000, "{blended} positions past the middle game");
    }

    #[test]
    fn the_phase_blends_middle_and_end_game_weights() {
        let start = Position::startpos(Variant::Xiangqi);
        assert_eq!(phase(&start), PHASE_MAX);
        assert_eq!(phase(&Position::startpos(Variant::Jieqi)), PHASE_MAX);
        let xiangqi = |fen: &str| {
            let setup = crate::core::fen::parse(fen).unwrap();
            Position::from_setup(&setup, Variant::Xiangqi).unwrap().0
        };
        // A chariot and a horse each: 2 * 4 + 2 * 2 of 32.
        let ending = xiangqi("3k5/9/9/9/4r4/9/2h6/9/4H4/R3K4 w - - 0 1");
        assert_eq!(phase(&ending), 12);
        // A heavier end-game chariot: the start (all middle game) evaluates as before, and so
        // does an ending where both sides have a chariot (the change cancels).
        let mut weights = built_in_weights(Variant::Xiangqi).clone();
        let chariot = w::VALUE_X + role_slot(Role::Rook);
        weights.0[w::EG + chariot] += 320;
        let (a, b) = (
            Evaluator::new(Some(built_in_weights(Variant::Xiangqi))),
            Evaluator::new(Some(&weights)),
        );
        assert_eq!(a.evaluate(&start, false), b.evaluate(&start, false));
        assert_eq!(a.evaluate(&ending, false), b.evaluate(&ending, false));
        let lone = xiangqi("3k5/9/9/9/9/9/2h6/9/4H4/R3K4 w - - 0 1");
        // Phase 8: Red's chariot and two horses; the end-game share is 24/32 of 320.
        assert_eq!(phase(&lone), 8);
        assert_eq!(
            b.evaluate(&lone, false) - a.evaluate(&lone, false),
            320 * 24 / 32
        );
        // A weight file that names no end-game weight gives each the middle-game value.
        let read = parse_weights("value_x_pawn 77\n").unwrap();
        assert_eq!(read.0[w::EG + w::VALUE_X + 5], 77);
        let read = parse_weights("value_x_pawn 77\neg_value_x_pawn 120\n").unwrap();
        assert_eq!(
            (read.0[w::VALUE_X + 5], read.0[w::EG + w::VALUE_X + 5]),
            (77, 120)
        );
    }

    #[test]
    fn weight_files_round_trip_and_refuse_bad_lines() {
        let mut seen = std::collections::HashSet::new();
        assert!(
            weight_names().iter().all(|n| seen.insert(*n)),
            "unique names"
        );
        assert_eq!(
            (w::VALUE_X, w::TEMPO, w::CORE, w::PER_PHASE),
            (6, 50, 57, 407)
        );
        assert_eq!((w::EG, w::COUNT), (407, 814));
        assert_eq!(weight_names()[w::EG + w::TEMPO], "eg_tempo");
        // Square weights: mirrored files, ranks from the piece's own side.
        let (b2, h7) = (Square::parse("b2").unwrap(), Square::parse("h7").unwrap());
        let i = square_index(Color::Red, Role::Cannon, b2);
        assert_eq!(weight_names()[i], "sq_cannon_3_2");
        assert_eq!(square_index(Color::Black, Role::Cannon, h7), i);
        assert_eq!(weight_names()[w::PER_PHASE - 1], "sq_pawn_4_9");
        assert_eq!(weight_names()[w::COUNT - 1], "eg_sq_pawn_4_9");
        assert_eq!(weight_names()[w::KS_ROOK_OPEN + 5], "ks_near");
        let text = format_weights(&JIEQI_WEIGHTS);
        assert_eq!(parse_weights(&text).unwrap(), *JIEQI_WEIGHTS);
        let w2 = parse_weights("# tuned\ntempo 20\nvalue_j_pawn 150 # comment\n").unwrap();
        assert_eq!(w2.0[w::TEMPO], 20);
        assert_eq!(w2.0[w::VALUE_J + 5], 150);
        assert_eq!(w2.0[w::VALUE_X], HANDSET_WEIGHTS.0[w::VALUE_X]);
        assert!(parse_weights("tempo").is_err());
        assert!(parse_weights("tempo x").is_err());
        assert!(parse_weights("nosuch 3").is_err());
        assert!(parse_weights("tempo 3 4").is_err());
        // A file read without a base must name every weight.
        let missing = read_weights(None, "tempo 3").unwrap_err();
        assert_eq!(missing, WeightsError::Missing("value_j_advisor"));
        assert_eq!(missing.to_string(), "no value for 'value_j_advisor'");
    }

    #[test]
    fn the_weight_files_in_docs_are_complete_and_the_fits_differ_as_documented() {
        let read = |text: &str| read_weights(None, text).expect("a complete weight file");
        let tuned = read(include_str!("../../docs/weights/jieqi-tuned-2.txt"));
        // The built-in Jieqi weights are the second fit with the roaming-guard terms at 0.
        let differ: Vec<usize> = (0..w::COUNT)
            .filter(|&i| tuned.0[i] != JIEQI_WEIGHTS.0[i])
            .collect();
        let (advisor, elephant) = (w::ADVISOR_HOME, w::ELEPHANT_HOME);
        assert_eq!(
            differ,
            vec![advisor, elephant, w::EG + advisor, w::EG + elephant]
        );
        assert_eq!(JIEQI_WEIGHTS.0[w::ADVISOR_HOME], 0);
        // The first fit is kept for comparison matches (`WeightsFile`).
        let first = read(include_str!("../../docs/weights/jieqi-tuned-1.txt"));
        assert_ne!(first, *JIEQI_WEIGHTS);
        assert_ne!(*HANDSET_WEIGHTS, *JIEQI_WEIGHTS);
        // The first two Xiangqi fits are kept for comparison matches too; the second gave the
        // square weights values, the third (built in) the end-game weights their own.
        let xiangqi_1 = read(include_str!("../../docs/weights/xiangqi-fit-1.txt"));
        let xiangqi_2 = read(include_str!("../../docs/weights/xiangqi-fit-2.txt"));
        assert_ne!(xiangqi_1, *XIANGQI_WEIGHTS);
        assert_ne!(xiangqi_2, *XIANGQI_WEIGHTS);
        assert!(xiangqi_1.0[w::SQUARE..w::PER_PHASE].iter().all(|&v| v == 0));
        assert!(xiangqi_1.0[w::EG + w::SQUARE..].iter().all(|&v| v == 0));
        assert!(xiangqi_2.0[w::SQUARE..w::PER_PHASE].iter().any(|&v| v != 0));
        let own_end_game = |x: &Weights| (0..w::PER_PHASE).any(|i| x.0[w::EG + i] != x.0[i]);
        assert!(!own_end_game(&xiangqi_2) && !own_end_game(&JIEQI_WEIGHTS));
        assert!(own_end_game(&XIANGQI_WEIGHTS));
        assert_eq!(built_in_weights(Variant::Maniac), &*HANDSET_WEIGHTS);
        assert_eq!(built_in_weights(Variant::Xiangqi), &*XIANGQI_WEIGHTS);
        assert_eq!(built_in_weights(Variant::Jieqi), &*JIEQI_WEIGHTS);
    }

    /// The Xiangqi fit moved only weights that the Xiangqi evaluation reads (the others have no
    /// gradient in Xiangqi positions and keep their hand-set values), and it moved them.
    #[test]
    fn the_xiangqi_fit_moves_only_xiangqi_weights() {
        let jieqi_only = |i: usize| {
            let i = i % w::PER_PHASE;
            (w::VALUE_J..w::VALUE_J + 6).contains(&i)
                || (w::HIDDEN_VALUE..w::HIDDEN_ROLE + 6).contains(&i)
                || [w::PAWN_CROSSED_J, w::ADVISOR_HOME, w::ELEPHANT_HOME].contains(&i)
        };
        let moved: Vec<usize> = (0..w::COUNT)
            .filter(|&i| XIANGQI_WEIGHTS.0[i] != HANDSET_WEIGHTS.0[i])
            .collect();
        assert!(moved.len() >= 10, "{moved:?}");
        for i in moved {
            assert!(!jieqi_only(i), "{} moved", weight_names()[i]);
        }
        // Changing a Jieqi-only weight leaves every Xiangqi evaluation as it was.
        let mut other = XIANGQI_WEIGHTS.clone();
        for i in (0..w::COUNT).filter(|&i| jieqi_only(i)) {
            other.0[i] += 37;
        }
        let (a, b) = (
            Evaluator::new(Some(&XIANGQI_WEIGHTS)),
            Evaluator::new(Some(&other)),
        );
        let mut pos = Position::startpos(Variant::Xiangqi);
        let mut list = crate::core::MoveList::new();
        for ply in 0..60 {
            assert_eq!(a.evaluate(&pos, true), b.evaluate(&pos, true), "ply {ply}");
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list.as_slice()[(ply * 7) % list.len()];
            pos.play_unchecked(mv, None);
        }
    }
}
