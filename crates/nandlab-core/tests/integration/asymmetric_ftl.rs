//! Seed 004's FTL policies on hand-built cases: MSB allocation (`[ftl.placement] policy =
//! "msb_critical"`, Algorithm 1's placement side) skips to the next MSB page for a critical
//! page and leaves the pages between unprogrammed; asymmetric GC (`[ftl.relocation] order =
//! "asymmetric"`, Algorithm 2, Fig. 8) refills LSB pages with non-critical pages and MSB
//! pages with critical ones; over random workloads critical pages never sit on LSB pages
//! and no page is lost. Page map of every device here (MLC, interleaved):
//! L0 L1 M0 L2 M1 L3 M2 M3 — pages 0, 1, 3, 5 are LSB, 2, 4, 6, 7 MSB.

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::WriteAttrs;
use nandlab_core::flash::{Geometry, Ppa};
use nandlab_core::ftl::placement::{MsbCritical, PlacementConfig};
use nandlab_core::ftl::relocation::{Asymmetric, PageOrder, RelocationConfig};
use nandlab_core::ftl::victim::{Greedy, VictimConfig, Weighted};
use nandlab_core::ftl::{Ftl, FtlConfig};
use nandlab_core::host::CriticalConfig;
use proptest::prelude::*;
use std::collections::HashMap;

use crate::common::{one_plane_device, tiny_device};

fn cfg(op: f64, gc_threshold_blocks: u32, relocation: RelocationConfig, gc: VictimConfig) -> FtlConfig {
    FtlConfig {
        overprovisioning: op,
        gc_threshold_blocks,
        gc,
        placement: PlacementConfig::MsbCritical(MsbCritical {}),
        relocation,
        ..FtlConfig::default()
    }
}

fn empty(geo: &Geometry, cfg: &FtlConfig) -> Ftl {
    let aging = AgingConfig {
        fill_fraction: 0.0,
        ..AgingConfig::default()
    };
    Ftl::new(geo, cfg, &aging, 1).unwrap()
}

/// A device whose first `fill_fraction` of the logical space is preconditioned, its pages
/// in `critical` marked critical.
fn filled(geo: &Geometry, cfg: &FtlConfig, fill_fraction: f64, critical: &CriticalConfig) -> Ftl {
    let aging = AgingConfig {
        fill_fraction,
        ..AgingConfig::default()
    };
    let mut f = Ftl::new(geo, cfg, &aging, 1).unwrap();
    f.classify_fill(critical).unwrap();
    f
}

fn where_is(f: &Ftl, lpn: u64) -> Ppa {
    let ppb = u64::from(f.geometry().cfg.pages_per_block);
    let ppn = f.mapping.get(lpn).expect("mapped");
    Ppa {
        block: (ppn / ppb) as u32,
        page: (ppn % ppb) as u32,
    }
}

const CRIT: WriteAttrs = WriteAttrs(1 << 31);
const PLAIN: WriteAttrs = WriteAttrs(0);

/// Fresh tiny device (4 planes, CWDP striping visits planes 0, 2, 1, 3): the first four
/// critical writes each skip LSB pages 0 and 1 of their plane's block and land on MSB page
/// 2 (8 pages skipped); the fifth skips page 3 (LSB) to page 4; a plain write then takes
/// the next page, LSB page 3 of plane 2, without a skip.
#[test]
fn critical_host_writes_skip_to_the_next_msb_page() {
    let geo = tiny_device();
    let mut f = empty(
        &geo,
        &cfg(0.25, 2, RelocationConfig::default(), VictimConfig::default()),
    );
    let mut ops = Vec::new();
    let mut landed = Vec::new();
    for lpn in 0..5 {
        let next = f.next_host_write(lpn, CRIT);
        let ppa = f.write(lpn, 1, 0, CRIT, 0, &mut ops).unwrap();
        landed.push((geo.split_block(ppa.block).0, ppa.page, next.accepted));
    }
    assert_eq!(
        landed,
        vec![
            (0, 2, false),
            (2, 2, false),
            (1, 2, false),
            (3, 2, false),
            (0, 4, false)
        ]
    );
    assert_eq!(f.stats.skipped_pages, 9);
    let ppa = f.write(100, 1, 0, PLAIN, 0, &mut ops).unwrap();
    assert_eq!((geo.split_block(ppa.block).0, ppa.page), (2, 3));
    assert_eq!(f.stats.skipped_pages, 9);
    // Skipped pages are programmed-over (the write pointer passed them) but hold no data.
    let block0 = where_is(&f, 0).block;
    assert_eq!(f.blocks[block0 as usize].written, 5);
    assert_eq!(f.blocks[block0 as usize].valid, 2);
    for page in [0, 1, 3] {
        assert!(!f.is_valid(Ppa { block: block0, page }));
    }
    f.check_invariants().unwrap();
}

