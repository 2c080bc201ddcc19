//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! The key of a position covers: revealed pieces on squares, face-down pieces (by controller,
//! plus their identity when the position knows it), the pool counts, the side to move and the
//! Maniac waiting square. Counters are not part of it.

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn table<const N: usize, const M: usize>(salt: u64) -> [[u64; M]; N] {
    let mut t = [[0u64; M]; N];
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < M {
            t[i][j] = splitmix(salt ^ ((i as u64) << 32) ^ (j as u64).wrapping_mul(0x1000_0001));
            j += 1;
        }
        i += 1;
    }
    t
}

/// Revealed piece (index 0..14) on a square.
pub static PIECE: [[u64; 90]; 14] = table(0x5151_0001);
/// Face-down piece by controller colour on a square.
pub static HIDDEN: [[u64; 90]; 2] = table(0x5151_0002);
/// Known identity (index 0..14) of a face-down piece on a square.
pub static IDENTITY: [[u64; 90]; 14] = table(0x5151_0003);
/// Pool identity (0..12) with a given count.
pub static POOL: [[u64; 256]; 12] = table(0x5151_0004);
/// Maniac waiting square.
pub static WAIT: [[u64; 90]; 1] = table(0x5151_0005);
/// Black to move.
pub const SIDE: u64 = splitmix(0x5151_0006);
