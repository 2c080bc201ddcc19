//! Reading record files (JSON Lines, protocol.md section 17), and what is made from them:
//! the games of a match checked against it ([`finished_games`], for `merge` and for resuming),
//! the summary of a match played in shares ([`merge`]), two matches on the same deals compared
//! pair by pair ([`compare`]), and one game in JieqiBox's notation format
//! ([`jieqibox_notation`]).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::engine::Score;
use super::game::{Outcome, Reason};
use super::runner::{MatchIdentity, Shard, Tournament};
use super::stats::{Sprt, SprtError, Z95};
use crate::core::{fen, Game, Move, Piece, Position, Reveal, Variant};

/// One line of a record file: a finished game (protocol.md section 17, "Records"). The fields
/// are written in this order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// 1-based game number.
    pub game: u64,
    /// 1-based pair (deal) number.
    pub pair: u64,
    pub variant: String,
    pub red: String,
    pub black: String,
    pub red_limit: String,
    pub black_limit: String,
    /// The public start FEN, as the engines were sent it.
    pub start_fen: String,
    /// The true identities of the start's face-down pieces in square order, `-` when none.
    pub deal: String,
    pub moves: Vec<MoveEntry>,
    pub plies: u64,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The winning engine's name (`null` for a draw).
    pub winner: Option<String>,
    pub reason: String,
    pub detail: String,
    pub final_fen: String,
    /// What identifies the match. Records of runners that did not write it still read (they
    /// export, but do not merge).
    #[serde(rename = "match", default, skip_serializing_if = "Option::is_none")]
    pub match_: Option<MatchEntry>,
}

/// One ply of a [`GameEntry`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveEntry {
    /// The 4-character move (`0000` for the Maniac pass).
    #[serde(rename = "move")]
    pub mv: String,
    /// `red` or `black`.
    pub side: String,
    /// The identity revealed (FEN letter), if the move flipped a piece.
    pub flip: Option<String>,
    /// The identity of the face-down piece captured, if any.
    pub captured: Option<String>,
    pub red_view: String,
    pub black_view: String,
    /// An opening move, not played by an engine.
    #[serde(default)]
    pub book: bool,
    pub time_ms: u64,
    /// The mover's last reported score: `{"cp": N}` or `{"mate": N}`.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The mover's clock after the move (clock limits only).
    pub clock_ms: Option<i64>,
}

/// The `match` field of a [`GameEntry`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchEntry {
    /// A digest of the match's settings.
    pub id: String,
    pub engines: Vec<String>,
    /// `round-robin` or `gauntlet`.
    pub schedule: String,
    pub pairs: u64,
    /// The SPRT's settings as `--sprt` reads them.
    pub sprt: Option<String>,
    /// `I/N` for a share of the match.
    pub shard: Option<String>,
}

impl GameEntry {
    /// The entry as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a game entry is plain data")
    }
}

/// What went wrong reading records or making something of them.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    /// A line that is not JSON, or not a game record.
    #[error("{at}: {error}")]
    Line {
        at: String,
        error: serde_json::Error,
    },
    #[error("no records to merge")]
    Empty,
    #[error("{at}: the record has no 'match' field")]
    NoMatch { at: String },
    /// The record's `match` field does not describe a match.
    #[error("{at}: match: {what}")]
    BadMatch { at: String, what: String },
    #[error("{at}: a game of another match (match {id}, not {expected} as in {first})")]
    OtherMatch {
        at: String,
        id: String,
        expected: String,
        first: String,
    },
    #[error("{at}: no game number of this match")]
    GameNumber { at: String },
    #[error("{at}: no {what}")]
    Missing { at: String, what: &'static str },
    /// The players of a game (`red vs black`) are not the ones its number schedules.
    #[error("{at}: game {game} is {found}, but this match schedules {scheduled}")]
    Players {
        at: String,
        game: u64,
        found: String,
        scheduled: String,
    },
    #[error("{at}: game {game} is not in share {shard}")]
    OtherShare {
        at: String,
        game: u64,
        shard: String,
    },
    #[error("game {game} appears twice ({first} and {second})")]
    Twice {
        game: u64,
        first: String,
        second: String,
    },
    #[error("{at}: {error}")]
    Sprt { at: String, error: SprtError },
    /// `compare` takes matches of two engines.
    #[error("{at}: a match of {engines} engines; only two-engine matches compare")]
    NotTwo { at: String, engines: usize },
    /// The same pair number was played from different deals or openings in two matches.
    #[error("pair {pair} was not played from the same deal and opening in {first} and {second}")]
    Dealt {
        pair: u64,
        first: String,
        second: String,
    },
    #[error("{common} pair(s) complete in both matches; at least 2 are needed")]
    TooFewPairs { common: usize },
}

