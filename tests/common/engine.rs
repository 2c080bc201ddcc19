//! The engine driver: a running `jieqi` process with deadline-bounded reads, and checkers for
//! the reply formats of protocol.md.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use jieqi::core::{Move, Position};

/// How long any expected reply may take. Generous: a hung engine fails the test instead of
/// hanging it, and a slow machine does not.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// Phrases one web host treats as an engine failure; they must never be printed.
pub const FORBIDDEN: [&str; 3] = ["Unknown command", "No such option", "Unknown option"];

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_args(&[])
    }

    pub fn start_with_args(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jieqi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the jieqi binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = unbounded();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        // Kept byte for byte (non-ASCII shows up as U+FFFD or as itself) so
                        // that the ASCII check below sees it.
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let err_buf = Arc::new(Mutex::new(Vec::new()));
        let sink = err_buf.clone();
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    return;
                }
                if let Ok(mut b) = sink.lock() {
                    b.extend_from_slice(&chunk[..n]);
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
            stderr: err_buf,
        }
    }

    /// Sends one line (a `\n` is added).
    pub fn send(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, checked to be one ASCII line ending in `\n`; `None` at the deadline or
    /// when the output ended.
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        match self.lines.recv_deadline(deadline) {
            Ok(raw) => {
                assert!(raw.ends_with('\n'), "a reply line without \\n: {raw:?}");
                let line = raw.trim_end_matches('\n').to_string();
                assert!(
                    line.is_ascii() && !line.contains('\r'),
                    "a reply that is not one ASCII line: {line:?}"
                );
                for bad in FORBIDDEN {
                    assert!(!line.contains(bad), "forbidden phrase in {line:?}");
                }
                self.seen.push(line.clone());
                Some(line)
            }
            Err(_) => None,
        }
    }

    /// Reads lines until one satisfies `done` (returned last); panics after [`TIMEOUT`].
    pub fn expect(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.expect_within(what, TIMEOUT, done)
    }

    pub fn expect_within(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let last = done(&line);
                    got.push(line);
                    if last {
                        return got;
                    }
                }
                None => panic!(
                    "no {what} within {timeout:?}; got {got:#?}; stderr {:?}",
                    self.stderr_text()
                ),
            }
        }
    }

    /// Lines until the exact line `line`.
    pub fn expect_line(&mut self, line: &str) -> Vec<String> {
        self.expect(line, |l| l == line)
    }

    /// `isready`, then everything up to `readyok` (which is not returned).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.expect_line("readyok");
        got.pop();
        got
    }

    /// Lines up to and including the next `bestmove` (or UCCI `nobestmove`); the bestmove
    /// line is returned separately.
    pub fn bestmove(&mut self) -> (Vec<String>, String) {
        let mut got = self.expect("bestmove", |l| {
            l.starts_with("bestmove ") || l == "nobestmove"
        });
        let last = got.pop().unwrap_or_default();
        (got, last)
    }

    /// Whatever arrives within `wait` (no deadline failure).
    pub fn collect_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline) {
            got.push(line);
        }
        got
    }

    /// The `info string` lines a command produces, read up to the next `readyok`.
    pub fn reply_to(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// `d`, and its `Fen:` line.
    pub fn fen(&mut self) -> String {
        let lines = self.reply_to("d");
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .unwrap_or_else(|| panic!("no Fen line in {lines:#?}"))
            .to_string()
    }

    /// Waits for the process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Remaining output after the process ended (reads until end of output).
    pub fn rest(&mut self) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            match self.lines.recv_deadline(deadline) {
                Ok(raw) => {
                    let line = raw.trim_end_matches('\n').to_string();
                    assert!(line.is_ascii(), "{line:?}");
                    self.seen.push(line.clone());
                    got.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return got,
                Err(RecvTimeoutError::Timeout) => panic!("output did not end: {got:#?}"),
            }
        }
    }

    /// The process id of the engine (for reading `/proc/<pid>/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    pub fn stderr_text(&self) -> String {
        self.stderr
            .lock()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// reply checkers

