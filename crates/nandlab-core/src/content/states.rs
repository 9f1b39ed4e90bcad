//! `nandlab states FILE...`: the MLC cell-state make-up of files, as seed 000 §II-C and
//! §IV-A analyse it (share of each state, error-prone share, error-prone units, and the
//! error-prone share left after BitFlip flips every error-prone unit).

use std::fs::File;
use std::io::Read;

use serde::{Deserialize, Serialize};

use super::hist::ERROR_PRONE_MLC_MASK;
use super::mapping::{state_name, CellMapping, StateCounter};
use crate::error::{NandError, Result};

/// The analysis of one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileStates {
    /// The file.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// MLC cells counted (4 per byte).
    pub cells: u64,
    /// Share of each state, by pattern name ("00", "01", "10", "11").
    pub state_shares: Vec<(String, f64)>,
    /// Share of the error-prone states '00' and '01'.
    pub error_prone_share: f64,
    /// Units analysed (the last may be shorter).
    pub units: u64,
    /// Share of units in which error-prone states outnumber the others.
    pub error_prone_unit_share: f64,
    /// Error-prone share after flipping every bit of every error-prone unit.
    pub error_prone_share_after_flip: f64,
}

/// Error-prone and total cells of one unit.
fn unit_counts(counter: &StateCounter, unit: &[u8]) -> (u64, u64, [u64; 4]) {
    let mut c = [0u64; 4];
    counter.count(unit, &mut c);
    let ep: u64 = (0..4)
        .filter(|s| ERROR_PRONE_MLC_MASK >> s & 1 == 1)
        .map(|s| c[s])
        .sum();
    (ep, c.iter().sum(), c)
}

/// Analyses one file with units of `unit_bytes` bytes, streaming it in chunks.
pub fn analyse_file(path: &str, unit_bytes: usize, mapping: CellMapping) -> Result<FileStates> {
    let f = File::open(path).map_err(|e| NandError::io(path, e))?;
    analyse_reader(path, f, unit_bytes, mapping)
}

/// Analyses any byte stream (see [`analyse_file`]).
pub fn analyse_reader(name: &str, mut r: impl Read, unit_bytes: usize, mapping: CellMapping) -> Result<FileStates> {
    if unit_bytes == 0 {
        return Err(NandError::Invalid("--unit-bytes must be > 0".into()));
    }
    let counter = StateCounter::new(2, mapping);
    let per_chunk = (1 << 20) / unit_bytes.max(1) + 1;
    let mut buf = vec![0u8; unit_bytes * per_chunk];
    let (mut bytes, mut units, mut ep_units, mut ep_after) = (0u64, 0u64, 0u64, 0u64);
    let mut counts = [0u64; 4];
    let mut filled = 0usize;
    loop {
        let n = r.read(&mut buf[filled..]).map_err(|e| NandError::io(name, e))?;
        filled += n;
        let eof = n == 0;
        if filled == buf.len() || (eof && filled > 0) {
            for unit in buf[..filled].chunks(unit_bytes) {
                let (ep, total, c) = unit_counts(&counter, unit);
                for s in 0..4 {
                    counts[s] += c[s];
                }
                units += 1;
                if 2 * ep > total {
                    ep_units += 1;
                    ep_after += total - ep;
                } else {
                    ep_after += ep;
                }
            }
            bytes += filled as u64;
            filled = 0;
        }
        if eof {
            break;
        }
    }
    let cells: u64 = counts.iter().sum();
    let share = |x: u64| if cells == 0 { 0.0 } else { x as f64 / cells as f64 };
    Ok(FileStates {
        path: name.to_string(),
        bytes,
        cells,
        state_shares: (0..4).map(|s| (state_name(s, 2), share(counts[s]))).collect(),
        error_prone_share: share(counts[0] + counts[1]),
        units,
        error_prone_unit_share: if units == 0 {
            0.0
        } else {
            ep_units as f64 / units as f64
        },
        error_prone_share_after_flip: share(ep_after),
    })
}

/// Analyses several files (`nandlab states FILE... [--unit-bytes 512]`).
pub fn analyse_files(paths: &[String], unit_bytes: usize, mapping: CellMapping) -> Result<Vec<FileStates>> {
    paths.iter().map(|p| analyse_file(p, unit_bytes, mapping)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_example() {
        // Unit 1: 'A' 'A' (all error-prone: 01 00 00 01 ×2) → flipped to 0 error-prone.
        // Unit 2: 0xFF 0x41 → 11×4 + (01,00,00,01): 4 of 8 error-prone, not a majority.
        let data = [0x41u8, 0x41, 0xFF, 0x41];
        let r = analyse_reader("x", &data[..], 2, CellMapping::Adjacent).unwrap();
        assert_eq!(r.cells, 16);
        assert_eq!(r.units, 2);
        assert_eq!(r.error_prone_share, 12.0 / 16.0);
        assert_eq!(r.error_prone_unit_share, 0.5);
        assert_eq!(r.error_prone_share_after_flip, 4.0 / 16.0);
        assert_eq!(r.state_shares[3], ("11".to_string(), 4.0 / 16.0));
        assert_eq!(r.state_shares[0].1, 6.0 / 16.0);
        // Chunking does not change the result.
        let big: Vec<u8> = data.iter().cycle().take(4 * 300_001).copied().collect();
        let r = analyse_reader("y", &big[..], 2, CellMapping::Adjacent).unwrap();
        assert_eq!(r.error_prone_share_after_flip, 0.25);
        assert_eq!(r.units, 600_002);
    }
}
