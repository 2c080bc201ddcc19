//! Flip odds: for a move that flips a face-down piece, what each identity it can reveal would
//! be worth. Each possible identity is weighted by its share of the pool the piece draws from,
//! and the position after the flip with that identity is searched on its own (same table for
//! all of them) with a node budget.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::alphabeta::MATE;
use super::driver::{self, report_score};
use super::eval::Evaluator;
use super::shared::Shared;
use super::tt::Tt;
use super::types::{Limits, Options, Root, Score};
use crate::core::{Move, Piece, Position};

/// One identity a flip can reveal.
#[derive(Clone, Debug, PartialEq)]
pub struct IdentityValue {
    pub identity: Piece,
    /// How many of the pool's identities are this one.
    pub count: u32,
    /// `count` over the pool's total for the piece.
    pub probability: f64,
    /// The value of the move if the piece turns out to be this identity, from the mover's
    /// point of view.
    pub score: Score,
}

/// What a flip move's outcomes are worth.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipOdds {
    pub mv: Move,
    /// The number of identities the piece draws from.
    pub total: u32,
    /// Every identity with a non-zero count, in pool order.
    pub outcomes: Vec<IdentityValue>,
}

impl FlipOdds {
    /// One line: `<move> <letter> <count>/<total> cp <n>|mate <n> ...`.
    pub fn text(&self) -> String {
        let mut s = self.mv.to_string();
        for o in &self.outcomes {
            let v = match o.score {
                Score::Cp(c) => format!("cp {c}"),
                Score::Mate(m) => format!("mate {m}"),
            };
            s.push_str(&format!(
                " {} {}/{} {v}",
                o.identity.char(),
                o.count,
                self.total
            ));
        }
        s
    }
}

/// The odds of `mv` in `pos`, each identity searched with `nodes` nodes (at least 1). `None`
/// when `mv` is not a legal flip. `options` gives the search mode and captures; the searches
/// run on one thread with a table of their own.
pub fn flip_odds(pos: &Position, mv: Move, options: &Options, nodes: u64) -> Option<FlipOdds> {
    if !pos.is_legal(mv) || !pos.is_flip(mv) {
        return None;
    }
    let outcomes = pos.flip_outcomes(mv.from());
    let total: u32 = outcomes.as_slice().iter().map(|&(_, n)| n as u32).sum();
    if total == 0 {
        return None;
    }
    let tt = Arc::new(Tt::new(16));
    let eval = Arc::new(Evaluator::new(options.weights.as_deref()));
    let options = Options {
        threads: 1,
        multipv: 1,
        ..options.clone()
    };
    let mut out = Vec::new();
    for &(identity, count) in outcomes.as_slice() {
        let mut child = *pos;
        child.play_unchecked(mv, Some(identity));
        let score = if child.has_no_moves() {
            // The side to move after the flip has lost.
            report_score(MATE - 1)
        } else {
            let mut shared = Shared::new(
                tt.clone(),
                Arc::new(AtomicBool::new(false)),
                Arc::new(AtomicBool::new(false)),
                *options.params(child.variant()),
                eval.clone(),
            );
            shared.node_limit = Some(nodes.max(1));
            shared.learn_captures = options.learn_captures;
            tt.new_search();
            let limits = Limits {
                nodes: Some(nodes.max(1)),
                ..Limits::default()
            };
            let o = driver::run(&Root::new(child), &limits, &options, &shared, &|_| {});
            report_score(-o.score)
        };
        out.push(IdentityValue {
            identity,
            count: count as u32,
            probability: count as f64 / total as f64,
            score,
        });
    }
    Some(FlipOdds {
        mv,
        total,
        outcomes: out,
    })
}
