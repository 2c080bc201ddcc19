//! State shared by the threads of one search: table, stop flag, node count, clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::eval::{king_attackers, phase, Evaluator, EVAL_LIMIT, PHASE_MAX};
use super::params::SearchParams;
use super::tt::Tt;
use super::wdl::WdlModel;
use crate::core::Variant;

pub struct Shared {
    pub tt: Arc<Tt>,
    /// Set to end the search (by `stop`, a limit, or the main thread's clock).
    pub stop: Arc<AtomicBool>,
    pub nodes: AtomicU64,
    pub node_limit: Option<u64>,
    pub start: Instant,
    /// Hard limit in milliseconds after `clock_base_ms` (u64::MAX: none).
    pub hard_ms: AtomicU64,
    /// Milliseconds after `start` from which the time limits count (set at `ponderhit`).
    pub clock_base_ms: AtomicU64,
    /// While pondering, time limits do not apply.
    pub pondering: Arc<AtomicBool>,
    /// Exact search for tests: no forward pruning, reductions or transposition cutoffs, so the
    /// value does not depend on the window (bounds can be checked against a full-window search).
    pub pure: bool,
    /// Whether the root side's captures of face-down pieces are chance nodes (it learns the
    /// identity); otherwise such a capture leaves the pool unchanged (the same expectation for
    /// later flips, without the knowledge).
    pub learn_captures: bool,
    /// The search parameters of the root's variant.
    pub params: SearchParams,
    /// The engine's evaluation.
    pub eval: Arc<Evaluator>,
    /// Late move reductions by depth and move number (from `params`).
    pub lmr: Box<[[u8; 64]; 64]>,
    /// Where the search threads keep their history tables from one search to the next of the
    /// same game (with `Param_keep_history`; `None`: every search starts with empty tables).
    pub kept_history: Option<Arc<KeptHistory>>,
    /// What the reported scores are worth in games (Jieqi's model until the caller sets the
    /// root's variant's).
    pub wdl: WdlModel,
}

/// One search thread's history tables (move-ordering statistics that do not depend on the ply).
#[derive(Default)]
pub struct HistoryTables {
    /// By side, origin and destination.
    pub quiet: Vec<i32>,
    /// By the earlier move's piece and destination and this move's (may be empty).
    pub continuation: Vec<i32>,
    /// The correction history by side to move and structure key (may be empty).
    pub correction: Vec<i32>,
    /// The capture history by piece, destination and victim (may be empty).
    pub capture: Vec<i32>,
}

/// The history tables of each search thread, kept between the searches of one game.
#[derive(Default)]
pub struct KeptHistory(Mutex<Vec<Option<HistoryTables>>>);

