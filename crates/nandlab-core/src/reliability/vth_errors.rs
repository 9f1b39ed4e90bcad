//! The `vth` error model: per-state misread probabilities from a [`VthModel`], cached on
//! a grid in (P/E, log retention) and interpolated bilinearly, because one exact
//! evaluation (optimal references, RTN convolution) costs milliseconds. With read disturb
//! on, the grid has a third axis, log reads of the block since erase (trilinear).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::model::{ErrorContext, ErrorModel};
use super::vth::{pattern_bit_of_page_type, VthModel};

/// Grid node (P/E, retention, reads index) → error probabilities by page type × pattern.
type NodeCache = HashMap<(u32, u32, u32), Arc<Vec<f64>>>;

/// `vth` model: a [`VthModel`] plus a lazily filled table.
#[derive(Debug)]
pub struct VthErrorModel {
    model: VthModel,
    pe_step: f64,
    points_per_decade: f64,
    /// Whether the reads axis is used (read disturb on).
    reads_axis: bool,
    /// Node (pe index, retention index, reads index) → per page type, per bit pattern
    /// error prob.
    cache: Mutex<NodeCache>,
}

impl VthErrorModel {
    /// Wraps `model`; the grid has nodes every `pe_step` cycles and `points_per_decade`
    /// nodes per decade of `1 + retention_s` (and of `1 + reads` with read disturb).
    pub fn new(model: VthModel, pe_step: f64, points_per_decade: f64) -> Self {
        VthErrorModel {
            reads_axis: model.params().read_disturb.is_some(),
            model,
            pe_step: pe_step.max(1.0),
            points_per_decade: points_per_decade.max(1.0),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The underlying Vth model.
    pub fn vth(&self) -> &VthModel {
        &self.model
    }

    /// Exact per page type × bit pattern error probabilities (no cache); page type `t`
    /// reads pattern bit [`pattern_bit_of_page_type`].
    pub fn exact(&self, pe: f64, retention_s: f64) -> Vec<f64> {
        let m = &self.model;
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

    /// Node value on a log axis: `10^(k/points_per_decade) − 1`.
    fn log_node(&self, k: u32) -> f64 {
        10f64.powf(f64::from(k) / self.points_per_decade) - 1.0
    }

    fn node(&self, i: u32, j: u32, k: u32) -> Arc<Vec<f64>> {
        if let Some(v) = self.cache.lock().expect("cache lock").get(&(i, j, k)) {
            return v.clone();
        }
        let pe = f64::from(i) * self.pe_step;
        let t = self.log_node(j);
        let v = Arc::new(if k == 0 {
            self.exact(pe, t)
        } else {
            let worn = VthErrorModel::new(
                self.model.at_reads(self.log_node(k)),
                self.pe_step,
                self.points_per_decade,
            );
            worn.exact(pe, t)
        });
        self.cache.lock().expect("cache lock").insert((i, j, k), v.clone());
        v
    }
}

impl ErrorModel for VthErrorModel {
    fn name(&self) -> &'static str {
        "vth"
    }

    fn n_states(&self) -> usize {
        self.model.n_states()
    }

    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]) {
        let x = ctx.pe_cycles.max(0.0) / self.pe_step;
        let y = (1.0 + ctx.retention_s.max(0.0)).log10() * self.points_per_decade;
        let (i, j) = (x.floor() as u32, y.floor() as u32);
        let (fx, fy) = (x - f64::from(i), y - f64::from(j));
        let n = self.model.n_states();
        let page = (ctx.page_type as usize).min(self.model.bits_per_cell() - 1);
        let corners = [
            (i, j, (1.0 - fx) * (1.0 - fy)),
            (i + 1, j, fx * (1.0 - fy)),
            (i, j + 1, (1.0 - fx) * fy),
            (i + 1, j + 1, fx * fy),
        ];
        out.fill(0.0);
        // Without read disturb every node is at reads index 0 with weight × 1 (exact).
        let (k, fz) = if self.reads_axis {
            let z = (1.0 + ctx.reads_since_erase.max(0.0)).log10() * self.points_per_decade;
            (z.floor() as u32, z - z.floor())
        } else {
            (0, 0.0)
        };
        for (dk, wz) in [(0, 1.0 - fz), (1, fz)] {
            for (ci, cj, w) in corners {
                if w == 0.0 || wz == 0.0 {
                    continue;
                }
                let v = self.node(ci, cj, k + dk);
                for s in 0..n {
                    out[s] += w * wz * v[page * n + s];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::interference::{Coupling, ReadDisturb};
    use crate::reliability::vth::VthParams;

    #[test]
    fn grid_nodes_are_exact_and_between_is_close() {
        let m = VthErrorModel::new(VthModel::new(VthParams::dong_mlc()).unwrap(), 1000.0, 4.0);
        // On a node (PE 10,000; t = 10^(20/4) − 1 s) the table is exact.
        let t = 1e5 - 1.0;
        let ctx = ErrorContext {
            pe_cycles: 10_000.0,
            retention_s: t,
            page_type: 0,
            ..Default::default()
        };
        // Page type 0 is the page of the first character, pattern bit 1.
        let direct = m.vth().page_rber(1, None, 10_000.0, t);
        assert!(
            (m.page_rber(&ctx) / direct - 1.0).abs() < 1e-9,
            "{} vs {direct}",
            m.page_rber(&ctx)
        );
        // Between nodes, within 10 % of the exact value.
        let ctx = ErrorContext {
            pe_cycles: 10_500.0,
            retention_s: 2e5,
            page_type: 1,
            ..Default::default()
        };
        let direct = m.vth().page_rber(0, None, 10_500.0, 2e5);
        assert!(
            (m.page_rber(&ctx) / direct - 1.0).abs() < 0.1,
            "{} vs {direct}",
            m.page_rber(&ctx)
        );
    }

    /// MSB page (one reference `V₁`; the simulator's page type 0) of 002's retention-free
    /// layout, from Q-function sums written from the equations: a state-`s` cell shifted
    /// by `c` errs with `Q((V₁ − μ_s − c)/δ_s)` below `V₁` (S0, S1) or
    /// `Φ((V₁ − μ_s − c)/δ_s)` above.
    fn msb_rber_by_hand(shift: impl Fn(usize) -> Vec<(f64, f64)>) -> f64 {
        use crate::reliability::tvr::q;
        let p = VthParams::wang_retention_free_mlc();
        let v1 = p.read_refs_v.as_ref().unwrap()[1];
        let (mu, sd): (Vec<f64>, Vec<f64>) = p
            .levels
            .iter()
            .map(|l| match *l {
                crate::reliability::LevelDist::Gaussian { mean_v, sigma_v, .. } => (mean_v, sigma_v),
                _ => unreachable!("Gaussian preset"),
            })
            .unzip();
        (0..4)
            .map(|s| {
                shift(s)
                    .iter()
                    .map(|&(c, w)| {
                        let z = (v1 - mu[s] - c) / sd[s];
                        w * if s < 2 { q(z) } else { q(-z) }
                    })
                    .sum::<f64>()
                    / 4.0
            })
            .sum()
    }

    fn wang_with(coupling: Option<Coupling>, read_disturb: Option<ReadDisturb>) -> VthErrorModel {
        let p = VthParams {
            coupling,
            read_disturb,
            ..VthParams::wang_retention_free_mlc()
        };
        VthErrorModel::new(VthModel::new(p).unwrap(), 100.0, 8.0)
    }

    /// Eq. 3 as an error term: every cell moves up by γ_fg1·r_next + γ_fg2·(r_left +
    /// r_right), each neighbour's rise `r = μ_n − μ₀` of a random state (64 equally likely
    /// combinations, enumerated here); the MSB RBER is the mixture of the shifted tails.
    #[test]
    fn coupling_term_matches_hand_mixture() {
        use crate::reliability::interference::Coupling;
        let mu = [1.4, 3.16, 3.84, 4.56];
        let (g1, g2) = (0.02, 0.006);
        let mix = |_s: usize| {
            let mut v = Vec::new();
            for a in 0..4 {
                for b in 0..4 {
                    for c in 0..4 {
                        let r = |i: usize| mu[i] - mu[0];
                        v.push((g1 * r(a) + g2 * (r(b) + r(c)), 1.0 / 64.0));
                    }
                }
            }
            v
        };
        let want = msb_rber_by_hand(mix);
        let m = wang_with(Some(Coupling::cho()), None);
        // 002's MSB page, sensed with V₁ alone, is the simulator's page type 0.
        let ctx = ErrorContext {
            page_type: 0,
            ..Default::default()
        };
        let got = m.page_rber(&ctx);
        assert!((got / want - 1.0).abs() < 1e-9, "{got} vs {want}");
        // Without coupling the same sum with no shift: the term raises the RBER.
        let plain = msb_rber_by_hand(|_| vec![(0.0, 1.0)]);
        let off = wang_with(None, None).page_rber(&ctx);
        assert!(
            (off / plain - 1.0).abs() < 1e-9 && got > 2.0 * off,
            "{off} {plain} {got}"
        );
    }

    /// Eq. 5 as an error term: after R reads of the block each state's mean rises by
    /// R·I₀·e^{b₀·α_G·(V_pass − μ_s)}, V_pass = μ₃ + margin = 5.56 V; at R = 99 (a grid
    /// node: 10^(16/8) − 1) the table is exact. Without the term reads change nothing.
    #[test]
    fn read_disturb_term_matches_hand_shift() {
        use crate::reliability::interference::ReadDisturb;
        let mu = [1.4, 3.16, 3.84, 4.56];
        let (b0, alpha, i0, margin, reads): (f64, f64, f64, f64, f64) = (1.0, 0.5, 1e-4, 1.0, 99.0);
        let rise = |s: usize| reads * i0 * (b0 * alpha * (mu[3] + margin - mu[s])).exp();
        // Erased cells: v_ox = 0.5·4.16 = 2.08 V, 99·1e-4·e^2.08 = 0.0792 V.
        assert!((rise(0) - 0.079_25).abs() < 1e-4, "{}", rise(0));
        let want = msb_rber_by_hand(|s| vec![(rise(s), 1.0)]);
        let rd = ReadDisturb {
            b0_per_v: b0,
            gate_coupling_ratio: alpha,
            i0_v_per_read: i0,
            pass_margin_v: margin,
        };
        let m = wang_with(None, Some(rd));
        let ctx = |r: f64| ErrorContext {
            page_type: 0,
            reads_since_erase: r,
            ..Default::default()
        };
        let got = m.page_rber(&ctx(reads));
        assert!((got / want - 1.0).abs() < 1e-9, "{got} vs {want}");
        let fresh = m.page_rber(&ctx(0.0));
        assert!(got > fresh, "{got} {fresh}");
        let off = wang_with(None, None);
        assert_eq!(off.page_rber(&ctx(reads)), off.page_rber(&ctx(0.0)));
        assert_eq!(off.page_rber(&ctx(0.0)), fresh);
    }
}
