//! Reading record files (JSON Lines, protocol.md section 17), and what is made from them:
//! the summary of a match played in shares ([`merge`]), and one game in JieqiBox's notation
//! format ([`jieqibox_notation`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::game::{Outcome, Reason};
use super::json::{self, Json};
use super::runner::{Encounter, MatchIdentity, MatchSummary, Tournament};
use super::stats::Sprt;
use crate::core::{fen, Game, Move, Piece, Position, Reveal, Variant};

/// One record and where it was read.
#[derive(Clone, Debug)]
pub struct Record {
    /// `file:line`, for messages.
    pub source: String,
    pub json: Json,
}

/// Reads a record file: one JSON object per line, blank lines skipped. A line that is not JSON
/// is an error naming the file and line.
pub fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let source = format!("{}:{}", path.display(), i + 1);
        let json = json::parse(line).map_err(|e| format!("{source}: {e}"))?;
        out.push(Record { source, json });
    }
    Ok(out)
}

fn text<'a>(r: &'a Json, key: &str) -> Option<&'a str> {
    r.get(key).and_then(Json::as_str)
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

/// Merges the records of the shares of one match (`jieqi match --shard`) into the state a
/// single run would have reached: every encounter's W/D/L, reasons, failures, pentanomial
/// pairs, and the SPRT over all complete pairs. Refuses records of different matches, a game
/// that appears twice, and records without the `match` field.
pub fn merge(records: &[Record]) -> Result<Merged, String> {
    let first = records.first().ok_or("no records to merge")?;
    let identity_of = |r: &Record| -> Result<MatchIdentity, String> {
        let m = r
            .json
            .get("match")
            .ok_or_else(|| format!("{}: the record has no 'match' field", r.source))?;
        MatchIdentity::from_json(m).map_err(|e| format!("{}: {e}", r.source))
    };
    let identity = identity_of(first)?;
    let encounters = identity.encounters();
    let e_count = encounters.len() as u64;
    let total_games = identity.pairs.saturating_mul(e_count).saturating_mul(2);
    // game number -> (source, outcome, reason, names)
    let mut games: BTreeMap<u64, (String, Outcome, Reason, [String; 2])> = BTreeMap::new();
    for r in records {
        let other = identity_of(r)?;
        if other.id != identity.id {
            return Err(format!(
                "{}: a game of another match (match {}, not {} as in {})",
                r.source, other.id, identity.id, first.source
            ));
        }
        let j = &r.json;
        let game = j
            .get("game")
            .and_then(Json::as_i64)
            .filter(|&g| g >= 1 && (g as u64) <= total_games)
            .ok_or_else(|| format!("{}: no game number of this match", r.source))?
            as u64;
        let outcome = text(j, "result")
            .and_then(outcome_of)
            .ok_or_else(|| format!("{}: no result", r.source))?;
        let reason = text(j, "reason")
            .and_then(Reason::parse)
            .ok_or_else(|| format!("{}: no reason", r.source))?;
        let names = [
            text(j, "red").unwrap_or_default().to_string(),
            text(j, "black").unwrap_or_default().to_string(),
        ];
        // Game 2k+1 has the encounter's first engine as Red, game 2k+2 as Black.
        let k = (game - 1) / 2;
        let (a, b) = encounters[(k % e_count) as usize];
        let expected = if game % 2 == 1 { [a, b] } else { [b, a] };
        let expected = expected.map(|i| identity.engines[i].as_str());
        if names[0] != expected[0] || names[1] != expected[1] {
            return Err(format!(
                "{}: game {game} is {} vs {}, but this match schedules {} vs {}",
                r.source, names[0], names[1], expected[0], expected[1]
            ));
        }
        if let Some((seen, ..)) = games.get(&game) {
            return Err(format!(
                "game {game} appears twice ({seen} and {})",
                r.source
            ));
        }
        games.insert(game, (r.source.clone(), outcome, reason, names));
    }
    let sprt = match &identity.sprt {
        Some(t) => Some(Sprt::parse(t).map_err(|e| format!("{}: {e}", first.source))?),
        None => None,
    };
    let mut t = Tournament {
        names: identity.engines.clone(),
        encounters: encounters
            .iter()
            .map(|&(first, second)| Encounter {
                first,
                second,
                summary: MatchSummary::default(),
            })
            .collect(),
        total_games,
        stopped_early: false,
        interrupted: false,
    };
    for (&game, (_, outcome, reason, names)) in &games {
        let k = (game - 1) / 2;
        let summary = &mut t.encounters[(k % e_count) as usize].summary;
        let first_is_red = game % 2 == 1;
        summary.add_result(*outcome, *reason, names, first_is_red);
        // A pair counts once both its games are in, at its second game.
        if game % 2 == 0 {
            if let Some((_, o1, ..)) = games.get(&(game - 1)) {
                let pts =
                    o1.points(crate::core::Color::Red) + outcome.points(crate::core::Color::Black);
                summary.pairs[((pts * 2.0).round() as usize).min(4)] += 1;
            }
        }
    }
    if let Some(test) = &sprt {
        for e in &mut t.encounters {
            if e.summary.pairs.iter().sum::<u64>() > 0 {
                e.summary.sprt = Some(test.decide(&e.summary.pairs));
            }
        }
    }
    Ok(Merged {
        tournament: t,
        sprt,
        games: games.len() as u64,
        total_games,
    })
}

