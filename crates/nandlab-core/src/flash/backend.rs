//! Timed back-end resources: dies (array operations), channel buses and ECC decoders.
//!
//! Each resource is a FIFO server. The simulator asks for a resource at the simulated time
//! the work becomes ready, in event-time order, so reserving "max(ready, free) .. + service"
//! serves requests in the order they become ready — what an event-driven FIFO queue does,
//! without an event per resource hand-off.
//!
//! Array operations on different planes of one die can run as one multi-plane operation:
//! an operation joins the die's latest batch if it is of the same kind, that batch has not
//! started before the operation was ready, and its plane is not in the batch yet.
//! A die is free again as soon as its array operation ends (data waits in the cache
//! register for the bus), so sensing overlaps the previous page's transfer.
//!
//! Program data is sent with [`Backend::program_data`] and programmed with
//! [`Backend::program`]: a program waits for the data of its own write request that is
//! already on its way to the die's other planes (the next page due on each), so that the
//! pages of one write bound for one die are transferred and then programmed as one
//! multi-plane operation — what a controller's transaction scheduler does when it issues a
//! request's queued page programs of one die as one command (MQSim's TSU). It waits only
//! while that data arrives before the program would end if it started alone.
//!
//! A device that needs equal page addresses ([`Backend::require_equal_pages`],
//! `device.multi_plane_equal_pages`) joins a program to a batch only at the batch's page
//! address: ONFI's multi-plane addressing gives every plane of one multi-plane program the
//! same page address, and MQSim's TSU puts a transaction into a multi-plane command only
//! when its page ID equals the first one's. A program at another page address falls back
//! to a program of its own after the batch, as MQSim leaves the transaction queued for a
//! later command (a controller cannot move a page to another address once placed).

use crate::metrics::timeline::{Busy, BusyWindows};

/// Kind of an array operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayOp {
    /// Sensing (read).
    Read,
    /// Program.
    Program,
    /// Block erase.
    Erase,
}

#[derive(Debug, Clone, Copy, Default)]
struct Die {
    free_ns: u64,
    batch_op: Option<ArrayOp>,
    batch_start: u64,
    batch_planes: u64,
    /// The page address of the batch's programs (`None`: not a program, or not given).
    batch_page: Option<u32>,
    busy_ns: u64,
}

/// A reservation: when the work starts and ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Start time (ns).
    pub start: u64,
    /// End time (ns).
    pub end: u64,
}

/// Program data sent towards a die whose program is not reserved yet.
#[derive(Debug, Clone, Copy)]
struct Incoming {
    plane: u32,
    /// The write request it belongs to.
    group: u64,
    /// The page address it is programmed at.
    page: u32,
    /// When it is in the die's page register.
    at_ns: u64,
}

/// The timed resources of the device.
#[derive(Debug, Clone)]
pub struct Backend {
    dies: Vec<Die>,
    /// Per die, its incoming program data in arrival order (a die's data share one channel).
    incoming: Vec<Vec<Incoming>>,
    channels: Vec<u64>,
    channel_busy_ns: Vec<u64>,
    decoders: Vec<u64>,
    decoders_per_channel: usize,
    multi_plane: bool,
    /// Whether a multi-plane program needs the same page address in every plane.
    equal_pages: bool,
    /// Busy time per window of the timeline, when one is recorded.
    pub busy: Option<BusyWindows>,
}

impl Backend {
    /// Resources for `dies` dies, `channels` channels and `decoders_per_channel` decoders each.
    pub fn new(dies: u32, channels: u32, decoders_per_channel: u32, multi_plane: bool) -> Self {
        Backend {
            dies: vec![Die::default(); dies as usize],
            incoming: vec![Vec::new(); dies as usize],
            channels: vec![0; channels as usize],
            channel_busy_ns: vec![0; channels as usize],
            decoders: vec![0; (channels * decoders_per_channel) as usize],
            decoders_per_channel: decoders_per_channel as usize,
            multi_plane,
            equal_pages: false,
            busy: None,
        }
    }

    /// Whether `op` on plane `plane` of `die` at page address `page`, ready at `ready_ns`,
    /// would join the die's latest batch as one multi-plane operation (the rule
    /// [`Backend::array_at`] applies).
    #[inline]
    pub fn joins_batch(&self, die: u32, plane: u32, op: ArrayOp, page: Option<u32>, ready_ns: u64) -> bool {
        self.joins(die, 1u64 << (plane & 63), op, page, ready_ns)
    }

