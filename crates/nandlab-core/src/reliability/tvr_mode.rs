//! The TVR device mode of seed 002 §5 (Wang, Xie, Zhou, ICS'14): `[tvr] enabled = true`
//! programs the whole device to the retention-free Vth layout (Fig. 11b) that TVR
//! solves from the standard one (Fig. 11a, [`VthLayout::wang_standard`]) at the RBER
//! limit `rber_limit` (Eq. 10–13). What changes:
//! - **program time**: each page type's time is scaled by its ISPP steps after / before
//!   (Eq. 14 with β = 1.14, ΔV_pp = 0.2 V: 002's MSB page, type 0, 22 → 11; its LSB
//!   page, type 1, 16 → 8), so `t_step` stays the device's and whatever `[timing]` (and
//!   `[timing.pe_time]`) gives is halved;
//! - **errors**: with `reliability.model = "vth"` and `vth_preset = "wang-standard-mlc"`
//!   (the standard device), the model reads the reduced layout instead;
//! - **region** (`[tvr.region]`, [`super::tvr_region`]): the whole device, or only the
//!   writes tagged short-lived (by stream or logical page range); the rest is programmed
//!   and read as the standard device;
//! - **retention**: the reduced layout has no retention margin (§5.1); neither layout
//!   models retention loss (both are 002's retention-free Gaussians), so TVR data is
//!   meant to be rewritten within `retention_days`; older reads are counted as at risk
//!   ([`super::tvr_data`]).

use crate::metrics::summary::{LayoutSummary, MaxPe, ProgramSteps, TvrModelSummary};
use serde::{Deserialize, Serialize};

use super::config::{ModelKind, ReliabilityConfig};
use super::interference::{pass_voltage_drop_v, Coupling, CHO_DELTA_VTH_MAX_V};
use super::ispp::Ispp;
use super::model::ErrorModel;
use super::tvr::{VthLayout, WangPage, WANG_RBER_LIMIT};
use super::tvr_region::TvrRegionConfig;
use super::tvr_terms::terms_summary;
use super::vth_reliability::{err_limit_from_rber, VthReliabilityFit, WANG_PAGE_DATA_BITS};
use crate::error::{NandError, Result};

/// The error model of TVR pages in a region smaller than the device.
pub type TvrPagesModel = Box<dyn ErrorModel>;

/// The standard preset TVR reduces.
const STANDARD_PRESET: &str = "wang-standard-mlc";

/// `[tvr]`: the TVR device mode (off by default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TvrConfig {
    /// Program the device to the reduced layout.
    pub enabled: bool,
    /// RBER each page type may reach in the reduced layout (002 §5.2: 4.5e-4, for a UBER
    /// of 1e-16 after Liu et al. [17]).
    pub rber_limit: f64,
    /// Retention budget of TVR data, days: reads of older TVR data are counted as at risk
    /// (002 §5.1 after Liu et al. [17]: 49–99 % of writes need less than a week).
    pub retention_days: f64,
    /// Which writes are TVR data.
    pub region: TvrRegionConfig,
}

impl Default for TvrConfig {
    fn default() -> Self {
        TvrConfig {
            enabled: false,
            rber_limit: WANG_RBER_LIMIT,
            retention_days: 7.0,
            region: TvrRegionConfig::default(),
        }
    }
}

impl TvrConfig {
    /// Whether the section is as by default (then it is left out of the resolved config).
    pub fn is_default(&self) -> bool {
        *self == TvrConfig::default()
    }

    /// The standard layout and the reduced one at `rber_limit`.
    pub fn layouts(&self) -> Result<(VthLayout, VthLayout)> {
        // Δ > 0 needs each MSB tail below 1/4 (Eq. 10 at Eq. 12), the tighter bound.
        if !(self.rber_limit > 0.0 && self.rber_limit < 0.25) {
            return Err(NandError::config("tvr.rber_limit", "must be between 0 and 0.25"));
        }
        let std = VthLayout::wang_standard();
        let tvr = std.retention_free(self.rber_limit)?;
        Ok((std, tvr))
    }

    /// ISPP steps (after, before) per page type for a device with `bits` bits per cell;
    /// empty when TVR is off.
    pub fn program_steps(&self, bits: usize) -> Result<Vec<(u32, u32)>> {
        if !self.enabled {
            return Ok(Vec::new());
        }
        if !(self.retention_days.is_finite() && self.retention_days > 0.0) {
            return Err(NandError::config("tvr.retention_days", "must be a number of days > 0"));
        }
        self.region.policy().validate("tvr.region")?;
        if bits != 2 {
            return Err(NandError::config(
                "tvr.enabled",
                format!("TVR is modelled for 2-bit MLC (seed 002); this device has {bits} bits per cell"),
            ));
        }
        let (std, tvr) = self.layouts()?;
        let ispp = Ispp::wang();
        (0..bits)
            .map(|t| {
                let p = WangPage::of_page_type(t);
                Ok((ispp.steps(tvr.page_rise_v(p))?, ispp.steps(std.page_rise_v(p))?))
            })
            .collect()
    }

    /// The `[reliability]` section the device runs with: the reduced layout in place of
    /// the standard preset when TVR is on.
    pub fn reliability(&self, r: &ReliabilityConfig) -> Result<ReliabilityConfig> {
        if !self.enabled || r.model == ModelKind::None {
            return Ok(r.clone());
        }
        if r.model != ModelKind::Vth || r.vth.is_some() || r.vth_preset != STANDARD_PRESET {
            return Err(NandError::config(
                "tvr.enabled",
                format!(
                    "TVR reduces seed 002's standard Vth layout: set reliability.model = \"vth\" with \
                     vth_preset = \"{STANDARD_PRESET}\" and no reliability.vth (or model = \"none\")"
                ),
            ));
        }
        let (_, tvr) = self.layouts()?;
        let mut params = tvr.to_vth_params();
        params.level_patterns = r.level_order.mlc_patterns();
        Ok(ReliabilityConfig {
            vth: Some(params),
            ..r.clone()
        })
    }

