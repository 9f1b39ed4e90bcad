//! Benchmark harness: replays a trace on a preset and prints one JSON line with the wall
//! time, simulated requests per second and peak resident memory (VmHWM). Used by
//! `benchmarks/replay.py`; run it as
//! `cargo run --release --example replay -- CONFIG TRACE [FORMAT] [REPEAT] [OVERLAY.toml...]`
//! (each overlay's sections replace the config's keys, e.g. to turn an error model on).

use nandlab_core::{SimConfig, Simulator};
use serde_json::json;
use std::time::Instant;

fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Deep-merges `top` into `base` (tables merge, other values replace).
fn merge(base: &mut serde_json::Value, top: serde_json::Value) {
    match (base, top) {
        (serde_json::Value::Object(b), serde_json::Value::Object(t)) => {
            for (k, v) in t {
                merge(b.entry(k).or_insert(serde_json::Value::Null), v);
            }
        }
        (b, t) => *b = t,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: replay CONFIG TRACE [FORMAT] [REPEAT] [OVERLAY.toml...]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("error: {}: {e}", args[0]);
        std::process::exit(2)
    });
    let mut cfg = SimConfig::from_toml_str(&text).unwrap_or_else(|e| {
        eprintln!("error: {}: {e}", args[0]);
        std::process::exit(2)
    });
    let mut v = cfg.to_json();
    for overlay in args.iter().skip(4) {
        let text = std::fs::read_to_string(overlay).unwrap_or_else(|e| {
            eprintln!("error: {overlay}: {e}");
            std::process::exit(2)
        });
        let o: serde_json::Value = toml::from_str(&text).unwrap_or_else(|e| {
            eprintln!("error: {overlay}: {e}");
            std::process::exit(2)
        });
        merge(&mut v, o);
    }
    v["workload"] = json!({
        "kind": "trace",
        "path": args[1],
        "format": args.get(2).map(String::as_str).unwrap_or("auto"),
        "repeat": args.get(3).and_then(|r| r.parse::<u32>().ok()).unwrap_or(1),
    });
    v["output"]["record_requests"] = json!(false);
    cfg = SimConfig::from_json_str(&v.to_string()).expect("the patched config is valid");
    let t0 = Instant::now();
    let run = Simulator::new(cfg).and_then(|sim| sim.run(&mut |_| true));
    let total_s = t0.elapsed().as_secs_f64();
    match run {
        Ok(out) => {
            let s = &out.summary;
            let requests = s.requests.count;
            let reliability = s.reliability.as_ref().map(|r| &r.reads);
            println!(
                "{}",
                json!({
                    "requests": requests,
                    "setup_s": total_s - s.sim.wall_s,
                    "replay_s": s.sim.wall_s,
                    "total_s": total_s,
                    "requests_per_s": requests as f64 / total_s,
                    "peak_rss_mb": peak_rss_mb(),
                    "read_mean_ns": s.read.mean_ns,
                    "rber_mean": reliability.map(|r| r.rber_mean),
                    "mean_decoding_level": reliability.map(|r| r.mean_decoding_level),
                    "write_mean_ns": s.write.mean_ns,
                    "mapping_entries": s.sim.mapping_entries,
                })
            );
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
