//! Page-level logical-to-physical mapping. Only pages written (or moved) during the run
//! have an explicit entry; preconditioned pages sit at a fixed layout computed on demand:
//! logical page `l < fill_pages` lives in stripe slot `l mod planes` — the plane that the
//! configured striping order sends the `(l mod planes)`-th page of a stripe to, as if the
//! host had written the data in logical order — at position `l div planes` of that plane
//! (block-major). This keeps memory proportional to the touched footprint.
//!
//! Explicit entries live in chunks of [`CHUNK`] consecutive logical pages, found through a
//! directory with one slot per chunk (zero-filled, so the operating system commits only
//! the parts a run touches). A request's consecutive pages then share one directory slot
//! and one chunk instead of costing a hash probe (a cache miss) each.
//!
//! A placement that refuses some page types for critical pages (seed 004) swaps a few
//! preconditioned pages between home positions ([`Mapping::swap_homes`]): the swapped
//! pages get explicit entries, and their home pages' new owners are kept beside the
//! layout, so memory still grows only with the critical pages.

use crate::flash::divisor::Divisor64;
use rustc_hash::FxHashMap;

/// Logical pages per chunk of explicit entries (one chunk = two cache lines).
const CHUNK: u64 = 16;
/// Chunk entry of a logical page with no explicit entry (its home copy, if any, holds it).
const UNSET: u64 = u64::MAX;
/// Chunk entry of a logical page that was trimmed (no live data even if preconditioned).
const TRIMMED: u64 = u64::MAX - 1;

/// Logical-to-physical map.
#[derive(Debug, Clone)]
pub struct Mapping {
    /// Chunk of each group of [`CHUNK`] logical pages, plus one (0: no chunk yet).
    dir: Vec<u32>,
    chunks: Vec<[u64; CHUNK as usize]>,
    entries: usize,
    /// Logical pages filled by preconditioning.
    pub fill_pages: u64,
    logical_pages: u64,
    /// Planes, and pages per plane.
    planes: Divisor64,
    pages_per_plane: Divisor64,
    /// Plane of each stripe slot (the striping order), and its inverse.
    slot_plane: Vec<u32>,
    plane_slot: Vec<u32>,
    /// Owner of each home page the fill swapped (physical page -> logical page); entries
    /// of erased blocks go stale unread (only blocks still holding the fill ask).
    swapped_owner: FxHashMap<u64, u64>,
}

impl Mapping {
    /// An empty map of `logical_pages` pages whose first `fill_pages` are preconditioned;
    /// `slot_plane[k]` is the plane of stripe slot `k` (a permutation of the planes).
    pub fn new(
        logical_pages: u64,
        fill_pages: u64,
        slot_plane: Vec<u32>,
        pages_per_block: u32,
        blocks_per_plane: u32,
    ) -> Self {
        let planes = slot_plane.len() as u32;
        let mut plane_slot = vec![0; slot_plane.len()];
        for (k, &p) in slot_plane.iter().enumerate() {
            plane_slot[p as usize] = k as u32;
        }
        Mapping {
            dir: vec![0; logical_pages.div_ceil(CHUNK) as usize],
            chunks: Vec::new(),
            entries: 0,
            fill_pages,
            logical_pages,
            planes: Divisor64::new(u64::from(planes)),
            pages_per_plane: Divisor64::new(u64::from(blocks_per_plane) * u64::from(pages_per_block)),
            slot_plane,
            plane_slot,
            swapped_owner: FxHashMap::default(),
        }
    }

    /// Physical page number of the preconditioned copy of `lpn`.
    #[inline]
    pub fn home_ppn(&self, lpn: u64) -> u64 {
        let (pos, slot) = self.planes.div_rem(lpn);
        self.pages_per_plane.times(u64::from(self.slot_plane[slot as usize])) + pos
    }

    /// Stripe slot of `plane` (the inverse of the striping order).
    #[inline]
    pub fn slot_of_plane(&self, plane: u32) -> u32 {
        self.plane_slot[plane as usize]
    }

    /// Owner of a preconditioned physical page, if the layout put one there.
    #[inline]
    pub fn home_owner(&self, ppn: u64) -> Option<u64> {
        if !self.swapped_owner.is_empty() {
            if let Some(&lpn) = self.swapped_owner.get(&ppn) {
                return Some(lpn);
            }
        }
        let (plane, pos) = self.pages_per_plane.div_rem(ppn);
        let lpn = self.planes.times(pos) + u64::from(self.plane_slot[plane as usize]);
        (lpn < self.fill_pages).then_some(lpn)
    }

    /// Current physical page of `lpn`, or `None` if it holds no data.
    #[inline(always)]
    pub fn get(&self, lpn: u64) -> Option<u64> {
        let c = self.dir[(lpn / CHUNK) as usize];
        let entry = if c == 0 {
            UNSET
        } else {
            self.chunks[c as usize - 1][(lpn % CHUNK) as usize]
        };
        match entry {
            UNSET if lpn < self.fill_pages => Some(self.home_ppn(lpn)),
            UNSET | TRIMMED => None,
            ppn => Some(ppn),
        }
    }

    /// The entry slot of `lpn`, creating its chunk if needed.
    fn slot(&mut self, lpn: u64) -> &mut u64 {
        let d = (lpn / CHUNK) as usize;
        if self.dir[d] == 0 {
            self.chunks.push([UNSET; CHUNK as usize]);
            self.dir[d] = u32::try_from(self.chunks.len()).expect("fewer than 2^32 mapping chunks");
        }
        &mut self.chunks[self.dir[d] as usize - 1][(lpn % CHUNK) as usize]
    }

