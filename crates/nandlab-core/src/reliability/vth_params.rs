//! Parameters of the threshold-voltage model ([`super::vth::VthModel`]): each level's
//! distribution right after programming, random telegraph noise, the retention shift,
//! cell-to-cell coupling and read disturb, with the published presets and their checks.
//! Re-exported by `vth`; split from it so that each file has one job.

use super::interference::{Coupling, ReadDisturb};
use crate::error::{NandError, Result};
use serde::{Deserialize, Serialize};

/// The pattern bit that page type `page_type` of a `bits`-bit cell reads: `bits − 1 −
/// page_type`, so the first-programmed (lower) page, type 0, reads the first character of
/// a state's pattern (see the module notes). The one place of nandlab's page-type
/// convention for Vth patterns; its own inverse.
pub fn pattern_bit_of_page_type(bits: usize, page_type: usize) -> usize {
    bits - 1 - page_type
}

/// Distribution of one Vth level right after programming (before noise and retention).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "dist", rename_all = "lowercase", deny_unknown_fields)]
pub enum LevelDist {
    /// `Normal(mean_v, sigma_v²)`, with optional power-law drift in P/E cycles:
    /// `mean = mean_v + mean_pe_coef·PE^mean_pe_exp`, `sigma = sigma_v + sigma_pe_coef·PE^sigma_pe_exp`.
    Gaussian {
        /// Mean (normalised volts).
        mean_v: f64,
        /// Standard deviation (normalised volts).
        sigma_v: f64,
        /// Coefficient of the P/E drift of the mean.
        #[serde(default)]
        mean_pe_coef: f64,
        /// Exponent of the P/E drift of the mean.
        #[serde(default)]
        mean_pe_exp: f64,
        /// Coefficient of the P/E growth of the width.
        #[serde(default)]
        sigma_pe_coef: f64,
        /// Exponent of the P/E growth of the width.
        #[serde(default)]
        sigma_pe_exp: f64,
    },
    /// ISPP with verify: `Uniform[verify_v, verify_v + delta_v_pp]`.
    Ispp {
        /// Verify voltage `V_p` of the level.
        verify_v: f64,
        /// ISPP step `ΔV_pp` (the width of the programmed window).
        delta_v_pp: f64,
    },
}

impl LevelDist {
    /// A Gaussian level without P/E drift.
    pub fn gaussian(mean_v: f64, sigma_v: f64) -> Self {
        LevelDist::Gaussian {
            mean_v,
            sigma_v,
            mean_pe_coef: 0.0,
            mean_pe_exp: 0.0,
            sigma_pe_coef: 0.0,
            sigma_pe_exp: 0.0,
        }
    }

    /// Nominal centre (mean of the fresh distribution).
    pub fn centre_v(&self) -> f64 {
        match *self {
            LevelDist::Gaussian { mean_v, .. } => mean_v,
            LevelDist::Ispp { verify_v, delta_v_pp } => verify_v + 0.5 * delta_v_pp,
        }
    }
}

/// Random telegraph noise: `Laplace(0, λ)` with `λ = k_lambda · PE^pe_exp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RtnParams {
    /// `K_λ` (Dong: 2.5e-4 in the public MATLAB code; 4e-4 in some papers).
    pub k_lambda: f64,
    /// Exponent of P/E (0.5).
    pub pe_exp: f64,
}

/// Retention (charge loss) shift, Dong–Xie–Zhang form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionParams {
    /// `K_s` (0.38).
    pub ks: f64,
    /// `K_d`, mean coefficient (4e-4).
    pub kd: f64,
    /// `K_m`, variance coefficient (4e-6).
    pub km: f64,
    /// `t₀` in seconds (3600).
    pub t0_s: f64,
    /// Exponent of P/E in the mean (0.5).
    pub mean_pe_exp: f64,
    /// Exponent of P/E in the variance (0.6).
    pub var_pe_exp: f64,
}

/// Parameters of a [`VthModel`](super::vth::VthModel).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VthParams {
    /// Bits per cell (1 … 4).
    pub bits_per_cell: u8,
    /// Bit pattern of each level, lowest Vth first (a permutation of `0 .. 2^bits`).
    pub level_patterns: Vec<u8>,
    /// Distribution of each level, lowest first.
    pub levels: Vec<LevelDist>,
    /// Random telegraph noise; `None` = off.
    #[serde(default)]
    pub rtn: Option<RtnParams>,
    /// Retention shift; `None` = off.
    #[serde(default)]
    pub retention: Option<RetentionParams>,
    /// Fixed read reference voltages (`levels − 1`, increasing); `None` = the optimal
    /// references for the current P/E and retention (ideal read-retry).
    #[serde(default)]
    pub read_refs_v: Option<Vec<f64>>,
    /// Cell-to-cell coupling from random neighbours (seed 002 Eq. 3); `None` = off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coupling: Option<Coupling>,
    /// Read disturb under the pass voltage (seed 002 Eq. 5); `None` = off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_disturb: Option<ReadDisturb>,
}

