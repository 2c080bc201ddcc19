//! Colours, roles and pieces.

use std::fmt;
use std::ops::Not;

/// A side. Red moves first and owns ranks 0-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// `w`/`b` as in FEN (`r` is accepted for Red on input).
    pub fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
    /// +1 for Red, -1 for Black: the direction of "forward" in ranks.
    #[inline(always)]
    pub fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

/// The kind of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];
    /// The roles that can be face down (every role but the king).
    pub const HIDDEN: [Role; 6] = [
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }
    /// Upper-case FEN letter.
    pub fn char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }
    /// Reads a role letter, either case; `E` and `H` are aliases of `B` and `N`.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }
    /// How many of this role each side has at the start.
    pub fn start_count(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece: colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
    /// FEN letter: upper case for Red, lower case for Black.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
    /// Reads a FEN piece letter (`E`/`H` aliases accepted).
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
    /// Dense index 0..14 (colour * 7 + role).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.role as usize
    }
    #[inline(always)]
    pub fn from_index(i: usize) -> Piece {
        Piece {
            color: if i < 7 { Color::Red } else { Color::Black },
            role: Role::from_index(i % 7),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
