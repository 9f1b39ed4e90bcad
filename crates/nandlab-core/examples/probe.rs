use nandlab_core::engine::rng::mix64;
use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};
use std::time::Instant;
fn main() {
    let cfg = SimConfig::from_toml_str("[device]\nchannels = 8\nchips_per_channel = 8\ndies_per_chip = 2\nplanes_per_die = 4\nblocks_per_plane = 2048\npages_per_block = 64\n[aging]\nfill_fraction = 1.0\n[output]\nrecord_requests=false\n").unwrap();
    let t = Instant::now();
    let sim = Simulator::new(cfg.clone()).unwrap();
    println!("new: {:?}", t.elapsed());
    let logical = sim.logical_bytes();
    let reqs: Vec<Request> = (0..100_000u64)
        .map(|i| {
            let h = mix64(i);
            let pages = 1 + (h >> 40) % 16;
            Request {
                arrival_ns: i * 50_000,
                offset_bytes: (h % (logical / 4096 - 16)) * 4096,
                size_bytes: pages * 4096,
                op: if h % 100 < 89 { Op::Read } else { Op::Write },
                stream: 0,
            }
        })
        .collect();
    let t = Instant::now();
    let out = sim
        .run_stream(Box::new(reqs.into_iter().map(Ok)), &mut |_| true)
        .unwrap();
    println!("run: {:?} {}", t.elapsed(), out.summary["sim"]);
}
