//! Decision nodes: principal-variation alpha-beta with a transposition table, quiescence search,
//! null-move pruning, late-move reductions, check extensions and mate-distance scores.
//! Moves of face-down pieces lead to chance nodes (see `chance.rs`).

use std::sync::atomic::Ordering;

use crate::core::{Color, Move, MoveList, Occupant, Position, Role};

use super::eval::{evaluate, piece_value};
use super::shared::Shared;
use super::tt::{TtBound, TtEntry};
use super::types::Earlier;

pub const INF: i32 = 32000;
pub const MATE: i32 = 31000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = 30000;
pub const MAX_PLY: usize = 128;
/// Quiescence plies in which check evasions (all moves) are searched; deeper, a side in check
/// is scored by the static evaluation.
pub const QS_EVASION_PLIES: u32 = 3;
/// Futility margin per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 160;
/// What capturing a face-down piece is assumed to win (about the average identity).
const HIDDEN_VICTIM_VALUE: i32 = 450;

#[inline]
pub fn is_mate_score(s: i32) -> bool {
    s.abs() > MATE_BOUND
}

fn to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Reductions for late quiet moves, by depth and move number.
static LMR: once_cell::sync::Lazy<[[u8; 64]; 64]> = once_cell::sync::Lazy::new(|| {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, cell) in row.iter_mut().enumerate().skip(1) {
            *cell = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
        }
    }
    t
});

/// A position on the line from the game's start to the node being searched.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Visit {
    pub hash: u64,
    /// Whether the side to move is in check there (set when the node is searched).
    pub in_check: bool,
    /// Reached by a null move: no repetition cycle may pass through it.
    pub null: bool,
}

impl Visit {
    pub fn new(hash: u64) -> Visit {
        Visit {
            hash,
            in_check: false,
            null: false,
        }
    }
}

