//! `jieqi match --resume`: a match that stopped before its end is finished by the same command
//! with `--resume`, which keeps the games of its record file, plays the others and prints the
//! summary of the whole match (protocol.md section 17, "Resuming"). Engines play fixed node
//! budgets, so a game is the same whichever run plays it.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::referee::{read_records, scratch, JIEQI};
use serde_json::Value as Json;

fn jieqi(args: &[String]) -> Output {
    Command::new(JIEQI).args(args).output().unwrap()
}

fn run(args: &[String]) -> String {
    let out = jieqi(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

/// A quiet match of this engine at fixed node counts: `engines` as (name, nodes per move),
/// then `games`, `max_plies`, `seed` and the `extra` arguments.
fn engines_match(
    engines: &[(&str, u32)],
    games: &str,
    max_plies: &str,
    seed: &str,
    extra: &[String],
) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    for (name, nodes) in engines {
        args.push("--engine".into());
        args.push(format!("name={name} cmd={JIEQI} nodes={nodes}"));
    }
    args.extend(words(&[
        "--games",
        games,
        "--max-plies",
        max_plies,
        "--seed",
        seed,
        "--quiet",
    ]));
    args.extend(extra.iter().cloned());
    args
}

/// The match of most of these tests, with `extra` arguments.
fn match_args(seed: &str, extra: &[String]) -> Vec<String> {
    engines_match(&[("a", 300), ("b", 150)], "6", "24", seed, extra)
}

fn game_no(r: &Json) -> u64 {
    r["game"].as_u64().expect("a game number")
}

/// A record without its move times (the only part that depends on the run).
fn comparable(r: &Json) -> String {
    let mut r = r.clone();
    for m in r["moves"].as_array_mut().expect("moves") {
        m.as_object_mut().expect("a move").remove("time_ms");
    }
    r.to_string()
}

/// The lines of `path` whose game number is in `games`, in the file's order.
fn some_lines(path: &Path, games: &[u64]) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| {
            let r: Json = serde_json::from_str(l).unwrap();
            games.contains(&game_no(&r))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_resumed_match_plays_only_the_missing_games_and_prints_the_whole_summary() {
    let dir = scratch("resume-missing");
    let whole_path = dir.join("whole.jsonl");
    let part_path = dir.join("part.jsonl");
    let path_arg = |p: &Path| p.to_str().unwrap().to_string();
    let whole = run(&match_args("3", &["--out".into(), path_arg(&whole_path)]));
    // Kept: pair 1 whole, and one game of pair 2 and of pair 3; the last line lacks its line
    // break, as a file cut short by hand might.
    let kept = some_lines(&whole_path, &[1, 2, 3, 6]);
    std::fs::write(&part_path, kept.trim_end()).unwrap();
    let resumed = run(&match_args(
        "3",
        &[
            "--out".into(),
            path_arg(&part_path),
            "--resume".into(),
            "--concurrency".into(),
            "2".into(),
        ],
    ));
    assert_eq!(resumed, whole, "the summary of the whole match");
    let text = std::fs::read_to_string(&part_path).unwrap();
    assert!(
        text.starts_with(kept.trim_end()),
        "the kept records stay as they were"
    );
    let mut games = read_records(&part_path);
    let mut numbers: Vec<u64> = games.iter().map(game_no).collect();
    assert_eq!(numbers[..4], [1, 2, 3, 6], "the kept games come first");
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6], "every game once");
    let mut expected = read_records(&whole_path);
    games.sort_by_key(game_no);
    expected.sort_by_key(game_no);
    for (a, b) in games.iter().zip(&expected) {
        assert_eq!(comparable(a), comparable(b), "game {}", game_no(a));
    }
    // `jieqi merge` reads the resumed file as the whole match.
    let merged = run(&["merge".to_string(), path_arg(&part_path)]);
    assert_eq!(merged, whole);
}

#[test]
fn resuming_a_complete_or_absent_record_file() {
    let dir = scratch("resume-complete");
    let path_arg = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let whole = run(&match_args("4", &["--out".into(), path_arg("whole.jsonl")]));
    let before = std::fs::read(dir.join("whole.jsonl")).unwrap();
    // Every game is there: nothing is played, the file stays as it was.
    let again = run(&match_args(
        "4",
        &["--out".into(), path_arg("whole.jsonl"), "--resume".into()],
    ));
    assert_eq!(again, whole);
    assert_eq!(std::fs::read(dir.join("whole.jsonl")).unwrap(), before);
    // No file yet: the whole match is played.
    let fresh = run(&match_args(
        "4",
        &["--out".into(), path_arg("fresh.jsonl"), "--resume".into()],
    ));
    assert_eq!(fresh, whole);
    assert_eq!(read_records(&dir.join("fresh.jsonl")).len(), 6);
}

