//! Look-ahead sensing (seed 001 §3.2, Eq. 2): the next attempt's sensing starts as soon
//! as the previous sensing ends (if the plane has nothing else to do), overlapping the
//! previous transfer and decode; it is cancelled when that decode succeeds. A modifier of
//! another strategy's escalation: `look-ahead` is two-step's, `look-ahead+progressive`
//! progressive's.

use super::{ReadContext, ReadStrategy};

/// `S`'s levels, each next one sensed ahead.
#[derive(Debug, Clone, Copy, Default)]
pub struct LookAhead<S>(pub S);

impl<S: ReadStrategy> ReadStrategy for LookAhead<S> {
    fn next_level(&self, failed: u8, max_level: u8) -> u8 {
        self.0.next_level(failed, max_level)
    }

    fn look_ahead(&self) -> bool {
        true
    }

    fn has_history(&self) -> bool {
        self.0.has_history()
    }

    fn first_level(&mut self, ctx: &ReadContext) -> u8 {
        self.0.first_level(ctx)
    }

    fn record(&mut self, ctx: &ReadContext, level: Option<u8>) {
        self.0.record(ctx, level);
    }
}
