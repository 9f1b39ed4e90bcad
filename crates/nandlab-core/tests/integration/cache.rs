//! The DRAM data cache, with hand-computed times on the default device (4 KiB pages over a
//! 200 MB/s bus: 20,480 ns; LSB t_PROG 121 µs; t_R 41 µs; BCH decode 8 µs) and the cache's
//! default DRAM (26 ns + 4096 B at 1,600 MB/s = 26 + 2,560 = 2,586 ns per page).

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

use crate::common::{self, req};

const DRAM_PAGE: u64 = 26 + 2_560;
const XFER: u64 = 20_480;
const T_PROG_LSB: u64 = 121_000;
const T_R_LSB: u64 = 41_000;
const DECODE: u64 = 8_000;

/// Latencies in arrival order and the summary's `cache` table.
fn run(cfg_text: &str, reqs: Vec<Request>) -> (Vec<u64>, Value) {
    let (lat, summary) = common::replay(cfg_text, reqs);
    (lat, summary["cache"].clone())
}

#[test]
fn writes_and_read_hits_cost_dram_time() {
    let (lat, c) = run(
        "[cache]\ncapacity_bytes = 8192\n",
        vec![
            req(Op::Write, 0, 0),
            req(Op::Read, 0, 1_000_000),
            req(Op::Write, 0, 2_000_000),
        ],
    );
    assert_eq!(lat, vec![DRAM_PAGE; 3]);
    assert_eq!(
        (&c["write_misses"], &c["write_hits"], &c["read_hits"], &c["writebacks"]),
        (&1.into(), &1.into(), &1.into(), &0.into())
    );
}

#[test]
fn the_pages_of_a_request_take_turns_on_the_dram() {
    // A 16 KiB write is four page accesses, one after another.
    let mut w = req(Op::Write, 0, 0);
    w.size_bytes = 16_384;
    let (lat, _) = run("[cache]\ncapacity_bytes = 65536\n", vec![w]);
    assert_eq!(lat, vec![4 * DRAM_PAGE]);
}

#[test]
fn an_eviction_programs_and_a_full_window_makes_the_write_wait() {
    // One cached page, one write-back in flight at most.
    let cfg = "[cache]\ncapacity_bytes = 4096\nwriteback_depth_pages = 1\n";
    let (lat, c) = run(
        cfg,
        vec![
            req(Op::Write, 0, 0),
            // Evicts lpn 0: its write-back (channel 0: bus then LSB program, ends at
            // 1,000,000 + 141,480) does not hold this write.
            req(Op::Write, 1, 1_000_000),
            // Evicts lpn 1 while lpn 0's write-back is still in flight: the window is full,
            // so this write waits for lpn 1's program (second flash page: channel 1, LSB,
            // idle): 1,050,000 + 20,480 + 121,000.
            req(Op::Write, 2, 1_050_000),
        ],
    );
    assert_eq!(lat, vec![DRAM_PAGE, DRAM_PAGE, XFER + T_PROG_LSB]);
    assert_eq!((&c["writebacks"], &c["writebacks_waited"]), (&2.into(), &1.into()));
}

#[test]
fn read_misses_go_to_flash_and_read_allocation_makes_the_next_read_hit() {
    let filled = "[aging]\nfill_fraction = 1.0\n[ecc]\nscheme = \"bch\"\n[cache]\ncapacity_bytes = 4096\n";
    let flash_read = T_R_LSB + XFER + DECODE;
    let reads = || vec![req(Op::Read, 0, 0), req(Op::Read, 0, 1_000_000)];
    let (lat, _) = run(filled, reads());
    assert_eq!(lat, vec![flash_read, flash_read]);
    let (lat, c) = run(&format!("{filled}read_allocate = true\n"), reads());
    assert_eq!(lat, vec![flash_read, DRAM_PAGE]);
    assert_eq!((&c["read_misses"], &c["read_hits"]), (&1.into(), &1.into()));
}

#[test]
fn a_cache_larger_than_the_device_or_smaller_than_a_page_names_the_key() {
    for v in ["1", "1099511627776000"] {
        let cfg = SimConfig::from_toml_str(&format!("[cache]\ncapacity_bytes = {v}\n")).unwrap();
        let err = Simulator::new(cfg).err().expect("rejected").to_string();
        assert!(err.contains("cache.capacity_bytes"), "{err}");
    }
}
