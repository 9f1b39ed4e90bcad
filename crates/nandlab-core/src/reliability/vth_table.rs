//! The tabulated form of the `vth` error model: the exact per (page type, bit pattern)
//! misread probabilities of a [`VthModel`] on a grid over P/E cycles, log retention and,
//! with read disturb on, log reads since erase, interpolated per read.
//!
//! - Axes: `√PE / sqrt_pe_step` (Dong's P/E terms go as `PE^0.5` and `PE^0.6`: smooth in
//!   `√PE` at `PE → 0`, where a linear P/E axis missed by orders of magnitude);
//!   retention as `points_per_decade · log10(1 + t/τ)` with `τ =` [`AGE_TAU_S`] (so
//!   data a minute old shares a cell with data never retained, and the nodes beyond a
//!   few minutes are those of a `log10(1 + t)` axis); reads as
//!   `points_per_decade · log10(1 + reads)`. An axis the model does not
//!   depend on (no RTN, retention or P/E drift; no read disturb) has one node, so a wear-
//!   and age-blind model is one node.
//! - Values: `ln p`, interpolated by 4-point Lagrange cubics on each axis (tensor
//!   product), because the misread probabilities are Gaussian-like tails whose logarithm
//!   is smooth in the axes; bilinear interpolation of `p` itself needed a node every 100
//!   P/E cycles and 8 per decade for the same accuracy (docs/reliability.md, "`vth`
//!   table"). Where a stencil holds a probability below [`LN_P_CUBIC_MIN`] (RTN-only
//!   tails at small P/E, `ln p ∝ −1/√PE`, not smooth) that state falls back to
//!   multilinear interpolation of `p`: those states add at most `e^LN_P_CUBIC_MIN` to a
//!   page's RBER.
//! - Nodes are computed on first use (each is one exact evaluation: optimal references,
//!   RTN convolutions), so building a model costs one allocation and a run pays only for
//!   the nodes its pages' wear and age touch. Each node is exact; values are the same
//!   whichever read fills a node first. A read gathers its stencil's nodes from a
//!   [`Cell`], the stencil's values packed in the order a read uses them, built on the
//!   first read that needs that stencil.
//! - Beyond the grid ([`MAX_PE`], [`MAX_RETENTION_S`], [`MAX_READS`]) a read is evaluated
//!   exactly (correct, slow).

use std::sync::OnceLock;

use super::vth::{pattern_bit_of_page_type, LevelDist, VthModel};

/// Largest P/E count on the grid (the Dong MLC model's P/E axis is normalised; its end of
/// life lies around 10⁴–3·10⁴).
pub const MAX_PE: f64 = 100_000.0;
/// Retention the grid reaches at least, seconds (about 317 years; the last node lies at
/// most one node spacing beyond).
pub const MAX_RETENTION_S: f64 = 1e10;
/// Largest reads since erase on the grid (read disturb).
pub const MAX_READS: f64 = 1e7;
/// Offset `τ` of the retention axis, seconds. Chosen from a study of the age axis alone
/// (benchmarks/vth_speed.md): with `τ` = the retention model's own `t₀` (1 h) the first
/// cell, 0 … 1.8 h, missed uniform-content page RBER of data 0 … 50 s old by 2.9e-3;
/// with 30 s, the same four nodes cover 0 … 50 s and miss by 6.9e-4 (1 s: nine nodes,
/// 1.3e-4) — measured with the RTN convolution as a Simpson sum, which was rough there;
/// with the closed form the table misses data 0 … 50 s old by 5e-5 (docs/reliability.md,
/// "The `vth` table").
pub const AGE_TAU_S: f64 = 30.0;
/// Default node spacing in `√PE` (`reliability.vth_sqrt_pe_step`); see the module notes.
pub const DEFAULT_SQRT_PE_STEP: f64 = 5.0;
/// Default nodes per decade of `1 + t/t₀` and of `1 + reads`
/// (`reliability.vth_points_per_decade`).
pub const DEFAULT_POINTS_PER_DECADE: f64 = 4.0;
/// Below `p = e^LN_P_CUBIC_MIN` (≈ 1e-30) a stencil is interpolated linearly in `p`.
pub const LN_P_CUBIC_MIN: f64 = -69.0;
/// `ln p` stored for `p = 0`.
const LN_P_ZERO: f64 = -745.0;