#[test]
fn a_resumed_share_and_a_decided_sprt() {
    let dir = scratch("resume-share");
    let path_arg = |n: &str| dir.join(n).to_str().unwrap().to_string();
    // Share 2 of 2 (pairs 2, 4, 6 of 6: games 3, 4, 7, 8, 11, 12), resumed from its first
    // pair.
    let share = |out: &str, resume: bool| {
        let mut extra = words(&["--games", "12", "--shard", "2/2", "--out"]);
        extra.push(path_arg(out));
        if resume {
            extra.push("--resume".into());
        }
        run(&match_args("6", &extra))
    };
    let whole = share("share.jsonl", false);
    std::fs::write(
        dir.join("part.jsonl"),
        some_lines(&dir.join("share.jsonl"), &[3, 4]),
    )
    .unwrap();
    assert_eq!(share("part.jsonl", true), whole);
    let mut numbers: Vec<u64> = read_records(&dir.join("part.jsonl"))
        .iter()
        .map(game_no)
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [3, 4, 7, 8, 11, 12]);

    // A strong engine against a weak one with a test that decides after two pairs: resuming
    // the stopped match plays nothing more, and says it stopped early.
    let sprt = |out: &str| {
        let mut extra = words(&[
            "--sprt",
            "elo0=0",
            "elo1=300",
            "alpha=0.1",
            "beta=0.1",
            "minpairs=1",
            "--resume",
            "--out",
        ]);
        extra.push(path_arg(out));
        let engines = [("strong", 2000), ("weak", 20)];
        run(&engines_match(&engines, "40", "80", "5", &extra))
    };
    let stopped = sprt("sprt.jsonl");
    assert!(stopped.contains("Stopped early"), "{stopped}");
    let played = read_records(&dir.join("sprt.jsonl")).len();
    assert!(played < 40, "{played} games");
    let before = std::fs::read(dir.join("sprt.jsonl")).unwrap();
    let resumed = sprt("sprt.jsonl");
    assert_eq!(std::fs::read(dir.join("sprt.jsonl")).unwrap(), before);
    // The same summary, but the test's line is that of all pairs in the file, as `jieqi
    // merge` prints it (the running match stopped testing at its decision; a pair already
    // started then was still played and counted).
    let sprt_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("SPRT"))
            .unwrap_or_else(|| panic!("no SPRT line in {text}"))
            .to_string()
    };
    let others = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("SPRT"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(others(&resumed), others(&stopped));
    let merged = run(&["merge".to_string(), path_arg("sprt.jsonl")]);
    assert_eq!(sprt_line(&resumed), sprt_line(&merged));
    assert!(sprt_line(&resumed).ends_with("H1 accepted"), "{resumed}");
}

#[test]
fn resume_refuses_records_that_are_not_of_this_match() {
    let dir = scratch("resume-refuse");
    let path_arg = |n: &str| dir.join(n).to_str().unwrap().to_string();
    run(&match_args("7", &["--out".into(), path_arg("seven.jsonl")]));
    let before = std::fs::read(dir.join("seven.jsonl")).unwrap();
    let refused = |args: Vec<String>, what: &str| {
        let out = jieqi(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot resume"), "{err}");
        assert!(err.contains(what), "{err}");
        assert!(out.stdout.is_empty(), "nothing played");
    };
    let resume = |seed: &str, file: &str, extra: &[&str]| {
        let mut e = vec!["--out".to_string(), path_arg(file), "--resume".into()];
        e.extend(words(extra));
        match_args(seed, &e)
    };
    // Another seed is another match.
    refused(resume("8", "seven.jsonl", &[]), "another match");
    // Another share of the same match.
    refused(
        resume("7", "seven.jsonl", &["--shard", "2/3"]),
        "not in share 2/3",
    );
    assert_eq!(std::fs::read(dir.join("seven.jsonl")).unwrap(), before);
    // A line that is not a record, named by file and line.
    let mut text = String::from_utf8(before.clone()).unwrap();
    text.push_str("not a record\n");
    std::fs::write(dir.join("bad.jsonl"), &text).unwrap();
    refused(resume("7", "bad.jsonl", &[]), "bad.jsonl:7");
    // A game twice.
    let mut text = String::from_utf8(before.clone()).unwrap();
    text.push_str(text.clone().lines().next().unwrap());
    std::fs::write(dir.join("twice.jsonl"), &text).unwrap();
    refused(resume("7", "twice.jsonl", &[]), "appears twice");
    // --resume needs --out: an argument error.
    let out = jieqi(&match_args("7", &words(&["--resume"])));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_resumed_tournament_prints_the_whole_tournament() {
    let dir = scratch("resume-tournament");
    let path_arg = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let args = |out: &str, resume: bool| {
        let mut extra = vec!["--out".to_string(), path_arg(out)];
        if resume {
            extra.push("--resume".into());
        }
        let engines = [("a", 400), ("b", 200), ("c", 100)];
        engines_match(&engines, "2", "24", "9", &extra)
    };
    let whole = run(&args("whole.jsonl", false));
    // Three encounters of one pair each: games 1-6. Keep the second encounter and one game of
    // the third.
    std::fs::write(
        dir.join("part.jsonl"),
        some_lines(&dir.join("whole.jsonl"), &[3, 4, 6]),
    )
    .unwrap();
    assert_eq!(run(&args("part.jsonl", true)), whole);
    let mut numbers: Vec<u64> = read_records(&dir.join("part.jsonl"))
        .iter()
        .map(game_no)
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
}
