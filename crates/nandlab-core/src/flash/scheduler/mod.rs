//! Scheduling policies for background flash work against host work (`[scheduler] policy =
//! "fifo" | "priority"`, one file each; the registry is at the bottom). The simulator's
//! transaction scheduling unit (`sim/tsu/`) asks the configured policy whether background
//! transactions wait for idle dies, when GC is urgent and whether idle-time GC runs.

use crate::error::Result;

/// A scheduling policy for background flash work.
pub trait SchedulerPolicy {
    /// Checks the policy's parameters; `table` is where they sit in the config
    /// (`scheduler`), `gc_threshold_blocks` the FTL's (soft) GC threshold.
    fn validate(&self, _table: &str, _gc_threshold_blocks: u32) -> Result<()> {
        Ok(())
    }

    /// Whether background transactions wait in per-die queues for the die to be free of
    /// host work, instead of being reserved when the FTL decides them.
    fn defers_background(&self) -> bool;

    /// Whether a host program waits in its die's queue while the die is busy, so that host
    /// reads arriving meanwhile go first (MQSim's TSU); else host transactions are
    /// reserved in the order they become ready.
    fn host_reads_first(&self) -> bool {
        false
    }

    /// Whether GC (and the wear leveling it runs) in a plane with `free_blocks` erased free
    /// blocks (besides the one it is reclaiming) is urgent: reserved at once.
    fn gc_urgent(&self, free_blocks: usize) -> bool;

    /// The hard threshold (blocks) when GC is preemptible: the FTL paces GC above it.
    fn gc_floor(&self) -> Option<u32> {
        None
    }

    /// Idle-time GC: (idle time of a die before it runs in ns, free-pool threshold in
    /// blocks); `None`: off.
    fn idle_gc(&self) -> Option<(u64, u32)> {
        None
    }

    /// Refresh urgency: host page reads a die serves after a read-refresh trigger fired on
    /// one of its blocks, past which that refresh's queued page moves are urgent (reserved
    /// at once, ahead of host work not yet reserved); `None`: refresh is never urgent.
    fn refresh_urgent_reads(&self) -> Option<u32> {
        None
    }
}

crate::registry::policies! {
    /// `[scheduler]`: how background flash work is ordered against host work, by name
    /// (`policy`), with the policy's parameters beside it.
    SchedulerConfig, SchedulerPolicy, "policy", Fifo;
    fifo::Fifo,
    priority::Priority,
}

impl SchedulerConfig {
    /// Whether the section is as by default (then it is left out of the resolved config,
    /// so results from before the scheduler keep their hashes).
    pub fn is_default(&self) -> bool {
        *self == SchedulerConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_by_name_with_key_naming_errors() {
        let p: SchedulerConfig = toml::from_str("policy = \"priority\"\npreemptible_gc = true").unwrap();
        assert!(p.policy().defers_background());
        assert!(!SchedulerConfig::default().policy().defers_background());
        let e = toml::from_str::<SchedulerConfig>("policy = \"fifo\"\npreemptible_gc = true").unwrap_err();
        assert!(e.to_string().contains("preemptible_gc"), "{e}");
        let e = toml::from_str::<SchedulerConfig>("policy = \"lifo\"").unwrap_err();
        assert!(e.to_string().contains("lifo"), "{e}");
    }
}
