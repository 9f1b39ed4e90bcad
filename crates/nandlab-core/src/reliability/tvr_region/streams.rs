//! `streams`: the writes of the listed streams are short-lived and programmed with TVR.

use serde::{Deserialize, Serialize};

use super::TvrRegion;
use crate::error::{NandError, Result};
use crate::flash::block::WriteAttrs;

/// Writes whose stream is in `streams`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Streams {
    /// Stream ids (`workload.flows` index, or the trace's device/volume number).
    pub streams: Vec<u32>,
}

impl TvrRegion for Streams {
    fn holds(&self, _lpn: u64, attrs: WriteAttrs) -> bool {
        self.streams.contains(&attrs.stream())
    }

    fn validate(&self, table: &str) -> Result<()> {
        if self.streams.is_empty() {
            return Err(NandError::config(format!("{table}.streams"), "needs at least one stream id"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_listed_streams_only() {
        let r = Streams { streams: vec![1, 3] };
        assert!(r.holds(5, WriteAttrs::new(1, false)) && r.holds(0, WriteAttrs::new(3, true)));
        assert!(!r.holds(5, WriteAttrs::new(0, false)) && !r.holds(5, WriteAttrs::new(2, false)));
        let e = Streams { streams: vec![] }.validate("tvr.region").unwrap_err().to_string();
        assert!(e.contains("tvr.region.streams"), "{e}");
    }
}
