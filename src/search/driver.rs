//! Running one search: root moves, iterative deepening with aspiration windows and MultiPV on
//! the main thread, Lazy SMP helper threads over the shared table, and the Monte-Carlo path
//! over sampled worlds. Produces the reports the facade forwards.

use std::sync::atomic::Ordering;
use std::time::Duration;

use rand::SeedableRng;
use rayon::prelude::*;

use crate::belief;
use crate::core::{Color, Move, MoveList, Position};

use super::alphabeta::{is_mate_score, Node, Searcher, INF, MATE, MATE_BOUND, MAX_PLY};
use super::book;
use super::chance::Units;
use super::shared::Shared;
use super::time::{self, Budget};
use super::types::{Bound, Info, Limits, Options, Report, Root, Score, SearchMode};

/// A root move and what the last iteration found for it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
}

/// Score as reported: mate in moves (not plies) from the side to move.
pub fn report_score(s: i32) -> Score {
    if s > MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s < -MATE_BOUND {
        Score::Mate(-((MATE + s) / 2))
    } else {
        Score::Cp(s)
    }
}

/// Legal root moves, restricted to `searchmoves` when that names any legal move.
pub(crate) fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let all: Vec<Move> = list.as_slice().to_vec();
    if limits.searchmoves.is_empty() {
        return all;
    }
    let only: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.contains(m))
        .collect();
    if only.is_empty() {
        all
    } else {
        only
    }
}

/// Runs a whole search and returns its outcome; `report` receives the progress.
pub fn run(
    root: &Root,
    limits: &Limits,
    options: &Options,
    shared: &Shared,
    report: &(dyn Fn(Report) + Sync),
) -> Outcome {
    let pos = root.position;
    let moves = root_moves(&pos, limits);
    if !limits.searchmoves.is_empty()
        && !moves.is_empty()
        && moves.iter().any(|m| !limits.searchmoves.contains(m))
    {
        report(Report::Text(
            "searchmoves names no legal move here; searching all moves".into(),
        ));
    }
    if moves.is_empty() {
        let s = -MATE;
        report(Report::Info(Info {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: report_score(s),
            bound: Bound::Exact,
            wdl: shared.wdl.wdl(s),
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: vec![],
        }));
        wait_until_released(limits, shared);
        return Outcome::default();
    }
    if let Some(out) = book_move(&pos, &moves, limits, options, shared, report) {
        return out;
    }
    let budget = time::budget(
        limits,
        pos.side_to_move(),
        &shared.params,
        options.move_overhead_ms,
        pos.hidden().count(),
    );
    if let Some(b) = budget {
        shared.hard_ms.store(b.hard_ms, Ordering::Relaxed);
    }
    let deal = options.mode == SearchMode::Pimc;
    let sample = options.mode != SearchMode::Expectimax && belief::worth_sampling(&pos, deal);
    let job = Job {
        root,
        moves: &moves,
        limits,
        options,
        shared,
        budget,
        report,
    };
    let outcome = if sample {
        monte_carlo(job, deal)
    } else {
        lazy_smp(job)
    };
    wait_until_released(limits, shared);
    outcome
}

/// The built-in book's move for the root, reported as a finished search, when `own_book` is
/// on, the search is a game's (a clock or `movetime`, no depth or node limit, not infinite,
/// not pondering, one line) and the move is among the root's moves.
fn book_move(
    pos: &Position,
    moves: &[Move],
    limits: &Limits,
    options: &Options,
    shared: &Shared,
    report: &(dyn Fn(Report) + Sync),
) -> Option<Outcome> {
    let clock = match pos.side_to_move() {
        Color::Red => limits.wtime,
        Color::Black => limits.btime,
    };
    let game = (clock.is_some() || limits.movetime.is_some())
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && !limits.infinite
        && !limits.ponder;
    if !options.own_book || !game || options.multipv > 1 {
        return None;
    }
    let entry = book::builtin(pos.variant()).get(pos)?;
    if !moves.contains(&entry.mv) {
        return None;
    }
    let score = entry.cp.clamp(-MATE_BOUND, MATE_BOUND);
    report(Report::Info(Info {
        depth: entry.depth,
        seldepth: entry.depth,
        multipv: 1,
        score: report_score(score),
        bound: Bound::Exact,
        wdl: shared.wdl.wdl(score),
        nodes: 0,
        nps: 0,
        hashfull: 0,
        time_ms: 0,
        pv: vec![entry.mv],
    }));
    report(Report::Text(format!(
        "book move {} (searched to depth {} ahead of time)",
        entry.mv, entry.depth
    )));
    Some(Outcome {
        best: Some(entry.mv),
        ponder: None,
        score,
        depth: entry.depth,
    })
}

