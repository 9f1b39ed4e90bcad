//! Fast preconditioning: sets every block's initial wear and fills the first
//! `fill_fraction` of the logical space at the layout [`Mapping`](super::mapping::Mapping)
//! computes, without simulating a single write and without per-page state.

use super::mapping::Mapping;
use super::Ftl;
use crate::config::{AgingConfig, Distribution};
use crate::engine::rng::{component, hash_unit, mix64};
use crate::error::{NandError, Result};
use crate::flash::block::{BlockState, BlockStatus};
use std::cmp::Reverse;

const NS_PER_DAY: f64 = 86_400e9;

/// Applies `aging` to a freshly built FTL.
pub(super) fn apply(ftl: &mut Ftl, aging: &AgingConfig, seed: u64) -> Result<()> {
    let g = &ftl.geo.cfg;
    let (ppb, bpp, planes) = (g.pages_per_block, g.blocks_per_plane, ftl.geo.planes);
    let pe_seed = mix64(seed ^ component::AGING);
    ftl.blocks = match aging.initial_pe {
        Distribution::Constant(pe) => vec![BlockState::new_free(pe.round() as u32); ftl.geo.blocks as usize],
        ref dist => (0..ftl.geo.blocks)
            .map(|b| BlockState::new_free(dist.quantile(hash_unit(pe_seed, u64::from(b))).round() as u32))
            .collect(),
    };

    let fill_pages = (ftl.logical_pages as f64 * aging.fill_fraction).floor() as u64;
    ftl.mapping = Mapping::new(ftl.logical_pages, fill_pages, planes, ppb, bpp);
    ftl.preconditioned_ns = -(aging.retention_days * NS_PER_DAY) as i64;
    for plane in 0..planes {
        let p = u64::from(plane);
        let n = if fill_pages > p {
            (fill_pages - p - 1) / u64::from(planes) + 1
        } else {
            0
        };
        let first_block = plane * bpp;
        let used_blocks = n.div_ceil(u64::from(ppb)) as u32;
        for i in 0..used_blocks {
            let st = &mut ftl.blocks[(first_block + i) as usize];
            let start = u64::from(i) * u64::from(ppb);
            st.valid = (n - start).min(u64::from(ppb)) as u16;
            st.written = ppb as u16;
            st.status = BlockStatus::Full;
            st.implicit = true;
        }
        let free = bpp - used_blocks;
        if free < ftl.cfg.gc_threshold_blocks + 2 {
            return Err(NandError::config(
                "aging.fill_fraction",
                format!(
                    "filling {:.0}% of the logical space leaves {free} free blocks per plane; GC needs at least {} \
                     (raise ftl.overprovisioning or lower the fill)",
                    aging.fill_fraction * 100.0,
                    ftl.cfg.gc_threshold_blocks + 2
                ),
            ));
        }
        let pa = &mut ftl.planes[plane as usize];
        pa.free = (used_blocks..bpp)
            .map(|i| Reverse((ftl.blocks[(first_block + i) as usize].pe, first_block + i)))
            .collect();
    }
    Ok(())
}
