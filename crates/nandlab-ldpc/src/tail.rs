//! The FER curve below its measured range: a power law `FER = f₀ · (RBER / r₀)^s`
//! anchored at the lowest RBER where frames failed, with the slope `s` of a weighted
//! least-squares fit of `ln FER` on `ln RBER` over the [`FIT_POINTS`] lowest such points.
//!
//! Why this is defensible (docs/ldpc.md §4): in the waterfall the local log-log slope of a
//! min-sum decoder's FER grows as the RBER falls (measured here for every level), so a
//! slope fitted over the lowest points over-estimates the FER further down — as long as no
//! error floor starts there. A floor (trapping sets) would flatten the curve and make the
//! model optimistic; none is visible down to the measured depth, and nothing here can
//! rule one out below it.

use serde::{Deserialize, Serialize};

/// Failing points (lowest RBERs first) that the slope is fitted on.
pub const FIT_POINTS: usize = 3;

/// The fitted tail of one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TailModel {
    /// Extra sensing levels `k`.
    pub level: usize,
    /// Lowest RBER with failures (the model applies below it).
    pub anchor_rber: f64,
    /// Measured FER there.
    pub anchor_fer: f64,
    /// Fitted `d ln FER / d ln RBER`.
    pub slope: f64,
    /// RBERs of the points the slope was fitted on.
    pub fit_rbers: Vec<f64>,
}

/// A measured point as the fit sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// Raw bit error rate.
    pub rber: f64,
    /// Frames.
    pub frames: u64,
    /// Failed frames.
    pub failures: u64,
}

impl TailModel {
    /// Fits level `level`'s tail on its measured points (any order). `None` when fewer
    /// than two points have `0 < failures < frames` or the fitted slope is not positive
    /// (then the table has no model below its data).
    pub fn fit(level: usize, points: &[Measured]) -> Option<TailModel> {
        let mut failing: Vec<Measured> = points
            .iter()
            .copied()
            .filter(|p| p.failures > 0 && p.failures < p.frames)
            .collect();
        failing.sort_by(|a, b| a.rber.total_cmp(&b.rber));
        failing.truncate(FIT_POINTS);
        if failing.len() < 2 {
            return None;
        }
        // Var(ln p̂) ≈ (1 − p)/(n p) = (1 − p)/failures (delta method): weight its inverse.
        let xyw: Vec<(f64, f64, f64)> = failing
            .iter()
            .map(|p| {
                let fer = p.failures as f64 / p.frames as f64;
                (p.rber.ln(), fer.ln(), p.failures as f64 / (1.0 - fer))
            })
            .collect();
        let sw: f64 = xyw.iter().map(|t| t.2).sum();
        let xm = xyw.iter().map(|t| t.2 * t.0).sum::<f64>() / sw;
        let ym = xyw.iter().map(|t| t.2 * t.1).sum::<f64>() / sw;
        let sxy: f64 = xyw.iter().map(|t| t.2 * (t.0 - xm) * (t.1 - ym)).sum();
        let sxx: f64 = xyw.iter().map(|t| t.2 * (t.0 - xm).powi(2)).sum();
        let slope = sxy / sxx;
        if !(slope.is_finite() && slope > 0.0) {
            return None;
        }
        let a = failing[0];
        Some(TailModel {
            level,
            anchor_rber: a.rber,
            anchor_fer: a.failures as f64 / a.frames as f64,
            slope,
            fit_rbers: failing.iter().map(|p| p.rber).collect(),
        })
    }

    /// The power law through two points `(rber, fer)` of level `level`, anchored at the
    /// lower one: the local log-log slope between a level's two lowest stratified points
    /// (`table.rs`), extended below them. `None` unless the slope is finite and positive.
    pub fn through(level: usize, lower: (f64, f64), upper: (f64, f64)) -> Option<TailModel> {
        let slope = (upper.1 / lower.1).ln() / (upper.0 / lower.0).ln();
        (slope.is_finite() && slope > 0.0).then(|| TailModel {
            level,
            anchor_rber: lower.0,
            anchor_fer: lower.1,
            slope,
            fit_rbers: vec![lower.0, upper.0],
        })
    }

