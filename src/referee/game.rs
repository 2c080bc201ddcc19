//! One game between two engine processes, refereed on the true position.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::config::{EngineSpec, Limit};
use super::engine::{EngineError, EngineProcess, Score, SearchReply};
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
    let mut table = Table::new(start, seats, cfg);
    observe(GameEvent::Started {
        names: &table.names,
        start_fen: &start.start_fen,
    });
    let stop = match table.play_opening(observe).and_then(|()| table.ready()) {
        Err(stop) => stop,
        Ok(()) => loop {
            if let Err(stop) = table.turn(abort, observe) {
                break stop;
            }
        },
    };
    match stop {
        Stop::Over(record) => Some(*record),
        Stop::Aborted => None,
    }
}

/// A side's clock under a clock time control.
#[derive(Clone, Copy, Debug)]
struct Clock {
    base_ms: i64,
    inc_ms: i64,
    /// `base_ms` is added again every this many moves.
    period: Option<u32>,
    /// Time left; may run below zero by the margin.
    left_ms: i64,
    /// Moves made on this clock.
    moved: u32,
}

impl Clock {
    /// The `movestogo` of the next move, with a period.
    fn moves_to_go(&self) -> Option<u32> {
        self.period.map(|m| m - self.moved % m)
    }

    /// Charges a move's `elapsed` time: the time left after it (increment and a new period's
    /// base added), or, when the clock ran more than `margin_ms` below zero, by how much.
    fn charge(&mut self, elapsed: i64, margin_ms: i64) -> Result<i64, i64> {
        self.left_ms -= elapsed;
        if self.left_ms < -margin_ms {
            return Err(-self.left_ms);
        }
        self.left_ms += self.inc_ms;
        self.moved += 1;
        if self.period.is_some_and(|m| self.moved.is_multiple_of(m)) {
            self.left_ms += self.base_ms;
        }
        Ok(self.left_ms)
    }
}

/// What limits one side's moves during a game: its clock, or a fixed limit per move.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Clock(Clock),
    MoveTime(u64),
    Nodes(u64),
    Depth(u32),
}

impl Budget {
    fn new(limit: Limit) -> Budget {
        match limit {
            Limit::Clock {
                moves,
                base_ms,
                inc_ms,
            } => Budget::Clock(Clock {
                base_ms: base_ms as i64,
                inc_ms: inc_ms as i64,
                period: moves,
                left_ms: base_ms as i64,
                moved: 0,
            }),
            Limit::MoveTime(t) => Budget::MoveTime(t),
            Limit::Nodes(n) => Budget::Nodes(n),
            Limit::Depth(d) => Budget::Depth(d),
        }
    }
}

/// Why a game stops before its next move.
enum Stop {
    /// The game ended: its record.
    Over(Box<GameRecord>),
    /// The match was interrupted: no result, no record.
    Aborted,
}

/// The `go` command for one move: what is sent, how long the runner waits for `bestmove`, and
/// whether running out of that time is a loss on time (else: no answer).
struct GoCommand {
    text: String,
    timeout_ms: u64,
    on_time: bool,
}

/// A game in progress: the true game, the engines and their budgets.
struct Table<'a> {
    start: &'a GameStart,
    seats: [&'a mut Seat; 2],
    cfg: &'a GameConfig,
    names: [String; 2],
    budgets: [Budget; 2],
    game: Game,
    moves: Vec<MoveRecord>,
}

impl<'a> Table<'a> {
    fn new(start: &'a GameStart, seats: [&'a mut Seat; 2], cfg: &'a GameConfig) -> Table<'a> {
        let dealt = super::deal::dealt(&start.start, &start.deal)
            .expect("the runner checks deals before the game");
        Table {
            start,
            names: [seats[0].spec.name.clone(), seats[1].spec.name.clone()],
            budgets: [0, 1].map(|i| Budget::new(seats[i].spec.limit.unwrap_or(cfg.limit))),
            seats,
            cfg,
            game: Game::new(dealt),
            moves: Vec::new(),
        }
    }

