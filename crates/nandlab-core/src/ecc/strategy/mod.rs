//! Read strategies (`ecc.strategy`): which sensing level each attempt of a page read uses
//! after the previous one failed to decode, where the first attempt starts, and whether
//! the next sensing starts ahead of the previous decode (seed 001 §2.3, §3.1–3.2).
//!
//! - [`two_step`] `two-step`: hard decision; on failure, all `k` extra levels at once;
//! - [`progressive`] `progressive`: one more extra level per retry (levels 1, 2, …, k);
//! - [`look_ahead`] `look-ahead` and `look-ahead+progressive`: the next sensing starts as
//!   soon as the previous sensing ends (if the plane is idle), overlapping the previous
//!   transfer and decode; cancelled (RESET) when that decode succeeds;
//! - [`last_level`] `last-level`: the first attempt senses at the level that last decoded
//!   a page of the same block in its current P/E cycle, then progressive.
//!
//! A strategy without history starts every read hard, so a read's plan depends only on
//! the level its page needs, and the simulator builds one plan per needed level once; a
//! strategy with history is asked for each read's first level, and told the outcome.

pub mod last_level;
pub mod look_ahead;
pub mod progressive;
pub mod two_step;

use serde::{Deserialize, Serialize};

pub use last_level::LastLevel;
pub use look_ahead::LookAhead;
pub use progressive::Progressive;
pub use two_step::TwoStep;

/// What a strategy may know of the page being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadContext {
    /// Global block index.
    pub block: u32,
    /// P/E cycles of the block (a change means the block was erased since).
    pub pe_cycles: u32,
    /// Page type (0 = LSB).
    pub page_type: u8,
}

/// How the controller escalates the sensing level of a page read.
pub trait ReadStrategy: Send {
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

/// The `ecc.strategy` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum StrategyKind {
    /// Hard, then all extra levels.
    #[default]
    #[serde(rename = "two-step")]
    TwoStep,
    /// One more extra level per retry.
    #[serde(rename = "progressive")]
    Progressive,
    /// Two-step with the soft sensing started during the hard transfer/decode.
    #[serde(rename = "look-ahead")]
    LookAhead,
    /// Progressive with each next level sensed ahead.
    #[serde(rename = "look-ahead+progressive")]
    LookAheadProgressive,
    /// Start at the level that last decoded the block, then progressive.
    #[serde(rename = "last-level")]
    LastLevel,
}

impl StrategyKind {
    /// The strategy for a code with `max_level` extra levels.
    pub fn build(self, max_level: u8) -> Box<dyn ReadStrategy> {
        match self {
            StrategyKind::TwoStep => Box::new(TwoStep),
            StrategyKind::Progressive => Box::new(Progressive),
            StrategyKind::LookAhead => Box::new(LookAhead(TwoStep)),
            StrategyKind::LookAheadProgressive => Box::new(LookAhead(Progressive)),
            StrategyKind::LastLevel => Box::new(LastLevel::new(max_level)),
        }
    }
}
