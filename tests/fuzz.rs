//! Fuzz targets, run as property tests so that they need nothing but stable Rust: the FEN reader,
//! the move readers, the protocol line parser, random play from fuzzed positions, and whole
//! protocol sessions driven in-process through `protocol::uci::run`.
//!
//! Each target first replays every line of its seed corpus in `tests/corpus/` (`fen.txt`,
//! `moves.txt`, `protocol.txt`: one input per line, read as bytes with invalid UTF-8 replaced; a
//! line is an input, there are no comments), then checks generated inputs: corpus lines mutated
//! (characters and tokens inserted, deleted, replaced, swapped, cut off; huge and negative
//! numbers; pieces of other lines spliced in) and random text. An input that made a target fail
//! goes into its corpus once the bug is fixed.
//!
//! Size: by default 20000 generated cases per text target, 1000 games and 40 sessions, so that
//! the file runs in seconds. `JIEQI_FUZZ_CASES=<n>` sets `n` cases for each text target, `n / 30`
//! games and `n / 4000` sessions (at least one each; these shares take about equal times).
//! `JIEQI_FUZZ_SEED=<u64>` repeats a run (otherwise the seed is drawn and printed). Every target
//! prints `fuzz <target>: <n> executions ...` to stderr. A long run (the test profile keeps
//! overflow checks and debug assertions, which `--release` turns off):
//!
//! ```sh
//! JIEQI_FUZZ_CASES=20000000 cargo test --test fuzz -- --nocapture
//! ```

use std::cell::Cell;
use std::io::Cursor;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread;

use crossbeam_channel::{bounded, select, unbounded, Receiver};

use jieqi::core::pool::{identity_piece, IDENTITIES};
use jieqi::core::{
    fen, Color, FenDialect, Move, Occupant, Piece, Position, Reveal, Setup, SetupCell, Square,
    Variant,
};
use jieqi::protocol::command::{self, Command, Dialect, Mark, MoveText, Suffix};
use jieqi::protocol::options::{self, OptionId, Settings};
use jieqi::protocol::position::{self as game_position, GameState};
use jieqi::protocol::uci;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

// By path rather than `mod common;`: the cargo-fuzz targets include this file by path, and the
// generator is the only part of the shared test module it needs.
#[path = "common/rng.rs"]
mod rng;

use rng::{splitmix, Rng};

// ---------------------------------------------------------------------------------------------
// corpora, sizes and the runner

/// The lines of `tests/corpus/<name>`, each one input (invalid UTF-8 replaced).
fn corpus(name: &str) -> Vec<String> {
    let path = format!("{}/tests/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines: Vec<String> = bytes
        .split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop(); // the end of the last line, not an input
    }
    assert!(lines.len() > 10, "{path} holds only {} inputs", lines.len());
    lines
}

fn fen_corpus() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| corpus("fen.txt"))
}

fn move_corpus() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| corpus("moves.txt"))
}

fn protocol_corpus() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| corpus("protocol.txt"))
}

/// `JIEQI_FUZZ_CASES` divided by `divisor` (at least 1), or `default` without it.
fn cases(default: u32, divisor: u32) -> u32 {
    match std::env::var("JIEQI_FUZZ_CASES") {
        Ok(text) => {
            let n: u32 = text
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("JIEQI_FUZZ_CASES={text:?} is not a whole number"));
            (n / divisor).max(1)
        }
        Err(_) => default,
    }
}

/// The run's seed: `JIEQI_FUZZ_SEED`, or a fresh one (printed, so a failure can be repeated).
fn run_seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| match std::env::var("JIEQI_FUZZ_SEED") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("JIEQI_FUZZ_SEED={text:?} is not a whole number")),
        Err(_) => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            splitmix(nanos ^ u64::from(std::process::id()))
        }
    })
}

/// Replays `corpus` through `check`, then runs `cases` generated inputs (each target with its own
/// stream of the run's seed), and reports the executions on stderr. Panics on the first failure,
/// naming the corpus line or the shrunk generated input.
fn fuzz<S>(
    target: &str,
    corpus: &[String],
    replay: impl Fn(&str) -> Result<(), TestCaseError>,
    cases: u32,
    strategy: S,
    check: impl Fn(&S::Value) -> Result<(), TestCaseError>,
) where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    for (i, line) in corpus.iter().enumerate() {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| replay(line)));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("fuzz {target}: corpus line {} {line:?}: {e}", i + 1),
            Err(_) => panic!("fuzz {target}: corpus line {} {line:?} panicked", i + 1),
        }
    }
    let seed = run_seed();
    let stream = target.bytes().fold(seed, |h, b| splitmix(h ^ u64::from(b)));
    let mut key = [0u8; 32];
    for (i, chunk) in key.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&splitmix(stream.wrapping_add(i as u64)).to_le_bytes());
    }
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key));
    let generated = AtomicU64::new(0);
    let started = std::time::Instant::now();
    let result = runner.run(&strategy, |value| {
        generated.fetch_add(1, Ordering::Relaxed);
        check(&value)
    });
    eprintln!(
        "fuzz {target}: {} executions ({} corpus, {} generated in {:.1} s; JIEQI_FUZZ_SEED={seed})",
        corpus.len() as u64 + generated.load(Ordering::Relaxed),
        corpus.len(),
        generated.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
    );
    if let Err(e) = result {
        panic!("fuzz {target} (JIEQI_FUZZ_SEED={seed}): {e}");
    }
}

/// How many inputs got how far, for the reports (so that a generator that only produces
/// rejected input shows).
#[derive(Clone, Copy)]
enum Tally {
    FenRead,
    FenPositions,
    Plies,
    Moves,
    MoveTexts,
    Commands,
    PositionsBuilt,
}

thread_local! {
    /// Per test thread: each target runs on its own thread (no forking), so its counts are its own.
    static TALLIES: [Cell<u64>; 7] = const { [const { Cell::new(0) }; 7] };
}

fn tally(what: Tally) {
    TALLIES.with(|t| t[what as usize].set(t[what as usize].get() + 1));
}

fn tallied(what: Tally) -> u64 {
    TALLIES.with(|t| t[what as usize].get())
}

// ---------------------------------------------------------------------------------------------
// generated text: mutations of corpus lines, token soup, random characters

/// Characters the readers treat specially, plus a few that they must merely survive.
const CHARS: &[char] = &[
    'k', 'a', 'b', 'n', 'r', 'c', 'p', 'K', 'A', 'B', 'N', 'R', 'C', 'P', 'x', 'X', 'e', 'E', 'h',
    'H', 'i', 'j', 'w', 'z', '0', '1', '2', '4', '5', '8', '9', '/', ' ', ' ', '\t', '-', '+', '=',
    '\r', '\0', '\u{fffd}', '\u{e9}', '\u{3000}', '\u{85}',
];

