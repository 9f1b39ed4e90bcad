//! [`StateHist`]: the compact cell-state histogram the simulator keeps per written page.

use serde::{Deserialize, Serialize};

/// Most states a histogram holds (QLC).
pub const MAX_STATES: usize = 16;

/// Scale of the quantised shares: shares are stored in units of `1 / SHARE_SCALE`.
/// 65520 = 2⁴·3²·5·7·13 fits in u16 and makes uniform shares over 2, 4, 8 or 16 states
/// exact (so a uniform page gets exactly the nominal RBER).
pub const SHARE_SCALE: u32 = 65_520;

/// Share of each cell state (bit pattern) in a page, quantised to 1/65520 and stored in
/// 34 bytes. Index = the bit pattern of the cell (for MLC, `0b01` is state '01', the first
/// character being the more significant bit of the pair). Shares always sum to exactly
/// `SHARE_SCALE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StateHist {
    n_states: u8,
    /// Quantised shares (only the first `n_states` are used); sum = `SHARE_SCALE`.
    q: [u16; MAX_STATES],
}

impl StateHist {
    /// Uniform shares over `n_states` states (the expected histogram of random data).
    pub fn uniform(n_states: usize) -> Self {
        let shares = vec![1.0; n_states];
        Self::from_weights(&shares)
    }

    /// Every cell in `state`.
    pub fn single(n_states: usize, state: usize) -> Self {
        let mut w = vec![0.0; n_states];
        w[state] = 1.0;
        Self::from_weights(&w)
    }

    /// From cell counts per state.
    pub fn from_counts(counts: &[u64]) -> Self {
        let w: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        Self::from_weights(&w)
    }

    /// From non-negative weights per state (normalised; all-zero gives uniform).
    pub fn from_weights(weights: &[f64]) -> Self {
        let n = weights.len();
        assert!(
            (1..=MAX_STATES).contains(&n),
            "StateHist holds 1 to {MAX_STATES} states"
        );
        let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
        let w: Vec<f64> = if total > 0.0 {
            weights.iter().map(|x| x.max(0.0) / total).collect()
        } else {
            vec![1.0 / n as f64; n]
        };
        // Largest-remainder rounding so the quantised shares sum exactly to SHARE_SCALE.
        let scale = f64::from(SHARE_SCALE);
        let mut q: Vec<u32> = w.iter().map(|x| (x * scale).floor() as u32).collect();
        let mut rem: Vec<(f64, usize)> = w
            .iter()
            .enumerate()
            .map(|(i, x)| (x * scale - f64::from(q[i]), i))
            .collect();
        rem.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
        let missing = SHARE_SCALE - q.iter().sum::<u32>();
        for k in 0..missing as usize {
            q[rem[k % n].1] += 1;
        }
        let mut out = StateHist {
            n_states: n as u8,
            q: [0; MAX_STATES],
        };
        for (i, &v) in q.iter().enumerate() {
            out.q[i] = v as u16;
        }
        out
    }

    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.n_states as usize
    }

    /// Quantised share of `state` in units of `1 / SHARE_SCALE`.
    pub fn share_q(&self, state: usize) -> u32 {
        u32::from(self.q[state])
    }

    /// Share of `state` (0 … 1).
    pub fn share(&self, state: usize) -> f64 {
        f64::from(self.share_q(state)) / f64::from(SHARE_SCALE)
    }

    /// All shares, indexed by state.
    pub fn shares(&self) -> Vec<f64> {
        (0..self.n_states()).map(|s| self.share(s)).collect()
    }

    /// Summed share of the states in `mask` (bit `s` set = state `s` counted).
    pub fn share_of(&self, mask: u16) -> f64 {
        (0..self.n_states())
            .filter(|s| mask >> s & 1 == 1)
            .map(|s| self.share(s))
            .sum()
    }

    /// Share of BitFlip's error-prone MLC states '00' and '01' (seed 000 §II-A).
    pub fn error_prone_share(&self) -> f64 {
        self.share_of(ERROR_PRONE_MLC_MASK)
    }

    /// The histogram after inverting every bit (BitFlip's flip: state `s` → `!s`).
    pub fn flipped(&self) -> Self {
        let n = self.n_states();
        let w: Vec<f64> = (0..n).map(|s| self.share(n - 1 - s)).collect();
        Self::from_weights(&w)
    }
}

/// States '00' and '01' of an MLC cell (patterns 0 and 1).
pub const ERROR_PRONE_MLC_MASK: u16 = 0b0011;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_exactly_and_round_trip() {
        let h = StateHist::from_counts(&[1, 1, 1]);
        let sum: u32 = (0..3).map(|s| h.share_q(s)).sum();
        assert_eq!(sum, SHARE_SCALE);
        assert!((h.share(0) - 1.0 / 3.0).abs() < 1e-4);
        let u = StateHist::uniform(4);
        assert_eq!(u.share(2), 0.25);
        let s = StateHist::single(4, 1);
        assert_eq!(s.share(1), 1.0);
        assert_eq!(s.share(0), 0.0);
        assert_eq!(s.flipped().share(2), 1.0);
        assert!(std::mem::size_of::<StateHist>() <= 36);
    }

    #[test]
    fn error_prone_share_counts_00_and_01() {
        let h = StateHist::from_counts(&[2, 2, 0, 0]);
        assert_eq!(h.error_prone_share(), 1.0);
        assert_eq!(h.flipped().error_prone_share(), 0.0);
    }
}
