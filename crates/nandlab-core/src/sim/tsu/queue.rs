//! The per-die queues of background transactions and of host programs waiting for their
//! die, and the erases background work still owes each plane.

use crate::flash::Ppa;
use crate::ftl::BgOp;
use std::collections::VecDeque;

/// A host page whose data is at its die, waiting for the die to program it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::sim) struct HostProgram {
    /// The request waiting for the program, or `NO_REQUEST`.
    pub req: u32,
    pub ppa: Ppa,
    pub t_prog: u64,
    /// When it may start (its data at the die and encoded).
    pub ready: u64,
    /// A write-back from the DRAM cache (it leaves the write-back window when it starts).
    pub writeback: bool,
}

/// A background transaction: a page move (its read, then, once the data is out,
/// its program) or an erase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::sim) struct Txn {
    /// The FTL's work.
    pub op: BgOp,
    /// A move whose read is done: when its data is ready for the program.
    pub read_done: Option<u64>,
}

impl Txn {
    /// `op`, nothing of it done yet.
    pub fn new(op: BgOp) -> Self {
        Txn { op, read_done: None }
    }
}

/// Background transactions waiting for their dies, in the order the FTL decided them, and
/// host programs waiting for theirs, in the order their data arrived.
#[derive(Debug)]
pub(in crate::sim) struct Queue {
    dies: Vec<VecDeque<Txn>>,
    /// Per die: host programs queued behind its running work (host reads first).
    programs: Vec<VecDeque<HostProgram>>,
    /// Host programs queue (`host_order = "reads_first"`) rather than being reserved at once.
    pub reads_first: bool,
    /// A step event is pending for the die.
    pub armed: Vec<bool>,
    /// An idle check is pending for the die (idle-time GC).
    pub idle_armed: Vec<bool>,
    /// The die's last idle check collected a victim: check again once its work is done.
    pub idle_progress: Vec<bool>,
    /// Per plane: the blocks whose erase the FTL decided (its free pool counts them, or
    /// it opened them again) and the die has not yet been given.
    pending_erases: Vec<Vec<u32>>,
    /// Refresh urgency's clocks (`refresh_urgent_reads` set).
    pub refresh: Option<super::RefreshClock>,
}

impl Queue {
    /// Empty queues for `dies` dies and `planes` planes; host programs queue when
    /// `reads_first`.
    pub fn new(dies: u32, planes: u32, reads_first: bool) -> Self {
        Queue {
            dies: vec![VecDeque::new(); dies as usize],
            programs: vec![VecDeque::new(); dies as usize],
            reads_first,
            armed: vec![false; dies as usize],
            idle_armed: vec![false; dies as usize],
            idle_progress: vec![false; dies as usize],
            pending_erases: vec![Vec::new(); planes as usize],
            refresh: None,
        }
    }

    /// Queues `t` on `die`; returns whether the die needs a step event (none pending).
    pub fn push(&mut self, die: u32, t: Txn) -> bool {
        self.dies[die as usize].push_back(t);
        !std::mem::replace(&mut self.armed[die as usize], true)
    }

    /// The next transaction of `die`.
    pub fn front(&self, die: u32) -> Option<Txn> {
        self.dies[die as usize].front().copied()
    }

    /// Replaces the next transaction of `die` (a move whose read is done).
    pub fn set_front(&mut self, die: u32, t: Txn) {
        self.dies[die as usize][0] = t;
    }

    /// Removes the next transaction of `die`.
    pub fn pop(&mut self, die: u32) {
        self.dies[die as usize].pop_front();
    }

    /// Queues host program `p` on `die`; returns whether the die needs a step event.
    pub fn push_program(&mut self, die: u32, p: HostProgram) -> bool {
        self.programs[die as usize].push_back(p);
        !std::mem::replace(&mut self.armed[die as usize], true)
    }

    /// `die`'s queued host programs, oldest first.
    pub fn programs(&mut self, die: u32) -> &mut VecDeque<HostProgram> {
        &mut self.programs[die as usize]
    }