/// The move of a `bestmove` line, checked to be `bestmove <4 chars> [ponder <4 chars>]`.
/// Returns `None` for `bestmove (none)`.
pub fn parse_bestmove(line: &str) -> (Option<Move>, Option<Move>) {
    let tokens: Vec<&str> = line.split(' ').collect();
    match tokens.as_slice() {
        ["bestmove", "(none)"] => (None, None),
        ["bestmove", m] => (Some(four_char_move(m)), None),
        ["bestmove", m, "ponder", p] => (Some(four_char_move(m)), Some(four_char_move(p))),
        _ => panic!("malformed bestmove line {line:?}"),
    }
}

fn four_char_move(text: &str) -> Move {
    assert_eq!(
        text.len(),
        4,
        "a move in a reply must have 4 characters: {text:?}"
    );
    Move::parse(text).unwrap_or_else(|| panic!("not a move: {text:?}"))
}

/// Checks a `bestmove` line against the position: legal, 4 characters, and a ponder move only
/// when the best move flips nothing and the ponder move is legal after it.
pub fn check_bestmove(line: &str, pos: &Position) -> Option<Move> {
    let (best, ponder) = parse_bestmove(line);
    match best {
        None => assert!(
            pos.legal_move_list().is_empty(),
            "bestmove (none) with legal moves in {}",
            pos.fen()
        ),
        Some(b) => {
            assert!(pos.is_legal(b), "{line:?} is illegal in {}", pos.fen());
            if let Some(p) = ponder {
                assert!(!pos.is_flip(b), "ponder move after a flip: {line:?}");
                let mut after = *pos;
                after.play_unchecked(b, None);
                assert!(after.is_legal(p), "ponder move illegal: {line:?}");
            }
        }
    }
    best
}

/// Checks a search `info` line: the field order of protocol.md section 11, `pv` last, every PV
/// move legal and nothing after the first flip. `wdl` must be there exactly when `wdl` is set.
pub fn check_info(line: &str, pos: &Position, wdl: bool) {
    if line.starts_with("info string ") {
        return;
    }
    if line == "info depth 0 score mate 0" {
        return;
    }
    let t: Vec<&str> = line.split(' ').collect();
    let number = |i: usize| -> i64 {
        t.get(i)
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("field {i} of {line:?} is not a number"))
    };
    let mut i = 0;
    let expect = |word: &str, i: &mut usize| {
        assert_eq!(t.get(*i).copied(), Some(word), "in {line:?}");
        *i += 1;
    };
    expect("info", &mut i);
    for key in ["depth", "seldepth", "multipv"] {
        expect(key, &mut i);
        assert!(number(i) >= 0, "{line:?}");
        i += 1;
    }
    expect("score", &mut i);
    assert!(
        matches!(t.get(i), Some(&"cp") | Some(&"mate")),
        "score kind in {line:?}"
    );
    number(i + 1);
    i += 2;
    if matches!(t.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
        i += 1;
    }
    if wdl {
        expect("wdl", &mut i);
        let sum = number(i) + number(i + 1) + number(i + 2);
        assert_eq!(sum, 1000, "wdl sums to 1000 in {line:?}");
        i += 3;
    } else {
        assert!(!line.contains(" wdl "), "wdl without UCI_ShowWDL: {line:?}");
    }
    for key in ["nodes", "nps", "hashfull", "time"] {
        expect(key, &mut i);
        assert!(number(i) >= 0, "{line:?}");
        i += 1;
    }
    if i == t.len() {
        return;
    }
    expect("pv", &mut i);
    let mut p = *pos;
    for (k, m) in t[i..].iter().enumerate() {
        let mv = four_char_move(m);
        assert!(p.is_legal(mv), "pv move {m} illegal in {line:?}");
        if p.is_flip(mv) {
            assert_eq!(k, t.len() - i - 1, "pv goes on after a flip: {line:?}");
        }
        p.play_unchecked(mv, None);
    }
}

/// Option names listed by `uci` (the `name` part of each `option name ... type ...` line).
pub fn listed_options(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter_map(|rest| rest.split(" type ").next())
        .map(str::to_string)
        .collect()
}
