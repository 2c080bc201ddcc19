//! An unvalidated position: what a FEN says, before the rules check it.
//!
//! Text becomes a [`Setup`] in `fen`, and a `Setup` becomes a playable `Position` through
//! `Position::from_setup`, which checks it against a variant's rules.

use super::piece::{Color, Piece};
use super::pool::Pool;
use super::square::Square;

/// What stands on one point of an unvalidated board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupCell {
    /// A face-up piece.
    Revealed(Piece),
    /// A face-down piece; the colour is the letter case (`X` Red, `x` Black), which must match
    /// the half of the board it stands on.
    Hidden(Color),
}

/// An unvalidated position, as read from a FEN.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Indexed by square index (a0 = 0 ... i9 = 89).
    pub board: [Option<SetupCell>; 90],
    pub side: Color,
    /// Identities the viewer cannot rule out for face-down pieces (`hiddenPool`).
    /// In `maniac` this is the one shared pool of both colours.
    pub pool: Pool,
    /// Identities of face-down pieces the viewer captured and knows (`capturedPool`, JieqiBox).
    pub captured: Pool,
    /// Plies since the last capture.
    pub halfmove: u32,
    /// Move number, starting at 1, incremented after Black moves.
    pub fullmove: u32,
    /// Maniac waiting turn: the square of the piece the side to move may not move this turn.
    pub wait: Option<Square>,
}

impl Setup {
    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            side: Color::Red,
            pool: Pool::EMPTY,
            captured: Pool::EMPTY,
            halfmove: 0,
            fullmove: 1,
            wait: None,
        }
    }
    pub fn get(&self, sq: Square) -> Option<SetupCell> {
        self.board[sq.index()]
    }
    pub fn put(&mut self, sq: Square, cell: Option<SetupCell>) {
        self.board[sq.index()] = cell;
    }
}
