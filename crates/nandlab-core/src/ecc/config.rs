//! The `[ecc]` config section and the read planner it builds.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::bch::Bch;
use super::draw::ErrorDraw;
use super::interleave::Interleave;
use super::ldpc::{FerCurves, LdpcLadder, LevelCapability, BITFLIP_TABLE1_THRESHOLDS};
use super::plan::{EccCode, ReadPlanner, SoftTransfer};
use super::read_energy::EnergyParams;
use super::strategy::StrategyConfig;
use crate::error::{NandError, Result};

/// The FER table shipped with nandlab (see `curve_path`).
pub const SHIPPED_FER_TABLE: &str = include_str!("../../data/ldpc_fer.csv");

/// Seed 001's operating point (`curve_path = "builtin:001-paper"`): the shipped hard curve
/// with soft levels built from the paper's numbers (`python/nandlab/reproduce/paper_fer_001.py`).
pub const PAPER_001_FER_TABLE: &str = include_str!("../../data/fer_001_paper.csv");

/// Tables built into nandlab, by their `curve_path` names.
const BUILTIN_TABLES: [(&str, &str); 2] = [
    ("builtin:nandlab", SHIPPED_FER_TABLE),
    ("builtin:001-paper", PAPER_001_FER_TABLE),
];

/// The CSV text of a built-in table by its `curve_path` name (`""` is the shipped one), so
/// an installed package reads the tables it simulates with, not the source tree's files.
pub fn builtin_fer_table(name: &str) -> Option<&'static str> {
    let name = if name.is_empty() { "builtin:nandlab" } else { name };
    BUILTIN_TABLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Which code protects the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// No ECC.
    #[default]
    None,
    /// BCH with `t` bits per codeword.
    Bch,
    /// LDPC level ladder.
    Ldpc,
}

/// How LDPC levels are described.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LdpcMode {
    /// RBER threshold per level (`thresholds`).
    #[default]
    Threshold,
    /// FER-vs-RBER curve per level from `curve_path`.
    Curve,
}

/// The `[ecc]` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EccConfig {
    /// `none` | `bch` | `ldpc`.
    pub scheme: Scheme,
    /// User data bytes per codeword.
    pub codeword_data_bytes: u32,
    /// Parity bytes per codeword (codeword bits = 8 · (data + parity)).
    pub codeword_parity_bytes: u32,
    /// BCH: correctable bits per codeword.
    pub t: u32,
    /// LDPC: extra soft sensing levels available.
    pub max_extra_levels: u8,
    /// LDPC: `threshold` | `curve`.
    pub mode: LdpcMode,
    /// LDPC threshold mode: RBER bound per level, hard first (`max_extra_levels + 1`).
    pub thresholds: Vec<f64>,
    /// LDPC curve mode: CSV `level,rber,frames,failures,fer,fer_lo,fer_hi`; empty (or
    /// `builtin:nandlab`) = the table shipped with nandlab (`data/ldpc_fer.csv`: the
    /// rate-8/9 4 KB QC-LDPC code under min-sum decoding, measured by `nandlab calibrate
    /// ldpc`, see docs/ldpc.md); `builtin:001-paper` = seed 001's operating point
    /// (`data/fer_001_paper.csv`).
    pub curve_path: String,
    /// `two-step` | `progressive` | `look-ahead` | `look-ahead+progressive` |
    /// `last-level` (see [`super::strategy`]); a table with `policy = "..."` for a
    /// strategy with parameters.
    #[serde(
        deserialize_with = "crate::registry::table_or_name",
        serialize_with = "crate::registry::name_if_bare"
    )]
    pub strategy: StrategyConfig,
    /// `incremental` | `quantized` | `stated` soft data volume.
    pub soft_transfer: SoftTransfer,
    /// `stated`: bytes of one page's soft data of all `max_extra_levels` levels (seed 001
    /// §2.2: 80 µs at 200 MB/s = 16,000 bytes).
    pub soft_xfer_bytes: u64,
    /// Energy constants (seed 001 §5.5).
    pub energy: EnergyParams,
    /// n-way data-placement interleaving (seed 001 §3.3).
    #[serde(skip_serializing_if = "Interleave::is_off")]
    pub interleave: Interleave,
}

