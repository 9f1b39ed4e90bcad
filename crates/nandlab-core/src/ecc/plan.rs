//! Read-path plans: for a page read at a given RBER, the sequence of sensing / transfer /
//! decode attempts the controller makes under a read strategy ([`super::strategy`]), and
//! the outcome. The simulator reserves the plane, bus and decoder for each attempt itself;
//! this module only decides *what* happens.
//!
//! Failure model across levels: a codeword that decodes at level `L` decodes at every
//! higher level (one uniform draw per page compared with the non-increasing per-level page
//! failure probabilities), so `P(fail at L | failed below L) = f_L / f_{L−1}`.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::bch::Bch;
use super::binomial::any_fails;
use super::draw::{expected_codeword_errors, ErrorDraw};
use super::fail_grid::sample_needed_level;
use super::ldpc::{LdpcLadder, LevelCapability};
use super::strategy::{ReadStrategy, StrategyConfig};

/// How much soft data crosses the bus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SoftTransfer {
    /// Each extra sensing level adds one page-sized bit plane, sent once (seed 001 Eq. 3:
    /// `τ(1)_xfer` per extra level).
    #[default]
    Incremental,
    /// An attempt with `L` extra levels sends the whole quantised soft value,
    /// `⌈log2(L + 2)⌉` bits per cell-bit (hard data included), every time.
    Quantized,
    /// The soft data of all extra levels of a page is `soft_xfer_bytes` (seed 001 §2.2:
    /// "about 80µs to transfer the seven-level soft-decision sensing results of 4KB", at
    /// 200 MB/s); an attempt sensing `k` new levels sends `k / max_extra_levels` of it, and
    /// the hard data once, with the hard sensing.
    Stated,
}

/// One sensing + transfer + decode attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadAttempt {
    /// Decoding level of this attempt (0 = hard decision, `L` = `L` extra levels).
    pub level: u8,
    /// The attempt starts with the hard sensing (t_R of the page type).
    pub hard_sense: bool,
    /// Extra soft sensing levels sensed in this attempt (each costs one extra-sense time).
    pub extra_levels_sensed: u8,
    /// Bytes moved from the die to the controller in this attempt.
    pub xfer_bytes: u64,
    /// Codeword decodes in this attempt.
    pub codewords_decoded: u32,
    /// Look-ahead: the sensing may start as soon as the previous attempt's sensing ends
    /// (when the plane has no other request), overlapping the previous transfer and
    /// decode. If the previous decode succeeds, this sensing is cancelled.
    pub look_ahead: bool,
}

/// How a read ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadOutcome {
    /// Decoded at this level.
    Decoded {
        /// Level that decoded (0 = hard).
        level: u8,
    },
    /// No level could decode: an uncorrectable page.
    Uncorrectable,
}

/// The plan of one page read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadPlan {
    /// Attempts in order (the last one decides the outcome).
    pub attempts: Vec<ReadAttempt>,
    /// Result.
    pub outcome: ReadOutcome,
    /// Look-ahead sensing levels started speculatively and cancelled because the previous
    /// decode succeeded (their sensing energy is spent; the plane is released early).
    pub cancelled_look_ahead_levels: u8,
    /// Probability that this page read is uncorrectable at its RBER (model value, the
    /// same in both modes; sum it for an expected count of uncorrectable pages).
    pub uncorrectable_prob: f64,
}

/// The host's addressing unit (MQSim's `SECTOR_SIZE_IN_BYTE`): a request covers whole
/// sectors of a page, and without ECC a partial page moves whole sectors.
pub const SECTOR_BYTES: u64 = 512;

/// Page-failure probability that defines the RBER an ECC "can correct" for endurance
/// estimates (one failed read in a thousand at the strongest level).
pub const ENDURANCE_PAGE_FAIL: f64 = 1e-3;

/// Which code the controller runs.
#[derive(Debug, Clone, PartialEq)]
pub enum EccCode {
    /// No ECC: any raw error makes the page uncorrectable.
    None,
    /// BCH (hard decision only).
    Bch(Bch),
    /// LDPC ladder.
    Ldpc(LdpcLadder),
}

