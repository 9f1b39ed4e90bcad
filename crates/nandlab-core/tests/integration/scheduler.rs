//! The transaction scheduler (`[scheduler]`), hand-computed on a one-die SLC device:
//! t_R 40 µs, t_PROG 200 µs, t_BERS 1 ms, a 4 KiB page over 200 MB/s (20,480 ns), BCH
//! decode 8 µs; GC moves pages by copyback (a sensing and a program on the die).
//!
//! The scene: 10 blocks of 4 pages, 16 logical pages, GC's soft threshold 4 free blocks.
//! Logical pages 0..15 are written (blocks 0-3), then 0, 1, 4, 5 (block 4), then 8, which
//! opens block 5 and leaves 4 blocks free; one write a millisecond, each done long before
//! the next. GC runs in the next write whose pool is at the threshold: at T = 21 ms page 2
//! is written, its old copy is unmapped (block 0 keeps 1 valid page, block 1 has 2), and
//! GC moves block 0's page into a newly opened GC block (pool 3), erases block 0 (4, still
//! at the threshold), moves block 1's 2 pages and erases it (5); the write goes into block
//! 5. The GC job, in the FTL's order: move, erase, move, move, erase — J = 3 (t_R + t_PROG)
//! + 2 t_BERS = 2,720 µs of die time. A read of page 15 arrives 1 µs after the write.

use nandlab_core::host::{Op, Request};

use crate::common::{self, req};

const T_R: u64 = 40_000;
const T_PROG: u64 = 200_000;
const T_BERS: u64 = 1_000_000;
const XFER: u64 = 20_480;
const DECODE: u64 = 8_000;
const T: u64 = 21_000_000;
const JOB: u64 = 3 * (T_R + T_PROG) + 2 * T_BERS;

const DEVICE: &str = "seed = 1\n[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\n\
    planes_per_die = 1\nblocks_per_plane = 10\npages_per_block = 4\ncell_type = \"slc\"\n\
    [timing]\nread_latency_ns = [40_000]\nprogram_latency_ns = [200_000]\nerase_latency_ns = 1_000_000\n\
    [ftl]\noverprovisioning = 0.6\ngc_threshold_blocks = 4\n[aging]\nfill_fraction = 0.0\n\
    [ecc]\nscheme = \"bch\"\n";

/// The writes before the scene, one a millisecond.
fn prologue() -> Vec<Request> {
    let lpns = (0..16).chain([0, 1, 4, 5, 8]);
    lpns.enumerate()
        .map(|(i, lpn)| req(Op::Write, lpn, i as u64 * 1_000_000))
        .collect()
}

/// Latencies of the write at T and the read 1 µs later, and the summary, under
/// `scheduler`.
fn scene(scheduler: &str) -> (u64, u64, serde_json::Value) {
    let mut reqs = prologue();
    reqs.push(req(Op::Write, 2, T));
    reqs.push(req(Op::Read, 15, T + 1_000));
    let (lat, s) = common::replay(&format!("{DEVICE}[scheduler]\n{scheduler}"), reqs);
    (lat[21], lat[22], s)
}

fn gc_work(s: &serde_json::Value) -> (u64, u64, u64, u64) {
    let f = &s["flash"];
    let by = &f["by_cause"]["gc"];
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    (
        n(&f["gc_page_moves"]),
        n(&f["gc_erases"]),
        n(&by["page_programs"]),
        n(&by["erases"]),
    )
}

#[test]
fn fifo_gc_holds_the_die_for_the_whole_job() {
    let (write, read, s) = scene("policy = \"fifo\"\n");
    assert_eq!(gc_work(&s), (3, 2, 3, 2));
    // The read senses after the job; the write's program (at its die 20.48 µs after T)
    // after the read's sensing.
    assert_eq!(read, JOB - 1_000 + T_R + XFER + DECODE);
    assert_eq!(write, JOB + T_R + T_PROG);
}

