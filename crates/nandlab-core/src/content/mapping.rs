//! Cell-bit mapping: which bits of the stored bytes form one cell, and fast per-byte
//! counting of cell states with a 256-entry lookup table.

use serde::{Deserialize, Serialize};

use super::hist::{StateHist, MAX_STATES};

/// How consecutive bits of the stored bytes are grouped into cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CellMapping {
    /// `bits` consecutive bits of a byte form one cell, most significant bit first
    /// (seed 000's reading: 'A' = 0x41 = 01 00 00 01 → cells '01','00','00','01').
    #[default]
    Adjacent,
    /// Like `adjacent`, but the byte is read from its least significant bit.
    AdjacentLsbFirst,
}

/// Per-byte state counts for a mapping and cell width (1, 2 or 4 bits: cells never
/// straddle bytes). For 3-bit cells the bytes are treated as one MSB-first bit stream.
#[derive(Debug, Clone)]
pub struct StateCounter {
    bits: u8,
    mapping: CellMapping,
    /// `lut[byte][state]` = cells of `state` in `byte` (bits ∈ {1, 2, 4}).
    lut: Vec<[u8; MAX_STATES]>,
}

impl StateCounter {
    /// A counter for `bits`-bit cells (1 … 4).
    pub fn new(bits: u8, mapping: CellMapping) -> Self {
        assert!((1..=4).contains(&bits), "1 to 4 bits per cell");
        let mut lut = vec![[0u8; MAX_STATES]; 256];
        if 8 % bits == 0 {
            for (b, row) in lut.iter_mut().enumerate() {
                for s in cells_of_byte(b as u8, bits, mapping) {
                    row[s as usize] += 1;
                }
            }
        }
        StateCounter { bits, mapping, lut }
    }

    /// Bits per cell.
    pub fn bits(&self) -> u8 {
        self.bits
    }

    /// States per cell.
    pub fn n_states(&self) -> usize {
        1 << self.bits
    }

    /// Adds the cell states of `bytes` to `counts` (length ≥ `n_states`).
    pub fn count(&self, bytes: &[u8], counts: &mut [u64]) {
        let n = self.n_states();
        if 8 % self.bits == 0 {
            // Count bytes first (one increment per byte), then expand through the table.
            let mut per_byte = [0u64; 256];
            for &b in bytes {
                per_byte[b as usize] += 1;
            }
            for (b, &c) in per_byte.iter().enumerate() {
                if c != 0 {
                    for s in 0..n {
                        counts[s] += c * u64::from(self.lut[b][s]);
                    }
                }
            }
        } else {
            for s in self.cells(bytes) {
                counts[s as usize] += 1;
            }
        }
    }

    /// The histogram of `bytes`.
    pub fn hist(&self, bytes: &[u8]) -> StateHist {
        let mut counts = vec![0u64; self.n_states()];
        self.count(bytes, &mut counts);
        StateHist::from_counts(&counts)
    }

    /// The cell states of `bytes`, in order (3-bit cells: a trailing partial cell is
    /// padded with ones, the erased value).
    pub fn cells(&self, bytes: &[u8]) -> Vec<u8> {
        if 8 % self.bits == 0 {
            return bytes
                .iter()
                .flat_map(|&b| cells_of_byte(b, self.bits, self.mapping))
                .collect();
        }
        let bits = self.bits as usize;
        let total = bytes.len() * 8;
        let bit_at = |i: usize| -> u8 {
            if i >= total {
                return 1;
            }
            let byte = bytes[i / 8];
            match self.mapping {
                CellMapping::Adjacent => (byte >> (7 - i % 8)) & 1,
                CellMapping::AdjacentLsbFirst => (byte >> (i % 8)) & 1,
            }
        };
        (0..total.div_ceil(bits))
            .map(|c| (0..bits).fold(0u8, |acc, k| (acc << 1) | bit_at(c * bits + k)))
            .collect()
    }
}

/// Cell states of one byte, in the order the cells are written.
pub fn cells_of_byte(b: u8, bits: u8, mapping: CellMapping) -> Vec<u8> {
    let per = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    (0..per)
        .map(|i| match mapping {
            CellMapping::Adjacent => (b >> (8 - bits * (i + 1))) & mask,
            CellMapping::AdjacentLsbFirst => {
                // Bits taken from the least significant end; the first bit taken is the
                // more significant bit of the cell.
                let chunk = (b >> (bits * i)) & mask;
                chunk.reverse_bits() >> (8 - bits)
            }
        })
        .collect()
}

