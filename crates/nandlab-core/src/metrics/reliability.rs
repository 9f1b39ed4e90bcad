//! Read-path reliability statistics: page RBER distribution, decoding levels, retries,
//! uncorrectable pages and energy by component.

use super::summary::{FerExtrapolation, RberBin, ReadStatsSummary};
use crate::ecc::ReadEnergy;
use std::sync::OnceLock;

/// Log-spaced RBER histogram bins: 10 per decade from 1e-8 to 1.
const RBER_DECADES: i32 = 8;
const BINS_PER_DECADE: f64 = 10.0;
const RBER_BINS: usize = (RBER_DECADES as usize) * 10 + 2;

/// Accumulated statistics of judged page reads.
#[derive(Debug, Clone)]
pub struct ReliabilityStats {
    /// Page reads judged by the error model and ECC.
    pub reads: u64,
    /// Reads decoded at each level (index = level; 0 = hard decision).
    pub decoded_at_level: Vec<u64>,
    /// Reads no level could decode.
    pub uncorrectable: u64,
    /// Sum of the model's uncorrectable probabilities (expected uncorrectable pages).
    pub expected_uncorrectable: f64,
    /// RBER below which the ECC's failure probabilities rest on extrapolated FER
    /// ([`crate::ecc::LdpcLadder::fer_measured_from`]; 0: never).
    pub fer_measured_from: f64,
    /// Reads below it, and the part of `expected_uncorrectable` they contributed.
    pub extrapolated_reads: u64,
    pub expected_uncorrectable_extrapolated: f64,
    /// Attempts beyond the first.
    pub retries: u64,
    rber_sum: f64,
    rber_max: f64,
    rber_bins: [u64; RBER_BINS],
    /// Energy of the judged reads.
    pub energy: ReadEnergy,
}

impl Default for ReliabilityStats {
    fn default() -> Self {
        ReliabilityStats {
            reads: 0,
            decoded_at_level: Vec::new(),
            uncorrectable: 0,
            expected_uncorrectable: 0.0,
            fer_measured_from: 0.0,
            extrapolated_reads: 0,
            expected_uncorrectable_extrapolated: 0.0,
            retries: 0,
            rber_sum: 0.0,
            rber_max: 0.0,
            rber_bins: [0; RBER_BINS],
            energy: ReadEnergy::default(),
        }
    }
}

/// Mantissa bits of the `f64` key that finds a bin (64 steps per octave, 1.6 % apart at
/// most: far finer than a bin, so a step holds at most one bin edge).
const KEY_SHIFT: u32 = 52 - 6;

/// Bin lookup without logarithms: the lower edges of the bins
/// (`edges[i] = 10^((i − 1)/10 − 8)` for `i ≥ 1`; bin 0 holds RBER 0 and anything below
/// 1e-8) and, for each key (`f64` bits >> [`KEY_SHIFT`]) from 1e-8 up to 2, the bin of the
/// smallest RBER with that key.
struct BinIndex {
    edges: [f64; RBER_BINS],
    first_key: u64,
    bin_of_key: Vec<u8>,
}

fn bin_index() -> &'static BinIndex {
    static INDEX: OnceLock<BinIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let edges: [f64; RBER_BINS] = std::array::from_fn(|i| {
            if i == 0 {
                0.0
            } else {
                10f64.powf((i as f64 - 1.0) / BINS_PER_DECADE - f64::from(RBER_DECADES))
            }
        });
        let first_key = edges[1].to_bits() >> KEY_SHIFT;
        let last_key = 2f64.to_bits() >> KEY_SHIFT;
        let bin_of_key = (first_key..=last_key)
            .map(|k| {
                let low = f64::from_bits(k << KEY_SHIFT).max(edges[1]);
                edges.partition_point(|&e| e <= low) as u8 - 1
            })
            .collect();
        BinIndex {
            edges,
            first_key,
            bin_of_key,
        }
    })
}

/// Bin of `rber`: the last edge at or below it.
fn rber_bin(rber: f64) -> usize {
    let ix = bin_index();
    if rber.is_nan() || rber < ix.edges[1] {
        return 0;
    }
    let k = ((rber.to_bits() >> KEY_SHIFT) - ix.first_key) as usize;
    let Some(&b) = ix.bin_of_key.get(k) else {
        return RBER_BINS - 1;
    };
    let b = usize::from(b);
    // The key's step may hold the next edge.
    if b + 1 < RBER_BINS && rber >= ix.edges[b + 1] {
        b + 1
    } else {
        b
    }
}

/// Lower edge of bin `i`.
fn bin_lower(i: usize) -> f64 {
    bin_index().edges[i]
}

impl ReliabilityStats {
    /// Empty statistics whose reads below `fer_measured_from` count as resting on
    /// extrapolated FER (0: none do).
    pub fn with_fer_measured_from(fer_measured_from: f64) -> Self {
        ReliabilityStats {
            fer_measured_from,
            ..Self::default()
        }
    }

    /// Records the RBER of a judged page read and its probability of being uncorrectable.
    #[inline]
    pub fn record_rber(&mut self, rber: f64, p_unc: f64) {
        self.reads += 1;
        self.rber_sum += rber;
        self.rber_max = self.rber_max.max(rber);
        self.rber_bins[rber_bin(rber)] += 1;
        self.expected_uncorrectable += p_unc;
        if rber < self.fer_measured_from {
            self.extrapolated_reads += 1;
            self.expected_uncorrectable_extrapolated += p_unc;
        }
    }

