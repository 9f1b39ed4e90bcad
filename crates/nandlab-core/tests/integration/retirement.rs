//! Bad-block management (`ftl.retire_pe_limit`, ftl/retire.rs): the erase that brings a
//! block to the limit retires it, retired blocks never come back, the mapping stays whole,
//! and the drive fails (one error naming it) exactly when a plane's blocks in service can
//! no longer hold its share of the logical space plus GC's free blocks.

use nandlab_core::config::{AgingConfig, Distribution};
use nandlab_core::flash::block::{BlockStatus, WriteAttrs};
use nandlab_core::ftl::{Ftl, FtlConfig};

use crate::common::tiny_device;

const LIMIT: u32 = 5;

fn ftl(initial_pe: Distribution, fill_fraction: f64) -> nandlab_core::Result<Ftl> {
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        retire_pe_limit: Some(LIMIT),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction,
        initial_pe,
        ..AgingConfig::default()
    };
    Ftl::new(&tiny_device(), &cfg, &aging, 7)
}

#[test]
fn worn_blocks_retire_at_the_limit_and_the_drive_fails_when_a_plane_runs_short() {
    // tiny_device: 4 planes x 24 blocks x 8 pages; 25 % over-provisioning leaves 576
    // logical pages, 144 per plane = 18 blocks; GC's threshold 2 (+2) makes 22 the blocks
    // a plane needs, so the drive fails at the third block a plane retires.
    let mut f = ftl(Distribution::Constant(0.0), 1.0).unwrap();
    let mut ops = Vec::new();
    let mut written = 0u64;
    let err = loop {
        // A hot tenth and a cold rest, so GC and retirement meet partly valid blocks.
        let lpn = if written.is_multiple_of(4) {
            (written * 7919) % 576
        } else {
            (written * 13) % 57
        };
        match f.write(lpn, written, 0, WriteAttrs::default(), written as i64, &mut ops) {
            Ok(_) => written += 1,
            Err(e) => break e,
        }
        assert!(written < 1_000_000, "the drive never failed");
        for b in &f.blocks {
            assert!(b.pe <= LIMIT, "a block was erased past the limit");
            if b.status == BlockStatus::Retired {
                assert_eq!(b.pe, LIMIT);
            }
        }
        if written.is_multiple_of(512) {
            f.check_invariants().unwrap();
        }
    };
    assert!(err.to_string().contains("the drive failed"), "{err}");
    let retired_in = |plane: u32| {
        (plane * 24..plane * 24 + 24)
            .filter(|&b| f.blocks[b as usize].status == BlockStatus::Retired)
            .count()
    };
    let per_plane: Vec<usize> = (0..4).map(retired_in).collect();
    assert_eq!(*per_plane.iter().max().unwrap(), 3, "{per_plane:?}");
    // Every erase before the failure is one of at most LIMIT per block.
    let erases: u64 = f.blocks.iter().map(|b| u64::from(b.pe)).sum();
    assert!(erases <= u64::from(LIMIT) * 96);
}

#[test]
fn carried_wear_retires_empty_worn_blocks_before_the_run() {
    // Half full: blocks 0-8 of each plane hold data (72 pages = 9 blocks), the rest are
    // free. Wear LIMIT on every eighth block (0, 8, 16 of each plane): the empty one
    // retires at once, the full ones keep their data until their next erase.
    let pe: Vec<f64> = (0..96)
        .map(|b| if b % 8 == 0 { f64::from(LIMIT) } else { 1.0 })
        .collect();
    let f = ftl(Distribution::PerBlock(pe), 0.5).unwrap();
    for (b, st) in f.blocks.iter().enumerate() {
        let (full, worn) = (b % 24 < 9, b % 8 == 0);
        let want = match (full, worn) {
            (true, _) => BlockStatus::Full,
            (false, true) => BlockStatus::Retired,
            (false, false) => BlockStatus::Free,
        };
        assert_eq!(st.status, want, "block {b}");
    }
    assert_eq!(f.retired_blocks(), 4);
    // 23 blocks in service - 18 of data - GC's 4 = 1 spare.
    assert_eq!(f.spare_blocks_min(), 1);
    f.check_invariants().unwrap();
    // Three worn empty blocks per plane leave -1 spare: the drive has failed before it runs.
    let pe: Vec<f64> = (0..96)
        .map(|b| if b % 24 >= 21 { f64::from(LIMIT) } else { 0.0 })
        .collect();
    let e = ftl(Distribution::PerBlock(pe), 0.5).err().unwrap();
    assert!(e.to_string().contains("the drive failed"), "{e}");
    // A list of the wrong length is refused by name.
    let e = ftl(Distribution::PerBlock(vec![0.0; 95]), 0.5).err().unwrap();
    assert!(
        e.to_string().contains("aging.initial_pe") && e.to_string().contains("96"),
        "{e}"
    );
}
