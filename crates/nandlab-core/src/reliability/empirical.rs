//! The `empirical` error model: the nine-parameter power law
//! `RBER = ε + α·PE^k + β·PE^m·t^n + γ·PE^p·R^q` (wear, retention, read disturb) with the
//! two public constant sets of research/models.md §2.1 and the `tlc-3d` set of tlc_3d.rs,
//! inputs clamped to the range the fits are usable in, and a per-page-type scale.

use serde::{Deserialize, Serialize};
use std::cell::{Cell, OnceCell};

use super::model::{weighted_page_rber, ErrorContext, ErrorModel, RBER_CAP};
use super::nominal::scale_of;
use crate::content::MAX_STATES;
use crate::error::{NandError, Result};

/// Constants of the power law and the range they are used in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmpiricalParams {
    /// ε (base RBER).
    pub eps: f64,
    /// α (wear coefficient).
    pub alpha: f64,
    /// k (wear exponent).
    pub k: f64,
    /// β (retention coefficient).
    pub beta: f64,
    /// m (P/E exponent of retention).
    pub m: f64,
    /// n (time exponent of retention).
    pub n: f64,
    /// γ (read-disturb coefficient).
    pub gamma: f64,
    /// p (P/E exponent of read disturb).
    pub p: f64,
    /// q (read-count exponent).
    pub q: f64,
    /// Seconds per unit of `t` in the fit (86400: days, 3600: hours).
    pub time_unit_s: f64,
    /// Largest P/E count used (inputs above are clamped).
    pub max_pe: f64,
    /// Largest retention time used, in the fit's time unit.
    pub max_time: f64,
    /// Largest read count used.
    pub max_reads: f64,
}

impl EmpiricalParams {
    /// 2y-nm MLC (SimpleSSD `AbstractReadReclaim::estimateBitError`, [V] in
    /// research/models.md §2.1): t in days, R = reads since erase of the block. The
    /// retention term (t^3.33) is only usable up to about a month; P/E ≤ 10,000, reads
    /// ≤ 1e6 as in the notes' sanity table.
    pub fn mlc_2y() -> Self {
        EmpiricalParams {
            eps: 8.34e-5,
            alpha: 3.30e-11,
            k: 1.71,
            beta: 5.56e-19,
            m: 2.49,
            n: 3.33,
            gamma: 6.26e-13,
            p: 1.76,
            q: 0.47,
            time_unit_s: 86_400.0,
            max_pe: 10_000.0,
            max_time: 30.0,
            max_reads: 1e6,
        }
    }

    /// 72-layer 3D TLC (MQSim-JW `docs/features/ecc-and-read-retry.md`, [V] in §2.1):
    /// t in hours, R = average reads per page. The disturb term (R^1.71) is usable up to
    /// about 1e3 reads; P/E ≤ 3,000, t ≤ 1 year as in the notes' sanity table.
    pub fn tlc_72l() -> Self {
        EmpiricalParams {
            eps: 1.48e-3,
            alpha: 3.90e-10,
            k: 2.05,
            beta: 6.28e-5,
            m: 0.14,
            n: 0.54,
            gamma: 3.73e-9,
            p: 0.33,
            q: 1.71,
            time_unit_s: 3600.0,
            max_pe: 3000.0,
            max_time: 8760.0,
            max_reads: 1e3,
        }
    }

    /// A preset by name (`mlc-2y`, `tlc-72l`, `tlc-3d`).
    pub fn preset(name: &str) -> Result<Self> {
        match name {
            "mlc-2y" => Ok(Self::mlc_2y()),
            "tlc-72l" => Ok(Self::tlc_72l()),
            "tlc-3d" => Ok(Self::tlc_3d()),
            _ => Err(NandError::config(
                "reliability.empirical_preset",
                format!("unknown `{name}` (mlc-2y | tlc-72l | tlc-3d)"),
            )),
        }
    }

    /// The power law at clamped inputs (`t` in seconds).
    pub fn rber(&self, pe: f64, retention_s: f64, reads: f64) -> f64 {
        let (pe, t, r) = self.clamp_inputs(pe, retention_s, reads);
        let (wear_age, disturb) = self.terms(pe, t);
        self.combine(wear_age, disturb, r.powf(self.q))
    }

