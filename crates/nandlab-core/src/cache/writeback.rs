//! The write-back window: evicted pages on their way to flash. While it is full a host
//! write that evicts another page waits for that page's program (MQSim's back-pressure
//! buffer), so the cache cannot run ahead of the flash by more than the window.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Write-backs in flight.
#[derive(Debug, Default)]
pub struct WritebackWindow {
    /// Issued, program not yet started (its end is not known yet).
    unstarted: u32,
    /// Program end times of started write-backs, earliest first.
    ends: BinaryHeap<Reverse<u64>>,
    /// Write-backs a host request waited for.
    pub waited: u64,
}

impl WritebackWindow {
    /// Whether `depth` write-backs are in flight at `now`.
    pub fn full(&mut self, now: u64, depth: u32) -> bool {
        while self.ends.peek().is_some_and(|&Reverse(end)| end <= now) {
            self.ends.pop();
        }
        self.unstarted as usize + self.ends.len() >= depth as usize
    }

    /// A write-back was issued.
    pub fn issued(&mut self) {
        self.unstarted += 1;
    }

    /// A write-back's program was reserved and ends at `end`.
    pub fn started(&mut self, end: u64) {
        self.unstarted -= 1;
        self.ends.push(Reverse(end));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_back_leaves_the_window_when_its_program_ends() {
        let mut w = WritebackWindow::default();
        w.issued();
        w.issued();
        assert!(w.full(0, 2));
        assert!(!w.full(0, 3));
        w.started(100);
        w.started(50);
        assert!(w.full(49, 2));
        assert!(!w.full(50, 2)); // the one ending at 50 is done
        assert!(w.full(99, 1));
        assert!(!w.full(100, 1));
    }
}
