//! Time management: how long to think for a move.
//!
//! From `movetime`, or from the clock (`wtime/btime/winc/binc/movestogo`), we derive a soft limit
//! (the clock divided by the moves to go, unless `movestogo` says 30 in Jieqi and 28 elsewhere,
//! plus three quarters of the increment; no new iteration starts after it, nor in Jieqi one
//! predicted to end after the hard limit) and a hard limit (2.5 times the soft one in
//! Jieqi, 4 times elsewhere, at most two fifths of the clock; the search is stopped there).
//! Jieqi differs because one more ply costs about ten times more there (a chance node at every
//! flip), so an iteration started late rarely ends (docs/strength.md, "Time profile"). Both
//! limits leave the move overhead unspent, and the hard limit never exceeds what is on the clock.
//! Negative clocks count as zero, and clocks or increments above 10^12 ms (about 31 years) as
//! that, so no arithmetic on them can overflow. With `opening_time_percent` the soft limit changes with the
//! share of face-down pieces still on the board, so more or less of the clock goes to the
//! opening. With `time_instability` and `time_drop` the soft limit stretches, up to the hard
//! limit, while the search is unsettled: its best move changed in recent iterations, or its
//! score fell ([`Stability`]).

use crate::core::{Color, Move};

use super::alphabeta::is_mate_score;
use super::params::SearchParams;
use super::types::Limits;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Milliseconds after which no new iteration starts.
    pub soft_ms: u64,
    /// Milliseconds at which the search is stopped.
    pub hard_ms: u64,
}

/// `movestogo` from the GUI is read as at most this many moves.
const MAX_MOVES_TO_GO: u32 = 60;
/// Growth of an iteration's length over the one before, as assumed by the prediction: at
/// least, at most, and when there is no earlier iteration.
const GROWTH_MIN: f64 = 2.0;
const GROWTH_MAX: f64 = 16.0;
const GROWTH_FIRST: f64 = 6.0;

/// Clocks and increments above this many milliseconds (about 31 years) are read as this.
const MAX_CLOCK_MS: u64 = 1_000_000_000_000;

/// Face-down pieces on the board at the start of Jieqi and Maniac.
const FACE_DOWN_AT_START: i64 = 30;

