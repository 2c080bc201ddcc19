//! The engine facade: non-blocking `go`, `stop`, `ponderhit`, reports over a channel.
//!
//! `go` starts a search thread and returns at once; the thread sends `Report`s and ends with
//! exactly one `Report::Done`. `stop` raises a flag that every search thread polls every few
//! hundred nodes (also inside quiescence and chance nodes), so the answer follows within
//! milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use super::driver;
use super::eval::Evaluator;
use super::shared::{KeptHistory, Shared};
use super::tt::Tt;
use super::types::{Limits, Options, Report, Root};
use super::wdl::WdlModel;

pub struct Engine {
    options: Options,
    tt: Arc<Tt>,
    /// The evaluation with the weights of `options`.
    eval: Arc<Evaluator>,
    /// The search threads' history tables, kept between the searches of a game (emptied with
    /// the hash).
    history: Arc<KeptHistory>,
    /// The running (or last) search's shared state, for `stop` and `ponderhit`.
    current: Option<Arc<Shared>>,
    searching: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("cannot change options while searching")]
    OptionsWhileSearching,
    #[error("cannot clear the hash while searching")]
    ClearWhileSearching,
    #[error("a search is already running")]
    AlreadySearching,
    /// The transposition table of this many megabytes could not be allocated.
    #[error("cannot allocate a {0} MB hash table")]
    HashAllocation(usize),
}

impl Engine {
    pub fn new(options: Options) -> Engine {
        let tt = Arc::new(Tt::new(options.hash_mb));
        let eval = Arc::new(Evaluator::new(options.weights.as_deref()));
        Engine {
            options,
            tt,
            eval,
            history: Arc::default(),
            current: None,
            searching: Arc::new(AtomicBool::new(false)),
            handle: None,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Replaces the options (resizing the table if `hash_mb` changed). Refused while searching.
    pub fn set_options(&mut self, options: Options) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::OptionsWhileSearching);
        }
        self.wait();
        if options.hash_mb != self.options.hash_mb {
            // Free the old table first so that resizing does not need both at once. The last
            // search's shared state holds the table too: drop it, or the old table would live
            // on (until the next search) beside the new one.
            self.current = None;
            self.tt = Arc::new(Tt::new(1));
            match Tt::try_new(options.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => {
                    self.tt = Arc::new(Tt::new(self.options.hash_mb));
                    return Err(e);
                }
            }
        }
        if options.weights != self.options.weights {
            self.eval = Arc::new(Evaluator::new(options.weights.as_deref()));
        }
        self.options = options;
        Ok(())
    }

    /// Empties the transposition table. Refused while searching.
    pub fn clear_hash(&mut self) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::ClearWhileSearching);
        }
        self.wait();
        self.tt.clear();
        self.history.clear();
        Ok(())
    }

    /// Starts a search and returns at once. Reports arrive on `reports`, ending with exactly one
    /// `Report::Done`. Refused if a search is running.
    pub fn go(
        &mut self,
        root: Root,
        limits: Limits,
        reports: Sender<Report>,
    ) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::AlreadySearching);
        }
        self.wait();
        self.tt.new_search();
        let mut shared = Shared::new(
            self.tt.clone(),
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(limits.ponder)),
            *self.options.params(root.position.variant()),
            self.eval.clone(),
        );
        shared.node_limit = limits.nodes;
        shared.learn_captures = self.options.learn_captures;
        shared.wdl = WdlModel::for_variant(root.position.variant());
        if shared.params.keep_history {
            shared.kept_history = Some(self.history.clone());
        }
        let shared = Arc::new(shared);
        self.current = Some(shared.clone());
        self.searching.store(true, Ordering::SeqCst);
        let searching = self.searching.clone();
        let options = self.options.clone();
        self.handle = Some(std::thread::spawn(move || {
            let tx = reports.clone();
            let report = move |r: Report| {
                let _ = tx.send(r);
            };
            // A bug that panics in the search must not leave the caller waiting for ever:
            // the search then answers with a legal move and says what happened.
            let run = std::panic::AssertUnwindSafe(|| {
                driver::run(&root, &limits, &options, &shared, &report)
            });
            let (best, ponder) = match std::panic::catch_unwind(run) {
                Ok(out) => {
                    if let Some(text) = flip_odds_text(&root, &options, &out, shared.total_nodes())
                    {
                        let _ = reports.send(Report::Text(text));
                    }
                    (out.best, out.ponder)
                }
                Err(_) => {
                    let best = driver::root_moves(&root.position, &limits).first().copied();
                    let _ = reports.send(Report::Text(
                        "error: internal error in the search; answering with a legal move"
                            .to_string(),
                    ));
                    (best, None)
                }
            };
            // Clear the flag before the final report so that a caller who has read `Done`
            // can start the next search at once.
            searching.store(false, Ordering::SeqCst);
            let _ = reports.send(Report::Done { best, ponder });
        }));
        Ok(())
    }

    /// Asks the running search to stop; its `Done` report follows promptly.
    pub fn stop(&self) {
        if let Some(s) = &self.current {
            s.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The pondered move was played: the time limits now count from this moment.
    pub fn ponderhit(&self) {
        if let Some(s) = &self.current {
            s.clock_base_ms.store(s.elapsed_ms(), Ordering::SeqCst);
            s.pondering.store(false, Ordering::SeqCst);
        }
    }

    /// Nodes and milliseconds of the last search (of the running one: so far).
    pub fn last_search_totals(&self) -> Option<(u64, u64)> {
        self.current
            .as_ref()
            .map(|s| (s.total_nodes(), s.elapsed_ms()))
    }

    /// Whether a search is running (until just before its `Done` report is sent).
    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::SeqCst)
    }

    /// Blocks until the search thread has finished.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }

    /// Runs a search to completion, handing each report to `on_report` as it arrives, and
    /// returns every report.
    pub fn search_with(
        &mut self,
        root: Root,
        limits: Limits,
        mut on_report: impl FnMut(&Report),
    ) -> Vec<Report> {
        let (tx, rx) = crossbeam_channel::unbounded();
        if self.go(root, limits, tx).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for r in rx.iter() {
            on_report(&r);
            let done = matches!(r, Report::Done { .. });
            out.push(r);
            if done {
                break;
            }
        }
        self.wait();
        out
    }

    /// Runs a search to completion and returns every report.
    pub fn search_blocking(&mut self, root: Root, limits: Limits) -> Vec<Report> {
        self.search_with(root, limits, |_| {})
    }
}

