//! A match: pairs of games between two engines, each deal played twice with colours swapped,
//! on worker threads, with records written as games finish, live progress and statistics.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;

use crossbeam_channel::unbounded;

use super::config::EngineSpec;
use super::deal::{self, SplitMix64};
use super::game::{play_game, GameConfig, GameRecord, GameStart, Seat};
use super::stats::{self, fmt_elo, Sprt, SprtVerdict};
use crate::core::{Color, Move, Piece, Position, Variant};

/// An opening: a start position (public) and moves played from it before the engines move.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Reads an opening file for `variant`: one opening per line, blank lines and lines starting
/// with `#` skipped. A line is either a FEN (any dialect; `moves m1 m2 ...` may follow) or only
/// moves from the variant's start position. Moves are 4 characters: the flips they make take
/// their identities from each game's deal.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let err = |e: String| format!("opening line {}: {e}", i + 1);
        let (fen_part, moves_part) = match t.split_once("moves") {
            Some((f, m)) => (f.trim(), m.trim()),
            None if t.contains('/') => (t, ""),
            None => ("", t),
        };
        let start = if fen_part.is_empty() || fen_part == "startpos" {
            Position::startpos(variant)
        } else {
            let setup = crate::core::fen::parse(fen_part).map_err(|e| err(e.to_string()))?;
            Position::from_setup(&setup, variant)
                .map_err(|e| err(e.to_string()))?
                .0
        };
        let moves = moves_part
            .split_whitespace()
            .map(|w| Move::parse(w).ok_or_else(|| err(format!("'{w}' is not a 4-character move"))))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(Opening { start, moves });
    }
    if out.is_empty() {
        return Err("no opening in the file".to_string());
    }
    Ok(out)
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine is the one the statistics are about.
    pub engines: [EngineSpec; 2],
    pub variant: Variant,
    /// Number of deals; each is played twice with colours swapped.
    pub pairs: u64,
    pub concurrency: usize,
    pub seed: u64,
    pub game: GameConfig,
    /// Records (JSON Lines); none when `None`.
    pub out: Option<PathBuf>,
    /// Deals to replay (pair `i` uses deal `i mod len`), for the start of the openings or the
    /// variant's start.
    pub deals: Option<Vec<Vec<Piece>>>,
    /// Openings (pair `i` uses opening `i mod len`); none: the variant's start position.
    pub openings: Vec<Opening>,
    pub sprt: Option<Sprt>,
    /// Print live progress on standard error.
    pub progress: bool,
}

/// What a match found, from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSummary {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Complete pairs by the first engine's points: 0, 0.5, 1, 1.5, 2.
    pub pairs: [u64; 5],
    /// Games by reason.
    pub reasons: BTreeMap<&'static str, u64>,
    /// Engine failures (time, illegal move, crash, no answer, start) by engine name.
    pub failures: BTreeMap<String, u64>,
    /// The SPRT's final log-likelihood ratio and verdict, if one ran.
    pub sprt: Option<(f64, SprtVerdict)>,
    /// Whether the SPRT stopped the match before all pairs were played.
    pub stopped_early: bool,
}

impl MatchSummary {
    fn add_game(&mut self, rec: &GameRecord, first_is_red: bool) {
        let first = if first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let p = rec.outcome.points(first);
        self.games += 1;
        if p == 1.0 {
            self.wins += 1;
        } else if p == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        *self.reasons.entry(rec.reason.as_str()).or_default() += 1;
        if rec.reason.is_failure() {
            let loser = match rec.outcome {
                super::game::Outcome::RedWins => &rec.names[1],
                _ => &rec.names[0],
            };
            *self.failures.entry(loser.clone()).or_default() += 1;
        }
    }

    /// One status line: `games 12  W 5 D 3 L 4  Elo +8.7 +/- 50.1`.
    pub fn progress_line(&self, total: u64) -> String {
        let elo = stats::elo_wdl(self.wins, self.draws, self.losses)
            .map(|e| format!("  Elo {} +/- {:.1}", fmt_elo(e.elo), e.margin()))
            .unwrap_or_default();
        let llr = self
            .sprt
            .map(|(l, _)| format!("  LLR {l:.2}"))
            .unwrap_or_default();
        format!(
            "games {}/{}  W {} D {} L {}{elo}{llr}",
            self.games, total, self.wins, self.draws, self.losses
        )
    }

