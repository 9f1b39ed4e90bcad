//! The `nominal` error model: a nominal RBER for uniformly random data, split over the
//! cell states by relative error-proneness weights, so that a page's RBER follows its
//! content (seed 000 §II-A: retention errors 00→01 ≈ 46 %, 01→10 ≈ 44 % of all).

use super::model::{ErrorContext, ErrorModel};

/// Default MLC weights by bit pattern ('00', '01', '10', '11'): 46 % and 44 % of the
/// errors come from '00' and '01' (seed 000 §II-A, citing Cai et al. DATE'12); the other
/// 10 % are split evenly between '10' and '11' (our choice; the paper gives no split).
pub const BITFLIP_MLC_WEIGHTS: [f64; 4] = [0.46, 0.44, 0.05, 0.05];

/// `nominal` model: state `s` of page type `k` errs with probability
/// `rber_nominal · scale_k · n · w_s / Σw`, so uniformly random data (share 1/n per
/// state) has exactly `rber_nominal · scale_k`.
#[derive(Debug, Clone)]
pub struct NominalModel {
    /// RBER of a page of uniformly random data.
    pub rber_nominal: f64,
    /// Normalised weights `n · w_s / Σw` (mean 1).
    rel: Vec<f64>,
    /// Per page type multiplier (LSB first; the last value repeats).
    pub page_type_scale: Vec<f64>,
}

impl NominalModel {
    /// A model with weights by bit pattern (any positive scale).
    pub fn new(rber_nominal: f64, state_weights: &[f64], page_type_scale: Vec<f64>) -> Self {
        let n = state_weights.len() as f64;
        let total: f64 = state_weights.iter().sum();
        let rel = state_weights.iter().map(|w| n * w / total).collect();
        NominalModel {
            rber_nominal,
            rel,
            page_type_scale,
        }
    }

    /// Scale of page type `t`.
    pub fn scale(&self, t: u8) -> f64 {
        scale_of(&self.page_type_scale, t)
    }
}

/// Entry `t` of a per-page-type list (the last value repeats; empty = 1).
pub fn scale_of(v: &[f64], t: u8) -> f64 {
    v.get(t as usize).or(v.last()).copied().unwrap_or(1.0)
}

impl ErrorModel for NominalModel {
    fn name(&self) -> &'static str {
        "nominal"
    }

    fn n_states(&self) -> usize {
        self.rel.len()
    }

    fn wear_and_age_blind(&self) -> bool {
        true
    }

    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]) {
        let base = self.rber_nominal * self.scale(ctx.page_type);
        for (o, r) in out.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::StateHist;

    #[test]
    fn uniform_page_has_exactly_the_nominal_rber() {
        let m = NominalModel::new(6e-3, &BITFLIP_MLC_WEIGHTS, vec![1.0]);
        let u = StateHist::uniform(4);
        let ctx = ErrorContext {
            hist: Some(&u),
            ..Default::default()
        };
        assert_eq!(m.page_rber(&ctx), 6e-3);
        let ctx = ErrorContext::default();
        assert!((m.page_rber(&ctx) - 6e-3).abs() < 1e-18);
    }

    #[test]
    fn content_changes_the_rber() {
        let m = NominalModel::new(4e-3, &BITFLIP_MLC_WEIGHTS, vec![1.0, 0.5]);
        // All '00': 4 · 0.46 · 4e-3 = 7.36e-3; all '11': 4 · 0.05 · 4e-3 = 8e-4.
        let h00 = StateHist::single(4, 0b00);
        let h11 = StateHist::single(4, 0b11);
        let r00 = m.page_rber(&ErrorContext {
            hist: Some(&h00),
            ..Default::default()
        });
        let r11 = m.page_rber(&ErrorContext {
            hist: Some(&h11),
            ..Default::default()
        });
        assert!((r00 - 7.36e-3).abs() < 1e-15);
        assert!((r11 - 8e-4).abs() < 1e-15);
        // Page type scale (e.g. seed 004's σ = 0.5 for MSB pages) and variation.
        let r = m.page_rber(&ErrorContext {
            hist: Some(&h00),
            page_type: 1,
            variation: 2.0,
            ..Default::default()
        });
        assert!((r - 7.36e-3).abs() < 1e-15);
    }
}
