//! Priority (MQSim's transaction scheduling unit, `TSU_OutOfOrder`, with
//! `Preemptible_GC_Enabled`): host transactions before background ones, and host reads
//! before host writes. Background work (GC, wear leveling, read refresh, hot-page moves)
//! queues per die as transactions (a page move is a read then a program; an erase is one)
//! and a die takes the next one only when no host transaction holds it or waits for it, so
//! a host read waits for at most the one background transaction running when it arrives.
//! A host program whose data reaches a busy die waits in the die's queue too
//! (`host_order = "reads_first"`, MQSim's order: a free die serves queued user reads, then
//! user writes, then GC), so a host read arriving meanwhile senses first; `"arrival"`
//! reserves host transactions in the order they become ready instead.
//!
//! GC and wear leveling are urgent (reserved at once, with the die's queued background work
//! ahead of them, as under FIFO) unless `preemptible_gc` is on; then they are urgent only
//! when the plane's erased free blocks — the FTL's free pool less the blocks whose erase is
//! still queued — are at or below `gc_hard_threshold_blocks` when GC is triggered (MQSim's
//! `GC_Hard_Threshold`; `ftl.gc_threshold_blocks` is the soft one, MQSim's
//! `GC_Exec_Threshold`). Idle-time GC (`idle_gc_after_ns` > 0) collects a plane whose free
//! pool is at or below `idle_gc_threshold_blocks` once its die has had no work for
//! `idle_gc_after_ns`, one victim at a time, as background work.
//!
//! Read refresh's page moves are background work that is never urgent unless
//! `refresh_urgent_reads` is set (off by default): then, once the die holding a refreshed
//! block has served that many host page reads since the trigger fired, the refresh's page
//! moves still queued there (with the die's queued work ahead of them) are reserved at once,
//! ahead of host work not yet reserved — MQSim's GC hard threshold, for refresh. The bound
//! is in the trigger's own unit: every host read of the block is a read of its die, so in a
//! device whose mapping moves when the copy lands (nandlab's moves at the decision, see
//! docs/config.md) the block is read at most that many times past its trigger before its
//! data leave it.

use super::SchedulerPolicy;
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// The order of host transactions on a die.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostOrder {
    /// Reads before the writes queued on their die (MQSim's `TSU_OutOfOrder`: a free chip
    /// serves its read queues before its write queues).
    #[default]
    ReadsFirst,
    /// In the order they become ready (host reads and writes alike, first come first served).
    Arrival,
}

/// Host transactions first (reads, then writes); background work in the dies' idle time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Priority {
    /// The order of host transactions on a die.
    pub host_order: HostOrder,
    /// GC waits behind host work until the hard threshold (MQSim `Preemptible_GC_Enabled`).
    pub preemptible_gc: bool,
    /// Erased free blocks of a plane at or below which its GC is urgent (MQSim
    /// `GC_Hard_Threshold`, there a fraction of a plane's blocks; here blocks).
    pub gc_hard_threshold_blocks: u32,
    /// Idle time of a die after which idle-time GC runs in its planes (ns; 0 = off).
    pub idle_gc_after_ns: u64,
    /// Idle-time GC collects a plane while its free pool is at or below this (blocks).
    pub idle_gc_threshold_blocks: u32,
    /// Host page reads of a die after a refresh trigger fired there past which the
    /// refresh's queued moves are urgent (reads; absent: never urgent). No default: the
    /// margin is the reads the data can take beyond the trigger before ECC fails, which
    /// depends on the error model and ECC (docs/config.md `[scheduler]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_urgent_reads: Option<u32>,
}

impl Default for Priority {
    fn default() -> Self {
        Priority {
            host_order: HostOrder::ReadsFirst,
            preemptible_gc: false,
            gc_hard_threshold_blocks: 1,
            idle_gc_after_ns: 0,
            idle_gc_threshold_blocks: 0,
            refresh_urgent_reads: None,
        }
    }
}

