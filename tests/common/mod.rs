//! What the integration tests share: the engine driver (a running `jieqi` process with
//! deadline-bounded reads and checkers for the reply formats of protocol.md), the match runner's
//! helpers (running `jieqi match`, the faulty test engine, reading and replaying records), a
//! `jieqi` session driven line by line as a GUI drives it, one seeded random generator, and the
//! perft boards.
//!
//! Each test file that needs it says `mod common;`; a test binary uses only part of it.
#![allow(dead_code, unused_imports)]

pub mod boards;
pub mod engine;
pub mod jai;
pub mod referee;
pub mod rng;

pub use engine::*;
pub use rng::Rng;