    /// `(PE, t in the fit's unit, R)` clamped to the fitted range (`max`/`min`:
    /// `f64::clamp` checks its bounds on every call, 3 % of a judged read here).
    fn clamp_inputs(&self, pe: f64, retention_s: f64, reads: f64) -> (f64, f64, f64) {
        (
            pe.max(0.0).min(self.max_pe),
            // The reciprocal does not wait for `retention_s`: one multiply on the read's path.
            (retention_s * self.time_unit_s.recip()).max(0.0).min(self.max_time),
            reads.max(0.0).min(self.max_reads),
        )
    }

    /// The parts of the law fixed by wear and age: `ε + α·PE^k + β·PE^m·t^n` and the
    /// read-disturb coefficient `γ·PE^p`.
    fn terms(&self, pe: f64, t: f64) -> (f64, f64) {
        (
            self.eps + self.alpha * pe.powf(self.k) + self.beta * pe.powf(self.m) * t.powf(self.n),
            self.gamma * pe.powf(self.p),
        )
    }

    /// The law from its wear-and-age part, read-disturb coefficient and `R^q`.
    fn combine(&self, wear_age: f64, disturb: f64, r_q: f64) -> f64 {
        (wear_age + disturb * r_q).clamp(0.0, RBER_CAP)
    }
}

/// Whole read counts whose `R^q` the model tabulates (larger counts are computed).
const READ_POWERS: usize = 1 << 16;

/// The law's parts for the last inputs: consecutive reads mostly share their block's wear
/// (it changes only at an erase) and, for data older than the fit's time range, their
/// clamped age, so they skip the `powf`s.
#[derive(Debug, Clone)]
struct PowerMemo {
    /// `((PE, t), (wear-and-age part, read-disturb coefficient))` of the last read.
    terms: Cell<((f64, f64), (f64, f64))>,
    /// `R^q` for `R < READ_POWERS`, NaN until first needed.
    reads: OnceCell<Box<[Cell<f64>]>>,
}

/// `empirical` model: the power law per page (times a page-type scale), equal for every
/// state unless state weights are given (then split like the `nominal` model).
#[derive(Debug, Clone)]
pub struct EmpiricalModel {
    /// Constants.
    pub params: EmpiricalParams,
    /// Per page type multiplier (LSB first; last repeats).
    pub page_type_scale: Vec<f64>,
    rel: Vec<f64>,
    /// Largest relative weight.
    max_rel: f64,
    memo: PowerMemo,
}

impl EmpiricalModel {
    /// A model; `state_weights` by bit pattern (all equal = content-blind).
    pub fn new(params: EmpiricalParams, page_type_scale: Vec<f64>, state_weights: &[f64]) -> Self {
        let n = state_weights.len() as f64;
        let total: f64 = state_weights.iter().sum();
        EmpiricalModel {
            params,
            page_type_scale,
            rel: state_weights.iter().map(|w| n * w / total).collect(),
            max_rel: state_weights.iter().fold(0.0, |m: f64, w| m.max(n * w / total)),
            memo: PowerMemo {
                terms: Cell::new(((f64::NAN, f64::NAN), (0.0, 0.0))),
                reads: OnceCell::new(),
            },
        }
    }

    /// The law times the page type's scale: every state's error probability for uniform
    /// state weights.
    #[inline]
    fn base_rber(&self, ctx: &ErrorContext) -> f64 {
        self.law(ctx.pe_cycles, ctx.retention_s, ctx.reads_since_erase) * scale_of(&self.page_type_scale, ctx.page_type)
    }