impl SchedulerPolicy for Priority {
    fn validate(&self, table: &str, gc_threshold_blocks: u32) -> Result<()> {
        if self.preemptible_gc && !(1..gc_threshold_blocks).contains(&self.gc_hard_threshold_blocks) {
            return Err(NandError::config(
                format!("{table}.gc_hard_threshold_blocks"),
                format!(
                    "must be at least 1 and below ftl.gc_threshold_blocks ({gc_threshold_blocks}), the soft \
                     threshold"
                ),
            ));
        }
        if self.idle_gc_after_ns > 0 && self.idle_gc_threshold_blocks <= gc_threshold_blocks {
            return Err(NandError::config(
                format!("{table}.idle_gc_threshold_blocks"),
                format!("must be above ftl.gc_threshold_blocks ({gc_threshold_blocks}) for idle-time GC to run"),
            ));
        }
        Ok(())
    }

    fn defers_background(&self) -> bool {
        true
    }

    fn host_reads_first(&self) -> bool {
        self.host_order == HostOrder::ReadsFirst
    }

    fn gc_urgent(&self, free_blocks: usize) -> bool {
        !self.preemptible_gc || free_blocks <= self.gc_hard_threshold_blocks as usize
    }

    fn gc_floor(&self) -> Option<u32> {
        self.preemptible_gc.then_some(self.gc_hard_threshold_blocks)
    }

    fn idle_gc(&self) -> Option<(u64, u32)> {
        (self.idle_gc_after_ns > 0).then_some((self.idle_gc_after_ns, self.idle_gc_threshold_blocks))
    }

    fn refresh_urgent_reads(&self) -> Option<u32> {
        self.refresh_urgent_reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urgency_follows_the_hard_threshold_only_when_preemptible() {
        let p = Priority {
            preemptible_gc: true,
            gc_hard_threshold_blocks: 2,
            ..Priority::default()
        };
        assert_eq!([1, 2, 3, 8].map(|f| p.gc_urgent(f)), [true, true, false, false]);
        // Not preemptible: GC is always urgent (MQSim's GC_is_in_urgent_mode).
        assert!(Priority::default().gc_urgent(100));
    }

    #[test]
    fn thresholds_are_checked_against_the_soft_one() {
        let p = Priority {
            preemptible_gc: true,
            gc_hard_threshold_blocks: 4,
            ..Priority::default()
        };
        let e = p.validate("scheduler", 4).unwrap_err().to_string();
        assert!(e.contains("scheduler.gc_hard_threshold_blocks"), "{e}");
        assert!(p.validate("scheduler", 5).is_ok());
        let idle = Priority {
            idle_gc_after_ns: 1_000,
            idle_gc_threshold_blocks: 5,
            ..Priority::default()
        };
        assert!(idle.validate("scheduler", 5).unwrap_err().to_string().contains("idle_gc_threshold_blocks"));
        assert_eq!(idle.idle_gc(), Some((1_000, 5)));
    }

    #[test]
    fn host_reads_first_unless_in_arrival_order() {
        let p: Priority = toml::from_str("").unwrap();
        assert!(p.host_reads_first());
        let p: Priority = toml::from_str("host_order = \"arrival\"").unwrap();
        assert!(!p.host_reads_first());
        let e = toml::from_str::<Priority>("host_order = \"writes_first\"").unwrap_err();
        assert!(e.to_string().contains("writes_first"), "{e}");
    }

    #[test]
    fn refresh_urgency_is_off_unless_set_and_then_echoed() {
        let p: Priority = toml::from_str("").unwrap();
        assert_eq!(p.refresh_urgent_reads(), None);
        // Absent, it is absent from the resolved config too (older results keep their hash).
        assert!(!toml::to_string(&p).unwrap().contains("refresh_urgent_reads"));
        let p: Priority = toml::from_str("refresh_urgent_reads = 500").unwrap();
        assert_eq!(p.refresh_urgent_reads(), Some(500));
        assert!(toml::to_string(&p).unwrap().contains("refresh_urgent_reads = 500"));
        let e = toml::from_str::<Priority>("refresh_urgent_reads = -1").unwrap_err();
        assert!(e.to_string().contains("refresh_urgent_reads"), "{e}");
    }
}
