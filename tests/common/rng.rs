//! The tests' one random generator: SplitMix64 over a counter. Small, fast, and the same stream
//! for the same seed on every machine, so a failing case is repeated by its seed.
//!
//! Self-contained (no `use` of the rest of `common`): `tests/fuzz.rs`, which the cargo-fuzz
//! targets include by path, takes this file by path too.
#![allow(dead_code)]

/// The SplitMix64 finaliser of `x + φ·2^64`: a good 64-bit mix of any input, also used to derive
/// seeds from text or other seeds.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A seeded generator. Every seed, 0 included, gives a good stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix(self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// True `num` times in `den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// One of `items` (which must not be empty), each as likely.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        assert!(!items.is_empty(), "pick from nothing");
        items[self.below(items.len())].clone()
    }

    /// One item of `(item, weight)` pairs, by weight (the total must be positive).
    pub fn weighted<T: Copy>(&mut self, items: &[(T, u32)]) -> T {
        let total: u32 = items.iter().map(|&(_, w)| w).sum();
        assert!(total > 0, "weights sum to 0");
        let mut r = self.below(total as usize) as u32;
        for &(item, w) in items {
            if r < w {
                return item;
            }
            r -= w;
        }
        unreachable!("r < total")
    }
}
