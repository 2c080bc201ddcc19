//! `jieqi export`: games of a record file in JieqiBox's notation format, to open them in the GUI
//! with their moves, positions, scores and times (protocol.md section 17, "Export").

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use jieqi::referee::records::{jieqibox_notation, read_records, JieqiBoxGame, Record};

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The record file (JSON Lines, as `jieqi match --out` writes it).
    #[arg(long)]
    records: PathBuf,
    /// The game number (the record's `game`), or `all`.
    #[arg(long)]
    game: String,
    /// The output format; `jieqibox` is the only one.
    #[arg(long, default_value = "jieqibox", value_parser = ["jieqibox"])]
    format: String,
    /// One game: the file to write (default: standard output). `--game all`: the folder to
    /// write `game-<N>.json` files into (created if missing; required).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> ExitCode {
    let records = match read_records(&args.records) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let convert = |r: &Record| -> Result<String, String> {
        jieqibox_notation(&r.entry)
            .map(|g: JieqiBoxGame| serde_json::to_string(&g).expect("a game is plain data"))
            .map_err(|e| format!("{}: {e}", r.source))
    };
    if args.game.trim().eq_ignore_ascii_case("all") {
        let Some(dir) = &args.out else {
            eprintln!("error: --game all needs --out <folder>");
            return ExitCode::from(2);
        };
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: {}: {e}", dir.display());
            return ExitCode::from(1);
        }
        let mut written = 0;
        for r in &records {
            let n = r.entry.game;
            let path = dir.join(format!("game-{n}.json"));
            let result = convert(r).and_then(|j| {
                std::fs::write(&path, format!("{j}\n"))
                    .map_err(|e| format!("{}: {e}", path.display()))
            });
            if let Err(e) = result {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
            written += 1;
        }
        outln!("{written} games written to {}", dir.display());
        return ExitCode::SUCCESS;
    }
    let Ok(n) = args.game.trim().parse::<i64>() else {
        eprintln!(
            "error: --game '{}' is not a game number or 'all'",
            args.game
        );
        return ExitCode::from(2);
    };
    let Some(r) = records
        .iter()
        .find(|r| i64::try_from(r.entry.game) == Ok(n))
    else {
        eprintln!(
            "error: {}: no game {n} in the records",
            args.records.display()
        );
        return ExitCode::from(1);
    };
    let json = match convert(r) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, format!("{json}\n")) {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        None => outln!("{json}"),
    }
    ExitCode::SUCCESS
}
