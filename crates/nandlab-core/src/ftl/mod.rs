//! Flash translation layer: page-level mapping, allocation, garbage collection, static wear
//! leveling and TRIM. Mapping changes happen at once when a request is dispatched; the time
//! the resulting flash work takes is charged by the back end from the [`BgOp`]s returned.

pub mod aging;
pub mod allocator;
mod block_manager;
pub mod cause;
pub mod config;
pub mod critical;
mod gc;
pub mod mapping;
pub mod mapping_cache;
pub mod move_path;
pub mod oob;
pub mod placement;
pub mod plane_view;
pub mod precondition;
pub mod refresh;
pub mod refresh_targets;
pub mod relocation;
pub mod retire;
pub mod victim;
pub mod wear;

use crate::error::{NandError, Result};
use crate::flash::block::{BlockState, BlockStatus, PageMeta, WriteAttrs};
use crate::flash::cell::PageType;
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
use refresh_targets::{ReadWindow, TargetBlock};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

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
        let refresh_min_reads = cfg.refresh.policy().min_reads().unwrap_or(u32::MAX);
        let heat_window = cfg.placement.policy().window_requests();
        let hot_reads = cfg.placement.policy().hot_reads();
        let places_by_heat = cfg.placement.policy().places_by_heat();
        let may_refuse = cfg.placement.policy().may_refuse();
        let read_window = heat_window
            .or(cfg.refresh_targets.policy().window_requests())
            .map(ReadWindow::new);
        let mut ftl = Ftl {
            geo: geo.clone(),
            gc_floor_blocks: cfg.gc_threshold_blocks,
            urgent_gc: false,
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
        self.planes.iter().map(|p| p.free.len() as u64).min().unwrap_or(0)
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

    #[inline]
    fn ppn(&self, ppa: Ppa) -> u64 {
        u64::from(ppa.block) * u64::from(self.geo.cfg.pages_per_block) + u64::from(ppa.page)
    }

    #[inline]
    fn ppa(&self, ppn: u64) -> Ppa {
        self.geo.ppa_of(ppn)
    }

    /// Position of `block`'s read counter: block-in-plane major, stripe slot minor (the
    /// striping order scatters consecutive slots over the planes' numbers).
    #[inline]
    fn read_slot(&self, block: u32) -> usize {
        let (plane, index) = self.geo.split_block(block);
        self.read_slot_at(plane, index)
    }

    /// [`Ftl::read_slot`] of block `index` of `plane`.
    #[inline]
    fn read_slot_at(&self, plane: u32, index: u32) -> usize {
        (index * self.geo.planes + self.mapping.slot_of_plane(plane)) as usize
    }

    /// Is the physical page valid (its owner still maps to it)?
    pub fn is_valid(&self, ppa: Ppa) -> bool {
        self.live_meta(ppa).is_some()
    }

    /// Metadata of `ppa` if it holds its owner's current data (or its current backup).
    fn live_meta(&self, ppa: Ppa) -> Option<PageMeta> {
        let m = self.page_meta(ppa)?;
        let at = if m.attrs.backup() {
            self.backups.get(&m.lpn).copied()
        } else {
            self.mapping.get(m.lpn)
        };
        (at == Some(self.ppn(ppa))).then_some(m)
    }

    /// Whether `lpn` holds data.
    pub fn is_mapped(&self, lpn: u64) -> bool {
        self.mapping.get(lpn).is_some()
    }

    /// The page a host read of `lpn` senses, its read counted against its block (read
    /// disturb), or `None` if `lpn` holds no data.
    #[inline(always)]
    pub fn read(&mut self, lpn: u64) -> Option<SensedPage> {
        match self.mapping.get(lpn) {
            Some(ppn) => {
                if self.read_window.is_some() {
                    self.record_read(lpn);
                }
                Some(self.sense(ppn))
            }
            None => {
                self.stats.unmapped_reads += 1;
                None
            }
        }
    }

    /// Records a host read in the refresh-target policy's prediction window (out of the
    /// read's line: only refresh targets that predict reads keep one).
    #[cold]
    fn record_read(&mut self, lpn: u64) {
        if let Some(w) = self.read_window.as_mut() {
            w.record_read(lpn);
        }
    }

    /// The page a read of `lpn`'s backup copy senses, counted as [`Ftl::read`] counts, or
    /// `None` if it has no copy (a read after the primary was uncorrectable).
    pub fn read_backup(&mut self, lpn: u64) -> Option<SensedPage> {
        let ppn = *self.backups.get(&lpn)?;
        Some(self.sense(ppn))
    }

    /// Where `lpn`'s backup copy is, if it has one.
    #[inline]
    pub fn backup_of(&self, lpn: u64) -> Option<Ppa> {
        if self.backups.is_empty() {
            return None;
        }
        self.backups.get(&lpn).map(|&ppn| self.ppa(ppn))
    }

    /// Counts a host read of physical page `ppn` against its block (read disturb, the
    /// refresh trigger).
    #[inline(always)]
    fn sense(&mut self, ppn: u64) -> SensedPage {
        let ppa = self.ppa(ppn);
        let (plane, index) = self.geo.split_block(ppa.block);
        let slot = self.read_slot_at(plane, index);
        self.block_reads[slot] += 1;
        let reads = self.block_reads[slot];
        if reads >= self.refresh_min_reads {
            self.consider_refresh(ppa.block, reads);
        }
        SensedPage { ppa, plane, reads }
    }

    /// Moves `lpn` onto a chip placement takes hot pages to, when placement keeps hot pages
    /// apart ([`placement::Placement::hot_reads`]), `lpn` is hot (read at least that often in the last
    /// window, this read included) and its chip is not one of those: `hot_reliable`'s
    /// migration on read, without which read-only hot data would never move. The page goes
    /// through the controller (it changes chip: no copyback) to the next plane in striping
    /// order that takes it, as a host write would; the move goes to `ops`. Returns whether
    /// it moved.
    pub fn move_if_hot(&mut self, lpn: u64, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<bool> {
        let (Some(hot_reads), Some(ppn)) = (self.hot_reads, self.mapping.get(lpn)) else {
            return Ok(false);
        };
        let reads = self.read_window.as_ref().map_or(0, |w| w.predicted(lpn));
        let from = self.ppa(ppn);
        let chip = self.geo.plane_locs[self.geo.plane_of_block(from.block) as usize].chip;
        if reads < u64::from(hot_reads) || self.cfg.placement.policy().takes_chip(true, chip) {
            return Ok(false);
        }
        let meta = self.page_meta(from).expect("a mapped page has metadata");
        let page = MovedPage {
            meta,
            pe_cycles: self.blocks[from.block as usize].pe,
            reads_since_erase: self.block_reads(from.block),
        };
        // GC the plane choice may run is on another chip, so it cannot move `from`.
        let plane = self.pick_plane(lpn, meta.attrs, now_ns, ops)?;
        self.unmap_primary(lpn);
        let moved = PageMeta {
            program_ns: now_ns,
            ..meta
        };
        let to = self.place(plane, Cause::HotRead, moved, None)?;
        ops.push(BgOp::Move {
            from,
            to,
            cause: Cause::HotRead,
            path: self.cfg.move_path.of(Cause::HotRead),
            page,
        });
        self.stats.hot_page_moves += 1;
        Ok(true)
    }

    /// Counts a host request (the refresh-target policy's prediction window is counted
    /// in requests).
    #[inline]
    pub fn host_request(&mut self) {
        if let Some(w) = self.read_window.as_mut() {
            w.record_request();
        }
    }

    /// Asks the refresh trigger about a block past its minimum read count, full or still
    /// open (a block a refresh filled with hot pages may stay open while it is read); a
    /// block it names is refreshed (once) by the next [`Ftl::refresh_due`].
    #[cold]
    fn consider_refresh(&mut self, block: u32, reads: u32) {
        if self.cfg.refresh.policy().due(reads, self.blocks[block as usize].pe)
            && !self.refresh_pending.contains(&block)
        {
            self.refresh_pending.push(block);
        }
    }

    /// Whether `block`, named by the trigger, still needs its refresh (GC may have erased
    /// it meanwhile, which resets its read count).
    fn refresh_still_due(&self, block: u32) -> bool {
        let b = &self.blocks[block as usize];
        b.status != BlockStatus::Free && self.cfg.refresh.policy().due(self.block_reads(block), b.pe)
    }

    /// Takes a block about to be refreshed out of service: no placement stream and no
    /// refresh destination programs it again (an open block's unwritten pages are erased
    /// with it).
    fn close_for_refresh(&mut self, block: u32, plane: u32) {
        for a in self.planes[plane as usize]
            .active
            .iter_mut()
            .filter(|a| **a == Some(block))
        {
            *a = None;
        }
        self.refresh_dests[plane as usize].retain(|&b| b != block);
    }

    /// Refreshes the blocks the trigger named since the last call: their valid pages move
    /// where the refresh-target policy says, in their plane (after GC there if its free
    /// pool is low, counting the destination blocks the policy may open), and the block is
    /// erased, which resets its read count. The flash work goes to `ops`.
    #[inline]
    pub fn refresh_due(&mut self, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        // Called after every read request: the common case (nothing named) stays inline.
        if self.refresh_pending.is_empty() {
            return Ok(());
        }
        self.refresh_pending_blocks(now_ns, ops)
    }

    #[cold]
    fn refresh_pending_blocks(&mut self, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        while let Some(block) = self.refresh_pending.pop() {
            if !self.refresh_still_due(block) {
                continue;
            }
            let plane = self.geo.split_block(block).0;
            self.close_for_refresh(block, plane);
            let reserve = self.refresh_dests_missing(plane);
            self.collect_if_needed(plane, reserve, now_ns, ops)?;
            if !self.refresh_still_due(block) {
                continue;
            }
            let moved = self.relocate_and_erase(block, plane, Cause::Refresh, now_ns, ops)?;
            self.stats.refresh_page_moves += moved;
            self.stats.refresh_erases += 1;
        }
        Ok(())
    }

    /// Reads of `block` since its last erase.
    pub fn block_reads(&self, block: u32) -> u32 {
        self.block_reads[self.read_slot(block)]
    }

    /// Program time of a programmed page (cheaper than [`Ftl::page_meta`] for data that
    /// preconditioning placed).
    #[inline]
    pub fn program_ns(&self, ppa: Ppa) -> i64 {
        if self.blocks[ppa.block as usize].implicit {
            return self.preconditioned_ns;
        }
        self.page_meta
            .program_ns(ppa.block, ppa.page)
            .unwrap_or(self.preconditioned_ns)
    }

    /// P/E cycles `block` has seen.
    #[inline]
    pub fn pe_cycles(&self, block: u32) -> u32 {
        self.blocks[block as usize].pe
    }

    /// Logical pages the mapping holds an entry for.
    pub fn mapping_entries(&self) -> usize {
        self.mapping.entries()
    }

    /// The FTL's counters.
    pub fn stats(&self) -> &FtlStats {
        &self.stats
    }

    /// When `block` was last programmed (its preconditioning time if never in the run).
    fn last_program_ns(&self, block: u32) -> i64 {
        let b = &self.blocks[block as usize];
        match self.page_meta.program_ns(block, u32::from(b.written).saturating_sub(1)) {
            Some(t) if !b.implicit && b.written > 0 => t,
            _ => self.preconditioned_ns,
        }
    }

    /// Metadata of a programmed page: what the OOB area says (owner, content tag, time).
    pub fn page_meta(&self, ppa: Ppa) -> Option<PageMeta> {
        let b = &self.blocks[ppa.block as usize];
        if b.implicit {
            let owner = self.mapping.home_owner(self.ppn(ppa))?;
            Some(PageMeta {
                lpn: owner,
                tag: 0,
                program_ns: self.preconditioned_ns,
                oob_tags: 0,
                attrs: WriteAttrs::new(0, self.fill_critical.contains(owner)),
            })
        } else {
            self.page_meta
                .get(ppa.block, ppa.page)
                .filter(|_| ppa.page < u32::from(b.written))
        }
    }

    /// Writes logical page `lpn` with content tag `tag`, codec tag bits `oob_tags` and
    /// attributes `attrs` (kept in the page's OOB area) at `now_ns`; returns where it went.
    /// When placement asks for a backup copy, it is programmed too, on the plane placement
    /// names ([`Ftl::backup_of`] says where). GC and wear-leveling work it triggers is
    /// appended to `ops`.
    pub fn write(
        &mut self,
        lpn: u64,
        tag: u64,
        oob_tags: u64,
        attrs: WriteAttrs,
        now_ns: i64,
        ops: &mut Vec<BgOp>,
    ) -> Result<Ppa> {
        self.unmap(lpn);
        let plane = match &self.host_layout {
            Some(layout) => {
                // By address: the plane is the page's; a full one fails by name in `place`.
                let plane = layout[(lpn % layout.len() as u64) as usize];
                self.collect_if_needed(plane, 0, now_ns, ops)?;
                plane
            }
            None => self.pick_plane(lpn, attrs, now_ns, ops)?,
        };
        let meta = PageMeta {
            lpn,
            tag,
            program_ns: now_ns,
            oob_tags,
            attrs,
        };
        let ppa = self.place(plane, Cause::Host, meta, None)?;
        self.stats.host_programs += 1;
        if self.backs_up {
            if let Some(to) = self.cfg.placement.policy().backup_plane(attrs, plane, self.geo.planes) {
                self.write_backup(to, meta, now_ns, ops)?;
            }
        }
        Ok(ppa)
    }

    /// Programs a backup copy of the host page `meta` into `plane`, after running GC there
    /// if its free pool is low.
    #[cold]
    fn write_backup(&mut self, plane: u32, meta: PageMeta, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<()> {
        self.collect_if_needed(plane, 0, now_ns, ops)?;
        let attrs = meta.attrs.as_backup();
        self.place(plane, Cause::Host, PageMeta { attrs, ..meta }, None)?;
        self.stats.backup_programs += 1;
        Ok(())
    }

    /// The next plane in striping order that can take a host page, after running GC in it
    /// if its free pool is low. A plane whose GC cannot reclaim space (striping can leave a
    /// plane holding more live data than its share) is skipped for this write, and so is a
    /// plane on a chip placement refuses for `lpn` (by its reads).
    fn pick_plane(&mut self, lpn: u64, attrs: WriteAttrs, now_ns: i64, ops: &mut Vec<BgOp>) -> Result<u32> {
        let floor = self.gc_floor_blocks as usize;
        let slot = self.cfg.placement.policy().slot(Cause::Host, attrs);
        let hot = self.is_hot(lpn);
        for _ in 0..self.geo.planes {
            let plane = self.striper.next_plane();
            // A plane the view rules out is one GC would leave as it is: skipping it before
            // GC changes nothing, and keeps `next_host_write` exact.
            if !self.may_take_host_page(plane, slot, hot, [None; 2]) {
                continue;
            }
            self.collect_if_needed(plane, 0, now_ns, ops)?;
            let room = self.next_free_page(plane, slot).is_some();
            if room || self.planes[plane as usize].free.len() > floor {
                return Ok(plane);
            }
        }
        Err(NandError::Invalid(
            "the device is full: no plane can reclaim space for a write (raise ftl.overprovisioning or lower \
             aging.fill_fraction)"
                .into(),
        ))
    }

    /// Whether `lpn` counts as hot for a placement that keeps hot pages apart (`None`: it
    /// keeps none apart).
    fn is_hot(&self, lpn: u64) -> Option<bool> {
        self.hot_reads.map(|h| {
            let w = self
                .read_window
                .as_ref()
                .expect("placement that counts reads has a window");
            w.predicted(lpn) >= u64::from(h)
        })
    }

    /// Whether a host page (into `slot`, `hot` as [`Ftl::is_hot`] says) may go to `plane`
    /// without running anything first: its chip is one placement takes the page to, and the
    /// plane is not full. Full means no room in the slot's active block, a free pool at or
    /// below the GC floor (the threshold unless GC is paced) and no block GC could reclaim
    /// a page from: GC would leave
    /// such a plane as it is, so [`Ftl::pick_plane`] skips it. `unmapping` names the blocks
    /// that lose a valid page before the choice (the old copy of the page being written,
    /// and its backup): a full one among them becomes one GC can reclaim.
    fn may_take_host_page(&self, plane: u32, slot: usize, hot: Option<bool>, unmapping: [Option<u32>; 2]) -> bool {
        if let Some(hot) = hot {
            let chip = self.geo.plane_locs[plane as usize].chip;
            if !self.cfg.placement.policy().takes_chip(hot, chip) {
                return false;
            }
        }
        if self.next_free_page(plane, slot).is_some()
            || self.planes[plane as usize].free.len() > self.gc_floor_blocks as usize
        {
            return true;
        }
        let ppb = self.geo.cfg.pages_per_block;
        let first = plane * self.geo.cfg.blocks_per_plane;
        let blocks = &self.blocks[first as usize..(first + self.geo.cfg.blocks_per_plane) as usize];
        blocks
            .iter()
            .zip(first..)
            .any(|(b, i)| b.reclaimable(ppb) || (b.status == BlockStatus::Full && unmapping.contains(&Some(i))))
    }

    /// Where host page `lpn`, written next with `attrs`, will go (plane, the type of the
    /// next free page of its block, and whether placement takes it), as a read-only view
    /// for the host queue. The plane is the page's own when placement lays host pages out
    /// by address; otherwise the first plane from the striping cursor on that is not ruled
    /// out (full, or on a chip placement refuses for a hot page), as [`Ftl::pick_plane`]
    /// skips them. Exact unless GC in that plane runs and still leaves it no room (it had
    /// pages to reclaim, but not a block's worth), when the write moves to a later plane.
    pub fn next_host_write(&self, lpn: u64, attrs: WriteAttrs) -> NextWrite {
        let slot = self.cfg.placement.policy().slot(Cause::Host, attrs);
        let plane = match &self.host_layout {
            Some(layout) => layout[(lpn % layout.len() as u64) as usize],
            None => {
                let hot = self.is_hot(lpn);
                // The write unmaps the page's old copy (and backup) before it picks a plane.
                let block = |ppn: Option<u64>| ppn.map(|p| self.ppa(p).block);
                let unmapping = [block(self.mapping.get(lpn)), block(self.backups.get(&lpn).copied())];
                (0..u64::from(self.geo.planes))
                    .map(|k| self.striper.peek_plane_after(k))
                    .find(|&p| self.may_take_host_page(p, slot, hot, unmapping))
                    .unwrap_or_else(|| self.striper.peek_plane())
            }
        };
        let placement = self.cfg.placement.policy();
        let page_type = self.next_page_type(plane, slot);
        NextWrite {
            plane,
            page_type,
            accepted: placement.accepts(Cause::Host, attrs, page_type, self.msb_type()),
        }
    }

    /// The active block of `slot` in `plane` and its next free page, if it has one left.
    #[inline]
    fn next_free_page(&self, plane: u32, slot: usize) -> Option<(u32, u32)> {
        let b = self.planes[plane as usize].active[slot]?;
        let written = u32::from(self.blocks[b as usize].written);
        (written < self.geo.cfg.pages_per_block).then_some((b, written))
    }

    /// Type of the page the next program into `slot` of `plane` takes (page 0 of a fresh
    /// block when the active one is full).
    fn next_page_type(&self, plane: u32, slot: usize) -> PageType {
        let page = self.next_free_page(plane, slot).map_or(0, |(_, p)| p);
        self.geo.page_map.page_type(page)
    }

    /// The most significant page type of the device (1 on MLC).
    fn msb_type(&self) -> PageType {
        (self.geo.cfg.cell_type.bits() - 1) as PageType
    }

    /// Discards logical page `lpn`.
    pub fn trim(&mut self, lpn: u64) {
        if self.unmap(lpn) {
            self.stats.trimmed_pages += 1;
        }
    }

    /// Detaches `lpn` from its page and its backup copy, if any (they become invalid: GC
    /// that runs before the new copy is placed must not move them); returns whether it had
    /// a page.
    fn unmap(&mut self, lpn: u64) -> bool {
        if !self.backups.is_empty() {
            self.detach_backup(lpn);
        }
        self.unmap_primary(lpn)
    }

    /// Detaches `lpn` from its page (not its backup copy); returns whether it had one.
    fn unmap_primary(&mut self, lpn: u64) -> bool {
        let Some(old) = self.mapping.get(lpn) else {
            return false;
        };
        let b = self.ppa(old).block as usize;
        self.blocks[b].valid -= 1;
        self.mapping.remove(lpn);
        true
    }

    /// Detaches `lpn`'s backup copy, if it has one.
    fn detach_backup(&mut self, lpn: u64) {
        if let Some(old) = self.backups.remove(&lpn) {
            let b = self.ppa(old).block as usize;
            self.blocks[b].valid -= 1;
        }
    }

    /// Programs `meta` (written for `cause`) into the next page placement takes of the
    /// active block it names in `plane`, or of open block `into` when a refresh-target
    /// policy chose one (placement's block once that one is full); pages placement refuses
    /// are skipped (left unprogrammed).
    fn place(&mut self, plane: u32, cause: Cause, meta: PageMeta, into: Option<u32>) -> Result<Ppa> {
        let ppb = self.geo.cfg.pages_per_block;
        let (slot, page_reads) = self.slot_for(plane, cause, &meta);
        let may_refuse = self.may_refuse;
        let (block, page) = loop {
            let (block, page) = match into.and_then(|b| self.free_page_in(b)) {
                Some(next) => next,
                None => match self.next_free_page(plane, slot) {
                    Some(next) => next,
                    None => (self.open_block(plane, slot)?, 0),
                },
            };
            let page_type = self.geo.page_map.page_type(page);
            if !may_refuse
                || self
                    .cfg
                    .placement
                    .policy()
                    .accepts(cause, meta.attrs, page_type, self.msb_type())
            {
                break (block, page);
            }
            let st = &mut self.blocks[block as usize];
            st.written += 1;
            if u32::from(st.written) == ppb {
                st.status = BlockStatus::Full;
            }
            self.page_meta.insert(block);
            self.stats.skipped_pages += 1;
        };
        let pa = &mut self.planes[plane as usize];
        if pa.active[slot] == Some(block) {
            pa.placed_reads[slot] += page_reads;
        }
        Ok(self.program(Ppa { block, page }, meta))
    }

    /// Placement's slot for `meta` written for `cause` in `plane`, and the page's predicted
    /// reads (0 unless placement places by read heat).
    fn slot_for(&self, plane: u32, cause: Cause, meta: &PageMeta) -> (usize, u64) {
        let placement = self.cfg.placement.policy();
        if !self.places_by_heat {
            return (placement.slot(cause, meta.attrs), 0);
        }
        let page_reads = self.read_window.as_ref().map_or(0, |w| w.predicted(meta.lpn));
        let placed = &self.planes[plane as usize].placed_reads;
        let heat = ReadHeat {
            page_reads,
            slot_loads: std::array::from_fn(|s| {
                self.next_free_page(plane, s)
                    .map(|(b, _)| u64::from(self.block_reads(b)) + placed[s])
            }),
        };
        (placement.slot_by_heat(cause, meta.attrs, &heat), page_reads)
    }

    /// Open block `block` and its next free page, if it has one left.
    fn free_page_in(&self, block: u32) -> Option<(u32, u32)> {
        let st = &self.blocks[block as usize];
        let written = u32::from(st.written);
        (st.status == BlockStatus::Open && written < self.geo.cfg.pages_per_block).then_some((block, written))
    }

    /// Programs `meta` into `ppa`, the next free page of its open block, and maps it.
    fn program(&mut self, ppa: Ppa, meta: PageMeta) -> Ppa {
        let st = &mut self.blocks[ppa.block as usize];
        debug_assert_eq!(u32::from(st.written), ppa.page);
        st.written += 1;
        st.valid += 1;
        if u32::from(st.written) == self.geo.cfg.pages_per_block {
            st.status = BlockStatus::Full;
        }
        self.page_meta.set(ppa.block, ppa.page, meta);
        let ppn = self.ppn(ppa);
        if meta.attrs.backup() {
            self.backups.insert(meta.lpn, ppn);
        } else {
            self.mapping.set(meta.lpn, ppn);
        }
        ppa
    }

    /// Opens a free block of `plane` for placement's `slot` (the same rule, `ftl.block_opening`,
    /// whatever the cause).
    fn open_block(&mut self, plane: u32, slot: usize) -> Result<u32> {
        let block = self.take_free_block(plane)?;
        let pa = &mut self.planes[plane as usize];
        pa.active[slot] = Some(block);
        pa.placed_reads[slot] = 0;
        Ok(block)
    }

    /// Opens the free block of `plane` that `ftl.block_opening` names (every cause).
    fn take_free_block(&mut self, plane: u32) -> Result<u32> {
        let bpp = self.geo.cfg.blocks_per_plane;
        let Some(block) = self.planes[plane as usize].take(self.cfg.block_opening, plane * bpp, bpp) else {
            return Err(Self::no_free_block(plane));
        };
        Ok(self.mark_open(block))
    }

    fn no_free_block(plane: u32) -> NandError {
        NandError::Invalid(format!(
            "plane {plane} has no free block left: the workload's live data exceeds what GC can reclaim \
             (raise ftl.overprovisioning or lower aging.fill_fraction)"
        ))
    }

    /// Marks a block just taken from the free pool open and empty.
    fn mark_open(&mut self, block: u32) -> u32 {
        let st = &mut self.blocks[block as usize];
        st.status = BlockStatus::Open;
        st.written = 0;
        st.valid = 0;
        st.implicit = false;
        block
    }

    /// The block of `plane` that `policy` picks from a view of the plane's blocks.
    fn choose(&self, plane: u32, now_ns: i64, policy: impl Fn(&PlaneView) -> Option<usize>) -> Option<u32> {
        let first = plane * self.geo.cfg.blocks_per_plane;
        let range = first as usize..(first + self.geo.cfg.blocks_per_plane) as usize;
        // Policies age blocks on the run's clock: preconditioned data count as programmed
        // at 0. Their retention age is for the error model; taken as the time since the
        // workload last wrote them it made every untouched block ~10^5 times older than any
        // written during a run, so cost-benefit cleaned nearly-full cold blocks (issue 13).
        let last_program_ns = |i: usize| self.last_program_ns(first + i as u32).max(0);
        let view = PlaneView {
            blocks: &self.blocks[range],
            pages_per_block: self.geo.cfg.pages_per_block,
            now_ns,
            last_program_ns: &last_program_ns,
        };
        policy(&view).map(|i| first + i as u32)
    }

    /// Moves every valid page of `victim` (attributes and all) within `plane`, in the order
    /// the relocation policy picks, to where placement puts pages moved for `cause`; erases
    /// the block and returns it to the free pool. Returns the pages moved.
    fn relocate_and_erase(
        &mut self,
        victim: u32,
        plane: u32,
        cause: Cause,
        now_ns: i64,
        ops: &mut Vec<BgOp>,
    ) -> Result<u64> {
        let ppb = self.geo.cfg.pages_per_block;
        let (mut waiting, mut from) = (std::mem::take(&mut self.moving), std::mem::take(&mut self.moving_from));
        for page in 0..ppb {
            if let Some(meta) = self.live_meta(Ppa { block: victim, page }) {
                // A moved copy leaves its pair where it is.
                if meta.attrs.backup() {
                    self.detach_backup(meta.lpn);
                } else {
                    self.unmap_primary(meta.lpn);
                }
                waiting.push_back(meta);
                from.push_back(page);
            }
        }
        let moved = waiting.len() as u64;
        let (pe_cycles, reads_since_erase) = (self.blocks[victim as usize].pe, self.block_reads(victim));
        let path = self.cfg.move_path.of(cause);
        let mut spread = match cause {
            Cause::Refresh => self.refresh_destinations(plane, &waiting)?.map(Vec::into_iter),
            _ => None,
        };
        while let Some(first) = waiting.front() {
            // A spreading refresh-target policy chose every page's block (in page order),
            // which placement programs (its page-type refusal still applies); otherwise the
            // relocation order picks the page for placement's next page.
            let to_block = spread.as_mut().and_then(Iterator::next);
            let i = match to_block {
                Some(_) => 0,
                None => {
                    let dest = self.next_page_type(plane, self.cfg.placement.policy().slot(cause, first.attrs));
                    self.cfg.relocation.policy().pick(waiting.make_contiguous(), dest)
                }
            };
            let (meta, page) = (
                waiting.remove(i).expect("pick is in range"),
                from.remove(i).expect("same length"),
            );
            let moved_meta = PageMeta {
                program_ns: now_ns,
                ..meta
            };
            let to = self.place(plane, cause, moved_meta, to_block)?;
            ops.push(BgOp::Move {
                from: Ppa { block: victim, page },
                to,
                cause,
                path,
                page: MovedPage {
                    meta,
                    pe_cycles,
                    reads_since_erase,
                },
            });
        }
        (self.moving, self.moving_from) = (waiting, from);
        let slot = self.read_slot(victim);
        self.block_reads[slot] = 0;
        let st = &mut self.blocks[victim as usize];
        debug_assert_eq!(st.valid, 0);
        st.pe += 1;
        st.written = 0;
        st.implicit = false;
        st.status = BlockStatus::Free;
        let pe = st.pe;
        self.page_meta.release(victim);
        let pa = &mut self.planes[plane as usize];
        // A full block can still be a stream's active block (until its next page opens
        // another): once erased it is only in the free pool.
        for a in pa.active.iter_mut().filter(|a| **a == Some(victim)) {
            *a = None;
        }
        self.refresh_dests[plane as usize].retain(|&b| b != victim);
        ops.push(BgOp::Erase { block: victim, cause });
        self.release_erased(victim, plane, pe)?;
        Ok(moved)
    }

    /// The block each of `waiting` (a refreshed block's valid pages, in page order) goes
    /// to: `plane`'s destination blocks still open (none for a policy that opens a new
    /// block per refresh: the last refresh's are closed), topped up from the free pool to
    /// the policy's number and until their free pages hold every page (the free pool kept
    /// above the GC threshold), each opened by `ftl.block_opening`, or the least worn for a
    /// policy that chooses its blocks by P/E. `None`: placement places them (no room).
    fn refresh_destinations(&mut self, plane: u32, waiting: &VecDeque<PageMeta>) -> Result<Option<Vec<u32>>> {
        let policy = self.cfg.refresh_targets.policy();
        let (want, fresh, by_wear) = (
            policy.destination_blocks() as usize,
            policy.new_block_per_refresh(),
            policy.chooses_by_wear(),
        );
        if self.refresh_by_placement() {
            return Ok(None);
        }
        let ppb = self.geo.cfg.pages_per_block;
        let p = plane as usize;
        let blocks = &self.blocks;
        self.refresh_dests[p].retain(|&b| blocks[b as usize].status == BlockStatus::Open);
        if fresh {
            for b in std::mem::take(&mut self.refresh_dests[p]) {
                self.close_unwritten(b);
            }
        }
        let read_limit = u64::from(self.refresh_min_reads);
        let target = |ftl: &Self, block: u32| TargetBlock {
            block,
            pe: ftl.blocks[block as usize].pe,
            reads: u64::from(ftl.block_reads(block)),
            free_pages: ppb - u32::from(ftl.blocks[block as usize].written),
            read_limit,
        };
        let room = |ftl: &Self| -> usize {
            ftl.refresh_dests[p]
                .iter()
                .map(|&b| target(ftl, b).free_pages as usize)
                .sum()
        };
        while (self.refresh_dests[p].len() < want || room(self) < waiting.len())
            && self.planes[p].free.len() > self.cfg.gc_threshold_blocks as usize
        {
            let block = match by_wear {
                true => self.take_least_worn_block(plane)?,
                false => self.take_free_block(plane)?,
            };
            self.refresh_dests[p].push(block);
        }
        if room(self) < waiting.len() {
            return Ok(None);
        }
        let targets: Vec<TargetBlock> = self.refresh_dests[p].iter().map(|&b| target(self, b)).collect();
        let predicted: Vec<u64> = waiting
            .iter()
            .map(|m| self.read_window.as_ref().map_or(0, |w| w.predicted(m.lpn)))
            .collect();
        let assigned = self.cfg.refresh_targets.policy().assign(&targets, &predicted);
        Ok(assigned.map(|a| a.into_iter().map(|i| targets[i].block).collect()))
    }

    /// Whether placement, not the refresh-target policy, places refreshed pages: a policy
    /// without destinations, or `baseline` beside a placement that places by read heat
    /// (seed 003's RL levels every page it writes, refresh moves included).
    fn refresh_by_placement(&self) -> bool {
        let policy = self.cfg.refresh_targets.policy();
        policy.destination_blocks() == 0 || (policy.new_block_per_refresh() && self.places_by_heat)
    }

    /// Destination blocks `plane` lacks for the refresh-target policy (the free blocks a
    /// refresh there may open).
    fn refresh_dests_missing(&self, plane: u32) -> usize {
        let policy = self.cfg.refresh_targets.policy();
        let want = policy.destination_blocks() as usize;
        if self.refresh_by_placement() {
            return 0;
        }
        if policy.new_block_per_refresh() {
            return want;
        }
        let open = self.refresh_dests[plane as usize]
            .iter()
            .filter(|&&b| self.blocks[b as usize].status == BlockStatus::Open)
            .count();
        want.saturating_sub(open)
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
