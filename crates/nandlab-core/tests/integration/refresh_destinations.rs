//! Where the blocks a refresh opens come from: the free pool across its wear
//! (`refresh_targets/wear_rank.rs`), for every policy, so that BADR has blocks of different
//! P/E to match hot pages to and Baseline's new block is of any wear, as in SSDsim.

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::BlockStatus;
use nandlab_core::flash::Ppa;
use nandlab_core::ftl::aging::{DistSpec, Distribution};
use nandlab_core::ftl::placement::{ByCause, PlacementConfig};
use nandlab_core::ftl::refresh_targets::{Badr, Baseline, RefreshTargetsConfig};
use nandlab_core::ftl::wear::{NoLeveling, WearLevelingConfig};
use nandlab_core::ftl::Ftl;

use crate::refresh_props::{aged_ftl, refresh_after_reads_5_3_1};

/// Half full (9 of each plane's 24 blocks hold data, 15 are free), P/E U(0, 4000).
fn aging() -> AgingConfig {
    AgingConfig {
        fill_fraction: 0.5,
        initial_pe: Distribution::Dist(DistSpec::Uniform { low: 0.0, high: 4000.0 }),
        ..AgingConfig::default()
    }
}

/// `plane`'s free blocks as (P/E, block), least worn first.
fn free_pool(f: &Ftl, plane: u32) -> Vec<(u32, u32)> {
    let mut pool: Vec<(u32, u32)> = (0..f.blocks.len() as u32)
        .filter(|&b| f.geometry().plane_of_block(b) == plane && f.blocks[b as usize].status == BlockStatus::Free)
        .map(|b| (f.pe_cycles(b), b))
        .collect();
    pool.sort_unstable();
    pool
}

/// Reads `lpn` until its block's reads reach 10 and refreshes it.
fn refresh_block_of(f: &mut Ftl, lpn: u64) {
    while f.read(lpn).unwrap().reads < 10 {}
    let before = f.stats().refresh_erases;
    f.refresh_due(0, &mut Vec::new()).unwrap();
    assert_eq!(f.stats().refresh_erases, before + 1);
}

#[test]
fn baseline_opens_its_refresh_blocks_across_the_wear() {
    // Refresh at 10 reads. The first refresh opens the least-worn of the plane's 15 free
    // blocks and fills it with the 8 valid pages; the second (another full block of the
    // plane) finds it full and opens the block at rank ⌊½ · 15⌋ = 7 of the pool then (14
    // left plus the first refreshed block, erased).
    let policies = (
        RefreshTargetsConfig::Baseline(Baseline {}),
        PlacementConfig::ByCause(ByCause {}),
    );
    let mut f = aged_ftl(10, &aging(), &policies, WearLevelingConfig::None(NoLeveling {}));
    let first = f.read(0).unwrap().ppa.block;
    let plane = f.geometry().plane_of_block(first);
    let pool = free_pool(&f, plane);
    refresh_block_of(&mut f, 0);
    assert_eq!(f.read(0).unwrap().ppa.block, pool[0].1);
    let pool = free_pool(&f, plane);
    assert_eq!(pool.len(), 15);
    // A page of another full block of the plane.
    let other = (0..f.blocks.len() as u32)
        .find(|&b| {
            b != first && f.geometry().plane_of_block(b) == plane && f.blocks[b as usize].status == BlockStatus::Full
        })
        .unwrap();
    let lpn = f.page_meta(Ppa { block: other, page: 0 }).unwrap().lpn;
    refresh_block_of(&mut f, lpn);
    assert_eq!(f.read(lpn).unwrap().ppa.block, pool[7].1);
    f.check_invariants().unwrap();
}

#[test]
fn badr_opens_destinations_across_the_wear_and_gives_the_less_worn_the_hot_pages() {
    // Refresh at 10 reads, BADR over 2 destinations.
    let badr = Badr {
        destination_blocks: 2,
        window_requests: 80_000,
        pe_exponent: 0.33,
        read_exponent: 1.71,
    };
    let policies = (RefreshTargetsConfig::Badr(badr), PlacementConfig::ByCause(ByCause {}));
    let mut f = aged_ftl(10, &aging(), &policies, WearLevelingConfig::None(NoLeveling {}));
    let plane = f.geometry().plane_of_block((f.mapping.get(0).unwrap() / 8) as u32);
    let pool = free_pool(&f, plane);
    assert_eq!(pool.len(), 15);
    // Destinations 0 and 1 at van der Corput ranks 0 and ½: the least-worn of the 15, then
    // rank ⌊14 / 2⌋ = 7 of the 14 left (the 9th least-worn of the 15).
    let (lo, hi) = (pool[0], pool[8]);
    // Pages 0-3 of lpn 0's block read 1, 5, 3 and 1 times: due at 10.
    let (_, owners) = refresh_after_reads_5_3_1(&mut f);
    let to: Vec<u32> = owners.iter().map(|&l| f.read(l).unwrap().ppa.block).collect();
    // Seed 1's draws, the inputs of the hand computation: P/E 23 (block 13) and 1943
    // (block 20).
    assert_eq!((lo, hi), ((23, 13), (1943, 20)));
    // BADR (badr.rs): optimal reads ∝ P/E^(−0.33/0.71) of the 10 predicted:
    // 23^(−0.464789) = e^(−1.457346) = 0.232849, 1943^(−0.464789) = e^(−3.519378) =
    // 0.029618, so 8.8716 / 1.1284. Pages in block order, tgtList [lo, hi]: lpn 0 (1) → lo
    // (7.87 left); A (5) → lo (2.87); B (3): neither covers it → the roomier, lo (−0.13);
    // C (1) → hi (0.13); the four unread pages → hi (it meets 0 reads).
    assert_eq!(to, [lo.1, lo.1, lo.1, hi.1, hi.1, hi.1, hi.1, hi.1]);
    // So 9 of the 10 predicted reads sit on the less-worn destination.
    f.check_invariants().unwrap();
}
