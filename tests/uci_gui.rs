//! UCI answers a GUI relies on (protocol.md sections 8, 10, 11, 13): the last scored `info`
//! line before `bestmove` is the final result, a `go` after a refused `position` answers
//! `bestmove (none)`, WDL is shown by default and follows each variant's model, and `FlipOdds`
//! reports what each identity of a flip would be worth.

mod common;

use std::process::Command;

use common::jai::Session;
use common::referee::JIEQI;

/// `jieqi uci`, read line by line.
struct Engine(Session);

impl Engine {
    fn start() -> Engine {
        Engine(Session::start(&["uci"], None))
    }

    fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.0.until(prefix, 60, |l| l.starts_with(prefix))
    }

    /// Sends `isready` and waits for `readyok`, so that every earlier command was handled.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }
}

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == key)?;
    words.get(i + 1).copied()
}

fn num(line: &str, key: &str) -> u64 {
    field(line, key)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// Checks a search's lines: the last line with a score before `bestmove` is multipv 1, its PV
/// starts with the move played, and it has the largest node count and time of the search.
fn check_final_line(lines: &[String]) -> String {
    let best = lines.last().unwrap();
    let mv = best
        .strip_prefix("bestmove ")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    let last = scored.last().expect("a scored line");
    assert_eq!(field(last, "multipv"), Some("1"), "{last}");
    assert_eq!(field(last, "pv"), Some(mv), "{last} / {best}");
    for l in &scored {
        assert!(num(last, "nodes") >= num(l, "nodes"), "{last} / {l}");
        assert!(num(last, "time") >= num(l, "time"), "{last} / {l}");
    }
    assert!(last.contains(" wdl "), "WDL by default: {last}");
    last.to_string()
}

#[test]
fn the_last_scored_line_is_the_result_and_wdl_is_shown() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.contains(&"option name UCI_ShowWDL type check default true".to_string()));
    assert!(hello.contains(&"option name FlipOdds type check default false".to_string()));
    // Several lines: each iteration reports lines 1..3, the search ends with line 1.
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go nodes 30000");
    let lines = e.until("bestmove ");
    assert!(lines.iter().any(|l| l.contains(" multipv 3 ")), "{lines:?}");
    check_final_line(&lines);
    // One line, a search cut by its node budget mid-iteration.
    e.send("setoption name MultiPV value 1");
    e.send("position startpos moves b2e2C h9g7n");
    e.send("go nodes 5000");
    check_final_line(&e.until("bestmove "));
    e.send("setoption name UCI_ShowWDL value false");
    e.send("go depth 2");
    let lines = e.until("bestmove ");
    assert!(!lines.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
}

/// The `wdl` protocol.md section 11 gives for a score in centipawns: a win as likely as a
/// decisive result on a base-10 logistic of `scale` at `margin` below the score, a loss at
/// `margin` above it, per mille.
fn model_wdl(cp: f64, scale: f64, margin: f64) -> (u64, u64, u64) {
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / scale));
    let w = (f(cp - margin) * 1000.0).round() as u64;
    let l = (f(-cp - margin) * 1000.0).round() as u64;
    (w, 1000 - w - l, l)
}

#[test]
fn wdl_follows_each_variants_model() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    for (variant, scale, margin) in [
        ("jieqi", 1600.0, 400.0),
        ("maniac", 1700.0, 50.0),
        ("xiangqi", 361.0, 150.0),
    ] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("position startpos");
        e.send("go depth 2");
        let lines = e.until("bestmove ");
        let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score cp ")).collect();
        assert!(!scored.is_empty(), "{variant}: {lines:?}");
        for l in scored {
            let cp: f64 = field(l, "cp").unwrap().parse().unwrap();
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|&w| w == "wdl").expect("wdl");
            let got: Vec<u64> = words[i + 1..i + 4]
                .iter()
                .map(|w| w.parse().unwrap())
                .collect();
            let (w, d, lo) = model_wdl(cp, scale, margin);
            assert_eq!(got, vec![w, d, lo], "{variant}: {l}");
        }
    }
}

/// The score of an `info` line in centipawns (these positions have no mates).
fn cp(line: &str) -> i64 {
    field(line, "cp")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no cp in {line}"))
}

