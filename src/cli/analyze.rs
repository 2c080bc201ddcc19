//! `jieqi analyze`: search one position and print the result (JSON on request).

use std::process::ExitCode;

use jieqi::core::{Move, Position};
use jieqi::search::odds::{flip_odds, FlipOdds};
use jieqi::search::{Engine, Info, Limits, Options, Report, Root, Score};

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Searches `pos` with `limits` and prints either text lines or one JSON object, with the flip
/// odds of the best move (when it flips a piece) and of each move in `odds`. A move in `odds`
/// that is not a legal flip here is an error (status 1, nothing searched).
pub fn run(
    pos: Position,
    limits: Limits,
    options: Options,
    json: bool,
    verbose: bool,
    odds: &[String],
) -> ExitCode {
    let mut named = Vec::new();
    for text in odds {
        match Move::parse(text.trim()) {
            Some(m) if pos.is_legal(m) && pos.is_flip(m) => named.push(m),
            _ => {
                eprintln!("error: --odds {text}: not a legal move of a face-down piece here");
                return ExitCode::from(1);
            }
        }
    }
    let mut engine = Engine::new(options.clone());
    let reports = engine.search_with(Root::new(pos), limits, |r| {
        if let Report::Info(i) = r {
            if verbose && !json {
                print_info(i);
            }
        }
    });
    let mut last: Option<Info> = None;
    let mut best: Option<Move> = None;
    let mut ponder: Option<Move> = None;
    for r in reports {
        match r {
            Report::Info(i) => {
                if i.multipv == 1 {
                    last = Some(i);
                }
            }
            Report::Text(t) => eprintln!("info string {t}"),
            Report::Done { best: b, ponder: p } => {
                best = b;
                ponder = p;
            }
        }
    }
    // Each identity gets the search's nodes shared out (at least 2000).
    let mut moves: Vec<Move> = best.filter(|&b| pos.is_flip(b)).into_iter().collect();
    for m in named {
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    let total_nodes = last.as_ref().map_or(0, |i| i.nodes);
    let odds: Vec<FlipOdds> = moves
        .iter()
        .filter_map(|&m| {
            let k = pos.flip_outcomes(m.from()).len().max(1) as u64;
            flip_odds(&pos, m, &options, (total_nodes / k).max(2000))
        })
        .collect();
    report_result(&pos, best, ponder, last, json, &odds);
    ExitCode::SUCCESS
}

fn odds_json(o: &FlipOdds) -> String {
    let items: Vec<String> = o
        .outcomes
        .iter()
        .map(|v| {
            let (kind, value) = match v.score {
                Score::Cp(c) => ("cp", c),
                Score::Mate(m) => ("mate", m),
            };
            format!(
                "{{\"identity\":\"{}\",\"count\":{},\"probability\":{:.4},\"score\":{{\"{kind}\":{value}}}}}",
                v.identity.char(),
                v.count,
                v.probability
            )
        })
        .collect();
    format!(
        "{{\"move\":\"{}\",\"total\":{},\"identities\":[{}]}}",
        o.mv,
        o.total,
        items.join(",")
    )
}

fn print_info(i: &Info) {
    outln!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.time_ms,
        i.pv.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
}

fn report_result(
    pos: &Position,
    best: Option<Move>,
    ponder: Option<Move>,
    last: Option<Info>,
    json: bool,
    odds: &[FlipOdds],
) {
    let best_text = best.map_or("(none)".to_string(), |m| m.to_string());
    let info = last.unwrap_or_else(|| Info {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: Score::Cp(0),
        bound: jieqi::search::Bound::Exact,
        wdl: (0, 1000, 0),
        nodes: 0,
        nps: 0,
        hashfull: 0,
        time_ms: 0,
        pv: vec![],
    });
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    if json {
        let (kind, value) = match info.score {
            Score::Cp(c) => ("cp", c),
            Score::Mate(m) => ("mate", m),
        };
        outln!(
            "{{\"fen\":{},\"variant\":{},\"bestmove\":{},\"ponder\":{},\"score\":{{\"{kind}\":{value}}},\"wdl\":[{},{},{}],\"depth\":{},\"seldepth\":{},\"nodes\":{},\"nps\":{},\"time_ms\":{},\"pv\":[{}],\"flip_odds\":[{}]}}",
            json_string(&pos.fen()),
            json_string(pos.variant().name()),
            json_string(&best_text),
            ponder.map_or("null".to_string(), |m| json_string(&m.to_string())),
            info.wdl.0,
            info.wdl.1,
            info.wdl.2,
            info.depth,
            info.seldepth,
            info.nodes,
            info.nps,
            info.time_ms,
            pv.iter().map(|m| json_string(m)).collect::<Vec<_>>().join(","),
            odds.iter().map(odds_json).collect::<Vec<_>>().join(",")
        );
    } else {
        outln!("bestmove {best_text}");
        outln!("score {}", score_text(info.score));
        outln!("wdl {} {} {}", info.wdl.0, info.wdl.1, info.wdl.2);
        outln!("depth {}", info.depth);
        outln!("nodes {}", info.nodes);
        outln!("pv {}", pv.join(" "));
        for o in odds {
            outln!("flipodds {}", o.text());
        }
    }
}