/// Builds [`ReadPlan`]s for one device.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPlanner {
    /// The code.
    pub code: EccCode,
    /// Escalation strategy (LDPC only; BCH and none read once).
    pub strategy: StrategyConfig,
    /// Soft data volume model.
    pub soft_transfer: SoftTransfer,
    /// [`SoftTransfer::Stated`]: bytes of all extra levels' soft data of one page.
    pub soft_xfer_bytes: u64,
    /// Codeword length in bits (data + parity).
    pub codeword_bits: u64,
    /// Codewords per page.
    pub codewords_per_page: u32,
    /// Bytes of one page transfer (hard data).
    pub page_bytes: u64,
    /// Stochastic or expected errors.
    pub draw: ErrorDraw,
}

impl ReadPlanner {
    /// Highest level the code has (0 unless LDPC).
    pub fn max_level(&self) -> u8 {
        match &self.code {
            EccCode::Ldpc(l) => l.max_extra_levels,
            _ => 0,
        }
    }

    /// Probability that a page read at `rber` fails at every level up to `L`, for
    /// `L = 0 ..= max_level` (non-increasing; the last is the page's uncorrectable
    /// probability), when each codeword's raw errors are Binomial(n, RBER): a page fails
    /// when any of its codewords does ([`LdpcLadder::codeword_fail_probs`], BCH's tail).
    pub fn page_fail_probs(&self, rber: f64) -> Vec<f64> {
        let s = self.codewords_per_page;
        let n = self.codeword_bits;
        match &self.code {
            EccCode::None => vec![any_fails(rber.clamp(0.0, 1.0), (n as u32).saturating_mul(s))],
            EccCode::Bch(b) => vec![b.page_fail_prob(rber, s)],
            EccCode::Ldpc(l) => l
                .codeword_fail_probs(rber, n)
                .into_iter()
                .map(|p| any_fails(p, s))
                .collect(),
        }
    }

    /// The RBER below which [`ReadPlanner::page_fail_probs`] rests on extrapolated FER
    /// (an LDPC ladder on a measured table: [`LdpcLadder::fer_measured_from`]); `None` for
    /// closed forms (thresholds, BCH, no ECC).
    pub fn fer_measured_from(&self) -> Option<f64> {
        match &self.code {
            EccCode::Ldpc(l) => l.fer_measured_from(),
            _ => None,
        }
    }

    /// Codewords an attempt decodes: every codeword of the page, none without ECC (no
    /// decoder runs, so no decode time or energy).
    pub fn codewords_decoded(&self) -> u32 {
        match self.code {
            EccCode::None => 0,
            _ => self.codewords_per_page,
        }
    }

    /// Units a page divides into for partial transfers: its codewords when an ECC runs
    /// (the decoder needs a whole codeword, so a partial read moves and decodes every
    /// codeword holding a requested sector), else its 512-byte sectors.
    pub fn units_per_page(&self) -> u32 {
        match self.code {
            EccCode::None => self.page_bytes.div_ceil(SECTOR_BYTES) as u32,
            _ => self.codewords_per_page,
        }
    }

    /// Mean raw bit errors of a page at `rber`.
    pub fn expected_page_errors(&self, rber: f64) -> f64 {
        expected_codeword_errors(self.codeword_bits, rber) * f64::from(self.codewords_per_page)
    }

    /// The lowest level that decodes the page (`None`: uncorrectable). Stochastic: drawn
    /// with one uniform from [`ReadPlanner::page_fail_probs`]. Expected: thresholds judge
    /// the page RBER; curves and BCH take the median outcome (the lowest level whose page
    /// failure probability is below 1/2).
    pub fn needed_level<R: Rng + ?Sized>(&self, rber: f64, rng: &mut R) -> Option<u8> {
        let fail = self.page_fail_probs(rber);
        self.decide(rber, |u, l| u >= fail[l], rng)
    }

    /// [`ReadPlanner::needed_level`] given whether a uniform draw `u` reaches the page
    /// failure probability of level `L` at `rber`, `reaches(u, L)` = `u ≥ fail(L)` (the
    /// simulator reads them from a [`super::FailGrid`], which can often tell without
    /// computing `fail(L)`).
    #[inline]
    pub fn decide<R: Rng + ?Sized>(&self, rber: f64, reaches: impl Fn(f64, usize) -> bool, rng: &mut R) -> Option<u8> {
        match self.draw {
            ErrorDraw::Expected => self.expected_level(rber),
            ErrorDraw::Stochastic => sample_needed_level(rng.random(), usize::from(self.max_level()) + 1, reaches),
        }
    }

