//! Flash and controller timing parameters (all in integer nanoseconds).

use super::cell::PageType;
use super::pe_time::{BaseTimes, PeTimeConfig, PeTimeModel};
use crate::content::StateHist;
use crate::error::{NandError, Result};
use crate::metrics::summary::PeTimeSummary;
use serde::{Deserialize, Serialize};

/// The `[timing]` section of a config. Defaults are the 25 nm MLC values of seed 001 §4
/// (Zhao et al., FAST'13): t_R 41/55 µs (lower/upper), t_PROG 121 µs / 1.45 ms,
/// t_BERS 3.24 ms, ONFI 2.1 bus at 200 MB/s, 14 µs per extra sensing level, 8 µs to decode
/// a 4 KB codeword at 4 Gb/s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TimingConfig {
    /// Array read (sensing) time per page type, LSB first; one value applies to all types.
    pub read_latency_ns: Vec<u64>,
    /// Program time per page type, LSB first; one value applies to all types.
    pub program_latency_ns: Vec<u64>,
    /// Block erase time.
    pub erase_latency_ns: u64,
    /// Channel bus rate in MB/s (10^6 bytes per second).
    pub bus_rate_mb_s: f64,
    /// Command and address cycles on the bus per flash operation.
    pub command_latency_ns: u64,
    /// Extra time per additional (soft-decision) sensing level.
    pub extra_sense_latency_ns: u64,
    /// Hard-decision ECC decode time per page.
    pub decode_latency_ns: u64,
    /// ECC decoders per channel (decodes on one channel queue for these).
    pub decoders_per_channel: u32,
    /// How program and erase times follow the data and wear (`[timing.pe_time]`;
    /// default `fixed`: the two keys above).
    #[serde(skip_serializing_if = "PeTimeConfig::is_fixed")]
    pub pe_time: PeTimeConfig,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            read_latency_ns: vec![41_000, 55_000],
            program_latency_ns: vec![121_000, 1_450_000],
            erase_latency_ns: 3_240_000,
            bus_rate_mb_s: 200.0,
            command_latency_ns: 0,
            extra_sense_latency_ns: 14_000,
            decode_latency_ns: 8_000,
            decoders_per_channel: 1,
            pe_time: PeTimeConfig::default(),
        }
    }
}

/// Timing resolved against a geometry: per-page-type tables, the page transfer time and
/// the program/erase time model.
#[derive(Debug)]
pub struct Timing {
    /// t_R per page type.
    pub read_ns: Vec<u64>,
    /// t_PROG per page type.
    pub program_ns: Vec<u64>,
    /// t_BERS.
    pub erase_ns: u64,
    /// Bus time to move one page of data (plus command cycles).
    pub transfer_page_ns: u64,
    /// Command and address cycles.
    pub command_ns: u64,
    /// Extra sensing level.
    pub extra_sense_ns: u64,
    /// Hard decode.
    pub decode_ns: u64,
    /// Decoders per channel.
    pub decoders_per_channel: u32,
    /// Bus rate in bytes per ns.
    bytes_per_ns: f64,
    /// Bytes of a page (its transfer time is precomputed).
    page_bytes: u64,
    /// The program/erase time model.
    pe_time: Box<dyn PeTimeModel>,
    /// Whether the model is other than `fixed` (its times are then reported).
    pe_time_reported: bool,
    /// ISPP steps per page type after and before a Vth-layout change (TVR); empty: none.
    program_steps: Vec<(u32, u32)>,
    /// Program times charged per page type (sum ns, count), and erases.
    program_sums: Vec<(u64, u64)>,
    erase_sums: (u64, u64),
}

/// Most decoders a channel may have (the back end keeps a slot per decoder).
const MAX_DECODERS_PER_CHANNEL: u32 = 1024;

/// Longest operation time accepted (10 s): far beyond any flash operation, and small enough
/// that the sums of a run's times cannot overflow.
pub(crate) const MAX_OP_NS: u64 = 10_000_000_000;

