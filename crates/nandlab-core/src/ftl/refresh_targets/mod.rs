//! Where a read-refreshed block's valid pages go (seed 003): a policy per file, chosen by
//! `[ftl.refresh_targets] policy = "..."` with its parameters beside it.
//!
//! `baseline` moves every page to a new block per refresh (seed 003's RL is `baseline` with
//! the `read_leveling` placement). The others spread them over a set of open
//! *destination blocks* of the refreshed block's plane (`destination_blocks` of them, topped
//! up from the free pool), one destination per page from the blocks' P/E, reads since
//! erase and free pages and each page's *predicted reads*: its host reads in the last
//! window of `window_requests` host requests ([`ReadWindow`]); placement programs them
//! there. The blocks a refresh opens follow `ftl.block_opening`, as every cause's do, except
//! where a policy chooses them by P/E ([`RefreshTargets::chooses_by_wear`]). See
//! docs/read_refresh.md.

mod window;

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
pub use window::ReadWindow;

/// A destination candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetBlock {
    /// Block number.
    pub block: u32,
    /// P/E cycles.
    pub pe: u32,
    /// Reads since erase.
    pub reads: u64,
    /// Pages still free to program.
    pub free_pages: u32,
    /// Reads since erase at which the refresh trigger refreshes the block (`u32::MAX`
    /// when it never does).
    pub read_limit: u64,
}

/// A refresh-target policy.
pub trait RefreshTargets {
    /// Checks the policy's parameters; `table` is where they sit (`ftl.refresh_targets`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Open destination blocks per plane the pages are spread over (0: none, placement
    /// places them).
    fn destination_blocks(&self) -> u32;

    /// Whether every refresh opens new destinations (the last refresh's are closed).
    fn new_block_per_refresh(&self) -> bool {
        false
    }

    /// Whether the policy takes its destinations from the free pool by P/E (the least worn
    /// first) rather than by `ftl.block_opening`.
    fn chooses_by_wear(&self) -> bool {
        false
    }

    /// Length of the window pages' reads are predicted from, in host requests (`None`:
    /// the policy does not look at pages' reads).
    fn window_requests(&self) -> Option<u32>;

    /// Index into `targets` per page (`predicted_reads[i]` is page `i`'s, pages in block
    /// order), or `None` when the targets' free pages cannot hold them all.
    fn assign(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>>;
}

/// How a spreading policy without parameters of its own (`dr`) matches pages to
/// destinations; see [`RefreshTargets::assign`].
pub trait Assign {
    /// Index into `targets` per page, or `None` when their free pages do not hold them all.
    fn assign(targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>>;
}

/// A policy that spreads pages over destination blocks with rule `A` and only the two
/// parameters every spreading policy has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spread<A> {
    /// Open destination blocks per plane.
    #[serde(default = "default_destination_blocks")]
    pub destination_blocks: u32,
    /// Window of host requests pages' reads are predicted from (requests).
    #[serde(default = "default_window_requests")]
    pub window_requests: u32,
    #[serde(skip)]
    rule: PhantomData<A>,
}

impl<A> Spread<A> {
    /// `destination_blocks` destinations per plane, windows of `window_requests`.
    pub const fn new(destination_blocks: u32, window_requests: u32) -> Self {
        Spread {
            destination_blocks,
            window_requests,
            rule: PhantomData,
        }
    }
}

impl<A: Assign> RefreshTargets for Spread<A> {
    fn validate(&self, table: &str) -> Result<()> {
        validate_spread(table, self.destination_blocks, self.window_requests)
    }

    fn destination_blocks(&self) -> u32 {
        self.destination_blocks
    }

    fn window_requests(&self) -> Option<u32> {
        Some(self.window_requests)
    }

    fn assign(&self, targets: &[TargetBlock], predicted_reads: &[u64]) -> Option<Vec<usize>> {
        A::assign(targets, predicted_reads)
    }
}

/// Checks the two parameters every spreading policy has.
fn validate_spread(table: &str, destination_blocks: u32, window_requests: u32) -> Result<()> {
    if !(1..=64).contains(&destination_blocks) {
        return Err(NandError::config(
            format!("{table}.destination_blocks"),
            "must be between 1 and 64",
        ));
    }
    if window_requests == 0 {
        return Err(NandError::config(
            format!("{table}.window_requests"),
            "must be at least 1",
        ));
    }
    Ok(())
}

/// 003 §IV-A: "set each window having 80K requests" (read leveling's default too).
pub(crate) fn default_window_requests() -> u32 {
    80_000
}

/// Not given in 003 (assumption): four open destination blocks per plane.
fn default_destination_blocks() -> u32 {
    4
}

crate::registry::policies! {
    /// `[ftl.refresh_targets]`: the policy by name, with its own parameters beside it.
    RefreshTargetsConfig, RefreshTargets, "policy", Baseline;
    baseline::Baseline,
    dr::Dr,
    badr::Badr,
}

#[cfg(test)]
pub(crate) fn block(block: u32, pe: u32, reads: u64, free_pages: u32) -> TargetBlock {
    TargetBlock {
        block,
        pe,
        reads,
        free_pages,
        read_limit: u64::from(u32::MAX),
    }
}
