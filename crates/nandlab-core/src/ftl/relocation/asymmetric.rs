//! Seed 004's asymmetric GC (Algorithm 2, Fig. 8): the victim's valid pages wait in a buffer;
//! an LSB destination page takes the first non-critical page, any other takes the first
//! critical page, and a non-critical one when no critical page is left. With only critical
//! pages waiting for an LSB page, the first critical page is offered and `msb_critical`
//! placement refuses it, leaving that LSB page empty (Algorithm 2's "do nothing"). Exact
//! for MLC, the paper's device; on TLC the CSB pages count with the MSB pages here.

use super::RelocationOrder;
use crate::flash::block::PageMeta;
use crate::flash::cell::PageType;
use serde::{Deserialize, Serialize};

/// Non-critical pages to LSB pages, critical pages first to the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asymmetric {}

impl RelocationOrder for Asymmetric {
    fn pick(&self, waiting: &[PageMeta], dest: PageType) -> usize {
        let want_critical = dest != 0;
        waiting
            .iter()
            .position(|m| m.attrs.critical() == want_critical)
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::block::WriteAttrs;

    fn page(lpn: u64, critical: bool) -> PageMeta {
        PageMeta {
            lpn,
            tag: 0,
            program_ns: 0,
            oob_tags: 0,
            attrs: WriteAttrs::new(0, critical),
        }
    }

    /// Fig. 8: valid pages A, C*, E*, G (C and E critical) into a block whose pages 0, 1
    /// are LSB and 2, 3 MSB: A and G take the LSB pages, C and E the MSB pages.
    #[test]
    fn figure_8_fills_lsb_with_plain_and_msb_with_critical_pages() {
        let o = Asymmetric {};
        let mut buf = vec![page(0, false), page(2, true), page(4, true), page(6, false)];
        let mut placed = Vec::new();
        for dest in [0, 0, 1, 1] {
            let i = o.pick(&buf, dest);
            placed.push((dest, buf.remove(i).lpn));
        }
        assert_eq!(placed, vec![(0, 0), (0, 6), (1, 2), (1, 4)]);
        // No critical page left: an MSB page takes a plain one; no plain page left: an LSB
        // page is offered the first critical one (placement then refuses it).
        assert_eq!(o.pick(&[page(1, false), page(3, false)], 1), 0);
        assert_eq!(o.pick(&[page(1, true), page(3, true)], 0), 0);
    }
}
