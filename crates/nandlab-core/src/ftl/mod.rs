//! Flash translation layer: page-level mapping, allocation, garbage collection, static wear
//! leveling and TRIM. Mapping changes happen at once when a request is dispatched; the time
//! the resulting flash work takes is charged by the back end from the [`BgOp`]s returned.
//!
//! `Ftl`'s methods live in units named as MQSim's: `address_mapping.rs` (logical to
//! physical, reads, metadata, TRIM), `host_placement.rs` (where a host page goes),
//! `block_manager.rs` (free pools, opening blocks, programs, the candidate view GC, wear
//! leveling and refresh choose from), `gc.rs` (the GC / WL unit: triggers, victims, page
//! moves and erases) and `refresh_unit.rs`; the policies they call are in the folders.

mod address_mapping;
pub mod aging;
pub mod allocator;
mod block_manager;
pub mod cause;
pub mod config;
pub mod critical;
mod gc;
mod host_placement;
pub mod mapping;
pub mod mapping_cache;
pub mod move_path;
pub mod oob;
pub mod placement;
pub mod plane_view;
pub mod precondition;
pub mod refresh;
pub mod refresh_targets;
mod refresh_unit;
pub mod relocation;
pub mod retire;
pub mod victim;
pub mod wear;

use crate::error::{NandError, Result};
use crate::flash::block::{BlockState, BlockStatus, PageMeta, WriteAttrs};
use crate::flash::cell::PageType;
use crate::flash::BuildCtx;
use crate::flash::{Geometry, Ppa};
use aging::AgingConfig;
use allocator::{PlaneAlloc, Striper};
pub use cause::Cause;
pub use config::FtlConfig;
pub use critical::{CriticalConfig, CriticalSource};
use mapping::Mapping;
pub use move_path::{MovePath, MovedPage};
use oob::OobStore;
use placement::ReadHeat;
use plane_view::PlaneView;
use refresh::RefreshTrigger;
use refresh_targets::{ReadWindow, TargetBlock};
use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::collections::VecDeque;
use victim::VictimPolicy;
use wear::WearLeveler;

/// Flash work the FTL does on its own (GC, wear leveling, read refresh), to be timed by
/// the back end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BgOp {
    /// A valid page read from `from` and programmed at `to`, for `cause`, by `path`.
    Move {
        /// Where the page was.
        from: Ppa,
        /// Where it went.
        to: Ppa,
        /// Why it moved.
        cause: Cause,
        /// How it travelled.
        path: MovePath,
        /// Its state where it was (for judging a read through the controller).
        page: MovedPage,
    },
    /// Erase of a block emptied for `cause`.
    Erase {
        /// The block.
        block: u32,
        /// Why it was emptied.
        cause: Cause,
    },
}

/// A page a host read senses: where it is and its block's reads since erase, this one
/// included (read disturb).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SensedPage {
    /// The page.
    pub ppa: Ppa,
    /// Its block's plane (worked out anyway to count the read: the caller need not divide
    /// again).
    pub plane: u32,
    /// Reads of its block since erase, this one included.
    pub reads: u32,
}

/// Where the next host page will go: what a host-queue scheduler may see of placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextWrite {
    /// Plane the next host page goes to.
    pub plane: u32,
    /// Page type (0 = LSB … MSB) of the next free page of the block it goes to.
    pub page_type: PageType,
    /// Whether placement takes that page for the write (else it skips to one it takes).
    pub accepted: bool,
}

