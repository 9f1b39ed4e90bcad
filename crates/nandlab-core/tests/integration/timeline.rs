//! The timeline (`output.timeline_ns`): windows of a hand-built trace hold the counts and
//! latencies worked out by hand, and the windows of a run with GC sum to its summary; per
//! flow and per cache, the same; the blocks' P/E cycles at the end.

use nandlab_core::host::{Op, Request};
use nandlab_core::metrics::TimelineColumns;
use nandlab_core::{SimConfig, Simulator};
use serde_json::Value;

use crate::common::tiny_device;

fn run(cfg: SimConfig, reqs: Vec<Request>) -> (TimelineColumns, Value) {
    let (t, s, _) = run_pe(cfg, reqs);
    (t, s)
}

/// As `run`, with every block's P/E cycles at the end when `output.pe_cycles` asks.
fn run_pe(cfg: SimConfig, reqs: Vec<Request>) -> (TimelineColumns, Value, Option<Vec<u32>>) {
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    let pe = out.pe_by_block;
    (
        out.timeline.expect("a timeline kept in memory"),
        out.summary.to_json(),
        pe,
    )
}

/// A config's own workload (e.g. its flows), run with a timeline kept in memory.
fn run_config(text: &str) -> (TimelineColumns, Value) {
    let out = Simulator::new(SimConfig::from_toml_str(text).unwrap())
        .unwrap()
        .run(&mut |_| true)
        .unwrap();
    (out.timeline.expect("a timeline kept in memory"), out.summary.to_json())
}

/// One channel, chip, die and plane (as `flows.rs`): 4 KiB pages over a 200 MB/s bus
/// (20,480 ns), LSB t_PROG 121 µs.
const ONE_DIE: &str = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\n\
                       planes_per_die = 1\nblocks_per_plane = 64\npages_per_block = 64\n";

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
                [output]\ntimeline_ns = 100_000\npe_cycles = true\n";
    let mut cfg = SimConfig::from_toml_str(text).unwrap();
    cfg.device = tiny_device().cfg;
    let reqs: Vec<Request> = (0..1200u64)
        .map(|i| {
            let op = if i % 3 == 0 { Op::Read } else { Op::Write };
            Request::new(i * 30_000, (i * 97 % 560) * 4096, 4096, op, 0)
        })
        .collect();
    let (t, s, pe) = run_pe(cfg, reqs);
    let pe = pe.expect("P/E cycles asked for");
    let sum = |c: &str| u(&t, c).iter().sum::<u64>();
    assert_eq!(sum("reads") + sum("writes") + sum("trims"), 1200);
    // Every block of the tiny device (2 channels x 2 planes x 24 blocks), starting at 0
    // P/E: their cycles sum to the run's erases.
    assert_eq!(pe.len(), 2 * 2 * 24);
    let erased: u64 = ["gc", "wear_leveling", "refresh"]
        .iter()
        .map(|c| s["flash"]["by_cause"][c]["erases"].as_u64().unwrap())
        .sum();
    assert_eq!(pe.iter().map(|&p| u64::from(p)).sum::<u64>(), erased);
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

/// Two flows each write one page at 0 on one idle die (`flows.rs` works the times out):
/// flow 0's program ends at 20,480 + 121,000 = 141,480 ns, flow 1's waits for it and
/// ends 121,000 later; both in window 0 of 1 ms. Blocks start at 2,000 P/E (no erase).
#[test]
fn per_flow_columns_by_hand() {
    let flow = "[[workload.flows]]\nrequests = 1\nread_fraction = 0.0\n";
    let (t, s) = run_config(&format!(
        "{ONE_DIE}[aging]\nfill_fraction = 0.0\ninitial_pe = 2000\n[output]\ntimeline_ns = 1_000_000\n{flow}{flow}"
    ));
    assert_eq!(u(&t, "start_ns"), [0]);
    assert_eq!(u(&t, "flow0_writes"), [1]);
    assert_eq!(u(&t, "flow1_writes"), [1]);
    assert_eq!(u(&t, "flow0_reads"), [0]);
    assert_eq!(f(&t, "flow0_write_p99_ns"), [141_480.0]);
    assert_eq!(f(&t, "flow1_write_p99_ns"), [262_480.0]);
    assert!(f(&t, "flow1_read_p99_ns")[0].is_nan());
    // 4096 B in 1 ms = 4.096 MB/s each.
    assert_eq!(f(&t, "flow0_write_mb_s"), [4.096]);
    assert!(t.u64s("flow2_writes").is_none());
    assert_eq!(s["flows"].as_array().unwrap().len(), 2);
    let out = Simulator::new(
        SimConfig::from_toml_str(&format!(
            "{ONE_DIE}[aging]\nfill_fraction = 0.0\ninitial_pe = 2000\n[output]\npe_cycles = true\n{flow}"
        ))
        .unwrap(),
    )
    .unwrap()
    .run(&mut |_| true)
    .unwrap();
    assert_eq!(out.pe_by_block.unwrap(), vec![2000; 64]);
}