#[test]
fn preemptible_gc_lets_a_read_wait_for_one_transaction_only() {
    let (write, read, s) = scene("policy = \"priority\"\npreemptible_gc = true\ngc_hard_threshold_blocks = 1\n");
    // Paced GC: the pool (4) is at the soft threshold and above the hard one, so the write
    // collects one victim: block 0's page moves into a new GC block (pool 3) and block 0
    // is erased (4). Its erase queued, block 0 is not erased yet: 3 erased free blocks,
    // above the hard threshold. The job's first transaction (a sensing, T .. T + t_R) is
    // running when the read arrives; the read senses next, then the write programs; the
    // job goes on after.
    assert_eq!(read, T_R - 1_000 + T_R + XFER + DECODE);
    assert_eq!(write, 2 * T_R + T_PROG);
    // Every move and erase ran.
    assert_eq!(gc_work(&s), (1, 1, 1, 1));
}

#[test]
fn gc_is_urgent_at_the_hard_threshold_or_when_not_preemptible() {
    // The one victim of paced GC leaves 3 erased free blocks: at a hard threshold of 3 it
    // is urgent, its move and erase reserved at once as under FIFO.
    let (write, read, s) = scene("policy = \"priority\"\npreemptible_gc = true\ngc_hard_threshold_blocks = 3\n");
    let job = T_R + T_PROG + T_BERS;
    assert_eq!(read, job - 1_000 + T_R + XFER + DECODE);
    assert_eq!(write, job + T_R + T_PROG);
    assert_eq!(gc_work(&s), (1, 1, 1, 1));
    // Without preemptible GC it always is, and the FTL collects as it does under FIFO.
    let fifo = scene("policy = \"fifo\"\n");
    let (write, read, s) = scene("policy = \"priority\"\n");
    assert_eq!((write, read), (fifo.0, fifo.1));
    assert_eq!(gc_work(&s), (3, 2, 3, 2));
}

/// The prologue, then a read of page 15 at `read_at`; returns its latency and the summary.
/// The last write's program ends at D = 20 ms + 20.48 µs + 200 µs; the pool holds 4
/// blocks, at the idle threshold of 5 or below.
fn idle_scene(scheduler: &str, read_at: u64) -> (u64, serde_json::Value) {
    let mut reqs = prologue();
    reqs.push(req(Op::Read, 15, read_at));
    let (lat, s) = common::replay(&format!("{DEVICE}[scheduler]\n{scheduler}"), reqs);
    (lat[21], s)
}

const D: u64 = 20_000_000 + XFER + T_PROG;
const IDLE: &str = "policy = \"priority\"\npreemptible_gc = true\nidle_gc_after_ns = 5_000_000\n\
                    idle_gc_threshold_blocks = 5\n";

#[test]
fn idle_gc_runs_only_after_the_idle_time() {
    let alone = T_R + XFER + DECODE;
    // 1 µs before the die has been idle 5 ms: no GC yet, the read senses at once (and
    // pushes idle GC back by its own sensing).
    let (before, _) = idle_scene(IDLE, D + 5_000_000 - 1_000);
    assert_eq!(before, alone);
    // 1 µs after: idle GC's first move is sensing since D + 5 ms; the read waits for it.
    let (after, s) = idle_scene(IDLE, D + 5_000_000 + 1_000);
    assert_eq!(after, T_R - 1_000 + alone);
    let (moves, erases, programmed, erased) = gc_work(&s);
    assert!(
        erases >= 1 && (moves, erases) == (programmed, erased),
        "{moves} {erases}"
    );
    // Without idle GC nothing is collected: the pool never fell to the soft threshold.
    let (off, s) = idle_scene("policy = \"priority\"\npreemptible_gc = true\n", D + 5_000_000 + 1_000);
    assert_eq!(off, alone);
    assert_eq!(gc_work(&s), (0, 0, 0, 0));
}