    /// The power law (as [`EmpiricalParams::rber`], with memoised powers). Takes numbers,
    /// not the context: the read path has just stored the context field by field, and a
    /// wide load of two fields at once would wait for those stores to retire.
    fn law(&self, pe_cycles: f64, retention_s: f64, reads_since_erase: f64) -> f64 {
        let p = &self.params;
        let (pe, t, r) = p.clamp_inputs(pe_cycles, retention_s, reads_since_erase);
        let (wear_age, disturb) = match self.memo.terms.get() {
            (k, v) if k == (pe, t) => v,
            _ => {
                let v = p.terms(pe, t);
                self.memo.terms.set(((pe, t), v));
                v
            }
        };
        // Whole counts (the simulator's) come from the table; `as` truncates without a
        // libm call.
        let whole = r as u32;
        let r_q = if f64::from(whole) == r && (whole as usize) < READ_POWERS {
            let table = self
                .memo
                .reads
                .get_or_init(|| (0..READ_POWERS).map(|_| Cell::new(f64::NAN)).collect());
            let v = &table[whole as usize];
            if v.get().is_nan() {
                v.set(r.powf(p.q));
            }
            v.get()
        } else {
            r.powf(p.q)
        };
        p.combine(wear_age, disturb, r_q)
    }
}

impl ErrorModel for EmpiricalModel {
    fn name(&self) -> &'static str {
        "empirical"
    }

    fn n_states(&self) -> usize {
        self.rel.len()
    }

    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]) {
        let base = self.base_rber(ctx);
        for (o, r) in out.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
    }

    fn page_rber(&self, ctx: &ErrorContext) -> f64 {
        let base = self.base_rber(ctx);
        if ctx.hist.is_none() && base * self.max_rel <= 1.0 {
            // Uniform data: no state probability is capped, so they average to `base`
            // (the relative weights have mean 1).
            return (base * ctx.variation).clamp(0.0, RBER_CAP);
        }
        let mut probs = [0.0; MAX_STATES];
        let p = &mut probs[..self.rel.len()];
        for (o, r) in p.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
        weighted_page_rber(p, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_law_by_hand() {
        let p = EmpiricalParams::mlc_2y();
        // PE 3000, t = 0, R = 0: 8.34e-5 + 3.30e-11·3000^1.71.
        let hand = 8.34e-5 + 3.30e-11 * (1.71 * 3000f64.ln()).exp();
        assert!((p.rber(3000.0, 0.0, 0.0) - hand).abs() < 1e-15);
        // research/models.md sanity table: 1.1e-4 at PE 3000, t=0; 1.8e-4 at 1e4 reads.
        assert!((p.rber(3000.0, 0.0, 0.0) - 1.1e-4).abs() < 0.05e-4);
        assert!((p.rber(3000.0, 0.0, 1e4) - 1.8e-4).abs() < 0.05e-4);
        // Retention beyond 30 days is clamped to 30 days.
        assert_eq!(
            p.rber(3000.0, 365.0 * 86400.0, 0.0),
            p.rber(3000.0, 30.0 * 86400.0, 0.0)
        );
        let t = EmpiricalParams::tlc_72l();
        // Table: 72L TLC, PE 1000, 24 h → 3.0e-3; 720 h → 7.8e-3.
        assert!((t.rber(1000.0, 24.0 * 3600.0, 0.0) - 3.0e-3).abs() < 0.1e-3);
        assert!((t.rber(1000.0, 720.0 * 3600.0, 0.0) - 7.8e-3).abs() < 0.1e-3);
        let m = EmpiricalModel::new(t.clone(), vec![1.0, 1.2, 1.5], &[1.0; 8]);
        let ctx = ErrorContext {
            pe_cycles: 1000.0,
            retention_s: 24.0 * 3600.0,
            page_type: 2,
            ..Default::default()
        };
        assert!((m.page_rber(&ctx) - 1.5 * t.rber(1000.0, 86400.0, 0.0)).abs() < 1e-15);
        // The model's memoised powers give the sanity table's 1.8e-4 (PE 3000, 1e4 reads)
        // on a second read too, and read counts past the table agree with the law.
        let m = EmpiricalModel::new(p.clone(), vec![1.0], &[1.0; 4]);
        for reads in [1e4, 1e4, 1e5] {
            let ctx = ErrorContext {
                pe_cycles: 3000.0,
                reads_since_erase: reads,
                ..Default::default()
            };
            assert!((m.page_rber(&ctx) - p.rber(3000.0, 0.0, reads)).abs() < 1e-18);
        }
        assert!(
            (p.rber(3000.0, 0.0, 1e5) - (1.1e-4 + 6.26e-13 * 3000f64.powf(1.76) * 1e5f64.powf(0.47))).abs() < 0.05e-4
        );
    }
}
