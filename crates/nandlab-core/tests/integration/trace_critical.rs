//! Critical writes flagged by the trace (`host.critical.source = "trace"`): the DiskSim
//! format's sixth column sets the write attribute `critical`, and seed 004's AP (MSB
//! allocation with request feedback) then lands those pages on MSB pages.

use nandlab_core::workload::{trace_info, TraceFormat};
use nandlab_core::{SimConfig, Simulator};
use serde_json::{json, Value};
use std::path::PathBuf;

use crate::common::one_plane_device;

/// One plane of 6 blocks × 8 pages of 8 KiB (16 sectors), MLC with the interleaved map
/// L0 L1 M0 L2 M1 L3 M2 M3. Open loop, one request at the device at a time.
///
/// P0 (logical page 0) arrives alone and takes page 0. While it programs, the flagged C5,
/// then P1, P2, the flagged C6 and P3 arrive (1-5 ns). Under AP (`msb_critical` +
/// `feedback`): page 1 is LSB, so C5 is held and P1 takes it; C5 takes MSB page 2; P2 takes
/// LSB page 3; C6 takes MSB page 4; P3 takes page 5 — one feedback, nothing skipped. Under
/// BL (`by_cause` + `fifo`) they go in arrival order: C5 on LSB page 1, C6 on MSB page 4.
/// The flagged read of logical page 7 is a read of an unwritten page (the flag on a read has
/// no effect). A second later, C5 and C6 are read back.
const TRACE: &str = "\
0 0 0 16 0
1 0 80 16 0 1
2 0 16 16 0 0
3 0 32 16 0
4 0 96 16 0 1
5 0 48 16 0
6 0 112 16 1 1
1000000000 0 80 16 1
1000000001 0 96 16 1
";

/// Writes [`TRACE`] into a fresh folder named after `tag`; returns (folder, trace path).
fn write_trace(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("nandlab-trace-critical-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("flags.trace");
    std::fs::write(&path, TRACE).unwrap();
    (dir, path)
}

fn run(policy: &str, scheduler: &str, source: &str) -> Value {
    let (dir, path) = write_trace(&format!("{policy}-{source}"));
    let text = format!(
        r#"
[ftl]
overprovisioning = 0.5
[ftl.placement]
policy = "{policy}"
[host]
queue_depth = 1
scheduler = "{scheduler}"
[host.critical]
source = "{source}"
[aging]
fill_fraction = 0.0
[workload]
kind = "trace"
path = "{}"
format = "disksim"
"#,
        path.display()
    );
    let mut cfg = SimConfig::from_toml_str(&text).unwrap();
    cfg.device = one_plane_device().cfg;
    let out = Simulator::new(cfg).unwrap().run(&mut |_| true).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    out.summary.to_json()
}

#[test]
fn flagged_writes_land_on_msb_pages_under_ap() {
    let s = run("msb_critical", "feedback", "trace");
    assert_eq!(s["critical"]["reads_by_page_type"], json!([0, 2]));
    assert_eq!(s["scheduler"]["feedbacks"], json!(1));
    assert_eq!(s["scheduler"]["critical_writes_unfed"], json!(0));
    assert_eq!(s["flash"]["skipped_pages"], json!(0));
    assert_eq!(s["flash"]["page_programs"], json!(6));
}

#[test]
fn a_type_blind_ftl_puts_one_flagged_write_on_an_lsb_page() {
    let s = run("by_cause", "fifo", "trace");
    assert_eq!(s["critical"]["reads_by_page_type"], json!([1, 1]));
}

#[test]
fn the_lpn_classifier_ignores_the_flags() {
    // No ranges and the flags ignored: no write is critical, so no `critical` section, and
    // AP's placement writes in arrival order with nothing held.
    let s = run("msb_critical", "feedback", "lpn_ranges");
    assert!(s.get("critical").is_none(), "{s}");
    assert_eq!(s["scheduler"]["feedbacks"], json!(0));
    assert_eq!(s["scheduler"]["critical_writes_unfed"], json!(0));
}

#[test]
fn trace_info_counts_the_flagged_writes() {
    let (dir, path) = write_trace("info");
    let info = trace_info(path.to_str().unwrap(), TraceFormat::Auto, None).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // C5 and C6; the flagged read (line 7) and the `0` flag (line 3) do not count.
    assert_eq!(
        (info.format, info.writes, info.critical_writes),
        (TraceFormat::Disksim, 6, 2)
    );
}
