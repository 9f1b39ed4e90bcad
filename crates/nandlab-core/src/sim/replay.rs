//! The replay loop: requests arrive (open loop, or as completions free slots in a closed
//! loop) and every event goes to its handler.

use super::*;

impl Simulator {
    pub(super) fn replay(&mut self, stream: &mut RequestStream, progress: &mut dyn FnMut(u64) -> bool) -> Result<()> {
        self.start_replay(stream, progress)?;
        self.resume(stream, u64::MAX, progress).map(drop)
    }

    /// The first requests: the first arrival (open loop) or the first outstanding ones.
    pub(super) fn start_replay(
        &mut self,
        stream: &mut RequestStream,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<()> {
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
        Ok(())
    }

    /// Runs events until they run out (returns `false`), or pauses before the first event
    /// that would take a request past the `stop_at`-th from the stream (an arrival, or a
    /// completion in a closed loop) and returns `true`: that event stays queued, the first
    /// the next call runs, so a run paused and resumed is the uninterrupted run. (Checked
    /// on the queue's front before popping: no event held aside, whose take on every
    /// event cost ~2 % of a replay.)
    pub(super) fn resume(
        &mut self,
        stream: &mut RequestStream,
        stop_at: u64,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<bool> {
        let bounded = self.cfg.host.replay == ReplayMode::Closed || self.device_depth > 0;
        loop {
            if self.next_id >= stop_at
                && matches!(self.events.peek(), Some((_, Event::Arrival | Event::RequestDone(_))))
            {
                return Ok(true);
            }
            let Some((now, ev)) = self.events.pop() else {
                break;
            };
            self.counters.events += 1;
            if now >= self.timeline_close_ns {
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
                    self.program_arrived(now, self.host_program(now, req, ppa, t_prog, false))
                }
                Event::WritebackStart { req, ppa, t_prog } => {
                    self.program_arrived(now, self.host_program(now, req, ppa, t_prog, true))
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
        Ok(false)
    }

    #[inline]
    pub(super) fn schedule_arrival(&mut self, stream: &mut RequestStream, now: u64) -> Result<()> {
        if let Some(r) = stream.next().transpose()? {
            let t = time_scale::scale_arrival(r.arrival_ns, self.cfg.host.time_scale, "host.time_scale")?;
            self.pending = Some(r);
            self.events.push(t.max(now), Event::Arrival);
        }
        Ok(())
    }

    #[inline]
    pub(super) fn enqueue(&mut self, req: Request) {
        let id = self.next_id;
        self.next_id += 1;
        if let Some(t) = self.timeline.as_mut() {
            t.arrived(req.arrival_ns);
            self.timeline_close_ns = t.next_close_ns();
        }
        self.waiting.push_back(Queued { id, req });
    }
}