    /// Makes a multi-plane program need the same page address in every plane (the module
    /// doc); programs of other addresses run on their own.
    pub fn require_equal_pages(&mut self) {
        self.equal_pages = true;
    }

    /// Reserves plane `plane` (index within its die) of `die` for `op` taking `dur_ns`,
    /// ready at `ready_ns`. Every page read senses through it: inlined.
    #[inline(always)]
    pub fn array(&mut self, die: u32, plane: u32, op: ArrayOp, ready_ns: u64, dur_ns: u64) -> Slot {
        self.array_at(die, plane, op, None, ready_ns, dur_ns)
    }

    /// [`Backend::array`] for an operation at page address `page` (`None`: not given; a
    /// program without one joins no batch when pages must be equal).
    #[inline(always)]
    pub fn array_at(
        &mut self,
        die: u32,
        plane: u32,
        op: ArrayOp,
        page: Option<u32>,
        ready_ns: u64,
        dur_ns: u64,
    ) -> Slot {
        let bit = 1u64 << (plane & 63);
        if self.joins(die, bit, op, page, ready_ns) {
            let d = &mut self.dies[die as usize];
            d.batch_planes |= bit;
            let end = d.batch_start + dur_ns;
            if end > d.free_ns {
                d.busy_ns += end - d.free_ns;
                if let Some(b) = self.busy.as_mut() {
                    b.add(Busy::Die, d.free_ns, end);
                }
                d.free_ns = end;
            }
            return Slot {
                start: d.batch_start,
                end,
            };
        }
        let d = &mut self.dies[die as usize];
        let start = ready_ns.max(d.free_ns);
        let end = start + dur_ns;
        *d = Die {
            free_ns: end,
            batch_op: Some(op),
            batch_start: start,
            batch_planes: bit,
            batch_page: page,
            busy_ns: d.busy_ns + dur_ns,
        };
        if let Some(b) = self.busy.as_mut() {
            b.add(Busy::Die, start, end);
        }
        Slot { start, end }
    }

    /// Whether `op` on the plane of bit `bit` at page `page`, ready at `ready_ns`, joins
    /// `die`'s latest batch: same kind, not started before it is ready, its plane not in
    /// it yet, and, for a program when pages must be equal, the batch's page address.
    #[inline(always)]
    fn joins(&self, die: u32, bit: u64, op: ArrayOp, page: Option<u32>, ready_ns: u64) -> bool {
        let d = &self.dies[die as usize];
        self.multi_plane
            && d.batch_op == Some(op)
            && d.batch_start >= ready_ns
            && d.batch_planes & bit == 0
            && (!self.equal_pages || op != ArrayOp::Program || (page.is_some() && d.batch_page == page))
    }

    /// Sends a page of write request `group` over channel `ch` towards page address `page`
    /// of plane `plane` of `die` (a transfer of `dur_ns` from `ready_ns`); its program is
    /// reserved with [`Backend::program`] when it arrives.
    #[allow(clippy::too_many_arguments)]
    pub fn program_data(
        &mut self,
        ch: u32,
        die: u32,
        plane: u32,
        page: u32,
        group: u64,
        ready_ns: u64,
        dur_ns: u64,
    ) -> Slot {
        let s = self.channel(ch, ready_ns, dur_ns);
        if self.multi_plane {
            self.incoming[die as usize].push(Incoming {
                plane,
                group,
                page,
                at_ns: s.end,
            });
        }
        s
    }