impl Default for EccConfig {
    fn default() -> Self {
        EccConfig {
            scheme: Scheme::None,
            codeword_data_bytes: 4096,
            codeword_parity_bytes: 512,
            t: 40,
            max_extra_levels: 6,
            mode: LdpcMode::Threshold,
            thresholds: BITFLIP_TABLE1_THRESHOLDS.to_vec(),
            curve_path: String::new(),
            strategy: StrategyConfig::default(),
            soft_transfer: SoftTransfer::Incremental,
            soft_xfer_bytes: 0,
            energy: EnergyParams::default(),
            interleave: Interleave::default(),
        }
    }
}

/// Most extra levels `last-level` plans for.
const MAX_LAST_LEVEL_LEVELS: u8 = 32;

/// The most energy one operation may cost, µJ (1 J).
const MAX_ENERGY_UJ: f64 = 1e6;

fn key(k: &str) -> String {
    format!("ecc.{k}")
}

impl EccConfig {
    /// Checks every key (does not read the curve file).
    pub fn validate(&self) -> Result<()> {
        if self.codeword_data_bytes == 0 {
            return Err(NandError::config(key("codeword_data_bytes"), "must be > 0"));
        }
        if self.scheme == Scheme::Bch && u64::from(self.t) >= self.codeword_bits() {
            return Err(NandError::config(
                key("t"),
                "must be smaller than the codeword length in bits",
            ));
        }
        if self.scheme == Scheme::Ldpc
            && self.mode == LdpcMode::Threshold
            && self.thresholds.len() != usize::from(self.max_extra_levels) + 1
        {
            return Err(NandError::config(
                key("thresholds"),
                format!(
                    "needs max_extra_levels + 1 = {} values, hard first",
                    usize::from(self.max_extra_levels) + 1
                ),
            ));
        }
        self.strategy.policy().validate(&key("strategy"))?;
        if self.strategy.policy().has_history() && self.max_extra_levels > MAX_LAST_LEVEL_LEVELS {
            // One plan per (first level, needed level) is built up front.
            return Err(NandError::config(
                key("max_extra_levels"),
                format!(
                    "at most {MAX_LAST_LEVEL_LEVELS} with a strategy whose first level has history \
                     (\"last-level\"), got {}",
                    self.max_extra_levels
                ),
            ));
        }
        // RBER thresholds are checked with another scheme or mode too (a typo must not
        // hide): an RBER lies in (0, 1/2], 1/2 being a page of random bits.
        if self.thresholds.iter().any(|v| !(*v > 0.0 && *v <= 0.5)) || self.thresholds.windows(2).any(|w| w[0] > w[1]) {
            return Err(NandError::config(
                key("thresholds"),
                "must lie in (0, 0.5] and be non-decreasing",
            ));
        }
        if self.soft_transfer == SoftTransfer::Stated && self.soft_xfer_bytes == 0 {
            return Err(NandError::config(
                key("soft_xfer_bytes"),
                "soft_transfer = \"stated\" needs the bytes of a page's soft data of all extra levels (> 0)",
            ));
        }
        let e = &self.energy;
        for (name, v) in [
            ("program_uj", e.program_uj),
            ("sense_hard_uj", e.sense_hard_uj),
            ("sense_extra_level_uj", e.sense_extra_level_uj),
            ("transfer_uj_per_4kib", e.transfer_uj_per_4kib),
            ("decode_uj_per_codeword", e.decode_uj_per_codeword),
        ] {
            // At most 1 J an operation: 10^4 times seed 001's largest (52 µJ a program), and
            // low enough that run totals stay finite (1e308 made them infinite, null in JSON).
            if !(0.0..=MAX_ENERGY_UJ).contains(&v) {
                return Err(NandError::config(
                    key(&format!("energy.{name}")),
                    format!("must be between 0 and {MAX_ENERGY_UJ} µJ, got {v:?}"),
                ));
            }
        }
        Ok(())
    }