/// Counters the FTL keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FtlStats {
    /// Pages programmed for the host.
    pub host_programs: u64,
    /// Pages moved by GC.
    pub gc_page_moves: u64,
    /// Blocks erased by GC.
    pub gc_erases: u64,
    /// Pages moved by static wear leveling.
    pub wl_page_moves: u64,
    /// Blocks erased by static wear leveling.
    pub wl_erases: u64,
    /// Pages moved by read refresh.
    pub refresh_page_moves: u64,
    /// Blocks erased by read refresh.
    pub refresh_erases: u64,
    /// Pages placement left unprogrammed because it refused their page type.
    pub skipped_pages: u64,
    /// Host page reads that hit no data (never written or trimmed).
    pub unmapped_reads: u64,
    /// Logical pages trimmed.
    pub trimmed_pages: u64,
    /// Backup copies programmed for host pages (placement's `backup_plane`).
    pub backup_programs: u64,
    /// Hot pages moved off chips placement refuses them ([`Ftl::move_if_hot`]).
    pub hot_page_moves: u64,
    /// With read refresh on: host page reads sensed, and the sums over them of their
    /// block's P/E and reads since erase (the read included): what a read-refresh policy
    /// leaves the reads to see (seed 003's DR against Baseline per workload).
    pub sensed_reads: u64,
    pub sensed_pe_sum: u64,
    pub sensed_block_reads_sum: u64,
}

/// The page-level FTL.
pub struct Ftl {
    geo: Geometry,
    cfg: FtlConfig,
    /// Every block of the device.
    pub blocks: Vec<BlockState>,
    /// Reads since erase of every block (read disturb), apart from `blocks` because the
    /// read path touches it for every page. Indexed stripe-slot-fastest (see
    /// [`Ftl::read_slot`]): consecutive logical pages sit in consecutive stripe slots, so a
    /// large read touches one cache line instead of one page of memory per plane.
    block_reads: Vec<u32>,
    /// Per-page metadata (OOB) of every block programmed during the run.
    page_meta: OobStore,
    /// Program time of the preconditioned data (ns; negative: before the run).
    preconditioned_ns: i64,
    /// Which preconditioned pages are critical: the classifier of host writes
    /// ([`Ftl::classify_fill`]), so a filled page carries the attributes a host write of it
    /// would.
    fill_critical: CriticalConfig,
    /// Logical-to-physical map.
    pub mapping: Mapping,
    /// Physical page of each logical page's backup copy, for a placement that keeps them
    /// (few pages: critical ones).
    backups: FxHashMap<u64, u64>,
    planes: Vec<PlaneAlloc>,
    striper: Striper,
    /// Plane of each host page by address, when placement lays them out so
    /// ([`placement::Placement::host_layout`]): logical page `l` on `layout[l mod planes]`.
    host_layout: Option<Vec<u32>>,
    logical_pages: u64,
    /// The refresh trigger's instance (`[ftl.refresh]`, built with the FTL).
    refresh: Box<dyn RefreshTrigger>,
    /// Reads since erase from which the refresh trigger is asked (`u32::MAX`: never).
    refresh_min_reads: u32,
    /// Blocks the refresh trigger named, refreshed by [`Ftl::refresh_due`].
    refresh_pending: Vec<u32>,
    /// Open blocks of each plane a spreading refresh-target policy fills.
    refresh_dests: Vec<Vec<u32>>,
    /// Pages' recent reads, when the placement or the refresh-target policy predicts from
    /// them (one window: their lengths must agree).
    read_window: Option<ReadWindow>,
    /// Whether placement places by read heat (cached: asked for every page).
    places_by_heat: bool,
    /// Whether placement may refuse a page type ([`Placement::may_refuse`], cached).
    may_refuse: bool,
    /// Whether placement keeps backup copies ([`Placement::backs_up`], cached).
    backs_up: bool,
    /// Reads in the window from which placement takes a host page for hot
    /// ([`Placement::takes_chip`]).
    hot_reads: Option<u32>,
    /// A block being emptied: its valid pages not yet moved and where each was (scratch
    /// kept between relocations).
    moving: VecDeque<PageMeta>,
    moving_from: VecDeque<u32>,
    /// GC pacing (`gc.rs`): the free pool at or below which GC collects until the pool is
    /// above the threshold again; above it, and at or below the threshold, one victim per
    /// trigger. The threshold itself unless GC is preemptible.
    gc_floor_blocks: u32,
    /// The last write ran GC to the threshold from the floor (urgent GC).
    urgent_gc: bool,
    /// The GC victim policy's instance for each plane (`[ftl.gc]`, built with the FTL).
    victims: Vec<Box<dyn VictimPolicy>>,
    /// The wear-leveling policy's instance for each plane (`[ftl.wear_leveling]`).
    levelers: Vec<Box<dyn WearLeveler>>,
    /// [`Ftl::min_free_blocks`] since a free pool last changed (`None`: to be recounted);
    /// the timeline asks at every window's close and a scan visits every plane.
    min_free: Cell<Option<u64>>,
    /// Counters.
    pub stats: FtlStats,
}