/// One record and where it was read.
#[derive(Clone, Debug)]
pub struct Record {
    /// `file:line`, for messages.
    pub source: String,
    pub entry: GameEntry,
}

/// Reads a record file line by line: the result of each non-blank line, in order. Only a file
/// that cannot be read is an error here; a line that is not a record is an error in its place.
pub fn read_record_lines(path: &Path) -> Result<Vec<Result<Record, RecordError>>, RecordError> {
    let text = std::fs::read_to_string(path).map_err(|error| RecordError::Io {
        path: path.display().to_string(),
        error,
    })?;
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let source = format!("{}:{}", path.display(), i + 1);
            match serde_json::from_str(line) {
                Ok(entry) => Ok(Record { source, entry }),
                Err(error) => Err(RecordError::Line { at: source, error }),
            }
        })
        .collect())
}

/// Reads a record file: one game record (JSON object) per line, blank lines skipped. A line
/// that is not a record is an error naming the file and line.
pub fn read_records(path: &Path) -> Result<Vec<Record>, RecordError> {
    read_record_lines(path)?.into_iter().collect()
}

fn outcome_of(result: &str) -> Option<Outcome> {
    match result {
        "1-0" => Some(Outcome::RedWins),
        "0-1" => Some(Outcome::BlackWins),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// The records of a match, merged.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The state one run of the whole match would end in (no early stop, no interruption).
    pub tournament: Tournament,
    /// The match's sequential test, if it has one.
    pub sprt: Option<Sprt>,
    /// Games in the records, and in the whole match.
    pub games: u64,
    pub total_games: u64,
}

/// A finished game, as its record tells it.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// Where its record was read (`file:line`).
    pub source: String,
    pub outcome: Outcome,
    pub reason: Reason,
    /// Red's and Black's names.
    pub names: [String; 2],
}

/// The match a record says it belongs to.
fn record_identity(r: &Record) -> Result<MatchIdentity, RecordError> {
    let m = r
        .entry
        .match_
        .as_ref()
        .ok_or_else(|| RecordError::NoMatch {
            at: r.source.clone(),
        })?;
    MatchIdentity::from_entry(m).map_err(|what| RecordError::BadMatch {
        at: r.source.clone(),
        what: what.to_string(),
    })
}

