//! Binomial confidence intervals for frame error rates.

use statrs::function::beta::beta_reg;

/// Inverse of the regularized incomplete beta function `I_x(a, b)` in `x`, by bisection.
fn beta_reg_inv(a: f64, b: f64, p: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if beta_reg(a, b, mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// Exact (Clopper–Pearson) two-sided interval with confidence `1 − alpha` for a binomial
/// proportion with `failures` successes out of `trials`. Returns `(lo, hi)`; with zero
/// failures `lo = 0` and `hi = 1 − (alpha/2)^(1/trials)`.
pub fn clopper_pearson(failures: u64, trials: u64, alpha: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let (x, n) = (failures as f64, trials as f64);
    let lo = if failures == 0 {
        0.0
    } else {
        beta_reg_inv(x, n - x + 1.0, alpha / 2.0)
    };
    let hi = if failures == trials {
        1.0
    } else {
        beta_reg_inv(x + 1.0, n - x, 1.0 - alpha / 2.0)
    };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_all_failures_closed_forms() {
        // x = 0: hi solves (1 − p)^n = α/2.
        let (lo, hi) = clopper_pearson(0, 100, 0.05);
        assert_eq!(lo, 0.0);
        assert!((hi - (1.0 - 0.025f64.powf(0.01))).abs() < 1e-9);
        // x = n: lo solves p^n = α/2.
        let (lo, hi) = clopper_pearson(20, 20, 0.05);
        assert_eq!(hi, 1.0);
        assert!((lo - 0.025f64.powf(1.0 / 20.0)).abs() < 1e-9);
    }

    #[test]
    fn one_of_two_is_symmetric() {
        // x = 1, n = 2: lo solves 1 − (1 − p)^2 = α/2, hi = 1 − lo by symmetry.
        let (lo, hi) = clopper_pearson(1, 2, 0.05);
        let expect = 1.0 - (1.0f64 - 0.025).sqrt();
        assert!((lo - expect).abs() < 1e-9);
        assert!((hi - (1.0 - expect)).abs() < 1e-9);
    }
}
