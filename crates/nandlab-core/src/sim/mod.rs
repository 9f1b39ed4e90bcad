//! The simulator: replays a request stream through host queue → FTL → flash back end and
//! collects metrics.
//!
//! Events (one enum, stored inline in the queue):
//! - `Arrival`: the next request of the stream arrives (open-loop replay);
//! - `SenseDone`: a page read finished sensing; its data goes on the bus, then to a decoder
//!   (reads are judged by the error model when issued, while the page is certainly where
//!   the mapping says; the event carries the verdict);
//! - `ProgramStart`: a page write's data reached the die; the program is reserved;
//! - `ProgramEnd`: a host program ended, when reads may suspend programs (a suspension
//!   moves its end, `suspend.rs`);
//! - `WritebackStart`: a page evicted from the DRAM cache reached its die (the request
//!   that evicted it waits for it only when the write-back window was full);
//! - `Retry`: a failed decode ended; the next attempt of the read plan senses again;
//! - `BackupRead`: a page read ended uncorrectable and placement kept a backup copy of the
//!   page (Meta-Cure): the copy is read now, through the same path;
//! - `RmwMerged`: the old data of a page a write covers only in part is in the controller
//!   (it was read as a judged page read, `rmw.rs`); the merged page goes to flash;
//! - `GroupSensed` / `GroupMerged`: the same for a write to part of an interleaved group
//!   (`group_write.rs`): the group's pages were sensed (each old codeword then follows its
//!   read plan) / its old data is in the controller;
//! - `RequestDone(req)`: a request completed (only scheduled when the device queue is
//!   bounded or replay is closed-loop, where a completion frees a slot).

use crate::cache::{DataCache, Evicted, WritebackWindow};
use crate::config::SimConfig;
use crate::engine::{EventQueue, Slab};
use crate::error::{NandError, Result};
use crate::flash::backend::Backend;
use crate::flash::block::WriteAttrs;
use crate::flash::cell::PageType;
use crate::flash::geometry::PlaneLoc;
use crate::flash::{Geometry, Ppa, Timing};
use crate::ftl::mapping_cache::MappingCache;
use crate::ftl::{BgOp, Ftl};
use crate::host::interface::HostLink;
use crate::host::scheduler::{self, DeviceView, HostScheduler, Queued};
use crate::host::{closed_loop, time_scale, Op, OutOfRange, ReplayMode, Request};
use crate::metrics::{
    LatencyStats, RecordSink, Recorder, RequestRecords, Row, Summary, Timeline, TimelineColumns, TimelineSink,
};
use crate::reliability::TvrData;
use crate::workload::{self, RequestStream, WorkloadContext};
use interleave::Parts;
use read_path::{PageState, ReadPath};
use sectors::Units;
use std::collections::VecDeque;
use std::time::Instant;

mod background;
mod group_write;
mod interleave;
mod read_path;
mod rmw;
mod sectors;
mod summary;
mod suspend;
mod timeline;
mod translation;
mod tsu;

/// How often (in dispatched requests) the progress callback is called (it keeps to a
/// wall-time pace of its own: a check of the clock is all most calls cost).
const PROGRESS_EVERY: u64 = 1 << 12;

/// `WritebackStart`'s request when no request waits for the write-back (keeps the event
/// as small as the others).
const NO_REQUEST: u32 = u32::MAX;

/// A page read with no backup read to follow it.
const NO_BACKUP: u32 = u32::MAX;

/// Page-level events carry the request slot and the physical page, so no per-page state
/// is kept between events.
#[derive(Debug, Clone, Copy)]
enum Event {
    Arrival,
    /// `units`: the units of the page the request reads ([`Units`]); `backup`: the read
    /// of its backup copy to run when this one ends (a slot of `Simulator::backup_reads`),
    /// or [`NO_BACKUP`].
    SenseDone {
        req: u32,
        ppa: Ppa,
        verdict: Verdict,
        units: u16,
        backup: u32,
    },
    ProgramStart {
        req: u32,
        ppa: Ppa,
        t_prog: u64,
    },
    /// `req`: the request waiting for it, or [`NO_REQUEST`].
    WritebackStart {
        req: u32,
        ppa: Ppa,
        t_prog: u64,
    },
    Retry {
        req: u32,
        slot: u32,
    },
    /// `slot`: the backup read in `Simulator::backup_reads`.
    BackupRead {
        req: u32,
        slot: u32,
    },
    RmwMerged {
        req: u32,
        lpn: u64,
    },
    /// `group`: the write's slot in `Simulator::groups`.
    GroupSensed {
        req: u32,
        group: u32,
    },
    GroupMerged {
        req: u32,
        group: u32,
    },
    /// `slot`: the program in `Simulator::suspension`.
    ProgramEnd {
        slot: u32,
    },
    /// A read request's flash work ended: its hot pages on chips placement keeps them off
    /// move now (logical pages `first..first + pages`).
    MoveHot {
        first: u64,
        pages: u32,
    },
    RequestDone(u32),
    /// The die's next queued background transaction may start (`tsu/steps.rs`).
    Background {
        die: u32,
    },
    /// Whether the die has been idle long enough for idle-time GC (`tsu/steps.rs`).
    IdleCheck {
        die: u32,
    },
}

/// The ECC verdict of a page read, decided when the read is issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Reads are not judged (no error model and no ECC).
    Unjudged,
    /// The read follows this plan (an index into the read path's plans).
    Plan(u16),
}

/// A page read of a request being issued: where it is (page and plane), its block's read
/// count, what the
/// read path needs to know of it (`None`: reads are not judged) and its RBER.
#[derive(Debug, Clone, Copy)]
struct PendingRead {
    ppa: Ppa,
    loc: PlaneLoc,
    /// Reads of its block since erase, this one included.
    reads: u32,
    state: Option<PageState>,
    rber: f64,
    /// It holds a critical page (`[host.critical]`) whose page carries the flag: written as
    /// such during the run, or preconditioned (the fill is classified the same way).
    critical: bool,
    /// Units of the page the request reads.
    units: u16,
    lpn: u64,
    /// When its mapping entry is known (later than the request's start after a mapping
    /// cache miss).
    ready: u64,
}

