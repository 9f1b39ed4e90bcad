//! The UBER of a config's drive after power-off retention (`nandlab endurance`): the
//! device, error model and ECC of a config put into
//! [`crate::reliability::retention_uber::retention_uber`]. Here because it needs the whole
//! config, which the reliability layer must not depend on.

use super::SimConfig;
use crate::error::{NandError, Result};
use crate::ftl::aging::MAX_DAYS;
use crate::reliability::equivalent_retention_s;
use crate::reliability::retention_uber::{retention_uber, RetentionCheck};

/// Storage temperatures the Arrhenius scaling is used over, °C (the `aging` keys' range:
/// JEDEC's storage range for NAND parts up to the top of bake temperatures).
pub const STORAGE_C: std::ops::RangeInclusive<f64> = -55.0..=150.0;

impl SimConfig {
    /// The UBER of data stored `retention_days` powered off at `storage_c` (scaled by
    /// Arrhenius to the model's `aging.model_temperature_c`) on blocks with the P/E cycles
    /// `pe_by_block`, for this config's device, error model and ECC.
    pub fn retention_uber(&self, pe_by_block: &[f64], retention_days: f64, storage_c: f64) -> Result<RetentionCheck> {
        if !STORAGE_C.contains(&storage_c) {
            return Err(NandError::Invalid(format!(
                "retention temperature {storage_c} °C is outside the Arrhenius model's range (-55 to 150 °C)"
            )));
        }
        if !(0.0..=MAX_DAYS).contains(&retention_days) {
            return Err(NandError::Invalid(format!(
                "retention time {retention_days} days is outside 0 to {MAX_DAYS} days"
            )));
        }
        let bits = self.device.cell_type.bits() as u8;
        let (model, _) = self.tvr.error_models(&self.reliability, bits)?;
        let planner = self
            .ecc
            .build(self.device.page_size_bytes, self.reliability.error_draw, None)?;
        let retention_s = equivalent_retention_s(retention_days * 86_400.0, storage_c, self.aging.model_temperature_c);
        Ok(retention_uber(model.as_ref(), &planner, bits, pe_by_block, retention_s))
    }
}