/// The flows' windows sum to each flow's summary (three flows, one with trims).
#[test]
fn per_flow_windows_sum_to_the_flows_table() {
    let text = format!(
        "{ONE_DIE}[aging]\nfill_fraction = 0.5\n[output]\ntimeline_ns = 50_000_000\n\
         [[workload.flows]]\nrequests = 300\nread_fraction = 0.9\niops = 2000.0\n\
         [[workload.flows]]\nrequests = 200\nread_fraction = 0.0\niops = 500.0\nsize_bytes = 8192\n\
         [[workload.flows]]\nrequests = 100\nread_fraction = 0.5\ntrim_fraction = 0.2\niops = 1000.0\n"
    );
    let (t, s) = run_config(&text);
    let flows = s["flows"].as_array().unwrap();
    for (i, fl) in flows.iter().enumerate() {
        for op in ["reads", "writes", "trims"] {
            let sum: u64 = u(&t, &format!("flow{i}_{op}")).iter().sum();
            assert_eq!(sum, fl["requests"][op].as_u64().unwrap(), "flow {i} {op}");
        }
        // MB/s × window length gives the bytes back.
        let bytes: f64 = f(&t, &format!("flow{i}_write_mb_s")).iter().sum::<f64>() * 1e6 * 0.05;
        assert!(
            (bytes - fl["write"]["bytes"].as_f64().unwrap()).abs() < 1e-3,
            "flow {i}"
        );
    }
    let all: u64 = (0..3)
        .map(|i| u(&t, &format!("flow{i}_reads")).iter().sum::<u64>())
        .sum();
    assert_eq!(all, u(&t, "reads").iter().sum::<u64>());
}

/// DRAM cache (as `cache.rs`): a write miss at 0, a read hit at 1 ms, a write hit at 2 ms,
/// in windows of 1 ms. Mapping cache of one entry (as `mapping_cache.rs`): reads of lpn 0,
/// 0, a write of 1 and a read of 1365, 10 ms apart: miss, hit, miss, miss.
#[test]
fn cache_hits_by_hand() {
    let text = "[cache]\ncapacity_bytes = 8192\n[output]\ntimeline_ns = 1_000_000\n";
    let reqs = [(Op::Write, 0), (Op::Read, 1_000_000), (Op::Write, 2_000_000)]
        .map(|(op, t)| Request::new(t, 0, 4096, op, 0))
        .to_vec();
    let (t, s) = run(SimConfig::from_toml_str(text).unwrap(), reqs);
    assert_eq!(u(&t, "start_ns"), [0, 1_000_000, 2_000_000]);
    assert_eq!(u(&t, "cache_write_misses"), [1, 0, 0]);
    assert_eq!(u(&t, "cache_write_hits"), [0, 0, 1]);
    assert_eq!(u(&t, "cache_read_hits"), [0, 1, 0]);
    assert_eq!(u(&t, "cache_read_misses"), [0; 3]);
    let rate = f(&t, "cache_read_hit_rate");
    assert!(rate[0].is_nan() && rate[1] == 1.0 && rate[2].is_nan());
    let rate = f(&t, "cache_write_hit_rate");
    assert!(rate[0] == 0.0 && rate[1].is_nan() && rate[2] == 1.0, "{rate:?}");
    assert_eq!(s["cache"]["read_hits"], 1);
    assert!(t.u64s("mapping_hits").is_none());

    let device = "[device]\nchannels = 1\nchips_per_channel = 1\ndies_per_chip = 1\nplanes_per_die = 1\n\
                  blocks_per_plane = 64\npages_per_block = 64\ncell_type = \"slc\"\n\
                  [timing]\nread_latency_ns = [40_000]\nprogram_latency_ns = [200_000]\n[ecc]\nscheme = \"none\"\n\
                  [ftl.mapping_cache]\ncapacity_bytes = 4\n[output]\ntimeline_ns = 10_000_000\n";
    let reqs = [(Op::Read, 0), (Op::Read, 0), (Op::Write, 1), (Op::Read, 1365)]
        .iter()
        .enumerate()
        .map(|(i, &(op, lpn))| Request::new(i as u64 * 10_000_000, lpn * 4096, 4096, op, 0))
        .collect();
    let (t, s) = run(SimConfig::from_toml_str(device).unwrap(), reqs);
    assert_eq!(u(&t, "mapping_hits"), [0, 1, 0, 0]);
    assert_eq!(u(&t, "mapping_misses"), [1, 0, 1, 1]);
    assert_eq!(f(&t, "mapping_hit_rate"), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(
        (&s["mapping_cache"]["hits"], &s["mapping_cache"]["misses"]),
        (&1.into(), &3.into())
    );
    assert!(t.u64s("cache_read_hits").is_none());
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
    assert!(out.pe_by_block.is_none());
}

/// The blocks' P/E cycles only when `output.pe_cycles` asks (with or without a timeline),
/// and the resolved config names the key only then.
#[test]
fn pe_cycles_only_when_asked() {
    let write = || vec![Request::new(0, 0, 4096, Op::Write, 0)];
    let cfg = SimConfig::from_toml_str("[output]\ntimeline_ns = 1_000_000\n").unwrap();
    assert!(!cfg.to_json().to_string().contains("pe_cycles"));
    let (_, _, pe) = run_pe(cfg, write());
    assert!(pe.is_none());
    let cfg = SimConfig::from_toml_str("[output]\npe_cycles = true\n").unwrap();
    assert!(cfg.to_json().to_string().contains("\"pe_cycles\":true"));
    let out = Simulator::new(cfg).unwrap().run_requests(write()).unwrap();
    assert!(out.timeline.is_none());
    let blocks = out.summary.to_json()["config"]["device"].clone();
    let n: u64 = [
        "channels",
        "chips_per_channel",
        "dies_per_chip",
        "planes_per_die",
        "blocks_per_plane",
    ]
    .iter()
    .map(|k| blocks[k].as_u64().unwrap())
    .product();
    assert_eq!(out.pe_by_block.map(|v| v.len() as u64), Some(n));
}
