//! What one side knows, and sampling worlds consistent with it.
//!
//! The viewer's position already holds its belief: per pool group (a colour in `jieqi`, the one
//! shared pool in `maniac`) the identities it cannot rule out. When a group's pool is larger than
//! the number of face-down pieces drawing from it, the surplus are pieces captured face-down whose
//! identity the viewer never learned — but the capturer did. A sampled *world* fixes those
//! identities (so the opponent's knowledge is concrete), and optionally also deals an identity to
//! every face-down piece (plain PIMC). Every sample is drawn uniformly: the deal is a uniform
//! shuffle and no player can pick a face-down piece by its identity.

use rand::Rng;

use crate::core::pool::{identity_piece, IDENTITIES};
use crate::core::{Color, Piece, Pool, Position, Square, Variant};

/// The pool groups of a variant: `Some(color)` per colour, or `None` for Maniac's shared pool.
pub fn groups(variant: Variant) -> &'static [Option<Color>] {
    match variant {
        Variant::Maniac => &[None],
        Variant::Jieqi => &[Some(Color::Red), Some(Color::Black)],
        Variant::Xiangqi => &[],
    }
}

fn in_group(piece: Piece, group: Option<Color>) -> bool {
    group.is_none_or(|c| piece.color == c)
}

fn hidden_of_group(pos: &Position, group: Option<Color>) -> Vec<Square> {
    pos.hidden()
        .filter(|sq| group.is_none_or(|c| sq.half() == c))
        .collect()
}

/// Identities of a group's pool beyond the number of face-down pieces drawing from it.
pub fn surplus(pos: &Position, group: Option<Color>) -> u32 {
    let ids: u32 = (0..IDENTITIES)
        .filter(|&i| in_group(identity_piece(i), group))
        .map(|i| pos.pool().count_at(i) as u32)
        .sum();
    ids.saturating_sub(hidden_of_group(pos, group).len() as u32)
}

/// Whether sampling worlds adds anything: with `deal`, whenever a face-down piece exists;
/// otherwise only when some pool has a surplus.
pub fn worth_sampling(pos: &Position, deal: bool) -> bool {
    if pos.hidden().is_empty() || pos.is_dealt() {
        return false;
    }
    deal || groups(pos.variant()).iter().any(|&g| surplus(pos, g) > 0)
}

/// One world consistent with the viewer's knowledge: each pool's surplus removed at random
/// (pieces captured face-down, whose identities only the capturer knows) and, with `deal`, every
/// face-down piece given an identity from what remains.
pub fn sample_world(pos: &Position, rng: &mut impl Rng, deal: bool) -> Position {
    let mut world = *pos;
    if pos.is_dealt() {
        return world;
    }
    let mut pool = Pool::EMPTY;
    let mut assigned: Vec<(Square, Piece)> = Vec::new();
    for &group in groups(pos.variant()) {
        let mut ids: Vec<Piece> = Vec::new();
        for (piece, count) in pos.pool().iter() {
            if in_group(piece, group) {
                ids.extend(std::iter::repeat_n(piece, count as usize));
            }
        }
        let squares = hidden_of_group(pos, group);
        // Shuffle, then the first `squares.len()` identities stay in play.
        for i in (1..ids.len()).rev() {
            let j = rng.gen_range(0..=i);
            ids.swap(i, j);
        }
        let keep = squares.len().min(ids.len());
        for &p in &ids[..keep] {
            pool.add(p);
        }
        if deal {
            assigned.extend(squares.iter().copied().zip(ids[..keep].iter().copied()));
        }
    }
    // Identities of the other groups (none in practice) are kept as they were.
    world.set_pool(pool);
    if deal {
        assigned.sort_by_key(|&(sq, _)| sq);
        let identities: Vec<Piece> = assigned.iter().map(|&(_, p)| p).collect();
        // A pool smaller than its group cannot occur (positions complete their pools).
        world.set_deal(&identities);
    }
    world
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn start_position_has_no_surplus() {
        let pos = Position::startpos(Variant::Jieqi);
        assert_eq!(surplus(&pos, Some(Color::Red)), 0);
        assert!(!worth_sampling(&pos, false));
        assert!(worth_sampling(&pos, true));
    }

    #[test]
    fn deal_fixes_every_identity() {
        let pos = Position::startpos(Variant::Maniac);
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let w = sample_world(&pos, &mut rng, true);
        assert!(w.is_dealt());
        for sq in w.hidden() {
            assert_eq!(w.flip_outcomes(sq).len(), 1);
        }
        assert_eq!(w.hash(), w.compute_hash());
    }

    #[test]
    fn surplus_is_removed() {
        // Red lost two face-down pieces to unknown captures: its pool has 2 more than its pieces.
        let setup = crate::core::fen::parse(
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/1XXXKXXX1 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
        )
        .unwrap();
        let (pos, _) = Position::from_setup(&setup, Variant::Jieqi).unwrap();
        assert_eq!(surplus(&pos, Some(Color::Red)), 2);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let w = sample_world(&pos, &mut rng, false);
        assert_eq!(surplus(&w, Some(Color::Red)), 0);
        assert_eq!(w.pool().total_of(Color::Red), 13);
        assert_eq!(w.pool().total_of(Color::Black), 15);
        assert_eq!(w.hash(), w.compute_hash());
    }
}