/// The games of `records` by game number, each checked to be a game of the match `identity`
/// (`expected_in` says where that identity comes from, for messages) and, with `shard`, of
/// that share: the same match, a game number the match (or share) schedules, the players that
/// number schedules, no game twice.
pub fn finished_games(
    records: &[Record],
    identity: &MatchIdentity,
    expected_in: &str,
    shard: Option<Shard>,
) -> Result<BTreeMap<u64, FinishedGame>, RecordError> {
    let encounters = identity.encounters();
    let e_count = encounters.len() as u64;
    let total_games = identity.pairs.saturating_mul(e_count).saturating_mul(2);
    let mut games: BTreeMap<u64, FinishedGame> = BTreeMap::new();
    for r in records {
        let other = record_identity(r)?;
        if other.id != identity.id {
            return Err(RecordError::OtherMatch {
                at: r.source.clone(),
                id: other.id,
                expected: identity.id.clone(),
                first: expected_in.to_string(),
            });
        }
        let e = &r.entry;
        let at = || r.source.clone();
        let game = e.game;
        if game < 1 || game > total_games {
            return Err(RecordError::GameNumber { at: at() });
        }
        // Game 2k+1 has the encounter's first engine as Red, game 2k+2 as Black.
        let k = (game - 1) / 2;
        if let Some(s) = shard.filter(|s| k % s.count != s.index) {
            return Err(RecordError::OtherShare {
                at: at(),
                game,
                shard: s.to_string(),
            });
        }
        let outcome = outcome_of(&e.result).ok_or(RecordError::Missing {
            at: at(),
            what: "result",
        })?;
        let reason = Reason::parse(&e.reason).ok_or(RecordError::Missing {
            at: at(),
            what: "reason",
        })?;
        let names = [e.red.clone(), e.black.clone()];
        let (a, b) = encounters[(k % e_count) as usize];
        let expected = if game % 2 == 1 { [a, b] } else { [b, a] };
        let expected = expected.map(|i| identity.engines[i].as_str());
        if names[0] != expected[0] || names[1] != expected[1] {
            return Err(RecordError::Players {
                at: at(),
                game,
                found: format!("{} vs {}", names[0], names[1]),
                scheduled: format!("{} vs {}", expected[0], expected[1]),
            });
        }
        if let Some(seen) = games.get(&game) {
            return Err(RecordError::Twice {
                game,
                first: seen.source.clone(),
                second: at(),
            });
        }
        let source = at();
        games.insert(
            game,
            FinishedGame {
                source,
                outcome,
                reason,
                names,
            },
        );
    }
    Ok(games)
}

/// Merges the records of the shares of one match (`jieqi match --shard`) into the state a
/// single run would have reached: every encounter's W/D/L, reasons, failures, pentanomial
/// pairs, and the SPRT over all complete pairs. Refuses records of different matches, a game
/// that appears twice, and records without the `match` field.
pub fn merge(records: &[Record]) -> Result<Merged, RecordError> {
    let first = records.first().ok_or(RecordError::Empty)?;
    let identity = record_identity(first)?;
    let encounters = identity.encounters();
    let e_count = encounters.len() as u64;
    let total_games = identity.pairs.saturating_mul(e_count).saturating_mul(2);
    let games = finished_games(records, &identity, &first.source, None)?;
    let sprt = match &identity.sprt {
        Some(t) => Some(Sprt::parse(t).map_err(|error| RecordError::Sprt {
            at: first.source.clone(),
            error,
        })?),
        None => None,
    };
    let mut t = Tournament::new(identity.engines.clone(), &encounters, total_games);
    let mut half_pairs = std::collections::HashMap::new();
    for (&game, g) in &games {
        t.count_game(game, g.outcome, g.reason, &g.names, &mut half_pairs);
    }
    if let Some(test) = &sprt {
        t.test_pairs(test);
    }
    Ok(Merged {
        tournament: t,
        sprt,
        games: games.len() as u64,
        total_games,
    })
}

/// One engine's points in each complete pair of a two-engine match.
#[derive(Clone, Debug, PartialEq)]
pub struct PairPoints {
    /// The match's engines in `--engine` order; the first one's points are counted.
    pub engines: [String; 2],
    /// Pair number -> (the first engine's points in its two games, 0 to 2; what the pair was
    /// played from: variant, start, deal and opening moves; where its first game was read).
    pub pairs: BTreeMap<u64, (f64, String, String)>,
}