    /// Records the outcome of `count` reads that were decoded at `level` (`None`:
    /// uncorrectable) after `attempts` attempts each.
    pub fn record_outcomes(&mut self, level: Option<u8>, attempts: usize, count: u64) {
        if count == 0 {
            return;
        }
        self.retries += attempts.saturating_sub(1) as u64 * count;
        match level {
            Some(l) => {
                let l = l as usize;
                if self.decoded_at_level.len() <= l {
                    self.decoded_at_level.resize(l + 1, 0);
                }
                self.decoded_at_level[l] += count;
            }
            None => self.uncorrectable += count,
        }
    }

    /// Sum of the judged reads' RBERs.
    pub fn rber_sum(&self) -> f64 {
        self.rber_sum
    }

    /// Adds the energy of `count` reads of `e` each.
    pub fn add_energy(&mut self, e: ReadEnergy, count: u64) {
        let n = count as f64;
        self.energy.sense_uj += e.sense_uj * n;
        self.energy.transfer_uj += e.transfer_uj * n;
        self.energy.decode_uj += e.decode_uj * n;
    }

    /// RBER at quantile `q` (lower edge of the bin that holds it).
    pub fn rber_quantile(&self, q: f64) -> f64 {
        let target = (q * self.reads as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.rber_bins.iter().enumerate() {
            seen += c;
            if seen >= target {
                return bin_lower(i);
            }
        }
        self.rber_max
    }

    /// Mean page RBER of the judged reads (0 before any).
    pub fn rber_mean(&self) -> f64 {
        self.rber_sum / self.reads.max(1) as f64
    }

    /// Mean decoding level of the reads that decoded.
    pub fn mean_level(&self) -> f64 {
        let n: u64 = self.decoded_at_level.iter().sum();
        if n == 0 {
            return 0.0;
        }
        let s: u64 = self
            .decoded_at_level
            .iter()
            .enumerate()
            .map(|(l, &c)| l as u64 * c)
            .sum();
        s as f64 / n as f64
    }

    /// What the judged reads met, for the summary.
    pub fn summary(&self) -> ReadStatsSummary {
        let n = self.reads.max(1) as f64;
        let rber_histogram = self
            .rber_bins
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| RberBin {
                rber_from: bin_lower(i),
                reads: c,
            })
            .collect();
        ReadStatsSummary {
            page_reads: self.reads,
            rber_mean: self.rber_mean(),
            rber_p50: self.rber_quantile(0.5),
            rber_p99: self.rber_quantile(0.99),
            rber_max: self.rber_max,
            rber_histogram,
            decoded_at_level: self.decoded_at_level.clone(),
            mean_decoding_level: self.mean_level(),
            mean_attempts: 1.0 + self.retries as f64 / n,
            retries: self.retries,
            uncorrectable_pages: self.uncorrectable,
            expected_uncorrectable_pages: self.expected_uncorrectable,
            fer_extrapolation: (self.fer_measured_from > 0.0).then_some(FerExtrapolation {
                measured_from_rber: self.fer_measured_from,
                reads: self.extrapolated_reads,
                expected_uncorrectable_pages: self.expected_uncorrectable_extrapolated,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_bins_and_quantiles() {
        let mut s = ReliabilityStats::default();
        s.record_rber(4e-3, 0.0);
        s.record_rber(4e-3, 0.0);
        s.record_rber(1.2e-2, 1.0);
        s.record_outcomes(Some(0), 1, 1);
        s.record_outcomes(Some(2), 3, 1);
        s.record_outcomes(None, 7, 1);
        assert_eq!(s.decoded_at_level, vec![1, 0, 1]);
        assert_eq!(s.uncorrectable, 1);
        assert_eq!(s.retries, 2 + 6);
        assert!((s.mean_level() - 1.0).abs() < 1e-12);
        // 4e-3 = 10^-2.398 lies in the bin [10^-2.4, 10^-2.3).
        let p50 = s.rber_quantile(0.5);
        assert!((p50 - 10f64.powf(-2.4)).abs() < 1e-12, "{p50}");
        assert_eq!(rber_bin(0.0), 0);
        assert_eq!(rber_bin(1e-9), 0);
        // 0.5 = 10^-0.301 lies in [10^-0.4, 10^-0.3): 1 + (8 - 0.4) * 10 = 77.
        assert_eq!(rber_bin(0.5), 77);
        // 1e-3 = 10^-3 opens bin 1 + (8 − 3)·10 = 51; just below it is bin 50.
        assert_eq!(rber_bin(1.0001e-3), 51);
        assert_eq!(rber_bin(0.9999e-3), 50);
        assert_eq!(rber_bin(1.0001e-8), 1);
        // Every bin's lower edge and a point just below it land where log10 says.
        for i in 2..RBER_BINS {
            let x = bin_lower(i);
            assert_eq!(rber_bin(x * (1.0 + 1e-12)), i, "edge {i}");
            assert_eq!(rber_bin(x * (1.0 - 1e-12)), i - 1, "below edge {i}");
        }
    }
}