    /// Whether `die` has no queued background work.
    pub fn is_empty(&self, die: u32) -> bool {
        self.dies[die as usize].is_empty()
    }

    /// Whether `die` has no queued work at all (background or host programs).
    pub fn is_idle(&self, die: u32) -> bool {
        self.is_empty(die) && self.programs[die as usize].is_empty()
    }

    /// Takes `die`'s queued work (it is to be reserved now, ahead of urgent GC).
    pub fn drain(&mut self, die: u32) -> impl Iterator<Item = Txn> + '_ {
        self.dies[die as usize].drain(..)
    }

    /// The FTL decided to erase `block` of `plane`.
    pub fn erase_decided(&mut self, plane: u32, block: u32) {
        self.pending_erases[plane as usize].push(block);
    }

    /// The erase of `block` of `plane` was reserved.
    pub fn erase_reserved(&mut self, plane: u32, block: u32) {
        let pending = &mut self.pending_erases[plane as usize];
        let i = pending.iter().position(|&b| b == block).expect("a decided erase");
        pending.swap_remove(i);
    }

    /// Whether `block` of `plane` waits for its erase.
    pub fn erase_pending(&self, plane: u32, block: u32) -> bool {
        self.pending_erases[plane as usize].contains(&block)
    }

    /// The erased blocks of `plane`'s free pool of `free` blocks: those `is_free` says
    /// are in the pool, less those still waiting for their erase.
    pub fn erased_free(&self, plane: u32, free: usize, is_free: impl Fn(u32) -> bool) -> usize {
        // A block emptied, reopened and emptied again before its first erase ran is
        // pending twice: counted once.
        let p = &self.pending_erases[plane as usize];
        let waiting = p
            .iter()
            .enumerate()
            .filter(|&(i, &b)| is_free(b) && !p[..i].contains(&b))
            .count();
        free - waiting
    }

    /// Whether every queue is empty and every decided erase reserved (a debug-build check).
    #[cfg(any(test, debug_assertions))]
    pub fn is_drained(&self) -> bool {
        self.dies.iter().all(VecDeque::is_empty)
            && self.programs.iter().all(VecDeque::is_empty)
            && self.pending_erases.iter().all(Vec::is_empty)
            && self.refresh.as_ref().is_none_or(super::RefreshClock::is_drained)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::Cause;

    #[test]
    fn arms_once_and_counts_erases() {
        let mut q = Queue::new(2, 4, true);
        let e = Txn::new(BgOp::Erase {
            block: 3,
            cause: Cause::Gc,
        });
        assert!(q.push(1, e));
        assert!(!q.push(1, e), "a second transaction needs no second event");
        assert!(q.push(0, e));
        q.erase_decided(2, 8);
        q.erase_decided(2, 9);
        q.erase_reserved(2, 8);
        assert!(q.erase_pending(2, 9) && !q.erase_pending(2, 8) && !q.erase_pending(0, 9));
        // A pool of 5 blocks with block 9 in it, its erase pending: 4 erased.
        assert_eq!(q.erased_free(2, 5, |b| b == 9), 4);
        // Block 9 reopened (out of the pool): the 5 are erased.
        assert_eq!(q.erased_free(2, 5, |_| false), 5);
        // Emptied again before its first erase ran: still one block of the pool.
        q.erase_decided(2, 9);
        assert_eq!(q.erased_free(2, 5, |b| b == 9), 4);
        q.erase_reserved(2, 9);
        assert_eq!(q.drain(1).count(), 2);
        q.pop(0);
        q.erase_reserved(2, 9);
        assert!(q.is_drained());
        // A host program shares the die's step event (die 1's ran) and keeps the die from
        // being idle.
        q.armed[1] = false;
        let p = HostProgram {
            req: 0,
            ppa: Ppa { block: 0, page: 0 },
            t_prog: 1,
            ready: 0,
            writeback: false,
        };
        assert!(q.push_program(1, p) && q.is_empty(1) && !q.is_idle(1) && !q.is_drained());
        assert_eq!(q.programs(1).pop_front(), Some(p));
        assert!(q.is_idle(1) && q.is_drained());
    }
}