/// `go infinite` and an unanswered `go ponder` must not end before `stop` (or `ponderhit`).
fn wait_until_released(limits: &Limits, shared: &Shared) {
    while !shared.stopped() && (limits.infinite || shared.pondering.load(Ordering::Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn make_info(
    shared: &Shared,
    depth: u32,
    seldepth: usize,
    multipv: usize,
    score: i32,
    bound: Bound,
    pv: Vec<Move>,
) -> Info {
    let time_ms = shared.elapsed_ms();
    let nodes = shared.total_nodes();
    Info {
        depth,
        seldepth: seldepth.max(depth as usize) as u32,
        multipv: multipv as u32,
        score: report_score(score),
        bound,
        wdl: shared.wdl.wdl(score),
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: shared.tt.hashfull(),
        time_ms,
        pv,
    }
}

/// What the threads of one search share: the root, its moves, the limits and settings, the
/// time budget, and where the main thread's reports go.
#[derive(Clone, Copy)]
struct Job<'j> {
    root: &'j Root,
    moves: &'j [Move],
    limits: &'j Limits,
    options: &'j Options,
    shared: &'j Shared,
    budget: Option<Budget>,
    report: &'j (dyn Fn(Report) + Sync),
}

impl Job<'_> {
    /// The deepest iteration allowed.
    fn max_depth(&self) -> u32 {
        self.limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 10)
            .clamp(1, MAX_PLY as u32 - 10)
    }
}

fn lazy_smp(job: Job) -> Outcome {
    let threads = job.options.threads.max(1);
    let shared = job.shared;
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            helpers.push(scope.spawn(move || {
                let mut s = Searcher::new(shared, false);
                s.resume_history(id);
                iterate(&mut s, job, id);
                s.flush_nodes();
                s.keep_history(id);
            }));
        }
        let mut s = Searcher::new(shared, true);
        s.resume_history(0);
        let out = iterate(&mut s, job, 0);
        s.flush_nodes();
        s.keep_history(0);
        if threads > 1 {
            // The main thread decides; helpers end with it.
            shared.stop.store(true, Ordering::Relaxed);
        }
        for h in helpers {
            let _ = h.join();
        }
        out
    })
}

/// The root moves before the first iteration: captures first; later iterations sort by score.
fn initial_root_moves(pos: &Position, moves: &[Move]) -> Vec<RootMove> {
    let mut rms: Vec<RootMove> = moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INF,
            prev_score: -INF,
            pv: vec![mv],
        })
        .collect();
    rms.sort_by_key(|r| !pos.is_capture(r.mv));
    rms
}

/// Aspiration windows are used from this depth.
const ASPIRATION_DEPTH: u32 = 4;
/// Past this half-width the aspiration window gives way to the full window.
const ASPIRATION_LIMIT: i32 = 1000;

/// One MultiPV line of one iteration: the root moves from `line` on, in an aspiration window
/// around the line's last score that widens on each failure.
fn search_line(s: &mut Searcher, pos: &Position, rms: &mut [RootMove], line: usize, depth: u32) {
    let prev = rms[line].prev_score;
    let mut delta = s.shared.params.aspiration_window;
    let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && prev > -INF && !is_mate_score(prev)
    {
        ((prev - delta).max(-INF), (prev + delta).min(INF))
    } else {
        (-INF, INF)
    };
    loop {
        let v = search_root(
            s,
            pos,
            rms,
            line,
            Node::root(depth as i32, alpha, beta, true),
        );
        if s.stopped {
            return;
        }
        if v <= alpha && alpha > -INF {
            beta = (alpha + beta) / 2;
            alpha = (v - delta).max(-INF);
        } else if v >= beta && beta < INF {
            beta = (v + delta).min(INF);
        } else {
            return;
        }
        delta += delta;
        if delta > ASPIRATION_LIMIT {
            alpha = -INF;
            beta = INF;
        }
    }
}