/// One plane of 6 blocks, GC at 4 free blocks. Host writes fill block 0 with
/// 10 11 1* 12 2* 13 14 15 (critical 1 and 2 on MSB pages 2 and 4, no skip), then 11, 13,
/// 14, 15 are trimmed: the victim holds A = 10, C* = 1, G = 12, E* = 2 (Fig. 8's four valid
/// pages, two critical). The tenth write runs GC into block 2 (the least-worn free block).
fn gc_case(relocation: RelocationConfig) -> (Ftl, Vec<(u64, u32)>) {
    let geo = one_plane_device();
    let mut f = empty(&geo, &cfg(0.5, 4, relocation, VictimConfig::Greedy(Greedy {})));
    let mut ops = Vec::new();
    for (lpn, a) in [
        (10, PLAIN),
        (11, PLAIN),
        (1, CRIT),
        (12, PLAIN),
        (2, CRIT),
        (13, PLAIN),
        (14, PLAIN),
        (15, PLAIN),
    ] {
        let ppa = f.write(lpn, 1, 0, a, 0, &mut ops).unwrap();
        assert_eq!(ppa.block, 0);
    }
    assert_eq!(f.stats.skipped_pages, 0);
    for lpn in [11, 13, 14, 15] {
        f.trim(lpn);
    }
    f.write(20, 1, 0, PLAIN, 0, &mut ops).unwrap(); // opens block 1
    assert_eq!(f.stats.gc_erases, 0);
    f.write(21, 1, 0, PLAIN, 0, &mut ops).unwrap(); // GC empties block 0 first
    assert_eq!((f.stats.gc_erases, f.stats.gc_page_moves), (1, 4));
    f.check_invariants().unwrap();
    let moved = [10, 1, 12, 2]
        .iter()
        .map(|&l| {
            let p = where_is(&f, l);
            assert_eq!(p.block, 2, "lpn {l}");
            (l, p.page)
        })
        .collect();
    (f, moved)
}

/// Asymmetric GC: A and G take LSB pages 0 and 1, C* MSB page 2; LSB page 3 finds no plain
/// page left and stays empty (1 skipped), E* takes MSB page 4.
#[test]
fn asymmetric_gc_puts_plain_pages_on_lsb_and_critical_on_msb() {
    let (f, moved) = gc_case(RelocationConfig::Asymmetric(Asymmetric {}));
    assert_eq!(moved, vec![(10, 0), (1, 2), (12, 1), (2, 4)]);
    assert_eq!(f.stats.skipped_pages, 1);
}

/// Page order with MSB allocation: A on page 0, C* refuses LSB page 1 (skipped) and takes
/// MSB page 2, G page 3, E* page 4 — same skip count here, but an LSB page wasted early.
#[test]
fn page_order_gc_with_msb_allocation_skips_for_critical_pages() {
    let (f, moved) = gc_case(RelocationConfig::PageOrder(PageOrder {}));
    assert_eq!(moved, vec![(10, 0), (1, 2), (12, 3), (2, 4)]);
    assert_eq!(f.stats.skipped_pages, 1);
}

