//! `jieqi tune`: fits the evaluation weights to game results by logistic regression.
//!
//! Positions come from match records (`jieqi match --out`): every game is replayed with its
//! deal, and each position an engine moved from (after the first plies, not in check, where the
//! move played captured nothing) is taken as the public position — face-down pieces unknown, the
//! pools as both sides see them — with the game's result from Red's point of view. The
//! evaluation is linear in its weights (`search::eval::features`), so the model is
//! `P(Red wins) = 1 / (1 + 10^(-K e / 400))` with `e` the weighted sum of the features (times
//! the no-capture scaling). `K` is fitted first with the starting weights, then the weights by
//! full-batch Adam on the mean squared error plus an L2 penalty on the change from the starting
//! weights, and written as a weight file (the engine plays with it after
//! `setoption name WeightsFile value <file>`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use jieqi::core::{Game, PlayError, Variant};
use jieqi::referee::records::{
    read_record_lines, record_ply, record_start, GameEntry, ReplayError,
};
use jieqi::search::eval::{self, w, Weights};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Match records (JSON Lines from `jieqi match --out`); repeatable.
    #[arg(long = "records", required = true)]
    records: Vec<PathBuf>,
    /// Only games of this variant.
    #[arg(long, default_value = "jieqi")]
    variant: Variant,
    /// Weights to start from (default: the built-in ones of the variant).
    #[arg(long)]
    start: Option<PathBuf>,
    /// Where to write the fitted weights.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Full-batch iterations.
    #[arg(long, default_value_t = 400)]
    iterations: u32,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 2.0)]
    rate: f64,
    /// Skip the first plies of every game.
    #[arg(long, default_value_t = 6)]
    skip_plies: usize,
    /// L2 penalty per squared centipawn of change from the starting weights (keeps weights the
    /// data says little about where they were).
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Weights to keep fixed (names, comma-separated); `tempo` and `eg_tempo` are always
    /// fixed.
    #[arg(long, value_delimiter = ',')]
    fixed: Vec<String>,
}

/// One training position: its features (those not 0, by weight index), the no-capture scaling
/// and Red's result.
struct Sample {
    features: Vec<(u16, f32)>,
    scale: f32,
    result: f32,
}

/// Why a record gives no positions to fit to (plies are 1-based).
#[derive(Debug, thiserror::Error)]
enum SampleError {
    #[error("no result")]
    NoResult,
    #[error(transparent)]
    Start(ReplayError),
    #[error("ply {ply}: {error}")]
    Ply { ply: usize, error: ReplayError },
    #[error("ply {ply}: {error}")]
    Play { ply: usize, error: PlayError },
}

/// The positions of one record (none when it is of another variant or did not end on the
/// board).
fn samples_of(r: &GameEntry, variant: Variant, skip: usize) -> Result<Vec<Sample>, SampleError> {
    if r.variant != variant.name() {
        return Ok(Vec::new());
    }
    if matches!(
        r.reason.as_str(),
        "time_forfeit" | "illegal_move" | "crash" | "no_answer" | "start_failure"
    ) {
        return Ok(Vec::new());
    }
    let result = match r.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return Err(SampleError::NoResult),
    };
    let mut game = Game::new(record_start(r).map_err(SampleError::Start)?);
    let limit = variant.no_capture_draw_plies() as f32;
    let mut out = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        let (mv, reveal) = record_ply(m).map_err(|error| SampleError::Ply { ply: i + 1, error })?;
        let pos = *game.position();
        let quiet = !pos.is_capture(mv);
        if i >= skip && !m.book && quiet && !pos.in_check() {
            let mut public = pos;
            public.clear_deal();
            let hm = public.halfmove_clock() as f32;
            let scale = if hm > limit - 40.0 {
                ((limit - hm).max(0.0)) / 40.0
            } else {
                1.0
            };
            out.push(Sample {
                features: eval::features(&public)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &x)| x != 0.0)
                    .map(|(i, &x)| (i as u16, x as f32))
                    .collect(),
                scale,
                result,
            });
        }
        game.play(mv, reveal)
            .map_err(|error| SampleError::Play { ply: i + 1, error })?;
    }
    Ok(out)
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The weighted sum of the features times the no-capture scaling, before the clamp.
fn raw_eval(s: &Sample, weights: &[f64]) -> f64 {
    let dot: f64 = s
        .features
        .iter()
        .map(|&(i, f)| f as f64 * weights[i as usize])
        .sum();
    dot * s.scale as f64
}

fn eval_of(s: &Sample, weights: &[f64]) -> f64 {
    raw_eval(s, weights).clamp(-eval::EVAL_LIMIT as f64, eval::EVAL_LIMIT as f64)
}

fn mse(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result as f64 - sigmoid(k, eval_of(s, weights))).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The L2 penalty of `weights` against `start`.
fn penalty(weights: &[f64], start: &Weights, l2: f64) -> f64 {
    l2 * weights
        .iter()
        .zip(start.0.iter())
        .map(|(&x, &s)| (x - s as f64).powi(2))
        .sum::<f64>()
}