    /// The error models of a device with `bits` bits per cell: the one most pages are read
    /// with, and the TVR pages' own when they differ (a region smaller than the device).
    pub fn error_models(
        &self,
        r: &ReliabilityConfig,
        bits: u8,
    ) -> Result<(Box<dyn ErrorModel>, Option<TvrPagesModel>)> {
        let reduced = self.reliability(r)?.build(bits)?;
        if self.enabled && !self.region.policy().whole_device() {
            return Ok((r.build(bits)?, Some(reduced)));
        }
        Ok((reduced, None))
    }

    /// The `tvr` section of a run summary: both layouts, the distances Δ₀…Δ₅, ISPP steps,
    /// program speed-up (§5.3), Eq. 8's P/E limits (§5.4), the coupling reduction
    /// (Eq. 4) and, when `r` configures the `vth` model's Eq. 3/5 terms, the page RBERs
    /// they give each layout (`terms`, [`super::tvr_terms`]).
    pub fn summary(&self, r: &ReliabilityConfig) -> Result<TvrModelSummary> {
        let (std, tvr) = self.layouts()?;
        let layout = |l: &VthLayout| LayoutSummary {
            means_v: l.means_v,
            sigmas_v: l.sigmas_v,
            read_refs_v: l.read_refs_v,
            mean_vth_v: l.mean_vth_v(),
            rber_msb_page: l.page_rber(WangPage::Msb),
            rber_lsb_page: l.page_rber(WangPage::Lsb),
        };
        let ispp = Ispp::wang();
        let steps = |l: &VthLayout, p| ispp.steps(l.page_rise_v(p));
        let (msb, lsb) = (WangPage::Msb, WangPage::Lsb);
        let before = [steps(&std, msb)?, steps(&std, lsb)?];
        let after = [steps(&tvr, msb)?, steps(&tvr, lsb)?];
        let fit = VthReliabilityFit::wang();
        let limit = err_limit_from_rber(self.rber_limit, WANG_PAGE_DATA_BITS);
        let (pe_std, pe_tvr) = (fit.layout_max_pe(&std, limit)?, fit.layout_max_pe(&tvr, limit)?);
        let c = Coupling::cho();
        let terms = if r.model == ModelKind::Vth {
            terms_summary(&r.vth_params()?, &self.reliability(r)?.vth_params()?)?
        } else {
            None
        };
        Ok(TvrModelSummary {
            rber_limit: self.rber_limit,
            standard: layout(&std),
            reduced: layout(&tvr),
            deltas_v: tvr.deltas().0,
            program_steps_msb: ProgramSteps {
                before: before[0],
                after: after[0],
            },
            program_steps_lsb: ProgramSteps {
                before: before[1],
                after: after[1],
            },
            program_speedup: 1.0 - f64::from(after[0] + after[1]) / f64::from(before[0] + before[1]),
            err_limit_cell_errors: limit,
            max_pe_1e5: MaxPe {
                standard: pe_std,
                reduced: pe_tvr,
            },
            lifetime_gain: pe_tvr / pe_std - 1.0,
            coupling_reduction_cho_2v: c.worst_shift_reduction(CHO_DELTA_VTH_MAX_V, CHO_DELTA_VTH_MAX_V - 2.0),
            coupling_reduction_layouts: c.layout_shift_reduction(&std, &tvr),
            pass_voltage_drop_v: pass_voltage_drop_v(&std, &tvr),
            terms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §5.3: MSB (type 0, programmed first) 22 → 11 steps, LSB (type 1) 16 → 8.
    #[test]
    fn steps_per_page_type() {
        let on = TvrConfig {
            enabled: true,
            ..TvrConfig::default()
        };
        assert_eq!(on.program_steps(2).unwrap(), vec![(11, 22), (8, 16)]);
        assert!(TvrConfig::default().program_steps(2).unwrap().is_empty());
        let e = on.program_steps(3).unwrap_err().to_string();
        assert!(e.contains("tvr.enabled"), "{e}");
    }

    /// The reduced layout replaces the standard preset; both pages then sit at the limit
    /// (Eq. 10–13 by construction) where the standard layout is below 1e-9.
    #[test]
    fn reliability_reads_the_reduced_layout() {
        use crate::reliability::VthModel;
        let on = TvrConfig {
            enabled: true,
            ..TvrConfig::default()
        };
        let std = ReliabilityConfig {
            model: ModelKind::Vth,
            vth_preset: STANDARD_PRESET.into(),
            ..ReliabilityConfig::default()
        };
        let r = on.reliability(&std).unwrap();
        let m = VthModel::new(r.vth_params().unwrap()).unwrap();
        let lsb = m.page_rber(WangPage::Lsb.pattern_bit(), None, 0.0, 0.0);
        assert!((lsb / WANG_RBER_LIMIT - 1.0).abs() < 0.01, "{lsb}");
        let m = VthModel::new(std.vth_params().unwrap()).unwrap();
        assert!(m.page_rber(WangPage::Lsb.pattern_bit(), None, 0.0, 0.0) < 1e-9);
        let other = ReliabilityConfig {
            model: ModelKind::Vth,
            ..ReliabilityConfig::default()
        };
        let e = on.reliability(&other).unwrap_err().to_string();
        assert!(e.contains("tvr.enabled"), "{e}");
        let bad = TvrConfig { rber_limit: 0.3, ..on };
        assert!(bad.layouts().unwrap_err().to_string().contains("tvr.rber_limit"));
    }
}
