//! Walker/Vose alias table: draws an outcome of a finite distribution from one 64-bit
//! random word in constant time (the channel draws one per code bit).
//!
//! The outcomes are padded to `K = 2^b` buckets of probability `1/K`. Bucket `i` keeps its
//! own outcome with probability `t_i` and gives the rest to `alias[i]`. A word `u` picks the
//! bucket from its low `b` bits and compares its high `64 − b` bits with `t_i` scaled to
//! `2^(64−b)`, so each probability is exact to `2^−(64−b) / K` (below 1e-17).

/// An alias table over outcomes `0 … len − 1`.
#[derive(Debug, Clone)]
pub struct AliasTable {
    bits: u32,
    /// Threshold of each bucket on the high `64 − bits` bits.
    keep: Vec<u64>,
    alias: Vec<u32>,
}

impl AliasTable {
    /// A table for non-negative `weights` (not all zero; normalised here).
    pub fn new(weights: &[f64]) -> Self {
        let total: f64 = weights.iter().sum();
        assert!(
            total > 0.0 && weights.iter().all(|&w| w >= 0.0),
            "weights must be ≥ 0, not all 0"
        );
        let k = weights.len().next_power_of_two().max(2);
        let bits = k.trailing_zeros();
        let mut p: Vec<f64> = (0..k)
            .map(|i| weights.get(i).map_or(0.0, |&w| w / total * k as f64))
            .collect();
        let mut alias: Vec<u32> = (0..k as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..k).partition(|&i| p[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            alias[s] = l as u32;
            p[l] -= 1.0 - p[s];
            if p[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Buckets left in either list keep everything (their p is 1 up to rounding).
        for i in small.into_iter().chain(large) {
            p[i] = 1.0;
        }
        let scale = 2f64.powi(64 - bits as i32);
        let keep = p
            .iter()
            .map(|&x| if x >= 1.0 { u64::MAX } else { (x * scale) as u64 })
            .collect();
        Self { bits, keep, alias }
    }

    /// The outcome for the uniform random word `u`.
    #[inline(always)]
    pub fn sample(&self, u: u64) -> usize {
        let i = (u & ((1 << self.bits) - 1)) as usize;
        if (u >> self.bits) < self.keep[i] {
            i
        } else {
            self.alias[i] as usize
        }
    }

    /// The probability of each outcome implied by the table.
    #[cfg(test)]
    fn probabilities(&self, len: usize) -> Vec<f64> {
        let k = self.keep.len() as f64;
        let scale = 2f64.powi(64 - self.bits as i32);
        let mut p = vec![0.0; self.keep.len()];
        for (i, &t) in self.keep.iter().enumerate() {
            let own = if t == u64::MAX { 1.0 } else { t as f64 / scale };
            p[i] += own / k;
            p[self.alias[i] as usize] += (1.0 - own) / k;
        }
        p.truncate(len);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implied_probabilities_equal_the_weights() {
        for w in [
            vec![1.0],
            vec![0.5, 0.5],
            vec![0.9, 0.05, 0.03, 0.02, 0.0],
            vec![1e-12, 1.0, 3e-7, 2.0, 0.25, 5e-3, 0.0, 7.0, 1e-3],
        ] {
            let total: f64 = w.iter().sum();
            let p = AliasTable::new(&w).probabilities(w.len());
            for (a, b) in p.iter().zip(&w) {
                assert!((a - b / total).abs() < 1e-14, "{p:?} vs {w:?}");
            }
        }
    }

    #[test]
    fn sample_reads_bucket_then_threshold() {
        // Two outcomes 1/4, 3/4 → K = 2, b = 1: bucket 0 keeps 0 with probability 1/2 and
        // aliases to 1; bucket 1 keeps 1. Low bit picks the bucket, the high 63 bits compare
        // with 2^62.
        let t = AliasTable::new(&[0.25, 0.75]);
        assert_eq!(t.sample(0), 0);
        assert_eq!(t.sample(((1u64 << 62) - 1) << 1), 0);
        assert_eq!(t.sample((1u64 << 62) << 1), 1);
        assert_eq!(t.sample(1), 1);
        assert_eq!(t.sample(u64::MAX), 1);
    }
}
