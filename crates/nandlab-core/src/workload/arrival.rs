//! Arrival processes of the synthetic generator: Poisson at `workload.iops` (the default),
//! or bursty, `[workload.bursts]`, an on/off Markov-modulated Poisson process (an
//! *interrupted Poisson process*, IPP).
//!
//! Why an IPP: block traces are bursty — peak request rates "over an order of magnitude
//! higher than average load" in the MSR Cambridge volumes (Narayanan et al., "Everest",
//! OSDI'08, §1) — and their inter-arrival times are best fitted by a two-phase
//! hyper-exponential (Wajahat et al., "Analyzing the distribution fit for storage workload
//! and Internet traffic traces", Performance Evaluation 142, 2020). An IPP's inter-arrival
//! times are exactly such a hyper-exponential, and it has two parameters one can read off
//! a trace: how much faster than the mean the requests come inside a burst, and how many
//! come per burst.
//!
//! With mean rate `λ̄ = iops`, `peak_to_mean = P` and `burst_requests = B`: the ON state
//! issues Poisson arrivals at `λ_on = P·λ̄` and lasts Exp(mean `B/λ_on`); the OFF state
//! issues none and lasts Exp(mean `(P − 1)·B/λ_on`), so the process is ON a share `1/P`
//! of the time and its long-run rate is `λ̄`. It starts ON (the first request at time 0,
//! as the Poisson generator's). `P = 1` never turns OFF: Poisson at `λ̄`.

use crate::engine::rng::SimRng;
use crate::error::{NandError, Result};
use rand::Rng;
use rand_distr::{Distribution, Exp};
use serde::{Deserialize, Serialize};

/// The largest `peak_to_mean` accepted: a burst rate a million times the mean is already
/// a few requests per week at any real mean rate.
pub const MAX_PEAK_TO_MEAN: f64 = 1e6;

/// `[workload.bursts]`: on/off (IPP) arrivals at the workload's mean `iops`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BurstConfig {
    /// Rate inside a burst / mean rate (≥ 1; 1 = Poisson).
    pub peak_to_mean: f64,
    /// Mean number of requests per burst (≥ 1).
    pub burst_requests: f64,
}

impl BurstConfig {
    /// Checks both keys, naming them through `key` (`workload.bursts.peak_to_mean`).
    pub fn validate(&self, key: &dyn Fn(&str) -> String, iops: f64) -> Result<()> {
        if !(self.peak_to_mean.is_finite() && (1.0..=MAX_PEAK_TO_MEAN).contains(&self.peak_to_mean)) {
            return Err(NandError::config(
                key("bursts.peak_to_mean"),
                format!("must lie between 1 and {MAX_PEAK_TO_MEAN}, got {}", self.peak_to_mean),
            ));
        }
        if !(self.burst_requests.is_finite() && self.burst_requests >= 1.0) {
            return Err(NandError::config(
                key("bursts.burst_requests"),
                format!("must be a number of requests >= 1, got {}", self.burst_requests),
            ));
        }
        if iops <= 0.0 {
            return Err(NandError::config(
                key("bursts"),
                "needs workload.iops > 0 (the mean rate the bursts keep)",
            ));
        }
        Ok(())
    }

    /// The squared coefficient of variation of the inter-arrival times,
    /// `1 + 2·λ_on·α/(α + β)²` with `α`, `β` the ON→OFF and OFF→ON rates (the IPP's
    /// hyper-exponential; Fischer and Meier-Hellstern, "The Markov-modulated Poisson
    /// process (MMPP) cookbook", Performance Evaluation 18, 1993).
    pub fn interarrival_scv(&self, iops: f64) -> f64 {
        let on = self.peak_to_mean * iops;
        let alpha = on / self.burst_requests;
        if self.peak_to_mean <= 1.0 {
            return 1.0;
        }
        let beta = alpha / (self.peak_to_mean - 1.0);
        1.0 + 2.0 * on * alpha / (alpha + beta).powi(2)
    }
}

/// The gaps between arrivals, in seconds.
pub enum Arrivals {
    /// Exponential gaps at the mean rate.
    Poisson(Exp<f64>),
    /// On/off arrivals; `on_left_s` is the time left in the current ON period.
    OnOff {
        on_rate: Exp<f64>,
        on_len: Exp<f64>,
        off_len: Option<Exp<f64>>,
        on_left_s: f64,
    },
}

impl Arrivals {
    /// The arrivals of a workload with mean rate `iops` (> 0) and optional bursts (valid).
    pub fn new(iops: f64, bursts: Option<&BurstConfig>, rng: &mut SimRng) -> Result<Self> {
        let exp = |rate: f64, what: &str| Exp::new(rate).map_err(|e| NandError::config(what, e));
        let Some(b) = bursts.filter(|b| b.peak_to_mean > 1.0) else {
            return Ok(Arrivals::Poisson(exp(iops, "workload.iops")?));
        };
        let on = b.peak_to_mean * iops;
        let on_len = exp(on / b.burst_requests, "workload.bursts.burst_requests")?;
        let off_len = exp(
            on / (b.burst_requests * (b.peak_to_mean - 1.0)),
            "workload.bursts.peak_to_mean",
        )?;
        let on_left_s = on_len.sample(rng);
        Ok(Arrivals::OnOff {
            on_rate: exp(on, "workload.bursts.peak_to_mean")?,
            on_len,
            off_len: Some(off_len),
            on_left_s,
        })
    }

