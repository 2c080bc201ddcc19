//! `jieqi merge`: the summary of a match played in shares (`jieqi match --shard I/N`), from the
//! records of all shares (protocol.md section 17, "Shares").

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use jieqi::referee::records::{merge, read_records};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Record files (JSON Lines) of the shares of one match.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: MergeArgs) -> ExitCode {
    let mut records = Vec::new();
    for path in &args.files {
        match read_records(path) {
            Ok(mut r) => records.append(&mut r),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    match merge(&records) {
        Ok(m) => {
            outln!("{}", m.tournament.report(m.sprt.as_ref()).trim_end());
            if m.games < m.total_games {
                outln!(
                    "Incomplete: {} of {} games in the records.",
                    m.games,
                    m.total_games
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
