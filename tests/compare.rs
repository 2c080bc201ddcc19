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

    let expected = expected_line(&format!("{n} against {c}"), &common(&control, &candidate));
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

/// The expected line of a comparison over `pairs` (control's and candidate's points per pair).
fn expected_line(label: &str, pairs: &[(f64, f64)]) -> String {
    let nf = pairs.len() as f64;
    let diffs: Vec<f64> = pairs.iter().map(|(a, b)| (b - a) / 2.0).collect();
    let mean = diffs.iter().sum::<f64>() / nf;
    let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (nf - 1.0);
    let half = Z95 * (var / nf).sqrt();
    let score = |f: fn(&(f64, f64)) -> f64| 100.0 * pairs.iter().map(f).sum::<f64>() / (2.0 * nf);
    format!(
        "{label}: {} common pairs; first {:.1}% against first {:.1}%; difference {:+.1} points \
         (95%: {:+.1} .. {:+.1})",
        pairs.len(),
        score(|p| p.1),
        score(|p| p.0),
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half)
    )
}

/// The pairs of a control and a candidate match, as the records give them.
fn common(control: &Path, candidate: &Path) -> Vec<(f64, f64)> {
    let (a, b) = (pair_points(control), pair_points(candidate));
    assert_eq!((a.len(), b.len()), (6, 6));
    a.keys().map(|k| (a[k], b[k])).collect()
}

#[test]
fn screens_pool_pair_by_pair() {
    let dir = scratch("compare-pool");
    let files: Vec<_> = ["control-1", "candidate-1", "control-2", "candidate-2"]
        .iter()
        .map(|n| dir.join(format!("{n}.jsonl")))
        .collect();
    play(&files[0], 1500, "21");
    play(&files[1], 200, "21");
    play(&files[2], 1500, "22");
    play(&files[3], 200, "22");
    let f: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();

    let o = compare(&["--pool", f[0], f[1], f[2], f[3]]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let (one, two) = (common(&files[0], &files[1]), common(&files[2], &files[3]));
    let both: Vec<(f64, f64)> = one.iter().chain(&two).copied().collect();
    let expected = [
        expected_line(&format!("{} against {}", f[1], f[0]), &one),
        expected_line(&format!("{} against {}", f[3], f[2]), &two),
        expected_line("pooled over 2 screens", &both),
    ]
    .join("\n");
    assert_eq!(text.trim_end(), expected);

    // An odd number of files is a usage error.
    let o = compare(&["--pool", f[0], f[1], f[2]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("odd number"));

    // A screen whose files were not played on the same deals fails, and nothing is pooled.
    let o = compare(&["--pool", f[0], f[1], f[0], f[3]]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("was not played from the same deal"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.trim_end(), expected.lines().next().unwrap());
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

    // A file that cannot be read is named once, as control or as candidate.
    let two = dir.join("two.jsonl");
    play(&two, 400, "3");
    let missing = dir.join("missing.jsonl");
    let m = missing.to_str().unwrap();
    for args in [[m, two.to_str().unwrap()], [two.to_str().unwrap(), m]] {
        let o = compare(&args);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(&format!("error: {m}: ")), "{err}");
        assert_eq!(err.matches(m).count(), 1, "{err}");
    }

    // A control alone is a usage error.
    assert_eq!(compare(&[t]).status.code(), Some(2));
}
