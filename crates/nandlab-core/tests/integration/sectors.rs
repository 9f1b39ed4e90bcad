//! Partial-page (sector) transfers on an idle device with 8 KiB pages (issue 12 item 4),
//! hand-computed: t_R 41 µs (LSB), t_PROG 121 µs (LSB), 200 MB/s bus (4 KiB = 20,480 ns),
//! decode 8 µs per 4 KiB codeword (2 codewords per page), extra sensing level 14 µs.

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

use crate::common;

const T_R_LSB: u64 = 41_000;
const T_PROG_LSB: u64 = 121_000;
/// 4 KiB over the bus; 512 B take 2,560 ns.
const XFER_4K: u64 = 20_480;
const DECODE: u64 = 8_000;
const EXTRA: u64 = 14_000;
const PAGE: &str = "[device]\npage_size_bytes = 8192\n";

fn run(cfg_text: &str, reqs: &[(Op, u64, u64)]) -> (Vec<u64>, Value) {
    let reqs = reqs
        .iter()
        .enumerate()
        // One at a time on the idle device.
        .map(|(i, &(op, offset_bytes, size_bytes))| {
            Request::new(i as u64 * 10_000_000, offset_bytes, size_bytes, op, 0)
        })
        .collect();
    common::replay(&format!("{PAGE}{cfg_text}"), reqs)
}

const FILLED: &str = "[aging]\nfill_fraction = 1.0\n";

#[test]
fn a_4k_read_of_an_8k_page_moves_and_decodes_half_the_page() {
    let bch = format!("{FILLED}[ecc]\nscheme = \"bch\"\n");
    // LPN 0: plane 0, block 0, page 0 (LSB). Bytes 0..4096 are codeword 0 of 2; bytes
    // 2048..6144 straddle both codewords, so the whole page moves and both decode.
    let (l, _) = run(&bch, &[(Op::Read, 0, 4096), (Op::Read, 2048, 4096)]);
    assert_eq!(l, vec![T_R_LSB + XFER_4K + DECODE, T_R_LSB + 2 * XFER_4K + 2 * DECODE]);
    // No ECC: whole 512-byte sectors move and nothing decodes (1 KiB = 5,120 ns).
    let (l, _) = run(FILLED, &[(Op::Read, 0, 4096), (Op::Read, 512, 1024)]);
    assert_eq!(l, vec![T_R_LSB + XFER_4K, T_R_LSB + 5_120]);
}

#[test]
fn a_4k_ldpc_read_with_soft_retries_moves_one_codeword_per_attempt() {
    // RBER 0.0085 needs level 3; two-step retries with all six extra levels: the hard
    // attempt and the soft one each move and decode codeword 0 only (6 bit planes of
    // 4 KiB on the retry).
    let ldpc = format!(
        "{FILLED}[reliability]\nmodel = \"nominal\"\nnominal_rber = 0.0085\nerror_draw = \"expected\"\n\
         [ecc]\nscheme = \"ldpc\"\nstrategy = \"two-step\"\n"
    );
    let (l, s) = run(&ldpc, &[(Op::Read, 0, 4096), (Op::Read, 8192, 8192)]);
    let half = T_R_LSB + XFER_4K + DECODE + 6 * EXTRA + 6 * XFER_4K + DECODE;
    // LPN 1 (plane 1, LSB) read whole: every transfer and decode doubles.
    let whole = T_R_LSB + 2 * XFER_4K + 2 * DECODE + 6 * EXTRA + 12 * XFER_4K + 2 * DECODE;
    assert_eq!(l, vec![half, whole]);
    assert_eq!(s["reliability"]["retries"], 2);
}

#[test]
fn a_partial_write_into_a_page_holding_data_reads_it_first() {
    let bch = "[ecc]\nscheme = \"bch\"\n";
    // Write page 0 whole (a full page reads nothing), then 512 B into it: the old page is
    // sensed (LSB page 0 of block 0), both codewords hold sectors the write leaves, so the
    // whole page moves and decodes; then the merged page goes in (8 KiB over the bus) and
    // is programmed on the next LSB page.
    let (l, s) = run(bch, &[(Op::Write, 0, 8192), (Op::Write, 0, 512)]);
    let full = 2 * XFER_4K + T_PROG_LSB;
    assert_eq!(l, vec![full, T_R_LSB + 2 * XFER_4K + 2 * DECODE + full]);
    assert_eq!(s["flash"]["rmw_page_reads"], 1);
    assert_eq!(s["flash"]["page_reads_incl_gc"], 1);
    // A write of codeword 1 whole leaves codeword 0 only: half the page moves back.
    let (l, _) = run(bch, &[(Op::Write, 0, 8192), (Op::Write, 4096, 4096)]);
    assert_eq!(l[1], T_R_LSB + XFER_4K + DECODE + full);
}

#[test]
fn full_page_and_partial_writes_of_empty_pages_read_nothing() {
    // A full-page write over data, and a partial write of a page holding none.
    let (l, s) = run(FILLED, &[(Op::Write, 0, 8192)]);
    assert_eq!(s["flash"]["rmw_page_reads"], 0);
    assert_eq!(l, vec![2 * XFER_4K + T_PROG_LSB]);
    let (l, s) = run("[aging]\nfill_fraction = 0.0\n", &[(Op::Write, 512, 512)]);
    assert_eq!(s["flash"]["rmw_page_reads"], 0);
    // The page goes in whole (8 KiB over the bus).
    assert_eq!(l, vec![2 * XFER_4K + T_PROG_LSB]);
}

#[test]
fn a_page_of_more_units_than_events_count_is_a_config_error() {
    // 2^26 bytes = 131,072 sectors of 512 B, past 65,535.
    let cfg = SimConfig::from_toml_str("[device]\npage_size_bytes = 67108864\nblocks_per_plane = 8\npages_per_block = 2\n[aging]\nfill_fraction = 0.0\n").unwrap();
    let err = Simulator::new(cfg).err().expect("too many units").to_string();
    assert!(
        err.contains("device.page_size_bytes") && err.contains("65535 units"),
        "{err}"
    );
}
