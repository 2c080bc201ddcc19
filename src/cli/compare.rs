//! `jieqi compare`: two matches played on the same deals, one engine's scores compared pair by
//! pair, and with `--pool` several such screens of one change taken together (protocol.md
//! section 17, "Comparing matches").

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use jieqi::referee::records::{
    common_pairs, comparison, pair_points, read_records, Comparison, PairPoints, RecordError,
};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Record file (JSON Lines) of the control match.
    control: PathBuf,
    /// Record files of the candidate matches, each compared with the control (with `--pool`:
    /// the first candidate, then control and candidate in turn).
    #[arg(required = true)]
    candidates: Vec<PathBuf>,
    /// Read the files as control and candidate in turn, each couple a screen of the same
    /// change, and add a line for all the screens' pairs together.
    #[arg(long)]
    pool: bool,
}

fn points_of(path: &Path) -> Result<PairPoints, RecordError> {
    pair_points(&read_records(path)?)
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn points(x: f64) -> String {
    format!("{:+.1}", 100.0 * x)
}

/// The line of one comparison after its label (`<candidate> against <control>` or `pooled
/// ...`).
fn line(label: &str, engines: (&str, &str), r: &Comparison) -> String {
    format!(
        "{label}: {} common pairs; {} {} against {} {}; difference {} points (95%: {} .. {})",
        r.pairs,
        engines.1,
        percent(r.candidate),
        engines.0,
        percent(r.control),
        points(r.difference),
        points(r.low),
        points(r.high)
    )
}

/// Compares the candidate match at `path` with `control` (read from `control_path`): prints its
/// line, or its error on standard error. Returns the common pairs and the candidate engine's
/// name, or `None` on an error.
fn screen(
    control_path: &Path,
    control: &PairPoints,
    path: &Path,
) -> Option<(Vec<(f64, f64)>, String)> {
    let candidate = read_points(path)?;
    let result = common_pairs(control, &candidate)
        .and_then(|common| comparison(&common).map(|r| (common, r)));
    match result {
        Ok((common, r)) => {
            let label = format!("{} against {}", path.display(), control_path.display());
            let engines = (control.engines[0].as_str(), candidate.engines[0].as_str());
            outln!("{}", line(&label, engines, &r));
            Some((common, candidate.engines[0].clone()))
        }
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            None
        }
    }
}

/// A match's pairs, or `None` after printing why they cannot be read (the error names the
/// file).
fn read_points(path: &Path) -> Option<PairPoints> {
    points_of(path)
        .inspect_err(|e| eprintln!("error: {e}"))
        .ok()
}

pub fn run(args: CompareArgs) -> ExitCode {
    if args.pool {
        return pool(&args);
    }
    let Some(control) = read_points(&args.control) else {
        return ExitCode::from(1);
    };
    let mut status = ExitCode::SUCCESS;
    for path in &args.candidates {
        if screen(&args.control, &control, path).is_none() {
            status = ExitCode::from(1);
        }
    }
    status
}

/// `--pool`: every screen's line, then the comparison over all their common pairs.
fn pool(args: &CompareArgs) -> ExitCode {
    let files: Vec<&PathBuf> = std::iter::once(&args.control)
        .chain(&args.candidates)
        .collect();
    if !files.len().is_multiple_of(2) {
        eprintln!(
            "error: --pool takes control and candidate files in turn; {} files is an odd number",
            files.len()
        );
        return ExitCode::from(2);
    }
    let mut samples = Vec::new();
    let mut names: Option<(String, String)> = None;
    let mut failed = false;
    for couple in files.chunks(2) {
        let Some(control) = read_points(couple[0]) else {
            failed = true;
            continue;
        };
        match screen(couple[0], &control, couple[1]) {
            Some((common, candidate)) => {
                names.get_or_insert((control.engines[0].clone(), candidate));
                samples.extend(common);
            }
            None => failed = true,
        }
    }
    let Some((control_name, candidate_name)) = names.filter(|_| !failed) else {
        return ExitCode::from(1);
    };
    match comparison(&samples) {
        Ok(r) => {
            let label = format!("pooled over {} screens", files.len() / 2);
            outln!("{}", line(&label, (&control_name, &candidate_name), &r));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
