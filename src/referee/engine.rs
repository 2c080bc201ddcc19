//! One engine process driven over UCI.
//!
//! Two helper threads per process keep the referee from ever blocking on it: a reader turns its
//! standard output into lines on a channel (lines longer than [`MAX_LINE`] bytes are cut, bytes
//! that are not UTF-8 become U+FFFD, at most 1024 lines wait in the queue), and a writer sends
//! our commands (so an engine that stops reading cannot block a write). Every wait has a deadline. Standard error is discarded.
//! Dropping the handle kills the process.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, unbounded, Receiver, RecvTimeoutError, Sender};

use super::config::EngineSpec;
use crate::core::Variant;

/// Longest output line kept; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// Output lines held for the runner at most (each at most [`MAX_LINE`] bytes).
const QUEUED_LINES: usize = 1024;

/// How often a wait for `bestmove` looks at the runner's stop flag.
const ABORT_POLL: Duration = Duration::from_millis(25);

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output (exited or crashed).
    Exited,
    /// No expected reply before the deadline.
    Timeout,
    /// The runner was told to stop (Ctrl-C) while waiting.
    Aborted,
}

/// A search score as the engine reported it (from the side to move's point of view).
/// In records: `{"cp": N}` or `{"mate": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    Cp(i32),
    /// Mate in N moves; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates as +/-30000 minus the distance.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 30000 - n,
            Score::Mate(n) => -30000 - n,
        }
    }
}

/// The reply to a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReply {
    /// The word after `bestmove` (empty if there was none).
    pub bestmove: String,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last score, depth and nodes of the `info` lines of this search.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

enum Line {
    Text(String),
    Eof,
}

pub struct EngineProcess {
    child: Child,
    to_engine: Option<Sender<String>>,
    from_engine: Receiver<Line>,
    dead: bool,
}

fn read_lines(out: impl Read, tx: Sender<Line>) {
    let mut reader = BufReader::with_capacity(16 * 1024, out);
    let mut line: Vec<u8> = Vec::new();
    let mut overflow = false;
    loop {
        let (consumed, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => {
                if !line.is_empty() {
                    let _ = tx.send(Line::Text(String::from_utf8_lossy(&line).into_owned()));
                }
                let _ = tx.send(Line::Eof);
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    if !overflow {
                        let room = MAX_LINE.saturating_sub(line.len());
                        line.extend_from_slice(&buf[..i.min(room)]);
                    }
                    (i + 1, true)
                }
                None => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buf[..buf.len().min(room)]);
                    overflow = line.len() >= MAX_LINE;
                    (buf.len(), false)
                }
            },
        };
        reader.consume(consumed);
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            line.clear();
            overflow = false;
            if tx.send(Line::Text(text)).is_err() {
                return;
            }
        }
    }
}

fn parse_info(line: &str, reply: &mut SearchReply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "string" | "pv" => return,
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    reply.depth = Some(d);
                }
                i += 2;
            }
            "nodes" => {
                if let Some(n) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    reply.nodes = Some(n);
                }
                i += 2;
            }
            "score" => {
                let v = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                match (words.get(i + 1), v) {
                    (Some(&"cp"), Some(v)) => reply.score = Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => reply.score = Some(Score::Mate(v)),
                    _ => {}
                }
                i += 3;
            }
            _ => i += 1,
        }
    }
}

/// The type of an option as an engine declares it in its `uci` reply, as far as it limits the
/// values the option takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// `check`: `true` or `false`.
    Check,
    /// `spin`: a whole number within `min..=max` (as wide as the declaration leaves it).
    Spin { min: i64, max: i64 },
    /// `combo`: one of its `var` values, in any case.
    Combo(Vec<String>),
    /// `string`, `button` or a type of its own: any value.
    Free,
}

/// The name and type of the option an `option name <Name> type <type> ...` line declares; `None`
/// for any other line.
pub fn parse_option_line(line: &str) -> Option<(String, OptionType)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 4 || words[0] != "option" || words[1] != "name" {
        return None;
    }
    let at_type = words.iter().position(|&w| w == "type").filter(|&i| i > 2)?;
    let name = words[2..at_type].join(" ");
    let kind = *words.get(at_type + 1)?;
    // The words after each keyword, up to the next one.
    let fields = {
        let mut fields: Vec<(&str, String)> = Vec::new();
        for &w in &words[at_type + 2..] {
            match w {
                "default" | "min" | "max" | "var" => fields.push((w, String::new())),
                _ => {
                    if let Some((_, text)) = fields.last_mut() {
                        if !text.is_empty() {
                            text.push(' ');
                        }
                        text.push_str(w);
                    }
                }
            }
        }
        fields
    };
    let bound = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.parse::<i64>().ok())
    };
    let ty = match kind {
        "check" => OptionType::Check,
        "spin" => OptionType::Spin {
            min: bound("min").unwrap_or(i64::MIN),
            max: bound("max").unwrap_or(i64::MAX),
        },
        "combo" => OptionType::Combo(
            fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.clone())
                .collect(),
        ),
        _ => OptionType::Free,
    };
    Some((name, ty))
}

