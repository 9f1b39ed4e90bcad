//! BitFlip (seed 000 §III): the bit counter module counts the four MLC states of each
//! unit (Algorithm 1 steps 1–6); the reorganization module inverts every bit of the
//! units where the error-prone states '00' and '01' outnumber '10' and '11' and records a
//! tag bit per unit (steps 7–14); a read flips the tagged units back (Algorithm 2).
//!
//! Cells follow the content's [`CellMapping`] (seed 000's reading is `adjacent`: two
//! consecutive bits of a byte, most significant first, so 'A' = 0x41 = 01 00 00 01).
//! Inverting every bit maps each cell state `s` to `!s` ('00'↔'11', '01'↔'10') whatever
//! the mapping, so a flipped unit's state counts are its original counts reversed.

use std::fmt;
use std::str::FromStr;

use crate::metrics::summary::CodecSummary;

use super::Codec;
use crate::content::{CellMapping, StateHist};
use crate::error::{NandError, Result};

/// Most units a page may have: their tags and a "written by the encoder" bit share the
/// page's 64-bit OOB word.
pub const MAX_UNITS_PER_PAGE: usize = 63;

/// Bit of the OOB word set by the encoder, so that a stored word is never 0: 0 is the
/// word of data programmed before the run, whose OOB the FTL does not keep.
const ENCODED: u64 = 1 << 63;

/// Tag bits per data bit for units of `unit_bytes` bytes: `1 / (8 · unit_bytes)`
/// (seed 000 §III-D; 512 B → 0.0244 %, 4 KiB → 0.00305 %).
pub fn storage_overhead(unit_bytes: usize) -> f64 {
    1.0 / (8.0 * unit_bytes as f64)
}

/// Whether a unit with MLC state counts `c` (indexed by bit pattern '00','01','10','11')
/// is an error-prone unit: '00' and '01' strictly outnumber '10' and '11' (Algorithm 1
/// step 3; a tie is left unflipped, it already has no more than 50 % error-prone cells).
pub fn is_error_prone(c: &[u64; 4]) -> bool {
    c[0] + c[1] > c[2] + c[3]
}

/// One tag bit per unit (bit `i` = unit `i`, 0-based), as a bitset.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TagBits {
    len: usize,
    words: Vec<u64>,
}

impl TagBits {
    /// `len` tags, all 0.
    pub fn new(len: usize) -> Self {
        TagBits {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Number of tags (units).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no tags.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Tag of unit `i` (0-based).
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "tag {i} of {}", self.len);
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets the tag of unit `i` (0-based).
    pub fn set(&mut self, i: usize, v: bool) {
        assert!(i < self.len, "tag {i} of {}", self.len);
        let bit = 1u64 << (i % 64);
        if v {
            self.words[i / 64] |= bit;
        } else {
            self.words[i / 64] &= !bit;
        }
    }

    /// Tags set (flipped units).
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The tags as 64-bit words (bit `i % 64` of word `i / 64` = unit `i`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The compact form kept in [`crate::flash::block::PageMeta::oob_tags`] (bit `i` =
    /// unit `i`), when the page has at most 64 units.
    pub fn to_oob(&self) -> Option<u64> {
        (self.len <= 64).then(|| self.words.first().copied().unwrap_or(0))
    }

    /// Tags of a page with `len` ≤ 64 units from their compact form (bits ≥ `len` ignored).
    pub fn from_oob(bits: u64, len: usize) -> Option<Self> {
        (len <= 64).then(|| {
            let mut t = TagBits::new(len);
            if len > 0 {
                t.words[0] = if len == 64 { bits } else { bits & ((1u64 << len) - 1) };
            }
            t
        })
    }

    /// Indices of the set tags, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).filter(|&i| self.get(i))
    }
}

/// Written as seed 000 Fig. 9 writes them: one character per unit, unit 1 first
/// ("10101010" = units 1, 3, 5, 7 flipped).
impl fmt::Display for TagBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.len {
            f.write_str(if self.get(i) { "1" } else { "0" })?;
        }
        Ok(())
    }
}

impl FromStr for TagBits {
    type Err = NandError;

