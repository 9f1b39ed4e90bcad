//! Growing a FER table: pooling later runs into it ([`CalibrationTable::extend`]), giving
//! points their FER from error-count strata ([`CalibrationTable::add_strata`]) and fitting
//! each level's tail model below its data ([`CalibrationTable::apply_tails`]).

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::calibrate::{CalibrationPoint, CalibrationTable, Provenance, StratifiedPoint};
use crate::channel::CosetLaw;
use crate::frames::Pipeline;
use crate::stats::clopper_pearson;
use crate::strata_quality::quality;
use crate::strata_run::StrataRun;
use crate::tail::{Measured, TailModel};

/// A stratified estimate stands in for a point only when at most this share of it comes
/// from error counts below the lowest failing stratum (`stratified::combine`'s modelled
/// share); further down the level's tail model takes over.
pub const MAX_MODELLED_SHARE: f64 = 0.1;

/// A level with one stratified point draws its tail through it and the lowest Monte Carlo
/// point above it with at least this many failures (the extension runs' stopping count:
/// with 10 failures the 95 % Clopper–Pearson interval is 0.48 … 1.84 times the estimate,
/// with 1 failure 0.025 … 5.6 times; the partner is then often several grid steps up).
pub const PARTNER_FAILURES: u64 = 10;

/// A run pooled into a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extension {
    /// How the run was made.
    pub provenance: Provenance,
    /// What it added, point by point.
    pub points: Vec<RunTally>,
}

/// Frames and failures one run added at one point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunTally {
    /// Extra sensing levels `k`.
    pub level: usize,
    /// Target RBER.
    pub rber: f64,
    /// Frames.
    pub frames: u64,
    /// Failed frames.
    pub failures: u64,
}

/// Same grid point: equal level and target RBER (to rounding in the JSON).
fn same_point(level: usize, rber: f64, l2: usize, r2: f64) -> bool {
    level == l2 && (rber / r2 - 1.0).abs() < 1e-9
}

