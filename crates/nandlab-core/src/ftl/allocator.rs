//! Block and page allocation: per-plane free pools (least-worn block first, a simple form of
//! dynamic wear leveling), the active blocks placement fills, and the striping cursor that
//! spreads consecutive host writes over channels, ways, dies and planes.

use super::placement::ACTIVE_SLOTS;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
