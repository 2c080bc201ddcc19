//! A small per-thread table of static evaluations, keyed by the position's hash: quiescence
//! and the chance nodes' cheap values evaluate the same positions again and again (every
//! iteration of the deepening revisits the leaves of the last). A hit returns exactly what the
//! evaluation would: the whole 64-bit key is compared, and the no-capture counter, which the
//! evaluation reads near the 120-ply limit, is part of the key there.

use crate::core::Position;

use super::eval::scales_toward_draw;
use super::shared::Shared;

/// Entries in the table (a power of two): 1 MiB per thread.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    used: bool,
}

pub(crate) struct EvalCache {
    entries: Vec<Entry>,
}

impl EvalCache {
    /// An empty table; its memory is taken at the first position it keeps (searches of
    /// dealt positions never keep one).
    pub(crate) fn new() -> EvalCache {
        EvalCache {
            entries: Vec::new(),
        }
    }

    /// The static evaluation of `pos` with `shared`'s weights and parameters.
    #[inline]
    pub(crate) fn evaluate(&mut self, shared: &Shared, pos: &Position) -> i32 {
        if pos.is_dealt() {
            // A position with known identities (tests, the referee's view) is not cached: its
            // hash does not tell the identities apart.
            return shared.evaluate(pos);
        }
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); ENTRIES];
        }
        let key = Self::key(shared, pos);
        let e = &mut self.entries[(key as usize) & (ENTRIES - 1)];
        if e.used && e.key == key {
            return e.value;
        }
        let value = shared.evaluate(pos);
        *e = Entry {
            key,
            value,
            used: true,
        };
        value
    }

    /// The hash of `pos`, with the no-capture counter mixed in where the evaluation reads it.
    #[inline]
    fn key(shared: &Shared, pos: &Position) -> u64 {
        if scales_toward_draw(pos, shared.params.draw_scaling) {
            let hm = pos.halfmove_clock() as u64;
            pos.hash() ^ (hm + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            pos.hash()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;
    use crate::search::params::SearchParams;
    use crate::search::testgames::random_game;

    fn shared(variant: Variant) -> Shared {
        Shared::with_params(SearchParams::for_variant(variant))
    }

    /// Positions of a pseudo-random game of `variant`.
    fn game(variant: Variant, seed: u64) -> Vec<Position> {
        random_game(variant, &mut (seed | 1), 80)
    }

    /// Every answer of the table, first look or hit, is the evaluation itself, also where the
    /// no-capture counter scales it (the same board at another count is another entry).
    #[test]
    fn the_table_answers_what_the_evaluation_says() {
        let mut checked = 0;
        for variant in Variant::ALL {
            let shared = shared(variant);
            let mut cache = EvalCache::new();
            for seed in 1..4u64 {
                for pos in game(variant, seed * 0x9E37_79B9) {
                    for hm in [pos.halfmove_clock(), 85, 100, 101, 119] {
                        let mut p = pos;
                        p.halfmove = hm;
                        let want = shared.evaluate(&p);
                        assert_eq!(cache.evaluate(&shared, &p), want, "{}", p.fen());
                        assert_eq!(cache.evaluate(&shared, &p), want, "{}", p.fen());
                        checked += 1;
                    }
                }
            }
            // Where the counter scales the evaluation it changes the value: the key must tell.
            let scaled = game(variant, 7)
                .into_iter()
                .map(|mut p| {
                    p.halfmove = 100;
                    let a = shared.evaluate(&p);
                    p.halfmove = 110;
                    (a, shared.evaluate(&p))
                })
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(scaled > 0, shared.params.draw_scaling, "{variant:?}");
        }
        assert!(checked > 1000, "{checked}");
    }
}
