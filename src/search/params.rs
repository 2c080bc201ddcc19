//! The search's parameters: the settings that differ by variant (clock use, which chance-node
//! shortcuts apply) and the numbers of its pruning and reductions, each with a name, its limits
//! and its default in each variant.
//!
//! They belong to the engine's [`Options`](super::Options) (one [`SearchParams`] per variant, in
//! [`VariantParams`]) and reach the search through its state, so two engines with different
//! parameters can live in one process. The protocol sets them with
//! `setoption name Param_<name> value <v>` (protocol.md section 8); the defaults are what
//! docs/strength.md measured.

use crate::core::Variant;

/// One parameter as the protocol sees it: integers, or `0`/`1` for a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The field name; the option is `Param_<name>`.
    pub name: &'static str,
    /// The option name, `Param_<name>`.
    pub option: &'static str,
    /// What the parameter does.
    pub doc: &'static str,
    /// A switch (`true`/`false`, stored as 1/0) rather than a number.
    pub switch: bool,
    pub min: i64,
    pub max: i64,
    /// Default in Jieqi.
    pub jieqi: i64,
    /// Default in Maniac.
    pub maniac: i64,
    /// Default in Xiangqi.
    pub xiangqi: i64,
}

impl ParamSpec {
    /// The default in `variant`.
    pub fn default_for(&self, variant: Variant) -> i64 {
        match variant {
            Variant::Jieqi => self.jieqi,
            Variant::Maniac => self.maniac,
            Variant::Xiangqi => self.xiangqi,
        }
    }
}

/// How a parameter's type is read from and written to the protocol's integer.
trait ParamValue: Copy {
    const SWITCH: bool;
    fn from_i64(v: i64) -> Self;
    fn to_i64(self) -> i64;
}

impl ParamValue for bool {
    const SWITCH: bool = true;
    fn from_i64(v: i64) -> bool {
        v != 0
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
}

impl ParamValue for i32 {
    const SWITCH: bool = false;
    fn from_i64(v: i64) -> i32 {
        v as i32
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
}

impl ParamValue for u32 {
    const SWITCH: bool = false;
    fn from_i64(v: i64) -> u32 {
        v.max(0) as u32
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
}

/// Declares [`SearchParams`] and [`PARAMS`] from one list: per parameter its doc comment, field
/// name, type, defaults in Jieqi, Maniac and Xiangqi, and limits.
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])+
        $field:ident: $ty:ty = jieqi $jieqi:literal, maniac $maniac:literal,
            xiangqi $xiangqi:literal, range $min:literal..=$max:literal;
    )*) => {
        /// The search's parameters in one variant (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
        }

        /// Every parameter, in the order of [`SearchParams`]'s fields.
        pub const PARAMS: &[ParamSpec] = &[$(
            ParamSpec {
                name: stringify!($field),
                option: concat!("Param_", stringify!($field)),
                doc: concat!($($doc),+),
                switch: <$ty as ParamValue>::SWITCH,
                min: $min,
                max: $max,
                jieqi: $jieqi,
                maniac: $maniac,
                xiangqi: $xiangqi,
            },
        )*];

        impl SearchParams {
            /// The value of parameter `index` of [`PARAMS`], as the protocol's integer.
            pub fn get(&self, index: usize) -> Option<i64> {
                let mut i = 0;
                $(
                    if i == index {
                        return Some(ParamValue::to_i64(self.$field));
                    }
                    i += 1;
                )*
                let _ = i;
                None
            }

            /// Sets parameter `index` of [`PARAMS`] (the caller checked the limits).
            fn set(&mut self, index: usize, value: i64) {
                let mut i = 0;
                $(
                    if i == index {
                        self.$field = ParamValue::from_i64(value);
                        return;
                    }
                    i += 1;
                )*
                let _ = i;
            }

            /// The defaults of `variant`.
            pub fn for_variant(variant: Variant) -> SearchParams {
                SearchParams {
                    $( $field: ParamValue::from_i64(match variant {
                        Variant::Jieqi => $jieqi,
                        Variant::Maniac => $maniac,
                        Variant::Xiangqi => $xiangqi,
                    }), )*
                }
            }
        }
    };
}

