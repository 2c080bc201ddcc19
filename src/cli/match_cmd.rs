//! `jieqi match`: engine-versus-engine matches refereed on the true position (protocol.md,
//! section "Match runner").

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use clap::Args;
use jieqi::core::{Position, Variant};
use jieqi::referee::config::{EngineSpecError, TimeControlError};
use jieqi::referee::deal::{self, DealError};
use jieqi::referee::runner::{
    parse_openings, run_match, GameDone, MatchConfig, MatchControl, MatchObserver, OpeningError,
    Schedule, Shard, Tournament,
};
use jieqi::referee::stats::{Sprt, SprtError};
use jieqi::referee::{Adjudication, EngineSpec, GameConfig, Limit};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine (give two or more; with two, the first is the one the statistics are about): a
    /// command line, or key=value words `cmd=<command> name=<name> dir=<dir>
    /// option.<Name>=<value> handshake=true|false tc=<tc> nodes=<n> depth=<d> movetime=<ms>
    /// ranks=0|1` (`ranks=1`: the engine numbers ranks 1-10 in its moves).
    #[arg(long = "engine", required = true, allow_hyphen_values = true)]
    engines: Vec<String>,
    /// An option sent to both engines, `Name=value` (before each engine's own options).
    #[arg(long = "each-option", value_name = "NAME=VALUE")]
    each_option: Vec<String>,
    /// jieqi (default), maniac or xiangqi.
    #[arg(long, default_value = "jieqi")]
    variant: Variant,
    /// With more than two engines: round-robin (everyone plays everyone) or gauntlet (the
    /// first engine plays each of the others).
    #[arg(long, default_value = "round-robin", value_parser = parse_schedule)]
    schedule: Schedule,
    /// Number of games per encounter (rounded up to an even number: each deal is played
    /// twice).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<u64>,
    /// Number of deals per encounter, each played twice with colours swapped.
    #[arg(long)]
    rounds: Option<u64>,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the random deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time control `[moves/]seconds[+increment]`, e.g. 40/60+0.6 or 10+0.1.
    #[arg(long, conflicts_with_all = ["movetime", "nodes", "depth"])]
    tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    movetime: Option<u64>,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds a clock may run below zero (or past movetime) before the game is lost on time.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Milliseconds a nodes/depth search may take before the engine counts as not answering.
    #[arg(long, default_value_t = 60_000)]
    move_timeout: u64,
    /// Milliseconds allowed for uciok and readyok.
    #[arg(long, default_value_t = 10_000)]
    startup_timeout: u64,
    /// Draw after this many plies.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Resign adjudication: both engines agree one side is ahead by at least this many cp...
    #[arg(long)]
    resign_score: Option<i32>,
    /// ...for this many consecutive moves each.
    #[arg(long, default_value_t = 3)]
    resign_moves: u32,
    /// Draw adjudication: every score within +/- this many cp...
    #[arg(long)]
    draw_score: Option<i32>,
    /// ...for this many consecutive moves each...
    #[arg(long, default_value_t = 8)]
    draw_moves: u32,
    /// ...from this ply on.
    #[arg(long, default_value_t = 60)]
    draw_start: u32,
    /// Game records, JSON Lines (one game per line, written as each game finishes).
    #[arg(long)]
    out: Option<PathBuf>,
    /// With --out: keep the games already in that file (of this very match) and play only the
    /// others, appending their records.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Deals to replay, one per line (the `deal` field of records).
    #[arg(long)]
    deals: Option<PathBuf>,
    /// Openings, one per line: a FEN (optionally followed by `moves ...`) or moves from the start.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Sequential test: elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=logistic|normalized].
    #[arg(long, num_args = 1..=5, value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// Play only share I of N of the match (1 <= I <= N): the scheduled pairs k with
    /// k mod N = I-1, with the deals and game numbers of the whole match (merge the records
    /// of all shares with `jieqi merge`).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// No progress lines on standard error.
    #[arg(long)]
    quiet: bool,
}

/// A `--schedule` that is neither (the text as given).
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not round-robin or gauntlet")]
struct ScheduleError(String);

fn parse_schedule(text: &str) -> Result<Schedule, ScheduleError> {
    match text.to_ascii_lowercase().as_str() {
        "round-robin" | "roundrobin" | "rr" => Ok(Schedule::RoundRobin),
        "gauntlet" => Ok(Schedule::Gauntlet),
        _ => Err(ScheduleError(text.to_string())),
    }
}