    /// Parses the [`Display`](fmt::Display) form ("10101010", unit 1 first).
    fn from_str(s: &str) -> Result<Self> {
        let mut t = TagBits::new(s.len());
        for (i, ch) in s.chars().enumerate() {
            match ch {
                '0' => {}
                '1' => t.set(i, true),
                _ => return Err(NandError::Invalid(format!("tag bits are 0/1 characters, got {s:?}"))),
            }
        }
        Ok(t)
    }
}

/// What the encoder did during a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EncodeStats {
    /// Host page programs encoded.
    pub pages_encoded: u64,
    /// Units of those pages.
    pub units_encoded: u64,
    /// Units flipped (tag bit 1).
    pub units_flipped: u64,
}

/// The BitFlip codec for one page size and unit size.
#[derive(Debug, Clone)]
pub struct BitFlip {
    unit_bytes: usize,
    page_bytes: usize,
    /// `true` when the more significant bit of a cell is the odd bit position of the byte
    /// (`adjacent`, MSB first); `false` for `adjacent-lsb-first`.
    msb_odd: bool,
    encode_ns_per_unit: u64,
    stats: EncodeStats,
}

const EVEN: u64 = 0x5555_5555_5555_5555;

impl BitFlip {
    /// A codec for pages of `page_bytes` bytes in units of `unit_bytes`; the unit size
    /// must be positive, divide the page size and leave at most [`MAX_UNITS_PER_PAGE`]
    /// units (error on `codec.unit_bytes`). Encoding takes no time until
    /// [`BitFlip::with_encode_ns_per_unit`].
    pub fn new(unit_bytes: usize, page_bytes: usize, mapping: CellMapping) -> Result<Self> {
        if unit_bytes == 0 || !page_bytes.is_multiple_of(unit_bytes) {
            return Err(NandError::config(
                "codec.unit_bytes",
                format!("must be > 0 and divide the page size ({page_bytes} bytes), got {unit_bytes}"),
            ));
        }
        if page_bytes / unit_bytes > MAX_UNITS_PER_PAGE {
            return Err(NandError::config(
                "codec.unit_bytes",
                format!(
                    "a page of {page_bytes} bytes in units of {unit_bytes} has {} units; at most \
                     {MAX_UNITS_PER_PAGE} tags fit the page's OOB word (use units of at least {} bytes)",
                    page_bytes / unit_bytes,
                    page_bytes.div_ceil(MAX_UNITS_PER_PAGE)
                ),
            ));
        }
        Ok(BitFlip {
            unit_bytes,
            page_bytes,
            msb_odd: mapping == CellMapping::Adjacent,
            encode_ns_per_unit: 0,
            stats: EncodeStats::default(),
        })
    }

    /// The codec with an encoder taking `ns` per unit.
    pub fn with_encode_ns_per_unit(self, ns: u64) -> Self {
        BitFlip {
            encode_ns_per_unit: ns,
            ..self
        }
    }

    /// What the encoder did so far.
    pub fn stats(&self) -> EncodeStats {
        self.stats
    }

    /// Bytes per unit.
    pub fn unit_bytes(&self) -> usize {
        self.unit_bytes
    }

    /// Bytes per page.
    pub fn page_bytes(&self) -> usize {
        self.page_bytes
    }

    /// Units (and tag bits) per page.
    pub fn units_per_page(&self) -> usize {
        self.page_bytes / self.unit_bytes
    }

    /// Tag bits per data bit, `1 / (8 · unit_bytes)`.
    pub fn storage_overhead(&self) -> f64 {
        storage_overhead(self.unit_bytes)
    }