/// The `K` with the least error, by golden-section search on [0.05, 5].
fn fit_k(samples: &[Sample], weights: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if mse(samples, weights, c) < mse(samples, weights, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

pub fn run(args: TuneArgs) -> ExitCode {
    let start = match &args.start {
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| eval::parse_weights(&t).map_err(|e| e.to_string()))
        {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(1);
            }
        },
        None => eval::built_in_weights(args.variant).clone(),
    };
    let names = eval::weight_names();
    let mut fixed = [false; w::COUNT];
    fixed[w::TEMPO] = true;
    fixed[w::EG + w::TEMPO] = true;
    for f in &args.fixed {
        match names.iter().position(|n| *n == f.trim()) {
            Some(i) => fixed[i] = true,
            None => {
                eprintln!("error: --fixed: unknown weight '{f}'");
                return ExitCode::from(2);
            }
        }
    }
    let mut samples = Vec::new();
    let (mut games, mut skipped) = (0u64, 0u64);
    for path in &args.records {
        let lines = match read_record_lines(path) {
            Ok(lines) => lines,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        };
        for line in lines {
            let parsed = line.map_err(|e| e.to_string()).and_then(|r| {
                samples_of(&r.entry, args.variant, args.skip_plies)
                    .map_err(|e| format!("{}: {e}", r.source))
            });
            match parsed {
                Ok(s) if !s.is_empty() => {
                    games += 1;
                    samples.extend(s);
                }
                Ok(_) => skipped += 1,
                Err(e) => {
                    eprintln!("warning: {e}");
                    skipped += 1;
                }
            }
        }
    }
    if samples.is_empty() {
        eprintln!(
            "error: no positions of variant {} in the records",
            args.variant
        );
        return ExitCode::from(1);
    }
    outln!(
        "positions {} from {games} games ({skipped} records skipped)",
        samples.len()
    );
    let mut weights: Vec<f64> = start.0.iter().map(|&x| x as f64).collect();
    let k = fit_k(&samples, &weights);
    let before = mse(&samples, &weights, k);
    outln!("K {k:.4}  error with the starting weights {before:.6}");

    // Full-batch Adam.
    let n = samples.len() as f64;
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m1 = vec![0f64; w::COUNT];
    let mut m2 = vec![0f64; w::COUNT];
    let ln10k = std::f64::consts::LN_10 * k / 400.0;
    for it in 1..=args.iterations {
        let mut grad = vec![0f64; w::COUNT];
        for s in &samples {
            let raw = raw_eval(s, &weights);
            if raw.abs() >= eval::EVAL_LIMIT as f64 {
                continue; // clamped: no gradient
            }
            let p = sigmoid(k, raw);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) ln10 K/400 * scale * f
            let g = -2.0 * (s.result as f64 - p) * p * (1.0 - p) * ln10k * s.scale as f64;
            for &(i, f) in &s.features {
                grad[i as usize] += g * f as f64;
            }
        }
        for i in 0..w::COUNT {
            if fixed[i] {
                continue;
            }
            let g = grad[i] / n + 2.0 * args.l2 * (weights[i] - start.0[i] as f64);
            m1[i] = b1 * m1[i] + (1.0 - b1) * g;
            m2[i] = b2 * m2[i] + (1.0 - b2) * g * g;
            let mh = m1[i] / (1.0 - b1.powi(it as i32));
            let vh = m2[i] / (1.0 - b2.powi(it as i32));
            weights[i] -= args.rate * mh / (vh.sqrt() + eps);
        }
        if it % 50 == 0 || it == args.iterations {
            outln!(
                "iteration {it}  error {:.6}  penalty {:.6}",
                mse(&samples, &weights, k),
                penalty(&weights, &start, args.l2)
            );
        }
    }
    let tuned = Weights(std::array::from_fn(|i| weights[i].round() as i32));
    let rounded: Vec<f64> = tuned.0.iter().map(|&x| x as f64).collect();
    outln!(
        "error {before:.6} -> {:.6} (rounded weights)",
        mse(&samples, &rounded, k)
    );
    for ((name, old), new) in names.iter().zip(start.0.iter()).zip(tuned.0.iter()) {
        if old != new {
            outln!("  {name:<22} {old:>6} -> {new:>6}");
        }
    }
    let text = format!(
        "# jieqi tune: {} positions, {games} games, K {k:.4}, error {before:.6} -> {:.6}\n{}",
        samples.len(),
        mse(&samples, &rounded, k),
        eval::format_weights(&tuned)
    );
    match &args.out {
        Some(p) => {
            if let Err(e) = std::fs::write(p, text) {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(1);
            }
            outln!("weights written to {}", p.display());
        }
        None => outln!("{}", text.trim_end()),
    }
    ExitCode::SUCCESS
}
