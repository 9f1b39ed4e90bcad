//! The `[codec]` config section.

use serde::{Deserialize, Serialize};

use super::bitflip::BitFlip;
use super::none::NoCodec;
use super::Codec;
use crate::content::CellMapping;
use crate::error::{NandError, Result};

/// Which data codec encodes page data before it is programmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CodecKind {
    /// Data are stored as the host wrote them.
    #[default]
    None,
    /// Seed 000's BitFlip: flip every bit of each unit dominated by error-prone states.
    Bitflip,
}

/// The `[codec]` section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodecConfig {
    /// `none` | `bitflip`.
    pub kind: CodecKind,
    /// Bytes per BitFlip unit (one tag bit each); must divide the page size. Seed 000
    /// uses 512 B (8 tags per 4 KiB page, overhead 1/(8·512) ≈ 0.02 %).
    pub unit_bytes: u32,
    /// Encoder time per unit (ns), added to each host page program. Assumption (seed 000
    /// gives no number, only "negligible"): a hardware popcount + XOR unit handling 64 B
    /// per cycle at 1 GHz counts a 512 B unit in 8 cycles and inverts it in 8 more, ≈ 20 ns.
    pub encode_ns_per_unit: u64,
}

impl Default for CodecConfig {
    fn default() -> Self {
        CodecConfig {
            kind: CodecKind::None,
            unit_bytes: 512,
            encode_ns_per_unit: 20,
        }
    }
}

impl CodecConfig {
    /// Whether a codec is configured.
    pub fn enabled(&self) -> bool {
        self.kind != CodecKind::None
    }

    /// Checks the section for pages of `page_bytes` bytes and `bits_per_cell`-bit cells
    /// (`unit_bytes` only with a codec that has units).
    pub fn validate(&self, page_bytes: u32, bits_per_cell: u8) -> Result<()> {
        self.build(page_bytes, bits_per_cell, CellMapping::Adjacent).map(|_| ())
    }

    /// The codec for pages of `page_bytes` bytes, `bits_per_cell`-bit cells and the
    /// content's cell mapping.
    pub fn build(&self, page_bytes: u32, bits_per_cell: u8, mapping: CellMapping) -> Result<Box<dyn Codec>> {
        Ok(match self.kind {
            CodecKind::None => Box::new(NoCodec::new(bits_per_cell, mapping)),
            CodecKind::Bitflip if bits_per_cell != 2 => {
                return Err(NandError::config(
                    "codec.kind",
                    format!(
                        "bitflip is defined for MLC cells (2 bits per cell), the device has {bits_per_cell} \
                         (device.cell_type)"
                    ),
                ))
            }
            CodecKind::Bitflip => Box::new(
                BitFlip::new(self.unit_bytes as usize, page_bytes as usize, mapping)?
                    .with_encode_ns_per_unit(self.encode_ns_per_unit),
            ),
        })
    }
}
