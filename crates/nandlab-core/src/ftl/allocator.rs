//! Block and page allocation: per-plane free pools and the one rule that opens a block from
//! them for every cause ([`BlockOpening`]), the active blocks placement fills, and the
//! striping cursor that spreads consecutive host writes over channels, ways, dies and planes.

use super::placement::ACTIVE_SLOTS;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Which free block a plane opens next (`ftl.block_opening`), the same rule for host
/// writes, GC, wear leveling and read refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockOpening {
    /// The least-worn free block (by P/E, then block number): a simple form of dynamic
    /// wear leveling (MQSim's free-block pools keep blocks by erase count).
    #[default]
    LeastWorn,
    /// The next free block after the last one the plane opened, by block number, round the
    /// plane: SSDsim's `find_active_block` steps `active_block = (active_block + 1) %
    /// block_plane` until it finds a free one, whatever its wear (seed 003 ran SSDsim).
    InTurn,
}

impl BlockOpening {
    /// Whether this is the default (left out of the resolved config, so configs that do
    /// not name it echo as before).
    pub fn is_default(&self) -> bool {
        *self == BlockOpening::default()
    }
}

/// Allocation state of one plane.
#[derive(Debug, Clone, Default)]
pub struct PlaneAlloc {
    /// Free blocks keyed by (P/E, block): the least-worn is opened first.
    pub free: BinaryHeap<Reverse<(u32, u32)>>,
    /// Active blocks, one per placement slot.
    pub active: [Option<u32>; ACTIVE_SLOTS],
    /// Predicted reads of the pages placed in each active block since it opened (kept
    /// for a placement policy that places by read heat).
    pub placed_reads: [u64; ACTIVE_SLOTS],
    /// The block [`BlockOpening::InTurn`] opened last (`None`: none yet, it starts at the
    /// plane's first block).
    pub last_opened: Option<u32>,
}

impl PlaneAlloc {
    /// Takes the free block `rule` opens next (`None`: the pool is empty). Blocks are
    /// numbered device-wide; `first` is the plane's first and `blocks` its count.
    pub fn take(&mut self, rule: BlockOpening, first: u32, blocks: u32) -> Option<u32> {
        let block = match rule {
            BlockOpening::LeastWorn => self.free.pop()?.0 .1,
            BlockOpening::InTurn => {
                // Distance round the plane from the block after the last one opened.
                let start = self.last_opened.map_or(0, |b| b - first + 1);
                let after = |b: u32| (b - first + blocks - start) % blocks;
                let mut pool = std::mem::take(&mut self.free).into_vec();
                let i = (0..pool.len()).min_by_key(|&i| after(pool[i].0 .1))?;
                let Reverse((_, block)) = pool.swap_remove(i);
                self.free = pool.into();
                block
            }
        };
        self.last_opened = Some(block);
        Some(block)
    }

    /// Takes the least-worn free block whatever the rule (a policy that chooses its
    /// blocks by P/E: BADR's destinations).
    pub fn take_least_worn(&mut self) -> Option<u32> {
        Some(self.free.pop()?.0 .1)
    }
}

/// Turns a running page counter into a plane index following a striping order.
#[derive(Debug, Clone)]
pub struct Striper {
    /// Sizes of (C, W, D, P).
    dims: [u32; 4],
    /// Order of the levels, fastest-varying first (indices into `dims`).
    order: [usize; 4],
    /// The plane of each stripe slot ([`Striper::plane_at`]), worked out once: every host
    /// page asks.
    slots: Vec<u32>,
    cursor: usize,
}

impl Striper {
    /// A striper over `channels x chips x dies x planes` in `order`.
    pub fn new(dims: [u32; 4], order: [usize; 4]) -> Self {
        let planes: u64 = dims.iter().map(|&d| u64::from(d)).product();
        let mut s = Striper {
            dims,
            order,
            slots: Vec::new(),
            cursor: 0,
        };
        s.slots = (0..planes).map(|k| s.plane_at(k)).collect();
        s
    }