impl VthParams {
    /// Dong–Xie–Zhang MLC: erased `N(1.4, 0.35²)`, ISPP levels `V_p = 2.6, 3.2, 3.93`,
    /// `ΔV_pp = 0.2`, RTN `K_λ = 2.5e-4`, retention `K_s = 0.38, K_d = 4e-4, K_m = 4e-6,
    /// t₀ = 1 h`, Gray order 11 < 10 < 00 < 01, optimal read references
    /// (research/models.md §1.2; `V_p` and `ΔV_pp` are tagged [M] there).
    pub fn dong_mlc() -> Self {
        VthParams {
            bits_per_cell: 2,
            level_patterns: vec![0b11, 0b10, 0b00, 0b01],
            levels: vec![
                LevelDist::gaussian(1.4, 0.35),
                LevelDist::Ispp {
                    verify_v: 2.6,
                    delta_v_pp: 0.2,
                },
                LevelDist::Ispp {
                    verify_v: 3.2,
                    delta_v_pp: 0.2,
                },
                LevelDist::Ispp {
                    verify_v: 3.93,
                    delta_v_pp: 0.2,
                },
            ],
            rtn: Some(RtnParams {
                k_lambda: 2.5e-4,
                pe_exp: 0.5,
            }),
            retention: Some(RetentionParams {
                ks: 0.38,
                kd: 4e-4,
                km: 4e-6,
                t0_s: 3600.0,
                mean_pe_exp: 0.5,
                var_pe_exp: 0.6,
            }),
            read_refs_v: None,
            coupling: None,
            read_disturb: None,
        }
    }

    /// Seed 002's retention-free MLC (§5.2, Fig. 11b), all levels Gaussian, Gray order.
    /// The paper's Fig. 11a table is not in the text; this preset is rebuilt from §5.2:
    /// distances `Δ₀ = 1.40`, `Δ₁ = Δ₄ = Δ₅ = 0.36`, `Δ₂ = Δ₃ = 0.34` from each mean to its
    /// neighbouring reference, and widths solving Eq. 10–13 at the RBER target 4.5e-4:
    /// `Q(Δ₀/δ₀) = 4.5e-4` ⇒ `δ₀ = 1.40/3.3202 = 0.4217`, `δ₁..₃ = 0.36/3.3202 = 0.1084`.
    /// Erased mean `μ'₀ = 1.4` (an offset; only distances matter).
    pub fn wang_retention_free_mlc() -> Self {
        let (d0, d1, d2, d3, d4, d5) = (1.40, 0.36, 0.34, 0.34, 0.36, 0.36);
        let mu0 = 1.4;
        let v0 = mu0 + d0;
        let mu1 = v0 + d1;
        let v1 = mu1 + d2;
        let mu2 = v1 + d3;
        let v2 = mu2 + d4;
        let mu3 = v2 + d5;
        let (s0, sp) = (0.4217, 0.1084);
        VthParams {
            bits_per_cell: 2,
            level_patterns: vec![0b11, 0b10, 0b00, 0b01],
            levels: vec![
                LevelDist::gaussian(mu0, s0),
                LevelDist::gaussian(mu1, sp),
                LevelDist::gaussian(mu2, sp),
                LevelDist::gaussian(mu3, sp),
            ],
            rtn: None,
            retention: None,
            read_refs_v: Some(vec![v0, v1, v2]),
            coupling: None,
            read_disturb: None,
        }
    }

    /// Checks the parameters; `key` prefixes config keys in errors.
    pub fn validate(&self, key: &str) -> Result<()> {
        let n = 1usize << self.bits_per_cell.clamp(1, 4);
        if !(1..=4).contains(&self.bits_per_cell) {
            return Err(NandError::config(format!("{key}.bits_per_cell"), "must be 1 … 4"));
        }
        let mut seen = vec![false; n];
        if self.level_patterns.len() != n
            || self
                .level_patterns
                .iter()
                .any(|&p| (p as usize) >= n || std::mem::replace(&mut seen[p as usize], true))
        {
            return Err(NandError::config(
                format!("{key}.level_patterns"),
                format!("must be a permutation of 0 … {} (one pattern per level)", n - 1),
            ));
        }
        if self.levels.len() != n {
            return Err(NandError::config(format!("{key}.levels"), format!("needs {n} levels")));
        }
        for (i, l) in self.levels.iter().enumerate() {
            let ok = match *l {
                LevelDist::Gaussian { mean_v, sigma_v, .. } => mean_v.is_finite() && sigma_v > 0.0,
                LevelDist::Ispp { verify_v, delta_v_pp } => verify_v.is_finite() && delta_v_pp > 0.0,
            };
            if !ok {
                return Err(NandError::config(
                    format!("{key}.levels[{i}]"),
                    "needs a finite centre and a width > 0",
                ));
            }
        }
        if self.levels.windows(2).any(|w| w[0].centre_v() >= w[1].centre_v()) {
            return Err(NandError::config(
                format!("{key}.levels"),
                "centres must increase with the level",
            ));
        }
        if let Some(r) = &self.read_refs_v {
            if r.len() != n - 1 || r.windows(2).any(|w| w[0] >= w[1]) || r.iter().any(|v| !v.is_finite()) {
                return Err(NandError::config(
                    format!("{key}.read_refs_v"),
                    format!("needs {} increasing values", n - 1),
                ));
            }
        }
        if let Some(t) = &self.rtn {
            if !(t.k_lambda >= 0.0 && t.pe_exp.is_finite()) {
                return Err(NandError::config(format!("{key}.rtn"), "k_lambda must be >= 0"));
            }
        }
        if let Some(c) = &self.coupling {
            c.validate(&format!("{key}.coupling"))?;
        }
        if let Some(r) = &self.read_disturb {
            r.validate(&format!("{key}.read_disturb"))?;
        }
        if let Some(r) = &self.retention {
            if !(r.ks >= 0.0 && r.kd >= 0.0 && r.km >= 0.0 && r.t0_s > 0.0) {
                return Err(NandError::config(
                    format!("{key}.retention"),
                    "coefficients must be >= 0 and t0_s > 0",
                ));
            }
        }
        Ok(())
    }
}
