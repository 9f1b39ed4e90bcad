//! Criterion benchmark of the simulation engine alone (no trace parsing): 100,000 mixed
//! requests (89 % reads, 4–64 KiB, random offsets) on the seed-001 device geometry,
//! preconditioned full. Trace-replay throughput and peak memory are measured end to end
//! by `benchmarks/replay.py`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nandlab_core::engine::rng::mix64;
use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

const CONFIG: &str = r#"
[device]
channels = 8
chips_per_channel = 8
dies_per_chip = 2
planes_per_die = 4
blocks_per_plane = 2048
pages_per_block = 64
[aging]
fill_fraction = 1.0
"#;

fn requests(n: u64, logical_bytes: u64) -> Vec<Request> {
    (0..n)
        .map(|i| {
            let h = mix64(i);
            let pages = 1 + (h >> 40) % 16;
            let size_bytes = pages * 4096;
            let offset_bytes = (h % (logical_bytes / 4096 - 16)) * 4096;
            let op = if h % 100 < 89 { Op::Read } else { Op::Write };
            Request::new(i * 50_000, offset_bytes, size_bytes, op, 0)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let cfg = SimConfig::from_toml_str(CONFIG).unwrap();
    let logical = Simulator::new(cfg.clone()).unwrap().logical_bytes();
    let reqs = requests(100_000, logical);
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.throughput(Throughput::Elements(reqs.len() as u64));
    g.bench_function("replay_100k_mixed_001_device", |b| {
        b.iter(|| {
            let sim = Simulator::new(cfg.clone()).unwrap();
            let stream = Box::new(reqs.clone().into_iter().map(Ok));
            sim.run_stream(stream, &mut |_| true).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
