//! The `vth` error model: per-state misread probabilities from a [`VthModel`], cached on
//! a grid in (P/E, log retention) and interpolated bilinearly, because one exact
//! evaluation (optimal references, RTN convolution) costs milliseconds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::model::{ErrorContext, ErrorModel};
use super::vth::VthModel;

/// Grid node (P/E index, retention index) → error probabilities by page type × pattern.
type NodeCache = HashMap<(u32, u32), Arc<Vec<f64>>>;

/// `vth` model: a [`VthModel`] plus a lazily filled table.
#[derive(Debug)]
pub struct VthErrorModel {
    model: VthModel,
    pe_step: f64,
    points_per_decade: f64,
    /// Node (pe index, retention index) → per page type, per bit pattern error prob.
    cache: Mutex<NodeCache>,
}

impl VthErrorModel {
    /// Wraps `model`; the grid has nodes every `pe_step` cycles and `points_per_decade`
    /// nodes per decade of `1 + retention_s`.
    pub fn new(model: VthModel, pe_step: f64, points_per_decade: f64) -> Self {
        VthErrorModel {
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

    /// Exact per page type × bit pattern error probabilities (no cache).
    pub fn exact(&self, pe: f64, retention_s: f64) -> Vec<f64> {
        let m = &self.model;
        let refs = m.read_refs_v(pe, retention_s);
        let n = m.n_states();
        let mut out = vec![0.0; m.bits_per_cell() * n];
        for level in 0..n {
            let tp = m.transition_probs(level, &refs, pe, retention_s);
            let pattern = m.pattern_of_level(level) as usize;
            for page in 0..m.bits_per_cell() {
                let bit = m.page_bit(level, page);
                out[page * n + pattern] = tp
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| m.page_bit(j, page) != bit)
                    .map(|(_, p)| p)
                    .sum();
            }
        }
        out
    }

    fn node(&self, i: u32, j: u32) -> Arc<Vec<f64>> {
        if let Some(v) = self.cache.lock().expect("cache lock").get(&(i, j)) {
            return v.clone();
        }
        let pe = f64::from(i) * self.pe_step;
        let t = 10f64.powf(f64::from(j) / self.points_per_decade) - 1.0;
        let v = Arc::new(self.exact(pe, t));
        self.cache.lock().expect("cache lock").insert((i, j), v.clone());
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
        for (ci, cj, w) in corners {
            if w == 0.0 {
                continue;
            }
            let v = self.node(ci, cj);
            for s in 0..n {
                out[s] += w * v[page * n + s];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let direct = m.vth().page_rber(0, None, 10_000.0, t);
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
        let direct = m.vth().page_rber(1, None, 10_500.0, 2e5);
        assert!(
            (m.page_rber(&ctx) / direct - 1.0).abs() < 0.1,
            "{} vs {direct}",
            m.page_rber(&ctx)
        );
    }
}
