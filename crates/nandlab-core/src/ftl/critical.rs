//! `[host.critical]`: which writes are critical (seed 004's metadata). Host writes and the
//! preconditioned fill are classified alike, so it lives with the FTL that keeps the flag;
//! the host config holds one.

use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// Where the classifier learns that a write is critical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CriticalSource {
    /// A write of a logical page in `lpn_ranges` (seed 004 §5.1: the file system's metadata
    /// area, LPN 0–1023 for NTFS). The trace's flags are ignored.
    #[default]
    LpnRanges,
    /// A write the trace flags critical (the DiskSim format's optional sixth column). The
    /// preconditioned fill has no flags, so it holds no critical page.
    Trace,
    /// Either: a flagged write, or a write in `lpn_ranges`.
    Both,
}

/// `[host.critical]`: the classifier that marks writes critical (a write attribute that
/// placement sees and the page keeps).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct CriticalConfig {
    /// Inclusive logical-page ranges `[first, last]` whose writes are critical.
    pub lpn_ranges: Vec<[u64; 2]>,
    /// What marks a write critical: its logical page, the trace's flag, or both.
    pub source: CriticalSource,
}

impl CriticalConfig {
    /// Checks the ranges, and that a trace-only classifier is given none.
    pub fn validate(&self) -> Result<()> {
        for (i, &[first, last]) in self.lpn_ranges.iter().enumerate() {
            if first > last {
                return Err(NandError::config(
                    format!("host.critical.lpn_ranges[{i}]"),
                    format!("first page {first} is past last page {last}"),
                ));
            }
        }
        if self.source == CriticalSource::Trace && !self.lpn_ranges.is_empty() {
            return Err(NandError::config(
                "host.critical.lpn_ranges",
                "source = \"trace\" classifies by the trace's flags only; set source = \"both\" to \
                 use the ranges too",
            ));
        }
        Ok(())
    }

    /// Whether a write of logical page `lpn` lies in the ranges (the fill's classifier:
    /// preconditioned pages carry no trace flag).
    #[inline]
    pub fn contains(&self, lpn: u64) -> bool {
        self.lpn_ranges
            .iter()
            .any(|&[first, last]| (first..=last).contains(&lpn))
    }

    /// Whether a host write of logical page `lpn`, flagged critical by its trace or not
    /// (`flagged`), is critical.
    #[inline]
    pub fn classifies(&self, lpn: u64, flagged: bool) -> bool {
        match self.source {
            CriticalSource::LpnRanges => self.contains(lpn),
            CriticalSource::Trace => flagged,
            CriticalSource::Both => flagged || self.contains(lpn),
        }
    }

    /// Whether logical page `lpn` may hold a page written as critical (a read of it then
    /// asks the page's own flag).
    #[inline]
    pub fn may_hold(&self, lpn: u64) -> bool {
        self.source != CriticalSource::LpnRanges || self.contains(lpn)
    }

    /// Whether any write can be critical (the run then reports its `critical` section).
    pub fn is_active(&self) -> bool {
        self.source != CriticalSource::LpnRanges || !self.lpn_ranges.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(source: CriticalSource) -> CriticalConfig {
        CriticalConfig {
            lpn_ranges: vec![[0, 3]],
            source,
        }
    }

    #[test]
    fn each_source_reads_its_own_evidence() {
        // (lpn, flagged) -> critical, by the definitions: ranges; flag; either.
        let cases = [(2, false), (2, true), (9, false), (9, true)];
        let want = [
            (CriticalSource::LpnRanges, [true, true, false, false]),
            (CriticalSource::Trace, [false, true, false, true]),
            (CriticalSource::Both, [true, true, false, true]),
        ];
        for (source, expect) in want {
            let c = cfg(source);
            for (&(lpn, flagged), &e) in cases.iter().zip(&expect) {
                assert_eq!(c.classifies(lpn, flagged), e, "{source:?} lpn {lpn} flagged {flagged}");
            }
        }
    }

    #[test]
    fn a_trace_only_classifier_with_ranges_names_the_key() {
        let e = cfg(CriticalSource::Trace).validate().unwrap_err().to_string();
        assert!(e.contains("host.critical.lpn_ranges") && e.contains("both"), "{e}");
        assert!(cfg(CriticalSource::Both).validate().is_ok());
        let empty = CriticalConfig {
            source: CriticalSource::Trace,
            ..Default::default()
        };
        assert!(empty.validate().is_ok() && empty.is_active());
        assert!(!CriticalConfig::default().is_active());
    }
}
