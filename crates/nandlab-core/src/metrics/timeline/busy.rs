//! Busy time of the dies and channels per window of the timeline.

use std::collections::VecDeque;

/// Busy time of the dies and channels per window, booked by the back end as it reserves
/// them (reservations may lie ahead of the event clock).
#[derive(Debug, Clone)]
pub struct BusyWindows {
    window_ns: u64,
    /// Window index of `cur`, the first open window.
    base: u64,
    /// `[start, end)` of window `base` (ns): most work falls in it, booked without a
    /// division or a look-up (two compares and an add per reservation).
    base_span: (u64, u64),
    /// Die and channel busy ns of window `base`.
    cur: [u64; 2],
    /// The same of windows `base + 1`, `base + 2`, … (work booked ahead of them).
    ahead: VecDeque<[u64; 2]>,
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
            cur: [0; 2],
            ahead: VecDeque::new(),
        }
    }

    /// `what` is busy over `[start, end)`. Time before the first open window (work booked
    /// in a window already closed cannot happen: reservations start at or after the clock)
    /// is dropped.
    #[inline]
    pub fn add(&mut self, what: Busy, start: u64, end: u64) {
        if start >= self.base_span.0 && end <= self.base_span.1 {
            self.cur[what as usize] += end - start;
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

    #[inline(never)]
    fn each(&mut self, start: u64, end: u64, mut f: impl FnMut(&mut [u64; 2], u64)) {
        let start = start.max(self.base_span.0);
        if end <= start {
            return;
        }
        let (first, last) = (start / self.window_ns, (end - 1) / self.window_ns);
        let need = (last - self.base) as usize;
        if self.ahead.len() < need {
            self.ahead.resize(need, [0; 2]);
        }
        for w in first..=last {
            let lo = start.max(w * self.window_ns);
            let hi = end.min((w + 1) * self.window_ns);
            let slot = match (w - self.base) as usize {
                0 => &mut self.cur,
                i => &mut self.ahead[i - 1],
            };
            f(slot, hi - lo);
        }
    }

    /// Nothing is booked in the open windows (zeros left by removals count as nothing:
    /// such a window gives the same row, an idle one, either way).
    pub(super) fn is_empty(&self) -> bool {
        self.cur == [0; 2] && self.ahead.is_empty()
    }

    /// Closes window `base`; returns its die and channel busy ns.
    pub(super) fn close(&mut self) -> [u64; 2] {
        let out = std::mem::replace(&mut self.cur, self.ahead.pop_front().unwrap_or_default());
        self.move_base(self.base + 1);
        out
    }

    /// Moves the first open window to `base` (the windows before hold nothing).
    pub(super) fn skip_to(&mut self, base: u64) {
        debug_assert!(self.is_empty());
        self.move_base(base);
    }

    fn move_base(&mut self, base: u64) {
        self.base = base;
        self.base_span = (base * self.window_ns, (base + 1) * self.window_ns);
    }

    /// The last window any work was booked in (`None`: none ahead of `base`).
    pub(super) fn last(&self) -> Option<u64> {
        match self.ahead.len() {
            0 => (self.cur != [0; 2]).then_some(self.base),
            n => Some(self.base + n as u64),
        }
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
