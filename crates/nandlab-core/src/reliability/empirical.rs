//! The `empirical` error model's constants: the nine-parameter power law
//! `RBER = ε + α·PE^k + β·PE^m·t^n + γ·PE^p·R^q` (wear, retention, read disturb) with the
//! two public constant sets of research/models.md §2.1 and the `tlc-3d` set of tlc_3d.rs,
//! inputs clamped to the range the fits are usable in. The model is these four terms in a
//! [`TermStack`] (with a per-page-type scale and state weights).

use serde::{Deserialize, Serialize};

use super::model::ErrorContext;
use super::term_stack::TermStack;
use super::terms::{Constant, ReadDisturb, Retention, TermConfig, Wear};
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

    /// The law as a stack of terms (`reliability/terms/`): `constant` ε, `wear` α·PE^k,
    /// `retention` β·PE^m·t^n and `read_disturb` γ·PE^p·R^q, each clamped to the fit's
    /// range.
    pub fn terms(&self) -> Vec<TermConfig> {
        vec![
            TermConfig::Constant(Constant { eps: self.eps }),
            TermConfig::Wear(Wear::new(self.alpha, self.k, self.max_pe)),
            TermConfig::Retention(Retention::new(
                self.beta,
                self.m,
                self.n,
                self.time_unit_s,
                self.max_pe,
                self.max_time,
            )),
            TermConfig::ReadDisturb(ReadDisturb::new(
                self.gamma,
                self.p,
                self.q,
                self.max_pe,
                self.max_reads,
            )),
        ]
    }

    /// Checks the constants as the terms they make; errors name `{table}.{constant}`.
    pub fn validate(&self, table: &str) -> Result<()> {
        self.terms().iter().try_for_each(|t| t.policy().validate(table))
    }

    /// The power law at P/E `pe`, `retention_s` seconds and `reads` block reads (inputs
    /// clamped to the fit's range).
    pub fn rber(&self, pe: f64, retention_s: f64, reads: f64) -> f64 {
        let ctx = ErrorContext {
            pe_cycles: pe,
            retention_s,
            reads_since_erase: reads,
            ..Default::default()
        };
        TermStack::new("empirical", self.terms(), vec![1.0], &[1.0]).law(&ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::model::ErrorModel;

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
        let m = TermStack::new("empirical", t.terms(), vec![1.0, 1.2, 1.5], &[1.0; 8]);
        let ctx = ErrorContext {
            pe_cycles: 1000.0,
            retention_s: 24.0 * 3600.0,
            page_type: 2,
            ..Default::default()
        };
        assert!((m.page_rber(&ctx) - 1.5 * t.rber(1000.0, 86400.0, 0.0)).abs() < 1e-15);
        // The model's memoised powers give the sanity table's 1.8e-4 (PE 3000, 1e4 reads)
        // on a second read too, and read counts past the table agree with the law.
        let m = TermStack::new("empirical", p.terms(), vec![1.0], &[1.0; 4]);
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
