//! Reads that return data to the controller on behalf of a write: the old data of a page a
//! write covers only in part (read-modify-write), and an interleaved group's old codewords
//! (`group_write.rs`). They are judged by the error model and ECC when issued, like host
//! reads, and follow their read plan (retries, soft levels) through the same path
//! ([`Simulator::sense_done`]); what follows the read is carried in the read's follow-up
//! word ([`Then`]).

use super::{Event, PageRead, Simulator, Verdict, NO_BACKUP};
use crate::error::Result;
use crate::flash::geometry::PlaneLoc;
use crate::flash::Ppa;
use crate::ftl::SensedPage;

/// Tag of a follow-up word that merges the read into a write ([`Then::Merge`]).
const MERGE: u32 = 1 << 31;
/// Tag of a follow-up word that counts the read towards its group write ([`Then::Group`]).
const GROUP: u32 = 1 << 30;
/// The slot bits of a tagged follow-up word.
const SLOT: u32 = GROUP - 1;

/// What follows a page read (`Event::SenseDone::backup`, `Retry::backup`), in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
    /// The request's page is done.
    Done,
    /// The page's backup copy is read (a slot of `Simulator::backup_reads`).
    Backup(u32),
    /// The old data merges into the write of a logical page (a slot of `Simulator::merges`).
    Merge(u32),
    /// One old codeword of a group write is in the controller (a slot of `Simulator::groups`).
    Group(u32),
}

impl Then {
    /// The follow-up word.
    pub fn word(self) -> u32 {
        match self {
            Then::Done => NO_BACKUP,
            Then::Backup(s) => s,
            Then::Merge(s) => MERGE | s,
            Then::Group(s) => GROUP | s,
        }
    }

    /// The follow-up of word `w`.
    #[inline(always)]
    pub fn of(w: u32) -> Then {
        if w == NO_BACKUP {
            Then::Done
        } else if w & MERGE != 0 {
            Then::Merge(w & SLOT)
        } else if w & GROUP != 0 {
            Then::Group(w & SLOT)
        } else {
            Then::Backup(w)
        }
    }
}

impl Simulator {
    /// The verdict of a read of `ppa` on plane `loc`, whose block has been read `reads`
    /// times since erase, at `now`, and the extra levels its first attempt senses
    /// ([`Verdict::Unjudged`] when reads are not judged).
    pub(super) fn judge_page(&mut self, ppa: Ppa, loc: PlaneLoc, reads: u32, now: u64) -> Result<(Verdict, u8)> {
        let Some(st) = self.page_state(ppa, loc.chip, reads) else {
            return Ok((Verdict::Unjudged, 0));
        };
        let rber = self.read_path.rber(&st, now)?;
        let plan = self.read_path.judge(rber, &st);
        Ok((Verdict::Plan(plan as u16), self.read_path.first_extra_levels(plan)))
    }

    /// Reads the old data of `lpn` (`old`) for write request `slot` at `now`, whose `units`
    /// the write leaves: a read-modify-write's read, judged and charged like a host read;
    /// the merged page goes to flash when its data is in the controller.
    pub(super) fn read_for_merge(&mut self, now: u64, slot: u32, lpn: u64, old: SensedPage, units: u16) -> Result<()> {
        let ready = self.translate(now, lpn, false);
        let loc = self.geo.plane_locs[old.plane as usize];
        let (verdict, extra) = self.judge_page(old.ppa, loc, old.reads, now)?;
        let read = PageRead {
            ppa: old.ppa,
            loc,
            verdict,
            extra,
            units,
        };
        let sense_ns = self.sense_ns(&read);
        self.counters.rmw_page_reads += 1;
        let then = Then::Merge(self.merges.insert(lpn)).word();
        self.start_read(ready, slot, read, sense_ns, then);
        Ok(())
    }

    /// A read-modify-write's old data (merge `slot`) is in the controller at `end`.
    pub(super) fn merge_read_done(&mut self, req: u32, slot: u32, end: u64) {
        let lpn = self.merges[slot];
        self.merges.remove(slot);
        self.events.push(end, Event::RmwMerged { req, lpn });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_up_words_round_trip() {
        for t in [
            Then::Done,
            Then::Backup(0),
            Then::Backup(SLOT),
            Then::Merge(0),
            Then::Merge(SLOT),
            Then::Group(7),
        ] {
            assert_eq!(Then::of(t.word()), t);
        }
    }
}
