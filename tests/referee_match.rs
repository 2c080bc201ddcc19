//! Referee integration tests: real matches of `jieqi` against itself and against the faulty
//! test engine of `examples/faulty_engine.rs` (a proxy in front of `jieqi` that crashes, hangs,
//! prints garbage, plays illegal moves or is slow on purpose). Every record is replayed on the
//! rules core: every move legal on the true position, flips as dealt, each side's view redacted,
//! results and reasons right.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::referee::*;
use jieqi::core::{Color, Variant};
use serde_json::Value as Json;

#[test]
fn self_play_of_two_engines() {
    let dir = scratch("selfplay");
    let out = dir.join("games.jsonl");
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--games",
        "4",
        "--nodes",
        "5000",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--max-plies",
        "100",
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("Score of jieqi-1 vs jieqi-2"), "{stdout}");
    assert!(
        stdout.contains("Pairs (jieqi-1 points 0, 0.5, 1, 1.5, 2)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Elo (pentanomial)") && stdout.contains("LOS"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("games 4/4"), "progress: {stderr}");
    let records = read_records(&out);
    assert_eq!(records.len(), 4);
    let games = by_game(&records);
    for pair in 0..2 {
        let (a, b) = (games[&(2 * pair + 1)], games[&(2 * pair + 2)]);
        // The same deal with colours swapped.
        assert_eq!(s(a, "deal"), s(b, "deal"));
        assert_eq!(s(a, "red"), s(b, "black"));
        assert_eq!(s(a, "red"), "jieqi-1");
        assert_eq!(s(a, "deal").len(), 30);
    }
    assert_ne!(s(games[&1], "deal"), s(games[&3], "deal"));
    // The colour split, recounted from the records.
    let mut split = [[0; 3]; 2];
    for r in &records {
        let red = s(r, "red") == "jieqi-1";
        let kind = match (s(r, "result"), red) {
            ("1/2-1/2", _) => 1,
            ("1-0", true) | ("0-1", false) => 0,
            _ => 2,
        };
        split[usize::from(!red)][kind] += 1;
    }
    let pct = |[w, d, _]: [u32; 3]| 100.0 * (w as f64 + d as f64 / 2.0) / 2.0;
    let line = format!(
        "Colours (jieqi-1 W - L - D): Red {} - {} - {} [{:.1}%]  Black {} - {} - {} [{:.1}%]",
        split[0][0],
        split[0][2],
        split[0][1],
        pct(split[0]),
        split[1][0],
        split[1][2],
        split[1][1],
        pct(split[1])
    );
    assert!(stdout.contains(&line), "{line}\n{stdout}");
    for r in &records {
        check_record(r, Variant::Jieqi);
        assert!(!jieqi::referee::Reason::parse(s(r, "reason"))
            .unwrap()
            .is_failure());
    }
    // The same seed gives the same deals.
    let out2 = dir.join("again.jsonl");
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--depth",
        "1",
        "--seed",
        "1",
        "--out",
        out2.to_str().unwrap(),
        "--max-plies",
        "4",
        "--quiet",
    ]);
    assert!(o.status.success());
    let again = read_records(&out2);
    assert_eq!(s(&again[0], "deal"), s(games[&1], "deal"));
    assert_eq!(s(&again[0], "reason"), "max_plies");
    assert_eq!(s(&again[0], "result"), "1/2-1/2");
    assert_eq!(again[0].get("plies").unwrap().as_i64(), Some(4));
}

