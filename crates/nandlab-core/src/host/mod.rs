//! Host side: requests, the host queue with its scheduler hook, replay modes, the
//! interface link's timing, and which flash operations reads may suspend.

pub mod closed_loop;
pub mod config;
pub mod interface;
pub mod request;
pub mod scheduler;
pub mod suspend;
pub mod time_scale;

pub use crate::ftl::{CriticalConfig, CriticalSource};
pub use config::{HostConfig, OutOfRange, ReplayMode};
pub use request::{Op, Request};
