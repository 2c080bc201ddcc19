//! The protocol loop: a reader thread turns input into lines, the loop waits on those lines and
//! on the engine's reports at once, so that `isready`, `stop`, `ponderhit` and `quit` are answered
//! while a search runs.
//!
//! The loop owns the session state: the options, the game the next search starts from, and what
//! the engine is doing (a `Job`). Searches run in the engine layer; `perft` runs on a helper
//! thread. Every reply goes through [`Output`], which writes one ASCII line at a time and flushes.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{never, select, unbounded, Receiver, Sender};

use super::command::{self, Command, Dialect, GoCommand};
use super::format;
use super::options::{self, Effect, OptionId, Settings, Timing};
use super::position::{self, GameState};
use crate::core::{perft, Color, Move, Position, Variant};
use crate::search::bench::{BenchRun, BenchSearch};
use crate::search::eval::Evaluator;
use crate::search::{Engine, Info, Limits, Report, Root};

/// Longest input line read; the rest of a longer line is skipped (a whole game of moves is far
/// shorter).
pub const MAX_LINE: usize = 1 << 20;

/// How long `quit` waits for the stopped search to hand in its move before leaving anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Phrases some hosts treat as an engine failure; they never appear in the output (an input
/// echoed back that contains one is altered).
pub const FORBIDDEN: [&str; 3] = ["Unknown command", "No such option", "Unknown option"];

// ---------------------------------------------------------------------------------------------
// output

/// Writes replies: one line each, ASCII only, flushed at once. A write error (the GUI closed the
/// pipe) is remembered and ends the loop.
pub struct Output<W: Write> {
    sink: W,
    closed: bool,
}

