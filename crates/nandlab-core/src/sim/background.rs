//! Background flash work: the page moves and erases the FTL returns ([`BgOp`]) for GC,
//! wear leveling, read refresh and hot pages leaving unreliable chips, charged to the same dies, channels and decoders as host
//! I/O, each step after the previous one, and counted per cause.
//!
//! A page moved by copyback costs a sensing and a program on its die. A page moved through
//! the controller is sensed, sent over its channel and decoded as its read plan says (the
//! error model judges the page with the wear, age and reads it had where it was, so a
//! disturbed page pays its retries and soft levels), then sent back over the destination's
//! channel and programmed.

use super::read_path::PageState;
use super::tsu::Txn;
use super::{wrap, Simulator};
use crate::ecc::ReadEnergy;
use crate::error::Result;
use crate::flash::backend::ArrayOp;
use crate::flash::geometry::PlaneLoc;
use crate::flash::Ppa;
use crate::ftl::{BgOp, Cause, MovePath, MovedPage};
use crate::metrics::summary::{ByCause, CauseWork};

/// The summary's entry for `cause`. Background work is never the host's; the match must
/// still name `Host`, which counts under GC.
fn work_of(by_cause: &mut ByCause, cause: Cause) -> &mut CauseWork {
    match cause {
        Cause::Gc | Cause::Host => &mut by_cause.gc,
        Cause::WearLeveling => &mut by_cause.wear_leveling,
        Cause::Refresh => &mut by_cause.refresh,
        Cause::HotRead => by_cause.hot_read.get_or_insert_with(CauseWork::default),
    }
}

/// Background work counted per cause, and the read energy of moves through the controller
/// (added to the run's energy beside the copyback sensings).
#[derive(Debug, Default)]
pub(super) struct Work {
    /// The `flash.by_cause` table of the summary.
    pub by_cause: ByCause,
    /// Page reads through the controller (all causes).
    pub controller_reads: u64,
    /// Their sensing, transfer (both ways) and decode energy.
    pub controller_energy: ReadEnergy,
}

impl Work {
    /// Whether placement moves hot pages: exactly when the summary lists `hot_read`.
    #[inline]
    pub fn hot_moves(&self) -> bool {
        self.by_cause.hot_read.is_some()
    }

    /// `hot_moves`: placement moves hot pages, so the summary lists `hot_read` (even idle).
    pub fn new(hot_moves: bool) -> Self {
        let mut w = Work::default();
        if hot_moves {
            w.by_cause.hot_read = Some(CauseWork::default());
        }
        w
    }
}

impl Simulator {
    /// Charges the FTL's pending background work, each step after the previous one.
    #[inline]
    pub(super) fn run_background(&mut self, now: u64) -> Result<()> {
        // Called after every host page write and read request; most leave no work.
        if self.bg_ops.is_empty() {
            return Ok(());
        }
        self.charge_background(now)
    }

    fn charge_background(&mut self, now: u64) -> Result<()> {
        if self.tsu.is_some() {
            return self.schedule_background(now);
        }
        let mut ready = now;
        let mut ops = std::mem::take(&mut self.bg_ops);
        for op in ops.drain(..) {
            ready = self.charge_op(Txn::new(op), ready)?;
        }
        self.bg_ops = ops;
        Ok(())
    }

    /// Reserves what is left of background transaction `t` from `ready`: a move's read
    /// (unless done) and program, or an erase. Returns when it ends.
    pub(super) fn charge_op(&mut self, t: Txn, ready: u64) -> Result<u64> {
        match t.op {
            BgOp::Move {
                from,
                to,
                cause,
                path,
                page,
            } => {
                let data = match t.read_done {
                    Some(data) => data.max(ready),
                    None => self.move_read(from, to, cause, path, &page, ready)?,
                };
                self.program_moved(to, cause, data)
            }
            BgOp::Erase { block, cause } => {
                self.counters.erases += 1;
                work_of(&mut self.background.by_cause, cause).erases += 1;
                let erase_ns = self.timing.erase_for(block, self.ftl.pe_cycles(block));
                Ok(self.array_work(block, ArrayOp::Erase, cause, ready, erase_ns))
            }
        }
    }

