//! The `[reliability]` config section and the error model it builds.

use serde::{Deserialize, Serialize};

use super::chip_profile::ChipProfile;
use super::empirical::{EmpiricalModel, EmpiricalParams};
use super::errors::ErrorDraw;
use super::model::{ErrorModel, NoErrors};
use super::nominal::{NominalModel, BITFLIP_MLC_WEIGHTS};
use super::variation::Variation;
use super::vth::{VthModel, VthParams};
use super::vth_errors::VthErrorModel;
use crate::error::{NandError, Result};

/// Which error model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// No raw errors.
    #[default]
    None,
    /// Nominal RBER split over states by weights.
    Nominal,
    /// Threshold-voltage distributions.
    Vth,
    /// Power-law fit in P/E, retention and reads.
    Empirical,
}

/// Order of the bit patterns by threshold voltage (lowest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LevelOrder {
    /// Gray 11 < 10 < 00 < 01 (seed 002, Dong et al.).
    #[default]
    Gray,
    /// 11 < 10 < 01 < 00 (seed 000 and Cai et al. DATE'12: '00' holds the most charge).
    Cai,
}

impl LevelOrder {
    /// MLC bit pattern of each level, lowest first.
    pub fn mlc_patterns(self) -> Vec<u8> {
        match self {
            LevelOrder::Gray => vec![0b11, 0b10, 0b00, 0b01],
            LevelOrder::Cai => vec![0b11, 0b10, 0b01, 0b00],
        }
    }
}

/// The `[reliability]` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReliabilityConfig {
    /// `none` | `nominal` | `vth` | `empirical`.
    pub model: ModelKind,
    /// `stochastic` (Binomial errors per codeword) | `expected` (mean errors).
    pub error_draw: ErrorDraw,
    /// `nominal`: RBER of a page of uniformly random data.
    pub nominal_rber: f64,
    /// `nominal`/`empirical`: relative error-proneness of each state by bit pattern
    /// (MLC '00','01','10','11'); empty = seed 000's 0.46/0.44/0.05/0.05 for
    /// `nominal` (MLC only) and equal weights for `empirical`.
    pub state_weights: Vec<f64>,
    /// `nominal`/`empirical`: RBER multiplier per page type, LSB first (last repeats).
    pub page_type_scale: Vec<f64>,
    /// `vth`: preset (`dong-mlc` | `wang-retention-free-mlc` | `wang-standard-mlc`).
    pub vth_preset: String,
    /// `vth`: full parameters replacing the preset.
    pub vth: Option<VthParams>,
    /// `vth`: level order applied to the preset (`gray` | `cai`).
    pub level_order: LevelOrder,
    /// `vth`: P/E spacing of the cached table.
    pub vth_pe_step: f64,
    /// `vth`: table points per decade of retention seconds.
    pub vth_points_per_decade: f64,
    /// `empirical`: preset (`mlc-2y` | `tlc-72l` | `tlc-3d`).
    pub empirical_preset: String,
    /// `empirical`: full constants replacing the preset.
    pub empirical: Option<EmpiricalParams>,
    /// σ of ln(RBER factor) across chips (0 = no variation).
    pub chip_sigma: f64,
    /// σ of ln(RBER factor) across blocks.
    pub block_sigma: f64,
    /// Measured chips (seed 001 Fig. 9), replacing `chip_sigma` / `block_sigma`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chip_profile: Option<ChipProfile>,
}

impl Default for ReliabilityConfig {
    fn default() -> Self {
        ReliabilityConfig {
            model: ModelKind::None,
            error_draw: ErrorDraw::Stochastic,
            nominal_rber: 4e-3,
            state_weights: Vec::new(),
            page_type_scale: vec![1.0],
            vth_preset: "dong-mlc".into(),
            vth: None,
            level_order: LevelOrder::Gray,
            vth_pe_step: 100.0,
            vth_points_per_decade: 8.0,
            empirical_preset: "mlc-2y".into(),
            empirical: None,
            chip_sigma: 0.0,
            block_sigma: 0.0,
            chip_profile: None,
        }
    }
}

