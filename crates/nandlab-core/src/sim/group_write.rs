//! Writes on an n-way interleaved device (seed 001 §3.3): each of a group's n pages (on
//! the n chips of its chip group, `ftl/placement/interleave_group.rs`) holds 1/n of every
//! codeword of the group, so no page of a group can be programmed before all of its
//! codewords are in the controller. A write covering whole groups programs their pages at
//! once, as a plain write does. A write touching part of a group first reads the old
//! codewords it keeps — the group's untouched codewords and the units a partial page write
//! leaves: one sensing of the group's n pages (every old codeword has a part in each), then
//! each old codeword's transfer (1/n from each chip) and decode, each judged when the write
//! is issued and following its read plan (a failed hard decode senses its soft levels, as
//! a host read's does, `rmw.rs`) — and then programs the group's n pages. The untouched codewords rewritten are counted
//! (`flash.interleave_rewrite_pages`); the request ends with the last program.

use super::rmw::Then;
use super::{wrap, Event, Simulator, Verdict};
use crate::config::SimConfig;
use crate::ecc::interleave::GROUP_SPAN;
use crate::error::{NandError, Result};
use crate::flash::Ppa;

/// A write to one group that waits for the group's old data.
#[derive(Debug, Clone, Copy)]
pub(super) struct GroupWrite {
    members: [Member; GROUP_SPAN as usize],
    n: usize,
    /// Old codewords not yet in the controller, and when the last of those in it arrived.
    pending: u32,
    merged: u64,
}

/// One codeword (logical page) of a group being written.
#[derive(Debug, Clone, Copy)]
struct Member {
    lpn: u64,
    /// Where its old data is, the units of it the write keeps and the verdict of its read
    /// (`None`: nothing to read).
    old: Option<(Ppa, u16, Verdict)>,
    /// Programmed with the group: the write covers it, or it has old data to keep.
    program: bool,
}

/// Checks that interleaving has its placement and no DRAM cache in front of it.
pub(super) fn validate(cfg: &SimConfig) -> Result<()> {
    let ways = cfg.ecc.interleave.ways;
    if cfg.ftl.placement.policy().interleave_ways() != ways {
        return Err(NandError::config(
            "ftl.placement",
            format!(
                "ecc.interleave.ways = {ways} needs the placement that puts each group on its chips: \
                 [ftl.placement] policy = \"interleave_group\", ways = {ways} (and ways = 1 none)"
            ),
        ));
    }
    if ways > 1 && cfg.cache.capacity_bytes > 0 {
        return Err(NandError::config(
            "cache.capacity_bytes",
            "group writes of an interleaved device through the DRAM cache are not modelled (set it to 0)",
        ));
    }
    Ok(())
}

/// The runs of a write's pages `first..=last` that fall in one group (`ways` consecutive
/// logical pages, aligned; `logical` pages, addresses past them wrap): (the run's first
/// page, its logical page, its length).
pub(super) fn group_runs(first: u64, last: u64, ways: u64, logical: u64) -> impl Iterator<Item = (u64, u64, u64)> {
    let mut p = first;
    std::iter::from_fn(move || {
        if p > last {
            return None;
        }
        let lpn = wrap(p, logical);
        let group_end = (lpn - lpn % ways + ways).min(logical);
        let len = (group_end - lpn).min(last - p + 1);
        let run = (p, lpn, len);
        p += len;
        Some(run)
    })
}

