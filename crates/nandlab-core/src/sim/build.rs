//! Building a simulator: the config validated section by section and every part of the
//! device (FTL, back end, read path, caches, host link) constructed and preconditioned.

use super::*;

impl Simulator {
    /// Validates `cfg` and builds (and preconditions) the device.
    pub fn new(cfg: SimConfig) -> Result<Self> {
        let geo = Geometry::new(&cfg.device)?;
        let mut timing = Timing::new(&cfg.timing, cfg.device.cell_type.bits(), cfg.device.page_size_bytes)?;
        timing.scale_program_steps(cfg.tvr.program_steps(cfg.device.cell_type.bits())?);
        time_scale::validate("host.time_scale", cfg.host.time_scale)?;
        let scheduler = scheduler::by_name(&cfg.host.scheduler)?;
        let device_depth = cfg.host.interface.device_queue_depth(cfg.host.queue_depth)?;
        cfg.host.critical.validate()?;
        group_write::validate(&cfg)?;
        closed_loop::validate(&cfg.host, device_depth, scheduler.reorders())?;
        cfg.scheduler
            .policy()
            .validate("scheduler", cfg.ftl.gc_threshold_blocks)?;
        let policy = cfg.scheduler.policy();
        let urgent_reads = policy.refresh_urgent_reads();
        if urgent_reads.is_some() && cfg.ftl.refresh.policy().min_reads().is_none() {
            return Err(NandError::config(
                "scheduler.refresh_urgent_reads",
                "bounds read refresh's wait, but [ftl.refresh] has no trigger",
            ));
        }
        let tsu = policy.defers_background().then(|| {
            let mut q = tsu::Queue::new(geo.dies, geo.planes, policy.host_reads_first());
            q.refresh = urgent_reads.map(|r| tsu::RefreshClock::new(geo.dies, r));
            q
        });
        let mut ftl = Ftl::new(&geo, &cfg.ftl, &cfg.aging, cfg.seed)?;
        if let Some(floor) = cfg.scheduler.policy().gc_floor() {
            ftl.pace_gc(floor);
        }
        ftl.classify_fill(&cfg.host.critical)?;
        let mut backend = Backend::new(
            geo.dies,
            cfg.device.channels,
            timing.decoders_per_channel,
            cfg.device.multi_plane,
        );
        if cfg.device.multi_plane_equal_pages {
            backend.require_equal_pages();
        }
        let records = cfg.output.record_requests.then(Recorder::in_memory);
        let chips = cfg.device.channels * cfg.device.chips_per_channel;
        let read_path = ReadPath::new(&cfg, chips, None)?;
        let hot_moves = cfg.ftl.placement.policy().hot_reads().is_some();
        let decode_page_ns = timing.decode_ns * u64::from(read_path.planner.codewords_decoded());
        let page_bytes = u64::from(cfg.device.page_size_bytes);
        // Events carry a page's unit count in 16 bits.
        if read_path.planner.units_per_page() > u32::from(u16::MAX) {
            return Err(NandError::config(
                "device.page_size_bytes",
                format!(
                    "{page_bytes} bytes is more than {} units of 512 bytes or codewords",
                    u16::MAX
                ),
            ));
        }
        cfg.cache.validate(page_bytes, ftl.logical_pages())?;
        let cache = std::num::NonZeroUsize::new((cfg.cache.capacity_bytes / page_bytes) as usize)
            .map(|pages| DataCache::new(pages, cfg.cache.read_allocate));
        let writeback_depth = match cfg.cache.writeback_depth_pages {
            0 => geo.planes,
            d => d,
        };
        let dram_page_ns = cfg.cache.dram_ns(page_bytes);
        let flow_latency = vec![Default::default(); cfg.workload.flows.len()];
        let page_reads = cfg.output.read_page_latency.then(LatencyStats::default);
        let mapping_cache = translation::build(&cfg.ftl.mapping_cache, &ftl, &geo)?;
        cfg.host.suspend.validate()?;
        let suspension = suspend::Suspension::new(&cfg.host.suspend, geo.dies);
        let tvr = TvrData::new(&cfg.tvr);
        // A moved page's program is timed from its record under these models, and its
        // block may go stale before that.
        if timing.needs_content() || tvr.as_ref().is_some_and(|d| !d.whole_device()) {
            ftl.keep_stale_records();
        }
        let plain_reads = cache.is_none()
            && mapping_cache.is_none()
            && !cfg.host.critical.is_active()
            && !read_path.enabled
            && tvr.is_none()
            && cfg.ecc.interleave.is_off();
        let mut sim = Simulator {
            timeline: None,
            timeline_close_ns: u64::MAX,
            plain_reads,
            device_depth,
            suspension,
            mapping_cache,
            cache,
            writebacks: WritebackWindow::default(),
            writeback_depth,
            dram_page_ns,
            dram_free_ns: 0,
            host_link: HostLink::new(&cfg.host.interface)?,
            tvr,
            units: Units::new(read_path.planner.units_per_page(), page_bytes),
            read_path,
            read_batch: Vec::new(),
            retries: Slab::default(),
            backup_reads: Slab::default(),
            groups: Slab::default(),
            merges: Slab::default(),
            decode_page_ns,
            page_bytes,
            cfg,
            geo,
            timing,
            ftl,
            backend,
            events: EventQueue::default(),
            reqs: Slab::default(),
            waiting: VecDeque::new(),
            scheduler,
            inflight: 0,
            pending: None,
            next_id: 0,
            bg_ops: Vec::new(),
            tsu,
            background: background::Work::new(hot_moves),
            latency: Default::default(),
            page_reads,
            flow_latency,
            records,
            counters: Counters::default(),
        };
        sim.start_timeline();
        Ok(sim)
    }
}