/// Tokens worth inserting: counters at and past every integer limit, FEN fields, keywords.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "-1",
    "+1",
    "7",
    "119",
    "120",
    "255",
    "256",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "-",
    "w",
    "b",
    "r",
    "x",
    "X",
    "/",
    "wait=e3",
    "wait=a0",
    "wait=a5",
    "wait=",
    "wait=j9",
    "R2A2C2P5N2B2r2a2c2p5n2b2",
    "p255",
    "R1",
    "K1",
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "4k4/9/9/9/9/9/9/9/9/3K5",
    "9/9/9/9/9/9/9/9/9/9",
    "startpos",
    "fen",
    "moves",
    "name",
    "value",
    "go",
    "position",
    "setoption",
    "isready",
    "stop",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "mate",
    "perft",
    "time",
    "opptime",
    "h2e2",
    "b2e2C",
    "b7b0rP",
    "b9a9xp",
    "0000",
    "a0a9",
    "Hash",
    "Threads",
    "Clear Hash",
    "UCI_Variant",
    "MultiPV",
    "maniac",
    "xiangqi",
    "jieqi",
    "true",
    "false",
    "\u{fffd}",
];

#[derive(Clone, Debug)]
enum Edit {
    InsertChar {
        at: usize,
        ch: char,
    },
    ReplaceChar {
        at: usize,
        ch: char,
    },
    DeleteChars {
        at: usize,
        len: usize,
    },
    Truncate {
        at: usize,
    },
    FlipCase {
        at: usize,
    },
    InsertToken {
        at: usize,
        token: &'static str,
    },
    ReplaceToken {
        at: usize,
        token: &'static str,
    },
    DeleteToken {
        at: usize,
    },
    DuplicateToken {
        at: usize,
    },
    SwapTokens {
        a: usize,
        b: usize,
    },
    /// Inserts the characters of corpus line `line` from `from` on at `at`.
    Splice {
        line: usize,
        from: usize,
        at: usize,
    },
}

fn any_char() -> impl Strategy<Value = char> {
    prop_oneof![4 => select(CHARS), 1 => any::<char>()]
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        3 => (at, any_char()).prop_map(|(at, ch)| Edit::InsertChar { at, ch }),
        3 => (at, any_char()).prop_map(|(at, ch)| Edit::ReplaceChar { at, ch }),
        2 => (at, 1usize..8).prop_map(|(at, len)| Edit::DeleteChars { at, len }),
        1 => at.prop_map(|at| Edit::Truncate { at }),
        1 => at.prop_map(|at| Edit::FlipCase { at }),
        3 => (at, select(TOKENS)).prop_map(|(at, token)| Edit::InsertToken { at, token }),
        3 => (at, select(TOKENS)).prop_map(|(at, token)| Edit::ReplaceToken { at, token }),
        1 => at.prop_map(|at| Edit::DeleteToken { at }),
        1 => at.prop_map(|at| Edit::DuplicateToken { at }),
        1 => (at, any::<usize>()).prop_map(|(a, b)| Edit::SwapTokens { a, b }),
        1 => (any::<usize>(), any::<usize>(), at)
            .prop_map(|(line, from, at)| Edit::Splice { line, from, at }),
    ]
}