/// The first engine's points in every complete pair of the records of one two-engine match
/// (whole, or all its shares). The records are checked as [`merge`] checks them.
pub fn pair_points(records: &[Record]) -> Result<PairPoints, RecordError> {
    let merged = merge(records)?;
    let names = &merged.tournament.names;
    if names.len() != 2 {
        return Err(RecordError::NotTwo {
            at: records[0].source.clone(),
            engines: names.len(),
        });
    }
    // game number -> (the first engine's points, what it was played from, where it was read)
    let mut games: BTreeMap<u64, (f64, String, String)> = BTreeMap::new();
    for r in records {
        let e = &r.entry;
        let outcome = outcome_of(&e.result).ok_or(RecordError::Missing {
            at: r.source.clone(),
            what: "result",
        })?;
        // Game 2k+1 has the first engine as Red, game 2k+2 as Black.
        let first = if e.game % 2 == 1 {
            crate::core::Color::Red
        } else {
            crate::core::Color::Black
        };
        let opening: Vec<&str> = e
            .moves
            .iter()
            .take_while(|m| m.book)
            .map(|m| m.mv.as_str())
            .collect();
        let from = format!(
            "{} {} {} {}",
            e.variant,
            e.start_fen,
            e.deal,
            opening.join(" ")
        );
        games.insert(e.game, (outcome.points(first), from, r.source.clone()));
    }
    let mut pairs = BTreeMap::new();
    for (&game, (points, from, at)) in &games {
        if game % 2 == 1 {
            if let Some((second, ..)) = games.get(&(game + 1)) {
                pairs.insert(
                    game.div_ceil(2),
                    (points + second, from.clone(), at.clone()),
                );
            }
        }
    }
    Ok(PairPoints {
        engines: [names[0].clone(), names[1].clone()],
        pairs,
    })
}

/// A candidate match against a control match on the same deals, pair by pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Pairs complete in both matches.
    pub pairs: usize,
    /// The first engine's mean score on those pairs in the control and in the candidate match,
    /// as fractions.
    pub control: f64,
    pub candidate: f64,
    /// The mean of the per-pair score differences (candidate minus control, fractions), and its
    /// 95% interval.
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

/// Compares the first engine's scores of two matches pair by pair, over the pairs complete in
/// both: a pair played from the same deal (and opening) by both is one sample of the score
/// difference, so the luck of the deal cancels out. Refuses a pair number played from different
/// deals or openings, and fewer than two common pairs.
pub fn compare(control: &PairPoints, candidate: &PairPoints) -> Result<Comparison, RecordError> {
    comparison(&common_pairs(control, candidate)?)
}

/// The pairs complete in both matches: the first engine's score in each, control then
/// candidate, as fractions. Refuses a pair number played from different deals or openings.
pub fn common_pairs(
    control: &PairPoints,
    candidate: &PairPoints,
) -> Result<Vec<(f64, f64)>, RecordError> {
    let mut common = Vec::new();
    for (pair, (points, from, at)) in &candidate.pairs {
        let Some((base, base_from, base_at)) = control.pairs.get(pair) else {
            continue;
        };
        if from != base_from {
            return Err(RecordError::Dealt {
                pair: *pair,
                first: base_at.clone(),
                second: at.clone(),
            });
        }
        common.push((base / 2.0, points / 2.0));
    }
    Ok(common)
}

/// The comparison over `samples` of (control, candidate) scores, one per pair: from one screen
/// ([`common_pairs`]) or from several pooled. Refuses fewer than two samples.
pub fn comparison(samples: &[(f64, f64)]) -> Result<Comparison, RecordError> {
    let n = samples.len();
    if n < 2 {
        return Err(RecordError::TooFewPairs { common: n });
    }
    let nf = n as f64;
    let diffs: Vec<f64> = samples.iter().map(|(base, cand)| cand - base).collect();
    let mean = diffs.iter().sum::<f64>() / nf;
    let variance = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (nf - 1.0);
    let half = Z95 * (variance / nf).sqrt();
    Ok(Comparison {
        pairs: n,
        control: samples.iter().map(|s| s.0).sum::<f64>() / nf,
        candidate: samples.iter().map(|s| s.1).sum::<f64>() / nf,
        difference: mean,
        low: mean - half,
        high: mean + half,
    })
}

