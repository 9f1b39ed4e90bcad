//! Which writes a TVR device programs with the reduced layout: `[tvr.region]`. Seed 002
//! §5.1 means TVR for data that needs only a short retention (after Liu et al. [17]: logs,
//! data overwritten within days); everything else is programmed to the standard layout.
//! One file per region; the list below is the registry (`registry.rs`): a region's name
//! in `[tvr.region] kind = "..."` is its type name in snake_case, and its parameters are
//! the fields of its type, written beside `kind`.
//!
//! - `whole_device` (default): every page;
//! - `streams`: writes of the listed streams (`workload.flows` index, or the trace's
//!   device/volume number): the host tags its short-lived data by the stream it writes on;
//! - `lpn_range`: logical pages `[first, end)`, e.g. a log partition.
//!
//! A page keeps its write's stream and logical page when garbage collection moves it, so
//! it stays in its region.

use crate::error::Result;
use crate::flash::block::WriteAttrs;

/// A TVR region: the writes programmed with the reduced layout.
pub trait TvrRegion: std::fmt::Debug {
    /// Whether logical page `lpn`, written with `attrs`, is in the region.
    fn holds(&self, lpn: u64, attrs: WriteAttrs) -> bool;

    /// Whether the region is every page (then nothing needs looking up).
    fn whole_device(&self) -> bool {
        false
    }

    /// Checks the parameters; errors name keys under `table`.
    fn validate(&self, table: &str) -> Result<()>;
}

crate::registry::policies! {
    /// `[tvr.region]`: the region by name, with its own parameters beside it.
    TvrRegionConfig, TvrRegion, "kind", WholeDevice;
    whole_device::WholeDevice,
    streams::Streams,
    lpn_range::LpnRange,
}
