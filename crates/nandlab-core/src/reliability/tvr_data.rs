//! What a TVR run counts per region (seed 002 §5.1): pages programmed and their time,
//! reads and their RBER, and reads of TVR data older than its retention budget.
//!
//! The reduced layout has no retention margin: 002 relies on data being rewritten before
//! retention errors appear ("in the first few weeks of flash retention period almost no
//! retention error is detected", Belgal et al. [2]; "49-99% of writes require less than
//! 1-week retention time", Liu et al. [17]) and proposes no refresh. So nandlab does not
//! refresh TVR data either: a read of TVR data older than `tvr.retention_days` is
//! counted as **at risk** (its RBER is still the retention-free layout's; the count says
//! how often the workload leaned on retention the layout does not guarantee).

use crate::metrics::summary::{RegionSummary, TvrRegions};

use super::tvr_mode::TvrConfig;
use crate::flash::block::WriteAttrs;

/// Sums of one region.
#[derive(Debug, Clone, Default)]
struct RegionCounts {
    programs: u64,
    program_ns: u64,
    reads: u64,
    judged_reads: u64,
    rber_sum: f64,
    reads_at_risk: u64,
}

/// The run's TVR bookkeeping: which pages are TVR and the counts per region.
#[derive(Debug, Clone)]
pub struct TvrData {
    cfg: TvrConfig,
    budget_s: f64,
    /// Index 0: standard pages, 1: TVR pages.
    counts: [RegionCounts; 2],
}

impl TvrData {
    /// Bookkeeping for `cfg` (validated by the caller); `None` when TVR is off.
    pub fn new(cfg: &TvrConfig) -> Option<Self> {
        cfg.enabled.then(|| TvrData {
            cfg: cfg.clone(),
            budget_s: cfg.retention_days * 86_400.0,
            counts: Default::default(),
        })
    }

    /// Whether every page is TVR (nothing to look up per page).
    pub fn whole_device(&self) -> bool {
        self.cfg.region.policy().whole_device()
    }

    /// Whether logical page `lpn` written with `attrs` is TVR data.
    pub fn holds(&self, lpn: u64, attrs: WriteAttrs) -> bool {
        self.cfg.region.policy().holds(lpn, attrs)
    }

    /// Counts a program of `program_ns` in the region `tvr`.
    pub fn note_program(&mut self, tvr: bool, program_ns: u64) {
        let c = &mut self.counts[usize::from(tvr)];
        c.programs += 1;
        c.program_ns += program_ns;
    }

    /// Counts a host read of data `age_s` old (the retention age the error model sees) in
    /// region `tvr`, with its RBER when the read is judged; returns whether it is at risk.
    pub fn note_read(&mut self, tvr: bool, age_s: f64, rber: Option<f64>) -> bool {
        let at_risk = tvr && age_s > self.budget_s;
        let c = &mut self.counts[usize::from(tvr)];
        c.reads += 1;
        c.reads_at_risk += u64::from(at_risk);
        if let Some(r) = rber {
            c.judged_reads += 1;
            c.rber_sum += r;
        }
        at_risk
    }

    /// Per-region counts for the summary's `tvr` section.
    pub fn summary(&self) -> TvrRegions {
        let region = |c: &RegionCounts| {
            let mean = |sum: f64, n: u64| (n > 0).then(|| sum / n as f64);
            RegionSummary {
                programs: c.programs,
                program_ns_mean: mean(c.program_ns as f64, c.programs),
                reads: c.reads,
                rber_mean: mean(c.rber_sum, c.judged_reads),
                reads_at_risk: c.reads_at_risk,
            }
        };
        TvrRegions {
            retention_days: self.cfg.retention_days,
            standard: region(&self.counts[0]),
            tvr: region(&self.counts[1]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 7-day budget: a TVR read at 6 days is fine, at 8 days at risk; standard data is
    /// never at risk. Means per region: (1 + 3)/2 µs programs, RBER (1e-4 + 3e-4)/2.
    #[test]
    fn counts_per_region_and_at_risk() {
        let cfg = TvrConfig {
            enabled: true,
            retention_days: 7.0,
            ..TvrConfig::default()
        };
        let mut d = TvrData::new(&cfg).unwrap();
        assert!(d.whole_device() && TvrData::new(&TvrConfig::default()).is_none());
        let day = 86_400.0;
        assert!(!d.note_read(true, 6.0 * day, Some(1e-4)));
        assert!(d.note_read(true, 8.0 * day, Some(3e-4)));
        assert!(!d.note_read(false, 80.0 * day, None));
        d.note_program(true, 1_000);
        d.note_program(true, 3_000);
        let s = d.summary();
        assert_eq!(s.tvr.reads, 2);
        assert_eq!(s.tvr.reads_at_risk, 1);
        assert_eq!(s.standard.reads_at_risk, 0);
        assert_eq!(s.standard.rber_mean, None);
        assert_eq!(s.tvr.program_ns_mean, Some(2_000.0));
        assert!((s.tvr.rber_mean.unwrap() - 2e-4).abs() < 1e-18);
    }
}
