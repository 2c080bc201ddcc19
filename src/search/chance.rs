//! Chance nodes: the value of moving a face-down piece is the pool-weighted expectation over the
//! identities it can turn out to be.
//!
//! - Outcomes are averaged in expected-score units (a logistic of the score), not centipawns.
//! - Each outcome gets a window derived from the searched outcomes and the bounds [0, 1] of the
//!   unsearched ones (Star1), so a cut returns a valid bound of the node, never an average of
//!   bounds taken as exact.
//! - Mates stay exact: the node is a mate only when every outcome is a mate of the same sign
//!   (then it is the slowest win or the quickest loss); a mate in some outcomes only shifts the
//!   expectation.
//! - Outcomes are searched in order of weight times value (chariots and cannons first).
//! - Nothing is stored in the transposition table for the chance node itself.

use crate::core::{Move, Position};

use super::alphabeta::{Searcher, INF, MATE_BOUND};
use super::eval::piece_value;

/// Scale of the logistic that turns a score into an expected score: 361 cp = 10:1 odds.
pub const LOGISTIC_SCALE: f64 = 361.0;

/// How outcome values are combined at chance nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Aggregation {
    /// Expected score: average win probabilities (the default).
    #[default]
    ExpectedScore,
    /// Plain average of centipawn scores (for comparison matches).
    Centipawns,
}

impl Aggregation {
    /// Score to the unit in which outcomes are averaged, in [0, 1].
    #[inline]
    pub fn to_unit(self, s: i32) -> f64 {
        if s > MATE_BOUND {
            return 1.0;
        }
        if s < -MATE_BOUND {
            return 0.0;
        }
        match self {
            Aggregation::ExpectedScore => 1.0 / (1.0 + 10f64.powf(-(s as f64) / LOGISTIC_SCALE)),
            Aggregation::Centipawns => {
                ((s as f64 + MATE_BOUND as f64) / (2.0 * MATE_BOUND as f64)).clamp(0.0, 1.0)
            }
        }
    }

    /// The score of a unit value (real-valued; the caller rounds).
    #[inline]
    fn from_unit(self, p: f64) -> f64 {
        match self {
            Aggregation::ExpectedScore => {
                let p = p.clamp(1e-15, 1.0 - 1e-15);
                LOGISTIC_SCALE * (p / (1.0 - p)).log10()
            }
            Aggregation::Centipawns => p * 2.0 * MATE_BOUND as f64 - MATE_BOUND as f64,
        }
    }

    /// Largest score whose unit value is at most `p`.
    fn floor_score(self, p: f64) -> i32 {
        let mut s = (self.from_unit(p).floor() as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        while s > -MATE_BOUND && self.to_unit(s) > p {
            s -= 1;
        }
        s
    }

    /// Smallest score whose unit value is at least `p`.
    fn ceil_score(self, p: f64) -> i32 {
        let mut s = (self.from_unit(p).ceil() as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        while s < MATE_BOUND && self.to_unit(s) < p {
            s += 1;
        }
        s
    }

    /// The score of an average (never a mate score).
    pub fn score_of(self, p: f64) -> i32 {
        (self.from_unit(p).round() as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }
}

impl<'a> Searcher<'a> {
    /// Value of one outcome of a flip, from the mover's view.
    #[allow(clippy::too_many_arguments)]
    fn outcome_value(
        &mut self,
        pos: &Position,
        mv: Move,
        piece: Option<crate::core::Piece>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        quiesce: Option<(u32, u32)>,
    ) -> i32 {
        let mut c = *pos;
        c.play_unchecked(mv, piece);
        match quiesce {
            Some((flips, qdepth)) => -self.qsearch(&c, -beta, -alpha, ply + 1, flips, qdepth),
            None => {
                self.path.push(c.hash());
                let v = -self.negamax(&c, depth, -beta, -alpha, ply + 1, pv_node, false);
                self.path.pop();
                v
            }
        }
    }

    /// The chance node after the flip `mv`, searched to `depth` (or in quiescence when
    /// `quiesce` gives the flip count of the line), with window `(alpha, beta)` from the
    /// mover's view. Returns a value, or `alpha`/`beta` as a bound on a cut.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn chance(
        &mut self,
        pos: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        quiesce: Option<(u32, u32)>,
    ) -> i32 {
        let outcomes = pos.flip_outcomes(mv.from());
        if outcomes.len() <= 1 {
            let piece = outcomes.as_slice().first().map(|&(p, _)| p);
            return self.outcome_value(pos, mv, piece, depth, alpha, beta, ply, pv_node, quiesce);
        }
        let variant = pos.variant();
        let mut order: Vec<(crate::core::Piece, u8)> = outcomes.iter().collect();
        order.sort_by_key(|&(p, w)| -(w as i32) * piece_value(variant, p.role).max(50));
        let total = outcomes.total_weight() as f64;
        let agg = self.shared.aggregation;

        if alpha > MATE_BOUND {
            // Only a forced mate in every outcome can beat alpha: the node is their minimum.
            let mut min = INF;
            for &(piece, _) in &order {
                let v = self.outcome_value(
                    pos,
                    mv,
                    Some(piece),
                    depth,
                    alpha,
                    beta,
                    ply,
                    pv_node,
                    quiesce,
                );
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return alpha;
                }
                min = min.min(v);
            }
            return min;
        }
        if beta < -MATE_BOUND {
            // Below beta only if every outcome is a loss by mate: then their minimum.
            let mut min = INF;
            for &(piece, _) in &order {
                let v = self.outcome_value(
                    pos,
                    mv,
                    Some(piece),
                    depth,
                    alpha,
                    beta,
                    ply,
                    pv_node,
                    quiesce,
                );
                if self.stopped {
                    return 0;
                }
                if v >= -MATE_BOUND {
                    return beta;
                }
                min = min.min(v);
            }
            return min;
        }

        let pa = agg.to_unit(alpha);
        let pb = agg.to_unit(beta);
        let mut sum = 0.0;
        let mut rest = 1.0;
        let mut min = INF;
        let (mut all_win, mut all_loss) = (true, true);
        for &(piece, w) in &order {
            let f = w as f64 / total;
            rest = (rest - f).max(0.0);
            // This outcome must exceed `lo` or the node cannot exceed alpha even if every
            // unsearched outcome wins; reaching `hi` makes the node reach beta even if they all lose.
            let lo = (pa - sum - rest) / f;
            let hi = (pb - sum) / f;
            if lo >= 1.0 {
                return alpha;
            }
            if hi <= 0.0 {
                return beta;
            }
            let ca = if lo <= 0.0 { -INF } else { agg.floor_score(lo) };
            let cb = if hi >= 1.0 { INF } else { agg.ceil_score(hi) };
            let v = self.outcome_value(pos, mv, Some(piece), depth, ca, cb, ply, pv_node, quiesce);
            if self.stopped {
                return 0;
            }
            if ca > -INF && v <= ca {
                return alpha;
            }
            if cb < INF && v >= cb {
                return beta;
            }
            sum += f * agg.to_unit(v);
            min = min.min(v);
            all_win &= v > MATE_BOUND;
            all_loss &= v < -MATE_BOUND;
        }
        if all_win || all_loss {
            return min;
        }
        agg.score_of(sum)
    }
}
