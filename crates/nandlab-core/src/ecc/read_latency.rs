//! Read latency on an idle device: a plan's (sensing, transfer and decode attempts in
//! turn), and the mean latencies of seed 001's Eq. 1–4 for its read strategies.

use super::plan::ReadPlan;

/// Latency constants of the read path on an idle device (ns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencyParams {
    /// Hard sensing t_R of the page type.
    pub hard_sense_ns: f64,
    /// One extra soft sensing level.
    pub extra_sense_ns: f64,
    /// Moving `page_bytes` over the bus.
    pub xfer_page_ns: f64,
    /// One decode attempt of the page.
    pub decode_ns: f64,
}

/// Latency of a plan on an idle device (plane, bus and decoder free; look-ahead allowed):
/// sensing is sequential on the plane; an attempt's sensing starts after the previous
/// decode, or right after the previous sensing when it is a look-ahead attempt; its
/// transfer follows its sensing and the previous transfer; its decode follows its
/// transfer and the previous decode.
pub fn idle_latency_ns(plan: &ReadPlan, page_bytes: u64, lp: &LatencyParams) -> f64 {
    let (mut sense_end, mut xfer_end, mut dec_end) = (0.0f64, 0.0f64, 0.0f64);
    for a in &plan.attempts {
        let start = if a.look_ahead { sense_end } else { dec_end };
        let sense =
            if a.hard_sense { lp.hard_sense_ns } else { 0.0 } + f64::from(a.extra_levels_sensed) * lp.extra_sense_ns;
        sense_end = start + sense;
        xfer_end = sense_end.max(xfer_end) + a.xfer_bytes as f64 / page_bytes as f64 * lp.xfer_page_ns;
        dec_end = xfer_end.max(dec_end) + lp.decode_ns;
    }
    dec_end
}

/// Seed 001 Eq. 1 (two-step): `τ = τ_hd-sen + τ_hd-xfer + τ_dec + P_hd·(τ_sd-sen +
/// τ_sd-xfer + τ_dec)` with `τ_sd-sen = k·τ_sen`, `τ_sd-xfer = k·τ_xfer` (incremental
/// soft transfer of `k` extra levels).
pub fn two_step_mean_latency_ns(lp: &LatencyParams, k: u8, p_hd_fail: f64) -> f64 {
    let k = f64::from(k);
    lp.hard_sense_ns
        + lp.xfer_page_ns
        + lp.decode_ns
        + p_hd_fail * (k * lp.extra_sense_ns + k * lp.xfer_page_ns + lp.decode_ns)
}

/// Seed 001 Eq. 2 (look-ahead): `τ = τ_hd-sen + (1 − P_hd)(τ_hd-xfer + τ_dec) +
/// P_hd·(τ_sd-sen + τ_sd-xfer + τ_dec)` (valid when the soft sensing outlasts the hard
/// transfer + decode).
pub fn look_ahead_mean_latency_ns(lp: &LatencyParams, k: u8, p_hd_fail: f64) -> f64 {
    let k = f64::from(k);
    lp.hard_sense_ns
        + (1.0 - p_hd_fail) * (lp.xfer_page_ns + lp.decode_ns)
        + p_hd_fail * (k * lp.extra_sense_ns + k * lp.xfer_page_ns + lp.decode_ns)
}

/// Seed 001 Eq. 3–4 (progressive): `τ = τ_hd-sen + τ_hd-xfer + τ_dec + P_ave·(τ(1)_sen +
/// τ(1)_xfer + τ_dec)`, `P_ave = P_hd·(1 + Σ_{i=2..m} Π_{j=1..i−1} P_sd(j))`, where
/// `p_sd_fail[j−1]` is the failure probability with `j` extra levels given that all lower
/// levels failed (`m = p_sd_fail.len() + 1` extra levels).
pub fn progressive_mean_latency_ns(lp: &LatencyParams, p_hd_fail: f64, p_sd_fail: &[f64]) -> f64 {
    let mut p_ave = 1.0;
    let mut prod = 1.0;
    for p in p_sd_fail {
        prod *= p;
        p_ave += prod;
    }
    p_ave *= p_hd_fail;
    lp.hard_sense_ns + lp.xfer_page_ns + lp.decode_ns + p_ave * (lp.extra_sense_ns + lp.xfer_page_ns + lp.decode_ns)
}

