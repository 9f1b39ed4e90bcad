//! The `[reliability]` config section and the error model it builds.

use serde::{Deserialize, Serialize};

use super::chip_profile::ChipProfile;

/// Largest log-normal chip or block spread accepted (see `validate`).
pub const MAX_SIGMA: f64 = 3.0;
use super::empirical::EmpiricalParams;
use super::interference::{Coupling, ReadDisturb};
use super::model::{ErrorModel, NoErrors};
use super::nominal::{NominalModel, BITFLIP_MLC_WEIGHTS};
use super::term_stack::TermStack;
use super::terms::TermConfig;
use super::variation::Variation;
use super::vth::{VthModel, VthParams};
use super::vth_errors::VthErrorModel;
use super::vth_table::{VthTable, DEFAULT_POINTS_PER_DECADE, DEFAULT_SQRT_PE_STEP};

/// Most nodes a `vth` table may have (each a few dozen bytes until filled).
pub const MAX_VTH_TABLE_NODES: usize = 2_000_000;
use crate::ecc::ErrorDraw;
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
    /// Power-law fit in P/E, retention and reads: its four terms, then `terms`.
    Empirical,
    /// The `terms` listed, summed.
    Terms,
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
    /// `none` | `nominal` | `vth` | `empirical` | `terms`.
    pub model: ModelKind,
    /// `stochastic` (Binomial errors per codeword) | `expected` (mean errors).
    pub error_draw: ErrorDraw,
    /// `nominal`: RBER of a page of uniformly random data.
    pub nominal_rber: f64,
    /// `nominal`/`empirical`/`terms`: relative error-proneness of each state by bit pattern
    /// (MLC '00','01','10','11'); empty = seed 000's 0.46/0.44/0.05/0.05 for
    /// `nominal` (MLC only) and equal weights for `empirical` and `terms`.
    pub state_weights: Vec<f64>,
    /// `nominal`/`empirical`/`terms`: RBER multiplier per page type, LSB first (last repeats).
    pub page_type_scale: Vec<f64>,
    /// `vth`: preset (`dong-mlc` | `wang-retention-free-mlc` | `wang-standard-mlc`).
    pub vth_preset: String,
    /// `vth`: full parameters replacing the preset.
    pub vth: Option<VthParams>,
    /// `vth`: level order applied to the preset (`gray` | `cai`).
    pub level_order: LevelOrder,
    /// `vth`: spacing of the table's nodes in `√(P/E cycles)`.
    pub vth_sqrt_pe_step: f64,
    /// `vth`: table points per decade of retention seconds (and of block reads with
    /// `vth_read_disturb`).
    pub vth_points_per_decade: f64,
    /// `vth`: evaluate the model exactly on every read instead of interpolating its table
    /// (for checks; milliseconds per read).
    pub vth_exact: bool,
    /// `vth`: cell-to-cell coupling term (seed 002 Eq. 3), `{gamma_fg1, gamma_fg2}`;
    /// absent = off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vth_coupling: Option<Coupling>,
    /// `vth`: read-disturb term (seed 002 Eq. 5), `{b0_per_v, gate_coupling_ratio,
    /// i0_v_per_read, pass_margin_v}`; absent = off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vth_read_disturb: Option<ReadDisturb>,
    /// `empirical`: preset (`mlc-2y` | `tlc-72l` | `tlc-3d`).
    pub empirical_preset: String,
    /// `empirical`: full constants replacing the preset.
    pub empirical: Option<EmpiricalParams>,
    /// `empirical` (added to its law) or `terms` (the whole model): error terms by name
    /// (`[[reliability.terms]]`, `term = "..."` and its parameters; `reliability/terms/`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<TermConfig>,
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
            vth_sqrt_pe_step: DEFAULT_SQRT_PE_STEP,
            vth_points_per_decade: DEFAULT_POINTS_PER_DECADE,
            vth_exact: false,
            vth_coupling: None,
            vth_read_disturb: None,
            empirical_preset: "mlc-2y".into(),
            empirical: None,
            terms: Vec::new(),
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
        // Log-normal spreads: σ = 3 already scales one chip in a thousand by e^9 ≈ 8000×;
        // far larger ones overflowed the RBER to NaN.
        for (name, sigma) in [("chip_sigma", self.chip_sigma), ("block_sigma", self.block_sigma)] {
            if !(0.0..=MAX_SIGMA).contains(&sigma) {
                return Err(NandError::config(
                    key(name),
                    format!("must be between 0 and {MAX_SIGMA}"),
                ));
            }
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
        if !(self.vth_sqrt_pe_step.is_finite() && self.vth_sqrt_pe_step >= 0.1) {
            return Err(NandError::config(key("vth_sqrt_pe_step"), "must be >= 0.1 (√cycles)"));
        }
        // The default is 8; 1000 points per decade is already a table of tens of thousands.
        if !(1.0..=1000.0).contains(&self.vth_points_per_decade) {
            return Err(NandError::config(
                key("vth_points_per_decade"),
                "must be between 1 and 1000",
            ));
        }
        let nodes = VthTable::node_count(
            self.vth_sqrt_pe_step,
            self.vth_points_per_decade,
            self.vth_read_disturb.is_some(),
        );
        if self.model == ModelKind::Vth && !self.vth_exact && nodes > MAX_VTH_TABLE_NODES {
            return Err(NandError::config(
                key("vth_sqrt_pe_step"),
                format!(
                    "with vth_points_per_decade = {} the vth table would have {nodes} nodes (at most \
                     {MAX_VTH_TABLE_NODES}): raise vth_sqrt_pe_step or lower vth_points_per_decade",
                    self.vth_points_per_decade
                ),
            ));
        }
        if let Some(c) = &self.vth_coupling {
            c.validate(&key("vth_coupling"))?;
        }
        if let Some(r) = &self.vth_read_disturb {
            r.validate(&key("vth_read_disturb"))?;
        }
        if self.model != ModelKind::Vth && (self.vth_coupling.is_some() || self.vth_read_disturb.is_some()) {
            return Err(NandError::config(
                key(if self.vth_coupling.is_some() {
                    "vth_coupling"
                } else {
                    "vth_read_disturb"
                }),
                "is a term of the vth model: set reliability.model = \"vth\"",
            ));
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
                self.empirical_params()?.validate(&key("empirical"))?;
            }
            ModelKind::Terms if self.terms.is_empty() => {
                return Err(NandError::config(
                    key("terms"),
                    "the `terms` model needs at least one term",
                ));
            }
            _ => {}
        }
        if !self.terms.is_empty() && !matches!(self.model, ModelKind::Empirical | ModelKind::Terms) {
            return Err(NandError::config(
                key("terms"),
                "terms add to the `empirical` or `terms` model: set reliability.model to one of them",
            ));
        }
        for (i, t) in self.terms.iter().enumerate() {
            t.policy().validate(&key(&format!("terms[{i}]")))?;
        }
        Ok(())
    }

    /// The Vth parameters: `vth` if given, else the preset with `level_order` applied;
    /// then `vth_coupling` and `vth_read_disturb` where set.
    pub fn vth_params(&self) -> Result<VthParams> {
        let mut p = self.base_vth_params()?;
        if self.vth_coupling.is_some() {
            p.coupling = self.vth_coupling;
        }
        if self.vth_read_disturb.is_some() {
            p.read_disturb = self.vth_read_disturb;
        }
        Ok(p)
    }

    fn base_vth_params(&self) -> Result<VthParams> {
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
            ModelKind::Empirical => Box::new(TermStack::new(
                "empirical",
                [self.empirical_params()?.terms(), self.terms.clone()].concat(),
                self.page_type_scale.clone(),
                &weights(&vec![1.0; n]),
            )),
            ModelKind::Terms => Box::new(TermStack::new(
                "terms",
                self.terms.clone(),
                self.page_type_scale.clone(),
                &weights(&vec![1.0; n]),
            )),
            ModelKind::Vth if self.vth_exact => Box::new(VthErrorModel::Exact(VthModel::new(self.vth_params()?)?)),
            ModelKind::Vth => Box::new(VthErrorModel::new(
                VthModel::new(self.vth_params()?)?,
                self.vth_sqrt_pe_step,
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

    /// `[[reliability.terms]]`: added to the `empirical` law (by hand: the `mlc-2y` law at
    /// 3000 P/E and 10,000 reads plus 1e-9 · 10,000 = 1e-5), the whole `terms` model,
    /// refused for other models and when empty; a term's bad value names its index.
    #[test]
    fn terms_keys() {
        let linear = "[[terms]]\nterm = \"linear_read_disturb\"\nrber_per_read = 1e-9\n";
        let c: ReliabilityConfig = toml::from_str(&format!("model = \"empirical\"\n{linear}")).unwrap();
        let ctx = crate::reliability::ErrorContext {
            pe_cycles: 3000.0,
            reads_since_erase: 1e4,
            ..Default::default()
        };
        let law = EmpiricalParams::mlc_2y().rber(3000.0, 0.0, 1e4);
        assert!((c.build(2).unwrap().page_rber(&ctx) - (law + 1e-5)).abs() < 1e-18);
        let e = toml::from_str::<ReliabilityConfig>(&format!("model = \"nominal\"\n{linear}"))
            .unwrap()
            .validate(2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("reliability.terms"), "{e}");
        let e = toml::from_str::<ReliabilityConfig>("model = \"terms\"")
            .unwrap()
            .validate(2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("reliability.terms"), "{e}");
        let bad = "model = \"terms\"\n[[terms]]\nterm = \"wear\"\nalpha = 1e-9\nk = 2.0\nmax_pe = 0.0\n";
        let e = toml::from_str::<ReliabilityConfig>(bad)
            .unwrap()
            .validate(2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("reliability.terms[0].max_pe"), "{e}");
        assert!(toml::from_str::<ReliabilityConfig>("model = \"terms\"\n[[terms]]\nterm = \"heat\"").is_err());
        // Absent from the resolved config unless given.
        assert!(!toml::to_string(&ReliabilityConfig::default())
            .unwrap()
            .contains("terms"));
    }

    /// The Eq. 3/5 terms: parsed into the Vth parameters, validated under their own keys,
    /// refused for other models; unknown keys inside them are errors.
    #[test]
    fn disturb_terms_keys() {
        let vth = "model = \"vth\"\nvth_preset = \"wang-standard-mlc\"\n";
        let c: ReliabilityConfig = toml::from_str(&format!(
            "{vth}vth_coupling = {{ gamma_fg1 = 0.02, gamma_fg2 = 0.006 }}\n\
             vth_read_disturb = {{ b0_per_v = 1.0, gate_coupling_ratio = 0.5, i0_v_per_read = 1e-9, pass_margin_v = 1.0 }}"
        ))
        .unwrap();
        let p = c.vth_params().unwrap();
        assert_eq!(p.coupling.unwrap().gamma_fg2, 0.006);
        assert_eq!(p.read_disturb.unwrap().i0_v_per_read, 1e-9);
        assert!(c.validate(2).is_ok());
        let bad: ReliabilityConfig =
            toml::from_str(&format!("{vth}vth_coupling = {{ gamma_fg1 = -0.1, gamma_fg2 = 0.0 }}")).unwrap();
        let e = bad.validate(2).unwrap_err().to_string();
        assert!(e.contains("reliability.vth_coupling.gamma_fg1"), "{e}");
        let other: ReliabilityConfig =
            toml::from_str("model = \"nominal\"\nvth_coupling = { gamma_fg1 = 0.02, gamma_fg2 = 0.0 }").unwrap();
        let e = other.validate(2).unwrap_err().to_string();
        assert!(e.contains("reliability.vth_coupling"), "{e}");
        assert!(toml::from_str::<ReliabilityConfig>("vth_coupling = { gamma = 0.02 }").is_err());
        // Off by default and then absent from the resolved config.
        let text = toml::to_string(&ReliabilityConfig::default()).unwrap();
        assert!(
            !text.contains("vth_coupling") && !text.contains("vth_read_disturb"),
            "{text}"
        );
    }
}