    /// MLC state counts of `bytes` ('00','01','10','11'), by popcount: each cell is an
    /// (MSB, LSB) pair of bits of one byte.
    pub fn unit_counts(&self, bytes: &[u8]) -> [u64; 4] {
        let (mut n11, mut n10, mut n01) = (0u64, 0u64, 0u64);
        let mut add = |x: u64| {
            // Bits of another byte shifted into bit 7 of a byte land on an odd position,
            // which the even mask drops.
            let (hi, lo) = if self.msb_odd {
                ((x >> 1) & EVEN, x & EVEN)
            } else {
                (x & EVEN, (x >> 1) & EVEN)
            };
            n11 += u64::from((hi & lo).count_ones());
            n10 += u64::from((hi & !lo).count_ones());
            n01 += u64::from((lo & !hi).count_ones());
        };
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            add(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            // Zero padding only adds '00' cells, which are not counted directly.
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            add(u64::from_le_bytes(w));
        }
        let cells = 4 * bytes.len() as u64;
        [cells - n11 - n10 - n01, n01, n10, n11]
    }

    /// The bit counter module (Algorithm 1 steps 1–6): one tag per unit of `data`, set
    /// for error-prone units. `data` may be any length; a last partial unit is a unit.
    pub fn tags(&self, data: &[u8]) -> TagBits {
        let mut t = TagBits::new(data.len().div_ceil(self.unit_bytes));
        for (i, unit) in data.chunks(self.unit_bytes).enumerate() {
            if is_error_prone(&self.unit_counts(unit)) {
                t.set(i, true);
            }
        }
        t
    }

    /// XORs every unit whose tag is set with all ones (the reorganization module, both
    /// ways: Algorithm 1 steps 7–12 and Algorithm 2 steps 3–8).
    pub fn apply(&self, data: &mut [u8], tags: &TagBits) {
        assert_eq!(
            tags.len(),
            data.len().div_ceil(self.unit_bytes),
            "one tag per unit of the data"
        );
        for (i, unit) in data.chunks_mut(self.unit_bytes).enumerate() {
            if tags.get(i) {
                for b in unit {
                    *b = !*b;
                }
            }
        }
    }

    /// Encodes `data` in place (Algorithm 1); returns the tag bits for the OOB area.
    pub fn encode_in_place(&self, data: &mut [u8]) -> TagBits {
        let t = self.tags(data);
        self.apply(data, &t);
        t
    }

    /// Decodes `data` in place with the tags read from the OOB area (Algorithm 2).
    pub fn decode_in_place(&self, data: &mut [u8], tags: &TagBits) {
        self.apply(data, tags);
    }

    /// State counts of `data` after encoding (flipped units count reversed: '00'↔'11',
    /// '01'↔'10'), and the tags, without writing the encoded bytes.
    pub fn encoded_counts(&self, data: &[u8]) -> ([u64; 4], TagBits) {
        let mut t = TagBits::new(data.len().div_ceil(self.unit_bytes));
        let total = self.sum_units(data, |i, c| {
            let flip = is_error_prone(c);
            t.set(i, flip);
            flip
        });
        (total, t)
    }

    /// State counts of `data` stored with tags `tags` (tagged units count reversed).
    pub fn stored_counts(&self, data: &[u8], tags: &TagBits) -> [u64; 4] {
        self.sum_units(data, |i, _| tags.get(i))
    }

    /// Sum of the state counts of the units of `data`, each reversed where `flipped(unit
    /// index, its counts)` says the unit is stored inverted.
    fn sum_units(&self, data: &[u8], mut flipped: impl FnMut(usize, &[u64; 4]) -> bool) -> [u64; 4] {
        let mut total = [0u64; 4];
        for (i, unit) in data.chunks(self.unit_bytes).enumerate() {
            let mut c = self.unit_counts(unit);
            if flipped(i, &c) {
                c.reverse();
            }
            for (a, b) in total.iter_mut().zip(c) {
                *a += b;
            }
        }
        total
    }

    /// The cell-state histogram of `data` as stored after encoding, and the tags.
    pub fn encoded_hist(&self, data: &[u8]) -> (StateHist, TagBits) {
        let (c, t) = self.encoded_counts(data);
        (StateHist::from_counts(&c), t)
    }

    /// The OOB word of a page with tags `tags`: bit `i` = unit `i`, bit 63 set.
    pub fn oob_word(&self, tags: &TagBits) -> u64 {
        ENCODED | tags.to_oob().expect("a page has at most 63 units")
    }

