//! One game between two engine processes, refereed on the true position.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::config::{EngineSpec, Limit};
use super::engine::{EngineError, EngineProcess, Score};
use super::records::{GameEntry, MoveEntry};
use super::view::{self, TruePly};
use crate::core::{
    Color, DrawReason, Game, GameResult, Move, Occupant, Piece, Position, WinReason,
};

/// Adjudication and length limits. Scores are centipawns as the engines report them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: for `resign_moves` consecutive moves of each side, both engines' scores agree that
    /// one side is ahead by at least this much.
    pub resign_score: Option<i32>,
    pub resign_moves: u32,
    /// Draw: from ply `draw_start`, for `draw_moves` consecutive moves of each side, every score
    /// lies within plus or minus this.
    pub draw_score: Option<i32>,
    pub draw_moves: u32,
    pub draw_start: u32,
    /// A draw after this many plies.
    pub max_plies: Option<u32>,
}

/// Everything a game needs besides the engines and the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    pub limit: Limit,
    pub adjudication: Adjudication,
    /// A clock may run this far below zero before the game is lost on time (also the slack
    /// over `movetime`).
    pub time_margin_ms: u64,
    /// How long a `go nodes`/`go depth` search may take before the engine counts as not
    /// answering.
    pub move_timeout_ms: u64,
    /// Deadline for `uciok` and `readyok`.
    pub startup_timeout_ms: u64,
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    RedWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn text(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
    pub fn win(c: Color) -> Outcome {
        match c {
            Color::Red => Outcome::RedWins,
            Color::Black => Outcome::BlackWins,
        }
    }
    /// Points of `c`: 1, 0.5 or 0.
    pub fn points(self, c: Color) -> f64 {
        match (self, c) {
            (Outcome::Draw, _) => 0.5,
            (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    Checkmate,
    NoLegalMoves,
    PerpetualCheck,
    Repetition,
    MutualPerpetualCheck,
    NoCapture,
    AdjudicatedResign,
    AdjudicatedDraw,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    NoAnswer,
    StartFailure,
}

impl Reason {
    pub const ALL: [Reason; 14] = [
        Reason::Checkmate,
        Reason::NoLegalMoves,
        Reason::PerpetualCheck,
        Reason::Repetition,
        Reason::MutualPerpetualCheck,
        Reason::NoCapture,
        Reason::AdjudicatedResign,
        Reason::AdjudicatedDraw,
        Reason::MaxPlies,
        Reason::TimeForfeit,
        Reason::IllegalMove,
        Reason::Crash,
        Reason::NoAnswer,
        Reason::StartFailure,
    ];
    /// The word in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::NoLegalMoves => "no_legal_moves",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::Repetition => "repetition",
            Reason::MutualPerpetualCheck => "mutual_perpetual_check",
            Reason::NoCapture => "no_capture_120",
            Reason::AdjudicatedResign => "adjudication_resign",
            Reason::AdjudicatedDraw => "adjudication_draw",
            Reason::MaxPlies => "max_plies",
            Reason::TimeForfeit => "time_forfeit",
            Reason::IllegalMove => "illegal_move",
            Reason::Crash => "crash",
            Reason::NoAnswer => "no_answer",
            Reason::StartFailure => "start_failure",
        }
    }
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s)
    }
    /// Whether the reason is an engine failure (the loser's process is restarted).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Reason::TimeForfeit
                | Reason::IllegalMove
                | Reason::Crash
                | Reason::NoAnswer
                | Reason::StartFailure
        )
    }
}

/// One ply in the record.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub ply: TruePly,
    /// Whether it came from the opening, not from an engine.
    pub book: bool,
    pub time_ms: u64,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The mover's clock after the move (clock time controls only).
    pub clock_ms: Option<i64>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub names: [String; 2],
    /// Each side's search limit (`nodes 5000`, `40/60+0.6`, ...).
    pub limits: [String; 2],
    pub start_fen: String,
    pub deal: Vec<Piece>,
    pub moves: Vec<MoveRecord>,
    pub outcome: Outcome,
    pub reason: Reason,
    /// Words for people: what exactly happened.
    pub detail: String,
    pub final_fen: String,
}

