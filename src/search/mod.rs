//! The engine's brain: evaluation, alpha-beta with chance nodes at flips, Monte-Carlo over
//! sampled worlds, threads, time management, and the `Engine` facade that the protocol and the
//! command line call.

pub mod alphabeta;
pub mod bench;
pub mod chance;
pub mod driver;
pub mod engine;
pub mod eval;
pub mod odds;
pub mod shared;
pub mod time;
pub mod tt;
pub mod types;

pub use engine::Engine;
pub use types::{Bound, Info, Limits, Options, Report, Root, Score, SearchMode};
