//! The event queue: events stored inline (no per-event allocation), `Copy`, ordered by time
//! and then by insertion order, so runs are deterministic.
//!
//! Two sorted stores, the earlier of their two fronts popped first:
//! - a run: a FIFO of events pushed in key order. A simulator mostly schedules each event
//!   no earlier than the one it scheduled before (on a DTRS replay, 92 % of pushes are the
//!   latest key pending), so most events are appended here and popped off the front in
//!   O(1), with no sifting. It is a `Vec` read from a moving front index rather than a
//!   `VecDeque`, whose wrap-around index arithmetic and `Option` copies cost ~40
//!   instructions an event (cachegrind, DTRS): the vector is cleared whenever the run
//!   empties, and its popped prefix is dropped when it would otherwise grow;
//! - a binary min-heap for the rest (an event earlier than the run's last one).
//!
//! Keys are `time << 64 | seq` with `seq` the insertion count, unique and increasing, so
//! the order is total and the same as one heap's. The heap is hand-written rather than
//! `std::collections::BinaryHeap` because the latter writes each pushed element and reads it
//! straight back (its sift "hole"), a store-to-load stall that profiling showed costing a
//! quarter of the replay time; here the sifted element stays in registers and the key is
//! one `u128` compare.

/// Time-ordered queue of events of type `E`.
pub struct EventQueue<E: Copy> {
    /// `(key, event)` in increasing key order: `run[head..]` pending, `run[..head]` popped.
    /// Never all popped: an emptied run is cleared (`head` 0), so `run.last()` is pending.
    run: Vec<(u128, E)>,
    head: usize,
    /// `(key, event)`, a binary min-heap on the key.
    heap: Vec<(u128, E)>,
    next_seq: u64,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            run: Vec::new(),
            head: 0,
            heap: Vec::new(),
            next_seq: 0,
        }
    }
}

impl<E: Copy> EventQueue<E> {
    /// Schedules `event` at `time_ns`. (Always inlined: built in the caller's registers,
    /// the event is then stored once.)
    #[inline(always)]
    pub fn push(&mut self, time_ns: u64, event: E) {
        let key = (u128::from(time_ns) << 64) | u128::from(self.next_seq);
        self.next_seq += 1;
        // `key`'s sequence number is the largest yet, so it follows every pending key of
        // its time or earlier.
        match self.run.last() {
            Some(last) if (last.0 >> 64) as u64 > time_ns => self.heap_push(key, event),
            _ => {
                if self.run.len() == self.run.capacity() && 2 * self.head >= self.run.len() {
                    self.compact_run();
                }
                self.run.push((key, event));
            }
        }
    }

    /// Drops the run's popped prefix instead of growing it when that is at least half of
    /// it: each pending event moved was preceded by a pop, so moves stay O(1) per event.
    #[cold]
    fn compact_run(&mut self) {
        self.run.drain(..self.head);
        self.head = 0;
    }

