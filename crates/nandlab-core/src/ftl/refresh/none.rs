//! No read refresh (`trigger = "none"`, the default).

use super::RefreshTrigger;
use serde::{Deserialize, Serialize};

/// Never refreshes. (Named for its config spelling, `"none"`: within this family `None`
/// is this type; `Option::None` is written out.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct None {}

impl RefreshTrigger for None {
    fn min_reads(&self) -> Option<u32> {
        Option::None
    }

    fn due(&self, _reads: u32, _pe_cycles: u32) -> bool {
        false
    }
}
