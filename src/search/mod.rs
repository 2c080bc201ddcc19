//! The engine's brain: evaluation, alpha-beta with chance nodes at flips, Monte-Carlo over
//! sampled worlds, threads, time management, and the `Engine` facade that the protocol and the
//! command line call.

mod alphabeta;
pub mod bench;
pub mod book;
mod chance;
mod driver;
mod engine;
pub mod eval;
mod evalcache;
pub mod odds;
pub mod params;
mod shared;
#[cfg(test)]
mod testgames;
mod time;
mod tt;
mod types;
mod wdl;
mod window;

pub use alphabeta::{is_mate_score, INF, MATE, MATE_BOUND};
pub use engine::{Engine, SearchError};
pub use params::{SearchParams, VariantParams};
pub use types::{Bound, Earlier, Info, Limits, Options, Report, Root, Score, SearchMode};
pub use window::WindowSearch;
