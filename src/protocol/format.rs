//! Replies as text: `info` lines, `bestmove`, and the human-readable dumps of `d` and `eval`.
//!
//! Every function returns lines without line endings; the session writes them (see
//! [`Output`](super::uci::Output), which also keeps them ASCII).

use super::command::Dialect;
use crate::core::{Color, Move, Position};
use crate::search::eval::Evaluator;
use crate::search::{Bound, Info, Score};

/// `info depth D seldepth S multipv K score cp X|mate N [lowerbound|upperbound] [wdl W D L]
/// nodes N nps N hashfull H time T pv ...` (UCI), or UCCI's shorter
/// `info depth D score X nodes N time T pv ...`.
pub fn info_line(info: &Info, pv: &[Move], show_wdl: bool, dialect: Dialect) -> String {
    let mut out = match dialect {
        Dialect::Uci => {
            let mut s = format!(
                "info depth {} seldepth {} multipv {} score {}",
                info.depth,
                info.seldepth,
                info.multipv,
                score_text(info.score)
            );
            match info.bound {
                Bound::Exact => {}
                Bound::Lower => s.push_str(" lowerbound"),
                Bound::Upper => s.push_str(" upperbound"),
            }
            if show_wdl {
                let (w, d, l) = info.wdl;
                s.push_str(&format!(" wdl {w} {d} {l}"));
            }
            s.push_str(&format!(
                " nodes {} nps {} hashfull {} time {}",
                info.nodes, info.nps, info.hashfull, info.time_ms
            ));
            s
        }
        Dialect::Ucci => format!(
            "info depth {} score {} nodes {} time {}",
            info.depth,
            ucci_score(info.score),
            info.nodes,
            info.time_ms
        ),
    };
    if !pv.is_empty() {
        out.push_str(" pv");
        for m in pv {
            out.push_str(&format!(" {m}"));
        }
    }
    out
}

/// `cp X` or `mate N` (moves, negative when being mated).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// UCCI has no mate notation: a mate in N moves is written as 10000 minus the plies to it.
pub fn ucci_score(score: Score) -> i64 {
    const MATE: i64 = 10000;
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => MATE - (2 * n as i64 - 1),
        Score::Mate(n) => -(MATE - 2 * (n as i64).abs()),
    }
}

/// The line for a position without a legal move (a loss in all three variants).
pub fn no_move_info(dialect: Dialect) -> String {
    match dialect {
        Dialect::Uci => "info depth 0 score mate 0".to_string(),
        Dialect::Ucci => format!("info depth 0 score {}", ucci_score(Score::Mate(0))),
    }
}

/// `bestmove m [ponder p]`, `bestmove (none)` (UCI) or `nobestmove` (UCCI).
pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>, dialect: Dialect) -> String {
    match (best, dialect) {
        (None, Dialect::Uci) => "bestmove (none)".to_string(),
        (None, Dialect::Ucci) => "nobestmove".to_string(),
        (Some(b), _) => match ponder {
            Some(p) => format!("bestmove {b} ponder {p}"),
            None => format!("bestmove {b}"),
        },
    }
}

/// The principal variation as it may be shown: legal moves only, and nothing after the first
/// move of a face-down piece (what follows depends on the identity drawn).
pub fn clean_pv(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        out.push(m);
        if pos.is_flip(m) {
            break;
        }
        pos.play_unchecked(m, None);
    }
    out
}

/// Counts of face-down pieces per controlling side.
fn hidden_counts(pos: &Position) -> (u32, u32) {
    let hidden = pos.hidden();
    (
        (hidden & pos.pieces_of(Color::Red)).count(),
        (hidden & pos.pieces_of(Color::Black)).count(),
    )
}

/// What `d` prints: board, side, pools, FENs, waiting square, check, legal move count.
pub fn display_lines(pos: &Position, plies: usize, result: Option<String>) -> Vec<String> {
    let mut lines = crate::render::text_board(pos);
    let side = pos.side_to_move();
    let (red_hidden, black_hidden) = hidden_counts(pos);
    lines.push(format!("Variant: {}", pos.variant()));
    lines.push(format!(
        "Side to move: {} ({})",
        side.name(),
        side.fen_char()
    ));
    lines.push(format!(
        "Face-down pieces: red {red_hidden}, black {black_hidden}"
    ));
    lines.push(format!("Pool (identities not yet seen): {}", pos.pool()));
    lines.push(format!(
        "Known captures (face-down pieces captured and identified): {}",
        pos.known_captures()
    ));
    lines.push(format!("Fen: {}", pos.fen()));
    lines.push(format!("Fen6: {}", pos.fen6()));
    lines.push(format!(
        "Waiting square: {}",
        pos.waiting_square()
            .map_or_else(|| "none".to_string(), |s| s.to_string())
    ));
    lines.push(format!(
        "In check: {}",
        if pos.in_check() { "yes" } else { "no" }
    ));
    lines.push(format!("Legal moves: {}", pos.legal_move_list().len()));
    lines.push(format!("Moves applied: {plies}"));
    lines.push(format!("Key: {:016x}", pos.hash()));
    if let Some(result) = result {
        lines.push(format!("Game over: {result}"));
    }
    lines
}