    /// The gap to the next arrival (seconds): with bursts, ON periods' arrivals race the
    /// end of the period; an OFF period (and a fresh ON one) follows each end.
    pub fn next_gap_s<R: Rng + ?Sized>(&mut self, rng: &mut R) -> f64 {
        match self {
            Arrivals::Poisson(g) => g.sample(rng),
            Arrivals::OnOff {
                on_rate,
                on_len,
                off_len,
                on_left_s,
            } => {
                let mut gap = 0.0;
                loop {
                    let next = on_rate.sample(rng);
                    if next < *on_left_s {
                        *on_left_s -= next;
                        return gap + next;
                    }
                    gap += *on_left_s;
                    if let Some(off) = off_len {
                        gap += off.sample(rng);
                    }
                    *on_left_s = on_len.sample(rng);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{component, stream_rng};

    fn arrivals_s(iops: f64, b: BurstConfig, n: usize, seed: u64) -> Vec<f64> {
        let mut rng = stream_rng(seed, component::WORKLOAD);
        let mut a = Arrivals::new(iops, Some(&b), &mut rng).unwrap();
        let mut t = 0.0;
        let mut out = vec![0.0];
        for _ in 1..n {
            t += a.next_gap_s(&mut rng);
            out.push(t);
        }
        out
    }

    /// Peak-to-mean as a trace study measures it: the mean rate of the windows that hold
    /// any request over the mean rate of all windows.
    fn peak_to_mean(times: &[f64], window_s: f64) -> f64 {
        let windows = (times.last().unwrap() / window_s).floor() as usize;
        let mut counts = vec![0u64; windows];
        for &t in times {
            if let Some(c) = counts.get_mut((t / window_s) as usize) {
                *c += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        let busy = counts.iter().filter(|&&c| c > 0).count();
        (total as f64 / busy as f64) / (total as f64 / windows as f64)
    }

    #[test]
    fn a_generated_trace_has_the_stated_peak_to_mean_and_mean_rate() {
        // 100 IOPS, bursts 20× the mean (2,000 IOPS) of 1,000 requests (0.5 s) on average,
        // 1,000 bursts. A 10 ms window holds 20 requests when ON (empty with probability
        // e^-20), so the busy windows are the ON ones, plus about one window cut by each
        // ON period's end: a bias of 1/(1 + 0.01/0.5) = -2 %. The realised ON share of
        // 1,000 exponential periods moves the ratio by about 3 % (one sigma).
        let b = BurstConfig {
            peak_to_mean: 20.0,
            burst_requests: 1000.0,
        };
        let t = arrivals_s(100.0, b, 1_000_000, 7);
        let rate = t.len() as f64 / t.last().unwrap();
        assert!((rate / 100.0 - 1.0).abs() < 0.1, "mean rate {rate}");
        let p = peak_to_mean(&t, 0.01);
        assert!((p / 20.0 - 1.0).abs() < 0.08, "peak-to-mean {p}");
    }

    #[test]
    fn interarrival_variation_matches_the_ipp_closed_form() {
        // P = 10, B = 5 at 50 IOPS: λ_on = 500, α = 100, β = 100/9, so
        // SCV = 1 + 2·500·100/(1000/9)² = 1 + 8.1 = 9.1.
        let b = BurstConfig {
            peak_to_mean: 10.0,
            burst_requests: 5.0,
        };
        assert!((b.interarrival_scv(50.0) - 9.1).abs() < 1e-9);
        let t = arrivals_s(50.0, b, 300_000, 3);
        let gaps: Vec<f64> = t.windows(2).map(|w| w[1] - w[0]).collect();
        let n = gaps.len() as f64;
        let mean = gaps.iter().sum::<f64>() / n;
        let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n;
        assert!((mean * 50.0 - 1.0).abs() < 0.05, "mean gap {mean}");
        assert!(
            (var / mean.powi(2) / 9.1 - 1.0).abs() < 0.1,
            "scv {}",
            var / mean.powi(2)
        );
    }

    #[test]
    fn one_peak_to_mean_is_poisson() {
        let b = BurstConfig {
            peak_to_mean: 1.0,
            burst_requests: 3.0,
        };
        assert_eq!(b.interarrival_scv(10.0), 1.0);
        let mut rng = stream_rng(1, component::WORKLOAD);
        assert!(matches!(
            Arrivals::new(10.0, Some(&b), &mut rng).unwrap(),
            Arrivals::Poisson(_)
        ));
    }

    #[test]
    fn bad_values_name_the_key() {
        let key = |k: &str| format!("workload.{k}");
        let bad = [
            (
                BurstConfig {
                    peak_to_mean: 0.5,
                    burst_requests: 2.0,
                },
                1.0,
                "bursts.peak_to_mean",
            ),
            (
                BurstConfig {
                    peak_to_mean: f64::NAN,
                    burst_requests: 2.0,
                },
                1.0,
                "bursts.peak_to_mean",
            ),
            (
                BurstConfig {
                    peak_to_mean: 2.0,
                    burst_requests: 0.5,
                },
                1.0,
                "bursts.burst_requests",
            ),
            (
                BurstConfig {
                    peak_to_mean: 2.0,
                    burst_requests: 2.0,
                },
                0.0,
                "bursts",
            ),
        ];
        for (b, iops, k) in bad {
            let e = b.validate(&key, iops).unwrap_err().to_string();
            assert!(e.starts_with(&format!("config key `workload.{k}`")), "{e}");
        }
    }
}