impl Simulator {
    /// Writes pages `first..=last` of request `slot` (request bytes `bytes`) on an
    /// interleaved device at `now`, group by group.
    pub(super) fn write_groups(&mut self, now: u64, slot: u32, first: u64, last: u64, bytes: (u64, u64)) -> Result<()> {
        let ways = u64::from(self.cfg.ecc.interleave.ways);
        let logical = self.ftl.logical_pages();
        let whole = self.read_path.planner.units_per_page() as u16;
        let leaves = self.units.leaves(first, last, bytes);
        for (p0, lpn0, len) in group_runs(first, last, ways, logical) {
            let base = lpn0 - lpn0 % ways;
            let none = Member {
                lpn: 0,
                old: None,
                program: false,
            };
            let mut g = GroupWrite {
                members: [none; GROUP_SPAN as usize],
                n: 0,
                pending: 0,
                merged: now,
            };
            for lpn in base..(base + ways).min(logical) {
                let covered = (lpn0..lpn0 + len).contains(&lpn);
                let keep = if covered {
                    leaves.at(p0 + lpn - lpn0) as u16
                } else {
                    whole
                };
                let old = match (keep > 0 && self.ftl.is_mapped(lpn))
                    .then(|| self.ftl.read(lpn))
                    .flatten()
                {
                    Some(old) => {
                        let loc = self.geo.plane_locs[old.plane as usize];
                        let (verdict, _) = self.judge_page(old.ppa, loc, old.reads, now)?;
                        g.pending += 1;
                        Some((old.ppa, keep, verdict))
                    }
                    None => None,
                };
                let program = covered || old.is_some();
                g.members[g.n] = Member { lpn, old, program };
                g.n += 1;
            }
            let members = &g.members[..g.n];
            let olds = || members.iter().filter_map(|m| m.old.map(|(ppa, ..)| ppa));
            let Some(any) = olds().next() else {
                for m in members.iter().filter(|m| m.program) {
                    self.write_to_flash(now, slot, m.lpn)?;
                }
                continue;
            };
            let rewrites = members.iter().filter(|m| m.program).count() as u64 - len;
            self.reqs[slot].remaining += rewrites as u32;
            self.counters.interleave_rewrites += rewrites;
            self.counters.page_reads += olds().count() as u64;
            self.counters.rmw_page_reads += olds().count() as u64;
            // One sensing of the group's pages (the slowest page type of its old codewords).
            let t_r = olds()
                .map(|p| self.timing.read(self.geo.page_map.page_type(p.page)))
                .max()
                .unwrap_or(0);
            let parts = self.parts(any, self.geo.loc_of_block(any.block));
            let sensed = parts.sense(&mut self.backend, self.suspension.as_mut(), now, t_r);
            let group = self.groups.insert(g);
            self.events.push(sensed, Event::GroupSensed { req: slot, group });
        }
        Ok(())
    }

    /// Group `group`'s pages were sensed at `now`: its old codewords move and are decoded,
    /// one after another on the channels, each going on as its read plan says; the group
    /// is merged after the last is in the controller.
    pub(super) fn group_sensed(&mut self, now: u64, req: u32, group: u32) {
        let g = self.groups[group];
        for (ppa, units, verdict) in g.members[..g.n].iter().filter_map(|m| m.old) {
            self.sense_done(now, req, ppa, verdict, units, Then::Group(group).word());
        }
    }

    /// One old codeword of group write `group` is in the controller at `end`.
    pub(super) fn group_part_read(&mut self, req: u32, group: u32, end: u64) {
        let g = &mut self.groups[group];
        g.merged = g.merged.max(end);
        g.pending -= 1;
        if g.pending == 0 {
            let merged = g.merged;
            self.events.push(merged, Event::GroupMerged { req, group });
        }
    }

    /// Group `group`'s data is in the controller at `now`: its pages go to flash.
    pub(super) fn group_merged(&mut self, now: u64, req: u32, group: u32) -> Result<()> {
        let g = self.groups[group];
        self.groups.remove(group);
        for m in g.members[..g.n].iter().filter(|m| m.program) {
            self.write_to_flash(now, req, m.lpn)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_splits_into_runs_of_one_group_each() {
        // 2-way, pages 1..=4: group {0,1} gets page 1, {2,3} both, {4,5} page 4.
        let runs: Vec<_> = group_runs(1, 4, 2, 100).collect();
        assert_eq!(runs, vec![(1, 1, 1), (2, 2, 2), (4, 4, 1)]);
        // 4-way, pages 3..=8: {0..3} gets 3, {4..7} all four, {8..11} page 8.
        let runs: Vec<_> = group_runs(3, 8, 4, 100).collect();
        assert_eq!(runs, vec![(3, 3, 1), (4, 4, 4), (8, 8, 1)]);
        // 10 logical pages, 4-way: the last group is {8, 9}; page 11 wraps to 1.
        let runs: Vec<_> = group_runs(8, 11, 4, 10).collect();
        assert_eq!(runs, vec![(8, 8, 2), (10, 0, 2)]);
    }
}