/// When the main thread stops deepening under a clock: at the soft limit (or with one legal
/// move), and with iteration timing when the next iteration is predicted to end after the hard
/// limit (its time is kept for later moves).
struct IterationClock {
    /// Iteration timing applies: only a clock banks unused time, so not under `movetime`.
    timing: bool,
    /// Under a clock (not `movetime`): the soft limit stretches while the search is unsettled
    /// (`time_instability`, `time_drop`).
    clocked: bool,
    stability: time::Stability,
    /// Clock at the end of the last completed iteration, and that iteration's length.
    last_end: u64,
    prev_len: u64,
}

/// With one legal move the search ends after this depth.
const ONLY_MOVE_DEPTH: u32 = 4;

/// Iteration timing predicts the next iteration's length from this depth on.
const PREDICTION_DEPTH: u32 = 3;

impl IterationClock {
    /// Whether to stop after the iteration that just completed, whose best line is `best`.
    fn stop_after(&mut self, shared: &Shared, b: Budget, best: &Outcome, only_move: bool) -> bool {
        let depth = best.depth;
        let pondering = shared.pondering.load(Ordering::Relaxed);
        let now = shared.clock_ms();
        let soft = if self.clocked {
            if let Some(mv) = best.best {
                self.stability.complete(depth, mv, best.score);
            }
            self.stability.soft_ms(b.soft_ms, b.hard_ms, &shared.params)
        } else {
            b.soft_ms
        };
        if !pondering && (now >= soft || only_move) {
            return true;
        }
        if self.timing {
            let len = now.saturating_sub(self.last_end).max(1);
            if !pondering
                && depth >= PREDICTION_DEPTH
                && !time::next_iteration_fits(now, len, self.prev_len, b.hard_ms)
            {
                return true;
            }
            self.prev_len = len;
            self.last_end = now;
        }
        false
    }
}

