//! `jieqi export`: recorded games in JieqiBox's notation format. The exported game is replayed
//! on the rules core from its `initialFen`, move by move, and every `fen` must be the position
//! the move led to (protocol.md section 17, "Export").

mod common;

use std::process::Command;

use common::referee::{read_records, run_match, s, scratch, shown_reveal, JIEQI};
use jieqi::core::{fen, Game, Move, Position, Variant};
use serde_json::Value as Json;

/// Replays an exported game; returns the number of moves with an engine score.
fn replay(notation: &Json, record: &Json) -> usize {
    let meta = notation.get("metadata").unwrap();
    assert_eq!(s(meta, "white"), s(record, "red"));
    assert_eq!(s(meta, "black"), s(record, "black"));
    assert_eq!(s(meta, "result"), s(record, "result"));
    assert_eq!(s(meta, "flipMode"), "random");
    let initial = s(meta, "initialFen");
    assert_eq!(
        initial.split_whitespace().count(),
        6,
        "JieqiBox's 6 fields: {initial}"
    );
    let (start, warnings) =
        Position::from_setup(&fen::parse(initial).unwrap(), Variant::Jieqi).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut game = Game::new(start);
    let moves = notation.get("moves").and_then(Json::as_array).unwrap();
    let recorded = record.get("moves").and_then(Json::as_array).unwrap();
    assert_eq!(moves.len(), recorded.len());
    let mut scored = 0;
    for (m, r) in moves.iter().zip(recorded) {
        assert_eq!(s(m, "type"), "move");
        let data = s(m, "data");
        let mv = Move::parse(&data[..4]).unwrap();
        assert_eq!(mv.to_string(), s(r, "move"));
        let pos = *game.position();
        game.play(mv, shown_reveal(&pos, mv, data))
            .unwrap_or_else(|e| panic!("{data}: {e}"));
        assert_eq!(s(m, "fen"), game.position().fen6(), "after {data}");
        let book = r.get("book").and_then(Json::as_bool).unwrap();
        let time = m.get("engineTime").and_then(Json::as_i64);
        let score = m.get("engineScore").and_then(Json::as_i64);
        if book {
            assert!(time.is_none() && score.is_none(), "{data}: a book move");
        } else {
            assert_eq!(time, r.get("time_ms").and_then(Json::as_i64));
            let want = r.get("score").and_then(|sc| {
                sc.get("cp").and_then(Json::as_i64).or_else(|| {
                    sc.get("mate").and_then(Json::as_i64).map(|n| {
                        if n >= 0 {
                            30000 - n
                        } else {
                            -30000 - n
                        }
                    })
                })
            });
            assert_eq!(score, want, "{data}");
            scored += score.is_some() as usize;
        }
    }
    assert_eq!(s(meta, "currentFen"), game.position().fen6());
    scored
}

#[test]
fn exported_games_replay_on_the_rules_core() {
    let dir = scratch("replay");
    let records = dir.join("games.jsonl");
    let openings = dir.join("openings.txt");
    // Book moves too (a flip and its reply), which carry no engine data.
    std::fs::write(&openings, "b2e2 h9g7\n").unwrap();
    let out = run_match(&[
        "--engine",
        JIEQI,
        "--engine",
        JIEQI,
        "--games",
        "2",
        "--nodes",
        "800",
        "--quiet",
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = read_records(&records);
    assert_eq!(recs.len(), 2);
    let mut scored = 0;
    for r in &recs {
        let n = r.get("game").and_then(Json::as_i64).unwrap();
        let out = Command::new(JIEQI)
            .args(["export", "--records"])
            .arg(&records)
            .args(["--game", &n.to_string(), "--format", "jieqibox"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        scored += replay(&serde_json::from_str(text.trim()).unwrap(), r);
    }
    assert!(scored > 10, "engine moves carry their scores");

    // `--game all`: one file per game, the same content.
    let folder = dir.join("all");
    let out = Command::new(JIEQI)
        .args(["export", "--records"])
        .arg(&records)
        .args(["--game", "all", "--out"])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(out.status.success());
    for r in &recs {
        let n = r.get("game").and_then(Json::as_i64).unwrap();
        let text = std::fs::read_to_string(folder.join(format!("game-{n}.json"))).unwrap();
        replay(&serde_json::from_str(text.trim()).unwrap(), r);
    }

    // Errors: no such game, a file that is not records, `all` without a folder.
    let fail = |args: &[&str]| {
        Command::new(JIEQI)
            .args(["export", "--records"])
            .arg(&records)
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(fail(&["--game", "99"]), Some(1));
    assert_eq!(fail(&["--game", "all"]), Some(2));
    assert_eq!(fail(&["--game", "x"]), Some(2));
    let out = Command::new(JIEQI)
        .args(["export", "--records"])
        .arg(&openings)
        .args(["--game", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