search_params! {
    /// Moves to go assumed when the clock does not say (`movestogo`): the soft time limit is
    /// the clock divided by this, plus three quarters of the increment.
    moves_to_go: u32 = jieqi 30, maniac 16, xiangqi 28, range 1..=100;
    /// Time by the number of face-down pieces: the soft time limit is changed by this many
    /// percent times the share of the 30 face-down pieces of the start still on the board
    /// (positive: more time in the opening; negative: less, which leaves more of the clock
    /// for the later moves; 0: the same share of the clock throughout).
    opening_time_percent: i32 = jieqi 0, maniac 0, xiangqi 0, range -90..=300;
    /// The hard time limit (where the search is stopped) in tenths of the soft one.
    hard_limit_tenths: u32 = jieqi 25, maniac 40, xiangqi 40, range 10..=100;
    /// Iteration timing under a clock: no new iteration when the last one's growth predicts it
    /// cannot end before the hard limit (off: only the soft limit stops deepening).
    iteration_timing: bool = jieqi 1, maniac 0, xiangqi 0, range 0..=1;
    /// Under a clock, the soft time limit stretches (up to the hard limit) by this many percent
    /// for each recent change of the best move between completed iterations from depth 4 on
    /// (a change counts half as much after each further iteration; 0: off).
    time_instability: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=500;
    /// Under a clock, the soft time limit stretches (up to the hard limit) by this many percent
    /// per 100 cp that the last completed iteration's score lies below that of the iteration
    /// two before it, counting at most 400 cp (0: off).
    time_drop: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=500;
    /// When a move that beat the best one in an iteration cut short (by the clock, `stop` or a
    /// node limit) is played: 0 never (only completed iterations count), 1 with iteration
    /// timing, 2 always.
    cut_iteration_move: u32 = jieqi 1, maniac 1, xiangqi 1, range 0..=2;
    /// At a chance node on the principal variation only the first outcome searched stays on it;
    /// the others are searched like nodes off it (off: every outcome of a PV chance node is a PV
    /// node).
    pv_first_outcome: bool = jieqi 1, maniac 1, xiangqi 0, range 0..=1;
    /// Probing chance nodes off the principal variation: one representative outcome searched to
    /// full depth, the others estimated from their evaluation or quiescence value.
    probe: bool = jieqi 1, maniac 1, xiangqi 0, range 0..=1;
    /// Probing passes over a flip of which some identities give check and others do not:
    /// every identity is searched instead (a check forces the reply, so one representative's
    /// search says nothing of the identities that differ from it in that).
    expand_mixed_checks: bool = jieqi 1, maniac 0, xiangqi 0, range 0..=1;
    /// Probing passes over a flip of which some identities threaten to win material and others
    /// do not: as those identities the revealed piece attacks a revealed enemy piece worth more
    /// than itself. Every identity is searched instead (the evaluation behind the cheap values
    /// does not see a threat, and one representative's search carries its own to all).
    expand_mixed_threats: bool = jieqi 1, maniac 0, xiangqi 0, range 0..=1;
    /// Which face-down enemy pieces count as targets for `expand_mixed_threats` (revealed ones
    /// worth more than the revealed piece always do): 0 none; 1 those worth more than it, a
    /// face-down piece counted at the value quiescence gives it; 2 those as well that nothing
    /// of their side defends.
    threat_hidden_targets: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=2;
    /// Probing gives way to searching every identity when the representative's search moved
    /// its value from its cheap value by more than this many centipawns (0: never): the
    /// position is tactical then, and what the search found for one identity need not hold for
    /// the others (the piece may defend, block or attack as one identity and not as another).
    probe_delta_limit: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100000;
    /// Probing chance nodes with no ply left, off the principal variation: only the identity
    /// nearest the mean of their evaluations gets a quiescence search, and what it adds to that
    /// evaluation is added to every identity's before they are averaged. 0: never (every
    /// identity gets its own quiescence search); 1: at captures of a face-down piece whose
    /// identity the capturer learns (the identity changes no attack and no check); 2: at flips
    /// as well, where no identity gives check or lands attacked.
    frontier_probe: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=2;
    /// Flips made with no ply left, off the principal variation, are not chance nodes: as in
    /// quiescence, the piece turns out as one identity (`qsearch_flip_identity` says which)
    /// and that one position gets a quiescence search, where a chance node gives every
    /// identity its own. Ahead of `frontier_probe` at flips.
    frontier_flip_identity: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Chance nodes with at least this many flips above them on the searched line are not
    /// searched deeper: their value is the weighted mean of each identity's evaluation (or
    /// quiescence value where the piece lands attacked). 0: no limit.
    full_depth_flips: u32 = jieqi 0, maniac 1, xiangqi 0, range 0..=64;
    /// A chance node with at least this many plies left to search is searched deeper whatever
    /// `full_depth_flips` says, so the limit applies near the leaves only (0: the flips above
    /// decide alone).
    full_flip_depth: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=64;
    /// The evaluation pulled toward a draw over the last 40 plies before the no-capture limit.
    draw_scaling: bool = jieqi 0, maniac 1, xiangqi 1, range 0..=1;
    /// Trades favour the side ahead: the evaluation grows by this many percent times the share
    /// of the chariots, horses and cannons (face-down pieces moving as one) off the board, so
    /// that trading attackers when ahead scores, and keeping them when behind (0: off).
    trade_percent: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100;
    /// King danger grows faster than its attackers: with n enemy pieces bearing on a king
    /// (chariots on its lines with at most one piece between, cannons with one screen, horses
    /// and pawns reaching its palace) its side loses this many centipawns times n(n-1)/2 on top
    /// of the evaluation's king safety, which counts each attacker alone (0: off).
    king_danger: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=500;
    /// Jieqi, which has no repetition rule: a position that occurred before (since the last
    /// capture or flip, in the game or the search) is worth at least a draw to the side to move,
    /// which can go round the cycle again until the no-capture draw (off: searched like any
    /// other position). Without effect in the other variants, whose repetition rule decides.
    repetition_floor: bool = jieqi 1, maniac 1, xiangqi 1, range 0..=1;
    /// Futility pruning near the leaves (up to `futility_depth`): a move that takes nothing is
    /// skipped when the static evaluation plus this margin per ply of depth does not reach
    /// alpha.
    futility_margin: i32 = jieqi 160, maniac 160, xiangqi 160, range 0..=2000;
    /// See `futility_margin`.
    futility_depth: i32 = jieqi 2, maniac 2, xiangqi 2, range 0..=20;
    /// History pruning (up to `pruning_depth`): a quiet move other than the first whose history
    /// is below minus this much per ply of depth is skipped (0: never).
    history_pruning: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100000;
    /// Razoring (up to this depth; 0: never): a node off the PV whose static evaluation plus
    /// `razoring_margin` per ply of depth stays below alpha is given its quiescence value when
    /// that does not beat alpha either.
    razoring_depth: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=20;
    /// See `razoring_depth`.
    razoring_margin: i32 = jieqi 250, maniac 250, xiangqi 250, range 0..=5000;
    /// Reverse futility and late move pruning apply up to this depth.
    pruning_depth: i32 = jieqi 3, maniac 3, xiangqi 3, range 0..=20;
    /// Reverse futility pruning (up to `pruning_depth`): a node off the PV whose static
    /// evaluation minus this margin per ply of depth still reaches beta returns the evaluation.
    reverse_futility_margin: i32 = jieqi 110, maniac 110, xiangqi 110, range 0..=2000;
    /// Late move pruning (up to `pruning_depth`): moves that take nothing are skipped after
    /// this many moves plus `late_move_per_depth` per ply of depth plus
    /// `late_move_per_depth_squared` per square of the depth.
    late_move_base: i32 = jieqi 6, maniac 6, xiangqi 6, range 0..=100;
    /// See `late_move_base`.
    late_move_per_depth: i32 = jieqi 4, maniac 4, xiangqi 4, range 0..=100;
    /// See `late_move_base`.
    late_move_per_depth_squared: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100;
    /// Late move pruning of flips (up to `pruning_depth`; 0: none beyond the other moves'):
    /// a flip is skipped once this many flips plus `flip_late_per_depth` per ply of depth
    /// beyond the first were searched at the node (with `prune_flips`; each flip is a chance
    /// node that costs a search per identity).
    flip_late_base: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100;
    /// See `flip_late_base`.
    flip_late_per_depth: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100;
    /// Futility and late move pruning skip flips as they skip the other moves that take
    /// nothing (off: neither skips a flip).
    prune_flips: bool = jieqi 1, maniac 1, xiangqi 1, range 0..=1;
    /// Null-move pruning: the null move is searched this many plies shallower, plus one ply per
    /// `null_move_depth_divisor` plies of depth, plus one per `null_move_eval_divisor`
    /// centipawns the static evaluation stands above beta (at most 3; 0: not at all).
    null_move_reduction: i32 = jieqi 3, maniac 3, xiangqi 3, range 1..=10;
    /// See `null_move_reduction`.
    null_move_depth_divisor: i32 = jieqi 5, maniac 5, xiangqi 5, range 1..=100;
    /// See `null_move_reduction`.
    null_move_eval_divisor: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=10000;
    /// A node whose null move gets mated (the opponent threatens mate) neither reduces nor
    /// prunes any of its moves (off: the threat changes nothing).
    null_mate_threat: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// A node whose null move gets mated (the opponent threatens mate) is searched a ply
    /// deeper, at most this many times on one line (0: never).
    mate_threat_extensions: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=8;
    /// Late move reductions: a late quiet move is reduced by ln(depth) ln(move number) divided
    /// by this many hundredths (rounded).
    lmr_divisor_hundredths: i32 = jieqi 220, maniac 220, xiangqi 220, range 50..=1000;
    /// Late move reductions off the PV start with the move of this index (0-based; on the PV
    /// always with the fourth).
    lmr_first_move: i32 = jieqi 3, maniac 3, xiangqi 3, range 1..=64;
    /// Late move reductions: this many plies more at a node expected to fail high.
    lmr_cut_node: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=10;
    /// Late move reductions: this many plies more where the static evaluation is not above the
    /// one two plies earlier.
    lmr_not_improving: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=10;
    /// Late move reductions: a flip is reduced this many plies less than another quiet move
    /// (what it reveals decides more than a quiet move's square).
    lmr_flip_less: i32 = jieqi 2, maniac 1, xiangqi 1, range 0..=10;
    /// Move ordering of flips that take nothing: their history plus this many times a static
    /// prior, what their identities gain on average by their squares less half a face-down
    /// piece's value where the enemy attacks the destination (0: history alone, so that flips
    /// with none keep the move generator's order).
    flip_order: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100;
    /// Flips learn from the history tables as the other quiet moves do: a flip that cuts becomes
    /// a killer and gains history credit, and one tried before a move that cut loses some, so
    /// that the flips that worked elsewhere come first and the late move pruning keeps them
    /// (off: the tables learn nothing from flips, which are ordered by what quiet moves of the
    /// same squares or role and destination taught them).
    flip_history: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Late move reductions: one ply less per this much history credit of a quiet move, one
    /// more per this much debit (0: history plays no part).
    lmr_history_divisor: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=100000;
    /// Continuation history: quiet moves are ordered (and, with `lmr_history_divisor`,
    /// reduced) also by how often the same piece going to the same point cut right after the
    /// move one ply earlier and after the move two plies earlier.
    continuation_history: bool = jieqi 1, maniac 1, xiangqi 1, range 0..=1;
    /// Internal iterative reduction: a node from this depth on whose position the table holds
    /// no move for is searched one ply shallower (0: never).
    iir_depth: i32 = jieqi 4, maniac 4, xiangqi 4, range 0..=64;
    /// Singular extensions from this depth on (0: off): the table's move is searched one ply
    /// deeper when every other move, searched at half depth, fails below its stored score less
    /// `singular_margin` per ply of depth; when that lowered score is still at least beta,
    /// the node cuts.
    singular_depth: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=64;
    /// See `singular_depth`.
    singular_margin: i32 = jieqi 2, maniac 2, xiangqi 2, range 0..=1000;
    /// Move ordering: a capture of a revealed piece by a piece worth more than it plus
    /// `bad_capture_margin`, on a point the opponent attacks, is tried after the quiet moves
    /// (off: every capture before them).
    bad_captures_last: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// The history tables (quiet and continuation history) carry over from one search to the
    /// next of the same game, until `ucinewgame` or `Clear Hash` (off: each search starts
    /// with empty tables).
    keep_history: bool = jieqi 1, maniac 1, xiangqi 1, range 0..=1;
    /// Correction history: the static evaluation at decision nodes and quiescence's stand-pat
    /// gets a correction learned from how searches of positions with the same soldiers and
    /// face-down pieces (and side to move) came out against their static evaluation; kept
    /// between the searches of a game like the other history tables (off: the evaluation as
    /// it is).
    correction_history: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// The pruning before the moves (reverse futility, razoring, the null move) and futility
    /// use the table's score in place of the static evaluation where its bound says the
    /// position is worth more (a lower bound above it) or less (an upper bound below it).
    tt_eval: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// A chance node whose window lies beyond the evaluation's range (only mates in every
    /// identity decide it) searches each identity with a window that only asks for such a mate,
    /// and stops at the first that has none (off: every identity with the whole window).
    mate_windows: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Checks are extended by one ply at every node (off: on the PV only; with chance nodes
    /// below every flip, extending every check multiplies the tree).
    check_extension_everywhere: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Scale of the logistic in which chance nodes average their outcomes, in centipawns per
    /// factor of 10 in the odds: the larger, the nearer the average comes to one in centipawns
    /// (the less a flip's spread of identities weighs against its mean).
    chance_scale: i32 = jieqi 1000, maniac 1000, xiangqi 361, range 50..=10000;
    /// Off the PV, a chance node valued from its outcomes' cheap values (probing, or past the
    /// flip budget) takes the worst outcome's cheap value plus this many centipawns in place
    /// of their mean where that is lower (0: never): a flip that can turn out badly counts
    /// for less than its mean.
    chance_worst_margin: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=10000;
    /// Probing's cheap values from this many plies left on (0: never): each outcome of a chance
    /// node off the PV with at least this depth left is valued by a one-ply search (every reply,
    /// then quiescence) instead of its evaluation, so threats the revealed piece makes or meets
    /// count in the estimate.
    cheap_search_depth: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=64;
    /// Quiescence for cheap values searches within this many centipawns of the chance node's
    /// window on each side (0: the whole range): a value beyond that margin is a bound, which
    /// moves the weighted mean little (the logistic is flat there) and costs fewer nodes.
    cheap_window: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=10000;
    /// Chance nodes of moves made within this many plies of the root are never probed (0:
    /// probing wherever it applies): 1 expands every identity of a flip among the root's
    /// moves, so that the root compares flips by their expectations rather than estimates.
    exact_flip_plies: i32 = jieqi 0, maniac 0, xiangqi 0, range 0..=64;
    /// At a PV node, a flip (or a capture that teaches the capturer a face-down identity) whose
    /// null-window search beat alpha is searched again with the null window and its own chance
    /// node expanded identity by identity (no probing there) before the PV search; when that
    /// does not beat alpha either, the move keeps its value and is not searched on the PV
    /// (off: straight to the PV search). Probing estimates a flip's expectation, so its fail
    /// highs are often false, and the PV search that refutes one is the costliest there is.
    verify_fail_highs: bool = jieqi 1, maniac 0, xiangqi 0, range 0..=1;
    /// Half-width, in centipawns, of the window around a PV chance node's own in which each
    /// outcome is searched first.
    outcome_margin: i32 = jieqi 80, maniac 80, xiangqi 80, range 0..=1000;
    /// Half-width, in centipawns, of the first aspiration window around the last iteration's
    /// score (it doubles on each failure).
    aspiration_window: i32 = jieqi 250, maniac 30, xiangqi 30, range 1..=1000;
    /// Quiescence's first ply also searches the moves of revealed pieces that take nothing
    /// and give check (off: captures only, and evasions when in check).
    qsearch_checks: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// From this many plies into quiescence on, only captures on the point the previous move
    /// went to (recaptures) are searched, when not in check: an exchange under way is played
    /// out, and no new one starts (0: every capture at every ply).
    recapture_plies: u32 = jieqi 0, maniac 0, xiangqi 0, range 0..=64;
    /// The identity a flip turns out as in quiescence, where flips are not chance nodes: 0 the
    /// most likely one; 1 the one whose value (from the mover's view) is nearest the weighted
    /// mean of the identities' values, so that the flip neither loses nor gains material on
    /// average (the most likely identity is often a pawn, worth far less than the face-down
    /// piece that moved).
    qsearch_flip_identity: u32 = jieqi 1, maniac 1, xiangqi 0, range 0..=1;
    /// Delta pruning in quiescence: a capture is skipped when the static evaluation plus the
    /// victim's value plus this margin stays below alpha.
    delta_margin: i32 = jieqi 150, maniac 150, xiangqi 150, range 0..=2000;
    /// Quiescence skips a capture onto a defended point whose attacker is worth more than the
    /// victim plus this margin.
    bad_capture_margin: i32 = jieqi 50, maniac 50, xiangqi 50, range 0..=2000;
    /// Pruning by static exchange (up to this depth; 0: never), below the root and not in
    /// check, for moves after the first that give no check: a capture whose exchange on its
    /// point loses more than `see_capture_margin` per ply of depth, and a move that takes
    /// nothing (flips included) whose piece is lost there for more than `see_quiet_margin`
    /// per square of the depth.
    see_depth: i32 = jieqi 8, maniac 0, xiangqi 0, range 0..=20;
    /// See `see_depth`.
    see_capture_margin: i32 = jieqi 120, maniac 120, xiangqi 120, range 0..=2000;
    /// See `see_depth`.
    see_quiet_margin: i32 = jieqi 25, maniac 25, xiangqi 25, range 0..=2000;
    /// Late move reductions apply to captures that lose material by static exchange as to
    /// quiet moves (off: no capture is reduced).
    lmr_losing_captures: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Quiescence skips a capture whose static exchange loses material, in place of the test
    /// of `bad_capture_margin` (off: that test).
    qsearch_see: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Move ordering: a capture whose static exchange loses material is tried after the quiet
    /// moves (off: every capture before them, unless `bad_captures_last` puts it there).
    see_ordering: bool = jieqi 0, maniac 0, xiangqi 0, range 0..=1;
    /// Capture history (0: off): captures are ordered by their victim, then by how often the
    /// same piece taking the same kind of victim on the same point cut, this table's value
    /// divided by this number added to the victim's (captures tried before a move that cut
    /// are debited).
    capture_history: i32 = jieqi 8, maniac 0, xiangqi 0, range 0..=1024;
    /// ProbCut (0: off): off the PV, from depth `PROBCUT_DEPTH` on, a capture that wins at
    /// least beta plus this margin less the static evaluation by static exchange is searched
    /// in quiescence, then four plies shallower, against beta plus this margin; when it holds
    /// in both, the node cuts with that value.
    probcut_margin: i32 = jieqi 200, maniac 0, xiangqi 0, range 0..=2000;
}

impl Default for SearchParams {
    /// The Jieqi defaults.
    fn default() -> SearchParams {
        SearchParams::for_variant(Variant::Jieqi)
    }
}

/// The parameter of [`PARAMS`] called `name` (without the `Param_` prefix), ignoring case.
pub fn find(name: &str) -> Option<usize> {
    PARAMS
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))
}

