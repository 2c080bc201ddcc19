//! The `jieqi` binary: with no arguments, the protocol loop on stdin; otherwise a subcommand.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jieqi::core::Variant;

#[derive(Parser)]
#[command(
    name = "jieqi",
    version,
    about = "Engine for Jieqi, Maniac and Xiangqi"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the protocol loop on stdin (the same as no subcommand).
    Uci,
    /// Count leaf nodes of the legal-move tree (chance-expanded at flips).
    Perft {
        /// Depth in plies (1 or more).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Position as FEN (any accepted dialect) or `startpos`; default: the variant's start.
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// jieqi (default), maniac or xiangqi.
        #[arg(long, default_value = "jieqi")]
        variant: Variant,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => {
            jieqi::protocol::run_stdio();
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen,
            variant,
            divide,
        }) => match cli::load_position(fen.as_deref(), variant) {
            Ok(pos) => {
                cli::perft::run(&pos, depth, divide);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}