    #[inline(always)]
    fn heap_push(&mut self, key: u128, event: E) {
        let mut i = self.heap.len();
        self.heap.push((key, event));
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[parent].0 <= key {
                break;
            }
            self.heap[i] = self.heap[parent];
            i = parent;
        }
        self.heap[i] = (key, event);
    }

    /// Removes and returns the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, E)> {
        let (key, event) = match (self.run.get(self.head), self.heap.first()) {
            (Some(r), Some(h)) if h.0 < r.0 => self.heap_pop(),
            (Some(&r), _) => {
                self.head += 1;
                if self.head == self.run.len() {
                    self.run.clear();
                    self.head = 0;
                }
                r
            }
            (None, Some(_)) => self.heap_pop(),
            (None, None) => return None,
        };
        Some(((key >> 64) as u64, event))
    }

    /// Removes the heap's root (the heap is not empty).
    #[inline]
    fn heap_pop(&mut self) -> (u128, E) {
        let top = self.heap[0];
        let last = self.heap.pop().expect("non-empty");
        let n = self.heap.len();
        if n > 0 {
            // Sift `last` down from the root.
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                if l >= n {
                    break;
                }
                let c = if l + 1 < n && self.heap[l + 1].0 < self.heap[l].0 {
                    l + 1
                } else {
                    l
                };
                if last.0 <= self.heap[c].0 {
                    break;
                }
                self.heap[i] = self.heap[c];
                i = c;
            }
            self.heap[i] = last;
        }
        top
    }

    /// The earliest event and its time, left queued.
    #[inline]
    pub fn peek(&self) -> Option<(u64, E)> {
        let (key, event) = match (self.run.get(self.head), self.heap.first()) {
            (Some(r), Some(h)) => {
                if r.0 < h.0 {
                    r
                } else {
                    h
                }
            }
            (Some(r), None) => r,
            (None, Some(h)) => h,
            (None, None) => return None,
        };
        Some(((key >> 64) as u64, *event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.run.len() - self.head + self.heap.len()
    }

    /// True when no event is pending.
    pub fn is_empty(&self) -> bool {
        self.run.is_empty() && self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn earliest_first_then_insertion_order() {
        let mut q = EventQueue::default();
        q.push(30, 'c');
        q.push(10, 'a');
        q.push(30, 'd');
        q.push(10, 'b');
        assert_eq!(q.peek(), Some((10, 'a')));
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'c', 'd']);
        assert!(q.is_empty());
    }

    #[test]
    fn run_and_heap_interleave_by_time_then_insertion() {
        // 10, 20, 20 go to the run; 15 and the second 10 (earlier than the run's last 20)
        // to the heap; the later 20 and 30 to the run again.
        let mut q = EventQueue::default();
        for (t, e) in [(10, 'a'), (20, 'c'), (20, 'd'), (15, 'b'), (10, 'x'), (30, 'f')] {
            q.push(t, e);
        }
        q.push(20, 'e');
        assert_eq!(q.len(), 7);
        assert_eq!(q.peek(), Some((10, 'a')));
        let order: Vec<(u64, char)> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (10, 'a'),
                (10, 'x'),
                (15, 'b'),
                (20, 'c'),
                (20, 'd'),
                (20, 'e'),
                (30, 'f')
            ]
        );
        assert_eq!(q.pop(), None);
        assert_eq!(q.peek(), None);
    }

    #[test]
    fn a_run_that_never_empties_stays_small() {
        // Two events pending at every step, always pushed in order (the run): the popped
        // prefix is dropped rather than the vector grown, and order is kept.
        let mut q = EventQueue::default();
        q.push(0, 0u64);
        q.push(1, 1);
        for i in 0..10_000u64 {
            assert_eq!(q.pop(), Some((i, i)));
            q.push(i + 2, i + 2);
            assert_eq!(q.len(), 2);
        }
        assert!(q.run.capacity() <= 8, "run capacity {}", q.run.capacity());
        assert!(q.heap.is_empty());
    }

    /// Replays `ops` (`Some(t)`: push at time `t`, or at the last popped time plus `t` when
    /// `relative`; `None`: pop) on the queue and on a list kept by a stable sort.
    fn check_against_stable_sort(ops: Vec<Option<u64>>, relative: bool) -> Result<(), TestCaseError> {
        let mut q = EventQueue::default();
        let mut model: Vec<(u64, usize)> = Vec::new();
        let mut now = 0;
        for (i, op) in ops.into_iter().enumerate() {
            match op {
                Some(t) => {
                    let t = if relative { now + t } else { t };
                    q.push(t, i);
                    model.push((t, i));
                }
                None => {
                    model.sort_by_key(|&(t, _)| t); // stable: insertion order within a time
                    let want = if model.is_empty() { None } else { Some(model.remove(0)) };
                    prop_assert_eq!(q.peek(), want);
                    prop_assert_eq!(q.pop(), want);
                    if let Some((t, _)) = want {
                        now = t;
                    }
                }
            }
            prop_assert_eq!(q.len(), model.len());
        }
        Ok(())
    }

    proptest! {
        /// Any interleaving of pushes and pops yields what a stable sort by time yields.
        #[test]
        fn matches_a_stable_sort(ops in prop::collection::vec(prop::option::of(0u64..50), 1..400)) {
            check_against_stable_sort(ops, false)?;
        }

        /// The same when, as in a simulation, events are scheduled no earlier than the last
        /// one popped and mostly in order (the run takes most, the heap the rest).
        #[test]
        fn matches_a_stable_sort_when_scheduled_from_now(
            ops in prop::collection::vec(prop::option::of(prop_oneof![3 => 0u64..4, 1 => 0u64..40]), 1..400)
        ) {
            check_against_stable_sort(ops, true)?;
        }
    }
}