impl KeptHistory {
    /// The tables thread `id` left, if any.
    pub fn take(&self, id: usize) -> Option<HistoryTables> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.get_mut(id).and_then(Option::take)
    }

    /// Keeps thread `id`'s tables for the next search.
    pub fn put(&self, id: usize, tables: HistoryTables) {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() <= id {
            v.resize_with(id + 1, || None);
        }
        v[id] = Some(tables);
    }

    /// Forgets every table (a new game).
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl Shared {
    /// A search's shared state for unit tests: `params`, a 1 MB table, the built-in weights,
    /// never stopped or pondering.
    #[cfg(test)]
    pub(crate) fn with_params(params: SearchParams) -> Shared {
        Shared::new(
            Arc::new(Tt::new(1)),
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
            params,
            Arc::new(Evaluator::new(None)),
        )
    }

    pub fn new(
        tt: Arc<Tt>,
        stop: Arc<AtomicBool>,
        pondering: Arc<AtomicBool>,
        params: SearchParams,
        eval: Arc<Evaluator>,
    ) -> Shared {
        Shared {
            tt,
            stop,
            nodes: AtomicU64::new(0),
            node_limit: None,
            start: Instant::now(),
            hard_ms: AtomicU64::new(u64::MAX),
            clock_base_ms: AtomicU64::new(0),
            pondering,
            pure: false,
            learn_captures: true,
            lmr: lmr_table(params.lmr_divisor_hundredths),
            kept_history: None,
            wdl: WdlModel::for_variant(Variant::Jieqi),
            params,
            eval,
        }
    }

    /// The static evaluation of `pos` with the engine's weights and parameters.
    #[inline]
    pub fn evaluate(&self, pos: &crate::core::Position) -> i32 {
        let mut value = self.eval.evaluate(pos, self.params.draw_scaling);
        if self.params.king_danger != 0 {
            let danger = |color| {
                let n = king_attackers(pos, color);
                self.params.king_danger * n * (n - 1) / 2
            };
            let own = pos.side_to_move();
            value = (value - danger(own) + danger(!own)).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        match self.params.trade_percent {
            0 => value,
            percent => {
                let off = PHASE_MAX - phase(pos);
                (value + value * percent * off / (100 * PHASE_MAX)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
            }
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds counted against the time limits (from `ponderhit` when pondering began).
    pub fn clock_ms(&self) -> u64 {
        self.elapsed_ms()
            .saturating_sub(self.clock_base_ms.load(Ordering::Relaxed))
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search must end; the main thread also checks the limits and raises the flag.
    pub fn should_stop(&self, main: bool) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if main {
            let over_nodes = self.node_limit.is_some_and(|n| self.total_nodes() >= n);
            let over_time = !self.pondering.load(Ordering::Relaxed)
                && self.clock_ms() >= self.hard_ms.load(Ordering::Relaxed);
            if over_nodes || over_time {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }
}

/// Reductions for late quiet moves, `[depth][move number]`: ln(depth) ln(move number) divided by
/// `divisor_hundredths` / 100, rounded.
fn lmr_table(divisor_hundredths: i32) -> Box<[[u8; 64]; 64]> {
    let divisor = divisor_hundredths.max(1) as f64 / 100.0;
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = (0.5 + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testgames::random_game;

    /// A search's shared state with `variant`'s defaults, and one with them changed by `change`.
    fn beside_defaults(variant: Variant, change: impl Fn(&mut SearchParams)) -> (Shared, Shared) {
        let mut params = SearchParams::for_variant(variant);
        change(&mut params);
        (
            Shared::with_params(SearchParams::for_variant(variant)),
            Shared::with_params(params),
        )
    }

    /// `king_danger` takes from each side its share for two or more attackers on its king, and
    /// nothing where no king has more than one.
    #[test]
    fn king_danger_grows_with_the_attackers() {
        let mut charged = 0;
        for variant in Variant::ALL {
            let (plain, wary) = beside_defaults(variant, |p| p.king_danger = 40);
            for pos in random_game(variant, &mut 0xda9e, 160) {
                let own = pos.side_to_move();
                let (ours, theirs) = (king_attackers(&pos, own), king_attackers(&pos, !own));
                let expected = 40 * (theirs * (theirs - 1) - ours * (ours - 1)) / 2;
                let (before, after) = (plain.evaluate(&pos), wary.evaluate(&pos));
                let want = (before + expected).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                assert_eq!(after, want, "{}", pos.fen());
                charged += (ours.max(theirs) >= 2) as u32;
            }
        }
        assert!(charged > 0, "no position with two attackers on a king");
    }

    /// `trade_percent` scales the evaluation by the share of the attackers off the board: not
    /// at all with every one on it, and always toward the side ahead.
    #[test]
    fn trades_favour_the_side_ahead() {
        let mut grown = 0;
        for variant in Variant::ALL {
            let (plain, trading) = beside_defaults(variant, |p| p.trade_percent = 50);
            for pos in random_game(variant, &mut 0x7ade, 160) {
                let (before, after) = (plain.evaluate(&pos), trading.evaluate(&pos));
                let off = PHASE_MAX - phase(&pos);
                assert_eq!(before.signum() * after.signum(), before.signum().abs());
                if off == 0 || before == 0 {
                    assert_eq!(after, before, "{}", pos.fen());
                } else {
                    assert!(after.abs() >= before.abs(), "{}", pos.fen());
                    assert!(after.abs() <= before.abs() * 3 / 2, "{}", pos.fen());
                    grown += (after.abs() > before.abs()) as u32;
                }
            }
        }
        assert!(grown > 0, "no position with a trade made");
    }
}
