//! No wear leveling beyond what allocation does.

use super::WearLeveler;
use crate::ftl::plane_view::PlaneView;
use serde::{Deserialize, Serialize};

/// Never moves data for wear.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoLeveling {}

impl WearLeveler for NoLeveling {
    fn is_none(&self) -> bool {
        true
    }

    fn select(&mut self, _plane: &PlaneView) -> Option<usize> {
        None
    }
}
