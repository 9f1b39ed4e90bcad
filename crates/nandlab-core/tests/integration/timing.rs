//! Hand-computed response times on an idle device (default timing: t_R 41/55 µs LSB/MSB,
//! t_PROG 121 µs / 1.45 ms, 4 KiB over a 200 MB/s bus = 20,480 ns, decode 8 µs; default
//! geometry 4 channels x 2 chips x 2 dies x 2 planes, interleaved MLC page map).

use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

use crate::common;

const XFER: u64 = 20_480;
const DECODE: u64 = 8_000;
const T_R_LSB: u64 = 41_000;
const T_PROG_LSB: u64 = 121_000;

fn req(op: Op, offset_bytes: u64, arrival_ns: u64) -> Request {
    Request::new(arrival_ns, offset_bytes, 4096, op, 0)
}

/// Runs `reqs` on the default device; latencies in arrival order (ties: first done first).
fn latencies(cfg_text: &str, reqs: Vec<Request>) -> Vec<u64> {
    common::replay(cfg_text, reqs).0
}

/// A full device whose pages carry an ECC (BCH), so that every read is decoded.
const FILLED: &str = "[aging]\nfill_fraction = 1.0\n[ecc]\nscheme = \"bch\"\n";
/// Logical page n of the fill lives where CWDP striping would have written it: stripe slot
/// k = n mod 32 (32 planes) is channel k mod 4, chip (k / 4) mod 2, die (k / 8) mod 2,
/// plane k / 16; position n div 32 in that plane.
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
    // LPN 0 -> slot 0 (channel 0, chip 0, die 0, plane 0), LPN 16 -> slot 16 (plane 1 of
    // the same die): one multi-plane sense, then the two transfers share channel 0.
    let l = latencies(FILLED, vec![req(Op::Read, 0, 0), req(Op::Read, 16 * 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, T_R_LSB + 2 * XFER + DECODE]);
    // Without multi-plane the second sense waits for the first.
    let cfg = format!("{FILLED}[device]\nmulti_plane = false\n");
    let l = latencies(&cfg, vec![req(Op::Read, 0, 0), req(Op::Read, 16 * 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, 2 * T_R_LSB + XFER + DECODE]);
}

#[test]
fn reads_on_two_channels_overlap() {
    // LPN 1 is stripe slot 1: channel 1.
    let l = latencies(FILLED, vec![req(Op::Read, 0, 0), req(Op::Read, 4096, 0)]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE; 2]);
}

#[test]
fn prefilled_data_reads_like_data_written_in_the_run() {
    // A 64 KiB read of LPNs 0..16: stripe slots 0..16 put 4 pages on each of the 4
    // channels, each on its own die (chips x dies), all at page 0 (LSB). The 16 senses
    // overlap; each channel then moves 4 pages; the last decode ends after the 4th.
    let read = Request::new(0, 0, 65536, Op::Read, 0);
    let expected = T_R_LSB + 4 * XFER + DECODE;
    assert_eq!(latencies(FILLED, vec![read]), vec![expected]);
    // The same 16 pages written by the host on an empty device, then read when idle.
    let later = 1_000_000_000;
    let write = Request { op: Op::Write, ..read };
    let read_later = Request {
        arrival_ns: later,
        ..read
    };
    let l = latencies(
        "[aging]\nfill_fraction = 0.0\n[ecc]\nscheme = \"bch\"\n",
        vec![write, read_later],
    );
    assert_eq!(l[1], expected);
}

#[test]
fn multi_page_request_completes_with_its_last_page() {
    // 8 KiB read at LPN 31: LPN 31 is slot 31 (channel 3, position 0: page 0, LSB) and LPN 32 is slot 0 at position 1 (plane 0, page 1, LSB); both channels work
    // in parallel. Behind a 4 KiB read of LPN 0 on plane 0, LPN 32's sense waits for it:
    // the request ends with that page, at 2 t_R + XFER + DECODE after arrival.
    let first = req(Op::Read, 0, 0);
    let two = Request {
        offset_bytes: 31 * 4096,
        size_bytes: 8192,
        ..first
    };
    let l = latencies(FILLED, vec![first, two]);
    assert_eq!(l, vec![T_R_LSB + XFER + DECODE, 2 * T_R_LSB + XFER + DECODE]);
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
    assert_eq!(out.summary.sim.simulated_ns, 2 * hard + msb);
    // Queue depth 2: the first two start together and serialise on the plane.
    let cfg = format!("{FILLED}[host]\nreplay = \"closed\"\nqueue_depth = 2\n");
    let l = latencies(&cfg, reads);
    assert_eq!(&l[..2], &[hard, 2 * T_R_LSB + XFER + DECODE]);
}

