//! n-way data-placement interleaving (seed 001 §3.3): the n codewords of a write are cut
//! into n interleaved sub-pages stored on n different chips, so each codeword's bits come
//! from n chips and its raw errors are the sum of its parts' errors, each part at its
//! chip's RBER. With equal parts the codeword's RBER is the mean of the n chips' RBERs;
//! the decoder's failure probability is taken at that mean (checked against the real
//! decoder in `crates/nandlab-ldpc/tests/integration/mixed_rber.rs`).
//!
//! Chip groups ([`ChipGroups`]) follow the paper's pairing of its four measured chips
//! (§5.4) — device chip `g` is the paper's chip `(g mod 4) + 1` ([`GROUP_SPAN`]); 2-way
//! pairs chips 1+3 and 2+4, 4-way takes all four — and put each member on another channel,
//! so the n parts of a codeword are sensed and moved at once. A group's sub-pages sit at the
//! same block and page of each chip.

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

    /// The chip groups of a device of `chips` chips, `chips_per_channel` to a channel.
    pub fn groups(&self, chips_per_channel: u32, chips: u32) -> ChipGroups {
        ChipGroups::new(self.ways, chips_per_channel, chips)
    }
}

/// Which chips hold the parts of a codeword. Member k of the group whose first chip is `c`
/// is chip `(c + k·hop) mod chips`, `hop = stride + lcm(4, chips_per_channel)` with
/// `stride = 4 / n`: `stride` moves it to the paired position of the paper's four chips
/// (1 → 3, 2 → 4; 1 → 2 → 3 → 4), the multiple of four leaves the position unchanged and
/// moves it `lcm / chips_per_channel` channels on. Why channels: the paper's platform gangs
/// chips in synchronous-share-control mode (§4, Agrawal et al. [15]: each package its own
/// data path), so an interleaved read senses and transfers its n parts in parallel — the
/// assumption under which interleaving pays; n chips on one bus would queue their
/// transfers. On 8 channels × 8 chips, 2-way pairs chip (channel c, chip w) with (c + 1,
/// w + 2), 4-way takes chip w + k of channels c … c + 3. First chips are those at positions
/// below `stride`; adding `k·hop` maps them one-to-one onto the chips at position
/// `k·stride`, so the groups partition the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChipGroups {
    ways: u32,
    hop: u32,
    chips: u32,
}

impl ChipGroups {
    fn new(ways: u32, chips_per_channel: u32, chips: u32) -> Self {
        let gcd = |mut a: u32, mut b: u32| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let lcm = GROUP_SPAN / gcd(GROUP_SPAN, chips_per_channel) * chips_per_channel;
        ChipGroups {
            ways,
            hop: GROUP_SPAN / ways + lcm,
            chips,
        }
    }

    /// The chips of the group `chip` belongs to, `chip` first, then the members after it
    /// in order, wrapping round (`chip` is member `(chip mod 4) / stride`).
    pub fn group(&self, chip: u32) -> impl Iterator<Item = u32> {
        let (ways, hop, chips) = (self.ways, self.hop, self.chips);
        let member = chip % GROUP_SPAN / (GROUP_SPAN / ways);
        // hop < chips·n, so adding chips·n keeps the subtraction unsigned.
        let first = (chip + chips * ways - member * hop) % chips;
        (0..ways).map(move |j| (first + (member + j) % ways * hop) % chips)
    }

    /// Whether `chip` is the first of its group (holds member 0).
    pub fn is_first(&self, chip: u32) -> bool {
        chip % GROUP_SPAN < GROUP_SPAN / self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The group of `chip` on a device of `channels` × `per_channel` chips.
    fn group(ways: u32, per_channel: u32, channels: u32, chip: u32) -> Vec<u32> {
        Interleave { ways }
            .groups(per_channel, per_channel * channels)
            .group(chip)
            .collect()
    }

    #[test]
    fn groups_pair_chips_as_the_paper_does_across_channels() {
        // 8 channels × 8 chips (the 001 device): chip 8·c + w, the paper's chip (w mod 4) + 1.
        // 2-way: hop 2 + 8 = 10, chip (c, w) with (c + 1, w + 2); 4-way: hop 9.
        assert_eq!(group(2, 8, 8, 0), vec![0, 10]);
        assert_eq!(group(2, 8, 8, 5), vec![5, 15]);
        assert_eq!(group(2, 8, 8, 57), vec![57, 3]); // channel 7 pairs with channel 0
                                                     // From any member: the same group, that member first.
        assert_eq!(group(2, 8, 8, 10), vec![10, 0]);
        assert_eq!(group(4, 8, 8, 22), vec![22, 31, 4, 13]);
        assert_eq!(group(4, 8, 8, 4), vec![4, 13, 22, 31]);
        assert_eq!(group(1, 8, 8, 9), vec![9]);
        // 2 channels × 8 (Fig. 17): 4-way hop 9 wraps, two parts per channel.
        assert_eq!(group(4, 8, 2, 0), vec![0, 9, 2, 11]);
        // 2 chips per channel: lcm(4, 2) = 4, two channels on; 2-way hop 6.
        assert_eq!(group(2, 2, 4, 1), vec![1, 7]);
        for (per_channel, channels) in [(8, 8), (8, 2), (2, 4), (4, 2), (1, 8)] {
            let chips = per_channel * channels;
            for ways in [2, 4] {
                let groups = Interleave { ways }.groups(per_channel, chips);
                let mut seen = vec![0; chips as usize];
                for first in (0..chips).filter(|&c| groups.is_first(c)) {
                    let g: Vec<u32> = groups.group(first).collect();
                    for (k, &c) in g.iter().enumerate() {
                        let mut from_c: Vec<u32> = groups.group(c).collect();
                        from_c.rotate_right(k);
                        assert_eq!(from_c, g);
                    }
                    // Member k at the paper's position (first + k·4/n) mod 4.
                    for (k, &c) in g.iter().enumerate() {
                        assert_eq!(c % 4, (first + k as u32 * (4 / ways)) % 4);
                        seen[c as usize] += 1;
                    }
                    // On min(n, channels) distinct channels.
                    let mut ch: Vec<u32> = g.iter().map(|c| c / per_channel).collect();
                    ch.sort_unstable();
                    ch.dedup();
                    assert_eq!(ch.len() as u32, ways.min(channels), "{g:?}");
                }
                // The groups partition the chips.
                assert!(
                    seen.iter().all(|&n| n == 1),
                    "{per_channel}×{channels} {ways}: {seen:?}"
                );
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
