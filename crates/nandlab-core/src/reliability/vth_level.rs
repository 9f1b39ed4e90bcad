//! The distribution of one Vth level at given wear and age, in closed form:
//! `Uniform[low, low + width] ⊗ Normal(0, sd²) ⊗ Laplace(0, λ)` — the ISPP window (or a
//! point, `width = 0`, for a Gaussian level whose width is then in `sd`), the retention
//! spread, and random telegraph noise.
//!
//! Derivation (z = y/s, α = s/λ, Mills ratio `R(x) = Φ(−x)/φ(x)`,
//! `T(z) = φ(z)·R(α − z) = e^{α²/2 − αz}·Φ(z − α)`):
//! - Normal ⊗ Laplace (the normal–Laplace law): `F_NL(y) = E[F_L(y − N)]` integrates in
//!   closed form to `Φ(z) − ½[T(z) − T(−z)]`, density `[T(z) + T(−z)]/(2λ)`; each term
//!   follows from `d/dy[e^{α²/2 ∓ y/λ}Φ(±z − α)] = ∓(1/λ)e^{α²/2 ∓ y/λ}Φ(±z − α) ± φ(z)/s`.
//! - Its antiderivative `H(y) = ∫_{−∞}^y F_NL = s·G(z) + ½λ[T(z) + T(−z)]`, with
//!   `G(z) = z·Φ(z) + φ(z)` (the same identity integrated once more), a sum of positive
//!   terms, so accurate in the lower tail.
//! - The uniform window: `F(v) = [H(v − low) − H(v − low − width)]/width`; the upper tail
//!   by reflection (the noise is symmetric).
//!
//! `T` is evaluated as `φ(z)·√(π/2)·erfcx((α − z)/√2)` where `α ≥ z` and as
//! `e^{α(α/2 − z)}·Φ(z − α)` (an exponent ≤ −α²/2) elsewhere: neither overflows, and
//! both stay accurate when `sd ≪ λ` (fresh data: α ~ 1e-4) or `sd ≫ λ`. Before this the
//! Laplace convolution was a 144-interval Simpson sum (step λ/4), which under a few
//! minutes of retention (ISPP windows' edges sharper than the step) was off by up to a
//! few % on single states' tails.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use statrs::function::erf::erfc;

/// Standard normal CDF.
#[inline]
pub(super) fn phi_cdf(z: f64) -> f64 {
    0.5 * erfc(-z * FRAC_1_SQRT_2)
}

/// Standard normal density.
#[inline]
pub(super) fn phi_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() * 0.398_942_280_401_432_7
}

/// Antiderivative of Φ: `G(z) = z·Φ(z) + φ(z)` (≥ 0).
#[inline]
fn g_int(z: f64) -> f64 {
    (z * phi_cdf(z) + phi_pdf(z)).max(0.0)
}

/// The scaled complementary error function `erfcx(x) = e^{x²}·erfc(x)`, `x ≥ 0`: statrs'
/// `erfc` (relative accuracy kept in its tail) times `e^{x²}`, the exponent split as
/// `h² + (x − h)(x + h)` with `h` = `x` to 26 bits so that `h²` is exact (rounding `x²`
/// itself would cost `x²·ε`); beyond 26, where `erfc` leaves the normal floats, the
/// asymptotic series (its next term is below 2e-15 there).
pub(super) fn erfcx(x: f64) -> f64 {
    if x < 26.0 {
        let h = f64::from_bits(x.to_bits() & !((1u64 << 27) - 1));
        (h * h).exp() * ((x - h) * (x + h)).exp() * erfc(x)
    } else {
        let r = 0.5 / (x * x);
        let series = 1.0 - r * (1.0 - 3.0 * r * (1.0 - 5.0 * r * (1.0 - 7.0 * r * (1.0 - 9.0 * r))));
        series / (x * PI.sqrt())
    }
}

/// `T(z) = φ(z)·R(α − z)` (module notes).
#[inline]
fn mills_term(z: f64, alpha: f64) -> f64 {
    let x = alpha - z;
    if x >= 0.0 {
        phi_pdf(z) * (0.5 * PI).sqrt() * erfcx(x * FRAC_1_SQRT_2)
    } else {
        (alpha * (0.5 * alpha - z)).exp() * phi_cdf(z - alpha)
    }
}

/// One level's Vth distribution (module notes); `width = 0`: no window; `sd = 0`: no
/// normal part; `lambda = 0`: no RTN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LevelAt {
    /// Bottom of the (shifted) ISPP window, or the mean of a Gaussian level.
    pub low: f64,
    /// Width of the window (`ΔV_pp`); 0 for a Gaussian level.
    pub width: f64,
    /// Standard deviation of the normal part.
    pub sd: f64,
    /// RTN Laplace scale `λ`.
    pub lambda: f64,
}