/// How an axis maps a value to its coordinate.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scale {
    /// `√x · scale`.
    Sqrt,
    /// `log10(1 + x/x₀) · scale`, computed as `ln_1p(x · (1/x₀)) · (scale / ln 10)`
    /// (one `log1p` and two products per read: glibc's `log10` costs about twice a
    /// `log1p`, and a division's latency several products'; equal to rounding).
    Log,
}

/// One grid axis: node `k` sits at coordinate `k`; `n` nodes (1 = the model ignores it).
#[derive(Debug, Clone, Copy)]
struct Axis {
    n: usize,
    scale: f64,
    kind: Scale,
    /// `x₀` of a [`Scale::Log`] axis.
    x0: f64,
    /// `1/x₀` and `scale / ln 10` of a [`Scale::Log`] axis (see [`Scale::Log`]).
    inv_x0: f64,
    ln_scale: f64,
}

impl Axis {
    fn flat() -> Self {
        Axis {
            n: 1,
            scale: 0.0,
            kind: Scale::Sqrt,
            x0: 1.0,
            inv_x0: 1.0,
            ln_scale: 0.0,
        }
    }

    fn sqrt(step: f64, max: f64) -> Self {
        Axis {
            n: (max.sqrt() / step).ceil() as usize + 1,
            scale: 1.0 / step,
            kind: Scale::Sqrt,
            x0: 1.0,
            inv_x0: 1.0,
            ln_scale: 0.0,
        }
        .at_least_cubic()
    }

    fn log(points_per_decade: f64, max: f64, x0: f64) -> Self {
        Axis {
            // Less a hair, so that a maximum on a node (10⁷ reads at 4 per decade) is the
            // last.
            n: ((1.0 + max / x0).log10() * points_per_decade - 1e-6).ceil() as usize + 1,
            scale: points_per_decade,
            kind: Scale::Log,
            x0,
            inv_x0: 1.0 / x0,
            ln_scale: points_per_decade / std::f64::consts::LN_10,
        }
        .at_least_cubic()
    }

    fn at_least_cubic(self) -> Self {
        Axis {
            n: self.n.max(4),
            ..self
        }
    }

    /// Value of node `k`.
    fn node_value(&self, k: usize) -> f64 {
        let c = k as f64 / self.scale;
        match self.kind {
            _ if self.n == 1 => 0.0,
            Scale::Sqrt => c * c,
            Scale::Log => self.x0 * (10f64.powf(c) - 1.0),
        }
    }

    /// Coordinate of `x` (≥ 0), or `None` beyond the last node.
    fn coord(&self, x: f64) -> Option<f64> {
        if self.n == 1 {
            return Some(0.0);
        }
        let x = x.max(0.0);
        let c = match self.kind {
            Scale::Sqrt => x.sqrt() * self.scale,
            Scale::Log => (x * self.inv_x0).ln_1p() * self.ln_scale,
        };
        // Beyond the last node, `n − 1`, the read is exact (off the grid).
        (c <= (self.n - 1) as f64).then_some(c)
    }

