//! The engine facade's public types: limits, options, reports.

use crate::core::{Move, Position};

/// What the search may know about the game before the root: hashes of the earlier positions
/// since the last capture or flip, oldest first (for repetition detection).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position to search, as the side to move sees it (its pools are the belief state).
    pub position: Position,
    /// Hashes of earlier positions since the last irreversible move, oldest first, not including
    /// the root itself.
    pub history: Vec<u64>,
}

impl Root {
    pub fn new(position: Position) -> Root {
        Root {
            position,
            history: Vec::new(),
        }
    }
}

/// Search limits of one `go`. Times are in milliseconds and may be negative (treated as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    /// Search as if infinite until `ponderhit`, then apply the other limits from that moment.
    pub ponder: bool,
    /// Only these root moves (empty = all).
    pub searchmoves: Vec<Move>,
}

/// How flips are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// One search with chance nodes over the pools as the side to move sees them. The default:
    /// it beat `pimc` by +147 Elo and `hybrid` by +156 Elo in 100-game paired matches at
    /// 50 ms per move (see `tests/selfplay.rs`).
    #[default]
    Expectimax,
    /// Sampled deals: every face-down identity fixed by the sample (no chance nodes).
    Pimc,
    /// Sampled private information (identities the opponent learned by capturing our face-down
    /// pieces), chance nodes for every flip.
    Hybrid,
}

impl SearchMode {
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::Expectimax => "expectimax",
            SearchMode::Pimc => "pimc",
            SearchMode::Hybrid => "hybrid",
        }
    }
    pub fn parse(s: &str) -> Option<SearchMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "expectimax" => Some(SearchMode::Expectimax),
            "pimc" => Some(SearchMode::Pimc),
            "hybrid" => Some(SearchMode::Hybrid),
            _ => None,
        }
    }
}

/// Switches for strength experiments: each search choice can be turned off to measure what it
/// is worth in matches (`docs/strength.md`). Normal play uses [`Experiment::default`]; a process
/// can install other values once, before its first search (`JIEQI_EXPERIMENT`, see
/// `protocol.md` section 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Experiment {
    /// Star1 windows at chance nodes (off: every outcome searched with a full window).
    pub star1: bool,
    /// Outcomes searched in order of weight times value (off: pool order).
    pub order_outcomes: bool,
    /// Outcomes after the heaviest searched one ply shallower off the PV.
    pub reduce_outcomes: bool,
    /// How chance nodes average their outcomes.
    pub aggregation: super::chance::Aggregation,
    /// Moves to go assumed when the clock does not say (`None`: the variant's, see
    /// [`Experiment::moves_to_go`]).
    pub moves_to_go: Option<u32>,
    /// Longer thinking when the best move flips or the score drops. Off by default: it lost
    /// 60 Elo (95% 18..104) at 1+0.01 (docs/strength.md).
    pub stretch: bool,
    /// The evaluation pulled toward a draw over the last 40 plies before the no-capture limit.
    /// `None`: off in Jieqi (it measured -19 Elo, 95% -57..+18, at 2+0.02; docs/strength.md),
    /// on elsewhere.
    pub draw_scaling: Option<bool>,
    /// Probing chance nodes off the PV (Jieqi): one representative outcome searched to full
    /// depth, the others estimated from their evaluation (see `chance.rs`). On by default:
    /// +52 Elo (95% -2..+109) together with `iteration_timing` at 2+0.02 (docs/strength.md).
    pub probe: bool,
    /// Iteration timing: no new iteration when the last one's growth predicts it cannot end
    /// before the hard limit, and a move that beat the best one in an iteration cut short by
    /// time is played (off: only the soft limit, and only completed iterations count). `None`:
    /// on in Jieqi only.
    pub iteration_timing: Option<bool>,
    /// The hard time limit as a multiple of the soft one, in tenths (`None`: the variant's, see
    /// [`Experiment::hard_tenths`]). In Jieqi 25 with 40 moves to go (before: 40 and 28) spends
    /// the clock more evenly; +20 Elo (95% -20..+61) at 2+0.02, and 30 moves to go instead of 40
    /// another +19 (95% -16..+54) (docs/strength.md).
    pub hard_tenths: Option<u32>,
    /// At a chance node on the PV only the first outcome searched is a PV node; the others are
    /// searched like any node off the PV (off: every outcome of a PV chance node is a PV node).
    /// `None`: on in Jieqi only.
    pub pv_first_outcome: Option<bool>,
}

