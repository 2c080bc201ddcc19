//! Decision nodes: principal-variation alpha-beta with a transposition table, quiescence search,
//! null-move pruning, late-move reductions, check extensions and mate-distance scores.
//! Moves of face-down pieces lead to chance nodes (see `chance.rs`).

use std::sync::atomic::Ordering;

use crate::core::{Color, Move, MoveList, Occupant, Outcomes, Piece, Position, Role, Square};

use super::evalcache::EvalCache;
use super::shared::{HistoryTables, Shared};
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
/// What capturing a face-down piece is assumed to win (about the average identity).
pub(crate) const HIDDEN_VICTIM_VALUE: i32 = 450;
/// A king's worth in static exchanges: more than every other piece together, so that a king
/// takes only where nothing takes it back.
const EXCHANGE_KING_VALUE: i32 = 20_000;
/// The null move's reduction for a static evaluation above beta is at most this many plies.
const NULL_MOVE_EVAL_PLIES: i32 = 3;
/// The null move is tried from this depth.
const NULL_MOVE_DEPTH: i32 = 3;
/// ProbCut (`Param_probcut_margin`) is tried from this depth.
const PROBCUT_DEPTH: i32 = 5;
/// Late move reductions apply from this depth, to moves from this index on.
const LMR_DEPTH: i32 = 3;
const LMR_MOVES: usize = 3;
/// History bonus of a move that cuts: depth squared, at most `HISTORY_BONUS_MAX`, times
/// `HISTORY_BONUS_SCALE`; entries saturate at `HISTORY_LIMIT`.
const HISTORY_BONUS_MAX: i32 = 400;
const HISTORY_BONUS_SCALE: i32 = 8;
const HISTORY_LIMIT: i32 = 16384;
/// Move ordering: the table move, then captures (victim value times `VICTIM_WEIGHT` minus the
/// attacker's value over `VICTIM_WEIGHT`), then the two killers, then quiet moves by history.
const ORDER_TT_MOVE: i32 = 10_000_000;
const ORDER_CAPTURE: i32 = 1_000_000;
const ORDER_KILLER: [i32; 2] = [900_000, 800_000];
/// With `Param_bad_captures_last` (a capture of a revealed piece by a piece worth more, on a
/// defended point) or `Param_see_ordering` (a capture that loses by static exchange): the
/// capture comes after the quiet moves.
const ORDER_BAD_CAPTURE: i32 = -1_000_000;
const VICTIM_WEIGHT: i32 = 16;
/// Kinds of moving piece (colour and role) times points: the index of a move's piece and
/// destination in the continuation history.
const PIECE_TO: usize = 14 * 90;
/// Kinds of victim in the capture history: the seven roles, and a face-down piece.
const VICTIM_KINDS: usize = 8;
/// Correction history: slots per side to move (a power of two, `1 << CORRECTION_BITS`), the
/// units per centipawn of a correction, and the largest correction (256 cp).
const CORRECTION_BITS: u32 = 14;
const CORRECTION_ENTRIES: usize = 1 << CORRECTION_BITS;
const CORRECTION_GRAIN: i32 = 16;
const CORRECTION_LIMIT: i32 = 256 * CORRECTION_GRAIN;

/// Where a node is searched: the depth left, the window `(alpha, beta)` from the side to move's
/// view, the distance from the root, and whether it is on the principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub pv: bool,
    /// Expected to fail high (the first move of a node off the PV alternates the expectation,
    /// the later moves searched with a null window are expected to fail high).
    pub cut: bool,
}

impl Node {
    /// The root of a search to `depth` with window `(alpha, beta)`.
    pub fn root(depth: i32, alpha: i32, beta: i32, pv: bool) -> Node {
        Node {
            depth,
            alpha,
            beta,
            ply: 0,
            pv,
            cut: false,
        }
    }

    /// The node after a move from this one (`self` holds the child's depth): the window seen
    /// from the other side, one ply further.
    pub fn child(self) -> Node {
        Node {
            alpha: -self.beta,
            beta: -self.alpha,
            ply: self.ply + 1,
            ..self
        }
    }
}

/// The static evaluation `eval` or, where the table's entry `e` (read at `ply`) shows the
/// position worth more (a lower bound above it) or less (an upper bound below it), the table's
/// score; mate scores are left out.
fn tightened_eval(eval: i32, e: &TtEntry, ply: usize) -> i32 {
    let s = from_tt(e.score, ply);
    let tighter = match e.bound {
        TtBound::Exact => true,
        TtBound::Lower => s > eval,
        TtBound::Upper => s < eval,
    };
    if tighter && !is_mate_score(s) {
        s
    } else {
        eval
    }
}

