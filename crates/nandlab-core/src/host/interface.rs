//! Host interface timing (`[host.interface]`): how long commands, data and completions take
//! on the link between host and SSD. `protocol = "none"` (the default) leaves it out: a
//! request reaches the controller when it is dispatched and is done when its last page is.
//! `"nvme"` models NVMe over PCIe as MQSim does (`PCIe_Link::estimate_transfer_time`):
//! payloads travel in TLPs of at most `tlp_max_payload_bytes`, each with
//! `tlp_overhead_bytes` of header, striped over the lanes; each direction is its own
//! resource (PCIe is full duplex).
//! `"sata"` is MQSim's SATA model (`src/host/SATA_HBA.cpp`): the same messages over the same
//! link, each command also passing the host bus adapter on its way out and its completion
//! on its way back, `sata_processing_ns` each (MQSim's `SATA_Processing_Delay`), one
//! message at a time per direction; and one native command queue of at most
//! [`NCQ_DEPTH`] commands (`host.queue_depth`).

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// NVMe submission-queue entry (bytes, NVMe 1.4 §4.2).
const SQ_ENTRY_BYTES: u64 = 64;
/// NVMe completion-queue entry (bytes, NVMe 1.4 §4.6).
const CQ_ENTRY_BYTES: u64 = 16;
/// A doorbell register write (bytes).
const DOORBELL_BYTES: u64 = 4;
/// Commands SATA's native command queue holds (its 32 command tags); MQSim sizes it
/// by `IO_Queue_Depth` instead.
pub const NCQ_DEPTH: u32 = 32;

/// Host interface protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// No interface time.
    None,
    /// NVMe over PCIe.
    Nvme,
    /// SATA with native command queueing, as MQSim models it.
    Sata,
}

/// The `[host.interface]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InterfaceConfig {
    /// `none`, `nvme` or `sata`.
    pub protocol: Protocol,
    /// PCIe lanes (MQSim's `PCIe_Lane_Count`, default 4).
    pub pcie_lanes: u32,
    /// Bandwidth of one lane, GB/s (MQSim's `PCIe_Lane_Bandwidth`, default 1.0; PCIe 3.0
    /// carries 0.985 GB/s per lane after 128b/130b coding).
    pub pcie_lane_gb_per_s: f64,
    /// Largest TLP payload (bytes; MQSim's 128).
    pub tlp_max_payload_bytes: u32,
    /// Header and framing per TLP (bytes; MQSim's 20 TLP header + 6 DLLP + 2 physical).
    pub tlp_overhead_bytes: u32,
    /// With `sata`: the host bus adapter's time per command and per completion (ns;
    /// MQSim's `SATA_Processing_Delay`, 400 µs in its shipped ssdconfig.xml, line 6).
    pub sata_processing_ns: u64,
}

impl Default for InterfaceConfig {
    fn default() -> Self {
        InterfaceConfig {
            protocol: Protocol::None,
            pcie_lanes: 4,
            pcie_lane_gb_per_s: 1.0,
            tlp_max_payload_bytes: 128,
            tlp_overhead_bytes: 28,
            sata_processing_ns: 400_000,
        }
    }
}

impl InterfaceConfig {
    /// Checks the values, naming the key.
    pub fn validate(&self) -> Result<()> {
        if !(1..=32).contains(&self.pcie_lanes) {
            return Err(NandError::config(
                "host.interface.pcie_lanes",
                "must be between 1 and 32",
            ));
        }
        // At least 0.001 GB/s (1 MB/s; PCIe 1.0 carries 0.25 GB/s a lane): a rate near 0 made
        // a request's link time overflow the clock (a silently wrong run).
        if !(self.pcie_lane_gb_per_s.is_finite() && self.pcie_lane_gb_per_s >= 0.001) {
            return Err(NandError::config(
                "host.interface.pcie_lane_gb_per_s",
                format!(
                    "must be a finite rate of at least 0.001 GB/s, got {:?}",
                    self.pcie_lane_gb_per_s
                ),
            ));
        }
        if !(1..=4096).contains(&self.tlp_max_payload_bytes) {
            return Err(NandError::config(
                "host.interface.tlp_max_payload_bytes",
                "must be between 1 and 4096",
            ));
        }
        if self.tlp_overhead_bytes > 4096 {
            return Err(NandError::config(
                "host.interface.tlp_overhead_bytes",
                "must be at most 4096",
            ));
        }
        if self.sata_processing_ns > 1_000_000_000 {
            return Err(NandError::config(
                "host.interface.sata_processing_ns",
                format!(
                    "{} ns is more than one second (the value is in nanoseconds)",
                    self.sata_processing_ns
                ),
            ));
        }
        Ok(())
    }

    /// Requests the device holds at once, given `host.queue_depth` (0 = unbounded): SATA's
    /// command queue bounds it, and is what an unbounded depth gets.
    pub fn device_queue_depth(&self, queue_depth: u32) -> Result<u32> {
        match (self.protocol, queue_depth) {
            (Protocol::Sata, 0) => Ok(NCQ_DEPTH),
            (Protocol::Sata, d) if d > NCQ_DEPTH => Err(NandError::config(
                "host.queue_depth",
                format!("{d} is more than the {NCQ_DEPTH} commands of SATA's native command queue"),
            )),
            (_, d) => Ok(d),
        }
    }
}

/// The link's two directions, each free from some time on.
#[derive(Debug)]
pub struct HostLink {
    cfg: InterfaceConfig,
    to_device_free: u64,
    to_host_free: u64,
    /// When the SATA host bus adapter is free for the next command / completion.
    hba_submit_free: u64,
    hba_complete_free: u64,
}