impl Timing {
    /// Resolves the timing of a device with `bits` bits per cell and `page_bytes` pages.
    pub fn new(cfg: &TimingConfig, bits: usize, page_bytes: u32) -> Result<Self> {
        let per_type = |v: &Vec<u64>, key: &str| -> Result<Vec<u64>> {
            match v.len() {
                1 => Ok(vec![v[0]; bits]),
                n if n == bits => Ok(v.clone()),
                n => Err(NandError::config(
                    format!("timing.{key}"),
                    format!("needs 1 or {bits} values (one per page type), got {n}"),
                )),
            }
        };
        // At least 1 MB/s, like the DRAM rate: ONFI's slowest mode moves 20 MB/s, and a rate
        // near 0 made a page's bus time overflow the clock (a silently wrong run).
        if !(cfg.bus_rate_mb_s.is_finite() && cfg.bus_rate_mb_s >= 1.0) {
            return Err(NandError::config(
                "timing.bus_rate_mb_s",
                format!("must be a finite rate of at least 1 MB/s, got {:?}", cfg.bus_rate_mb_s),
            ));
        }
        if !(1..=MAX_DECODERS_PER_CHANNEL).contains(&cfg.decoders_per_channel) {
            return Err(NandError::config(
                "timing.decoders_per_channel",
                format!("must be between 1 and {MAX_DECODERS_PER_CHANNEL}"),
            ));
        }
        let ops = [
            ("erase_latency_ns", cfg.erase_latency_ns),
            ("command_latency_ns", cfg.command_latency_ns),
            ("extra_sense_latency_ns", cfg.extra_sense_latency_ns),
            ("decode_latency_ns", cfg.decode_latency_ns),
        ];
        let lists = [
            ("read_latency_ns", &cfg.read_latency_ns),
            ("program_latency_ns", &cfg.program_latency_ns),
        ];
        let all = ops
            .into_iter()
            .chain(lists.into_iter().flat_map(|(k, v)| v.iter().map(move |&ns| (k, ns))));
        for (key, ns) in all {
            if ns > MAX_OP_NS {
                return Err(NandError::config(
                    format!("timing.{key}"),
                    format!("{ns} ns is longer than any flash operation (at most {MAX_OP_NS} ns = 10 s)"),
                ));
            }
        }
        let bytes_per_ns = cfg.bus_rate_mb_s * 1e6 / 1e9;
        let program_ns = per_type(&cfg.program_latency_ns, "program_latency_ns")?;
        let base = BaseTimes {
            program_ns: program_ns.clone(),
            erase_ns: cfg.erase_latency_ns,
            bits,
        };
        let mut t = Timing {
            read_ns: per_type(&cfg.read_latency_ns, "read_latency_ns")?,
            pe_time: cfg.pe_time.policy().build("timing.pe_time", &base)?,
            pe_time_reported: !cfg.pe_time.is_fixed(),
            program_steps: Vec::new(),
            program_sums: vec![(0, 0); bits],
            erase_sums: (0, 0),
            program_ns,
            erase_ns: cfg.erase_latency_ns,
            transfer_page_ns: 0,
            command_ns: cfg.command_latency_ns,
            extra_sense_ns: cfg.extra_sense_latency_ns,
            decode_ns: cfg.decode_latency_ns,
            decoders_per_channel: cfg.decoders_per_channel,
            bytes_per_ns,
            page_bytes: u64::from(page_bytes),
        };
        t.transfer_page_ns = t.transfer_ns(u64::from(page_bytes));
        Ok(t)
    }

    /// Bus time for `bytes` bytes of data, rounded up to whole ns, plus command cycles.
    pub fn transfer_ns(&self, bytes: u64) -> u64 {
        if bytes == self.page_bytes && self.transfer_page_ns > 0 {
            return self.transfer_page_ns;
        }
        (bytes as f64 / self.bytes_per_ns).ceil() as u64 + self.command_ns
    }