/// With [`Options::flip_odds`] and a best move that flips a piece: its odds as a report line.
/// Each identity gets a quarter of the search's nodes shared out (1000 to 100000 each), so the
/// answer comes a little later than the search ends.
fn flip_odds_text(
    root: &Root,
    options: &Options,
    out: &driver::Outcome,
    searched: u64,
) -> Option<String> {
    let best = out.best?;
    if !options.flip_odds || !root.position.is_flip(best) {
        return None;
    }
    let k = root.position.flip_outcomes(best.from()).len().max(1) as u64;
    let nodes = (searched / (4 * k)).clamp(1000, 100_000);
    super::odds::flip_odds(&root.position, best, options, nodes)
        .map(|o| format!("flipodds {}", o.text()))
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Position, Variant};

    /// Nodes and score of the last report of a search to `depth` from the start of `variant`.
    fn last_report(
        engine: &mut Engine,
        variant: Variant,
        depth: u32,
    ) -> (u64, crate::search::Score) {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let root = Root::new(Position::startpos(variant));
        let reports = engine.search_blocking(root, limits);
        let info = reports
            .iter()
            .rev()
            .find_map(|r| match r {
                Report::Info(i) => Some(i.clone()),
                _ => None,
            })
            .expect("a report");
        (info.nodes, info.score)
    }

    /// Nodes and score of the last report of a depth-2 search from the Jieqi start.
    fn last_info(engine: &mut Engine) -> (u64, crate::search::Score) {
        last_report(engine, Variant::Jieqi, 2)
    }

    #[test]
    fn engines_in_one_process_keep_their_own_parameters_and_weights() {
        let plain = Options {
            hash_mb: 2,
            ..Options::default()
        };
        let mut no_probe = plain.clone();
        let probe = crate::search::params::find("probe").unwrap();
        no_probe.params.set(probe, 0).unwrap();
        let mut tempo = plain.clone();
        let weights = crate::search::eval::parse_weights("tempo 500").unwrap();
        tempo.weights = Some(Arc::new(weights));
        let mut a = Engine::new(plain.clone());
        let mut b = Engine::new(no_probe);
        let mut c = Engine::new(tempo);
        let first = last_info(&mut a);
        let other = last_info(&mut b);
        let weighted = last_info(&mut c);
        a.clear_hash().unwrap();
        assert_eq!(last_info(&mut a), first);
        assert_ne!(other.0, first.0, "probing off searched the same tree");
        assert_ne!(weighted.1, first.1, "other weights gave the same score");
        // Setting the options of a running engine changes its search the same way.
        a.set_options(c.options().clone()).unwrap();
        a.clear_hash().unwrap();
        assert_eq!(last_info(&mut a), weighted);
    }

    /// Nodes of a fixed-depth Xiangqi search from the start with parameter `name` at `value`
    /// (its default when `None`).
    fn xiangqi_nodes(name: &str, value: Option<i64>, depth: u32) -> u64 {
        start_nodes(Variant::Xiangqi, name, value, depth)
    }

    /// Nodes of a fixed-depth search from the start of `variant` with parameter `name` at
    /// `value` (its default when `None`).
    fn start_nodes(variant: Variant, name: &str, value: Option<i64>, depth: u32) -> u64 {
        let mut options = Options {
            hash_mb: 2,
            ..Options::default()
        };
        if let Some(v) = value {
            let i = crate::search::params::find(name).unwrap();
            options.params.set(i, v).unwrap();
        }
        last_report(&mut Engine::new(options), variant, depth).0
    }

    /// Checking probed fail highs before their PV search (`verify_fail_highs`) saves nodes
    /// from the Jieqi start, where PV searches of root flips whose probed fail high the
    /// expanded chance node refutes take a large share of a depth-3 search (132,142 nodes with
    /// the check against 235,003), and it changes nothing in Xiangqi, which has no chance
    /// nodes.
    #[test]
    fn checked_fail_highs_save_pv_searches_of_flips() {
        let jieqi = |v| start_nodes(Variant::Jieqi, "verify_fail_highs", Some(v), 3);
        let (plain, checked) = (jieqi(0), jieqi(1));
        assert!(checked * 10 < plain * 8, "{checked} against {plain}");
        let xiangqi = |v| start_nodes(Variant::Xiangqi, "verify_fail_highs", Some(v), 5);
        assert_eq!(xiangqi(1), xiangqi(0));
    }

    /// The reductions at expected cut nodes and where the evaluation is not improving reach
    /// the search (they reduce from depth 3, so a depth-6 tree shows them), and their neutral
    /// defaults search the default tree.
    #[test]
    fn reduction_parameters_reach_the_search() {
        let plain = xiangqi_nodes("lmr_cut_node", None, 6);
        assert_eq!(xiangqi_nodes("lmr_cut_node", Some(0), 6), plain);
        for name in ["lmr_cut_node", "lmr_not_improving"] {
            assert_ne!(xiangqi_nodes(name, Some(2), 6), plain, "{name}");
        }
    }

    /// Each switch of the search's pruning, extensions and move ordering reaches the search: a
    /// depth-7 tree changes with its setting, and its default searches the default tree.
    #[test]
    fn pruning_and_ordering_parameters_reach_the_search() {
        let plain = xiangqi_nodes("iir_depth", None, 7);
        let settings = [
            ("continuation_history", 1, 0),
            ("iir_depth", 4, 0),
            ("singular_depth", 4, 0),
            ("history_pruning", 10, 0),
            ("razoring_depth", 3, 0),
            ("futility_depth", 4, 2),
            ("bad_captures_last", 1, 0),
        ];
        for (name, on, off) in settings {
            let i = crate::search::params::find(name).unwrap();
            let default = crate::search::params::PARAMS[i].default_for(Variant::Xiangqi);
            assert_eq!(
                xiangqi_nodes(name, Some(default), 7),
                plain,
                "{name} default"
            );
            assert_ne!(
                xiangqi_nodes(name, Some(on), 7),
                xiangqi_nodes(name, Some(off), 7),
                "{name}"
            );
        }
    }

    /// Nodes of a depth-6 Xiangqi search from the start with a fresh, empty table (the engine
    /// gets a new one by resizing it and back).
    fn nodes_with_a_new_table(engine: &mut Engine) -> u64 {
        let options = engine.options().clone();
        let bigger = Options {
            hash_mb: options.hash_mb + 1,
            ..options.clone()
        };
        engine.set_options(bigger).unwrap();
        engine.set_options(options).unwrap();
        last_report(engine, Variant::Xiangqi, 6).0
    }

    /// With `keep_history` the history tables of one search order the next one's moves (the
    /// same search with a new table then searches another tree); `Clear Hash` (and so
    /// `ucinewgame`) forgets them. Without it every search starts afresh.
    #[test]
    fn history_carries_over_between_searches_only_when_kept() {
        let engine_with = |keep: i64| {
            let mut options = Options {
                hash_mb: 2,
                ..Options::default()
            };
            for (name, v) in [("keep_history", keep), ("continuation_history", 1)] {
                let i = crate::search::params::find(name).unwrap();
                options.params.set(i, v).unwrap();
            }
            Engine::new(options)
        };
        let mut fresh = engine_with(0);
        let first = last_report(&mut fresh, Variant::Xiangqi, 6).0;
        assert_eq!(nodes_with_a_new_table(&mut fresh), first);
        let mut kept = engine_with(1);
        assert_eq!(last_report(&mut kept, Variant::Xiangqi, 6).0, first);
        assert_ne!(nodes_with_a_new_table(&mut kept), first);
        kept.clear_hash().unwrap();
        assert_eq!(last_report(&mut kept, Variant::Xiangqi, 6).0, first);
    }

    #[test]
    fn resizing_the_table_frees_the_old_one_first() {
        let mut engine = Engine::new(Options {
            hash_mb: 2,
            ..Options::default()
        });
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        engine.search_blocking(Root::new(Position::startpos(Variant::Jieqi)), limits);
        let old = Arc::downgrade(&engine.tt);
        let bigger = Options {
            hash_mb: 4,
            ..engine.options().clone()
        };
        engine
            .set_options(bigger)
            .expect("idle engine takes options");
        // Nothing may keep the old table alive beside the new one (the last search did).
        assert!(old.upgrade().is_none(), "the old table is still allocated");
        assert_eq!(engine.tt.bytes(), 4 << 20);
    }
}