    /// Plane index of the next page and advance.
    #[inline]
    pub fn next_plane(&mut self) -> u32 {
        let plane = self.peek_plane();
        self.cursor += 1;
        if self.cursor == self.slots.len() {
            self.cursor = 0;
        }
        plane
    }

    /// Plane index of the next page, without advancing.
    #[inline]
    pub fn peek_plane(&self) -> u32 {
        self.slots[self.cursor]
    }

    /// Plane index of the page `k` pages after the next one, without advancing.
    #[inline]
    pub fn peek_plane_after(&self, k: u64) -> u32 {
        let planes = self.slots.len() as u64;
        self.slots[((self.cursor as u64 + k) % planes) as usize]
    }

    /// The plane of every stripe slot, in slot order.
    pub fn slot_planes(&self) -> Vec<u32> {
        self.slots.clone()
    }

    /// Plane index of slot `k` (`0 <= k < planes`) of a stripe: the plane the `k`-th page
    /// of a run of consecutive writes goes to.
    #[inline]
    pub fn plane_at(&self, mut k: u64) -> u32 {
        let mut coord = [0u32; 4];
        for &level in &self.order {
            let d = u64::from(self.dims[level]);
            coord[level] = (k % d) as u32;
            k /= d;
        }
        let [c, w, d, p] = coord;
        ((c * self.dims[1] + w) * self.dims[2] + d) * self.dims[3] + p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(blocks: &[(u32, u32)]) -> PlaneAlloc {
        PlaneAlloc {
            free: blocks.iter().map(|&b| Reverse(b)).collect(),
            ..PlaneAlloc::default()
        }
    }

    #[test]
    fn least_worn_opens_by_pe_then_number() {
        // Plane of blocks 100..108; free: 103 (P/E 50), 105 (10), 101 (10), 107 (0).
        let mut p = pool(&[(50, 103), (10, 105), (10, 101), (0, 107)]);
        let got: Vec<u32> = (0..4).filter_map(|_| p.take(BlockOpening::LeastWorn, 100, 8)).collect();
        assert_eq!(got, vec![107, 101, 105, 103]);
        assert_eq!(p.take(BlockOpening::LeastWorn, 100, 8), None);
    }

    #[test]
    fn in_turn_steps_round_the_plane_whatever_the_wear() {
        // The same pool: from the plane's first block, 101, 103, 105, 107; then, 103 freed
        // again (erased) and 101 too, after 107 comes 101 (round the plane), then 103.
        let mut p = pool(&[(50, 103), (10, 105), (10, 101), (0, 107)]);
        let got: Vec<u32> = (0..4).filter_map(|_| p.take(BlockOpening::InTurn, 100, 8)).collect();
        assert_eq!(got, vec![101, 103, 105, 107]);
        p.free.push(Reverse((51, 103)));
        p.free.push(Reverse((11, 101)));
        assert_eq!(p.take(BlockOpening::InTurn, 100, 8), Some(101));
        assert_eq!(p.take(BlockOpening::InTurn, 100, 8), Some(103));
        // Least worn regardless of the rule for a policy that chooses by P/E.
        let mut p = pool(&[(50, 103), (10, 105), (0, 107)]);
        assert_eq!(p.take(BlockOpening::InTurn, 100, 8), Some(103));
        assert_eq!(p.take_least_worn(), Some(107));
    }

    #[test]
    fn cwdp_visits_channels_first() {
        // 2 channels, 2 ways, 1 die, 2 planes; CWDP.
        let mut s = Striper::new([2, 2, 1, 2], [0, 1, 2, 3]);
        let seq: Vec<u32> = (0..8).map(|_| s.next_plane()).collect();
        // plane index = ((c*2 + w)*1 + d)*2 + p
        assert_eq!(seq, vec![0, 4, 2, 6, 1, 5, 3, 7]);
        // PDWC: planes first.
        let mut s = Striper::new([2, 2, 1, 2], [3, 2, 1, 0]);
        let seq: Vec<u32> = (0..4).map(|_| s.next_plane()).collect();
        assert_eq!(seq, vec![0, 1, 2, 3]);
    }
}