impl HostLink {
    /// The link `cfg` describes (`None` for `protocol = "none"`).
    pub fn new(cfg: &InterfaceConfig) -> Result<Option<Self>> {
        cfg.validate()?;
        Ok((cfg.protocol != Protocol::None).then(|| HostLink {
            cfg: cfg.clone(),
            to_device_free: 0,
            to_host_free: 0,
            hba_submit_free: 0,
            hba_complete_free: 0,
        }))
    }

    /// Time to move a `payload`-byte message over the link (ns): whole and partial TLPs
    /// with their overhead, striped over the lanes.
    pub fn transfer_ns(&self, payload: u64) -> u64 {
        let (max, over) = (
            u64::from(self.cfg.tlp_max_payload_bytes),
            u64::from(self.cfg.tlp_overhead_bytes),
        );
        let partial = payload % max;
        let wire = payload / max * (max + over) + if partial > 0 { partial + over } else { 0 };
        let per_lane = wire.div_ceil(u64::from(self.cfg.pcie_lanes));
        (per_lane as f64 / self.cfg.pcie_lane_gb_per_s).round() as u64
    }

    /// A command submitted at `now` (through the SATA adapter, then doorbell, command fetch) and, for a write, its
    /// `write_bytes` of data, host to device; returns when the controller has them.
    pub fn submit(&mut self, now: u64, write_bytes: u64) -> u64 {
        let now = match self.cfg.protocol {
            Protocol::Sata => {
                self.hba_submit_free = self.hba_submit_free.max(now) + self.cfg.sata_processing_ns;
                self.hba_submit_free
            }
            _ => now,
        };
        let t = self.transfer_ns(DOORBELL_BYTES) + self.transfer_ns(SQ_ENTRY_BYTES);
        let t = t + if write_bytes > 0 {
            self.transfer_ns(write_bytes)
        } else {
            0
        };
        self.to_device_free = self.to_device_free.max(now) + t;
        self.to_device_free
    }

    /// A command whose flash work ended at `done` returns `read_bytes` of data and its
    /// completion entry, device to host (then through the SATA adapter); returns when the
    /// host has the completion.
    pub fn complete(&mut self, done: u64, read_bytes: u64) -> u64 {
        let t = if read_bytes > 0 {
            self.transfer_ns(read_bytes)
        } else {
            0
        } + self.transfer_ns(CQ_ENTRY_BYTES);
        self.to_host_free = self.to_host_free.max(done) + t;
        match self.cfg.protocol {
            Protocol::Sata => {
                self.hba_complete_free = self.hba_complete_free.max(self.to_host_free) + self.cfg.sata_processing_ns;
                self.hba_complete_free
            }
            _ => self.to_host_free,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> HostLink {
        let cfg = InterfaceConfig {
            protocol: Protocol::Nvme,
            ..InterfaceConfig::default()
        };
        HostLink::new(&cfg).unwrap().unwrap()
    }

    #[test]
    fn tlp_arithmetic_by_hand() {
        let l = link();
        // 4 B: one TLP of 4 + 28 = 32 B over 4 lanes at 1 GB/s = 8 ns.
        assert_eq!(l.transfer_ns(4), 8);
        // 64 KiB: 512 full TLPs x 156 B = 79,872 B / 4 lanes = 19,968 ns.
        assert_eq!(l.transfer_ns(65_536), 19_968);
        // 200 B: one full TLP (156 B) and one of 72 + 28 = 100 B: 256 B / 4 = 64 ns.
        assert_eq!(l.transfer_ns(200), 64);
    }

    #[test]
    fn each_direction_is_used_in_turn() {
        let mut l = link();
        // Doorbell 8 ns + command (64 + 28 = 92 B) 23 ns + 4 KiB data (32 x 156 B) 1,248 ns.
        assert_eq!(l.submit(0, 4096), 1_279);
        // A second command at 0 queues behind the first on the host-to-device direction.
        assert_eq!(l.submit(0, 0), 1_279 + 31);
        // Completion entry 16 + 28 = 44 B: 11 ns; the other direction is free.
        assert_eq!(l.complete(100, 0), 111);
    }

    #[test]
    fn sata_adds_the_adapter_time_one_message_at_a_time() {
        let cfg = InterfaceConfig {
            protocol: Protocol::Sata,
            sata_processing_ns: 1_000,
            ..InterfaceConfig::default()
        };
        let mut l = HostLink::new(&cfg).unwrap().unwrap();
        // Adapter 1,000 ns, then doorbell and command 31 ns.
        assert_eq!(l.submit(0, 0), 1_031);
        // The second command waits for the adapter (free at 1,000), not for the link.
        assert_eq!(l.submit(0, 0), 2_031);
        // Completion entry 11 ns, then the adapter.
        assert_eq!(l.complete(100, 0), 1_111);
        assert_eq!(cfg.device_queue_depth(0).unwrap(), 32);
        assert_eq!(cfg.device_queue_depth(8).unwrap(), 8);
        let e = cfg.device_queue_depth(33).unwrap_err().to_string();
        assert!(e.contains("host.queue_depth"), "{e}");
    }

    #[test]
    fn bad_values_name_the_key() {
        let cfg = InterfaceConfig {
            pcie_lanes: 0,
            ..InterfaceConfig::default()
        };
        assert!(cfg
            .validate()
            .unwrap_err()
            .to_string()
            .contains("host.interface.pcie_lanes"));
    }
}
