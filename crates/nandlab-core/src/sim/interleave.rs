//! Where the parts of a codeword are and what reading them costs (seed 001 §3.3; the chip
//! groups are [`ChipGroups`]'s, each member on another channel where the device has enough). An n-way interleaved codeword has its n parts at the
//! same plane, block and page of the n chips of its group: a read senses on all n dies,
//! each from when its die is free (in parallel when they are idle), and moves 1/n of the
//! codeword's data from each die over that die's channel; the decode follows the last part.
//! Without interleaving the one part is the mapped page, charged exactly as before.

use super::suspend::Suspension;
use crate::ecc::interleave::{ChipGroups, GROUP_SPAN};
use crate::ecc::Interleave;
use crate::flash::backend::{ArrayOp, Backend};
use crate::flash::geometry::PlaneLoc;
use crate::flash::{Geometry, Ppa, Timing};

/// The planes holding the parts of one codeword (the mapped page's first). Every page
/// read builds one, so the common single-part case carries just its plane.
#[derive(Debug, Clone, Copy)]
pub enum Parts {
    /// Not interleaved: the mapped page.
    One(PlaneLoc),
    /// The first `n` of `locs`.
    Group {
        locs: [PlaneLoc; GROUP_SPAN as usize],
        n: usize,
    },
}

impl Parts {
    /// The parts of the codeword mapped to `ppa`, on plane `first`.
    #[inline(always)]
    pub fn of(geo: &Geometry, interleave: Interleave, ppa: Ppa, first: PlaneLoc) -> Parts {
        if interleave.is_off() {
            return Parts::One(first);
        }
        let mut locs = [first; GROUP_SPAN as usize];
        let plane = geo.plane_of_block(ppa.block);
        let chips = geo.cfg.channels * geo.cfg.chips_per_channel;
        let groups: ChipGroups = interleave.groups(geo.cfg.chips_per_channel, chips);
        for (slot, chip) in locs.iter_mut().zip(groups.group(first.chip)) {
            *slot = geo.plane_locs[geo.same_plane_on_chip(plane, chip) as usize];
        }
        Parts::Group {
            locs,
            n: interleave.ways as usize,
        }
    }

    /// The mapped page's plane (its channel's decoder decodes the codeword).
    #[inline]
    pub fn first(&self) -> PlaneLoc {
        match self {
            Parts::One(l) => *l,
            Parts::Group { locs, .. } => locs[0],
        }
    }

    fn all(&self) -> &[PlaneLoc] {
        match self {
            Parts::One(l) => std::slice::from_ref(l),
            Parts::Group { locs, n } => &locs[..*n],
        }
    }

    /// Senses every part for `dur_ns` from `ready_ns` (where `suspension` lets it, a
    /// part's read suspends its die's program or erase); when the last sensing ends.
    #[inline(always)]
    pub fn sense(
        &self,
        backend: &mut Backend,
        mut suspension: Option<&mut Suspension>,
        ready_ns: u64,
        dur_ns: u64,
    ) -> u64 {
        match self {
            Parts::One(l) => sense_part(backend, suspension, l, ready_ns, dur_ns),
            Parts::Group { locs, n } => locs[..*n]
                .iter()
                .map(|l| sense_part(backend, suspension.as_deref_mut(), l, ready_ns, dur_ns))
                .max()
                .expect("a codeword has a part"),
        }
    }

    /// Moves `bytes` of sensing results, 1/n from each part over its channel, each from
    /// `ready_ns`; when the last transfer ends.
    #[inline(always)]
    pub fn transfer(&self, backend: &mut Backend, timing: &Timing, ready_ns: u64, bytes: u64) -> u64 {
        match self {
            Parts::One(l) => backend.channel(l.channel, ready_ns, timing.transfer_ns(bytes)).end,
            Parts::Group { locs, n } => {
                let dur = timing.transfer_ns(bytes.div_ceil(*n as u64));
                locs[..*n]
                    .iter()
                    .map(|l| backend.channel(l.channel, ready_ns, dur).end)
                    .max()
                    .expect("a codeword has a part")
            }
        }
    }

    /// Whether every part's die is free at `t_ns` (a look-ahead sensing may start).
    #[inline]
    pub fn dies_idle_at(&self, backend: &Backend, t_ns: u64) -> bool {
        self.all().iter().all(|l| backend.die_idle_at(l.die, t_ns))
    }
}

/// Senses the part on plane `l` for `dur_ns` from `ready_ns` (suspending its die's
/// program or erase where `suspension` lets it); when the sensing ends. (Every page read
/// comes here: inlined, the common case is one reservation.)
#[inline(always)]
fn sense_part(
    backend: &mut Backend,
    suspension: Option<&mut Suspension>,
    l: &PlaneLoc,
    ready_ns: u64,
    dur_ns: u64,
) -> u64 {
    match suspension {
        None => {
            backend
                .array(l.die, l.plane_in_die, ArrayOp::Read, ready_ns, dur_ns)
                .end
        }
        Some(s) => s.sense(backend, l.die, l.plane_in_die, ready_ns, dur_ns),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::DeviceConfig;

    /// 2 channels × 8 chips × 2 dies × 2 planes × 4 blocks.
    fn geo() -> Geometry {
        Geometry::new(&DeviceConfig {
            channels: 2,
            chips_per_channel: 8,
            dies_per_chip: 2,
            planes_per_die: 2,
            blocks_per_plane: 4,
            pages_per_block: 8,
            ..DeviceConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn parts_sit_at_the_same_plane_of_each_chip_of_the_group() {
        let g = geo();
        // Block 4·(4·9 + 3) + 1: chip 9 (channel 1, chip 1 in it), die 1, plane 1.
        let ppa = Ppa {
            block: 4 * (4 * 9 + 3) + 1,
            page: 5,
        };
        let p = Parts::of(&g, Interleave { ways: 2 }, ppa, g.loc_of_block(ppa.block));
        let locs: Vec<(u32, u32, u32, u32)> = p
            .all()
            .iter()
            .map(|l| (l.chip, l.die, l.channel, l.plane_in_die))
            .collect();
        // 2-way pairs chip 9 (the paper's chip 2) with chip (9 + 2 + 8) mod 16 = 3 (the
        // paper's chip 4, on the other channel); die 1 of a chip is global die 2·chip + 1.
        assert_eq!(locs, vec![(9, 19, 1, 1), (3, 7, 0, 1)]);
        // 4-way: hop 1 + 8; chip 9 is member 1 of the group of chip (9 − 9) = 0: chips
        // 0, 9, 2, 11 on channels 0, 1, 0, 1, from chip 9 on.
        let p4 = Parts::of(&g, Interleave { ways: 4 }, ppa, g.loc_of_block(ppa.block));
        let chips: Vec<u32> = p4.all().iter().map(|l| l.chip).collect();
        assert_eq!(chips, vec![9, 2, 11, 0]);
        let p1 = Parts::of(&g, Interleave::default(), ppa, g.loc_of_block(ppa.block));
        assert_eq!(p1.all(), &[g.loc_of_block(ppa.block)]);
    }
}