#[test]
fn every_queued_move_runs_and_the_ftl_stays_consistent() {
    // A write-heavy random run with every background kind queued: GC, wear leveling.
    // The replay checks (debug builds) that the queues drained and the FTL's invariants
    // hold; the summary's charged work equals the FTL's.
    let cfg = format!(
        "{}[ftl.wear_leveling]\npolicy = \"static\"\nthreshold_pe = 2\n\
         [workload]\nkind = \"synthetic\"\nrequests = 3000\nread_fraction = 0.3\niops = 3000.0\n\
         sizes = [{{ size_bytes = 4096, weight = 1 }}]\naddress = \"uniform\"\n[scheduler]\n{IDLE}",
        DEVICE.replace("fill_fraction = 0.0", "fill_fraction = 1.0")
    );
    let cfg = nandlab_core::SimConfig::from_toml_str(&cfg).unwrap();
    let out = nandlab_core::Simulator::new(cfg).unwrap().run(&mut |_| true).unwrap();
    let s = out.summary.to_json();
    let (moves, erases, programmed, erased) = gc_work(&s);
    assert!(erases > 100, "GC ran: {erases}");
    assert_eq!((moves, erases), (programmed, erased));
    let f = &s["flash"];
    let wl = &f["by_cause"]["wear_leveling"];
    assert_eq!(f["wl_page_moves"], wl["page_programs"]);
    assert_eq!(f["wl_erases"], wl["erases"]);
}

/// Host reads ahead of host writes. On the empty device (no GC), page 15 is written at 0;
/// at T0 = 1 ms a write of page 0 arrives, 1 µs later a write of page 1, 50 µs later a
/// read of page 15. Write 1's data crosses the channel T0 .. T0 + X (X = 20.48 µs) and
/// programs until P = T0 + X + t_PROG; write 2's data follows (T0 + X .. T0 + 2X) and
/// finds the die busy. Returns the latencies of write 2 and the read.
fn reads_first_scene(scheduler: &str) -> (u64, u64) {
    const T0: u64 = 1_000_000;
    let reqs = vec![
        req(Op::Write, 15, 0),
        req(Op::Write, 0, T0),
        req(Op::Write, 1, T0 + 1_000),
        req(Op::Read, 15, T0 + 50_000),
    ];
    let (lat, _) = common::replay(&format!("{DEVICE}[scheduler]\n{scheduler}"), reqs);
    assert_eq!(lat[1], XFER + T_PROG, "write 1 finds the die free");
    (lat[2], lat[3])
}

#[test]
fn host_reads_go_ahead_of_host_writes_queued_on_their_die() {
    let p = XFER + T_PROG; // write 1's program ends at T0 + p
                           // In arrival order (FIFO, or priority with host_order = "arrival"): write 2's program
                           // is reserved when its data arrives, P .. P + t_PROG; the read arrives 50 µs after T0
                           // and senses after it, then crosses the channel and decodes.
    let in_order = (p + T_PROG - 1_000, p + T_PROG - 50_000 + T_R + XFER + DECODE);
    assert_eq!(reads_first_scene("policy = \"fifo\"\n"), in_order);
    assert_eq!(
        reads_first_scene("policy = \"priority\"\nhost_order = \"arrival\"\n"),
        in_order
    );
    // Host reads first (priority's default, MQSim's TSU): write 2 waits in the die's
    // queue, the read senses as soon as write 1's program ends (P .. P + t_R) and write 2
    // programs after that sensing.
    let first = reads_first_scene("policy = \"priority\"\n");
    assert_eq!(first, (p + T_R + T_PROG - 1_000, p - 50_000 + T_R + XFER + DECODE));
    // In numbers: the read 438.96 µs → 238.96 µs, write 2 419.48 µs → 459.48 µs.
    assert_eq!((in_order.1, first.1), (438_960, 238_960));
    assert_eq!((in_order.0, first.0), (419_480, 459_480));
}
