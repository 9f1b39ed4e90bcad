//! Read leveling (`[ftl.placement] policy = "read_leveling"`, seed 003's RL) through the
//! FTL, by hand: read-hot pages written in a row land in different blocks, and the last
//! complete read window decides which pages are hot.

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::flash::{DeviceConfig, Geometry};
use nandlab_core::ftl::placement::{PlacementConfig, ReadLeveling};
use nandlab_core::ftl::refresh::{RefreshConfig, Threshold};
use nandlab_core::ftl::{Ftl, FtlConfig};

/// One plane of 16 blocks x 8 pages (96 logical pages), the first 24 written (blocks 0-2,
/// full), no GC during the tests (13 free blocks); read-hot from 2 predicted reads, windows
/// of `window` requests, refresh at `refresh_reads` reads (none if `None`).
fn ftl(window: u32, refresh_reads: Option<u32>) -> Ftl {
    let geo = Geometry::new(&DeviceConfig {
        channels: 1,
        chips_per_channel: 1,
        dies_per_chip: 1,
        planes_per_die: 1,
        blocks_per_plane: 16,
        pages_per_block: 8,
        ..DeviceConfig::default()
    })
    .unwrap();
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        placement: PlacementConfig::ReadLeveling(ReadLeveling {
            window_requests: window,
            hot_reads: 2,
        }),
        refresh: refresh_reads.map_or(RefreshConfig::default(), |read_count| {
            RefreshConfig::Threshold(Threshold { read_count })
        }),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: 0.25,
        ..AgingConfig::default()
    };
    Ftl::new(&geo, &cfg, &aging, 1).unwrap()
}

/// One host request per read of `lpns` (the window counts requests).
fn read(f: &mut Ftl, lpns: &[u64]) {
    for &l in lpns {
        f.read(l).unwrap();
        f.host_request();
    }
}

/// Writes `lpn` and returns the block it went to.
fn write(f: &mut Ftl, lpn: u64) -> u32 {
    f.write(lpn, 1, 0, WriteAttrs::default(), 0, &mut Vec::new())
        .unwrap()
        .block
}

#[test]
fn hot_pages_written_in_a_row_land_in_different_blocks() {
    let mut f = ftl(6, None);
    // Window 1 (6 requests): lpn 0 read 3 times, lpn 1 twice, lpn 2 once → predicted 3, 2, 1.
    read(&mut f, &[0, 0, 0, 1, 1, 2]);
    // lpn 0 (hot, 3): the host block and the hot block are both unopened (load 0): ties go
    // to the page's own block, the host block X; X's load is now 3.
    let x = write(&mut f, 0);
    // lpn 1 (hot, 2): X at 3, the hot block unopened (0) → it opens, Y (load 2).
    let y = write(&mut f, 1);
    assert_ne!(x, y);
    assert!(x >= 3 && y >= 3, "fresh blocks, not the preconditioned 0-2");
    // lpn 2 (1 < 2 reads) and lpn 3 (never read) are cold: the host block.
    assert_eq!((write(&mut f, 2), write(&mut f, 3)), (x, x));
    // Window 2: lpn 3 (now in X) read 5 times. Until the window completes, predictions are
    // window 1's: lpn 3 is still cold, so rewriting it keeps it in X.
    read(&mut f, &[3, 3, 3, 3, 3]);
    assert_eq!(write(&mut f, 3), x);
    // The 6th request completes window 2: lpn 3 predicted 5, lpns 0-2 predicted 0. X's load
    // is its 5 reads + 3 + 1 placed = 9, Y's 0 + 2 = 2: lpn 3 goes to Y; lpn 0, cold now,
    // to X.
    f.host_request();
    assert_eq!((write(&mut f, 3), write(&mut f, 0)), (y, x));
    f.check_invariants().unwrap();
}

#[test]
fn a_refreshed_blocks_hot_pages_are_spread() {
    // Refresh at 8 reads with Baseline targets (RL is read leveling plus 003's Baseline
    // refresh). Block 0 holds lpns 0-7; lpns 0 and 1 are read 4 times each within the
    // first window (predicted 4 and 4: no window has completed), and the 8th read makes
    // block 0 due.
    let mut f = ftl(1000, Some(8));
    let block = f.read(0).unwrap().ppa.block;
    assert_eq!(f.read(1).unwrap().ppa.block, block);
    for _ in 0..3 {
        f.read(0).unwrap();
        f.read(1).unwrap();
    }
    let mut ops = Vec::new();
    f.refresh_due(0, &mut ops).unwrap();
    assert_eq!(f.stats().refresh_erases, 1);
    assert_eq!(f.block_reads(block), 0);
    // Pages in block order: lpn 0 (hot, 4) → the refresh block (its own; tie with the
    // unopened hot block at 0), lpn 1 (hot, 4) → the hot block (0 < 4), lpns 2-7 (cold) →
    // the refresh block. The two hot pages no longer share a block.
    let at = |f: &mut Ftl, l: u64| f.read(l).unwrap().ppa.block;
    let (b0, b1) = (at(&mut f, 0), at(&mut f, 1));
    assert!(b0 != b1 && b0 != block && b1 != block);
    assert!((2..8).all(|l| at(&mut f, l) == b0));
    f.check_invariants().unwrap();
}