/// An engine seat: its specification and, while it runs, its process. A process that failed is
/// dropped (killed) and started again for the next game.
pub struct Seat {
    pub spec: EngineSpec,
    pub process: Option<EngineProcess>,
}

impl Seat {
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            process: None,
        }
    }
    fn kill(&mut self) {
        self.process = None;
    }
    /// Starts the process if needed and prepares it for a new game.
    fn ready(&mut self, variant: crate::core::Variant, cfg: &GameConfig) -> Result<(), String> {
        let timeout = Duration::from_millis(cfg.startup_timeout_ms);
        if let Some(p) = &mut self.process {
            if p.has_exited() {
                self.process = None;
            }
        }
        if self.process.is_none() {
            let p = EngineProcess::start(&self.spec, variant, timeout).map_err(|e| match e {
                EngineError::Spawn(s) => format!("cannot start: {s}"),
                EngineError::Exited => "exited during the handshake".to_string(),
                EngineError::Timeout | EngineError::Aborted => {
                    "no uciok/readyok in time".to_string()
                }
            })?;
            self.process = Some(p);
            return Ok(());
        }
        let handshake = self.spec.handshake;
        let p = self.process.as_mut().expect("started");
        p.new_game(handshake, timeout).map_err(|e| match e {
            EngineError::Exited => "exited before the game".to_string(),
            _ => "no readyok before the game".to_string(),
        })
    }
    /// Ends the process politely (at the end of a match).
    pub fn quit(&mut self) {
        if let Some(p) = self.process.take() {
            p.quit();
        }
    }
}

/// What a game starts from: the public start position (its FEN is what the engines are sent),
/// the deal, and opening moves played before the engines take over.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub start: Position,
    pub start_fen: String,
    pub deal: Vec<Piece>,
    pub opening: Vec<Move>,
}

fn core_reason(r: GameResult) -> (Outcome, Reason) {
    match r {
        GameResult::Win { winner, reason } => (
            Outcome::win(winner),
            match reason {
                WinReason::Checkmate => Reason::Checkmate,
                WinReason::NoLegalMoves => Reason::NoLegalMoves,
                WinReason::PerpetualCheck => Reason::PerpetualCheck,
            },
        ),
        GameResult::Draw(d) => (
            Outcome::Draw,
            match d {
                DrawReason::NoCapture => Reason::NoCapture,
                DrawReason::Repetition => Reason::Repetition,
                DrawReason::MutualPerpetualCheck => Reason::MutualPerpetualCheck,
            },
        ),
    }
}

/// The true ply for `mv` in `pos` (a dealt position): what the flip reveals and what the
/// capture takes.
pub fn true_ply(pos: &Position, mv: Move) -> TruePly {
    let flip = if pos.is_flip(mv) {
        pos.flip_outcomes(mv.from())
            .as_slice()
            .first()
            .map(|&(p, _)| p)
    } else {
        None
    };
    let captured = if pos.captures_hidden(mv) {
        match pos.occupant(mv.to()) {
            Some(Occupant::Hidden { identity, .. }) => identity,
            _ => None,
        }
    } else {
        None
    };
    TruePly {
        mv,
        mover: pos.side_to_move(),
        flip,
        captured,
    }
}

/// Plays `ply` on the true game.
fn apply(game: &mut Game, ply: &TruePly) -> Result<(), String> {
    game.play(
        ply.mv,
        crate::core::Reveal {
            flip: ply.flip,
            captured: ply.captured,
        },
    )
    .map_err(|e| e.to_string())
}

/// Red's view of a mover's score (`None` when missing).
fn red_score(m: &MoveRecord) -> Option<i32> {
    let s = m.score?.as_cp();
    Some(if m.ply.mover == Color::Red { s } else { -s })
}