    /// Reads a page to move out of `from` (for `to`, by `path`) from `ready`; returns when
    /// its data is where the program needs it.
    pub(super) fn move_read(
        &mut self,
        from: Ppa,
        to: Ppa,
        cause: Cause,
        path: MovePath,
        page: &MovedPage,
        ready: u64,
    ) -> Result<u64> {
        self.counters.page_reads += 1;
        self.counters.gc_page_reads += 1;
        self.translation_moved(ready, page.meta.lpn);
        match path {
            MovePath::Copyback => Ok(self.copyback_read(from, cause, ready)),
            MovePath::Controller => self.controller_read(from, to, cause, page, ready),
        }
    }

    /// Moves the hot pages of a read (logical pages `first..first + pages`) that sit on
    /// chips placement keeps hot pages off, once the read has its data (so the moves queue
    /// behind it, not ahead): `hot_reliable`'s migration on read.
    pub(super) fn move_hot(&mut self, now: u64, first: u64, pages: u32) -> Result<()> {
        let logical = self.ftl.logical_pages();
        for p in first..first + u64::from(pages) {
            self.ftl.move_if_hot(wrap(p, logical), now as i64, &mut self.bg_ops)?;
        }
        self.run_background(now)
    }

    /// Senses `from` into its die's page register; returns when it ends.
    fn copyback_read(&mut self, from: Ppa, cause: Cause, ready: u64) -> u64 {
        let t_r = self.timing.read(self.geo.page_map.page_type(from.page));
        let sense_uj = self.read_path.energy().sense_hard_uj;
        let w = work_of(&mut self.background.by_cause, cause);
        w.page_reads += 1;
        w.senses += 1;
        w.energy_uj += sense_uj;
        self.array_work(from.block, ArrayOp::Read, cause, ready, t_r)
    }

    /// Reserves `dur_ns` of array work `op` on `block`'s plane for `cause`, ready at
    /// `ready`; returns when it ends.
    fn array_work(&mut self, block: u32, op: ArrayOp, cause: Cause, ready: u64, dur_ns: u64) -> u64 {
        work_of(&mut self.background.by_cause, cause).die_busy_ns += dur_ns;
        let loc = self.geo.loc_of_block(block);
        self.backend.array(loc.die, loc.plane_in_die, op, ready, dur_ns).end
    }

    /// Reads `from` out through the controller (its read plan's sensings, transfers and
    /// decodes, one attempt after another) and sends the corrected page to the channel of
    /// `to`; returns when it is there.
    fn controller_read(&mut self, from: Ppa, to: Ppa, cause: Cause, page: &MovedPage, ready: u64) -> Result<u64> {
        let loc = self.geo.loc_of_block(from.block);
        let page_type = self.geo.page_map.page_type(from.page);
        let t_r = self.timing.read(page_type);
        let plan = if self.read_path.enabled {
            let state = PageState {
                content: self
                    .read_path
                    .needs_content()
                    .then_some((page.meta.lpn, page.meta.tag, page.meta.oob_tags)),
                program_ns: page.meta.program_ns,
                pe_cycles: page.pe_cycles,
                reads_since_erase: page.reads_since_erase,
                page_type,
                chip: loc.chip,
                block: from.block,
                tvr: self
                    .tvr
                    .as_ref()
                    .is_some_and(|t| t.holds(page.meta.lpn, page.meta.attrs)),
            };
            let rber = self.read_path.rber(&state, ready)?;
            Some(self.read_path.judge_background(rber, &state))
        } else {
            None
        };
        let (energy, decoded) = match plan {
            Some(i) => self.read_path.plan_energy(i),
            None => (self.unjudged_read_energy(), true),
        };
        let units = self.read_path.planner.units_per_page();
        let attempts = self.attempts_of(plan, t_r, units);
        let (mut end, [die, chan, dec]) = self.serial_read(loc, &attempts, ready);
        end += self.read_path.codec_decode_ns_per_page();
        // The corrected page goes back to the destination's die.
        let back = self.timing.transfer_page_ns;
        end = self
            .backend
            .channel(self.geo.loc_of_block(to.block).channel, end, back)
            .end;
        let back_uj = self.page_transfer_uj();
        let e = &mut self.background.controller_energy;
        e.sense_uj += energy.sense_uj;
        e.transfer_uj += energy.transfer_uj + back_uj;
        e.decode_uj += energy.decode_uj;
        self.background.controller_reads += 1;
        let w = work_of(&mut self.background.by_cause, cause);
        w.page_reads += 1;
        w.senses += attempts.len() as u64;
        w.uncorrectable_reads += u64::from(!decoded);
        w.die_busy_ns += die;
        w.channel_busy_ns += chan + back;
        w.decode_busy_ns += dec;
        w.energy_uj += energy.total_uj() + back_uj;
        Ok(end)
    }

