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

/// Pooled two-proportion z statistic of `x1/n1` vs `x2/n2` (normal approximation; 0 when
/// both proportions are 0 or 1). `|z| > 3.29` rejects equal proportions at level 0.001.
pub fn two_proportion_z(x1: u64, n1: u64, x2: u64, n2: u64) -> f64 {
    let (x1, n1, x2, n2) = (x1 as f64, n1 as f64, x2 as f64, n2 as f64);
    let p = (x1 + x2) / (n1 + n2);
    let se = (p * (1.0 - p) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se == 0.0 {
        0.0
    } else {
        (x1 / n1 - x2 / n2) / se
    }
}

/// McNemar z statistic of paired outcomes: `b` pairs where only the first failed, `c`
/// where only the second did (`(b − c)/√(b + c)`, 0 when no pair differs).
pub fn mcnemar_z(b: u64, c: u64) -> f64 {
    if b + c == 0 {
        0.0
    } else {
        (b as f64 - c as f64) / ((b + c) as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_statistics_by_hand() {
        // 30/100 vs 20/100: pooled p = 0.25, se = √(0.25·0.75·0.02) = 0.0612372, z = 1.632993.
        assert!((two_proportion_z(30, 100, 20, 100) - 1.632993).abs() < 1e-6);
        assert_eq!(two_proportion_z(0, 10, 0, 20), 0.0);
        // b = 9, c = 16: (9 − 16)/5 = −1.4.
        assert!((mcnemar_z(9, 16) + 1.4).abs() < 1e-12);
        assert_eq!(mcnemar_z(0, 0), 0.0);
    }

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
