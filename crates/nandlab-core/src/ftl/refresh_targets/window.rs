//! Pages' predicted reads (003 §IV-A): each logical page's host reads in the last complete
//! window of `len` host requests (003: 80K). While no window has completed, the reads so
//! far in the current one.

use rustc_hash::FxHashMap;

/// Per-logical-page read counts of the current and the last window.
#[derive(Debug, Clone, Default)]
pub struct ReadWindow {
    len: u32,
    seen: u32,
    completed: bool,
    current: FxHashMap<u64, u32>,
    last: FxHashMap<u64, u32>,
}

impl ReadWindow {
    /// A window of `len` host requests.
    pub fn new(len: u32) -> Self {
        ReadWindow {
            len,
            ..ReadWindow::default()
        }
    }

    /// Counts a host read of `lpn`.
    #[inline]
    pub fn record_read(&mut self, lpn: u64) {
        *self.current.entry(lpn).or_insert(0) += 1;
    }

    /// Counts a host request; the window turns over after `len` of them.
    #[inline]
    pub fn record_request(&mut self) {
        self.seen += 1;
        if self.seen == self.len {
            self.seen = 0;
            self.completed = true;
            self.last = std::mem::take(&mut self.current);
        }
    }

    /// Predicted reads of `lpn`.
    pub fn predicted(&self, lpn: u64) -> u64 {
        let w = if self.completed { &self.last } else { &self.current };
        u64::from(w.get(&lpn).copied().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicts_from_the_last_complete_window() {
        let mut w = ReadWindow::new(3);
        // Window 1: requests reading 7, 7, 9 (a request may read several pages).
        w.record_read(7);
        w.record_request();
        w.record_read(7);
        w.record_read(9);
        w.record_request();
        // Not complete yet: the reads so far.
        assert_eq!((w.predicted(7), w.predicted(9)), (2, 1));
        w.record_request();
        // Window 2 reads 9 three times: predictions stay window 1's until it completes.
        for _ in 0..3 {
            w.record_read(9);
            w.record_request();
        }
        assert_eq!((w.predicted(7), w.predicted(9), w.predicted(1)), (0, 3, 0));
    }
}
