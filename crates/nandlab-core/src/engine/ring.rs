//! A FIFO of `Copy` items in a power-of-two ring: a push or pop is an index masked into
//! the buffer. (`std::collections::VecDeque` as the event queue's run cost 13 M more
//! instructions over DTRS x1's 2 M events: its indices wrap by a compare and subtract, and
//! its items are read and written through `Option`s and raw pointers.)

/// First-in, first-out store of `T`.
pub struct Ring<T: Copy> {
    /// Every slot is initialised (a grown ring fills its new slots with the pushed item);
    /// the live ones are `head`, `head + 1`, … `head + len - 1`, modulo the length, a power
    /// of two.
    buf: Vec<T>,
    head: usize,
    len: usize,
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }
}

impl<T: Copy> Ring<T> {
    /// Appends `item`.
    #[inline(always)]
    pub fn push_back(&mut self, item: T) {
        if self.len == self.buf.len() {
            self.grow(item);
        } else {
            let i = (self.head + self.len) & (self.buf.len() - 1);
            self.buf[i] = item;
        }
        self.len += 1;
    }

    /// Doubles the buffer (at least 16 slots), the items in order from slot 0, and stores
    /// `item` after them.
    #[cold]
    fn grow(&mut self, item: T) {
        let mut buf = vec![item; (2 * self.buf.len()).max(16)];
        let mask = self.buf.len().wrapping_sub(1);
        for (k, slot) in buf.iter_mut().take(self.len).enumerate() {
            *slot = self.buf[(self.head + k) & mask];
        }
        self.buf = buf;
        self.head = 0;
    }

    /// The oldest item.
    #[inline(always)]
    pub fn front(&self) -> Option<&T> {
        (self.len > 0).then(|| &self.buf[self.head])
    }

    /// Removes and returns the oldest item.
    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let item = self.buf[self.head];
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        Some(item)
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no item.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    #[test]
    fn wraps_and_grows_in_order() {
        let mut r = Ring::default();
        assert_eq!(r.pop_front(), None);
        // 16 slots: push 10, pop 8, push 20 more (wrapping, then growing to 32 while the
        // head is not at slot 0).
        (0..10).for_each(|i| r.push_back(i));
        for want in 0..8 {
            assert_eq!(r.pop_front(), Some(want));
        }
        (10..30).for_each(|i| r.push_back(i));
        assert_eq!(r.len(), 22);
        assert_eq!(r.front(), Some(&8));
        let out: Vec<i32> = std::iter::from_fn(|| r.pop_front()).collect();
        assert_eq!(out, (8..30).collect::<Vec<_>>());
        assert!(r.is_empty());
    }

    proptest! {
        /// Any interleaving of pushes and pops matches `VecDeque`.
        #[test]
        fn matches_vecdeque(ops in prop::collection::vec(prop::option::of(any::<u16>()), 1..600)) {
            let mut r = Ring::default();
            let mut model = VecDeque::new();
            for op in ops {
                match op {
                    Some(x) => {
                        r.push_back(x);
                        model.push_back(x);
                    }
                    None => prop_assert_eq!(r.pop_front(), model.pop_front()),
                }
                prop_assert_eq!(r.front(), model.front());
                prop_assert_eq!(r.len(), model.len());
            }
        }
    }
}