    /// The needed level in expected mode (see [`ReadPlanner::needed_level`]).
    pub fn expected_level(&self, rber: f64) -> Option<u8> {
        match &self.code {
            EccCode::Ldpc(
                l @ LdpcLadder {
                    capability: LevelCapability::Thresholds(_),
                    ..
                },
            ) => l.threshold_level(rber),
            _ => self
                .page_fail_probs(rber)
                .iter()
                .position(|&f| f < 0.5)
                .map(|l| l as u8),
        }
    }

    /// Bytes moved by an attempt at `level` that senses `new_levels` extra levels (and the
    /// hard page when `hard`).
    fn xfer_bytes(&self, level: u8, new_levels: u8, hard: bool) -> u64 {
        if level == 0 {
            return self.page_bytes;
        }
        match self.soft_transfer {
            SoftTransfer::Incremental => self.page_bytes * (u64::from(new_levels) + u64::from(hard)),
            SoftTransfer::Quantized => {
                let planes = 64 - u64::from(level + 1).leading_zeros() as u64; // ⌈log2(level + 2)⌉
                self.page_bytes * planes
            }
            SoftTransfer::Stated => {
                let k = u64::from(self.max_level().max(1));
                // Rounded to the byte; all levels at once are exactly `soft_xfer_bytes`.
                (self.soft_xfer_bytes * u64::from(new_levels) + k / 2) / k + if hard { self.page_bytes } else { 0 }
            }
        }
    }

    /// The plan under the configured strategy when the page needs level `needed`
    /// (`None`: no level decodes) and the read starts hard.
    pub fn plan_for_needed(&self, needed: Option<u8>) -> ReadPlan {
        self.plan_with(self.strategy.policy(), 0, needed)
    }

    /// The plan under `strategy` of a read whose first attempt senses at level `first`
    /// when the page needs level `needed` (`None`: no level decodes): attempts up to the
    /// first that decodes, or to the last level.
    pub fn plan_with(&self, strategy: &dyn ReadStrategy, first: u8, needed: Option<u8>) -> ReadPlan {
        let k = self.max_level();
        let mut attempts = Vec::new();
        let (mut level, mut prev) = (first.min(k), 0u8);
        let mut outcome = ReadOutcome::Uncorrectable;
        let mut cancelled = 0;
        loop {
            let hard = attempts.is_empty();
            let new_levels = level - prev;
            attempts.push(ReadAttempt {
                level,
                hard_sense: hard,
                extra_levels_sensed: new_levels,
                xfer_bytes: self.xfer_bytes(level, new_levels, hard),
                codewords_decoded: self.codewords_decoded(),
                look_ahead: !hard && strategy.look_ahead(),
            });
            prev = level;
            // Clamped so that every retry senses more, up to the last level.
            let next = (level < k).then(|| strategy.next_level(level, k).clamp(level + 1, k));
            if needed.is_some_and(|n| level >= n) {
                outcome = ReadOutcome::Decoded { level };
                if let Some(next) = next.filter(|_| strategy.look_ahead()) {
                    cancelled = next - level;
                }
                break;
            }
            match next {
                Some(n) => level = n,
                None => break,
            }
        }
        ReadPlan {
            attempts,
            outcome,
            cancelled_look_ahead_levels: cancelled,
            uncorrectable_prob: if outcome == ReadOutcome::Uncorrectable {
                1.0
            } else {
                0.0
            },
        }
    }

    /// Probability that no level decodes a page at `rber` (the last entry of
    /// [`ReadPlanner::page_fail_probs`]).
    pub fn uncorrectable_prob(&self, rber: f64) -> f64 {
        self.page_fail_probs(rber).last().copied().unwrap_or(1.0)
    }

