//! `jieqi tune`: fits the evaluation weights to recorded games (protocol.md section 5). A short
//! Xiangqi match gives the records; the fit must lower the error, keep the weights it is told to
//! keep, and write a weight file with every middle- and end-game weight that the engine reads
//! back. Bad input is an `error:` line and a non-zero status.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::referee::{run_match, scratch, JIEQI};
use jieqi::core::Variant;
use jieqi::search::eval::{built_in_weights, parse_weights, w, weight_names};

fn tune(args: &[&str]) -> Output {
    Command::new(JIEQI)
        .arg("tune")
        .args(args)
        .output()
        .expect("jieqi tune runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The two numbers of the line `error <before> -> <after> (rounded weights)`.
fn error_line(stdout: &str) -> (f64, f64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("error ") && l.ends_with("(rounded weights)"))
        .unwrap_or_else(|| panic!("no error line in {stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[1].parse().unwrap(), words[3].parse().unwrap())
}

#[test]
fn a_fit_lowers_the_error_and_writes_a_weight_file_the_engine_reads() {
    let dir = scratch("tune-fit");
    let records = dir.join("games.jsonl");
    let out = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--variant",
        "xiangqi",
        "--games",
        "4",
        "--nodes",
        "600",
        "--quiet",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let weights = dir.join("fitted.txt");
    let out = tune(&[
        "--variant",
        "xiangqi",
        "--records",
        records.to_str().unwrap(),
        "--iterations",
        "40",
        "--rate",
        "5",
        "--l2",
        "0",
        "--fixed",
        "value_x_pawn,eg_value_x_cannon",
        "--out",
        weights.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let positions: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("positions "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no positions line in {stdout}"));
    assert!(positions > 20, "{stdout}");
    assert!(stdout.contains(" from 4 games"), "{stdout}");
    let (before, after) = error_line(&stdout);
    assert!(
        after < before,
        "the fit lowers the error: {before} -> {after}"
    );

    // Every weight is written, middle- and end-game, and reads back.
    let file = std::fs::read_to_string(&weights).unwrap();
    let names: Vec<&str> = file
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, weight_names());
    assert!(names.contains(&"eg_sq_pawn_4_9"));
    let fitted = parse_weights(&file).unwrap();
    let start = built_in_weights(Variant::Xiangqi);
    let pawn = w::VALUE_X + 5;
    let cannon = w::VALUE_X + 4;
    for kept in [pawn, w::EG + cannon, w::TEMPO, w::EG + w::TEMPO] {
        assert_eq!(
            fitted.0[kept],
            start.0[kept],
            "{} is kept",
            weight_names()[kept]
        );
    }
    let moved_mg = (0..w::PER_PHASE).any(|i| fitted.0[i] != start.0[i]);
    let moved_eg = (w::EG..w::COUNT).any(|i| fitted.0[i] != start.0[i]);
    assert!(moved_mg && moved_eg, "both phases' weights are fitted");

    // The engine plays with it.
    let mut engine = Command::new(JIEQI)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "uci\nsetoption name UCI_Variant value xiangqi\nsetoption name WeightsFile value {}\n\
         isready\nposition startpos\ngo depth 3\nquit\n",
        weights.display()
    );
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = engine.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("readyok"), "{stdout}");
    assert!(!stdout.contains("ignored setoption"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("bestmove ")),
        "{stdout}"
    );
}

#[test]
fn bad_tune_input_is_an_error_line_and_a_status() {
    let dir = scratch("tune-bad");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let empty = empty.to_str().unwrap();

    let out = tune(&["--records", empty, "--fixed", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("error: --fixed: unknown weight 'nosuch'"));

    let out = tune(&["--records", empty]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("error: no positions of variant jieqi"));

    let missing = dir.join("missing.jsonl");
    let out = tune(&["--records", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: "),
        "{}",
        text(&out.stderr)
    );

    let out = tune(&["--records", empty, "--start", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("error: "));
}