    /// The stencil of coordinate `c`: its first node and the cubic Lagrange weights of its
    /// four nodes (one node, weight 1, on a flat axis), and the linear weights of the
    /// cell `[⌊c⌋, ⌊c⌋+1]` as (offset of ⌊c⌋ in the stencil, fraction).
    fn stencil(&self, c: f64) -> Stencil {
        if self.n == 1 {
            return Stencil::FLAT;
        }
        // `c ≥ 0`: truncation is the floor (one instruction; `floor` is a library call on
        // the baseline x86-64 target). In `u32` (an axis has far fewer nodes), whose
        // conversions to and from `f64` are single instructions where `usize`'s are not.
        let n = self.n as u32;
        let i = (c as u32).min(n - 2);
        let first = i.saturating_sub(1).min(n - 4);
        let t = c - f64::from(first);
        // Lagrange weights of nodes 0 … 3 at `t`, written out (this runs on every read;
        // products by 1/6 and 1/2, not divisions, whose latency is several products').
        const SIXTH: f64 = 1.0 / 6.0;
        let (t1, t2, t3) = (t - 1.0, t - 2.0, t - 3.0);
        let w = [
            -t1 * t2 * t3 * SIXTH,
            t * t2 * t3 * 0.5,
            -t * t1 * t3 * 0.5,
            t * t1 * t2 * SIXTH,
        ];
        Stencil {
            first: first as usize,
            w,
            len: 4,
            cell: (i - first) as usize,
            frac: c - f64::from(i),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Stencil {
    first: usize,
    w: [f64; 4],
    len: usize,
    cell: usize,
    frac: f64,
}

impl Stencil {
    /// The stencil of a flat axis: its one node, weight 1.
    const FLAT: Stencil = Stencil {
        first: 0,
        w: [1.0, 0.0, 0.0, 0.0],
        len: 1,
        cell: 0,
        frac: 0.0,
    };

    /// Linear weight of stencil node `k`.
    fn linear_w(&self, k: usize) -> f64 {
        if self.len == 1 {
            1.0
        } else if k == self.cell {
            1.0 - self.frac
        } else if k == self.cell + 1 {
            self.frac
        } else {
            0.0
        }
    }
}

/// Exact misread probabilities of `model` after `reads` reads since erase: index
/// `page_type · n_states + pattern`; page type `t` reads pattern bit
/// [`pattern_bit_of_page_type`].
pub fn exact_probs(model: &VthModel, pe: f64, retention_s: f64, reads: f64) -> Vec<f64> {
    if model.params().read_disturb.is_some() && reads > 0.0 {
        return exact_probs(&model.at_reads(reads), pe, retention_s, 0.0);
    }
    let m = model;
    let refs = m.read_refs_v(pe, retention_s);
    let n = m.n_states();
    let mut out = vec![0.0; m.bits_per_cell() * n];
    for level in 0..n {
        let tp = m.transition_probs(level, &refs, pe, retention_s);
        let pattern = m.pattern_of_level(level) as usize;
        for page in 0..m.bits_per_cell() {
            let bit = pattern_bit_of_page_type(m.bits_per_cell(), page);
            let value = m.page_bit(level, bit);
            out[page * n + pattern] = tp
                .iter()
                .enumerate()
                .filter(|&(j, _)| m.page_bit(j, bit) != value)
                .map(|(_, p)| p)
                .sum();
        }
    }
    out
}

/// The grid of a [`VthModel`]'s misread probabilities (see the module notes).
#[derive(Debug)]
pub struct VthTable {
    model: VthModel,
    pe: Axis,
    age: Axis,
    reads: Axis,
    /// Per node (`(pe · age.n + age) · reads.n + reads`), filled on first use: `ln p` of
    /// every row (see [`VthTable::rows`]), then `p`.
    nodes: Vec<OnceLock<Box<[f64]>>>,
    /// Per stencil (indexed by its first nodes like `nodes`, over the stencils' count per
    /// axis), filled on first use.
    cells: Vec<OnceLock<Cell>>,
}

/// Most nodes in a stencil (4 per axis, three axes).
const MAX_STENCIL: usize = 64;

/// One stencil's node values, packed for a read: per row (see [`VthTable::rows`]) the
/// stencil's `ln p` (`ln_p`) and `p` (`p`) in stencil order (`(a · len_y + b) · len_z +
/// c`), and their range of `ln p` (`lo`, `hi`); for a one-node stencil (a constant
/// table), each row's value (`at_node`, what [`At::value`] gives there), else empty.
#[derive(Debug)]
struct Cell {
    ln_p: Box<[f64]>,
    p: Box<[f64]>,
    lo: Box<[f64]>,
    hi: Box<[f64]>,
    at_node: Box<[f64]>,
}

impl VthTable {
    /// The grid of `model`: nodes every `sqrt_pe_step` in `√PE` and `points_per_decade`
    /// per decade of `1 + retention_s` and of `1 + reads since erase` (the last only with
    /// read disturb), over axes the model depends on.
    pub fn new(model: VthModel, sqrt_pe_step: f64, points_per_decade: f64) -> Self {
        let p = model.params();
        let pe_drift = p.levels.iter().any(|l| {
            matches!(*l, LevelDist::Gaussian { mean_pe_coef, sigma_pe_coef, .. }
                if mean_pe_coef != 0.0 || sigma_pe_coef != 0.0)
        });
        let pe = if p.rtn.is_some() || p.retention.is_some() || pe_drift {
            Axis::sqrt(sqrt_pe_step, MAX_PE)
        } else {
            Axis::flat()
        };
        let age = match &p.retention {
            Some(_) => Axis::log(points_per_decade.max(1.0), MAX_RETENTION_S, AGE_TAU_S),
            None => Axis::flat(),
        };
        let reads = if p.read_disturb.is_some() {
            Axis::log(points_per_decade.max(1.0), MAX_READS, 1.0)
        } else {
            Axis::flat()
        };
        let cells = (0..cell_count(&pe) * cell_count(&age) * cell_count(&reads))
            .map(|_| OnceLock::new())
            .collect();
        VthTable {
            nodes: (0..pe.n * age.n * reads.n).map(|_| OnceLock::new()).collect(),
            cells,
            model,
            pe,
            age,
            reads,
        }
    }

    /// Nodes of the largest grid these spacings give (every axis on; `reads` with read
    /// disturb), for a bound on its memory.
    pub fn node_count(sqrt_pe_step: f64, points_per_decade: f64, reads: bool) -> usize {
        let ppd = points_per_decade.max(1.0);
        let r = if reads { Axis::log(ppd, MAX_READS, 1.0).n } else { 1 };
        Axis::sqrt(sqrt_pe_step, MAX_PE).n * Axis::log(ppd, MAX_RETENTION_S, AGE_TAU_S).n * r
    }

    /// The underlying model.
    pub fn vth(&self) -> &VthModel {
        &self.model
    }

    /// True when every axis is flat: the probabilities depend on nothing but the page.
    pub fn is_constant(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Exact probabilities at `pe`, `retention_s`, `reads` (no table).
    pub fn exact(&self, pe: f64, retention_s: f64, reads: f64) -> Vec<f64> {
        exact_probs(&self.model, pe.max(0.0), retention_s.max(0.0), reads.max(0.0))
    }

    /// Rows of a node: per (page type, pattern) its misread probability (index `page ·
    /// n_states + pattern`), then per page type the mean of its patterns' (index
    /// `bits_per_cell · n_states + page`), the page RBER of random content. That mean is
    /// tabulated as its own `ln` so that a read of random data interpolates one value and
    /// takes one `exp` instead of one per state (docs/reliability.md, "The `vth` table").
    fn rows(&self) -> usize {
        self.model.bits_per_cell() * (self.model.n_states() + 1)
    }

    fn node(&self, i: usize, j: usize, k: usize) -> &[f64] {
        self.nodes[(i * self.age.n + j) * self.reads.n + k].get_or_init(|| {
            let mut p = self.exact(self.pe.node_value(i), self.age.node_value(j), self.reads.node_value(k));
            let means: Vec<f64> = p.chunks(self.model.n_states()).map(uniform_mean).collect();
            p.extend(means);
            let ln_p = p.iter().map(|&x| if x > 0.0 { x.ln() } else { LN_P_ZERO });
            ln_p.chain(p.iter().copied()).collect()
        })
    }

    /// The packed values of the stencil whose first nodes are `sx`, `sy`, `sz`'s.
    fn cell(&self, sx: &Stencil, sy: &Stencil, sz: &Stencil) -> &Cell {
        let (cy, cz) = (cell_count(&self.age), cell_count(&self.reads));
        self.cells[(sx.first * cy + sy.first) * cz + sz.first].get_or_init(|| {
            let rows = self.rows();
            let m = sx.len * sy.len * sz.len;
            let (mut ln_p, mut p) = (vec![0.0; rows * m], vec![0.0; rows * m]);
            for a in 0..sx.len {
                for b in 0..sy.len {
                    for c in 0..sz.len {
                        let k = (a * sy.len + b) * sz.len + c;
                        let node = self.node(sx.first + a, sy.first + b, sz.first + c);
                        for r in 0..rows {
                            ln_p[r * m + k] = node[r];
                            p[r * m + k] = node[rows + r];
                        }
                    }
                }
            }
            let range = |f: fn(f64, f64) -> f64, init: f64| -> Box<[f64]> {
                ln_p.chunks(m).map(|row| row.iter().copied().fold(init, f)).collect()
            };
            let (lo, hi) = (range(f64::min, f64::INFINITY), range(f64::max, f64::NEG_INFINITY));
            // One node: the cubic is `0 + 1·ln p` = `ln p` and the linear form `p`, so this
            // is the same value, without an `exp` per state on every read (the TVR
            // device's constant table is read per state for content-aware pages).
            let at_node = if m == 1 {
                (0..rows)
                    .map(|r| if lo[r] < LN_P_CUBIC_MIN { p[r] } else { ln_p[r].exp() })
                    .collect()
            } else {
                Box::default()
            };
            Cell {
                lo,
                hi,
                ln_p: ln_p.into(),
                p: p.into(),
                at_node,
            }
        })
    }

    /// Misread probability of each bit pattern of page type `page` at `pe`, `retention_s`,
    /// `reads` into `out` (length `n_states`); does not allocate on the grid.
    pub fn probs_into(&self, page: usize, pe: f64, retention_s: f64, reads: f64, out: &mut [f64]) {
        let n = self.model.n_states();
        let on_grid = self.at(pe, retention_s, reads, |at| {
            for (s, o) in out.iter_mut().enumerate().take(n) {
                *o = at.value(page * n + s);
            }
        });
        if on_grid.is_none() {
            out.copy_from_slice(&self.exact(pe, retention_s, reads)[page * n..(page + 1) * n]);
        }
    }

    /// Page RBER of random content (every state equally likely: the mean of
    /// [`VthTable::probs_into`]'s probabilities) of page type `page`, interpolated as one
    /// value; within the same tolerance of the exact model as a page's states (tests).
    pub fn uniform_rber(&self, page: usize, pe: f64, retention_s: f64, reads: f64) -> f64 {
        let n = self.model.n_states();
        let row = self.model.bits_per_cell() * n + page;
        let on_grid = if self.reads.n == 1 && self.pe.n > 1 && self.age.n > 1 {
            self.plane_value(row, pe, retention_s)
        } else {
            self.at(pe, retention_s, reads, |at| at.value(row))
        };
        on_grid.unwrap_or_else(|| uniform_mean(&self.exact(pe, retention_s, reads)[page * n..(page + 1) * n]))
    }

    /// [`At::value`] of row `r` on a wear × age table (no read disturb: every read's
    /// stencil is 4 × 4), written out for that case without the general stencil's
    /// bookkeeping, which cost a random-content read more than its arithmetic
    /// (benchmarks/vth_speed.md). The cubic is summed axis by axis (`Σ_a wx_a Σ_b wy_b
    /// v_ab`: four independent 4-term sums, then one; 20 products instead of 32 and a
    /// quarter of the 16-add chain's latency), so it equals the general path's to
    /// rounding, not to the bit (tests).
    #[inline]
    fn plane_value(&self, r: usize, pe: f64, retention_s: f64) -> Option<f64> {
        let (sx, sy) = (
            self.pe.stencil(self.pe.coord(pe)?),
            self.age.stencil(self.age.coord(retention_s)?),
        );
        let cell = self.cell(&sx, &sy, &Stencil::FLAT);
        let (lo, hi) = (cell.lo[r], cell.hi[r]);
        if lo < LN_P_CUBIC_MIN {
            return Some(linear(&cell.p[r * PLANE..(r + 1) * PLANE], &sx, &sy, &Stencil::FLAT));
        }
        let row: &[f64; PLANE] = cell.ln_p[r * PLANE..(r + 1) * PLANE].try_into().ok()?;
        let along_age: [f64; 4] = std::array::from_fn(|a| {
            let v = &row[4 * a..4 * a + 4];
            (sy.w[0] * v[0] + sy.w[1] * v[1]) + (sy.w[2] * v[2] + sy.w[3] * v[3])
        });
        let w = &sx.w;
        let cubic = (w[0] * along_age[0] + w[1] * along_age[1]) + (w[2] * along_age[2] + w[3] * along_age[3]);
        Some(cubic.clamp(lo, hi).exp())
    }

    /// `f` of the read at (`pe`, `retention_s`, `reads`): its stencil, weights and packed
    /// values; `None` beyond the grid. (A callback, not a returned value: the weights
    /// stay where they are built, not copied on every read.)
    #[inline]
    fn at<R>(&self, pe: f64, retention_s: f64, reads: f64, f: impl FnOnce(&At<'_>) -> R) -> Option<R> {
        let (x, y, z) = (
            self.pe.coord(pe)?,
            self.age.coord(retention_s)?,
            self.reads.coord(reads)?,
        );
        let st = [self.pe.stencil(x), self.age.stencil(y), self.reads.stencil(z)];
        let cell = self.cell(&st[0], &st[1], &st[2]);
        let m = st.iter().map(|s| s.len).product::<usize>();
        if m == PLANE {
            // Wear × age, the common case (no read disturb): fixed sizes, so the weights
            // and dot products compile to straight-line code.
            let mut axes = st.iter().filter(|s| s.len == 4).map(|s| s.w);
            let (wx, wy) = (axes.next().unwrap_or_default(), axes.next().unwrap_or_default());
            let w: [f64; PLANE] = std::array::from_fn(|k| wx[k / 4] * wy[k % 4]);
            Some(f(&At { cell, st, m, w: &w }))
        } else {
            let [sx, sy, sz] = &st;
            let mut w = [0.0; MAX_STENCIL];
            for a in 0..sx.len {
                for b in 0..sy.len {
                    for c in 0..sz.len {
                        w[(a * sy.len + b) * sz.len + c] = sx.w[a] * sy.w[b] * sz.w[c];
                    }
                }
            }
            Some(f(&At {
                cell,
                st,
                m,
                w: &w[..m],
            }))
        }
    }
}

/// Mean of a page's per-pattern probabilities: its RBER for random content (as
/// [`weighted_page_rber`](super::model::weighted_page_rber) takes it without a histogram).
fn uniform_mean(p: &[f64]) -> f64 {
    p.iter().sum::<f64>() / p.len() as f64
}

/// A located read: its cell, stencils, stencil size and weights (borrowed: the read's
/// weights stay where they are built).
struct At<'a> {
    cell: &'a Cell,
    st: [Stencil; 3],
    m: usize,
    w: &'a [f64],
}

impl At<'_> {
    /// Interpolated value of row `r`: cubic in `ln p`, or multilinear in `p` where the
    /// stencil holds a probability below [`LN_P_CUBIC_MIN`].
    #[inline]
    fn value(&self, r: usize) -> f64 {
        let (cell, m) = (self.cell, self.m);
        if let Some(&v) = cell.at_node.get(r) {
            return v;
        }
        let (lo, hi) = (cell.lo[r], cell.hi[r]);
        if lo < LN_P_CUBIC_MIN {
            let [sx, sy, sz] = &self.st;
            return linear(&cell.p[r * m..(r + 1) * m], sx, sy, sz);
        }
        let row = &cell.ln_p[r * m..(r + 1) * m];
        let cubic = match (<&[f64; PLANE]>::try_from(self.w), <&[f64; PLANE]>::try_from(row)) {
            (Ok(w), Ok(row)) => dot(w, row),
            _ => self.w.iter().zip(row).fold(0.0, |acc, (w, v)| acc + w * v),
        };
        // Inside the stencil's range: a cubic cannot overshoot a step into a probability
        // above its nodes'.
        cubic.clamp(lo, hi).exp()
    }
}

/// Nodes of a stencil over two axes (4 × 4).
const PLANE: usize = 16;

/// `Σ w·v` in stencil order.
#[inline]
fn dot(w: &[f64; PLANE], v: &[f64; PLANE]) -> f64 {
    w.iter().zip(v).fold(0.0, |acc, (w, v)| acc + w * v)
}

/// Stencils per axis: one per first node (`n − 3` of them), one on a flat axis.
fn cell_count(axis: &Axis) -> usize {
    if axis.n == 1 {
        1
    } else {
        axis.n - 3
    }
}

/// Multilinear interpolation of `p` over the cell of a stencil, from the stencil's node
/// values `p` in stencil order.
fn linear(p: &[f64], sx: &Stencil, sy: &Stencil, sz: &Stencil) -> f64 {
    let mut acc = 0.0;
    for a in 0..sx.len {
        for b in 0..sy.len {
            for c in 0..sz.len {
                let wl = sx.linear_w(a) * sy.linear_w(b) * sz.linear_w(c);
                if wl != 0.0 {
                    acc += wl * p[(a * sy.len + b) * sz.len + c];
                }
            }
        }
    }
    acc
}

#[cfg(test)]
#[path = "vth_table_tests.rs"]
mod tests;
