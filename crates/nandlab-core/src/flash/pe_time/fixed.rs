//! `fixed`: the `[timing]` tables, whatever the data and the wear.

use super::{BaseTimes, PeTimeModel, PeTimeSpec};
use crate::content::StateHist;
use crate::error::Result;
use crate::flash::cell::PageType;
use serde::{Deserialize, Serialize};

/// `timing.program_latency_ns` per page type, `timing.erase_latency_ns` per erase.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixed {}

impl PeTimeSpec for Fixed {
    fn build(&self, _table: &str, base: &BaseTimes) -> Result<Box<dyn PeTimeModel>> {
        Ok(Box::new(FixedTimes(base.clone())))
    }
}

#[derive(Debug)]
struct FixedTimes(BaseTimes);

impl PeTimeModel for FixedTimes {
    fn needs_content(&self) -> bool {
        false
    }

    fn program_ns(&mut self, _block: u32, page_type: PageType, _hist: Option<&StateHist>, _pe: u32) -> u64 {
        self.0.program_ns[usize::from(page_type)]
    }

    fn erase_ns(&mut self, _block: u32, _pe: u32) -> u64 {
        self.0.erase_ns
    }
}
