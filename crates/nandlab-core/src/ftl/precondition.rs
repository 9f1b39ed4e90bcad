//! Fast preconditioning: sets every block's initial wear and fills the first
//! `fill_fraction` of the logical space at the layout [`Mapping`](super::mapping::Mapping)
//! computes, without simulating a single write and without per-page state.

use super::aging::{AgingConfig, Distribution};
use super::mapping::Mapping;
use super::Ftl;
use crate::engine::memory::with_huge_pages;
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
    let constant_pe = match aging.initial_pe {
        Distribution::Constant(pe) => Some(pe.round() as u32),
        _ => None,
    };
    let initial_pe = |b: u32| {
        constant_pe.unwrap_or_else(|| aging.initial_pe.quantile(hash_unit(pe_seed, u64::from(b))).round() as u32)
    };
    let fill_pages = (ftl.logical_pages as f64 * aging.fill_fraction).floor() as u64;
    // The fill is laid out as the configured striping would have written it in logical
    // order (lpn l goes to stripe slot l mod planes), or by placement's address layout.
    let slot_plane: Vec<u32> = match &ftl.host_layout {
        Some(layout) => layout.clone(),
        None => ftl.striper.slot_planes(),
    };
    // Logical pages stripe slot `k` holds.
    let held = |k: u64| {
        if fill_pages > k {
            (fill_pages - k - 1) / u64::from(planes) + 1
        } else {
            0
        }
    };
    // (logical pages held, blocks they fill) per plane.
    let mut fill = vec![(0u64, 0u32); planes as usize];
    for (k, &p) in slot_plane.iter().enumerate() {
        let h = held(k as u64);
        fill[p as usize] = (h, h.div_ceil(u64::from(ppb)) as u32);
    }
    for &(_, used) in &fill {
        let free = bpp - used;
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
    }
    // One pass over the blocks, plane by plane (the device may have millions).
    let mut blocks = with_huge_pages(ftl.geo.blocks as usize);
    for (plane, &(held, used)) in fill.iter().enumerate() {
        let first_block = plane as u32 * bpp;
        for i in 0..bpp {
            let mut st = BlockState::new_free(initial_pe(first_block + i));
            if i < used {
                let start = u64::from(i) * u64::from(ppb);
                st.valid = (held - start).min(u64::from(ppb)) as u16;
                st.written = ppb as u16;
                st.status = BlockStatus::Full;
                st.implicit = true;
            }
            blocks.push(st);
        }
    }
    ftl.blocks = blocks;
    for (plane, &(_, used)) in fill.iter().enumerate() {
        let first_block = plane as u32 * bpp;
        ftl.planes[plane].free = (used..bpp)
            .map(|i| Reverse((ftl.blocks[(first_block + i) as usize].pe, first_block + i)))
            .collect();
    }
    ftl.mapping = Mapping::new(ftl.logical_pages, fill_pages, slot_plane, ppb, bpp);
    ftl.preconditioned_ns = -(aging.retention_days * NS_PER_DAY) as i64;
    Ok(())
}
