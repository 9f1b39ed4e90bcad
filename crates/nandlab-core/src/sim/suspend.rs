//! Program/erase suspension for reads (`[host.suspend]`), as MQSim models it: a read
//! ready at a die whose program or erase is running stops it (the suspend time), senses,
//! and the operation resumes (the resume time) with the time it had left, so it ends
//! later by suspend + sensing + resume. MQSim's rules (src/ssd/TSU_OutofOrder.cpp,
//! `service_read_transaction`; src/nvm_chip/flash_memory/Flash_Chip.cpp, `Suspend` and
//! `Resume`): only an operation with at least the configured time left is suspended, and
//! one suspension at a time — a read arriving while one is in progress waits for the
//! resume and may then suspend the operation again.
//!
//! Dies are FIFO servers reserved ahead (`flash/backend.rs`), so only the die's latest
//! reservation can be suspended: an operation with other work queued behind it runs to
//! its end first. The die is free when sensing ends (the data waits in the cache register),
//! so the operation resumes then, where MQSim resumes after the data is out. Reads of GC
//! and refresh copies and of mapping-table pages are reserved ahead with the rest of their
//! work, and wait.
//!
//! A program's end is then known only when it ends: a host program's page is finished by
//! a `ProgramEnd` event that a suspension moves (the tracked programs of each die are
//! pushed back with it).

use crate::engine::Slab;
use crate::flash::backend::{ArrayOp, Backend};
use crate::host::suspend::SuspendConfig;

/// A host program some request waits for, ending at `end` unless a suspension moves it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Program {
    /// The request's slot.
    pub req: u32,
    die: u32,
    end: u64,
}

/// Suspension state: per die, when its suspended operation resumes, and the programs whose
/// end a suspension may still move.
pub(super) struct Suspension {
    cfg: SuspendConfig,
    /// Per die: when the operation the last suspension stopped resumes.
    resumes_ns: Vec<u64>,
    /// Per die: slots of `programs` not ended yet.
    in_flight: Vec<Vec<u32>>,
    programs: Slab<Program>,
    /// Suspensions of programs and of erases.
    pub counts: [u64; 2],
}

impl Suspension {
    /// The state for `dies` dies, or `None` when reads suspend nothing.
    pub fn new(cfg: &SuspendConfig, dies: u32) -> Option<Self> {
        (cfg.programs() || cfg.erases()).then(|| Suspension {
            cfg: cfg.clone(),
            resumes_ns: vec![0; dies as usize],
            in_flight: vec![Vec::new(); dies as usize],
            programs: Slab::default(),
            counts: [0; 2],
        })
    }

    /// Whether a host program's end must wait for a `ProgramEnd` event.
    pub fn moves_programs(&self) -> bool {
        self.cfg.programs()
    }

    /// Senses plane `plane` of `die` for `dur_ns` from `ready_ns`, suspending the die's
    /// running program or erase when the rules allow; returns when sensing ends.
    pub fn sense(&mut self, backend: &mut Backend, die: u32, plane: u32, ready_ns: u64, dur_ns: u64) -> u64 {
        let (op, start, end) = backend.latest(die);
        // A suspended operation resumes before it can be suspended again.
        let at = ready_ns.max(self.resumes_ns[die as usize]);
        let (kind, stop_ns, min_left) = match op {
            Some(ArrayOp::Program) if self.cfg.programs() => {
                (0, self.cfg.program_ns, self.cfg.min_remaining_program_ns)
            }
            Some(ArrayOp::Erase) if self.cfg.erases() => (1, self.cfg.erase_ns, self.cfg.min_remaining_erase_ns),
            _ => return backend.array(die, plane, ArrayOp::Read, ready_ns, dur_ns).end,
        };
        if !(start <= at && at < end && end - at >= min_left) {
            return backend.array(die, plane, ArrayOp::Read, ready_ns, dur_ns).end;
        }
        let sensed = at + stop_ns + dur_ns;
        let pushed = stop_ns + dur_ns + self.cfg.resume_ns;
        backend.push_back_latest(die, pushed);
        self.resumes_ns[die as usize] = sensed + self.cfg.resume_ns;
        self.counts[kind] += 1;
        // Programs of the batch that had not ended when it stopped end later.
        for &slot in &self.in_flight[die as usize] {
            let p = &mut self.programs[slot];
            if p.end > at {
                p.end += pushed;
            }
        }
        sensed
    }