impl LevelAt {
    /// The distribution's centre (its median: the noise is symmetric).
    pub fn centre(&self) -> f64 {
        self.low + 0.5 * self.width
    }

    /// `P(Vth ≤ v)`, accurate in the lower tail.
    pub fn cdf(&self, v: f64) -> f64 {
        if self.lambda <= 0.0 {
            return self.cdf_without_rtn(v);
        }
        let y = v - self.low;
        if self.width <= 0.0 {
            return self.noise_cdf(y).clamp(0.0, 1.0);
        }
        ((self.noise_int(y) - self.noise_int(y - self.width)) / self.width).clamp(0.0, 1.0)
    }

    /// `P(Vth > v)`, accurate in the upper tail.
    pub fn sf(&self, v: f64) -> f64 {
        // Reflect: P(X > v) = P(−X < −v), −X ~ Uniform[−low−width, −low] ⊗ the same noise.
        LevelAt {
            low: -self.low - self.width,
            ..*self
        }
        .cdf(-v)
    }

    /// Density at `v` (volts⁻¹); a window's mass from the tails on `v`'s side of its
    /// middle, where the other side's difference would cancel.
    pub fn pdf(&self, v: f64) -> f64 {
        let y = v - self.low;
        if self.lambda <= 0.0 {
            return self.pdf_without_rtn(y);
        }
        if self.width <= 0.0 {
            return self.noise_pdf(y);
        }
        let (a, b) = (y, y - self.width);
        let mass = if a + b > 0.0 {
            self.noise_cdf(-b) - self.noise_cdf(-a)
        } else {
            self.noise_cdf(a) - self.noise_cdf(b)
        };
        mass.max(0.0) / self.width
    }

    /// `Uniform ⊗ Normal` (no RTN).
    fn cdf_without_rtn(&self, v: f64) -> f64 {
        if self.width <= 0.0 {
            return phi_cdf((v - self.low) / self.sd);
        }
        if self.sd <= 0.0 {
            return ((v - self.low) / self.width).clamp(0.0, 1.0);
        }
        let s = self.sd;
        let a = (v - self.low) / s;
        let b = (v - self.low - self.width) / s;
        (s / self.width * (g_int(a) - g_int(b))).clamp(0.0, 1.0)
    }

    fn pdf_without_rtn(&self, y: f64) -> f64 {
        if self.width <= 0.0 {
            return phi_pdf(y / self.sd) / self.sd;
        }
        if self.sd <= 0.0 {
            let inside = y >= 0.0 && y <= self.width;
            return if inside { 1.0 / self.width } else { 0.0 };
        }
        let a = y / self.sd;
        let b = (y - self.width) / self.sd;
        let mass = if a + b > 0.0 {
            phi_cdf(-b) - phi_cdf(-a)
        } else {
            phi_cdf(a) - phi_cdf(b)
        };
        mass.max(0.0) / self.width
    }

    /// CDF of `Normal(0, sd²) ⊗ Laplace(0, λ)` at `y` (`λ > 0`).
    fn noise_cdf(&self, y: f64) -> f64 {
        let l = self.lambda;
        if self.sd <= 0.0 {
            return if y < 0.0 {
                0.5 * (y / l).exp()
            } else {
                1.0 - 0.5 * (-y / l).exp()
            };
        }
        let (z, alpha) = (y / self.sd, self.sd / l);
        phi_cdf(z) - 0.5 * (mills_term(z, alpha) - mills_term(-z, alpha))
    }

    /// Density of `Normal(0, sd²) ⊗ Laplace(0, λ)` at `y` (`λ > 0`).
    fn noise_pdf(&self, y: f64) -> f64 {
        let l = self.lambda;
        if self.sd <= 0.0 {
            return 0.5 / l * (-y.abs() / l).exp();
        }
        let (z, alpha) = (y / self.sd, self.sd / l);
        0.5 / l * (mills_term(z, alpha) + mills_term(-z, alpha))
    }

    /// `∫_{−∞}^y` of [`Self::noise_cdf`] (`λ > 0`): a sum of positive terms.
    fn noise_int(&self, y: f64) -> f64 {
        let l = self.lambda;
        if self.sd <= 0.0 {
            return if y < 0.0 {
                0.5 * l * (y / l).exp()
            } else {
                y + 0.5 * l * (-y / l).exp()
            };
        }
        let (s, alpha) = (self.sd, self.sd / l);
        let z = y / s;
        s * g_int(z) + 0.5 * l * (mills_term(z, alpha) + mills_term(-z, alpha))
    }
}