#[test]
fn multipv_lines_stay_in_order_of_score() {
    // Jieqi openings where, at depth 3, a later line scores above an earlier one of the same
    // iteration (the earlier line's search saw its move only in part): the lines are reordered
    // and reported again, and line 1 is the move played.
    let positions = [
        "a3a4R e6e5r a4e4",
        "a3a4R e6e5r a4e4 e5e4 e3e4P",
        "a3a4N a6a5p e3e4B",
    ];
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name MultiPV value 3");
    let mut reordered = 0;
    for moves in positions {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 3");
        let lines = e.until("bestmove ");
        let played = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        // The iterations' reports, without the final line that repeats line 1 (the result).
        let reports = &lines[..lines.len() - 2];
        // The latest report of each line, per depth; a line reported again after a later one
        // of the same depth means the lines were reordered.
        for depth in 1..=3u64 {
            let mut latest: Vec<Option<&String>> = vec![None; 3];
            let mut highest = 0;
            for l in reports.iter().filter(|l| {
                l.starts_with("info depth ") && num(l, "depth") == depth && l.contains(" pv ")
            }) {
                let k = num(l, "multipv") as usize;
                if k < highest {
                    reordered += 1;
                }
                highest = highest.max(k);
                latest[k - 1] = Some(l);
            }
            let latest: Vec<&String> = latest.into_iter().flatten().collect();
            assert_eq!(latest.len(), 3, "{moves}, depth {depth}: {lines:?}");
            for w in latest.windows(2) {
                assert!(cp(w[0]) >= cp(w[1]), "{moves}, depth {depth}: {w:?}");
            }
            if depth == 3 {
                assert_eq!(field(latest[0], "pv"), Some(played), "{moves}: {lines:?}");
            }
        }
    }
    // Not vacuous: the positions were chosen because their lines do get reordered (should a
    // change of the search stop that, choose others).
    assert!(reordered > 0, "no position reordered its lines");
}

#[test]
fn multipv_search_stopped_after_line_one_plays_line_one() {
    // With MultiPV 3, a search stopped (here by `go nodes`) after line 1 of an iteration has
    // finished, while a later line of it is searched, plays line 1's move at the new depth: that
    // line searched every root move. The stopping points are found from a `go depth` run of the
    // same position in another process (one thread: the same nodes, the same reports).
    let positions = [
        "a3a4N a6a5b c3c4R c9e7n g3g4B e6e5c c0e2B i6i5a",
        "a3a4C b9a7p i3i4R g9i7r a4e4",
        "a3a4C b9a7p i3i4R g9i7r a4e4 d9e8b i4h4 h7h2a g3g4A h2g1 g0e2N c6c5c",
    ];
    // A fresh engine with MultiPV 3 at the position after `moves`.
    let at = |moves: &str| {
        let mut e = Engine::start();
        e.send("setoption name MultiPV value 3");
        e.send(&format!("position startpos moves {moves}"));
        e
    };
    let mut changed = 0;
    for moves in positions {
        let mut e = at(moves);
        e.send("go depth 3");
        let lines = e.until("bestmove ");
        // The iterations' reports (without the final line that repeats the result).
        let reports: Vec<&String> = lines[..lines.len() - 2]
            .iter()
            .filter(|l| l.starts_with("info depth ") && l.contains(" pv "))
            .collect();
        for (i, r) in reports.iter().enumerate() {
            let depth = num(r, "depth");
            let first_of_depth = i == 0 || num(reports[i - 1], "depth") != depth;
            if !first_of_depth || depth < 2 || num(r, "multipv") != 1 {
                continue;
            }
            // Line 1 of this iteration has finished; stop halfway to the iteration's next report.
            let Some(next) = reports.get(i + 1).filter(|n| num(n, "depth") == depth) else {
                continue;
            };
            let (from, to) = (num(r, "nodes"), num(next, "nodes"));
            if to < from + 2048 {
                continue; // too close for the node limit's granularity
            }
            let line1 = field(r, "pv").unwrap();
            let before = reports[..i]
                .iter()
                .rev()
                .find(|l| num(l, "multipv") == 1)
                .and_then(|l| field(l, "pv"))
                .unwrap();
            if line1 != before {
                changed += 1;
            }
            let mut f = at(moves);
            f.send(&format!("go nodes {}", (from + to) / 2));
            let stopped = f.until("bestmove ");
            let played = stopped.last().unwrap().split_whitespace().nth(1).unwrap();
            assert_eq!(
                played, line1,
                "{moves}, stopped in depth {depth}: {stopped:?}"
            );
            let last = check_final_line(&stopped);
            assert_eq!(num(&last, "depth"), depth, "{last}");
            assert!(!last.contains("lowerbound"), "{last}");
        }
    }
    // Not vacuous: in these positions line 1's move at some depth differs from the one before
    // (should a change of the search stop that, choose others).
    assert!(
        changed > 0,
        "no position changed its move from one depth to the next"
    );
}

