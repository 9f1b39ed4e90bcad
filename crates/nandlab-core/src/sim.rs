//! The simulator (being written).

/// Simulator.
pub struct Simulator;
/// Output of a run.
pub struct SimOutput;