    /// Reserves the program of the earliest data sent to plane `plane` of `die` with
    /// [`Backend::program_data`], ready at `ready_ns` (its arrival, or later once encoded).
    /// Unless it joins the die's batch, it starts a batch that waits for its request's
    /// data due next on the die's other planes (at its page address, when pages must be
    /// equal), each arriving before the program would end if it started alone; that data's
    /// programs then join the batch.
    pub fn program(&mut self, die: u32, plane: u32, ready_ns: u64, dur_ns: u64) -> Slot {
        let list = &mut self.incoming[die as usize];
        let Some(k) = list.iter().position(|i| i.plane == plane) else {
            return self.array(die, plane, ArrayOp::Program, ready_ns, dur_ns);
        };
        let own = list.remove(k);
        let page = Some(own.page);
        let bit = 1u64 << (plane & 63);
        if self.joins(die, bit, ArrayOp::Program, page, ready_ns) {
            return self.array_at(die, plane, ArrayOp::Program, page, ready_ns, dur_ns);
        }
        let list = &self.incoming[die as usize];
        let alone = ready_ns.max(self.dies[die as usize].free_ns);
        // Whatever delays this page after its arrival (encoding) delays the others alike.
        let lag = ready_ns.saturating_sub(own.at_ns);
        let mut start = alone;
        let mut seen = bit;
        for i in list.iter() {
            let b = 1u64 << (i.plane & 63);
            if seen & b != 0 {
                continue;
            }
            seen |= b;
            let at = i.at_ns + lag;
            let paired = !self.equal_pages || i.page == own.page;
            if i.group == own.group && paired && at < alone + dur_ns {
                start = start.max(at);
            }
        }
        self.array_at(die, plane, ArrayOp::Program, page, start, dur_ns)
    }

    /// True when `die` has no array work reserved at or after `t_ns` (used by look-ahead
    /// sensing, which only starts speculative work on an idle plane).
    #[inline]
    pub fn die_idle_at(&self, die: u32, t_ns: u64) -> bool {
        self.dies[die as usize].free_ns <= t_ns
    }

    /// `die`'s latest reservation: its kind (`None` before any), when it started and when
    /// it ends (the die's free time). Nothing is queued behind it.
    #[inline]
    pub fn latest(&self, die: u32) -> (Option<ArrayOp>, u64, u64) {
        let d = &self.dies[die as usize];
        (d.batch_op, d.batch_start, d.free_ns)
    }

    /// Pushes the end of `die`'s latest reservation back by `by_ns`, during which the die
    /// is busy with other work (a suspension: the operation stops, a read runs, it resumes).
    pub fn push_back_latest(&mut self, die: u32, by_ns: u64) {
        let d = &mut self.dies[die as usize];
        if let Some(b) = self.busy.as_mut() {
            b.add(Busy::Die, d.free_ns, d.free_ns + by_ns);
        }
        d.free_ns += by_ns;
        d.busy_ns += by_ns;
    }

    /// Shortens `die`'s current reservation to end at `end_ns` (a cancelled speculative
    /// sense); only if nothing was queued behind it.
    pub fn truncate_die(&mut self, die: u32, from_end_ns: u64, end_ns: u64) {
        let d = &mut self.dies[die as usize];
        if d.free_ns == from_end_ns && end_ns < from_end_ns {
            d.busy_ns -= from_end_ns - end_ns;
            d.free_ns = end_ns;
            if let Some(b) = self.busy.as_mut() {
                b.remove(Busy::Die, end_ns, from_end_ns);
            }
        }
    }

    /// Reserves channel `ch` for a transfer of `dur_ns`.
    #[inline]
    pub fn channel(&mut self, ch: u32, ready_ns: u64, dur_ns: u64) -> Slot {
        let free = &mut self.channels[ch as usize];
        let start = ready_ns.max(*free);
        *free = start + dur_ns;
        self.channel_busy_ns[ch as usize] += dur_ns;
        if let Some(b) = self.busy.as_mut() {
            b.add(Busy::Channel, start, start + dur_ns);
        }
        Slot {
            start,
            end: start + dur_ns,
        }
    }

    /// Reserves the earliest-free ECC decoder of channel `ch` for `dur_ns`.
    #[inline]
    pub fn decode(&mut self, ch: u32, ready_ns: u64, dur_ns: u64) -> Slot {
        let k = self.decoders_per_channel;
        // Every page read comes here; with one decoder per channel there is nothing to pick.
        let i = if k == 1 {
            ch as usize
        } else {
            let first = ch as usize * k;
            let pool = &self.decoders[first..first + k];
            let (i, _) = pool
                .iter()
                .enumerate()
                .min_by_key(|(_, &f)| f)
                .expect("at least one decoder");
            first + i
        };
        let free = &mut self.decoders[i];
        let start = ready_ns.max(*free);
        *free = start + dur_ns;
        Slot {
            start,
            end: start + dur_ns,
        }
    }

