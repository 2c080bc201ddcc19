//! Reliability of the real binary under load (protocol.md sections 6-13):
//!
//! - a random stream of thousands of `go`/`stop`/`isready`/`position`/`ponderhit`/`setoption`
//!   commands (seeded; the seed is printed), with and without `go ponder`, with 1 and 2
//!   threads and Hash/Threads changed between and during searches: every `go` gets exactly one
//!   `bestmove`, legal in the position of its `go`; every `isready` its `readyok`, in order;
//!   idle `stop`/`ponderhit` print nothing; the process never dies;
//! - memory: the peak resident size stays within `Hash` plus a bounded overhead, a resize does
//!   not hold the old and the new table at once, and a smaller `Hash` gives the memory back;
//! - time: every clock from 1 ms to minutes (negative, tiny, with increments, `movestogo`,
//!   `movetime`) gets a legal move from a search that ends by itself; `go infinite` /
//!   `go ponder` do not end by themselves and end on `stop` (or, pondering, on `ponderhit`).
//!
//! Environment: `JIEQI_STRESS_SEED` (the stream's seed; by default taken from the clock and
//! printed), `JIEQI_STRESS_ROUNDS` (rounds of the stream, default 20, about 250 commands each).
//! No upper bound on time is asserted (the machine may be loaded): how long a move may take is
//! the time manager's budget, checked exactly by its unit tests. Times are logged; a reply that
//! never comes is reported as a hang by the driver's deadline.

mod common;

use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{check_bestmove, check_info, parse_bestmove, Engine, Rng};
use jieqi::core::{fen, Move, Position, Reveal, Variant};

/// The tests of this file measure time and memory: they run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A Jieqi middle game (from the perft tables).
const JIEQI_MID: &str =
    "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8";

/// Black to move and checkmated: `bestmove (none)`.
const MATED: &str = "4k4/4R4/3RP4/9/9/9/9/9/9/5K3 b - 0 1";

/// A Maniac waiting turn (protocol.md section 12): Red may have to pass.
const MANIAC_WAIT: &str = "5k3/4r4/9/9/P8/9/9/9/8r/3K5 w - 0 1 wait=a5";

fn position(text: &str, variant: Variant) -> Position {
    let setup = fen::parse(text).expect("test FEN reads");
    Position::from_setup(&setup, variant)
        .expect("test FEN is valid")
        .0
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

// ---------------------------------------------------------------------------------------------
// the random command stream

/// What the last `go` sent will do without further input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tail {
    /// It ends by itself (a limit), or nothing runs.
    Ends,
    /// Only `stop` (or another `go`) ends it.
    Open,
    /// Pondering: `ponderhit` turns it into `Ends` (a limit applies) or `Open` (none).
    Ponder { limited: bool },
}

/// A `go` the stream sent: the position it searches and the moves it may answer.
struct SentGo {
    line: String,
    pos: Position,
    /// `searchmoves` (empty: any legal move).
    allowed: Vec<Move>,
    /// Sent after a refused `position`: answered with `bestmove (none)`, nothing searched.
    refused: bool,
}

/// The engine as the stream believes it to be, and everything sent and seen.
struct Stream {
    e: Engine,
    rng: Rng,
    variant: Variant,
    /// The position the next `go` searches.
    pos: Position,
    tail: Tail,
    ponder_allowed: bool,
    gos: Vec<SentGo>,
    bestmoves: usize,
    isready: usize,
    readyok: usize,
    marks: usize,
    bad_positions_sent: usize,
    bad_positions_seen: usize,
    /// The last `position` was refused (until a position is accepted or the game reset).
    refused: bool,
    commands: usize,
    stops: usize,
    ponderhits: usize,
    setoptions: usize,
    positions: usize,
    infos: usize,
    second_go_notes: usize,
    none_moves: usize,
}

impl Stream {
    fn new(seed: u64) -> Stream {
        Stream {
            e: Engine::start(),
            rng: Rng::new(seed),
            variant: Variant::Jieqi,
            pos: Position::startpos(Variant::Jieqi),
            tail: Tail::Ends,
            ponder_allowed: false,
            gos: Vec::new(),
            bestmoves: 0,
            isready: 0,
            readyok: 0,
            marks: 0,
            bad_positions_sent: 0,
            bad_positions_seen: 0,
            refused: false,
            commands: 0,
            stops: 0,
            ponderhits: 0,
            setoptions: 0,
            positions: 0,
            infos: 0,
            second_go_notes: 0,
            none_moves: 0,
        }
    }

