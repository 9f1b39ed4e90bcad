//! n-way data-placement interleaving (seed 001 §3.3): the n codewords of a write are cut
//! into n interleaved sub-pages stored on n different chips, so each codeword's bits come
//! from n chips and its raw errors are the sum of its parts' errors, each part at its
//! chip's RBER. With equal parts the codeword's RBER is the mean of the n chips' RBERs;
//! the decoder's failure probability is taken at that mean (checked against the real
//! decoder in `crates/nandlab-ldpc/tests/integration/mixed_rber.rs`).
//!
//! Chip groups follow the paper's pairing of its four measured chips (§5.4): within each
//! run of [`GROUP_SPAN`] consecutive chips, 2-way pairs chips 1+3 and 2+4, 4-way takes all
//! four. A group's sub-pages sit at the same block and page of each chip.

use serde::{Deserialize, Serialize};

use crate::error::{NandError, Result};

/// Consecutive chips a group pattern covers (the paper's four chips).
pub const GROUP_SPAN: u32 = 4;

/// `[ecc.interleave]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Interleave {
    /// n: chips each codeword is spread over (1 = off, 2 or 4).
    pub ways: u32,
}

impl Default for Interleave {
    fn default() -> Self {
        Interleave { ways: 1 }
    }
}

impl Interleave {
    /// Whether codewords stay on one chip.
    pub fn is_off(&self) -> bool {
        self.ways == 1
    }

    /// Checks `ways` for a device of `chips` chips.
    pub fn validate(&self, chips: u32) -> Result<()> {
        if ![1, 2, 4].contains(&self.ways) {
            return Err(NandError::config("ecc.interleave.ways", "must be 1, 2 or 4"));
        }
        if !self.is_off() && !chips.is_multiple_of(GROUP_SPAN) {
            return Err(NandError::config(
                "ecc.interleave.ways",
                format!("interleaving needs a multiple of {GROUP_SPAN} chips, the device has {chips}"),
            ));
        }
        Ok(())
    }

    /// The chips holding the parts of a codeword whose first part is on `chip` (`chip`
    /// first).
    pub fn group(&self, chip: u32) -> impl Iterator<Item = u32> {
        let base = chip - chip % GROUP_SPAN;
        let stride = GROUP_SPAN / self.ways;
        (0..self.ways).map(move |k| base + (chip % GROUP_SPAN + k * stride) % GROUP_SPAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(ways: u32, chip: u32) -> Vec<u32> {
        Interleave { ways }.group(chip).collect()
    }

    #[test]
    fn groups_pair_chips_as_the_paper_does() {
        // Chips 0..3 are the paper's chips 1..4: 2-way pairs 1+3 and 2+4.
        assert_eq!(group(2, 0), vec![0, 2]);
        assert_eq!(group(2, 1), vec![1, 3]);
        assert_eq!(group(2, 2), vec![2, 0]);
        assert_eq!(group(2, 7), vec![7, 5]);
        assert_eq!(group(4, 5), vec![5, 6, 7, 4]);
        assert_eq!(group(1, 9), vec![9]);
        // Every group has n distinct chips of one run of four.
        for ways in [1, 2, 4] {
            for chip in 0..16 {
                let mut g = group(ways, chip);
                assert!(g.iter().all(|c| c / GROUP_SPAN == chip / GROUP_SPAN));
                g.sort_unstable();
                g.dedup();
                assert_eq!(g.len(), ways as usize);
            }
        }
    }

    #[test]
    fn bad_ways_name_the_key() {
        let e = Interleave { ways: 3 }.validate(64).unwrap_err().to_string();
        assert!(e.contains("ecc.interleave.ways"), "{e}");
        let e = Interleave { ways: 2 }.validate(6).unwrap_err().to_string();
        assert!(e.contains("multiple of 4"), "{e}");
        Interleave { ways: 1 }.validate(6).unwrap();
    }
}
