//! Read refresh with the `threshold` trigger: it fires exactly when a full block's reads
//! since erase reach the threshold, resets the block's read count, and loses or duplicates
//! no page (property test over random reads, writes and trims, with GC underneath).

use nandlab_core::config::AgingConfig;
use nandlab_core::flash::block::{BlockStatus, WriteAttrs};
use nandlab_core::flash::Ppa;
use nandlab_core::ftl::refresh::{RefreshConfig, Threshold};
use nandlab_core::ftl::{Ftl, FtlConfig};
use proptest::prelude::*;

mod common;
use common::tiny_device;
use std::collections::HashMap;

const PPB: u64 = 8;

fn ftl(read_count: u32, fill: f64) -> Ftl {
    // The tiny device: 768 pages, 576 logical.
    let geo = tiny_device();
    let cfg = FtlConfig {
        overprovisioning: 0.25,
        refresh: RefreshConfig::Threshold(Threshold { read_count }),
        ..FtlConfig::default()
    };
    let aging = AgingConfig {
        fill_fraction: fill,
        ..AgingConfig::default()
    };
    Ftl::new(&geo, &cfg, &aging, 1).unwrap()
}

#[test]
fn refresh_fires_at_exactly_the_threshold_and_resets_the_count() {
    let mut f = ftl(5, 1.0);
    let mut ops = Vec::new();
    let (ppa, _) = f.read(0).unwrap();
    let block = ppa.block;
    let pe = f.pe_cycles(block);
    // 3 more reads: 4 < 5, nothing happens.
    for _ in 0..3 {
        f.read(0);
    }
    f.refresh_due(10, &mut ops).unwrap();
    assert_eq!((f.stats().refresh_erases, f.block_reads(block)), (0, 4));
    assert!(ops.is_empty());
    // The 5th read triggers it: the block's 8 valid pages move, it is erased once.
    assert_eq!(f.read(0).unwrap().1, 5);
    f.refresh_due(20, &mut ops).unwrap();
    assert_eq!(f.stats().refresh_erases, 1);
    assert_eq!(f.stats().refresh_page_moves, PPB);
    assert_eq!(f.pe_cycles(block), pe + 1);
    assert_eq!(f.block_reads(block), 0);
    let moved = f.read(0).unwrap().0;
    assert_ne!(moved.block, block);
    // 8 copyback reads, 8 programs, 1 erase.
    assert_eq!(ops.len(), 2 * PPB as usize + 1);
    f.check_invariants().unwrap();
}

#[derive(Debug, Clone)]
enum Action {
    Write(u64),
    Trim(u64),
    Read(u64),
}

fn actions() -> impl Strategy<Value = Vec<Action>> {
    let lpn = prop_oneof![3 => 0..40u64, 1 => 0..576u64];
    prop::collection::vec(
        prop_oneof![
            4 => lpn.clone().prop_map(Action::Write),
            1 => lpn.clone().prop_map(Action::Trim),
            6 => lpn.prop_map(Action::Read),
        ],
        1..2000,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn refresh_loses_no_page(acts in actions(), read_count in 2u32..12, fill in prop_oneof![Just(0.5), Just(0.9)]) {
        let mut f = ftl(read_count, fill);
        let fill_pages = (576.0 * fill) as u64;
        let mut model: HashMap<u64, u64> = (0..fill_pages).map(|l| (l, 0)).collect();
        let mut ops = Vec::new();
        for (i, a) in acts.iter().enumerate() {
            let now = 100 * i as i64;
            match *a {
                Action::Write(l) => {
                    f.write(l, i as u64 + 1, 0, WriteAttrs::default(), now, &mut ops).unwrap();
                    model.insert(l, i as u64 + 1);
                }
                Action::Trim(l) => {
                    f.trim(l);
                    model.remove(&l);
                }
                Action::Read(l) => {
                    let before = f.stats().refresh_erases;
                    match f.read(l) {
                        None => prop_assert!(!model.contains_key(&l)),
                        Some((Ppa { block, .. }, reads)) => {
                            let full = f.blocks[block as usize].status == BlockStatus::Full;
                            let pe = f.pe_cycles(block);
                            f.refresh_due(now, &mut ops).unwrap();
                            let fired = f.stats().refresh_erases - before;
                            let due = full && reads >= read_count;
                            // Fires only for a full block at the threshold...
                            prop_assert!(fired <= u64::from(due));
                            // ...and then the block is erased once, its count reset (by the
                            // refresh, or by the GC the refresh ran first to make room).
                            if due {
                                prop_assert_eq!(f.pe_cycles(block), pe + 1);
                                prop_assert_eq!(f.block_reads(block), 0);
                            }
                        }
                    }
                }
            }
            ops.clear();
        }
        if let Err(e) = f.check_invariants() {
            prop_assert!(false, "{}", e);
        }
        for l in 0..576 {
            let live = f.mapping.get(l).map(|ppn| {
                f.page_meta(Ppa { block: (ppn / PPB) as u32, page: (ppn % PPB) as u32 }).unwrap().tag
            });
            prop_assert_eq!(live, model.get(&l).copied(), "lpn {}", l);
        }
    }
}

#[test]
fn the_simulator_charges_and_counts_refresh_work() {
    use nandlab_core::host::{Op, Request};
    use nandlab_core::{SimConfig, Simulator};
    // Default device (128 pages per block), full: logical page 0 sits in a block with 128
    // valid pages. Two reads of it reach read_count = 2: one refresh moves all 128.
    let cfg = SimConfig::from_toml_str(
        "[aging]\nfill_fraction = 1.0\n[ftl.refresh]\ntrigger = \"threshold\"\nread_count = 2\n",
    )
    .unwrap();
    let reads = (0..2)
        .map(|i| Request::new(i * 1_000_000, 0, 4096, Op::Read, 0))
        .collect();
    let s = Simulator::new(cfg).unwrap().run_requests(reads).unwrap().summary;
    let flash = &s["flash"];
    assert_eq!(flash["refresh_erases"], 1);
    assert_eq!(flash["refresh_page_moves"], 128);
    assert_eq!(flash["erases"], 1);
    assert_eq!(flash["page_programs"], 128);
    // 2 host reads + 128 copyback reads.
    assert_eq!(flash["page_reads_incl_gc"], 130);
}
