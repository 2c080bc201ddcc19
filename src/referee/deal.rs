//! Deals: the true identities of the face-down pieces of a start position.
//!
//! A deal is a list of identities, one per face-down piece of the start position, in square
//! order (a0, b0, ..., i0, a1, ..., i9: the order of `Position::set_deal`). Written as text it is
//! those identities' FEN letters run together, e.g. the 30 letters of a full Jieqi deal; a start
//! position without face-down pieces (Xiangqi) has the empty deal, written `-`.
//!
//! Random deals come from a seed through SplitMix64 and a Fisher-Yates shuffle, both written out
//! here, so the same seed gives the same deals on every platform and with every dependency
//! version. Pair `i` of a match with seed `s` uses the deal of [`pair_seed`]`(s, i)`, so the
//! deals do not depend on concurrency or on the order in which games finish.

use crate::core::{Color, Piece, Position, Variant};

/// SplitMix64: a tiny, well-mixed, reproducible generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`), by multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// The seed of pair `pair` in a match seeded with `seed`.
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    let mut g = SplitMix64(seed ^ pair.wrapping_mul(0xD1B5_4A32_D192_ED03));
    g.next_u64()
}

/// The identities `pos`'s pool holds, as a list (one entry per copy), for colour `color` or for
/// both colours (`None`).
fn pool_list(pos: &Position, color: Option<Color>) -> Vec<Piece> {
    let mut out = Vec::new();
    for (p, n) in pos.pool().iter() {
        if color.is_none_or(|c| c == p.color) {
            out.extend(std::iter::repeat_n(p, n as usize));
        }
    }
    out
}

/// A random deal for the face-down pieces of `start` (an undealt position): in `jieqi` each
/// colour's pool identities are shuffled and the first ones go to that colour's face-down pieces
/// in square order; in `maniac` the whole pool (both colours) is shuffled and dealt to all
/// face-down pieces. With the standard start, that is each side's 15 identities on its own 15
/// squares, or all 30 mixed. A pool larger than the face-down pieces (a FEN after hidden
/// captures) leaves some identities out, at random.
pub fn random_deal(start: &Position, rng: &mut SplitMix64) -> Vec<Piece> {
    let squares: Vec<_> = start.hidden().collect();
    match start.variant() {
        Variant::Xiangqi => Vec::new(),
        Variant::Maniac => {
            let mut ids = pool_list(start, None);
            rng.shuffle(&mut ids);
            ids.truncate(squares.len());
            ids
        }
        Variant::Jieqi => {
            let mut lists = [
                pool_list(start, Some(Color::Red)),
                pool_list(start, Some(Color::Black)),
            ];
            for l in &mut lists {
                rng.shuffle(l);
            }
            let mut next = [0usize; 2];
            squares
                .iter()
                .map(|sq| {
                    let c = sq.half().index();
                    let p = lists[c].get(next[c]).copied();
                    next[c] += 1;
                    // A pool too small for the pieces cannot come from a checked position; the
                    // square's role is the same fallback as the FEN reader's.
                    p.unwrap_or_else(|| {
                        Piece::new(
                            sq.half(),
                            crate::core::position::start_role(*sq)
                                .unwrap_or(crate::core::Role::Pawn),
                        )
                    })
                })
                .collect()
        }
    }
}

/// The deal as text: FEN letters in square order, `-` when empty.
pub fn deal_text(deal: &[Piece]) -> String {
    if deal.is_empty() {
        "-".to_string()
    } else {
        deal.iter().map(|p| p.char()).collect()
    }
}

/// Why a deal was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("'{0}' is not an identity letter")]
    Letter(char),
    #[error("the deal has {identities} identities, the position {hidden} face-down pieces")]
    Count { identities: usize, hidden: u32 },
    #[error("the deal {0} does not fit the position (wrong colour for a square, or more of an identity than the pool holds)")]
    Misfit(String),
    #[error("line {line}: {error}")]
    Line { line: usize, error: Box<DealError> },
    #[error("no deal in the file")]
    Empty,
}

/// Reads a deal written by [`deal_text`] for `start`, checking that it fits (one identity per
/// face-down piece, each drawable by it, all within the pool).
pub fn parse_deal(text: &str, start: &Position) -> Result<Vec<Piece>, DealError> {
    let t = text.trim();
    let deal: Vec<Piece> = if t == "-" || t.is_empty() {
        Vec::new()
    } else {
        t.chars()
            .map(|c| {
                Piece::from_char(c)
                    .filter(|p| p.role != crate::core::Role::King)
                    .ok_or(DealError::Letter(c))
            })
            .collect::<Result<_, _>>()?
    };
    dealt(start, &deal)?;
    Ok(deal)
}

/// `start` with the deal applied (the referee's true position).
pub fn dealt(start: &Position, deal: &[Piece]) -> Result<Position, DealError> {
    let mut pos = *start;
    let n = pos.hidden().count();
    if deal.len() != n as usize {
        return Err(DealError::Count {
            identities: deal.len(),
            hidden: n,
        });
    }
    if !pos.set_deal(deal) {
        return Err(DealError::Misfit(deal_text(deal)));
    }
    Ok(pos)
}

/// Reads a deal file: one deal per line; blank lines and lines starting with `#` are skipped.
pub fn parse_deal_file(text: &str, start: &Position) -> Result<Vec<Vec<Piece>>, DealError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_deal(t, start).map_err(|e| DealError::Line {
            line: i + 1,
            error: Box::new(e),
        })?);
    }
    if out.is_empty() {
        return Err(DealError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_fixed() {
        // Reference values of SplitMix64 seeded with 0.
        let mut g = SplitMix64(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
