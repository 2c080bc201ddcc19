//! Pseudo-random games for the unit tests of the search.

use crate::core::{MoveList, Position, Variant};

/// The position after each ply of a pseudo-random game of `variant`, at most `plies` plies (it
/// ends early where the side to move has no move). Moves and the identities of flips are drawn
/// with the xorshift state `x` (nonzero), which carries on to the next game.
pub(crate) fn random_game(variant: Variant, x: &mut u64, plies: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(plies);
    let mut pos = Position::startpos(variant);
    for _ in 0..plies {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let mv = list.as_slice()[(*x % list.len() as u64) as usize];
        let outcomes = pos.flip_outcomes(mv.from());
        let outcome = if pos.is_flip(mv) {
            let k = (*x >> 32) as usize % outcomes.len();
            outcomes.iter().nth(k).map(|(p, _)| p)
        } else {
            None
        };
        pos.play_unchecked(mv, outcome);
        out.push(pos);
    }
    out
}