/// Critical pages only, on one plane of 6 blocks with 4 MSB pages each: every full block
/// holds 4 valid critical pages, and moving them fills a whole block again, so GC frees
/// nothing. It gives up after a plane's worth of victims and the write fails with one line
/// (before, GC looped forever).
#[test]
fn gc_that_frees_nothing_gives_up_and_the_write_fails() {
    let geo = one_plane_device();
    let mut f = empty(
        &geo,
        &cfg(
            0.5,
            1,
            RelocationConfig::Asymmetric(Asymmetric {}),
            VictimConfig::Greedy(Greedy {}),
        ),
    );
    let mut ops = Vec::new();
    let err = (0..24)
        .find_map(|l| f.write(l, 1, 0, CRIT, 0, &mut ops).err())
        .expect("the device fills up");
    let msg = err.to_string();
    assert!(
        msg.contains("device is full") || msg.contains("no free block left"),
        "{msg}"
    );
    assert!(!msg.contains('\n'));
    f.check_invariants().unwrap();
}

/// One plane, 24 logical pages, the first 16 preconditioned (blocks 0 and 1, lpn l at
/// position l), lpns 0 and 1 critical. Their home pages 0 and 1 are LSB pages, so each
/// trades homes with the next non-critical filled page on an MSB page: lpn 2 (page 2) and
/// lpn 4 (page 4) — the device starts with its metadata on MSB pages, flagged. Overwriting
/// lpns 3, 5, 6, 7 and filling block 2 leaves block 0 with 4 valid pages (2, 4, 0*, 1* on
/// pages 0, 1, 2, 4); the write that opens block 3 leaves 2 free blocks, and the next runs
/// GC, which empties block 0 into block 4 as Fig. 8 does: plain lpns 2 and 4 on LSB pages 0
/// and 1, critical lpn 0 on MSB page 2, LSB page 3 left empty, critical lpn 1 on MSB page
/// 4 — both still flagged.
#[test]
fn preconditioned_critical_pages_start_on_msb_pages_and_stay_there_through_gc() {
    let geo = one_plane_device();
    let critical = CriticalConfig {
        lpn_ranges: vec![[0, 1]],
        ..Default::default()
    };
    let cfg = cfg(
        0.5,
        2,
        RelocationConfig::Asymmetric(Asymmetric {}),
        VictimConfig::Greedy(Greedy {}),
    );
    let mut f = filled(&geo, &cfg, 0.7, &critical);
    let placed = |f: &Ftl, l: u64| {
        let p = where_is(f, l);
        (p.block, p.page, f.page_meta(p).unwrap().attrs.critical())
    };
    let start: Vec<_> = [0, 1, 2, 3, 4].iter().map(|&l| placed(&f, l)).collect();
    assert_eq!(
        start,
        vec![(0, 2, true), (0, 4, true), (0, 0, false), (0, 3, false), (0, 1, false)]
    );
    assert_eq!(f.stats.skipped_pages, 0);
    f.check_invariants().unwrap();
    let mut ops = Vec::new();
    for l in [3, 5, 6, 7, 16, 17, 18, 19, 20] {
        f.write(l, 1, 0, PLAIN, 0, &mut ops).unwrap();
    }
    assert_eq!(f.stats.gc_erases, 0);
    f.write(21, 1, 0, PLAIN, 0, &mut ops).unwrap();
    assert_eq!((f.stats.gc_erases, f.stats.gc_page_moves), (1, 4));
    let moved: Vec<_> = [2, 4, 0, 1].iter().map(|&l| placed(&f, l)).collect();
    assert_eq!(moved, vec![(4, 0, false), (4, 1, false), (4, 2, true), (4, 4, true)]);
    assert_eq!(f.stats.skipped_pages, 1);
    f.check_invariants().unwrap();
}