    /// The game ends: its record.
    fn finish(&mut self, outcome: Outcome, reason: Reason, detail: String) -> Stop {
        let limits = [0, 1].map(|i| {
            self.seats[i]
                .spec
                .limit
                .unwrap_or(self.cfg.limit)
                .to_string()
        });
        Stop::Over(Box::new(GameRecord {
            names: self.names.clone(),
            limits,
            start_fen: self.start.start_fen.clone(),
            deal: self.start.deal.clone(),
            moves: std::mem::take(&mut self.moves),
            outcome,
            reason,
            detail,
            final_fen: public_fen(self.game.position()),
        }))
    }

    /// The engine of `side` failed: it is killed (a fresh process plays its next game) and
    /// loses the game.
    fn engine_failed(&mut self, side: Color, reason: Reason, detail: String) -> Stop {
        self.seats[side.index()].kill();
        self.finish(Outcome::win(!side), reason, detail)
    }

    /// `name (colour)`, for details.
    fn who(&self, side: Color) -> String {
        format!("{} ({})", self.names[side.index()], side.name())
    }

    /// Plays the opening moves.
    fn play_opening(&mut self, observe: &mut dyn FnMut(GameEvent)) -> Result<(), Stop> {
        let start = self.start;
        for (i, &mv) in start.opening.iter().enumerate() {
            if self.game.result().is_some() {
                break;
            }
            let ply = true_ply(self.game.position(), mv);
            if let Err(e) = apply(&mut self.game, &ply) {
                // The runner checks openings; should one still fail, the game is a draw on
                // record.
                let detail = format!("opening move {} '{mv}' cannot be played: {e}", i + 1);
                return Err(self.finish(Outcome::Draw, Reason::MaxPlies, detail));
            }
            observe(GameEvent::Moved {
                ply: &ply,
                time_ms: 0,
                book: true,
            });
            self.moves.push(MoveRecord {
                ply,
                book: true,
                time_ms: 0,
                score: None,
                depth: None,
                nodes: None,
                clock_ms: None,
            });
        }
        Ok(())
    }

    /// Both engines started and ready for the game.
    fn ready(&mut self) -> Result<(), Stop> {
        let variant = self.start.start.variant();
        for c in Color::ALL {
            if let Err(e) = self.seats[c.index()].ready(variant, self.cfg) {
                let detail = format!("{} {e}", self.who(c));
                return Err(self.engine_failed(c, Reason::StartFailure, detail));
            }
        }
        Ok(())
    }

    /// The game's end by the rules or the ply limit, before the next move.
    fn check_end(&mut self) -> Result<(), Stop> {
        if let Some(r) = self.game.result() {
            let (o, reason) = core_reason(r);
            return Err(self.finish(o, reason, r.to_string()));
        }
        if let Some(max) = self.cfg.adjudication.max_plies {
            if self.moves.len() >= max as usize {
                let detail = format!("{max} plies played");
                return Err(self.finish(Outcome::Draw, Reason::MaxPlies, detail));
            }
        }
        Ok(())
    }

