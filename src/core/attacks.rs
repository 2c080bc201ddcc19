//! Attack and move tables, computed at compile time, and the lookups built on them.
//!
//! Sliding pieces (chariot, cannon) use per-line lookups: the occupancy of the square's rank
//! (9 bits, read from the rank-major board) and of its file (10 bits, read from a file-major
//! "transposed" copy of the occupancy that the position keeps beside the normal one).

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::Square;

/// Bit of a square in the file-major (transposed) occupancy: file * 10 + rank.
pub const TBIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = 1u128 << ((sq % 9) * 10 + sq / 9);
        sq += 1;
    }
    t
};

/// Reachable positions along one line of `len` points from `pos`, given the line's occupancy:
/// every empty point up to and including the first occupied one in each direction.
const fn line_slide(len: usize, pos: usize, occ: usize) -> u16 {
    let mut out = 0u16;
    let mut i = pos + 1;
    while i < len {
        out |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos as isize - 1;
    while i >= 0 {
        out |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i -= 1;
    }
    out
}

/// Cannon capture targets along a line: the first occupied point beyond the first screen.
const fn line_cannon(len: usize, pos: usize, occ: usize) -> u16 {
    let mut out = 0u16;
    let mut screen = false;
    let mut i = pos + 1;
    while i < len {
        if occ & (1 << i) != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i += 1;
    }
    let mut screen = false;
    let mut i = pos as isize - 1;
    while i >= 0 {
        if occ & (1 << i) != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i -= 1;
    }
    out
}

static ROOK_RANK: [[u16; 512]; 9] = {
    let mut t = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = line_slide(9, f, occ);
            occ += 1;
        }
        f += 1;
    }
    t
};

static CANNON_RANK: [[u16; 512]; 9] = {
    let mut t = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = line_cannon(9, f, occ);
            occ += 1;
        }
        f += 1;
    }
    t
};

static ROOK_FILE: [[u16; 1024]; 10] = {
    let mut t = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = line_slide(10, r, occ);
            occ += 1;
        }
        r += 1;
    }
    t
};

static CANNON_FILE: [[u16; 1024]; 10] = {
    let mut t = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = line_cannon(10, r, occ);
            occ += 1;
        }
        r += 1;
    }
    t
};

/// A 10-bit set of ranks spread onto file a of the board (bit 9 * rank).
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut v = 0u128;
        let mut r = 0;
        while r < 10 {
            if m & (1 << r) != 0 {
                v |= 1u128 << (9 * r);
            }
            r += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

#[inline(always)]
fn rank_occ(sq: usize, occ: u128) -> usize {
    ((occ >> (9 * (sq / 9))) & 0x1FF) as usize
}

#[inline(always)]
fn file_occ(sq: usize, occ_t: u128) -> usize {
    ((occ_t >> (10 * (sq % 9))) & 0x3FF) as usize
}

/// Chariot moves from `sq`: empty points plus the first piece in each direction.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u128, occ_t: u128) -> Bitboard {
    let s = sq.index();
    let (f, r) = (s % 9, s / 9);
    let rank = (ROOK_RANK[f][rank_occ(s, occ)] as u128) << (9 * r);
    let file = FILE_SPREAD[ROOK_FILE[r][file_occ(s, occ_t)] as usize] << f;
    Bitboard(rank | file)
}

/// Cannon capture targets from `sq`: the first piece beyond exactly one screen.
#[inline(always)]
pub fn cannon_captures(sq: Square, occ: u128, occ_t: u128) -> Bitboard {
    let s = sq.index();
    let (f, r) = (s % 9, s / 9);
    let rank = (CANNON_RANK[f][rank_occ(s, occ)] as u128) << (9 * r);
    let file = FILE_SPREAD[CANNON_FILE[r][file_occ(s, occ_t)] as usize] << f;
    Bitboard(rank | file)
}

const fn sq_at(file: isize, rank: isize) -> isize {
    if file < 0 || file > 8 || rank < 0 || rank > 9 {
        -1
    } else {
        rank * 9 + file
    }
}

const NO_SQ: u8 = 255;

