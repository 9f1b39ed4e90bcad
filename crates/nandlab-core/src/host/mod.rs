//! Host interface: requests, the host queue with its scheduler hook, and replay modes.

pub mod config;
pub mod request;
pub mod scheduler;

pub use config::{CriticalConfig, HostConfig, OutOfRange, ReplayMode};
pub use request::{Op, Request};