/// An identity letter of a record (`flip`, `captured`), if there is one.
fn identity(text: &Option<String>, key: &str) -> Result<Option<Piece>, ReplayError> {
    match text {
        None => Ok(None),
        Some(t) => t
            .chars()
            .next()
            .and_then(Piece::from_char)
            .map(Some)
            .ok_or_else(|| ReplayError::Identity(key.to_string())),
    }
}

/// One ply of a record: the move and the identities it revealed.
pub fn record_ply(m: &MoveEntry) -> Result<(Move, Reveal), ReplayError> {
    let mv = Move::parse(&m.mv).ok_or_else(|| ReplayError::Move(m.mv.clone()))?;
    Ok((
        mv,
        Reveal {
            flip: identity(&m.flip, "flip")?,
            captured: identity(&m.captured, "captured")?,
        },
    ))
}

/// Why a record does not replay on the rules core.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("an unknown variant '{0}'")]
    Variant(String),
    #[error("start_fen: {0}")]
    StartFen(String),
    #[error("a bad deal")]
    Deal,
    #[error("the deal does not fit the start")]
    DealFit,
    #[error("a move that cannot be read: '{0}'")]
    Move(String),
    #[error("a bad '{0}' identity")]
    Identity(String),
    #[error("ply {ply}: {error}")]
    Ply { ply: usize, error: Box<ReplayError> },
    #[error("ply {ply} '{data}': {rule}")]
    Rule {
        ply: usize,
        data: String,
        rule: String,
    },
}

/// The true start of a recorded game: its start position with the deal.
pub fn record_start(r: &GameEntry) -> Result<Position, ReplayError> {
    let variant: Variant = r
        .variant
        .parse()
        .map_err(|_| ReplayError::Variant(r.variant.clone()))?;
    let setup = fen::parse(&r.start_fen).map_err(|e| ReplayError::StartFen(e.to_string()))?;
    let (mut start, _) =
        Position::from_setup(&setup, variant).map_err(|e| ReplayError::StartFen(e.to_string()))?;
    if r.deal != "-" {
        let deal: Option<Vec<Piece>> = r.deal.chars().map(Piece::from_char).collect();
        if !start.set_deal(&deal.ok_or(ReplayError::Deal)?) {
            return Err(ReplayError::DealFit);
        }
    }
    Ok(start)
}

/// A game in JieqiBox's notation format (what [`jieqibox_notation`] makes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JieqiBoxGame {
    pub metadata: JieqiBoxMetadata,
    pub moves: Vec<JieqiBoxMove>,
}

/// The `metadata` of a [`JieqiBoxGame`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JieqiBoxMetadata {
    pub event: String,
    pub site: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub initial_fen: String,
    pub flip_mode: String,
    pub current_fen: String,
}

/// One element of the `moves` of a [`JieqiBoxGame`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JieqiBoxMove {
    #[serde(rename = "type")]
    pub kind: String,
    pub data: String,
    pub fen: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_score: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_time: Option<u64>,
}

