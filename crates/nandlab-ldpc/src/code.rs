//! Quasi-cyclic LDPC codes: a base matrix of circulant permutation matrices.
//!
//! A QC code is given by a circulant size `Z` and a `J × L` base matrix whose entries are
//! either absent (an all-zero `Z × Z` block) or a shift `s`. The block with shift `s` is the
//! permutation matrix `P^s` whose row `m` has its single one in column `(m + s) mod Z`.
//! Check `r·Z + m` of the parity-check matrix `H` therefore involves, for every present block
//! `(r, j)`, the variable `j·Z + ((m + s[r][j]) mod Z)`.
//!
//! [`QcCode::rate_8_9_4k`] is the nandlab code: `Z = 1024`, a full `4 × 36` base matrix
//! (column weight 4, row weight 36), `n = 36 864`, `k = 32 768` (4 KB data + 512 B parity).
//! Its shifts ([`RATE_8_9_SHIFTS`]) were drawn by [`search_shifts`] with seed
//! [`RATE_8_9_SEARCH_SEED`], which rejects every shift that closes a 4-cycle (girth ≥ 6) and,
//! while it can, every shift that closes a 6-cycle.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use thiserror::Error;

/// Errors building a QC code.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CodeError {
    /// The circulant size is zero.
    #[error("circulant size must be positive")]
    ZeroCirculant,
    /// The base matrix is empty or its rows have different lengths.
    #[error("base matrix must be a non-empty rectangle")]
    BadShape,
    /// A shift is not below the circulant size.
    #[error("shift {shift} at ({row}, {col}) is not below the circulant size {z}")]
    ShiftOutOfRange {
        /// Block row.
        row: usize,
        /// Block column.
        col: usize,
        /// The offending shift.
        shift: u32,
        /// Circulant size.
        z: usize,
    },
    /// The base matrix has more rows than columns (no information bits).
    #[error("base matrix needs more columns than rows")]
    NoInformation,
}

/// A quasi-cyclic LDPC code (see the module documentation for the conventions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QcCode {
    z: usize,
    rows: usize,
    cols: usize,
    /// Row-major base matrix, `None` = zero block.
    shifts: Vec<Option<u32>>,
}

impl QcCode {
    /// Builds a code from its circulant size and base matrix (`None` = zero block).
    pub fn new(z: usize, base: &[Vec<Option<u32>>]) -> Result<Self, CodeError> {
        if z == 0 {
            return Err(CodeError::ZeroCirculant);
        }
        let rows = base.len();
        let cols = base.first().map_or(0, Vec::len);
        if rows == 0 || cols == 0 || base.iter().any(|r| r.len() != cols) {
            return Err(CodeError::BadShape);
        }
        if rows >= cols {
            return Err(CodeError::NoInformation);
        }
        let mut shifts = Vec::with_capacity(rows * cols);
        for (row, r) in base.iter().enumerate() {
            for (col, &s) in r.iter().enumerate() {
                if let Some(shift) = s {
                    if shift as usize >= z {
                        return Err(CodeError::ShiftOutOfRange { row, col, shift, z });
                    }
                }
                shifts.push(s);
            }
        }
        Ok(Self { z, rows, cols, shifts })
    }

    /// Builds a code whose base matrix is full (every block present) from a table of shifts.
    pub fn from_full_shifts(z: usize, shifts: &[Vec<u32>]) -> Result<Self, CodeError> {
        let base: Vec<Vec<Option<u32>>> = shifts.iter().map(|r| r.iter().map(|&s| Some(s)).collect()).collect();
        Self::new(z, &base)
    }

    /// The nandlab rate-8/9 4 KB code: `Z = 1024`, full `4 × 36` base matrix
    /// ([`RATE_8_9_SHIFTS`]), `n = 36 864`, `k = 32 768`.
    pub fn rate_8_9_4k() -> Self {
        let base: Vec<Vec<u32>> = RATE_8_9_SHIFTS.iter().map(|r| r.to_vec()).collect();
        Self::from_full_shifts(RATE_8_9_Z, &base).expect("built-in table is valid")
    }

    /// Circulant size `Z`.
    pub fn z(&self) -> usize {
        self.z
    }

    /// Number of block rows `J` (decoder layers).
    pub fn block_rows(&self) -> usize {
        self.rows
    }

    /// Number of block columns `L`.
    pub fn block_cols(&self) -> usize {
        self.cols
    }

    /// Code length `n = L·Z`.
    pub fn n(&self) -> usize {
        self.cols * self.z
    }

    /// Number of parity checks (rows of `H`) `m = J·Z`.
    pub fn m(&self) -> usize {
        self.rows * self.z
    }

    /// Number of data bits of the systematic encoder, `n − m` (the first `n − m` positions).
    pub fn k(&self) -> usize {
        self.n() - self.m()
    }

    /// Shift of block `(row, col)`, `None` for a zero block.
    pub fn shift(&self, row: usize, col: usize) -> Option<u32> {
        self.shifts[row * self.cols + col]
    }