#[test]
fn read_first_is_honoured_in_open_loop_replay_with_a_queue() {
    // Queue depth 1, open loop: a read of LPN 0 holds the only slot; a write (1 ns) and a
    // read of LPN 32 (2 ns, plane 0's page 1, LSB) wait. When the first read ends at
    // `hard`, fifo sends the write (bus + LSB program), then the read; read_first sends
    // the read, an idle-device read, then the write.
    let reqs = vec![
        req(Op::Read, 0, 0),
        req(Op::Write, 4096, 1),
        req(Op::Read, PLANES * 4096, 2),
    ];
    let hard = T_R_LSB + XFER + DECODE;
    let write = XFER + T_PROG_LSB;
    let run = |scheduler: &str| {
        let cfg = format!("{FILLED}[host]\nqueue_depth = 1\nscheduler = \"{scheduler}\"\n");
        latencies(&cfg, reqs.clone())
    };
    assert_eq!(run("fifo"), vec![hard, hard + write - 1, hard + write + hard - 2]);
    assert_eq!(run("read_first"), vec![hard, 2 * hard + write - 1, 2 * hard - 2]);
}

/// One channel, one die of two planes: the pages of a write alternate between the planes.
const ONE_DIE: &str = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\nplanes_per_die = 2\n";

#[test]
fn a_writes_two_pages_on_one_die_are_one_two_plane_program() {
    // An 8 KiB write on an empty device: page 0 of plane 0's and plane 1's first blocks
    // (LSB pages). Both cross the one channel (in at XFER and 2 XFER), then one
    // two-plane program: 2 XFER + t_PROG = 161.96 µs.
    let write = Request::new(0, 0, 8192, Op::Write, 0);
    assert_eq!(latencies(ONE_DIE, vec![write]), vec![2 * XFER + T_PROG_LSB]);
    // Four pages: pages 0 and 1 of each plane's block (both LSB pages). The second
    // pair's data is in (at 3 and 4 XFER) while the first program runs; their two-plane
    // program follows it: 2 XFER + 2 t_PROG = 282.96 µs.
    let four = Request::new(0, 0, 4 * 4096, Op::Write, 0);
    assert_eq!(latencies(ONE_DIE, vec![four]), vec![2 * XFER + 2 * T_PROG_LSB]);
    // Without multi-plane commands the second program waits for the first: XFER + 2 t_PROG.
    let single = format!("{ONE_DIE}multi_plane = false\n");
    assert_eq!(latencies(&single, vec![write]), vec![XFER + 2 * T_PROG_LSB]);
}

#[test]
fn a_meta_cure_backup_is_programmed_after_its_primary_not_beside_it() {
    // A critical 4 KiB write under Meta-Cure: the primary (plane 0, page 0) is in at XFER
    // and programs at once; the copy (plane 1, page 0, an LSB page too) is in at 2 XFER
    // but does not join the primary's program as a two-plane one (a multi-plane program
    // needs equal page addresses, which a copy rarely has): it waits for the die. The
    // write ends with the copy: XFER + 2 t_PROG = 262.48 µs (one two-plane program would
    // end at 2 XFER + t_PROG = 161.96 µs). A plain page: XFER + t_PROG.
    let mc = format!("{ONE_DIE}[ftl.placement]\npolicy = \"meta_cure\"\n[host.critical]\nlpn_ranges = [[0, 0]]\n");
    let write = |lpn: u64| Request::new(0, lpn * 4096, 4096, Op::Write, 0);
    assert_eq!(latencies(&mc, vec![write(0)]), vec![XFER + 2 * T_PROG_LSB]);
    assert_eq!(latencies(&mc, vec![write(1)]), vec![XFER + T_PROG_LSB]);
}

#[test]
fn with_equal_pages_only_one_page_address_programs_as_one_two_plane_program() {
    // `device.multi_plane_equal_pages`. A 4 KiB write takes page 0 of plane 0 (XFER +
    // t_PROG). An 8 KiB write at 1 ms then goes to page 0 of plane 1 and page 1 of plane 0
    // (the striping cursor is on plane 1; both LSB pages): two page addresses, so plane 1's
    // page programs on arrival and plane 0's after it, XFER + 2 t_PROG = 262.48 µs. Without
    // the rule they are one two-plane program: 2 XFER + t_PROG = 161.96 µs.
    let equal = format!("{ONE_DIE}multi_plane_equal_pages = true\n");
    let reqs = vec![
        Request::new(0, 0, 4096, Op::Write, 0),
        Request::new(1_000_000, 4096, 8192, Op::Write, 0),
    ];
    assert_eq!(
        latencies(&equal, reqs.clone()),
        vec![XFER + T_PROG_LSB, XFER + 2 * T_PROG_LSB]
    );
    assert_eq!(latencies(ONE_DIE, reqs), vec![XFER + T_PROG_LSB, 2 * XFER + T_PROG_LSB]);
    // A first 8 KiB write takes page 0 of both planes: one two-plane program either way.
    let write = Request::new(0, 0, 8192, Op::Write, 0);
    assert_eq!(latencies(&equal, vec![write]), vec![2 * XFER + T_PROG_LSB]);
}
