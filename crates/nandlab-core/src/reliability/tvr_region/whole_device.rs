//! `whole_device`: the whole device is TVR (seed 002 §5.5's TVR-powered SSD).

use serde::{Deserialize, Serialize};

use super::TvrRegion;
use crate::error::Result;
use crate::flash::block::WriteAttrs;

/// Every page is programmed with the reduced layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WholeDevice {}

impl TvrRegion for WholeDevice {
    fn holds(&self, _lpn: u64, _attrs: WriteAttrs) -> bool {
        true
    }

    fn whole_device(&self) -> bool {
        true
    }

    fn validate(&self, _table: &str) -> Result<()> {
        Ok(())
    }
}
