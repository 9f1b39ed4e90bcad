//! The OOB records (owner, content tag, program time, codec tags) of the blocks programmed
//! during the run, in one arena of per-block slots. Blocks that still hold preconditioned
//! data have no slot (their owners follow from the fill layout), so memory grows with the
//! blocks a workload writes; an erase returns the block's slot for reuse. The per-block
//! index is plain integers, so dropping the store frees a few buffers instead of visiting
//! every block.

use crate::flash::block::PageMeta;

/// Per-block OOB records.
#[derive(Debug, Clone)]
pub struct OobStore {
    pages_per_block: usize,
    /// Slot of each block plus one (0: no records).
    slot_of: Vec<u32>,
    /// `pages_per_block` records per slot.
    records: Vec<PageMeta>,
    /// Slots given back by erased blocks.
    free: Vec<u32>,
}

impl OobStore {
    /// An empty store for `blocks` blocks of `pages_per_block` pages.
    pub fn new(blocks: u32, pages_per_block: u32) -> Self {
        OobStore {
            pages_per_block: pages_per_block as usize,
            slot_of: vec![0; blocks as usize],
            records: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The records of `block`, if it was programmed since its last erase.
    #[inline]
    pub fn get(&self, block: u32) -> Option<&[PageMeta]> {
        match self.slot_of[block as usize] {
            0 => None,
            s => {
                let start = (s as usize - 1) * self.pages_per_block;
                Some(&self.records[start..start + self.pages_per_block])
            }
        }
    }

    /// The records of `block`, given a slot of default records if it has none.
    pub fn get_or_insert(&mut self, block: u32) -> &mut [PageMeta] {
        let ppb = self.pages_per_block;
        let s = match self.slot_of[block as usize] {
            0 => {
                let s = match self.free.pop() {
                    Some(s) => {
                        let start = s as usize * ppb;
                        self.records[start..start + ppb].fill(PageMeta::default());
                        s
                    }
                    None => {
                        self.records.resize(self.records.len() + ppb, PageMeta::default());
                        (self.records.len() / ppb - 1) as u32
                    }
                };
                self.slot_of[block as usize] = s + 1;
                s
            }
            s => s - 1,
        } as usize;
        &mut self.records[s * ppb..(s + 1) * ppb]
    }

    /// Forgets the records of `block` (erased).
    pub fn release(&mut self, block: u32) {
        let s = std::mem::take(&mut self.slot_of[block as usize]);
        if s != 0 {
            self.free.push(s - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_reused_after_an_erase() {
        let mut o = OobStore::new(4, 2);
        assert!(o.get(1).is_none());
        o.get_or_insert(1)[1].lpn = 7;
        o.get_or_insert(3)[0].lpn = 9;
        assert_eq!(o.get(1).unwrap()[1].lpn, 7);
        o.release(1);
        assert!(o.get(1).is_none());
        // Block 2 takes block 1's slot, with fresh records.
        assert_eq!(o.get_or_insert(2)[1].lpn, 0);
        assert_eq!(o.records.len(), 4);
        assert_eq!(o.get(3).unwrap()[0].lpn, 9);
    }
}