impl<W: Write> Output<W> {
    pub fn new(sink: W) -> Output<W> {
        Output {
            sink,
            closed: false,
        }
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    pub fn line(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut line = sanitize(text);
        line.push('\n');
        if self
            .sink
            .write_all(line.as_bytes())
            .and_then(|_| self.sink.flush())
            .is_err()
        {
            self.closed = true;
        }
    }

    fn info_string(&mut self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// Printable ASCII only (anything else becomes `?`), and none of the [`FORBIDDEN`] phrases (their
/// blank becomes `_`).
fn sanitize(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| {
            if c == ' ' || c.is_ascii_graphic() {
                c
            } else {
                '?'
            }
        })
        .collect();
    for phrase in FORBIDDEN {
        // ASCII lower-casing keeps byte offsets, so a match position is valid in `out` too.
        while let Some(at) = out.to_ascii_lowercase().find(&phrase.to_ascii_lowercase()) {
            let blank = at + phrase.find(' ').unwrap_or(0);
            out.replace_range(blank..blank + 1, "_");
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// input

/// What the reader thread sends.
enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes, skipped (its length).
    TooLong(usize),
}

/// Reads lines until end of input. Bytes that are not UTF-8 become U+FFFD (and then fail to
/// parse as anything), so no input can stop the reader.
fn read_lines(input: impl Read, lines: Sender<Input>) {
    let mut reader = BufReader::new(input);
    loop {
        let mut buf = Vec::new();
        let (length, complete) = match read_capped_line(&mut reader, &mut buf) {
            Ok(r) => r,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if length == 0 && !complete {
            return; // end of input
        }
        let message = if length > MAX_LINE {
            Input::TooLong(length)
        } else {
            Input::Line(String::from_utf8_lossy(&buf).into_owned())
        };
        if lines.send(message).is_err() || !complete {
            return;
        }
    }
}

/// Reads one line into `buf` (without the `\n`), keeping at most `MAX_LINE + 1` bytes of it.
/// Returns the full length of the line and whether it ended with `\n` (false at end of input).
fn read_capped_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<(usize, bool)> {
    let mut length = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok((length, false));
        }
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        length += chunk.len();
        let used = chunk.len() + found as usize;
        reader.consume(used);
        if found {
            return Ok((length, true));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// the session

/// A search the loop has asked for but not started yet (another one was still running).
struct Pending {
    root: Root,
    limits: Limits,
    /// `stop` (or a later `go`) arrived before it started: start it and stop it at once, so it
    /// still answers with exactly one `bestmove`.
    stop: bool,
    /// The `position` before this `go` was refused: no search, `bestmove (none)`.
    refused: bool,
}

/// A line of `perft` output; the last one ends the job.
enum PerftLine {
    Line(String),
    Last(String),
}

/// What the engine side of the session is doing.
// A session holds one job at a time: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Job {
    Idle,
    Search(Search),
    /// `go infinite` or `go ponder` in a position without a legal move: no search runs, and
    /// `bestmove` waits for `stop` (or `ponderhit` without `infinite`), as UCI requires.
    Held {
        infinite: bool,
        pondering: bool,
    },
    Bench(Bench),
}

struct Search {
    /// The root position, for checking the reported moves.
    position: Position,
    /// Moves the search was limited to (empty: all).
    searchmoves: Vec<Move>,
    pondering: bool,
    infinite: bool,
    stop_sent: bool,
    /// The latest report of the first line (multipv 1), its PV cleaned: the base of the final
    /// `info` line sent before `bestmove`.
    last_main: Option<Box<(Info, Vec<Move>)>>,
}

/// `bench`: the positions of `jieqi bench` searched one after another, each by a fresh engine
/// (`search::bench`), while the loop keeps answering.
struct Bench {
    run: BenchRun,
    /// The search of the position being searched.
    current: Option<BenchSearch>,
    /// Nodes of the position being searched (its latest report).
    current_nodes: u64,
    aborted: bool,
}

struct Session<W: Write> {
    out: Output<W>,
    dialect: Dialect,
    settings: Settings,
    engine: Engine,
    /// The game the next search starts from.
    game: GameState,
    /// UCCI `banmoves` for the current position.
    banned: Vec<Move>,
    report_tx: Sender<Report>,
    report_rx: Receiver<Report>,
    job: Job,
    pending: VecDeque<Pending>,
    /// Lines of a running `perft`.
    perft: Option<Receiver<PerftLine>>,
    /// `perft` commands that arrived while one was running (each with its position), served in
    /// order.
    perft_queue: VecDeque<(Position, u32)>,
    /// `ucinewgame` arrived during a search: clear the hash before the next one.
    clear_hash_pending: bool,
    /// The last `position` command was refused: a `go` before the next accepted position (or
    /// `ucinewgame`, or a variant change) answers `bestmove (none)` instead of searching the
    /// previous position, whose move the GUI could not play.
    position_refused: bool,
    input_closed: bool,
    quitting: bool,
}

/// Runs the protocol on `input` and `output` until `quit`, the end of input (after any search
/// with a limit has finished), or a closed output.
pub fn run<R, W>(input: R, output: W)
where
    R: Read + Send + 'static,
    W: Write,
{
    let (line_tx, line_rx) = unbounded();
    // Not joined: a blocked read must not keep the process alive after `quit`.
    thread::spawn(move || read_lines(input, line_tx));
    let settings = Settings::default();
    let (report_tx, report_rx) = unbounded();
    let mut session = Session {
        out: Output::new(output),
        dialect: Dialect::Uci,
        engine: Engine::new(settings.engine_options()),
        game: GameState::startpos(settings.variant),
        settings,
        banned: Vec::new(),
        report_tx,
        report_rx,
        job: Job::Idle,
        pending: VecDeque::new(),
        perft: None,
        perft_queue: VecDeque::new(),
        clear_hash_pending: false,
        position_refused: false,
        input_closed: false,
        quitting: false,
    };
    session.event_loop(line_rx);
    session.finish();
}

impl<W: Write> Session<W> {
    fn event_loop(&mut self, lines: Receiver<Input>) {
        let no_lines = never();
        let no_perft = never();
        while !self.finished() {
            let line_rx = if self.input_closed {
                no_lines.clone()
            } else {
                lines.clone()
            };
            let perft_rx = self.perft.clone().unwrap_or_else(|| no_perft.clone());
            let report_rx = self.report_rx.clone();
            select! {
                recv(line_rx) -> msg => match msg {
                    Ok(Input::Line(line)) => self.handle_line(&line),
                    Ok(Input::TooLong(n)) => self.out.info_string(&format!(
                        "ignored a line of {n} bytes: lines are limited to {MAX_LINE} bytes"
                    )),
                    Err(_) => self.input_ended(),
                },
                recv(report_rx) -> report => {
                    if let Ok(report) = report {
                        self.on_report(report);
                    }
                }
                recv(perft_rx) -> line => match line {
                    Ok(PerftLine::Line(line)) => self.out.line(&line),
                    Ok(PerftLine::Last(line)) => {
                        // Finished before the last line is out: a command sent after that
                        // line finds no perft running.
                        self.perft = None;
                        self.out.line(&line);
                        self.next_perft();
                    }
                    Err(_) => {
                        self.perft = None;
                        self.next_perft();
                    }
                },
            }
        }
    }

    fn finished(&self) -> bool {
        self.quitting
            || self.out.is_closed()
            || (self.input_closed
                && matches!(self.job, Job::Idle)
                && self.pending.is_empty()
                && self.perft.is_none()
                && self.perft_queue.is_empty())
    }

    /// Leaves the engine: dropped normally, but leaked if its search did not stop in time, so
    /// that a stuck search cannot keep the process from exiting.
    fn finish(self) {
        let Session { engine, job, .. } = self;
        if engine.is_searching() {
            std::mem::forget(engine);
        }
        if let Job::Bench(Bench {
            current: Some(search),
            ..
        }) = job
        {
            if search.engine.is_searching() {
                std::mem::forget(search);
            }
        }
    }

    fn busy(&self) -> bool {
        !matches!(self.job, Job::Idle)
    }

    fn handle_line(&mut self, line: &str) {
        match command::parse(line, self.dialect) {
            Ok(cmd) => self.execute(cmd),
            Err(e) => {
                if matches!(
                    e,
                    command::ParseError::Invalid {
                        command: "position",
                        ..
                    }
                ) {
                    self.position_refused = true;
                }
                self.out.info_string(&e.to_string())
            }
        }
    }

    fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Empty | Command::Debug => {}
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position(p) => match position::build(&p, self.settings.variant) {
                Ok((game, warnings)) => {
                    for w in warnings {
                        self.out.info_string(&format!("position: warning: {w}"));
                    }
                    self.game = game;
                    self.banned.clear();
                    self.position_refused = false;
                }
                Err(e) => {
                    self.position_refused = true;
                    self.out
                        .info_string(&format!("position: {e}; the previous position is kept"))
                }
            },
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => self.quit(),
            Command::BanMoves(moves) => self.banned = moves,
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
            Command::Eval => {
                let pos = self.game.position();
                let draw_scaling = self.settings.params.get(pos.variant()).draw_scaling;
                let custom = self
                    .settings
                    .weights
                    .as_deref()
                    .map(|w| Evaluator::new(Some(w)));
                let eval = custom.as_ref().unwrap_or_else(|| Evaluator::built_in());
                for line in format::eval_lines(pos, eval, draw_scaling) {
                    self.out.line(&line);
                }
            }
        }
    }

    // ---- handshake and options ----

    fn handshake(&mut self, dialect: Dialect) {
        let switching = self.dialect != dialect;
        self.dialect = dialect;
        self.out
            .line(&format!("id name jieqi {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the jieqi developers");
        for line in options::option_lines(dialect) {
            self.out.line(&line);
        }
        if dialect == Dialect::Ucci && switching {
            // UCCI is spoken only by Xiangqi GUIs.
            self.select_variant(Variant::Xiangqi);
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Ucci => "ucciok",
        });
    }

    /// Switches the rules; the position becomes the new variant's start.
    fn select_variant(&mut self, variant: Variant) {
        if variant != self.settings.variant {
            self.settings.variant = variant;
            self.reset_game();
        }
    }

    fn reset_game(&mut self) {
        self.game = GameState::startpos(self.settings.variant);
        self.banned.clear();
        self.position_refused = false;
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(spec) = options::find(name) else {
            let e = options::OptionError::NoSuchName(name.to_string());
            self.out.info_string(&e.to_string());
            return;
        };
        if spec.timing == Timing::Idle && self.busy() {
            self.out.info_string(&format!(
                "ignored setoption '{}': not while a search runs; send it after bestmove",
                spec.name
            ));
            return;
        }
        let old_variant = self.settings.variant;
        match self.settings.apply(spec, value) {
            Err(e) => self.out.info_string(&e.to_string()),
            Ok(Effect::Press(spec)) => match spec.id {
                OptionId::NewGame => self.new_game(),
                OptionId::ClearHash => self.clear_hash(),
                _ => {} // the table has no other buttons
            },
            Ok(Effect::Set(spec)) => {
                if self.settings.variant != old_variant {
                    self.reset_game();
                }
                if spec.timing == Timing::NextSearch {
                    if self.busy() {
                        self.out.info_string(&format!(
                            "setoption {} = {}: takes effect at the next search",
                            spec.name,
                            self.settings.value_text(spec.id)
                        ));
                    } else {
                        self.sync_engine();
                    }
                }
            }
        }
    }

    /// Hands changed engine settings (and a pending hash clear) to the idle engine.
    fn sync_engine(&mut self) {
        let wanted = self.settings.engine_options();
        if *self.engine.options() != wanted {
            if let Err(e) = self.engine.set_options(wanted) {
                self.out.info_string(&format!("options not applied: {e}"));
            }
        }
        if self.clear_hash_pending {
            self.clear_hash();
        }
    }

    fn clear_hash(&mut self) {
        self.clear_hash_pending = false;
        if let Err(e) = self.engine.clear_hash() {
            self.out.info_string(&format!("Clear Hash: {e}"));
        }
    }

    fn new_game(&mut self) {
        self.reset_game();
        if self.busy() {
            self.clear_hash_pending = true;
        } else {
            self.clear_hash();
        }
    }

    // ---- searching ----

    /// Turns a `go` line into the engine's root and limits, saying what was left out.
    fn prepare(&mut self, go: &GoCommand) -> (Root, Limits) {
        for problem in &go.problems {
            self.out.info_string(&problem.to_string());
        }
        let root = self.game.root();
        let pos = root.position;
        let side = pos.side_to_move();
        let mut go = go.clone();
        if go.time.is_some() || go.opptime.is_some() {
            // UCCI clocks are the mover's and the opponent's, in seconds unless usemillisec.
            let unit = if self.settings.use_millisec { 1 } else { 1000 };
            let scale = |v: Option<i64>| v.map(|t| t.saturating_mul(unit));
            let (own, opp) = (
                (scale(go.time), scale(go.increment)),
                (scale(go.opptime), scale(go.oppincrement)),
            );
            let ((wtime, winc), (btime, binc)) = match side {
                Color::Red => (own, opp),
                Color::Black => (opp, own),
            };
            go.wtime = wtime.or(go.wtime);
            go.winc = winc.or(go.winc);
            go.btime = btime.or(go.btime);
            go.binc = binc.or(go.binc);
        }
        let mut depth = go.depth;
        if let (None, Some(n)) = (depth, go.mate) {
            depth = Some(n.saturating_mul(2).max(1));
            self.out.info_string(&format!(
                "go: mate {n} is searched as depth {} (there is no separate mate search)",
                depth.unwrap_or(1)
            ));
        }
        let legal = pos.legal_move_list();
        let mut searchmoves = Vec::new();
        for &m in &go.searchmoves {
            if legal.contains(m) {
                searchmoves.push(m);
            } else {
                self.out
                    .info_string(&format!("go: searchmoves: {m} is not legal here; left out"));
            }
        }
        if !self.banned.is_empty() {
            if searchmoves.is_empty() {
                searchmoves = legal.iter().copied().collect();
            }
            searchmoves.retain(|m| !self.banned.contains(m));
            if searchmoves.is_empty() && !legal.is_empty() {
                self.out
                    .info_string("banmoves: every legal move is banned; searching all of them");
            }
        } else if searchmoves.is_empty() && !go.searchmoves.is_empty() && !legal.is_empty() {
            self.out
                .info_string("go: no legal move in searchmoves; searching all moves");
        }
        let limits = Limits {
            depth,
            nodes: go.nodes,
            movetime: go.movetime,
            wtime: go.wtime,
            btime: go.btime,
            winc: go.winc,
            binc: go.binc,
            movestogo: go.movestogo,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        (root, limits)
    }

    fn go(&mut self, go: GoCommand) {
        let refused = self.position_refused;
        let (root, limits) = if refused {
            (self.game.root(), Limits::default())
        } else {
            self.prepare(&go)
        };
        if self.busy() || !self.pending.is_empty() {
            // One bestmove per go: the running search (and any waiting one) is stopped and
            // answers first; this one starts after them.
            self.out
                .info_string("go: a search is still running; it is stopped and answers first");
            for p in self.pending.iter_mut() {
                p.stop = true;
            }
            self.pending.push_back(Pending {
                root,
                limits,
                stop: false,
                refused,
            });
            self.stop_job();
        } else if refused {
            self.answer_refused();
        } else {
            self.start(root, limits, false);
        }
    }

    /// A `go` after a refused `position`: nothing is searched.
    fn answer_refused(&mut self) {
        self.out.info_string(
            "go: the last position command was refused; no search until a position is accepted",
        );
        self.out
            .line(&format::bestmove_line(None, None, self.dialect));
    }

    fn start(&mut self, root: Root, limits: Limits, stop_at_once: bool) {
        self.engine.wait();
        self.sync_engine();
        let pos = root.position;
        if pos.has_no_moves() {
            // A loss in every variant: nothing to search.
            self.out.line(&format::no_move_info(self.dialect));
            if (limits.infinite || limits.ponder) && !stop_at_once && !self.input_closed {
                self.job = Job::Held {
                    infinite: limits.infinite,
                    pondering: limits.ponder,
                };
            } else {
                self.out
                    .line(&format::bestmove_line(None, None, self.dialect));
                self.start_pending();
            }
            return;
        }
        let search = Search {
            position: pos,
            searchmoves: limits.searchmoves.clone(),
            pondering: limits.ponder,
            infinite: limits.infinite,
            stop_sent: false,
            last_main: None,
        };
        match self.engine.go(root, limits, self.report_tx.clone()) {
            Ok(()) => {
                self.job = Job::Search(search);
                if stop_at_once || (self.input_closed && (search_is_open(&self.job))) {
                    self.stop_job();
                }
            }
            Err(e) => {
                // The GUI waits for a bestmove whatever happened: give a legal one.
                self.out
                    .info_string(&format!("go: the engine refused: {e}"));
                let best = first_choice(&search);
                self.out
                    .line(&format::bestmove_line(best, None, self.dialect));
                self.start_pending();
            }
        }
    }

    fn start_pending(&mut self) {
        while let Some(p) = self.pending.pop_front() {
            if p.refused {
                self.answer_refused();
                continue;
            }
            self.start(p.root, p.limits, p.stop);
            return;
        }
    }

    /// Asks whatever runs to stop; its bestmove follows.
    fn stop_job(&mut self) {
        match &mut self.job {
            Job::Idle => {}
            Job::Search(s) => {
                if !s.stop_sent {
                    s.stop_sent = true;
                    self.engine.stop();
                }
            }
            Job::Held { .. } => {
                self.job = Job::Idle;
                self.out
                    .line(&format::bestmove_line(None, None, self.dialect));
                self.start_pending();
            }
            Job::Bench(b) => {
                if !b.aborted {
                    b.aborted = true;
                    if let Some(search) = &b.current {
                        search.engine.stop();
                    }
                }
            }
        }
    }

    fn stop(&mut self) {
        for p in self.pending.iter_mut() {
            p.stop = true;
        }
        self.stop_job();
    }

    fn ponderhit(&mut self) {
        for p in self.pending.iter_mut() {
            p.limits.ponder = false;
        }
        match &mut self.job {
            Job::Search(s) if s.pondering => {
                s.pondering = false;
                self.engine.ponderhit();
            }
            Job::Held {
                infinite,
                pondering,
            } if *pondering => {
                *pondering = false;
                if !*infinite {
                    self.stop_job();
                }
            }
            _ => {}
        }
    }

    fn quit(&mut self) {
        self.pending.clear();
        self.perft_queue.clear();
        self.stop_job();
        let deadline = Instant::now() + QUIT_GRACE;
        while self.busy() {
            match self.report_rx.recv_deadline(deadline) {
                Ok(report) => self.on_report(report),
                Err(_) => break,
            }
        }
        if self.dialect == Dialect::Ucci {
            self.out.line("bye");
        }
        self.quitting = true;
    }

    /// End of input: searches that would wait for `stop` forever are stopped; searches with a
    /// limit finish and print their move, then the loop ends.
    fn input_ended(&mut self) {
        self.input_closed = true;
        for p in self.pending.iter_mut() {
            if p.limits.infinite || p.limits.ponder {
                p.stop = true;
            }
        }
        if search_is_open(&self.job) {
            self.stop_job();
        }
    }

    // ---- reports ----

    fn on_report(&mut self, report: Report) {
        match report {
            Report::Info(info) => self.on_info(info),
            Report::Text(text) => {
                // Bench output is summed up, not streamed.
                if !matches!(self.job, Job::Bench(_)) {
                    self.out.info_string(&text);
                }
            }
            Report::Done { best, ponder } => self.on_done(best, ponder),
        }
    }

    fn on_info(&mut self, info: Info) {
        match &mut self.job {
            Job::Search(s) => {
                let pv = format::clean_pv(&s.position, &info.pv);
                let line = format::info_line(&info, &pv, self.settings.show_wdl, self.dialect);
                self.out.line(&line);
                if info.multipv <= 1 {
                    s.last_main = Some(Box::new((info, pv)));
                }
            }
            Job::Bench(b) => b.current_nodes = b.current_nodes.max(info.nodes),
            Job::Idle | Job::Held { .. } => {}
        }
    }

    fn on_done(&mut self, best: Option<Move>, ponder: Option<Move>) {
        match std::mem::replace(&mut self.job, Job::Idle) {
            Job::Search(s) => {
                self.engine.wait();
                let (best, ponder) = self.checked_moves(&s, best, ponder);
                if let Some(line) = self.final_info(&s, best) {
                    self.out.line(&line);
                }
                self.out
                    .line(&format::bestmove_line(best, ponder, self.dialect));
                self.sync_engine();
                self.start_pending();
            }
            Job::Bench(b) => self.bench_next(b, best),
            other => self.job = other, // no search of ours: nothing to answer
        }
    }

    /// The last scored line before `bestmove`, which GUIs take as the result of the search: the
    /// first line (multipv 1) of the latest report, with a PV that starts with the move played
    /// (only that move, marked as a lower bound, when the search played another move than the
    /// latest report's), and the search's total nodes and time. `None` when nothing was
    /// reported.
    fn final_info(&self, s: &Search, best: Option<Move>) -> Option<String> {
        let best = best?;
        let (mut info, mut pv) = *s.last_main.clone()?;
        if pv.first() != Some(&best) {
            pv = vec![best];
            if info.bound == crate::search::Bound::Exact {
                info.bound = crate::search::Bound::Lower;
            }
        }
        if let Some((nodes, time_ms)) = self.engine.last_search_totals() {
            info.nodes = info.nodes.max(nodes);
            info.time_ms = info.time_ms.max(time_ms);
            info.nps = info.nodes * 1000 / info.time_ms.max(1);
        }
        info.multipv = 1;
        Some(format::info_line(
            &info,
            &pv,
            self.settings.show_wdl,
            self.dialect,
        ))
    }

    /// The reported moves as they may be sent: a legal best move (the first allowed move if
    /// the engine gave none or an illegal one), and a ponder move only when it is legal after
    /// the best move and neither of them flips a piece.
    fn checked_moves(
        &mut self,
        s: &Search,
        best: Option<Move>,
        ponder: Option<Move>,
    ) -> (Option<Move>, Option<Move>) {
        let pos = &s.position;
        let allowed =
            |m: Move| pos.is_legal(m) && (s.searchmoves.is_empty() || s.searchmoves.contains(&m));
        let best = match best {
            Some(m) if allowed(m) => Some(m),
            other => {
                let fallback = first_choice(s);
                if fallback.is_some() {
                    let said = other.map_or_else(|| "no move".to_string(), |m| m.to_string());
                    self.out.info_string(&format!(
                        "the search returned {said}, which is not playable here; playing {}",
                        fallback.map_or_else(String::new, |m| m.to_string())
                    ));
                }
                fallback
            }
        };
        let ponder = match (best, ponder) {
            (Some(b), Some(p)) if !pos.is_flip(b) => {
                let mut after = *pos;
                after.play_unchecked(b, None);
                (after.is_legal(p) && !after.is_flip(p)).then_some(p)
            }
            _ => None,
        };
        (best, ponder)
    }

    // ---- extras ----

    fn display(&mut self) {
        let result = self.game.game().result().map(|r| r.to_string());
        for line in format::display_lines(self.game.position(), self.game.game().len(), result) {
            self.out.line(&line);
        }
        self.out
            .line(&format!("Options: {}", self.settings.summary(self.dialect)));
        if !self.banned.is_empty() {
            let banned: Vec<String> = self.banned.iter().map(|m| m.to_string()).collect();
            self.out
                .line(&format!("Banned moves: {}", banned.join(" ")));
        }
    }

    /// Counts from the current position; while another perft runs, this one waits its turn.
    fn perft(&mut self, depth: u32) {
        let pos = *self.game.position();
        if self.perft.is_some() {
            self.perft_queue.push_back((pos, depth));
        } else {
            self.start_perft(pos, depth);
        }
    }

    fn next_perft(&mut self) {
        if let Some((pos, depth)) = self.perft_queue.pop_front() {
            self.start_perft(pos, depth);
        }
    }

    fn start_perft(&mut self, pos: Position, depth: u32) {
        let (tx, rx) = unbounded();
        self.perft = Some(rx);
        // On a helper thread, so that the loop keeps answering (and `quit` is not delayed).
        thread::spawn(move || {
            let started = Instant::now();
            let mut total = 0u64;
            for &m in pos.legal_move_list().iter() {
                let n = perft::perft_move(&pos, m, depth);
                total += n;
                if tx.send(PerftLine::Line(format!("{m}: {n}"))).is_err() {
                    return;
                }
            }
            let secs = started.elapsed().as_secs_f64();
            let _ = tx.send(PerftLine::Line(String::new()));
            let _ = tx.send(PerftLine::Line(format!(
                "Time: {} ms",
                (secs * 1000.0).round() as u64
            )));
            let _ = tx.send(PerftLine::Line(format!(
                "Nodes/second: {}",
                (total as f64 / secs.max(1e-9)) as u64
            )));
            let _ = tx.send(PerftLine::Last(format!("Nodes searched: {total}")));
        });
    }

    fn bench(&mut self, depth: Option<u32>) {
        if self.busy() || !self.pending.is_empty() {
            self.out
                .info_string("ignored 'bench': a search is running; send it after bestmove");
            return;
        }
        let bench = Bench {
            run: BenchRun::new(depth, self.settings.threads),
            current: None,
            current_nodes: 0,
            aborted: false,
        };
        self.bench_next(bench, None);
    }

    /// Books the position just searched (if any) and starts the next, or prints the totals.
    fn bench_next(&mut self, mut b: Bench, best: Option<Move>) {
        if let Some(mut search) = b.current.take() {
            search.engine.wait();
            let line = b.run.finish(&search, b.current_nodes, best);
            self.out.line(&line);
        }
        while !b.aborted {
            let Some((mut search, root, limits)) = b.run.next_search() else {
                break;
            };
            match search.engine.go(root, limits, self.report_tx.clone()) {
                Ok(()) => {
                    b.current = Some(search);
                    b.current_nodes = 0;
                    self.job = Job::Bench(b);
                    return;
                }
                Err(e) => {
                    self.out
                        .info_string(&format!("bench: the engine refused: {e}"));
                    b.aborted = true;
                }
            }
        }
        for line in b.run.totals() {
            self.out.line(&line);
        }
        self.start_pending();
    }
}

/// A search that only `stop` ends (it would never answer once the input is gone).
fn search_is_open(job: &Job) -> bool {
    match job {
        Job::Search(s) => s.infinite || s.pondering,
        Job::Held { .. } => true,
        Job::Idle | Job::Bench(_) => false,
    }
}

/// The first move the search was allowed to play, if any.
fn first_choice(s: &Search) -> Option<Move> {
    s.searchmoves
        .first()
        .copied()
        .or_else(|| s.position.legal_move_list().as_slice().first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_keeps_ascii_and_breaks_forbidden_phrases() {
        assert_eq!(sanitize("caf\u{e9}\tx"), "caf??x");
        assert_eq!(
            sanitize("ignored 'unknown Command' and No such option"),
            "ignored 'unknown_Command' and No_such option"
        );
    }

    #[test]
    fn long_lines_are_cut_and_reported() {
        let mut text = vec![b'a'; MAX_LINE + 10];
        text.extend_from_slice(b"\nisready\r\n\xff\xfe\nlast");
        let (tx, rx) = unbounded();
        read_lines(&text[..], tx);
        let got: Vec<Input> = rx.iter().collect();
        assert!(matches!(got[0], Input::TooLong(n) if n == MAX_LINE + 10));
        assert!(matches!(&got[1], Input::Line(l) if l == "isready\r"));
        assert!(matches!(&got[2], Input::Line(l) if l == "\u{fffd}\u{fffd}"));
        assert!(matches!(&got[3], Input::Line(l) if l == "last"));
        assert_eq!(got.len(), 4);
    }

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        run(std::io::Cursor::new(input.as_bytes().to_vec()), &mut out);
        String::from_utf8(out).expect("ASCII output")
    }

    #[test]
    fn a_piped_session_runs_to_the_end() {
        let out = session("uci\nisready\nposition startpos\ngo nodes 500\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.first(), Some(&"id name jieqi 0.1.0"));
        assert!(lines.contains(&"uciok"));
        assert!(lines.contains(&"readyok"));
        assert!(
            lines.last().is_some_and(|l| l.starts_with("bestmove ")),
            "{out}"
        );
    }

    #[test]
    fn infinite_searches_end_with_the_input() {
        let out = session("go infinite\n");
        assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
        let out = session("position fen 4k4/4R4/3RP4/9/9/9/9/9/9/5K3 b - 0 1\ngo infinite\n");
        assert!(
            out.contains("info depth 0 score mate 0\nbestmove (none)\n"),
            "{out}"
        );
    }

    #[test]
    fn ucci_session() {
        let out = session("ucci\nposition startpos\ngo nodes 500\nquit\n");
        assert!(out.contains("ucciok"));
        assert!(out.contains("option hashsize type spin"));
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }
}
