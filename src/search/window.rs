//! One alpha-beta search of a position with a given window and a fresh table, outside the
//! engine's iterative deepening: for checking the search's properties (valid bounds at chance
//! nodes, colour symmetry, what a parameter costs) from tests.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::core::Position;

use super::alphabeta::{Node, Searcher, INF};
use super::eval::Evaluator;
use super::params::SearchParams;
use super::shared::Shared;
use super::tt::Tt;

/// The settings of one window search.
#[derive(Clone, Debug)]
pub struct WindowSearch {
    /// Plies to search.
    pub depth: i32,
    /// The window, from the side to move's view.
    pub alpha: i32,
    pub beta: i32,
    /// Whether the root is searched as a node on the principal variation.
    pub pv: bool,
    /// Exact search: no forward pruning, reductions, probing or transposition cutoffs, so the
    /// value does not depend on the window (a bound can be checked against a full window).
    pub exact: bool,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The search parameters (`None`: the defaults of the position's variant).
    pub params: Option<SearchParams>,
}

impl WindowSearch {
    /// A full-window search to `depth` off the principal variation, with a 1 MiB table and the
    /// variant's parameters.
    pub fn new(depth: i32) -> WindowSearch {
        WindowSearch {
            depth,
            alpha: -INF,
            beta: INF,
            pv: false,
            exact: false,
            hash_mb: 1,
            params: None,
        }
    }

    /// Searches `pos` with the built-in evaluation and returns its value (a bound when it falls
    /// outside the window) and the nodes searched.
    pub fn run(&self, pos: &Position) -> (i32, u64) {
        let params = self
            .params
            .unwrap_or_else(|| SearchParams::for_variant(pos.variant()));
        let mut shared = Shared::new(
            Arc::new(Tt::new(self.hash_mb)),
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
            params,
            Arc::new(Evaluator::built_in().clone()),
        );
        shared.pure = self.exact;
        let mut s = Searcher::new(&shared, false);
        s.set_path(&[], pos);
        let root = Node::root(self.depth, self.alpha, self.beta, self.pv);
        let v = s.negamax(pos, root, false);
        (v, s.nodes)
    }
}
