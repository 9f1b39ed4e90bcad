//! How long a page program and a block erase take: `[timing.pe_time]`. One file per
//! model; the list below is the registry (`registry.rs`): a model's name in
//! `[timing.pe_time] model = "..."` is its type name in snake_case, and its parameters are
//! the fields of its type, written beside `model` (unknown ones are errors naming the key).
//!
//! - `fixed` (default): `timing.program_latency_ns` per page type and
//!   `timing.erase_latency_ns`, whatever the data;
//! - `content`: seed 002 §4 (Wang, Xie, Zhou, ICS'14): the time follows the cell states
//!   the data puts the cells in, and the block's wear.

use super::cell::PageType;
use crate::content::StateHist;
use crate::error::Result;

/// A program/erase time model, built for one run (it may keep per-block state).
pub trait PeTimeModel: std::fmt::Debug + Send {
    /// Whether [`PeTimeModel::program_ns`] reads the page's cell-state histogram (the
    /// simulator only looks the histogram up for models that do).
    fn needs_content(&self) -> bool;

    /// Program time (ns) of a page of `page_type` in `block`, at `pe` P/E cycles, whose
    /// cells take the states of `hist` (`None`: not looked up, random data assumed).
    fn program_ns(&mut self, block: u32, page_type: PageType, hist: Option<&StateHist>, pe: u32) -> u64;

    /// Erase time (ns) of `block` at `pe` P/E cycles, after the programs since its last
    /// erase.
    fn erase_ns(&mut self, block: u32, pe: u32) -> u64;
}

/// What the fixed `[timing]` keys resolve to, for models to start from.
#[derive(Debug, Clone)]
pub struct BaseTimes {
    /// `t_PROG` per page type.
    pub program_ns: Vec<u64>,
    /// `t_BERS`.
    pub erase_ns: u64,
    /// Bits per cell of the device.
    pub bits: usize,
}

/// A model's config: checks its parameters and builds the run's model.
pub trait PeTimeSpec {
    /// The model for a device with `base` times; errors name keys under `table`.
    fn build(&self, table: &str, base: &BaseTimes) -> Result<Box<dyn PeTimeModel>>;
}

crate::registry::policies! {
    /// `[timing.pe_time]`: the model by name, with its own parameters beside it.
    PeTimeConfig, PeTimeSpec, "model", Fixed;
    fixed::Fixed,
    content::Content,
}

impl PeTimeConfig {
    /// Whether this is the default `fixed` model (then the key is left out of the
    /// resolved config, which stays as it was before the key existed).
    pub fn is_fixed(&self) -> bool {
        matches!(self, PeTimeConfig::Fixed(_))
    }
}
