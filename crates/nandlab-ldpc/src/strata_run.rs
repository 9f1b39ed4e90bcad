//! Strata measured on one decoder input law, pooled across runs and RBER points.
//!
//! `f(w)`, the failure rate of frames with exactly `w` errors, depends on the operating
//! point only through the decoder's input law given an error and given none
//! (`input_law.rs`). So strata measured at any RBER of one law serve every RBER of that
//! law ([`StrataRun::estimate`] refuses any other), and runs on the same law pool stratum
//! by stratum ([`StrataRun::pool`]: frames and failures add up). Two runs with the same
//! seed draw the same frames for a stratum (`stratified::measure_stratum`), so pooled runs
//! must have distinct seeds.

use serde::{Deserialize, Serialize};

use crate::channel::CosetLaw;
use crate::decoder::DecoderConfig;
use crate::input_law::InputLaw;
use crate::stratified::{combine, StratifiedEstimate, Stratum};

/// Strata of one decoder on one input law.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrataRun {
    /// Extra sensing levels `k` of the channel the strata were drawn from.
    pub level: usize,
    /// The decoder.
    pub decoder: DecoderConfig,
    /// What the decoder sees of one bit, given an error and given none.
    pub input_law: InputLaw,
    /// The seed of every pooled run (distinct).
    pub seeds: Vec<u64>,
    /// The strata, by increasing error count (distinct).
    pub strata: Vec<Stratum>,
    /// Wall-clock seconds the pooled runs took in all.
    pub wall_s: f64,
    /// Where the strata were measured (`numpy`, `cuda`), absent for the Rust CPU tool, so
    /// files written before the field existed read and rewrite unchanged. Pooled runs may
    /// mix devices: they draw from one law and decode with one decoder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

impl StrataRun {
    /// The run in an `ldpc_stratified --out` file (its `run` field).
    pub fn read(path: &std::path::Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| serde_json::from_value(v["run"].clone()).ok())
            .ok_or_else(|| format!("{}: not an ldpc_stratified --out file", path.display()))
    }

    /// Frames over all strata.
    pub fn frames(&self) -> u64 {
        self.strata.iter().map(|s| s.frames).sum()
    }

    /// Failed frames over all strata.
    pub fn failures(&self) -> u64 {
        self.strata.iter().map(|s| s.failures).sum()
    }

    /// Adds `other`'s strata to this run's (frames and failures per error count). Refused
    /// when the two differ in level, decoder or input law, or share a seed.
    pub fn pool(&mut self, other: StrataRun) -> Result<(), String> {
        if other.level != self.level || other.decoder != self.decoder {
            return Err(format!(
                "level {} / {} decoder differs from level {} / {}",
                other.level,
                other.decoder.arithmetic.label(),
                self.level,
                self.decoder.arithmetic.label()
            ));
        }
        if !other.input_law.same(&self.input_law) {
            return Err("the decoder's input law differs, so f(w) may differ".into());
        }
        if let Some(s) = other.seeds.iter().find(|s| self.seeds.contains(s)) {
            return Err(format!(
                "seed {s} is already pooled (the same seed draws the same frames)"
            ));
        }
        for o in other.strata {
            match self.strata.iter_mut().find(|s| s.errors == o.errors) {
                Some(s) => {
                    s.frames += o.frames;
                    s.failures += o.failures;
                }
                None => self.strata.push(o),
            }
        }
        self.strata.sort_by_key(|s| s.errors);
        self.seeds.extend(other.seeds);
        self.wall_s += other.wall_s;
        self.device = pooled_device(self.device.take(), other.device);
        Ok(())
    }

    /// The FER of frames of `n` bits drawn from `law` ([`combine`] with one-sided bounds at
    /// `1 − alpha`). Refused when `law` looks different to the decoder from the strata's
    /// law, or when no stratum failed.
    pub fn estimate(&self, n: usize, law: &CosetLaw, alpha: f64) -> Result<StratifiedEstimate, String> {
        if !InputLaw::new(law, self.decoder.arithmetic).same(&self.input_law) {
            return Err(format!(
                "RBER {:.4e}: the decoder's input law differs from the strata's",
                law.error_probability()
            ));
        }
        combine(n, law.error_probability(), &self.strata, alpha).ok_or_else(|| "no stratum failed".to_string())
    }

    /// The `ldpc_stratified --out` document: the run and, per `(rber, law)` point, its
    /// estimate (`null` where refused).
    pub fn out_json(&self, n: usize, points: &[(f64, &CosetLaw)], alpha: f64) -> String {
        let points: Vec<serde_json::Value> = points
            .iter()
            .map(|&(rber, law)| {
                let est = self.estimate(n, law, alpha).ok();
                serde_json::json!({"rber": rber, "law_rber": law.error_probability(), "estimate": est})
            })
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({"run": self, "points": points})).expect("json")
    }
}

