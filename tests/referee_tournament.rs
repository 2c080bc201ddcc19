//! Referee integration tests beyond two-engine matches: tournaments of three engines, each
//! engine on its own clock, Ctrl-C during a match, and JieqiBox's match mode (`jieqi jai`).

mod common;

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::jai::Session;
use common::referee::*;
use jieqi::core::{Game, GameResult, Move, Position, Variant};

fn num(v: &serde_json::Value, key: &str) -> i64 {
    v.get(key)
        .and_then(|x| x.as_i64())
        .unwrap_or_else(|| panic!("number field {key}"))
}

#[test]
fn three_engines_round_robin_and_gauntlet() {
    let dir = scratch("tournament");
    let engines = [
        format!("name=a cmd={JIEQI} nodes=300"),
        format!("name=b cmd={JIEQI} nodes=600"),
        format!("name=c cmd={JIEQI} nodes=1200"),
    ];
    for (schedule, games, encounters) in [("round-robin", 6, 3), ("gauntlet", 4, 2)] {
        let out = dir.join(format!("{schedule}.jsonl"));
        let mut args: Vec<&str> = Vec::new();
        for e in &engines {
            args.extend(["--engine", e.as_str()]);
        }
        args.extend([
            "--schedule",
            schedule,
            "--games",
            "2",
            "--max-plies",
            "80",
            "--concurrency",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let o = run_match(&args);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{stdout}");
        let records = read_records(&out);
        assert_eq!(records.len(), games, "{schedule}");
        let mut per_encounter: HashMap<(String, String), usize> = HashMap::new();
        let mut numbers: Vec<i64> = Vec::new();
        for r in &records {
            check_record(r, Variant::Jieqi);
            let (red, black) = (s(r, "red").to_string(), s(r, "black").to_string());
            assert_ne!(red, black);
            if schedule == "gauntlet" {
                assert!(
                    red == "a" || black == "a",
                    "the first engine plays every game"
                );
            }
            // Each engine's own node limit is what it was given.
            for (side, limit_key) in [(&red, "red_limit"), (&black, "black_limit")] {
                let want = match side.as_str() {
                    "a" => "nodes 300",
                    "b" => "nodes 600",
                    _ => "nodes 1200",
                };
                assert_eq!(s(r, limit_key), want);
            }
            let key = if red < black {
                (red, black)
            } else {
                (black, red)
            };
            *per_encounter.entry(key).or_default() += 1;
            numbers.push(num(r, "game"));
        }
        assert_eq!(per_encounter.len(), encounters, "{schedule}");
        assert!(per_encounter.values().all(|&n| n == 2), "{per_encounter:?}");
        numbers.sort_unstable();
        assert_eq!(numbers, (1..=games as i64).collect::<Vec<_>>());
        // The standings add up to the records.
        assert!(stdout.contains("rank"), "{stdout}");
        let mut points: HashMap<String, f64> = HashMap::new();
        for r in &records {
            let (red, black) = (s(r, "red").to_string(), s(r, "black").to_string());
            let (pr, pb) = match s(r, "result") {
                "1-0" => (1.0, 0.0),
                "0-1" => (0.0, 1.0),
                _ => (0.5, 0.5),
            };
            *points.entry(red).or_default() += pr;
            *points.entry(black).or_default() += pb;
        }
        for line in stdout.lines().skip(1).take(3) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let name = w[1];
            let pts: f64 = w[3].parse().unwrap();
            assert_eq!(points.get(name).copied().unwrap_or(0.0), pts, "{line}");
        }
    }
}

#[test]
fn each_engine_runs_on_its_own_clock() {
    let dir = scratch("clocks");
    let out = dir.join("g.jsonl");
    let log = dir.join("fast.log");
    let fast = faulty(
        "fast",
        &format!("--mode ok --log {}", log.display()),
        "tc=1+0.02",
    );
    let slow = format!("name=slow cmd={JIEQI} tc=3+0.05");
    let o = run_match(&[
        "--engine",
        &fast,
        "--engine",
        &slow,
        "--games",
        "2",
        "--max-plies",
        "24",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = read_records(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        check_record(r, Variant::Jieqi);
        let limit = |name: &str| if name == "fast" { "1+0.02" } else { "3+0.05" };
        assert_eq!(s(r, "red_limit"), limit(s(r, "red")));
        assert_eq!(s(r, "black_limit"), limit(s(r, "black")));
        // Each clock runs down by the time used and up by its own increment.
        let mut clock: HashMap<&str, i64> = HashMap::new();
        for m in r.get("moves").and_then(|m| m.as_array()).unwrap() {
            let side = s(m, "side");
            let name = s(r, side);
            let (base, inc) = if name == "fast" {
                (1000, 20)
            } else {
                (3000, 50)
            };
            let before = *clock.get(side).unwrap_or(&base);
            let after = before - num(m, "time_ms") + inc;
            assert_eq!(num(m, "clock_ms"), after, "{name}");
            clock.insert(side, after);
        }
    }
    // The fast engine was told both clocks: its own and the other's, each with its increment.
    let sent = std::fs::read_to_string(&log).unwrap();
    let gos: Vec<&str> = sent.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(!gos.is_empty());
    let first_as_red = gos[0];
    assert_eq!(first_as_red, "go wtime 1000 btime 3000 winc 20 binc 50");
    assert!(
        gos.iter().any(|g| g.ends_with("winc 50 binc 20")),
        "as Black it is told Red's increment and its own: {gos:?}"
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_the_match_with_a_summary_and_whole_records() {
    let dir = scratch("interrupt");
    let out = dir.join("g.jsonl");
    let child = Command::new(JIEQI)
        .args([
            "match",
            "--engine",
            JIEQI,
            "--engine",
            JIEQI,
            "--games",
            "200",
            "--movetime",
            "30",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A hang guard only, reported as such.
    let deadline = Instant::now() + HANG_GUARD;
    loop {
        let n = std::fs::read_to_string(&out).map_or(0, |t| t.lines().count());
        if n >= 2 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "hang: no two records after {HANG_GUARD:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The games in progress are abandoned, not played out (the summary and the records below
    // say so); a runner that did not stop is reported as a hang.
    let o = wait_guarded(child, "the interrupted match");
    assert_eq!(o.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let records = read_records(&out);
    for r in &records {
        check_record(r, Variant::Jieqi);
    }
    assert!(
        stdout.contains(&format!("Interrupted after {} of 200 games", records.len())),
        "{stdout}"
    );
    assert!(stdout.contains("Score of jieqi-1 vs jieqi-2"), "{stdout}");
    let score = stdout.lines().next().unwrap();
    assert!(
        score.contains(&format!("{} games", records.len())),
        "the summary counts exactly the recorded games: {score}"
    );
}

/// Replays a game shown by JAI lines (`info fen`, then `info move` with full suffixes) on the
/// rules core; returns the game.
fn replay_shown(fen_text: &str, moves: &[String]) -> Game {
    let setup = jieqi::core::fen::parse(fen_text).unwrap();
    let (start, _) = Position::from_setup(&setup, Variant::Jieqi).unwrap();
    let mut game = Game::new(start);
    for text in moves {
        let mv = Move::parse(&text[..4]).unwrap_or_else(|| panic!("move {text}"));
        let pos = *game.position();
        assert!(pos.is_legal(mv), "{text} legal");
        game.play(mv, shown_reveal(&pos, mv, text))
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    game
}

#[test]
fn jai_plays_a_match_and_shows_every_move() {
    let dir = scratch("jai");
    let out = dir.join("jai.jsonl");
    let mut jai = Session::start(&["jai"], None);
    jai.send("jai");
    let hello = jai.until("jaiok", 10, |l| l == "jaiok");
    for name in [
        "Engine1Path",
        "Engine1Options",
        "Engine2Path",
        "Engine2Options",
        "TotalRounds",
        "Concurrency",
        "BookFile",
        "MainTimeMs",
        "IncTimeMs",
        "TimeoutBufferMs",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} listed"
        );
    }
    for (name, value) in [
        ("Engine1Path", JIEQI.to_string()),
        ("Engine1Options", "Hash=16;Threads=1".to_string()),
        ("Engine1Name", "first".to_string()),
        ("Engine2Path", JIEQI.to_string()),
        ("Engine2Options", "Hash=8".to_string()),
        ("TotalRounds", "1".to_string()),
        ("MainTimeMs", "2000".to_string()),
        ("IncTimeMs", "20".to_string()),
        ("MaxPlies", "60".to_string()),
        ("OutFile", out.to_str().unwrap().to_string()),
    ] {
        jai.send(&format!("setoption name {name} value {value}"));
    }
    // Bad settings are refused and change nothing.
    jai.send("setoption name TotalRounds value -3");
    jai.send("setoption name Engine1Pth value 1");
    jai.send("flip the board");
    jai.send("isready");
    let replies = jai.until("readyok", 10, |l| l == "readyok");
    assert_eq!(
        replies
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        3,
        "{replies:?}"
    );
    assert!(
        replies
            .iter()
            .any(|l| l
                == "info string error: no option named 'Engine1Pth' (send 'jai' for the list)"),
        "a misspelt option is named: {replies:?}"
    );
    jai.send("startmatch");
    jai.send("isready");
    jai.until("readyok during the match", 10, |l| l == "readyok");
    let lines = jai.until("info matchend", 120, |l| l.starts_with("info matchend"));
    assert_eq!(lines.last().unwrap(), "info matchend finished");
    let all = jai.seen.clone();

    // Two games, each shown from its start FEN, with every move and a result.
    let mut games: Vec<(String, Vec<String>, String)> = Vec::new();
    for l in &all {
        if let Some(f) = l.strip_prefix("info fen ") {
            games.push((f.to_string(), Vec::new(), String::new()));
        } else if let Some(m) = l.strip_prefix("info move ") {
            let w: Vec<&str> = m.split_whitespace().collect();
            assert_eq!(w.len(), 3, "{l}");
            assert_eq!(w[1], "time");
            w[2].parse::<u64>().expect("time in ms");
            games.last_mut().unwrap().1.push(w[0].to_string());
        } else if let Some(r) = l.strip_prefix("info result ") {
            games.last_mut().unwrap().2 = r.to_string();
        }
    }
    assert_eq!(games.len(), 2);
    let records = read_records(&out);
    assert_eq!(records.len(), 2);
    let (mut w, mut l, mut d) = (0, 0, 0);
    for (i, (fen_text, moves, result)) in games.iter().enumerate() {
        let game = replay_shown(fen_text, moves);
        let r = records
            .iter()
            .find(|r| num(r, "game") == i as i64 + 1)
            .unwrap();
        check_record(r, Variant::Jieqi);
        // The moves shown are the record's, with both identities.
        let full: Vec<String> = r
            .get("moves")
            .and_then(|m| m.as_array())
            .unwrap()
            .iter()
            .map(|m| {
                let mut t = s(m, "move").to_string();
                for key in ["flip", "captured"] {
                    if let Some(p) = piece_field(m, key) {
                        t.push(p.char());
                    }
                }
                t
            })
            .collect();
        assert_eq!(&full, moves);
        let (res, reason) = result.split_once(" reason ").expect("result and reason");
        assert_eq!(res, s(r, "result"));
        assert_eq!(reason, s(r, "reason"));
        if reason == "checkmate" || reason == "no_legal_moves" {
            assert!(matches!(game.result(), Some(GameResult::Win { .. })));
        }
        let first = s(r, "red") == "first";
        match (res, first) {
            ("1-0", true) | ("0-1", false) => w += 1,
            ("1/2-1/2", _) => d += 1,
            _ => l += 1,
        }
    }
    let wld = all.iter().rfind(|l| l.starts_with("info wld ")).unwrap();
    assert_eq!(wld, &format!("info wld {w}-{l}-{d}"));
    jai.send("quit");
    jai.expect_exit();
}

#[test]
fn jai_stopmatch_ends_a_match_at_once() {
    let mut jai = Session::start(&["jai"], None);
    jai.send("jai");
    jai.until("jaiok", 10, |l| l == "jaiok");
    jai.send("startmatch");
    jai.until("an error without engines", 10, |l| {
        l.starts_with("info string error") && l.contains("Engine1Path")
    });
    for (name, value) in [
        ("Engine1Path", JIEQI),
        ("Engine2Path", JIEQI),
        ("TotalRounds", "50"),
        ("MainTimeMs", "20000"),
    ] {
        jai.send(&format!("setoption name {name} value {value}"));
    }
    jai.send("startmatch");
    jai.until("a first move", 30, |l| l.starts_with("info move "));
    jai.send("setoption name TotalRounds value 2");
    jai.until("a refusal", 10, |l| {
        l.starts_with("info string error") && l.contains("while a match runs")
    });
    // Stopped, not played out: the match ends with `stopped`.
    jai.send("stopmatch");
    jai.until("the end", 60, |l| l == "info matchend stopped");
    jai.send("isready");
    jai.until("readyok", 10, |l| l == "readyok");
    // A new match can start after a stopped one.
    jai.send("setoption name TotalRounds value 1");
    jai.send("setoption name MainTimeMs value 500");
    jai.send("setoption name IncTimeMs value 5");
    jai.send("setoption name MaxPlies value 10");
    jai.send("startmatch");
    jai.until("the second match", 60, |l| l == "info matchend finished");
}
