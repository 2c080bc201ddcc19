//! The match runner (referee): plays engine-versus-engine games with the true position held only
//! here, tells each engine only what its side may know, and keeps records and statistics.
//!
//! Layers: [`deal`] (seeded random deals, deal files), [`view`] (the redacted move history each
//! side is sent), [`engine`] (engine processes over UCI with timeouts), [`game`] (one game:
//! clocks, legality on the true position, results, adjudication), [`runner`] (a match: pairs of
//! games with colours swapped, concurrency, records, progress, SPRT), [`stats`] (Elo, LOS,
//! pentanomial, SPRT; pure), [`records`] (the record format, written and read through serde;
//! record files read back: shares of a match merged, games in JieqiBox's format),
//! [`config`] (engine specifications and time controls read from text), [`jai`] (JieqiBox's
//! match mode: the JAI protocol on standard input and output).
//!
//! The referee uses only [`crate::core`] and drives every engine, this one included, as a
//! separate process through its text protocol.

pub mod config;
pub mod deal;
pub mod engine;
pub mod game;
pub mod jai;
pub mod records;
pub mod runner;
pub mod stats;
pub mod view;

pub use config::{EngineSpec, Limit};
pub use game::{Adjudication, GameConfig, GameRecord, Outcome, Reason};
pub use runner::{run_match, MatchConfig, MatchSummary};
