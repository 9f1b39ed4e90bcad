//! Helpers shared by the integration test modules.

use nandlab_core::flash::{DeviceConfig, Geometry};
use nandlab_core::host::{Op, Request};
use nandlab_core::{SimConfig, Simulator};

/// 2 channels x 1 chip x 1 die x 2 planes x 24 blocks x 8 pages = 768 pages, MLC with the
/// interleaved page map (L0 L1 M0 L2 M1 L3 M2 M3).
pub fn tiny_device() -> Geometry {
    two_channels(1, 2)
}

/// 2 channels x `chips_per_channel` chips x 1 die x `planes_per_die` planes x 24 blocks x
/// 8 pages, MLC with the interleaved page map.
#[allow(dead_code)] // not every test file uses it
pub fn two_channels(chips_per_channel: u32, planes_per_die: u32) -> Geometry {
    Geometry::new(&DeviceConfig {
        channels: 2,
        chips_per_channel,
        dies_per_chip: 1,
        planes_per_die,
        blocks_per_plane: 24,
        pages_per_block: 8,
        ..DeviceConfig::default()
    })
    .unwrap()
}

/// 1 channel x 1 chip x 1 die x 1 plane x 6 blocks x 8 pages of 8 KiB: every write lands in
/// the one plane, MLC with the interleaved page map (L0 L1 M0 L2 M1 L3 M2 M3).
pub fn one_plane_device() -> Geometry {
    Geometry::new(&DeviceConfig {
        channels: 1,
        chips_per_channel: 1,
        dies_per_chip: 1,
        planes_per_die: 1,
        blocks_per_plane: 6,
        pages_per_block: 8,
        page_size_bytes: 8192,
        ..DeviceConfig::default()
    })
    .unwrap()
}

/// Replays `reqs` on the device `cfg_text` describes, request records on; returns the
/// requests' latencies in arrival order (ties: first done first) and the run summary.
pub fn replay(cfg_text: &str, reqs: Vec<Request>) -> (Vec<u64>, serde_json::Value) {
    let mut cfg = SimConfig::from_toml_str(cfg_text).unwrap();
    cfg.output.record_requests = true;
    let out = Simulator::new(cfg).unwrap().run_requests(reqs).unwrap();
    let lat = out
        .requests
        .unwrap()
        .latencies_by_arrival()
        .into_iter()
        .map(|(_, l)| l)
        .collect();
    (lat, out.summary.to_json())
}

/// A 4 KiB request of logical page `lpn` (4 KiB pages) arriving at `arrival_ns`.
pub fn req(op: Op, lpn: u64, arrival_ns: u64) -> Request {
    Request::new(arrival_ns, lpn * 4096, 4096, op, 0)
}
