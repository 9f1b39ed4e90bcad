//! Hand-computed response times on an idle device (default timing: t_R 41/55 µs LSB/MSB,
//! t_PROG 121 µs / 1.45 ms, 4 KiB over a 200 MB/s bus = 20,480 ns, decode 8 µs; default
//! geometry 4 channels x 2 chips x 2 dies x 2 planes, interleaved MLC page map).

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

const XFER: u64 = 20_480;
const DECODE: u64 = 8_000;
const T_R_LSB: u64 = 41_000;
const T_PROG_LSB: u64 = 121_000;

fn req(op: Op, offset_bytes: u64, arrival_ns: u64) -> Request {
    Request {
        arrival_ns,
        offset_bytes,
        size_bytes: 4096,
        op,
        stream: 0,
    }
}

/// Runs `reqs` on the default device; latencies in arrival order (ties: first done first).
fn latencies(cfg_text: &str, reqs: Vec<Request>) -> Vec<u64> {
    let cfg = SimConfig::from_toml_str(cfg_text).unwrap();
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    out.requests
        .unwrap()
        .latencies_by_arrival()
        .into_iter()
        .map(|(_, l)| l)
        .collect()
}

/// A full device whose pages carry an ECC (BCH), so that every read is decoded.
const FILLED: &str = "[aging]\nfill_fraction = 1.0\n[ecc]\nscheme = \"bch\"\n";
/// Logical page n of the fill lives in plane n mod 32 (32 planes), position n div 32.
const PLANES: u64 = 32;

#[test]
fn single_read_and_write_on_idle_device() {
    // LPN 0: plane 0, block 0, page 0 = LSB of wordline 0.
    assert_eq!(
        latencies(FILLED, vec![req(Op::Read, 0, 0)]),
        vec![T_R_LSB + XFER + DECODE]
    );
    // A write on an empty device: data in over the bus, then an LSB program.
    assert_eq!(latencies("", vec![req(Op::Write, 0, 0)]), vec![XFER + T_PROG_LSB]);
}

#[test]
fn reads_on_one_plane_serialise() {
    // LPN 0 and LPN 32 are pages 0 and 1 of block 0 of plane 0 (both LSB pages).
    let l = latencies(FILLED, vec![req(Op::Read, 0, 0), req(Op::Read, PLANES * 4096, 0)]);
    // Second: sense 41..82 µs, bus 82..102.48, decode ..110.48.
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, 2 * T_R_LSB + XFER + DECODE]);
}

#[test]
fn reads_on_two_planes_of_a_die_run_multi_plane() {
    // LPN 0 -> plane 0, LPN 1 -> plane 1 (same die): one multi-plane sense, then the two
    // transfers share channel 0.
    let l = latencies(FILLED, vec![req(Op::Read, 0, 0), req(Op::Read, 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, T_R_LSB + 2 * XFER + DECODE]);
    // Without multi-plane the second sense waits for the first.
    let cfg = format!("{FILLED}[device]\nmulti_plane = false\n");
    let l = latencies(&cfg, vec![req(Op::Read, 0, 0), req(Op::Read, 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, 2 * T_R_LSB + XFER + DECODE]);
}

#[test]
fn reads_on_two_channels_overlap() {
    // Plane 8 is the first plane of channel 1 (plane = ((c*2 + chip)*2 + die)*2 + p).
    let l = latencies(FILLED, vec![req(Op::Read, 0, 0), req(Op::Read, 8 * 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE; 2]);
}

#[test]
fn multi_page_request_completes_with_its_last_page() {
    // 8 KiB read of LPNs 0 and 1: same as the multi-plane case, one request.
    let r = Request {
        arrival_ns: 5,
        offset_bytes: 0,
        size_bytes: 8192,
        op: Op::Read,
        stream: 0,
    };
    assert_eq!(latencies(FILLED, vec![r]), vec![T_R_LSB + 2 * XFER + DECODE]);
}

#[test]
fn closed_loop_issues_the_next_request_when_one_completes() {
    // Queue depth 1: three reads of plane 0 run back to back, each an idle-device read
    // (pages 0 and 1 of block 0 are LSB pages, page 2 is the MSB page of wordline 0).
    let reads = vec![
        req(Op::Read, 0, 0),
        req(Op::Read, PLANES * 4096, 0),
        req(Op::Read, 2 * PLANES * 4096, 0),
    ];
    let cfg = format!("{FILLED}[host]\nreplay = \"closed\"\nqueue_depth = 1\n");
    let out = Simulator::new(SimConfig::from_toml_str(&cfg).unwrap())
        .unwrap()
        .run_requests(reads.clone())
        .unwrap();
    let hard = T_R_LSB + XFER + DECODE;
    let msb = 55_000 + XFER + DECODE;
    assert_eq!(out.requests.unwrap().latency_ns, vec![hard, hard, msb]);
    assert_eq!(out.summary["sim"]["simulated_ns"], 2 * hard + msb);
    // Queue depth 2: the first two start together and serialise on the plane.
    let cfg = format!("{FILLED}[host]\nreplay = \"closed\"\nqueue_depth = 2\n");
    let l = latencies(&cfg, reads);
    assert_eq!(&l[..2], &[hard, 2 * T_R_LSB + XFER + DECODE]);
}