/// One ply of a record: the move and the identities it revealed.
fn record_ply(m: &Json) -> Result<(Move, Reveal), String> {
    let mv = text(m, "move")
        .and_then(Move::parse)
        .ok_or("a move that cannot be read")?;
    let piece = |key: &str| -> Result<Option<Piece>, String> {
        match m.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(v) => v
                .as_str()
                .and_then(|t| t.chars().next())
                .and_then(Piece::from_char)
                .map(Some)
                .ok_or_else(|| format!("a bad '{key}' identity")),
        }
    };
    Ok((
        mv,
        Reveal {
            flip: piece("flip")?,
            captured: piece("captured")?,
        },
    ))
}

/// A game of a record file in JieqiBox's notation format: `metadata` (players, result, round,
/// `initialFen` and `currentFen` in JieqiBox's 6-field form, `flipMode` `random`) and `moves`
/// (each `type` `move`, `data` the move with the identity it revealed and the identity of the
/// face-down piece it captured, `fen` after the move; engine moves also `engineScore` in
/// centipawns from the mover's view, mates as +/-(30000 - N), and `engineTime` in ms).
///
/// The game is replayed on the rules core from its start and deal; a record that does not
/// replay is an error.
pub fn jieqibox_notation(r: &Json) -> Result<Json, String> {
    let variant: Variant = text(r, "variant")
        .and_then(|v| v.parse().ok())
        .ok_or("no variant")?;
    let start_fen = text(r, "start_fen").ok_or("no start_fen")?;
    let setup = fen::parse(start_fen).map_err(|e| format!("start_fen: {e}"))?;
    let (start, _) =
        Position::from_setup(&setup, variant).map_err(|e| format!("start_fen: {e}"))?;
    let deal_text = text(r, "deal").ok_or("no deal")?;
    let mut dealt = start;
    if deal_text != "-" {
        let deal: Option<Vec<Piece>> = deal_text.chars().map(Piece::from_char).collect();
        if !dealt.set_deal(&deal.ok_or("a bad deal")?) {
            return Err("the deal does not fit the start".to_string());
        }
    }
    // The public view of the true position: face-down pieces unknown, the pool exactly the
    // identities still face down, the captured pool the face-down pieces captured.
    let public = |p: &Position| {
        let mut q = *p;
        q.clear_deal();
        q.fen6()
    };
    let mut game = Game::new(dealt);
    let initial = public(game.position());
    let mut moves = Vec::new();
    let list = r.get("moves").and_then(Json::as_array).ok_or("no moves")?;
    for (i, m) in list.iter().enumerate() {
        let (mv, reveal) = record_ply(m).map_err(|e| format!("ply {}: {e}", i + 1))?;
        let mut data = mv.to_string();
        if let Some(f) = reveal.flip {
            data.push(f.char());
        }
        if let Some(c) = reveal.captured {
            data.push(c.char());
        }
        game.play(mv, reveal)
            .map_err(|e| format!("ply {} '{data}': {e}", i + 1))?;
        let mut fields = vec![
            ("type".to_string(), Json::str("move")),
            ("data".to_string(), Json::str(data)),
            ("fen".to_string(), Json::str(public(game.position()))),
        ];
        let book = m.get("book").and_then(Json::as_bool).unwrap_or(false);
        if !book {
            let score = m.get("score").and_then(|s| {
                if let Some(c) = s.get("cp").and_then(Json::as_i64) {
                    Some(c)
                } else {
                    s.get("mate").and_then(Json::as_i64).map(|n| {
                        if n >= 0 {
                            30000 - n
                        } else {
                            -30000 - n
                        }
                    })
                }
            });
            if let Some(s) = score {
                fields.push(("engineScore".to_string(), Json::num(s as f64)));
            }
            if let Some(t) = m.get("time_ms").and_then(Json::as_i64) {
                fields.push(("engineTime".to_string(), Json::num(t as f64)));
            }
        }
        moves.push(Json::Obj(fields));
    }
    let result = text(r, "result").unwrap_or("*");
    let game_no = r.get("game").and_then(Json::as_i64).unwrap_or(0);
    let round = r.get("pair").and_then(Json::as_i64).unwrap_or(0);
    let metadata = Json::Obj(vec![
        (
            "event".into(),
            Json::str(format!("jieqi match, game {game_no}")),
        ),
        ("site".into(), Json::str("jieqi")),
        ("round".into(), Json::str(round.to_string())),
        ("white".into(), Json::str(text(r, "red").unwrap_or("Red"))),
        (
            "black".into(),
            Json::str(text(r, "black").unwrap_or("Black")),
        ),
        ("result".into(), Json::str(result)),
        ("initialFen".into(), Json::str(initial)),
        ("flipMode".into(), Json::str("random")),
        ("currentFen".into(), Json::str(public(game.position()))),
    ]);
    Ok(Json::Obj(vec![
        ("metadata".into(), metadata),
        ("moves".into(), Json::Arr(moves)),
    ]))
}
