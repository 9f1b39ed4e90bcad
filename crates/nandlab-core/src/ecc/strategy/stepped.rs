//! `stepped`: `step` more extra sensing levels per failed decode, up to the last level.
//! A parameter between seed 001's two escalations: `step = 1` is `progressive` (§3.1),
//! `step` ≥ k is `two-step` (§2.3); in between, a read that needs a high level makes
//! fewer retries than progressive and senses fewer levels than two-step. No paper gives a
//! `step`: it is the configuration's choice.

use serde::{Deserialize, Serialize};

use super::ReadStrategy;
use crate::error::{NandError, Result};

/// `[ecc.strategy] policy = "stepped"`, with `step` beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stepped {
    /// Extra sensing levels added per retry (levels), at least 1.
    pub step: u8,
}

impl ReadStrategy for Stepped {
    fn validate(&self, table: &str) -> Result<()> {
        if self.step == 0 {
            return Err(NandError::config(format!("{table}.step"), "must be at least 1"));
        }
        Ok(())
    }

    fn next_level(&self, failed: u8, max_level: u8) -> u8 {
        failed.saturating_add(self.step).min(max_level)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SimConfig;
    use crate::ecc::plan::ReadOutcome;
    use crate::ecc::{ErrorDraw, ReadPlanner};

    /// Built by name from a config: seed 001's LDPC ladder, 6 extra levels.
    fn planner(strategy: &str) -> ReadPlanner {
        let text = format!("[ecc]\nscheme = \"ldpc\"\nmax_extra_levels = 6\nthresholds = [0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.011]\n{strategy}");
        let cfg = SimConfig::from_toml_str(&text).unwrap();
        cfg.ecc.build(4096, ErrorDraw::Expected, None).unwrap()
    }

    fn levels(p: &ReadPlanner, needed: Option<u8>) -> (Vec<u8>, ReadOutcome) {
        let plan = p.plan_for_needed(needed);
        (plan.attempts.iter().map(|a| a.level).collect(), plan.outcome)
    }

    #[test]
    fn steps_by_its_parameter_up_to_the_last_level() {
        let p = planner("[ecc.strategy]\npolicy = \"stepped\"\nstep = 2\n");
        // Needing level 3: hard (0), then 2, then 4, which decodes.
        assert_eq!(levels(&p, Some(3)), (vec![0, 2, 4], ReadOutcome::Decoded { level: 4 }));
        assert_eq!(levels(&p, Some(0)), (vec![0], ReadOutcome::Decoded { level: 0 }));
        // No level decodes: 0, 2, 4, 6 and the read is uncorrectable.
        assert_eq!(levels(&p, None), (vec![0, 2, 4, 6], ReadOutcome::Uncorrectable));
        // A step past the last level stops at it: 0, 5, 6 with step 5.
        let p = planner("[ecc.strategy]\npolicy = \"stepped\"\nstep = 5\n");
        assert_eq!(levels(&p, Some(6)), (vec![0, 5, 6], ReadOutcome::Decoded { level: 6 }));
    }

    #[test]
    fn step_one_is_progressive_and_a_full_step_two_step() {
        let needs = (0..=6).map(Some).chain([None]);
        for (step, same_as) in [(1, "progressive"), (6, "two-step"), (9, "two-step")] {
            let p = planner(&format!("[ecc.strategy]\npolicy = \"stepped\"\nstep = {step}\n"));
            let q = planner(&format!("strategy = \"{same_as}\"\n"));
            for n in needs.clone() {
                assert_eq!(p.plan_for_needed(n), q.plan_for_needed(n), "step {step}, needed {n:?}");
            }
        }
    }

    #[test]
    fn bad_parameters_name_their_key() {
        // Checked when the run builds its read planner.
        let cfg = SimConfig::from_toml_str("[ecc.strategy]\npolicy = \"stepped\"\nstep = 0\n").unwrap();
        let e = cfg.ecc.build(4096, ErrorDraw::Expected, None).unwrap_err().to_string();
        assert!(e.contains("ecc.strategy.step") && e.contains("at least 1"), "{e}");
        let e = SimConfig::from_toml_str("[ecc.strategy]\npolicy = \"stepped\"\nstp = 2\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("config key `ecc.strategy.stp`: unknown field"), "{e}");
        let e = SimConfig::from_toml_str("[ecc]\nstrategy = \"stepwise\"\n").unwrap_err().to_string();
        assert!(e.starts_with("config key `ecc.strategy`: unknown variant `stepwise`"), "{e}");
    }
}
