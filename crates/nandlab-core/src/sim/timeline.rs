//! The simulator's side of the timeline (`metrics/timeline.rs`): the counts it samples
//! when windows close.

use super::Simulator;
use crate::error::Result;
use crate::metrics::timeline::{BusyWindows, Counts, Extras, Timeline};
use crate::metrics::TimelineColumns;

impl Simulator {
    /// The timeline of `output.timeline_ns` (with the back end booking busy time), if any.
    pub(super) fn start_timeline(&mut self) {
        let window_ns = self.cfg.output.timeline_ns;
        if window_ns > 0 {
            let extras = Extras {
                flows: self.flow_latency.len(),
                cache: self.cache.is_some(),
                mapping_cache: self.mapping_cache.is_some(),
            };
            self.timeline = Some(Timeline::new(
                window_ns,
                self.geo.dies,
                self.cfg.device.channels,
                extras,
            ));
            self.backend.busy = Some(BusyWindows::new(window_ns));
        }
    }

    /// The growing counts the timeline differences.
    fn timeline_counts(&self) -> Counts {
        let b = &self.background.by_cause;
        let hot = b.hot_read.unwrap_or_default();
        let causes = [&b.gc, &b.wear_leveling, &b.refresh, &hot];
        let mut counts = Counts {
            moves: causes.map(|c| c.page_programs),
            erases: causes.map(|c| c.erases),
            free_blocks_min: self.ftl.min_free_blocks(),
            cache: self.cache.as_ref().map_or([0; 4], |c| {
                let s = c.stats;
                [s.read_hits, s.read_misses, s.write_hits, s.write_misses]
            }),
            mapping: self
                .mapping_cache
                .as_ref()
                .map_or([0; 2], |c| [c.stats.hits, c.stats.misses]),
            ..Counts::default()
        };
        self.read_path.sample_counts(&mut counts);
        counts
    }

    /// Closes the windows the event clock passed at `now` (called before its events).
    #[inline(never)]
    pub(super) fn close_windows(&mut self, now: u64) {
        let counts = self.timeline_counts();
        if let Some(t) = self.timeline.as_mut() {
            t.close_until(now, counts, self.backend.busy.as_mut());
            self.timeline_close_ns = t.next_close_ns();
        }
    }

    /// The rest of the timeline once the run ended (rows kept in memory, if not streamed),
    /// and every block's P/E cycles at the end (`None`: not asked for, `output.pe_cycles`).
    pub(super) fn finish_timeline(&mut self) -> Result<(Option<TimelineColumns>, Option<Vec<u32>>)> {
        let pe = self.cfg.output.pe_cycles.then(|| self.ftl.pe_by_block());
        let rows = match self.timeline.take() {
            Some(t) => t.finish(self.timeline_counts(), self.backend.busy.as_mut())?,
            None => None,
        };
        Ok((rows, pe))
    }
}