    /// The tags of a page from its stored OOB word (`None` for a word of 0: nothing stored).
    pub fn tags_of_oob(&self, oob: u64) -> Option<TagBits> {
        (oob & ENCODED != 0).then(|| TagBits::from_oob(oob, self.units_per_page()).expect("at most 63 units"))
    }
}

impl Codec for BitFlip {
    fn kind(&self) -> &'static str {
        "bitflip"
    }

    fn transforms(&self) -> bool {
        true
    }

    /// Algorithm 1 (the bit counter module and the reorganization module's decision).
    fn encode(&mut self, data: &[u8]) -> (u64, StateHist) {
        let (hist, tags) = self.encoded_hist(data);
        self.stats.pages_encoded += 1;
        self.stats.units_encoded += tags.len() as u64;
        self.stats.units_flipped += tags.count_ones() as u64;
        (self.oob_word(&tags), hist)
    }

    /// The stored states from the stored tags; data programmed before the run were
    /// encoded by the same encoder, so their tags are derived from their bytes.
    fn stored_hist(&self, data: &[u8], oob: u64) -> StateHist {
        let tags = self.tags_of_oob(oob).unwrap_or_else(|| self.tags(data));
        StateHist::from_counts(&self.stored_counts(data, &tags))
    }

    /// Algorithm 2: flip back every unit whose stored tag is set.
    fn decode(&self, stored: &mut [u8], oob: u64) {
        if let Some(tags) = self.tags_of_oob(oob) {
            self.decode_in_place(stored, &tags);
        }
    }

    fn encode_ns_per_page(&self) -> u64 {
        self.encode_ns_per_unit * self.units_per_page() as u64
    }

    /// Inverting the tagged units is an XOR in the data path as the page leaves the ECC
    /// decoder: no time of its own (Algorithm 2 has no counting step).
    fn decode_ns_per_page(&self) -> u64 {
        0
    }

    fn summary(&self) -> Option<CodecSummary> {
        let s = self.stats;
        Some(CodecSummary {
            kind: self.kind(),
            unit_bytes: self.unit_bytes,
            units_per_page: self.units_per_page(),
            storage_overhead: self.storage_overhead(),
            encode_ns_per_page: self.encode_ns_per_page(),
            pages_encoded: s.pages_encoded,
            units_encoded: s.units_encoded,
            units_flipped: s.units_flipped,
            flipped_unit_share: if s.units_encoded == 0 {
                0.0
            } else {
                s.units_flipped as f64 / s.units_encoded as f64
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::StateCounter;

    #[test]
    fn popcount_counts_equal_the_lookup_table() {
        let bytes: Vec<u8> = (0..=255u8).chain([0x41, 0xFF, 0x00, 0x61, 0x13]).collect();
        for mapping in [CellMapping::Adjacent, CellMapping::AdjacentLsbFirst] {
            let b = BitFlip::new(1, 1, mapping).unwrap();
            let c = StateCounter::new(2, mapping);
            for len in [0, 1, 7, 8, 9, bytes.len()] {
                let mut want = [0u64; 4];
                c.count(&bytes[..len], &mut want);
                assert_eq!(b.unit_counts(&bytes[..len]), want, "{mapping:?} len {len}");
            }
        }
    }

    #[test]
    fn tag_bits_forms() {
        let mut t = TagBits::new(70);
        t.set(0, true);
        t.set(69, true);
        assert_eq!(t.count_ones(), 2);
        assert_eq!(t.words(), &[1, 1 << 5]);
        assert_eq!(t.to_oob(), None);
        assert_eq!(t.ones().collect::<Vec<_>>(), vec![0, 69]);
        let t: TagBits = "10101010".parse().unwrap();
        assert_eq!(t.to_oob(), Some(0b0101_0101));
        assert_eq!(TagBits::from_oob(0xFF55, 8).unwrap(), t);
        assert_eq!(t.to_string(), "10101010");
        assert!("102".parse::<TagBits>().is_err());
        assert_eq!(TagBits::from_oob(u64::MAX, 64).unwrap().count_ones(), 64);
        assert!(TagBits::from_oob(0, 65).is_none());
    }
}