impl CalibrationTable {
    /// Reads a table's JSON sidecar (`ldpc_fer.json`).
    pub fn read_json(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Pools `run` into this table: at a point both measured (same level and target RBER)
    /// frames, failures and miscorrections add up and the frame-weighted means of the
    /// measured RBER and iterations are kept; the run's other points are added. The run
    /// must simulate the same code and channel model (its channel settings are recorded,
    /// not checked). Refits the tails.
    pub fn extend(&mut self, run: CalibrationTable) {
        let alpha = 1.0 - self.provenance.config.confidence;
        let tallies = run
            .points
            .iter()
            .map(|p| RunTally {
                level: p.level,
                rber: p.target_rber,
                frames: p.frames,
                failures: p.failures,
            })
            .collect();
        for rp in run.points {
            let found = self
                .points
                .iter_mut()
                .find(|p| same_point(p.level, p.target_rber, rp.level, rp.target_rber));
            match found {
                Some(p) => {
                    let (n0, n1) = (p.frames as f64, rp.frames as f64);
                    let mean = |a: f64, b: f64| (a * n0 + b * n1) / (n0 + n1);
                    p.measured_rber = mean(p.measured_rber, rp.measured_rber);
                    p.mean_iterations = mean(p.mean_iterations, rp.mean_iterations);
                    p.frames += rp.frames;
                    p.failures += rp.failures;
                    p.miscorrections += rp.miscorrections;
                    p.fer = p.failures as f64 / p.frames as f64;
                    (p.fer_lo, p.fer_hi) = clopper_pearson(p.failures, p.frames, alpha);
                    p.extrapolated = false;
                }
                None => self.points.push(rp),
            }
        }
        self.points
            .sort_by(|a, b| a.level.cmp(&b.level).then(a.target_rber.total_cmp(&b.target_rber)));
        self.extensions.push(Extension {
            provenance: run.provenance,
            points: tallies,
        });
        self.apply_tails();
    }

    /// Gives every point of `run`'s level whose channel law (`law_of`) looks to the decoder
    /// like the strata's (`InputLaw::same`) the stratified estimate as its FER, where at
    /// most [`MAX_MODELLED_SHARE`] of it is modelled; other points keep theirs. Keeps the
    /// run in [`CalibrationTable::strata_runs`], refits the tails and returns the RBERs of
    /// the points it set.
    pub fn add_strata(&mut self, run: StrataRun, law_of: impl Fn(&CalibrationPoint) -> CosetLaw) -> Vec<f64> {
        let alpha = 1.0 - self.provenance.config.confidence;
        let index = self.strata_runs.len();
        let mut set = Vec::new();
        for p in self.points.iter_mut().filter(|p| p.level == run.level) {
            let Ok(estimate) = run.estimate(self.provenance.n, &law_of(p), alpha) else {
                continue;
            };
            if estimate.modelled_share <= MAX_MODELLED_SHARE {
                p.stratified = Some(StratifiedPoint {
                    run: index,
                    frames: run.frames(),
                    failures: run.failures(),
                    estimate,
                    quality: quality(self.provenance.n, estimate.rber, &run.strata, alpha),
                });
                set.push(p.target_rber);
            }
        }
        self.strata_runs.push(run);
        self.apply_tails();
        set
    }

    /// Fits each level's [`TailModel`] and gives the points below its reach without a
    /// failure or a stratified estimate the model's FER, marked `extrapolated`
    /// (`fer_lo`/`fer_hi` stay the measurement's interval); stratified points get their
    /// estimate. See [`CalibrationTable::tail_of`] for which model a level takes.
    pub fn apply_tails(&mut self) {
        let mut levels: Vec<usize> = self.points.iter().map(|p| p.level).collect();
        levels.sort_unstable();
        levels.dedup();
        let fitted: Vec<(TailModel, f64)> = levels.iter().filter_map(|&l| self.tail_of(l)).collect();
        for p in &mut self.points {
            let tail = fitted.iter().find(|t| t.0.level == p.level);
            p.extrapolated = p.failures == 0 && p.stratified.is_none() && tail.is_some_and(|t| p.rber < t.1);
            p.fer = match (tail, p.stratified) {
                (_, Some(s)) => s.estimate.fer,
                (Some(t), None) if p.extrapolated => t.0.fer(p.rber),
                _ => p.failures as f64 / p.frames.max(1) as f64,
            };
        }
        self.tails = fitted.into_iter().map(|t| t.0).collect();
    }

    /// Level `level`'s tail model and its reach (the RBER below which zero-failure rows
    /// take the model). Two or more stratified points: the line through the lowest two
    /// ([`TailModel::through`]), reaching up to the upper one. One stratified point: the
    /// line through it and the lowest Monte Carlo point above it with at least
    /// [`PARTNER_FAILURES`] failures, reaching up to that point (so zero-failure rows
    /// between them lie on the line). Otherwise the fit of its Monte Carlo points
    /// ([`TailModel::fit`]), reaching up to its anchor.
    fn tail_of(&self, level: usize) -> Option<(TailModel, f64)> {
        let rows = || self.points.iter().filter(move |p| p.level == level);
        let mut strata: Vec<(f64, f64)> = rows()
            .filter_map(|p| p.stratified.map(|s| (p.rber, s.estimate.fer)))
            .collect();
        strata.sort_by(|a, b| a.0.total_cmp(&b.0));
        let partner = |lower: (f64, f64)| {
            rows()
                .filter(|p| p.stratified.is_none() && p.rber > lower.0)
                .filter(|p| p.failures >= PARTNER_FAILURES && p.failures < p.frames)
                .map(|p| (p.rber, p.failures as f64 / p.frames as f64))
                .min_by(|a, b| a.0.total_cmp(&b.0))
        };
        let upper = match strata[..] {
            [_, upper, ..] => Some(upper),
            [only] => partner(only),
            [] => None,
        };
        if let (Some(&lower), Some(upper)) = (strata.first(), upper) {
            return TailModel::through(level, lower, upper).map(|t| (t, upper.0));
        }
        let measured: Vec<Measured> = rows()
            .map(|p| Measured {
                rber: p.rber,
                frames: p.frames,
                failures: p.failures,
            })
            .collect();
        TailModel::fit(level, &measured).map(|t| {
            let reach = t.anchor_rber;
            (t, reach)
        })
    }

    /// `#` lines describing the extensions and tail models (part of [`Self::to_csv`]).
    pub(crate) fn write_extension_comments(&self, s: &mut String) {
        for (i, e) in self.extensions.iter().enumerate() {
            let c = &e.provenance.config;
            let _ = writeln!(
                s,
                "# extension {}: {} frames at {} points pooled in ({} frames, {} decoder, stop at {} failures or {} frames; seed {}; {:.0} s on {} threads)",
                i + 1,
                e.points.iter().map(|p| p.frames).sum::<u64>(),
                e.points.len(),
                match c.pipeline {
                    Pipeline::Coset => "coset",
                    Pipeline::Encode => "encode",
                },
                c.decoder.arithmetic.label(),
                c.min_failures,
                c.max_frames,
                c.seed,
                e.provenance.wall_s,
                e.provenance.threads
            );
        }
        for (i, r) in self.strata_runs.iter().enumerate() {
            let _ = writeln!(
                s,
                "# strata {}: level {}, {} decoder, {} error counts, {} frames, {} failures (seeds {:?}; {:.0} s), stratified=1 at {} rows: fer = sum_w Binom(w; n, rber) f(w) where <= {:.0}% of it is modelled; frames/failures = these strata's totals over all error counts (not a tally at the row's rber), fer_lo/fer_hi a 95% bootstrap interval, support_failures the fewest failures of a stratum the row leans on (docs/ldpc.md)",
                i + 1,
                r.level,
                r.decoder.arithmetic.label(),
                r.strata.len(),
                r.frames(),
                r.failures(),
                r.seeds,
                r.wall_s,
                self.points
                    .iter()
                    .filter(|p| p.stratified.is_some_and(|st| st.run == i))
                    .count(),
                100.0 * MAX_MODELLED_SHARE
            );
        }
        if self.tails.is_empty() {
            return;
        }
        let _ = writeln!(
            s,
            "# extrapolated=1: no failure measured; fer = f0*(rber/r0)^s, r0 = lowest failing rber, s = weighted ln-ln fit over the {} lowest failing points, or, for a level with stratified rows, the line through its two lowest (with one: through it and the lowest row above it with >= {} failures; zero-failure rows between lie on the line) (docs/ldpc.md)",
            crate::tail::FIT_POINTS,
            PARTNER_FAILURES
        );
        for t in &self.tails {
            let _ = writeln!(
                s,
                "# tail level {}: f0={:.6e} r0={:.6e} s={:.4}",
                t.level, t.anchor_fer, t.anchor_rber, t.slope
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibrate::CalibrationConfig;
    use crate::decoder::DecoderConfig;
    use crate::input_law::InputLaw;
    use crate::stratified::{combine, Stratum};

    fn point(rber: f64, frames: u64, failures: u64) -> CalibrationPoint {
        CalibrationPoint {
            level: 0,
            target_rber: rber,
            rber,
            pe: 0.0,
            frames,
            failures,
            miscorrections: 0,
            fer: failures as f64 / frames as f64,
            fer_lo: 0.0,
            fer_hi: 1.0,
            measured_rber: rber,
            mean_iterations: 1.0,
            delta: 0.0,
            voltages: Vec::new(),
            llr_table: Vec::new(),
            mutual_information: 1.0,
            extrapolated: false,
            stratified: None,
        }
    }

    fn bsc_law(p: f64, llr: f32) -> CosetLaw {
        CosetLaw {
            prob: vec![1.0 - p, p],
            llr: vec![llr, -llr],
            err: vec![false, true],
        }
    }

    /// A table of frames of n = 20 bits at `points`, nothing pooled in yet.
    fn table(points: Vec<CalibrationPoint>) -> CalibrationTable {
        let cfg = CalibrationConfig::default();
        CalibrationTable {
            provenance: Provenance {
                code: "test".into(),
                n: 20,
                k: 10,
                z: 1,
                decoder: cfg.decoder,
                channel: "BSC".into(),
                vth: serde_json::Value::Null,
                config: cfg,
                version: "0".into(),
                wall_s: 0.0,
                threads: 1,
                device: None,
            },
            points,
            extensions: Vec::new(),
            tails: Vec::new(),
            strata_runs: Vec::new(),
        }
    }

    /// f(w) = min(1, 10^-(8 − w/2)) measured at every w of n = 20 (nothing modelled), on
    /// the law of a BSC at 5e-3 with LLR ±5.
    fn strata_run() -> (Vec<Stratum>, StrataRun) {
        let strata: Vec<Stratum> = (0..=20)
            .map(|w| Stratum {
                errors: w,
                frames: 1_000_000_000,
                failures: (1e9 * 10f64.powf(w as f64 / 2.0 - 8.0).min(1.0)).round() as u64,
            })
            .collect();
        let decoder = DecoderConfig::default();
        let run = StrataRun {
            level: 0,
            decoder,
            input_law: InputLaw::new(&bsc_law(5e-3, 5.0), decoder.arithmetic),
            seeds: vec![7],
            strata: strata.clone(),
            wall_s: 1.0,
            device: None,
        };
        (strata, run)
    }

    #[test]
    fn strata_set_the_points_of_their_law_and_carry_the_tail() {
        // Points at 5e-3 and 6e-3 share the strata's law (LLR ±5); 4e-3 and 1e-2 do not
        // (±4): 1e-2 keeps its Monte Carlo tally, and 4e-3 (no failure, below the
        // stratified points) lies on the line through them.
        let mut t = table(vec![
            point(4e-3, 1000, 0),
            point(5e-3, 1000, 0),
            point(6e-3, 1000, 0),
            point(1e-2, 1000, 10),
        ]);
        let (strata, run) = strata_run();
        let same = |r: f64| (4.5e-3..8e-3).contains(&r);
        let set = t.add_strata(run, |p| bsc_law(p.rber, if same(p.rber) { 5.0 } else { 4.0 }));
        assert_eq!(set, vec![5e-3, 6e-3]);
        let fer = |p: f64| combine(20, p, &strata, 0.05).unwrap().fer;
        let rows = crate::calibrate::parse_fer_csv(&t.to_csv()).unwrap();
        for (r, p) in rows[1..3].iter().zip([5e-3, 6e-3]) {
            assert!(
                r.stratified && !r.extrapolated && (r.fer / fer(p) - 1.0).abs() < 1e-6,
                "{r:?}"
            );
            assert_eq!(
                (r.frames, r.failures),
                (21_000_000_000, strata.iter().map(|s| s.failures).sum())
            );
        }
        assert!(!rows[3].stratified && rows[3].fer == 0.01);
        let tail = &t.tails[0];
        let slope = (fer(6e-3) / fer(5e-3)).ln() / 1.2f64.ln();
        assert_eq!((tail.anchor_rber, tail.fit_rbers.clone()), (5e-3, vec![5e-3, 6e-3]));
        assert!((tail.slope - slope).abs() < 1e-9);
        let want = fer(5e-3) * 0.8f64.powf(slope);
        assert!(rows[0].extrapolated && !rows[0].stratified && (rows[0].fer / want - 1.0).abs() < 1e-6);
    }

    #[test]
    fn one_stratified_point_draws_the_tail_through_the_lowest_well_measured_point_above() {
        // Only 5e-3 shares the strata's law. Above it: 6e-3 with no failure, 7e-3 with 3
        // (too few to draw a line through), 8e-3 with 20/1000 = 2e-2 (the partner). The
        // tail is the line through (5e-3, F) and (8e-3, 2e-2), F the strata's FER at 5e-3:
        // 4e-3 below and 6e-3 between lie on it, 7e-3 keeps its measurement.
        let mut t = table(vec![
            point(4e-3, 1000, 0),
            point(5e-3, 1000, 0),
            point(6e-3, 1000, 0),
            point(7e-3, 1000, 3),
            point(8e-3, 1000, 20),
        ]);
        let (strata, run) = strata_run();
        let set = t.add_strata(run, |p| bsc_law(p.rber, if p.rber == 5e-3 { 5.0 } else { 4.0 }));
        assert_eq!(set, vec![5e-3]);
        let f = combine(20, 5e-3, &strata, 0.05).unwrap().fer;
        let slope = (2e-2 / f).ln() / (8e-3f64 / 5e-3).ln();
        let tail = &t.tails[0];
        assert_eq!((tail.anchor_rber, tail.fit_rbers.clone()), (5e-3, vec![5e-3, 8e-3]));
        assert!((tail.slope / slope - 1.0).abs() < 1e-12 && (tail.anchor_fer / f - 1.0).abs() < 1e-12);
        let rows = crate::calibrate::parse_fer_csv(&t.to_csv()).unwrap();
        let on_line = |r: f64| f * (r / 5e-3).powf(slope);
        for i in [0, 2] {
            let r = &rows[i];
            assert!(r.extrapolated && (r.fer / on_line(r.rber) - 1.0).abs() < 1e-6, "{r:?}");
        }
        assert!(rows[1].stratified && (rows[1].fer / f - 1.0).abs() < 1e-6);
        assert!(!rows[3].extrapolated && rows[3].fer == 3e-3 && rows[4].fer == 2e-2);
        // Monotone and continuous: each row above the last, the line meets the partner.
        assert!(rows.windows(2).all(|w| w[0].fer < w[1].fer), "{rows:?}");
        assert!((on_line(8e-3) / 2e-2 - 1.0).abs() < 1e-12);
    }
}
