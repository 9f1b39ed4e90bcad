//! Placement across chips (seed 001 §3.3). `interleave_group`: through writes, overwrites
//! and GC, every logical page of an n-way group stays on its own chip of the group's chip
//! group, at the same plane of each chip, and every page reads back the data last written
//! to it. `hot_reliable`: pages read often go to the reliable chips.

use nandlab_core::config::AgingConfig;
use nandlab_core::ecc::Interleave;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::flash::Ppa;
use nandlab_core::ftl::placement::{InterleaveGroup, PlacementConfig};
use nandlab_core::ftl::{Ftl, FtlConfig};
use std::collections::HashMap;

use crate::common::two_channels;

#[test]
fn groups_stay_on_their_chips_through_gc_and_data_round_trips() {
    // 16 planes (plane 2·chip + p), 3,072 pages.
    let geo = two_channels(4, 2);
    for ways in [2u32, 4] {
        let cfg = FtlConfig {
            overprovisioning: 0.25,
            placement: PlacementConfig::InterleaveGroup(InterleaveGroup { ways }),
            ..FtlConfig::default()
        };
        let aging = AgingConfig {
            fill_fraction: 0.9,
            ..AgingConfig::default()
        };
        let mut ftl = Ftl::new(&geo, &cfg, &aging, 7).unwrap();
        let logical = ftl.logical_pages();
        let mut tags: HashMap<u64, u64> = HashMap::new();
        let mut ops = Vec::new();
        // Skewed overwrites (a hot eighth of the space) make GC move partly valid blocks.
        let mut x = 12345u64;
        for i in 1..=12_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let span = if (x >> 60) < 12 { logical / 8 } else { logical };
            let lpn = (x >> 20) % span;
            ftl.write(lpn, i, 0, WriteAttrs::default(), i as i64, &mut ops).unwrap();
            tags.insert(lpn, i);
        }
        assert!(ftl.stats.gc_erases > 0, "{ways}-way: GC ran");
        ftl.check_invariants().unwrap();
        let ppb = u64::from(geo.cfg.pages_per_block);
        let plane_of = |lpn: u64| {
            let ppn = ftl.mapping.get(lpn).expect("filled or written");
            let ppa = Ppa {
                block: (ppn / ppb) as u32,
                page: (ppn % ppb) as u32,
            };
            (geo.plane_of_block(ppa.block), ppa)
        };
        let fill = (logical as f64 * 0.9).floor() as u64;
        for base in (0..fill - fill % u64::from(ways)).step_by(ways as usize) {
            let planes: Vec<u32> = (base..base + u64::from(ways)).map(|l| plane_of(l).0).collect();
            let chips: Vec<u32> = planes.iter().map(|&p| geo.plane_locs[p as usize].chip).collect();
            // Member k on chip k of the chip group, all at one plane of their chips.
            let want: Vec<u32> = Interleave { ways }
                .groups(geo.cfg.chips_per_channel, geo.cfg.channels * geo.cfg.chips_per_channel)
                .group(chips[0])
                .collect();
            assert_eq!(chips, want, "{ways}-way group at {base}");
            assert!(planes.iter().all(|p| p % 2 == planes[0] % 2), "{planes:?}");
            for l in base..base + u64::from(ways) {
                let m = ftl.page_meta(plane_of(l).1).unwrap();
                assert_eq!((m.lpn, m.tag), (l, tags.get(&l).copied().unwrap_or(0)));
            }
        }
    }
}

/// Chips that writes of `lpns` land on, after two reads of logical page 5 (in two host
/// requests), with `placement`.
fn chips_written(placement: PlacementConfig, lpns: &[u64]) -> Vec<u32> {
    // Plane = chip; CWDP visits chips 0, 2, 1, 3.
    let geo = two_channels(2, 1);
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        placement,
        ..FtlConfig::default()
    };
    let mut ftl = Ftl::new(&geo, &cfg, &AgingConfig::default(), 1).unwrap();
    for _ in 0..2 {
        ftl.host_request();
        ftl.read(5);
    }
    let mut ops = Vec::new();
    lpns.iter()
        .map(|&l| {
            let ppa = ftl.write(l, 1, 0, WriteAttrs::default(), 0, &mut ops).unwrap();
            geo.loc_of_block(ppa.block).chip
        })
        .collect()
}

