//! The rules of `jieqi`, `maniac` and `xiangqi`. No I/O, no threads, no randomness.

pub mod attacks;
pub mod bitboard;
pub mod exchange;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod pool;
pub mod position;
pub mod setup;
pub mod square;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenDialect, FenError};
pub use game::{DrawReason, Game, GameResult, WinReason};
pub use moves::{Move, MoveList};
pub use piece::{Color, Piece, Role};
pub use pool::Pool;
pub use position::{Occupant, Outcomes, PlayError, Position, PositionError, Reveal, SetupWarning};
pub use setup::{Setup, SetupCell};
pub use square::{File, Rank, Square};
pub use variant::Variant;