impl Default for Experiment {
    fn default() -> Experiment {
        Experiment {
            star1: true,
            order_outcomes: true,
            reduce_outcomes: true,
            aggregation: super::chance::Aggregation::ExpectedScore,
            moves_to_go: None,
            stretch: false,
            draw_scaling: None,
            probe: true,
            iteration_timing: None,
            hard_tenths: None,
            pv_first_outcome: None,
        }
    }
}

impl Experiment {
    /// Moves to go assumed by the clock: 30 in Jieqi, 28 elsewhere, unless set.
    pub fn moves_to_go(&self, variant: crate::core::Variant) -> u32 {
        self.moves_to_go
            .unwrap_or(if variant == crate::core::Variant::Jieqi {
                30
            } else {
                28
            })
    }

    /// The hard time limit in tenths of the soft one: 25 in Jieqi, 40 elsewhere, unless set.
    pub fn hard_tenths(&self, variant: crate::core::Variant) -> u32 {
        self.hard_tenths
            .unwrap_or(if variant == crate::core::Variant::Jieqi {
                25
            } else {
                40
            })
    }

    /// Only the first outcome of a PV chance node on the PV: on in Jieqi, off elsewhere, unless
    /// set.
    pub fn pv_first_outcome(&self, variant: crate::core::Variant) -> bool {
        self.pv_first_outcome
            .unwrap_or(variant == crate::core::Variant::Jieqi)
    }

    /// The pull toward a draw before the no-capture limit: off in Jieqi, on elsewhere, unless
    /// set.
    pub fn draw_scaling(&self, variant: crate::core::Variant) -> bool {
        self.draw_scaling
            .unwrap_or(variant != crate::core::Variant::Jieqi)
    }

    /// Iteration timing: on in Jieqi, off elsewhere, unless set.
    pub fn iteration_timing(&self, variant: crate::core::Variant) -> bool {
        self.iteration_timing
            .unwrap_or(variant == crate::core::Variant::Jieqi)
    }

    /// Reads `key=value` words separated by commas or blanks: `star1`, `order`, `reduce`,
    /// `stretch`, `drawscale`, `probe`, `itertime`, `pvfirst` (`on`/`off`), `aggregation`
    /// (`units`/`cp`), `movestogo` (1..=100), `hard` (10..=100 tenths).
    pub fn parse(text: &str) -> Result<Experiment, String> {
        let mut e = Experiment::default();
        for word in text.split([',', ' ']).filter(|w| !w.trim().is_empty()) {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' is not key=value"))?;
            let on = || match v {
                "on" | "true" | "1" => Ok(true),
                "off" | "false" | "0" => Ok(false),
                _ => Err(format!("{k}: '{v}' is not on or off")),
            };
            let number = |lo: u32, hi: u32, unit: &str| {
                v.parse::<u32>()
                    .ok()
                    .filter(|m| (lo..=hi).contains(m))
                    .ok_or_else(|| format!("{k}: '{v}' is not {lo}..{hi}{unit}"))
            };
            match k {
                "star1" => e.star1 = on()?,
                "order" => e.order_outcomes = on()?,
                "reduce" => e.reduce_outcomes = on()?,
                "stretch" => e.stretch = on()?,
                "drawscale" => e.draw_scaling = Some(on()?),
                "probe" => e.probe = on()?,
                "itertime" => e.iteration_timing = Some(on()?),
                "pvfirst" => e.pv_first_outcome = Some(on()?),
                "aggregation" => {
                    e.aggregation = match v {
                        "units" => super::chance::Aggregation::ExpectedScore,
                        "cp" => super::chance::Aggregation::Centipawns,
                        _ => return Err(format!("aggregation: '{v}' is not units or cp")),
                    }
                }
                "hard" => e.hard_tenths = Some(number(10, 100, " (tenths)")?),
                "movestogo" => e.moves_to_go = Some(number(1, 100, "")?),
                _ => return Err(format!("unknown experiment switch '{k}'")),
            }
        }
        Ok(e)
    }
}

