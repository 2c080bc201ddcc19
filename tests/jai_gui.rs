//! JieqiBox's match mode as JieqiBox drives it: the engine program started without arguments,
//! `jai` as the first command answered within 5 seconds, `isready` on `jaiok`, then every option
//! sent back with its saved value (string defaults as JieqiBox stores them: `<empty>`), then
//! `startmatch`; the lines JieqiBox reads (`info game`, `info engine`, `info fen`, the engines'
//! `info depth` lines, `info move`, `info result`, `info wld W-L-D`, the summary) are checked.

mod common;

use common::jai::Session;
use common::referee::{scratch, JIEQI};

/// The handshake as JieqiBox does it: `jai`, `jaiok` (JieqiBox gives up after 5 s), then
/// `isready`. Returns the `option` lines.
fn handshake(gui: &mut Session) -> Vec<String> {
    gui.send("jai");
    let hello = gui.until("jaiok", 5, |l| l == "jaiok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")), "{hello:?}");
    gui.send("isready");
    gui.until("readyok", 10, |l| l == "readyok");
    hello
        .into_iter()
        .filter(|l| l.starts_with("option name "))
        .collect()
}

/// An option line as JieqiBox reads it: the name (up to ` type `) and the default (the first
/// word after `default`, as its pattern for strings takes it).
fn name_and_default(line: &str) -> (String, String) {
    let rest = line.strip_prefix("option name ").unwrap();
    let (name, rest) = rest.split_once(" type ").unwrap();
    let default = rest
        .split_once("default ")
        .map(|(_, d)| d.split_whitespace().next().unwrap_or("").to_string())
        .unwrap_or_default();
    (name.to_string(), default)
}

#[test]
fn jieqibox_runs_a_two_game_match_through_plain_jieqi() {
    let dir = scratch("match");
    let mut gui = Session::start(&[], Some(&dir));
    let options = handshake(&mut gui);
    // Saved settings: what the user changed; every other option keeps the default JieqiBox
    // stored, which for empty strings is `<empty>`.
    let user = [
        ("Engine1Path", JIEQI),
        ("Engine1Options", "name Threads value 1 name Hash value 16"),
        ("Engine2Path", JIEQI),
        ("Engine2Options", "Threads=1;Hash=16"),
        ("TotalRounds", "1"),
        ("MainTimeMs", "4000"),
        ("IncTimeMs", "50"),
        ("TimeoutBufferMs", "5000"),
        ("MaxPlies", "10"),
    ];
    let mut empties = 0;
    for line in &options {
        let (name, default) = name_and_default(line);
        let value = user
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
            .unwrap_or(default);
        empties += (value == "<empty>") as usize;
        gui.send(&format!("setoption name {name} value {value}"));
    }
    assert!(
        empties >= 4,
        "names, book and record file replayed as <empty>"
    );
    gui.send("isready");
    let replies = gui.until("readyok", 10, |l| l == "readyok");
    assert!(
        !replies.iter().any(|l| l.contains("error")),
        "every saved value is accepted: {replies:?}"
    );
    gui.send("startmatch");
    let lines = gui.until("info matchend", 120, |l| l.starts_with("info matchend"));
    assert_eq!(lines.last().unwrap(), "info matchend finished", "{lines:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("error") || l.contains("warning")),
        "{lines:?}"
    );

    // Each game: `info game N/2`, `info engine <red> <black>`, `info fen`, and before each
    // engine move the engine's own `info depth ... score ... pv ...` lines.
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("info game "))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 2, "{lines:?}");
    let engines = ["info engine jieqi-1 jieqi-2", "info engine jieqi-2 jieqi-1"];
    for (g, &at) in starts.iter().enumerate() {
        assert_eq!(lines[at], format!("info game {}/2", g + 1));
        assert_eq!(lines[at + 1], engines[g]);
        let end = starts.get(g + 1).copied().unwrap_or(lines.len());
        let game = &lines[at..end];
        let fen_at = game
            .iter()
            .position(|l| l.starts_with("info fen "))
            .expect("info fen");
        let mut depth_lines = 0;
        let mut moves = 0;
        for l in &game[fen_at + 1..] {
            if l.starts_with("info result ") {
                break;
            }
            assert!(
                l.starts_with("info depth ") || l.starts_with("info move "),
                "during a game only the engines' search lines and the moves: {l}"
            );
            if l.starts_with("info depth ") {
                assert!(l.contains(" score ") && l.contains(" pv "), "{l}");
                depth_lines += 1;
            } else if let Some(m) = l.strip_prefix("info move ") {
                assert!(
                    depth_lines > 0,
                    "the engine's lines come before its move: {m}"
                );
                depth_lines = 0;
                moves += 1;
            }
        }
        assert_eq!(moves, 10, "MaxPlies 10: {game:?}");
        let result = game
            .iter()
            .find(|l| l.starts_with("info result "))
            .expect("a result");
        assert!(result.contains("reason max_plies"), "{result}");
        let wld = game
            .iter()
            .find(|l| l.starts_with("info wld "))
            .expect("info wld after the game");
        let parts: Vec<u32> = wld[9..].split('-').map(|n| n.parse().unwrap()).collect();
        assert_eq!(parts.iter().sum::<u32>(), g as u32 + 1, "{wld}");
    }
    // The end: the summary, its `Score of` line the last `info string`, the final W-L-D.
    let n = lines.len();
    assert_eq!(lines[n - 2], "info wld 0-0-2");
    let last_string = lines
        .iter()
        .rfind(|l| l.starts_with("info string "))
        .unwrap();
    assert!(
        last_string.starts_with("info string Score of jieqi-1 vs jieqi-2: 0 - 0 - 2"),
        "{last_string}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info string Reasons: ")));
    // `<empty>` named no book and no record file.
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(files.is_empty(), "nothing written: {files:?}");

    gui.send("quit");
    gui.expect_exit();
}