    /// The final report, several lines.
    pub fn report(&self, names: [&str; 2], sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let pct = if self.games > 0 {
            100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
        } else {
            50.0
        };
        s.push_str(&format!(
            "Score of {} vs {}: {} - {} - {} (W - L - D)  [{pct:.1}%]  {} games\n",
            names[0], names[1], self.wins, self.losses, self.draws, self.games
        ));
        let pairs: u64 = self.pairs.iter().sum();
        s.push_str(&format!(
            "Pairs ({} points 0, 0.5, 1, 1.5, 2): {} {} {} {} {}  ({pairs} complete)\n",
            names[0], self.pairs[0], self.pairs[1], self.pairs[2], self.pairs[3], self.pairs[4]
        ));
        let show = |label: &str, e: Option<stats::EloEstimate>| match e {
            Some(e) => format!(
                "{label}: {} +/- {:.1} (95%: {} .. {})\n",
                fmt_elo(e.elo),
                e.margin(),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ),
            None => format!("{label}: -\n"),
        };
        s.push_str(&show(
            "Elo (pentanomial)",
            stats::elo_pentanomial(&self.pairs),
        ));
        s.push_str(&show(
            "Elo (W/D/L)",
            stats::elo_wdl(self.wins, self.draws, self.losses),
        ));
        s.push_str(&format!(
            "LOS: {:.1}%\n",
            100.0 * stats::los(self.wins, self.losses)
        ));
        if let (Some(t), Some((llr, v))) = (sprt, self.sprt) {
            let (lo, hi) = t.bounds();
            let verdict = match v {
                SprtVerdict::Continue => "no decision yet",
                SprtVerdict::AcceptH0 => "H0 accepted",
                SprtVerdict::AcceptH1 => "H1 accepted",
            };
            s.push_str(&format!(
                "SPRT (elo0={} elo1={} alpha={} beta={} {}): LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict}\n",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                match t.model {
                    stats::EloModel::Logistic => "logistic",
                    stats::EloModel::Normalized => "normalized",
                }
            ));
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        s.push_str(&format!("Reasons: {}\n", reasons.join(", ")));
        if !self.failures.is_empty() {
            let f: Vec<String> = self
                .failures
                .iter()
                .map(|(e, n)| format!("{e} {n}"))
                .collect();
            s.push_str(&format!("Engine failures: {}\n", f.join(", ")));
        }
        s
    }
}

/// The start of pair `i`: opening, deal.
pub fn pair_start(cfg: &MatchConfig, pair: u64) -> Result<GameStart, String> {
    let (start, opening) = if cfg.openings.is_empty() {
        (Position::startpos(cfg.variant), Vec::new())
    } else {
        let o = &cfg.openings[(pair % cfg.openings.len() as u64) as usize];
        (o.start, o.moves.clone())
    };
    let deal = match &cfg.deals {
        Some(d) => d[(pair % d.len() as u64) as usize].clone(),
        None => {
            let mut rng = SplitMix64(deal::pair_seed(cfg.seed, pair));
            deal::random_deal(&start, &mut rng)
        }
    };
    // The deal must fit, and the opening must be playable with it.
    let dealt = deal::dealt(&start, &deal).map_err(|e| format!("pair {pair}: {e}"))?;
    let mut g = crate::core::Game::new(dealt);
    for (i, &mv) in opening.iter().enumerate() {
        let ply = super::game::true_ply(g.position(), mv);
        g.play(
            mv,
            crate::core::Reveal {
                flip: ply.flip,
                captured: ply.captured,
            },
        )
        .map_err(|e| format!("pair {pair}: opening move {} '{mv}': {e}", i + 1))?;
    }
    let start_fen = if cfg.variant == Variant::Xiangqi {
        start.fen6()
    } else {
        start.fen()
    };
    Ok(GameStart {
        start,
        start_fen,
        deal,
        opening,
    })
}

/// A game's place in the match: pair, and whether the first engine plays Red.
struct Finished {
    pair: u64,
    first_is_red: bool,
    record: GameRecord,
}

/// Writes one record line with a single write (so a stopped run leaves whole lines only).
fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    let mut buf = String::with_capacity(line.len() + 1);
    buf.push_str(line);
    buf.push('\n');
    file.write_all(buf.as_bytes())?;
    file.flush()
}

