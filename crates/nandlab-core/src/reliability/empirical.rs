//! The `empirical` error model: the nine-parameter power law
//! `RBER = ε + α·PE^k + β·PE^m·t^n + γ·PE^p·R^q` (wear, retention, read disturb) with the
//! two public constant sets of research/models.md §2.1, inputs clamped to the range the
//! fits are usable in, and a per-page-type scale.

use serde::{Deserialize, Serialize};

use super::model::{ErrorContext, ErrorModel, RBER_CAP};
use super::nominal::scale_of;
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

    /// A preset by name (`mlc-2y`, `tlc-72l`).
    pub fn preset(name: &str) -> Result<Self> {
        match name {
            "mlc-2y" => Ok(Self::mlc_2y()),
            "tlc-72l" => Ok(Self::tlc_72l()),
            _ => Err(NandError::config(
                "reliability.empirical_preset",
                format!("unknown `{name}` (mlc-2y | tlc-72l)"),
            )),
        }
    }

    /// The power law at clamped inputs (`t` in seconds).
    pub fn rber(&self, pe: f64, retention_s: f64, reads: f64) -> f64 {
        let pe = pe.clamp(0.0, self.max_pe);
        let t = (retention_s / self.time_unit_s).clamp(0.0, self.max_time);
        let r = reads.clamp(0.0, self.max_reads);
        let [pe_k, pe_m, pe_p] = self.pe_powers(pe);
        let v = self.eps
            + self.alpha * pe_k
            + self.beta * pe_m * self.time_power(t)
            + self.gamma * pe_p * self.read_power(r);
        v.clamp(0.0, RBER_CAP)
    }

    /// `t^n`, remembered for the last (t, n): the pages of one request, written before the
    /// run, share their age.
    fn time_power(&self, t: f64) -> f64 {
        thread_local! {
            static LAST: std::cell::Cell<([f64; 2], f64)> = const { std::cell::Cell::new(([f64::NAN; 2], 0.0)) };
        }
        let key = [t, self.n];
        let (k, v) = LAST.get();
        if k == key {
            return v;
        }
        let v = t.powf(self.n);
        LAST.set((key, v));
        v
    }

    /// `R^q` for a whole read count below 65,536 from a table (built once per exponent),
    /// else computed.
    fn read_power(&self, r: f64) -> f64 {
        const TABLE: usize = 1 << 16;
        if r.fract() != 0.0 || r >= TABLE as f64 {
            return r.powf(self.q);
        }
        thread_local! {
            static POWERS: std::cell::RefCell<(f64, Vec<f64>)> = const { std::cell::RefCell::new((f64::NAN, Vec::new())) };
        }
        POWERS.with_borrow_mut(|(q, table)| {
            if *q != self.q {
                *q = self.q;
                *table = (0..TABLE).map(|i| (i as f64).powf(self.q)).collect();
            }
            table[r as usize]
        })
    }

    /// `[PE^k, PE^m, PE^p]`, remembered for the last (PE, exponents): wear changes only at
    /// an erase, so consecutive reads mostly share it and skip three `powf`s.
    fn pe_powers(&self, pe: f64) -> [f64; 3] {
        thread_local! {
            static LAST: std::cell::Cell<([f64; 4], [f64; 3])> = const { std::cell::Cell::new(([f64::NAN; 4], [0.0; 3])) };
        }
        let key = [pe, self.k, self.m, self.p];
        let (k, v) = LAST.get();
        if k == key {
            return v;
        }
        let v = [pe.powf(self.k), pe.powf(self.m), pe.powf(self.p)];
        LAST.set((key, v));
        v
    }
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
        }
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
        let base = self.params.rber(ctx.pe_cycles, ctx.retention_s, ctx.reads_since_erase)
            * scale_of(&self.page_type_scale, ctx.page_type);
        for (o, r) in out.iter_mut().zip(&self.rel) {
            *o = (base * r).min(1.0);
        }
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
    }
}