/// Checks the adjudication rules after the last move.
fn adjudicate(moves: &[MoveRecord], adj: &Adjudication) -> Option<(Outcome, Reason, String)> {
    if let Some(t) = adj.resign_score {
        let n = 2 * adj.resign_moves.max(1) as usize;
        if moves.len() >= n {
            let scores: Option<Vec<i32>> = moves[moves.len() - n..].iter().map(red_score).collect();
            if let Some(s) = scores {
                if s.iter().all(|&v| v >= t) {
                    return Some((
                        Outcome::RedWins,
                        Reason::AdjudicatedResign,
                        format!(
                            "both engines scored red at least +{t} for {} moves each",
                            n / 2
                        ),
                    ));
                }
                if s.iter().all(|&v| v <= -t) {
                    return Some((
                        Outcome::BlackWins,
                        Reason::AdjudicatedResign,
                        format!(
                            "both engines scored black at least +{t} for {} moves each",
                            n / 2
                        ),
                    ));
                }
            }
        }
    }
    if let Some(w) = adj.draw_score {
        let n = 2 * adj.draw_moves.max(1) as usize;
        if moves.len() >= n && moves.len() >= adj.draw_start as usize {
            let scores: Option<Vec<i32>> = moves[moves.len() - n..].iter().map(red_score).collect();
            if scores.is_some_and(|s| s.iter().all(|v| v.abs() <= w)) {
                return Some((
                    Outcome::Draw,
                    Reason::AdjudicatedDraw,
                    format!("every score within +/-{w} for {} moves each", n / 2),
                ));
            }
        }
    }
    None
}

/// What a game tells its observer while it is played.
#[derive(Clone, Copy, Debug)]
pub enum GameEvent<'a> {
    /// Before the first move (opening moves included): the players and the public start.
    Started {
        names: &'a [String; 2],
        start_fen: &'a str,
    },
    /// An `info` line of the engine to move, as it printed it.
    Info { line: &'a str },
    /// A ply was played on the true position (`book`: from the opening).
    Moved {
        ply: &'a TruePly,
        time_ms: u64,
        book: bool,
    },
}

/// Plays one game. `seats[0]` plays Red, `seats[1]` Black. Never fails: every problem ends the
/// game with a result and a reason.
pub fn play_game(start: &GameStart, seats: [&mut Seat; 2], cfg: &GameConfig) -> GameRecord {
    play_game_with(start, seats, cfg, None, &mut |_| {}).expect("a game without a stop flag ends")
}

