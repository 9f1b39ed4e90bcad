//! Discrete-event machinery: a time-ordered event queue with deterministic tie-breaking
//! and seeded random-number streams.

pub mod memory;
pub mod queue;
pub mod rng;
pub mod slab;

pub use queue::EventQueue;
pub use rng::{stream_rng, SimRng};
pub use slab::Slab;
