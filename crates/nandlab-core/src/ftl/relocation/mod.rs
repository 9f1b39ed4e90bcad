//! Relocation order: when GC, wear leveling or read refresh empties a block, its valid pages
//! wait in a buffer and a policy picks which one takes each next destination page, knowing
//! that page's type (seed 004's asymmetric GC puts critical pages on MSB pages).
//! `[ftl.relocation] order = "..."` picks it by name, its parameters beside it.

use crate::error::Result;
use crate::flash::block::PageMeta;
use crate::flash::cell::PageType;

/// A relocation-order policy.
pub trait RelocationOrder {
    /// Checks the policy's parameters; `table` is where they sit (`ftl.relocation`).
    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }

    /// Index into `waiting` (never empty: the block's valid pages not yet moved, in page
    /// order) of the page that goes into the next destination page, of type `dest`.
    fn pick(&self, waiting: &[PageMeta], dest: PageType) -> usize;
}

crate::registry::policies! {
    /// `[ftl.relocation]`: the relocation order by name, with its own parameters beside it.
    RelocationConfig, RelocationOrder, "order", PageOrder;
    page_order::PageOrder,
    asymmetric::Asymmetric,
}