    /// The model's FER at `rber` (meant for `rber` below [`TailModel::anchor_rber`]).
    pub fn fer(&self, rber: f64) -> f64 {
        self.anchor_fer * (rber / self.anchor_rber).powf(self.slope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rber: f64, frames: u64, failures: u64) -> Measured {
        Measured { rber, frames, failures }
    }

    #[test]
    fn recovers_an_exact_power_law() {
        // FER = 1e-3 · (r / 1e-2)^20 at three points, counts exact: the fit is that line
        // whatever the weights; a saturated and a zero point are ignored.
        let pts = [
            m(1e-2, 1_000_000, 1_000),
            m(1.1e-2, 1_000_000, (1e-3 * 1.1f64.powi(20) * 1e6).round() as u64),
            m(1.2e-2, 100_000, (1e-3 * 1.2f64.powi(20) * 1e5).round() as u64),
            m(2e-2, 80, 80),
            m(5e-3, 800, 0),
        ];
        let t = TailModel::fit(0, &pts).unwrap();
        assert!((t.slope - 20.0).abs() < 0.01, "{t:?}");
        assert_eq!((t.anchor_rber, t.anchor_fer), (1e-2, 1e-3));
        assert!((t.fer(5e-3) / (1e-3 * 0.5f64.powf(t.slope)) - 1.0).abs() < 1e-12);
        assert_eq!(t.fit_rbers, vec![1e-2, 1.1e-2, 1.2e-2]);
    }

    #[test]
    fn weights_follow_the_failure_counts() {
        // Two points fix the line exactly; a third far off it with 1 failure (weight ≈ 1)
        // against 1000 + 1000 moves the slope little. Hand value: unweighted the slope
        // through (ln 1e-2, ln 1e-3), (ln 2e-2, ln 1e-1) is ln 100 / ln 2 = 6.64.
        let pts = [m(1e-2, 1_000_000, 1000), m(2e-2, 10_000, 1000)];
        let t = TailModel::fit(1, &pts).unwrap();
        assert!((t.slope - 100f64.ln() / 2f64.ln()).abs() < 1e-9);
        let mut with_outlier = pts.to_vec();
        with_outlier.push(m(1.5e-2, 1_000_000, 1));
        let t2 = TailModel::fit(1, &with_outlier).unwrap();
        assert!((t2.slope - t.slope).abs() < 0.1, "{t2:?}");
    }

    #[test]
    fn through_two_points_is_their_line() {
        // (6.5e-3, 1e-8) and (7e-3, 3e-6): slope ln 300 / ln(7/6.5) = 5.7038 / 0.074108
        // = 76.97; at 6e-3 the line gives 1e-8 · (6/6.5)^76.97 = 2.111e-11.
        let t = TailModel::through(0, (6.5e-3, 1e-8), (7e-3, 3e-6)).unwrap();
        assert!((t.slope - 76.966).abs() < 0.01, "{t:?}");
        assert!((t.fer(6e-3) / 2.111e-11 - 1.0).abs() < 1e-3, "{}", t.fer(6e-3));
        assert!((t.fer(7e-3) / 3e-6 - 1.0).abs() < 1e-9);
        assert!(TailModel::through(0, (6.5e-3, 1e-6), (7e-3, 1e-6)).is_none());
    }

    #[test]
    fn no_model_without_two_failing_points_or_a_positive_slope() {
        assert!(TailModel::fit(0, &[m(1e-2, 800, 5), m(9e-3, 800, 0)]).is_none());
        assert!(TailModel::fit(0, &[m(1e-2, 800, 50), m(2e-2, 800, 5)]).is_none());
    }
}