#[test]
fn each_engine_is_sent_its_own_view() {
    let dir = scratch("views");
    let out = dir.join("g.jsonl");
    let log = dir.join("sent.log");
    let rec = faulty(
        "rec",
        &format!("--mode ok --log {}", log.display()),
        "handshake=false option.Hash=16",
    );
    let o = run_match(&[
        "--engine",
        &rec,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--depth",
        "1",
        "--seed",
        "3",
        "--max-plies",
        "40",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = read_records(&out);
    let games = by_game(&records);
    // What the recorder must have been sent, built from the records.
    let mut expected = vec!["setoption name Hash value 16".to_string()];
    for g in [1, 2] {
        let r = games[&g];
        check_record(r, Variant::Jieqi);
        let rec_color = if s(r, "red") == "rec" {
            Color::Red
        } else {
            Color::Black
        };
        let key = if rec_color == Color::Red {
            "red_view"
        } else {
            "black_view"
        };
        let moves = r.get("moves").unwrap().as_array().unwrap();
        let start = s(r, "start_fen");
        let mut history: Vec<String> = Vec::new();
        let mut mover = Color::Red;
        for m in moves {
            if mover == rec_color {
                let pos = if history.is_empty() {
                    format!("position fen {start}")
                } else {
                    format!("position fen {start} moves {}", history.join(" "))
                };
                expected.push(pos);
                expected.push("go depth 1".to_string());
            }
            history.push(s(m, key).to_string());
            mover = !mover;
        }
    }
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| *l != "quit")
        .map(String::from)
        .collect();
    // No handshake: no uci, isready or ucinewgame, ever.
    assert!(
        sent.iter().all(|l| !l.starts_with("uci") && l != "isready"),
        "{sent:?}"
    );
    assert_eq!(sent, expected);
    // The recorder never learnt the identity of its own face-down pieces lost to the opponent,
    // and did learn those it captured: some game must have had a hidden capture each way to
    // make this test meaningful.
    let mut hidden_captures = 0;
    for r in &records {
        for m in r.get("moves").unwrap().as_array().unwrap() {
            if m.get("captured").is_some_and(|c| !c.is_null()) {
                hidden_captures += 1;
                assert_ne!(s(m, "red_view"), s(m, "black_view"));
            }
        }
    }
    assert!(
        hidden_captures > 0,
        "the games had captures of face-down pieces"
    );
}

/// Runs 2 games of a faulty engine (`first`, playing Red in game 1) against `jieqi` and
/// returns the records.
fn faulty_match(test: &str, proxy_args: &str, extra_args: &[&str]) -> Vec<Json> {
    let dir = scratch(test);
    let out = dir.join("g.jsonl");
    let engine = faulty("bad", proxy_args, "");
    let mut args = vec![
        "--engine",
        &engine,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--seed",
        "5",
        "--max-plies",
        "40",
        "--quiet",
        "--out",
    ];
    let out_s = out.to_str().unwrap().to_string();
    args.push(&out_s);
    args.extend_from_slice(extra_args);
    // A runner stalled by the faulty engine would not end: `run_match` reports that as a hang.
    let o = run_match(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = read_records(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        check_record(r, Variant::Jieqi);
    }
    records
}

/// Every game ended without an engine failure, after more than four plies.
fn assert_played_out(records: &[Json]) {
    for r in records {
        assert!(
            !jieqi::referee::Reason::parse(s(r, "reason"))
                .unwrap()
                .is_failure(),
            "{}",
            s(r, "detail")
        );
        assert!(r.get("plies").unwrap().as_i64().unwrap() > 4);
    }
}

fn assert_bad_lost(records: &[Json], reason: &str) {
    for r in records {
        assert_eq!(s(r, "reason"), reason, "{}", s(r, "detail"));
        let loser = if s(r, "result") == "1-0" {
            s(r, "black")
        } else {
            s(r, "red")
        };
        assert_eq!(loser, "bad", "{}", s(r, "detail"));
        assert!(s(r, "detail").starts_with("bad ("), "{}", s(r, "detail"));
    }
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let records = faulty_match("crash", "--mode crash --at 3", &["--depth", "1"]);
    assert_bad_lost(&records, "crash");
    // The crash came at the third search of each fresh process: after 4 plies as Red, after
    // 5 as Black, so the second game ran on a restarted engine.
    let g = by_game(&records);
    assert_eq!(g[&1].get("plies").unwrap().as_i64(), Some(4));
    assert_eq!(g[&2].get("plies").unwrap().as_i64(), Some(5));
}

#[test]
fn an_engine_that_floods_its_output_still_plays() {
    // Info lines without pause from its second search on, between searches too: the runner
    // reads past them to each bestmove, and the engine's own full pipe holds it back while
    // the other side thinks.
    let records = faulty_match("flood", "--mode flood --at 2", &["--depth", "1"]);
    assert_played_out(&records);
}

#[test]
fn half_a_line_then_exit_loses() {
    // `bestmove` and two characters, no newline, then the process exits: the runner reads
    // what came as the engine's last line, an unreadable move, and records the loss.
    let records = faulty_match("partial", "--mode partial --at 2", &["--depth", "1"]);
    assert_bad_lost(&records, "illegal_move");
    for r in &records {
        assert!(s(r, "detail").contains("not a move"), "{}", s(r, "detail"));
    }
}

#[test]
fn a_hang_is_no_answer() {
    let records = faulty_match(
        "hang",
        "--mode hang --at 2",
        &["--depth", "1", "--move-timeout", "1000"],
    );
    assert_bad_lost(&records, "no_answer");
}

#[test]
fn illegal_and_unreadable_moves_lose() {
    let records = faulty_match("illegal", "--mode illegal --at 2", &["--depth", "1"]);
    assert_bad_lost(&records, "illegal_move");
    assert!(s(&records[0], "detail").contains("illegal move 'e0e2'"));
    let records = faulty_match("badword", "--mode badword --at 1", &["--depth", "1"]);
    assert_bad_lost(&records, "illegal_move");
    assert!(s(&records[0], "detail").contains("not a move"));
}

/// A match of two games at depth 1 between engines `a` and `b`, recorded to `out`.
fn two_game_match(a: &str, b: &str, out: &std::path::Path) -> std::process::Output {
    run_match(&[
        "--engine",
        a,
        "--engine",
        b,
        "--games",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn an_engine_that_exits_at_start_loses_every_game() {
    let records = faulty_match("exit", "--mode exit", &["--depth", "1"]);
    assert_bad_lost(&records, "start_failure");
    // Without a handshake the failure shows at the first search, as a crash.
    let dir = scratch("exit-nohs");
    let out = dir.join("g.jsonl");
    let engine = faulty("bad", "--mode exit", "handshake=false");
    let o = two_game_match(&engine, JIEQI, &out);
    assert!(o.status.success());
    let records = read_records(&out);
    for r in &records {
        check_record(r, Variant::Jieqi);
    }
    let g = by_game(&records);
    // As Red it crashes before the first move; as Black after Red's first move.
    assert_eq!(s(g[&1], "reason"), "crash");
    assert_eq!(g[&1].get("plies").unwrap().as_i64(), Some(0));
    assert_eq!(s(g[&2], "reason"), "crash");
    assert_eq!(g[&2].get("plies").unwrap().as_i64(), Some(1));
}

#[test]
fn an_engine_whose_command_cannot_run_stops_the_match_before_any_game() {
    let dir = scratch("no-command");
    let missing = dir.join("no-such-engine");
    let ghost = format!("name=ghost cmd={}", missing.display());
    let nowhere = format!(
        "name=nowhere cmd={JIEQI} dir={}",
        dir.join("no-dir").display()
    );
    // A bare name is looked up in PATH, also when a file of that name is in the directory.
    std::fs::write(dir.join("local-engine-file"), "").unwrap();
    let local = format!("name=local cmd=local-engine-file dir={}", dir.display());
    for (engine, first) in [
        (&ghost, true),
        (&ghost, false),
        (&nowhere, true),
        (&local, true),
    ] {
        let out = dir.join("g.jsonl");
        let (a, b) = if first {
            (engine.as_str(), JIEQI)
        } else {
            (JIEQI, engine.as_str())
        };
        let o = two_game_match(a, b, &out);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        let name = &engine[5..engine.find(' ').unwrap()];
        let expected = format!("error: engine '{name}' cannot be started: ");
        assert!(stderr.contains(&expected), "{stderr}");
        let hint = "looked up in PATH; give its path, ./local-engine-file";
        assert_eq!(stderr.contains(hint), name == "local", "{stderr}");
        assert!(!out.exists(), "no game is played, no record file written");
        assert!(String::from_utf8_lossy(&o.stdout).is_empty());
    }
}

#[test]
fn an_option_value_the_engine_declares_no_room_for_stops_the_match_before_any_game() {
    let dir = scratch("option-values");
    let out = dir.join("g.jsonl");
    let refused = [
        (
            "option.Ponder=1",
            "option 'Ponder': '1' is not true or false",
        ),
        ("option.hash=0", "option 'hash': 0 is outside 1..65536"),
        (
            "option.Threads=two",
            "option 'Threads': 'two' is not a whole number",
        ),
        (
            "option.SearchMode=fast",
            "option 'SearchMode': 'fast' is not one of expectimax, pimc, hybrid",
        ),
    ];
    for (option, reason) in refused {
        let engine = format!("name=checked cmd={JIEQI} option.Hash=16 {option}");
        let o = two_game_match(JIEQI, &engine, &out);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("error: engine 'checked': {reason}")),
            "{stderr}"
        );
        assert!(!out.exists(), "no game is played, no record file written");
    }
    // Declared options with values they take, and one the engine does not declare (its tuning
    // options are not listed), are sent as they are.
    let engine = format!(
        "name=checked cmd={JIEQI} option.ponder=false option.SearchMode=Expectimax \
         option.Param_probe=true"
    );
    let o = two_game_match(JIEQI, &engine, &out);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);
}

#[test]
fn garbage_output_does_not_disturb_the_game() {
    let records = faulty_match("garbage", "--mode garbage", &["--depth", "1"]);
    assert_played_out(&records);
}

#[test]
fn slow_engines_lose_on_time() {
    let records = faulty_match(
        "slow-tc",
        "--mode slow --at 2 --sleep 1500",
        &["--tc", "1+0", "--time-margin", "50"],
    );
    assert_bad_lost(&records, "time_forfeit");
    for r in &records {
        // Clock records for every engine move.
        for m in r.get("moves").unwrap().as_array().unwrap() {
            assert!(m.get("clock_ms").unwrap().as_i64().is_some());
        }
    }
    // A wide margin, so that the engine that answers in time does so on a loaded machine too;
    // the slow one sleeps far past it.
    let records = faulty_match(
        "slow-mt",
        "--mode slow --at 2 --sleep 2000",
        &["--movetime", "50", "--time-margin", "600"],
    );
    assert_bad_lost(&records, "time_forfeit");
}

#[test]
fn xiangqi_and_maniac_matches() {
    for (variant, name) in [(Variant::Xiangqi, "xiangqi"), (Variant::Maniac, "maniac")] {
        let dir = scratch(name);
        let out = dir.join("g.jsonl");
        let o = run_match(&[
            "--engine",
            JIEQI,
            "--engine",
            JIEQI,
            "--variant",
            name,
            "--games",
            "2",
            "--depth",
            "1",
            "--max-plies",
            "40",
            "--seed",
            "9",
            "--quiet",
            "--concurrency",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let records = read_records(&out);
        assert_eq!(records.len(), 2);
        for r in &records {
            check_record(r, variant);
            if variant == Variant::Xiangqi {
                assert_eq!(s(r, "deal"), "-");
                assert_eq!(
                    s(r, "start_fen"),
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
                );
            } else {
                let deal = s(r, "deal");
                assert_eq!(deal.chars().filter(|c| c.is_ascii_uppercase()).count(), 15);
            }
        }
    }
}

#[test]
fn deals_and_openings_files_are_replayed() {
    let dir = scratch("deals");
    let deals = dir.join("deals.txt");
    let deal = "PNBAABNPRCPCPRPppppccrrnbaabnp";
    std::fs::write(&deals, format!("# one deal\n{deal}\n")).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h2e2 h7e7\n").unwrap();
    let out = dir.join("g.jsonl");
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--rounds",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "6",
        "--quiet",
        "--deals",
        deals.to_str().unwrap(),
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = read_records(&out);
    assert_eq!(records.len(), 4);
    for r in &records {
        check_record(r, Variant::Jieqi);
        assert_eq!(s(r, "deal"), deal);
        let moves = r.get("moves").unwrap().as_array().unwrap();
        // The opening's flips take the deal's identities: h2 is a cannon, h7 a chariot.
        assert_eq!(s(&moves[0], "red_view"), "h2e2C");
        assert_eq!(s(&moves[1], "black_view"), "h7e7r");
        assert_eq!(moves[0].get("book").unwrap().as_bool(), Some(true));
        assert_eq!(moves[2].get("book").unwrap().as_bool(), Some(false));
    }
    // A deal that does not fit is refused before any game.
    std::fs::write(&deals, "PNB\n").unwrap();
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--deals",
        deals.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: "));
}

#[test]
fn sprt_stops_when_decided() {
    let dir = scratch("sprt");
    let out = dir.join("g.jsonl");
    let engine = faulty("bad", "--mode exit", "");
    let o = run_match(&[
        "--engine",
        &engine,
        "--engine",
        JIEQI,
        "--games",
        "200",
        "--depth",
        "1",
        "--quiet",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "alpha=0.05",
        "beta=0.05",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(stdout.contains("H0 accepted"), "{stdout}");
    assert!(stdout.contains("Stopped early"), "{stdout}");
    let records = read_records(&out);
    assert!(
        records.len() < 200 && records.len().is_multiple_of(2),
        "{}",
        records.len()
    );
}

#[test]
fn a_killed_runner_leaves_whole_records() {
    let dir = scratch("killed");
    let out = dir.join("g.jsonl");
    let mut child = Command::new(JIEQI)
        .args([
            "match",
            "--engine",
            JIEQI,
            "--engine",
            JIEQI,
            "--games",
            "100",
            "--depth",
            "1",
            "--max-plies",
            "30",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A hang guard only, reported as such.
    let deadline = Instant::now() + HANG_GUARD;
    loop {
        let n = std::fs::read_to_string(&out).map_or(0, |t| t.lines().count());
        if n >= 3 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "hang: no three records after {HANG_GUARD:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let records = read_records(&out);
    assert!(records.len() >= 3 && records.len() < 100);
    for r in &records {
        check_record(r, Variant::Jieqi);
    }
}

#[test]
fn bad_command_lines_are_refused() {
    let o = run_match(&["--engine", JIEQI]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("at least two"));
    let o = run_match(&[
        "--engine", JIEQI, "--engine", JIEQI, "--engine", JIEQI, "--sprt", "elo0=0", "elo1=5",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("exactly two"));
    let o = run_match(&["--engine", JIEQI, "--engine", JIEQI, "--schedule", "swiss"]);
    assert!(!o.status.success());
    let o = run_match(&["--engine", JIEQI, "--engine", JIEQI, "--tc", "abc"]);
    assert!(!o.status.success());
    let o = run_match(&["--engine", JIEQI, "--engine", JIEQI, "--sprt", "elo0=1"]);
    assert!(!o.status.success());
}

/// Red's view of a move's score in centipawns (mates as +/-(30000 - n)).
fn red_cp(m: &Json) -> Option<i64> {
    let sc = m.get("score")?;
    let v = if let Some(c) = sc.get("cp") {
        c.as_i64()?
    } else {
        let n = sc.get("mate")?.as_i64()?;
        if n > 0 {
            30000 - n
        } else {
            -30000 - n
        }
    };
    Some(if s(m, "side") == "red" { v } else { -v })
}

#[test]
fn adjudication_by_scores() {
    let dir = scratch("adjudication");
    // Draw: every score within a huge window, from ply 4, for 1 move each.
    let out = dir.join("draw.jsonl");
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--draw-score",
        "100000",
        "--draw-moves",
        "1",
        "--draw-start",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for r in read_records(&out) {
        check_record(&r, Variant::Jieqi);
        assert_eq!(s(&r, "reason"), "adjudication_draw", "{}", s(&r, "detail"));
        assert_eq!(s(&r, "result"), "1/2-1/2");
        assert_eq!(r.get("plies").unwrap().as_i64(), Some(4));
    }
    // Resign at a zero threshold for 1 move each: decided as soon as the last two scores agree
    // on a side, and only then.
    let out = dir.join("resign.jsonl");
    let o = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--resign-score",
        "0",
        "--resign-moves",
        "1",
        "--max-plies",
        "60",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for r in read_records(&out) {
        check_record(&r, Variant::Jieqi);
        let moves = r.get("moves").unwrap().as_array().unwrap();
        let scores: Vec<Option<i64>> = moves.iter().map(red_cp).collect();
        let agree = |k: usize| -> Option<&str> {
            let (a, b) = (scores[k - 2]?, scores[k - 1]?);
            if a >= 0 && b >= 0 {
                Some("1-0")
            } else if a <= 0 && b <= 0 {
                Some("0-1")
            } else {
                None
            }
        };
        for k in 2..moves.len() {
            assert_eq!(agree(k), None, "not adjudicated at ply {k}");
        }
        if s(&r, "reason") == "adjudication_resign" {
            assert_eq!(agree(moves.len()), Some(s(&r, "result")));
        }
    }
}