    /// The `go` for `side`'s next move. A side on a clock is sent both clocks; an opponent
    /// without one (a fixed limit) is shown the mover's values.
    fn go_command(&self, side: Color) -> GoCommand {
        let (margin, timeout) = (self.cfg.time_margin_ms, self.cfg.move_timeout_ms);
        match self.budgets[side.index()] {
            Budget::Clock(own) => {
                let shown = |c: Color| match self.budgets[c.index()] {
                    Budget::Clock(k) => (k.left_ms, k.inc_ms),
                    _ => (own.left_ms, own.inc_ms),
                };
                let ((wtime, winc), (btime, binc)) = (shown(Color::Red), shown(Color::Black));
                let mut text = format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}");
                if let Some(n) = own.moves_to_go() {
                    text.push_str(&format!(" movestogo {n}"));
                }
                let timeout_ms = (own.left_ms + margin as i64).max(1) as u64;
                GoCommand {
                    text,
                    timeout_ms,
                    on_time: true,
                }
            }
            Budget::MoveTime(t) => GoCommand {
                text: format!("go movetime {t}"),
                timeout_ms: t + margin,
                on_time: true,
            },
            Budget::Nodes(n) => GoCommand {
                text: format!("go nodes {n}"),
                timeout_ms: timeout,
                on_time: false,
            },
            Budget::Depth(d) => GoCommand {
                text: format!("go depth {d}"),
                timeout_ms: timeout,
                on_time: false,
            },
        }
    }

    /// Sends `side` the position and its `go`, and reads its reply.
    fn ask(
        &mut self,
        side: Color,
        abort: Option<&AtomicBool>,
        observe: &mut dyn FnMut(GameEvent),
    ) -> Result<SearchReply, Stop> {
        let plies: Vec<TruePly> = self.moves.iter().map(|m| m.ply).collect();
        let ranks = self.seats[side.index()].spec.ranks;
        let position = view::engine_position_command(&self.start.start_fen, &plies, side, ranks);
        let go = self.go_command(side);
        let process = self.seats[side.index()]
            .process
            .as_mut()
            .expect("both engines are ready during the game");
        let reply = process.go(
            &position,
            &go.text,
            Duration::from_millis(go.timeout_ms),
            abort,
            &mut |line| observe(GameEvent::Info { line }),
        );
        let who = self.who(side);
        let timeout_ms = go.timeout_ms;
        let (reason, detail) = match reply {
            Ok(r) => return Ok(r),
            Err(EngineError::Aborted) => return Err(Stop::Aborted),
            Err(EngineError::Timeout) if go.on_time => (
                Reason::TimeForfeit,
                format!("{who} did not move within {timeout_ms} ms"),
            ),
            Err(EngineError::Timeout) => (
                Reason::NoAnswer,
                format!("{who} gave no bestmove within {timeout_ms} ms"),
            ),
            Err(_) => (
                Reason::Crash,
                format!("{who} exited (or closed its output) during its move"),
            ),
        };
        Err(self.engine_failed(side, reason, detail))
    }

    /// Charges `side` the time its move took: the clock after the move (clocks only), or the
    /// loss on time.
    fn charge(&mut self, side: Color, elapsed: i64) -> Result<Option<i64>, Stop> {
        let who = self.who(side);
        let margin = self.cfg.time_margin_ms as i64;
        let charged = match &mut self.budgets[side.index()] {
            Budget::Clock(clock) => clock
                .charge(elapsed, margin)
                .map(Some)
                .map_err(|past| format!("{who} used {elapsed} ms, {past} ms past its clock")),
            Budget::MoveTime(t) if elapsed > *t as i64 + margin => {
                Err(format!("{who} used {elapsed} ms for movetime {t}"))
            }
            _ => Ok(None),
        };
        charged.map_err(|detail| self.engine_failed(side, Reason::TimeForfeit, detail))
    }

    /// The move `side` answered, if it is a legal move on the true position.
    fn read_move(&mut self, side: Color, word: &str) -> Result<Move, Stop> {
        let parsed = self.seats[side.index()]
            .spec
            .ranks
            .incoming(word)
            .filter(|w| w.len() == 4)
            .and_then(|w| Move::parse(&w));
        if let Some(m) = parsed.filter(|&m| self.game.position().is_legal(m)) {
            return Ok(m);
        }
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
        let detail = format!("{} played {why}", self.who(side));
        Err(self.engine_failed(side, Reason::IllegalMove, detail))
    }

    /// One move of the engine to move, then adjudication.
    fn turn(
        &mut self,
        abort: Option<&AtomicBool>,
        observe: &mut dyn FnMut(GameEvent),
    ) -> Result<(), Stop> {
        self.check_end()?;
        let side = self.game.position().side_to_move();
        let reply = self.ask(side, abort, observe)?;
        let elapsed = reply.elapsed.as_millis() as i64;
        let clock_ms = self.charge(side, elapsed)?;
        let mv = self.read_move(side, &reply.bestmove)?;
        let ply = true_ply(self.game.position(), mv);
        if let Err(e) = apply(&mut self.game, &ply) {
            // A legal move always plays on the true position; kept as a guard.
            let detail = format!("{} played {mv}: {e}", self.who(side));
            return Err(self.engine_failed(side, Reason::IllegalMove, detail));
        }
        let time_ms = elapsed.max(0) as u64;
        observe(GameEvent::Moved {
            ply: &ply,
            time_ms,
            book: false,
        });
        self.moves.push(MoveRecord {
            ply,
            book: false,
            time_ms,
            score: reply.score,
            depth: reply.depth,
            nodes: reply.nodes,
            clock_ms,
        });
        if self.game.result().is_none() {
            if let Some((o, r, d)) = adjudicate(&self.moves, &self.cfg.adjudication) {
                return Err(self.finish(o, r, d));
            }
        }
        Ok(())
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
