//! Packed moves and fixed-capacity move lists.
//!
//! A move is `from` and `to` in 7 bits each. The identity revealed by a flip is a chance event
//! recorded beside the move (see `Position::play`), never inside it.

use std::fmt;

use super::square::Square;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The Maniac pass of a waiting turn, written `0000`.
    pub const PASS: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 0x7F) as usize)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 7) as usize)
    }
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
    /// The raw 14-bit encoding.
    pub const fn raw(self) -> u16 {
        self.0
    }
    /// A move from its raw encoding, if both squares are on the board.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let (from, to) = (raw & 0x7F, (raw >> 7) & 0x7F);
        (raw < 1 << 14 && from < 90 && to < 90).then_some(Move(raw))
    }
    /// Reads `h2e2` (or `0000` for the pass). Suffixes are not accepted here.
    pub fn parse(text: &str) -> Option<Move> {
        if text == "0000" {
            return Some(Move::PASS);
        }
        if text.len() != 4 || !text.is_ascii() {
            return None;
        }
        let from = Square::parse(&text[..2])?;
        let to = Square::parse(&text[2..])?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            write!(f, "0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Enough for any position of the three variants.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves that never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // A list overflow would be a move-generator bug; the capacity is far above any position.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
