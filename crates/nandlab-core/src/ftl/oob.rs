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
//!
//! A full block whose every page went stale gives its slots back at once ([`OobStore::drop_stale`]):
//! nothing reads a stale page's record (a read or a move asks for a valid page), so only
//! its last program time is kept, which the victim policies age it by. A run that
//! rewrites the same addresses without erasing (DTRS ×32 never collects) then holds about
//! the records of its live data instead of every page it ever programmed.

use crate::flash::block::{PageMeta, WriteAttrs};
use rustc_hash::FxHashMap;

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

/// `slot_of` of a block whose pages are all stale (records dropped until its erase).
const STALE: u32 = u32::MAX;

/// Per-block OOB records.
#[derive(Debug, Clone)]
pub struct OobStore {
    pages_per_block: usize,
    /// Slot of each block plus one (0: no records; [`STALE`]: dropped).
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
    /// Last program time of each [`STALE`] block.
    stale_ns: FxHashMap<u32, i64>,
    /// Stale blocks keep their records (see [`OobStore::keep_stale`]).
    keep_stale: bool,
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
            stale_ns: FxHashMap::default(),
            keep_stale: false,
        }
    }

    /// Keeps stale blocks' records until their erase: for a simulator that reads a page's
    /// record when it times its program, which for a moved page can come after the page
    /// went stale.
    pub fn keep_stale(&mut self) {
        self.keep_stale = true;
    }

    /// Slot of `block`, if it was programmed since its last erase and holds a valid page.
    #[inline]
    fn slot(&self, block: u32) -> Option<usize> {
        match self.slot_of[block as usize] {
            0 | STALE => None,
            s => Some(s as usize - 1),
        }
    }

    /// The record of page `page` of `block`, if the block has records (a page not
    /// programmed yet reads as the default record; a block whose records were dropped as
    /// all stale has none).
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

    /// Program time of page `last` of `block`, the last it programmed; kept when its
    /// records were dropped as stale.
    #[inline]
    pub fn last_program_ns(&self, block: u32, last: u32) -> Option<i64> {
        match self.slot_of[block as usize] {
            STALE => self.stale_ns.get(&block).copied(),
            _ => self.program_ns(block, last),
        }
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
        match std::mem::take(&mut self.slot_of[block as usize]) {
            0 => {}
            STALE => {
                self.stale_ns.remove(&block);
            }
            s => self.free_slots(s - 1),
        }
    }

    /// Drops the records of full `block`, whose pages are all stale, keeping the program
    /// time of its page `last` (see the module's note). A block without records (never
    /// programmed in the run) keeps none.
    pub fn drop_stale(&mut self, block: u32, last: u32) {
        let Some(s) = self.slot(block).filter(|_| !self.keep_stale) else {
            return;
        };
        let t = self.common[s * self.pages_per_block + last as usize].program_ns;
        self.free_slots(s as u32);
        self.slot_of[block as usize] = STALE;
        self.stale_ns.insert(block, t);
    }

    /// Gives slot `s` and its rare slot back.
    fn free_slots(&mut self, s: u32) {
        self.free.push(s);
        let k = std::mem::take(&mut self.rare_of[s as usize]);
        if k != 0 {
            self.rare_free.push(k - 1);
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

    #[test]
    fn a_stale_block_keeps_only_its_last_program_time_until_its_erase() {
        let mut o = OobStore::new(3, 2);
        let at = |lpn, program_ns| PageMeta {
            lpn,
            program_ns,
            tag: 1 << 40, // a rare part too
            ..PageMeta::default()
        };
        o.set(0, 0, at(4, 10));
        o.set(0, 1, at(5, 20));
        o.drop_stale(0, 1);
        assert_eq!(o.get(0, 0), None);
        assert_eq!(o.program_ns(0, 1), None);
        assert_eq!(o.last_program_ns(0, 1), Some(20));
        // Both of its slots go to the next block that needs them, cleared.
        o.set(1, 1, at(6, 30));
        assert_eq!((o.common.len(), o.rare.len()), (2, 2));
        assert_eq!(o.get(1, 0), Some(PageMeta::default()));
        assert_eq!(o.last_program_ns(1, 1), Some(30));
        // Erased: no records, no time kept.
        o.release(0);
        assert_eq!(o.last_program_ns(0, 1), None);
        assert!(o.stale_ns.is_empty());
        // A block with no records (preconditioned) has nothing to drop.
        o.drop_stale(2, 1);
        assert_eq!(o.last_program_ns(2, 1), None);
        o.set(2, 0, at(7, 40));
        assert_eq!(o.get(2, 0).map(|m| m.lpn), Some(7));
        // Kept when asked.
        o.keep_stale();
        o.drop_stale(2, 0);
        assert_eq!(o.get(2, 0).map(|m| m.lpn), Some(7));
    }
}
