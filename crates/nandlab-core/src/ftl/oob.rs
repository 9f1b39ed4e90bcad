//! The OOB records (owner, content tag, program time, codec tags) of the blocks programmed
//! during the run, in per-block slots of two arenas. Blocks that still hold preconditioned
//! data have no slot (their owners follow from the fill layout), so memory grows with the
//! blocks a workload writes; an erase returns the block's slots for reuse. The per-block
//! index is plain integers, so dropping the store frees a few buffers instead of visiting
//! every block.
//!
//! Every page a run programs keeps its record until its block is erased, stale or not (a
//! page's owner says whether it is still valid), so these records are most of a long
//! run's memory: 6 M pages for DTRS ×32 on the 001 preset. A record is therefore split:
//! the low halves of owner and tag and the program time (16 bytes) for every page, and
//! the rest (the halves' high bits, codec tags, attributes: 24 bytes) only in slots where
//! some page has any of it non-zero. Both halves together are the record, bit for bit.

use crate::flash::block::{PageMeta, WriteAttrs};

/// What every record stores (16 bytes).
#[derive(Debug, Clone, Copy, Default)]
struct Common {
    lpn_lo: u32,
    tag_lo: u32,
    program_ns: i64,
}

/// The rest of a record, zero in most runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Rare {
    lpn_hi: u32,
    tag_hi: u32,
    attrs: u32,
    oob_tags: u64,
}

/// Per-block OOB records.
#[derive(Debug, Clone)]
pub struct OobStore {
    pages_per_block: usize,
    /// Slot of each block plus one (0: no records).
    slot_of: Vec<u32>,
    /// `pages_per_block` common parts per slot.
    common: Vec<Common>,
    /// Slots given back by erased blocks.
    free: Vec<u32>,
    /// Rare slot of each slot plus one (0: all its rare parts are zero).
    rare_of: Vec<u32>,
    /// `pages_per_block` rare parts per rare slot.
    rare: Vec<Rare>,
    /// Rare slots given back.
    rare_free: Vec<u32>,
}

/// A fresh slot in `arena` (reused from `free` when there is one), holding defaults.
fn take_slot<T: Copy + Default>(arena: &mut Vec<T>, free: &mut Vec<u32>, ppb: usize) -> u32 {
    match free.pop() {
        Some(s) => {
            let start = s as usize * ppb;
            arena[start..start + ppb].fill(T::default());
            s
        }
        None => {
            arena.resize(arena.len() + ppb, T::default());
            (arena.len() / ppb - 1) as u32
        }
    }
}

impl OobStore {
    /// An empty store for `blocks` blocks of `pages_per_block` pages.
    pub fn new(blocks: u32, pages_per_block: u32) -> Self {
        OobStore {
            pages_per_block: pages_per_block as usize,
            slot_of: vec![0; blocks as usize],
            common: Vec::new(),
            free: Vec::new(),
            rare_of: Vec::new(),
            rare: Vec::new(),
            rare_free: Vec::new(),
        }
    }

    /// Slot of `block`, if it was programmed since its last erase.
    #[inline]
    fn slot(&self, block: u32) -> Option<usize> {
        match self.slot_of[block as usize] {
            0 => None,
            s => Some(s as usize - 1),
        }
    }

    /// The record of page `page` of `block`, if the block has records (a page not
    /// programmed yet reads as the default record).
    #[inline]
    pub fn get(&self, block: u32, page: u32) -> Option<PageMeta> {
        let s = self.slot(block)?;
        let ppb = self.pages_per_block;
        let c = self.common[s * ppb + page as usize];
        let r = match self.rare_of[s] {
            0 => Rare::default(),
            k => self.rare[(k as usize - 1) * ppb + page as usize],
        };
        Some(PageMeta {
            lpn: u64::from(r.lpn_hi) << 32 | u64::from(c.lpn_lo),
            tag: u64::from(r.tag_hi) << 32 | u64::from(c.tag_lo),
            program_ns: c.program_ns,
            oob_tags: r.oob_tags,
            attrs: WriteAttrs(r.attrs),
        })
    }