impl Ftl {
    /// Builds the FTL and preconditions the device as `aging` says.
    pub fn new(geo: &Geometry, cfg: &FtlConfig, aging: &AgingConfig, seed: u64) -> Result<Self> {
        let mut cfg = cfg.clone();
        cfg.resolve_old_keys()?;
        let order = cfg.validate(geo.cfg.blocks_per_plane)?;
        aging.validate()?;
        let logical_pages = (geo.pages as f64 * (1.0 - cfg.overprovisioning)).floor() as u64;
        if logical_pages == 0 {
            return Err(NandError::config("ftl.overprovisioning", "leaves no logical space"));
        }
        let d = &geo.cfg;
        let striper = Striper::new(
            [d.channels, d.chips_per_channel, d.dies_per_chip, d.planes_per_die],
            order,
        );
        let backs_up = cfg.placement.policy().backs_up();
        if backs_up && geo.planes < 2 {
            return Err(NandError::config(
                "ftl.placement.policy",
                "keeps a backup copy on another plane, but the device has one plane",
            ));
        }
        let host_layout = cfg.placement.policy().host_layout(&striper.slot_planes(), geo)?;
        let refresh = cfg.refresh.build(&BuildCtx {
            table: "ftl.refresh",
            seed,
            plane: None,
            geometry: geo,
        });
        let refresh_min_reads = refresh.min_reads().unwrap_or(u32::MAX);
        let heat_window = cfg.placement.policy().window_requests();
        let hot_reads = cfg.placement.policy().hot_reads();
        let places_by_heat = cfg.placement.policy().places_by_heat();
        let may_refuse = cfg.placement.policy().may_refuse();
        let read_window = heat_window
            .or(cfg.refresh_targets.policy().window_requests())
            .map(ReadWindow::new);
        let ctx = |table, plane| BuildCtx {
            table,
            seed,
            plane: Some(plane),
            geometry: geo,
        };
        let victims = (0..geo.planes).map(|p| cfg.gc.build(&ctx("ftl.gc", p))).collect();
        let levelers = (0..geo.planes)
            .map(|p| cfg.wear_leveling.build(&ctx("ftl.wear_leveling", p)))
            .collect();
        let mut ftl = Ftl {
            geo: geo.clone(),
            gc_floor_blocks: cfg.gc_threshold_blocks,
            urgent_gc: false,
            min_free: Cell::new(None),
            cfg,
            blocks: Vec::new(),
            block_reads: vec![0; geo.blocks as usize],
            page_meta: OobStore::new(geo.blocks, d.pages_per_block),
            preconditioned_ns: 0,
            fill_critical: CriticalConfig::default(),
            mapping: Mapping::new(0, 0, (0..geo.planes).collect(), d.pages_per_block, d.blocks_per_plane),
            backups: FxHashMap::default(),
            planes: vec![PlaneAlloc::default(); geo.planes as usize],
            striper,
            host_layout,
            logical_pages,
            refresh,
            refresh_min_reads,
            refresh_pending: Vec::new(),
            refresh_dests: vec![Vec::new(); geo.planes as usize],
            read_window,
            places_by_heat,
            may_refuse,
            backs_up,
            hot_reads,
            moving: VecDeque::new(),
            moving_from: VecDeque::new(),
            victims,
            levelers,
            stats: FtlStats::default(),
        };
        precondition::apply(&mut ftl, aging, seed)?;
        Ok(ftl)
    }