#[test]
fn go_after_a_refused_position_answers_none() {
    let mut e = Engine::start();
    let refused = [
        "position fen not/a/fen w - 0 1",
        "position startpos moves z9z9",
        // A flip without its identity: the GUI must say what was revealed.
        "position startpos moves b2e2C h9g7n a3a4",
    ];
    for bad in refused {
        e.send("position startpos moves b2e2C");
        e.send(bad);
        e.send("go nodes 2000");
        let lines = e.until("bestmove ");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{bad}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string go: the last position command was refused")),
            "{lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("info depth")),
            "nothing searched: {lines:?}"
        );
        // Again: still no search, until a position is accepted.
        e.send("go movetime 50");
        assert_eq!(e.until("bestmove ").last().unwrap(), "bestmove (none)");
        e.send("position startpos moves b2e2C h9g7n");
        e.send("go nodes 2000");
        let lines = e.until("bestmove ");
        assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    }
    // `ucinewgame` starts afresh from the start position.
    e.send("position fen junk");
    e.send("ucinewgame");
    e.send("go nodes 2000");
    assert_ne!(e.until("bestmove ").last().unwrap(), "bestmove (none)");
    // A go that waits behind a running search still gets its own (none).
    e.send("position startpos");
    e.send("go infinite");
    e.send("position fen junk");
    e.send("go nodes 1000");
    e.send("stop");
    let first = e.until("bestmove ");
    assert_ne!(first.last().unwrap(), "bestmove (none)");
    let second = e.until("bestmove ");
    assert_eq!(second.last().unwrap(), "bestmove (none)", "{second:?}");
    e.sync();
}

#[test]
fn flip_odds_name_every_identity_of_the_best_flip() {
    let mut e = Engine::start();
    e.send("setoption name FlipOdds value true");
    e.send("position startpos");
    // At the start every move flips a piece.
    e.send("go nodes 5000");
    let lines = e.until("bestmove ");
    let best = lines.last().unwrap()[9..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let odds = lines
        .iter()
        .find(|l| l.starts_with("info string flipodds "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let words: Vec<&str> = odds.split_whitespace().skip(3).collect();
    assert_eq!(words[0], best);
    // Red's pool at the start: R A C N B twice, P five times.
    let mut counts = Vec::new();
    for item in words[1..].chunks(4) {
        let (letter, share) = (item[0], item[1]);
        assert!(matches!(item[2], "cp" | "mate"), "{odds}");
        item[3].parse::<i32>().unwrap();
        let (n, total) = share.split_once('/').unwrap();
        assert_eq!(total, "15");
        counts.push((letter.to_string(), n.parse::<u32>().unwrap()));
    }
    counts.sort();
    let want: Vec<(String, u32)> = [("A", 2), ("B", 2), ("C", 2), ("N", 2), ("P", 5), ("R", 2)]
        .iter()
        .map(|(l, n)| (l.to_string(), *n))
        .collect();
    assert_eq!(counts, want, "{odds}");
    // The odds are no score line: the final info line still comes last before bestmove.
    check_final_line(&lines);
    assert!(!odds.contains("score"));
}

#[test]
fn analyze_json_gives_flip_odds_for_the_best_and_named_moves() {
    let out = Command::new(JIEQI)
        .args([
            "analyze", "--nodes", "3000", "--json", "--odds", "b0c2", "--odds", "h0g2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let v = serde_json::from_str::<serde_json::Value>(text.trim()).unwrap();
    let best = v.get("bestmove").and_then(|b| b.as_str()).unwrap();
    let odds = v.get("flip_odds").and_then(|o| o.as_array()).unwrap();
    let moves: Vec<&str> = odds
        .iter()
        .map(|o| o.get("move").and_then(|m| m.as_str()).unwrap())
        .collect();
    assert_eq!(moves[0], best, "the best move (a flip at the start) first");
    assert!(
        moves.contains(&"b0c2") && moves.contains(&"h0g2"),
        "{moves:?}"
    );
    for o in odds {
        let ids = o.get("identities").and_then(|i| i.as_array()).unwrap();
        assert_eq!(o.get("total").and_then(|t| t.as_i64()), Some(15));
        let p: f64 = ids
            .iter()
            .map(|i| i.get("probability").and_then(|p| p.as_f64()).unwrap())
            .sum();
        assert!((p - 1.0).abs() < 1e-3, "probabilities sum to 1: {p}");
        let n: i64 = ids
            .iter()
            .map(|i| i.get("count").and_then(|c| c.as_i64()).unwrap())
            .sum();
        assert_eq!(n, 15);
        for i in ids {
            let s = i.get("score").unwrap();
            assert!(s.get("cp").or_else(|| s.get("mate")).is_some(), "{text}");
        }
    }
    // A named move that is not a flip is refused.
    let out = Command::new(JIEQI)
        .args(["analyze", "--nodes", "100", "--odds", "e0e1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