    /// Total busy time of all dies and of all channels (for utilisation metrics).
    pub fn busy_ns(&self) -> (u64, u64) {
        (
            self.dies.iter().map(|d| d.busy_ns).sum(),
            self.channel_busy_ns.iter().sum(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_plane_serialises_other_planes_batch() {
        let mut b = Backend::new(2, 1, 1, true);
        let a = b.array(0, 0, ArrayOp::Read, 0, 50);
        let c = b.array(0, 0, ArrayOp::Read, 0, 50);
        assert_eq!((a.start, a.end, c.start, c.end), (0, 50, 50, 100));
        // A read on plane 1 ready at 10 joins the batch that starts at 50.
        let d = b.array(0, 1, ArrayOp::Read, 10, 60);
        assert_eq!((d.start, d.end), (50, 110));
        // A program cannot join a read batch.
        let e = b.array(0, 0, ArrayOp::Program, 0, 100);
        assert_eq!((e.start, e.end), (110, 210));
        // Another die is independent.
        assert_eq!(b.array(1, 0, ArrayOp::Read, 5, 50), Slot { start: 5, end: 55 });
        // Without multi-plane, planes of one die serialise.
        let mut s = Backend::new(1, 1, 1, false);
        s.array(0, 0, ArrayOp::Read, 0, 50);
        assert_eq!(s.array(0, 1, ArrayOp::Read, 0, 50).start, 50);
    }

    #[test]
    fn a_writes_pages_for_one_die_program_together() {
        // Request 7's two pages for planes 0 and 1 of die 0 cross channel 0 (20 ns each):
        // in at 20 and 40. Plane 0's program waits for plane 1's data; both run 40..140.
        let mut b = Backend::new(1, 1, 1, true);
        assert_eq!(b.program_data(0, 0, 0, 0, 7, 0, 20).end, 20);
        assert_eq!(b.program_data(0, 0, 1, 0, 7, 0, 20).end, 40);
        assert_eq!(b.program(0, 0, 20, 100), Slot { start: 40, end: 140 });
        assert_eq!(b.program(0, 1, 40, 100), Slot { start: 40, end: 140 });
        // Request 8's pages are in at 160 and 180; encoding takes 5 ns after each arrival,
        // so plane 0 is ready at 165 and waits for plane 1's 185: both run 185..285.
        b.program_data(0, 0, 0, 0, 8, 140, 20);
        b.program_data(0, 0, 1, 0, 8, 140, 20);
        assert_eq!(b.program(0, 0, 165, 100), Slot { start: 185, end: 285 });
        assert_eq!(b.program(0, 1, 185, 100), Slot { start: 185, end: 285 });
        // Another request's data is not waited for: plane 0 starts on arrival.
        let mut o = Backend::new(1, 1, 1, true);
        o.program_data(0, 0, 0, 0, 1, 0, 20);
        o.program_data(0, 0, 1, 0, 2, 0, 20);
        assert_eq!(o.program(0, 0, 20, 100), Slot { start: 20, end: 120 });
        assert_eq!(o.program(0, 1, 40, 100), Slot { start: 120, end: 220 });
        // Nor data that arrives after the program would have ended alone (10 ns program).
        let mut l = Backend::new(1, 1, 1, true);
        l.program_data(0, 0, 0, 0, 1, 0, 20);
        l.program_data(0, 0, 1, 0, 1, 0, 20);
        assert_eq!(l.program(0, 0, 20, 10), Slot { start: 20, end: 30 });
        assert_eq!(l.program(0, 1, 40, 10), Slot { start: 40, end: 50 });
        // Without multi-plane commands the planes' programs serialise.
        let mut s = Backend::new(1, 1, 1, false);
        s.program_data(0, 0, 0, 0, 7, 0, 20);
        s.program_data(0, 0, 1, 0, 7, 0, 20);
        assert_eq!(s.program(0, 0, 20, 100), Slot { start: 20, end: 120 });
        assert_eq!(s.program(0, 1, 40, 100), Slot { start: 120, end: 220 });
    }

    #[test]
    fn equal_pages_pair_only_programs_at_one_page_address() {
        // Request 7's pages for page 5 of planes 0 and 1 cross channel 0 (20 ns each, in at
        // 20 and 40): one two-plane program, 40..140, as without the rule.
        let mut b = Backend::new(1, 1, 1, true);
        b.require_equal_pages();
        b.program_data(0, 0, 0, 5, 7, 0, 20);
        b.program_data(0, 0, 1, 5, 7, 0, 20);
        assert_eq!(b.program(0, 0, 20, 100), Slot { start: 40, end: 140 });
        assert_eq!(b.program(0, 1, 40, 100), Slot { start: 40, end: 140 });
        // Request 8's pages for page 6 of plane 0 and page 7 of plane 1, in at 160 and 180:
        // plane 0 does not wait for a page it cannot pair with and runs 160..260; plane 1's
        // program cannot join it and runs after it, 260..360 (without the rule both would
        // run 180..280, below).
        b.program_data(0, 0, 0, 6, 8, 140, 20);
        b.program_data(0, 0, 1, 7, 8, 140, 20);
        assert_eq!(b.program(0, 0, 160, 100), Slot { start: 160, end: 260 });
        assert_eq!(b.program(0, 1, 180, 100), Slot { start: 260, end: 360 });
        let mut any = Backend::new(1, 1, 1, true);
        any.program_data(0, 0, 0, 6, 8, 140, 20);
        any.program_data(0, 0, 1, 7, 8, 140, 20);
        assert_eq!(any.program(0, 0, 160, 100), Slot { start: 180, end: 280 });
        assert_eq!(any.program(0, 1, 180, 100), Slot { start: 180, end: 280 });
        // Moved pages (array_at): plane 0's copy to page 3 runs 10..110; plane 1's to page 3,
        // ready at 5, joins it. Plane 1's next copy, to page 4, runs after that batch,
        // 110..210, and plane 0's to page 4, ready at 100, joins it (same page, not started).
        let mut m = Backend::new(1, 1, 1, true);
        m.require_equal_pages();
        let p = ArrayOp::Program;
        assert_eq!(m.array_at(0, 0, p, Some(3), 10, 100), Slot { start: 10, end: 110 });
        assert_eq!(m.array_at(0, 1, p, Some(3), 5, 100), Slot { start: 10, end: 110 });
        assert_eq!(m.array_at(0, 1, p, Some(4), 5, 100), Slot { start: 110, end: 210 });
        assert_eq!(m.array_at(0, 0, p, Some(4), 100, 100), Slot { start: 110, end: 210 });
        // Another page, or none given, starts its own program; reads pair as before.
        assert_eq!(m.array_at(0, 1, p, Some(9), 0, 100), Slot { start: 210, end: 310 });
        assert_eq!(m.array(0, 0, p, 0, 100), Slot { start: 310, end: 410 });
        assert_eq!(m.array(0, 1, p, 0, 100), Slot { start: 410, end: 510 });
        assert_eq!(m.array(0, 0, ArrayOp::Read, 0, 50), Slot { start: 510, end: 560 });
        assert_eq!(m.array(0, 1, ArrayOp::Read, 0, 50), Slot { start: 510, end: 560 });
    }

    #[test]
    fn channels_and_decoders_are_fifo() {
        let mut b = Backend::new(1, 2, 2, true);
        assert_eq!(b.channel(0, 100, 20), Slot { start: 100, end: 120 });
        assert_eq!(b.channel(0, 110, 20), Slot { start: 120, end: 140 });
        assert_eq!(b.channel(1, 110, 20), Slot { start: 110, end: 130 });
        // Two decoders: the first two decodes overlap, the third waits.
        assert_eq!(b.decode(0, 0, 8).start, 0);
        assert_eq!(b.decode(0, 0, 8).start, 0);
        assert_eq!(b.decode(0, 0, 8).start, 8);
        // Channel 1's two decoders are its own: free at 0, then at 0 again, then at 8.
        assert_eq!([0, 0, 0].map(|_| b.decode(1, 0, 8).start), [0, 0, 8]);
        assert!(b.die_idle_at(0, 0));
        // One decoder per channel: a channel's decodes queue behind each other only.
        let mut one = Backend::new(1, 2, 1, true);
        assert_eq!(one.decode(1, 5, 8), Slot { start: 5, end: 13 });
        assert_eq!(one.decode(1, 0, 8), Slot { start: 13, end: 21 });
        assert_eq!(one.decode(0, 0, 8), Slot { start: 0, end: 8 });
    }
}