/// Whether `value` is one that an option of type `ty` takes; else why not.
pub fn check_option_value(ty: &OptionType, value: &str) -> Result<(), String> {
    match ty {
        OptionType::Check if value != "true" && value != "false" => {
            Err(format!("'{value}' is not true or false"))
        }
        OptionType::Spin { min, max } => match value.parse::<i64>() {
            Err(_) => Err(format!("'{value}' is not a whole number")),
            Ok(v) if v < *min || v > *max => Err(format!("{v} is outside {min}..{max}")),
            Ok(_) => Ok(()),
        },
        OptionType::Combo(vars)
            if !vars.is_empty() && !vars.iter().any(|v| v.eq_ignore_ascii_case(value)) =>
        {
            Err(format!("'{value}' is not one of {}", vars.join(", ")))
        }
        _ => Ok(()),
    }
}

/// Starts `spec`'s command in its directory, its standard input and output piped (or, without
/// `piped`, discarded), its standard error discarded.
fn spawn(spec: &EngineSpec, piped: bool) -> Result<Child, EngineError> {
    let io = || if piped { Stdio::piped() } else { Stdio::null() };
    let mut cmd = Command::new(&spec.argv[0]);
    cmd.args(&spec.argv[1..])
        .stdin(io())
        .stdout(io())
        .stderr(Stdio::null());
    if let Some(dir) = &spec.dir {
        cmd.current_dir(dir);
    }
    // A process group of its own: a Ctrl-C at the terminal reaches the runner only, which
    // then ends the engines itself (instead of every engine dying mid-move at once).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd.spawn().map_err(|e| {
        let program = &spec.argv[0];
        // A bare name is looked up in PATH, not in the working directory: say so when the
        // file is right there.
        let here = spec.dir.as_deref().unwrap_or(Path::new(".")).join(program);
        let hint = if e.kind() == ErrorKind::NotFound && !program.contains('/') && here.is_file() {
            format!(" (a name without '/' is looked up in PATH; give its path, ./{program})")
        } else {
            String::new()
        };
        EngineError::Spawn(format!("{program}: {e}{hint}"))
    })
}

impl EngineProcess {
    /// Starts the process; with a handshake, waits for `uciok`, sends the options (and the
    /// variant when it is not `jieqi`), then waits for `readyok`. Without one, only sends the
    /// options and the variant.
    pub fn start(
        spec: &EngineSpec,
        variant: Variant,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut e = EngineProcess::launch(spec)?;
        if spec.handshake {
            e.send("uci");
            e.wait_for("uciok", timeout)?;
        }
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        if variant != Variant::Jieqi {
            e.send(&format!(
                "setoption name UCI_Variant value {}",
                variant.name()
            ));
        }
        if spec.handshake {
            e.send("isready");
            e.wait_for("readyok", timeout)?;
        }
        Ok(e)
    }

    /// The options `spec`'s engine declares: starts it, sends `uci` and reads its `option`
    /// lines up to `uciok`, then ends it. `None` when it gives no `uciok` within `timeout`.
    pub fn declared_options(
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<Option<Vec<(String, OptionType)>>, EngineError> {
        let mut e = EngineProcess::launch(spec)?;
        e.send("uci");
        let deadline = Instant::now() + timeout;
        let mut declared = Vec::new();
        loop {
            match e.next_line(deadline) {
                Ok(l) if l.split_whitespace().next() == Some("uciok") => break,
                Ok(l) => declared.extend(parse_option_line(&l)),
                Err(_) => return Ok(None),
            }
        }
        e.send("quit");
        Ok(Some(declared))
    }

    /// Starts the process with its reader and writer threads, sending nothing yet.
    fn launch(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        let mut child = spawn(spec, true)?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // Bounded: an engine that floods its output while nobody waits for it is held back by
        // its own full pipe instead of filling the runner's memory.
        let (line_tx, line_rx) = bounded(QUEUED_LINES);
        thread::spawn(move || read_lines(stdout, line_tx));
        let (cmd_tx, cmd_rx) = unbounded::<String>();
        thread::spawn(move || {
            for line in cmd_rx {
                if stdin.write_all(line.as_bytes()).is_err()
                    || stdin.write_all(b"\n").is_err()
                    || stdin.flush().is_err()
                {
                    return;
                }
            }
        });
        Ok(EngineProcess {
            child,
            to_engine: Some(cmd_tx),
            from_engine: line_rx,
            dead: false,
        })
    }

    /// Whether `spec`'s command can be run at all: starts it with no input and ends it at
    /// once. Only the start is checked (a missing program, a directory that does not exist),
    /// not how the engine behaves.
    pub fn check_command(spec: &EngineSpec) -> Result<(), EngineError> {
        let mut child = spawn(spec, false)?;
        let _ = child.kill();
        let _ = child.wait();
        Ok(())
    }

    /// Sends one line (the newline is added).
    pub fn send(&self, line: &str) {
        if let Some(tx) = &self.to_engine {
            let _ = tx.send(line.to_string());
        }
    }

    /// Reads lines until one whose first word is `word`.
    pub fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_line(deadline)? {
                l if l.split_whitespace().next() == Some(word) => return Ok(()),
                _ => {}
            }
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        self.next_line_or_abort(deadline, None)
    }