#[test]
fn a_match_that_cannot_start_says_matchend_error() {
    let dir = scratch("cannot");
    let mut gui = Session::start(&[], Some(&dir));
    handshake(&mut gui);
    gui.send("startmatch");
    let lines = gui.until("matchend", 10, |l| l.starts_with("info matchend"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error") && lines[0].contains("Engine1Path"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "info matchend error");
    let missing = dir.join("no-such-engine");
    gui.send(&format!(
        "setoption name Engine1Path value {}",
        missing.display()
    ));
    gui.send(&format!("setoption name Engine2Path value {JIEQI}"));
    gui.send("startmatch");
    let lines = gui.until("matchend", 10, |l| l.starts_with("info matchend"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error") && lines[0].contains("no-such-engine"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "info matchend error");
    // A book that cannot be read: a warning, and the match starts from the start position.
    gui.send(&format!("setoption name Engine1Path value {JIEQI}"));
    gui.send("setoption name BookFile value /no/such/book.epd");
    gui.send("setoption name TotalRounds value 1");
    gui.send("setoption name MaxPlies value 2");
    gui.send("startmatch");
    let lines = gui.until("matchend", 60, |l| l.starts_with("info matchend"));
    assert!(
        lines[0].starts_with("info string warning: BookFile /no/such/book.epd")
            && lines[0].contains("start position"),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "info matchend finished");
}

#[test]
fn plain_jieqi_stays_a_uci_engine_when_the_first_command_is_not_jai() {
    let dir = scratch("uci");
    let mut gui = Session::start(&[], Some(&dir));
    gui.send("");
    gui.send("uci");
    let lines = gui.until("uciok", 10, |l| l == "uciok");
    assert!(lines[0].starts_with("id name jieqi "), "{lines:?}");
    gui.send("jai");
    gui.send("isready");
    let lines = gui.until("readyok", 10, |l| l == "readyok");
    assert!(
        lines[0].contains("not a command of this engine"),
        "{lines:?}"
    );
}