/// Orthogonal steps: up, down, right, left.
const ORTHO: [(isize, isize); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Diagonal steps.
const DIAG: [(isize, isize); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Horse: for each square and each of the four legs (orthogonal neighbours), the leg square
/// and the two destinations that leg opens.
static HORSE_LEG: [[u8; 4]; 90] = {
    let mut t = [[NO_SQ; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let leg = sq_at(f + ORTHO[d].0, r + ORTHO[d].1);
            if leg >= 0 {
                t[s][d] = leg as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

static HORSE_DEST: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            // Two steps in the leg's direction, one step sideways.
            let (a, b) = if df == 0 {
                (sq_at(f - 1, r + 2 * dr), sq_at(f + 1, r + 2 * dr))
            } else {
                (sq_at(f + 2 * df, r - 1), sq_at(f + 2 * df, r + 1))
            };
            if a >= 0 {
                t[s][d] |= 1u128 << a;
            }
            if b >= 0 {
                t[s][d] |= 1u128 << b;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Diagonal neighbours of each square (horse legs seen from the target, elephant eyes).
static DIAG_NEIGHBOUR: [[u8; 4]; 90] = {
    let mut t = [[NO_SQ; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let n = sq_at(f + DIAG[d].0, r + DIAG[d].1);
            if n >= 0 {
                t[s][d] = n as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The two squares from which a horse attacks `s` through the leg at diagonal neighbour `d`.
static HORSE_FROM: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if sq_at(f + df, r + dr) >= 0 {
                let a = sq_at(f + df, r + 2 * dr);
                let b = sq_at(f + 2 * df, r + dr);
                if a >= 0 {
                    t[s][d] |= 1u128 << a;
                }
                if b >= 0 {
                    t[s][d] |= 1u128 << b;
                }
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Elephant destination through each diagonal (eye at the diagonal neighbour).
static ELEPHANT_DEST: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let n = sq_at(f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            if n >= 0 {
                t[s][d] = 1u128 << n;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

static ADVISOR: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let n = sq_at(f + DIAG[d].0, r + DIAG[d].1);
            if n >= 0 {
                t[s] |= 1u128 << n;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

const fn palace_mask(color: usize) -> u128 {
    let mut m = 0u128;
    let mut s = 0;
    while s < 90 {
        let (f, r) = (s % 9, s / 9);
        let in_ranks = if color == 0 { r <= 2 } else { r >= 7 };
        if f >= 3 && f <= 5 && in_ranks {
            m |= 1u128 << s;
        }
        s += 1;
    }
    m
}

pub const PALACE: [Bitboard; 2] = [Bitboard(palace_mask(0)), Bitboard(palace_mask(1))];
/// Each colour's half of the board.
pub const HALF: [Bitboard; 2] = [
    Bitboard((1u128 << 45) - 1),
    Bitboard(((1u128 << 90) - 1) ^ ((1u128 << 45) - 1)),
];

static KING: [u128; 90] = {
    let mut t = [0u128; 90];
    let palaces = palace_mask(0) | palace_mask(1);
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as isize, (s / 9) as isize);
        let mut d = 0;
        while d < 4 {
            let n = sq_at(f + ORTHO[d].0, r + ORTHO[d].1);
            if n >= 0 {
                t[s] |= 1u128 << n;
            }
            d += 1;
        }
        t[s] &= palaces;
        s += 1;
    }
    t
};

/// Pawn steps for a pawn of each colour: forward always, sideways once across the river.
static PAWN: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: isize = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as isize, (s / 9) as isize);
            let n = sq_at(f, r + fwd);
            if n >= 0 {
                t[c][s] |= 1u128 << n;
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                let a = sq_at(f - 1, r);
                let b = sq_at(f + 1, r);
                if a >= 0 {
                    t[c][s] |= 1u128 << a;
                }
                if b >= 0 {
                    t[c][s] |= 1u128 << b;
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// For each colour and target square, the squares from which a pawn of that colour attacks it.
static PAWN_FROM: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let mut to = 0;
            while to < 90 {
                if PAWN[c][s] & (1u128 << to) != 0 {
                    t[c][to] |= 1u128 << s;
                }
                to += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

#[inline(always)]
fn occupied(occ: u128, sq: u8) -> bool {
    (occ >> sq) & 1 != 0
}

/// Union of the four leaps in `dest` whose blocking point in `blockers` is on the board and
/// empty (horse legs, elephant eyes).
#[inline(always)]
fn open_leaps(blockers: &[u8; 4], dest: &[u128; 4], occ: u128) -> Bitboard {
    let mut out = 0u128;
    for d in 0..4 {
        let b = blockers[d];
        if b != NO_SQ && !occupied(occ, b) {
            out |= dest[d];
        }
    }
    Bitboard(out)
}

/// Horse moves from `sq` (legs next to the horse).
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: u128) -> Bitboard {
    open_leaps(&HORSE_LEG[sq.index()], &HORSE_DEST[sq.index()], occ)
}

/// Squares from which a horse would attack `sq` (legs next to each horse).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: u128) -> Bitboard {
    open_leaps(&DIAG_NEIGHBOUR[sq.index()], &HORSE_FROM[sq.index()], occ)
}

/// Elephant moves from `sq` (blocked eyes), without any river restriction.
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: u128) -> Bitboard {
    open_leaps(&DIAG_NEIGHBOUR[sq.index()], &ELEPHANT_DEST[sq.index()], occ)
}

/// The squares that are horse legs for attacks on `sq` from a horse at `horse`, if any:
/// the diagonal neighbour of `sq` between them.
#[inline(always)]
pub fn horse_leg_towards(sq: Square, horse: Square) -> Option<Square> {
    let s = sq.index();
    for d in 0..4 {
        if HORSE_FROM[s][d] & (1u128 << horse.index()) != 0 {
            return Some(Square::from_index(DIAG_NEIGHBOUR[s][d] as usize));
        }
    }
    None
}

/// The eye between `sq` and an elephant two diagonal steps away, if any.
#[inline(always)]
pub fn elephant_eye_towards(sq: Square, elephant: Square) -> Option<Square> {
    let s = sq.index();
    for d in 0..4 {
        if ELEPHANT_DEST[s][d] & (1u128 << elephant.index()) != 0 {
            return Some(Square::from_index(DIAG_NEIGHBOUR[s][d] as usize));
        }
    }
    None
}

/// One diagonal step in any direction.
#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(ADVISOR[sq.index()])
}

/// One orthogonal step inside a palace.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Pawn steps of a pawn of `color` standing on `sq`.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_FROM[color.index()][sq.index()])
}

/// Chariot moves on an otherwise empty board.
pub fn rook_lines(sq: Square) -> Bitboard {
    rook_attacks(sq, 0, 0)
}

/// The squares strictly between two squares on one rank or file (empty if not aligned).
pub fn between(a: Square, b: Square) -> Bitboard {
    let occ_a = 1u128 << a.index();
    let occ_b = 1u128 << b.index();
    let ab = rook_attacks(a, occ_b, TBIT[b.index()]);
    if !ab.contains(b) {
        return Bitboard::EMPTY;
    }
    let ba = rook_attacks(b, occ_a, TBIT[a.index()]);
    Bitboard(ab.0 & ba.0 & !(occ_a | occ_b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn rook_on_empty_board() {
        assert_eq!(rook_lines(sq("e4")).count(), 8 + 9);
        assert_eq!(rook_lines(sq("a0")).count(), 8 + 9);
    }

    #[test]
    fn horse_leg_blocks() {
        let occ = Bitboard::from_square(sq("b1")).0;
        let h = horse_attacks(sq("b0"), occ);
        assert!(!h.contains(sq("a2")) && !h.contains(sq("c2")));
        assert!(h.contains(sq("d1")));
        // Attackers of d1 through the leg c1 (the leg next to the horse at b0 is c0).
        let from = horse_attackers(sq("d1"), 0);
        assert!(from.contains(sq("b0")));
        let blocked = horse_attackers(sq("d1"), Bitboard::from_square(sq("c0")).0);
        assert!(!blocked.contains(sq("b0")));
    }

    #[test]
    fn between_squares() {
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert_eq!(between(sq("a0"), sq("i0")).count(), 7);
        assert!(between(sq("a0"), sq("b1")).is_empty());
    }

    #[test]
    fn cannon_needs_screen() {
        let occ = [sq("b2"), sq("b5"), sq("b9")]
            .iter()
            .fold(0u128, |o, s| o | 1u128 << s.index());
        let occ_t = [sq("b2"), sq("b5"), sq("b9")]
            .iter()
            .fold(0u128, |o, s| o | TBIT[s.index()]);
        let c = cannon_captures(sq("b2"), occ, occ_t);
        assert!(c.contains(sq("b9")) && !c.contains(sq("b5")));
    }
}