/// What `eval` prints: the side to move and the static evaluation split into its terms (with
/// the engine's evaluation and its draw-scaling setting).
pub fn eval_lines(pos: &Position, eval: &Evaluator, draw_scaling: bool) -> Vec<String> {
    let side = pos.side_to_move();
    let t = eval.terms(pos, draw_scaling);
    let mut lines = vec![
        format!("Side to move: {} ({})", side.name(), side.fen_char()),
        format!("In check: {}", if pos.in_check() { "yes" } else { "no" }),
        format!(
            "Phase: {} of {} (middle-game weights {0}/{1}, end-game weights the rest)",
            crate::search::eval::phase(pos),
            crate::search::eval::PHASE_MAX
        ),
        "Term (centipawns, red minus black)".to_string(),
    ];
    for (name, value) in [
        ("material", t.material),
        ("squares", t.squares),
        ("face-down pieces", t.hidden),
        ("mobility", t.mobility),
        ("king safety", t.king_safety),
    ] {
        lines.push(format!("  {name:<18}{value:>7}"));
    }
    lines.push(format!(
        "Total for the side to move (with tempo and the no-capture scaling): {}",
        t.total
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    fn info(score: Score, bound: Bound) -> Info {
        Info {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score,
            bound,
            wdl: (500, 300, 200),
            nodes: 1234,
            nps: 5000,
            hashfull: 3,
            time_ms: 246,
            pv: vec![],
        }
    }

    #[test]
    fn info_lines() {
        let i = info(Score::Cp(-35), Bound::Lower);
        assert_eq!(
            info_line(&i, &[mv("h2e2"), mv("h9g7")], true, Dialect::Uci),
            "info depth 5 seldepth 9 multipv 1 score cp -35 lowerbound wdl 500 300 200 nodes 1234 nps 5000 hashfull 3 time 246 pv h2e2 h9g7"
        );
        let i = info(Score::Mate(-2), Bound::Exact);
        assert_eq!(
            info_line(&i, &[], false, Dialect::Uci),
            "info depth 5 seldepth 9 multipv 1 score mate -2 nodes 1234 nps 5000 hashfull 3 time 246"
        );
        assert_eq!(
            info_line(&i, &[mv("h2e2")], false, Dialect::Ucci),
            "info depth 5 score -9996 nodes 1234 time 246 pv h2e2"
        );
        assert_eq!(ucci_score(Score::Mate(1)), 9999);
    }

    #[test]
    fn bestmove_lines() {
        assert_eq!(bestmove_line(None, None, Dialect::Uci), "bestmove (none)");
        assert_eq!(bestmove_line(None, None, Dialect::Ucci), "nobestmove");
        assert_eq!(
            bestmove_line(Some(mv("h2e2")), Some(mv("h9g7")), Dialect::Uci),
            "bestmove h2e2 ponder h9g7"
        );
    }

    #[test]
    fn pv_is_cut_after_the_first_flip_and_at_illegal_moves() {
        let pos = Position::startpos(Variant::Xiangqi);
        let pv = [mv("h2e2"), mv("h9g7"), mv("e2e9"), mv("a0a1")];
        assert_eq!(clean_pv(&pos, &pv), vec![mv("h2e2"), mv("h9g7")]);
        let pos = Position::startpos(Variant::Jieqi);
        // b2e2 flips: nothing after it is shown.
        assert_eq!(clean_pv(&pos, &[mv("b2e2"), mv("b7e7")]), vec![mv("b2e2")]);
    }

    #[test]
    fn display_shows_face_down_pieces() {
        let pos = Position::startpos(Variant::Jieqi);
        let lines = display_lines(&pos, 0, None);
        assert!(lines.contains(&" 9 | x x x x k x x x x |".to_string()));
        assert!(lines.contains(&" 0 | X X X X K X X X X |".to_string()));
        assert!(lines.iter().any(|l| l == "Legal moves: 44"), "{lines:?}");
        assert!(lines.iter().all(|l| l.is_ascii()));
    }
}