#[test]
fn hot_read_pages_go_to_the_reliable_chips() {
    use nandlab_core::ftl::placement::{ByCause, HotReliable};
    // By hand: striping visits chips 0, 2, 1, 3. Page 5 (read twice: hot) must take chip
    // 0 or 1: cold 10 → chip 0; hot 5 passes chip 2, takes chip 1; cold 11 → chip 3; hot 5
    // → chip 0. Without the policy: 0, 2, 1, 3.
    let hot = PlacementConfig::HotReliable(HotReliable {
        window_requests: 100,
        hot_reads: 2,
        reliable_chips: vec![0, 1],
    });
    assert_eq!(chips_written(hot, &[10, 5, 11, 5]), vec![0, 1, 3, 0]);
    assert_eq!(
        chips_written(PlacementConfig::ByCause(ByCause {}), &[10, 5, 11, 5]),
        vec![0, 2, 1, 3]
    );
}

#[test]
fn a_hot_page_read_off_an_unreliable_chip_moves_to_a_reliable_one() {
    use nandlab_core::ftl::placement::HotReliable;
    use nandlab_core::ftl::{BgOp, Cause, MovePath};
    // Plane = chip; CWDP visits chips 0, 2, 1, 3; chips 0 and 1 are reliable.
    let geo = two_channels(2, 1);
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        placement: PlacementConfig::HotReliable(HotReliable {
            window_requests: 100,
            hot_reads: 2,
            reliable_chips: vec![0, 1],
        }),
        ..FtlConfig::default()
    };
    let mut ftl = Ftl::new(&geo, &cfg, &AgingConfig::default(), 1).unwrap();
    let mut ops = Vec::new();
    let ppb = u64::from(geo.cfg.pages_per_block);
    let chip_of = |ftl: &Ftl, lpn: u64| geo.loc_of_block((ftl.mapping.get(lpn).unwrap() / ppb) as u32).chip;
    // Cold writes: page 10 → chip 0, page 5 (tag 55) → chip 2.
    ftl.write(10, 1, 0, WriteAttrs::default(), 0, &mut ops).unwrap();
    ftl.write(5, 55, 0, WriteAttrs::default(), 0, &mut ops).unwrap();
    assert_eq!((chip_of(&ftl, 10), chip_of(&ftl, 5)), (0, 2));
    let from = {
        let ppn = ftl.mapping.get(5).unwrap();
        Ppa {
            block: (ppn / ppb) as u32,
            page: (ppn % ppb) as u32,
        }
    };
    let read_both = |ftl: &mut Ftl| {
        ftl.host_request();
        ftl.read(5);
        ftl.read(10);
    };
    // Read once: not hot yet, nothing moves.
    read_both(&mut ftl);
    assert!(!ftl.move_if_hot(5, 7, &mut ops).unwrap());
    // Read twice: hot. The striping cursor, past chip 2, is at chip 1 (reliable).
    read_both(&mut ftl);
    assert!(ftl.move_if_hot(5, 7, &mut ops).unwrap());
    assert_eq!(chip_of(&ftl, 5), 1);
    // Page 10 is as hot but on reliable chip 0: it stays; so does page 5 now.
    assert!(!ftl.move_if_hot(10, 7, &mut ops).unwrap());
    read_both(&mut ftl);
    assert!(!ftl.move_if_hot(5, 7, &mut ops).unwrap());
    // One move through the controller, from chip 2 to chip 1, with the page's data.
    let [BgOp::Move {
        from: f,
        to,
        cause: Cause::HotRead,
        path: MovePath::Controller,
        page,
    }] = ops[..]
    else {
        panic!("{ops:?}")
    };
    assert_eq!(f, from);
    assert_eq!(geo.loc_of_block(to.block).chip, 1);
    assert_eq!(page.meta.lpn, 5);
    let m = ftl.page_meta(to).unwrap();
    assert_eq!((m.lpn, m.tag, m.program_ns), (5, 55, 7));
    assert!(!ftl.is_valid(from));
    assert_eq!(ftl.stats().hot_page_moves, 1);
    ftl.check_invariants().unwrap();
}
