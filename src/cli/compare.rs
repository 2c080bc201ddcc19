//! `jieqi compare`: two matches played on the same deals, one engine's scores compared pair by
//! pair (protocol.md section 17, "Comparing matches").

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use jieqi::referee::records::{compare, pair_points, read_records, PairPoints, RecordError};

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Record file (JSON Lines) of the control match.
    control: PathBuf,
    /// Record files of the candidate matches, each compared with the control.
    #[arg(required = true)]
    candidates: Vec<PathBuf>,
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

pub fn run(args: CompareArgs) -> ExitCode {
    let control = match points_of(&args.control) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut status = ExitCode::SUCCESS;
    for path in &args.candidates {
        let result = points_of(path).and_then(|c| compare(&control, &c).map(|r| (c, r)));
        match result {
            Ok((candidate, r)) => outln!(
                "{} against {}: {} common pairs; {} {} against {} {}; difference {} points \
                 (95%: {} .. {})",
                path.display(),
                args.control.display(),
                r.pairs,
                candidate.engines[0],
                percent(r.candidate),
                control.engines[0],
                percent(r.control),
                points(r.difference),
                points(r.low),
                points(r.high)
            ),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                status = ExitCode::from(1);
            }
        }
    }
    status
}