/// Distribution of the needed level from conditional failure probabilities:
/// `cond[0] = P_hd`, `cond[j] = P(fail at j | failed below j)`. Returns `P(needed = L)`
/// for `L = 0 ..= cond.len()−1` and, last, `P(no level decodes)`.
pub fn needed_level_distribution(cond: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(cond.len() + 1);
    let mut reach = 1.0;
    for &c in cond {
        out.push(reach * (1.0 - c));
        reach *= c;
    }
    out.push(reach);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecc::plan::tests::planner;
    use crate::ecc::plan::ReadPlanner;

    /// Seed 001's numbers: t_R 55 µs, 14 µs per extra level, 4 KB over 200 MB/s
    /// = 20.48 µs, 8 µs decode, six extra levels.
    fn lp() -> LatencyParams {
        LatencyParams {
            hard_sense_ns: 55_000.0,
            extra_sense_ns: 14_000.0,
            xfer_page_ns: 20_480.0,
            decode_ns: 8_000.0,
        }
    }

    fn mean_from_plans(p: &ReadPlanner, cond: &[f64]) -> f64 {
        needed_level_distribution(cond)
            .iter()
            .enumerate()
            .map(|(l, w)| {
                let needed = if l < cond.len() { Some(l as u8) } else { None };
                w * idle_latency_ns(&p.plan_for_needed(needed), 4096, &lp())
            })
            .sum()
    }

    /// Eq. 1 by hand at P_hd = 0.288 (seed 001 §5.1): 55 + 20.48 + 8 = 83.48 µs;
    /// soft step 6·14 + 6·20.48 + 8 = 214.88 µs; 83.48 + 0.288·214.88 = 145.365 µs.
    #[test]
    fn two_step_matches_eq1() {
        assert!((two_step_mean_latency_ns(&lp(), 6, 0.288) - 145_365.44).abs() < 0.01);
        // Soft levels always succeed here: cond = [P_hd, 0, 0, 0, 0, 0, 0].
        let cond = [0.288, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let m = mean_from_plans(&planner("two-step"), &cond);
        assert!((m - 145_365.44).abs() < 0.01, "{m}");
    }

    /// Eq. 2 by hand at P_hd = 0.288: 55 + 0.712·28.48 + 0.288·214.88 = 55 + 20.27776 + 61.88544 = 137.1632 µs.
    #[test]
    fn look_ahead_matches_eq2() {
        let want: f64 = 55_000.0 + 0.712 * 28_480.0 + 0.288 * 214_880.0;
        assert!((want - 137_163.2).abs() < 0.01);
        assert!((look_ahead_mean_latency_ns(&lp(), 6, 0.288) - want).abs() < 1e-6);
        let cond = [0.288, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let m = mean_from_plans(&planner("look-ahead"), &cond);
        assert!((m - want).abs() < 0.01, "{m}");
        // On success the speculative six levels were cancelled.
        assert_eq!(
            planner("look-ahead")
                .plan_for_needed(Some(0))
                .cancelled_look_ahead_levels,
            6
        );
    }

    /// Eq. 3–4 by hand: P_hd = 0.3, conditional P_sd = [0.5, 0.2, 0.1, 0, 0]:
    /// P_ave = 0.3·(1 + 0.5 + 0.1 + 0.01 + 0 + 0) = 0.483; step 14 + 20.48 + 8 = 42.48 µs;
    /// τ = 83.48 + 0.483·42.48 = 103.998 µs.
    #[test]
    fn progressive_matches_eq3_4() {
        let p_sd = [0.5, 0.2, 0.1, 0.0, 0.0];
        let want: f64 = 83_480.0 + 0.483 * 42_480.0;
        assert!((progressive_mean_latency_ns(&lp(), 0.3, &p_sd) - want).abs() < 1e-6);
        let cond = [0.3, 0.5, 0.2, 0.1, 0.0, 0.0, 0.0];
        let m = mean_from_plans(&planner("progressive"), &cond);
        assert!((m - want).abs() < 0.01, "{m}");
        // Look-ahead + progressive is never slower than progressive alone.
        let m2 = mean_from_plans(&planner("look-ahead+progressive"), &cond);
        assert!(m2 <= m, "{m2} vs {m}");
    }
}
