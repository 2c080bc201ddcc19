//! A match or tournament: pairs of games between engines, each deal played twice with colours
//! swapped, on worker threads, with records written as games finish, and statistics. The front
//! end (command line or JAI) is told of every finished game, and of the moves of the games the
//! first worker plays, through a [`MatchObserver`]; this module prints nothing.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crossbeam_channel::{unbounded, Sender};

use super::config::EngineSpec;
use super::deal::{self, DealError, SplitMix64};
use super::engine::{check_option_value, EngineError, EngineProcess};
use super::game::{
    play_game_with, GameConfig, GameEvent, GameRecord, GameStart, Outcome, Reason, Seat,
};
use super::records::{finished_games, read_records, FinishedGame, MatchEntry, RecordError};
use super::stats::{self, fmt_elo, Sprt, SprtVerdict};
use super::view::TruePly;
use crate::core::fen::FenError;
use crate::core::{Color, Move, Piece, PlayError, Position, PositionError, Variant};

/// An opening: a start position (public) and moves played from it before the engines move.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Why an opening file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("opening line {line}: {error}")]
    Fen { line: usize, error: FenError },
    #[error("opening line {line}: {error}")]
    Position { line: usize, error: PositionError },
    #[error("opening line {line}: '{word}' is not a 4-character move")]
    Move { line: usize, word: String },
    #[error("no opening in the file")]
    Empty,
}

