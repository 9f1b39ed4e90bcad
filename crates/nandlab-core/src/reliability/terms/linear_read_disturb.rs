//! `term = "linear_read_disturb"`: read disturb growing linearly with the block's reads
//! since erase. Cai et al. (DSN 2015, "Read Disturb Errors in MLC NAND Flash Memory")
//! measured 2Y-nm MLC and found the RBER rises about linearly with the number of reads
//! that disturbed it, faster on worn blocks; the slope is therefore a parameter (give the
//! one measured at the wear of interest), not a value from the paper.

use serde::{Deserialize, Serialize};

use super::{non_negative, ErrorTerm, Needs};
use crate::error::Result;
use crate::reliability::model::ErrorContext;

/// `rber_per_read · R`, `R` = reads of the block since its last erase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearReadDisturb {
    /// RBER added by each read of the block (errors per bit per read).
    pub rber_per_read: f64,
}

impl ErrorTerm for LinearReadDisturb {
    fn validate(&self, table: &str) -> Result<()> {
        non_negative(table, "rber_per_read", self.rber_per_read)
    }

    fn needs(&self) -> Needs {
        Needs {
            reads: true,
            ..Needs::NONE
        }
    }

    fn rber(&mut self, ctx: &ErrorContext) -> f64 {
        self.rber_per_read * ctx.reads_since_erase
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SimConfig;
    use crate::reliability::model::ErrorContext;
    use crate::reliability::terms::Needs;

    const CONFIG: &str = "[reliability]\nmodel = \"terms\"\n\
        [[reliability.terms]]\nterm = \"constant\"\neps = 1e-4\n\
        [[reliability.terms]]\nterm = \"linear_read_disturb\"\nrber_per_read = 2e-9\n";

    /// By hand: 1e-4 + 2e-9 · 50,000 reads = 1e-4 + 1e-4 = 2e-4, whatever the wear and age;
    /// 1e-4 on a block not read since its erase.
    #[test]
    fn built_by_name_adds_its_reads_by_hand() {
        let cfg = SimConfig::from_toml_str(CONFIG).unwrap();
        let model = cfg.reliability.build(2).unwrap();
        assert_eq!(
            model.needs(),
            Needs {
                reads: true,
                ..Needs::NONE
            }
        );
        let read = |reads: f64| {
            model.page_rber(&ErrorContext {
                pe_cycles: 3000.0,
                retention_s: 86_400.0,
                reads_since_erase: reads,
                ..Default::default()
            })
        };
        assert!((read(50_000.0) - 2e-4).abs() < 1e-18, "{}", read(50_000.0));
        assert!((read(0.0) - 1e-4).abs() < 1e-18);
    }

    #[test]
    fn errors_name_the_key() {
        let bad = SimConfig::from_toml_str(&CONFIG.replace("2e-9", "-2e-9")).unwrap();
        let e = bad.reliability.build(2).unwrap_err().to_string();
        assert!(e.contains("reliability.terms[1].rber_per_read"), "{e}");
        let typo = CONFIG.replace("rber_per_read", "rber_per_reads");
        assert!(SimConfig::from_toml_str(&typo).is_err());
    }
}
