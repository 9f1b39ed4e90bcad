//! Host programs under host reads first (`host_order = "reads_first"`): a host page whose
//! data reaches a busy die waits in the die's queue instead of being reserved behind the
//! running work, so a host read arriving meanwhile (reserved as it comes) senses first;
//! the die's step event programs the queued pages once nothing holds the die, before any
//! background transaction (MQSim's `TSU_OutOfOrder` with GC not urgent: a free chip
//! serves user reads, then user writes, then GC's reads, writes and erases).

use super::HostProgram;
use crate::flash::backend::ArrayOp;
use crate::sim::{Event, Simulator};

impl Simulator {
    /// Host program `p` (ready at `p.ready`, its data at the die at `now`) is reserved
    /// at once, or queued on its die when host reads go first and the die is busy past
    /// `p.ready` or has programs queued — unless it joins the die's current multi-plane
    /// program.
    pub(in crate::sim) fn program_arrived(&mut self, now: u64, p: HostProgram) {
        if let Some(q) = self.tsu.as_mut().filter(|q| q.reads_first) {
            let loc = self.geo.loc_of_block(p.ppa.block);
            let die_free = self.backend.latest(loc.die).2;
            let waits = die_free > p.ready || !q.programs(loc.die).is_empty();
            if waits
                && !self
                    .backend
                    .joins_batch(loc.die, loc.plane_in_die, ArrayOp::Program, Some(p.ppa.page), p.ready)
            {
                if q.push_program(loc.die, p) {
                    self.events.push(die_free.max(now), Event::Background { die: loc.die });
                }
                return;
            }
        }
        self.reserve_program(p, p.ready);
    }

    /// Reserves host program `p` from `ready`: the request's page is done when it ends.
    fn reserve_program(&mut self, p: HostProgram, ready: u64) {
        let end = self.program_start(ready, p.ppa, p.t_prog);
        if p.writeback {
            self.writebacks.started(end);
        }
        self.program_reserved(p.req, p.ppa, end);
    }

    /// `die`'s step at `now`, the die free: its oldest queued host program starts, with
    /// the queued programs for its other planes that join it as one multi-plane program.
    /// Returns false when none is queued.
    pub(in crate::sim) fn program_step(&mut self, now: u64, die: u32) -> bool {
        let q = self.tsu.as_mut().expect("scheduling");
        let Some(first) = q.programs(die).pop_front() else {
            return false;
        };
        self.reserve_program(first, first.ready.max(now));
        let mut i = 0;
        loop {
            let q = self.tsu.as_mut().expect("scheduling");
            let Some(&p) = q.programs(die).get(i) else {
                return true;
            };
            let ready = p.ready.max(now);
            let plane = self.geo.loc_of_block(p.ppa.block).plane_in_die;
            if self
                .backend
                .joins_batch(die, plane, ArrayOp::Program, Some(p.ppa.page), ready)
            {
                q.programs(die).remove(i);
                self.reserve_program(p, ready);
            } else {
                i += 1;
            }
        }
    }
}
