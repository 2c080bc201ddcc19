//! Perft: counting the leaves of the legal-move tree, with chance expansion at flips.
//!
//! perft(1) is the number of legal moves. For deeper counts every move of a face-down piece
//! branches over each distinct identity with a non-zero count in the pool it draws from (one
//! branch in a deal); a capture of a face-down piece does not branch. Leaves are counted in bulk.

use super::moves::{Move, MoveList};
use super::position::Position;

/// Leaf count of the chance-expanded tree of depth `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut n = 0;
            for &mv in list.iter() {
                n += perft_move(pos, mv, depth);
            }
            n
        }
    }
}

/// Leaves below one move (all of its flip outcomes) at total depth `depth` (>= 1).
pub fn perft_move(pos: &Position, mv: Move, depth: u32) -> u64 {
    if depth <= 1 {
        return 1;
    }
    if pos.is_flip(mv) {
        let mut n = 0;
        for (piece, _) in pos.flip_outcomes(mv.from()).iter() {
            let mut child = *pos;
            child.play_unchecked(mv, Some(piece));
            n += perft(&child, depth - 1);
        }
        n
    } else {
        let mut child = *pos;
        child.play_unchecked(mv, None);
        perft(&child, depth - 1)
    }
}

/// Per-move leaf counts (`--divide`), in move-generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| (mv, perft_move(pos, mv, depth.max(1))))
        .collect()
}
