//! The match runner's test helpers: running `jieqi match`, the faulty test engine, reading
//! records, and replaying a record on the rules core.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use jieqi::core::{fen, Color, Game, Move, Piece, Position, Reveal, Variant};
use serde_json::Value as Json;

pub const JIEQI: &str = env!("CARGO_BIN_EXE_jieqi");

/// The faulty test engine (`examples/faulty_engine.rs`): a proxy in front of a real engine that
/// misbehaves on purpose. `cargo test` builds the examples next to the test binaries
/// (`target/<profile>/examples/`); when only one test target was built (`cargo test --test
/// NAME`), this builds the example once with the same cargo, profile and target directory.
pub fn faulty_engine() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        // target/<profile>/deps/<test binary>
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("the test binary lies in target/<profile>/deps");
        let path = profile_dir
            .join("examples")
            .join(format!("faulty_engine{}", std::env::consts::EXE_SUFFIX));
        if !path.exists() {
            build_faulty_engine(profile_dir);
        }
        assert!(
            path.exists(),
            "the faulty test engine is missing at {} (build it with `cargo build --example \
             faulty_engine`, or run the whole `cargo test`)",
            path.display()
        );
        path
    })
}

/// Builds the example into `profile_dir` with the cargo that built the tests.
fn build_faulty_engine(profile_dir: &Path) {
    let release = profile_dir.file_name().is_some_and(|n| n == "release");
    let target_dir = profile_dir.parent().expect("target/<profile>");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args([
        "build",
        "--quiet",
        "--example",
        "faulty_engine",
        "--manifest-path",
    ])
    .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
    .arg("--target-dir")
    .arg(target_dir)
    .args(["--profile", if release { "release" } else { "test" }]);
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("could not run {cmd:?} to build the faulty engine: {e}"));
    assert!(status.success(), "{cmd:?} failed: {status}");
}

/// An `--engine` value: the faulty proxy in front of `jieqi`, with extra key=value words.
/// `proxy_args` are the proxy's own (`--mode`, `--at`, `--sleep`, `--log`).
pub fn faulty(name: &str, proxy_args: &str, extra: &str) -> String {
    format!(
        "name={name} cmd=\"{} {proxy_args} -- {JIEQI}\" {extra}",
        faulty_engine().display()
    )
}

/// A fresh scratch directory for one test, removed with its files when the test passes (a
/// failing test leaves it for inspection).
pub fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("jieqi-referee-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's scratch directory (see [`scratch`]); derefs to its path.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// How long a `jieqi match` of a test may run before it counts as hung. A hang guard only: the
/// tests' matches take seconds, and no test claims how fast they are.
pub const HANG_GUARD: Duration = Duration::from_secs(300);

/// Runs `jieqi match` with `args` to its end. A run still going after [`HANG_GUARD`] is killed
/// and reported as a hang.
pub fn run_match(args: &[&str]) -> Output {
    let child = Command::new(JIEQI)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jieqi match runs");
    wait_guarded(child, &format!("jieqi match {args:?}"))
}

/// Waits for `child` to end, reading its piped output; one still running after [`HANG_GUARD`]
/// is killed and reported as a hang (`what` names it).
pub fn wait_guarded(mut child: Child, what: &str) -> Output {
    let read_all = |from: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut from) = from {
                let _ = from.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + HANG_GUARD;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} hung: still running after {HANG_GUARD:?} (killed)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

pub fn read_records(path: &Path) -> Vec<Json> {
    let text = std::fs::read_to_string(path).expect("record file");
    assert!(text.is_empty() || text.ends_with('\n'), "whole lines only");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad record line {e}: {l}")))
        .collect()
}

pub fn s<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key)
        .and_then(|x| x.as_str())
        .unwrap_or_else(|| panic!("string field {key}"))
}

pub fn piece_field(v: &Json, key: &str) -> Option<Piece> {
    let f = v.get(key).unwrap_or_else(|| panic!("field {key}"));
    f.as_str().map(|t| {
        assert_eq!(t.chars().count(), 1);
        Piece::from_char(t.chars().next().unwrap()).unwrap()
    })
}

/// The view text of a move for `viewer`, written independently of the referee's code: the flip
/// letter for both sides, the captured letter only for the mover.
pub fn expected_view(
    mv: &str,
    side: Color,
    flip: Option<Piece>,
    captured: Option<Piece>,
    viewer: Color,
) -> String {
    let mut t = mv.to_string();
    if let Some(f) = flip {
        t.push(f.char());
    }
    if let Some(c) = captured.filter(|_| viewer == side) {
        t.push(c.char());
    }
    t
}