/// One thread's search state.
pub struct Searcher<'a> {
    pub(crate) shared: &'a Shared,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Nodes of quiescence search (a subset of `nodes`).
    pub qnodes: u64,
    flushed: u64,
    pub seldepth: usize,
    /// The side to move at the root: its captures of face-down pieces reveal their identity.
    pub root_side: Option<crate::core::Color>,
    /// Whether this thread reads the clock (only the main thread does).
    pub main: bool,
    pub stopped: bool,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// The game's positions before the root and the path from the root, current last.
    pub(crate) path: Vec<Visit>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: Vec<usize>,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared, main: bool) -> Searcher<'a> {
        Searcher {
            shared,
            nodes: 0,
            qnodes: 0,
            flushed: 0,
            seldepth: 0,
            root_side: None,
            main,
            stopped: false,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 90 * 90],
            path: Vec::with_capacity(512),
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
        }
    }

    /// The principal variation found below the root at the last completed search.
    pub fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// The principal variation below the root move just searched (from ply 1).
    pub fn child_pv(&self) -> Vec<Move> {
        self.pv[1][1..self.pv_len[1].max(1)].to_vec()
    }

    /// Adds this thread's unreported nodes to the shared count.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.flush_nodes();
            if self.shared.should_stop(self.main) {
                self.stopped = true;
            }
        }
    }

    fn history_index(side: Color, mv: Move) -> usize {
        side.index() * 8100 + mv.from().index() * 90 + mv.to().index()
    }

    fn history_update(&mut self, side: Color, mv: Move, bonus: i32) {
        let i = Self::history_index(side, mv);
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / 16384;
    }

    /// Starts the path with the game's earlier positions and the root `pos`.
    pub(crate) fn set_path(&mut self, history: &[Earlier], pos: &Position) {
        self.path.clear();
        self.path.extend(history.iter().map(|e| Visit {
            hash: e.hash,
            in_check: e.in_check,
            null: false,
        }));
        self.path.push(Visit {
            hash: pos.hash(),
            in_check: pos.in_check(),
            null: false,
        });
    }

    /// The value of `pos` (on top of the path, below the root) if the game has ended there by
    /// the rules of its variant, `None` if play goes on. A position with no legal move is found
    /// by the caller; this covers what comes before and after it in the rules' order.
    ///
    /// - `maniac` and `xiangqi`: a repetition. The third occurrence (counting positions before
    ///   the root) ends the game as the rules say; so does a second one when the earlier
    ///   occurrence lies inside the search (the players can repeat the cycle once more). The
    ///   cycle runs from the oldest of the occurrences to now: a side that gave check with every
    ///   one of its moves in it loses (a win is scored like a mate at this ply); both or
    ///   neither: a draw. `jieqi` has no such rule: a repeated position is searched like any
    ///   other.
    /// - 120 plies without a capture: a draw, unless the side to move has no legal move
    ///   (checkmate and the no-move loss come first).
    fn game_end(&self, pos: &Position, ply: usize) -> Option<i32> {
        let variant = pos.variant();
        if variant.repetition_ends_game() {
            if let Some(v) = self.repetition_value(pos, ply) {
                return Some(v);
            }
        }
        if pos.halfmove_clock() >= variant.no_capture_draw_plies() {
            return Some(if pos.has_no_moves() {
                -MATE + ply as i32
            } else {
                0
            });
        }
        None
    }

    fn repetition_value(&self, pos: &Position, ply: usize) -> Option<i32> {
        let n = self.path.len();
        let back = (pos.halfmove_clock() as usize).min(n - 1);
        let h = pos.hash();
        // Distances back to the earlier occurrences, nearest first (at most two are needed).
        let mut found = [0usize; 2];
        let mut count = 0;
        for i in 1..=back {
            if self.path[n - i].null {
                break;
            }
            let earlier = self.path[n - 1 - i];
            if i % 2 == 0 && !earlier.null && earlier.hash == h {
                found[count] = i;
                count += 1;
                if count == 2 {
                    break;
                }
            }
        }
        let cycle = match count {
            2 => found[1],
            1 if found[0] < ply => found[0],
            _ => return None,
        };
        // The cycle's plies lead to the positions path[n - cycle..n]; the last one was made by
        // the side not to move now, and the sides alternate backwards.
        let mut checks = [true, true]; // [side to move, the other side]
        for k in 0..cycle {
            if !self.path[n - 1 - k].in_check {
                checks[(k + 1) % 2] = false;
            }
        }
        Some(match checks {
            [false, true] => MATE - ply as i32,
            [true, false] => -MATE + ply as i32,
            _ => 0,
        })
    }

    fn update_pv(&mut self, ply: usize, mv: Move, extend: bool) {
        self.pv[ply][ply] = mv;
        let mut len = ply + 1;
        if extend && ply < MAX_PLY {
            let child_len = self.pv_len[ply + 1];
            for i in ply + 1..child_len {
                self.pv[ply][i] = self.pv[ply + 1][i];
            }
            len = child_len.max(ply + 1);
        }
        self.pv_len[ply] = len;
    }

    /// Ordering score of a move: TT move, captures by victim then attacker, killers, history.
    fn order_score(&self, pos: &Position, mv: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            return 10_000_000;
        }
        if mv.is_pass() {
            return 0;
        }
        let variant = pos.variant();
        match pos.occupant(mv.to()) {
            Some(Occupant::Revealed(v)) => {
                let attacker = pos
                    .moving_role(mv.from())
                    .map_or(0, |r| piece_value(variant, r));
                1_000_000 + piece_value(variant, v.role) * 16 - attacker / 16
            }
            Some(Occupant::Hidden { .. }) => {
                let attacker = pos
                    .moving_role(mv.from())
                    .map_or(0, |r| piece_value(variant, r));
                1_000_000 + 450 * 16 - attacker / 16
            }
            None => {
                let k = &self.killers[ply];
                if k[0] == Some(mv) {
                    900_000
                } else if k[1] == Some(mv) {
                    800_000
                } else {
                    self.history[Self::history_index(pos.side_to_move(), mv)]
                }
            }
        }
    }

    fn ordered(
        &self,
        pos: &Position,
        list: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Vec<(i32, Move)> {
        let mut scored: Vec<(i32, Move)> = list
            .iter()
            .map(|&m| (self.order_score(pos, m, tt_move, ply), m))
            .collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        scored
    }

    /// Whether playing `mv` teaches the root side the identity of a face-down piece it
    /// captures (with a revealed piece; a capturing flip is a chance node for the flip only).
    fn learns_capture(&self, pos: &Position, mv: Move) -> bool {
        self.shared.learn_captures
            && Some(pos.side_to_move()) == self.root_side
            && pos.captures_hidden(mv)
            && !pos.is_flip(mv)
    }

    /// The value of playing `mv` from `pos`, from the mover's view: a chance node for a flip
    /// or for a capture of a face-down piece by the root side.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn child(
        &mut self,
        pos: &Position,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if pos.is_flip(mv) || self.learns_capture(pos, mv) {
            let v = self.chance(pos, mv, depth, alpha, beta, ply, pv_node, None);
            // What follows a flip depends on the draw: the line stops here.
            self.pv_len[ply + 1] = ply + 1;
            return v;
        }
        let mut c = *pos;
        c.play_unchecked(mv, None);
        self.path.push(Visit::new(c.hash()));
        let v = -self.negamax(&c, depth, -beta, -alpha, ply + 1, pv_node, false);
        self.path.pop();
        v
    }

    /// Alpha-beta at a decision node. `pos` is on top of `self.path`.
    #[allow(clippy::too_many_arguments)]
    pub fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        after_null: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let root = ply == 0;
        if !root {
            if let Some(top) = self.path.last_mut() {
                top.in_check = in_check;
            }
            if let Some(v) = self.game_end(pos, ply) {
                return v;
            }
        }
        // Check extension on the principal variation only: with chance nodes below every flip,
        // extending every check multiplies the tree (a Maniac flip that changes owner often
        // checks the mover).
        if in_check && (pv_node || self.shared.pure) {
            depth += 1;
        }
        if depth <= 0 {
            // Quiescence finds a side in check without a move; the rules make any side without
            // a move lose.
            if !in_check && !pos.has_legal_move() {
                return -MATE + ply as i32;
            }
            return self.qsearch(pos, alpha, beta, ply, 0, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        if root {
            self.root_side = Some(pos.side_to_move());
        }
        if !root {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.hash();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt {
            if !pv_node && e.depth >= depth && !self.shared.pure {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => s >= beta,
                    TtBound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            -INF
        } else {
            tt.map_or_else(|| evaluate(pos), |e| e.eval)
        };
        let pure = self.shared.pure;
        if !pv_node && !in_check && !is_mate_score(beta) && !pure {
            // Reverse futility: far above beta at low depth.
            if depth <= 3 && static_eval - 110 * depth >= beta {
                return static_eval;
            }
            // Null move: let the opponent move twice; if we still stand above beta, cut.
            if depth >= 3
                && !after_null
                && static_eval >= beta
                && pos.waiting_square().is_none()
                && has_big_pieces(pos)
            {
                let r = 3 + depth / 5;
                let mut n = *pos;
                n.play_null();
                self.path.push(Visit {
                    hash: n.hash(),
                    in_check: false,
                    null: true,
                });
                let v = -self.negamax(&n, depth - 1 - r, -beta, -beta + 1, ply + 1, false, true);
                self.path.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if is_mate_score(v) { beta } else { v };
                }
            }
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            // No legal move loses in every variant (checkmate or not).
            return -MATE + ply as i32;
        }
        let moves = self.ordered(pos, &list, tt_move, ply);
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let side = pos.side_to_move();
        for (i, &(_, mv)) in moves.iter().enumerate() {
            let capture = !mv.is_pass() && pos.occupant(mv.to()).is_some();
            let flip = pos.is_flip(mv);
            let quiet = !capture && !flip;
            if !capture
                && !pure
                && !pv_node
                && !in_check
                && depth <= 3
                && i >= 6 + 4 * depth as usize
                && best > -MATE_BOUND
                && !pos.gives_check_before_flip(mv)
            {
                continue; // late move pruning (flips included: they are Jieqi's quiet moves)
            }
            // Futility: near the leaves, a move that takes nothing cannot lift a hopeless
            // static evaluation (a flip only turns the expected identity into a real one).
            if !capture
                && !pure
                && !pv_node
                && !in_check
                && depth <= 2
                && i > 0
                && best > -MATE_BOUND
                && static_eval + FUTILITY_MARGIN * depth <= alpha
                && !pos.gives_check_before_flip(mv)
            {
                continue;
            }
            let mut r = 0;
            if depth >= 3 && i >= 3 && !in_check && !pure && (quiet || (flip && !capture)) {
                r = LMR[(depth as usize).min(63)][i.min(63)] as i32;
                if pv_node {
                    r -= 1;
                }
                if !quiet {
                    r -= 1;
                }
                r = r.clamp(0, depth - 2);
            }
            let v = if i == 0 {
                self.child(pos, mv, depth - 1, alpha, beta, ply, pv_node)
            } else {
                let mut v = self.child(pos, mv, depth - 1 - r, alpha, alpha + 1, ply, false);
                if v > alpha && r > 0 {
                    v = self.child(pos, mv, depth - 1, alpha, alpha + 1, ply, false);
                }
                // Re-search with the full window whenever it is wider than a null window (chance
                // nodes give their outcomes wide windows at non-PV nodes too).
                if v > alpha && v < beta && (pv_node || beta > alpha + 1) {
                    v = self.child(
                        pos,
                        mv,
                        depth - 1,
                        alpha,
                        beta,
                        ply,
                        pv_node || !self.shared.experiment.pv_first_outcome(pos.variant()),
                    );
                }
                v
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, mv, !flip);
                    if v >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let bonus = (depth * depth).min(400) * 8;
                            self.history_update(side, mv, bonus);
                            for &q in &quiets_tried {
                                self.history_update(side, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > alpha_orig {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { static_eval },
                depth,
                bound,
            },
        );
        best
    }

    /// Quiescence: captures (and every move when in check, in the first `QS_EVASION_PLIES`),
    /// with at most `Shared::qs_flip_limit` flips expanded as chance nodes on a line (later ones
    /// turn out as their most likely identity). The stop flag is checked here too.
    pub fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        flips: u32,
        qdepth: u32,
    ) -> i32 {
        self.pv_len[ply] = ply;
        self.count_node();
        self.qnodes += 1;
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        if pos.halfmove_clock() >= pos.variant().no_capture_draw_plies() {
            // An evasion reached the no-capture limit (captures reset the count).
            return if pos.has_no_moves() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        let in_check = pos.in_check();
        if in_check && qdepth >= QS_EVASION_PLIES {
            return evaluate(pos);
        }
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut list = MoveList::new();
        if in_check {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            // A side with no legal move at all is not detected here (rare at the horizon).
            pos.legal_captures(&mut list);
        }
        let moves = self.ordered(pos, &list, None, ply);
        let variant = pos.variant();
        for &(_, mv) in &moves {
            let flip = pos.is_flip(mv);
            if !in_check && !self.shared.pure {
                let gain = match pos.occupant(mv.to()) {
                    Some(Occupant::Revealed(p)) => piece_value(variant, p.role),
                    _ => HIDDEN_VICTIM_VALUE,
                };
                if stand + gain + 150 < alpha {
                    continue; // delta pruning
                }
                // A capture that gives up more than it takes on a defended square is not
                // worth following at the horizon.
                let attacker = if flip {
                    HIDDEN_VICTIM_VALUE
                } else {
                    pos.moving_role(mv.from())
                        .map_or(0, |r| piece_value(variant, r))
                };
                if attacker > gain + 50 && pos.is_attacked_by(mv.to(), !pos.side_to_move()) {
                    continue;
                }
            }
            let v = if flip && flips < self.shared.qs_flip_limit {
                self.chance(
                    pos,
                    mv,
                    0,
                    alpha,
                    beta,
                    ply,
                    false,
                    Some((flips + 1, qdepth + 1)),
                )
            } else if flip {
                // Past the limit a flip is not expanded: it turns out as its most likely
                // identity, so that face-down pieces can still recapture.
                let outcomes = pos.flip_outcomes(mv.from());
                // Ties (Maniac's red and black pawns) go to the mover's colour: symmetric.
                let mover = pos.side_to_move();
                let likely = outcomes
                    .iter()
                    .max_by_key(|&(p, w)| (w, p.role, p.color == mover))
                    .map(|(p, _)| p);
                let mut c = *pos;
                c.play_unchecked(mv, likely);
                -self.qsearch(&c, -beta, -alpha, ply + 1, flips + 1, qdepth + 1)
            } else {
                let mut c = *pos;
                c.play_unchecked(mv, None);
                -self.qsearch(&c, -beta, -alpha, ply + 1, flips, qdepth + 1)
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Whether the side to move has a piece other than pawns, advisors and elephants (null move is
/// unsafe in bare endings with zugzwang).
fn has_big_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Horse) | pos.pieces(us, Role::Cannon)).any()
}