/// Iterative deepening on one thread. Thread `id` 0 reports and keeps time.
fn iterate(s: &mut Searcher, job: Job, id: usize) -> Outcome {
    let main = id == 0;
    let (shared, pos) = (job.shared, &job.root.position);
    s.set_path(&job.root.history, pos);
    s.root_side = Some(pos.side_to_move());
    let mut rms = initial_root_moves(pos, job.moves);
    let multipv = job.options.multipv.clamp(1, rms.len());
    let mut best = Outcome {
        best: Some(rms[0].mv),
        ..Outcome::default()
    };
    let mut clock = IterationClock {
        timing: shared.params.iteration_timing && job.limits.movetime.is_none(),
        clocked: job.limits.movetime.is_none(),
        stability: time::Stability::default(),
        last_end: 0,
        prev_len: 0,
    };
    for depth in 1 + (id % 2) as u32..=job.max_depth() {
        for r in rms.iter_mut() {
            r.prev_score = r.score;
            r.score = -INF;
        }
        let mut lines_done = 0;
        for line in 0..multipv {
            search_line(s, pos, &mut rms, line, depth);
            if s.stopped {
                break;
            }
            lines_done = line + 1;
            rms[line..].sort_by_key(|r| std::cmp::Reverse(r.score));
            // A line can score above an earlier one of the same iteration: the earlier line's
            // search saw this move only through a null window, reduced, pruned or probed, where
            // its own line searches it in full. The lines stay ordered by score, and those
            // searched so far are reported again.
            let reordered = line > 0 && rms[line].score > rms[line - 1].score;
            if reordered {
                rms[..=line].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if main {
                s.flush_nodes();
                let first = if reordered { 0 } else { line };
                for (k, r) in rms.iter().enumerate().take(line + 1).skip(first) {
                    let info = make_info(
                        shared,
                        depth,
                        s.seldepth,
                        k + 1,
                        r.score,
                        Bound::Exact,
                        r.pv.clone(),
                    );
                    (job.report)(Report::Info(info));
                }
            }
        }
        if s.stopped {
            if lines_done > 0 {
                // Stopped after the first line of the iteration (MultiPV): that line searched
                // every root move at this depth, so its move is played.
                best = outcome_of(pos, &rms[0], depth);
                break;
            }
            let cut_move = match shared.params.cut_iteration_move {
                0 => false,
                1 => clock.timing,
                _ => true,
            };
            if cut_move && main && multipv == 1 && best.depth > 0 {
                // The iteration was cut short: a move that beat the first one searched (the last
                // best) in it is played; its score is at least that of the last best's.
                if let Some(r) = better_in_cut_iteration(&rms) {
                    best.best = Some(r.mv);
                    best.ponder = ponder_move(pos, r);
                    best.score = r.score;
                }
            }
            break;
        }
        best = outcome_of(pos, &rms[0], depth);
        if !main {
            continue;
        }
        let only_move = rms.len() == 1 && depth >= ONLY_MOVE_DEPTH;
        if let Some(b) = job.budget {
            if clock.stop_after(shared, b, &best, only_move) {
                break;
            }
        }
        if is_mate_score(best.score) && depth as i32 >= 2 * (MATE - best.score.abs()) + 4 {
            break;
        }
    }
    if main && best.depth == 0 {
        answer_unfinished(s, job, &rms, &mut best);
    }
    best
}

/// Stopped before the first iteration completed (tiny node or time budgets): answer with the
/// best root move scored so far, and say so in one report.
fn answer_unfinished(s: &mut Searcher, job: Job, rms: &[RootMove], best: &mut Outcome) {
    let scored = rms
        .iter()
        .filter(|r| r.score > -INF)
        .max_by_key(|r| r.score);
    let score = match scored {
        Some(r) => {
            best.best = Some(r.mv);
            r.score
        }
        None => job.shared.evaluate(&job.root.position),
    };
    best.score = score;
    s.flush_nodes();
    let pv = best.best.into_iter().collect();
    let info = make_info(job.shared, 1, s.seldepth, 1, score, Bound::Lower, pv);
    (job.report)(Report::Info(info));
}

/// The result of a search whose best line at `depth` is `top`.
fn outcome_of(pos: &Position, top: &RootMove, depth: u32) -> Outcome {
    Outcome {
        best: Some(top.mv),
        ponder: ponder_move(pos, top),
        score: top.score,
        depth,
    }
}

/// In an iteration cut short: the best-scored move that beat the first one searched (the best
/// of the last iteration; a move keeps a score only when it was first or raised alpha in the
/// last pass that searched it, and scores are reset to `-INF` at the start of each iteration).
fn better_in_cut_iteration(rms: &[RootMove]) -> Option<&RootMove> {
    let first = rms.first()?.score;
    rms.iter()
        .skip(1)
        .filter(|r| r.score > -INF && r.score > first)
        .max_by_key(|r| r.score)
}

/// The expected reply to ponder on: none after a flip (what follows depends on the draw), and
/// none that is itself a flip.
fn ponder_move(pos: &Position, top: &RootMove) -> Option<Move> {
    if pos.is_flip(top.mv) {
        return None;
    }
    let reply = *top.pv.get(1)?;
    let mut after = *pos;
    after.play_unchecked(top.mv, None);
    (!after.is_flip(reply) && after.is_legal(reply)).then_some(reply)
}

/// One pass over the root moves from `line` on; returns the best score (a bound on a cut). A
/// move's score is what this pass gave it when it is the first or raises alpha, else `-INF`: no
/// score outlives the pass of the aspiration loop that gave it.
fn search_root(
    s: &mut Searcher,
    pos: &Position,
    rms: &mut [RootMove],
    line: usize,
    node: Node,
) -> i32 {
    let (mut alpha, beta) = (node.alpha, node.beta);
    let window = |alpha: i32, beta: i32, pv: bool| Node {
        depth: node.depth - 1,
        alpha,
        beta,
        ply: 0,
        pv,
        cut: !pv,
    };
    let mut best = -INF;
    #[allow(clippy::needless_range_loop)] // the index decides the window
    for i in line..rms.len() {
        let mv = rms[i].mv;
        let v = if i == line {
            s.child(pos, mv, window(alpha, beta, true))
        } else {
            let null = window(alpha, alpha + 1, false);
            let mut v = s.child(pos, mv, null);
            if v > alpha && v < beta {
                v = match s.refuted_fail_high(pos, mv, null) {
                    Some(v) => v,
                    None => s.child(pos, mv, window(alpha, beta, true)),
                };
            }
            v
        };
        if s.stopped {
            return best;
        }
        if i == line || v > alpha {
            rms[i].score = v;
            let mut pv = vec![mv];
            if !pos.is_flip(mv) && !pos.captures_hidden(mv) {
                pv.extend(s.child_pv());
            }
            rms[i].pv = pv;
        } else {
            // Not better than alpha in this pass: whatever an earlier pass of the aspiration
            // loop gave it (a fail-high bound, or a probed estimate that a wider window's full
            // search has just refuted) no longer holds.
            rms[i].score = -INF;
        }
        if v > best {
            best = v;
        }
        if v > alpha {
            alpha = v;
            if v >= beta {
                return v;
            }
        }
    }
    best
}

/// Monte-Carlo over sampled worlds: every root move gets an exact score in every world, and
/// moves are ranked by their mean expected score.
fn monte_carlo(job: Job, deal: bool) -> Outcome {
    let Job {
        root,
        moves,
        options,
        shared,
        budget,
        report,
        ..
    } = job;
    let pos = root.position;
    let mut rng = rand::rngs::StdRng::seed_from_u64(options.seed ^ pos.hash());
    let worlds: Vec<Position> = (0..options.samples.max(1))
        .map(|_| belief::sample_world(&pos, &mut rng, deal))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build();
    let units = Units::of(&shared.params);
    let mut best = Outcome {
        best: Some(moves[0]),
        ..Outcome::default()
    };
    for depth in 1..=job.max_depth() {
        let search_world = |w: &Position| -> Option<Vec<i32>> {
            let mut s = Searcher::new(shared, true);
            s.set_path(&root.history, w);
            s.root_side = Some(w.side_to_move());
            let mut scores = Vec::with_capacity(moves.len());
            for &mv in moves {
                let v = s.child(w, mv, Node::root(depth as i32 - 1, -INF, INF, true));
                if s.stopped {
                    s.flush_nodes();
                    return None;
                }
                scores.push(v);
            }
            s.flush_nodes();
            Some(scores)
        };
        let results: Vec<Option<Vec<i32>>> = match &pool {
            Ok(p) => p.install(|| worlds.par_iter().map(search_world).collect()),
            Err(_) => worlds.iter().map(search_world).collect(),
        };
        if results.iter().any(|r| r.is_none()) {
            break;
        }
        let results: Vec<Vec<i32>> = results.into_iter().flatten().collect();
        let mut ranked: Vec<(f64, usize)> = (0..moves.len())
            .map(|i| {
                let mean =
                    results.iter().map(|r| units.to_unit(r[i])).sum::<f64>() / results.len() as f64;
                (mean, i)
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (mean, i) = ranked[0];
        let vals: Vec<i32> = results.iter().map(|r| r[i]).collect();
        let score = units.expected_value(&vals, mean);
        for (line, &(m, j)) in ranked.iter().enumerate().take(options.multipv.max(1)) {
            report(Report::Info(make_info(
                shared,
                depth,
                depth as usize,
                line + 1,
                if line == 0 { score } else { units.score_of(m) },
                Bound::Exact,
                vec![moves[j]],
            )));
        }
        best = Outcome {
            best: Some(moves[i]),
            ponder: None,
            score,
            depth,
        };
        if let Some(b) = budget {
            let pondering = shared.pondering.load(Ordering::Relaxed);
            if !pondering && shared.clock_ms() * 2 >= b.soft_ms {
                break;
            }
        }
        if shared.should_stop(true) {
            break;
        }
    }
    if best.depth == 0 {
        // Stopped before one depth finished in every world: say so in one report.
        report(Report::Info(make_info(
            shared,
            1,
            0,
            1,
            shared.evaluate(&pos),
            Bound::Lower,
            best.best.into_iter().collect(),
        )));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rm(text: &str, score: i32) -> RootMove {
        let mv = Move::parse(text).unwrap();
        RootMove {
            mv,
            score,
            prev_score: 0,
            pv: vec![mv],
        }
    }

    #[test]
    fn cut_iteration_keeps_the_last_best_unless_beaten() {
        // Only the first move finished: nothing replaces it.
        let rms = [rm("b2b9", 40), rm("h2h9", -INF), rm("a3a4", -INF)];
        assert!(better_in_cut_iteration(&rms).is_none());
        // A later move raised alpha above the first one's score: it is played.
        let rms = [rm("b2b9", 40), rm("h2h9", 75), rm("a3a4", 60)];
        assert_eq!(
            better_in_cut_iteration(&rms).map(|r| r.mv),
            Move::parse("h2h9")
        );
        // The first move not even finished: nothing is known of this iteration.
        let rms = [rm("b2b9", -INF), rm("h2h9", -INF)];
        assert!(better_in_cut_iteration(&rms).is_none());
        // A score equal to the first one's does not replace it.
        let rms = [rm("b2b9", 40), rm("h2h9", 40)];
        assert!(better_in_cut_iteration(&rms).is_none());
    }
}