    fn resolve_curve_path(&self, base_dir: Option<&Path>) -> std::path::PathBuf {
        let p = Path::new(&self.curve_path);
        match base_dir {
            Some(b) if p.is_relative() => b.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// Codeword length in bits.
    pub fn codeword_bits(&self) -> u64 {
        8 * (u64::from(self.codeword_data_bytes) + u64::from(self.codeword_parity_bytes))
    }

    /// Builds the planner for pages of `page_bytes` user bytes (codewords per page =
    /// ⌈page_bytes / codeword_data_bytes⌉). A relative `curve_path` is taken from `base_dir`.
    pub fn build(&self, page_bytes: u32, draw: ErrorDraw, base_dir: Option<&Path>) -> Result<ReadPlanner> {
        self.validate()?;
        let code = match self.scheme {
            Scheme::None => EccCode::None,
            Scheme::Bch => EccCode::Bch(Bch {
                n_bits: self.codeword_bits(),
                t: u64::from(self.t),
            }),
            Scheme::Ldpc => {
                let capability = match self.mode {
                    LdpcMode::Threshold => LevelCapability::Thresholds(self.thresholds.clone()),
                    LdpcMode::Curve => {
                        let builtin = BUILTIN_TABLES.iter().find(|(name, _)| *name == self.curve_path);
                        let c = match (self.curve_path.as_str(), builtin) {
                            ("", _) => FerCurves::parse("data/ldpc_fer.csv (built in)", SHIPPED_FER_TABLE)?,
                            (_, Some((name, text))) => FerCurves::parse(name, text)?,
                            (p, None) if p.starts_with("builtin:") => {
                                return Err(NandError::config(
                                    key("curve_path"),
                                    format!(
                                        "no built-in table `{p}` (built in: {})",
                                        BUILTIN_TABLES.map(|(n, _)| n).join(", ")
                                    ),
                                ))
                            }
                            _ => FerCurves::load(&self.resolve_curve_path(base_dir))?,
                        };
                        if c.curves.len() < usize::from(self.max_extra_levels) + 1 {
                            return Err(NandError::config(
                                key("curve_path"),
                                format!(
                                    "the table has levels 0 … {}, max_extra_levels needs {}",
                                    c.curves.len() - 1,
                                    self.max_extra_levels
                                ),
                            ));
                        }
                        // A table holds for the codeword it was measured on: FER at one
                        // RBER depends on the code's length and rate.
                        let (n, k) = (self.codeword_bits(), 8 * u64::from(self.codeword_data_bytes));
                        if let Some((tn, tk)) = c.code_bits.filter(|&t| t != (n, k)) {
                            return Err(NandError::config(
                                key("codeword_data_bytes"),
                                format!(
                                    "the FER table was measured on codewords of {} data + {} parity bytes (n={tn} k={tk} bits); codeword_data_bytes = {}, codeword_parity_bytes = {} differ",
                                    tk / 8,
                                    (tn - tk) / 8,
                                    self.codeword_data_bytes,
                                    self.codeword_parity_bytes
                                ),
                            ));
                        }
                        LevelCapability::Curves(c)
                    }
                };
                EccCode::Ldpc(LdpcLadder {
                    max_extra_levels: self.max_extra_levels,
                    capability,
                })
            }
        };
        Ok(ReadPlanner {
            code,
            strategy: self.strategy.clone(),
            soft_transfer: self.soft_transfer,
            soft_xfer_bytes: self.soft_xfer_bytes,
            codeword_bits: self.codeword_bits(),
            codewords_per_page: page_bytes.div_ceil(self.codeword_data_bytes).max(1),
            page_bytes: u64::from(page_bytes),
            draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_builds_and_names_keys() {
        let c: EccConfig = toml::from_str(
            "scheme = \"ldpc\"\nstrategy = \"look-ahead+progressive\"\n[energy]\ndecode_uj_per_codeword = 1.0\n",
        )
        .unwrap();
        let p = c.build(8192, ErrorDraw::Expected, None).unwrap();
        assert_eq!(p.codewords_per_page, 2);
        assert_eq!(p.codeword_bits, 36_864);
        assert_eq!(p.strategy, super::super::strategy::named("look-ahead+progressive"));
        assert!(toml::from_str::<EccConfig>("sheme = \"bch\"").is_err());
        let c = EccConfig {
            scheme: Scheme::Ldpc,
            thresholds: vec![0.01],
            ..Default::default()
        };
        assert!(c.validate().unwrap_err().to_string().contains("ecc.thresholds"));
        let c = EccConfig {
            scheme: Scheme::Ldpc,
            mode: LdpcMode::Curve,
            curve_path: "/nonexistent.csv".into(),
            ..Default::default()
        };
        assert!(c
            .build(4096, ErrorDraw::Expected, None)
            .unwrap_err()
            .to_string()
            .contains("/nonexistent.csv"));
        // Built-in tables by name; an unknown name lists them.
        let builtin = |name: &str| EccConfig {
            scheme: Scheme::Ldpc,
            mode: LdpcMode::Curve,
            curve_path: name.into(),
            ..Default::default()
        };
        for name in ["builtin:nandlab", "builtin:001-paper"] {
            assert!(builtin(name).build(4096, ErrorDraw::Expected, None).is_ok(), "{name}");
        }
        let e = builtin("builtin:002")
            .build(4096, ErrorDraw::Expected, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ecc.curve_path") && e.contains("builtin:001-paper"), "{e}");
        // `stated` soft transfer needs its byte count.
        let c: EccConfig = toml::from_str("soft_transfer = \"stated\"").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("ecc.soft_xfer_bytes"));
        let c: EccConfig = toml::from_str("strategy = \"last-level\"\nmax_extra_levels = 33").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("ecc.max_extra_levels"));
        let c: EccConfig =
            toml::from_str("scheme = \"bch\"\nt = 3\ncodeword_data_bytes = 1024\ncodeword_parity_bytes = 56").unwrap();
        assert_eq!(c.codeword_bits(), 8640);
    }
}

#[cfg(test)]
mod shipped_table_tests {
    use super::*;

    #[test]
    fn empty_curve_path_uses_the_shipped_table() {
        let cfg = EccConfig {
            scheme: Scheme::Ldpc,
            mode: LdpcMode::Curve,
            ..EccConfig::default()
        };
        let p = cfg.build(4096, ErrorDraw::Expected, None).unwrap();
        // Read off the shipped table (one 4 KB codeword per page): at RBER 1.5e-2 hard and
        // 1-extra-level decoding failed 80/80 frames, 2+ extra levels 0/800, where the rows
        // carry their levels' tail models (level 2: 2.5e-4 · (1.5/1.65)^63.6 ≈ 6e-7).
        let f = p.page_fail_probs(1.5e-2);
        assert_eq!(f.len(), 7);
        assert_eq!(f[0], 1.0);
        assert_eq!(f[1], 1.0);
        assert!(f[2..].iter().all(|&x| x > 0.0 && x < 1e-6), "{f:?}");
        // At 9.5e-3 the hard level failed 53.75 % (table row `0,9.5e-3,...,5.375e-1`).
        assert!((p.page_fail_probs(9.5e-3)[0] - 0.5375).abs() < 1e-9);
    }

    #[test]
    fn a_codeword_other_than_the_tables_is_a_config_error() {
        // The shipped table is the 4096 + 512 byte code (n = 36,864, k = 32,768 bits).
        let cfg = |data: u32, parity: u32| EccConfig {
            scheme: Scheme::Ldpc,
            mode: LdpcMode::Curve,
            codeword_data_bytes: data,
            codeword_parity_bytes: parity,
            ..EccConfig::default()
        };
        assert!(cfg(4096, 512).build(4096, ErrorDraw::Expected, None).is_ok());
        for (d, p) in [(2048, 256), (4096, 448)] {
            let e = cfg(d, p)
                .build(4096, ErrorDraw::Expected, None)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("ecc.codeword_data_bytes") && e.contains("4096 data + 512 parity") && !e.contains('\n'),
                "{e}"
            );
        }
        // Threshold mode reads no table, so any codeword goes.
        let c = EccConfig {
            mode: LdpcMode::Threshold,
            ..cfg(2048, 256)
        };
        assert!(c.build(4096, ErrorDraw::Expected, None).is_ok());
    }

    #[test]
    fn the_shipped_curves_fall_monotonically_and_continuously_below_1e_15() {
        // Below each level's measured range the rows carry its tail model (docs/ldpc.md
        // §4): on a fine grid (steps of 0.17 % in RBER) every level's FER never falls as the
        // RBER rises, never jumps (no step steeper than a log-log slope of 200; the table's
        // steepest segments are below 100), and is below 1e-15 at RBER 1e-3.
        let c = FerCurves::parse("shipped", SHIPPED_FER_TABLE).unwrap();
        let xs: Vec<f64> = (0..=2000).map(|i| 1e-3 * 30f64.powf(f64::from(i) / 2000.0)).collect();
        for level in 0..=6 {
            let f: Vec<f64> = xs.iter().map(|&x| c.fer(level, x)).collect();
            assert!(f[0] < 1e-15 && f[0] > 0.0, "level {level}: {}", f[0]);
            for (w, x) in f.windows(2).zip(&xs) {
                assert!(w[0] <= w[1], "level {level} at {x}: {w:?}");
                assert!(
                    w[1] <= w[0] * (30f64.powf(1.0 / 2000.0)).powi(200),
                    "level {level} at {x}: {w:?}"
                );
            }
        }
    }
}