    /// Sets `lpn`'s explicit entry (`UNSET` clears it), keeping the entry count.
    fn put(&mut self, lpn: u64, value: u64) {
        let slot = self.slot(lpn);
        let was_set = *slot != UNSET;
        *slot = value;
        match (was_set, value != UNSET) {
            (false, true) => self.entries += 1,
            (true, false) => self.entries -= 1,
            _ => {}
        }
    }

    /// Points `lpn` at `ppn`.
    #[inline]
    pub fn set(&mut self, lpn: u64, ppn: u64) {
        debug_assert!(ppn < TRIMMED);
        self.put(lpn, ppn);
    }

    /// Forgets `lpn` (TRIM).
    pub fn remove(&mut self, lpn: u64) {
        // A preconditioned page needs a mark to hide its home copy.
        self.put(lpn, if lpn < self.fill_pages { TRIMMED } else { UNSET });
    }

    /// Exchanges the home pages of preconditioned logical pages `a` and `b` (before the
    /// run writes either).
    pub fn swap_homes(&mut self, a: u64, b: u64) {
        debug_assert!(a < self.fill_pages && b < self.fill_pages);
        let (home_a, home_b) = (self.home_ppn(a), self.home_ppn(b));
        self.set(a, home_b);
        self.set(b, home_a);
        self.swapped_owner.insert(home_b, a);
        self.swapped_owner.insert(home_a, b);
    }

    /// Explicit entries held (memory grows with the chunks that hold them).
    pub fn entries(&self) -> usize {
        self.entries
    }

    /// Every logical page with data, with its physical page (for invariant checks).
    pub fn live(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        (0..self.logical_pages).filter_map(|l| self.get(l).map(|p| (l, p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_layout_round_trips() {
        // 4 planes, 8 pages/block, 16 blocks/plane; 100 preconditioned pages.
        let m = Mapping::new(400, 100, vec![0, 1, 2, 3], 8, 16);
        // lpn 13 -> plane 1, position 3 -> global ppn (1*16)*8 + 3 = 131
        assert_eq!(m.home_ppn(13), 131);
        assert_eq!(m.home_owner(131), Some(13));
        for l in 0..100 {
            assert_eq!(m.home_owner(m.home_ppn(l)), Some(l));
        }
        // position 25 of plane 0 would be lpn 100: not filled
        assert_eq!(m.home_owner(25), None);
    }

    #[test]
    fn home_layout_follows_the_stripe_order() {
        // Stripe slots 0..4 go to planes 2, 0, 3, 1: lpn 5 is slot 1 -> plane 0, position 1
        // -> ppn 1; lpn 6 is slot 2 -> plane 3, position 1 -> ppn 3*128 + 1 = 385.
        let m = Mapping::new(400, 100, vec![2, 0, 3, 1], 8, 16);
        assert_eq!(m.home_ppn(5), 1);
        assert_eq!(m.home_ppn(6), 385);
        assert_eq!(m.home_owner(385), Some(6));
        // The inverse: plane 2 is slot 0, plane 0 slot 1, plane 3 slot 2, plane 1 slot 3.
        let slots: Vec<u32> = (0..4).map(|p| m.slot_of_plane(p)).collect();
        assert_eq!(slots, [1, 3, 0, 2]);
        for l in 0..100 {
            assert_eq!(m.home_owner(m.home_ppn(l)), Some(l));
        }
    }

    #[test]
    fn trim_hides_preconditioned_pages() {
        let mut m = Mapping::new(40, 10, vec![0, 1], 4, 4);
        assert!(m.get(3).is_some());
        m.remove(3);
        assert_eq!(m.get(3), None);
        m.set(3, 77);
        assert_eq!(m.get(3), Some(77));
        m.set(20, 5);
        assert_eq!(m.entries(), 2);
        m.remove(20);
        assert_eq!(m.get(20), None);
        assert_eq!(m.entries(), 1);
        assert_eq!(m.live().count(), 10);
    }

    #[test]
    fn swapped_homes_trade_owners() {
        // 2 planes, 4 pages/block: lpn 1 lives at plane 1 position 0 (ppn 16), lpn 7 at
        // plane 1 position 3 (ppn 19).
        let mut m = Mapping::new(64, 20, vec![0, 1], 4, 4);
        m.swap_homes(1, 7);
        assert_eq!((m.get(1), m.get(7)), (Some(19), Some(16)));
        assert_eq!((m.home_owner(19), m.home_owner(16)), (Some(1), Some(7)));
        assert_eq!(m.home_owner(17), Some(3));
        assert_eq!(m.entries(), 2);
        assert_eq!(m.live().count(), 20);
    }

    #[test]
    fn neighbours_in_one_chunk_stay_apart() {
        // lpns 16..32 share a chunk; setting one leaves the others at home / unmapped.
        let mut m = Mapping::new(64, 20, vec![0, 1], 4, 8);
        m.set(17, 3);
        assert_eq!(m.get(17), Some(3));
        assert_eq!(m.get(18), Some(m.home_ppn(18)));
        assert_eq!(m.get(25), None);
        assert_eq!(m.entries(), 1);
    }
}