    fn send(&mut self, line: &str) {
        self.commands += 1;
        self.e.send(line);
    }

    /// One random command (sometimes a short pause instead, so that searches get going).
    fn step(&mut self) {
        let roll = self.rng.below(100);
        match roll {
            0..=29 => {
                self.go();
                // Let the search run for a moment now and then: it reports, and it may end by
                // itself before the next command.
                let pause = match self.rng.below(10) {
                    0..=3 => 0,
                    4..=7 => self.rng.below(10),
                    _ => 10 + self.rng.below(50),
                };
                thread::sleep(Duration::from_millis(pause as u64));
            }
            30..=41 => self.stop(),
            42..=49 => self.ponderhit(),
            50..=61 => self.ready(),
            62..=75 => self.position(),
            76..=89 => self.setoption(),
            90..=91 => {
                self.send("ucinewgame");
                self.pos = Position::startpos(self.variant);
                self.refused = false;
            }
            _ => thread::sleep(Duration::from_millis(self.rng.below(4) as u64)),
        }
    }

    fn stop(&mut self) {
        self.send("stop");
        self.stops += 1;
        self.tail = Tail::Ends;
    }

    fn ponderhit(&mut self) {
        self.send("ponderhit");
        self.ponderhits += 1;
        if let Tail::Ponder { limited } = self.tail {
            self.tail = if limited { Tail::Ends } else { Tail::Open };
        }
    }

    /// `isready` followed by a marker line the engine reports as not a command: the k-th
    /// `readyok` must come before the k-th marker's reply and after the one before.
    fn ready(&mut self) {
        let k = self.isready;
        self.send("isready");
        self.send(&format!("stressmark{k}"));
        self.isready += 1;
    }

    fn go(&mut self) {
        let r = &mut self.rng;
        let clock = |r: &mut Rng| {
            let t = r.range(1, 400);
            let inc = r.range(0, 40);
            let mut s = format!("wtime {t} btime {t} winc {inc} binc {inc}");
            if r.chance(30, 100) {
                s += &format!(" movestogo {}", r.range(1, 40));
            }
            s
        };
        let mut allowed = Vec::new();
        let (line, tail) = match r.below(if self.ponder_allowed { 14 } else { 10 }) {
            0 | 1 => (format!("go nodes {}", r.range(1, 4000)), Tail::Ends),
            // Maniac's start takes seconds at depth 3 (see the report of this file).
            2 => {
                let deepest = if self.variant == Variant::Maniac {
                    2
                } else {
                    3
                };
                (format!("go depth {}", r.range(1, deepest)), Tail::Ends)
            }
            3 | 4 => (format!("go movetime {}", r.range(0, 40)), Tail::Ends),
            5 => (format!("go {}", clock(r)), Tail::Ends),
            6 => (
                format!("go wtime {0} btime {0}", r.range(-200, 0)),
                Tail::Ends,
            ),
            7 => ("go infinite".to_string(), Tail::Open),
            8 => ("go".to_string(), Tail::Open),
            9 => {
                let legal = self.pos.legal_move_list();
                let mut line = format!("go nodes {}", r.range(1, 2000));
                if !legal.is_empty() {
                    line += " searchmoves";
                    for _ in 0..1 + r.below(3) {
                        let m = legal.as_slice()[r.below(legal.len())];
                        line += &format!(" {m}");
                        allowed.push(m);
                    }
                }
                (line, Tail::Ends)
            }
            10 | 11 => (
                format!("go ponder {}", clock(r)),
                Tail::Ponder { limited: true },
            ),
            12 => (
                format!("go ponder nodes {}", r.range(1, 3000)),
                Tail::Ponder { limited: true },
            ),
            _ => ("go ponder".to_string(), Tail::Ponder { limited: false }),
        };
        self.gos.push(SentGo {
            line: line.clone(),
            pos: self.pos,
            allowed,
            refused: self.refused,
        });
        self.tail = tail;
        self.send(&line);
    }

