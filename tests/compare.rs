//! `jieqi compare` (protocol.md section 17, "Comparing matches"): one engine's scores in two
//! matches on the same deals, pair by pair, as the real binary prints them. Engines play fixed
//! node budgets, so the matches take seconds.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use common::referee::{read_records, run_match, scratch, JIEQI};
use jieqi::referee::stats::Z95;

fn compare(args: &[&str]) -> Output {
    Command::new(JIEQI)
        .arg("compare")
        .args(args)
        .output()
        .unwrap()
}

/// Plays a two-engine match of 6 pairs with `seed`, the first engine at `nodes` per move.
fn play(out: &Path, first_nodes: u32, seed: &str) {
    let first = format!("name=first cmd={JIEQI} nodes={first_nodes}");
    let second = format!("name=second cmd={JIEQI} nodes=400");
    let o = run_match(&[
        "--engine",
        &first,
        "--engine",
        &second,
        "--games",
        "12",
        "--seed",
        seed,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The first engine's points per pair, read from the records directly.
fn pair_points(path: &Path) -> BTreeMap<i64, f64> {
    let mut pairs = BTreeMap::new();
    for r in read_records(path) {
        let red_points = match r["result"].as_str().unwrap() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let first_is_red = r["red"].as_str() == Some("first");
        let p = if first_is_red {
            red_points
        } else {
            1.0 - red_points
        };
        *pairs.entry(r["pair"].as_i64().unwrap()).or_insert(0.0) += p;
    }
    pairs
}

#[test]
fn two_matches_on_the_same_deals_compare_pair_by_pair() {
    let dir = scratch("compare");
    let control = dir.join("control.jsonl");
    let candidate = dir.join("candidate.jsonl");
    let other = dir.join("other-deals.jsonl");
    play(&control, 1500, "11");
    play(&candidate, 200, "11");
    play(&other, 1500, "12");
    let (c, n) = (control.to_str().unwrap(), candidate.to_str().unwrap());

    let o = compare(&[c, n]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();

    let (a, b) = (pair_points(&control), pair_points(&candidate));
    assert_eq!((a.len(), b.len()), (6, 6));
    let diffs: Vec<f64> = a.keys().map(|k| (b[k] - a[k]) / 2.0).collect();
    let nf = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / nf;
    let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (nf - 1.0);
    let half = Z95 * (var / nf).sqrt();
    let score = |m: &BTreeMap<i64, f64>| 100.0 * m.values().sum::<f64>() / (2.0 * nf);
    let expected = format!(
        "{n} against {c}: 6 common pairs; first {:.1}% against first {:.1}%; difference {:+.1} \
         points (95%: {:+.1} .. {:+.1})",
        score(&b),
        score(&a),
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half)
    );
    assert_eq!(text.trim_end(), expected);

    // A match compared with itself differs by nothing.
    let same = String::from_utf8(compare(&[c, c]).stdout).unwrap();
    assert!(
        same.trim_end()
            .ends_with("difference +0.0 points (95%: +0.0 .. +0.0)"),
        "{same}"
    );

    // Other deals under the same pair numbers are refused, and the other candidate still
    // compares; the status says that one failed.
    let o = compare(&[c, other.to_str().unwrap(), n]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: ") && err.contains("was not played from the same deal"),
        "{err}"
    );
    assert_eq!(String::from_utf8(o.stdout).unwrap().trim_end(), expected);
}

#[test]
fn compare_refuses_what_it_cannot_compare() {
    let dir = scratch("compare-refusals");
    let t = dir.join("tournament.jsonl");
    let engines: Vec<String> = ["a", "b", "c"]
        .iter()
        .map(|n| format!("name={n} cmd={JIEQI} nodes=200"))
        .collect();
    let o = run_match(&[
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--engine",
        &engines[2],
        "--games",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--out",
        t.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = t.to_str().unwrap();
    let o = compare(&[t, t]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("only two-engine matches compare"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let missing = dir.join("missing.jsonl");
    let o = compare(&[missing.to_str().unwrap(), t]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: "));

    // A control alone is a usage error.
    assert_eq!(compare(&[t]).status.code(), Some(2));
}
