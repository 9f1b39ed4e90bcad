//! `codec.kind = "none"`: data are stored as the host wrote them; nothing is kept in the
//! OOB area and nothing costs time.

use super::Codec;
use crate::content::{CellMapping, StateCounter, StateHist};

/// The identity codec.
#[derive(Debug, Clone)]
pub struct NoCodec {
    counter: StateCounter,
}

impl NoCodec {
    /// The identity codec for `bits_per_cell`-bit cells read with `mapping`.
    pub fn new(bits_per_cell: u8, mapping: CellMapping) -> Self {
        NoCodec {
            counter: StateCounter::new(bits_per_cell, mapping),
        }
    }
}

impl Codec for NoCodec {
    fn kind(&self) -> &'static str {
        "none"
    }

    fn transforms(&self) -> bool {
        false
    }

    fn encode(&mut self, data: &[u8]) -> (u64, StateHist) {
        (0, self.counter.hist(data))
    }

    fn stored_hist(&self, data: &[u8], _oob: u64) -> StateHist {
        self.counter.hist(data)
    }

    fn decode(&self, _stored: &mut [u8], _oob: u64) {}

    fn encode_ns_per_page(&self) -> u64 {
        0
    }

    fn decode_ns_per_page(&self) -> u64 {
        0
    }

    fn summary(&self) -> Option<crate::metrics::summary::CodecSummary> {
        None
    }
}