/// The identities that a shown move's letters after its four squares give on `pos` (JAI's
/// `info move` and JieqiBox's notation): the flip letter when the move flips, then the captured
/// letter when it takes a hidden piece, and no other letters.
pub fn shown_reveal(pos: &Position, mv: Move, text: &str) -> Reveal {
    let mut letters = text[4..].chars().map(|c| Piece::from_char(c).unwrap());
    let flip = pos
        .is_flip(mv)
        .then(|| letters.next().expect("flip letter"));
    let captured = pos
        .captures_hidden(mv)
        .then(|| letters.next().expect("captured letter"));
    assert!(letters.next().is_none(), "{text}: no extra letters");
    Reveal { flip, captured }
}

/// Replays a record on the rules core and checks everything it says. Returns the true game.
pub fn check_record(r: &Json, variant: Variant) -> Game {
    assert_eq!(s(r, "variant"), variant.name());
    let start_fen = s(r, "start_fen");
    let setup = fen::parse(start_fen).unwrap();
    let (start, _) = Position::from_setup(&setup, variant).unwrap();
    let deal_text = s(r, "deal");
    let deal: Vec<Piece> = if deal_text == "-" {
        Vec::new()
    } else {
        deal_text
            .chars()
            .map(|c| Piece::from_char(c).unwrap())
            .collect()
    };
    let mut dealt = start;
    assert!(dealt.set_deal(&deal), "the deal fits the start");
    let mut game = Game::new(dealt);
    let moves = r.get("moves").and_then(|m| m.as_array()).unwrap();
    assert_eq!(
        r.get("plies").and_then(|p| p.as_i64()),
        Some(moves.len() as i64)
    );
    for (i, m) in moves.iter().enumerate() {
        let text = s(m, "move");
        let mv = Move::parse(text).unwrap();
        let pos = *game.position();
        let side = pos.side_to_move();
        assert_eq!(s(m, "side"), side.name(), "ply {i}");
        assert!(
            pos.is_legal(mv),
            "ply {} {text} is legal on the true position",
            i + 1
        );
        let flip = piece_field(m, "flip");
        let captured = piece_field(m, "captured");
        assert_eq!(flip.is_some(), pos.is_flip(mv), "ply {} flip", i + 1);
        assert_eq!(
            captured.is_some(),
            pos.captures_hidden(mv),
            "ply {} capture",
            i + 1
        );
        for (viewer, key) in [(Color::Red, "red_view"), (Color::Black, "black_view")] {
            assert_eq!(
                s(m, key),
                expected_view(text, side, flip, captured, viewer),
                "ply {}",
                i + 1
            );
        }
        // The dealt position accepts only the true identities.
        game.play(mv, Reveal { flip, captured })
            .unwrap_or_else(|e| panic!("ply {}: {e}", i + 1));
        assert!(m.get("time_ms").and_then(|t| t.as_i64()).is_some());
    }
    let reason = s(r, "reason");
    let result = s(r, "result");
    let winner = r.get("winner").unwrap();
    match result {
        "1-0" => assert_eq!(winner.as_str(), Some(s(r, "red"))),
        "0-1" => assert_eq!(winner.as_str(), Some(s(r, "black"))),
        "1/2-1/2" => assert!(winner.is_null()),
        other => panic!("result {other}"),
    }
    let by_rules = game.result();
    match reason {
        "checkmate"
        | "no_legal_moves"
        | "perpetual_check"
        | "repetition"
        | "mutual_perpetual_check"
        | "no_capture_120" => {
            let r2 = by_rules.expect("the rules ended the game");
            let text = match r2 {
                jieqi::core::GameResult::Win { winner, .. } => {
                    if winner == Color::Red {
                        "1-0"
                    } else {
                        "0-1"
                    }
                }
                _ => "1/2-1/2",
            };
            assert_eq!(text, result);
        }
        _ => assert!(
            by_rules.is_none(),
            "{reason}: the rules had not ended the game"
        ),
    }
    game
}

pub fn by_game(records: &[Json]) -> HashMap<i64, &Json> {
    records
        .iter()
        .map(|r| (r.get("game").and_then(|g| g.as_i64()).unwrap(), r))
        .collect()
}