/// A decision node whose moves are being searched: where it is, whether the side to move is in
/// check, and its static evaluation (`-INF` in check).
struct Decision {
    node: Node,
    in_check: bool,
    static_eval: i32,
    /// The table's move when it is singular (every other move fails well below its score): it
    /// is searched one ply deeper.
    singular: Option<Move>,
    /// The move left out of this search (the singular test's search without the table move).
    excluded: Option<Move>,
    /// The static evaluation is above the one two plies earlier (four when that side was in
    /// check); true near the root and when neither is known.
    improving: bool,
    /// The null move got mated: no move is reduced or pruned (`Param_null_mate_threat`).
    mate_threat: bool,
}

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
    /// Flips on the line from the root to the node being searched.
    pub(crate) flips: u32,
    /// Mate-threat extensions on the line from the root (`Param_mate_threat_extensions`).
    threat_extensions: u32,
    /// The ply whose chance node is expanded identity by identity rather than probed, while
    /// `verify_fail_highs` checks a fail high there.
    pub(crate) exact_at: Option<usize>,
    /// The static evaluation at each ply of the line (`-INF` in check).
    evals: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// The piece and destination of the move made at each ply of the line (`None` for a null
    /// move), for the continuation history.
    moved: Vec<Option<u16>>,
    /// The move left out at each ply by the singular test's search.
    excluded: Vec<Option<Move>>,
    /// Per ply, room for the ordered moves and the quiet moves tried (kept so that nodes do
    /// not allocate).
    order_buffers: Vec<Vec<(i32, Move)>>,
    quiet_buffers: Vec<Vec<Move>>,
    /// Continuation history (when `Param_continuation_history` is on, else empty): how often a
    /// quiet move (piece and destination) cut right after a given move, one or two plies
    /// earlier, indexed by both.
    continuation: Vec<i32>,
    /// Correction history (when `Param_correction_history` is on, else empty): by side to
    /// move and structure key, the learned difference between searched values and the static
    /// evaluation, in sixteenths of a centipawn.
    correction: Vec<i32>,
    /// Capture history (when `Param_capture_history` is on, else empty): how often a capture
    /// (piece, destination and kind of victim) cut, less how often it was tried before another
    /// move that cut.
    capture: Vec<i32>,
    /// Per ply, the captures tried (kept so that nodes do not allocate).
    capture_buffers: Vec<Vec<Move>>,
    /// The game's positions before the root and the path from the root, current last.
    pub(crate) path: Vec<Visit>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: Vec<usize>,
    eval_cache: EvalCache,
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
            flips: 0,
            threat_extensions: 0,
            exact_at: None,
            evals: vec![-INF; MAX_PLY + 2],
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 90 * 90],
            moved: vec![None; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            order_buffers: vec![Vec::new(); MAX_PLY + 2],
            quiet_buffers: vec![Vec::new(); MAX_PLY + 2],
            continuation: if shared.params.continuation_history {
                vec![0; PIECE_TO * PIECE_TO]
            } else {
                Vec::new()
            },
            correction: if shared.params.correction_history {
                vec![0; 2 * CORRECTION_ENTRIES]
            } else {
                Vec::new()
            },
            capture: if shared.params.capture_history > 0 {
                vec![0; PIECE_TO * VICTIM_KINDS]
            } else {
                Vec::new()
            },
            capture_buffers: vec![Vec::new(); MAX_PLY + 2],
            path: Vec::with_capacity(512),
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            eval_cache: EvalCache::new(),
        }
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

    /// Takes up the history tables thread `id` kept from the game's last search (when the
    /// search keeps them and they fit this search's settings).
    pub(crate) fn resume_history(&mut self, id: usize) {
        let Some(kept) = &self.shared.kept_history else {
            return;
        };
        if let Some(t) = kept.take(id) {
            if t.quiet.len() == self.history.len()
                && t.continuation.len() == self.continuation.len()
            {
                self.history = t.quiet;
                self.continuation = t.continuation;
                if t.correction.len() == self.correction.len() {
                    self.correction = t.correction;
                }
                if t.capture.len() == self.capture.len() {
                    self.capture = t.capture;
                }
            }
        }
    }

    /// Leaves this thread's history tables for the game's next search (when the search keeps
    /// them).
    pub(crate) fn keep_history(&mut self, id: usize) {
        if let Some(kept) = &self.shared.kept_history {
            let tables = HistoryTables {
                quiet: std::mem::take(&mut self.history),
                continuation: std::mem::take(&mut self.continuation),
                correction: std::mem::take(&mut self.correction),
                capture: std::mem::take(&mut self.capture),
            };
            kept.put(id, tables);
        }
    }

    /// The static evaluation of `pos` (through this thread's table of evaluations).
    #[inline]
    pub(crate) fn evaluate(&mut self, pos: &Position) -> i32 {
        let shared = self.shared;
        self.eval_cache.evaluate(shared, pos)
    }

    /// The correction-history slot of `pos`: its side to move and a key of where the
    /// soldiers of each side and the face-down pieces stand.
    #[inline]
    fn correction_slot(pos: &Position) -> usize {
        let mix = |b: u128, k: u64| {
            let x = (b as u64) ^ ((b >> 64) as u64).rotate_left(29);
            (x ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        };
        let key = mix(pos.pieces(Color::Red, Role::Pawn).0, 0x2545_F491_4F6C_DD1D)
            ^ mix(
                pos.pieces(Color::Black, Role::Pawn).0,
                0x6A09_E667_F3BC_C909,
            )
            .rotate_left(21)
            ^ mix(pos.hidden().0, 0xBB67_AE85_84CA_A73B).rotate_left(42);
        pos.side_to_move().index() * CORRECTION_ENTRIES + (key >> (64 - CORRECTION_BITS)) as usize
    }

    /// `raw`, the static evaluation of `pos`, with the correction history's correction
    /// (unchanged when the correction history is off).
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if self.correction.is_empty() {
            return raw;
        }
        let c = self.correction[Self::correction_slot(pos)] / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of `pos` toward `searched - raw`, weighted by the depth searched.
    fn update_correction(&mut self, pos: &Position, raw: i32, searched: i32, depth: i32) {
        if self.correction.is_empty() {
            return;
        }
        let target =
            ((searched - raw) * CORRECTION_GRAIN).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        let w = (depth + 1).clamp(1, 16);
        let e = &mut self.correction[Self::correction_slot(pos)];
        *e = (*e * (256 - w) + target * w) / 256;
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
        saturating_credit(&mut self.history[i], bonus);
    }

    /// The continuation-history index of `mv` from `pos`: its piece (colour and the role it
    /// moves as) and its destination; `None` for a pass.
    fn piece_to(pos: &Position, mv: Move) -> Option<u16> {
        if mv.is_pass() {
            return None;
        }
        let role = pos.moving_role(mv.from())? as usize;
        let kind = pos.side_to_move().index() * 7 + role;
        Some((kind * 90 + mv.to().index()) as u16)
    }

    /// The continuation-history slots of a quiet move `to` (a piece-to index) at `ply`: one
    /// after the move one ply earlier, one after the move two plies earlier (the table must
    /// exist).
    fn continuation_slots(&self, ply: usize, to: u16) -> [Option<usize>; 2] {
        let slot = |back: usize| {
            let earlier = self.moved[ply.checked_sub(back)?]?;
            Some(earlier as usize * PIECE_TO + to as usize)
        };
        [slot(1), slot(2)]
    }

    /// What the history tables say of the quiet move `mv` from `pos` at `ply`: its history
    /// plus its continuation history.
    fn quiet_score(&self, pos: &Position, mv: Move, ply: usize) -> i32 {
        let mut score = self.history[Self::history_index(pos.side_to_move(), mv)];
        if !self.continuation.is_empty() {
            if let Some(pt) = Self::piece_to(pos, mv) {
                for i in self.continuation_slots(ply, pt).into_iter().flatten() {
                    score += self.continuation[i];
                }
            }
        }
        score
    }

    /// Credits (or debits) the quiet move `mv` from `pos` at `ply` in the history tables.
    fn quiet_update(&mut self, pos: &Position, mv: Move, ply: usize, bonus: i32) {
        self.history_update(pos.side_to_move(), mv, bonus);
        if self.continuation.is_empty() {
            return;
        }
        if let Some(pt) = Self::piece_to(pos, mv) {
            for i in self.continuation_slots(ply, pt).into_iter().flatten() {
                saturating_credit(&mut self.continuation[i], bonus);
            }
        }
    }

    /// The capture-history slot of the capture `mv` from `pos` (`None` for a move that takes
    /// nothing or a pass).
    fn capture_slot(pos: &Position, mv: Move) -> Option<usize> {
        let victim = match pos.occupant(mv.to())? {
            Occupant::Revealed(p) => p.role as usize,
            Occupant::Hidden { .. } => VICTIM_KINDS - 1,
        };
        Some(Self::piece_to(pos, mv)? as usize * VICTIM_KINDS + victim)
    }

    /// What the capture history says of the capture `mv` from `pos`, in ordering units (0 when
    /// the table is off).
    fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        if self.capture.is_empty() {
            return 0;
        }
        Self::capture_slot(pos, mv)
            .map_or(0, |i| self.capture[i] / self.shared.params.capture_history)
    }

    /// Credits the capture `cut` that cut (if any) and debits the captures `tried` before
    /// the move that cut, by `bonus`.
    fn reward_captures(&mut self, pos: &Position, cut: Option<Move>, tried: &[Move], bonus: i32) {
        if self.capture.is_empty() {
            return;
        }
        if let Some(i) = cut.and_then(|m| Self::capture_slot(pos, m)) {
            saturating_credit(&mut self.capture[i], bonus);
        }
        for &m in tried {
            if let Some(i) = Self::capture_slot(pos, m) {
                saturating_credit(&mut self.capture[i], -bonus);
            }
        }
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

    /// Distances back along the path to the earlier occurrences of `pos` (on top of the path)
    /// since the last irreversible move, with the same side to move, nearest first. No cycle
    /// passes through a null move.
    fn earlier_occurrences<'s>(&'s self, pos: &Position) -> impl Iterator<Item = usize> + 's {
        let n = self.path.len();
        let back = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        let h = pos.hash();
        (1..=back)
            .take_while(move |&i| !self.path[n - i].null)
            .filter(move |&i| {
                let earlier = self.path[n - 1 - i];
                i % 2 == 0 && !earlier.null && earlier.hash == h
            })
    }

    fn repetition_value(&self, pos: &Position, ply: usize) -> Option<i32> {
        let n = self.path.len();
        // The two nearest earlier occurrences are all the rule needs.
        let mut found = self.earlier_occurrences(pos);
        let cycle = match (found.next(), found.next()) {
            (Some(_), Some(second)) => second,
            (Some(first), None) if first < ply => first,
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
            return ORDER_TT_MOVE;
        }
        if mv.is_pass() {
            return 0;
        }
        let variant = pos.variant();
        match pos.occupant(mv.to()) {
            Some(occupant) => {
                let attacker = pos
                    .moving_role(mv.from())
                    .map_or(0, |r| self.shared.eval.piece_value(variant, r));
                let (victim, revealed) = match occupant {
                    Occupant::Revealed(v) => (self.shared.eval.piece_value(variant, v.role), true),
                    Occupant::Hidden { .. } => (HIDDEN_VICTIM_VALUE, false),
                };
                let params = &self.shared.params;
                // `bad_captures_last` judges only captures of revealed pieces.
                let bad = if params.see_ordering {
                    self.exchange(pos, mv) < 0
                } else {
                    revealed
                        && params.bad_captures_last
                        && attacker > victim + params.bad_capture_margin
                        && pos.is_attacked_by(mv.to(), !pos.side_to_move())
                };
                let base = if bad {
                    ORDER_BAD_CAPTURE
                } else {
                    ORDER_CAPTURE
                };
                base + victim * VICTIM_WEIGHT - attacker / VICTIM_WEIGHT
                    + self.capture_score(pos, mv)
            }
            None => {
                let k = &self.killers[ply];
                if k[0] == Some(mv) {
                    ORDER_KILLER[0]
                } else if k[1] == Some(mv) {
                    ORDER_KILLER[1]
                } else if self.shared.params.flip_order > 0 && pos.is_flip(mv) {
                    self.quiet_score(pos, mv, ply)
                        + self.shared.params.flip_order * self.flip_prior(pos, mv)
                } else {
                    self.quiet_score(pos, mv, ply)
                }
            }
        }
    }

    /// A flip's static prior for move ordering (`flip_order`): what its identities gain on
    /// average by their squares ([`Evaluator::flip_gain`]), less half a face-down piece's
    /// value where the enemy attacks the destination (the revealed piece may be lost there).
    /// Without it, flips with no history keep the move generator's order, in which pawns come
    /// last, and late move pruning skips them first.
    ///
    /// [`Evaluator::flip_gain`]: super::eval::Evaluator::flip_gain
    fn flip_prior(&self, pos: &Position, mv: Move) -> i32 {
        let gain = self.shared.eval.flip_gain(pos, mv.from(), mv.to());
        if pos.is_attacked_by(mv.to(), !pos.side_to_move()) {
            gain - HIDDEN_VICTIM_VALUE / 2
        } else {
            gain
        }
    }

    /// The moves of `list` with their ordering scores, best first (equal scores keep the
    /// list's order), in this ply's buffer: give it back with [`Searcher::give_back`].
    fn ordered(
        &mut self,
        pos: &Position,
        list: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
    ) -> Vec<(i32, Move)> {
        let mut scored = std::mem::take(&mut self.order_buffers[ply]);
        scored.clear();
        scored.extend(
            list.iter()
                .map(|&m| (self.order_score(pos, m, tt_move, ply), m)),
        );
        // Insertion sort: stable, and no allocation (the lists are short).
        for i in 1..scored.len() {
            let item = scored[i];
            let mut j = i;
            while j > 0 && scored[j - 1].0 < item.0 {
                scored[j] = scored[j - 1];
                j -= 1;
            }
            scored[j] = item;
        }
        scored
    }

    /// Returns the buffers of a node at `ply` for the next node there.
    fn give_back(&mut self, ply: usize, moves: Vec<(i32, Move)>, quiets: Vec<Move>) {
        self.order_buffers[ply] = moves;
        self.quiet_buffers[ply] = quiets;
    }

    /// With `verify_fail_highs`, the check of a fail high of `mv` at a PV node before its PV
    /// search: for a flip, or a capture that teaches the capturer an identity, the null window
    /// `node` (the child's, at alpha) searched again with the move's chance node expanded
    /// identity by identity. Returns that value when it does not beat alpha (the move needs no
    /// PV search), else `None`, as for every other move.
    pub(crate) fn refuted_fail_high(
        &mut self,
        pos: &Position,
        mv: Move,
        node: Node,
    ) -> Option<i32> {
        if !self.shared.params.verify_fail_highs
            || self.shared.pure
            || !self.is_chance_move(pos, mv)
        {
            return None;
        }
        let outer = self.exact_at.replace(node.ply);
        let v = self.child(pos, mv, node);
        self.exact_at = outer;
        (v <= node.alpha && !self.stopped).then_some(v)
    }

    /// Whether `mv` leads to a chance node: a flip, or a capture that teaches the root side a
    /// face-down identity.
    fn is_chance_move(&self, pos: &Position, mv: Move) -> bool {
        pos.is_flip(mv) || self.learns_capture(pos, mv)
    }

    /// Whether playing `mv` teaches the root side the identity of a face-down piece it
    /// captures (with a revealed piece; a capturing flip is a chance node for the flip only).
    fn learns_capture(&self, pos: &Position, mv: Move) -> bool {
        self.shared.learn_captures
            && Some(pos.side_to_move()) == self.root_side
            && pos.captures_hidden(mv)
            && !pos.is_flip(mv)
    }

    /// The value of playing `mv` from `pos`, from the mover's view (`node` is the mover's, with
    /// the depth left for the child): a chance node for a flip or for a capture of a face-down
    /// piece by the root side.
    pub(crate) fn child(&mut self, pos: &Position, mv: Move, node: Node) -> i32 {
        if !self.continuation.is_empty() {
            self.moved[node.ply] = Self::piece_to(pos, mv);
        }
        if self.is_chance_move(pos, mv) {
            let v = self.chance(pos, mv, node);
            // What follows a flip depends on the draw: the line stops here.
            self.pv_len[node.ply + 1] = node.ply + 1;
            return v;
        }
        let mut c = *pos;
        c.play_unchecked(mv, None);
        self.path.push(Visit::new(c.hash()));
        let v = -self.negamax(&c, node.child(), false);
        self.path.pop();
        v
    }

    /// Whether `pos` (on top of the path) occurred before since the last irreversible move, in
    /// the game or on the searched line, with the same side to move.
    fn occurred_before(&self, pos: &Position) -> bool {
        self.earlier_occurrences(pos).next().is_some()
    }

    /// Alpha-beta at a decision node. `pos` is on top of `self.path`; `after_null` when the
    /// move into it was a null move (no second one in a row).
    ///
    /// In `jieqi`, which has no repetition rule, a position that occurred before is worth at
    /// least a draw to the side to move (`repetition_floor`): it can go round the cycle again,
    /// and a cycle played on has no capture in it, so it ends in the no-capture draw. Deviating
    /// is searched as usual. So repeating never wins more than a draw for the side that
    /// repeats, and never saves a lost game when the opponent can deviate.
    pub fn negamax(&mut self, pos: &Position, node: Node, after_null: bool) -> i32 {
        if node.ply > 0
            && self.shared.params.repetition_floor
            && !pos.variant().repetition_ends_game()
            && self.occurred_before(pos)
        {
            if node.beta <= 0 {
                return 0;
            }
            // The value is max(0, searched value): monotone, so bounds stay bounds.
            return self.decide(pos, node, after_null).max(0);
        }
        self.decide(pos, node, after_null)
    }

    /// [`Searcher::negamax`] without the repetition floor.
    fn decide(&mut self, pos: &Position, mut node: Node, after_null: bool) -> i32 {
        let ply = node.ply;
        self.pv_len[ply] = ply;
        if ply >= MAX_PLY - 2 {
            return self.evaluate(pos);
        }
        let in_check = pos.in_check();
        if ply > 0 {
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
        if in_check
            && (node.pv || self.shared.pure || self.shared.params.check_extension_everywhere)
        {
            node.depth += 1;
        }
        if node.depth <= 0 {
            // Quiescence finds a side in check without a move; the rules make any side without
            // a move lose.
            if !in_check && !pos.has_legal_move() {
                return -MATE + ply as i32;
            }
            return self.qsearch(pos, node.alpha, node.beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply == 0 {
            self.root_side = Some(pos.side_to_move());
        } else if let Some(v) = self.mate_distance(&mut node) {
            return v;
        }
        let key = pos.hash();
        let tt = self.shared.tt.probe(key);
        let excluded = self.excluded[ply];
        if excluded.is_none() {
            if let Some(v) = tt.and_then(|e| self.tt_cutoff(&e, node)) {
                return v;
            }
        }
        // The evaluation as the evaluator gives it (kept in the table) and with the correction
        // history's correction (what the search works from).
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = match tt {
                Some(e) => e.eval,
                None => self.evaluate(pos),
            };
            (raw, self.corrected(pos, raw))
        };
        self.evals[ply] = static_eval;
        // The value the pruning works from.
        let prune_eval = match tt {
            Some(e) if self.shared.params.tt_eval && !in_check && excluded.is_none() => {
                tightened_eval(static_eval, &e, ply)
            }
            _ => static_eval,
        };
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower (its move ordering is poor, and the next visit will have the move).
        let iir = self.shared.params.iir_depth;
        if iir > 0
            && node.depth >= iir
            && excluded.is_none()
            && tt.and_then(|e| e.mv).is_none()
            && !self.shared.pure
        {
            node.depth -= 1;
        }
        // Off the PV, out of check, not under an excluded move and with no mate at stake, the
        // node may be cut before its moves are searched (and by ProbCut once they are known).
        let prunable = !node.pv
            && !in_check
            && excluded.is_none()
            && !is_mate_score(node.beta)
            && !self.shared.pure;
        let mut null_mated = false;
        if prunable {
            let pruned =
                self.prune_before_moves(pos, node, prune_eval, after_null, &mut null_mated);
            if let Some(v) = pruned {
                return v;
            }
        }
        // The opponent threatens mate: the node's moves are searched a ply deeper, a limited
        // number of times on one line (the threat may stand again a ply further).
        let extend =
            null_mated && self.threat_extensions < self.shared.params.mate_threat_extensions;
        if extend {
            node.depth += 1;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            // No legal move loses in every variant (checkmate or not).
            return -MATE + ply as i32;
        }
        if prunable {
            if let Some(v) = self.probcut(pos, &list, node, prune_eval, tt, raw_eval) {
                return v;
            }
        }
        let mut singular = None;
        if let Some(e) = tt.filter(|_| excluded.is_none()) {
            match self.singular_test(pos, &list, node, &e, after_null) {
                Singular::Extend(mv) => singular = Some(mv),
                Singular::Cut(v) => return v,
                Singular::No => {}
            }
            if self.stopped {
                return 0;
            }
        }
        let at = Decision {
            node,
            in_check,
            static_eval: prune_eval,
            singular,
            excluded,
            improving: self.improving(ply, static_eval),
            mate_threat: null_mated && self.shared.params.null_mate_threat,
        };
        self.threat_extensions += u32::from(extend);
        let searched = self.search_moves(pos, &list, tt.and_then(|e| e.mv), at);
        self.threat_extensions -= u32::from(extend);
        let Some((best, best_move)) = searched else {
            return 0; // stopped
        };
        if excluded.is_some() {
            // A search without one of the moves: its value is not the position's.
            return best;
        }
        let bound = if best >= node.beta {
            TtBound::Lower
        } else if best > node.alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: if in_check { 0 } else { raw_eval },
                depth: node.depth,
                bound,
            },
        );
        // The correction learns from values that say more than a bound on the wrong side of
        // the evaluation, at nodes whose best move is quiet (a capture's or flip's gain is
        // not the evaluation's error).
        let quiet_best = best_move.is_none_or(|m| !pos.is_capture(m) && !pos.is_flip(m));
        let says_more = match bound {
            TtBound::Exact => true,
            TtBound::Lower => best > static_eval,
            TtBound::Upper => best < static_eval,
        };
        if !in_check && !is_mate_score(best) && quiet_best && says_more {
            self.update_correction(pos, raw_eval, best, node.depth);
        }
        best
    }

    /// ProbCut (`Param_probcut_margin`): a capture that wins enough by static exchange to
    /// clear beta plus the margin from the static evaluation `eval` is searched in quiescence,
    /// then four plies shallower, against that raised beta; a capture that holds it in both
    /// cuts the node with its value (kept in the table as a lower bound three plies
    /// shallower). Not when the table already holds a score below the raised beta from
    /// nearly this depth. Returns `Some(0)` when the search stopped.
    fn probcut(
        &mut self,
        pos: &Position,
        list: &MoveList,
        node: Node,
        eval: i32,
        tt: Option<TtEntry>,
        raw_eval: i32,
    ) -> Option<i32> {
        let margin = self.shared.params.probcut_margin;
        if margin == 0 || node.depth < PROBCUT_DEPTH {
            return None;
        }
        let raised = node.beta + margin;
        if tt.is_some_and(|e| e.depth >= node.depth - 3 && from_tt(e.score, node.ply) < raised) {
            return None;
        }
        for &mv in list.iter() {
            if !pos.is_capture(mv) || pos.is_flip(mv) || self.exchange(pos, mv) < raised - eval {
                continue;
            }
            let test = |depth: i32| Node {
                depth,
                alpha: raised - 1,
                beta: raised,
                pv: false,
                cut: !node.cut,
                ..node
            };
            let mut v = self.child(pos, mv, test(0));
            if v >= raised && !self.stopped {
                v = self.child(pos, mv, test(node.depth - 4));
            }
            if self.stopped {
                return Some(0);
            }
            if v >= raised {
                self.shared.tt.store(
                    pos.hash(),
                    TtEntry {
                        mv: Some(mv),
                        score: to_tt(v, node.ply),
                        eval: raw_eval,
                        depth: node.depth - 3,
                        bound: TtBound::Lower,
                    },
                );
                return Some(v);
            }
        }
        None
    }

    /// The singular test of the table's move (`Param_singular_depth`): when the table holds a
    /// lower bound (or exact score) for it from nearly this depth, the other moves are searched
    /// at half depth against that score less a margin. If all fail below it the move is
    /// singular and is extended; if that reduced bound is itself at least beta, several moves
    /// reach beta and the node (off the PV) cuts.
    fn singular_test(
        &mut self,
        pos: &Position,
        list: &MoveList,
        node: Node,
        e: &TtEntry,
        after_null: bool,
    ) -> Singular {
        let params = &self.shared.params;
        let depth = node.depth;
        let Some(mv) = e.mv else {
            return Singular::No;
        };
        if params.singular_depth == 0
            || node.ply == 0
            || depth < params.singular_depth
            || self.shared.pure
            || e.bound == TtBound::Upper
            || e.depth < depth - 3
            || is_mate_score(e.score)
            || pos.is_flip(mv)
            || !list.iter().any(|&m| m == mv)
        {
            return Singular::No;
        }
        let s_beta = from_tt(e.score, node.ply) - params.singular_margin * depth;
        let ply = node.ply;
        self.excluded[ply] = Some(mv);
        let test = Node {
            depth: (depth - 1) / 2,
            alpha: s_beta - 1,
            beta: s_beta,
            pv: false,
            ..node
        };
        let v = self.decide(pos, test, after_null);
        self.excluded[ply] = None;
        if v < s_beta {
            Singular::Extend(mv)
        } else if s_beta >= node.beta && !node.pv {
            Singular::Cut(s_beta)
        } else {
            Singular::No
        }
    }

    /// Whether the static evaluation `eval` at `ply` is above the one two plies earlier (four
    /// when the side to move was in check there); true when neither is known or in check, and
    /// in the first plies (the root has no static evaluation on the line).
    fn improving(&self, ply: usize, eval: i32) -> bool {
        if eval == -INF || ply < 3 {
            return true;
        }
        let earlier = if self.evals[ply - 2] != -INF || ply < 5 {
            self.evals[ply - 2]
        } else {
            self.evals[ply - 4]
        };
        earlier == -INF || eval > earlier
    }

    /// Below the root: a window narrowed to the mate distances possible from this ply that
    /// leaves nothing to search.
    fn mate_distance(&self, node: &mut Node) -> Option<i32> {
        let ply = node.ply as i32;
        node.alpha = node.alpha.max(-MATE + ply);
        node.beta = node.beta.min(MATE - ply - 1);
        (node.alpha >= node.beta).then_some(node.alpha)
    }

    /// The stored score when the table entry decides this node (off the PV only).
    fn tt_cutoff(&self, e: &TtEntry, node: Node) -> Option<i32> {
        if node.pv || e.depth < node.depth || self.shared.pure {
            return None;
        }
        let s = from_tt(e.score, node.ply);
        let cut = match e.bound {
            TtBound::Exact => true,
            TtBound::Lower => s >= node.beta,
            TtBound::Upper => s <= node.alpha,
        };
        cut.then_some(s)
    }

    /// Off the PV and not in check: reverse futility (far above beta at low depth) and the null
    /// move (let the opponent move twice; if we still stand above beta, cut). The value of the
    /// node when one of them cuts (0 when stopped). Sets `null_mated` when the null move gets
    /// mated (the opponent threatens mate).
    fn prune_before_moves(
        &mut self,
        pos: &Position,
        node: Node,
        static_eval: i32,
        after_null: bool,
        null_mated: &mut bool,
    ) -> Option<i32> {
        let params = &self.shared.params;
        let (depth, beta) = (node.depth, node.beta);
        if depth <= params.pruning_depth
            && static_eval - params.reverse_futility_margin * depth >= beta
        {
            return Some(static_eval);
        }
        // Razoring: far below alpha near the leaves, only captures can help.
        if depth <= params.razoring_depth
            && static_eval + params.razoring_margin * depth < node.alpha
        {
            let v = self.qsearch(pos, node.alpha, node.alpha + 1, node.ply, 0);
            if v <= node.alpha {
                return Some(v);
            }
        }
        if depth < NULL_MOVE_DEPTH
            || after_null
            || static_eval < beta
            || pos.waiting_square().is_some()
            || !has_big_pieces(pos)
        {
            return None;
        }
        let mut r = params.null_move_reduction + depth / params.null_move_depth_divisor;
        if params.null_move_eval_divisor > 0 {
            r += ((static_eval - beta) / params.null_move_eval_divisor).min(NULL_MOVE_EVAL_PLIES);
        }
        let mut n = *pos;
        n.play_null();
        self.moved[node.ply] = None;
        self.path.push(Visit {
            hash: n.hash(),
            in_check: false,
            null: true,
        });
        let null = Node {
            depth: depth - 1 - r,
            alpha: -beta,
            beta: -beta + 1,
            ply: node.ply + 1,
            pv: false,
            cut: !node.cut,
        };
        let v = -self.negamax(&n, null, true);
        self.path.pop();
        if self.stopped {
            return Some(0);
        }
        if v < -MATE_BOUND {
            *null_mated = true;
        }
        (v >= beta).then_some(if is_mate_score(v) { beta } else { v })
    }

    /// Searches the moves of a decision node in order; returns the best value and move, or
    /// `None` when the search was stopped.
    fn search_moves(
        &mut self,
        pos: &Position,
        list: &MoveList,
        tt_move: Option<Move>,
        at: Decision,
    ) -> Option<(i32, Option<Move>)> {
        let Node {
            depth,
            mut alpha,
            beta,
            ply,
            ..
        } = at.node;
        let moves = self.ordered(pos, list, tt_move, ply);
        let mut best = -INF;
        let mut best_move = None;
        let mut quiets_tried = std::mem::take(&mut self.quiet_buffers[ply]);
        quiets_tried.clear();
        let mut captures_tried = std::mem::take(&mut self.capture_buffers[ply]);
        captures_tried.clear();
        let mut flips_tried = 0;
        for (i, &(_, mv)) in moves.iter().enumerate() {
            if Some(mv) == at.excluded {
                continue;
            }
            let capture = pos.is_capture(mv);
            let flip = pos.is_flip(mv);
            let quiet = !capture && !flip;
            // The moves the history tables learn from.
            let learns = quiet || (flip && self.shared.params.flip_history);
            if !capture
                && (!flip || self.shared.params.prune_flips)
                && self.prunes_late(pos, mv, i, flips_tried, &at, alpha, best)
            {
                continue;
            }
            if self.loses_exchange(pos, mv, i, capture, &at, best) {
                continue;
            }
            flips_tried += i32::from(flip);
            let reducible =
                !capture || (self.shared.params.lmr_losing_captures && self.exchange(pos, mv) < 0);
            let v = self.search_move(pos, mv, i, &at, alpha, reducible);
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, mv, !flip);
                    if v >= beta {
                        if learns {
                            self.reward_quiet(pos, mv, depth, ply, &quiets_tried);
                        }
                        let cut = capture.then_some(mv);
                        self.reward_captures(pos, cut, &captures_tried, history_bonus(depth));
                        break;
                    }
                }
            }
            if learns {
                quiets_tried.push(mv);
            }
            if capture && !self.capture.is_empty() {
                captures_tried.push(mv);
            }
        }
        self.capture_buffers[ply] = captures_tried;
        self.give_back(ply, moves, quiets_tried);
        Some((best, best_move))
    }

    /// Late move pruning and futility pruning of the `i`th move, which takes nothing, off the PV
    /// near the leaves (flips included: they are Jieqi's quiet moves). Neither applies in
    /// check, to the first moves, once every move so far lost to a mate, or to a move that
    /// gives check. `flips` is the number of flips searched before this move.
    #[allow(clippy::too_many_arguments)]
    fn prunes_late(
        &self,
        pos: &Position,
        mv: Move,
        i: usize,
        flips: i32,
        at: &Decision,
        alpha: i32,
        best: i32,
    ) -> bool {
        let Node { depth, pv, .. } = at.node;
        if self.shared.pure || pv || at.in_check || at.mate_threat || best <= -MATE_BOUND {
            return false;
        }
        let params = &self.shared.params;
        let late = depth <= params.pruning_depth
            && i as i32
                >= params.late_move_base
                    + params.late_move_per_depth * depth
                    + params.late_move_per_depth_squared * depth * depth;
        // A flip's chance node costs a search per identity: past a count of its own, the
        // later flips go as well.
        let late_flip = params.flip_late_base > 0
            && depth <= params.pruning_depth
            && pos.is_flip(mv)
            && flips >= params.flip_late_base + params.flip_late_per_depth * (depth - 1);
        // Futility: a move that takes nothing cannot lift a hopeless static evaluation (a flip
        // only turns the expected identity into a real one).
        let futile = depth <= params.futility_depth
            && i > 0
            && at.static_eval + params.futility_margin * depth <= alpha;
        // History: a quiet move that has mostly failed elsewhere is not tried near the leaves.
        let failing = params.history_pruning > 0
            && depth <= params.pruning_depth
            && i > 0
            && !pos.is_flip(mv)
            && self.quiet_score(pos, mv, at.node.ply) < -params.history_pruning * depth;
        (late || late_flip || futile || failing) && !pos.gives_check_before_flip(mv)
    }

    /// Pruning by static exchange (`see_depth`) of the `i`th move of a decision node: a
    /// capture that loses more than `see_capture_margin` per ply of depth on its point, or a
    /// move that takes nothing whose piece is lost there for more than `see_quiet_margin` per
    /// square of the depth. Not at the root, in check, for the first move, once every move so
    /// far lost to a mate, or for a move that gives check.
    fn loses_exchange(
        &self,
        pos: &Position,
        mv: Move,
        i: usize,
        capture: bool,
        at: &Decision,
        best: i32,
    ) -> bool {
        let params = &self.shared.params;
        let Node { depth, ply, .. } = at.node;
        if params.see_depth == 0
            || depth > params.see_depth
            || ply == 0
            || i == 0
            || at.in_check
            || at.mate_threat
            || self.shared.pure
            || best <= -MATE_BOUND
        {
            return false;
        }
        let limit = if capture {
            -params.see_capture_margin * depth
        } else {
            -params.see_quiet_margin * depth * depth
        };
        self.exchange(pos, mv) < limit && !pos.gives_check_before_flip(mv)
    }

    /// What `mv` wins or loses by static exchange on its point, with the evaluation's piece
    /// values (a face-down piece, as victim or once it has moved, at `HIDDEN_VICTIM_VALUE`).
    fn exchange(&self, pos: &Position, mv: Move) -> i32 {
        let variant = pos.variant();
        let eval = &self.shared.eval;
        pos.exchange(mv, |o| match o {
            Occupant::Revealed(p) if p.role == Role::King => EXCHANGE_KING_VALUE,
            Occupant::Revealed(p) => eval.piece_value(variant, p.role),
            Occupant::Hidden { .. } => HIDDEN_VICTIM_VALUE,
        })
    }

    /// The value of the `i`th move of a decision node with the current `alpha`: the first with
    /// the node's window, the others with a null window (late `reducible` ones reduced first),
    /// re-searched when they beat alpha.
    fn search_move(
        &mut self,
        pos: &Position,
        mv: Move,
        i: usize,
        at: &Decision,
        alpha: i32,
        reducible: bool,
    ) -> i32 {
        let Node { beta, pv, .. } = at.node;
        let depth = at.node.depth + i32::from(Some(mv) == at.singular);
        // A child on the PV expects nothing; off it, the expectation alternates.
        let window = |depth: i32, alpha: i32, beta: i32, pv: bool| Node {
            depth,
            alpha,
            beta,
            pv,
            cut: !pv && !at.node.cut,
            ..at.node
        };
        if i == 0 {
            return self.child(pos, mv, window(depth - 1, alpha, beta, pv));
        }
        let mut r = 0;
        let params = &self.shared.params;
        let first_reduced = if pv {
            LMR_MOVES
        } else {
            params.lmr_first_move as usize
        };
        if depth >= LMR_DEPTH
            && i >= first_reduced
            && !at.in_check
            && !at.mate_threat
            && !self.shared.pure
            && reducible
        {
            r = self.shared.lmr[(depth as usize).min(63)][i.min(63)] as i32;
            if pv {
                r -= 1;
            }
            if at.node.cut {
                r += params.lmr_cut_node;
            }
            if !at.improving {
                r += params.lmr_not_improving;
            }
            if pos.is_flip(mv) {
                r -= params.lmr_flip_less;
            } else if params.lmr_history_divisor > 0 {
                // Quiet moves that often cut elsewhere are reduced less, failures more.
                r -= self.quiet_score(pos, mv, at.node.ply) / params.lmr_history_divisor;
            }
            r = r.clamp(0, depth - 2);
        }
        let null = window(depth - 1, alpha, alpha + 1, false);
        let mut v = self.child(
            pos,
            mv,
            Node {
                depth: depth - 1 - r,
                ..null
            },
        );
        if v > alpha && r > 0 {
            v = self.child(pos, mv, null);
        }
        if v > alpha && v < beta && pv {
            if let Some(v) = self.refuted_fail_high(pos, mv, null) {
                return v;
            }
        }
        // Re-search with the full window whenever it is wider than a null window (chance nodes
        // give their outcomes wide windows at non-PV nodes too).
        if v > alpha && v < beta && (pv || beta > alpha + 1) {
            let child_pv = pv || !self.shared.params.pv_first_outcome;
            v = self.child(pos, mv, window(depth - 1, alpha, beta, child_pv));
        }
        v
    }

    /// A quiet move that cut: a killer at this ply, and history credit for it and debit for the
    /// quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Position, mv: Move, depth: i32, ply: usize, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = history_bonus(depth);
        self.quiet_update(pos, mv, ply, bonus);
        for &q in tried {
            self.quiet_update(pos, q, ply, -bonus);
        }
    }

    /// Appends to `list` the moves of a revealed piece that take nothing and give check
    /// directly (`qsearch_checks`): the mates and forcing lines a checking move starts are
    /// what the horizon hides most often. Only destinations on the enemy king's file or rank or
    /// within two points of it can check directly, so the others are not tried.
    fn add_quiet_checks(&self, pos: &Position, list: &mut MoveList) {
        let king = pos.king(!pos.side_to_move());
        let (kf, kr) = (king.file().index(), king.rank().index());
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        for &mv in all.iter() {
            if mv.is_pass() || pos.is_capture(mv) || pos.is_flip(mv) {
                continue;
            }
            let (f, r) = (mv.to().file().index(), mv.to().rank().index());
            let near = f.abs_diff(kf) <= 2 && r.abs_diff(kr) <= 2;
            if (f == kf || r == kr || near) && pos.gives_check_before_flip(mv) {
                list.push(mv);
            }
        }
    }

    /// The identity the flip `mv` turns out as in quiescence (`qsearch_flip_identity`): the
    /// most likely one, or the one whose value from the mover's view is nearest the weighted
    /// mean of all of theirs. Ties go to the heavier weight, then to the mover's colour
    /// (Maniac's red and black pawns), so that the choice is the same for either side.
    pub(crate) fn quiescence_identity(&self, pos: &Position, mv: Move) -> Option<Piece> {
        self.quiescence_identity_among(pos, &pos.flip_outcomes(mv.from()))
    }

    /// [`Searcher::quiescence_identity`] for a flip from `pos` whose identities, with their
    /// weights, are `outcomes` (for callers that already hold them).
    pub(crate) fn quiescence_identity_among(
        &self,
        pos: &Position,
        outcomes: &Outcomes,
    ) -> Option<Piece> {
        let mover = pos.side_to_move();
        if self.shared.params.qsearch_flip_identity == 0 {
            return outcomes
                .iter()
                .max_by_key(|&(p, w)| (w, p.role, p.color == mover))
                .map(|(p, _)| p);
        }
        let variant = pos.variant();
        let value = |p: Piece| {
            let v = self.shared.eval.piece_value(variant, p.role) as i64;
            if p.color == mover {
                v
            } else {
                -v
            }
        };
        let total = outcomes.total_weight() as i64;
        if total == 0 {
            return None;
        }
        // Distances in units of 1/total, so that the mean stays an integer.
        let mean: i64 = outcomes.iter().map(|(p, w)| value(p) * w as i64).sum();
        outcomes
            .iter()
            .min_by_key(|&(p, w)| {
                (
                    (value(p) * total - mean).abs(),
                    std::cmp::Reverse((w, p.role, p.color == mover)),
                )
            })
            .map(|(p, _)| p)
    }

    /// Quiescence: captures (and every move when in check, in the first `QS_EVASION_PLIES`;
    /// with `recapture_plies`, only recaptures from that ply on).
    /// A flip is not expanded as a chance node here: it turns out as one identity
    /// ([`Searcher::quiescence_identity`]), so that face-down pieces can still recapture
    /// (chance nodes in quiescence cost more nodes than they were worth to a given depth). The
    /// stop flag is checked here too.
    pub fn qsearch(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        self.quiesce(pos, alpha, beta, ply, qdepth, None)
    }

    /// [`Searcher::qsearch`] after a move of quiescence that went to `last`.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        last: Option<Square>,
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
            return self.evaluate(pos);
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
            return self.evaluate(pos);
        }
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            let raw = self.evaluate(pos);
            stand = self.corrected(pos, raw);
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
            if qdepth == 0 && self.shared.params.qsearch_checks && !self.shared.pure {
                self.add_quiet_checks(pos, &mut list);
            }
            let from_ply = self.shared.params.recapture_plies;
            if from_ply > 0 && qdepth >= from_ply {
                list.retain(|mv| Some(mv.to()) == last);
            }
        }
        let moves = self.ordered(pos, &list, None, ply);
        let variant = pos.variant();
        for &(_, mv) in &moves {
            let flip = pos.is_flip(mv);
            if !in_check && !self.shared.pure {
                let gain = match pos.occupant(mv.to()) {
                    Some(Occupant::Revealed(p)) => self.shared.eval.piece_value(variant, p.role),
                    Some(Occupant::Hidden { .. }) => HIDDEN_VICTIM_VALUE,
                    // A quiet check (`qsearch_checks`): what it wins is not material.
                    None => 0,
                };
                if gain > 0 && stand + gain + self.shared.params.delta_margin < alpha {
                    continue; // delta pruning
                }
                // A capture that gives up more than it takes on a defended square is not
                // worth following at the horizon.
                let losing = if self.shared.params.qsearch_see {
                    self.exchange(pos, mv) < 0
                } else {
                    let attacker = if flip {
                        HIDDEN_VICTIM_VALUE
                    } else {
                        pos.moving_role(mv.from())
                            .map_or(0, |r| self.shared.eval.piece_value(variant, r))
                    };
                    attacker > gain + self.shared.params.bad_capture_margin
                        && pos.is_attacked_by(mv.to(), !pos.side_to_move())
                };
                if losing {
                    continue;
                }
            }
            let identity = if flip {
                self.quiescence_identity(pos, mv)
            } else {
                None
            };
            let mut c = *pos;
            c.play_unchecked(mv, identity);
            let v = -self.quiesce(&c, -beta, -alpha, ply + 1, qdepth + 1, Some(mv.to()));
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
        self.order_buffers[ply] = moves;
        best
    }
}