    /// The next line before `deadline`; with `abort`, the wait also ends (within
    /// [`ABORT_POLL`]) once the flag is set.
    fn next_line_or_abort(
        &mut self,
        deadline: Instant,
        abort: Option<&AtomicBool>,
    ) -> Result<String, EngineError> {
        if self.dead {
            return Err(EngineError::Exited);
        }
        loop {
            if abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                return Err(EngineError::Aborted);
            }
            let until = match abort {
                Some(_) => deadline.min(Instant::now() + ABORT_POLL),
                None => deadline,
            };
            match self.from_engine.recv_deadline(until) {
                Ok(Line::Text(t)) => return Ok(t),
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.dead = true;
                    return Err(EngineError::Exited);
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                    return Err(EngineError::Timeout)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Before a new game: `ucinewgame` and `isready`/`readyok` with a handshake; nothing
    /// without one.
    pub fn new_game(&mut self, handshake: bool, timeout: Duration) -> Result<(), EngineError> {
        if handshake {
            self.send("ucinewgame");
            self.send("isready");
            self.wait_for("readyok", timeout)?;
        }
        Ok(())
    }

    /// Sends `position` and `go` and waits for `bestmove` until `timeout` after the `go`, or
    /// until `abort` is set. Each `info` line of the search is handed to `on_info` as it comes.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
        abort: Option<&AtomicBool>,
        on_info: &mut dyn FnMut(&str),
    ) -> Result<SearchReply, EngineError> {
        // Lines left over from before (nothing should be pending; an end of output is kept).
        // Only what is queued now: an engine that floods its output cannot keep this busy.
        for _ in 0..self.from_engine.len() {
            match self.from_engine.try_recv() {
                Ok(Line::Eof) => self.dead = true,
                Ok(Line::Text(_)) => {}
                Err(_) => break,
            }
        }
        if self.dead {
            return Err(EngineError::Exited);
        }
        self.send(position);
        self.send(go);
        let start = Instant::now();
        let deadline = start + timeout;
        let mut reply = SearchReply {
            bestmove: String::new(),
            elapsed: Duration::ZERO,
            score: None,
            depth: None,
            nodes: None,
        };
        loop {
            let line = self.next_line_or_abort(deadline, abort)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    parse_info(&line, &mut reply);
                    on_info(&line);
                }
                Some("bestmove") => {
                    reply.elapsed = start.elapsed();
                    reply.bestmove = words.next().unwrap_or("").to_string();
                    return Ok(reply);
                }
                _ => {}
            }
        }
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Sends `quit`, gives the process a moment to exit, then kills it.
    pub fn quit(mut self) {
        self.send("quit");
        self.to_engine = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if self.has_exited() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.to_engine = None;
        if !self.has_exited() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_give_names_and_the_values_they_take() {
        let parse = |l: &str| parse_option_line(l).unwrap();
        assert_eq!(
            parse("option name Move Overhead type spin default 30 min 0 max 5000"),
            (
                "Move Overhead".into(),
                OptionType::Spin { min: 0, max: 5000 }
            )
        );
        assert_eq!(
            parse("option name Ponder type check default false"),
            ("Ponder".into(), OptionType::Check)
        );
        assert_eq!(
            parse("option name Style type combo default Solid var Solid var Very Risky"),
            (
                "Style".into(),
                OptionType::Combo(vec!["Solid".into(), "Very Risky".into()])
            )
        );
        assert_eq!(
            parse("option name Clear Hash type button"),
            ("Clear Hash".into(), OptionType::Free)
        );
        assert_eq!(
            parse("option name Depth type spin default 3"),
            (
                "Depth".into(),
                OptionType::Spin {
                    min: i64::MIN,
                    max: i64::MAX
                }
            )
        );
        for other in [
            "id name x",
            "option name type spin",
            "option type check",
            "info string x",
        ] {
            assert_eq!(parse_option_line(other), None, "{other}");
        }

        let spin = OptionType::Spin { min: -5, max: 10 };
        assert_eq!(check_option_value(&spin, "-5"), Ok(()));
        assert_eq!(
            check_option_value(&spin, "11"),
            Err("11 is outside -5..10".into())
        );
        assert_eq!(
            check_option_value(&spin, "1.5"),
            Err("'1.5' is not a whole number".into())
        );
        assert_eq!(check_option_value(&OptionType::Check, "true"), Ok(()));
        assert_eq!(
            check_option_value(&OptionType::Check, "1"),
            Err("'1' is not true or false".into())
        );
        let combo = OptionType::Combo(vec!["Solid".into(), "Very Risky".into()]);
        assert_eq!(check_option_value(&combo, "very risky"), Ok(()));
        assert_eq!(
            check_option_value(&combo, "Wild"),
            Err("'Wild' is not one of Solid, Very Risky".into())
        );
        assert_eq!(check_option_value(&OptionType::Free, ""), Ok(()));
    }
}