/// The search parameters of each variant (their defaults differ by variant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantParams([SearchParams; 3]);

impl Default for VariantParams {
    fn default() -> VariantParams {
        VariantParams(Variant::ALL.map(SearchParams::for_variant))
    }
}

impl VariantParams {
    fn slot(variant: Variant) -> usize {
        match variant {
            Variant::Jieqi => 0,
            Variant::Maniac => 1,
            Variant::Xiangqi => 2,
        }
    }

    /// The parameters of `variant`.
    pub fn get(&self, variant: Variant) -> &SearchParams {
        &self.0[Self::slot(variant)]
    }

    /// Sets parameter `index` of [`PARAMS`] in every variant. Values outside its limits are
    /// refused (`Err` with the limits) and change nothing.
    pub fn set(&mut self, index: usize, value: i64) -> Result<(), (i64, i64)> {
        let spec = PARAMS.get(index).ok_or((0, 0))?;
        if value < spec.min || value > spec.max {
            return Err((spec.min, spec.max));
        }
        for p in self.0.iter_mut() {
            p.set(index, value);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_reads_back_and_keeps_its_limits() {
        for v in Variant::ALL {
            let p = SearchParams::for_variant(v);
            for (i, spec) in PARAMS.iter().enumerate() {
                let d = spec.default_for(v);
                assert_eq!(p.get(i), Some(d), "{}", spec.name);
                assert!(spec.min <= d && d <= spec.max, "{}", spec.name);
                assert!(spec.option.starts_with("Param_") && spec.option.ends_with(spec.name));
                assert!(!spec.doc.trim().is_empty());
            }
        }
        assert_eq!(SearchParams::default().get(PARAMS.len()), None);
    }

    #[test]
    fn variant_defaults_and_setting_every_variant() {
        let mut all = VariantParams::default();
        use Variant::{Jieqi, Maniac, Xiangqi};
        let j = *all.get(Jieqi);
        let m = *all.get(Maniac);
        let x = *all.get(Xiangqi);
        assert_eq!((j.moves_to_go, j.hard_limit_tenths), (30, 25));
        assert_eq!((m.moves_to_go, m.hard_limit_tenths), (16, 40));
        assert_eq!((x.moves_to_go, x.hard_limit_tenths), (28, 40));
        assert!(j.iteration_timing && j.pv_first_outcome && j.probe && !j.draw_scaling);
        assert!(!m.iteration_timing && m.pv_first_outcome && m.probe && m.draw_scaling);
        assert!(!x.iteration_timing && !x.pv_first_outcome && !x.probe && x.draw_scaling);
        assert_eq!(
            (
                j.cut_iteration_move,
                m.cut_iteration_move,
                x.cut_iteration_move
            ),
            (1, 1, 1)
        );
        assert_eq!(
            (j.full_depth_flips, m.full_depth_flips, x.full_depth_flips),
            (0, 1, 0)
        );
        assert_eq!(
            (j.chance_scale, m.chance_scale, x.chance_scale),
            (1000, 1000, 361)
        );
        assert_eq!(
            (j.lmr_flip_less, m.lmr_flip_less, x.lmr_flip_less),
            (2, 1, 1)
        );
        assert_eq!(
            (
                j.qsearch_flip_identity,
                m.qsearch_flip_identity,
                x.qsearch_flip_identity
            ),
            (1, 1, 0)
        );
        // Apart from these, Maniac and Xiangqi share their defaults.
        let mut mx = m;
        mx.moves_to_go = x.moves_to_go;
        mx.pv_first_outcome = x.pv_first_outcome;
        mx.probe = x.probe;
        mx.full_depth_flips = x.full_depth_flips;
        mx.chance_scale = x.chance_scale;
        mx.qsearch_flip_identity = x.qsearch_flip_identity;
        assert_eq!(mx, x);
        let i = find("MOVES_TO_GO").unwrap();
        all.set(i, 40).unwrap();
        assert!(Variant::ALL.iter().all(|&v| all.get(v).moves_to_go == 40));
        let before = all.clone();
        assert_eq!(all.set(i, 0), Err((1, 100)));
        assert_eq!(all.set(find("probe").unwrap(), 2), Err((0, 1)));
        assert_eq!(all, before);
        all.set(find("probe").unwrap(), 1).unwrap();
        assert!(all.get(Xiangqi).probe);
        assert!(find("star1").is_none());
    }
}