    fn setoption(&mut self) {
        let r = &mut self.rng;
        let line = match r.below(13) {
            0..=2 => format!("setoption name Threads value {}", 1 + r.below(2)),
            3..=5 => format!("setoption name Hash value {}", [1, 2, 4, 8, 16][r.below(5)]),
            6 => format!("setoption name MultiPV value {}", 1 + r.below(3)),
            7 => format!("setoption name Ponder value {}", r.chance(50, 100)),
            8 => format!("setoption name Move Overhead value {}", r.range(0, 50)),
            9 => "setoption name Clear Hash".to_string(),
            10 => format!(
                "setoption name SearchMode value {}",
                ["expectimax", "pimc", "hybrid"][r.below(3)]
            ),
            _ => {
                let v = [Variant::Jieqi, Variant::Maniac, Variant::Xiangqi][r.below(3)];
                if v != self.variant {
                    self.variant = v;
                    self.pos = Position::startpos(v);
                    self.refused = false;
                }
                format!("setoption name UCI_Variant value {}", v.name())
            }
        };
        self.setoptions += 1;
        self.send(&line);
    }

    /// A valid `position` command for the current variant (a start, a fixed FEN, or a random
    /// walk sent as a FEN), followed by random legal moves; sometimes a bad one that must leave
    /// the position unchanged.
    fn position(&mut self) {
        self.positions += 1;
        if self.rng.chance(5, 100) {
            // a0a9 is blocked in every variant's start position.
            self.send("position startpos moves a0a9");
            self.bad_positions_sent += 1;
            self.refused = true;
            return;
        }
        let v = self.variant;
        let fens: &[&str] = match v {
            Variant::Jieqi => &[JIEQI_MID, MATED],
            Variant::Maniac => &[MANIAC_WAIT, MATED],
            Variant::Xiangqi => &[XIANGQI_START, MATED],
        };
        let (mut line, mut pos) = match self.rng.below(4) {
            0 | 1 => ("position startpos".to_string(), Position::startpos(v)),
            2 => {
                let f = fens[self.rng.below(fens.len())];
                (format!("position fen {f}"), position(f, v))
            }
            _ => {
                // A middle game: a walk from the start, sent as a FEN.
                let mut p = Position::startpos(v);
                let plies = 4 + self.rng.below(30);
                walk(&mut self.rng, &mut p, plies);
                let text = if self.rng.chance(50, 100) {
                    p.fen()
                } else {
                    p.fen6()
                };
                (format!("position fen {text}"), p)
            }
        };
        let plies = self.rng.below(10);
        let moves = walk(&mut self.rng, &mut pos, plies);
        if !moves.is_empty() || self.rng.chance(10, 100) {
            line += " moves";
            for m in moves {
                line += " ";
                line += &m;
            }
        }
        self.pos = pos;
        self.refused = false;
        self.send(&line);
    }

    /// Waits until everything sent is answered: every `go` its `bestmove`, every `isready` its
    /// `readyok`. An open search is stopped first.
    fn settle(&mut self) {
        if self.tail != Tail::Ends {
            self.stop();
        }
        self.ready();
        while self.bestmoves < self.gos.len() || self.marks < self.isready {
            let line = self
                .e
                .expect("a reply to the stream", |_| true)
                .pop()
                .unwrap_or_default();
            self.read(&line);
        }
    }

