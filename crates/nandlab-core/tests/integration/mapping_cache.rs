//! The cached mapping table (`[ftl.mapping_cache]`, issue 12 item 5), hand-computed on a
//! one-plane SLC device, so every flash operation takes its turn on one die and one channel:
//! 64 blocks x 64 pages of 4 KiB = 4,096 pages (log2 = 12), so a cached entry is
//! ceil((2·12 + 8) / 8) = 4 bytes and a translation-page entry ceil((12 + 8) / 8) = 3
//! bytes: 4096 / 3 = 1,365 entries per translation page. t_R 40 µs, t_PROG 200 µs, 200 MB/s
//! bus (a page 20,480 ns, one 512-byte sector 2,560 ns), no ECC (sector transfers, no decode).

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

const T_R: u64 = 40_000;
const T_PROG: u64 = 200_000;
const XFER_PAGE: u64 = 20_480;
const XFER_SECTOR: u64 = 2_560;
const DEVICE: &str = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\nplanes_per_die = 1\n\
    blocks_per_plane = 64\npages_per_block = 64\ncell_type = \"slc\"\n\
    [timing]\nread_latency_ns = [40_000]\nprogram_latency_ns = [200_000]\n\
    [ecc]\nscheme = \"none\"\n";
/// One cached entry.
const ONE_ENTRY: &str = "[ftl.mapping_cache]\ncapacity_bytes = 4\n";

/// Replays `(op, lpn)` 4 KiB requests 10 ms apart (each on an idle device).
fn run(extra: &str, reqs: &[(Op, u64)]) -> (Vec<u64>, Value) {
    let reqs = reqs
        .iter()
        .enumerate()
        .map(|(i, &(op, lpn))| Request::new(i as u64 * 10_000_000, lpn * 4096, 4096, op, 0))
        .collect();
    crate::common::replay(&format!("{DEVICE}{extra}"), reqs)
}

#[test]
fn a_miss_reads_the_translation_page_first_and_a_dirty_eviction_programs_it() {
    let (lat, s) = run(
        ONE_ENTRY,
        &[
            (Op::Read, 0),
            (Op::Read, 0),
            (Op::Write, 1),
            // Translation page 1 (lpns 1365..2729).
            (Op::Read, 1365),
        ],
    );
    // A miss: one sector of translation page 0, then the data page.
    let fetch = T_R + XFER_SECTOR;
    let read = T_R + XFER_PAGE;
    // The write (miss: lpn 0 leaves clean) waits for its entry, then moves and programs.
    let write = fetch + XFER_PAGE + T_PROG;
    // lpn 1's entry is dirty: evicting it reads translation page 0 whole, sends the merged
    // page back and programs it; the miss's read and the data read queue behind on the die.
    let flush = T_R + XFER_PAGE + XFER_PAGE + T_PROG;
    assert_eq!(lat, vec![fetch + read, read, write, flush + fetch + read]);
    let m = &s["mapping_cache"];
    assert_eq!(m["capacity_entries"], 1);
    assert_eq!(
        (&m["entry_bytes"], &m["entries_per_translation_page"]),
        (&4.into(), &1365.into())
    );
    assert_eq!((&m["hits"], &m["misses"]), (&1.into(), &3.into()));
    assert_eq!(
        (
            &m["translation_fetch_reads"],
            &m["translation_merge_reads"],
            &m["translation_writes"]
        ),
        (&3.into(), &1.into(), &1.into())
    );
}

#[test]
fn a_page_never_mapped_needs_no_translation_read() {
    // An empty device: no translation page is on flash, so the write's miss reads nothing
    // and the entry is made in the cache.
    let (lat, s) = run(&format!("{ONE_ENTRY}[aging]\nfill_fraction = 0.0\n"), &[(Op::Write, 5)]);
    assert_eq!(lat, vec![XFER_PAGE + T_PROG]);
    assert_eq!(s["mapping_cache"]["translation_fetch_reads"], 0);
    assert_eq!(s["mapping_cache"]["misses"], 1);
}

#[test]
fn off_by_default_the_table_is_in_dram() {
    let (lat, s) = run("", &[(Op::Read, 0), (Op::Read, 1365)]);
    assert_eq!(lat, vec![T_R + XFER_PAGE; 2]);
    assert!(s.get("mapping_cache").is_none());
}

#[test]
fn bad_capacities_name_the_key() {
    for bad in ["capacity_bytes = 3", "capacity_bytes = 1_000_000", "capacity = 3"] {
        let text = format!("{DEVICE}[ftl.mapping_cache]\n{bad}\n");
        let e = match SimConfig::from_toml_str(&text) {
            Ok(cfg) => Simulator::new(cfg).err().expect("rejected").to_string(),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("mapping_cache"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn the_pages_of_one_request_share_a_translation_read() {
    // An 8 KiB read of lpns 0 and 1 (one translation page), two entries cached: page 1's
    // miss waits for page 0's translation read; then both data pages take turns on the die.
    let (lat, s) = crate::common::replay(
        &format!("{DEVICE}[ftl.mapping_cache]\ncapacity_bytes = 8\n"),
        vec![Request::new(0, 0, 8192, Op::Read, 0)],
    );
    assert_eq!(lat, vec![T_R + XFER_SECTOR + 2 * T_R + XFER_PAGE]);
    let m = &s["mapping_cache"];
    assert_eq!(
        (&m["translation_fetch_reads"], &m["misses_sharing_a_read"]),
        (&1.into(), &1.into())
    );
}
