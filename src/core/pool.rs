//! Multisets of piece identities: what face-down pieces can turn out to be.
//!
//! A pool counts, for each of the 12 identities a face-down piece can have (six roles of each
//! colour; kings are never face down), how many are not yet seen. In `jieqi` a face-down piece
//! draws from the part of the pool of its own colour; in `maniac` every face-down piece draws from
//! the whole pool (colour included).

use std::fmt;

use super::piece::{Color, Piece, Role};

/// Number of distinct identities a face-down piece can have.
pub const IDENTITIES: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pool {
    counts: [u8; IDENTITIES],
}

/// Dense index of a face-down-capable piece (colour * 6 + role - 1). Kings have none.
#[inline(always)]
pub fn identity_index(piece: Piece) -> Option<usize> {
    if piece.role == Role::King {
        None
    } else {
        Some(piece.color.index() * 6 + piece.role.index() - 1)
    }
}

/// The piece of a dense identity index.
#[inline(always)]
pub fn identity_piece(index: usize) -> Piece {
    let color = if index < 6 { Color::Red } else { Color::Black };
    Piece::new(color, Role::HIDDEN[index % 6])
}

impl Pool {
    pub const EMPTY: Pool = Pool {
        counts: [0; IDENTITIES],
    };

    /// The full set of the 15 non-king pieces of each colour.
    pub fn full() -> Pool {
        let mut pool = Pool::EMPTY;
        for color in Color::ALL {
            for role in Role::HIDDEN {
                pool.set(Piece::new(color, role), role.start_count());
            }
        }
        pool
    }

    #[inline(always)]
    pub fn count(&self, piece: Piece) -> u8 {
        identity_index(piece).map_or(0, |i| self.counts[i])
    }
    #[inline(always)]
    pub fn count_at(&self, index: usize) -> u8 {
        self.counts[index]
    }
    /// Sets a count. Kings are ignored (they are never face down).
    pub fn set(&mut self, piece: Piece, count: u8) {
        if let Some(i) = identity_index(piece) {
            self.counts[i] = count;
        }
    }
    /// Adds one (saturating).
    pub fn add(&mut self, piece: Piece) {
        if let Some(i) = identity_index(piece) {
            self.counts[i] = self.counts[i].saturating_add(1);
        }
    }
    /// Removes one; returns false (and changes nothing) when there is none.
    pub fn remove(&mut self, piece: Piece) -> bool {
        match identity_index(piece) {
            Some(i) if self.counts[i] > 0 => {
                self.counts[i] -= 1;
                true
            }
            _ => false,
        }
    }
    /// Total number of identities of one colour.
    pub fn total_of(&self, color: Color) -> u32 {
        let base = color.index() * 6;
        self.counts[base..base + 6].iter().map(|&c| c as u32).sum()
    }
    /// Total number of identities.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
    /// `(piece, count)` for every identity with a non-zero count, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (Piece, u8)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (identity_piece(i), c))
    }
    /// The pool with colours swapped.
    pub fn mirrored(&self) -> Pool {
        let mut out = Pool::EMPTY;
        for i in 0..6 {
            out.counts[i] = self.counts[i + 6];
            out.counts[i + 6] = self.counts[i];
        }
        out
    }
}

/// Written in FEN order `R A C P N B` per colour, Red first, zero counts left out;
/// `-` when empty.
impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ORDER: [Role; 6] = [
            Role::Rook,
            Role::Advisor,
            Role::Cannon,
            Role::Pawn,
            Role::Horse,
            Role::Elephant,
        ];
        if self.is_empty() {
            return write!(f, "-");
        }
        for color in Color::ALL {
            for role in ORDER {
                let piece = Piece::new(color, role);
                let n = self.count(piece);
                if n > 0 {
                    write!(f, "{}{}", piece.char(), n)?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
