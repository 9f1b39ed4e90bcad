//! Seed 001's data-placement interleaving, placement side (§3.3): the n codewords of a
//! group (an aligned run of n logical pages) are cut into n sub-pages on the n chips of a
//! chip group ([`ChipGroups`]: 2-way pairs the paper's chips 1 + 3 and 2 + 4, 4-way takes
//! all four, each member on another channel). Host pages are laid out by address: member k of a group goes to chip k
//! of its chip group, at the same plane of each chip, and groups take the planes of the
//! groups' first chips in striping order. GC and refresh move pages within their plane, so
//! a group's parts stay on the same plane of their chips for the whole run, which is where
//! the simulator senses them (`sim/interleave.rs`). Active blocks as `by_cause`.

use super::{ByCause, Placement};
use crate::ecc::interleave::{ChipGroups, GROUP_SPAN};
use crate::ecc::Interleave;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;
use crate::flash::Geometry;
use crate::ftl::cause::Cause;
use serde::{Deserialize, Serialize};

/// A group's n logical pages on the n chips of its chip group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterleaveGroup {
    /// n: chips a group spans (2 or 4; must equal `ecc.interleave.ways`).
    pub ways: u32,
}

impl Placement for InterleaveGroup {
    fn validate(&self, table: &str) -> Result<()> {
        if ![2, 4].contains(&self.ways) {
            return Err(NandError::config(format!("{table}.ways"), "must be 2 or 4"));
        }
        Ok(())
    }

    fn slot(&self, cause: Cause, attrs: WriteAttrs) -> usize {
        ByCause {}.slot(cause, attrs)
    }

    fn host_layout(&self, striped: &[u32], geo: &Geometry) -> Result<Option<Vec<u32>>> {
        let chips = geo.cfg.channels * geo.cfg.chips_per_channel;
        if !chips.is_multiple_of(GROUP_SPAN) {
            return Err(NandError::config(
                "ftl.placement.ways",
                format!("chip groups need a multiple of {GROUP_SPAN} chips, the device has {chips}"),
            ));
        }
        let groups: ChipGroups = Interleave { ways: self.ways }.groups(geo.cfg.chips_per_channel, chips);
        let mut layout = Vec::with_capacity(striped.len());
        for &plane in striped {
            let chip = geo.plane_locs[plane as usize].chip;
            if groups.is_first(chip) {
                layout.extend(groups.group(chip).map(|c| geo.same_plane_on_chip(plane, c)));
            }
        }
        Ok(Some(layout))
    }

    fn interleave_ways(&self) -> u32 {
        self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::DeviceConfig;
    use crate::ftl::allocator::Striper;

    /// 2 channels × 4 chips × 1 die × 2 planes: plane `2·chip + p`, chip `4·channel + way`.
    fn geo() -> Geometry {
        Geometry::new(&DeviceConfig {
            channels: 2,
            chips_per_channel: 4,
            dies_per_chip: 1,
            planes_per_die: 2,
            blocks_per_plane: 4,
            pages_per_block: 8,
            ..DeviceConfig::default()
        })
        .unwrap()
    }

    fn layout(ways: u32) -> Vec<u32> {
        let g = geo();
        // CWDP: channel fastest, then way, then plane.
        let s = Striper::new([2, 4, 1, 2], [0, 1, 2, 3]);
        let striped = s.slot_planes();
        assert_eq!(striped, vec![0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15]);
        InterleaveGroup { ways }.host_layout(&striped, &g).unwrap().unwrap()
    }

    #[test]
    fn groups_land_on_their_chip_pairs_at_the_same_plane() {
        // 2-way, by hand: the groups' first chips are 0, 1, 4, 5 (the paper's chips 1 and
        // 2 of each run of four); in striping order their planes are 0 (chip 0), 8 (chip
        // 4), 2 (chip 1), 10 (chip 5), then plane 1 of each. Hop 2 + 4 = 6 mod 8 chips:
        // chip 0 pairs with chip 6 (plane 0 → 12), 4 with 2 (8 → 4), 1 with 7 (2 → 14), 5
        // with 3 (10 → 6) — each pair on both channels.
        assert_eq!(layout(2), vec![0, 12, 8, 4, 2, 14, 10, 6, 1, 13, 9, 5, 3, 15, 11, 7]);
        // 4-way, hop 1 + 4 = 5: first chips 0 → chips 0, 5, 2, 7 (planes 0, 10, 4, 14) and
        // 4 → chips 4, 1, 6, 3 (planes 8, 2, 12, 6).
        assert_eq!(layout(4), vec![0, 10, 4, 14, 8, 2, 12, 6, 1, 11, 5, 15, 9, 3, 13, 7]);
        let g = geo();
        for ways in [2, 4] {
            let l = layout(ways);
            // A permutation of the planes: every plane takes its share of the space.
            let mut sorted = l.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..16).collect::<Vec<_>>());
            // Every group: n distinct chips forming one chip group, one plane number.
            for grp in l.chunks(ways as usize) {
                let chips: Vec<u32> = grp.iter().map(|&p| g.plane_locs[p as usize].chip).collect();
                let want: Vec<u32> = Interleave { ways }.groups(4, 8).group(chips[0]).collect();
                assert_eq!(chips, want);
                assert!(grp.iter().all(|&p| p % 2 == grp[0] % 2));
            }
        }
    }

    #[test]
    fn bad_ways_and_geometry_name_the_key() {
        let e = InterleaveGroup { ways: 3 }.validate("ftl.placement").unwrap_err().to_string();
        assert!(e.contains("ftl.placement.ways"), "{e}");
        let g = Geometry::new(&DeviceConfig {
            channels: 1,
            chips_per_channel: 2,
            ..DeviceConfig::default()
        })
        .unwrap();
        let e = InterleaveGroup { ways: 2 }.host_layout(&[0], &g).unwrap_err().to_string();
        assert!(e.contains("ftl.placement.ways") && e.contains("multiple of 4"), "{e}");
    }
}
