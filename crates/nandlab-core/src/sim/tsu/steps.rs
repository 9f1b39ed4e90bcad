//! The simulator's side of the scheduler: background work handed to the per-die queues
//! (or reserved at once when urgent), one transaction per step event while no host work
//! holds the die or waits for it (queued host programs go first: `host.rs`), and
//! idle-time GC.

use super::refresh::unread_refresh;
use super::Txn;
use crate::error::Result;
use crate::ftl::{BgOp, Cause};
use crate::sim::{Event, Simulator};

/// The block a background operation works on first (a move's source) and its cause.
fn block_and_cause(op: &BgOp) -> (u32, Cause) {
    match *op {
        BgOp::Move { from, cause, .. } => (from.block, cause),
        BgOp::Erase { block, cause } => (block, cause),
    }
}

impl Simulator {
    /// Hands the FTL's pending background work to the die queues at `now`: urgent GC (and
    /// the die's queued work ahead of it) is reserved at once, one step after another as
    /// under FIFO; the rest waits for its die.
    pub(in crate::sim) fn schedule_background(&mut self, now: u64) -> Result<()> {
        let mut ops = std::mem::take(&mut self.bg_ops);
        let q = self.tsu.as_mut().expect("only a deferring scheduler schedules");
        for op in &ops {
            if let BgOp::Erase { block, .. } = *op {
                q.erase_decided(self.geo.plane_of_block(block), block);
            }
        }
        let policy = self.cfg.scheduler.policy();
        // GC the FTL ran from the hard threshold up is urgent whatever the erases queued.
        let ftl_urgent = self.ftl.take_urgent_gc();
        let mut urgent = Vec::new();
        for op in ops.drain(..) {
            let (block, cause) = block_and_cause(&op);
            let plane = self.geo.plane_of_block(block);
            let die = self.geo.plane_locs[plane as usize].die;
            // The plane's erased free blocks: the FTL's pool less its blocks whose erase is
            // still queued (this GC's victims among them, unless it opened them again).
            let free = q.erased_free(plane, self.ftl.free_blocks(plane), |b| self.ftl.is_free(b));
            let gc_unit = matches!(cause, Cause::Gc | Cause::WearLeveling);
            if gc_unit && (ftl_urgent || policy.gc_urgent(free)) {
                urgent.extend(q.drain(die));
                urgent.push(Txn::new(op));
            } else {
                let t = Txn::new(op);
                if let Some(c) = q.refresh.as_mut().filter(|_| unread_refresh(&t)) {
                    c.queued(die, now);
                }
                if q.push(die, t) {
                    self.events.push(now, Event::Background { die });
                }
            }
        }
        self.bg_ops = ops;
        let mut ready = now;
        for t in urgent {
            ready = self.reserve_txn(t, ready)?;
        }
        Ok(())
    }

    /// Reserves all that is left of `t`, taken from its die's queue, from `ready` (counting
    /// an erase off its plane's pending ones, a refresh move's read off its die's marks);
    /// returns when it ends.
    pub(super) fn reserve_txn(&mut self, t: Txn, ready: u64) -> Result<u64> {
        match t.op {
            BgOp::Erase { block, .. } => {
                let plane = self.geo.plane_of_block(block);
                self.tsu.as_mut().expect("scheduling").erase_reserved(plane, block);
            }
            BgOp::Move { from, .. } => self.refresh_read_starts(&t, from.block, ready),
        }
        self.charge_op(t, ready)
    }

    /// Queued move `t` out of `block` reads its page from `at`: a refresh move's wait ends.
    fn refresh_read_starts(&mut self, t: &Txn, block: u32, at: u64) {
        let die = self.geo.loc_of_block(block).die;
        if let Some(c) = self.tsu.as_mut().and_then(|q| q.refresh.as_mut()) {
            if unread_refresh(t) {
                c.read_starts(die, at);
            }
        }
    }

    /// `die`'s step event at `now`: once no host work holds the die (else the step waits
    /// for the die to be free), its queued host programs start, or else its next background
    /// transaction.
    pub(in crate::sim) fn background_step(&mut self, now: u64, die: u32) -> Result<()> {
        let q = self.tsu.as_mut().expect("scheduling");
        if q.is_idle(die) {
            q.armed[die as usize] = false;
            return Ok(());
        }
        let die_free = self.backend.latest(die).2;
        if die_free > now {
            self.events.push(die_free, Event::Background { die });
            return Ok(());
        }
        if !self.program_step(now, die) && !self.background_txn(now, die)? {
            return Ok(());
        }
        let end = self.backend.latest(die).2;
        let q = self.tsu.as_mut().expect("scheduling");
        if q.is_idle(die) {
            q.armed[die as usize] = false;
            if let Some((idle_ns, _)) = self.cfg.scheduler.policy().idle_gc() {
                if std::mem::take(&mut q.idle_progress[die as usize]) {
                    self.arm_idle_check(die, end + idle_ns);
                }
            }
        } else {
            self.events.push(end.max(now), Event::Background { die });
        }
        Ok(())
    }

