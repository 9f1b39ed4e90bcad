//! The `vth` error model: per-state misread probabilities of a [`VthModel`], read from
//! its [`VthTable`] (the default) or computed exactly for every read
//! (`reliability.vth_exact = true`, for checks: one exact evaluation costs tens of microseconds).

use super::model::{weighted_page_rber, ErrorContext, ErrorModel};
use super::vth::VthModel;
use super::vth_table::{exact_probs, VthTable};
use crate::content::MAX_STATES;

/// `vth` model: a [`VthModel`] behind its table, or evaluated exactly.
#[derive(Debug)]
pub enum VthErrorModel {
    /// Interpolated in the model's table.
    Table(VthTable),
    /// Exact on every read.
    Exact(VthModel),
}

impl VthErrorModel {
    /// Wraps `model`; the table has nodes every `sqrt_pe_step` in `√PE` and
    /// `points_per_decade` nodes per decade of `1 + retention_s` (and of `1 + reads` with
    /// read disturb).
    pub fn new(model: VthModel, sqrt_pe_step: f64, points_per_decade: f64) -> Self {
        VthErrorModel::Table(VthTable::new(model, sqrt_pe_step, points_per_decade))
    }

    /// The underlying Vth model.
    pub fn vth(&self) -> &VthModel {
        match self {
            VthErrorModel::Table(t) => t.vth(),
            VthErrorModel::Exact(m) => m,
        }
    }

    /// Exact per page type × bit pattern error probabilities at no reads since erase (no
    /// table); page type `t` reads pattern bit
    /// [`pattern_bit_of_page_type`](super::vth::pattern_bit_of_page_type).
    pub fn exact(&self, pe: f64, retention_s: f64) -> Vec<f64> {
        exact_probs(self.vth(), pe, retention_s, 0.0)
    }
}

impl ErrorModel for VthErrorModel {
    fn name(&self) -> &'static str {
        "vth"
    }

    fn n_states(&self) -> usize {
        self.vth().n_states()
    }

    fn wear_and_age_blind(&self) -> bool {
        matches!(self, VthErrorModel::Table(t) if t.is_constant())
    }

    fn state_error_probs_into(&self, ctx: &ErrorContext, out: &mut [f64]) {
        let page = (ctx.page_type as usize).min(self.vth().bits_per_cell() - 1);
        let (pe, t, r) = (ctx.pe_cycles, ctx.retention_s, ctx.reads_since_erase);
        match self {
            VthErrorModel::Table(table) => table.probs_into(page, pe, t, r, out),
            VthErrorModel::Exact(m) => {
                let n = m.n_states();
                let p = exact_probs(m, pe.max(0.0), t.max(0.0), r.max(0.0));
                out.copy_from_slice(&p[page * n..(page + 1) * n]);
            }
        }
    }

    /// Random content (no histogram) on a wear- or age-dependent table: the page RBER
    /// interpolated as one value ([`VthTable::uniform_rber`]), one `exp` per read instead
    /// of one per state. A constant table keeps the per-state path (the read path
    /// computes it once per page type).
    fn page_rber(&self, ctx: &ErrorContext) -> f64 {
        if let (VthErrorModel::Table(table), None) = (self, ctx.hist) {
            if !table.is_constant() {
                let page = (ctx.page_type as usize).min(table.vth().bits_per_cell() - 1);
                let (pe, t, r) = (ctx.pe_cycles, ctx.retention_s, ctx.reads_since_erase);
                // The mean of one value is that value: variation and cap as for any page.
                return weighted_page_rber(&[table.uniform_rber(page, pe, t, r)], ctx);
            }
        }
        let mut buf = [0.0; MAX_STATES];
        let p = &mut buf[..self.n_states()];
        self.state_error_probs_into(ctx, p);
        weighted_page_rber(p, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reliability::interference::{Coupling, ReadDisturb};
    use crate::reliability::vth::VthParams;

    #[test]
    fn grid_nodes_are_exact_and_between_is_close() {
        let m = VthErrorModel::new(VthModel::new(VthParams::dong_mlc()).unwrap(), 10.0, 4.0);
        // On a node (PE 10,000 = 100²; t = τ·(10^(8/4) − 1) = 2,970 s) the table is exact.
        let t = super::super::vth_table::AGE_TAU_S * 99.0;
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
        // Between nodes (√PE 102.5, t 2e5 s, a coarse grid), within 1 % of the exact value.
        let ctx = ErrorContext {
            pe_cycles: 10_500.0,
            retention_s: 2e5,
            page_type: 1,
            ..Default::default()
        };
        let direct = m.vth().page_rber(0, None, 10_500.0, 2e5);
        assert!(
            (m.page_rber(&ctx) / direct - 1.0).abs() < 0.01,
            "{} vs {direct}",
            m.page_rber(&ctx)
        );
    }

    /// `vth_exact = true` evaluates the model itself on every read: its page RBER is the
    /// model's `page_rber` at any point, on or off the grid.
    #[test]
    fn exact_config_is_the_model() {
        use crate::reliability::{ModelKind, ReliabilityConfig};
        let c = ReliabilityConfig {
            model: ModelKind::Vth,
            vth_exact: true,
            ..Default::default()
        };
        let m = c.build(2).unwrap();
        let ctx = ErrorContext {
            pe_cycles: 12_345.0,
            retention_s: 4.2e6,
            page_type: 1,
            ..Default::default()
        };
        let want = VthModel::new(VthParams::dong_mlc())
            .unwrap()
            .page_rber(0, None, 12_345.0, 4.2e6);
        assert!(
            (m.page_rber(&ctx) / want - 1.0).abs() < 1e-12,
            "{} vs {want}",
            m.page_rber(&ctx)
        );
        assert!(!m.wear_and_age_blind());
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
        // Equal to rounding: `off` is a one-node table read per state, `m` reads random
        // content's mean from its own row (`ln` and `exp` of the mean, not of each state).
        assert!((off.page_rber(&ctx(0.0)) / fresh - 1.0).abs() < 1e-12, "{fresh}");
    }
}