/// Renders a state as its bit pattern, e.g. `state_name(1, 2) == "01"`.
pub fn state_name(state: usize, bits: u8) -> String {
    format!("{:0width$b}", state, width = bits as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000 §II-C: the character is given as "01 00 00 01", two '00' and two '01'
    /// states. Those are the bits of 'A' (0x41), not 'a' (0x61 = 01 10 00 01): the paper
    /// mislabels the letter. MSB-first adjacent pairs reproduce the stated states.
    #[test]
    fn paper_character_example() {
        assert_eq!(
            cells_of_byte(0x41, 2, CellMapping::Adjacent),
            vec![0b01, 0b00, 0b00, 0b01]
        );
        // 'a' itself under the same mapping.
        assert_eq!(
            cells_of_byte(b'a', 2, CellMapping::Adjacent),
            vec![0b01, 0b10, 0b00, 0b01]
        );
        // The flipped byte of the paper: "10 11 11 10".
        assert_eq!(
            cells_of_byte(!0x41, 2, CellMapping::Adjacent),
            vec![0b10, 0b11, 0b11, 0b10]
        );
        let c = StateCounter::new(2, CellMapping::Adjacent);
        let h = c.hist(&[0x41]);
        assert_eq!(h.share(0b00), 0.5);
        assert_eq!(h.share(0b01), 0.5);
        assert_eq!(h.error_prone_share(), 1.0);
        assert_eq!(state_name(1, 2), "01");
    }

    #[test]
    fn lsb_first_reverses_the_byte() {
        // 0x41 read from bit 0: 1,0,0,0,0,0,1,0 → cells 10 00 00 10.
        assert_eq!(
            cells_of_byte(0x41, 2, CellMapping::AdjacentLsbFirst),
            vec![0b10, 0b00, 0b00, 0b10]
        );
    }

    #[test]
    fn lut_count_equals_cell_enumeration() {
        let bytes: Vec<u8> = (0..=255u8).chain([0x41, 0xFF, 0x00]).collect();
        for bits in [1u8, 2, 3, 4] {
            let c = StateCounter::new(bits, CellMapping::Adjacent);
            let mut counts = vec![0u64; c.n_states()];
            c.count(&bytes, &mut counts);
            let mut direct = vec![0u64; c.n_states()];
            for s in c.cells(&bytes) {
                direct[s as usize] += 1;
            }
            assert_eq!(counts, direct, "bits {bits}");
        }
        // TLC: 0b101_100_11|1... → first cells 101, 100.
        let c = StateCounter::new(3, CellMapping::Adjacent);
        assert_eq!(&c.cells(&[0b1011_0011, 0xFF, 0xFF])[..2], &[0b101, 0b100]);
    }
}

/// Packs cell states into bytes (the inverse of [`StateCounter::cells`]); a trailing
/// partial byte is padded with ones.
pub fn pack_cells(cells: &[u8], bits: u8, mapping: CellMapping) -> Vec<u8> {
    let total_bits = cells.len() * bits as usize;
    let mut out = vec![0xFFu8; total_bits.div_ceil(8)];
    for (c, &s) in cells.iter().enumerate() {
        for k in 0..bits as usize {
            let bit = (s >> (bits as usize - 1 - k)) & 1;
            let i = c * bits as usize + k;
            let pos = match mapping {
                CellMapping::Adjacent => 7 - i % 8,
                CellMapping::AdjacentLsbFirst => i % 8,
            };
            if bit == 0 {
                out[i / 8] &= !(1 << pos);
            }
        }
    }
    out
}

#[cfg(test)]
mod pack_tests {
    use super::*;

    #[test]
    fn pack_is_the_inverse_of_cells() {
        for bits in [1u8, 2, 3, 4] {
            for mapping in [CellMapping::Adjacent, CellMapping::AdjacentLsbFirst] {
                let c = StateCounter::new(bits, mapping);
                let bytes: Vec<u8> = (0..24u32).map(|i| (i * 37 + 11) as u8).collect();
                let cells = c.cells(&bytes);
                assert_eq!(pack_cells(&cells, bits, mapping), bytes, "bits {bits} {mapping:?}");
            }
        }
    }
}