    /// The present blocks of block row `row` as `(block column, shift)`.
    pub fn layer(&self, row: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.cols).filter_map(move |c| self.shift(row, c).map(|s| (c, s as usize)))
    }

    /// Total number of ones in `H` (edges of the Tanner graph).
    pub fn edges(&self) -> usize {
        self.shifts.iter().filter(|s| s.is_some()).count() * self.z
    }

    /// The variables (bit positions) of parity check `check` (`0 ≤ check < m`).
    pub fn check_vars(&self, check: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, m) = (check / self.z, check % self.z);
        self.layer(r).map(move |(c, s)| c * self.z + (m + s) % self.z)
    }

    /// The syndrome `H·word` (one byte, 0 or 1, per check). `word` holds one bit per byte.
    pub fn syndrome(&self, word: &[u8]) -> Vec<u8> {
        assert_eq!(word.len(), self.n(), "word length must be n");
        let z = self.z;
        let mut syn = vec![0u8; self.m()];
        for r in 0..self.rows {
            let out = &mut syn[r * z..(r + 1) * z];
            for (c, s) in self.layer(r) {
                xor_rotated(out, &word[c * z..(c + 1) * z], s);
            }
        }
        syn
    }

    /// Whether `word` satisfies every parity check (`H·word = 0`).
    pub fn is_codeword(&self, word: &[u8]) -> bool {
        self.syndrome(word).iter().all(|&b| b == 0)
    }

    /// Number of 4-cycles in the base-matrix sense: quadruples `(r1 < r2, c1 < c2)` of
    /// present blocks with `s[r1][c1] − s[r1][c2] + s[r2][c2] − s[r2][c1] ≡ 0 (mod Z)`. Each
    /// such quadruple closes `Z` cycles of length 4 in the Tanner graph; zero means girth ≥ 6.
    pub fn four_cycles(&self) -> usize {
        let z = self.z as i64;
        let mut count = 0;
        for r1 in 0..self.rows {
            for r2 in r1 + 1..self.rows {
                for c1 in 0..self.cols {
                    for c2 in c1 + 1..self.cols {
                        let (Some(a), Some(b), Some(c), Some(d)) = (
                            self.shift(r1, c1),
                            self.shift(r1, c2),
                            self.shift(r2, c2),
                            self.shift(r2, c1),
                        ) else {
                            continue;
                        };
                        if (a as i64 - b as i64 + c as i64 - d as i64).rem_euclid(z) == 0 {
                            count += 1;
                        }
                    }
                }
            }
        }
        count
    }

    /// Number of base-matrix 6-cycles: triples of distinct rows and columns
    /// `r1→c1→r2→c2→r3→c3→r1` whose alternating shift sum is `≡ 0 (mod Z)`, each counted once
    /// (as an unordered cycle). Zero together with [`four_cycles`](Self::four_cycles) `== 0`
    /// means girth ≥ 8.
    pub fn six_cycles(&self) -> usize {
        let mut count = 0;
        let rows = self.rows;
        for r1 in 0..rows {
            for r2 in 0..rows {
                for r3 in 0..rows {
                    if r1 == r2 || r2 == r3 || r1 == r3 {
                        continue;
                    }
                    for c1 in 0..self.cols {
                        for c2 in 0..self.cols {
                            for c3 in 0..self.cols {
                                if c1 == c2 || c2 == c3 || c1 == c3 {
                                    continue;
                                }
                                if self.six_cycle_sum(r1, r2, r3, c1, c2, c3) == Some(0) {
                                    count += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Each unordered 6-cycle is met 6 times (3 starting rows × 2 directions).
        count / 6
    }

    fn six_cycle_sum(&self, r1: usize, r2: usize, r3: usize, c1: usize, c2: usize, c3: usize) -> Option<i64> {
        let s = |r, c| self.shift(r, c).map(i64::from);
        let v = s(r1, c1)? - s(r2, c1)? + s(r2, c2)? - s(r3, c2)? + s(r3, c3)? - s(r1, c3)?;
        Some(v.rem_euclid(self.z as i64))
    }
}

/// `out[m] ^= src[(m + s) mod Z]` for every `m` (two contiguous runs, vectorisable).
#[inline]
pub(crate) fn xor_rotated(out: &mut [u8], src: &[u8], s: usize) {
    let z = out.len();
    let (head, tail) = out.split_at_mut(z - s);
    for (o, &b) in head.iter_mut().zip(&src[s..]) {
        *o ^= b;
    }
    for (o, &b) in tail.iter_mut().zip(&src[..s]) {
        *o ^= b;
    }
}

/// Circulant size of the rate-8/9 code.
pub const RATE_8_9_Z: usize = 1024;

/// Seed given to [`search_shifts`] to draw [`RATE_8_9_SHIFTS`].
pub const RATE_8_9_SEARCH_SEED: u64 = 0x4E41_4E44_4C41_4238; // "NANDLAB8"

/// Draws a full `rows × cols` shift table for circulant size `z`, column by column.
///
/// Block row 0 and block column 0 are all zero shifts (any QC code is equivalent to one in
/// this form: adding a constant to a row's or a column's shifts permutes checks or
/// variables and keeps every cycle). Each later column draws its shifts uniformly from
/// `0..z` and rejects the column if it closes a 4-cycle with any earlier column, or a
/// 6-cycle with any two earlier columns; after `tries` rejected draws for one column the
/// 6-cycle condition is dropped for that column (4-cycles are never accepted).
/// Returns `None` if a column cannot be placed without a 4-cycle.
pub fn search_shifts(rows: usize, cols: usize, z: usize, seed: u64, tries: usize) -> Option<Vec<Vec<u32>>> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut t: Vec<Vec<i64>> = vec![Vec::with_capacity(cols); rows];
    let zi = z as i64;
    for c in 0..cols {
        let mut placed = false;
        for attempt in 0..tries * 4 {
            let cand: Vec<i64> = (0..rows)
                .map(|r| if r == 0 || c == 0 { 0 } else { rng.random_range(0..zi) })
                .collect();
            let check6 = attempt < tries;
            if column_ok(&t, &cand, zi, check6) {
                for r in 0..rows {
                    t[r].push(cand[r]);
                }
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    Some(
        t.into_iter()
            .map(|r| r.into_iter().map(|s| s as u32).collect())
            .collect(),
    )
}

#[allow(clippy::needless_range_loop)] // index arithmetic over rows and columns reads clearer
fn column_ok(t: &[Vec<i64>], cand: &[i64], z: i64, check6: bool) -> bool {
    let rows = t.len();
    let prev = t[0].len();
    // 4-cycles through the new column and one earlier column.
    for c in 0..prev {
        for r1 in 0..rows {
            for r2 in r1 + 1..rows {
                if (cand[r1] - t[r1][c] + t[r2][c] - cand[r2]).rem_euclid(z) == 0 {
                    return false;
                }
            }
        }
    }
    if !check6 {
        return true;
    }
    // 6-cycles new column (at rows a→... ) with two distinct earlier columns:
    // cand[a] − cand[b] + t[b][c1] − t[d][c1] + t[d][c2] − t[a][c2]: the cycle enters the new
    // column at row b, leaves at row a; rows a, b, d distinct.
    for a in 0..rows {
        for b in 0..rows {
            if a == b {
                continue;
            }
            let head = cand[a] - cand[b];
            for d in 0..rows {
                if d == a || d == b {
                    continue;
                }
                for c1 in 0..prev {
                    let x = head + t[b][c1] - t[d][c1];
                    for c2 in 0..prev {
                        if c2 != c1 && (x + t[d][c2] - t[a][c2]).rem_euclid(z) == 0 {
                            return false;
                        }
                    }
                }
            }
        }
    }
    true
}

/// Shifts of the rate-8/9 code (`4 × 36`, `Z = 1024`), output of
/// `search_shifts(4, 36, 1024, RATE_8_9_SEARCH_SEED, 2000)` (run
/// `cargo run --release --example ldpc_search_shifts` to redraw it, about a minute).
/// No 4-cycles (girth 6); 126 base 6-cycles remain in the last columns, i.e. 126·1024
/// six-cycles in the Tanner graph.
#[rustfmt::skip]
pub const RATE_8_9_SHIFTS: [[u32; 36]; 4] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 848, 475, 587, 614, 790, 334, 915, 605, 589, 482, 387, 666, 142, 774, 305, 663, 702, 179, 635, 903, 974, 597, 948, 711, 944, 735, 812, 62, 858, 113, 966, 398, 317, 479, 888],
    [0, 809, 723, 312, 230, 327, 745, 529, 63, 704, 494, 264, 58, 345, 173, 303, 697, 865, 92, 684, 871, 1001, 364, 820, 724, 212, 604, 55, 756, 353, 38, 191, 193, 629, 496, 272],
    [0, 827, 432, 352, 79, 341, 664, 411, 309, 867, 793, 738, 902, 690, 855, 596, 455, 959, 335, 859, 269, 371, 856, 407, 238, 988, 780, 684, 450, 375, 645, 994, 65, 255, 798, 924],
];

/// Small codes and frames shared by the crate's tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::QcCode;

    /// Array code: Z = 7 (prime), J = 3, L = 7, shift(i, j) = i·j mod 7 (girth 6).
    pub fn array7() -> QcCode {
        let t: Vec<Vec<u32>> = (0..3).map(|i| (0..7).map(|j| (i * j) % 7).collect()).collect();
        QcCode::from_full_shifts(7, &t).unwrap()
    }

    /// One frame per position: LLR −1 there, +1 elsewhere (a single error each).
    pub fn single_error_frames(code: &QcCode) -> Vec<Vec<f32>> {
        (0..code.n())
            .map(|e| {
                let mut f = vec![1.0f32; code.n()];
                f[e] = -1.0;
                f
            })
            .collect()
    }
}
