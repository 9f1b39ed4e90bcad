//! Shared-page map: for each page index of a block, its page type (LSB/CSB/MSB) and the
//! wordline it shares with the other pages of the same cells.
//!
//! Page type 0 is the lower page, programmed first on its wordline (every map, built in or
//! explicit, programs a wordline's pages lowest type first); the `vth` model senses it with
//! a single reference (`reliability::vth`, "page type t reads pattern bit bits − 1 − t").
//!
//! Three standard orders are built in, and any explicit table may be given:
//! - `sequential`: wordline w holds pages `w*b .. w*b+b-1`, LSB first (b = bits per cell);
//! - `interleaved` ("shadow" programming, the usual MLC/TLC order that limits cell-to-cell
//!   interference): the lower page of wordline w+1 is programmed before the upper page of
//!   wordline w. For MLC the order is L0 L1 M0 L2 M1 L3 M2 ... M(n-1), for TLC
//!   L0 L1 C0 L2 C1 M0 L3 C2 M1 ... (each page type trails the one below it by one wordline);
//! - `interleaved-pairs`: the same shadow order taken two wordlines at a time (the even and
//!   odd pages of one physical wordline), the shared-page order of Micron MLC parts: for MLC
//!   L0 L1 L2 L3 M0 M1 L4 L5 M2 M3 ..., i.e. pages 0/4, 1/5, 2/8, 3/9, 6/12, 7/13, ...
//!   share cells. Seed 004 Fig. 6–7 (Micron 29F64GCBAAA: pages 0–3 LSB, page 4 the first
//!   MSB page, paired with page 0) and seed 002 Table 1 (pairs 10/16, 26/32, 42/48, 58/64).

use super::cell::{CellType, PageType};
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// How the page map is given in a config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PageMapSpec {
    /// A built-in order by name: `sequential` or `interleaved`.
    Named(String),
    /// An explicit table, one entry per page of a block.
    Explicit {
        /// Page type of each page (0 = LSB, the lower page ... bits-1 = MSB); on each
        /// wordline the types must come in order, type 0 first.
        types: Vec<PageType>,
        /// Wordline of each page.
        wordlines: Vec<u32>,
    },
}

impl Default for PageMapSpec {
    fn default() -> Self {
        PageMapSpec::Named("interleaved".into())
    }
}

/// Resolved page map of one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageMap {
    types: Vec<PageType>,
    wordlines: Vec<u32>,
}

impl PageMap {
    /// Builds the map for `pages_per_block` pages of `cell` cells.
    pub fn build(spec: &PageMapSpec, cell: CellType, pages_per_block: u32) -> Result<Self> {
        let bits = cell.bits() as u32;
        let key = "device.page_map";
        if !pages_per_block.is_multiple_of(bits) {
            return Err(NandError::config(
                "device.pages_per_block",
                format!("{pages_per_block} is not a multiple of {bits} bits per cell"),
            ));
        }
        let n_wl = pages_per_block / bits;
        let (types, wordlines) = match spec {
            PageMapSpec::Named(name) if name == "sequential" => {
                (0..pages_per_block).map(|p| ((p % bits) as PageType, p / bits)).unzip()
            }
            PageMapSpec::Named(name) if name == "interleaved" => shadow_order(bits, n_wl, 1),
            PageMapSpec::Named(name) if name == "interleaved-pairs" => {
                if !n_wl.is_multiple_of(2) {
                    return Err(NandError::config(
                        key,
                        format!("`interleaved-pairs` needs an even number of wordlines, not {n_wl}"),
                    ));
                }
                shadow_order(bits, n_wl, 2)
            }
            PageMapSpec::Named(other) => {
                return Err(NandError::config(
                    key,
                    format!("unknown page map `{other}` (sequential | interleaved | interleaved-pairs | a table)"),
                ))
            }
            PageMapSpec::Explicit { types, wordlines } => {
                if types.len() != pages_per_block as usize || wordlines.len() != types.len() {
                    return Err(NandError::config(
                        key,
                        format!(
                            "tables must have one entry per page ({pages_per_block}); got {} types and {} wordlines",
                            types.len(),
                            wordlines.len()
                        ),
                    ));
                }
                let mut seen = vec![0u32; n_wl as usize];
                for (page, (&t, &w)) in types.iter().zip(wordlines).enumerate() {
                    if u32::from(t) >= bits || w >= n_wl {
                        return Err(NandError::config(
                            key,
                            format!("entry (type {t}, wordline {w}) is outside {bits} bits x {n_wl} wordlines"),
                        ));
                    }
                    if seen[w as usize] >> t != 0 {
                        return Err(NandError::config(
                            key,
                            format!(
                                "page {page} (type {t}) comes after a page of type {t} or above on wordline {w}: \
                                 a wordline's pages are programmed lowest type first (type 0 = the lower page)"
                            ),
                        ));
                    }
                    seen[w as usize] |= 1 << t;
                }
                if seen.iter().any(|&m| m != (1 << bits) - 1) {
                    return Err(NandError::config(
                        key,
                        "every wordline must hold exactly one page of each type",
                    ));
                }
                (types.clone(), wordlines.clone())
            }
        };
        Ok(PageMap { types, wordlines })
    }

