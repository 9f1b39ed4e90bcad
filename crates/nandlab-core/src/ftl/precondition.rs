//! Fast preconditioning: sets every block's initial wear and fills the first
//! `fill_fraction` of the logical space at the layout [`Mapping`](super::mapping::Mapping)
//! computes, without simulating a single write and without per-page state. Its critical
//! pages (the host writes' classifier) are then laid out as placement would have written
//! them ([`classify`]), at a cost in memory proportional to those pages.

use super::aging::{AgingConfig, Distribution};
use super::mapping::Mapping;
use super::CriticalConfig;
use super::{Cause, Ftl};
use crate::engine::memory::with_huge_pages;
use crate::engine::rng::{component, hash_unit, mix64};
use crate::error::{NandError, Result};
use crate::flash::block::{BlockState, BlockStatus, PageMeta, WriteAttrs};
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
    if let Distribution::PerBlock(v) = &aging.initial_pe {
        if v.len() != ftl.geo.blocks as usize {
            return Err(NandError::config(
                "aging.initial_pe",
                format!(
                    "lists {} blocks' P/E cycles; the device has {}",
                    v.len(),
                    ftl.geo.blocks
                ),
            ));
        }
    }
    let initial_pe = |b: u32| match (&aging.initial_pe, constant_pe) {
        (Distribution::PerBlock(v), _) => v[b as usize].round() as u32,
        (_, Some(pe)) => pe,
        (d, None) => d.quantile(hash_unit(pe_seed, u64::from(b))).round() as u32,
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
    for (plane, &(_, used)) in fill.iter().enumerate() {
        // Worn blocks the fill leaves empty are retired before the run (ftl/retire.rs).
        let first_block = plane as u32 * bpp;
        let worn = (used..bpp)
            .filter(|&i| ftl.worn_out(initial_pe(first_block + i)))
            .count() as u32;
        let free = bpp - used - worn;
        if worn > 0 && (free < ftl.cfg.gc_threshold_blocks + 2 || ftl.spare_blocks(bpp - worn) < 0) {
            return Err(ftl.drive_failed(plane as u32, bpp - worn));
        }
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
            if i >= used && ftl.worn_out(st.pe) {
                st.status = BlockStatus::Retired;
            } else if i < used {
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
            .filter(|&i| ftl.blocks[(first_block + i) as usize].status == BlockStatus::Free)
            .map(|i| Reverse((ftl.blocks[(first_block + i) as usize].pe, first_block + i)))
            .collect();
    }
    ftl.min_free.set(None);
    ftl.mapping = Mapping::new(ftl.logical_pages, fill_pages, slot_plane, ppb, bpp);
    ftl.preconditioned_ns = -(aging.retention_days * NS_PER_DAY) as i64;
    Ok(())
}

/// Marks the fill's pages that `critical` names critical (their metadata then carries the
/// flag, through GC too) and lays them out as placement would have written them. The
/// device's file system was laid down through the same FTL the run uses (seed 004 replays
/// file-system traces on a formatted device), so:
/// - a placement that refuses a page type for critical pages (`msb_critical`) finds them
///   on pages it takes: each critical page whose home page it refuses trades homes with
///   the next non-critical filled page of its plane (from the plane's first page) whose
///   page type it takes — with the default range at LPN 0 that is the layout Algorithm
///   1's request feedback gives writes in logical order: critical pages on MSB pages, the
///   LSB pages between holding the next non-critical pages;
/// - a placement that keeps backup copies (`meta_cure`) finds one for each critical
///   filled page, programmed before the run on the plane it names (not counted among the
///   run's programs).
pub(super) fn classify(ftl: &mut Ftl, critical: &CriticalConfig) -> Result<()> {
    ftl.fill_critical = critical.clone();
    let fill = ftl.mapping.fill_pages;
    let mut pages: Vec<u64> = critical
        .lpn_ranges
        .iter()
        .flat_map(|&[first, last]| first..=last.min(fill.saturating_sub(1)))
        .filter(|&l| l < fill)
        .collect();
    pages.sort_unstable();
    pages.dedup();
    let policy = ftl.cfg.placement.policy();
    let (crit, plain) = (WriteAttrs::new(0, true), WriteAttrs::new(0, false));
    let msb = ftl.msb_type();
    let ppb = u64::from(ftl.geo.cfg.pages_per_block);
    let planes = ftl.geo.planes;
    if policy.may_refuse() {
        let home = |l: u64| {
            let ppa = ftl.geo.ppa_of(ftl.mapping.home_ppn(l));
            (ftl.geo.split_block(ppa.block).0, ftl.geo.page_map.page_type(ppa.page))
        };
        let mut refused: Vec<Vec<u64>> = vec![Vec::new(); planes as usize];
        for &l in &pages {
            let (plane, page_type) = home(l);
            if !policy.accepts(Cause::Host, crit, page_type, msb) {
                refused[plane as usize].push(l);
            }
        }
        let mut swaps = Vec::new();
        for (plane, waiting) in refused.iter().enumerate() {
            let slot = u64::from(ftl.mapping.slot_of_plane(plane as u32));
            let mut waiting = waiting.iter().peekable();
            let mut position = 0u64;
            while let Some(&&l) = waiting.peek() {
                let partner = position * u64::from(planes) + slot;
                if partner >= fill {
                    return Err(NandError::config(
                        "host.critical.lpn_ranges",
                        format!(
                            "placement keeps critical pages off some page types, and plane {plane}'s preconditioned \
                             pages hold too few others to trade homes with (lower aging.fill_fraction or the ranges)"
                        ),
                    ));
                }
                let partner_type = ftl.geo.page_map.page_type((position % ppb) as u32);
                if !critical.contains(partner)
                    && policy.accepts(Cause::Host, crit, partner_type, msb)
                    && policy.accepts(Cause::Host, plain, home(l).1, msb)
                {
                    swaps.push((l, partner));
                    waiting.next();
                }
                position += 1;
            }
        }
        for (l, partner) in swaps {
            ftl.mapping.swap_homes(l, partner);
        }
    }
    if !policy.backs_up() {
        return Ok(());
    }
    let backups: Vec<(u64, u32)> = pages
        .iter()
        .filter_map(|&l| {
            let primary = ftl.mapping.get(l).expect("a filled page is mapped");
            let plane = ftl.geo.split_block(ftl.geo.ppa_of(primary).block).0;
            policy.backup_plane(crit, plane, planes).map(|to| (l, to))
        })
        .collect();
    for (lpn, to) in backups {
        let meta = PageMeta {
            lpn,
            tag: 0,
            program_ns: ftl.preconditioned_ns,
            oob_tags: 0,
            attrs: crit.as_backup(),
        };
        ftl.place(to, Cause::Host, meta, None)?;
    }
    // The copies take free blocks the fill's check counted on for GC.
    for (plane, alloc) in ftl.planes.iter().enumerate() {
        let need = ftl.cfg.gc_threshold_blocks as usize + 2;
        if alloc.free.len() < need {
            return Err(NandError::config(
                "aging.fill_fraction",
                format!(
                    "the backup copies of the fill's critical pages leave {} free blocks in plane {plane}; GC needs \
                     at least {need} (raise ftl.overprovisioning or lower the fill)",
                    alloc.free.len()
                ),
            ));
        }
    }
    Ok(())
}
