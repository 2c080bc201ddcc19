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

use crate::core::{Move, Occupant, Outcomes, Piece, Position, Role, Square};

use super::alphabeta::{is_mate_score, Node, Searcher, HIDDEN_VICTIM_VALUE, INF, MATE_BOUND};
use super::eval::{Evaluator, EVAL_LIMIT};
use super::params::SearchParams;

/// The steeper scale of a logistic that turns a score into an expected score, 361 cp for odds
/// of 10:1: Xiangqi's `chance_scale` (Xiangqi has no chance nodes) and the scale of its `wdl`
/// estimate.
pub const LOGISTIC_SCALE: f64 = 361.0;

/// The unit in which chance nodes average their outcomes: an expected score in [0, 1], a
/// logistic of the score (mates are 0 or 1) whose scale, in centipawns per factor of 10 in the
/// odds, is a search parameter (`chance_scale`).
#[derive(Clone, Copy, Debug)]
pub struct Units {
    /// ln(10) divided by the scale.
    k: f64,
}

impl Units {
    /// Units of the logistic with `scale` centipawns per factor of 10 in the odds.
    pub fn new(scale: f64) -> Units {
        Units {
            k: std::f64::consts::LN_10 / scale,
        }
    }

    /// The units of a search with `params` (their `chance_scale`).
    pub fn of(params: &SearchParams) -> Units {
        Units::new(params.chance_scale as f64)
    }

    /// A score as an expected score in [0, 1].
    #[inline]
    pub fn to_unit(self, s: i32) -> f64 {
        if s > MATE_BOUND {
            return 1.0;
        }
        if s < -MATE_BOUND {
            return 0.0;
        }
        self.logistic(s as f64)
    }

    /// The logistic of a real-valued score (no mate handling).
    #[inline]
    pub fn logistic(self, x: f64) -> f64 {
        1.0 / (1.0 + (-x * self.k).exp())
    }

    /// The score of an expected score (real-valued; the caller rounds).
    #[inline]
    fn unit_to_score(self, p: f64) -> f64 {
        let p = p.clamp(1e-15, 1.0 - 1e-15);
        (p / (1.0 - p)).ln() / self.k
    }