/// The budget for a search, or `None` when no time limit applies. `face_down` is the number
/// of face-down pieces on the board (`opening_time_percent` changes the time while many are).
pub fn budget(
    limits: &Limits,
    side: Color,
    params: &SearchParams,
    overhead_ms: u64,
    face_down: u32,
) -> Option<Budget> {
    if limits.infinite {
        return None;
    }
    if let Some(mt) = limits.movetime {
        let t = (mt.max(0) as u64).saturating_sub(overhead_ms).max(1);
        return Some(Budget {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let (time, inc) = match side {
        Color::Red => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let time = (time?.max(0) as u64).min(MAX_CLOCK_MS);
    let inc = (inc.unwrap_or(0).max(0) as u64).min(MAX_CLOCK_MS);
    let usable = time.saturating_sub(overhead_ms).max(1);
    let moves_left = limits
        .movestogo
        .map_or(params.moves_to_go, |m| m.clamp(1, MAX_MOVES_TO_GO)) as u64;
    if moves_left == 1 {
        // The last move before the control: this much at most.
        let t = usable.saturating_sub(usable / 20).max(1);
        return Some(Budget {
            soft_ms: t,
            hard_ms: t,
        });
    }
    let share = (face_down as i64).min(FACE_DOWN_AT_START);
    let change = params.opening_time_percent as i64 * share / FACE_DOWN_AT_START;
    let percent = (100 + change).max(1) as u64;
    let soft = ((usable / moves_left + inc * 3 / 4) * percent / 100)
        .min(usable / 2)
        .max(1);
    let hard_tenths = params.hard_limit_tenths as u64;
    let hard = (soft * hard_tenths / 10)
        .min(usable * 2 / 5)
        .max(soft)
        .min(usable);
    Some(Budget {
        soft_ms: soft,
        hard_ms: hard.max(1),
    })
}

/// Whether another iteration is predicted to end before the hard limit: it is taken to last
/// the last iteration's length times that iteration's growth over the one before (clamped to
/// 2..16; 6 when there is no earlier one). Times in milliseconds on the search clock.
pub fn next_iteration_fits(now_ms: u64, last_len_ms: u64, prev_len_ms: u64, hard_ms: u64) -> bool {
    let last = last_len_ms.max(1) as f64;
    let growth = if prev_len_ms > 0 {
        (last / prev_len_ms as f64).clamp(GROWTH_MIN, GROWTH_MAX)
    } else {
        GROWTH_FIRST
    };
    now_ms as f64 + last * growth <= hard_ms as f64
}

/// Best-move changes are counted from the iteration at this depth on (at lower depths the best
/// move changes as a matter of course).
const STABILITY_DEPTH: u32 = 4;

/// A score drop counts up to this many centipawns.
const DROP_CAP: i32 = 400;

/// How unsettled a search under a clock is, from its completed iterations: the recent changes
/// of the best move (each counting one when it happens and half as much after each further
/// iteration) and how far the score fell from the one two iterations before (the same parity
/// of depth: in Jieqi the side that made the last flip of a line alternates with it).
#[derive(Clone, Debug, Default)]
pub struct Stability {
    best: Option<Move>,
    /// Best-move changes, in hundredths (decayed).
    changes: u64,
    /// The scores of the last three completed iterations, the latest last (`None`: a mate
    /// score, or no such iteration).
    scores: [Option<i32>; 3],
}

impl Stability {
    /// Books a completed iteration at `depth` with best move `best` and score `score` (a mate
    /// score counts no drop).
    pub fn complete(&mut self, depth: u32, best: Move, score: i32) {
        self.changes /= 2;
        if depth >= STABILITY_DEPTH && self.best.is_some_and(|b| b != best) {
            self.changes += 100;
        }
        self.best = Some(best);
        self.scores = [
            self.scores[1],
            self.scores[2],
            (!is_mate_score(score)).then_some(score),
        ];
    }

    /// How far the last iteration's score lies below that of the iteration two before it, if
    /// at all (centipawns, at most [`DROP_CAP`]).
    pub fn drop(&self) -> i32 {
        match (self.scores[0], self.scores[2]) {
            (Some(a), Some(b)) => (a - b).clamp(0, DROP_CAP),
            _ => 0,
        }
    }

    /// The soft limit `soft_ms` stretched by `time_instability` percent per recent best-move
    /// change and by `time_drop` percent per 100 cp of the score's drop, at most to `hard_ms`.
    pub fn soft_ms(&self, soft_ms: u64, hard_ms: u64, params: &SearchParams) -> u64 {
        let unsettled = 100 + params.time_instability as u64 * self.changes / 100;
        let falling = 100 + params.time_drop as u64 * self.drop() as u64 / 100;
        (soft_ms.saturating_mul(unsettled * falling) / 10_000)
            .min(hard_ms)
            .max(soft_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    fn budget(limits: &Limits, side: Color, variant: Variant, overhead_ms: u64) -> Option<Budget> {
        super::budget(
            limits,
            side,
            &SearchParams::for_variant(variant),
            overhead_ms,
            0,
        )
    }

    fn limits() -> Limits {
        Limits::default()
    }

    #[test]
    fn movetime_minus_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..limits()
        };
        let b = budget(&l, Color::Red, Variant::Jieqi, 30).unwrap();
        assert_eq!(b.hard_ms, 970);
    }

    #[test]
    fn negative_clock_still_answers() {
        let l = Limits {
            wtime: Some(-500),
            btime: Some(-500),
            ..limits()
        };
        let b = budget(&l, Color::Black, Variant::Jieqi, 30).unwrap();
        assert_eq!(b.hard_ms, 1);
    }

    #[test]
    fn hard_limit_within_clock() {
        for t in [1i64, 10, 100, 1000, 10_000, 600_000] {
            for inc in [0i64, 10, 1000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let l = Limits {
                        wtime: Some(t),
                        winc: Some(inc),
                        movestogo: mtg,
                        ..limits()
                    };
                    for v in Variant::ALL {
                        let b = budget(&l, Color::Red, v, 30).unwrap();
                        assert!(b.soft_ms <= b.hard_ms);
                        assert!(
                            b.hard_ms <= (t as u64).saturating_sub(30).max(1),
                            "{t} {inc} {mtg:?} {v}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn opening_time_follows_the_face_down_pieces() {
        let l = Limits {
            wtime: Some(10_000),
            winc: Some(100),
            ..limits()
        };
        let mut params = SearchParams::for_variant(Variant::Jieqi);
        let plain = super::budget(&l, Color::Red, &params, 0, 30).unwrap();
        assert_eq!(plain.soft_ms, 10_000 / 30 + 75);
        params.opening_time_percent = 100;
        let soft = |params: &SearchParams, face_down| {
            super::budget(&l, Color::Red, params, 0, face_down)
                .unwrap()
                .soft_ms
        };
        assert_eq!(soft(&params, 30), 2 * plain.soft_ms);
        assert_eq!(soft(&params, 15), plain.soft_ms * 3 / 2);
        assert_eq!(soft(&params, 0), plain.soft_ms);
        // A count above the start's is read as the start's.
        assert_eq!(soft(&params, 32), soft(&params, 30));
        // The hard limit follows the soft one, within two fifths of the clock.
        let b = super::budget(&l, Color::Red, &params, 0, 30).unwrap();
        assert_eq!(b.hard_ms, (b.soft_ms * 25 / 10).min(4_000));
        params.opening_time_percent = 300;
        let b = super::budget(&l, Color::Red, &params, 0, 30).unwrap();
        assert_eq!((b.soft_ms, b.hard_ms), (4 * plain.soft_ms, 4_000));
        // Negative: less time while many pieces are face down.
        params.opening_time_percent = -50;
        assert_eq!(soft(&params, 30), plain.soft_ms / 2);
        assert_eq!(soft(&params, 15), plain.soft_ms * 3 / 4);
        assert_eq!(soft(&params, 0), plain.soft_ms);
    }

    #[test]
    fn iteration_prediction() {
        // 100 ms after 10 ms: growth 10, next 1000 ms.
        assert!(next_iteration_fits(200, 100, 10, 1200));
        assert!(!next_iteration_fits(200, 100, 10, 1199));
        // Growth is at least 2 and at most 16.
        assert!(!next_iteration_fits(0, 100, 100, 199));
        assert!(next_iteration_fits(0, 100, 100, 200));
        assert!(next_iteration_fits(0, 100, 1, 1600));
        assert!(!next_iteration_fits(0, 100, 1, 1599));
        // No earlier iteration: six times the last.
        assert!(next_iteration_fits(0, 50, 0, 300));
        assert!(!next_iteration_fits(0, 50, 0, 299));
    }

    #[test]
    fn huge_clocks_are_capped() {
        for mtg in [None, Some(1), Some(60)] {
            let l = Limits {
                wtime: Some(i64::MAX),
                winc: Some(i64::MAX),
                btime: Some(-500),
                movestogo: mtg,
                ..limits()
            };
            for v in Variant::ALL {
                let mut params = SearchParams::for_variant(v);
                params.opening_time_percent = 300;
                params.hard_limit_tenths = 100;
                let b = super::budget(&l, Color::Red, &params, 30, 30).unwrap();
                assert!(
                    b.soft_ms <= b.hard_ms && b.hard_ms <= MAX_CLOCK_MS,
                    "{v} {mtg:?}"
                );
                assert!(b.soft_ms >= 1000, "{v} {mtg:?}");
            }
        }
    }

    /// The soft limit stretches by `time_instability` percent per recent best-move change from
    /// depth 4 on (halved per later iteration) and by `time_drop` percent per 100 cp the score
    /// fell against two iterations before, never past the hard limit; with both off it stays.
    #[test]
    fn an_unsettled_search_stretches_the_soft_limit() {
        let (a, b) = (Move::parse("a3a4").unwrap(), Move::parse("c3c4").unwrap());
        let mut params = SearchParams::for_variant(Variant::Jieqi);
        params.time_instability = 100;
        params.time_drop = 50;
        let mut st = Stability::default();
        // Changes below depth 4 do not count.
        st.complete(1, a, 50);
        st.complete(2, b, 40);
        st.complete(3, a, 30);
        assert_eq!(st.drop(), 20);
        assert_eq!(st.soft_ms(1000, 2500, &params), 1100);
        // A change at depth 4: +100%; the score 30 below depth 2's: +15%.
        st.complete(4, b, 10);
        assert_eq!(st.drop(), 30);
        assert_eq!(st.soft_ms(1000, 5000, &params), 2300);
        // Capped at the hard limit.
        assert_eq!(st.soft_ms(1000, 1500, &params), 1500);
        // One iteration later the change counts half; the score rose.
        st.complete(5, b, 200);
        assert_eq!(st.drop(), 0);
        assert_eq!(st.soft_ms(1000, 5000, &params), 1500);
        // A fall of more than 400 cp counts 400 (+200%; the change, three iterations back,
        // still +12%); a mate score counts none.
        st.complete(6, b, 100);
        st.complete(7, b, -500);
        assert_eq!(st.drop(), 400);
        assert_eq!(st.soft_ms(1000, 5000, &params), 3360);
        // Mated in five plies.
        st.complete(8, b, -(crate::search::alphabeta::MATE - 5));
        assert_eq!(st.drop(), 0);
        // Both off: the soft limit as it was.
        let plain = SearchParams::for_variant(Variant::Jieqi);
        st.complete(9, a, -900);
        assert!(st.drop() > 0);
        assert_eq!(st.soft_ms(1000, 5000, &plain), 1000);
    }

    #[test]
    fn infinite_has_no_budget() {
        let l = Limits {
            infinite: true,
            wtime: Some(1000),
            ..limits()
        };
        assert!(budget(&l, Color::Red, Variant::Jieqi, 30).is_none());
    }
}
