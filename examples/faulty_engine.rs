//! A faulty engine for the match runner's tests: a proxy in front of a real engine that
//! misbehaves on purpose.
//!
//! ```text
//! faulty_engine [--mode MODE] [--at K] [--sleep MS] [--log FILE] -- ENGINE [ARGS...]
//! ```
//!
//! Every line from the runner is passed to ENGINE and every line of ENGINE's output back,
//! except that, from the K-th `go` on (default 1), MODE does this:
//!
//! | mode      | behaviour |
//! |-----------|-----------|
//! | `ok`      | nothing (a plain proxy; with `--log`, a recorder of what the runner sends) |
//! | `exit`    | exits with status 3 at start, before reading anything (K is not used) |
//! | `crash`   | exits with status 1 on the K-th `go`, without answering |
//! | `hang`    | stops answering on the K-th `go` (keeps reading, never writes again) |
//! | `slow`    | waits MS milliseconds before passing on the K-th `bestmove` |
//! | `illegal` | answers the K-th `go` with an illegal king move (two steps from e0 or e9) |
//! | `badword` | answers the K-th `go` with `bestmove zz9z` |
//! | `garbage` | prints junk before every answer (bytes that are not UTF-8, a 100 kB line, broken `info` lines, blank lines) and otherwise plays normally |
//! | `flood`   | from the K-th `go` on, prints `info` lines without pause, between searches too, and otherwise plays normally |
//! | `partial` | answers the K-th `go` with half a `bestmove` line (no newline) and exits with status 1 |
//!
//! `--log FILE` appends every line received from the runner to FILE.
//!
//! `cargo test` builds it (examples are built with the tests); the referee tests find it in
//! `target/<profile>/examples/`.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::process::{self, Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Ok,
    Exit,
    Crash,
    Hang,
    Slow,
    Illegal,
    Badword,
    Garbage,
    Flood,
    Partial,
}

impl Mode {
    fn parse(text: &str) -> Option<Mode> {
        Some(match text {
            "ok" => Mode::Ok,
            "exit" => Mode::Exit,
            "crash" => Mode::Crash,
            "hang" => Mode::Hang,
            "slow" => Mode::Slow,
            "illegal" => Mode::Illegal,
            "badword" => Mode::Badword,
            "garbage" => Mode::Garbage,
            "flood" => Mode::Flood,
            "partial" => Mode::Partial,
            _ => return None,
        })
    }
}

struct Config {
    mode: Mode,
    /// The fault starts at this `go` (1-based).
    at: u32,
    sleep: Duration,
    log: Option<String>,
    engine: Vec<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Config, String> {
    let mut config = Config {
        mode: Mode::Ok,
        at: 1,
        sleep: Duration::ZERO,
        log: None,
        engine: Vec::new(),
    };
    while let Some(key) = args.next() {
        if key == "--" {
            break;
        }
        let value = args.next().ok_or_else(|| format!("{key} needs a value"))?;
        match key.as_str() {
            "--mode" => {
                config.mode = Mode::parse(&value).ok_or_else(|| format!("unknown mode {value}"))?
            }
            "--at" => config.at = value.parse().map_err(|_| format!("bad --at {value}"))?,
            "--sleep" => {
                let ms: u64 = value.parse().map_err(|_| format!("bad --sleep {value}"))?;
                config.sleep = Duration::from_millis(ms);
            }
            "--log" => config.log = Some(value),
            _ => return Err(format!("unknown argument {key}")),
        }
    }
    config.engine = args.collect();
    if config.engine.is_empty() && config.mode != Mode::Exit {
        return Err("no engine command after --".to_string());
    }
    Ok(config)
}

/// What the input side and the output side share.
struct State {
    config: Config,
    /// Our standard output; writes stop for good once `hung` is set (checked under this lock).
    out: Mutex<io::Stdout>,
    hung: AtomicBool,
    /// The number of `go` commands received so far.
    gos: AtomicU32,
    /// The side to move in the last `position fen` command: true for Red.
    red_to_move: AtomicBool,
}

impl State {
    fn faulty_now(&self) -> bool {
        self.gos.load(Ordering::SeqCst) >= self.config.at
    }

    fn write(&self, bytes: &[u8]) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if self.hung.load(Ordering::SeqCst) {
            return;
        }
        // A closed output (the runner went away) is not this proxy's fault to report.
        let _ = out.write_all(bytes).and_then(|()| out.flush());
    }
}

