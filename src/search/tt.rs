//! The transposition table, shared by all search threads without locks.
//!
//! Each slot holds two atomics: `key ^ data` and `data`. A torn write (two threads storing at
//! once) makes the check `stored_key ^ data == key` fail, so a probe never returns another
//! position's data.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::core::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Tt {
    slots: Vec<Slot>,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = 16;

fn pack(e: &TtEntry, generation: u8) -> u64 {
    let mv = e.mv.map_or(0u64, |m| m.raw() as u64 | 0x4000);
    let score = (e.score as i16 as u16) as u64;
    let eval = (e.eval as i16 as u16) as u64;
    let depth = (e.depth.clamp(-1, 254) + 1) as u64;
    mv | score << 16
        | eval << 32
        | depth << 48
        | (e.bound as u64) << 56
        | (generation as u64 & 0x3F) << 58
}

fn unpack(d: u64) -> Option<TtEntry> {
    let bound = match (d >> 56) & 3 {
        1 => TtBound::Exact,
        2 => TtBound::Lower,
        3 => TtBound::Upper,
        _ => return None,
    };
    let mv_bits = (d & 0xFFFF) as u16;
    let mv = if mv_bits & 0x4000 != 0 {
        crate::core::Move::from_raw(mv_bits & 0x3FFF)
    } else {
        None
    };
    Some(TtEntry {
        mv,
        score: ((d >> 16) & 0xFFFF) as u16 as i16 as i32,
        eval: ((d >> 32) & 0xFFFF) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xFF) as i32 - 1,
        bound,
    })
}

impl Tt {
    /// A table of about `mb` megabytes (at least one slot), or an error if the memory cannot
    /// be had.
    pub fn try_new(mb: usize) -> Result<Tt, super::engine::SearchError> {
        let n = ((mb.max(1).saturating_mul(1 << 20)) / SLOT_BYTES).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| super::engine::SearchError::HashAllocation(mb))?;
        slots.resize_with(n, || Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        });
        Ok(Tt {
            slots,
            generation: AtomicU64::new(0),
        })
    }

    /// A table of about `mb` megabytes, or the largest smaller power-of-two size that can be had.
    pub fn new(mb: usize) -> Tt {
        let mut size = mb.max(1);
        loop {
            match Tt::try_new(size) {
                Ok(tt) => return tt,
                Err(_) if size > 1 => size /= 2,
                Err(_) => {
                    return Tt {
                        slots: vec![Slot {
                            check: AtomicU64::new(0),
                            data: AtomicU64::new(0),
                        }],
                        generation: AtomicU64::new(0),
                    }
                }
            }
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &Slot {
        let i = ((key as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        if check ^ data != key || data == 0 {
            return None;
        }
        unpack(data)
    }

    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        let s = self.slot(key);
        let gen = (self.generation.load(Ordering::Relaxed) & 0x3F) as u8;
        let old = s.data.load(Ordering::Relaxed);
        let old_key = s.check.load(Ordering::Relaxed) ^ old;
        if old != 0 && old_key == key {
            // Same position: keep a deeper entry of this search unless the new one is exact.
            if let Some(o) = unpack(old) {
                let same_gen = ((old >> 58) & 0x3F) as u8 == gen;
                if same_gen && o.depth > entry.depth + 2 && entry.bound != TtBound::Exact {
                    return;
                }
                let mut e = entry;
                if e.mv.is_none() {
                    e.mv = o.mv;
                }
                let d = pack(&e, gen);
                s.data.store(d, Ordering::Relaxed);
                s.check.store(key ^ d, Ordering::Relaxed);
                return;
            }
        } else if old != 0 {
            let same_gen = ((old >> 58) & 0x3F) as u8 == gen;
            if let Some(o) = unpack(old) {
                if same_gen && o.depth > entry.depth + 3 {
                    return;
                }
            }
        }
        let d = pack(&entry, gen);
        s.data.store(d, Ordering::Relaxed);
        s.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Per-mille use of the table by the current search (sampled over the first 1000 slots).
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 0x3F;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 0x3F == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }

    /// Size in bytes.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }
}