    /// The highest RBER at which the strongest level still fails at most
    /// [`ENDURANCE_PAGE_FAIL`] of page reads (bisection in log RBER), or `None` without ECC.
    pub fn correctable_rber_limit(&self) -> Option<f64> {
        if self.code == EccCode::None {
            return None;
        }
        let fails = |rber: f64| self.uncorrectable_prob(rber) > ENDURANCE_PAGE_FAIL;
        let (mut lo, mut hi) = (1e-9f64, 0.5f64);
        if fails(lo) {
            return Some(0.0);
        }
        if !fails(hi) {
            return Some(hi);
        }
        for _ in 0..60 {
            let mid = (lo * hi).sqrt();
            if fails(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(lo)
    }

    /// The plan of a page read at `rber` (`rng` unused in expected mode).
    pub fn plan<R: Rng + ?Sized>(&self, rber: f64, rng: &mut R) -> ReadPlan {
        let mut p = self.plan_for_needed(self.needed_level(rber, rng));
        p.uncorrectable_prob = self.uncorrectable_prob(rber);
        p
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::ecc::read_latency::{idle_latency_ns, LatencyParams};
    use crate::ecc::ErrorDraw;
    use crate::engine::rng::stream_rng;

    /// Seed 001's LDPC ladder (Table 1) under `strategy`, one 4 KB codeword a page.
    pub(in crate::ecc) fn planner(strategy: &str) -> ReadPlanner {
        ReadPlanner {
            code: EccCode::Ldpc(LdpcLadder::bitflip_table1()),
            strategy: crate::ecc::strategy::named(strategy),
            soft_transfer: SoftTransfer::Incremental,
            soft_xfer_bytes: 0,
            codeword_bits: 36_864,
            codewords_per_page: 1,
            page_bytes: 4096,
            draw: ErrorDraw::Expected,
        }
    }

    #[test]
    fn plans_follow_table1_in_expected_mode() {
        let p = planner("progressive");
        let mut rng = stream_rng(1, 2);
        let plan = p.plan(0.0085, &mut rng);
        assert_eq!(plan.outcome, ReadOutcome::Decoded { level: 3 });
        assert_eq!(plan.attempts.len(), 4);
        // Table I latency = 85 µs + 24 µs per level: hard = sensing+xfer+decode = 85 µs,
        // one extra level = 24 µs (e.g. 4 + 12 + 8).
        let t1 = LatencyParams {
            hard_sense_ns: 65_000.0,
            extra_sense_ns: 4_000.0,
            xfer_page_ns: 12_000.0,
            decode_ns: 8_000.0,
        };
        let lat = idle_latency_ns(&plan, 4096, &t1);
        assert_eq!(lat, 85_000.0 + 3.0 * 24_000.0);
        let two = planner("two-step").plan(0.0085, &mut rng);
        assert_eq!(two.attempts.iter().map(|a| a.level).collect::<Vec<_>>(), vec![0, 6]);
        assert_eq!(two.attempts[1].xfer_bytes, 6 * 4096);
        let bad = p.plan(0.02, &mut rng);
        assert_eq!(bad.outcome, ReadOutcome::Uncorrectable);
        assert_eq!(bad.attempts.len(), 7);
        assert_eq!(bad.uncorrectable_prob, 1.0);
    }

    #[test]
    fn stochastic_thresholds_follow_binomial_errors() {
        let mut p = planner("progressive");
        p.draw = ErrorDraw::Stochastic;
        p.codewords_per_page = 4;
        let mut rng = stream_rng(7, 2);
        // At RBER 0.0045 a 36,864-bit codeword has 165.9 errors on average (sd 12.85);
        // hard decoding takes up to 184 (0.005·n = 184.3): P ≈ Φ((184.5 − 165.9)/12.85)
        // = Φ(1.447) = 0.926, so a 4-codeword page decodes hard with 0.926^4 ≈ 0.735.
        let k = 4000;
        let hard = (0..k)
            .filter(|_| p.plan(0.0045, &mut rng).outcome == ReadOutcome::Decoded { level: 0 })
            .count();
        let frac = hard as f64 / k as f64;
        assert!((frac - 0.735).abs() < 0.035, "{frac}");
        // Level 1 takes e/n < 0.006 (e ≤ 221, 4.4 sd up): nearly every page.
        assert!(p.page_fail_probs(0.0045)[1] < 1e-3);
    }

    #[test]
    fn stochastic_bch_fails_by_the_binomial_tail() {
        let b = ReadPlanner {
            code: EccCode::Bch(Bch { n_bits: 20, t: 2 }),
            codeword_bits: 20,
            draw: ErrorDraw::Stochastic,
            ..planner("two-step")
        };
        // P(X > 2), X ~ Binomial(20, 0.05) = 1 − (0.358486 + 0.377354 + 0.188677).
        let mut rng = stream_rng(5, 2);
        let k = 40_000;
        let fails = (0..k)
            .filter(|_| b.plan(0.05, &mut rng).outcome == ReadOutcome::Uncorrectable)
            .count() as f64
            / k as f64;
        assert!((fails - 0.075_484).abs() < 0.005, "{fails}");
    }

    #[test]
    fn quantized_transfer_and_bch() {
        let mut p = planner("two-step");
        p.soft_transfer = SoftTransfer::Quantized;
        // Six extra levels: 8 regions → 3 bits per cell-bit.
        assert_eq!(p.plan_for_needed(Some(6)).attempts[1].xfer_bytes, 3 * 4096);
        let b = ReadPlanner {
            code: EccCode::Bch(Bch { n_bits: 8640, t: 3 }),
            codewords_per_page: 4,
            ..p
        };
        let mut rng = stream_rng(1, 1);
        let plan = b.plan(2e-6, &mut rng);
        assert_eq!(plan.attempts.len(), 1);
        assert!((plan.uncorrectable_prob - (1.0 - (1.0f64 - 3.66e-9).powi(4))).abs() < 1e-10);
    }

    #[test]
    fn stated_transfer_sends_its_share_of_the_soft_data() {
        // Seed 001 §2.2: 80 µs at 200 MB/s = 16,000 bytes for all six levels.
        let p = ReadPlanner {
            soft_transfer: SoftTransfer::Stated,
            soft_xfer_bytes: 16_000,
            ..planner("two-step")
        };
        let two = p.plan_for_needed(Some(6));
        assert_eq!((two.attempts[0].xfer_bytes, two.attempts[1].xfer_bytes), (4096, 16_000));
        // Progressive: one level at a time, 16,000 / 6 = 2,666.67 → 2,667 bytes each.
        let pr = ReadPlanner {
            strategy: crate::ecc::strategy::named("progressive"),
            ..p.clone()
        };
        let sizes: Vec<u64> = pr
            .plan_for_needed(Some(2))
            .attempts
            .iter()
            .map(|a| a.xfer_bytes)
            .collect();
        assert_eq!(sizes, vec![4096, 2667, 2667]);
        // A read starting at level 3 senses hard + 3 levels: the hard page and half the soft data.
        let s = crate::ecc::strategy::LastLevel::default();
        assert_eq!(p.plan_with(&s, 3, Some(0)).attempts[0].xfer_bytes, 4096 + 8000);
    }

    #[test]
    fn a_read_may_start_above_the_hard_level() {
        let p = planner("last-level");
        let s = crate::ecc::strategy::LastLevel::default();
        // Starting at level 3, a page needing level 1 decodes in one attempt: hard + 3
        // levels sensed, the hard page + 3 soft planes sent.
        let plan = p.plan_with(&s, 3, Some(1));
        assert_eq!(plan.outcome, ReadOutcome::Decoded { level: 3 });
        assert_eq!(plan.attempts.len(), 1);
        assert!(plan.attempts[0].hard_sense);
        assert_eq!(plan.attempts[0].extra_levels_sensed, 3);
        assert_eq!(plan.attempts[0].xfer_bytes, 4 * 4096);
        // Needing level 5: then 4 and 5, one level (one soft plane) each.
        let plan = p.plan_with(&s, 3, Some(5));
        let levels: Vec<_> = plan
            .attempts
            .iter()
            .map(|a| (a.level, a.extra_levels_sensed, a.xfer_bytes))
            .collect();
        assert_eq!(levels, vec![(3, 3, 4 * 4096), (4, 1, 4096), (5, 1, 4096)]);
        // Quantized: 3 levels make 5 regions, ⌈log2 5⌉ = 3 bit planes, hard included.
        let q = ReadPlanner {
            soft_transfer: SoftTransfer::Quantized,
            ..p
        };
        assert_eq!(q.plan_with(&s, 3, Some(0)).attempts[0].xfer_bytes, 3 * 4096);
    }
}