/// [`play_game`], telling `observe` each move as it is played, and giving up (`None`: no
/// result, no record) as soon as `abort` is set.
pub fn play_game_with(
    start: &GameStart,
    seats: [&mut Seat; 2],
    cfg: &GameConfig,
    abort: Option<&AtomicBool>,
    observe: &mut dyn FnMut(GameEvent),
) -> Option<GameRecord> {
    let names = [seats[0].spec.name.clone(), seats[1].spec.name.clone()];
    let limits = [
        seats[0].spec.limit.unwrap_or(cfg.limit).to_string(),
        seats[1].spec.limit.unwrap_or(cfg.limit).to_string(),
    ];
    let mut seats = seats;
    let mut moves: Vec<MoveRecord> = Vec::new();
    let dealt = super::deal::dealt(&start.start, &start.deal)
        .expect("the runner checks deals before the game");
    let mut game = Game::new(dealt);
    let finish =
        |game: &Game, moves: Vec<MoveRecord>, outcome: Outcome, reason: Reason, detail: String| {
            Some(GameRecord {
                names: names.clone(),
                limits: limits.clone(),
                start_fen: start.start_fen.clone(),
                deal: start.deal.clone(),
                moves,
                outcome,
                reason,
                detail,
                final_fen: public_fen(game.position()),
            })
        };
    observe(GameEvent::Started {
        names: &names,
        start_fen: &start.start_fen,
    });

    // Opening moves.
    for (i, &mv) in start.opening.iter().enumerate() {
        if game.result().is_some() {
            break;
        }
        let ply = true_ply(game.position(), mv);
        if let Err(e) = apply(&mut game, &ply) {
            // The runner checks openings; should one still fail, the game is a draw on record.
            return finish(
                &game,
                moves,
                Outcome::Draw,
                Reason::MaxPlies,
                format!("opening move {} '{mv}' cannot be played: {e}", i + 1),
            );
        }
        observe(GameEvent::Moved {
            ply: &ply,
            time_ms: 0,
            book: true,
        });
        moves.push(MoveRecord {
            ply,
            book: true,
            time_ms: 0,
            score: None,
            depth: None,
            nodes: None,
            clock_ms: None,
        });
    }

    // Both engines ready.
    let variant = start.start.variant();
    for c in Color::ALL {
        if let Err(e) = seats[c.index()].ready(variant, cfg) {
            seats[c.index()].kill();
            return finish(
                &game,
                moves,
                Outcome::win(!c),
                Reason::StartFailure,
                format!("{} ({}) {e}", names[c.index()], c.name()),
            );
        }
    }

    // Each side's clock (its own time control, or the match's); a side without one is shown
    // the mover's values in `go`.
    let side_limits = [
        seats[0].spec.limit.unwrap_or(cfg.limit),
        seats[1].spec.limit.unwrap_or(cfg.limit),
    ];
    let tc = side_limits.map(|l| match l {
        Limit::Clock {
            moves,
            base_ms,
            inc_ms,
        } => Some((base_ms as i64, inc_ms as i64, moves)),
        _ => None,
    });
    let mut clock = tc.map(|t| t.map_or(0, |(base, _, _)| base));
    let mut moved = [0u32; 2];
    let margin = cfg.time_margin_ms as i64;

    loop {
        if let Some(r) = game.result() {
            let (o, reason) = core_reason(r);
            return finish(&game, moves, o, reason, r.to_string());
        }
        if let Some(max) = cfg.adjudication.max_plies {
            if moves.len() >= max as usize {
                return finish(
                    &game,
                    moves,
                    Outcome::Draw,
                    Reason::MaxPlies,
                    format!("{max} plies played"),
                );
            }
        }
        let side = game.position().side_to_move();
        let s = side.index();
        let plies: Vec<TruePly> = moves.iter().map(|m| m.ply).collect();
        let ranks = seats[s].spec.ranks;
        let position = view::engine_position_command(&start.start_fen, &plies, side, ranks);
        let limit = side_limits[s];
        let (go, timeout_ms, on_clock) = match limit {
            Limit::Clock { .. } => {
                let (_, own_inc, period) = tc[s].expect("a clock");
                let shown = |c: usize| match tc[c] {
                    Some((_, inc, _)) => (clock[c], inc),
                    None => (clock[s], own_inc),
                };
                let ((wtime, winc), (btime, binc)) = (shown(0), shown(1));
                let mut go = format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}");
                if let Some(m) = period {
                    go.push_str(&format!(" movestogo {}", m - moved[s] % m));
                }
                (go, (clock[s] + margin).max(1) as u64, true)
            }
            Limit::MoveTime(t) => (format!("go movetime {t}"), t + cfg.time_margin_ms, true),
            Limit::Nodes(n) => (format!("go nodes {n}"), cfg.move_timeout_ms, false),
            Limit::Depth(d) => (format!("go depth {d}"), cfg.move_timeout_ms, false),
        };
        let who = format!("{} ({})", names[s], side.name());
        let seat = &mut seats[s];
        let process = seat.process.as_mut().expect("ready");
        let reply = match process.go(
            &position,
            &go,
            Duration::from_millis(timeout_ms),
            abort,
            &mut |line| observe(GameEvent::Info { line }),
        ) {
            Ok(r) => r,
            Err(EngineError::Aborted) => return None,
            Err(e) => {
                seat.kill();
                let (reason, detail) = match e {
                    EngineError::Timeout if on_clock => (
                        Reason::TimeForfeit,
                        format!("{who} did not move within {timeout_ms} ms"),
                    ),
                    EngineError::Timeout => (
                        Reason::NoAnswer,
                        format!("{who} gave no bestmove within {timeout_ms} ms"),
                    ),
                    _ => (
                        Reason::Crash,
                        format!("{who} exited (or closed its output) during its move"),
                    ),
                };
                return finish(&game, moves, Outcome::win(!side), reason, detail);
            }
        };
        let elapsed = reply.elapsed.as_millis() as i64;
        let mut clock_after = None;
        match limit {
            Limit::Clock { .. } => {
                let (base, inc, period) = tc[s].expect("a clock");
                clock[s] -= elapsed;
                if clock[s] < -margin {
                    seat.kill();
                    return finish(
                        &game,
                        moves,
                        Outcome::win(!side),
                        Reason::TimeForfeit,
                        format!("{who} used {elapsed} ms, {} ms past its clock", -clock[s]),
                    );
                }
                clock[s] += inc;
                moved[s] += 1;
                if let Some(m) = period {
                    if moved[s] % m == 0 {
                        clock[s] += base;
                    }
                }
                clock_after = Some(clock[s]);
            }
            Limit::MoveTime(t) if elapsed > (t + cfg.time_margin_ms) as i64 => {
                seat.kill();
                return finish(
                    &game,
                    moves,
                    Outcome::win(!side),
                    Reason::TimeForfeit,
                    format!("{who} used {elapsed} ms for movetime {t}"),
                );
            }
            _ => {}
        }
        let word = reply.bestmove.as_str();
        let parsed = ranks
            .incoming(word)
            .filter(|w| w.len() == 4)
            .and_then(|w| Move::parse(&w));
        let mv = match parsed {
            Some(m) if game.position().is_legal(m) => m,
            _ => {
                let why = if word.is_empty() {
                    "an empty bestmove".to_string()
                } else if parsed.is_some() {
                    format!("the illegal move '{word}'")
                } else {
                    format!(
                        "'{}', not a move",
                        word.chars().take(40).collect::<String>()
                    )
                };
                // The process may be in any state after a bad move: start afresh next game.
                seat.kill();
                return finish(
                    &game,
                    moves,
                    Outcome::win(!side),
                    Reason::IllegalMove,
                    format!("{who} played {why}"),
                );
            }
        };
        let ply = true_ply(game.position(), mv);
        if let Err(e) = apply(&mut game, &ply) {
            // A legal move always plays on the true position; kept as a guard.
            seat.kill();
            return finish(
                &game,
                moves,
                Outcome::win(!side),
                Reason::IllegalMove,
                format!("{who} played {mv}: {e}"),
            );
        }
        observe(GameEvent::Moved {
            ply: &ply,
            time_ms: elapsed.max(0) as u64,
            book: false,
        });
        moves.push(MoveRecord {
            ply,
            book: false,
            time_ms: elapsed.max(0) as u64,
            score: reply.score,
            depth: reply.depth,
            nodes: reply.nodes,
            clock_ms: clock_after,
        });
        if game.result().is_none() {
            if let Some((o, r, d)) = adjudicate(&moves, &cfg.adjudication) {
                return finish(&game, moves, o, r, d);
            }
        }
    }
}

