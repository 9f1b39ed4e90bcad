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
//!
//! `Simulator`'s methods are split by job: `build.rs` (construction), `replay.rs` (the
//! event loop), `dispatch.rs` (requests into page transactions, completion),
//! `write_path.rs`, `read_issue.rs` and `read_timing.rs`; background work in
//! `background.rs` and `tsu/`.

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
mod build;
mod dispatch;
mod group_write;
mod interleave;
mod read_issue;
mod read_path;
mod read_timing;
mod replay;
mod rmw;
mod sectors;
pub mod session;
mod summary;
mod suspend;
mod timeline;
mod translation;
mod tsu;
mod write_path;

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
    /// P/E cycles of every block at the end, in block order, when `output.pe_cycles` is on
    /// (the P/E distribution of `nandlab plot`).
    pub pe_by_block: Option<Vec<u32>>,
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
    /// Each host page read, from its request's arrival to its data decoded (`read_page`),
    /// when `output.read_page_latency` is on.
    page_reads: Option<LatencyStats>,
    /// Per flow (`workload.flows`, indexed by `Request::stream`), as `latency`.
    flow_latency: Vec<[LatencyStats; 3]>,
    records: Option<Recorder>,
    /// Metrics over simulated time (`output.timeline_ns`).
    timeline: Option<Timeline>,
    /// The event clock at which the timeline's open window closes (`u64::MAX`: no
    /// timeline, or no request yet): one compare per event.
    timeline_close_ns: u64,
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
        self.output(wall.elapsed().as_secs_f64())
    }

    /// The run's outputs, after its last event.
    fn output(mut self, wall_s: f64) -> Result<SimOutput> {
        let summary = self.summary(wall_s)?;
        let (timeline, pe_by_block) = self.finish_timeline()?;
        let requests = match self.records.take() {
            Some(r) => r.finish()?,
            None => None,
        };
        Ok(SimOutput {
            summary,
            requests,
            timeline,
            pe_by_block,
        })
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
