//! A run in steps (`nandlab endurance`): the configured workload is replayed up to a
//! request count and paused there with every block, mapping entry, queued event and
//! counter as it is; the caller reads the summary so far, may fast-forward wear in place
//! ([`Session::add_wear`]), and resumes. So a drive ages in epochs that each start in the
//! steady state the one before left (its valid-page layout, free pool, per-page history),
//! not from a fresh fill. Pausing changes nothing: a run paused and resumed anywhere,
//! without wear added, is the uninterrupted run (`tests/integration/session.rs`).

use super::{SimOutput, Simulator};
use crate::error::{NandError, Result};
use crate::metrics::{LatencyStats, Summary};
use crate::workload::{self, RequestStream, WorkloadContext};
use std::time::Instant;

/// A simulator paused between requests, with its workload stream.
pub struct Session {
    sim: Simulator,
    stream: RequestStream,
    /// Wall time spent replaying so far (s).
    wall_s: f64,
    /// Whether the workload ran out (the run is over).
    ended: bool,
    /// The error that stopped a step: the state is then part-way through an event, so
    /// nothing more may run.
    failed: Option<String>,
    /// The read latencies as [`Session::read_quantile_since_mark`] last saw them.
    read_mark: LatencyStats,
}

impl Session {
    /// Opens `sim`'s configured workload; nothing runs yet.
    pub fn new(mut sim: Simulator) -> Result<Self> {
        let ctx = WorkloadContext {
            logical_bytes: sim.logical_bytes(),
            seed: sim.cfg.seed,
        };
        // Read inline, not on a reader thread: a session then holds no thread, so its
        // process may fork a copy of the paused simulation that goes on reading the same
        // stream (the endurance rating's half-step run continues one). Same requests.
        let mut stream: RequestStream = workload::open(&sim.cfg.workload, &ctx)?;
        sim.start_replay(&mut stream, &mut |_| true)?;
        Ok(Session {
            sim,
            stream,
            wall_s: 0.0,
            ended: false,
            failed: None,
            read_mark: LatencyStats::default(),
        })
    }

    /// Replays until `requests` more have been taken from the workload (or it runs out;
    /// a closed loop's first step takes at least its outstanding requests); returns
    /// whether the workload has more. `progress` as [`Simulator::run`]'s.
    pub fn advance(&mut self, requests: u64, progress: &mut dyn FnMut(u64) -> bool) -> Result<bool> {
        self.usable()?;
        if self.ended {
            return Ok(false);
        }
        let wall = Instant::now();
        let stop_at = self.sim.next_id.saturating_add(requests);
        let paused = self.sim.resume(&mut self.stream, stop_at, progress);
        self.wall_s += wall.elapsed().as_secs_f64();
        match paused {
            Ok(paused) => {
                self.ended = !paused;
                Ok(paused)
            }
            Err(e) => {
                self.failed = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// Requests taken from the workload so far.
    pub fn requests(&self) -> u64 {
        self.sim.next_id
    }

    /// The summary of the run so far (every counter since the start).
    pub fn summary(&self) -> Result<Summary> {
        self.usable()?;
        self.sim.summary(self.wall_s)
    }

    /// Read latency at quantile `q` of the host reads completed since the last call (or
    /// the start), `None` when none; the next call starts from here (`nandlab
    /// endurance`'s per-epoch read p99).
    pub fn read_quantile_since_mark(&mut self, q: f64) -> Result<Option<u64>> {
        self.usable()?;
        let reads = &self.sim.latency[0];
        let out = reads.quantile_since_ns(&self.read_mark, q);
        self.read_mark = reads.clone();
        Ok(out)
    }

    /// Adds `delta[b]` P/E cycles to every block `b` in service ([`crate::ftl::Ftl::add_wear`]).
    pub fn add_wear(&mut self, delta: &[u32]) -> Result<()> {
        self.usable()?;
        let added = self.sim.ftl.add_wear(delta);
        if let Err(e) = &added {
            if e.to_string().starts_with("the drive failed") {
                self.failed = Some(e.to_string());
            }
        }
        added
    }

    /// Runs the rest of the workload and returns the run's outputs.
    pub fn finish(mut self, progress: &mut dyn FnMut(u64) -> bool) -> Result<SimOutput> {
        self.advance(u64::MAX, progress)?;
        self.sim.output(self.wall_s)
    }

    fn usable(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(NandError::Invalid(format!("the session stopped at an error: {e}"))),
            None => Ok(()),
        }
    }
}