/// The history bonus of a move that cuts at `depth`.
fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(HISTORY_BONUS_MAX) * HISTORY_BONUS_SCALE
}

/// Adds `bonus` to a history entry, less in proportion as the entry nears `HISTORY_LIMIT` in
/// the bonus's direction, so that entries stay within it.
fn saturating_credit(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_LIMIT;
}

/// What the singular test found.
enum Singular {
    /// Not tested, or no conclusion.
    No,
    /// The table's move is singular: search it a ply deeper.
    Extend(Move),
    /// Other moves reach beta too: the node's value (a lower bound).
    Cut(i32),
}

/// Whether the side to move has a piece other than pawns, advisors and elephants (null move is
/// unsafe in bare endings with zugzwang).
fn has_big_pieces(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Horse) | pos.pieces(us, Role::Cannon)).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;
    use crate::search::params::SearchParams;

    fn entry(score: i32, bound: TtBound) -> TtEntry {
        TtEntry {
            mv: None,
            score,
            eval: 0,
            depth: 5,
            bound,
        }
    }

    /// The table's score replaces the evaluation only where its bound says more than the
    /// evaluation does, and never when it is a mate score.
    #[test]
    fn the_table_score_tightens_the_evaluation_only_where_its_bound_allows() {
        assert_eq!(tightened_eval(100, &entry(180, TtBound::Lower), 3), 180);
        assert_eq!(tightened_eval(100, &entry(40, TtBound::Lower), 3), 100);
        assert_eq!(tightened_eval(100, &entry(40, TtBound::Upper), 3), 40);
        assert_eq!(tightened_eval(100, &entry(180, TtBound::Upper), 3), 100);
        assert_eq!(tightened_eval(100, &entry(-70, TtBound::Exact), 3), -70);
        assert_eq!(
            tightened_eval(100, &entry(MATE - 10, TtBound::Lower), 3),
            100
        );
        assert_eq!(
            tightened_eval(100, &entry(-MATE + 10, TtBound::Upper), 3),
            100
        );
    }

    /// The correction moves toward the searched error of the positions that share the key
    /// (the soldiers, the face-down pieces, the side to move), stays within 256 cp, leaves
    /// other structures alone, and is nothing when the option is off.
    #[test]
    fn the_correction_history_learns_the_searched_error_of_a_structure() {
        let start = Position::startpos(Variant::Jieqi);
        let mut list = MoveList::new();
        start.legal_moves(&mut list);
        let king_move = *list.iter().find(|&&m| !start.is_flip(m)).unwrap();
        let flip = *list.iter().find(|&&m| start.is_flip(m)).unwrap();
        let mut same = start;
        same.play_unchecked(king_move, None);
        same.play_null();
        let mut other = start;
        other.play_unchecked(flip, None);
        other.play_null();
        assert_eq!(same.side_to_move(), start.side_to_move());

        let off = Shared::with_params(SearchParams::for_variant(Variant::Jieqi));
        let s = Searcher::new(&off, false);
        assert_eq!(s.corrected(&start, 50), 50);

        let on = Shared::with_params(SearchParams {
            correction_history: true,
            ..SearchParams::for_variant(Variant::Jieqi)
        });
        let mut s = Searcher::new(&on, false);
        assert_eq!(s.corrected(&start, 50), 50);
        s.update_correction(&start, 50, 150, 10);
        let once = s.corrected(&start, 50) - 50;
        assert!(once > 0 && once < 100, "{once}");
        for _ in 0..200 {
            s.update_correction(&start, 50, 150, 10);
        }
        let learned = s.corrected(&start, 50) - 50;
        assert!((95..=100).contains(&learned), "{learned}");
        assert_eq!(s.corrected(&same, -20), -20 + learned);
        assert_eq!(s.corrected(&other, -20), -20);
        for _ in 0..400 {
            s.update_correction(&start, 0, 3000, 10);
        }
        let capped = s.corrected(&start, 0);
        assert!((250..=256).contains(&capped), "{capped}");
    }

    /// With `flip_history` the flips that cut earn history credit, so that they are ordered
    /// by how they fared; without it the history tables never learn of a flip.
    #[test]
    fn flips_learn_history_only_with_flip_history() {
        let start = Position::startpos(Variant::Jieqi);
        let mut list = MoveList::new();
        start.legal_moves(&mut list);
        let flips: Vec<Move> = list.iter().copied().filter(|&m| start.is_flip(m)).collect();
        assert!(!flips.is_empty());
        let learned = |on: bool| {
            let shared = Shared::with_params(SearchParams {
                flip_history: on,
                ..SearchParams::for_variant(Variant::Jieqi)
            });
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &start);
            s.root_side = Some(start.side_to_move());
            s.negamax(&start, Node::root(3, -INF, INF, true), false);
            let side = start.side_to_move();
            flips
                .iter()
                .filter(|&&m| s.history[Searcher::history_index(side, m)] != 0)
                .count()
        };
        assert_eq!(learned(false), 0);
        assert!(learned(true) > 0);
    }

    /// With `flip_order`, flips with no history are ordered by their static prior: at the
    /// start every pawn flip (a pawn's square is the face-down role worth least) comes before
    /// every flip of a cannon's square, where the move generator lists pawns last; a flip
    /// onto a point the enemy attacks loses half a face-down piece's value.
    #[test]
    fn flips_are_ordered_by_their_prior_with_flip_order() {
        let start = Position::startpos(Variant::Jieqi);
        let mut list = MoveList::new();
        start.legal_moves(&mut list);
        let order = |flip_order: i32| {
            let shared = Shared::with_params(SearchParams {
                flip_order,
                ..SearchParams::for_variant(Variant::Jieqi)
            });
            let mut s = Searcher::new(&shared, false);
            let moves: Vec<Move> = s
                .ordered(&start, &list, None, 0)
                .iter()
                .map(|&(_, m)| m)
                .collect();
            moves
        };
        let role_at = |m: Move| start.moving_role(m.from()).unwrap();
        let is_quiet_flip = |m: Move| start.is_flip(m) && !start.is_capture(m);
        let last_of = |moves: &[Move], role: Role| {
            moves
                .iter()
                .rposition(|&m| is_quiet_flip(m) && role_at(m) == role)
                .unwrap()
        };
        let first_of = |moves: &[Move], role: Role| {
            moves
                .iter()
                .position(|&m| is_quiet_flip(m) && role_at(m) == role)
                .unwrap()
        };
        let off = order(0);
        assert!(first_of(&off, Role::Pawn) > last_of(&off, Role::Cannon));
        let on = order(16);
        assert!(last_of(&on, Role::Pawn) < first_of(&on, Role::Cannon));
        // The prior itself: a pawn flip to a point nothing attacks, and the same gain less the
        // penalty where something does.
        let shared = Shared::with_params(SearchParams::for_variant(Variant::Jieqi));
        let s = Searcher::new(&shared, false);
        let pawn_flip = *list
            .iter()
            .find(|&&m| is_quiet_flip(m) && role_at(m) == Role::Pawn)
            .unwrap();
        assert!(!start.is_attacked_by(pawn_flip.to(), Color::Black));
        let gain = shared
            .eval
            .flip_gain(&start, pawn_flip.from(), pawn_flip.to());
        assert_eq!(s.flip_prior(&start, pawn_flip), gain);
        assert!(gain > 0);
        // A flip onto a point the enemy attacks, from a pseudo-random game.
        let (pos, attacked) = crate::search::testgames::random_game(Variant::Jieqi, &mut 7, 60)
            .into_iter()
            .find_map(|p| {
                let mut l = MoveList::new();
                p.legal_moves(&mut l);
                let them = !p.side_to_move();
                let found = l
                    .iter()
                    .copied()
                    .find(|&m| p.is_flip(m) && !p.is_capture(m) && p.is_attacked_by(m.to(), them));
                found.map(|m| (p, m))
            })
            .expect("a flip onto an attacked point");
        assert_eq!(
            s.flip_prior(&pos, attacked),
            shared.eval.flip_gain(&pos, attacked.from(), attacked.to()) - HIDDEN_VICTIM_VALUE / 2
        );
    }

    /// With `flip_late_base`, a flip off the PV near the leaves is skipped once enough flips
    /// were searched at the node (more at greater depth), never on the PV, beyond
    /// `pruning_depth` or when the option is off; a move that takes nothing other than a flip
    /// keeps the ordinary count.
    #[test]
    fn late_flips_are_pruned_past_their_own_count() {
        let start = Position::startpos(Variant::Jieqi);
        let mut list = MoveList::new();
        start.legal_moves(&mut list);
        let flip = *list
            .iter()
            .find(|&&m| start.is_flip(m) && !start.gives_check_before_flip(m))
            .unwrap();
        let king_move = *list.iter().find(|&&m| !start.is_flip(m)).unwrap();
        let decision = |depth: i32, pv: bool| Decision {
            node: Node::root(depth, -100, -99, pv),
            in_check: false,
            static_eval: 0,
            singular: None,
            excluded: None,
            improving: true,
            mate_threat: false,
        };
        let pruned = |base: i32, mv: Move, flips: i32, at: Decision| {
            let shared = Shared::with_params(SearchParams {
                flip_late_base: base,
                flip_late_per_depth: 2,
                ..SearchParams::for_variant(Variant::Jieqi)
            });
            let s = Searcher::new(&shared, false);
            s.prunes_late(&start, mv, 1, flips, &at, -100, -50)
        };
        // Depth 1: the count is the base; depth 2: the base plus 2.
        assert!(!pruned(2, flip, 1, decision(1, false)));
        assert!(pruned(2, flip, 2, decision(1, false)));
        assert!(!pruned(2, flip, 3, decision(2, false)));
        assert!(pruned(2, flip, 4, decision(2, false)));
        // Not on the PV, not past the pruning depth, not when off, not for other moves.
        assert!(!pruned(2, flip, 9, decision(1, true)));
        assert!(!pruned(2, flip, 9, decision(4, false)));
        assert!(!pruned(0, flip, 9, decision(1, false)));
        assert!(!pruned(2, king_move, 9, decision(1, false)));
        // Nor at a node whose null move got mated (`null_mate_threat`).
        let marked = Decision {
            mate_threat: true,
            ..decision(1, false)
        };
        assert!(!pruned(2, flip, 9, marked));
    }

    /// Red's chariot e2 can take the pawn e5 that the black chariot e8 guards, and its horse d1
    /// can step to f2, which the black pawn f3 takes.
    const LOSING_MOVES: &str = "3k5/4r4/9/9/4p4/9/5p3/4R4/3N5/5K3 w - - 0 1";

    #[test]
    fn moves_that_lose_their_exchange_are_pruned_within_the_margins() {
        let setup = crate::core::fen::parse(LOSING_MOVES).unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let take = Move::parse("e2e5").unwrap();
        let hang = Move::parse("d1f2").unwrap();
        let safe = Move::parse("d1b2").unwrap();
        let decision = |depth: i32, ply: usize, in_check: bool| Decision {
            node: Node {
                ply,
                ..Node::root(depth, -100, -99, false)
            },
            in_check,
            static_eval: 0,
            singular: None,
            excluded: None,
            improving: true,
            mate_threat: false,
        };
        let pruned = |see_depth: i32, margin: i32, mv: Move, i: usize, at: Decision| {
            let shared = Shared::with_params(SearchParams {
                see_depth,
                see_capture_margin: margin,
                see_quiet_margin: margin,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let s = Searcher::new(&shared, false);
            s.loses_exchange(&pos, mv, i, pos.is_capture(mv), &at, -50)
        };
        assert!(pruned(3, 100, take, 1, decision(1, 1, false)));
        assert!(pruned(3, 100, hang, 1, decision(1, 1, false)));
        assert!(!pruned(3, 100, safe, 1, decision(1, 1, false)));
        // A wider margin keeps them; so do a depth past `see_depth`, the root, the first move,
        // a node in check and the switch off.
        assert!(!pruned(3, 2000, take, 1, decision(1, 1, false)));
        assert!(!pruned(3, 2000, hang, 1, decision(1, 1, false)));
        assert!(!pruned(3, 100, take, 1, decision(4, 1, false)));
        assert!(!pruned(3, 100, take, 1, decision(1, 0, false)));
        assert!(!pruned(3, 100, take, 0, decision(1, 1, false)));
        assert!(!pruned(3, 100, take, 1, decision(1, 1, true)));
        assert!(!pruned(0, 100, take, 1, decision(1, 1, false)));
    }

    /// With `see_ordering`, the chariot's capture of a pawn the rook defends comes after every
    /// quiet move; without it, first.
    #[test]
    fn captures_that_lose_their_exchange_come_last_with_see_ordering() {
        let setup = crate::core::fen::parse(LOSING_MOVES).unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let take = Move::parse("e2e5").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert!(list.iter().filter(|&&m| pos.is_capture(m)).eq([&take]));
        let index = |see_ordering: bool| {
            let shared = Shared::with_params(SearchParams {
                see_ordering,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let mut s = Searcher::new(&shared, false);
            let moves = s.ordered(&pos, &list, None, 1);
            moves.iter().position(|&(_, m)| m == take).unwrap()
        };
        assert_eq!(index(false), 0);
        assert_eq!(index(true), list.len() - 1);
    }

    /// Two chariots can each take a pawn: with no history they keep the generator's order;
    /// once the second's capture has cut and the first's was tried before it, the second
    /// comes first. Without `capture_history` nothing is learned.
    #[test]
    fn captures_are_ordered_by_their_history_with_capture_history() {
        let setup = crate::core::fen::parse("4k4/9/9/9/p7p/9/9/9/9/R2K4R w - - 0 1").unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let captures: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        assert_eq!(captures.len(), 2);
        let (first, second) = (captures[0], captures[1]);
        let order = |capture_history: i32, learn: bool| {
            let shared = Shared::with_params(SearchParams {
                capture_history,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let mut s = Searcher::new(&shared, false);
            if learn {
                s.reward_captures(&pos, Some(second), &[first], 64);
            }
            let credit = (s.capture_score(&pos, first), s.capture_score(&pos, second));
            let moves = s.ordered(&pos, &list, None, 1);
            let at = |m: Move| moves.iter().position(|&(_, x)| x == m).unwrap();
            (at(first) < at(second), credit)
        };
        assert_eq!(order(2, false), (true, (0, 0)));
        assert_eq!(order(2, true), (false, (-32, 32)));
        assert_eq!(order(0, true), (true, (0, 0)));
    }

    /// Black threatens mate: the chariot on the a file holds Red's second rank while the one on
    /// the b file goes to the first.
    const MATE_THREAT: &str = "3k5/9/1r7/9/9/8R/P1P1P4/9/r8/4K4 w - - 0 1";

    /// A node whose null move gets mated is told so (and with `null_mate_threat` none of its
    /// moves is pruned: `late_flips_are_pruned_past_their_own_count`); a window far below the
    /// evaluation has the null move tried.
    #[test]
    fn a_null_move_that_gets_mated_is_reported() {
        let setup = crate::core::fen::parse(MATE_THREAT).unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let shared = Shared::with_params(SearchParams::for_variant(Variant::Xiangqi));
        let mut s = Searcher::new(&shared, false);
        s.set_path(&[], &pos);
        // Off the PV, far above beta (so the null move is tried) at depth 8.
        let node = Node {
            depth: 8,
            alpha: -20_001,
            beta: -20_000,
            ply: 1,
            pv: false,
            cut: true,
        };
        let mut mated = false;
        let cut = s.prune_before_moves(&pos, node, 0, false, &mut mated);
        assert_eq!(cut, None, "the null move gets mated: no cut");
        assert!(mated);
    }

    /// With `probcut_margin`, a node where a chariot takes an undefended chariot cuts against
    /// beta plus the margin, and keeps the capture in the table; with the margin off, or a
    /// beta that no capture clears by static exchange, ProbCut leaves the node alone.
    #[test]
    fn probcut_cuts_with_a_capture_that_holds_against_the_raised_beta() {
        let setup = crate::core::fen::parse("4k4/9/9/9/4r4/9/9/9/9/3KR4 w - - 0 1").unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let take = Move::parse("e0e5").unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let probcut = |margin: i32, beta: i32| {
            let shared = Shared::with_params(SearchParams {
                probcut_margin: margin,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &pos);
            let eval = s.evaluate(&pos);
            let node = Node {
                depth: 6,
                alpha: beta - 1,
                beta,
                ply: 1,
                pv: false,
                cut: true,
            };
            let v = s.probcut(&pos, &list, node, eval, None, eval);
            (v, shared.tt.probe(pos.hash()).and_then(|e| e.mv))
        };
        let (v, kept) = probcut(200, 0);
        assert!(v.is_some_and(|v| v >= 200), "{v:?}");
        assert_eq!(kept, Some(take));
        assert_eq!(probcut(0, 0), (None, None));
        assert_eq!(probcut(200, 5000), (None, None));
    }

    /// With `mate_threat_extensions`, the node of `MATE_THREAT` (its null move gets mated) is
    /// searched a ply deeper: more nodes than without, and the count of extensions on the line
    /// is back to zero afterwards. With a window the evaluation does not stand above, no null
    /// move is tried and the option changes nothing.
    #[test]
    fn a_mate_threat_extends_the_node() {
        let setup = crate::core::fen::parse(MATE_THREAT).unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let nodes = |extensions: u32, alpha: i32| {
            let shared = Shared::with_params(SearchParams {
                mate_threat_extensions: extensions,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &pos);
            let node = Node {
                depth: 8,
                alpha,
                beta: alpha + 1,
                ply: 1,
                pv: false,
                cut: true,
            };
            s.negamax(&pos, node, false);
            assert_eq!(s.threat_extensions, 0);
            s.nodes
        };
        let (without, with) = (nodes(0, -20_001), nodes(1, -20_001));
        assert!(
            with > without,
            "{with} nodes with the extension, {without} without"
        );
        assert_eq!(nodes(0, 20_000), nodes(1, 20_000));
    }

    /// With `qsearch_checks` quiescence sees a mate that a quiet check gives at the horizon
    /// (a chariot to the king's rank while the other holds the rank in front of it); without
    /// it, quiescence stands pat on the evaluation.
    #[test]
    fn quiescence_checks_find_a_mate_behind_the_horizon() {
        let setup = crate::core::fen::parse("4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let value = |checks: bool| {
            let shared = Shared::with_params(SearchParams {
                qsearch_checks: checks,
                ..SearchParams::for_variant(Variant::Xiangqi)
            });
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &pos);
            s.qsearch(&pos, -INF, INF, 0, 0)
        };
        assert_eq!(value(true), MATE - 1);
        let without = value(false);
        assert!(!is_mate_score(without), "{without}");
    }

    /// With `recapture_plies`, quiescence past that ply searches only captures on the point the
    /// last move went to. Red's pawn takes a horse the black chariot defends; the chariot's
    /// recapture frees the leg of Red's horse (defended by Red's chariot), which could then take
    /// a cannon. From one ply on, only the recapture follows the pawn's capture and the cannon
    /// stays out of reach: the value is that of the three-ply line (each side may stand pat),
    /// and below the value of the whole quiescence, where Black leaves the pawn alone rather
    /// than lose the cannon.
    #[test]
    fn quiescence_past_its_recapture_ply_follows_only_recaptures() {
        let setup = crate::core::fen::parse("5k3/9/9/7c1/Pn4r2/6N2/9/9/9/3K2R2 w - - 0 1").unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Xiangqi).unwrap();
        let shared_with = |plies: u32| {
            Shared::with_params(SearchParams {
                recapture_plies: plies,
                ..SearchParams::for_variant(Variant::Xiangqi)
            })
        };
        let value = |plies: u32| {
            let shared = shared_with(plies);
            let mut s = Searcher::new(&shared, false);
            s.set_path(&[], &pos);
            s.qsearch(&pos, -INF, INF, 0, 0)
        };
        let shared = shared_with(1);
        let mut s = Searcher::new(&shared, false);
        let mut after = |moves: &[&str]| {
            let mut p = pos;
            for m in moves {
                let mv = Move::parse(m).unwrap();
                p.play_unchecked(mv, None);
            }
            s.evaluate(&p)
        };
        let (e0, e1, e2) = (after(&[]), after(&["a5b5"]), after(&["a5b5", "g5b5"]));
        let expected = e0.max(-e1.max(-e2));
        let (whole, recaptures) = (value(0), value(1));
        assert_eq!(recaptures, expected);
        assert!(whole > recaptures, "{whole} {recaptures}");
    }

    /// In quiescence a flip turns out as its most likely identity, or with
    /// `qsearch_flip_identity=1` as the one whose value is nearest the mean of all of theirs:
    /// at the Jieqi start (two each of chariot, horse, cannon, advisor and elephant, five
    /// pawns) a pawn, or a horse, the piece nearest the pool's mean value.
    #[test]
    fn quiescence_flips_turn_out_as_the_likeliest_or_the_mean_identity() {
        let start = Position::startpos(Variant::Jieqi);
        // The cannon-point piece jumps onto Black's horse point.
        let jump = Move::parse("b2b9").unwrap();
        assert!(start.is_flip(jump) && start.is_capture(jump));
        let identity = |level: u32| {
            let mut params = SearchParams::for_variant(Variant::Jieqi);
            params.qsearch_flip_identity = level;
            let shared = Shared::with_params(params);
            let s = Searcher::new(&shared, false);
            s.quiescence_identity(&start, jump).unwrap()
        };
        let (likeliest, mean) = (identity(0), identity(1));
        assert_eq!((likeliest.role, likeliest.color), (Role::Pawn, Color::Red));
        assert_eq!((mean.role, mean.color), (Role::Horse, Color::Red));
        // The horse's value is nearest the pool's weighted mean.
        let shared = Shared::with_params(SearchParams::for_variant(Variant::Jieqi));
        let value = |r: Role| shared.eval.piece_value(Variant::Jieqi, r) as f64;
        let outcomes = start.flip_outcomes(jump.from());
        let total: f64 = outcomes.iter().map(|(_, w)| w as f64).sum();
        let m: f64 = outcomes
            .iter()
            .map(|(p, w)| value(p.role) * w as f64)
            .sum::<f64>()
            / total;
        for (p, _) in outcomes.iter() {
            assert!((value(Role::Horse) - m).abs() <= (value(p.role) - m).abs());
        }
    }
}
