//! Page-level logical-to-physical mapping. Only pages written (or moved) during the run
//! have an entry; preconditioned pages sit at a fixed layout computed on demand:
//! logical page `l < fill_pages` lives in plane `l mod planes`, at position `l div planes`
//! of that plane (block-major). This keeps memory proportional to the touched footprint.

use rustc_hash::FxHashMap;

/// Marks a logical page that was trimmed (no live data even if it was preconditioned).
const TRIMMED: u64 = u64::MAX;

/// Logical-to-physical map.
#[derive(Debug, Clone)]
pub struct Mapping {
    map: FxHashMap<u64, u64>,
    /// One bit per preconditioned logical page: set once it has an entry in `map`, so
    /// reads of untouched preconditioned data skip the hash probe.
    moved: Vec<u64>,
    /// Logical pages filled by preconditioning.
    pub fill_pages: u64,
    planes: u64,
    pages_per_block: u64,
    blocks_per_plane: u64,
}

impl Mapping {
    /// An empty map whose first `fill_pages` logical pages are preconditioned.
    pub fn new(fill_pages: u64, planes: u32, pages_per_block: u32, blocks_per_plane: u32) -> Self {
        Mapping {
            map: FxHashMap::default(),
            moved: vec![0; fill_pages.div_ceil(64) as usize],
            fill_pages,
            planes: u64::from(planes),
            pages_per_block: u64::from(pages_per_block),
            blocks_per_plane: u64::from(blocks_per_plane),
        }
    }

    /// Physical page number of the preconditioned copy of `lpn`.
    #[inline]
    pub fn home_ppn(&self, lpn: u64) -> u64 {
        let plane = lpn % self.planes;
        let pos = lpn / self.planes;
        (plane * self.blocks_per_plane) * self.pages_per_block + pos
    }

    /// Owner of a preconditioned physical page, if the layout put one there.
    #[inline]
    pub fn home_owner(&self, ppn: u64) -> Option<u64> {
        let ppp = self.blocks_per_plane * self.pages_per_block;
        let plane = ppn / ppp;
        let pos = ppn % ppp;
        let lpn = pos * self.planes + plane;
        (lpn < self.fill_pages).then_some(lpn)
    }

    /// Current physical page of `lpn`, or `None` if it holds no data.
    #[inline]
    pub fn get(&self, lpn: u64) -> Option<u64> {
        if lpn < self.fill_pages && self.moved[(lpn >> 6) as usize] >> (lpn & 63) & 1 == 0 {
            return Some(self.home_ppn(lpn));
        }
        match self.map.get(&lpn) {
            Some(&TRIMMED) => None,
            Some(&ppn) => Some(ppn),
            None if lpn < self.fill_pages => Some(self.home_ppn(lpn)),
            None => None,
        }
    }

    /// Points `lpn` at `ppn`.
    #[inline]
    pub fn set(&mut self, lpn: u64, ppn: u64) {
        self.mark_moved(lpn);
        self.map.insert(lpn, ppn);
    }

    /// Forgets `lpn` (TRIM).
    pub fn remove(&mut self, lpn: u64) {
        if lpn < self.fill_pages {
            self.mark_moved(lpn);
            self.map.insert(lpn, TRIMMED);
        } else {
            self.map.remove(&lpn);
        }
    }

    #[inline]
    fn mark_moved(&mut self, lpn: u64) {
        if lpn < self.fill_pages {
            self.moved[(lpn >> 6) as usize] |= 1 << (lpn & 63);
        }
    }

    /// Explicit entries held (memory grows with this).
    pub fn entries(&self) -> usize {
        self.map.len()
    }

    /// Every logical page with data, with its physical page (for invariant checks).
    pub fn live(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let explicit = self.map.iter().filter(|(_, &p)| p != TRIMMED).map(|(&l, &p)| (l, p));
        let implicit = (0..self.fill_pages)
            .filter(|l| !self.map.contains_key(l))
            .map(|l| (l, self.home_ppn(l)));
        explicit.chain(implicit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_layout_round_trips() {
        // 4 planes, 8 pages/block, 16 blocks/plane; 100 preconditioned pages.
        let m = Mapping::new(100, 4, 8, 16);
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
    fn trim_hides_preconditioned_pages() {
        let mut m = Mapping::new(10, 2, 4, 4);
        assert!(m.get(3).is_some());
        m.remove(3);
        assert_eq!(m.get(3), None);
        m.set(3, 77);
        assert_eq!(m.get(3), Some(77));
        m.set(20, 5);
        m.remove(20);
        assert_eq!(m.get(20), None);
        assert_eq!(m.live().count(), 10);
    }
}
