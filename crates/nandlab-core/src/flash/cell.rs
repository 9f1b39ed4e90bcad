//! Cell types and page types.

use serde::{Deserialize, Serialize};

/// Bits stored per cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellType {
    /// 1 bit per cell.
    Slc,
    /// 2 bits per cell.
    Mlc,
    /// 3 bits per cell.
    Tlc,
    /// 4 bits per cell.
    Qlc,
}

impl CellType {
    /// Bits per cell (= page types per wordline).
    pub fn bits(self) -> usize {
        match self {
            CellType::Slc => 1,
            CellType::Mlc => 2,
            CellType::Tlc => 3,
            CellType::Qlc => 4,
        }
    }

    /// Threshold-voltage states per cell (2^bits).
    pub fn states(self) -> usize {
        1 << self.bits()
    }
}

/// Which bit of a wordline's cells a page holds: 0 = LSB (lower, programmed first; the
/// page the `vth` model senses with one reference), then CSB, MSB (upper), TSB for QLC.
/// For SLC every page is type 0. Seed 002 calls type 0 its "MSB page" (docs/reliability.md,
/// "Page-type names").
pub type PageType = u8;

/// Human name of a page type for a cell type (used in summaries).
pub fn page_type_name(cell: CellType, t: PageType) -> &'static str {
    match (cell.bits(), t) {
        (1, _) => "slc",
        (_, 0) => "lsb",
        (2, 1) => "msb",
        (_, 1) => "csb",
        (3, 2) => "msb",
        (4, 2) => "msb",
        _ => "tsb",
    }
}