/// Why the arguments do not describe a match.
#[derive(Debug, thiserror::Error)]
enum BuildError {
    #[error("give at least two --engine (got {0})")]
    TooFewEngines(usize),
    #[error("--sprt needs exactly two engines")]
    SprtEngines,
    #[error("--each-option '{0}' is not Name=value")]
    EachOption(String),
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    #[error("no games to play")]
    NoGames,
    #[error("{}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error("{}: {error}", path.display())]
    Deals { path: PathBuf, error: DealError },
    #[error(transparent)]
    Sprt(#[from] SprtError),
}

fn read_file(path: &Path) -> Result<String, BuildError> {
    std::fs::read_to_string(path).map_err(|error| BuildError::Read {
        path: path.to_path_buf(),
        error,
    })
}

fn build(args: MatchArgs) -> Result<MatchConfig, BuildError> {
    if args.engines.len() < 2 {
        return Err(BuildError::TooFewEngines(args.engines.len()));
    }
    if !args.sprt.is_empty() && args.engines.len() != 2 {
        return Err(BuildError::SprtEngines);
    }
    let mut engines = Vec::new();
    for text in &args.engines {
        let mut spec = EngineSpec::parse(text)?;
        let mut opts = Vec::new();
        for o in &args.each_option {
            let (k, v) = o
                .split_once('=')
                .ok_or_else(|| BuildError::EachOption(o.clone()))?;
            opts.push((k.trim().to_string(), v.to_string()));
        }
        opts.append(&mut spec.options);
        spec.options = opts;
        engines.push(spec);
    }
    jieqi::referee::config::unique_names(&mut engines);
    let limit = if let Some(tc) = &args.tc {
        Limit::parse_tc(tc)?
    } else if let Some(t) = args.movetime {
        Limit::MoveTime(t)
    } else if let Some(n) = args.nodes {
        Limit::Nodes(n)
    } else if let Some(d) = args.depth {
        Limit::Depth(d)
    } else {
        Limit::parse_tc("10+0.1")?
    };
    let pairs = match (args.games, args.rounds) {
        (Some(g), _) => g.div_ceil(2),
        (None, Some(r)) => r,
        (None, None) => 1,
    };
    if pairs == 0 {
        return Err(BuildError::NoGames);
    }
    let openings = match &args.openings {
        Some(p) => {
            let text = read_file(p)?;
            parse_openings(&text, args.variant)?
        }
        None => Vec::new(),
    };
    let deals = match &args.deals {
        Some(p) => {
            let text = read_file(p)?;
            let start = openings
                .first()
                .map_or_else(|| Position::startpos(args.variant), |o| o.start);
            Some(
                deal::parse_deal_file(&text, &start).map_err(|error| BuildError::Deals {
                    path: p.clone(),
                    error,
                })?,
            )
        }
        None => None,
    };
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(Sprt::parse(&args.sprt.join(" "))?)
    };
    Ok(MatchConfig {
        engines,
        schedule: args.schedule,
        variant: args.variant,
        pairs,
        concurrency: args.concurrency.max(1),
        seed: args.seed,
        game: GameConfig {
            limit,
            adjudication: Adjudication {
                resign_score: args.resign_score.map(|s| s.abs()),
                resign_moves: args.resign_moves.max(1),
                draw_score: args.draw_score.map(|s| s.abs()),
                draw_moves: args.draw_moves.max(1),
                draw_start: args.draw_start,
                max_plies: args.max_plies,
            },
            time_margin_ms: args.time_margin,
            move_timeout_ms: args.move_timeout.max(1),
            startup_timeout_ms: args.startup_timeout.max(1),
        },
        out: args.out,
        deals,
        openings,
        sprt,
        shard: args.shard,
        resume: args.resume,
    })
}

/// Live progress on standard error: a line per game, and a bar on a terminal.
struct Progress {
    show: bool,
    tty: bool,
}

impl MatchObserver for Progress {
    fn resumed(&mut self, kept: u64, t: &Tournament) {
        if self.show {
            eprintln!(
                "resumed: {kept} of {} games kept; {}",
                t.total_games,
                t.progress_line()
            );
        }
    }

    fn game(&mut self, f: &GameDone, t: &Tournament) {
        if !self.show {
            return;
        }
        let game_line = format!(
            "game {}: {} vs {}: {} {}",
            f.game_no,
            f.record.names[0],
            f.record.names[1],
            f.record.outcome.text(),
            f.record.reason.as_str()
        );
        let line = t.progress_line();
        if self.tty {
            let done = t.games() as f64 / t.total_games.max(1) as f64;
            let filled = ((done * 30.0).round() as usize).min(30);
            eprint!(
                "\r\x1b[2K{game_line}\n[{}{}] {line}",
                "#".repeat(filled),
                ".".repeat(30 - filled)
            );
        } else {
            eprintln!("{game_line}; {line}");
        }
    }
}

pub fn run(args: MatchArgs) -> ExitCode {
    let quiet = args.quiet;
    let cfg = match build(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !quiet {
        let limit = |e: &EngineSpec| e.limit.unwrap_or(cfg.game.limit).to_string();
        let players: Vec<String> = cfg
            .engines
            .iter()
            .map(|e| format!("{} ({})", e.name, limit(e)))
            .collect();
        let encounters = cfg.encounters().len() as u64;
        let share = cfg
            .shard
            .map(|s| {
                format!(
                    ", share {s}: {} of {} games",
                    cfg.total_games(),
                    cfg.scheduled_pairs() * 2
                )
            })
            .unwrap_or_default();
        eprintln!(
            "match: {}, {}, {} games ({} deals x 2{}){share}, concurrency {}, seed {}",
            players.join(" vs "),
            cfg.variant,
            cfg.scheduled_pairs() * 2,
            cfg.pairs,
            if encounters > 1 {
                format!(" x {encounters} encounters")
            } else {
                String::new()
            },
            cfg.concurrency,
            cfg.seed
        );
    }
    // Ctrl-C (or SIGTERM): abandon the games in progress, end the engines, print the summary of
    // the finished games. A second one exits at once.
    let control = MatchControl::default();
    let abort = control.abort.clone();
    let _ = ctrlc::set_handler(move || {
        if abort.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let tty = std::io::stderr().is_terminal();
    let mut progress = Progress { show: !quiet, tty };
    let result = run_match(&cfg, &control, &mut progress);
    if !quiet && tty {
        eprintln!();
    }
    match result {
        Ok(t) => {
            outln!("{}", t.report(cfg.sprt.as_ref()).trim_end());
            if t.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