/// The devices of two pooled runs: one when they agree, else every device once, sorted and
/// joined by `+` (the CPU tool's absent device reads `cpu`).
fn pooled_device(a: Option<String>, b: Option<String>) -> Option<String> {
    if a == b {
        return a;
    }
    let mut all: Vec<&str> = [&a, &b]
        .iter()
        .flat_map(|d| d.as_deref().unwrap_or("cpu").split('+'))
        .collect();
    all.sort_unstable();
    all.dedup();
    Some(all.join("+"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::Arithmetic;

    fn bsc_law(p: f64, llr: f32) -> CosetLaw {
        CosetLaw {
            prob: vec![1.0 - p, p],
            llr: vec![llr, -llr],
            err: vec![false, true],
        }
    }

    fn run(seed: u64, strata: Vec<Stratum>) -> StrataRun {
        let decoder = DecoderConfig {
            arithmetic: Arithmetic::Fixed8 { llr_scale: 4.0 },
            ..DecoderConfig::default()
        };
        StrataRun {
            level: 0,
            decoder,
            input_law: InputLaw::new(&bsc_law(0.01, 5.0), decoder.arithmetic),
            seeds: vec![seed],
            strata,
            wall_s: 1.0,
            device: None,
        }
    }

    use Stratum as S;

    #[test]
    fn pooling_adds_stratum_by_stratum_and_refuses_a_seed_twice() {
        let mut a = run(1, vec![S::new(5, 100, 1), S::new(8, 50, 20)]);
        a.pool(run(2, vec![S::new(8, 50, 10), S::new(3, 1000, 0)])).unwrap();
        assert_eq!(
            a.strata,
            vec![S::new(3, 1000, 0), S::new(5, 100, 1), S::new(8, 100, 30)]
        );
        assert_eq!((a.frames(), a.failures(), a.seeds.clone()), (1200, 31, vec![1, 2]));
        assert!(a.pool(run(2, vec![S::new(9, 1, 1)])).unwrap_err().contains("seed 2"));
        let mut other = run(3, vec![]);
        other.input_law = InputLaw::new(&bsc_law(0.01, 6.0), other.decoder.arithmetic);
        assert!(a.pool(other).is_err(), "±24 is not ±20");
        assert_eq!(a.device, None, "CPU runs pool without a device");
    }

    #[test]
    fn pooling_records_every_device_once() {
        let mut a = run(1, vec![S::new(5, 100, 1)]);
        let on = |seed: u64, device: &str| StrataRun {
            device: Some(device.into()),
            ..run(seed, vec![S::new(5, 10, 1)])
        };
        a.pool(on(2, "cuda")).unwrap();
        assert_eq!(a.device.as_deref(), Some("cpu+cuda"));
        a.pool(on(3, "cuda")).unwrap();
        a.pool(on(4, "numpy")).unwrap();
        assert_eq!(a.device.as_deref(), Some("cpu+cuda+numpy"));
        let mut g = on(5, "cuda");
        g.pool(on(6, "cuda")).unwrap();
        assert_eq!(g.device.as_deref(), Some("cuda"));
    }

    #[test]
    fn device_is_omitted_when_absent_and_kept_when_present() {
        let r = run(1, vec![S::new(5, 100, 1)]);
        let text = serde_json::to_string(&r).unwrap();
        assert!(!text.contains("device"), "{text}");
        assert_eq!(serde_json::from_str::<StrataRun>(&text).unwrap(), r);
        let g = StrataRun {
            device: Some("cuda".into()),
            ..r
        };
        let text = serde_json::to_string(&g).unwrap();
        assert!(text.contains(r#""device":"cuda""#), "{text}");
        assert_eq!(serde_json::from_str::<StrataRun>(&text).unwrap(), g);
    }

    #[test]
    fn strata_serve_every_rber_of_their_law_and_no_other() {
        // At LLR ±5.1 (±20 after ×4) the 8-bit decoder sees the same frames at p = 0.02:
        // the estimate is combine's at that p; at LLR ±5.2 (±21) it is refused.
        let r = run(1, vec![S::new(2, 100, 10), S::new(4, 100, 50)]);
        let e = r.estimate(10, &bsc_law(0.02, 5.1), 0.05).unwrap();
        assert_eq!(e, combine(10, 0.02, &r.strata, 0.05).unwrap());
        assert!(r.estimate(10, &bsc_law(0.02, 5.2), 0.05).is_err());
    }
}