    /// Checks one line of output against what was sent.
    fn read(&mut self, line: &str) {
        if line == "readyok" {
            assert_eq!(
                self.readyok, self.marks,
                "a readyok out of order (readyok {} after {} markers)",
                self.readyok, self.marks
            );
            assert!(self.readyok < self.isready, "a readyok without isready");
            self.readyok += 1;
        } else if let Some(rest) = line.strip_prefix("info string ignored input 'stressmark") {
            let k: usize = rest
                .split('\'')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("unreadable marker {line:?}"));
            assert_eq!(k, self.marks, "markers out of order: {line:?}");
            assert_eq!(
                self.readyok,
                k + 1,
                "marker {k} came before the readyok of its isready"
            );
            self.marks += 1;
        } else if line.starts_with("bestmove") {
            let Some(go) = self.gos.get(self.bestmoves) else {
                panic!(
                    "bestmove {} with only {} go sent: {line:?}",
                    self.bestmoves + 1,
                    self.gos.len()
                );
            };
            let best = if go.refused {
                assert_eq!(line, "bestmove (none)", "after a refused position");
                None
            } else {
                check_bestmove(line, &go.pos)
            };
            if let Some(b) = best {
                assert!(
                    go.allowed.is_empty() || go.allowed.contains(&b),
                    "{line:?} is not among the searchmoves of {:?}",
                    go.line
                );
            } else {
                self.none_moves += 1;
            }
            self.bestmoves += 1;
        } else if let Some(text) = line.strip_prefix("info string ") {
            if text.starts_with("position: warning") {
                panic!("a valid position drew a warning: {line:?}");
            } else if text.starts_with("position: ") {
                assert!(text.ends_with("the previous position is kept"), "{line:?}");
                self.bad_positions_seen += 1;
                assert!(
                    self.bad_positions_seen <= self.bad_positions_sent,
                    "a valid position was refused: {line:?}"
                );
            } else if text.starts_with("go: a search is still running") {
                self.second_go_notes += 1;
            }
            for bad in [
                "which is not playable here",
                "the engine refused",
                "options not applied",
                "ignored 'position'",
            ] {
                assert!(!text.contains(bad), "the stream drew {line:?}");
            }
        } else if line.starts_with("info ") {
            let Some(go) = self.gos.get(self.bestmoves) else {
                panic!("search output with no search running: {line:?}");
            };
            check_info(line, &go.pos, true);
            self.infos += 1;
        } else {
            panic!("unexpected output {line:?}");
        }
    }

    /// Idle `stop` and `ponderhit` must print nothing (protocol.md sections 7 and 13): after
    /// everything is answered, send them, then check that no bestmove follows.
    fn idle_commands_are_silent(&mut self) {
        self.settle();
        self.stop();
        self.ponderhit();
        self.settle();
        let late = self.e.collect_for(Duration::from_millis(50));
        for line in &late {
            self.read(line);
        }
        assert_eq!(self.bestmoves, self.gos.len());
    }
}

/// Plays up to `plies` random legal moves on `pos` (a flip takes a random identity from the
/// pool); returns them as the protocol writes them (the flip identity as a 5th letter).
fn walk(rng: &mut Rng, pos: &mut Position, plies: usize) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_move_list();
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[rng.below(legal.len())];
        let mut text = m.to_string();
        let mut reveal = Reveal::default();
        if pos.is_flip(m) {
            let outcomes = pos.flip_outcomes(m.from());
            let (p, _) = outcomes.as_slice()[rng.below(outcomes.len())];
            reveal.flip = Some(p);
            text.push(p.char());
        }
        pos.play(m, reveal)
            .unwrap_or_else(|e| panic!("walk: {text} in {}: {e:?}", pos.fen()));
        out.push(text);
    }
    out
}

#[test]
fn a_random_command_stream_answers_every_go_and_isready() {
    let _serial = serial();
    let seed = env_number("JIEQI_STRESS_SEED").unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let rounds = env_number("JIEQI_STRESS_ROUNDS").unwrap_or(20) as usize;
    eprintln!("stress: seed {seed} (JIEQI_STRESS_SEED={seed} reproduces), {rounds} rounds");
    let started = Instant::now();
    let mut s = Stream::new(seed);
    for round in 0..rounds {
        // Rounds alternate: without and with `go ponder`, 1 and 2 threads to start with (the
        // stream changes Threads and Hash as it goes).
        s.ponder_allowed = round % 2 == 1;
        let threads = 1 + (round / 2) % 2;
        s.send(&format!("setoption name Threads value {threads}"));
        s.setoptions += 1;
        for i in 0..250 {
            s.step();
            // Now and then everything is let to finish, so that searches also end by
            // themselves rather than only by the next command.
            if i % 25 == 24 && s.rng.chance(50, 100) {
                s.settle();
            }
        }
        s.idle_commands_are_silent();
        assert!(s.e.is_alive(), "the engine died in round {round}");
    }
    assert_eq!(s.bestmoves, s.gos.len(), "one bestmove per go");
    assert_eq!(s.readyok, s.isready, "one readyok per isready");
    assert_eq!(s.bad_positions_seen, s.bad_positions_sent);
    assert!(
        s.gos.len() > 200 * rounds / 4,
        "too few searches: {}",
        s.gos.len()
    );
    // The engine still plays normally.
    s.send("setoption name UCI_Variant value xiangqi");
    s.send("position startpos");
    s.send("go depth 2");
    let (_, best) = s.e.bestmove();
    check_bestmove(&best, &position(XIANGQI_START, Variant::Xiangqi));
    assert!(s.e.is_alive());
    eprintln!(
        "stress: {} commands sent in {:.1} s: {} go ({} bestmove (none), {} 'still running' \
         notes), {} isready, {} stop, {} ponderhit, {} setoption, {} position ({} bad); \
         {} info lines checked",
        s.commands,
        started.elapsed().as_secs_f64(),
        s.gos.len(),
        s.none_moves,
        s.second_go_notes,
        s.isready,
        s.stops,
        s.ponderhits,
        s.setoptions,
        s.positions,
        s.bad_positions_sent,
        s.infos,
    );
}