    /// Largest score whose expected score is at most `p` (`-MATE_BOUND` if none is).
    fn floor_score(self, p: f64) -> i32 {
        if p <= self.to_unit(-MATE_BOUND + 1) {
            return -MATE_BOUND;
        }
        let mut s = (self.unit_to_score(p).floor() as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        // The formula is off by at most a rounding step; walk to the exact boundary.
        while s > -MATE_BOUND + 1 && self.to_unit(s) > p {
            s -= 1;
        }
        while s < MATE_BOUND - 1 && self.to_unit(s + 1) <= p {
            s += 1;
        }
        s
    }

    /// Smallest score whose expected score is at least `p` (`MATE_BOUND` if none is).
    fn ceil_score(self, p: f64) -> i32 {
        if p >= self.to_unit(MATE_BOUND - 1) {
            return MATE_BOUND;
        }
        let mut s = (self.unit_to_score(p).ceil() as i32).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        while s < MATE_BOUND - 1 && self.to_unit(s) < p {
            s += 1;
        }
        while s > -MATE_BOUND + 1 && self.to_unit(s - 1) >= p {
            s -= 1;
        }
        s
    }

    /// The score of an average expected score: never a mate score, within the evaluation's
    /// range.
    pub fn score_of(self, p: f64) -> i32 {
        (self.unit_to_score(p).round() as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The value of a chance node whose outcomes have the exact `values` and the weighted mean
    /// expected score `mean`: a mate only when every outcome is a mate of the same sign (then
    /// the slowest win or the quickest loss), else the score of the mean.
    pub fn expected_value(self, values: &[i32], mean: f64) -> i32 {
        if values.iter().all(|&v| v > MATE_BOUND) || values.iter().all(|&v| v < -MATE_BOUND) {
            return values.iter().copied().min().unwrap_or(0);
        }
        self.score_of(mean)
    }
}

/// The position after `mv` when the flipped (or, `learning`, the captured and identified)
/// piece is `piece`.
fn outcome_position(pos: &Position, mv: Move, piece: Option<Piece>, learning: bool) -> Position {
    let mut c = *pos;
    if learning {
        if let Some(p) = piece {
            c.learn_capture(p);
        }
        c.play_unchecked(mv, None);
    } else {
        c.play_unchecked(mv, piece);
    }
    c
}

/// How many of `outcomes`, the identities the flip `mv` can reveal, give check.
fn checking_identities(pos: &Position, mv: Move, outcomes: &Outcomes) -> usize {
    outcomes
        .iter()
        .filter(|&(piece, _)| outcome_position(pos, mv, Some(piece), false).in_check())
        .count()
}

/// How many of `outcomes`, the identities the flip `mv` can reveal, threaten to win material
/// by `eval`'s piece values: the revealed piece attacks a revealed piece of the other colour
/// worth more than itself (not the king). Face-down targets count as `hidden_targets` says
/// (`threat_hidden_targets`): 0 never, since nearly every flip attacks one as some identity; 1
/// when worth more than the revealed piece at [`HIDDEN_VICTIM_VALUE`]; 2 also when nothing of
/// their side defends them.
fn threatening_identities(
    eval: &Evaluator,
    pos: &Position,
    mv: Move,
    outcomes: &Outcomes,
    hidden_targets: u32,
) -> usize {
    let variant = pos.variant();
    outcomes
        .iter()
        .filter(|&(piece, _)| {
            if piece.role == Role::King {
                return false;
            }
            let c = outcome_position(pos, mv, Some(piece), false);
            let them = !piece.color;
            let mine = eval.piece_value(variant, piece.role);
            let mut targets = c.pieces_of(them) & !c.pieces(them, Role::King);
            if hidden_targets == 0 {
                targets &= !c.hidden();
            }
            let worth_more = |sq: Square| match c.occupant(sq) {
                Some(Occupant::Revealed(v)) => eval.piece_value(variant, v.role) > mine,
                Some(Occupant::Hidden { .. }) => HIDDEN_VICTIM_VALUE > mine,
                None => false,
            };
            let loose_counts = hidden_targets >= 2;
            // The value first: it is cheaper to read than the attackers; whether the target's
            // side defends it last, only for a face-down target the piece attacks. (A
            // bitboard's own `any` says whether it is empty.)
            Iterator::any(&mut targets, |sq| {
                let worth = worth_more(sq);
                (worth || (loose_counts && c.hidden().contains(sq)))
                    && c.attackers(sq, piece.color).contains(mv.to())
                    && (worth || !c.is_attacked_by(sq, them))
            })
        })
        .count()
}

/// The move into a chance node: a flip (the mover's identity is drawn) or, `learning`, a
/// capture of a face-down piece by the root side (the capturer learns the victim's identity).
struct Flip<'p> {
    pos: &'p Position,
    mv: Move,
    learning: bool,
}

/// Outcomes are searched in order of weight times value, a value counted as at least this.
const MIN_ORDER_VALUE: i32 = 50;
/// Outcomes after the heaviest are searched one ply shallower off the PV from this depth.
const OUTCOME_REDUCTION_DEPTH: i32 = 3;

/// What a Star1 search of a chance node knows of its outcomes: each one's share of the
/// weight, the bounds of its value in expected-score units (searched outcomes narrow [0, 1]),
/// its exact value once known and what the first pass returned; and the node's window.
struct Star1 {
    f: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    val: Vec<Option<i32>>,
    /// What the first pass returned for each outcome (a bound when it fell outside its window).
    first: Vec<Option<i32>>,
    alpha: i32,
    beta: i32,
    units: Units,
    /// The window in units.
    pa: f64,
    pb: f64,
    /// Beyond the evaluation's range only mates count, and an average involving mates is
    /// clamped to the range: units decide nothing past these edges.
    low_edge: bool,
    high_edge: bool,
}

impl Star1 {
    fn new(f: Vec<f64>, alpha: i32, beta: i32, units: Units) -> Star1 {
        let n = f.len();
        Star1 {
            f,
            lo: vec![0.0; n],
            hi: vec![1.0; n],
            val: vec![None; n],
            first: vec![None; n],
            alpha,
            beta,
            units,
            pa: units.to_unit(alpha),
            pb: units.to_unit(beta),
            low_edge: alpha < -EVAL_LIMIT,
            high_edge: beta > EVAL_LIMIT,
        }
    }

    /// The Star1 window of outcome `i` in units, given the others' bounds.
    fn window(&self, i: usize) -> (f64, f64) {
        let (mut others_hi, mut others_lo) = (0.0, 0.0);
        for j in 0..self.f.len() {
            if j != i {
                others_hi += self.f[j] * self.hi[j];
                others_lo += self.f[j] * self.lo[j];
            }
        }
        (
            (self.pa - others_hi) / self.f[i],
            (self.pb - others_lo) / self.f[i],
        )
    }

    /// Fail-soft bound of the node when failing low: at most `alpha`, as tight as the outcome
    /// bounds allow. Rounded like the exact value (`score_of`), so that a bound never excludes
    /// the value a full-window search of the node would return.
    fn low_bound(&self, node_hi: f64) -> i32 {
        self.units.score_of(node_hi).min(self.alpha)
    }

    /// Fail-soft bound of the node when failing high: at least `beta`.
    fn high_bound(&self, node_lo: f64) -> i32 {
        self.units.score_of(node_lo).max(self.beta)
    }

    /// The node's bound once the weighted bounds of the outcomes fall outside the window.
    fn decided(&self) -> Option<i32> {
        let n = self.f.len();
        let node_hi: f64 = (0..n).map(|j| self.f[j] * self.hi[j]).sum();
        let node_lo: f64 = (0..n).map(|j| self.f[j] * self.lo[j]).sum();
        // At a window edge of 0 or 1 (a mate score or infinity) units cannot tell mates apart:
        // such a node is decided only once every outcome is known.
        if !self.low_edge && node_hi <= self.pa {
            Some(self.low_bound(node_hi))
        } else if !self.high_edge && node_lo >= self.pb {
            Some(self.high_bound(node_lo))
        } else {
            None
        }
    }

    /// The window in which outcome `i` is searched in `pass`, within its exact Star1 window
    /// `(ca, cb)` in scores: first an aspiration window `margin` around the node's own, then
    /// narrowed by what the first pass returned, last the exact Star1 window.
    fn pass_window(&self, pass: usize, i: usize, (ca, cb): (i32, i32), margin: i32) -> (i32, i32) {
        let (wa, wb) = match pass {
            0 => (
                ca.max(self.alpha.saturating_sub(margin)),
                cb.min(self.beta.saturating_add(margin)),
            ),
            1 => {
                // The outcome's own bound from the first pass narrows the Star1 window: the
                // value lies on the known side of it.
                let (mut wa, mut wb) = (ca, cb);
                if let Some(v0) = self.first[i] {
                    if self.hi[i] < 1.0 && v0 < wb {
                        wb = wb.min(v0.saturating_add(1));
                    }
                    if self.lo[i] > 0.0 && v0 > wa {
                        wa = wa.max(v0.saturating_sub(1));
                    }
                }
                (wa, wb)
            }
            _ => (ca, cb),
        };
        if wa < wb {
            (wa, wb)
        } else {
            (ca, cb)
        }
    }

    /// Books the value `v` of outcome `i` searched with window `(wa, wb)` inside its Star1
    /// window `(a, b)` (units) / `(ca, cb)` (scores); returns the node's bound once decided.
    fn record(&mut self, i: usize, v: i32, (wa, wb): (i32, i32), star: Star1Window) -> Option<i32> {
        if wa > -INF && v <= wa {
            self.hi[i] = self.hi[i].min(self.units.to_unit(v));
            if wa == star.ca {
                // Below the Star1 window: the node is at most alpha.
                return Some(self.low_bound(self.pa - self.f[i] * (star.a - self.hi[i])));
            }
        } else if wb < INF && v >= wb {
            self.lo[i] = self.lo[i].max(self.units.to_unit(v));
            if wb == star.cb {
                return Some(self.high_bound(self.pb - self.f[i] * (star.b - self.lo[i])));
            }
        } else {
            let u = self.units.to_unit(v);
            self.lo[i] = u;
            self.hi[i] = u;
            self.val[i] = Some(v);
        }
        self.decided()
    }
}

/// The Star1 window of one outcome, in units (`a`, `b`) and in scores (`ca`, `cb`).
#[derive(Clone, Copy)]
struct Star1Window {
    a: f64,
    b: f64,
    ca: i32,
    cb: i32,
}

impl<'a> Searcher<'a> {
    /// Value of one outcome of a flip, from the mover's view (`node` is the mover's, with the
    /// depth left for the outcome).
    fn outcome_value(&mut self, flip: &Flip, piece: Option<Piece>, node: Node) -> i32 {
        let c = outcome_position(flip.pos, flip.mv, piece, flip.learning);
        let flipped = !flip.learning as u32;
        self.path.push(super::alphabeta::Visit::new(c.hash()));
        self.flips += flipped;
        let v = -self.negamax(&c, node.child(), false);
        self.flips -= flipped;
        self.path.pop();
        v
    }

    /// Every outcome's cheap value, from the mover's view, with its share of the weight: its
    /// evaluation, or a quiescence value where the piece lands attacked (what that costs
    /// depends on the identity), with the whole range or, with `cheap_window`, within that
    /// margin of the node's window. With `searched`, a one-ply search instead
    /// (every reply, then quiescence; a window just inside the evaluation's range), which sees
    /// what the revealed piece threatens and what threatens it. `None` when the search was
    /// stopped.
    fn cheap_values(
        &mut self,
        flip: &Flip,
        outcomes: &Outcomes,
        node: Node,
        searched: bool,
    ) -> Option<Vec<(Piece, f64, i32)>> {
        let (pos, mv) = (flip.pos, flip.mv);
        let total = outcomes.total_weight() as f64;
        let lim = EVAL_LIMIT - 1;
        let one_ply = Node {
            depth: 1,
            alpha: -lim,
            beta: lim,
            pv: false,
            cut: false,
            ..node
        };
        // The quiescence window, from the mover's view.
        let margin = self.shared.params.cheap_window;
        let (lo, hi) = if margin == 0 {
            (-INF, INF)
        } else {
            (
                node.alpha.saturating_sub(margin).max(-INF),
                node.beta.saturating_add(margin).min(INF),
            )
        };
        let mut q: Vec<(Piece, f64, i32)> = Vec::with_capacity(outcomes.len());
        for (piece, w) in outcomes.iter() {
            let v = if searched {
                self.outcome_value(flip, Some(piece), one_ply)
            } else {
                let c = outcome_position(pos, mv, Some(piece), flip.learning);
                if c.is_attacked_by(mv.to(), c.side_to_move()) {
                    -self.qsearch(&c, -hi, -lo, node.ply + 1, 0)
                } else {
                    -self.evaluate(&c)
                }
            };
            if self.stopped {
                return None;
            }
            q.push((piece, w as f64 / total, v));
        }
        Some(q)
    }

    /// The weighted mean expected score of cheap values from [`Searcher::cheap_values`].
    fn mean_unit(units: Units, q: &[(Piece, f64, i32)]) -> f64 {
        q.iter().map(|&(_, f, v)| f * units.to_unit(v)).sum()
    }

    /// `value`, a chance node's value from the cheap values `q`, capped at the worst of them
    /// plus `chance_worst_margin` (unchanged when the cap is off or the worst is a mate).
    fn worst_capped(&self, value: i32, q: &[(Piece, f64, i32)]) -> i32 {
        let margin = self.shared.params.chance_worst_margin;
        let Some(worst) = q.iter().map(|&(_, _, v)| v).min() else {
            return value;
        };
        if margin == 0 || is_mate_score(worst) || is_mate_score(value) {
            return value;
        }
        value.min(worst.saturating_add(margin))
    }

    /// The unit in which this search's chance nodes average.
    fn units(&self) -> Units {
        Units::of(&self.shared.params)
    }

    /// Probing a chance node off the principal variation: every outcome gets a cheap value
    /// ([`Searcher::cheap_values`], searched one ply from `cheap_search_depth` plies left on);
    /// the outcome whose value is closest to their weighted mean (in the averaging unit) is
    /// searched to full depth, and the node's value is that result shifted by the mean's
    /// distance (the mean capped by [`Searcher::worst_capped`]) from the representative's cheap
    /// value. One deep search instead of one per identity: an estimate, not a bound of the
    /// exact expectation (so never used on the PV or in `pure` searches). `None` when the deep
    /// result is a mate, with `expand_mixed_checks` when some identities give check and others
    /// do not, with `expand_mixed_threats` when some threaten to win material and others do
    /// not, or with `probe_delta_limit` when the deep search moved the representative's value
    /// from its cheap value by more than the limit: the caller then expands every outcome. (A
    /// cheap value that is a mate only counts as a certain win or loss in the mean.)
    fn probe(&mut self, flip: &Flip, outcomes: &Outcomes, node: Node) -> Option<i32> {
        if self.shared.params.expand_mixed_checks && !flip.learning {
            // A captured piece's identity changes no check; a flipped one's may.
            let checks = checking_identities(flip.pos, flip.mv, outcomes);
            if checks > 0 && checks < outcomes.len() {
                return None;
            }
        }
        if self.shared.params.expand_mixed_threats && !flip.learning {
            let threats = threatening_identities(
                &self.shared.eval,
                flip.pos,
                flip.mv,
                outcomes,
                self.shared.params.threat_hidden_targets,
            );
            if threats > 0 && threats < outcomes.len() {
                return None;
            }
        }
        let from = self.shared.params.cheap_search_depth;
        let searched = from > 0 && node.depth >= from;
        let Some(q) = self.cheap_values(flip, outcomes, node, searched) else {
            return Some(0);
        };
        let (v, q_rep, mean) = self.search_representative(flip, &q, node)?;
        if self.stopped {
            return Some(0);
        }
        if is_mate_score(v) {
            return None;
        }
        let limit = self.shared.params.probe_delta_limit;
        if limit > 0 && (v - q_rep).abs() > limit {
            return None;
        }
        Some((v + mean - q_rep).clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// The search behind probing: the outcome whose cheap value in `q` is closest to their
    /// weighted mean (in the averaging unit) searched off the PV with `node`'s depth, its window
    /// shifted by the mean's distance (the mean capped by [`Searcher::worst_capped`]) from that
    /// cheap value. Returns the search's value, the representative's cheap value and the
    /// capped mean; `None` when `q` is empty.
    fn search_representative(
        &mut self,
        flip: &Flip,
        q: &[(Piece, f64, i32)],
        node: Node,
    ) -> Option<(i32, i32, i32)> {
        let units = self.units();
        let mean_u = Self::mean_unit(units, q);
        let mean = self.worst_capped(units.score_of(mean_u), q);
        let &(rep, _, q_rep) = q.iter().min_by(|a, b| {
            let da = (units.to_unit(a.2) - mean_u).abs();
            let db = (units.to_unit(b.2) - mean_u).abs();
            da.total_cmp(&db)
        })?;
        let offset = mean - q_rep;
        let lim = MATE_BOUND - 1;
        let shifted = Node {
            alpha: (node.alpha - offset).clamp(-lim, lim - 1),
            beta: (node.beta - offset).clamp(-lim + 1, lim),
            pv: false,
            ..node
        };
        Some((self.outcome_value(flip, Some(rep), shifted), q_rep, mean))
    }

    /// Probing a chance node with no ply left (`frontier_probe`): every identity's evaluation,
    /// and one quiescence search of the identity nearest their weighted mean (in the averaging
    /// unit); what that search adds to its identity's evaluation is added to every identity's,
    /// and the node's value is their weighted mean. What quiescence adds hardly depends on the
    /// identity of a captured piece, nor on a flipped one's when it lands unattacked and gives
    /// no check; a flip that may give check or lands attacked (and a search that returns a
    /// mate) gives `None`, and the caller searches every identity.
    fn frontier_probe(&mut self, flip: &Flip, outcomes: &Outcomes, node: Node) -> Option<i32> {
        let total = outcomes.total_weight() as f64;
        let mut q: Vec<(Piece, f64, i32)> = Vec::with_capacity(outcomes.len());
        for (piece, w) in outcomes.iter() {
            let c = outcome_position(flip.pos, flip.mv, Some(piece), flip.learning);
            // A captured piece's identity changes no attack and no check.
            if !flip.learning && (c.in_check() || c.is_attacked_by(flip.mv.to(), c.side_to_move()))
            {
                return None;
            }
            q.push((piece, w as f64 / total, -self.evaluate(&c)));
        }
        let (v, q_rep, _) = self.search_representative(flip, &q, node)?;
        if self.stopped {
            return Some(0);
        }
        if is_mate_score(v) {
            return None;
        }
        // What quiescence added to the representative's evaluation, added to every identity's
        // before averaging in units (its window was shifted by the centipawn mean: near
        // enough to bound the search).
        let added = v - q_rep;
        for e in q.iter_mut() {
            e.2 = (e.2 + added).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let units = self.units();
        let value = units.score_of(Self::mean_unit(units, &q));
        Some(self.worst_capped(value, &q))
    }

    /// The value of a chance node searched no deeper: the weighted mean of the outcomes'
    /// cheap values (a mate only when every outcome is one).
    fn cheap_mean(&mut self, flip: &Flip, outcomes: &Outcomes, node: Node) -> i32 {
        let Some(q) = self.cheap_values(flip, outcomes, node, false) else {
            return 0;
        };
        let units = self.units();
        let mean_u = Self::mean_unit(units, &q);
        let vals: Vec<i32> = q.iter().map(|&(_, _, v)| v).collect();
        self.worst_capped(units.expected_value(&vals, mean_u), &q)
    }

    /// The chance node after the flip `mv` (or after `mv` captures a face-down piece whose
    /// identity the mover learns); `node` is the mover's, with the depth left for the outcomes.
    /// Returns a value, or a bound outside the window on a cut.
    pub(crate) fn chance(&mut self, pos: &Position, mv: Move, node: Node) -> i32 {
        // A flip draws the mover's identity; a capture of a face-down piece by the root side
        // (not a flip) teaches the capturer the victim's identity, drawn from its pool.
        let learning = !pos.is_flip(mv);
        let flip = Flip { pos, mv, learning };
        let outcomes = if learning {
            pos.flip_outcomes(mv.to())
        } else {
            pos.flip_outcomes(mv.from())
        };
        if outcomes.len() <= 1 {
            let piece = outcomes.as_slice().first().map(|&(p, _)| p);
            return self.outcome_value(&flip, piece, node);
        }
        let Node { alpha, beta, .. } = node;
        let (limit, exempt) = (
            self.shared.params.full_depth_flips,
            self.shared.params.full_flip_depth,
        );
        let near_root = exempt > 0 && node.depth >= exempt;
        if limit > 0 && !self.shared.pure && self.flips >= limit && !learning && !near_root {
            return self.cheap_mean(&flip, &outcomes, node);
        }
        // No ply left, off the principal variation.
        if !node.pv && node.depth <= 0 && !self.shared.pure {
            if !learning && self.shared.params.frontier_flip_identity {
                // As in quiescence: one identity, no chance node.
                let piece = self.quiescence_identity_among(pos, &outcomes);
                return self.outcome_value(&flip, piece, node);
            }
            if self.shared.params.frontier_probe >= if learning { 1 } else { 2 }
                && alpha > -EVAL_LIMIT
                && beta < EVAL_LIMIT
            {
                if let Some(v) = self.frontier_probe(&flip, &outcomes, node) {
                    return v;
                }
            }
        }
        if !node.pv
            && node.depth >= 1
            && !self.shared.pure
            && self.shared.params.probe
            && node.ply as i32 >= self.shared.params.exact_flip_plies
            && self.exact_at != Some(node.ply)
            && alpha > -EVAL_LIMIT
            && beta < EVAL_LIMIT
        {
            if let Some(v) = self.probe(&flip, &outcomes, node) {
                return v;
            }
        }
        let variant = pos.variant();
        let mut order: Vec<(Piece, u8)> = outcomes.iter().collect();
        order.sort_by_key(|&(p, w)| {
            -(w as i32)
                * self
                    .shared
                    .eval
                    .piece_value(variant, p.role)
                    .max(MIN_ORDER_VALUE)
        });
        let total = outcomes.total_weight() as f64;
        if alpha < EVAL_LIMIT && beta > -EVAL_LIMIT {
            self.expand_star1(&flip, &order, total, node)
        } else if !self.shared.params.mate_windows {
            // A window at the edge of the evaluation's range: only mates in every outcome can
            // decide it, and units cannot tell mates apart. Rare; search every outcome exactly.
            self.expand_exactly(&flip, &order, total, node)
        } else if alpha >= EVAL_LIMIT {
            self.expand_for_mate(&flip, &order, node)
        } else {
            self.expand_against_mate(&flip, &order, node)
        }
    }

    /// Every outcome searched with a full window; the exact expectation.
    fn expand_exactly(
        &mut self,
        flip: &Flip,
        order: &[(Piece, u8)],
        total: f64,
        node: Node,
    ) -> i32 {
        let mut vals = Vec::with_capacity(order.len());
        for &(piece, _) in order {
            let full = Node {
                alpha: -INF,
                beta: INF,
                ..node
            };
            let v = self.outcome_value(flip, Some(piece), full);
            if self.stopped {
                return 0;
            }
            vals.push(v);
        }
        let units = self.units();
        let mean: f64 = order
            .iter()
            .zip(&vals)
            .map(|(&(_, w), &v)| w as f64 / total * units.to_unit(v))
            .sum();
        units.expected_value(&vals, mean)
    }

    /// With `mate_windows`, a chance node whose window lies above the evaluation's range
    /// (`alpha >= EVAL_LIMIT`): its value exceeds alpha only when every outcome is a mate for
    /// the mover, and is then the slowest of those mates (see [`Units::expected_value`]). Each
    /// outcome is searched with a window from alpha, or from just above `MATE_BOUND` (where no
    /// evaluation and no mate within `MAX_PLY` plies lies, and where the window is a mate
    /// window to the pruning below), up to the slowest mate found so far; the first outcome at
    /// or below it decides the node.
    fn expand_for_mate(&mut self, flip: &Flip, order: &[(Piece, u8)], node: Node) -> i32 {
        let floor = node.alpha.max(MATE_BOUND + 1);
        let mut slowest = INF;
        for &(piece, _) in order {
            let window = Node {
                alpha: floor,
                beta: node.beta.min(slowest).max(floor + 1),
                ..node
            };
            let v = self.outcome_value(flip, Some(piece), window);
            if self.stopped {
                return 0;
            }
            if v <= floor {
                // At most v if every outcome is a mate, and within the evaluation's range if
                // not; not a mate at all when v is above alpha.
                return if v <= node.alpha {
                    v.max(EVAL_LIMIT)
                } else {
                    EVAL_LIMIT
                };
            }
            slowest = slowest.min(v);
        }
        slowest
    }

    /// With `mate_windows`, a chance node whose window lies below the evaluation's range
    /// (`beta <= -EVAL_LIMIT`): its value is below beta only when every outcome is a mate
    /// against the mover, and is then the fastest of them. Each outcome is searched with a
    /// window up to `-MATE_BOUND` (an outcome that is not mated lifts the node to at least
    /// `-EVAL_LIMIT`, a cut) from alpha, or, once an outcome is known to be at or below alpha,
    /// with the null window that only asks whether it is mated.
    fn expand_against_mate(&mut self, flip: &Flip, order: &[(Piece, u8)], node: Node) -> i32 {
        let ceiling = -MATE_BOUND;
        let mut fastest = INF;
        for &(piece, _) in order {
            let low = if fastest <= node.alpha {
                ceiling - 1
            } else {
                node.alpha.min(ceiling - 1)
            };
            let window = Node {
                alpha: low,
                beta: ceiling,
                ..node
            };
            let v = self.outcome_value(flip, Some(piece), window);
            if self.stopped {
                return 0;
            }
            if v >= ceiling {
                return -EVAL_LIMIT;
            }
            fastest = fastest.min(v);
        }
        fastest
    }

    /// Star1: each outcome gets a window derived from the searched outcomes and the bounds
    /// [0, 1] of the unsearched ones; the node is decided as soon as the weighted bounds fall
    /// outside (alpha, beta). First pass: an aspiration window near the node's own for every
    /// outcome; later passes: outcomes still known only by a bound, with their Star1 window.
    fn expand_star1(&mut self, flip: &Flip, order: &[(Piece, u8)], total: f64, node: Node) -> i32 {
        let n = order.len();
        let f: Vec<f64> = order.iter().map(|&(_, w)| w as f64 / total).collect();
        let mut st = Star1::new(f, node.alpha, node.beta, self.units());
        let margin = if node.pv {
            self.shared.params.outcome_margin
        } else {
            0
        };
        let pv_first = self.shared.params.pv_first_outcome;
        for pass in 0..3 {
            for (i, &(piece, _)) in order.iter().enumerate() {
                if st.val[i].is_some() {
                    continue;
                }
                let (a, b) = st.window(i);
                if a >= 1.0 && !st.low_edge {
                    // Even a certain win here cannot lift the node above alpha.
                    return st.low_bound(st.pa - st.f[i] * (a - st.hi[i]));
                }
                if b <= 0.0 && !st.high_edge {
                    return st.high_bound(st.pb - st.f[i] * (b - st.lo[i]));
                }
                let ca = if a <= 0.0 || st.low_edge {
                    -INF
                } else {
                    st.units.floor_score(a)
                };
                let cb = if b >= 1.0 || st.high_edge {
                    INF
                } else {
                    st.units.ceil_score(b)
                };
                let (wa, wb) = st.pass_window(pass, i, (ca, cb), margin);
                // Outcomes after the heaviest are searched one ply shallower away from the PV.
                let reduce =
                    !node.pv && i > 0 && node.depth >= OUTCOME_REDUCTION_DEPTH && !self.shared.pure;
                // Like the later moves of a PV node, the later outcomes of a PV chance node
                // are searched as nodes off the PV.
                let outcome = Node {
                    depth: node.depth - reduce as i32,
                    alpha: wa,
                    beta: wb,
                    ply: node.ply,
                    pv: node.pv && (i == 0 || !pv_first),
                    cut: node.cut,
                };
                let v = self.outcome_value(flip, Some(piece), outcome);
                if self.stopped {
                    return 0;
                }
                if pass == 0 {
                    st.first[i] = Some(v);
                }
                let star = Star1Window { a, b, ca, cb };
                if let Some(r) = st.record(i, v, (wa, wb), star) {
                    return r;
                }
            }
        }
        // Every outcome is exact here (the last pass searched with the exact Star1 windows).
        let vals: Vec<i32> = st.val.iter().map(|v| v.unwrap_or(0)).collect();
        let mean: f64 = (0..n).map(|j| st.f[j] * st.lo[j]).sum();
        st.units.expected_value(&vals, mean)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::core::{MoveList, Variant};
    use crate::search::alphabeta::MATE;
    use crate::search::eval::Evaluator;
    use crate::search::params::SearchParams;
    use crate::search::shared::Shared;
    use crate::search::testgames::random_game;
    use crate::search::tt::Tt;

    /// Jieqi positions from random games (each flip turns out as a random identity).
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for game in 0..6 {
            for (ply, pos) in random_game(Variant::Jieqi, &mut x, 40)
                .into_iter()
                .enumerate()
            {
                if ply % 8 == 3 + game % 3 && !pos.in_check() {
                    out.push(pos);
                }
            }
        }
        out
    }

    /// The first `per` flips among the legal moves of each of the first `count` positions of
    /// [`positions`].
    fn first_flips(count: usize, per: usize) -> Vec<(Position, Move)> {
        let mut out = Vec::new();
        for pos in positions().into_iter().take(count) {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let moves = list.as_slice().iter().filter(|&&m| pos.is_flip(m));
            out.extend(moves.take(per).map(|&mv| (pos, mv)));
        }
        out
    }

    /// A flip's distance counts at most this much in [`probe_error`]: beyond it the estimate
    /// is wrong either way, and one flip whose two values sit at the evaluation's opposite
    /// limits (8,000 apart) would otherwise outweigh the rest of the set.
    const PROBE_ERROR_CAP: i32 = 1000;

    /// How far probing lands from the full expectation at depth 2: the mean distance (each at
    /// most [`PROBE_ERROR_CAP`]), flip by flip, between the value with `probed` (Jieqi's
    /// parameters, changed by it) and with probing off, over the first six flips of each of
    /// these positions (mates left out), and how many flips counted.
    fn probe_error(probed: impl Fn(SearchParams) -> SearchParams) -> (f64, usize) {
        probe_error_from(SearchParams::for_variant(Variant::Jieqi), probed)
    }

    /// [`probe_error`] from the parameters `base` instead of Jieqi's.
    fn probe_error_from(
        base: SearchParams,
        probed: impl Fn(SearchParams) -> SearchParams,
    ) -> (f64, usize) {
        let full = SearchParams {
            probe: false,
            ..base
        };
        let mut diffs = Vec::new();
        for (pos, mv) in first_flips(usize::MAX, 6) {
            let a = flip_search(&pos, mv, 2, probed(base), 0).0;
            let b = flip_search(&pos, mv, 2, full, 0).0;
            if !is_mate_score(a) && !is_mate_score(b) {
                diffs.push((a - b).abs().min(PROBE_ERROR_CAP));
            }
        }
        let mean = diffs.iter().sum::<i32>() as f64 / diffs.len().max(1) as f64;
        (mean, diffs.len())
    }

    /// The value of the flip `mv` off the PV with `params`, `flips` flips above it, and the
    /// nodes searched.
    fn flip_search(
        pos: &Position,
        mv: Move,
        depth: i32,
        params: SearchParams,
        flips: u32,
    ) -> (i32, u64) {
        let w = EVAL_LIMIT - 1;
        flip_search_in(pos, mv, depth, params, flips, (-w, w))
    }

    /// [`flip_search`] with the window `(alpha, beta)`.
    fn flip_search_in(
        pos: &Position,
        mv: Move,
        depth: i32,
        params: SearchParams,
        flips: u32,
        (alpha, beta): (i32, i32),
    ) -> (i32, u64) {
        with_searcher(pos, params, |s| {
            s.flips = flips;
            let v = s.chance(pos, mv, Node::root(depth, alpha, beta, false));
            (v, s.nodes)
        })
    }

    /// `f` run by a fresh searcher with `params` and its own table, at the root `pos`.
    fn with_searcher<T>(
        pos: &Position,
        params: SearchParams,
        f: impl FnOnce(&mut Searcher) -> T,
    ) -> T {
        let shared = Shared::new(
            Arc::new(Tt::new(2)),
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
            params,
            Arc::new(Evaluator::new(None)),
        );
        let mut s = Searcher::new(&shared, false);
        s.set_path(&[], pos);
        s.root_side = Some(pos.side_to_move());
        f(&mut s)
    }

    /// With `verify_fail_highs`, a flip whose probed null-window search beats alpha is checked
    /// by the same null window with its own chance node expanded identity by identity, and the
    /// check returns that value exactly when it does not beat alpha (the outer searches' own
    /// expansion is restored afterwards). With alpha one below each flip's probed value, the
    /// probe's null window fails high at many of these flips (94), and the expansion refutes
    /// over a third of those fail highs (35).
    #[test]
    fn a_probed_fail_high_is_checked_on_the_expanded_chance_node() {
        let params = SearchParams {
            verify_fail_highs: true,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let (mut highs, mut refuted) = (0, 0);
        for (pos, mv) in first_flips(usize::MAX, 6) {
            let probed = flip_search(&pos, mv, 2, params, 0).0;
            if is_mate_score(probed) {
                continue;
            }
            let null = Node::root(2, probed - 1, probed, false);
            let high = with_searcher(&pos, params, |s| s.chance(&pos, mv, null));
            if high <= null.alpha {
                continue;
            }
            highs += 1;
            let expanded = with_searcher(&pos, params, |s| {
                s.exact_at = Some(0);
                s.chance(&pos, mv, null)
            });
            let checked = with_searcher(&pos, params, |s| {
                let checked = s.refuted_fail_high(&pos, mv, null);
                assert_eq!(s.exact_at, None);
                checked
            });
            assert_eq!(checked, (expanded <= null.alpha).then_some(expanded));
            refuted += checked.is_some() as usize;
        }
        eprintln!("{refuted} of {highs} fail highs refuted");
        assert!(highs >= 50, "{highs} fail highs");
        assert!(refuted > 0 && refuted < highs, "{refuted} of {highs}");
    }

    /// Past `full_depth_flips` flips on the line, a flip is not searched deeper: its value and
    /// the nodes spent on it are the same at every depth, unless `full_flip_depth` exempts the
    /// depths from it on. Above the limit the depth counts
    /// (83 of the 89 flips here cost more at depth 3 than at depth 1; pruning cuts the others).
    #[test]
    fn flips_past_the_limit_are_valued_without_searching_deeper() {
        let params = SearchParams {
            full_depth_flips: 2,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let (mut checked, mut deeper_costs_more) = (0, 0);
        for (pos, mv) in first_flips(usize::MAX, 3) {
            if pos.flip_outcomes(mv.from()).len() <= 1 {
                continue;
            }
            let shallow = flip_search(&pos, mv, 1, params, 2);
            let deep = flip_search(&pos, mv, 4, params, 2);
            assert_eq!(shallow, deep, "{} {mv}", pos.fen());
            assert!(!is_mate_score(deep.0));
            checked += 1;
            // With `full_flip_depth` the limit holds only below that depth.
            let near_root = SearchParams {
                full_flip_depth: 3,
                ..params
            };
            assert_eq!(flip_search(&pos, mv, 2, near_root, 2), shallow);
            assert!(flip_search(&pos, mv, 3, near_root, 2).1 > shallow.1);
            let above = (
                flip_search(&pos, mv, 1, params, 1).1,
                flip_search(&pos, mv, 3, params, 1).1,
            );
            if above.1 > above.0 {
                deeper_costs_more += 1;
            }
        }
        assert!(checked >= 20, "{checked} flips");
        // Above the limit a deeper search costs more (except where pruning cuts it short).
        assert!(
            deeper_costs_more * 10 >= checked * 8,
            "{deeper_costs_more} of {checked}"
        );
    }

    /// At any scale the rounding helpers bracket an expected score exactly: the floor's unit is
    /// at most it and the next score's above it, and the ceiling mirrors that.
    #[test]
    fn units_bracket_expected_scores_at_every_scale() {
        for scale in [50.0, LOGISTIC_SCALE, 1000.0, 10000.0] {
            let u = Units::new(scale);
            for k in 1..200 {
                let p = k as f64 / 200.0;
                let lo = u.floor_score(p);
                assert!(
                    u.to_unit(lo) <= p && u.to_unit(lo + 1) > p,
                    "{scale} {p} {lo}"
                );
                let hi = u.ceil_score(p);
                assert!(
                    u.to_unit(hi) >= p && u.to_unit(hi - 1) < p,
                    "{scale} {p} {hi}"
                );
            }
            assert_eq!(u.score_of(0.5), 0);
            assert_eq!(u.to_unit(MATE_BOUND + 1), 1.0);
            assert_eq!(u.to_unit(-MATE_BOUND - 1), 0.0);
        }
    }

    /// The scale sets the engine's attitude to risk: two equally likely outcomes of +600 and
    /// -200 are worth +63 on the default scale (a sure +200 is preferred), and near their
    /// centipawn mean, +200, on a wide one.
    #[test]
    fn a_wider_scale_averages_nearer_centipawns() {
        let value = |scale: f64| {
            let u = Units::new(scale);
            let mean = 0.5 * u.to_unit(600) + 0.5 * u.to_unit(-200);
            u.expected_value(&[600, -200], mean)
        };
        assert_eq!(value(LOGISTIC_SCALE), 63);
        assert!((195..=200).contains(&value(10000.0)), "{}", value(10000.0));
        assert!(value(1000.0) > value(LOGISTIC_SCALE) && value(1000.0) < value(10000.0));
        // Mates stay exact whatever the scale.
        let u = Units::new(1000.0);
        assert_eq!(u.expected_value(&[MATE - 5, MATE - 9], 1.0), MATE - 9);
    }

    /// `chance_scale` reaches the chance nodes: searched on a wider scale, most flips of these
    /// positions change value.
    #[test]
    fn the_chance_scale_parameter_reaches_the_search() {
        let base = SearchParams {
            chance_scale: LOGISTIC_SCALE as i32,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let wide = SearchParams {
            chance_scale: 2000,
            ..base
        };
        let (mut flips, mut changed) = (0, 0);
        for (pos, mv) in first_flips(8, 3) {
            flips += 1;
            if flip_search(&pos, mv, 2, base, 0).0 != flip_search(&pos, mv, 2, wide, 0).0 {
                changed += 1;
            }
        }
        assert!(flips >= 10, "{flips} flips");
        assert!(changed * 2 >= flips, "{changed} of {flips}");
    }

    /// `chance_worst_margin` caps the flips valued from cheap values (probed, and past the flip
    /// budget): never above their uncapped value, and lower for some of these flips.
    #[test]
    fn the_worst_outcome_cap_lowers_flips_off_the_pv() {
        let base = SearchParams::for_variant(Variant::Jieqi);
        let capped = SearchParams {
            chance_worst_margin: 100,
            ..base
        };
        let budget = |p: SearchParams| SearchParams {
            full_depth_flips: 1,
            ..p
        };
        let (mut flips, mut lower_probed, mut lower_cheap) = (0, 0, 0);
        for (pos, mv) in first_flips(8, 3) {
            if pos.flip_outcomes(mv.from()).len() <= 1 {
                continue;
            }
            flips += 1;
            let (a, b) = (
                flip_search(&pos, mv, 2, base, 0).0,
                flip_search(&pos, mv, 2, capped, 0).0,
            );
            assert!(b <= a, "{} {mv}: {b} > {a}", pos.fen());
            lower_probed += (b < a) as u32;
            let (a, b) = (
                flip_search(&pos, mv, 2, budget(base), 1).0,
                flip_search(&pos, mv, 2, budget(capped), 1).0,
            );
            assert!(b <= a, "{} {mv}: {b} > {a}", pos.fen());
            lower_cheap += (b < a) as u32;
        }
        assert!(flips >= 10, "{flips} flips");
        assert!(
            lower_probed > 0 && lower_cheap > 0,
            "{lower_probed} {lower_cheap} of {flips}"
        );
    }

    /// Probing estimates each flip's expectation from one deep search and the identities'
    /// static differences: compared with the full expectation, flip by flip, the error stays
    /// smaller than without the shift (measured at depth 2 on these random-game positions, 169
    /// flips, with Jieqi's parameters: mean 89 cp; the representative's value unshifted: 119;
    /// the shift with its sign reversed: 151). The bound sits between the right shift and
    /// either mistake.
    #[test]
    fn probe_estimates_each_flip_closely() {
        let (mean, flips) = probe_error(|p| p);
        eprintln!("{flips} flips, mean |difference| {mean:.1}");
        assert!(flips >= 60, "{flips} flips");
        assert!(mean < 105.0, "mean {mean}");
    }

    /// With `cheap_search_depth`, probing's cheap values come from one-ply searches that see
    /// what each revealed piece threatens and meets, and the estimate comes nearer the full
    /// expectation where quiescence's flips turn out as their most likely identity
    /// (`qsearch_flip_identity` 0; measured at depth 2 on these random-game positions: mean
    /// error 54.5 cp with evaluations, 46.1 with one-ply searches). With Jieqi's default, the
    /// identity nearest the mean value, both come to 53.4: the one-ply searches no longer help.
    /// Measured without pruning by static exchange (`see_depth` 0): with Jieqi's default of 8
    /// the one-ply searches skip many of the replies they would see, and their gain shrinks
    /// (48.7 against 54.2).
    #[test]
    fn one_ply_cheap_values_bring_the_probe_nearer_the_expectation() {
        let likeliest = SearchParams {
            qsearch_flip_identity: 0,
            see_depth: 0,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let error = |cheap_search_depth: i32| {
            let (mean, flips) = probe_error_from(likeliest, |p| SearchParams {
                cheap_search_depth,
                ..p
            });
            assert!(flips >= 60, "{flips} flips");
            mean
        };
        let (evaluated, searched) = (error(0), error(2));
        eprintln!("mean |difference|: {evaluated:.1} evaluated, {searched:.1} searched");
        assert!(
            searched < evaluated * 0.85,
            "{searched} against {evaluated}"
        );
    }

    /// With `cheap_window`, the quiescence searches behind probing's cheap values stop at a
    /// margin around the chance node's window. Null-window probes 100 cp either side of each
    /// flip's probed value then search fewer nodes and nearly always decide as with the whole
    /// range (measured at depth 2 on these random-game positions with the margin at 300: 333 of
    /// 338 probes decide alike, with 22,787 nodes against 25,686). Measured without pruning by
    /// static exchange (`see_depth` 0), which skips much of what the window saves: with Jieqi's
    /// default of 8 the saving falls to about 5% (34,328 nodes against 36,005).
    #[test]
    fn a_cheap_window_saves_nodes_and_keeps_the_probes_decisions() {
        let full = SearchParams {
            cheap_window: 0,
            see_depth: 0,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let narrow = SearchParams {
            cheap_window: 300,
            ..full
        };
        let (mut probes, mut agree, mut nodes_narrow, mut nodes_full) = (0, 0, 0, 0);
        for (pos, mv) in first_flips(usize::MAX, 6) {
            let v = flip_search(&pos, mv, 2, full, 0).0;
            if is_mate_score(v) {
                continue;
            }
            for alpha in [v - 100, v + 100] {
                let window = (alpha, alpha + 1);
                let a = flip_search_in(&pos, mv, 2, narrow, 0, window);
                let b = flip_search_in(&pos, mv, 2, full, 0, window);
                probes += 1;
                agree += ((a.0 > alpha) == (b.0 > alpha)) as u32;
                nodes_narrow += a.1;
                nodes_full += b.1;
            }
        }
        eprintln!("{agree} of {probes} agree, nodes {nodes_narrow} against {nodes_full}");
        assert!(probes >= 200, "{probes} probes");
        assert!(agree * 100 >= probes * 95, "{agree} of {probes}");
        assert!(
            nodes_narrow * 20 < nodes_full * 19,
            "{nodes_narrow} against {nodes_full}"
        );
    }

    /// With `frontier_flip_identity`, a flip made with no ply left, off the principal
    /// variation, is valued as quiescence values a flip: the one position after the identity
    /// quiescence picks, searched by quiescence, for far fewer nodes than one search per
    /// identity.
    #[test]
    fn frontier_flips_turn_out_as_the_identity_quiescence_picks() {
        let off = SearchParams {
            frontier_flip_identity: false,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let on = SearchParams {
            frontier_flip_identity: true,
            ..off
        };
        let shared = Shared::with_params(on);
        let w = EVAL_LIMIT - 1;
        let (mut checked, mut nodes_on, mut nodes_off) = (0, 0, 0);
        for (pos, mv) in first_flips(usize::MAX, 6) {
            if pos.flip_outcomes(mv.from()).len() <= 1 {
                continue;
            }
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &pos);
            s.root_side = Some(pos.side_to_move());
            let identity = s.quiescence_identity(&pos, mv);
            let c = outcome_position(&pos, mv, identity, false);
            if !c.in_check() && !c.has_legal_move() {
                continue;
            }
            let expected = -s.qsearch(&c, -w, w, 1, 0);
            let (a, b) = (
                flip_search(&pos, mv, 0, on, 0),
                flip_search(&pos, mv, 0, off, 0),
            );
            assert_eq!(a.0, expected, "{} {mv}", pos.fen());
            checked += 1;
            nodes_on += a.1;
            nodes_off += b.1;
        }
        eprintln!("{checked} flips: nodes {nodes_on} against {nodes_off}");
        assert!(checked >= 100, "{checked} flips");
        assert!(nodes_on * 3 < nodes_off, "{nodes_on} against {nodes_off}");
    }

    /// With `frontier_probe` 2, a flip made with no ply left whose piece lands unattacked and
    /// gives check in no identity gets one quiescence search instead of one per identity: fewer
    /// nodes, and a value near the full expectation. Measured on these random-game positions
    /// (145 such flips, 1,197 nodes against 5,467): mean error 37.7 cp, where the
    /// representative's value alone is off by 79.5. Every other flip is searched as without
    /// it.
    #[test]
    fn frontier_probing_is_cheaper_and_close_to_the_expectation() {
        let off = SearchParams {
            frontier_probe: 0,
            frontier_flip_identity: false,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let on = SearchParams {
            frontier_probe: 2,
            ..off
        };
        let (mut probed, mut exposed, mut diff, mut nodes_on, mut nodes_off) = (0, 0, 0, 0, 0);
        for (pos, mv) in first_flips(usize::MAX, 6) {
            let outcomes = pos.flip_outcomes(mv.from());
            let (a, b) = (
                flip_search(&pos, mv, 0, on, 0),
                flip_search(&pos, mv, 0, off, 0),
            );
            let open = outcomes.len() > 1
                && outcomes.iter().all(|(p, _)| {
                    let c = outcome_position(&pos, mv, Some(p), false);
                    !c.in_check() && !c.is_attacked_by(mv.to(), c.side_to_move())
                });
            if !open {
                assert_eq!(a, b, "{} {mv}", pos.fen());
                exposed += 1;
                continue;
            }
            probed += 1;
            diff += (a.0 - b.0).abs();
            nodes_on += a.1;
            nodes_off += b.1;
        }
        let mean = diff as f64 / probed.max(1) as f64;
        eprintln!(
            "{probed} probed ({exposed} not): mean |difference| {mean:.1}, nodes {nodes_on} \
             against {nodes_off}"
        );
        assert!(
            probed >= 60 && exposed >= 10,
            "{probed} probed, {exposed} not"
        );
        assert!(mean < 60.0, "mean {mean}");
        assert!(nodes_on < nodes_off, "{nodes_on} against {nodes_off}");
    }

    /// With `frontier_probe` 1, a capture of a face-down piece made with no ply left (the
    /// capturer learns its identity) gets one quiescence search instead of one per identity:
    /// what the identity changes beyond the evaluation is what the captured piece would have
    /// done, and it is gone. Measured on these random-game positions (46 captures, 483 nodes
    /// against 2,223): mean error 1.9 cp, where the representative's value alone is off by
    /// 96.4. Flips are searched as without it.
    #[test]
    fn frontier_probing_of_captures_is_cheaper_and_nearly_exact() {
        let off = SearchParams {
            frontier_probe: 0,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let on = SearchParams {
            frontier_probe: 1,
            ..off
        };
        let (mut captures, mut diff, mut nodes_on, mut nodes_off) = (0, 0, 0, 0);
        for pos in positions() {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            for &mv in list.as_slice() {
                if pos.is_flip(mv) {
                    assert_eq!(
                        flip_search(&pos, mv, 0, on, 0),
                        flip_search(&pos, mv, 0, off, 0),
                        "{} {mv}",
                        pos.fen()
                    );
                    continue;
                }
                if !pos.captures_hidden(mv) || pos.flip_outcomes(mv.to()).len() <= 1 {
                    continue;
                }
                let (a, b) = (
                    flip_search(&pos, mv, 0, on, 0),
                    flip_search(&pos, mv, 0, off, 0),
                );
                captures += 1;
                diff += (a.0 - b.0).abs();
                nodes_on += a.1;
                nodes_off += b.1;
            }
        }
        let mean = diff as f64 / captures.max(1) as f64;
        eprintln!(
            "{captures} captures: mean |difference| {mean:.1}, nodes {nodes_on} against \
             {nodes_off}"
        );
        assert!(captures >= 30, "{captures} captures");
        assert!(mean < 10.0, "mean {mean}");
        assert!(nodes_on < nodes_off, "{nodes_on} against {nodes_off}");
    }

    /// With `exact_flip_plies`, a flip made within that many plies of the root is expanded
    /// identity by identity even off the PV, and probing still applies below. At depth 1 the
    /// root's flip is the only chance node with a ply left to probe, so 1 gives the full
    /// expectation there; at depth 2 the replies' flips have a ply left too: 2 gives the full
    /// expectation, 1 probes them.
    #[test]
    fn flips_near_the_root_are_expanded_exactly() {
        let base = SearchParams::for_variant(Variant::Jieqi);
        let full = SearchParams {
            probe: false,
            ..base
        };
        let exact = |plies| SearchParams {
            exact_flip_plies: plies,
            ..base
        };
        let (mut checked, mut probed_differs, mut below_differs) = (0, 0, 0);
        for (pos, mv) in first_flips(8, 3) {
            let expected = flip_search(&pos, mv, 1, full, 0);
            assert_eq!(flip_search(&pos, mv, 1, exact(1), 0), expected, "{mv}");
            if flip_search(&pos, mv, 1, base, 0) != expected {
                probed_differs += 1;
            }
            let deeper = flip_search(&pos, mv, 2, full, 0);
            assert_eq!(flip_search(&pos, mv, 2, exact(2), 0), deeper, "{mv}");
            if flip_search(&pos, mv, 2, exact(1), 0) != deeper {
                below_differs += 1;
            }
            checked += 1;
        }
        eprintln!("{checked} flips: {probed_differs} probed, {below_differs} probed below");
        assert!(checked >= 15, "{checked} flips");
        assert!(
            probed_differs * 2 >= checked,
            "{probed_differs} of {checked}"
        );
        assert!(below_differs * 2 >= checked, "{below_differs} of {checked}");
    }

    /// Red's elephant-point piece flips to e2 while Black's cannon on a3 threatens the chariot
    /// on d3 (over c3) and mate along the back rank (over d0): turned out a cannon, it checks
    /// Black's king over e7 and Red gets away; as any of the other three identities it does
    /// not, and Red loses. Probing carries one identity's search over to all of them and lands
    /// far above the exact expectation (+2848 against -603 here); with `expand_mixed_checks`
    /// every identity is searched, and the value is the exact one.
    #[test]
    fn a_flip_that_checks_as_some_identities_only_is_expanded() {
        let fen = "4k1x1x/1P7/1a2p4/1a6P/2p6/b5B2/c1XR5/2P6/4P2A1/3XK1X1X w R1C1P1N2r1n1 r1p1b1";
        let (pos, mv) = flip_in(&format!("{fen} 0 32"), "g0e2");
        let outcomes = pos.flip_outcomes(mv.from());
        assert_eq!(
            (checking_identities(&pos, mv, &outcomes), outcomes.len()),
            (1, 4)
        );
        let (exact, probed, expanded) =
            exact_probed_expanded(&pos, mv, |p| p.expand_mixed_checks = true);
        assert_eq!(expanded, exact);
        assert!(probed > exact + 1000, "{probed} {exact}");
    }

    /// The value of the flip `mv` from `pos` searched to depth 3 by Jieqi's parameters with
    /// both expansions of mixed flips off: without probing (the exact expectation), with
    /// probing, and with probing and what `expand` switches on.
    fn exact_probed_expanded(
        pos: &Position,
        mv: Move,
        expand: fn(&mut SearchParams),
    ) -> (i32, i32, i32) {
        exact_probed_expanded_from(SearchParams::for_variant(Variant::Jieqi), pos, mv, expand)
    }

    /// [`exact_probed_expanded`] from the parameters `base` instead of Jieqi's.
    fn exact_probed_expanded_from(
        base: SearchParams,
        pos: &Position,
        mv: Move,
        expand: fn(&mut SearchParams),
    ) -> (i32, i32, i32) {
        let off = SearchParams {
            expand_mixed_checks: false,
            expand_mixed_threats: false,
            ..base
        };
        let mut on = off;
        expand(&mut on);
        let value = |probe: bool, params: SearchParams| {
            flip_search(pos, mv, 3, SearchParams { probe, ..params }, 0).0
        };
        (value(false, off), value(true, off), value(true, on))
    }

    /// Red's pawn-point piece steps to a4 beside Black's chariot on c5, walled in by Black's own
    /// pieces: turned out a horse, it attacks the chariot, which cannot get away; as a chariot
    /// or a pawn it attacks nothing worth more than itself. Probing carries one identity's
    /// search over to all three (-1142 against -964 here, the horse's threat lost); with
    /// `expand_mixed_threats` every identity is searched, and the value is the exact one.
    #[test]
    fn a_flip_that_threatens_as_some_identities_only_is_expanded() {
        let fen = "3k5/9/9/2p6/1prp5/2a6/X8/9/9/4K4 w R1N1P1 0 40";
        let (pos, mv) = flip_in(fen, "a3a4");
        let outcomes = pos.flip_outcomes(mv.from());
        let eval = Evaluator::new(None);
        assert_eq!(
            (
                threatening_identities(&eval, &pos, mv, &outcomes, 0),
                outcomes.len()
            ),
            (1, 3)
        );
        let (exact, probed, expanded) =
            exact_probed_expanded(&pos, mv, |p| p.expand_mixed_threats = true);
        assert_eq!(expanded, exact);
        assert!((probed - exact).abs() > 100, "{probed} {exact}");
    }

    /// Red's pawn-point piece steps to c4 below Black's face-down pieces on c6 and e6, which
    /// nothing of Black's defends. As an elephant it attacks e6 and is worth less than a
    /// face-down piece; as a chariot it attacks c6, worth less than itself but undefended; as
    /// a pawn it attacks neither. The face-down targets count as `threat_hidden_targets` says.
    #[test]
    fn face_down_targets_count_as_threat_hidden_targets_says() {
        let (pos, mv) = flip_in("4k4/9/9/2x1x4/9/9/2X6/9/9/4K4 w R1B1P1p2 0 40", "c3c4");
        let outcomes = pos.flip_outcomes(mv.from());
        let eval = Evaluator::new(None);
        let count = |level| threatening_identities(&eval, &pos, mv, &outcomes, level);
        assert_eq!((outcomes.len(), count(0), count(1), count(2)), (3, 0, 1, 2));
    }

    /// Black's cannon on h7 can take the face-down piece on h0 over its own chariot, and Red's
    /// back rank is thin. The piece from c0 steps to e2: whether it holds depends on what it
    /// turns out to be, which the evaluation behind the cheap values does not see. Probing
    /// carries one identity's deep search over to all of them (-862 against -1580 here); with
    /// `probe_delta_limit` at 800 that search moves its identity's value by more than the
    /// limit, every identity is searched, and the value comes within a few centipawns of the
    /// exact one (-1577: the chance nodes below are probed, and some expanded, by the limit).
    #[test]
    fn a_probe_whose_search_moves_far_gives_way_to_every_identity() {
        let fen = "xx1xk1xxx/4p4/1x2b2x1/xA4nrx/9/N4R3/2X3X2/9/4C4/XXXXK1XXX w \
                   R1A1C1P4N1B1r1a1c2p4n1b1 2 10";
        let (pos, mv) = flip_in(fen, "c0e2");
        // Measured with quiescence's flips turned out as their most likely identity.
        let likeliest = SearchParams {
            qsearch_flip_identity: 0,
            ..SearchParams::for_variant(Variant::Jieqi)
        };
        let (exact, probed, expanded) =
            exact_probed_expanded_from(likeliest, &pos, mv, |p| p.probe_delta_limit = 800);
        assert!((expanded - exact).abs() <= 20, "{expanded} {exact}");
        assert!((probed - exact).abs() > 300, "{probed} {exact}");
    }

    /// Jieqi's parameters with `mate_windows` set.
    fn with_mate_windows(mate_windows: bool) -> SearchParams {
        SearchParams {
            mate_windows,
            ..SearchParams::for_variant(Variant::Jieqi)
        }
    }

    /// The position of `fen` (Jieqi) and the flip `mv` in it.
    fn flip_in(fen: &str, mv: &str) -> (Position, Move) {
        let setup = crate::core::fen::parse(fen).unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Jieqi).unwrap();
        (pos, Move::parse(mv).unwrap())
    }

    /// Red's corner piece flips to a1, and whatever it turns out to be, Black's king can only
    /// step to e9 and the chariot from i1 mates on i9: every outcome is the same mate. With
    /// `mate_windows`, windows above the evaluation's range get that mate as the exact value
    /// inside them and as a bound on either side; a null window there takes fewer nodes than
    /// the whole window, and than the defaults, which search every identity with it.
    #[test]
    fn windows_above_the_evaluation_range_find_mates_in_every_outcome() {
        let (pos, mv) = flip_in("3k5/R8/9/9/9/9/9/9/8R/X4K3 w A1C1N1 0 40", "a0a1");
        let params = with_mate_windows(true);
        let search = |window| flip_search_in(&pos, mv, 4, params, 0, window);
        let (exact, full_nodes) = search((-INF, INF));
        assert!(exact > MATE_BOUND, "{exact}");
        assert_eq!(search((exact - 1, exact + 1)).0, exact);
        let (above, null_nodes) = search((EVAL_LIMIT, EVAL_LIMIT + 1));
        assert!(above > EVAL_LIMIT && above <= exact, "{above} {exact}");
        assert!(null_nodes < full_nodes, "{null_nodes} {full_nodes}");
        // Without `mate_windows` every identity gets the whole window.
        let whole = with_mate_windows(false);
        let (value, whole_nodes) =
            flip_search_in(&pos, mv, 4, whole, 0, (EVAL_LIMIT, EVAL_LIMIT + 1));
        assert_eq!(value, exact);
        assert!(null_nodes < whole_nodes, "{null_nodes} {whole_nodes}");
        let below = search((exact, exact + 1)).0;
        assert!(below <= exact, "{below} {exact}");
        // A window beyond every mate: no outcome reaches it, and the node fails low.
        let beyond = MATE - 1;
        assert!(search((beyond, MATE)).0 <= beyond);
    }

    /// Black's soldier flips to a5 and, whatever it turns out to be, the chariot from i1 mates
    /// on i9: every outcome is a loss in the same number of plies. Windows below the
    /// evaluation's range get that loss as the exact value inside them and as a bound on
    /// either side.
    #[test]
    fn windows_below_the_evaluation_range_find_mates_against_every_outcome() {
        let (pos, mv) = flip_in("3k5/R8/9/x8/9/9/9/9/8R/5K3 b a1c1n1 0 40", "a6a5");
        let params = with_mate_windows(true);
        let search = |window| flip_search_in(&pos, mv, 4, params, 0, window);
        let exact = search((-INF, INF)).0;
        assert!(exact < -MATE_BOUND, "{exact}");
        assert_eq!(search((exact - 1, exact + 1)).0, exact);
        let below = search((-EVAL_LIMIT - 1, -EVAL_LIMIT)).0;
        assert!(below < -EVAL_LIMIT && below >= exact, "{below} {exact}");
        let above = search((exact - 1, exact)).0;
        assert!(above >= exact, "{above} {exact}");
        let beyond = -MATE + 1;
        assert!(search((-MATE, beyond)).0 >= beyond);
    }

    /// A flip that is no mate either way fails low against a window above the evaluation's
    /// range and high against one below it, with and without `mate_windows` (flips from random
    /// games, at depth 2, each setting on every other flip).
    #[test]
    fn windows_beyond_the_evaluation_range_bound_flips_without_mates() {
        let mut checked = 0;
        for ((pos, mv), mate_windows) in first_flips(usize::MAX, 2)
            .into_iter()
            .zip([false, true].into_iter().cycle())
        {
            let params = with_mate_windows(mate_windows);
            let exact = flip_search(&pos, mv, 2, params, 0).0;
            if is_mate_score(exact) {
                continue;
            }
            let high = flip_search_in(&pos, mv, 2, params, 0, (EVAL_LIMIT, EVAL_LIMIT + 1)).0;
            let low = flip_search_in(&pos, mv, 2, params, 0, (-EVAL_LIMIT - 1, -EVAL_LIMIT)).0;
            assert!(high <= EVAL_LIMIT, "{} {mv}: {high}", pos.fen());
            assert!(low >= -EVAL_LIMIT, "{} {mv}: {low}", pos.fen());
            checked += 1;
        }
        assert!(checked >= 20, "{checked}");
    }
}
