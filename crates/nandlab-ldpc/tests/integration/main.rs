//! nandlab-ldpc's integration tests in a single test binary (one link instead of one per
//! file). A new test file goes here as a module: `tests/integration/<topic>.rs` and a
//! `mod <topic>;` line below. Run one with `cargo test -p nandlab-ldpc --test integration
//! <topic>::`.

mod mixed_rber;
mod pipelines;
mod shipped_table;
mod stratified;
