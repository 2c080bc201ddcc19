//! The `jieqi` binary: with no arguments, the protocol loop on stdin; otherwise a subcommand.

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jieqi::core::Variant;
use jieqi::search::{Limits, Options, SearchMode};

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
    /// Search one position and print the best move, score, WDL and PV.
    Analyze {
        /// Position as FEN (any accepted dialect) or `startpos`; default: the variant's start.
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// jieqi (default), maniac or xiangqi.
        #[arg(long, default_value = "jieqi")]
        variant: Variant,
        /// Search to this depth.
        #[arg(long)]
        depth: Option<u32>,
        /// Search this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search this many milliseconds (default 1000 when no limit is given).
        #[arg(long)]
        movetime: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// expectimax (default), pimc or hybrid.
        #[arg(long, default_value = "expectimax", value_parser = parse_mode)]
        mode: SearchMode,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object instead of text lines.
        #[arg(long)]
        json: bool,
        /// Also print every progress line.
        #[arg(long)]
        verbose: bool,
        /// Also value each identity this flip move can reveal (repeatable; the best move's
        /// odds are given whenever it is a flip).
        #[arg(long = "odds", value_name = "MOVE")]
        odds: Vec<String>,
    },
    /// Draw a position: a text board in the terminal, and an SVG picture with --svg.
    Show {
        /// Position as FEN (any accepted dialect) or `startpos`; default: the variant's start.
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// jieqi (default), maniac or xiangqi.
        #[arg(long, default_value = "jieqi")]
        variant: Variant,
        /// Also write the picture to this SVG file.
        #[arg(long)]
        svg: Option<String>,
    },
    /// Search a fixed set of positions; the node count is the build's signature.
    Bench {
        /// Search every position to this depth (default: each position's own depth).
        depth: Option<u32>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play an engine-versus-engine match, refereed on the true position.
    ///
    /// An option given twice takes its last value (scripts pass defaults first).
    #[command(args_override_self = true)]
    Match(Box<cli::match_cmd::MatchArgs>),
    /// Print the summary of a match played in shares (`match --shard`) from their records.
    Merge(cli::merge::MergeArgs),
    /// Compare one engine's scores in two matches played on the same deals, pair by pair.
    Compare(cli::compare::CompareArgs),
    /// Write recorded games in JieqiBox's notation format.
    Export(cli::export::ExportArgs),
    /// JieqiBox's match mode: speak the JAI protocol on standard input and output.
    Jai,
    /// Write an opening book: the start position and the positions after each first move,
    /// each searched to a fixed depth (the format of the built-in book).
    Book(cli::book::BookArgs),
    /// Fit the evaluation weights to the results of recorded games (logistic regression).
    Tune(Box<cli::tune::TuneArgs>),
}

fn parse_mode(s: &str) -> Result<SearchMode, String> {
    SearchMode::parse(s)
        .ok_or_else(|| format!("unknown mode '{s}' (expected expectimax, pimc or hybrid)"))
}

/// The JAI loop on `input` and standard output.
fn run_jai(input: impl std::io::BufRead) {
    let out: jieqi::referee::jai::Out =
        std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    jieqi::referee::jai::run(input, out);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            // JieqiBox's match mode starts the program without arguments and sends `jai`.
            match cli::first_command(std::io::BufReader::new(std::io::stdin())) {
                (reader, true) => run_jai(reader),
                (reader, false) => jieqi::protocol::uci::run(reader, std::io::stdout()),
            }
            ExitCode::SUCCESS
        }
        Some(Command::Uci) => {
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
        Some(Command::Analyze {
            fen,
            variant,
            depth,
            nodes,
            movetime,
            threads,
            hash,
            mode,
            seed,
            json,
            verbose,
            odds,
        }) => match cli::load_position(fen.as_deref(), variant) {
            Ok(pos) => {
                let limits = Limits {
                    depth,
                    nodes,
                    movetime: match (depth, nodes, movetime) {
                        (None, None, None) => Some(1000),
                        (_, _, m) => m.map(|m| m.min(i64::MAX as u64) as i64),
                    },
                    ..Limits::default()
                };
                let options = Options {
                    threads: threads.clamp(1, 256),
                    hash_mb: hash.clamp(1, 65536),
                    mode,
                    seed,
                    move_overhead_ms: 0,
                    own_book: false,
                    ..Options::default()
                };
                cli::analyze::run(pos, limits, options, json, verbose, &odds)
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
        Some(Command::Show { fen, variant, svg }) => {
            match cli::load_position(fen.as_deref(), variant) {
                Ok(pos) => cli::show::run(&pos, svg.as_deref()),
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Some(Command::Bench { depth, threads }) => {
            cli::bench::run(depth.map(|d| d.clamp(1, 64)), threads.clamp(1, 256));
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => cli::match_cmd::run(*args),
        Some(Command::Tune(args)) => cli::tune::run(*args),
        Some(Command::Book(args)) => cli::book::run(args),
        Some(Command::Merge(args)) => cli::merge::run(args),
        Some(Command::Compare(args)) => cli::compare::run(args),
        Some(Command::Export(args)) => cli::export::run(args),
        Some(Command::Jai) => {
            run_jai(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
    }
}