    /// t_R of a page type.
    #[inline]
    pub fn read(&self, t: PageType) -> u64 {
        self.read_ns[t as usize]
    }

    /// t_PROG of a page type.
    #[inline]
    pub fn program(&self, t: PageType) -> u64 {
        self.program_ns[t as usize]
    }

    /// Scales each page type's program time by `after / before` ISPP steps (one pair per
    /// page type): a device programmed to another Vth layout (TVR), whose program time is
    /// `steps × t_step` (seed 002 Eq. 14) with the same `t_step`.
    pub fn scale_program_steps(&mut self, steps: Vec<(u32, u32)>) {
        self.program_steps = steps;
    }

    /// Whether [`Timing::program_for`] needs the page's cell-state histogram.
    pub fn needs_content(&self) -> bool {
        self.pe_time.needs_content()
    }

    /// t_PROG of a page type when nothing else sets it (the fixed model on a device whose
    /// program steps are not scaled, which reports no `pe_time` summary either): every
    /// written page asks, and this answer needs neither the block's wear nor a model call.
    #[inline]
    pub fn fixed_program(&self, t: PageType) -> Option<u64> {
        (!self.pe_time_reported && self.program_steps.is_empty()).then(|| self.program(t))
    }

    /// Program time of a page of `page_type` in `block` (at `pe` P/E cycles) holding
    /// `hist` (looked up only when [`Timing::needs_content`]); `tvr`: programmed to TVR's
    /// reduced layout (its ISPP steps, when TVR is on).
    pub fn program_for(
        &mut self,
        block: u32,
        page_type: PageType,
        hist: Option<&StateHist>,
        pe: u32,
        tvr: bool,
    ) -> u64 {
        let mut t = self.pe_time.program_ns(block, page_type, hist, pe);
        if let Some(&(after, before)) = self.program_steps.get(usize::from(page_type)).filter(|_| tvr) {
            t = t * u64::from(after) / u64::from(before);
        }
        let s = &mut self.program_sums[usize::from(page_type)];
        *s = (s.0 + t, s.1 + 1);
        t
    }

    /// Erase time of `block` at `pe` P/E cycles.
    pub fn erase_for(&mut self, block: u32, pe: u32) -> u64 {
        let t = self.pe_time.erase_ns(block, pe);
        self.erase_sums = (self.erase_sums.0 + t, self.erase_sums.1 + 1);
        t
    }

    /// The `pe_time` section of the run summary: mean program time per page type and
    /// mean erase time charged (`None` for the fixed model on an unscaled device, whose
    /// times are the config's).
    pub fn summary(&self) -> Option<PeTimeSummary> {
        if !self.pe_time_reported && self.program_steps.is_empty() {
            return None;
        }
        let mean = |(sum, n): (u64, u64)| (n > 0).then(|| sum as f64 / n as f64);
        Some(PeTimeSummary {
            program_ns_mean_by_page_type: self.program_sums.iter().map(|&s| mean(s)).collect(),
            programs_by_page_type: self.program_sums.iter().map(|s| s.1).collect(),
            erase_ns_mean: mean(self.erase_sums),
            erases: self.erase_sums.1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_transfer_at_onfi_rate() {
        // 4096 B at 200 MB/s = 20.48 µs (001 §2.2 rounds this to "20 µs").
        let t = Timing::new(&TimingConfig::default(), 2, 4096).unwrap();
        assert_eq!(t.transfer_page_ns, 20_480);
        assert_eq!(t.read(1), 55_000);
    }

    #[test]
    fn wrong_table_length_names_the_key() {
        let cfg = TimingConfig {
            read_latency_ns: vec![1, 2, 3],
            ..TimingConfig::default()
        };
        let e = Timing::new(&cfg, 2, 4096).unwrap_err().to_string();
        assert!(e.contains("timing.read_latency_ns"), "{e}");
    }
}