    /// Tracks a host program of request `req` on `die` planned to end at `end`; returns
    /// the slot its `ProgramEnd` event carries.
    pub fn track(&mut self, req: u32, die: u32, end: u64) -> u32 {
        let slot = self.programs.insert(Program { req, die, end });
        self.in_flight[die as usize].push(slot);
        slot
    }

    /// The `ProgramEnd` event of `slot` fired at `now`: the program, when it ended, or
    /// `Err(end)` when a suspension moved its end later.
    pub fn ended(&mut self, slot: u32, now: u64) -> Result<Program, u64> {
        let p = self.programs[slot];
        if p.end > now {
            return Err(p.end);
        }
        let list = &mut self.in_flight[p.die as usize];
        let i = list
            .iter()
            .position(|&s| s == slot)
            .expect("a tracked program is in flight");
        list.swap_remove(i);
        self.programs.remove(slot);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::suspend::SuspendOps;

    fn suspension(ops: SuspendOps) -> Suspension {
        let cfg = SuspendConfig {
            ops,
            resume_ns: 5_000,
            ..SuspendConfig::default()
        };
        Suspension::new(&cfg, 1).unwrap()
    }

    #[test]
    fn a_read_stops_a_program_which_ends_later_by_its_time() {
        let mut s = suspension(SuspendOps::Program);
        let mut b = Backend::new(1, 1, 1, false);
        let prog = b.array(0, 0, ArrayOp::Program, 0, 1_000_000);
        let slot = s.track(7, 0, prog.end);
        // At 200 µs: 800 µs left; stop 100 µs, sense 50 µs, resume 5 µs.
        assert_eq!(s.sense(&mut b, 0, 0, 200_000, 50_000), 350_000);
        assert_eq!(b.latest(0).2, 1_155_000);
        assert_eq!(s.ended(slot, 1_000_000).unwrap_err(), 1_155_000);
        assert_eq!(s.ended(slot, 1_155_000).unwrap().req, 7);
        assert_eq!(s.counts, [1, 0]);
    }

    #[test]
    fn a_read_during_a_suspension_waits_for_the_resume_then_stops_it_again() {
        let mut s = suspension(SuspendOps::Program);
        let mut b = Backend::new(1, 1, 1, false);
        b.array(0, 0, ArrayOp::Program, 0, 1_000_000);
        assert_eq!(s.sense(&mut b, 0, 0, 0, 50_000), 150_000);
        // Resumed at 155 µs with 1 ms left; the second read stops it there.
        assert_eq!(s.sense(&mut b, 0, 0, 100_000, 50_000), 155_000 + 150_000);
        assert_eq!(b.latest(0).2, 1_000_000 + 2 * 155_000);
    }

    #[test]
    fn too_little_left_or_the_wrong_kind_waits() {
        let mut s = suspension(SuspendOps::Erase);
        let mut b = Backend::new(1, 1, 1, false);
        // Programs are not suspended when only erases are.
        b.array(0, 0, ArrayOp::Program, 0, 1_000_000);
        assert_eq!(s.sense(&mut b, 0, 0, 0, 50_000), 1_050_000);
        // An erase with less than 700 µs left runs to its end.
        b.array(0, 0, ArrayOp::Erase, 1_050_000, 1_000_000);
        assert_eq!(s.sense(&mut b, 0, 0, 1_400_001, 50_000), 2_100_000);
        assert_eq!(s.counts, [0, 0]);
    }
}