fn main() {
    let config = match parse_args(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("faulty_engine: {e}");
            process::exit(2);
        }
    };
    if config.mode == Mode::Exit {
        process::exit(3);
    }
    let mut child = match Command::new(&config.engine[0])
        .args(&config.engine[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("faulty_engine: cannot start {}: {e}", config.engine[0]);
            process::exit(2);
        }
    };
    let engine_out = child.stdout.take().expect("piped stdout");
    let engine_in = child.stdin.take().expect("piped stdin");
    let mode = config.mode;
    let state = Arc::new(State {
        config,
        out: Mutex::new(io::stdout()),
        hung: AtomicBool::new(false),
        gos: AtomicU32::new(0),
        red_to_move: AtomicBool::new(true),
    });
    {
        let state = state.clone();
        thread::spawn(move || pass_output(&state, BufReader::new(engine_out)));
    }
    if mode == Mode::Flood {
        let state = state.clone();
        thread::spawn(move || flood(&state));
    }
    pass_input(&state, engine_in);
    finish(&mut child);
}

/// The engine's output to ours, line by line, with the faults of the output side.
fn pass_output(state: &State, mut engine_out: impl BufRead) {
    let mode = state.config.mode;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match engine_out.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut line = String::from_utf8_lossy(&buf)
            .trim_end_matches('\n')
            .to_string();
        if line.starts_with("bestmove") && state.faulty_now() {
            match mode {
                Mode::Partial => {
                    let mv = line.split_whitespace().nth(1).unwrap_or("");
                    let half: String = mv.chars().take(2).collect();
                    state.write(format!("bestmove {half}").as_bytes());
                    thread::sleep(Duration::from_millis(200));
                    process::exit(1);
                }
                Mode::Slow => thread::sleep(state.config.sleep),
                Mode::Illegal => {
                    let red = state.red_to_move.load(Ordering::SeqCst);
                    line = format!("bestmove {}", if red { "e0e2" } else { "e9e7" });
                }
                Mode::Badword => line = "bestmove zz9z".to_string(),
                _ => {}
            }
        }
        line.push('\n');
        state.write(line.as_bytes());
    }
}

/// `info` lines without pause once the fault has started.
fn flood(state: &State) {
    let pad = "x".repeat(150);
    let mut n = 0u64;
    loop {
        if state.faulty_now() {
            n += 1;
            state.write(format!("info string flood {n} {pad}\n").as_bytes());
        } else {
            thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Our input to the engine's, line by line, with the faults of the input side. Returns at the
/// end of our input or when the engine no longer reads.
fn pass_input(state: &State, mut engine_in: ChildStdin) {
    let mode = state.config.mode;
    let mut log: Option<File> = state.config.log.as_ref().map(|path| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| {
                eprintln!("faulty_engine: cannot open {path}: {e}");
                process::exit(2);
            })
    });
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{line}").and_then(|()| f.flush());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"position") {
            if let Some(red) = side_to_move(&words) {
                state.red_to_move.store(red, Ordering::SeqCst);
            }
        }
        if words.first() == Some(&"go") {
            state.gos.fetch_add(1, Ordering::SeqCst);
            if state.faulty_now() {
                match mode {
                    Mode::Crash => process::exit(1),
                    Mode::Hang => {
                        let _out = state.out.lock().unwrap_or_else(|e| e.into_inner());
                        state.hung.store(true, Ordering::SeqCst);
                    }
                    _ => {}
                }
            }
            if mode == Mode::Garbage {
                state.write(b"\xff\xfe\x00 not utf-8 \xc3\x28\n");
                let mut long = vec![b'z'; 100_000];
                long.push(b'\n');
                state.write(&long);
                state.write(b"info depth x score cp notanumber nodes -\n");
                state.write(b"info score mate\n");
                state.write(b"bestmov e2e4\n\n   \t\n");
            }
        }
        let sent = engine_in
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| engine_in.flush());
        if sent.is_err() {
            return;
        }
    }
}

/// The side to move after a `position fen <board> <side> ... [moves ...]` command: the FEN's
/// side, switched once per move. `None` for other forms.
fn side_to_move(words: &[&str]) -> Option<bool> {
    let at = words.iter().position(|&w| w == "fen")?;
    let fen_red = words.get(at + 2).is_none_or(|&s| s == "w");
    let moves = words
        .iter()
        .position(|&w| w == "moves")
        .map_or(0, |i| words.len() - i - 1);
    Some(fen_red ^ (moves % 2 == 1))
}

/// Closes the engine's input and gives it five seconds to exit before killing it.
fn finish(child: &mut Child) {
    drop(child.stdin.take());
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
}