// ---------------------------------------------------------------------------------------------
// memory

/// `VmHWM` (peak) and `VmRSS` (now) of a process, in KiB; `None` if its status cannot be read.
fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

/// Resets the peak (`VmHWM`) to the current size; false where the kernel does not allow it.
fn reset_peak(pid: u32) -> bool {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").is_ok()
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// What the process may use beyond its hash table: code, stacks of the search threads, the
/// protocol's buffers. Measured at about 5 MiB for 1 or 2 threads (test and release profiles);
/// a second table (64 MiB or more) is far beyond it.
const OVERHEAD_MIB: f64 = 24.0;

/// The table allocated at start (the default `Hash`).
const DEFAULT_HASH_MIB: f64 = 64.0;

/// The memory tests read `/proc/<pid>/status`, which Linux has; elsewhere they are ignored.
/// On Linux a missing `/proc` is a broken test machine, not a pass.
fn require_proc() {
    assert!(
        std::path::Path::new("/proc/self/status").exists(),
        "the memory tests need /proc/<pid>/status, and /proc/self/status is missing"
    );
}

/// Searches in three positions with 1 and 2 threads, each answered with a legal move.
fn searches(e: &mut Engine) {
    for threads in [1, 2] {
        e.send(&format!("setoption name Threads value {threads}"));
        for (variant, fen_text) in [
            (Variant::Jieqi, None),
            (Variant::Jieqi, Some(JIEQI_MID)),
            (Variant::Xiangqi, Some(XIANGQI_START)),
        ] {
            e.send(&format!(
                "setoption name UCI_Variant value {}",
                variant.name()
            ));
            let pos = match fen_text {
                Some(f) => {
                    e.send(&format!("position fen {f}"));
                    position(f, variant)
                }
                None => {
                    e.send("position startpos");
                    Position::startpos(variant)
                }
            };
            e.send("go movetime 120");
            let (_, best) = e.bestmove();
            check_bestmove(&best, &pos);
        }
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "reads /proc/<pid>/status, which only Linux has"
)]
fn peak_memory_is_the_hash_plus_a_bounded_overhead() {
    let _serial = serial();
    require_proc();
    for hash in [1u64, 16, 64, 256] {
        let mut e = Engine::start();
        let pid = e.pid();
        e.send(&format!("setoption name Hash value {hash}"));
        e.sync();
        // The default table existed before the setoption: count the peak from here when the
        // kernel lets us, else the default size is part of the bound.
        let reset = reset_peak(pid);
        searches(&mut e);
        e.sync();
        let (peak, rss) = memory_kib(pid).expect("/proc/<pid>/status of the engine");
        let table = if reset {
            hash as f64
        } else {
            (hash as f64).max(DEFAULT_HASH_MIB)
        };
        let overhead = mib(peak) - table;
        eprintln!(
            "memory: Hash {hash:3} MiB: peak {:6.1} MiB, now {:6.1} MiB, overhead {overhead:5.1} \
             MiB over {table} MiB{}",
            mib(peak),
            mib(rss),
            if reset {
                ""
            } else {
                " (peak not resettable: the default table counts)"
            }
        );
        assert!(
            overhead <= OVERHEAD_MIB,
            "Hash {hash}: peak {:.1} MiB exceeds {table} MiB + {OVERHEAD_MIB} MiB",
            mib(peak)
        );
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "reads /proc/<pid>/status, which only Linux has"
)]
fn resizing_the_hash_frees_the_old_table() {
    let _serial = serial();
    require_proc();
    let mut e = Engine::start();
    let pid = e.pid();
    let start = Position::startpos(Variant::Jieqi);
    // A search with the default table, then a bigger one: never both tables at once.
    e.send("position startpos");
    e.send("go movetime 50");
    check_bestmove(&e.bestmove().1, &start);
    e.send("setoption name Hash value 256");
    e.sync();
    let (peak, rss) = memory_kib(pid).expect("/proc/<pid>/status of the engine");
    eprintln!(
        "memory: Hash 64 -> 256 after a search: peak {:.1} MiB, now {:.1} MiB",
        mib(peak),
        mib(rss)
    );
    assert!(
        mib(peak) <= 256.0 + OVERHEAD_MIB,
        "growing the table held the old one too: peak {:.1} MiB",
        mib(peak)
    );
    e.send("go movetime 50");
    check_bestmove(&e.bestmove().1, &start);
    // A smaller table gives the memory back at once (before the readyok).
    let (_, before) = memory_kib(pid).expect("status");
    e.send("setoption name Hash value 1");
    e.sync();
    let (_, after) = memory_kib(pid).expect("status");
    eprintln!(
        "memory: Hash 256 -> 1 after a search: resident {:.1} MiB -> {:.1} MiB",
        mib(before),
        mib(after)
    );
    assert!(
        mib(after) <= 1.0 + OVERHEAD_MIB,
        "Hash 1 kept {:.1} MiB resident (was {:.1} MiB)",
        mib(after),
        mib(before)
    );
    // And the engine still searches with the small table.
    e.send("go nodes 2000");
    check_bestmove(&e.bestmove().1, &start);
}

// ---------------------------------------------------------------------------------------------
// time

/// One `go` in a position: the legal bestmove line, which the engine gave by itself (no `stop`
/// is sent; the driver's deadline only reports a hang), and how long it took (for the log).
fn timed_go(e: &mut Engine, setup: &[String], pos: &Position, go: &str) -> (String, Duration) {
    for line in setup {
        e.send(line);
    }
    e.sync();
    let asked = Instant::now();
    e.send(go);
    let (_, best) = e.bestmove();
    let took = asked.elapsed();
    check_bestmove(&best, pos);
    (best, took)
}

/// Test positions for the clock checks: both colours to move, all three variants.
fn clock_positions() -> Vec<(String, Vec<String>, Position)> {
    let mut after_king = Position::startpos(Variant::Jieqi);
    after_king
        .play(Move::parse("e0e1").expect("a move"), Reveal::default())
        .expect("the red king steps up");
    let jieqi = |pos: &str| {
        vec![
            "setoption name UCI_Variant value jieqi".to_string(),
            format!("position {pos}"),
        ]
    };
    vec![
        (
            "jieqi start".into(),
            jieqi("startpos"),
            Position::startpos(Variant::Jieqi),
        ),
        (
            "jieqi start, black".into(),
            jieqi("startpos moves e0e1"),
            after_king,
        ),
        (
            "jieqi middle game".into(),
            jieqi(&format!("fen {JIEQI_MID}")),
            position(JIEQI_MID, Variant::Jieqi),
        ),
        (
            "xiangqi start".into(),
            vec![
                "setoption name UCI_Variant value xiangqi".to_string(),
                "position startpos".to_string(),
            ],
            Position::startpos(Variant::Xiangqi),
        ),
        (
            "maniac start".into(),
            vec![
                "setoption name UCI_Variant value maniac".to_string(),
                "position startpos".to_string(),
            ],
            Position::startpos(Variant::Maniac),
        ),
    ]
}

/// Every clock, however small, negative or large, gets a legal move from a search that ends by
/// itself. How much of the clock a move may take is the time manager's budget, checked exactly
/// by its unit tests (`src/search/time.rs`); here the times are only logged.
#[test]
fn every_clock_gets_a_legal_move() {
    let _serial = serial();
    let mut e = Engine::start();
    let cases = [
        "wtime 1 btime 1",
        "wtime 1 btime 1 winc 1 binc 1",
        "wtime 0 btime 0",
        "wtime -100 btime -100",
        "wtime -100 btime -100 winc 50 binc 50",
        "wtime 50 btime 50 winc 0 binc 0",
        "wtime 100 btime 100 winc 0 binc 0",
        "wtime 300 btime 300 winc 100 binc 100",
        "wtime 500 btime 500 movestogo 1",
        "wtime 1000 btime 1000 winc 10 binc 10 movestogo 2",
        "wtime 1000 btime 1000 movestogo 5",
        "wtime 2000 btime 2000 winc 20 binc 20 movestogo 40",
        "wtime 3000 btime 3000",
        "wtime 600000 btime 600000 winc 5000 binc 5000 depth 2",
        "wtime 3600000 btime 3600000 movestogo 40 nodes 5000",
        "wtime 3600000 btime 3600000 winc 60000 binc 60000 movetime 50",
        "movetime 0",
        "movetime -5",
    ];
    let positions = clock_positions();
    for params in cases {
        let go = format!("go {params}");
        let times: Vec<Duration> = positions
            .iter()
            .map(|(_, setup, pos)| timed_go(&mut e, setup, pos, &go).1)
            .collect();
        eprintln!(
            "time: {go}: answers {times:?} over {} positions",
            positions.len()
        );
    }
    assert!(e.is_alive());
}

/// `go movetime` gets a legal move from a search that ends by itself, and the time is used, not
/// ignored: at the start, `movetime 200` is not answered before 100 ms (a lower bound, which a
/// loaded machine cannot break). The overhead's share is the time manager's (unit tests).
#[test]
fn movetime_is_kept() {
    let _serial = serial();
    let mut e = Engine::start();
    // The start is a book position, which a game's search answers at once with OwnBook on.
    e.send("setoption name OwnBook value false");
    let positions = clock_positions();
    for t in [1u64, 10, 50, 200] {
        let go = format!("go movetime {t}");
        let all: Vec<Duration> = positions
            .iter()
            .map(|(_, setup, pos)| timed_go(&mut e, setup, pos, &go).1)
            .collect();
        eprintln!("time: {go}: answers {all:?}");
    }
    let (_, took) = timed_go(&mut e, &positions[0].1, &positions[0].2, "go movetime 200");
    assert!(
        took >= Duration::from_millis(100),
        "movetime 200 answered after {took:?}"
    );
    // A larger Move Overhead still gives a legal move from a search that ends by itself.
    e.send("setoption name Move Overhead value 150");
    let (_, took) = timed_go(&mut e, &positions[0].1, &positions[0].2, "go movetime 200");
    eprintln!("time: go movetime 200 with Move Overhead 150: {took:?}");
    assert!(e.is_alive());
}

/// `go infinite`, `go ponder` and a plain `go` run until `stop` (none ends by itself), then
/// answer with a legal move; with 1 and 2 threads and every search mode. A ponder search ends
/// by itself after `ponderhit`. How long the answers took is logged.
#[test]
fn open_searches_end_on_stop() {
    let _serial = serial();
    let mut e = Engine::start();
    let positions = clock_positions();
    let mut slowest = Duration::ZERO;
    for threads in [1, 2] {
        for mode in ["expectimax", "pimc", "hybrid"] {
            e.send(&format!("setoption name Threads value {threads}"));
            e.send(&format!("setoption name SearchMode value {mode}"));
            for (i, go) in ["go infinite", "go ponder wtime 100 btime 100", "go"]
                .iter()
                .enumerate()
            {
                let (_, setup, pos) = &positions[(i + threads) % positions.len()];
                for line in setup {
                    e.send(line);
                }
                e.send(go);
                let early = e.collect_for(Duration::from_millis(150));
                assert!(
                    !early.iter().any(|l| l.starts_with("bestmove")),
                    "{go:?} ended by itself: {early:?}"
                );
                let asked = Instant::now();
                e.send("stop");
                let (_, best) = e.bestmove();
                let took = asked.elapsed();
                check_bestmove(&best, pos);
                slowest = slowest.max(took);
            }
        }
    }
    e.send("setoption name Threads value 1");
    e.send("setoption name SearchMode value expectimax");
    let (_, setup, pos) = &positions[0];
    for line in setup {
        e.send(line);
    }
    e.send("go ponder wtime 300 btime 300 winc 0 binc 0");
    thread::sleep(Duration::from_millis(300));
    // A ponderhit makes the clock count: the search then ends by itself, without a `stop`.
    let hit = Instant::now();
    e.send("ponderhit");
    let (_, best) = e.bestmove();
    let after_hit = hit.elapsed();
    check_bestmove(&best, pos);
    eprintln!(
        "time: stop answered within {slowest:?} at worst; ponderhit (300 ms clock) after \
         {after_hit:?}"
    );
    // Nothing more is owed.
    e.send("stop");
    let rest = e.sync();
    assert!(rest.iter().all(|l| parse_bestmove_free(l)), "{rest:?}");
}

/// True for a line that is not a `bestmove` (checking its format when it is one).
fn parse_bestmove_free(line: &str) -> bool {
    if line.starts_with("bestmove") {
        parse_bestmove(line);
        false
    } else {
        true
    }
}