/// Plays the match. Returns the summary, or an error before any game when the setup is wrong
/// (a file that cannot be written, a deal that does not fit).
pub fn run_match(cfg: &MatchConfig) -> Result<MatchSummary, String> {
    // Check every distinct start before starting engines.
    // Pair i uses opening i mod |openings| and deal i mod |deals|: the combinations repeat
    // after at most |openings| * |deals| pairs.
    let distinct = (cfg.openings.len().max(1) as u64)
        .saturating_mul(cfg.deals.as_ref().map_or(1, |d| d.len() as u64))
        .min(cfg.pairs);
    for pair in 0..distinct {
        pair_start(cfg, pair)?;
    }
    let mut file = match &cfg.out {
        Some(p) => Some(File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let total_games = cfg.pairs * 2;
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = unbounded::<Finished>();
    let workers = cfg.concurrency.max(1).min(cfg.pairs.max(1) as usize);
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (next, stop, tx, cfg) = (next.clone(), stop.clone(), tx.clone(), cfg.clone());
        handles.push(thread::spawn(move || {
            let mut seats = [
                Seat::new(cfg.engines[0].clone()),
                Seat::new(cfg.engines[1].clone()),
            ];
            while !stop.load(Ordering::SeqCst) {
                let pair = next.fetch_add(1, Ordering::SeqCst);
                if pair >= cfg.pairs {
                    break;
                }
                let start = match pair_start(&cfg, pair) {
                    Ok(s) => s,
                    Err(_) => continue, // checked before the match
                };
                for first_is_red in [true, false] {
                    let [a, b] = &mut seats;
                    let record = if first_is_red {
                        play_game(&start, [a, b], &cfg.game)
                    } else {
                        play_game(&start, [b, a], &cfg.game)
                    };
                    if tx
                        .send(Finished {
                            pair,
                            first_is_red,
                            record,
                        })
                        .is_err()
                    {
                        return;
                    }
                }
            }
            for s in &mut seats {
                s.quit();
            }
        }));
    }
    drop(tx);

    let mut summary = MatchSummary::default();
    let mut half_pairs: HashMap<u64, f64> = HashMap::new();
    let tty = std::io::stderr().is_terminal();
    let mut write_error = None;
    for f in rx {
        let game_no = f.pair * 2 + if f.first_is_red { 1 } else { 2 };
        if let Some(file) = &mut file {
            let line = f
                .record
                .to_json(game_no, f.pair + 1, cfg.variant.name())
                .to_string();
            if let Err(e) = write_line(file, &line) {
                write_error.get_or_insert_with(|| e.to_string());
            }
        }
        summary.add_game(&f.record, f.first_is_red);
        let first = if f.first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let pts = f.record.outcome.points(first);
        if let Some(other) = half_pairs.remove(&f.pair) {
            let cell = ((other + pts) * 2.0).round() as usize;
            summary.pairs[cell.min(4)] += 1;
            if let Some(t) = &cfg.sprt {
                let llr = t.llr_pentanomial(&summary.pairs);
                let v = t.verdict(llr);
                summary.sprt = Some((llr, v));
                if v != SprtVerdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                    summary.stopped_early = next.load(Ordering::SeqCst) < cfg.pairs;
                }
            }
        } else {
            half_pairs.insert(f.pair, pts);
        }
        if cfg.progress {
            let line = summary.progress_line(total_games);
            let game_line = format!(
                "game {game_no}: {} vs {}: {} {}",
                f.record.names[0],
                f.record.names[1],
                f.record.outcome.text(),
                f.record.reason.as_str()
            );
            if tty {
                let done = summary.games as f64 / total_games.max(1) as f64;
                let filled = (done * 30.0).round() as usize;
                eprint!(
                    "\r\x1b[2K{game_line}\n[{}{}] {line}",
                    "#".repeat(filled.min(30)),
                    ".".repeat(30 - filled.min(30))
                );
            } else {
                eprintln!("{game_line}; {line}");
            }
        }
    }
    if cfg.progress && tty {
        eprintln!();
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(e) = write_error {
        return Err(format!("writing the records failed: {e}"));
    }
    Ok(summary)
}