    /// The attempts of a read of `units` units of a page sensed hard in `t_r` that follows
    /// plan `plan` (`None`: a read no error model judges, one hard attempt): (sensing on
    /// the die, transfer, decode) in ns each.
    pub(super) fn attempts_of(&self, plan: Option<usize>, t_r: u64, units: u32) -> Vec<(u64, u64, u64)> {
        let share = |x: u64| self.units.share(x, units);
        match plan {
            Some(i) => self.read_path.plans[i]
                .attempts
                .iter()
                .map(|a| {
                    (
                        if a.hard_sense { t_r } else { 0 }
                            + u64::from(a.extra_levels_sensed) * self.timing.extra_sense_ns,
                        self.timing.transfer_ns(share(a.xfer_bytes)),
                        share(self.timing.decode_ns * u64::from(a.codewords_decoded)),
                    )
                })
                .collect(),
            None if self.units.whole(units) => vec![(t_r, self.timing.transfer_page_ns, self.decode_page_ns)],
            None => vec![(
                t_r,
                self.timing.transfer_ns(share(self.page_bytes)),
                share(self.decode_page_ns),
            )],
        }
    }

    /// Charges `attempts` ([`Simulator::attempts_of`]) of a read on plane `loc` one after
    /// another from `ready`: each senses on the die, then moves over the channel, then
    /// decodes. Returns when the last decode ends and the die, channel and decoder time.
    pub(super) fn serial_read(&mut self, loc: PlaneLoc, attempts: &[(u64, u64, u64)], ready: u64) -> (u64, [u64; 3]) {
        let mut busy = [0; 3];
        let mut end = ready;
        for &(sense, xfer, decode) in attempts {
            end = self
                .backend
                .array(loc.die, loc.plane_in_die, ArrayOp::Read, end, sense)
                .end;
            end = self.backend.channel(loc.channel, end, xfer).end;
            end = self.backend.decode(loc.channel, end, decode).end;
            busy = [busy[0] + sense, busy[1] + xfer, busy[2] + decode];
        }
        (end, busy)
    }

    /// Programs a moved page at `to` once its data are ready; returns when it ends.
    fn program_moved(&mut self, to: Ppa, cause: Cause, ready: u64) -> Result<u64> {
        self.counters.page_programs += 1;
        let t_prog = self.program_ns(to)?;
        let program_uj = self.read_path.energy().program_uj;
        let w = work_of(&mut self.background.by_cause, cause);
        w.page_programs += 1;
        w.energy_uj += program_uj;
        w.die_busy_ns += t_prog;
        // Its page address: a device that pairs only equal addresses checks it.
        let (l, at) = (self.geo.loc_of_block(to.block), Some(to.page));
        let s = (self.backend).array_at(l.die, l.plane_in_die, ArrayOp::Program, at, ready, t_prog);
        Ok(s.end)
    }

    /// Energy of moving one page over the bus (µJ).
    pub(super) fn page_transfer_uj(&self) -> f64 {
        f64::from(self.cfg.device.page_size_bytes) / 4096.0 * self.read_path.energy().transfer_uj_per_4kib
    }

    /// Energy of a read no error model judges: one hard sensing, a page transfer, every
    /// codeword decoded once.
    pub(super) fn unjudged_read_energy(&self) -> ReadEnergy {
        let e = self.read_path.energy();
        ReadEnergy {
            sense_uj: e.sense_hard_uj,
            transfer_uj: self.page_transfer_uj(),
            decode_uj: f64::from(self.read_path.planner.codewords_decoded()) * e.decode_uj_per_codeword,
        }
    }
}
