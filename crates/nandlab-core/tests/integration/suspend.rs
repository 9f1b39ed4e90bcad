//! Program/erase suspension for reads (`[host.suspend]`), hand-computed on an idle
//! one-die device with the default timing (4 KiB pages over a 200 MB/s bus: 20,480 ns;
//! LSB t_R 41 µs, t_PROG 121 µs; erase 3.24 ms; BCH decode 8 µs) and MQSim's suspend
//! times (program 100 µs, erase 700 µs; no resume time unless set).

use nandlab_core::host::{Op, Request};

use crate::common::{self, req};

const XFER: u64 = 20_480;
const T_R: u64 = 41_000;
const T_PROG: u64 = 121_000;
const DECODE: u64 = 8_000;
const SUSPEND_PROGRAM: u64 = 100_000;

/// One channel, chip, die and plane: every page is on the one die.
const ONE_DIE: &str = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\nplanes_per_die = 1\n\
                       blocks_per_plane = 8\npages_per_block = 8\n[aging]\nfill_fraction = 0.0\n[ecc]\nscheme = \"bch\"\n";

/// Latencies (arrival order) and the summary's `suspend` table.
fn run(suspend: &str, reqs: Vec<Request>) -> (Vec<u64>, serde_json::Value) {
    let (lat, summary) = common::replay(&format!("{ONE_DIE}[host.suspend]\n{suspend}"), reqs);
    (lat, summary["suspend"].clone())
}

/// Writes logical page 1 (page 0 of the first block, LSB) at 0, then logical page 0 at
/// 1 ms, whose LSB program runs from 1,020,480 to 1,141,480 ns; reads page 1 at `read_at`.
fn write_then_read(suspend: &str, read_at: u64) -> (Vec<u64>, serde_json::Value) {
    run(
        suspend,
        vec![
            req(Op::Write, 1, 0),
            req(Op::Write, 0, 1_000_000),
            req(Op::Read, 1, read_at),
        ],
    )
}

const PROGRAM_START: u64 = 1_000_000 + XFER;
const PROGRAM_END: u64 = PROGRAM_START + T_PROG;

#[test]
fn a_read_suspends_a_program() {
    // At 1 µs into the program 120 µs are left (at least 100 µs): it stops for 100 µs,
    // the read senses, and the program resumes with its 120 µs.
    let at = PROGRAM_START + 1_000;
    let (lat, s) = write_then_read("ops = \"program\"\n", at);
    assert_eq!(lat[2], SUSPEND_PROGRAM + T_R + XFER + DECODE);
    assert_eq!(lat[1], XFER + T_PROG + SUSPEND_PROGRAM + T_R);
    assert_eq!(lat[0], XFER + T_PROG);
    assert_eq!(
        (&s["program_suspensions"], &s["erase_suspensions"]),
        (&1.into(), &0.into())
    );
}

#[test]
fn a_resume_time_delays_the_program_only() {
    let at = PROGRAM_START + 1_000;
    let (lat, _) = write_then_read("ops = \"program\"\nresume_ns = 7000\n", at);
    assert_eq!(lat[2], SUSPEND_PROGRAM + T_R + XFER + DECODE);
    assert_eq!(lat[1], XFER + T_PROG + SUSPEND_PROGRAM + T_R + 7_000);
}

#[test]
fn a_read_waits_when_suspension_is_off_or_too_little_is_left() {
    let at = PROGRAM_START + 1_000;
    // Off (the default): the read senses after the program.
    let (lat, s) = write_then_read("", at);
    assert_eq!(lat[2], PROGRAM_END - at + T_R + XFER + DECODE);
    assert_eq!(lat[1], XFER + T_PROG);
    assert!(s.is_null(), "no suspend table when off: {s}");
    // Erases only: a program is not suspended.
    let (lat, s) = write_then_read("ops = \"erase\"\n", at);
    assert_eq!(lat[2], PROGRAM_END - at + T_R + XFER + DECODE);
    assert_eq!(s["program_suspensions"], 0);
    // 99,999 ns left, under MQSim's 100 µs: not worth suspending.
    let at = PROGRAM_END - 99_999;
    let (lat, s) = write_then_read("ops = \"program_erase\"\n", at);
    assert_eq!(lat[2], 99_999 + T_R + XFER + DECODE);
    assert_eq!(lat[1], XFER + T_PROG);
    assert_eq!(s["program_suspensions"], 0);
}

/// Rewrites logical page 0 every 10 ms (page 1 once, at 400 ms): the first seven
/// blocks fill, and the write at 410 ms (page 1 of the sixth block, LSB) finds two free
/// blocks left, so GC erases the first block (all its pages stale, nothing to move) from
/// 410 ms on, the write's program queued behind the erase; page 1 is read at `read_at`.
fn gc_erase_then_read(suspend: &str, read_at: u64) -> (Vec<u64>, serde_json::Value) {
    let mut reqs: Vec<Request> = (0..42).map(|i| req(Op::Write, 0, i * 10_000_000)).collect();
    reqs[40].offset_bytes = 4096;
    reqs.push(req(Op::Read, 1, read_at));
    run(suspend, reqs)
}

const ERASE: u64 = 3_240_000;
const SUSPEND_ERASE: u64 = 700_000;

#[test]
fn a_read_suspends_an_erase() {
    let at = 410_000_000 + 1_000;
    // Off: the read waits for the erase, and the write's program (at the die 20,480 ns
    // after the write arrived, after the read) for both.
    let (lat, _) = gc_erase_then_read("", at);
    assert_eq!(lat[42], ERASE - 1_000 + T_R + XFER + DECODE);
    assert_eq!(lat[41], ERASE + T_R + T_PROG);
    // 3,239 µs of the erase left (at least 700 µs): it stops for 700 µs, the read
    // senses, the erase resumes; the write's program follows it.
    let (lat, s) = gc_erase_then_read("ops = \"program_erase\"\n", at);
    assert_eq!(lat[42], SUSPEND_ERASE + T_R + XFER + DECODE);
    assert_eq!(lat[41], ERASE + SUSPEND_ERASE + T_R + T_PROG);
    assert_eq!(
        (&s["program_suspensions"], &s["erase_suspensions"]),
        (&0.into(), &1.into())
    );
}
