//! Refresh urgency (`[scheduler] refresh_urgent_reads`): read refresh as a preemptible job.
//! Its page moves wait in their die's queue like GC's, but each carries the die's host page
//! reads when the trigger fired; once the die has served `refresh_urgent_reads` more, the
//! refresh is urgent and its moves still queued there are reserved at once (with the die's
//! queued work ahead of them, as urgent GC takes it), ahead of any host work not yet
//! reserved. Checked at the end of each host read request, after the refreshes its reads
//! triggered are queued, so a request's own pages on the die may take it past the bound.

use super::Txn;
use crate::error::Result;
use crate::ftl::{BgOp, Cause};
use crate::metrics::summary::RefreshWaitSummary;
use crate::sim::Simulator;
use std::collections::VecDeque;

/// Per die: host page reads so far and the queued refresh moves' trigger marks.
#[derive(Debug)]
pub(in crate::sim) struct RefreshClock {
    /// Host page reads after a trigger past which its moves are urgent.
    urgent_reads: u64,
    /// Per die: host page reads of mapped pages sensed there so far.
    host_reads: Vec<u64>,
    /// Per die: each queued, unread refresh move's (die's host reads, time) when its
    /// trigger fired, in queue order (moves are read from the front of their die's queue).
    marks: Vec<VecDeque<(u64, u64)>>,
    /// What the moves waited.
    wait: RefreshWaitSummary,
}

/// Whether `t` is a refresh move whose read has not run.
pub(in crate::sim) fn unread_refresh(t: &Txn) -> bool {
    t.read_done.is_none()
        && matches!(
            t.op,
            BgOp::Move {
                cause: Cause::Refresh,
                ..
            }
        )
}

impl RefreshClock {
    /// Clocks for `dies` dies, moves urgent after `urgent_reads` host reads.
    pub fn new(dies: u32, urgent_reads: u32) -> Self {
        RefreshClock {
            urgent_reads: u64::from(urgent_reads),
            host_reads: vec![0; dies as usize],
            marks: vec![VecDeque::new(); dies as usize],
            wait: RefreshWaitSummary {
                refresh_urgent_reads: urgent_reads,
                ..RefreshWaitSummary::default()
            },
        }
    }

    /// A host page read was issued on `die`.
    #[inline(always)]
    pub fn host_read(&mut self, die: u32) {
        self.host_reads[die as usize] += 1;
    }

    /// A refresh move was queued on `die` at `now`, its trigger having fired by now.
    pub fn queued(&mut self, die: u32, now: u64) {
        let d = die as usize;
        self.marks[d].push_back((self.host_reads[d], now));
    }

    /// The oldest queued refresh move of `die` reads its page from `at`.
    pub fn read_starts(&mut self, die: u32, at: u64) {
        let d = die as usize;
        let (reads, queued_ns) = self.marks[d].pop_front().expect("a queued refresh move");
        let past = self.host_reads[d] - reads;
        let w = &mut self.wait;
        w.moves += 1;
        w.reads_past_trigger_max = w.reads_past_trigger_max.max(past);
        w.reads_past_trigger_sum += past;
        w.wait_ns_max = w.wait_ns_max.max(at.saturating_sub(queued_ns));
    }

    /// How many of `die`'s queued refresh moves are urgent (the oldest first: their marks
    /// never decrease along the queue).
    fn urgent_moves(&self, die: u32) -> usize {
        let d = die as usize;
        let now = self.host_reads[d];
        self.marks[d]
            .iter()
            .take_while(|&&(r, _)| r + self.urgent_reads <= now)
            .count()
    }

    /// Whether every queued refresh move was read (a debug-build check).
    #[cfg(any(test, debug_assertions))]
    pub fn is_drained(&self) -> bool {
        self.marks.iter().all(VecDeque::is_empty)
    }

    /// The wait summary (means filled in).
    pub fn summary(&self) -> RefreshWaitSummary {
        let mut w = self.wait;
        w.reads_past_trigger_mean = w.reads_past_trigger_sum as f64 / w.moves.max(1) as f64;
        w
    }
}

impl Simulator {
    /// Counts a host page read on `die` for refresh urgency (nothing when it is off).
    #[inline(always)]
    pub(in crate::sim) fn count_host_read(&mut self, die: u32) {
        if let Some(c) = self.tsu.as_mut().and_then(|q| q.refresh.as_mut()) {
            c.host_read(die);
        }
    }

    /// After a host read request at `now`: on each die whose oldest queued refresh has
    /// passed the bound, the die's queued work up to its last urgent refresh move is
    /// reserved at once, in queue order, one after another (as urgent GC is).
    pub(in crate::sim) fn urgent_refresh(&mut self, now: u64) -> Result<()> {
        if self.tsu.as_ref().and_then(|q| q.refresh.as_ref()).is_none() {
            return Ok(());
        }
        for die in 0..self.geo.dies {
            let c = self
                .tsu
                .as_mut()
                .and_then(|q| q.refresh.as_mut())
                .expect("refresh urgency");
            let mut left = c.urgent_moves(die);
            if left == 0 {
                continue;
            }
            c.wait.urgent_dies += 1;
            let mut ready = now;
            while left > 0 {
                let q = self.tsu.as_mut().expect("scheduling");
                let t = q.front(die).expect("an urgent refresh move is queued on its die");
                q.pop(die);
                left -= usize::from(unread_refresh(&t));
                ready = self.reserve_txn(t, ready)?;
            }
        }
        Ok(())
    }
}
