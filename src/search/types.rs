//! The engine facade's public types: limits, options, reports.

use std::sync::Arc;

use crate::core::{Move, Position, Variant};

use super::eval::Weights;
use super::params::{SearchParams, VariantParams};

/// An earlier position of the game, as the rules on repetition need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    pub hash: u64,
    /// Whether the side to move there was in check (the move that led there gave check).
    pub in_check: bool,
}

/// What the search may know about the game before the root: the earlier positions since the
/// last capture or flip, oldest first (for repetitions and perpetual check).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position to search, as the side to move sees it (its pools are the belief state).
    pub position: Position,
    /// Earlier positions since the last irreversible move, oldest first, not including the root
    /// itself.
    pub history: Vec<Earlier>,
}

impl Root {
    pub fn new(position: Position) -> Root {
        Root {
            position,
            history: Vec::new(),
        }
    }
}

/// Search limits of one `go`. Times are in milliseconds and may be negative (treated as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    /// Search as if infinite until `ponderhit`, then apply the other limits from that moment.
    pub ponder: bool,
    /// Only these root moves (empty = all).
    pub searchmoves: Vec<Move>,
}

/// How flips are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// One search with chance nodes over the pools as the side to move sees them. The default:
    /// it beat `pimc` by +147 Elo and `hybrid` by +156 Elo in 100-game paired matches at
    /// 50 ms per move (see `tests/selfplay.rs`).
    #[default]
    Expectimax,
    /// Sampled deals: every face-down identity fixed by the sample (no chance nodes).
    Pimc,
    /// Sampled private information (identities the opponent learned by capturing our face-down
    /// pieces), chance nodes for every flip.
    Hybrid,
}

impl SearchMode {
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::Expectimax => "expectimax",
            SearchMode::Pimc => "pimc",
            SearchMode::Hybrid => "hybrid",
        }
    }
    pub fn parse(s: &str) -> Option<SearchMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "expectimax" => Some(SearchMode::Expectimax),
            "pimc" => Some(SearchMode::Pimc),
            "hybrid" => Some(SearchMode::Hybrid),
            _ => None,
        }
    }
}

/// Engine settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub mode: SearchMode,
    /// Number of sampled worlds per search in `pimc`/`hybrid` when there is something to sample.
    pub samples: usize,
    pub seed: u64,
    /// Chance node after the root side captures a face-down piece (it learns the identity).
    pub learn_captures: bool,
    /// The search parameters of each variant.
    pub params: VariantParams,
    /// Evaluation weights for every variant (`None`: the built-in weights of each).
    pub weights: Option<Arc<Weights>>,
    /// When the best move flips a piece: after the search, value each identity it can reveal
    /// (see [`super::odds`]) and report them in a `Report::Text` starting with `flipodds`.
    pub flip_odds: bool,
    /// Answer from the built-in opening book ([`super::book`]) when the root is one of its
    /// positions and the search is a game's (limited by a clock or `movetime`, not pondering,
    /// one line): the book's move at once, with its score and depth.
    pub own_book: bool,
}

impl Options {
    /// The search parameters of `variant`.
    pub fn params(&self, variant: Variant) -> &SearchParams {
        self.params.get(variant)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 30,
            mode: SearchMode::default(),
            samples: 8,
            seed: 1,
            learn_captures: true,
            params: VariantParams::default(),
            weights: None,
            flip_odds: false,
            own_book: false,
        }
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (aspiration window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number when several lines are searched (MultiPV).
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    /// Win / draw / loss per mille for the side to move.
    pub wdl: (u32, u32, u32),
    pub nodes: u64,
    pub nps: u64,
    /// Transposition table use per mille.
    pub hashfull: u32,
    pub time_ms: u64,
    /// Principal variation, cut after the first move of a face-down piece.
    pub pv: Vec<Move>,
}

/// What the engine sends while and after searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Info(Info),
    /// Free text for an `info string` line.
    Text(String),
    /// The search ended. `best` is `None` when there is no legal move. `ponder` is never given
    /// when `best` flips a piece.
    Done {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}