    /// Starts `die`'s next background transaction at `now` (the die free): a move's read,
    /// or its program once the data is ready, or an erase. Returns false when it started
    /// nothing and set the die's step for later itself.
    fn background_txn(&mut self, now: u64, die: u32) -> Result<bool> {
        let t = self.tsu.as_ref().expect("scheduling").front(die).expect("queued work");
        match (t.op, t.read_done) {
            (
                BgOp::Move {
                    from,
                    to,
                    cause,
                    path,
                    page,
                },
                None,
            ) => {
                self.refresh_read_starts(&t, from.block, now);
                let data = self.move_read(from, to, cause, path, &page, now)?;
                let done = Txn {
                    read_done: Some(data),
                    ..t
                };
                let to_die = self.geo.loc_of_block(to.block).die;
                let q = self.tsu.as_mut().expect("scheduling");
                if to_die == die {
                    q.set_front(die, done);
                } else {
                    // Behind the other die's queued work (an erase of its block among it).
                    q.pop(die);
                    if q.push(to_die, done) {
                        self.events.push(data, Event::Background { die: to_die });
                    }
                }
            }
            (BgOp::Move { .. }, Some(data)) if data > now => {
                // The page is still on its way through the controller.
                self.events.push(data, Event::Background { die });
                return Ok(false);
            }
            _ => {
                self.tsu.as_mut().expect("scheduling").pop(die);
                self.reserve_txn(t, now)?;
            }
        }
        Ok(true)
    }

    /// Arms idle checks of the dies that have none pending, `idle_ns` after they are free
    /// (at an arrival: the host's work may leave them idle).
    pub(in crate::sim) fn arm_idle_checks(&mut self, now: u64) {
        let Some((idle_ns, _)) = self.cfg.scheduler.policy().idle_gc() else {
            return;
        };
        for die in 0..self.geo.dies {
            let at = self.backend.latest(die).2.max(now) + idle_ns;
            self.arm_idle_check(die, at);
        }
    }

    fn arm_idle_check(&mut self, die: u32, at: u64) {
        let q = self.tsu.as_mut().expect("scheduling");
        if !std::mem::replace(&mut q.idle_armed[die as usize], true) {
            self.events.push(at, Event::IdleCheck { die });
        }
    }

    /// `die`'s idle check at `now`: when the die has had no work for the idle time, GC
    /// collects one victim in each of its planes whose free pool is at or below the idle
    /// threshold, as background work.
    pub(in crate::sim) fn idle_check(&mut self, now: u64, die: u32) -> Result<()> {
        let (idle_ns, threshold) = self.cfg.scheduler.policy().idle_gc().expect("idle GC is on");
        let q = self.tsu.as_mut().expect("scheduling");
        q.idle_armed[die as usize] = false;
        if !q.is_idle(die) {
            // Queued work runs: the check comes back when it is done.
            q.idle_progress[die as usize] = true;
            return Ok(());
        }
        let idle_since = self.backend.latest(die).2;
        if idle_since + idle_ns > now {
            self.arm_idle_check(die, idle_since + idle_ns);
            return Ok(());
        }
        let mut collected = false;
        for plane in (0..self.geo.planes).filter(|&p| self.geo.plane_locs[p as usize].die == die) {
            let q = self.tsu.as_ref().expect("scheduling");
            if q.erased_free(plane, self.ftl.free_blocks(plane), |b| self.ftl.is_free(b)) <= threshold as usize {
                collected |= self.ftl.collect_idle(plane, now as i64, &mut self.bg_ops)?;
            }
        }
        self.tsu.as_mut().expect("scheduling").idle_progress[die as usize] = collected;
        self.schedule_background(now)?;
        // Urgent GC was reserved at once: no step event comes back to check again.
        if collected && self.tsu.as_ref().expect("scheduling").is_idle(die) {
            self.arm_idle_check(die, self.backend.latest(die).2 + idle_ns);
        }
        Ok(())
    }

    /// A host page is about to be programmed into `block` at `now`: if the block waits for
    /// its erase (GC emptied it and the FTL opened it again), its die's queued work up to
    /// and including that erase is reserved first, so the die erases before it programs.
    pub(in crate::sim) fn erase_before_use(&mut self, now: u64, block: u32) -> Result<()> {
        let plane = self.geo.plane_of_block(block);
        let die = self.geo.plane_locs[plane as usize].die;
        let mut ready = now;
        loop {
            let q = self.tsu.as_mut().expect("scheduling");
            if !q.erase_pending(plane, block) {
                return Ok(());
            }
            let t = q.front(die).expect("a pending erase is queued on its die");
            q.pop(die);
            ready = self.reserve_txn(t, ready)?;
        }
    }

    /// Whether every background transaction ran (the queues are empty and no erase is
    /// owed); true without a scheduler. Checked in debug builds only.
    #[cfg(debug_assertions)]
    pub(in crate::sim) fn background_drained(&self) -> bool {
        self.tsu.as_ref().is_none_or(super::Queue::is_drained)
    }
}
