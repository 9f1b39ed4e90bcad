//! Read strategies (`ecc.strategy`): which sensing level each attempt of a page read uses
//! after the previous one failed to decode, where the first attempt starts, and whether
//! the next sensing starts ahead of the previous decode (seed 001 §2.3, §3.1–3.2).
//!
//! - [`TwoStep`] `two-step`: hard decision; on failure, all `k` extra levels at once;
//! - [`Progressive`] `progressive`: one more extra level per retry (levels 1, 2, …, k);
//! - [`LookAhead`] `look-ahead` and [`LookAheadProgressive`] `look-ahead+progressive`: the next sensing starts as
//!   soon as the previous sensing ends (if the plane is idle), overlapping the previous
//!   transfer and decode; cancelled (RESET) when that decode succeeds;
//! - [`LastLevel`] `last-level`: the first attempt senses at the level that last decoded
//!   a page of the same block in its current P/E cycle, then progressive;
//! - [`Stepped`] `stepped`: `step` more levels per retry (a parameter between the two).
//!
//! One file per strategy; the list at the bottom is the registry (`crate::registry`).
//!
//! A strategy without history starts every read hard, so a read's plan depends only on
//! the level its page needs, and the simulator builds one plan per needed level once; a
//! strategy with history is asked for each read's first level, and told the outcome.

use crate::error::Result;

/// What a strategy's run-time instance is built with: the registry's `BuildCtx` for a
/// family that serves the whole device from below the flash layer (`ecc` may not use
/// `flash`, which uses `metrics`, which uses `ecc`): no plane and no geometry.
#[derive(Clone, Copy)]
pub struct BuildCtx<'a> {
    /// Where the strategy's parameters sit (`ecc.strategy`).
    pub table: &'a str,
    /// The run seed.
    pub seed: u64,
}

/// What a strategy may know of the page being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadContext {
    /// Global block index.
    pub block: u32,
    /// P/E cycles of the block (a change means the block was erased since).
    pub pe_cycles: u32,
    /// Page type (0 = LSB).
    pub page_type: u8,
    /// The code's strongest level (`ecc.max_extra_levels`).
    pub max_level: u8,
}

/// How the controller escalates the sensing level of a page read.
pub trait ReadStrategy: Send {
    /// Checks the strategy's parameters; `table` is where they sit (`ecc.strategy`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// The run's instance, for a strategy that keeps state (a history of reads); `None`
    /// (the default): the strategy keeps none and runs as configured.
    fn build(&self, _ctx: &BuildCtx) -> Option<Box<dyn ReadStrategy>> {
        None
    }

    /// Level of the attempt after one at `failed` (< `max_level`) did not decode.
    fn next_level(&self, failed: u8, max_level: u8) -> u8;

    /// Whether each attempt after the first senses ahead: as soon as the previous
    /// sensing ends, when the plane is idle.
    fn look_ahead(&self) -> bool {
        false
    }

    /// Whether the first level depends on the page's history. Without history every
    /// read starts at level 0 and [`ReadStrategy::first_level`] is never asked.
    fn has_history(&self) -> bool {
        false
    }

    /// Level of the first attempt of a read of the page `ctx` (0: hard decision).
    fn first_level(&mut self, _ctx: &ReadContext) -> u8 {
        0
    }

    /// The read of the page `ctx` decoded at `level` (`None`: no level decoded it).
    fn record(&mut self, _ctx: &ReadContext, _level: Option<u8>) {}
}

/// The strategy named `name` with default parameters (`"progressive"`), for tests.
#[cfg(test)]
pub(crate) fn named(name: &str) -> StrategyConfig {
    let d = serde::de::value::StrDeserializer::<serde::de::value::Error>::new(name);
    crate::registry::table_or_name(d).expect("a registered strategy")
}

crate::registry::policies! {
    built;
    /// `ecc.strategy`: the strategy by name (`strategy = "progressive"`), or a table with
    /// `policy = "..."` and the strategy's parameters beside it.
    StrategyConfig, ReadStrategy, "policy", TwoStep;
    two_step::TwoStep = "two-step",
    progressive::Progressive = "progressive",
    look_ahead::LookAhead = "look-ahead",
    look_ahead_progressive::LookAheadProgressive = "look-ahead+progressive",
    last_level::LastLevel = "last-level",
    stepped::Stepped,
}
