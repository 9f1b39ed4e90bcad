//! Uncorrectable reads of critical (metadata) pages under seed 004's three schemes — the
//! quantity its Tables 4–5 count — in closed form, for a BCH code and an MLC device whose
//! MSB pages have σ times the LSB RBER (004 §3, Eq. 4):
//!
//! - **Baseline** (the Linux kernel's default ECC, 004 §5): critical pages go wherever the
//!   FTL's next free page is, so half land on LSB pages and half on MSB pages.
//! - **Asymmetric Programming** (004 §4): every critical page is on an MSB page.
//! - **Meta-Cure** (Wang et al., DAC'12, 004's [17]): every critical page has a redundant
//!   copy on another physical page, placed like the baseline's; the copy is read exactly
//!   when the primary is uncorrectable, and the read fails only when both do (independent
//!   pages). See docs/asymmetric.md.

use crate::ecc::Bch;

/// Where a scheme keeps critical pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriticalScheme {
    /// Page-type-blind placement, no copy.
    Baseline,
    /// MSB pages only.
    AsymmetricProgramming,
    /// Page-type-blind placement with one redundant copy.
    MetaCure,
}

/// The error model of a critical-page read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CriticalPageModel {
    /// The page's BCH code (per codeword).
    pub bch: Bch,
    /// Codewords per page.
    pub codewords_per_page: u32,
    /// MSB RBER / LSB RBER (004: σ = 0.5).
    pub sigma: f64,
}

impl CriticalPageModel {
    /// Probability that a page at `rber` is uncorrectable.
    fn page_fail(&self, rber: f64) -> f64 {
        self.bch.page_fail_prob(rber, self.codewords_per_page)
    }

    /// Probability that a page placed without regard to its type (half LSB, half MSB) is
    /// uncorrectable at LSB RBER `rber_lsb`.
    fn blind_fail(&self, rber_lsb: f64) -> f64 {
        0.5 * (self.page_fail(rber_lsb) + self.page_fail(self.sigma * rber_lsb))
    }

    /// Probability that a read of a critical page ends uncorrectable under `scheme`.
    pub fn fail_prob(&self, scheme: CriticalScheme, rber_lsb: f64) -> f64 {
        match scheme {
            CriticalScheme::Baseline => self.blind_fail(rber_lsb),
            CriticalScheme::AsymmetricProgramming => self.page_fail(self.sigma * rber_lsb),
            CriticalScheme::MetaCure => self.blind_fail(rber_lsb).powi(2),
        }
    }

    /// Page reads per read of a critical page: 1, plus Meta-Cure's backup read whenever the
    /// primary is uncorrectable.
    pub fn reads_per_read(&self, scheme: CriticalScheme, rber_lsb: f64) -> f64 {
        match scheme {
            CriticalScheme::MetaCure => 1.0 + self.blind_fail(rber_lsb),
            _ => 1.0,
        }
    }

    /// Expected uncorrectable critical pages over `reads` critical-page reads at LSB RBER
    /// `rber_lsb` (Tables 4–5's count).
    pub fn expected_uncorrectable(&self, scheme: CriticalScheme, rber_lsb: f64, reads: u64) -> f64 {
        reads as f64 * self.fail_prob(scheme, rber_lsb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CriticalScheme::*;

    fn model(t: u64, codewords_per_page: u32) -> CriticalPageModel {
        CriticalPageModel {
            bch: Bch { n_bits: 20, t },
            codewords_per_page,
            sigma: 0.5,
        }
    }

    /// n = 20, t = 2, one codeword per page. LSB at 0.05: 1 − (0.95^20 + 20·0.05·0.95^19 +
    /// 190·0.05²·0.95^18) = 0.075484. MSB at 0.025: 1 − (0.60269 + 0.30907 + 0.07529) =
    /// 0.012955. Baseline = (0.075484 + 0.012955) / 2 = 0.044219; AP = 0.012955 (70.7 %
    /// fewer); Meta-Cure = 0.044219² = 0.0019553, with 1.044219 reads per read.
    #[test]
    fn hand_computed_small_code() {
        let m = model(2, 1);
        assert!((m.fail_prob(Baseline, 0.05) - 0.044_219).abs() < 1e-6);
        assert!((m.fail_prob(AsymmetricProgramming, 0.05) - 0.012_955).abs() < 1e-6);
        assert!((m.fail_prob(MetaCure, 0.05) - 0.001_955_4).abs() < 1e-7);
        assert!((m.reads_per_read(MetaCure, 0.05) - 1.044_219).abs() < 1e-6);
        assert_eq!(m.reads_per_read(AsymmetricProgramming, 0.05), 1.0);
        assert!((m.expected_uncorrectable(Baseline, 0.05, 1000) - 44.219).abs() < 1e-3);
        // Two codewords per page: a page fails when either does, 1 − (1 − p)².
        let m2 = model(2, 2);
        let lsb = 1.0 - (1.0 - 0.075_484f64).powi(2);
        let msb = 1.0 - (1.0 - 0.012_955f64).powi(2);
        assert!((m2.fail_prob(Baseline, 0.05) - 0.5 * (lsb + msb)).abs() < 1e-5);
    }

    /// t = 0 ("0-bit ECC", Table 5): a page fails on any raw error, 1 − (1 − R)^n.
    #[test]
    fn zero_bit_ecc_fails_on_any_error() {
        let m = model(0, 1);
        let want = 1.0 - 0.99f64.powi(20);
        assert!((m.fail_prob(AsymmetricProgramming, 0.02) - want).abs() < 1e-12);
    }

    #[test]
    fn orderings_hold_across_rber_and_t() {
        for t in 0..=8 {
            let m = CriticalPageModel {
                bch: Bch { n_bits: 8640, t },
                codewords_per_page: 8,
                sigma: 0.5,
            };
            for rber in [1e-6, 1e-5, 1e-4, 1e-3] {
                let (bl, ap, mc) = (
                    m.fail_prob(Baseline, rber),
                    m.fail_prob(AsymmetricProgramming, rber),
                    m.fail_prob(MetaCure, rber),
                );
                assert!(ap <= bl && mc <= bl, "t {t} R {rber}: {bl} {ap} {mc}");
                if t < 8 {
                    assert!(
                        m.fail_prob(Baseline, rber)
                            >= CriticalPageModel {
                                bch: Bch { n_bits: 8640, t: t + 1 },
                                ..m
                            }
                            .fail_prob(Baseline, rber)
                    );
                }
            }
        }
    }
}
