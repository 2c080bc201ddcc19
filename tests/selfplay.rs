//! In-process self-play for strength measurements (not part of the default test run).
//!
//! Two engine configurations play paired games: every random deal is played twice with colours
//! swapped. The referee holds the true deal; each engine sees only its own side's view (flips
//! are public, the identity of a captured face-down piece is learned only by the capturer).
//!
//! ```sh
//! SELFPLAY_A="mode=expectimax" SELFPLAY_B="mode=pimc" SELFPLAY_PAIRS=50 SELFPLAY_MOVETIME=50 \
//!     cargo test --release --test selfplay -- --ignored --nocapture
//! ```
//!
//! Settings (environment): `SELFPLAY_A`/`SELFPLAY_B` (comma-separated `mode=`, `threads=`,
//! `samples=`, `hash=`, `learn=0|1`), `SELFPLAY_VARIANT` (default jieqi), `SELFPLAY_PAIRS` (default 10),
//! `SELFPLAY_MOVETIME` (ms per move, default 50), `SELFPLAY_MAXPLIES` (default 300, then a
//! draw), `SELFPLAY_CONCURRENCY` (games at once, default 1), `SELFPLAY_SEED` (default 1).

use std::sync::Mutex;

use jieqi::belief;
use jieqi::core::{Color, Game, GameResult, Move, Occupant, Position, Reveal, Variant};
use jieqi::search::{Engine, Limits, Options, Report, Root, SearchMode};
use rand::SeedableRng;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn options(spec: &str) -> Options {
    let mut o = Options {
        move_overhead_ms: 0,
        hash_mb: 32,
        ..Options::default()
    };
    for part in spec.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        match k.trim() {
            "mode" => o.mode = SearchMode::parse(v).expect("mode"),
            "threads" => o.threads = v.parse().expect("threads"),
            "samples" => o.samples = v.parse().expect("samples"),
            "hash" => o.hash_mb = v.parse().expect("hash"),
            "learn" => o.learn_captures = v == "1" || v == "true",
            other => panic!("unknown setting {other}"),
        }
    }
    o
}

/// The score of one game for the engine playing Red: 1, 0.5 or 0.
fn red_score(result: Option<GameResult>) -> f64 {
    match result {
        Some(GameResult::Win {
            winner: Color::Red, ..
        }) => 1.0,
        Some(GameResult::Win { .. }) => 0.0,
        _ => 0.5,
    }
}

fn best_move(engine: &mut Engine, view: &Position, movetime: i64) -> Option<Move> {
    let reports = engine.search_blocking(
        Root::new(*view),
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        },
    );
    reports.iter().find_map(|r| match r {
        Report::Done { best, .. } => *best,
        _ => None,
    })
}

/// Plays one game from a dealt start; returns the result (None = adjudicated draw) and plies.
fn play_game(
    truth: Position,
    public: Position,
    red: &mut Engine,
    black: &mut Engine,
    movetime: i64,
    max_plies: usize,
) -> (Option<GameResult>, usize) {
    let mut game = Game::new(truth);
    let mut views = [public, public];
    for ply in 0..max_plies {
        if let Some(r) = game.result() {
            return (Some(r), ply);
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let engine = if side == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        let Some(mv) = best_move(engine, &views[side.index()], movetime) else {
            panic!("engine gave no move in {}", views[side.index()].fen());
        };
        let identity = |sq| match pos.occupant(sq) {
            Some(Occupant::Hidden { identity, .. }) => identity,
            _ => None,
        };
        let flip = if pos.is_flip(mv) {
            identity(mv.from())
        } else {
            None
        };
        let victim = if pos.captures_hidden(mv) {
            identity(mv.to())
        } else {
            None
        };
        game.play(
            mv,
            Reveal {
                flip,
                captured: None,
            },
        )
        .unwrap_or_else(|e| panic!("illegal {mv} on the true board: {e}"));
        views[side.index()]
            .play(
                mv,
                Reveal {
                    flip,
                    captured: victim,
                },
            )
            .expect("mover's view accepts the move");
        views[(!side).index()]
            .play(
                mv,
                Reveal {
                    flip,
                    captured: None,
                },
            )
            .expect("opponent's view accepts the move");
    }
    (game.result(), max_plies)
}

#[test]
#[ignore = "strength measurement: run with --ignored --nocapture (see the module docs)"]
fn paired_match() {
    let variant: Variant = env("SELFPLAY_VARIANT", "jieqi".to_string())
        .parse()
        .expect("variant");
    let spec_a: String = env("SELFPLAY_A", String::new());
    let spec_b: String = env("SELFPLAY_B", String::new());
    let pairs: usize = env("SELFPLAY_PAIRS", 10);
    let movetime: i64 = env("SELFPLAY_MOVETIME", 50);
    let max_plies: usize = env("SELFPLAY_MAXPLIES", 300);
    let concurrency: usize = env("SELFPLAY_CONCURRENCY", 1);
    let seed: u64 = env("SELFPLAY_SEED", 1);
    println!(
        "match {variant}: A [{spec_a}] vs B [{spec_b}], {pairs} pairs, {movetime} ms/move, max {max_plies} plies"
    );
    // Pair scores for A (0, 0.5, 1, 1.5 or 2 points per pair) and A's W/D/L.
    let results: Mutex<Vec<(f64, [u32; 3])>> = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for _ in 0..concurrency.max(1) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    if *n >= pairs {
                        return;
                    }
                    *n += 1;
                    *n - 1
                };
                let public = Position::startpos(variant);
                let mut rng = rand::rngs::StdRng::seed_from_u64(seed * 1_000_003 + i as u64);
                let truth = belief::sample_world(&public, &mut rng, true);
                let mut a = Engine::new(options(&spec_a));
                let mut b = Engine::new(options(&spec_b));
                let (r1, p1) = play_game(truth, public, &mut a, &mut b, movetime, max_plies);
                let (r2, p2) = play_game(truth, public, &mut b, &mut a, movetime, max_plies);
                let s1 = red_score(r1);
                let s2 = 1.0 - red_score(r2);
                let mut wdl = [0u32; 3];
                for s in [s1, s2] {
                    wdl[if s == 1.0 {
                        0
                    } else if s == 0.5 {
                        1
                    } else {
                        2
                    }] += 1;
                }
                println!(
                    "pair {i:3}: A as red {s1} ({p1} plies, {}), A as black {s2} ({p2} plies, {})",
                    r1.map_or("adjudicated draw".into(), |r| r.to_string()),
                    r2.map_or("adjudicated draw".into(), |r| r.to_string()),
                );
                results.lock().unwrap().push((s1 + s2, wdl));
            });
        }
    });
    let results = results.into_inner().unwrap();
    let n = results.len() as f64;
    let mut wdl = [0u32; 3];
    let mut penta = [0u32; 5];
    for (score, w) in &results {
        for k in 0..3 {
            wdl[k] += w[k];
        }
        penta[(score * 2.0).round() as usize] += 1;
    }
    let mean = results.iter().map(|r| r.0 / 2.0).sum::<f64>() / n;
    let var = results
        .iter()
        .map(|r| (r.0 / 2.0 - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let se = (var / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    println!(
        "A: +{} ={} -{} over {} games; pairs (0,0.5,1,1.5,2 points): {:?}",
        wdl[0],
        wdl[1],
        wdl[2],
        results.len() * 2,
        penta
    );
    println!(
        "score {:.3}, Elo {:+.0} (95% interval {:+.0} to {:+.0})",
        mean,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se)
    );
}