/// The FEN of a position with the identities of its face-down pieces forgotten.
pub fn public_fen(pos: &Position) -> String {
    let mut p = *pos;
    p.clear_deal();
    p.fen()
}

impl GameRecord {
    /// The record of this game as it is written (see protocol.md, "Match runner"); the match's
    /// identity is added by the runner.
    pub fn entry(&self, game: u64, pair: u64, variant: &str) -> GameEntry {
        let moves = self
            .moves
            .iter()
            .map(|m| MoveEntry {
                mv: m.ply.mv.to_string(),
                side: m.ply.mover.name().to_string(),
                flip: m.ply.flip.map(|p| p.char().to_string()),
                captured: m.ply.captured.map(|p| p.char().to_string()),
                red_view: view::move_text(&m.ply, Some(Color::Red)),
                black_view: view::move_text(&m.ply, Some(Color::Black)),
                book: m.book,
                time_ms: m.time_ms,
                score: m.score,
                depth: m.depth,
                nodes: m.nodes,
                clock_ms: m.clock_ms,
            })
            .collect();
        let winner = match self.outcome {
            Outcome::RedWins => Some(self.names[0].clone()),
            Outcome::BlackWins => Some(self.names[1].clone()),
            Outcome::Draw => None,
        };
        GameEntry {
            game,
            pair,
            variant: variant.to_string(),
            red: self.names[0].clone(),
            black: self.names[1].clone(),
            red_limit: self.limits[0].clone(),
            black_limit: self.limits[1].clone(),
            start_fen: self.start_fen.clone(),
            deal: super::deal::deal_text(&self.deal),
            moves,
            plies: self.moves.len() as u64,
            result: self.outcome.text().to_string(),
            winner,
            reason: self.reason.as_str().to_string(),
            detail: self.detail.clone(),
            final_fen: self.final_fen.clone(),
            match_: None,
        }
    }
}
