//! Match statistics: Elo from a score, its 95% interval from trinomial (W/D/L) or pentanomial
//! (pairs of games with colours swapped) counts, the likelihood of superiority, and the
//! generalized SPRT with a normal approximation. Pure functions; no I/O.
//!
//! Scores are fractions in `[0, 1]` from the first engine's point of view. A pair's score is
//! the first engine's points in its two games (0, 0.5, 1, 1.5 or 2), counted in
//! `[u64; 5]` by half points.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo of an expected score (infinite at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, from the Chebyshev-fitted complementary error function
/// `erfc(z) = t exp(-z^2 + P(t))`, `t = 1 / (1 + z/2)` (fractional error below 1.2e-7).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// Standard normal cumulative distribution.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Likelihood of superiority of the first engine from its wins and losses (draws carry no
/// information): `Phi((W - L) / sqrt(W + L))`; 0.5 with no decisive game.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    phi((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt())
}

/// An Elo estimate: the point value and the 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// The mean score behind it.
    pub score: f64,
}

impl EloEstimate {
    /// Half the width of the interval (infinite when a bound is).
    pub fn margin(&self) -> f64 {
        let m = (self.high - self.low) / 2.0;
        if m.is_nan() {
            if self.elo.is_finite() {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            m
        }
    }
}

/// Mean and (population) variance of a distribution given as counts of values.
fn mean_var(values: &[f64], counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

fn estimate(n: f64, mean: f64, var: f64) -> EloEstimate {
    let se = (var / n).sqrt();
    EloEstimate {
        elo: elo_from_score(mean),
        low: elo_from_score(mean - Z95 * se),
        high: elo_from_score(mean + Z95 * se),
        score: mean,
    }
}

/// Elo and 95% interval from wins, draws and losses (games taken as independent).
pub fn elo_wdl(wins: u64, draws: u64, losses: u64) -> Option<EloEstimate> {
    let (n, mean, var) = mean_var(&[1.0, 0.5, 0.0], &[wins, draws, losses])?;
    Some(estimate(n, mean, var))
}

/// Pair scores (the pair's points / 2) for the five pentanomial cells.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Elo and 95% interval from pentanomial pair counts `[0, 0.5, 1, 1.5, 2 points]`; the pairs
/// are the independent samples, which accounts for the correlation of the two games of a deal.
pub fn elo_pentanomial(pairs: &[u64; 5]) -> Option<EloEstimate> {
    let (n, mean, var) = mean_var(&PAIR_SCORES, pairs)?;
    Some(estimate(n, mean, var))
}

/// How an SPRT's Elo bounds are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (`score = 1 / (1 + 10^(-elo/400))`).
    Logistic,
    /// Normalized Elo: the Elo of a t-value, `score = 1/2 + nelo * ln10/800 * sigma`,
    /// sigma being the per-game standard deviation of the score (estimated from the pairs).
    Normalized,
}

impl EloModel {
    /// The name `--sprt model=` reads.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
    /// No decision before this many complete pairs: with a handful of pairs the normal
    /// approximation's variance is meaningless (one pair scored 1 of 2 points would "decide" a
    /// 0-vs-20 Elo test at once).
    pub min_pairs: u64,
}

/// Default of [`Sprt::min_pairs`].
pub const SPRT_MIN_PAIRS: u64 = 10;

/// What an SPRT says after the pairs so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// H0 accepted: the difference is `elo0` or less.
    AcceptH0,
    /// H1 accepted: the difference is `elo1` or more.
    AcceptH1,
}

/// Why SPRT settings were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    #[error("sprt: '{0}' is not key=value")]
    NotKeyValue(String),
    #[error("sprt: '{0}' is not a number")]
    NotANumber(String),
    #[error("sprt: minpairs '{0}' is not a whole number")]
    MinPairs(String),
    #[error("sprt: model '{0}' is not logistic or normalized")]
    Model(String),
    #[error("sprt: unknown key '{0}'")]
    UnknownKey(String),
    #[error("sprt: elo0 and elo1 are needed")]
    NoElo,
    #[error("sprt: elo1 must be greater than elo0")]
    EloOrder,
    #[error("sprt: alpha and beta must lie strictly between 0 and 0.5")]
    Risk,
}

impl Sprt {
    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=logistic|normalized] [minpairs=10]`
    /// (words in any order, separated by blanks or commas; alpha and beta default to 0.05, the
    /// model to logistic, the minimum number of pairs before a decision to 10).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
            min_pairs: SPRT_MIN_PAIRS,
        };
        for word in text.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(word.to_string()))?;
            let num = || {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| SprtError::NotANumber(v.to_string()))
            };
            match k.to_ascii_lowercase().as_str() {
                "elo0" => s.elo0 = num()?,
                "elo1" => s.elo1 = num()?,
                "alpha" => s.alpha = num()?,
                "beta" => s.beta = num()?,
                "minpairs" => {
                    s.min_pairs = v.parse().map_err(|_| SprtError::MinPairs(v.to_string()))?
                }
                "model" => {
                    s.model = match v.to_ascii_lowercase().as_str() {
                        "logistic" => EloModel::Logistic,
                        "normalized" => EloModel::Normalized,
                        _ => return Err(SprtError::Model(v.to_string())),
                    }
                }
                _ => return Err(SprtError::UnknownKey(k.to_string())),
            }
        }
        if s.elo0.is_nan() || s.elo1.is_nan() {
            return Err(SprtError::NoElo);
        }
        if s.elo1 <= s.elo0 {
            return Err(SprtError::EloOrder);
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err(SprtError::Risk);
        }
        Ok(s)
    }

    /// The decision bounds of the log-likelihood ratio: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (-2.944 and +2.944 for 0.05 and 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 for samples of the given values and
    /// counts, with the normal approximation: `N (s1 - s0) (2 mean - s0 - s1) / (2 var)`, where
    /// `games_per_sample` is 2 for pairs and 1 for single games (normalized Elo only). Cells
    /// with no sample count as 0.001.
    fn llr_of(&self, values: &[f64], counts: &[u64], games_per_sample: f64) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        // Empty cells count as 0.001 (a regularization), so that a run of identical
        // results still has a variance and the test can decide.
        let reg: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = reg.iter().sum();
        let mean = values.iter().zip(&reg).map(|(v, c)| v * c).sum::<f64>() / n;
        let var = values
            .iter()
            .zip(&reg)
            .map(|(v, c)| (v - mean).powi(2) * c)
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                let sigma_game = (var * games_per_sample).sqrt();
                let k = std::f64::consts::LN_10 / 800.0 * sigma_game;
                (0.5 + self.elo0 * k, 0.5 + self.elo1 * k)
            }
        };
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR from pentanomial pair counts.
    pub fn llr_pentanomial(&self, pairs: &[u64; 5]) -> f64 {
        self.llr_of(&PAIR_SCORES, pairs, 2.0)
    }

    /// The LLR of the pairs so far and the verdict, which is `Continue` before
    /// [`Sprt::min_pairs`] complete pairs.
    pub fn decide(&self, pairs: &[u64; 5]) -> (f64, SprtVerdict) {
        let llr = self.llr_pentanomial(pairs);
        if pairs.iter().sum::<u64>() < self.min_pairs {
            return (llr, SprtVerdict::Continue);
        }
        (llr, self.verdict(llr))
    }

    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// Formats an Elo value: `+12.3`, `-4.0`, `+inf`, `-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e == f64::INFINITY {
        "+inf".to_string()
    } else if e == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if e.abs() < 0.05 {
        "+0.0".to_string()
    } else {
        format!("{e:+.1}")
    }
}
