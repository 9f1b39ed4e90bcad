//! Refresh urgency (`[scheduler] refresh_urgent_reads`), hand-computed on a one-die SLC
//! device: t_R 40 µs, t_PROG 200 µs, t_BERS 1 ms, a 4 KiB page over 200 MB/s (20,480 ns),
//! BCH decode 8 µs; refresh moves pages by copyback (a sensing and a program on the die).
//!
//! The scene: 10 blocks of 4 pages; logical pages 0..7 written one a millisecond (blocks 0
//! and 1, every program done by 8 ms). Read refresh at 4 reads since erase. From T = 10 ms
//! one-page reads arrive 10 µs apart, each sensing t_R on the die behind the last: pages
//! 0, 1, 2, 3 (block 0; sensing T .. T + 160 µs), then 4, 5, 6 (block 1, 3 reads: no
//! refresh there) at T + 40, 50, 60 µs, sensing T + 160 .. 280 µs. The read of page 3 at
//! T + 30 µs is block 0's 4th: the trigger fires and the refresh job — 4 page moves (t_R +
//! t_PROG each) into a fresh block, then block 0's erase — queues on the die, behind the 4
//! host reads the die has served.
//!
//! Under `priority` the job waits for the die to be free of host work: its first move
//! senses at T + 280 µs, after all 3 later reads. With `refresh_urgent_reads = 2` the read
//! at T + 50 µs is the die's 2nd host read after the trigger: at the end of that request
//! the job's moves are reserved at once, behind the reads already reserved (the die is
//! busy until T + 240 µs) and ahead of the read at T + 60 µs, which then senses after the
//! 4 moves, at T + 240 + 4 (t_R + t_PROG) = T + 1,200 µs. The erase stays background work.

use nandlab_core::host::{Op, Request};

use crate::common::{self, req};

const T_R: u64 = 40_000;
const T_PROG: u64 = 200_000;
const XFER: u64 = 20_480;
const DECODE: u64 = 8_000;
const T: u64 = 10_000_000;

const DEVICE: &str = "seed = 1\n[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\n\
    planes_per_die = 1\nblocks_per_plane = 10\npages_per_block = 4\ncell_type = \"slc\"\n\
    [timing]\nread_latency_ns = [40_000]\nprogram_latency_ns = [200_000]\nerase_latency_ns = 1_000_000\n\
    [ftl]\noverprovisioning = 0.6\ngc_threshold_blocks = 2\n[ftl.refresh]\ntrigger = \"threshold\"\n\
    read_count = 4\n[aging]\nfill_fraction = 0.0\n[ecc]\nscheme = \"bch\"\n";

/// Latency of the last read (page 6 at T + 60 µs) and the summary, under `scheduler`.
fn scene(scheduler: &str) -> (u64, serde_json::Value) {
    let mut reqs: Vec<Request> = (0..8).map(|lpn| req(Op::Write, lpn, lpn * 1_000_000)).collect();
    for (i, lpn) in [0, 1, 2, 3, 4, 5, 6].into_iter().enumerate() {
        reqs.push(req(Op::Read, lpn, T + i as u64 * 10_000));
    }
    let (lat, s) = common::replay(&format!("{DEVICE}[scheduler]\n{scheduler}"), reqs);
    (lat[14], s)
}

fn refresh_work(s: &serde_json::Value) -> (u64, u64) {
    let f = &s["flash"];
    (
        f["refresh_page_moves"].as_u64().unwrap(),
        f["refresh_erases"].as_u64().unwrap(),
    )
}

#[test]
fn a_deferred_refresh_turns_urgent_at_the_bound_and_runs_before_later_host_reads() {
    // The die senses the 7 reads back to back from T (40 µs each): the 7th at T + 240 µs.
    let deferred = T_R * 7 - 60_000 + XFER + DECODE;
    let (off, s_off) = scene("policy = \"priority\"\n");
    assert_eq!(off, deferred);
    assert_eq!(refresh_work(&s_off), (4, 1));
    assert!(
        s_off["flash"].get("refresh_wait").is_none(),
        "no bound, no wait summary"
    );

    // A bound the run never reaches: the same schedule, now measured. Every move read
    // waited for the 3 host reads after the trigger; the first senses at T + 280 µs, the
    // trigger having fired at T + 30 µs.
    let (never, s) = scene("policy = \"priority\"\nrefresh_urgent_reads = 1000\n");
    assert_eq!(never, deferred);
    let w = &s["flash"]["refresh_wait"];
    assert_eq!(w["moves"], 4);
    assert_eq!(w["urgent_dies"], 0);
    assert_eq!(w["reads_past_trigger_max"], 3);
    assert_eq!(w["reads_past_trigger_mean"], 3.0);
    // The last move's read may start when the third move's program ends.
    assert_eq!(w["wait_ns_max"], 280_000 + 3 * (T_R + T_PROG) - 30_000);

    // Bound 2: urgent after the read at T + 50 µs; the moves run T + 240 .. 1,200 µs and
    // the read at T + 60 µs senses after them.
    let (urgent, s) = scene("policy = \"priority\"\nrefresh_urgent_reads = 2\n");
    assert_eq!(urgent, 240_000 + 4 * (T_R + T_PROG) + T_R - 60_000 + XFER + DECODE);
    assert_eq!(refresh_work(&s), (4, 1));
    let w = &s["flash"]["refresh_wait"];
    assert_eq!(
        (w["urgent_dies"].as_u64(), w["reads_past_trigger_max"].as_u64()),
        (Some(1), Some(2))
    );
    // Urgent moves are reserved one after another, each ready when the previous program
    // ends: the 4th may read from T + 240 µs + 3 (t_R + t_PROG), the trigger at T + 30 µs.
    assert_eq!(w["wait_ns_max"], 240_000 + 3 * (T_R + T_PROG) - 30_000);

    // Bound 0: urgent as soon as the trigger fires, behind the 4 reads of block 0 only.
    let (now, s) = scene("policy = \"priority\"\nrefresh_urgent_reads = 0\n");
    assert_eq!(now, 160_000 + 4 * (T_R + T_PROG) + 3 * T_R - 60_000 + XFER + DECODE);
    assert_eq!(s["flash"]["refresh_wait"]["reads_past_trigger_max"], 0);
}

#[test]
fn the_bound_needs_a_trigger_and_the_priority_policy() {
    let cfg = |refresh: &str, scheduler: &str| {
        let text = DEVICE.replace("[ftl.refresh]\ntrigger = \"threshold\"\nread_count = 4\n", refresh);
        nandlab_core::config::SimConfig::from_toml_str(&format!("{text}[scheduler]\n{scheduler}"))
    };
    let e = cfg("", "policy = \"priority\"\nrefresh_urgent_reads = 2\n")
        .and_then(nandlab_core::sim::Simulator::new)
        .err()
        .expect("no trigger")
        .to_string();
    assert!(e.contains("scheduler.refresh_urgent_reads"), "{e}");
    let e = cfg(
        "[ftl.refresh]\ntrigger = \"threshold\"\nread_count = 4\n",
        "policy = \"fifo\"\nrefresh_urgent_reads = 2\n",
    )
    .expect_err("fifo has no such key")
    .to_string();
    assert!(e.contains("refresh_urgent_reads"), "{e}");
}
