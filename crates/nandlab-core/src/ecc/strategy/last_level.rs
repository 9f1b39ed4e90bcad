//! `last-level`: start each read at the sensing level that last decoded a page of the
//! same block, then escalate one level per retry. A common controller policy (a per-block
//! memo of the last successful read-retry entry): pages of a block age together, so the
//! level one needed predicts the next; a read that would have decoded lower still pays
//! the memo's level, so the memo only rises until the block is erased (its P/E count
//! changes), when it starts over at the hard decision. A read no level decodes leaves
//! the strongest level in the memo.
//!
//! The memo is updated when a read is issued (the simulator decides a read's outcome
//! then), so two reads of one block in flight see each other in issue order.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::{BuildCtx, Progressive, ReadContext, ReadStrategy};

/// Per-block memo of the last decoding level, progressive escalation from there.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LastLevel {
    /// Block → (its P/E cycles when recorded, level that decoded; `None`: none did). The
    /// run's state: kept by the built instance, absent from the config.
    #[serde(skip)]
    memo: FxHashMap<u32, (u32, Option<u8>)>,
}

impl ReadStrategy for LastLevel {
    fn build(&self, _ctx: &BuildCtx) -> Option<Box<dyn ReadStrategy>> {
        Some(Box::new(LastLevel::default()))
    }

    fn next_level(&self, failed: u8, max_level: u8) -> u8 {
        Progressive {}.next_level(failed, max_level)
    }

    fn has_history(&self) -> bool {
        true
    }

    fn first_level(&mut self, ctx: &ReadContext) -> u8 {
        match self.memo.get(&ctx.block) {
            Some(&(pe, level)) if pe == ctx.pe_cycles => level.unwrap_or(ctx.max_level),
            _ => 0,
        }
    }

    fn record(&mut self, ctx: &ReadContext, level: Option<u8>) {
        self.memo.insert(ctx.block, (ctx.pe_cycles, level));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(block: u32, pe_cycles: u32) -> ReadContext {
        ReadContext {
            block,
            pe_cycles,
            page_type: 0,
            max_level: 6,
        }
    }

    #[test]
    fn remembers_the_level_per_block_until_an_erase() {
        let mut s = LastLevel::default();
        assert_eq!(s.first_level(&page(3, 10)), 0);
        s.record(&page(3, 10), Some(2));
        assert_eq!(s.first_level(&page(3, 10)), 2);
        // Another block has its own memo.
        assert_eq!(s.first_level(&page(4, 10)), 0);
        // The block was erased since (one more P/E cycle): start over hard.
        assert_eq!(s.first_level(&page(3, 11)), 0);
        // Uncorrectable: the strongest level next time.
        s.record(&page(3, 11), None);
        assert_eq!(s.first_level(&page(3, 11)), 6);
        assert_eq!(s.next_level(2, 6), 3);
    }
}
