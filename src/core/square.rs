//! Squares, files and ranks of the 9x10 board.
//!
//! Squares are numbered rank-major from Red's side: `a0` = 0, `b0` = 1, ..., `i0` = 8,
//! `a1` = 9, ..., `i9` = 89. Rank 0 is Red's back rank.

use std::fmt;

use super::piece::Color;

/// A file `a`..`i` (0..9), counted from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank `0`..`9`, rank 0 being Red's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    pub const COUNT: usize = 9;
    pub fn new(index: u8) -> Option<File> {
        (index < 9).then_some(File(index))
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
    pub fn char(self) -> char {
        (b'a' + self.0) as char
    }
}

impl Rank {
    pub const COUNT: usize = 10;
    pub fn new(index: u8) -> Option<Rank> {
        (index < 10).then_some(Rank(index))
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '0'..='9' => Some(Rank(c as u8 - b'0')),
            _ => None,
        }
    }
    pub fn char(self) -> char {
        (b'0' + self.0) as char
    }
    /// The half of the board this rank lies on (ranks 0-4 Red, 5-9 Black).
    pub fn half(self) -> Color {
        if self.0 < 5 {
            Color::Red
        } else {
            Color::Black
        }
    }
}

/// One of the 90 points of the board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    /// Builds a square from its index 0..90.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Builds a square from an index the caller knows to be below 90.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    pub fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// Builds a square from file and rank numbers, if both are on the board.
    pub fn from_xy(file: i32, rank: i32) -> Option<Square> {
        if (0..9).contains(&file) && (0..10).contains(&rank) {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline(always)]
    pub fn file(self) -> File {
        File(self.0 % 9)
    }
    #[inline(always)]
    pub fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }
    /// The half of the board the square lies on.
    #[inline(always)]
    pub fn half(self) -> Color {
        if self.0 < 45 {
            Color::Red
        } else {
            Color::Black
        }
    }
    /// The square seen from the other side (rank mirrored).
    pub fn flip_rank(self) -> Square {
        Square::from_coords(self.file(), Rank(9 - self.rank().0))
    }
    /// The square mirrored left-right.
    pub fn flip_file(self) -> Square {
        Square::from_coords(File(8 - self.file().0), self.rank())
    }
    /// Square a `(df, dr)` step away, if on the board.
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_xy(self.file().0 as i32 + df, self.rank().0 as i32 + dr)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Parses `e0`-style text.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }

    /// Whether the square is inside the palace of `color`.
    pub fn in_palace(self, color: Color) -> bool {
        let f = self.file().0;
        let r = self.rank().0;
        (3..=5).contains(&f)
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
