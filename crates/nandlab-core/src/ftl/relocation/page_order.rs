//! The victim's pages in the order they sit in it, whatever the destination page type: the
//! plain copy every FTL does when it has no reason to reorder.

use super::RelocationOrder;
use crate::flash::block::PageMeta;
use crate::flash::cell::PageType;
use serde::{Deserialize, Serialize};

/// Lowest page first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageOrder {}

impl RelocationOrder for PageOrder {
    fn pick(&self, _waiting: &[PageMeta], _dest: PageType) -> usize {
        0
    }
}