/// A game of a record file in JieqiBox's notation format: `metadata` (players, result, round,
/// `initialFen` and `currentFen` in JieqiBox's 6-field form, `flipMode` `random`) and `moves`
/// (each `type` `move`, `data` the move with the identity it revealed and the identity of the
/// face-down piece it captured, `fen` after the move; engine moves also `engineScore` in
/// centipawns from the mover's view, mates as +/-(30000 - N), and `engineTime` in ms).
///
/// The game is replayed on the rules core from its start and deal; a record that does not
/// replay is an error.
pub fn jieqibox_notation(r: &GameEntry) -> Result<JieqiBoxGame, ReplayError> {
    // The public view of the true position: face-down pieces unknown, the pool exactly the
    // identities still face down, the captured pool the face-down pieces captured.
    let public = |p: &Position| {
        let mut q = *p;
        q.clear_deal();
        q.fen6()
    };
    let mut game = Game::new(record_start(r)?);
    let initial = public(game.position());
    let mut moves = Vec::new();
    for (i, m) in r.moves.iter().enumerate() {
        let (mv, reveal) = record_ply(m).map_err(|e| ReplayError::Ply {
            ply: i + 1,
            error: Box::new(e),
        })?;
        let mut data = mv.to_string();
        data.extend(reveal.flip.map(Piece::char));
        data.extend(reveal.captured.map(Piece::char));
        game.play(mv, reveal).map_err(|e| ReplayError::Rule {
            ply: i + 1,
            data: data.clone(),
            rule: e.to_string(),
        })?;
        let engine = !m.book;
        moves.push(JieqiBoxMove {
            kind: "move".to_string(),
            data,
            fen: public(game.position()),
            engine_score: m.score.filter(|_| engine).map(|s| match s {
                Score::Cp(c) => c,
                Score::Mate(n) if n >= 0 => 30000 - n,
                Score::Mate(n) => -30000 - n,
            }),
            engine_time: Some(m.time_ms).filter(|_| engine),
        });
    }
    let metadata = JieqiBoxMetadata {
        event: format!("jieqi match, game {}", r.game),
        site: "jieqi".to_string(),
        round: r.pair.to_string(),
        white: r.red.clone(),
        black: r.black.clone(),
        result: r.result.clone(),
        initial_fen: initial,
        flip_mode: "random".to_string(),
        current_fen: public(game.position()),
    };
    Ok(JieqiBoxGame { metadata, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(pairs: &[(u64, f64, &str)]) -> PairPoints {
        PairPoints {
            engines: ["a".to_string(), "b".to_string()],
            pairs: pairs
                .iter()
                .map(|&(k, p, from)| (k, (p, from.to_string(), format!("f:{k}"))))
                .collect(),
        }
    }

    #[test]
    fn a_comparison_counts_the_common_pairs_only() {
        let control = points(&[
            (1, 1.0, "d1"),
            (2, 1.0, "d2"),
            (3, 2.0, "d3"),
            (5, 0.0, "d5"),
        ]);
        let candidate = points(&[
            (1, 2.0, "d1"),
            (2, 1.0, "d2"),
            (3, 1.5, "d3"),
            (4, 0.0, "d4"),
        ]);
        let c = compare(&control, &candidate).unwrap();
        assert_eq!(c.pairs, 3);
        assert!((c.control - 4.0 / 6.0).abs() < 1e-12);
        assert!((c.candidate - 4.5 / 6.0).abs() < 1e-12);
        // Differences 0.5, 0 and -0.25: their mean, and the sample variance (over n - 1).
        let mean = 0.25 / 3.0;
        let var = [0.5f64, 0.0, -0.25]
            .iter()
            .map(|d| (d - mean) * (d - mean))
            .sum::<f64>()
            / 2.0;
        let half = Z95 * (var / 3.0).sqrt();
        assert!((c.difference - mean).abs() < 1e-12);
        assert!((c.low - (mean - half)).abs() < 1e-12);
        assert!((c.high - (mean + half)).abs() < 1e-12);
    }

    #[test]
    fn a_pair_dealt_differently_or_too_few_pairs_do_not_compare() {
        let control = points(&[(1, 1.0, "d1"), (2, 1.0, "d2")]);
        let other = points(&[(1, 1.0, "d1"), (2, 1.0, "x2")]);
        assert!(matches!(
            compare(&control, &other),
            Err(RecordError::Dealt { pair: 2, .. })
        ));
        let one = points(&[(2, 1.0, "d2"), (3, 1.0, "d3")]);
        assert!(matches!(
            compare(&control, &one),
            Err(RecordError::TooFewPairs { common: 1 })
        ));
    }
}