    /// Program time of page `page` of `block`, if the block has records.
    #[inline]
    pub fn program_ns(&self, block: u32, page: u32) -> Option<i64> {
        let s = self.slot(block)?;
        Some(self.common[s * self.pages_per_block + page as usize].program_ns)
    }

    /// Gives `block` a slot of default records if it has none; returns the slot.
    pub fn insert(&mut self, block: u32) -> usize {
        if let Some(s) = self.slot(block) {
            return s;
        }
        let s = take_slot(&mut self.common, &mut self.free, self.pages_per_block);
        self.slot_of[block as usize] = s + 1;
        let s = s as usize;
        if s == self.rare_of.len() {
            self.rare_of.push(0);
        }
        s
    }

    /// Stores `meta` as the record of page `page` of `block`.
    pub fn set(&mut self, block: u32, page: u32, meta: PageMeta) {
        let s = self.insert(block);
        let ppb = self.pages_per_block;
        let i = page as usize;
        self.common[s * ppb + i] = Common {
            lpn_lo: meta.lpn as u32,
            tag_lo: meta.tag as u32,
            program_ns: meta.program_ns,
        };
        let rare = Rare {
            lpn_hi: (meta.lpn >> 32) as u32,
            tag_hi: (meta.tag >> 32) as u32,
            attrs: meta.attrs.0,
            oob_tags: meta.oob_tags,
        };
        let k = match (self.rare_of[s], rare == Rare::default()) {
            (0, true) => return,
            (0, false) => {
                let k = take_slot(&mut self.rare, &mut self.rare_free, ppb);
                self.rare_of[s] = k + 1;
                k as usize
            }
            (k, _) => k as usize - 1,
        };
        self.rare[k * ppb + i] = rare;
    }

    /// Forgets the records of `block` (erased).
    pub fn release(&mut self, block: u32) {
        let s = std::mem::take(&mut self.slot_of[block as usize]);
        if s != 0 {
            self.free.push(s - 1);
            let k = std::mem::take(&mut self.rare_of[s as usize - 1]);
            if k != 0 {
                self.rare_free.push(k - 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(lpn: u64) -> PageMeta {
        PageMeta {
            lpn,
            ..PageMeta::default()
        }
    }

    #[test]
    fn slots_are_reused_after_an_erase() {
        let mut o = OobStore::new(4, 2);
        assert!(o.get(1, 0).is_none());
        o.set(1, 1, meta(7));
        o.set(3, 0, meta(9));
        assert_eq!(o.get(1, 1).unwrap().lpn, 7);
        o.release(1);
        assert!(o.get(1, 1).is_none());
        // Block 2 takes block 1's slot, with fresh records.
        o.insert(2);
        assert_eq!(o.get(2, 1).unwrap(), PageMeta::default());
        assert_eq!(o.common.len(), 4);
        assert_eq!(o.get(3, 0).unwrap().lpn, 9);
    }

    #[test]
    fn records_round_trip_bit_for_bit_and_only_wide_ones_take_a_rare_slot() {
        let mut o = OobStore::new(3, 4);
        let small = PageMeta {
            lpn: 0xffff_fffe,
            tag: 12,
            program_ns: -5,
            oob_tags: 0,
            attrs: WriteAttrs(0),
        };
        o.set(0, 2, small);
        assert_eq!(o.get(0, 2), Some(small));
        assert!(o.rare.is_empty());
        let wide = PageMeta {
            lpn: (3 << 32) | 5,
            tag: u64::MAX,
            program_ns: i64::MIN,
            oob_tags: 0b1011,
            attrs: WriteAttrs::new(17, true).as_backup(),
        };
        o.set(1, 3, wide);
        assert_eq!(o.get(1, 3), Some(wide));
        assert_eq!(o.rare.len(), 4);
        // A narrow record beside a wide one clears the rare part it shares a slot with.
        o.set(1, 3, small);
        assert_eq!(o.get(1, 3), Some(small));
        assert_eq!(o.program_ns(1, 3), Some(-5));
        // The erased block's rare slot goes to the next block that needs one, cleared.
        o.release(1);
        o.set(2, 0, wide);
        assert_eq!(o.rare.len(), 4);
        assert_eq!(o.get(2, 1), Some(PageMeta::default()));
        assert_eq!(o.get(2, 0), Some(wide));
    }
}
