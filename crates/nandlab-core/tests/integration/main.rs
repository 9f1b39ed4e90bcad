//! nandlab-core's integration tests, one module per topic, in a single test binary: one
//! link and one copy of the generic test code (proptest) instead of one per file, which
//! made compiling the tests the slowest part of `cargo test` on a fresh clone.
//!
//! A new test file goes here as a module: `tests/integration/<topic>.rs` and a `mod
//! <topic>;` line below (not a new `tests/<topic>.rs`, which would be a binary of its
//! own). Shared helpers live in `common.rs`. Run one module with `cargo test -p
//! nandlab-core --test integration <topic>::`.

mod common;

mod asymmetric_004;
mod asymmetric_ftl;
mod bad_config;
mod bitflip;
mod cache;
mod chip_placement;
mod closed_loop;
mod determinism;
mod fer_extrapolation;
mod flows;
mod ftl_props;
mod host_interface;
mod host_view;
mod ldpc_in_ssd;
mod ldpc_in_ssd_reads;
mod mapping_cache;
mod meta_cure;
mod page_types;
mod pe_time;
mod presets;
mod read_leveling;
mod read_path;
mod refresh_destinations;
mod refresh_props;
mod refresh_urgency;
mod retirement;
mod scheduler;
mod sectors;
mod session;
mod suspend;
mod timeline;
mod timing;
mod trace_critical;
mod tvr_region;
mod vth_orderings_002;
