//! Record files (protocol.md section 17, "Records") read back and written again: the committed
//! samples — records of `jieqi match` (a fixed node budget; a clock with opening moves, a ply
//! limit, an SPRT and a share) and records without the `match` field — read, re-write byte for
//! byte, replay on the rules core, and a share merges.

use std::path::{Path, PathBuf};

use jieqi::referee::engine::Score;
use jieqi::referee::records::{
    jieqibox_notation, merge, read_record_lines, read_records, GameEntry, RecordError,
};

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

/// Every record of `name` is written again exactly as it was read; returns the records.
fn rewrites_identically(name: &str) -> Vec<GameEntry> {
    let path = corpus(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let records = read_records(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(records.len(), lines.len());
    for (r, line) in records.iter().zip(&lines) {
        assert_eq!(&r.entry.to_line(), line, "{}", r.source);
    }
    records.into_iter().map(|r| r.entry).collect()
}

#[test]
fn match_records_read_and_rewrite_identically() {
    let entries = rewrites_identically("records-sample.jsonl");
    assert_eq!(entries.len(), 4);
    // The sample has what the format can hold: clocks, opening moves, draws, shares, an SPRT.
    assert!(entries.iter().all(|e| e.match_.is_some()));
    assert!(entries.iter().any(|e| e.winner.is_none()));
    assert!(entries
        .iter()
        .any(|e| e.moves.iter().any(|m| m.book && m.score.is_none())));
    assert!(entries
        .iter()
        .any(|e| e.moves.iter().any(|m| m.clock_ms.is_some())));
    assert!(entries
        .iter()
        .any(|e| e.match_.as_ref().unwrap().shard.as_deref() == Some("1/2")));
    for e in &entries {
        assert_eq!(e.plies as usize, e.moves.len());
        let notation = jieqibox_notation(e).unwrap_or_else(|err| panic!("game {}: {err}", e.game));
        assert_eq!(notation.moves.len(), e.moves.len());
    }
}

#[test]
fn records_without_the_match_field_still_read() {
    let entries = rewrites_identically("records-no-match.jsonl");
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e.match_.is_none()));
    for e in &entries {
        jieqibox_notation(e).unwrap_or_else(|err| panic!("game {}: {err}", e.game));
    }
    // They export, but a merge needs to know the match.
    let records = read_records(&corpus("records-no-match.jsonl")).unwrap();
    assert!(matches!(merge(&records), Err(RecordError::NoMatch { .. })));
}

#[test]
fn a_share_of_the_sample_merges_as_incomplete() {
    let records: Vec<_> = read_records(&corpus("records-sample.jsonl"))
        .unwrap()
        .into_iter()
        .filter(|r| r.entry.match_.as_ref().unwrap().shard.is_some())
        .collect();
    let merged = merge(&records).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((merged.games, merged.total_games), (2, 4));
    assert!(merged.sprt.is_some());
}

#[test]
fn scores_and_escapes_round_trip() {
    let path = corpus("records-sample.jsonl");
    let mut e = read_records(&path).unwrap().remove(0).entry;
    e.detail = "a \"quoted\"\\ word\n\t\u{1}".to_string();
    e.moves[0].score = Some(Score::Mate(-3));
    e.moves[1].score = Some(Score::Cp(-17));
    let line = e.to_line();
    assert!(!line.contains('\n'));
    assert!(line.contains(r#""score":{"mate":-3}"#), "{line}");
    assert!(line.contains(r#""score":{"cp":-17}"#), "{line}");
    let back: GameEntry = serde_json::from_str(&line).unwrap();
    assert_eq!(back, e);
}

#[test]
fn a_line_that_is_not_a_record_is_named_by_file_and_line() {
    let dir = std::env::temp_dir().join(format!("jieqi-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.jsonl");
    let good = std::fs::read_to_string(corpus("records-sample.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(&path, format!("{first}\n\n{{\"game\":1}}\nnot json\n")).unwrap();
    let lines = read_record_lines(&path).unwrap();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].is_ok());
    for (i, line) in [(3, &lines[1]), (4, &lines[2])] {
        let err = line.as_ref().unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{}:{i}: ", path.display())),
            "{err}"
        );
    }
    let err = read_records(&path).unwrap_err().to_string();
    assert!(err.contains("bad.jsonl:3"), "{err}");
    assert!(read_records(&dir.join("missing.jsonl")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