/// `base` with `edits` applied in order; `corpus` supplies spliced text.
fn mutate(base: &str, edits: &[Edit], corpus: &[String]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for e in edits {
        // Positions are taken modulo the current length (+1 where the end is a position too).
        let pos = |at: usize, n: usize| at % (n + 1);
        let tokens = || -> Vec<String> {
            chars
                .iter()
                .collect::<String>()
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        match *e {
            Edit::InsertChar { at, ch } => chars.insert(pos(at, chars.len()), ch),
            Edit::ReplaceChar { at, ch } => {
                if !chars.is_empty() {
                    let i = at % chars.len();
                    chars[i] = ch;
                }
            }
            Edit::DeleteChars { at, len } => {
                let i = pos(at, chars.len());
                let end = (i + len).min(chars.len());
                chars.drain(i..end);
            }
            Edit::Truncate { at } => chars.truncate(pos(at, chars.len())),
            Edit::FlipCase { at } => {
                if !chars.is_empty() {
                    let i = at % chars.len();
                    let c = chars[i];
                    chars[i] = if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    };
                }
            }
            Edit::InsertToken { at, token } => {
                let mut t = tokens();
                let i = pos(at, t.len());
                t.insert(i, token.to_string());
                chars = t.join(" ").chars().collect();
            }
            Edit::ReplaceToken { at, token } => {
                let mut t = tokens();
                if !t.is_empty() {
                    let i = at % t.len();
                    t[i] = token.to_string();
                }
                chars = t.join(" ").chars().collect();
            }
            Edit::DeleteToken { at } => {
                let mut t = tokens();
                if !t.is_empty() {
                    t.remove(at % t.len());
                }
                chars = t.join(" ").chars().collect();
            }
            Edit::DuplicateToken { at } => {
                let mut t = tokens();
                if !t.is_empty() {
                    let i = at % t.len();
                    let copy = t[i].clone();
                    t.insert(i, copy);
                }
                chars = t.join(" ").chars().collect();
            }
            Edit::SwapTokens { a, b } => {
                let mut t = tokens();
                if !t.is_empty() {
                    let n = t.len();
                    t.swap(a % n, b % n);
                }
                chars = t.join(" ").chars().collect();
            }
            Edit::Splice { line, from, at } => {
                if !corpus.is_empty() {
                    let other: Vec<char> = corpus[line % corpus.len()].chars().collect();
                    let from = pos(from, other.len());
                    let i = pos(at, chars.len());
                    chars.splice(i..i, other[from..].iter().copied());
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Inputs for a text reader: corpus lines mutated a little or a lot, inputs of the reader's
/// own shape (`shaped`), token soup, characters of the reader's alphabet (`alphabet` is a regex
/// character class) and arbitrary text.
fn text_inputs(
    corpus: &'static [String],
    shaped: BoxedStrategy<String>,
    alphabet: &str,
) -> BoxedStrategy<String> {
    let class = proptest::string::string_regex(&format!("{alphabet}{{0,100}}"))
        .expect("a valid character class");
    prop_oneof![
        6 => (select(corpus), vec(edit(), 1..3))
            .prop_map(move |(base, edits)| mutate(&base, &edits, corpus)),
        2 => (select(corpus), vec(edit(), 3..12))
            .prop_map(move |(base, edits)| mutate(&base, &edits, corpus)),
        6 => (shaped, vec(edit(), 0..2)).prop_map(move |(base, edits)| mutate(&base, &edits, corpus)),
        1 => vec(select(TOKENS), 0..14).prop_map(|words| words.join(" ")),
        1 => class,
        1 => any::<String>(),
        1 => vec(any::<u8>(), 0..120).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
    .boxed()
}

/// A change to a position's setup, for FENs that mostly read and mostly give positions.
#[derive(Clone, Debug)]
enum SetupEdit {
    Clear(usize),
    /// Puts one of the 14 pieces (0..14), `X` (14) or `x` (15).
    Put(usize, usize),
    Move(usize, usize),
    FlipSide,
    Pool(usize, u8),
    Captured(usize, u8),
    Halfmove(u32),
    Fullmove(u32),
    Wait(Option<usize>),
}

fn counter() -> impl Strategy<Value = u32> {
    prop_oneof![4 => 0u32..130, 1 => any::<u32>(), 1 => Just(u32::MAX), 1 => Just(u32::MAX - 1)]
}

fn count() -> impl Strategy<Value = u8> {
    prop_oneof![6 => 0u8..6, 1 => any::<u8>(), 1 => Just(255u8)]
}

fn setup_edit() -> impl Strategy<Value = SetupEdit> {
    prop_oneof![
        3 => (0usize..90).prop_map(SetupEdit::Clear),
        3 => (0usize..90, 0usize..16).prop_map(|(sq, c)| SetupEdit::Put(sq, c)),
        3 => (0usize..90, 0usize..90).prop_map(|(a, b)| SetupEdit::Move(a, b)),
        1 => Just(SetupEdit::FlipSide),
        3 => (0usize..IDENTITIES, count()).prop_map(|(i, n)| SetupEdit::Pool(i, n)),
        1 => (0usize..IDENTITIES, count()).prop_map(|(i, n)| SetupEdit::Captured(i, n)),
        1 => counter().prop_map(SetupEdit::Halfmove),
        1 => counter().prop_map(SetupEdit::Fullmove),
        1 => proptest::option::of(0usize..90).prop_map(SetupEdit::Wait),
    ]
}

/// A corpus position (or one a few plies into a game from it), edited, then written in one of
/// the FEN dialects with random blanks between the fields and, sometimes, `E`/`H` aliases.
fn shaped_fens() -> BoxedStrategy<String> {
    let positions = corpus_positions();
    (
        0..positions.len(),
        0usize..6,
        any::<u64>(),
        vec(setup_edit(), 0..5),
        0usize..7,
    )
        .prop_map(move |(index, plies, seed, edits, dialect)| {
            let mut pos = positions[index];
            let mut rng = Rng::new(seed);
            for _ in 0..plies {
                match random_step(&pos, &mut rng) {
                    Some((mv, reveal)) if pos.play(mv, reveal).is_ok() => {}
                    _ => break,
                }
            }
            let mut setup = pos.to_setup();
            for e in &edits {
                apply_setup_edit(&mut setup, e);
            }
            write_fen(&setup, dialect, &mut rng)
        })
        .boxed()
}

fn apply_setup_edit(setup: &mut Setup, edit: &SetupEdit) {
    let sq = Square::from_index;
    match *edit {
        SetupEdit::Clear(i) => setup.put(sq(i), None),
        SetupEdit::Put(i, c) => {
            let cell = match c {
                0..=13 => SetupCell::Revealed(Piece::from_index(c)),
                14 => SetupCell::Hidden(Color::Red),
                _ => SetupCell::Hidden(Color::Black),
            };
            setup.put(sq(i), Some(cell));
        }
        SetupEdit::Move(a, b) => {
            let cell = setup.get(sq(a));
            setup.put(sq(a), None);
            setup.put(sq(b), cell);
        }
        SetupEdit::FlipSide => setup.side = !setup.side,
        SetupEdit::Pool(i, n) => setup.pool.set(identity_piece(i), n),
        SetupEdit::Captured(i, n) => setup.captured.set(identity_piece(i), n),
        SetupEdit::Halfmove(n) => setup.halfmove = n,
        SetupEdit::Fullmove(n) => setup.fullmove = n,
        SetupEdit::Wait(w) => setup.wait = w.map(sq),
    }
}

/// `setup` as text: 0 JieqiBox, 1 Pikafish, 2 and 3 legacy (`board pool side [- - h f]`),
/// 4 and 5 plain Xiangqi (`board side [- - h f]`), 6 the board alone.
fn write_fen(setup: &Setup, dialect: usize, rng: &mut Rng) -> String {
    let six = fen::write(setup, FenDialect::JieqiBox);
    let mut fields: Vec<String> = six.split(' ').map(str::to_string).collect();
    // board side pool captured halfmove fullmove [wait=..]
    let wait = (fields.len() == 7).then(|| fields.pop().unwrap_or_default());
    let [board, side, pool, captured, half, full] =
        <[String; 6]>::try_from(fields).unwrap_or_else(|f| panic!("fen::write gave {f:?}"));
    let mut out: Vec<String> = match dialect {
        0 => vec![board, side, pool, captured, half, full],
        1 => vec![board, side, pool, half, full],
        2 => vec![board, pool, side, "-".into(), "-".into(), half, full],
        3 => vec![board, pool, side],
        4 => vec![board, side, "-".into(), "-".into(), half, full],
        5 => vec![board, side],
        _ => vec![board],
    };
    out.extend(wait);
    if rng.chance(1, 4) {
        out[0] = out[0].replace('B', "E").replace('n', "h");
    }
    let mut text = String::new();
    for (i, field) in out.iter().enumerate() {
        if i > 0 {
            text.push_str(rng.pick(&[" ", " ", " ", "  ", "\t", " \t "]));
        }
        text.push_str(field);
    }
    text
}

/// Moves of every shape: squares on and off the board, suffix letters and their aliases.
fn shaped_moves() -> BoxedStrategy<String> {
    proptest::string::string_regex("[a-j][0-9][a-j][0-9][xXkKaAbBnNrRcCpPeEhHqQ]{0,2}")
        .expect("a valid pattern")
        .boxed()
}

/// Lines as the session target writes them (commands with plausible arguments, moves with
/// suffixes from real play), from a fresh session.
fn shaped_lines() -> BoxedStrategy<String> {
    any::<u64>()
        .prop_map(|seed| {
            let model = Model::new();
            let mut rng = Rng::new(seed);
            String::from_utf8_lossy(&session_line(&model, &mut rng)).into_owned()
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// random play

fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0x5151, |h, b| splitmix(h ^ u64::from(b)))
}

/// A random legal move with what the mover learns: the flip identity drawn by pool weight, and
/// for a capture of a face-down piece, half the time an identity the victim can have.
fn random_step(pos: &Position, rng: &mut Rng) -> Option<(Move, Reveal)> {
    let list = pos.legal_move_list();
    if list.is_empty() {
        return None;
    }
    let mv = rng.pick(list.as_slice());
    let flip = if pos.is_flip(mv) {
        let outcomes = pos.flip_outcomes(mv.from());
        let total = outcomes.total_weight() as usize;
        let mut r = rng.below(total) as u32;
        let mut drawn = None;
        for (piece, weight) in outcomes.iter() {
            if r < u32::from(weight) {
                drawn = Some(piece);
                break;
            }
            r -= u32::from(weight);
        }
        drawn
    } else {
        None
    };
    let captured = if pos.captures_hidden(mv) && rng.chance(1, 2) {
        let mut pool = *pos.pool();
        if let Some(p) = flip {
            pool.remove(p);
        }
        let candidates: Vec<Piece> = pool
            .iter()
            .map(|(p, _)| p)
            .filter(|p| pos.variant() == Variant::Maniac || p.color == mv.to().half())
            .collect();
        (!candidates.is_empty()).then(|| rng.pick(&candidates))
    } else {
        None
    };
    Some((mv, Reveal { flip, captured }))
}

/// Whether some identity is in the pools (and known captures) more often than the revealed pieces
/// on the board leave room for: a pool no game can produce. The FEN reader refuses such a pool
/// (and completes short pools within the material), and play cannot create one.
fn over_material(pos: &Position) -> bool {
    let mut revealed = [0u32; 14];
    for sq in Square::all() {
        if let Some(Occupant::Revealed(p)) = pos.occupant(sq) {
            revealed[p.index()] += 1;
        }
    }
    (0..IDENTITIES).map(identity_piece).any(|p| {
        let seen = u32::from(pos.pool().count(p)) + u32::from(pos.known_captures().count(p));
        seen + revealed[p.index()] > u32::from(p.role.start_count())
    })
}

/// Whatever a position is, these hold: the kept hash is the computed one, it holds no more pieces
/// of a kind than a side owns, every pool group holds at least as many identities as face-down
/// pieces draw from it (the belief is consistent), and its FENs read back to it.
fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.hash(), pos.compute_hash(), "hash of {:?}", pos);
    prop_assert!(!over_material(pos), "{:?} is beyond the material", pos);
    let hidden = pos.hidden();
    match pos.variant() {
        Variant::Jieqi => {
            for color in [Color::Red, Color::Black] {
                let on_half = (hidden & pos.pieces_of(color)).count();
                prop_assert!(
                    pos.pool().total_of(color) >= on_half,
                    "{:?}: {} face-down pieces of {:?} but a pool of {}",
                    pos,
                    on_half,
                    color,
                    pos.pool().total_of(color)
                );
            }
        }
        Variant::Maniac => prop_assert!(pos.pool().total() >= hidden.count(), "{:?}", pos),
        Variant::Xiangqi => prop_assert!(hidden.is_empty() && pos.pool().is_empty(), "{:?}", pos),
    }
    for sq in hidden {
        prop_assert!(
            !pos.flip_outcomes(sq).is_empty(),
            "{:?}: no outcome on {}",
            pos,
            sq
        );
    }
    check_written(pos)
}

/// The position's 6-field and 5-field FENs read back, without warnings, to the same board, side,
/// pools, counters, waiting square and hash. The known captures come back from the 6-field form
/// (in every variant; the 5-field form has no place for them).
fn check_written(pos: &Position) -> Result<(), TestCaseError> {
    let variant = pos.variant();
    for dialect in [FenDialect::JieqiBox, FenDialect::Pikafish] {
        let text = match dialect {
            FenDialect::JieqiBox => pos.fen6(),
            FenDialect::Pikafish => pos.fen(),
        };
        let setup = fen::parse(&text)
            .map_err(|e| TestCaseError::fail(format!("{text:?} written for {pos:?}: {e}")))?;
        let (again, warnings) = match Position::from_setup(&setup, variant) {
            Ok(read) => read,
            Err(e) => {
                let why = format!("{text:?} written for {pos:?} is refused: {e}");
                return Err(TestCaseError::fail(why));
            }
        };
        prop_assert!(warnings.is_empty(), "{:?} reads with {:?}", text, warnings);
        prop_assert_eq!(again.hash(), pos.hash(), "hash after reading {:?}", text);
        let mut expected = pos.to_setup();
        if dialect == FenDialect::Pikafish {
            expected.captured = jieqi::core::Pool::EMPTY;
        } else {
            prop_assert_eq!(&again, pos, "{:?}", text);
        }
        prop_assert_eq!(&again.to_setup(), &expected, "{:?}", text);
        if dialect == FenDialect::JieqiBox {
            prop_assert_eq!(
                again.fen6(),
                fen::write(&expected, dialect),
                "read {:?}",
                text
            );
        }
    }
    Ok(())
}

/// One checked ply of random play: every generated move is legal, a move that is not generated
/// or an identity the pool cannot supply is refused without a change, and the played move takes
/// exactly the revealed and the learned identity out of the pool. Returns false at the game's end.
fn play_checked(pos: &mut Position, rng: &mut Rng) -> Result<bool, TestCaseError> {
    check_position(pos)?;
    let list = pos.legal_move_list();
    for &m in list.iter() {
        prop_assert!(pos.is_legal(m), "generated {} is not legal in {:?}", m, pos);
    }
    prop_assert_eq!(list.len(), pos.count_legal(), "{:?}", pos);
    // Moves that are not generated: from the mover's pieces to anywhere, and random pairs.
    let ours: Vec<Square> = pos.pieces_of(pos.side_to_move()).collect();
    for i in 0..6 {
        let m = if i < 4 && !ours.is_empty() {
            let from = rng.pick(&ours);
            let to = Square::from_index(rng.below(90));
            if from == to {
                continue;
            }
            Move::new(from, to)
        } else {
            Move::from_raw(rng.next() as u16 & 0x3FFF).unwrap_or(Move::PASS)
        };
        if !list.contains(m) {
            prop_assert!(
                !pos.is_legal(m),
                "{} is legal but not generated in {:?}",
                m,
                pos
            );
            let mut copy = *pos;
            prop_assert!(copy.play(m, Reveal::default()).is_err(), "{} played", m);
            prop_assert_eq!(&copy, &*pos);
        }
    }
    let Some((mv, reveal)) = random_step(pos, rng) else {
        return Ok(false);
    };
    tally(Tally::Plies);
    if pos.is_flip(mv) {
        // An identity the pool cannot supply is refused.
        let outcomes = pos.flip_outcomes(mv.from());
        let impossible = (0..IDENTITIES)
            .map(identity_piece)
            .find(|&p| !outcomes.iter().any(|(q, _)| q == p));
        if let Some(p) = impossible {
            let mut copy = *pos;
            let wrong = Reveal {
                flip: Some(p),
                captured: None,
            };
            prop_assert!(
                copy.play(mv, wrong).is_err(),
                "{}{} played in {:?}",
                mv,
                p,
                pos
            );
            prop_assert_eq!(&copy, &*pos);
        }
    }
    let before = *pos;
    pos.play(mv, reveal)
        .map_err(|e| TestCaseError::fail(format!("{mv} {reveal:?} in {before:?}: {e}")))?;
    let mut pool = *before.pool();
    let mut known = *before.known_captures();
    if before.is_flip(mv) {
        let revealed = match pos.occupant(mv.to()) {
            Some(Occupant::Revealed(p)) => p,
            other => return Err(TestCaseError::fail(format!("{mv} left {other:?}"))),
        };
        if let Some(p) = reveal.flip {
            prop_assert_eq!(revealed, p);
        }
        prop_assert!(
            pool.remove(revealed),
            "{} drew {} from {}",
            mv,
            revealed,
            pool
        );
    }
    if let Some(victim) = reveal.captured {
        prop_assert!(pool.remove(victim));
        known.add(victim);
    }
    prop_assert_eq!(
        pos.pool(),
        &pool,
        "pool after {} {:?} in {:?}",
        mv,
        reveal,
        before
    );
    prop_assert_eq!(pos.known_captures(), &known);
    Ok(true)
}

fn random_game(start: &Position, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut pos = *start;
    let mut rng = Rng::new(seed);
    for _ in 0..plies {
        if !play_checked(&mut pos, &mut rng)? {
            break;
        }
    }
    check_position(&pos)
}

/// Every position the FEN corpus gives in any variant, and the start positions.
fn corpus_positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out: Vec<Position> = Variant::ALL
            .iter()
            .map(|&v| Position::startpos(v))
            .collect();
        for line in fen_corpus() {
            if let Ok(setup) = fen::parse(line) {
                for v in Variant::ALL {
                    if let Ok((pos, _)) = Position::from_setup(&setup, v) {
                        out.push(pos);
                    }
                }
            }
        }
        out
    })
}

// ---------------------------------------------------------------------------------------------
// the FEN reader

/// Any text: reading never panics; a FEN that reads writes back to itself; a position it gives
/// in any variant writes FENs that read back to the same position, and plays on consistently.
pub fn check_fen(text: &str) -> Result<(), TestCaseError> {
    let Ok(setup) = fen::parse(text) else {
        return Ok(());
    };
    tally(Tally::FenRead);
    let six = fen::write(&setup, FenDialect::JieqiBox);
    let again = fen::parse(&six);
    prop_assert_eq!(again.as_ref(), Ok(&setup), "{:?}", six);
    for variant in Variant::ALL {
        let Ok((pos, _)) = Position::from_setup(&setup, variant) else {
            continue;
        };
        tally(Tally::FenPositions);
        prop_assert_eq!(pos.variant(), variant);
        prop_assert_eq!(pos.side_to_move(), setup.side);
        random_game(&pos, seed_of(text), 3)?;
    }
    Ok(())
}

#[test]
fn fuzz_fen() {
    fuzz(
        "fen",
        fen_corpus(),
        check_fen,
        cases(20000, 1),
        text_inputs(
            fen_corpus(),
            shaped_fens(),
            "[0-9/ xXkKaAbBnNrRcCpPeEhHwr=+-]",
        ),
        |text| check_fen(text),
    );
    eprintln!(
        "fuzz fen: {} inputs read as FEN, {} positions (of the three variants), {} plies played",
        tallied(Tally::FenRead),
        tallied(Tally::FenPositions),
        tallied(Tally::Plies)
    );
}

// ---------------------------------------------------------------------------------------------
// the move readers

/// Both move readers take any text; what they accept writes back to text that reads the same.
pub fn check_move(text: &str) -> Result<(), TestCaseError> {
    let plain = Move::parse(text);
    if let Some(m) = plain {
        tally(Tally::Moves);
        prop_assert_eq!(m.to_string(), text);
        prop_assert_eq!(Move::from_raw(m.raw()), Some(m));
    }
    match MoveText::parse(text) {
        Ok(mt) => {
            tally(Tally::MoveTexts);
            let written = mt.to_string();
            prop_assert_eq!(MoveText::parse(&written), Ok(mt), "{:?}", written);
            // Same length and squares; suffix letters only change for the aliases (E, H, X).
            prop_assert_eq!(written.len(), text.len());
            prop_assert_eq!(&written[..4], &text[..4]);
            prop_assert_eq!(Move::parse(&text[..4]), Some(mt.mv));
            match plain {
                Some(m) => {
                    prop_assert_eq!(mt.mv, m);
                    prop_assert_eq!(mt.suffix, Suffix::None);
                    prop_assert_eq!(written, text);
                }
                None => prop_assert!(mt.suffix != Suffix::None, "{:?}", text),
            }
            if mt.mv.is_pass() {
                prop_assert_eq!(mt.suffix, Suffix::None);
            }
        }
        Err(why) => {
            prop_assert!(
                plain.is_none(),
                "{:?} is a move but not a move text: {}",
                text,
                why
            );
        }
    }
    Ok(())
}

#[test]
fn fuzz_move() {
    fuzz(
        "move",
        move_corpus(),
        check_move,
        cases(20000, 1),
        text_inputs(
            move_corpus(),
            shaped_moves(),
            "[a-j0-9xXkKaAbBnNrRcCpPeEhH]",
        ),
        |text| check_move(text),
    );
    eprintln!(
        "fuzz move: {} inputs read as moves, {} as move texts",
        tallied(Tally::Moves),
        tallied(Tally::MoveTexts)
    );
}

// ---------------------------------------------------------------------------------------------
// the protocol line parser

/// `line` with its first word in upper case (command words are read in any case).
fn shout_command(line: &str) -> String {
    let start = line.len() - line.trim_start().len();
    let rest = &line[start..];
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    format!(
        "{}{}{}",
        &line[..start],
        rest[..end].to_ascii_uppercase(),
        &rest[end..]
    )
}

/// Any line, in both dialects: parsing never panics, ignores a trailing `\r` and surrounding
/// blanks, reads the command word in any case; a `position` builds or is refused in every variant
/// (the game it builds is consistent), and a `setoption` applies or is refused.
pub fn check_line(line: &str) -> Result<(), TestCaseError> {
    for dialect in [Dialect::Uci, Dialect::Ucci] {
        let parsed = command::parse(line, dialect);
        prop_assert_eq!(&command::parse(&format!("{line}\r"), dialect), &parsed);
        prop_assert_eq!(&command::parse(&format!(" \t{line}  "), dialect), &parsed);
        if let Err(e) = &parsed {
            prop_assert!(!e.to_string().is_empty());
            continue;
        }
        tally(Tally::Commands);
        prop_assert_eq!(&command::parse(&shout_command(line), dialect), &parsed);
        match parsed {
            Ok(Command::Position(p)) => {
                for m in &p.moves {
                    prop_assert_eq!(MoveText::parse(&m.to_string()), Ok(*m));
                }
                for variant in Variant::ALL {
                    match game_position::build(&p, variant) {
                        Ok((state, _)) => {
                            tally(Tally::PositionsBuilt);
                            check_position(state.position())?
                        }
                        Err(e) => prop_assert!(!e.to_string().is_empty()),
                    }
                }
            }
            Ok(Command::SetOption { name, value }) => {
                let mut settings = Settings::default();
                let before = settings.clone();
                if let Err(e) = settings.set(&name, value.as_deref()) {
                    prop_assert_eq!(&settings, &before, "{} changed settings", e);
                }
            }
            Ok(Command::Go(go)) => {
                for m in &go.searchmoves {
                    prop_assert_eq!(Move::parse(&m.to_string()), Some(*m));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn fuzz_protocol_line() {
    fuzz(
        "protocol_line",
        protocol_corpus(),
        check_line,
        cases(20000, 1),
        text_inputs(protocol_corpus(), shaped_lines(), "[a-zA-Z0-9 /\\t_=+-]"),
        |line| check_line(line),
    );
    eprintln!(
        "fuzz protocol_line: {} commands read (two dialects), {} positions built",
        tallied(Tally::Commands),
        tallied(Tally::PositionsBuilt)
    );
}

// ---------------------------------------------------------------------------------------------
// random play from every corpus position

#[test]
fn fuzz_random_play() {
    let positions = corpus_positions();
    fuzz(
        "random_play",
        fen_corpus(),
        |line| {
            // Every position of the line, in every variant that accepts it.
            let Ok(setup) = fen::parse(line) else {
                return Ok(());
            };
            for v in Variant::ALL {
                if let Ok((pos, _)) = Position::from_setup(&setup, v) {
                    random_game(&pos, seed_of(line), 40)?;
                }
            }
            Ok(())
        },
        cases(1000, 30),
        (0..positions.len(), any::<u64>(), 1usize..120),
        |&(index, seed, plies)| random_game(&positions[index], seed, plies),
    );
    eprintln!("fuzz random_play: {} plies played", tallied(Tally::Plies));
}

// ---------------------------------------------------------------------------------------------
// whole sessions against the protocol loop

/// Lines sent, `go` answered, `d` shown and `isready` answered, over all sessions checked.
static SESSION_STATS: [AtomicU64; 4] = [const { AtomicU64::new(0) }; 4];

/// What the session must have done, followed line by line as the loop reads them.
struct Model {
    dialect: Dialect,
    settings: Settings,
    game: GameState,
    /// The position each `go` searches, in order (`None`: the last `position` was refused, so
    /// the `go` answers `bestmove (none)`).
    searches: Vec<Option<Position>>,
    /// The last `position` command was refused (until a position is accepted or reset).
    refused: bool,
    /// (6-field FEN, hash) each `d` shows, in order.
    displays: Vec<(String, u64)>,
    isready: usize,
    /// The lines sent (`\n`-terminated).
    input: Vec<u8>,
    lines: usize,
}

impl Model {
    fn new() -> Model {
        let settings = Settings::default();
        Model {
            dialect: Dialect::Uci,
            game: GameState::startpos(settings.variant),
            settings,
            searches: Vec::new(),
            refused: false,
            displays: Vec::new(),
            isready: 0,
            input: Vec::new(),
            lines: 0,
        }
    }

    fn variant(&self) -> Variant {
        self.settings.variant
    }

    fn reset(&mut self) {
        self.game = GameState::startpos(self.variant());
        self.refused = false;
    }

    /// Sends `line` if its work is bounded, and follows what it does. Lines that would end the
    /// session (`quit`), run long (`bench`, deep `perft`, a `go` without a small depth or node
    /// limit that `stop` alone does not end), need much memory (large `Hash`, many `Threads`),
    /// or act differently during a search (UCCI's new-game button) are left out.
    fn send(&mut self, raw: &[u8]) {
        let raw: Vec<u8> = raw
            .iter()
            .map(|&b| if b == b'\n' { b' ' } else { b })
            .collect();
        // The loop reads lines as lossy UTF-8; so does the model.
        let line = String::from_utf8_lossy(&raw).into_owned();
        match command::parse(&line, self.dialect) {
            Ok(Command::Quit) | Ok(Command::Bench(_)) => return,
            Ok(Command::Perft(depth)) if depth > 2 => return,
            Ok(Command::Go(go)) => {
                let bounded = go.depth.is_some_and(|d| d <= 2)
                    || go.nodes.is_some_and(|n| n <= 5000)
                    || (go.depth.is_none() && go.mate.is_some_and(|m| m <= 1));
                if !(bounded || go.infinite) {
                    return;
                }
                let searched = (!self.refused).then(|| *self.game.position());
                self.searches.push(searched);
            }
            Ok(Command::SetOption { name, value }) => {
                if options::find(&name).is_some_and(|s| s.id == OptionId::NewGame) {
                    return;
                }
                let mut after = self.settings.clone();
                if after.set(&name, value.as_deref()).is_ok() {
                    if after.hash_mb > 16 || after.threads > 2 || after.samples > 8 {
                        return;
                    }
                    let old = self.variant();
                    self.settings = after;
                    if self.variant() != old {
                        self.reset();
                    }
                }
            }
            Ok(Command::Uci) => self.dialect = Dialect::Uci,
            Ok(Command::Ucci) => {
                let switching = self.dialect != Dialect::Ucci;
                self.dialect = Dialect::Ucci;
                if switching && self.variant() != Variant::Xiangqi {
                    self.settings.variant = Variant::Xiangqi;
                    self.reset();
                }
            }
            Ok(Command::UciNewGame) => self.reset(),
            Ok(Command::Position(p)) => {
                // All or nothing: a refused command keeps the previous position (and the
                // next `go` searches nothing).
                match game_position::build(&p, self.variant()) {
                    Ok((state, _)) => {
                        self.game = state;
                        self.refused = false;
                    }
                    Err(_) => self.refused = true,
                }
            }
            Err(command::ParseError::Invalid {
                command: "position",
                ..
            }) => self.refused = true,
            Ok(Command::Display) => {
                let pos = self.game.position();
                self.displays.push((pos.fen6(), pos.hash()));
            }
            Ok(Command::IsReady) => self.isready += 1,
            _ => {}
        }
        self.input.extend_from_slice(&raw);
        self.input.push(b'\n');
        self.lines += 1;
        if matches!(
            command::parse(&line, self.dialect),
            Ok(Command::Position(_))
        ) {
            // Every position command is followed by `d`, to see what it left.
            self.send(b"d");
        }
    }

    /// Runs the session in-process and checks its output against the model.
    fn run_and_check(self) -> Result<(), TestCaseError> {
        SESSION_STATS[0].fetch_add(self.lines as u64, Ordering::Relaxed);
        SESSION_STATS[1].fetch_add(self.searches.len() as u64, Ordering::Relaxed);
        SESSION_STATS[2].fetch_add(self.displays.len() as u64, Ordering::Relaxed);
        SESSION_STATS[3].fetch_add(self.isready as u64, Ordering::Relaxed);
        let script = String::from_utf8_lossy(&self.input).into_owned();
        let out = run_session(self.input.clone())
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- input ---\n{script}")))?;
        let text = String::from_utf8(out)
            .map_err(|e| TestCaseError::fail(format!("output is not UTF-8: {e}")))?;
        let context = || format!("\n--- input ---\n{script}--- output ---\n{text}");
        let mut bestmoves = Vec::new();
        let mut displays = Vec::new();
        let mut readyok = 0;
        let mut fen6 = None;
        for line in text.lines() {
            prop_assert!(
                line.bytes().all(|b| b == b' ' || b.is_ascii_graphic()),
                "not printable ASCII: {:?}{}",
                line,
                context()
            );
            for bad in uci::FORBIDDEN {
                prop_assert!(!line.contains(bad), "{:?}{}", line, context());
            }
            if line == "readyok" {
                readyok += 1;
            } else if line.starts_with("bestmove ") || line == "nobestmove" {
                bestmoves.push(line);
            } else if let Some(f) = line.strip_prefix("Fen6: ") {
                fen6 = Some(f.to_string());
            } else if let Some(key) = line.strip_prefix("Key: ") {
                displays.push((fen6.take().unwrap_or_default(), key.to_string()));
            }
        }
        prop_assert_eq!(
            readyok,
            self.isready,
            "one readyok per isready{}",
            context()
        );
        prop_assert_eq!(
            bestmoves.len(),
            self.searches.len(),
            "one bestmove per go{}",
            context()
        );
        for (line, pos) in bestmoves.iter().zip(&self.searches) {
            match pos {
                Some(pos) => check_bestmove(line, pos)
                    .map_err(|e| TestCaseError::fail(format!("{e}{}", context())))?,
                None => prop_assert!(
                    *line == "bestmove (none)" || *line == "nobestmove",
                    "{:?} after a refused position{}",
                    line,
                    context()
                ),
            }
        }
        let expected: Vec<(String, String)> = self
            .displays
            .iter()
            .map(|(f, h)| (f.clone(), format!("{h:016x}")))
            .collect();
        prop_assert_eq!(displays, expected, "positions shown by d{}", context());
        Ok(())
    }
}

/// Panic messages of every thread, as they happen. A search thread that panics leaves the
/// protocol loop waiting for its move for ever; the session target watches this channel instead,
/// so that such a panic fails the target rather than hanging it.
fn panics() -> &'static Receiver<String> {
    static WATCH: OnceLock<Receiver<String>> = OnceLock::new();
    WATCH.get_or_init(|| {
        let (tx, rx) = unbounded();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = tx.send(info.to_string());
            previous(info);
        }));
        rx
    })
}

/// Runs the protocol loop on `input` (on its own thread) and returns its output, or the first
/// panic of any thread while it ran.
fn run_session(input: Vec<u8>) -> Result<Vec<u8>, String> {
    let panics = panics();
    while panics.try_recv().is_ok() {} // from before this session
    let (done_tx, done_rx) = bounded(1);
    thread::spawn(move || {
        let mut out = Vec::new();
        uci::run(Cursor::new(input), &mut out);
        let _ = done_tx.send(out);
    });
    select! {
        recv(done_rx) -> out => out.map_err(|_| {
            let why = panics.try_recv().unwrap_or_default();
            format!("the protocol loop panicked: {why}")
        }),
        recv(panics) -> why => Err(format!(
            "a thread panicked during the session: {}",
            why.unwrap_or_default()
        )),
    }
}

/// A `bestmove` line: a legal 4-character move of the searched position (`(none)` only without
/// one), and a ponder move only after a move that flips nothing, legal after it.
fn check_bestmove(line: &str, pos: &Position) -> Result<(), TestCaseError> {
    let words: Vec<&str> = line.split(' ').collect();
    let (best, ponder) = match words.as_slice() {
        ["nobestmove"] | ["bestmove", "(none)"] => (None, None),
        ["bestmove", b] => (Some(*b), None),
        ["bestmove", b, "ponder", p] => (Some(*b), Some(*p)),
        _ => return Err(TestCaseError::fail(format!("malformed {line:?}"))),
    };
    let Some(best) = best else {
        prop_assert!(
            pos.has_no_moves(),
            "{:?} with legal moves in {:?}",
            line,
            pos
        );
        return Ok(());
    };
    let mv = Move::parse(best).filter(|_| best.len() == 4);
    let Some(mv) = mv else {
        return Err(TestCaseError::fail(format!(
            "{line:?}: not a 4-character move"
        )));
    };
    prop_assert!(pos.is_legal(mv), "{:?} is illegal in {:?}", line, pos);
    if let Some(p) = ponder {
        let pm = Move::parse(p).filter(|_| p.len() == 4);
        prop_assert!(pm.is_some() && !pos.is_flip(mv), "{:?} in {:?}", line, pos);
        let mut after = *pos;
        after.play_unchecked(mv, None);
        prop_assert!(
            pm.is_some_and(|m| after.is_legal(m) && !after.is_flip(m)),
            "ponder move of {:?} in {:?}",
            line,
            pos
        );
    }
    Ok(())
}

/// A move as a referee writes it for the mover: the flip identity as a 5th letter, and sometimes
/// the learned identity of a captured face-down piece (or `x`).
fn move_text(pos: &Position, mv: Move, reveal: Reveal, rng: &mut Rng) -> String {
    let mark = |p: Option<Piece>| p.map_or(Mark::Unknown, Mark::Piece);
    let suffix = match (pos.is_flip(mv), pos.captures_hidden(mv)) {
        (true, true) if reveal.captured.is_some() || rng.chance(1, 2) => {
            Suffix::Two(mark(reveal.flip), mark(reveal.captured))
        }
        (true, _) => Suffix::One(mark(reveal.flip)),
        (false, true) => match reveal.captured {
            Some(p) if rng.chance(1, 2) => Suffix::One(Mark::Piece(p)),
            Some(p) => Suffix::Two(Mark::Unknown, Mark::Piece(p)),
            None => Suffix::None,
        },
        (false, false) => Suffix::None,
    };
    MoveText { mv, suffix }.to_string()
}

/// A `position` command from the current variant's start, a corpus position or the current
/// one, with a few random moves; sometimes with a move spoiled, so that it is refused.
fn position_line(model: &Model, rng: &mut Rng) -> String {
    let variant = model.variant();
    let starts: Vec<&Position> = corpus_positions()
        .iter()
        .filter(|p| p.variant() == variant)
        .collect();
    let (head, mut pos) = match rng.below(4) {
        0 => ("startpos".to_string(), Position::startpos(variant)),
        1 => {
            let pos = *model.game.position();
            (format!("fen {}", pos.fen6()), pos)
        }
        _ => {
            let pos = *rng.pick(&starts);
            let text = if rng.chance(1, 2) {
                pos.fen()
            } else {
                pos.fen6()
            };
            (format!("fen {text}"), pos)
        }
    };
    let mut moves = Vec::new();
    for _ in 0..rng.below(10) {
        let Some((mv, reveal)) = random_step(&pos, rng) else {
            break;
        };
        moves.push(move_text(&pos, mv, reveal, rng));
        if pos.play(mv, reveal).is_err() {
            break;
        }
    }
    if !moves.is_empty() && rng.chance(1, 4) {
        let i = rng.below(moves.len());
        moves[i] = rng
            .pick(&[
                "a0a9", "h2e2", "b2e2", "b2e2Q", "e0e1", "0000", "a9a8r", "z1z2",
            ])
            .to_string();
    }
    if moves.is_empty() && rng.chance(1, 2) {
        format!("position {head}")
    } else {
        format!("position {head} moves {}", moves.join(" "))
    }
}

/// One random session line.
fn session_line(model: &Model, rng: &mut Rng) -> Vec<u8> {
    let pos = *model.game.position();
    let legal: Vec<String> = pos
        .legal_move_list()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let some_legal = |rng: &mut Rng| -> String {
        (0..1 + rng.below(3))
            .map(|_| {
                if legal.is_empty() || rng.chance(1, 4) {
                    "a0a9".to_string()
                } else {
                    rng.pick(&legal)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let line = match rng.below(24) {
        0..=4 => position_line(model, rng),
        5 => "go depth 1".to_string(),
        6 => "go depth 2".to_string(),
        7 => format!("go nodes {}", 1 + rng.below(3000)),
        8 => "go infinite".to_string(),
        9 => format!("go ponder nodes {}", 1 + rng.below(2000)),
        10 => format!("go depth 2 searchmoves {}", some_legal(rng)),
        11 => "go wtime 1000 btime -50 winc 10 binc 10 movestogo 1 nodes 800".to_string(),
        12 => "stop".to_string(),
        13 => "ponderhit".to_string(),
        14 => "isready".to_string(),
        15 => "d".to_string(),
        16 => rng
            .pick(&[
                "setoption name UCI_Variant value jieqi",
                "setoption name UCI_Variant value maniac",
                "setoption name UCI_Variant value xiangqi",
                "setoption name MultiPV value 2",
                "setoption name MultiPV value 1",
                "setoption name Threads value 2",
                "setoption name Threads value 1",
                "setoption name Hash value 4",
                "setoption name Clear Hash",
                "setoption name UCI_ShowWDL value true",
                "setoption name SearchMode value pimc",
                "setoption name SearchMode value hybrid",
                "setoption name SearchMode value expectimax",
                "setoption name Samples value 2",
                "setoption name Ponder value true",
                "setoption name Seed value 9",
                "setoption name OwnBook value true",
                "setoption name OwnBook value false",
            ])
            .to_string(),
        17 => rng
            .pick(&["ucinewgame", "uci", "eval", "perft 1", "ucci", "debug on"])
            .to_string(),
        18 => format!("banmoves {}", some_legal(rng)),
        19 => rng
            .pick(&["go mate 1", "go depth 1 movetime 5", "go perft 1"])
            .to_string(),
        20 => {
            // Random bytes, often not UTF-8.
            let n = rng.below(40);
            return (0..n).map(|_| rng.next() as u8).collect();
        }
        _ => {
            // A corpus line, mutated.
            let corpus = protocol_corpus();
            let base = rng.pick(corpus);
            let edits: Vec<Edit> = (0..1 + rng.below(4))
                .map(|_| {
                    let at = rng.next() as usize;
                    match rng.below(5) {
                        0 => Edit::InsertToken {
                            at,
                            token: rng.pick(TOKENS),
                        },
                        1 => Edit::ReplaceToken {
                            at,
                            token: rng.pick(TOKENS),
                        },
                        2 => Edit::DeleteChars {
                            at,
                            len: 1 + rng.below(6),
                        },
                        3 => Edit::Truncate { at },
                        _ => Edit::InsertChar {
                            at,
                            ch: rng.pick(CHARS),
                        },
                    }
                })
                .collect();
            mutate(&base, &edits, corpus)
        }
    };
    line.into_bytes()
}

fn session(seed: u64, length: usize) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let mut model = Model::new();
    while model.lines < length {
        let line = session_line(&model, &mut rng);
        model.send(&line);
    }
    model.run_and_check()
}

#[test]
fn fuzz_session() {
    // The corpus, replayed as sessions: the protocol lines in order, and every FEN line as a
    // position in each variant, searched briefly.
    let mut replays: Vec<String> = vec!["protocol.txt".to_string()];
    replays.extend(Variant::ALL.iter().map(|v| v.name().to_string()));
    fuzz(
        "session",
        &replays,
        |which| {
            let mut model = Model::new();
            if which == "protocol.txt" {
                for line in protocol_corpus() {
                    model.send(line.as_bytes());
                }
            } else {
                model.send(format!("setoption name UCI_Variant value {which}").as_bytes());
                for line in fen_corpus() {
                    model.send(format!("position fen {line}").as_bytes());
                    model.send(b"go nodes 100");
                }
            }
            model.send(b"isready");
            model.run_and_check()
        },
        cases(40, 4000),
        (any::<u64>(), 5usize..60),
        |&(seed, length)| session(seed, length),
    );
    let [lines, gos, displays, isready] =
        SESSION_STATS.each_ref().map(|n| n.load(Ordering::Relaxed));
    eprintln!(
        "fuzz session: {lines} lines sent; {gos} bestmoves, {displays} positions shown by d, \
         {isready} readyok checked"
    );
}