/// Without a placement that cares (page order, `by_cause`), the fill keeps its layout —
/// critical lpn 1 on LSB page 1 — and GC keeps its flag.
#[test]
fn a_preconditioned_critical_page_keeps_its_flag_through_gc() {
    let geo = one_plane_device();
    let critical = CriticalConfig {
        lpn_ranges: vec![[1, 1]],
        ..Default::default()
    };
    let cfg = FtlConfig {
        placement: PlacementConfig::default(),
        ..cfg(0.5, 2, RelocationConfig::default(), VictimConfig::Greedy(Greedy {}))
    };
    let mut f = filled(&geo, &cfg, 0.7, &critical);
    assert_eq!(where_is(&f, 1), Ppa { block: 0, page: 1 });
    assert!(f.page_meta(where_is(&f, 1)).unwrap().attrs.critical());
    assert!(!f.page_meta(where_is(&f, 2)).unwrap().attrs.critical());
    assert_eq!(f.mapping_entries(), 0);
    let mut ops = Vec::new();
    for l in [3, 5, 6, 7, 16, 17, 18, 19, 20, 21] {
        f.write(l, 1, 0, PLAIN, 0, &mut ops).unwrap();
    }
    assert_eq!(f.stats.gc_erases, 1);
    let p = where_is(&f, 1);
    assert_ne!(p.block, 0);
    assert!(f.page_meta(p).unwrap().attrs.critical());
    f.check_invariants().unwrap();
}

/// More critical pages than a plane's fill has MSB pages for: one line naming the key.
#[test]
fn a_fill_without_room_on_msb_pages_is_a_config_error() {
    let geo = one_plane_device();
    let critical = CriticalConfig {
        lpn_ranges: vec![[0, 12]],
        ..Default::default()
    };
    let cfg = cfg(0.5, 2, RelocationConfig::default(), VictimConfig::default());
    let aging = AgingConfig {
        fill_fraction: 0.7,
        ..AgingConfig::default()
    };
    let mut f = Ftl::new(&geo, &cfg, &aging, 1).unwrap();
    let msg = f.classify_fill(&critical).unwrap_err().to_string();
    assert!(msg.contains("host.critical.lpn_ranges") && !msg.contains('\n'), "{msg}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Over random overwrites and trims with GC underneath (every tenth logical page
    /// critical, on an empty device or one whose first half is preconditioned and
    /// classified the same way), every critical page sits on an MSB page, every live page
    /// keeps its latest content, and the mapping invariants hold.
    #[test]
    fn critical_pages_stay_on_msb_pages_through_gc(
        acts in prop::collection::vec((0..576u64, prop::bool::weighted(0.1)), 1..3000),
        asym in any::<bool>(),
        fill_fraction in prop::sample::select(vec![0.0, 0.5]),
    ) {
        let geo = tiny_device();
        let relocation = if asym { RelocationConfig::Asymmetric(Asymmetric {}) } else { RelocationConfig::PageOrder(PageOrder {}) };
        let tenths = CriticalConfig { lpn_ranges: (0..576).step_by(10).map(|l| [l, l]).collect(), ..Default::default() };
        let mut f = filled(&geo, &cfg(0.25, 2, relocation, VictimConfig::Weighted(Weighted { weight_valid: 0.5 })), fill_fraction, &tenths);
        let fill_pages = (576.0 * fill_fraction) as u64;
        let mut model: HashMap<u64, u64> = (0..fill_pages).map(|l| (l, 0)).collect();
        let mut ops = Vec::new();
        for (i, &(l, trim)) in acts.iter().enumerate() {
            let a = if l % 10 == 0 { CRIT } else { PLAIN };
            if trim {
                f.trim(l);
                model.remove(&l);
            } else {
                f.write(l, i as u64 + 1, 0, a, i as i64, &mut ops).unwrap();
                model.insert(l, i as u64 + 1);
            }
            ops.clear();
        }
        if let Err(e) = f.check_invariants() {
            prop_assert!(false, "{}", e);
        }
        if fill_pages == 0 {
            prop_assert_eq!(f.mapping_entries(), model.len());
        }
        for (&l, &tag) in &model {
            let p = where_is(&f, l);
            let m = f.page_meta(p).unwrap();
            prop_assert_eq!((m.lpn, m.tag), (l, tag));
            prop_assert_eq!(m.attrs.critical(), l % 10 == 0);
            if l % 10 == 0 {
                prop_assert_eq!(geo.page_map.page_type(p.page), 1, "critical lpn {} on LSB page {:?}", l, p);
            }
        }
    }
}