/// A read whose plan needs another sensing after a decode ends.
#[derive(Debug, Clone, Copy)]
struct Retry {
    ppa: Ppa,
    plan: usize,
    next: usize,
    ends: AttemptEnds,
    units: u16,
    /// As [`Event::SenseDone`]'s.
    backup: u32,
}

/// A judged page read ready to sense: a host read, or the read of a backup copy (judged
/// when its primary was, while the copy is where the FTL says) to run when the primary's
/// read ends.
#[derive(Debug, Clone, Copy)]
struct PageRead {
    ppa: Ppa,
    loc: PlaneLoc,
    verdict: Verdict,
    extra: u8,
    units: u16,
}

/// When the latest attempt's sensing, transfer and decode end.
#[derive(Debug, Clone, Copy, Default)]
struct AttemptEnds {
    sense: u64,
    xfer: u64,
    decode: u64,
}

#[derive(Debug, Clone, Copy)]
struct ReqState {
    /// Index of the request in arrival order.
    id: u64,
    req: Request,
    remaining: u32,
    end_ns: u64,
}

/// What a run returns.
#[derive(Debug, Clone)]
pub struct SimOutput {
    /// Every metric, the resolved config, seed and version.
    pub summary: Summary,
    /// One row per request, when `output.record_requests` is on.
    pub requests: Option<RequestRecords>,
    /// One row per window of simulated time, when `output.timeline_ns` is set and the rows
    /// were not streamed.
    pub timeline: Option<TimelineColumns>,
}

#[derive(Debug, Default)]
struct Counters {
    requests: [u64; 3],
    page_reads: u64,
    gc_page_reads: u64,
    /// Old pages read by read-modify-writes of partial page writes.
    rmw_page_reads: u64,
    soft_senses: u64,
    page_programs: u64,
    /// Pages an interleaved device rewrites with the host's (its groups' other codewords).
    interleave_rewrites: u64,
    erases: u64,
    first_arrival_ns: Option<u64>,
    last_end_ns: u64,
    events: u64,
    /// Host reads of critical pages (preconditioned or written in the run), by page type (seed 004's
    /// Tables 4-5 count their errors).
    critical_reads: [u64; 4],
    /// Host programs of critical pages, by page type.
    critical_programs: [u64; 4],
    /// Those of the reads that ended uncorrectable (primary and, where there is one, backup).
    critical_uncorrectable: u64,
    /// Those of them whose page had a backup copy, by the primary's and the copy's page
    /// type (Meta-Cure).
    critical_backed_up: [[u64; 4]; 4],
    /// Reads of backup copies (after an uncorrectable primary).
    backup_reads: u64,
    /// Those of them that ended uncorrectable too.
    backup_uncorrectable: u64,
}

