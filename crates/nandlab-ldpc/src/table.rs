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
use crate::strata_run::StrataRun;
use crate::tail::{Measured, TailModel};

/// A stratified estimate stands in for a point only when at most this share of it comes
/// from error counts below the lowest failing stratum (`stratified::combine`'s modelled
/// share); further down the level's tail model takes over.
pub const MAX_MODELLED_SHARE: f64 = 0.1;

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
                });
                set.push(p.target_rber);
            }
        }
        self.strata_runs.push(run);
        self.apply_tails();
        set
    }

    /// Fits each level's [`TailModel`] and gives the points below its anchor without a
    /// failure or a stratified estimate the model's FER, marked `extrapolated`
    /// (`fer_lo`/`fer_hi` stay the measurement's interval); stratified points get their
    /// estimate. A level with two or more stratified points takes the line through the
    /// lowest two ([`TailModel::through`]); any other fits its Monte Carlo points
    /// ([`TailModel::fit`]).
    pub fn apply_tails(&mut self) {
        let mut levels: Vec<usize> = self.points.iter().map(|p| p.level).collect();
        levels.sort_unstable();
        levels.dedup();
        self.tails = levels
            .iter()
            .filter_map(|&l| {
                let mut strata: Vec<(f64, f64)> = self
                    .points
                    .iter()
                    .filter(|p| p.level == l)
                    .filter_map(|p| p.stratified.map(|s| (p.rber, s.estimate.fer)))
                    .collect();
                strata.sort_by(|a, b| a.0.total_cmp(&b.0));
                if let [lower, upper, ..] = strata[..] {
                    return TailModel::through(l, lower, upper);
                }
                let measured: Vec<Measured> = self
                    .points
                    .iter()
                    .filter(|p| p.level == l)
                    .map(|p| Measured {
                        rber: p.rber,
                        frames: p.frames,
                        failures: p.failures,
                    })
                    .collect();
                TailModel::fit(l, &measured)
            })
            .collect();
        for p in &mut self.points {
            let tail = self.tails.iter().find(|t| t.level == p.level);
            p.extrapolated =
                p.failures == 0 && p.stratified.is_none() && tail.is_some_and(|t| p.rber < t.anchor_rber);
            p.fer = match (tail, p.stratified) {
                (_, Some(s)) => s.estimate.fer,
                (Some(t), None) if p.extrapolated => t.fer(p.rber),
                _ => p.failures as f64 / p.frames.max(1) as f64,
            };
        }
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
                "# strata {}: level {}, {} decoder, {} error counts, {} frames, {} failures (seeds {:?}; {:.0} s); stratified=1 rows: fer = sum_w Binom(w; n, rber) f(w), fer_lo/fer_hi its monotone bounds (docs/ldpc.md)",
                i + 1,
                r.level,
                r.decoder.arithmetic.label(),
                r.strata.len(),
                r.frames(),
                r.failures(),
                r.seeds,
                r.wall_s
            );
        }
        if self.tails.is_empty() {
            return;
        }
        let _ = writeln!(
            s,
            "# extrapolated=1: no failure measured; fer = f0*(rber/r0)^s, r0 = lowest failing rber, s = weighted ln-ln fit over the {} lowest failing points, or, for a level with stratified rows, the line through its two lowest (docs/ldpc.md)",
            crate::tail::FIT_POINTS
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
