//! Benchmark harness for a config's own workload (the demo's synthetic one, say): runs it
//! with per-request records off and prints one JSON line with the simulation's wall time
//! and requests per second, as `nandlab run --requests-out none --json`'s `sim` section
//! has them, and the whole summary (`summary`), without the Python front end (so `valgrind --tool=cachegrind` counts the
//! simulator's instructions alone). Used by `benchmarks/vth_speed.md`; run it as
//! `cargo run --release --example run_config -- CONFIG [SECTION.KEY=TOML_VALUE...]`.

use nandlab_core::SimConfig;
use nandlab_core::Simulator;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: run_config CONFIG [SECTION.KEY=TOML_VALUE...]");
        std::process::exit(2);
    };
    let fail = |e: String| -> ! {
        eprintln!("error: {e}");
        std::process::exit(2)
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let mut v = SimConfig::from_toml_str(&text)
        .unwrap_or_else(|e| fail(format!("{path}: {e}")))
        .to_json();
    for set in &args[1..] {
        let (key, value) = set
            .split_once('=')
            .unwrap_or_else(|| fail(format!("{set}: not KEY=VALUE")));
        let value: toml::Value = toml::from_str(&format!("v = {value}"))
            .map(|t: toml::Table| t["v"].clone())
            .unwrap_or_else(|e| fail(format!("{set}: {e}")));
        let mut node = &mut v;
        for part in key.split('.') {
            node = &mut node[part];
        }
        *node = serde_json::to_value(value).expect("a TOML value is JSON");
    }
    v["output"]["record_requests"] = json!(false);
    let cfg = SimConfig::from_json_str(&v.to_string()).unwrap_or_else(|e| fail(e.to_string()));
    let out = Simulator::new(cfg)
        .and_then(|sim| sim.run(&mut |_| true))
        .unwrap_or_else(|e| fail(e.to_string()));
    let s = &out.summary;
    println!(
        "{}",
        json!({
            "requests": s.requests.count,
            "wall_s": s.sim.wall_s,
            "requests_per_s": s.sim.requests_per_s,
            "summary": s.to_json(),
        })
    );
}
