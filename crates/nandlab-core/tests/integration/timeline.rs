//! The timeline (`output.timeline_ns`): windows of a hand-built trace hold the counts and
//! latencies worked out by hand, and the windows of a run with GC sum to its summary.

use nandlab_core::host::{Op, Request};
use nandlab_core::metrics::TimelineColumns;
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

use crate::common::tiny_device;

fn run(cfg: SimConfig, reqs: Vec<Request>) -> (TimelineColumns, Value) {
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    (out.timeline.expect("a timeline kept in memory"), out.summary.to_json())
}

fn u(t: &TimelineColumns, name: &str) -> Vec<u64> {
    t.u64s(name).expect(name).to_vec()
}

fn f(t: &TimelineColumns, name: &str) -> Vec<f64> {
    t.f64s(name).expect(name).to_vec()
}

/// Reads of one page at 0, 1 and 3 ms in windows of 1 ms, on an idle full device whose
/// every page has RBER 0.004 (decoded hard): each takes t_R 41 µs + 4 KiB transfer
/// 20.48 µs + decode 8 µs = 69.48 µs (`read_path.rs` works this out from seed 001's Eq. 1),
/// so the others hold one read each and window 2, idle, gives no row.
#[test]
fn hand_built_trace() {
    let text = "[aging]\nfill_fraction = 1.0\n[reliability]\nmodel = \"nominal\"\nnominal_rber = 0.004\n\
                error_draw = \"expected\"\n[ecc]\nscheme = \"ldpc\"\n[output]\ntimeline_ns = 1_000_000\n";
    let cfg = SimConfig::from_toml_str(text).unwrap();
    let dies = u64::from(cfg.device.channels * cfg.device.chips_per_channel * cfg.device.dies_per_chip);
    let channels = u64::from(cfg.device.channels);
    let reqs = [0, 1_000_000, 3_000_000]
        .map(|t| Request::new(t, 0, 4096, Op::Read, 0))
        .to_vec();
    let (t, s) = run(cfg, reqs);
    const HARD: f64 = 69_480.0;
    assert_eq!(u(&t, "start_ns"), [0, 1_000_000, 3_000_000]);
    assert_eq!(u(&t, "reads"), [1, 1, 1]);
    assert_eq!(u(&t, "writes"), [0; 3]);
    assert_eq!(f(&t, "read_iops"), [1000.0; 3]);
    // 4096 B per ms = 4.096 MB/s.
    assert_eq!(f(&t, "read_mb_s"), [4.096; 3]);
    for col in ["read_p50_ns", "read_p99_ns", "read_max_ns"] {
        assert_eq!(f(&t, col), [HARD; 3], "{col}");
    }
    assert!(f(&t, "write_p99_ns").iter().all(|x| x.is_nan()));
    // One request outstanding for 69.48 µs of the 1 ms window.
    assert_eq!(f(&t, "queue_depth"), [0.06948; 3]);
    assert_eq!(u(&t, "judged_reads"), [1; 3]);
    assert_eq!(f(&t, "rber_mean"), [0.004; 3]);
    assert_eq!(f(&t, "level_mean"), [0.0; 3]);
    assert_eq!(u(&t, "retries"), [0; 3]);
    // The die senses 41 µs, the channel moves 20.48 µs, per read.
    let die = f(&t, "die_util");
    let chan = f(&t, "channel_util");
    for w in 0..3 {
        assert!((die[w] * dies as f64 * 1e6 - 41_000.0).abs() < 1e-6, "{die:?}");
        assert!((chan[w] * channels as f64 * 1e6 - 20_480.0).abs() < 1e-6, "{chan:?}");
    }
    assert_eq!(s["requests"]["reads"], 3);
}

/// Overwrites of a small plane in windows of 100 µs: GC moves pages and erases blocks, and
/// every window's counts sum to the run's totals.
#[test]
fn windows_sum_to_the_summary() {
    let text = "[aging]\nfill_fraction = 0.5\n[ftl]\noverprovisioning = 0.25\n[reliability]\nmodel = \"nominal\"\n\
                nominal_rber = 0.0085\nerror_draw = \"expected\"\n[ecc]\nscheme = \"ldpc\"\n\
                [output]\ntimeline_ns = 100_000\n";
    let mut cfg = SimConfig::from_toml_str(text).unwrap();
    cfg.device = tiny_device().cfg;
    let reqs: Vec<Request> = (0..1200u64)
        .map(|i| {
            let op = if i % 3 == 0 { Op::Read } else { Op::Write };
            Request::new(i * 30_000, (i * 97 % 560) * 4096, 4096, op, 0)
        })
        .collect();
    let (t, s) = run(cfg, reqs);
    let sum = |c: &str| u(&t, c).iter().sum::<u64>();
    assert_eq!(sum("reads") + sum("writes") + sum("trims"), 1200);
    assert_eq!(sum("reads"), s["requests"]["reads"].as_u64().unwrap());
    assert_eq!(sum("writes"), s["requests"]["writes"].as_u64().unwrap());
    let gc = &s["flash"]["by_cause"]["gc"];
    assert!(
        gc["page_programs"].as_u64().unwrap() > 0 && gc["erases"].as_u64().unwrap() > 0,
        "GC must move pages: {gc}"
    );
    assert_eq!(sum("gc_page_moves"), gc["page_programs"].as_u64().unwrap());
    assert_eq!(sum("gc_erases"), gc["erases"].as_u64().unwrap());
    let erases: u64 = ["gc", "wear_leveling", "refresh"]
        .iter()
        .map(|c| s["flash"]["by_cause"][c]["erases"].as_u64().unwrap())
        .sum();
    assert_eq!(sum("gc_erases") + sum("wl_erases") + sum("refresh_erases"), erases);
    let rel = &s["reliability"];
    assert_eq!(sum("judged_reads"), rel["page_reads"].as_u64().unwrap());
    assert_eq!(sum("retries"), rel["retries"].as_u64().unwrap());
    // Windows of 100 µs, in order (idle ones give no row).
    let start = u(&t, "start_ns");
    assert!(start.windows(2).all(|w| w[1] > w[0]) && start.iter().all(|s| s % 100_000 == 0));
    // Requests outstanding at the end: none, so the mean depth integrates the latencies.
    let latency_sum = (s["all"]["mean_ns"].as_f64().unwrap() * 1200.0).round();
    let area: f64 = f(&t, "queue_depth").iter().sum::<f64>() * 100_000.0;
    assert!((area - latency_sum).abs() < 1.0, "{area} vs {latency_sum}");
}

/// Off by default: no timeline, and the resolved config does not name it.
#[test]
fn off_by_default() {
    let cfg = SimConfig::from_toml_str("").unwrap();
    assert!(!cfg.to_json().to_string().contains("timeline_ns"));
    let out = Simulator::new(cfg)
        .unwrap()
        .run_requests(vec![Request::new(0, 0, 4096, Op::Write, 0)])
        .unwrap();
    assert!(out.timeline.is_none());
}