    /// Marks the preconditioned pages that `critical` (the host writes' classifier) names
    /// critical and lays them out as placement would have written them: swapped onto page
    /// types placement takes for critical pages, with a backup copy where placement keeps
    /// one (see `precondition::classify`). Called once, before the run writes.
    pub fn classify_fill(&mut self, critical: &CriticalConfig) -> Result<()> {
        precondition::classify(self, critical)
    }

    /// Logical pages the host can address.
    pub fn logical_pages(&self) -> u64 {
        self.logical_pages
    }

    /// Free blocks of the plane that has fewest (the timeline's `free_blocks_min`).
    pub fn min_free_blocks(&self) -> u64 {
        let count = || self.planes.iter().map(|p| p.free.len() as u64).min().unwrap_or(0);
        let min = self.min_free.get().unwrap_or_else(count);
        debug_assert_eq!(min, count(), "a free pool changed without resetting min_free");
        self.min_free.set(Some(min));
        min
    }

    /// The planes a run of consecutive writes visits, in the striping order.
    pub fn stripe_planes(&self) -> Vec<u32> {
        (0..u64::from(self.geo.planes))
            .map(|k| self.striper.plane_at(k))
            .collect()
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// Counts a host request (the refresh-target policy's prediction window is counted
    /// in requests).
    #[inline]
    pub fn host_request(&mut self) {
        if let Some(w) = self.read_window.as_mut() {
            w.record_request();
        }
    }

    /// The FTL's counters.
    pub fn stats(&self) -> &FtlStats {
        &self.stats
    }

    /// Checks the mapping invariants: every live logical page maps to its own physical page
    /// whose OOB names it, and so does every backup copy, on another plane than its live
    /// primary; each block's valid count is the number of its pages whose owner maps to
    /// them.
    pub fn check_invariants(&self) -> std::result::Result<(), String> {
        let mut claimed = rustc_hash::FxHashSet::default();
        for (lpn, ppn) in self.mapping.live() {
            let ppa = self.ppa(ppn);
            if !claimed.insert(ppn) {
                return Err(format!("page {ppa:?} is claimed by two logical pages"));
            }
            match self.page_meta(ppa) {
                Some(m) if m.lpn == lpn && !m.attrs.backup() => {}
                other => return Err(format!("lpn {lpn} maps to {ppa:?} whose OOB says {other:?}")),
            }
        }
        let counted = self.planes.iter().map(|p| p.free.len() as u64).min().unwrap_or(0);
        if self.min_free.get().is_some_and(|m| m != counted) {
            return Err(format!("min_free says {:?}, the pools {counted}", self.min_free.get()));
        }
        for (&lpn, &ppn) in &self.backups {
            let ppa = self.ppa(ppn);
            if !claimed.insert(ppn) {
                return Err(format!("backup {ppa:?} of lpn {lpn} is claimed twice"));
            }
            match (self.page_meta(ppa), self.mapping.get(lpn)) {
                (Some(m), Some(primary)) if m.lpn == lpn && m.attrs.backup() => {
                    let plane = |p: u64| self.geo.split_block(self.ppa(p).block).0;
                    if plane(primary) == plane(ppn) {
                        return Err(format!("lpn {lpn}: backup {ppa:?} is on its primary's plane"));
                    }
                }
                other => return Err(format!("backup of lpn {lpn} at {ppa:?}: OOB and primary {other:?}")),
            }
        }
        for block in 0..self.geo.blocks {
            let b = &self.blocks[block as usize];
            let valid = (0..u32::from(b.written))
                .filter(|&page| self.is_valid(Ppa { block, page }))
                .count();
            if valid != usize::from(b.valid) {
                return Err(format!("block {block} counts {} valid pages, holds {valid}", b.valid));
            }
        }
        Ok(())
    }
}