fn key(k: &str) -> String {
    format!("reliability.{k}")
}

impl ReliabilityConfig {
    /// Checks every key for a device with `bits_per_cell` bits per cell.
    pub fn validate(&self, bits_per_cell: u8) -> Result<()> {
        let n = 1usize << bits_per_cell;
        if !(self.nominal_rber.is_finite() && (0.0..=0.5).contains(&self.nominal_rber)) {
            return Err(NandError::config(key("nominal_rber"), "must be between 0 and 0.5"));
        }
        if !self.state_weights.is_empty()
            && (self.state_weights.len() != n
                || self.state_weights.iter().any(|w| !(w.is_finite() && *w >= 0.0))
                || self.state_weights.iter().sum::<f64>() <= 0.0)
        {
            return Err(NandError::config(
                key("state_weights"),
                format!("needs {n} non-negative weights, not all 0"),
            ));
        }
        if self.model == ModelKind::Nominal && self.state_weights.is_empty() && n != 4 {
            return Err(NandError::config(
                key("state_weights"),
                "the default weights are MLC only; give one per state",
            ));
        }
        if self.page_type_scale.iter().any(|s| !(s.is_finite() && *s >= 0.0)) || self.page_type_scale.len() > 4 {
            return Err(NandError::config(
                key("page_type_scale"),
                "needs up to 4 non-negative values",
            ));
        }
        if !(self.chip_sigma >= 0.0 && self.chip_sigma.is_finite()) {
            return Err(NandError::config(key("chip_sigma"), "must be >= 0"));
        }
        if !(self.block_sigma >= 0.0 && self.block_sigma.is_finite()) {
            return Err(NandError::config(key("block_sigma"), "must be >= 0"));
        }
        if let Some(p) = &self.chip_profile {
            p.validate(&key("chip_profile"))?;
            if self.chip_sigma > 0.0 || self.block_sigma > 0.0 {
                return Err(NandError::config(
                    key("chip_profile"),
                    "replaces chip_sigma and block_sigma; leave those at 0",
                ));
            }
        }
        if self.vth_pe_step.is_nan() || self.vth_pe_step < 1.0 {
            return Err(NandError::config(key("vth_pe_step"), "must be >= 1"));
        }
        if self.vth_points_per_decade.is_nan() || self.vth_points_per_decade < 1.0 {
            return Err(NandError::config(key("vth_points_per_decade"), "must be >= 1"));
        }
        match self.model {
            ModelKind::Vth => {
                let p = self.vth_params()?;
                p.validate("reliability.vth")?;
                if usize::from(p.bits_per_cell) != usize::from(bits_per_cell) {
                    return Err(NandError::config(
                        key("vth"),
                        "bits_per_cell differs from the device's cell type",
                    ));
                }
            }
            ModelKind::Empirical => {
                self.empirical_params()?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The Vth parameters: `vth` if given, else the preset with `level_order` applied.
    pub fn vth_params(&self) -> Result<VthParams> {
        if let Some(p) = &self.vth {
            return Ok(p.clone());
        }
        let mut p = match self.vth_preset.as_str() {
            "dong-mlc" => VthParams::dong_mlc(),
            "wang-retention-free-mlc" => VthParams::wang_retention_free_mlc(),
            "wang-standard-mlc" => super::tvr::VthLayout::wang_standard().to_vth_params(),
            other => {
                return Err(NandError::config(
                    key("vth_preset"),
                    format!("unknown `{other}` (dong-mlc | wang-retention-free-mlc | wang-standard-mlc)"),
                ))
            }
        };
        p.level_patterns = self.level_order.mlc_patterns();
        Ok(p)
    }

    /// The empirical constants: `empirical` if given, else the preset.
    pub fn empirical_params(&self) -> Result<EmpiricalParams> {
        match &self.empirical {
            Some(p) => Ok(p.clone()),
            None => EmpiricalParams::preset(&self.empirical_preset),
        }
    }

    /// Chip/block variation for run seed `seed`.
    pub fn variation(&self, seed: u64) -> Variation {
        Variation {
            chip_sigma: self.chip_sigma,
            block_sigma: self.block_sigma,
            seed,
            profile: self.chip_profile.clone(),
        }
    }

    /// Builds the error model for a device with `bits_per_cell` bits per cell.
    pub fn build(&self, bits_per_cell: u8) -> Result<Box<dyn ErrorModel>> {
        self.validate(bits_per_cell)?;
        let n = 1usize << bits_per_cell;
        let weights = |default: &[f64]| {
            if self.state_weights.is_empty() {
                default.to_vec()
            } else {
                self.state_weights.clone()
            }
        };
        Ok(match self.model {
            ModelKind::None => Box::new(NoErrors { n_states: n }),
            ModelKind::Nominal => Box::new(NominalModel::new(
                self.nominal_rber,
                &weights(&BITFLIP_MLC_WEIGHTS),
                self.page_type_scale.clone(),
            )),
            ModelKind::Empirical => Box::new(EmpiricalModel::new(
                self.empirical_params()?,
                self.page_type_scale.clone(),
                &weights(&vec![1.0; n]),
            )),
            ModelKind::Vth => Box::new(VthErrorModel::new(
                VthModel::new(self.vth_params()?)?,
                self.vth_pe_step,
                self.vth_points_per_decade,
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_builds() {
        let c: ReliabilityConfig = toml::from_str("model = \"nominal\"\nnominal_rber = 6e-3\n").unwrap();
        let m = c.build(2).unwrap();
        assert_eq!(m.name(), "nominal");
        assert_eq!(ReliabilityConfig::default().build(2).unwrap().name(), "none");
        let c: ReliabilityConfig = toml::from_str("model = \"empirical\"\nempirical_preset = \"tlc-72l\"").unwrap();
        assert_eq!(c.build(3).unwrap().name(), "empirical");
        let c: ReliabilityConfig = toml::from_str("model = \"vth\"\nlevel_order = \"cai\"").unwrap();
        assert_eq!(c.vth_params().unwrap().level_patterns, vec![3, 2, 1, 0]);
        assert_eq!(c.build(2).unwrap().name(), "vth");
    }

    #[test]
    fn errors_name_the_key() {
        assert!(toml::from_str::<ReliabilityConfig>("modle = \"vth\"").is_err());
        let c = ReliabilityConfig {
            nominal_rber: 0.7,
            ..Default::default()
        };
        assert!(c
            .validate(2)
            .unwrap_err()
            .to_string()
            .contains("reliability.nominal_rber"));
        let c = ReliabilityConfig {
            model: ModelKind::Empirical,
            empirical_preset: "x".into(),
            ..Default::default()
        };
        assert!(c
            .validate(2)
            .unwrap_err()
            .to_string()
            .contains("reliability.empirical_preset"));
        let c = ReliabilityConfig {
            state_weights: vec![1.0; 3],
            ..Default::default()
        };
        assert!(c
            .validate(2)
            .unwrap_err()
            .to_string()
            .contains("reliability.state_weights"));
        let c = ReliabilityConfig {
            model: ModelKind::Vth,
            ..Default::default()
        };
        assert!(c.validate(3).unwrap_err().to_string().contains("reliability.vth"));
        let c: ReliabilityConfig =
            toml::from_str("chip_sigma = 0.1\n[chip_profile]\nrber_factor = [1.0]\nblock_sigma = [0.0]").unwrap();
        assert!(c
            .validate(2)
            .unwrap_err()
            .to_string()
            .contains("reliability.chip_profile"));
        assert!(toml::from_str::<ReliabilityConfig>("[chip_profile]\nrber_factor = [1.0]\nsigma = [0.0]").is_err());
    }
}