static EXPERIMENT: once_cell::sync::OnceCell<Experiment> = once_cell::sync::OnceCell::new();

/// Installs experiment switches for this process; only once (later calls return `false`).
pub fn install_experiment(e: Experiment) -> bool {
    EXPERIMENT.set(e).is_ok()
}

/// The experiment switches in use.
pub fn experiment() -> Experiment {
    EXPERIMENT.get().copied().unwrap_or_default()
}

/// Engine settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub threads: usize,
    pub hash_mb: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub mode: SearchMode,
    /// Number of sampled worlds per search in `pimc`/`hybrid` when there is something to sample.
    pub samples: usize,
    pub seed: u64,
    /// Chance node after the root side captures a face-down piece (it learns the identity).
    pub learn_captures: bool,
    /// When the best move flips a piece: after the search, value each identity it can reveal
    /// (see [`super::odds`]) and report them in a `Report::Text` starting with `flipodds`.
    pub flip_odds: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            move_overhead_ms: 30,
            mode: SearchMode::default(),
            samples: 8,
            seed: 1,
            learn_captures: true,
            flip_odds: false,
        }
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (aspiration window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number when several lines are searched (MultiPV).
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    /// Win / draw / loss per mille for the side to move.
    pub wdl: (u32, u32, u32),
    pub nodes: u64,
    pub nps: u64,
    /// Transposition table use per mille.
    pub hashfull: u32,
    pub time_ms: u64,
    /// Principal variation, cut after the first move of a face-down piece.
    pub pv: Vec<Move>,
}

/// What the engine sends while and after searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Info(Info),
    /// Free text for an `info string` line.
    Text(String),
    /// The search ended. `best` is `None` when there is no legal move. `ponder` is never given
    /// when `best` flips a piece.
    Done {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

#[cfg(test)]
mod experiment_tests {
    use super::*;

    #[test]
    fn experiment_switches_parse_and_refuse_bad_words() {
        assert_eq!(Experiment::parse("").unwrap(), Experiment::default());
        let e = Experiment::parse(
            "star1=off, order=off reduce=0,aggregation=cp,movestogo=20,stretch=off",
        )
        .unwrap();
        assert!(!e.star1 && !e.order_outcomes && !e.reduce_outcomes && !e.stretch);
        let e2 = Experiment::parse("probe=off,itertime=off").unwrap();
        assert!(!e2.probe && !e2.iteration_timing(crate::core::Variant::Jieqi));
        let d = Experiment::default();
        use crate::core::Variant::{Jieqi, Maniac, Xiangqi};
        assert!(!Experiment::parse("drawscale=off")
            .unwrap()
            .draw_scaling(Xiangqi));
        assert!(Experiment::parse("drawscale=on")
            .unwrap()
            .draw_scaling(Jieqi));
        assert!(!d.draw_scaling(Jieqi) && d.draw_scaling(Maniac));
        assert!(d.pv_first_outcome(Jieqi) && !d.pv_first_outcome(Maniac));
        assert!(!Experiment::parse("pvfirst=off")
            .unwrap()
            .pv_first_outcome(Jieqi));
        assert!(d.probe && d.iteration_timing(Jieqi));
        assert!(!d.iteration_timing(Xiangqi) && !d.iteration_timing(Maniac));
        assert_eq!((d.hard_tenths(Jieqi), d.moves_to_go(Jieqi)), (25, 30));
        assert_eq!((d.hard_tenths(Xiangqi), d.moves_to_go(Maniac)), (40, 28));
        let e3 = Experiment::parse("hard=40,movestogo=30,itertime=on").unwrap();
        assert_eq!((e3.hard_tenths(Jieqi), e3.moves_to_go(Xiangqi)), (40, 30));
        assert!(e3.iteration_timing(Maniac));
        assert_eq!(e.aggregation, super::super::chance::Aggregation::Centipawns);
        assert_eq!(e.moves_to_go, Some(20));
        for bad in [
            "star1",
            "star1=maybe",
            "movestogo=0",
            "movestogo=x",
            "aggregation=mean",
            "hard=9",
            "hard=x",
            "x=1",
        ] {
            assert!(Experiment::parse(bad).is_err(), "{bad}");
        }
    }
}
