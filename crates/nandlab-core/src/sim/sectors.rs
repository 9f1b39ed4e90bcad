//! Partial-page accesses (issue 12 item 4): a request covers byte ranges of its first and
//! last pages; a read moves and decodes only the units (codewords with an ECC, 512-byte
//! sectors without: [`ReadPlanner::units_per_page`](crate::ecc::ReadPlanner::units_per_page))
//! holding requested bytes, and a partial write of a page holding data first reads the
//! units the write leaves (a read-modify-write). Unit `k` of `n` holds bytes
//! `k·P/n .. (k+1)·P/n` of a `P`-byte page.

/// How a page divides into transfer units.
#[derive(Debug, Clone, Copy)]
pub struct Units {
    per_page: u32,
    page_bytes: u64,
}

impl Units {
    pub fn new(per_page: u32, page_bytes: u64) -> Self {
        Units { per_page, page_bytes }
    }

    /// The unit holding byte `b` of the page, rounding down (`up`: the first unit starting
    /// at or after it).
    fn unit(&self, b: u64, up: bool) -> u64 {
        let x = b * u64::from(self.per_page);
        if up {
            x.div_ceil(self.page_bytes)
        } else {
            x / self.page_bytes
        }
    }

    /// Units holding any byte of `lo..hi` (byte offsets in the page): what a read moves.
    fn touched(&self, (lo, hi): (u64, u64)) -> u32 {
        (self.unit(hi, true) - self.unit(lo, false)) as u32
    }

    /// Units a write of `lo..hi` does not overwrite whole: what its read-modify-write reads.
    fn left(&self, (lo, hi): (u64, u64)) -> u32 {
        self.per_page - self.unit(hi, false).saturating_sub(self.unit(lo, true)) as u32
    }

    /// Whether `units` units are the whole page.
    #[inline]
    pub fn whole(&self, units: u32) -> bool {
        units == self.per_page
    }

    /// `x` (a page's bytes or decode time) for `units` of the page, rounded up.
    #[inline]
    pub fn share(&self, x: u64, units: u32) -> u64 {
        // Every page read comes here; most read whole pages.
        if self.whole(units) {
            return x;
        }
        (x * u64::from(units)).div_ceil(u64::from(self.per_page))
    }

    /// The bytes of page `p` that request bytes `start..end` cover, as offsets in the page.
    fn span(&self, p: u64, start: u64, end: u64) -> (u64, u64) {
        let base = p * self.page_bytes;
        (start.max(base) - base, end.min(base + self.page_bytes) - base)
    }

    /// Units of page `p` a read of request bytes `start..end` moves.
    fn read_units(&self, p: u64, (start, end): (u64, u64)) -> u32 {
        if self.covers(p, start, end) {
            return self.per_page;
        }
        self.touched(self.span(p, start, end))
    }

    /// Units of page `p` a write of request bytes `start..end` leaves (its
    /// read-modify-write reads them when the page holds data).
    fn write_leaves(&self, p: u64, (start, end): (u64, u64)) -> u32 {
        if self.covers(p, start, end) {
            return 0;
        }
        self.left(self.span(p, start, end))
    }

    /// Units a read of request bytes `bytes` (pages `first..=last`) moves of each page.
    pub fn reads(&self, first: u64, last: u64, bytes: (u64, u64)) -> PerPage {
        PerPage::new(first, last, self.per_page, |p| self.read_units(p, bytes))
    }

    /// Units a write of request bytes `bytes` (pages `first..=last`) leaves of each page.
    pub fn leaves(&self, first: u64, last: u64, bytes: (u64, u64)) -> PerPage {
        PerPage::new(first, last, 0, |p| self.write_leaves(p, bytes))
    }

    /// Whether request bytes `start..end` cover page `p` whole.
    #[inline]
    fn covers(&self, p: u64, start: u64, end: u64) -> bool {
        let base = p * self.page_bytes;
        start <= base && end >= base + self.page_bytes
    }
}

/// A request's unit count for each of its pages `first..=last`, worked out once per
/// request: only the first and last pages can be partial (every page between starts after
/// the request's first byte and ends before its last), so the pages between share one count.
#[derive(Debug, Clone, Copy)]
pub struct PerPage {
    first: u64,
    last: u64,
    at_first: u32,
    at_last: u32,
    between: u32,
}

impl PerPage {
    fn new(first: u64, last: u64, between: u32, at: impl Fn(u64) -> u32) -> Self {
        PerPage {
            first,
            last,
            at_first: at(first),
            at_last: at(last),
            between,
        }
    }

    /// The count of page `p` (`first <= p <= last`). Every page of a request comes here.
    #[inline(always)]
    pub fn at(&self, p: u64) -> u32 {
        if p == self.first {
            self.at_first
        } else if p == self.last {
            self.at_last
        } else {
            self.between
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_map_to_units_by_hand() {
        // 8 KiB page, 16 sectors of 512 B: bytes 0..4096 are sectors 0..8.
        let s = Units::new(16, 8192);
        assert_eq!(s.touched((0, 4096)), 8);
        assert_eq!(s.touched((100, 4097)), 9);
        assert_eq!(s.left((0, 512)), 15);
        assert_eq!(s.left((100, 600)), 16);
        assert_eq!(s.left((0, 8192)), 0);
        assert_eq!(s.share(8192, 8), 4096);
        // 2 codewords of 4 KiB: a 512-byte write leaves both to read (one half-written).
        let c = Units::new(2, 8192);
        assert_eq!(c.touched((4096, 4608)), 1);
        assert_eq!(c.touched((4000, 4608)), 2);
        assert_eq!(c.left((0, 512)), 2);
        assert_eq!(c.left((0, 4096)), 1);
        // Request bytes 6144..20480 over 8 KiB pages 0..=2.
        assert_eq!(s.span(0, 6144, 20480), (6144, 8192));
        assert_eq!(s.span(1, 6144, 20480), (0, 8192));
        assert_eq!(s.span(2, 6144, 20480), (0, 4096));
        // The same request per page: reads move sectors 12..16, all 16, 0..8; a write of
        // it leaves 12 sectors of page 0, none of page 1, 8 of page 2.
        let r: Vec<u32> = (0..3).map(|p| s.read_units(p, (6144, 20480))).collect();
        assert_eq!(r, [4, 16, 8]);
        let w: Vec<u32> = (0..3).map(|p| s.write_leaves(p, (6144, 20480))).collect();
        assert_eq!(w, [12, 0, 8]);
        // Worked out once per request, the same counts.
        let (reads, leaves) = (s.reads(0, 2, (6144, 20480)), s.leaves(0, 2, (6144, 20480)));
        assert_eq!([0, 1, 2].map(|p| reads.at(p)), [4, 16, 8]);
        assert_eq!([0, 1, 2].map(|p| leaves.at(p)), [12, 0, 8]);
        // Five pages, the end pages whole: every page 16 to read, none left by a write.
        let whole = s.reads(3, 7, (3 * 8192, 8 * 8192));
        assert_eq!((3..=7).map(|p| whole.at(p)).collect::<Vec<_>>(), [16; 5]);
        let none = s.leaves(3, 7, (3 * 8192, 8 * 8192));
        assert!((3..=7).all(|p| none.at(p) == 0));
        // One page, bytes 100..600 of page 4: sectors 0 and 1 read; 16 left by a write.
        let one = (4 * 8192 + 100, 4 * 8192 + 600);
        assert_eq!((s.reads(4, 4, one).at(4), s.leaves(4, 4, one).at(4)), (2, 16));
    }
}
