//! What each side is told: the move history with suffixes, redacted for the receiver.
//!
//! The referee knows, for every ply, the identity a flip revealed and the identity of a
//! face-down piece that was captured. A flip is seen by both sides; the identity of a captured
//! face-down piece only by the capturer (protocol.md sections 1 and 9). Each move is written:
//!
//! | the move | the mover's side receives | the other side receives |
//! |---|---|---|
//! | plain (no flip, no face-down capture) | `h2e2` | `h2e2` |
//! | flip | `h2e2R` | `h2e2R` |
//! | capture of a face-down piece | `b9a9p` | `b9a9` |
//! | flip that captures a face-down piece | `b7b0rP` | `b7b0r` |
//!
//! The omitted captured identity is the convention's "unknown to me": the receiver's pool keeps it.

use super::config::RankNumbering;
use crate::core::{Color, Move, Piece};

/// One ply as the referee knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TruePly {
    pub mv: Move,
    /// The side that played it.
    pub mover: Color,
    /// The identity revealed, if the move flipped a face-down piece.
    pub flip: Option<Piece>,
    /// The identity of the face-down piece captured, if any.
    pub captured: Option<Piece>,
}

/// The move as `viewer` is told it; `None` is the referee's full text (both identities).
pub fn move_text(ply: &TruePly, viewer: Option<Color>) -> String {
    let mut s = ply.mv.to_string();
    let knows_capture = viewer.is_none_or(|v| v == ply.mover);
    let captured = ply.captured.filter(|_| knows_capture);
    if let Some(f) = ply.flip {
        s.push(f.char());
    }
    if let Some(c) = captured {
        s.push(c.char());
    }
    s
}

/// The history as `viewer` is told it: the moves, separated by single spaces.
pub fn history(plies: &[TruePly], viewer: Color) -> String {
    history_numbered(plies, viewer, RankNumbering::FromZero)
}

fn history_numbered(plies: &[TruePly], viewer: Color, ranks: RankNumbering) -> String {
    let texts: Vec<String> = plies
        .iter()
        .map(|p| ranks.outgoing(&move_text(p, Some(viewer))))
        .collect();
    texts.join(" ")
}

/// The `position` command `viewer` is sent before it moves: the start FEN and, when any move
/// was played, `moves` and its history.
pub fn position_command(start_fen: &str, plies: &[TruePly], viewer: Color) -> String {
    engine_position_command(start_fen, plies, viewer, RankNumbering::FromZero)
}

/// [`position_command`] with the moves in the receiving engine's rank numbering.
pub fn engine_position_command(
    start_fen: &str,
    plies: &[TruePly],
    viewer: Color,
    ranks: RankNumbering,
) -> String {
    if plies.is_empty() {
        format!("position fen {start_fen}")
    } else {
        let moves = history_numbered(plies, viewer, ranks);
        format!("position fen {start_fen} moves {moves}")
    }
}
