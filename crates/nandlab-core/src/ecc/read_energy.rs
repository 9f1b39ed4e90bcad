//! Energy of a page read under a plan (seed 001 §5.5's per-operation constants).

use super::plan::ReadPlan;
use serde::{Deserialize, Serialize};

/// Energy constants of seed 001 §5.5 (25 nm MLC, 4 KB pages), µJ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EnergyParams {
    /// Programming one page (52 µJ).
    pub program_uj: f64,
    /// Hard sensing of one page (2.4 µJ).
    pub sense_hard_uj: f64,
    /// One extra soft sensing level (0.7 µJ).
    pub sense_extra_level_uj: f64,
    /// Transferring 4 KiB of sensing results (3.7 µJ).
    pub transfer_uj_per_4kib: f64,
    /// Decoding one codeword (0.8 µJ per 4 KB LDPC codeword).
    pub decode_uj_per_codeword: f64,
}

impl Default for EnergyParams {
    fn default() -> Self {
        EnergyParams {
            program_uj: 52.0,
            sense_hard_uj: 2.4,
            sense_extra_level_uj: 0.7,
            transfer_uj_per_4kib: 3.7,
            decode_uj_per_codeword: 0.8,
        }
    }
}

/// Energy of one read plan, by component (µJ).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ReadEnergy {
    /// Sensing (hard, extra levels, cancelled look-ahead levels).
    pub sense_uj: f64,
    /// Bus transfer.
    pub transfer_uj: f64,
    /// Decoding.
    pub decode_uj: f64,
}

impl ReadEnergy {
    /// Sum of the components.
    pub fn total_uj(&self) -> f64 {
        self.sense_uj + self.transfer_uj + self.decode_uj
    }
}

impl EnergyParams {
    /// Energy of a read plan.
    pub fn read(&self, plan: &ReadPlan) -> ReadEnergy {
        let mut e = ReadEnergy::default();
        for a in &plan.attempts {
            if a.hard_sense {
                e.sense_uj += self.sense_hard_uj;
            }
            e.sense_uj += f64::from(a.extra_levels_sensed) * self.sense_extra_level_uj;
            e.transfer_uj += a.xfer_bytes as f64 / 4096.0 * self.transfer_uj_per_4kib;
            e.decode_uj += f64::from(a.codewords_decoded) * self.decode_uj_per_codeword;
        }
        e.sense_uj += f64::from(plan.cancelled_look_ahead_levels) * self.sense_extra_level_uj;
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecc::plan::tests::planner;

    #[test]
    fn energy_of_plans() {
        let e = EnergyParams::default();
        let two = planner("two-step").plan_for_needed(Some(6));
        // 2.4 + 6·0.7 sensing; 7 pages of transfer · 3.7; 2 decodes · 0.8.
        let r = e.read(&two);
        assert!((r.sense_uj - 6.6).abs() < 1e-12);
        assert!((r.transfer_uj - 25.9).abs() < 1e-12);
        assert!((r.decode_uj - 1.6).abs() < 1e-12);
        // Look-ahead success: hard only plus six cancelled levels' sensing.
        let la = planner("look-ahead").plan_for_needed(Some(0));
        assert!((e.read(&la).sense_uj - 6.6).abs() < 1e-12);
    }
}