    /// Page type of page `page` of a block.
    #[inline]
    pub fn page_type(&self, page: u32) -> PageType {
        self.types[page as usize]
    }

    /// Wordline of page `page` of a block.
    #[inline]
    pub fn wordline(&self, page: u32) -> u32 {
        self.wordlines[page as usize]
    }

    /// Pages of a block that share the wordline of `page` (including `page`), by type.
    pub fn shared_pages(&self, page: u32) -> Vec<u32> {
        let w = self.wordline(page);
        let mut pages: Vec<u32> = (0..self.types.len() as u32)
            .filter(|&p| self.wordlines[p as usize] == w)
            .collect();
        pages.sort_by_key(|&p| self.types[p as usize]);
        pages
    }
}

/// Shadow order over groups of `group` wordlines: page type t of wordline w is programmed
/// at "slot" w / group + t; slots are filled lowest type first, then by wordline.
fn shadow_order(bits: u32, n_wl: u32, group: u32) -> (Vec<PageType>, Vec<u32>) {
    let mut order: Vec<(u32, u32, u32)> = Vec::with_capacity((bits * n_wl) as usize);
    for w in 0..n_wl {
        for t in 0..bits {
            order.push((w / group + t, t, w));
        }
    }
    order.sort_unstable();
    order.into_iter().map(|(_, t, w)| (t as PageType, w)).unzip()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mlc_interleaved_is_shadow_order() {
        let m = PageMap::build(&PageMapSpec::default(), CellType::Mlc, 8).unwrap();
        // L0 L1 M0 L2 M1 L3 M2 M3
        let expect = [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (0, 3), (1, 2), (1, 3)];
        for (p, &(t, w)) in expect.iter().enumerate() {
            assert_eq!((m.page_type(p as u32), m.wordline(p as u32)), (t, w), "page {p}");
        }
        assert_eq!(m.shared_pages(4), vec![1, 4]);
    }

    /// Seed 004 Fig. 6–7: PPN 0–3 are LSB pages, PPN 4 the first MSB page and it shares
    /// its cells with PPN 0; Micron's pairs 0/4, 1/5, 2/8, 3/9, 6/12, 7/13; seed 002
    /// Table 1's pairs 10/16, 26/32, 42/48, 58/64; the last pairs 250/254, 251/255.
    #[test]
    fn mlc_interleaved_pairs_is_the_micron_order() {
        let m = PageMap::build(&PageMapSpec::Named("interleaved-pairs".into()), CellType::Mlc, 256).unwrap();
        assert!((0..4).all(|p| m.page_type(p) == 0));
        assert_eq!(m.page_type(4), 1);
        for (lsb, msb) in [
            (0, 4),
            (1, 5),
            (2, 8),
            (3, 9),
            (6, 12),
            (7, 13),
            (10, 16),
            (26, 32),
            (42, 48),
            (58, 64),
            (250, 254),
            (251, 255),
        ] {
            assert_eq!(m.shared_pages(lsb), vec![lsb, msb], "pair {lsb}/{msb}");
        }
        assert_eq!((0..256).filter(|&p| m.page_type(p) == 1).count(), 128);
        assert!(PageMap::build(&PageMapSpec::Named("interleaved-pairs".into()), CellType::Mlc, 6).is_err());
    }

    #[test]
    fn tlc_sequential_and_bad_tables() {
        let m = PageMap::build(&PageMapSpec::Named("sequential".into()), CellType::Tlc, 6).unwrap();
        assert_eq!(m.page_type(4), 1);
        assert_eq!(m.wordline(4), 1);
        assert!(PageMap::build(&PageMapSpec::Named("zigzag".into()), CellType::Mlc, 4).is_err());
        let bad = PageMapSpec::Explicit {
            types: vec![0, 0, 1, 1],
            wordlines: vec![0, 0, 1, 1],
        };
        assert!(PageMap::build(&bad, CellType::Mlc, 4).is_err());
        // Each wordline holds one page of each type, but wordline 1's upper page comes
        // before its lower page.
        let upper_first = PageMapSpec::Explicit {
            types: vec![0, 1, 1, 0],
            wordlines: vec![0, 0, 1, 1],
        };
        let e = PageMap::build(&upper_first, CellType::Mlc, 4).unwrap_err().to_string();
        assert!(e.contains("device.page_map") && e.contains("page 3"), "{e}");
        assert!(PageMap::build(&PageMapSpec::default(), CellType::Tlc, 8).is_err());
    }
}
