//! `[host.suspend]`: which array operations a read may suspend, and what suspending costs
//! (the controller's flash scheduling choice; the mechanics are in `sim/suspend.rs`).
//! Defaults are MQSim's (commit 7ec40e3): its suspend times and the least remaining time
//! worth suspending for. Off (`ops = "none"`) unless set, as in MQSim.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// Operations a read may suspend (MQSim's `CMD_Suspension_Support`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspendOps {
    /// None: a read waits for the die (today's behaviour).
    None,
    /// Programs.
    Program,
    /// Erases.
    Erase,
    /// Programs and erases.
    ProgramErase,
}

/// The `[host.suspend]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SuspendConfig {
    /// Which operations a read may suspend.
    pub ops: SuspendOps,
    /// Time to suspend a program before the read starts (ns; MQSim's
    /// `Suspend_Program_Time`, 100 µs: src/exec/Flash_Parameter_Set.cpp:17).
    pub program_ns: u64,
    /// Time to suspend an erase (ns; MQSim's `Suspend_Erase_Time`, 700 µs:
    /// src/exec/Flash_Parameter_Set.cpp:16).
    pub erase_ns: u64,
    /// Time to resume the operation after the read's sensing (ns; MQSim ignores it, "the
    /// time required to send the resume command is very small": src/ssd/NVM_PHY_ONFI_NVDDR2.cpp).
    pub resume_ns: u64,
    /// A program is suspended only when at least this much of it is left (ns; MQSim's
    /// `Preferred_suspend_write_time_for_read`, 100 µs: src/exec/Device_Parameter_Set.cpp:38).
    pub min_remaining_program_ns: u64,
    /// The same for an erase (ns; MQSim's `Preferred_suspend_erase_time_for_read`, 700 µs:
    /// src/exec/Device_Parameter_Set.cpp:36).
    pub min_remaining_erase_ns: u64,
}

impl Default for SuspendConfig {
    fn default() -> Self {
        SuspendConfig {
            ops: SuspendOps::None,
            program_ns: 100_000,
            erase_ns: 700_000,
            resume_ns: 0,
            min_remaining_program_ns: 100_000,
            min_remaining_erase_ns: 700_000,
        }
    }
}

/// Longest time a suspension step may take (ns): one second, far above any real part's
/// (a larger value is a unit mistake, and the sums stay far from overflow).
const MAX_STEP_NS: u64 = 1_000_000_000;

impl SuspendConfig {
    /// Checks the values, naming the key.
    pub fn validate(&self) -> Result<()> {
        let steps = [
            ("program_ns", self.program_ns),
            ("erase_ns", self.erase_ns),
            ("resume_ns", self.resume_ns),
            ("min_remaining_program_ns", self.min_remaining_program_ns),
            ("min_remaining_erase_ns", self.min_remaining_erase_ns),
        ];
        for (key, v) in steps {
            if v > MAX_STEP_NS {
                return Err(NandError::config(
                    format!("host.suspend.{key}"),
                    format!("{v} ns is more than one second (the value is in nanoseconds)"),
                ));
            }
        }
        Ok(())
    }

    /// Whether reads may suspend programs.
    pub fn programs(&self) -> bool {
        matches!(self.ops, SuspendOps::Program | SuspendOps::ProgramErase)
    }

    /// Whether reads may suspend erases.
    pub fn erases(&self) -> bool {
        matches!(self.ops, SuspendOps::Erase | SuspendOps::ProgramErase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_in_the_wrong_unit_names_the_key() {
        let cfg = SuspendConfig {
            program_ns: 2_000_000_000,
            ..SuspendConfig::default()
        };
        let msg = cfg.validate().unwrap_err().to_string();
        assert!(msg.contains("host.suspend.program_ns"), "{msg}");
        assert!(SuspendConfig::default().validate().is_ok());
    }
}