/// A configured SSD ready to replay a workload.
pub struct Simulator {
    cfg: SimConfig,
    geo: Geometry,
    timing: Timing,
    ftl: Ftl,
    backend: Backend,
    events: EventQueue<Event>,
    reqs: Slab<ReqState>,
    waiting: VecDeque<Queued>,
    scheduler: Box<dyn HostScheduler>,
    inflight: u32,
    pending: Option<Request>,
    next_id: u64,
    bg_ops: Vec<BgOp>,
    /// The per-die queues of background work, when the scheduler defers it.
    tsu: Option<tsu::Queue>,
    /// Background work done so far, per cause.
    background: background::Work,
    read_path: ReadPath,
    /// Scratch list of a read request's mapped pages.
    read_batch: Vec<PendingRead>,
    retries: Slab<Retry>,
    backup_reads: Slab<PageRead>,
    /// Writes to parts of interleaved groups waiting for the groups' old data.
    groups: Slab<group_write::GroupWrite>,
    /// Logical pages whose read-modify-write waits for its old data (`rmw.rs`).
    merges: Slab<u64>,
    decode_page_ns: u64,
    latency: [LatencyStats; 3],
    /// Per flow (`workload.flows`, indexed by `Request::stream`), as `latency`.
    flow_latency: Vec<[LatencyStats; 3]>,
    records: Option<Recorder>,
    /// Metrics over simulated time (`output.timeline_ns`).
    timeline: Option<Timeline>,
    counters: Counters,
    page_bytes: u64,
    /// How pages divide for partial transfers.
    units: Units,
    /// The DRAM data cache, when configured.
    cache: Option<DataCache>,
    writebacks: WritebackWindow,
    writeback_depth: u32,
    /// DRAM time of one page (ns).
    dram_page_ns: u64,
    /// When the cache's DRAM is free: page accesses take turns (ns).
    dram_free_ns: u64,
    /// The host interface link, when its time is modelled.
    host_link: Option<HostLink>,
    /// TVR's regions and their counts, when TVR is on.
    tvr: Option<TvrData>,
    /// The cached mapping table, when the mapping table is not all in DRAM.
    mapping_cache: Option<MappingCache>,
    /// Program/erase suspension, when reads may suspend.
    suspension: Option<suspend::Suspension>,
    /// Requests the device holds at once (`host.queue_depth`, bounded by the interface's
    /// command queue); 0 = unbounded.
    device_depth: u32,
    /// Reads need none of the per-page features: no DRAM cache, no mapping cache, no
    /// critical pages, no judged reads, no TVR regions, no interleaved codewords
    /// ([`Simulator::issue_reads`] asks once per request).
    plain_reads: bool,
}

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
        let tsu = cfg
            .scheduler
            .policy()
            .defers_background()
            .then(|| tsu::Queue::new(geo.dies, geo.planes));
        let mut ftl = Ftl::new(&geo, &cfg.ftl, &cfg.aging, cfg.seed)?;
        if let Some(floor) = cfg.scheduler.policy().gc_floor() {
            ftl.pace_gc(floor);
        }
        ftl.classify_fill(&cfg.host.critical)?;
        let backend = Backend::new(
            geo.dies,
            cfg.device.channels,
            timing.decoders_per_channel,
            cfg.device.multi_plane,
        );
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
        let mapping_cache = translation::build(&cfg.ftl.mapping_cache, &ftl, &geo)?;
        cfg.host.suspend.validate()?;
        let suspension = suspend::Suspension::new(&cfg.host.suspend, geo.dies);
        let tvr = TvrData::new(&cfg.tvr);
        let plain_reads = cache.is_none()
            && mapping_cache.is_none()
            && !cfg.host.critical.is_active()
            && !read_path.enabled
            && tvr.is_none()
            && cfg.ecc.interleave.is_off();
        let mut sim = Simulator {
            timeline: None,
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
            flow_latency,
            records,
            counters: Counters::default(),
        };
        sim.start_timeline();
        Ok(sim)
    }

    /// Hands the timeline's rows to `sink` in batches as the run goes (when
    /// `output.timeline_ns` is set); `SimOutput::timeline` is then `None`.
    pub fn stream_timeline_to(&mut self, name: String, sink: TimelineSink) {
        if let Some(t) = self.timeline.as_mut() {
            t.stream_to(name, sink);
        }
    }

    /// Streams per-request records to `sink` as the run goes instead of keeping them in
    /// memory (when `output.record_requests` is on); `SimOutput::requests` is then `None`.
    pub fn stream_records_to(&mut self, sink: RecordSink) -> Result<()> {
        if self.records.is_some() {
            self.records = Some(Recorder::streaming(sink)?);
        }
        Ok(())
    }

    /// Logical capacity in bytes.
    pub fn logical_bytes(&self) -> u64 {
        self.ftl.logical_pages() * self.page_bytes
    }

    /// Replays the workload of the config. `progress(done)` is called every 4,096
    /// requests; returning `false` cancels the run.
    pub fn run(self, progress: &mut dyn FnMut(u64) -> bool) -> Result<SimOutput> {
        let ctx = WorkloadContext {
            logical_bytes: self.logical_bytes(),
            seed: self.cfg.seed,
        };
        // Parsing runs beside the replay on a second core.
        let stream = workload::Background::spawn(workload::open(&self.cfg.workload, &ctx)?)?;
        self.run_stream(Box::new(stream), progress)
    }

    /// Replays a list of requests (no progress reporting).
    pub fn run_requests(self, reqs: Vec<Request>) -> Result<SimOutput> {
        self.run_stream(Box::new(reqs.into_iter().map(Ok)), &mut |_| true)
    }

    /// Replays an explicit request stream.
    pub fn run_stream(mut self, mut stream: RequestStream, progress: &mut dyn FnMut(u64) -> bool) -> Result<SimOutput> {
        let wall = Instant::now();
        self.replay(&mut stream, progress)?;
        let wall_s = wall.elapsed().as_secs_f64();
        let summary = self.summary(wall_s)?;
        let timeline = self.finish_timeline()?;
        let requests = match self.records.take() {
            Some(r) => r.finish()?,
            None => None,
        };
        Ok(SimOutput {
            summary,
            requests,
            timeline,
        })
    }

    fn replay(&mut self, stream: &mut RequestStream, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        let bounded = self.cfg.host.replay == ReplayMode::Closed || self.device_depth > 0;
        match self.cfg.host.replay {
            ReplayMode::Open => self.schedule_arrival(stream, 0)?,
            ReplayMode::Closed => {
                for _ in 0..closed_loop::outstanding(&self.cfg.host) {
                    match stream.next().transpose()? {
                        Some(r) => self.enqueue(Request { arrival_ns: 0, ..r }),
                        None => break,
                    }
                }
                self.try_dispatch(0, progress)?;
            }
        }
        while let Some((now, ev)) = self.events.pop() {
            self.counters.events += 1;
            if self.timeline.as_ref().is_some_and(|t| now >= t.next_close_ns()) {
                self.close_windows(now);
            }
            match ev {
                Event::Arrival => {
                    let r = self.pending.take().expect("an arrival has a pending request");
                    self.enqueue(Request { arrival_ns: now, ..r });
                    if bounded {
                        self.try_dispatch(now, progress)?;
                    } else {
                        let q = self.waiting.pop_front().expect("just enqueued");
                        self.dispatch(now, q, progress)?;
                    }
                    self.schedule_arrival(stream, now)?;
                    if self.tsu.is_some() {
                        self.arm_idle_checks(now);
                    }
                }
                Event::SenseDone {
                    req,
                    ppa,
                    verdict,
                    units,
                    backup,
                } => self.sense_done(now, req, ppa, verdict, units, backup),
                Event::ProgramStart { req, ppa, t_prog } => {
                    let end = self.program_start(now, ppa, t_prog);
                    self.program_reserved(req, ppa, end);
                }
                Event::WritebackStart { req, ppa, t_prog } => {
                    let end = self.program_start(now, ppa, t_prog);
                    self.writebacks.started(end);
                    self.program_reserved(req, ppa, end);
                }
                Event::ProgramEnd { slot } => {
                    let s = self.suspension.as_mut().expect("only suspension tracks program ends");
                    match s.ended(slot, now) {
                        Ok(p) => self.finish_page(p.req, now),
                        Err(later) => self.events.push(later, Event::ProgramEnd { slot }),
                    }
                }
                Event::Retry { req, slot } => {
                    let r = self.retries[slot];
                    self.retries.remove(slot);
                    self.run_attempts(now, req, r);
                }
                Event::BackupRead { req, slot } => {
                    let b = self.backup_reads[slot];
                    self.backup_reads.remove(slot);
                    let sense_ns = self.sense_ns(&b);
                    self.start_read(now, req, b, sense_ns, NO_BACKUP);
                }
                Event::RmwMerged { req, lpn } => self.write_to_flash(now, req, lpn)?,
                Event::GroupSensed { req, group } => self.group_sensed(now, req, group),
                Event::GroupMerged { req, group } => self.group_merged(now, req, group)?,
                Event::MoveHot { first, pages } => self.move_hot(now, first, pages)?,
                Event::Background { die } => self.background_step(now, die)?,
                Event::IdleCheck { die } => self.idle_check(now, die)?,
                Event::RequestDone(r) => {
                    self.reqs.remove(r);
                    self.inflight -= 1;
                    if self.cfg.host.replay == ReplayMode::Closed {
                        if let Some(req) = stream.next().transpose()? {
                            self.enqueue(Request { arrival_ns: now, ..req });
                        }
                    }
                    self.try_dispatch(now, progress)?;
                }
            }
        }
        // The scheduler's queues ran dry with the events, and deferring the flash work left
        // the FTL consistent (checked in debug builds: the tests).
        #[cfg(debug_assertions)]
        if self.tsu.is_some() {
            assert!(
                self.background_drained(),
                "background work left when the events ran out"
            );
            if let Err(e) = self.ftl.check_invariants() {
                panic!("FTL invariant broken under the scheduler: {e}");
            }
        }
        Ok(())
    }

    fn schedule_arrival(&mut self, stream: &mut RequestStream, now: u64) -> Result<()> {
        if let Some(r) = stream.next().transpose()? {
            let t = time_scale::scale_arrival(r.arrival_ns, self.cfg.host.time_scale, "host.time_scale")?;
            self.pending = Some(r);
            self.events.push(t.max(now), Event::Arrival);
        }
        Ok(())
    }

    fn enqueue(&mut self, req: Request) {
        let id = self.next_id;
        self.next_id += 1;
        if let Some(t) = self.timeline.as_mut() {
            t.arrived(req.arrival_ns);
        }
        self.waiting.push_back(Queued { id, req });
    }

    fn try_dispatch(&mut self, now: u64, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        let depth = self.device_depth;
        while !self.waiting.is_empty() && (depth == 0 || self.inflight < depth) {
            let i = self
                .scheduler
                .pick(&self.waiting, now, &DeviceView::new(&self.ftl, &self.cfg.host.critical));
            let q = self.waiting.remove(i).expect("scheduler picked a waiting request");
            self.dispatch(now, q, progress)?;
        }
        Ok(())
    }

    /// Splits a request into page transactions and starts them at `now`.
    fn dispatch(&mut self, now: u64, q: Queued, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        if q.id.is_multiple_of(PROGRESS_EVERY) && q.id > 0 && !progress(q.id) {
            return Err(NandError::Invalid("cancelled".into()));
        }
        let req = q.req;
        if req.size_bytes == 0 {
            return Err(NandError::Invalid(format!("request {} has size 0", q.id)));
        }
        self.counters.first_arrival_ns.get_or_insert(req.arrival_ns);
        self.counters.requests[op_index(req.op)] += 1;
        self.ftl.host_request();
        let first = req.offset_bytes / self.page_bytes;
        let end = req.offset_bytes.checked_add(req.size_bytes).ok_or_else(|| {
            NandError::Invalid(format!(
                "request {} ends past byte 2^64 (offset {})",
                q.id, req.offset_bytes
            ))
        })?;
        let last = (end - 1) / self.page_bytes;
        let pages = u32::try_from(last - first + 1).map_err(|_| {
            NandError::Invalid(format!(
                "request {} spans {} pages, more than the {} one request may have",
                q.id,
                last - first + 1,
                u32::MAX
            ))
        })?;
        let logical = self.ftl.logical_pages();
        if last >= logical && self.cfg.host.out_of_range == OutOfRange::Error {
            return Err(NandError::Invalid(format!(
                "request {} ends at byte {}, past the logical capacity of {} bytes \
                 (set host.out_of_range = \"wrap\" to wrap addresses, or use a larger device)",
                q.id,
                req.offset_bytes + req.size_bytes,
                logical * self.page_bytes
            )));
        }
        let slot = self.reqs.insert(ReqState {
            id: q.id,
            req,
            remaining: pages,
            end_ns: now,
        });
        self.inflight += 1;
        // The controller starts on the pages once the command (and a write's data) crossed
        // the host interface.
        let now = match self.host_link.as_mut() {
            Some(link) => link.submit(now, if req.op == Op::Write { req.size_bytes } else { 0 }),
            None => now,
        };
        match req.op {
            Op::Read => {
                self.issue_reads(now, slot, first, last, (req.offset_bytes, end))?;
                // Blocks these reads pushed past the refresh trigger are refreshed now,
                // behind the reads on the same dies.
                self.ftl.refresh_due(now as i64, &mut self.bg_ops)?;
                self.run_background(now)?;
                Ok(())
            }
            Op::Write => self.issue_writes(now, slot, first, last, (req.offset_bytes, end)),
            Op::Trim => {
                for lpn in first..=last {
                    let lpn = wrap(lpn, logical);
                    if let Some(c) = self.cache.as_mut() {
                        c.trim(lpn);
                    }
                    self.ftl.trim(lpn);
                    self.finish_page(slot, now);
                }
                Ok(())
            }
        }
    }

    /// Writes logical pages `first..=last` of request `slot` (request bytes `bytes`): into
    /// the DRAM cache when there is one (a page is done when it is in DRAM; a dirty page it
    /// evicts goes to flash), else to flash, each page when its program ends. A page the
    /// request covers only in part whose logical page holds data is read first (sensed,
    /// its units the write leaves moved and decoded) and then programmed whole. The cache
    /// keeps whole pages: a partial write into it merges nothing. An interleaved device
    /// writes group by group (`group_write.rs`).
    fn issue_writes(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        if !self.cfg.ecc.interleave.is_off() {
            return self.write_groups(now, slot, first, last, bytes);
        }
        let logical = self.ftl.logical_pages();
        let tag = self.reqs[slot].id;
        let leaves = self.units.leaves(first, last, bytes);
        for p in first..=last {
            let lpn = wrap(p, logical);
            match self.cache.as_mut() {
                Some(cache) => {
                    let req = self.reqs[slot].req;
                    let attrs = WriteAttrs::new(req.stream, self.cfg.host.critical.classifies(lpn, req.critical));
                    if let Some(ev) = cache.write(lpn, tag, attrs) {
                        self.write_back(now, slot, ev)?;
                    }
                    let end = self.dram_access(now);
                    self.finish_page(slot, end);
                }
                None => {
                    let left = leaves.at(p);
                    match (left > 0 && self.ftl.is_mapped(lpn))
                        .then(|| self.ftl.read(lpn))
                        .flatten()
                    {
                        Some(old) => self.read_for_merge(now, slot, lpn, old, left as u16)?,
                        None => self.write_to_flash(now, slot, lpn)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// Sends logical page `lpn` of write request `slot` to flash at `now`; the request's
    /// page is done when its program ends.
    fn write_to_flash(&mut self, now: u64, slot: u32, lpn: u64) -> Result<()> {
        let ReqState { id, req, .. } = self.reqs[slot];
        let attrs = WriteAttrs::new(req.stream, self.cfg.host.critical.classifies(lpn, req.critical));
        let (ppa, at_die, t_prog) = self.send_to_flash(now, lpn, id, attrs)?;
        self.events.push(at_die, Event::ProgramStart { req: slot, ppa, t_prog });
        self.send_backup(now, lpn, id, slot)
    }

    /// Sends the backup copy of page `lpn`, if placement just made one, to its die at `now`
    /// (the data is in the controller: it crosses the copy's channel); request `req` (or
    /// [`NO_REQUEST`]) waits for its program too.
    fn send_backup(&mut self, now: u64, lpn: u64, tag: u64, req: u32) -> Result<()> {
        let Some(ppa) = self.ftl.backup_of(lpn) else {
            return Ok(());
        };
        if self.tsu.is_some() {
            self.erase_before_use(now, ppa.block)?;
        }
        let t_prog = self.program_ns(ppa)?;
        let l = self.geo.loc_of_block(ppa.block);
        let xfer = self.timing.transfer_page_ns;
        let at_die = self
            .backend
            .program_data(l.channel, l.die, l.plane_in_die, tag, now, xfer)
            .end;
        if req != NO_REQUEST {
            self.reqs[req].remaining += 1;
        }
        self.events.push(at_die, Event::ProgramStart { req, ppa, t_prog });
        Ok(())
    }

    /// One page moved to or from the cache's DRAM from `now`, after the accesses before it;
    /// returns when it ends.
    fn dram_access(&mut self, now: u64) -> u64 {
        self.dram_free_ns = self.dram_free_ns.max(now) + self.dram_page_ns;
        self.dram_free_ns
    }

    /// Sends page `lpn` to flash at `now`: the codec encodes it (its word goes into the
    /// page's OOB area), the FTL places it (running any GC it needs) and it crosses its
    /// channel. Returns where it goes, when it reaches the die and its program time.
    fn send_to_flash(&mut self, now: u64, lpn: u64, tag: u64, attrs: WriteAttrs) -> Result<(Ppa, u64, u64)> {
        let ready = self.translate(now, lpn, true);
        let oob = self.read_path.encode_program(lpn, tag)?;
        let ppa = self.ftl.write(lpn, tag, oob, attrs, now as i64, &mut self.bg_ops)?;
        if attrs.critical() {
            self.counters.critical_programs[usize::from(self.geo.page_map.page_type(ppa.page))] += 1;
        }
        self.run_background(now)?;
        if self.tsu.is_some() {
            self.erase_before_use(now, ppa.block)?;
        }
        let t_prog = self.program_ns(ppa)?;
        let l = self.geo.loc_of_block(ppa.block);
        let xfer = self.timing.transfer_page_ns;
        let s = self
            .backend
            .program_data(l.channel, l.die, l.plane_in_die, tag, ready, xfer);
        Ok((ppa, s.end, t_prog))
    }

    /// Program time of the page just placed at `ppa`: the timing model's, which reads the
    /// page's stored cell states only when it needs them.
    #[inline]
    fn program_ns(&mut self, ppa: Ppa) -> Result<u64> {
        let page_type = self.geo.page_map.page_type(ppa.page);
        match self.timing.fixed_program(page_type) {
            Some(t) => Ok(t),
            None => self.modelled_program_ns(ppa, page_type),
        }
    }

    /// [`Simulator::program_ns`] under a model that reads the page's wear or states.
    #[inline(never)]
    fn modelled_program_ns(&mut self, ppa: Ppa, page_type: PageType) -> Result<u64> {
        let hist = if self.timing.needs_content() {
            let m = self
                .ftl
                .page_meta(ppa)
                .ok_or_else(|| NandError::Invalid(format!("no metadata for page {ppa:?} just programmed")))?;
            Some(self.read_path.stored_hist(m.lpn, m.tag, m.oob_tags)?)
        } else {
            None
        };
        let pe = self.ftl.pe_cycles(ppa.block);
        let tvr = self.is_tvr(ppa);
        let t = self.timing.program_for(ppa.block, page_type, hist.as_ref(), pe, tvr);
        if let Some(d) = self.tvr.as_mut() {
            d.note_program(tvr, t);
        }
        Ok(t)
    }

    /// Whether the data at `ppa` is (to be) programmed with TVR's reduced layout.
    fn is_tvr(&self, ppa: Ppa) -> bool {
        self.tvr
            .as_ref()
            .is_some_and(|d| d.whole_device() || self.ftl.page_meta(ppa).is_some_and(|m| d.holds(m.lpn, m.attrs)))
    }

    /// Writes a page evicted from the cache back to flash; request `slot`, which evicted
    /// it, waits for its program only when the write-back window is full.
    fn write_back(&mut self, now: u64, slot: u32, ev: Evicted) -> Result<()> {
        let wait = self.writebacks.full(now, self.writeback_depth);
        if wait {
            self.reqs[slot].remaining += 1;
            self.writebacks.waited += 1;
        }
        self.writebacks.issued();
        let (ppa, at_die, t_prog) = self.send_to_flash(now, ev.lpn, ev.tag, ev.attrs)?;
        let req = if wait { slot } else { NO_REQUEST };
        self.events.push(at_die, Event::WritebackStart { req, ppa, t_prog });
        self.send_backup(now, ev.lpn, ev.tag, req)
    }

    /// Issues the page reads of request `slot` (logical pages `first..=last`) at `now`, in
    /// passes over the request's pages, each a tight loop whose pages do not wait on each
    /// other: the mapping, each page's flash state (the pages sit in different planes, so
    /// their block records are cache misses that then overlap), the pages' RBERs, then each
    /// read's verdict and sensing.
    fn issue_reads(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        // One branch per request: reads that need none of the per-page features take the
        // passes compiled without them.
        if self.plain_reads {
            self.issue_reads_as::<true>(now, slot, first, last, bytes)
        } else {
            self.issue_reads_as::<false>(now, slot, first, last, bytes)
        }
    }

    /// [`Simulator::issue_reads`], with the per-page features compiled out when `PLAIN`
    /// (`plain_reads`: the request's pages ask no cache, mapping cache, critical-page,
    /// judging, TVR or interleaving question).
    #[inline(always)]
    fn issue_reads_as<const PLAIN: bool>(
        &mut self,
        now: u64,
        slot: u32,
        first: u64,
        last: u64,
        bytes: (u64, u64),
    ) -> Result<()> {
        let logical = self.ftl.logical_pages();
        let mut pages = std::mem::take(&mut self.read_batch);
        pages.clear();
        let mut cache_hits = 0;
        let units = self.units.reads(first, last, bytes);
        // Whether any page may hold a critical page, asked once per request.
        let critical = !PLAIN && self.cfg.host.critical.is_active();
        for p in first..=last {
            let lpn = wrap(p, logical);
            if let Some(cache) = self.cache.as_mut().filter(|_| !PLAIN) {
                let (hit, evicted) = cache.read(lpn);
                if let Some(ev) = evicted {
                    self.write_back(now, slot, ev)?;
                }
                if hit {
                    cache_hits += 1;
                    continue;
                }
            }
            let ready = if PLAIN { now } else { self.translate(now, lpn, false) };
            let Some(sensed) = self.ftl.read(lpn) else {
                // An unmapped page is done when its mapping entry is known (now, without a
                // mapping cache; the mapped pages finish only from later events).
                self.finish_page(slot, ready);
                continue;
            };
            let (ppa, reads) = (sensed.ppa, sensed.reads);
            pages.push(PendingRead {
                ppa,
                loc: self.geo.plane_locs[sensed.plane as usize],
                reads,
                state: None,
                rber: 0.0,
                critical: critical
                    && self.cfg.host.critical.may_hold(lpn)
                    && self.ftl.page_meta(ppa).is_some_and(|m| m.attrs.critical()),
                units: units.at(p) as u16,
                lpn,
                ready,
            });
        }
        if !PLAIN && self.read_path.enabled {
            for p in pages.iter_mut() {
                p.state = self.page_state(p.ppa, p.loc.chip, p.reads);
            }
            for p in pages.iter_mut() {
                if let Some(st) = &p.state {
                    p.rber = self.read_path.rber(st, now)?;
                }
            }
        }
        if !PLAIN && self.tvr.is_some() {
            for p in &pages {
                let tvr = self.is_tvr(p.ppa);
                let age_s = self.read_path.retention_s(self.ftl.program_ns(p.ppa), now);
                let rber = p.state.map(|_| p.rber);
                if let Some(d) = self.tvr.as_mut() {
                    d.note_read(tvr, age_s, rber);
                }
            }
        }
        // Codewords of one interleaving group read by one request share one sensing of the
        // group's n pages: each page holds 1/n of every codeword of the group (§3.3 groups
        // the codewords of a write "so that they may be read and updated together"), as a
        // group update senses them once (`group_write.rs`). (group, sensing ns, its end)
        let ways = u64::from(self.cfg.ecc.interleave.ways);
        let mut shared: Option<(u64, u64, u64)> = None;
        for p in &pages {
            let (ppa, loc) = (p.ppa, p.loc);
            let (verdict, extra, backup) = match p.state.as_ref().filter(|_| !PLAIN) {
                Some(st) => {
                    let plan = self.read_path.judge(p.rber, st);
                    let failed = self.read_path.uncorrectable(plan);
                    let backup = if failed {
                        self.judge_backup(now, p.lpn, p.units)?
                    } else {
                        None
                    };
                    if p.critical {
                        let lost = failed && backup.is_none_or(|(_, copy_failed)| copy_failed);
                        self.counters.critical_uncorrectable += u64::from(lost);
                    }
                    let backup = backup.map_or(NO_BACKUP, |(b, _)| self.backup_reads.insert(b));
                    (
                        Verdict::Plan(plan as u16),
                        self.read_path.first_extra_levels(plan),
                        backup,
                    )
                }
                None => (Verdict::Unjudged, 0, NO_BACKUP),
            };
            if !PLAIN && p.critical {
                let page_type = usize::from(self.geo.page_map.page_type(ppa.page));
                self.counters.critical_reads[page_type] += 1;
                if let Some(b) = self.ftl.backup_of(p.lpn) {
                    self.counters.critical_backed_up[page_type][usize::from(self.geo.page_map.page_type(b.page))] += 1;
                }
            }
            let units = p.units;
            let read = PageRead {
                ppa,
                loc,
                verdict,
                extra,
                units,
            };
            // Sensing starts once the mapping entry is known.
            let sense_ns = self.sense_ns(&read);
            if PLAIN || ways == 1 {
                // Not interleaved: the one part is the mapped page.
                self.sense_first(Parts::One(loc), p.ready, slot, read, sense_ns, backup);
                continue;
            }
            match shared {
                Some((group, dur, end)) if group == p.lpn / ways && sense_ns <= dur => {
                    self.read_sensed(end.max(p.ready), slot, read, backup);
                }
                _ => {
                    let end = self.start_read(p.ready, slot, read, sense_ns, backup);
                    shared = Some((p.lpn / ways, sense_ns, end));
                }
            }
        }
        self.read_batch = pages;
        for _ in 0..cache_hits {
            let end = self.dram_access(now);
            self.finish_page(slot, end);
        }
        Ok(())
    }

    /// Judges the read of `lpn`'s backup copy (`units` of it) after its primary was
    /// uncorrectable at `now`, and whether it fails too; `None` when it has no copy.
    fn judge_backup(&mut self, now: u64, lpn: u64, units: u16) -> Result<Option<(PageRead, bool)>> {
        let Some(sensed) = self.ftl.read_backup(lpn) else {
            return Ok(None);
        };
        let (ppa, reads) = (sensed.ppa, sensed.reads);
        let loc = self.geo.plane_locs[sensed.plane as usize];
        let Some(st) = self.page_state(ppa, loc.chip, reads) else {
            return Ok(None);
        };
        let rber = self.read_path.rber(&st, now)?;
        let plan = self.read_path.judge(rber, &st);
        self.counters.backup_reads += 1;
        let failed = self.read_path.uncorrectable(plan);
        self.counters.backup_uncorrectable += u64::from(failed);
        let read = PageRead {
            ppa,
            loc,
            verdict: Verdict::Plan(plan as u16),
            extra: self.read_path.first_extra_levels(plan),
            units,
        };
        Ok(Some((read, failed)))
    }

    /// Starts page read `r` of request `req` at `now`: its first attempt senses the hard
    /// page and, when the strategy starts higher, its extra levels, for `sense_ns`
    /// ([`Simulator::sense_ns`]); `backup` follows it. Returns when the sensing ends.
    #[inline(always)]
    fn start_read(&mut self, now: u64, req: u32, r: PageRead, sense_ns: u64, backup: u32) -> u64 {
        let parts = self.parts(r.ppa, r.loc);
        self.sense_first(parts, now, req, r, sense_ns, backup)
    }

    /// [`Simulator::start_read`] of a read whose codeword's parts are `parts` (a caller
    /// that knows them already skips working them out: every page read starts here).
    #[inline(always)]
    fn sense_first(&mut self, parts: Parts, now: u64, req: u32, r: PageRead, sense_ns: u64, backup: u32) -> u64 {
        let sensed = parts.sense(&mut self.backend, self.suspension.as_mut(), now, sense_ns);
        self.read_sensed(sensed, req, r, backup);
        sensed
    }

    /// The first sensing of read `r` (hard, plus the extra levels its plan senses at once).
    fn sense_ns(&self, r: &PageRead) -> u64 {
        let t_r = self.timing.read(self.geo.page_map.page_type(r.ppa.page));
        t_r + u64::from(r.extra) * self.timing.extra_sense_ns
    }

    /// Read `r`'s first sensing ends at `sensed`. (Every page read comes here: inlined,
    /// its event is built in the caller's registers.)
    #[inline(always)]
    fn read_sensed(&mut self, sensed: u64, req: u32, r: PageRead, backup: u32) {
        self.counters.page_reads += 1;
        self.counters.soft_senses += u64::from(r.extra > 0);
        self.events.push(
            sensed,
            Event::SenseDone {
                req,
                ppa: r.ppa,
                verdict: r.verdict,
                units: r.units,
                backup,
            },
        );
    }

    /// A page read of request `req` ended at `end`: the page is done, its backup copy is
    /// read next, or its data merges into a write (`backup`: a [`rmw::Then`] word).
    #[inline(always)]
    fn read_done(&mut self, req: u32, backup: u32, end: u64) {
        match rmw::Then::of(backup) {
            rmw::Then::Done => self.finish_page(req, end),
            rmw::Then::Backup(slot) => self.events.push(end, Event::BackupRead { req, slot }),
            rmw::Then::Merge(slot) => self.merge_read_done(req, slot, end),
            rmw::Then::Group(group) => self.group_part_read(req, group, end),
        }
    }

    /// What the read path needs to judge a read of `ppa` on `chip`, whose block has been
    /// read `reads` times since erase (`None` when reads are not judged). Wear and age cost
    /// a cache miss per page; models blind to them skip it.
    fn page_state(&self, ppa: Ppa, chip: u32, reads: u32) -> Option<PageState> {
        if !self.read_path.enabled {
            return None;
        }
        let content = self.read_path.needs_content().then(|| {
            let m = self.ftl.page_meta(ppa).expect("a mapped page has metadata");
            (m.lpn, m.tag, m.oob_tags)
        });
        let aged = self.read_path.needs_wear_and_age();
        Some(PageState {
            content,
            program_ns: if aged { self.ftl.program_ns(ppa) } else { 0 },
            pe_cycles: if aged { self.ftl.pe_cycles(ppa.block) } else { 0 },
            reads_since_erase: if aged { reads } else { 0 },
            page_type: self.geo.page_map.page_type(ppa.page),
            chip,
            block: ppa.block,
            tvr: self.is_tvr(ppa),
        })
    }

    #[inline]
    fn sense_done(&mut self, now: u64, req: u32, ppa: Ppa, verdict: Verdict, units: u16, backup: u32) {
        let plan = match verdict {
            Verdict::Plan(p) if !self.read_path.is_single_hard_read(usize::from(p)) => usize::from(p),
            Verdict::Unjudged | Verdict::Plan(_) => {
                let end = self.hard_read_rest(now, ppa, units);
                self.read_done(req, backup, end);
                return;
            }
        };
        let ends = AttemptEnds {
            sense: now,
            xfer: 0,
            decode: 0,
        };
        let r = Retry {
            ppa,
            plan,
            next: 0,
            ends,
            units,
            backup,
        };
        self.run_attempts(now, req, r);
    }

    /// The rest of a single hard read of `units` of the page at `ppa`, sensed at `now`:
    /// their transfer and decode; returns when the data is in the controller. (Every
    /// unjudged page read comes here, from the event loop: inlined.)
    #[inline(always)]
    fn hard_read_rest(&mut self, now: u64, ppa: Ppa, units: u16) -> u64 {
        let units = u32::from(units);
        let dec = match self.parts(ppa, self.geo.loc_of_block(ppa.block)) {
            // Most reads: a whole page on one plane, at the times worked out once.
            Parts::One(l) if self.units.whole(units) => {
                let xfer = self.backend.channel(l.channel, now, self.timing.transfer_page_ns);
                self.backend.decode(l.channel, xfer.end, self.decode_page_ns)
            }
            parts => {
                let bytes = self.units.share(self.page_bytes, units);
                let xfer = parts.transfer(&mut self.backend, &self.timing, now, bytes);
                let dec_ns = self.units.share(self.decode_page_ns, units);
                self.backend.decode(parts.first().channel, xfer, dec_ns)
            }
        };
        dec.end + self.read_path.codec_decode_ns_per_page()
    }

    /// Charges attempts `r.next..` of read `r`'s plan, each moving and decoding the
    /// read's units of the page only: sensing on the die (the first attempt's
    /// sensing is already done), the transfer on the channel, the decode. An attempt
    /// that waits for the previous decode is resumed by a `Retry` event at that time; a
    /// look-ahead attempt senses right after the previous sensing when the die is idle.
    fn run_attempts(&mut self, now: u64, req: u32, r: Retry) {
        let Retry {
            ppa,
            plan,
            next: from,
            mut ends,
            units,
            backup,
        } = r;
        let units = u32::from(units);
        let parts = self.parts(ppa, self.geo.loc_of_block(ppa.block));
        let channel = parts.first().channel;
        let t_r = self.timing.read(self.geo.page_map.page_type(ppa.page));
        let decode_ns = self.timing.decode_ns;
        let n_attempts = self.read_path.plans[plan].attempts.len();
        for i in from..n_attempts {
            let a = self.read_path.plans[plan].attempts[i];
            if i > 0 {
                let ahead = a.look_ahead && parts.dies_idle_at(&self.backend, ends.sense);
                if !ahead && ends.decode > now {
                    let slot = self.retries.insert(Retry { next: i, ends, ..r });
                    self.events.push(ends.decode, Event::Retry { req, slot });
                    return;
                }
                let ready = if ahead { ends.sense } else { ends.decode };
                let dur =
                    if a.hard_sense { t_r } else { 0 } + u64::from(a.extra_levels_sensed) * self.timing.extra_sense_ns;
                ends.sense = parts.sense(&mut self.backend, self.suspension.as_mut(), ready, dur);
                self.counters.soft_senses += 1;
            }
            let bytes = self.units.share(a.xfer_bytes, units);
            ends.xfer = parts.transfer(&mut self.backend, &self.timing, ends.sense.max(ends.xfer), bytes);
            let dec_ns = self.units.share(decode_ns * u64::from(a.codewords_decoded), units);
            ends.decode = self.backend.decode(channel, ends.xfer.max(ends.decode), dec_ns).end;
        }
        // A look-ahead sensing cancelled by a successful decode held the die until then.
        let cancelled = self.read_path.plans[plan].cancelled_look_ahead_levels;
        if cancelled > 0 && parts.dies_idle_at(&self.backend, ends.sense) {
            let full = u64::from(cancelled) * self.timing.extra_sense_ns;
            let held = full.min(ends.decode.saturating_sub(ends.sense));
            if held > 0 {
                // The dies are idle (checked above): nothing to suspend.
                parts.sense(&mut self.backend, None, ends.sense, held);
            }
        }
        self.read_done(req, backup, ends.decode + self.read_path.codec_decode_ns_per_page());
    }

    /// The planes holding the parts of the codeword mapped to `ppa` on plane `loc`.
    #[inline(always)]
    fn parts(&self, ppa: Ppa, loc: PlaneLoc) -> Parts {
        Parts::of(&self.geo, self.cfg.ecc.interleave, ppa, loc)
    }

    /// A page sent to flash reached its die; returns when its program ends. A data codec's
    /// encoder runs first, in the controller (`units_per_page × codec.encode_ns_per_unit`):
    /// the program cannot start before it ends, but it holds neither the die nor the
    /// channel (it overlaps any wait for the die). GC copies move already-encoded data and
    /// pay nothing.
    fn program_start(&mut self, now: u64, ppa: Ppa, t_prog: u64) -> u64 {
        let loc = self.geo.loc_of_block(ppa.block);
        let ready = now + self.read_path.encode_ns_per_page();
        let s = self.backend.program(loc.die, loc.plane_in_die, ready, t_prog);
        self.counters.page_programs += 1;
        s.end
    }

    /// Request `req`'s (or [`NO_REQUEST`]'s) program of `ppa` was reserved to end at `end`:
    /// its page is done then, or, when reads may suspend programs, when it really ends.
    fn program_reserved(&mut self, req: u32, ppa: Ppa, end: u64) {
        if req == NO_REQUEST {
            return;
        }
        match self.suspension.as_mut().filter(|s| s.moves_programs()) {
            Some(s) => {
                let slot = s.track(req, self.geo.loc_of_block(ppa.block).die, end);
                self.events.push(end, Event::ProgramEnd { slot });
            }
            None => self.finish_page(req, end),
        }
    }

    /// One page of request `slot` is done at `end_ns`; completes the request after its last.
    /// Every page comes here: inlined, with the completion out of line.
    #[inline]
    fn finish_page(&mut self, slot: u32, end_ns: u64) {
        let st = &mut self.reqs[slot];
        st.end_ns = st.end_ns.max(end_ns);
        st.remaining -= 1;
        if st.remaining == 0 {
            self.complete_request(slot);
        }
    }

    /// Request `slot`, whose last page is done, completes: its latency is recorded and its
    /// completion crosses the host interface.
    #[inline(never)]
    fn complete_request(&mut self, slot: u32) {
        let ReqState { id, req, end_ns, .. } = self.reqs[slot];
        if req.op == Op::Read && self.background.hot_moves() {
            let first = req.offset_bytes / self.page_bytes;
            let pages = ((req.offset_bytes + req.size_bytes - 1) / self.page_bytes - first + 1) as u32;
            self.events.push(end_ns, Event::MoveHot { first, pages });
        }
        // A read's data and every command's completion cross the host interface back.
        let end_ns = match self.host_link.as_mut() {
            Some(link) => link.complete(end_ns, if req.op == Op::Read { req.size_bytes } else { 0 }),
            None => end_ns,
        };
        let latency = end_ns - req.arrival_ns;
        let i = op_index(req.op);
        self.latency[i].record(latency, req.size_bytes);
        if let Some(flow) = self.flow_latency.get_mut(req.stream as usize) {
            flow[i].record(latency, req.size_bytes);
        }
        if let Some(r) = self.records.as_mut() {
            let row = Row {
                arrival_ns: req.arrival_ns,
                latency_ns: latency,
                offset_bytes: req.offset_bytes,
                size_bytes: req.size_bytes,
                op: i as u8,
            };
            r.push(id, row);
        }
        if let Some(t) = self.timeline.as_mut() {
            t.completed(i, req.size_bytes, end_ns, latency);
        }
        self.counters.last_end_ns = self.counters.last_end_ns.max(end_ns);
        if self.cfg.host.replay == ReplayMode::Closed || self.device_depth > 0 {
            self.events.push(end_ns, Event::RequestDone(slot));
        } else {
            self.reqs.remove(slot);
            self.inflight -= 1;
        }
    }
}

/// `lpn` wrapped into the logical space (`host.out_of_range = "wrap"`), dividing only when
/// it lies outside.
#[inline]
fn wrap(lpn: u64, logical: u64) -> u64 {
    if lpn < logical {
        lpn
    } else {
        lpn % logical
    }
}

fn op_index(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write => 1,
        Op::Trim => 2,
    }
}