/// Reads an opening file for `variant`: one opening per line, blank lines and lines starting
/// with `#` skipped. A line is either a FEN (any dialect; `moves m1 m2 ...` may follow) or only
/// moves from the variant's start position. Moves are 4 characters: the flips they make take
/// their identities from each game's deal.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let (fen_part, moves_part) = match t.split_once("moves") {
            Some((f, m)) => (f.trim(), m.trim()),
            None if t.contains('/') => (t, ""),
            None => ("", t),
        };
        let start = if fen_part.is_empty() || fen_part == "startpos" {
            Position::startpos(variant)
        } else {
            let setup = crate::core::fen::parse(fen_part)
                .map_err(|error| OpeningError::Fen { line, error })?;
            Position::from_setup(&setup, variant)
                .map_err(|error| OpeningError::Position { line, error })?
                .0
        };
        let moves = moves_part
            .split_whitespace()
            .map(|w| {
                Move::parse(w).ok_or_else(|| OpeningError::Move {
                    line,
                    word: w.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(Opening { start, moves });
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

/// Who plays whom when there are more than two engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines. With two, the first is the one the statistics are about.
    pub engines: Vec<EngineSpec>,
    pub schedule: Schedule,
    pub variant: Variant,
    /// Number of deals per encounter (pair of engines); each is played twice with colours
    /// swapped.
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
    /// A sequential test (two engines only).
    pub sprt: Option<Sprt>,
    /// Play only one share of the match (several processes or machines share it).
    pub shard: Option<Shard>,
    /// Keep the games already in `out` (records of this match, and of this share) and play
    /// only the others, appending their records.
    pub resume: bool,
}

/// Share `index` (0-based) of `count`: the scheduled pairs `k` with `k mod count = index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// A share that is not `I/N` with 1 <= I <= N (the text as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard '{0}' is not I/N with 1 <= I <= N")]
pub struct ShardError(pub String);

impl Shard {
    /// Reads `I/N` (1-based `I`, 1 <= I <= N).
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (i, n): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if i == 0 || n == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }

    /// How many of `items` scheduled pairs (0..items) belong to this share.
    pub fn share_of(&self, items: u64) -> u64 {
        if self.index >= items {
            0
        } else {
            (items - self.index).div_ceil(self.count)
        }
    }

    /// The `j`-th scheduled pair of this share.
    pub fn item(&self, j: u64) -> u64 {
        j.saturating_mul(self.count).saturating_add(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl MatchConfig {
    /// The encounters, as (first, second) engine indices; statistics are from the first's view.
    pub fn encounters(&self) -> Vec<(usize, usize)> {
        encounters_of(self.engines.len(), self.schedule)
    }

    /// Scheduled pairs of games in the whole match (all shares).
    pub fn scheduled_pairs(&self) -> u64 {
        self.pairs.saturating_mul(self.encounters().len() as u64)
    }

    /// Games this run plays: the whole match, or its share.
    pub fn total_games(&self) -> u64 {
        let items = self.scheduled_pairs();
        self.shard
            .map_or(items, |s| s.share_of(items))
            .saturating_mul(2)
    }

    /// What identifies the match, whatever share of it a run plays: the same text for every
    /// run of the same match (engines, schedule, variant, pairs, seed, limits, adjudication,
    /// deals, openings, SPRT), different for different matches. Concurrency, the record file
    /// and the share are left out.
    pub fn identity(&self) -> MatchIdentity {
        let mut text = String::new();
        for e in &self.engines {
            text.push_str(&format!(
                "engine {:?} {:?} {:?} {} {:?};",
                e.name,
                e.argv,
                e.options,
                e.handshake,
                e.limit.map(|l| l.to_string())
            ));
        }
        let g = &self.game;
        text.push_str(&format!(
            "schedule {:?}; variant {}; pairs {}; seed {}; limit {}; adjudication {:?}; \
             margin {}; move timeout {}; startup timeout {};",
            self.schedule,
            self.variant.name(),
            self.pairs,
            self.seed,
            g.limit,
            g.adjudication,
            g.time_margin_ms,
            g.move_timeout_ms,
            g.startup_timeout_ms
        ));
        if let Some(deals) = &self.deals {
            for d in deals {
                text.push_str(&format!("deal {};", deal::deal_text(d)));
            }
        }
        for o in &self.openings {
            let moves: Vec<String> = o.moves.iter().map(|m| m.to_string()).collect();
            text.push_str(&format!("opening {} {};", o.start.fen(), moves.join(" ")));
        }
        let sprt = self.sprt.as_ref().map(sprt_text);
        if let Some(t) = &sprt {
            text.push_str(&format!("sprt {t};"));
        }
        // FNV-1a, 64 bits: stable across runs, builds and machines.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        MatchIdentity {
            id: format!("{h:016x}"),
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
            schedule: self.schedule,
            pairs: self.pairs,
            sprt,
        }
    }
}

/// The SPRT's settings as `Sprt::parse` reads them.
pub fn sprt_text(t: &Sprt) -> String {
    format!(
        "elo0={} elo1={} alpha={} beta={} model={} minpairs={}",
        t.elo0,
        t.elo1,
        t.alpha,
        t.beta,
        t.model.name(),
        t.min_pairs
    )
}

/// What every record of a match carries about the match (its `match` field), so that the
/// records of its shares can be merged and those of other matches refused.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchIdentity {
    /// A digest of the match's settings.
    pub id: String,
    /// The engines' names in order (the first is the one a two-engine match is about).
    pub engines: Vec<String>,
    pub schedule: Schedule,
    /// Deals per encounter.
    pub pairs: u64,
    /// The SPRT's settings, if any.
    pub sprt: Option<String>,
}

impl MatchIdentity {
    /// The `match` field of a record; `shard` is the share that played the game.
    pub fn entry(&self, shard: Option<Shard>) -> MatchEntry {
        MatchEntry {
            id: self.id.clone(),
            engines: self.engines.clone(),
            schedule: schedule_name(self.schedule).to_string(),
            pairs: self.pairs,
            sprt: self.sprt.clone(),
            shard: shard.map(|s| s.to_string()),
        }
    }

    /// Reads a record's `match` field.
    pub fn from_entry(m: &MatchEntry) -> Result<MatchIdentity, &'static str> {
        let schedule = match m.schedule.as_str() {
            "round-robin" => Schedule::RoundRobin,
            "gauntlet" => Schedule::Gauntlet,
            _ => return Err("no schedule"),
        };
        if m.pairs == 0 {
            return Err("no pairs");
        }
        if m.engines.len() < 2 {
            return Err("fewer than two engines");
        }
        Ok(MatchIdentity {
            id: m.id.clone(),
            engines: m.engines.clone(),
            schedule,
            pairs: m.pairs,
            sprt: m.sprt.clone(),
        })
    }

    /// The encounters, as [`MatchConfig::encounters`] gives them.
    pub fn encounters(&self) -> Vec<(usize, usize)> {
        encounters_of(self.engines.len(), self.schedule)
    }
}

/// The word for a schedule in records and on the command line.
pub fn schedule_name(s: Schedule) -> &'static str {
    match s {
        Schedule::RoundRobin => "round-robin",
        Schedule::Gauntlet => "gauntlet",
    }
}

/// The encounters of `n` engines, as (first, second) engine indices.
fn encounters_of(n: usize, schedule: Schedule) -> Vec<(usize, usize)> {
    match schedule {
        Schedule::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Schedule::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// The score in percent of `wins`, `draws` and `losses` (50 with no games).
fn score_percent(wins: u64, draws: u64, losses: u64) -> f64 {
    let games = wins + draws + losses;
    if games == 0 {
        return 50.0;
    }
    100.0 * (wins as f64 + draws as f64 / 2.0) / games as f64
}

/// What an encounter found, from its first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSummary {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Complete pairs by the first engine's points: 0, 0.5, 1, 1.5, 2.
    pub pairs: [u64; 5],
    /// The first engine's wins, draws and losses with Red (`[0]`) and with Black (`[1]`).
    pub by_colour: [[u64; 3]; 2],
    /// Games by reason.
    pub reasons: BTreeMap<&'static str, u64>,
    /// Engine failures (time, illegal move, crash, no answer, start) by engine name.
    pub failures: BTreeMap<String, u64>,
    /// The SPRT's last log-likelihood ratio and verdict, if one runs.
    pub sprt: Option<(f64, SprtVerdict)>,
}
impl MatchSummary {
    /// Counts one game: its outcome and reason, the names of Red and Black, and whether the
    /// encounter's first engine played Red.
    pub fn add_result(
        &mut self,
        outcome: Outcome,
        reason: Reason,
        names: &[String; 2],
        first_is_red: bool,
    ) {
        let first = if first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let p = outcome.points(first);
        self.games += 1;
        let kind = if p == 1.0 {
            self.wins += 1;
            0
        } else if p == 0.0 {
            self.losses += 1;
            2
        } else {
            self.draws += 1;
            1
        };
        self.by_colour[usize::from(!first_is_red)][kind] += 1;
        *self.reasons.entry(reason.as_str()).or_default() += 1;
        if reason.is_failure() {
            let loser = match outcome {
                Outcome::RedWins => &names[1],
                _ => &names[0],
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
        let pct = score_percent(self.wins, self.draws, self.losses);
        s.push_str(&format!(
            "Score of {} vs {}: {} - {} - {} (W - L - D)  [{pct:.1}%]  {} games\n",
            names[0], names[1], self.wins, self.losses, self.draws, self.games
        ));
        let pairs: u64 = self.pairs.iter().sum();
        s.push_str(&format!(
            "Pairs ({} points 0, 0.5, 1, 1.5, 2): {} {} {} {} {}  ({pairs} complete)\n",
            names[0], self.pairs[0], self.pairs[1], self.pairs[2], self.pairs[3], self.pairs[4]
        ));
        let colour = |label: &str, [w, d, l]: [u64; 3]| {
            format!("{label} {w} - {l} - {d} [{:.1}%]", score_percent(w, d, l))
        };
        s.push_str(&format!(
            "Colours ({} W - L - D): {}  {}\n",
            names[0],
            colour("Red", self.by_colour[0]),
            colour("Black", self.by_colour[1])
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
                t.model.name()
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

/// Why a pair cannot start: its deal does not fit its opening's start, or the opening cannot be
/// played with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairStartError {
    #[error("pair {pair}: {error}")]
    Deal { pair: u64, error: DealError },
    #[error("pair {pair}: opening move {index} '{mv}': {error}")]
    Opening {
        pair: u64,
        /// 1-based.
        index: usize,
        mv: Move,
        error: PlayError,
    },
}

/// The start of pair `i`: opening, deal.
pub fn pair_start(cfg: &MatchConfig, pair: u64) -> Result<GameStart, PairStartError> {
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
    let dealt = deal::dealt(&start, &deal).map_err(|error| PairStartError::Deal { pair, error })?;
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
        .map_err(|error| PairStartError::Opening {
            pair,
            index: i + 1,
            mv,
            error,
        })?;
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

/// A finished game and its place in the match.
#[derive(Clone, Debug)]
pub struct GameDone {
    /// 1-based game number (the record's `game`): games `2k+1` and `2k+2` are the two games of
    /// the `k`-th scheduled pair.
    pub game_no: u64,
    /// 0-based deal index.
    pub pair: u64,
    /// Index into [`MatchConfig::encounters`].
    pub encounter: usize,
    /// Whether the encounter's first engine played Red.
    pub first_is_red: bool,
    /// The worker that played it (0 is the one whose moves are shown live).
    pub worker: usize,
    pub record: GameRecord,
}

/// A move or a game start in a game of the first worker, as it happens.
#[derive(Clone, Debug)]
pub enum LiveEvent {
    Started {
        game_no: u64,
        names: [String; 2],
        start_fen: String,
    },
    /// An `info` line of the engine to move, as it printed it.
    Info { game_no: u64, line: String },
    Moved {
        game_no: u64,
        ply: TruePly,
        time_ms: u64,
        book: bool,
    },
}

/// Told what happens while a match runs, on the thread that called [`run_match`].
pub trait MatchObserver {
    /// A move or game start of the first worker's games (only when [`MatchControl::live`]).
    fn live(&mut self, _event: &LiveEvent) {}
    /// A game finished (its record is already written); `t` includes it.
    fn game(&mut self, _done: &GameDone, _t: &Tournament) {}
    /// Resuming: `kept` games were found in the record file; `t` counts them (called once,
    /// before any game, only when there are some).
    fn resumed(&mut self, _kept: u64, _t: &Tournament) {}
}

/// An observer that wants nothing.
pub struct Silent;
impl MatchObserver for Silent {}

/// How a running match is controlled from outside.
#[derive(Clone, Debug, Default)]
pub struct MatchControl {
    /// Set it to end the match at once: games in progress are abandoned (not recorded, not
    /// counted) and their engines killed.
    pub abort: Arc<AtomicBool>,
    /// Send [`LiveEvent`]s for the first worker's games.
    pub live: bool,
}

/// One encounter's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    pub first: usize,
    pub second: usize,
    pub summary: MatchSummary,
}

/// One engine's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub engine: usize,
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Against all its opponents together.
    pub elo: Option<stats::EloEstimate>,
}

impl Standing {
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// The state of a match or tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    pub names: Vec<String>,
    pub encounters: Vec<Encounter>,
    pub total_games: u64,
    /// Whether the SPRT ended the match before all pairs were played.
    pub stopped_early: bool,
    /// Whether the match was aborted (Ctrl-C, or `stopmatch` in JAI).
    pub interrupted: bool,
}

impl Tournament {
    /// A match of `total_games` games that has not begun: the engines' names and the
    /// encounters (pairs of indices into `names`).
    pub fn new(names: Vec<String>, encounters: &[(usize, usize)], total_games: u64) -> Tournament {
        Tournament {
            names,
            encounters: encounters
                .iter()
                .map(|&(first, second)| Encounter {
                    first,
                    second,
                    summary: MatchSummary::default(),
                })
                .collect(),
            total_games,
            stopped_early: false,
            interrupted: false,
        }
    }

    /// Counts game `game` of the match into its encounter: games `2k+1` and `2k+2` are
    /// scheduled pair `k`, of encounter `k mod E` (E encounters), the encounter's first engine
    /// Red in the first. Its pair's pentanomial cell counts once both games are in:
    /// `half_pairs` holds, by `k`, the first engine's points in pairs with one game counted.
    /// Returns the encounter's index when this game completed its pair.
    pub fn count_game(
        &mut self,
        game: u64,
        outcome: Outcome,
        reason: Reason,
        names: &[String; 2],
        half_pairs: &mut HashMap<u64, f64>,
    ) -> Option<usize> {
        let k = (game - 1) / 2;
        let encounter = (k % self.encounters.len() as u64) as usize;
        let first_is_red = game % 2 == 1;
        let summary = &mut self.encounters[encounter].summary;
        summary.add_result(outcome, reason, names, first_is_red);
        let first = if first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        let pts = outcome.points(first);
        let Some(other) = half_pairs.remove(&k) else {
            half_pairs.insert(k, pts);
            return None;
        };
        let cell = ((other + pts) * 2.0).round() as usize;
        summary.pairs[cell.min(4)] += 1;
        Some(encounter)
    }

    /// Runs `test` over the complete pairs of every encounter that has some; returns whether
    /// it decided for any.
    pub fn test_pairs(&mut self, test: &Sprt) -> bool {
        let mut decided = false;
        for e in &mut self.encounters {
            if e.summary.pairs.iter().sum::<u64>() > 0 {
                let (llr, v) = test.decide(&e.summary.pairs);
                e.summary.sprt = Some((llr, v));
                decided |= v != SprtVerdict::Continue;
            }
        }
        decided
    }

    /// Games finished.
    pub fn games(&self) -> u64 {
        self.encounters.iter().map(|e| e.summary.games).sum()
    }

    /// Every engine's games and points, best first (ties keep the engines' order).
    pub fn standings(&self) -> Vec<Standing> {
        let mut out: Vec<Standing> = (0..self.names.len())
            .map(|i| Standing {
                engine: i,
                name: self.names[i].clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                elo: None,
            })
            .collect();
        for e in &self.encounters {
            let m = &e.summary;
            for (idx, w, l) in [(e.first, m.wins, m.losses), (e.second, m.losses, m.wins)] {
                let s = &mut out[idx];
                s.games += m.games;
                s.wins += w;
                s.losses += l;
                s.draws += m.draws;
            }
        }
        for s in &mut out {
            s.elo = stats::elo_wdl(s.wins, s.draws, s.losses);
        }
        out.sort_by(|a, b| b.points().total_cmp(&a.points()));
        out
    }

    /// One status line: games, and W/D/L with Elo for a two-engine match, the leader otherwise.
    pub fn progress_line(&self) -> String {
        if self.encounters.len() == 1 {
            return self.encounters[0].summary.progress_line(self.total_games);
        }
        let lead = self
            .standings()
            .first()
            .map(|s| format!("  leader {} {:.1}/{}", s.name, s.points(), s.games))
            .unwrap_or_default();
        format!("games {}/{}{lead}", self.games(), self.total_games)
    }

    /// The final report, several lines.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        if self.encounters.len() == 1 {
            let e = &self.encounters[0];
            s.push_str(
                &e.summary
                    .report([&self.names[e.first], &self.names[e.second]], sprt),
            );
        } else {
            let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
            s.push_str(&format!(
                "{:>4} {:<width$} {:>6} {:>7} {:>5} {:>5} {:>5} {:>9}\n",
                "rank", "name", "games", "points", "W", "D", "L", "Elo"
            ));
            for (rank, st) in self.standings().iter().enumerate() {
                let elo = st
                    .elo
                    .map(|e| format!("{} +/- {:.0}", fmt_elo(e.elo), e.margin()))
                    .unwrap_or_else(|| "-".to_string());
                s.push_str(&format!(
                    "{:>4} {:<width$} {:>6} {:>7.1} {:>5} {:>5} {:>5} {elo:>9}\n",
                    rank + 1,
                    st.name,
                    st.games,
                    st.points(),
                    st.wins,
                    st.draws,
                    st.losses
                ));
            }
            s.push_str("Encounters:\n");
            for e in &self.encounters {
                let m = &e.summary;
                let elo = stats::elo_wdl(m.wins, m.draws, m.losses)
                    .map(|x| format!("  Elo {} +/- {:.1}", fmt_elo(x.elo), x.margin()))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "  {} vs {}: {} - {} - {} (W - L - D){elo}\n",
                    self.names[e.first], self.names[e.second], m.wins, m.losses, m.draws
                ));
            }
            let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
            let mut failures: BTreeMap<&str, u64> = BTreeMap::new();
            for e in &self.encounters {
                for (r, n) in &e.summary.reasons {
                    *reasons.entry(r).or_default() += n;
                }
                for (r, n) in &e.summary.failures {
                    *failures.entry(r).or_default() += n;
                }
            }
            let list = |m: &BTreeMap<&str, u64>| {
                m.iter()
                    .map(|(r, n)| format!("{r} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            s.push_str(&format!("Reasons: {}\n", list(&reasons)));
            if !failures.is_empty() {
                s.push_str(&format!("Engine failures: {}\n", list(&failures)));
            }
        }
        if self.stopped_early {
            s.push_str("Stopped early: the SPRT decided.\n");
        }
        if self.interrupted {
            s.push_str(&format!(
                "Interrupted after {} of {} games; games in progress were abandoned (not recorded).\n",
                self.games(),
                self.total_games
            ));
        }
        s
    }
}

/// What a worker sends the collecting thread.
enum Msg {
    Live(LiveEvent),
    Done(Box<GameDone>),
}

/// Writes one record line with a single write (so a stopped run leaves whole lines only).
fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    let mut buf = String::with_capacity(line.len() + 1);
    buf.push_str(line);
    buf.push('\n');
    file.write_all(buf.as_bytes())?;
    file.flush()
}

/// Two different seats of `seats`, mutably.
fn two_seats(seats: &mut [Seat], a: usize, b: usize) -> (&mut Seat, &mut Seat) {
    assert!(a != b, "an engine does not play itself");
    if a < b {
        let (lo, hi) = seats.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = seats.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}

/// Why a match cannot start, or (the records) did not end well.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("a match needs at least two engines (got {0})")]
    TooFewEngines(usize),
    #[error("an SPRT needs exactly two engines")]
    SprtEngines,
    #[error("two engines are named '{0}'")]
    SameName(String),
    #[error(transparent)]
    PairStart(#[from] PairStartError),
    #[error("engine '{name}' cannot be started: {detail}")]
    EngineStart { name: String, detail: String },
    #[error("engine '{name}': option '{option}': {reason}")]
    EngineOption {
        name: String,
        option: String,
        reason: String,
    },
    /// After the games: a record could not be written.
    #[error("writing the records failed: {0}")]
    WriteRecords(std::io::Error),
    #[error("{}: {error}", path.display())]
    Records {
        path: PathBuf,
        error: std::io::Error,
    },
    /// `resume`: the record file holds what is not a game of this match (or share).
    #[error("cannot resume: {0}")]
    Resume(RecordError),
}

/// The games to keep when resuming: those of `cfg.out` (none when not resuming, or when the
/// file does not exist yet), each checked to be a game of this match and share.
fn kept_games(
    cfg: &MatchConfig,
    identity: &MatchIdentity,
) -> Result<BTreeMap<u64, FinishedGame>, MatchError> {
    let Some(path) = cfg.out.as_ref().filter(|p| cfg.resume && p.exists()) else {
        return Ok(BTreeMap::new());
    };
    let records = read_records(path).map_err(MatchError::Resume)?;
    finished_games(&records, identity, "this run's arguments", cfg.shard)
        .map_err(MatchError::Resume)
}

/// Opens the record file: created afresh, or when resuming opened for appending (after a
/// line break, if its last line lacks one).
fn open_records(cfg: &MatchConfig) -> Result<Option<File>, MatchError> {
    let Some(path) = &cfg.out else {
        return Ok(None);
    };
    let error = |error| MatchError::Records {
        path: path.clone(),
        error,
    };
    if !cfg.resume {
        return File::create(path).map(Some).map_err(error);
    }
    let mut file = OpenOptions::new()
        .read(true)
        .create(true)
        .append(true)
        .open(path)
        .map_err(error)?;
    let mut last = [b'\n'];
    if file.metadata().map_err(error)?.len() > 0 {
        file.seek(SeekFrom::End(-1)).map_err(error)?;
        file.read_exact(&mut last).map_err(error)?;
    }
    if last[0] != b'\n' {
        file.write_all(b"\n").map_err(error)?;
    }
    Ok(Some(file))
}

/// Whether both games of scheduled pair `k` are among the `kept` ones.
fn pair_kept(kept: &BTreeMap<u64, FinishedGame>, k: u64) -> bool {
    kept.contains_key(&(2 * k + 1)) && kept.contains_key(&(2 * k + 2))
}

/// Checks what can be checked before any engine starts.
fn check(cfg: &MatchConfig) -> Result<(), MatchError> {
    if cfg.engines.len() < 2 {
        return Err(MatchError::TooFewEngines(cfg.engines.len()));
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err(MatchError::SprtEngines);
    }
    let mut names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(MatchError::SameName(w[0].to_string()));
    }
    // Pair i uses opening i mod |openings| and deal i mod |deals|: the combinations repeat
    // after at most |openings| * |deals| pairs.
    let distinct = (cfg.openings.len().max(1) as u64)
        .saturating_mul(cfg.deals.as_ref().map_or(1, |d| d.len() as u64))
        .min(cfg.pairs);
    for pair in 0..distinct {
        pair_start(cfg, pair)?;
    }
    Ok(())
}

/// Each engine's options that it declares (with a handshake) checked against its declaration:
/// a value it would refuse is a setup error. Options it does not declare, and engines that give
/// no `uciok`, are not checked.
fn check_options(cfg: &MatchConfig) -> Result<(), MatchError> {
    let timeout = Duration::from_millis(cfg.game.startup_timeout_ms);
    for e in cfg
        .engines
        .iter()
        .filter(|e| e.handshake && !e.options.is_empty())
    {
        let Ok(Some(declared)) = EngineProcess::declared_options(e, timeout) else {
            continue;
        };
        for (option, value) in &e.options {
            let ty = declared
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(option));
            if let Some((_, ty)) = ty {
                check_option_value(ty, value).map_err(|reason| MatchError::EngineOption {
                    name: e.name.clone(),
                    option: option.clone(),
                    reason,
                })?;
            }
        }
    }
    Ok(())
}

/// Plays the match. Returns its state at the end (also when aborted or stopped by the SPRT),
/// or an error before any game when the setup is wrong (a file that cannot be written, a deal
/// that does not fit, fewer than two engines).
pub fn run_match(
    cfg: &MatchConfig,
    control: &MatchControl,
    observer: &mut dyn MatchObserver,
) -> Result<Tournament, MatchError> {
    check(cfg)?;
    let identity = cfg.identity();
    let kept = kept_games(cfg, &identity)?;
    for e in &cfg.engines {
        if let Err(EngineError::Spawn(detail)) = EngineProcess::check_command(e) {
            let name = e.name.clone();
            return Err(MatchError::EngineStart { name, detail });
        }
    }
    check_options(cfg)?;
    let mut file = open_records(cfg)?;
    let encounters = cfg.encounters();
    let items = cfg.scheduled_pairs();
    let share = cfg.shard.map_or(items, |s| s.share_of(items));
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));

    let names = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut t = Tournament::new(names, &encounters, share * 2);
    let mut half_pairs: HashMap<u64, f64> = HashMap::new();
    for (&game, g) in &kept {
        t.count_game(game, g.outcome, g.reason, &g.names, &mut half_pairs);
    }
    // A share plays all its pairs: the test is decided over all shares' records (`jieqi
    // merge`).
    if let Some(test) = &cfg.sprt {
        if t.test_pairs(test) && cfg.shard.is_none() {
            stop.store(true, Ordering::SeqCst);
        }
    }
    if !kept.is_empty() {
        observer.resumed(kept.len() as u64, &t);
    }
    // The pairs of this run with a game still to play.
    let to_play = (0..share)
        .filter(|&j| !pair_kept(&kept, cfg.shard.map_or(j, |s| s.item(j))))
        .count();
    let kept: Arc<BTreeMap<u64, FinishedGame>> = Arc::new(kept);
    let (tx, rx) = unbounded::<Msg>();
    let workers = cfg.concurrency.max(1).min(to_play);
    let mut handles = Vec::new();
    for worker in 0..workers {
        let (next, stop, tx, cfg) = (next.clone(), stop.clone(), tx.clone(), cfg.clone());
        let (abort, encounters, kept) = (control.abort.clone(), encounters.clone(), kept.clone());
        let live = control.live && worker == 0;
        handles.push(thread::spawn(move || {
            work(
                worker,
                &cfg,
                &encounters,
                &kept,
                &next,
                &stop,
                &abort,
                live.then_some(&tx),
                &tx,
            )
        }));
    }
    drop(tx);

    let mut write_error = None;
    for msg in rx {
        let f = match msg {
            Msg::Live(e) => {
                observer.live(&e);
                continue;
            }
            Msg::Done(f) => f,
        };
        if let Some(file) = &mut file {
            let mut entry = f.record.entry(f.game_no, f.pair + 1, cfg.variant.name());
            entry.match_ = Some(identity.entry(cfg.shard));
            let line = entry.to_line();
            if let Err(e) = write_line(file, &line) {
                write_error.get_or_insert(e);
            }
        }
        let r = &f.record;
        let complete = t.count_game(f.game_no, r.outcome, r.reason, &r.names, &mut half_pairs);
        if let Some(encounter) = complete {
            let summary = &mut t.encounters[encounter].summary;
            // Once decided, the verdict stands (pairs still running are counted, not tested).
            let decided = summary
                .sprt
                .is_some_and(|(_, v)| v != SprtVerdict::Continue);
            if let (Some(test), false) = (&cfg.sprt, decided) {
                let (llr, v) = test.decide(&summary.pairs);
                summary.sprt = Some((llr, v));
                // A share plays all its pairs: the test is decided over all shares' records
                // (`jieqi merge`).
                if v != SprtVerdict::Continue && cfg.shard.is_none() {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        observer.game(&f, &t);
    }
    for h in handles {
        let _ = h.join();
    }
    t.interrupted = control.abort.load(Ordering::SeqCst);
    // Only the SPRT sets `stop`; once it is set no new pair starts, and the pairs running
    // finish: games are left exactly when the test ended the match early.
    t.stopped_early = stop.load(Ordering::SeqCst) && t.games() < t.total_games;
    if let Some(e) = write_error {
        return Err(MatchError::WriteRecords(e));
    }
    Ok(t)
}

/// One worker: takes the next scheduled pair until none is left, the SPRT decides or the match
/// is aborted, and plays its games that are not among the `kept` ones. Item `k` is pair `k / E`
/// of encounter `k mod E` (E encounters), so every encounter advances at the same pace and
/// plays the same deals.
#[allow(clippy::too_many_arguments)]
fn work(
    worker: usize,
    cfg: &MatchConfig,
    encounters: &[(usize, usize)],
    kept: &BTreeMap<u64, FinishedGame>,
    next: &AtomicU64,
    stop: &AtomicBool,
    abort: &AtomicBool,
    live: Option<&Sender<Msg>>,
    tx: &Sender<Msg>,
) {
    let mut seats: Vec<Seat> = cfg.engines.iter().cloned().map(Seat::new).collect();
    let e_count = encounters.len() as u64;
    let items = cfg.scheduled_pairs();
    let share = cfg.shard.map_or(items, |s| s.share_of(items));
    'items: while !stop.load(Ordering::SeqCst) && !abort.load(Ordering::SeqCst) {
        let j = next.fetch_add(1, Ordering::SeqCst);
        if j >= share {
            break;
        }
        // The j-th pair of this run: of the whole match, or of its share.
        let k = cfg.shard.map_or(j, |s| s.item(j));
        let (pair, encounter) = (k / e_count, (k % e_count) as usize);
        if pair_kept(kept, k) {
            continue;
        }
        let Ok(start) = pair_start(cfg, pair) else {
            continue; // checked before the match
        };
        let (a, b) = encounters[encounter];
        for (i, first_is_red) in [true, false].into_iter().enumerate() {
            let game_no = 2 * k + 1 + i as u64;
            if kept.contains_key(&game_no) {
                continue;
            }
            let (x, y) = two_seats(&mut seats, a, b);
            let pair_seats = if first_is_red { [x, y] } else { [y, x] };
            let mut observe = |e: GameEvent| {
                let Some(live) = live else { return };
                let event = match e {
                    GameEvent::Started { names, start_fen } => LiveEvent::Started {
                        game_no,
                        names: names.clone(),
                        start_fen: start_fen.to_string(),
                    },
                    GameEvent::Info { line } => LiveEvent::Info {
                        game_no,
                        line: line.to_string(),
                    },
                    GameEvent::Moved { ply, time_ms, book } => LiveEvent::Moved {
                        game_no,
                        ply: *ply,
                        time_ms,
                        book,
                    },
                };
                let _ = live.send(Msg::Live(event));
            };
            let Some(record) =
                play_game_with(&start, pair_seats, &cfg.game, Some(abort), &mut observe)
            else {
                break 'items; // aborted
            };
            let done = GameDone {
                game_no,
                pair,
                encounter,
                first_is_red,
                worker,
                record,
            };
            if tx.send(Msg::Done(Box::new(done))).is_err() {
                return;
            }
        }
    }
    if abort.load(Ordering::SeqCst) {
        return; // dropping the seats kills the engines at once
    }
    for s in &mut seats {
        s.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report splits the first engine's results by the colour it played.
    #[test]
    fn the_report_splits_results_by_colour() {
        let names = ["A".to_string(), "B".to_string()];
        let swapped = ["B".to_string(), "A".to_string()];
        let mut m = MatchSummary::default();
        m.add_result(Outcome::RedWins, Reason::Checkmate, &names, true);
        m.add_result(Outcome::RedWins, Reason::Checkmate, &names, true);
        m.add_result(Outcome::RedWins, Reason::Checkmate, &swapped, false);
        m.add_result(Outcome::Draw, Reason::NoCapture, &swapped, false);
        assert_eq!(m.by_colour, [[2, 0, 0], [0, 1, 1]]);
        let report = m.report(["A", "B"], None);
        assert!(
            report
                .contains("Colours (A W - L - D): Red 2 - 0 - 0 [100.0%]  Black 0 - 1 - 1 [25.0%]"),
            "{report}"
        );
    }
}