#[cfg(test)]
mod tests {
    use statrs::distribution::{Continuous, ContinuousCDF, Normal};

    use super::*;

    /// Adaptive Simpson quadrature of `f` on `[a, b]` (Lyness 1969): a piece is accepted
    /// when its Richardson difference is within `abs_tol` (halved at each split) or within
    /// `rel` of the piece itself.
    fn adaptive_simpson(f: &dyn Fn(f64) -> f64, a: f64, b: f64, abs_tol: f64, rel: f64) -> f64 {
        #[allow(clippy::too_many_arguments)]
        fn step(
            f: &dyn Fn(f64) -> f64,
            a: f64,
            b: f64,
            fa: f64,
            fm: f64,
            fb: f64,
            whole: f64,
            tol: f64,
            rel: f64,
            depth: u32,
        ) -> f64 {
            let m = 0.5 * (a + b);
            let (flm, frm) = (f(0.5 * (a + m)), f(0.5 * (m + b)));
            let left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
            let right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
            let delta = left + right - whole;
            if depth == 0 || delta.abs() <= 15.0 * tol.max(rel * (left + right).abs()) {
                return left + right + delta / 15.0;
            }
            step(f, a, m, fa, flm, fm, left, 0.5 * tol, rel, depth - 1)
                + step(f, m, b, fm, frm, fb, right, 0.5 * tol, rel, depth - 1)
        }
        let (fa, fm, fb) = (f(a), f(0.5 * (a + b)), f(b));
        let whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb);
        step(f, a, b, fa, fm, fb, whole, abs_tol, rel, 40)
    }

    /// `P(U + N + L ≤ v)` by quadrature over the Laplace variable `l` of the textbook
    /// `Uniform ⊗ Normal` CDF (statrs' normal; a normal CDF when `w = 0`), split at the
    /// integrand's kinks (`l = 0`, the window's edges seen from `v`) and integrated to
    /// ~1e-13 of its value. Independent of the closed form: no `T`, no `erfcx`.
    fn numeric_cdf(low: f64, w: f64, s: f64, lambda: f64, v: f64) -> f64 {
        let n = Normal::standard();
        let un = |y: f64| {
            if w == 0.0 {
                return n.cdf(y / s);
            }
            let g = |z: f64| z * n.cdf(z) + n.pdf(z);
            s / w * (g(y / s) - g((y - w) / s))
        };
        let f = |l: f64| 0.5 / lambda * (-l.abs() / lambda).exp() * un(v - low - l);
        let reach = 80.0 * lambda + 40.0 * s + (v - low).abs() + w;
        let mut cuts = vec![-reach, 0.0, v - low, v - low - w, reach];
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        // A first pass sets the scale of the relative tolerance.
        let rough: f64 = cuts
            .windows(2)
            .map(|c| adaptive_simpson(&f, c[0], c[1], 0.0, 1e-6))
            .sum();
        cuts.windows(2)
            .map(|c| adaptive_simpson(&f, c[0], c[1], 1e-13 * rough, 1e-13))
            .sum()
    }

    #[test]
    fn erfcx_known_values() {
        // erfcx(0) = 1; erfcx(1) = e·erfc(1) = 0.42758357615580700; erfcx(10) =
        // 0.056140992743822585 (tabulated values). Within 1e-10: statrs' `erfc` itself is
        // 4.5e-11 (relative) off at 1.
        assert_eq!(erfcx(0.0), 1.0);
        assert!(
            (erfcx(1.0) / 0.427_583_576_155_807 - 1.0).abs() < 1e-10,
            "{}",
            erfcx(1.0)
        );
        assert!(
            (erfcx(10.0) / 0.056_140_992_743_822_59 - 1.0).abs() < 1e-10,
            "{}",
            erfcx(10.0)
        );
        // Continuous where it changes to the series; → 1/(x√π).
        let jump = erfcx(26.0 - 1e-12) / erfcx(26.0) - 1.0;
        assert!(jump.abs() < 1e-10, "{jump:e}");
        assert!((erfcx(1e6) * 1e6 * PI.sqrt() - 1.0).abs() < 1e-12);
    }

    /// The closed form against quadrature over the regimes the Dong model reaches: a
    /// year-old ISPP level (`sd` ≫ λ), fresh data (`sd` ≪ λ, α ~ 4e-4), in between, and
    /// a Gaussian (erased) level; lower tail, middle and upper tail down to ~1e-30.
    #[test]
    fn closed_form_matches_quadrature() {
        let cases = [
            (3.13, 0.2, 0.079, 0.035),
            (3.2, 0.2, 1.4e-5, 0.035),
            (3.2, 0.2, 0.01, 0.035),
            (2.6, 0.2, 0.004, 0.0025),
            (1.4, 0.0, 0.35, 0.035),
        ];
        for &(low, w, s, lambda) in &cases {
            let x = LevelAt {
                low,
                width: w,
                sd: s,
                lambda,
            };
            for dv in [-2.0, -0.6, -0.25, -0.05, 0.0, 0.07, 0.13, 0.2, 0.26, 0.45, 0.8, 2.0] {
                let v = low + dv;
                let (want_cdf, want_sf) = (
                    numeric_cdf(low, w, s, lambda, v),
                    numeric_cdf(-low - w, w, s, lambda, -v),
                );
                let (cdf, sf) = (x.cdf(v), x.sf(v));
                assert!(
                    (cdf - want_cdf).abs() <= 1e-10 * want_cdf + 1e-300,
                    "{x:?} v {v}: cdf {cdf} vs {want_cdf}"
                );
                assert!(
                    (sf - want_sf).abs() <= 1e-10 * want_sf + 1e-300,
                    "{x:?} v {v}: sf {sf} vs {want_sf}"
                );
                assert!((cdf + sf - 1.0).abs() < 1e-13, "{x:?} v {v}");
            }
        }
    }

    /// The density is the derivative of the CDF (central difference, step 1e-6 V).
    #[test]
    fn pdf_is_the_cdf_derivative() {
        for &(low, w, s, lambda) in &[
            (3.13, 0.2, 0.079, 0.035),
            (3.2, 0.2, 0.002, 0.035),
            (1.4, 0.0, 0.35, 0.035),
        ] {
            let x = LevelAt {
                low,
                width: w,
                sd: s,
                lambda,
            };
            for dv in [-0.5, -0.1, 0.0, 0.1, 0.3, 0.6] {
                let (v, h) = (low + dv, 1e-6);
                let d = if dv <= 0.5 * w {
                    (x.cdf(v + h) - x.cdf(v - h)) / (2.0 * h)
                } else {
                    (x.sf(v - h) - x.sf(v + h)) / (2.0 * h)
                };
                assert!((x.pdf(v) / d - 1.0).abs() < 1e-6, "{x:?} v {v}: {} vs {d}", x.pdf(v));
            }
        }
    }

    /// As `sd → 0` the law is `Uniform ⊗ Laplace`, written out by hand:
    /// `F(v) = (K(v−a) − K(v−a−w))/w`, `K(y) = (λ/2)e^{y/λ}` below 0,
    /// `y + (λ/2)e^{−y/λ}` above; and `sd = 0` is exactly that.
    #[test]
    fn vanishing_spread_is_uniform_with_laplace() {
        let (a, w, lambda) = (2.6, 0.2, 0.02);
        let k = |y: f64| {
            if y < 0.0 {
                0.5 * lambda * (y / lambda).exp()
            } else {
                y + 0.5 * lambda * (-y / lambda).exp()
            }
        };
        for sd in [0.0, 1e-7] {
            let x = LevelAt {
                low: a,
                width: w,
                sd,
                lambda,
            };
            for v in [2.2, 2.45, 2.55, 2.7, 2.82, 2.9] {
                let want = (k(v - a) - k(v - a - w)) / w;
                assert!(
                    (x.cdf(v) / want - 1.0).abs() < 1e-6,
                    "sd {sd} v {v}: {} vs {want}",
                    x.cdf(v)
                );
            }
        }
    }

    /// Without RTN: the window ⊗ normal against a midpoint rule over the window.
    #[test]
    fn uniform_plus_normal_cdf_matches_numeric_integral() {
        let c = LevelAt {
            low: 2.6,
            width: 0.2,
            sd: 0.05,
            lambda: 0.0,
        };
        for &v in &[2.4, 2.55, 2.7, 2.85, 3.0] {
            // Midpoint rule over the uniform window.
            let n = 20_000;
            let num: f64 = (0..n)
                .map(|i| {
                    let x = 2.6 + 0.2 * (i as f64 + 0.5) / n as f64;
                    phi_cdf((v - x) / 0.05)
                })
                .sum::<f64>()
                / n as f64;
            assert!((c.cdf(v) - num).abs() < 1e-9, "{v}");
            assert!((c.sf(v) - (1.0 - num)).abs() < 1e-9, "{v}");
        }
    }
}
