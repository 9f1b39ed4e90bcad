//! Host side: requests, the host queue with its scheduler hook, replay modes, and the
//! interface link's timing.

pub mod config;
pub mod interface;
pub mod request;
pub mod scheduler;

pub use config::{CriticalConfig, HostConfig, OutOfRange, ReplayMode};
pub use request::{Op, Request};
