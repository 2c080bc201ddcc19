//! A match played whole and in shares (`jieqi match --shard I/N`) gives the same games, and
//! `jieqi merge` of the shares' records prints the summary the whole run printed, line for line
//! (protocol.md section 17, "Shares"). Engines play fixed node budgets, so games are the same
//! whichever process plays them.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::referee::{read_records, scratch, JIEQI};
use serde_json::Value as Json;

fn run(args: &[String]) -> Output {
    let out = Command::new(JIEQI).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A record without what depends on the run (times, the share that played it).
fn comparable(r: &Json) -> String {
    let mut r = r.clone();
    r["match"]
        .as_object_mut()
        .expect("a match field")
        .remove("shard");
    for m in r["moves"].as_array_mut().expect("moves") {
        m.as_object_mut().expect("a move").remove("time_ms");
    }
    r.to_string()
}

fn game_no(r: &Json) -> i64 {
    r.get("game").and_then(Json::as_i64).unwrap()
}

/// Plays `args` whole and as 3 shares; checks the games and the merged summary.
fn whole_and_shards(test: &str, args: &[String], games: usize) {
    let dir = scratch(test);
    let file = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let mut whole_args = args.to_vec();
    whole_args.extend(["--out".into(), file("whole.jsonl")]);
    let whole = run(&whole_args);
    let whole_text = String::from_utf8(whole.stdout).unwrap();
    let mut shard_files = Vec::new();
    let mut shard_games = Vec::new();
    for i in 1..=3 {
        let name = file(&format!("share{i}.jsonl"));
        let mut a = args.to_vec();
        a.extend([
            "--shard".into(),
            format!("{i}/3"),
            "--out".into(),
            name.clone(),
        ]);
        run(&a);
        let recs = read_records(Path::new(&name));
        // Share i plays the scheduled pairs k with k mod 3 = i-1: games 2k+1 and 2k+2.
        for r in &recs {
            let k = (game_no(r) - 1) / 2;
            assert_eq!(k % 3, i - 1, "share {i} played game {}", game_no(r));
        }
        shard_games.extend(recs);
        shard_files.push(name);
    }
    let mut whole_games = read_records(Path::new(&file("whole.jsonl")));
    assert_eq!(whole_games.len(), games);
    assert_eq!(shard_games.len(), games);
    whole_games.sort_by_key(game_no);
    shard_games.sort_by_key(game_no);
    for (a, b) in whole_games.iter().zip(&shard_games) {
        assert_eq!(comparable(a), comparable(b), "game {}", game_no(a));
    }
    let mut merge_args = vec!["merge".to_string()];
    merge_args.extend(shard_files.iter().rev().cloned());
    let merged = String::from_utf8(run(&merge_args).stdout).unwrap();
    let (w, m): (Vec<&str>, Vec<&str>) = (whole_text.lines().collect(), merged.lines().collect());
    assert_eq!(w.len(), m.len(), "whole:\n{whole_text}\nmerged:\n{merged}");
    for (a, b) in w.iter().zip(&m) {
        assert_eq!(a, b);
    }
    // Two shares of three: the same summary lines for what is there, and a line saying so.
    let part = run(&[
        "merge".to_string(),
        shard_files[0].clone(),
        shard_files[2].clone(),
    ]);
    let part = String::from_utf8(part.stdout).unwrap();
    assert!(
        part.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("Incomplete: "),
        "{part}"
    );
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn a_match_in_three_shares_merges_to_the_whole_run() {
    let a = format!("name=big cmd={JIEQI} nodes=1500");
    let b = format!("name=small cmd={JIEQI} nodes=400");
    whole_and_shards(
        "match",
        &args(&[
            "match",
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "8",
            "--seed",
            "7",
            "--quiet",
            "--sprt",
            "elo0=0",
            "elo1=20",
            "minpairs=1000",
        ]),
        8,
    );
}

#[test]
fn a_tournament_in_three_shares_merges_to_the_whole_run() {
    let a = format!("name=a cmd={JIEQI} nodes=1200");
    let b = format!("name=b cmd={JIEQI} nodes=600");
    let c = format!("name=c cmd={JIEQI} nodes=300");
    whole_and_shards(
        "tournament",
        &args(&[
            "match", "--engine", &a, "--engine", &b, "--engine", &c, "--games", "2", "--quiet",
        ]),
        6,
    );
}

#[test]
fn merge_refuses_records_of_other_matches_and_repeated_games() {
    let dir = scratch("refuse");
    let file = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let base = |seed: &str, out: &str, shard: &str| {
        let mut a = args(&[
            "match",
            "--engine",
            JIEQI,
            "--engine",
            JIEQI,
            "--games",
            "4",
            "--nodes",
            "300",
            "--max-plies",
            "6",
            "--quiet",
            "--seed",
            seed,
            "--out",
        ]);
        a.push(file(out));
        a.extend(["--shard".to_string(), shard.to_string()]);
        run(&a);
    };
    base("1", "one.jsonl", "1/2");
    base("2", "two.jsonl", "2/2");
    base("1", "again.jsonl", "1/2");
    let merge = |files: &[&str]| {
        let mut a = vec!["merge".to_string()];
        a.extend(files.iter().map(|f| file(f)));
        Command::new(JIEQI).args(&a).output().unwrap()
    };
    let out = merge(&["one.jsonl", "two.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another match"), "{err}");
    let out = merge(&["one.jsonl", "again.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("appears twice"), "{err}");
    std::fs::write(file("old.jsonl"), "{\"game\":1}\n").unwrap();
    let out = merge(&["old.jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    // A share out of range is an argument error.
    let out = Command::new(JIEQI)
        .args([
            "match", "--engine", JIEQI, "--engine", JIEQI, "--shard", "4/3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
