//! Helpers shared by the FTL integration tests.

use nandlab_core::flash::{DeviceConfig, Geometry};

/// 2 channels x 1 chip x 1 die x 2 planes x 24 blocks x 8 pages = 768 pages, MLC with the
/// interleaved page map (L0 L1 M0 L2 M1 L3 M2 M3).
pub fn tiny_device() -> Geometry {
    Geometry::new(&DeviceConfig {
        channels: 2,
        chips_per_channel: 1,
        dies_per_chip: 1,
        planes_per_die: 2,
        blocks_per_plane: 24,
        pages_per_block: 8,
        ..DeviceConfig::default()
    })
    .unwrap()
}

/// 1 channel x 1 chip x 1 die x 1 plane x 6 blocks x 8 pages of 8 KiB: every write lands in
/// the one plane, MLC with the interleaved page map (L0 L1 M0 L2 M1 L3 M2 M3).
#[allow(dead_code)] // not every test file uses it
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
