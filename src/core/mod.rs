//! The rules of `jieqi`, `maniac` and `xiangqi`. No I/O, no threads, no randomness.

pub mod bitboard;
pub mod fen;
pub mod piece;
pub mod pool;
pub mod setup;
pub mod square;
pub mod variant;

pub use bitboard::Bitboard;
pub use piece::{Color, Piece, Role};
pub use pool::Pool;
pub use setup::{Setup, SetupCell};
pub use square::{File, Rank, Square};
pub use variant::Variant;
