//! Busy time of the dies and channels per window of the timeline.

use std::collections::VecDeque;

/// Busy time of the dies and channels per window, booked by the back end as it reserves
/// them (reservations may lie ahead of the event clock).
#[derive(Debug, Clone)]
pub struct BusyWindows {
    window_ns: u64,
    /// Window index of `open[0]`.
    base: u64,
    /// `[start, end)` of window `base` (ns): most work falls in it, found without a division.
    base_span: (u64, u64),
    /// Die and channel busy ns of each open window.
    pub(super) open: VecDeque<[u64; 2]>,
}

/// What [`BusyWindows`] books.
#[derive(Debug, Clone, Copy)]
pub enum Busy {
    /// Array work on a die.
    Die = 0,
    /// A channel transfer.
    Channel = 1,
}

impl BusyWindows {
    /// Busy time in windows of `window_ns`.
    pub fn new(window_ns: u64) -> Self {
        BusyWindows {
            window_ns,
            base: 0,
            base_span: (0, window_ns),
            open: VecDeque::new(),
        }
    }

    /// `what` is busy over `[start, end)`. Time before the first open window (work booked
    /// in a window already closed cannot happen: reservations start at or after the clock)
    /// is dropped.
    #[inline]
    pub fn add(&mut self, what: Busy, start: u64, end: u64) {
        if start >= self.base_span.0 && end <= self.base_span.1 && !self.open.is_empty() {
            self.open[0][what as usize] += end - start;
            return;
        }
        self.each(start, end, |slot, ns| slot[what as usize] += ns);
    }

    /// `what` is no longer busy over `[start, end)` (a reservation cut short).
    pub fn remove(&mut self, what: Busy, start: u64, end: u64) {
        self.each(start, end, |slot, ns| {
            slot[what as usize] = slot[what as usize].saturating_sub(ns)
        });
    }

    fn each(&mut self, start: u64, end: u64, mut f: impl FnMut(&mut [u64; 2], u64)) {
        let start = start.max(self.base * self.window_ns);
        if end <= start {
            return;
        }
        let (first, last) = (start / self.window_ns, (end - 1) / self.window_ns);
        let need = (last - self.base + 1) as usize;
        if self.open.len() < need {
            self.open.resize(need, [0; 2]);
        }
        for w in first..=last {
            let lo = start.max(w * self.window_ns);
            let hi = end.min((w + 1) * self.window_ns);
            f(&mut self.open[(w - self.base) as usize], hi - lo);
        }
    }

    /// Closes window `base`; returns its die and channel busy ns.
    pub(super) fn close(&mut self) -> [u64; 2] {
        self.skip_to(self.base + 1);
        self.open.pop_front().unwrap_or_default()
    }

    /// Moves the first open window to `base` (the windows before hold nothing).
    pub(super) fn skip_to(&mut self, base: u64) {
        self.base = base;
        self.base_span = (base * self.window_ns, (base + 1) * self.window_ns);
    }

    /// The last window any work was booked in (`None`: none ahead of `base`).
    pub(super) fn last(&self) -> Option<u64> {
        self.open.len().checked_sub(1).map(|n| self.base + n as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_splits_over_windows() {
        let mut b = BusyWindows::new(100);
        b.add(Busy::Die, 50, 250); // 50 in window 0, 100 in 1, 50 in 2
        b.add(Busy::Channel, 120, 130);
        b.remove(Busy::Die, 240, 250);
        assert_eq!(b.close(), [50, 0]);
        assert_eq!(b.close(), [100, 10]);
        assert_eq!(b.close(), [40, 0]);
        assert_eq!(b.last(), None);
    }
}
