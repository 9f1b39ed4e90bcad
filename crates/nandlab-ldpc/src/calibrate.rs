//! Frame-error-rate calibration of the LDPC ladder: FER vs RBER for 0…6 extra sensing
//! levels, by Monte Carlo over real encode → MLC channel → decode frames.
//!
//! For each target RBER of the grid, the P/E count at which the page's raw bit error rate
//! (model RBER with the hard references) equals the target is found by bisection
//! ([`pe_for_rber`]); every sensing level `k` is then simulated at that same operating point,
//! so the rows of one RBER share the cells' physics and differ only in sensing. Each frame:
//! random data → systematic encoder → [`MlcChannel`] → min-sum decoder; a frame fails when
//! the decoded word differs from the sent one (detected failures and miscorrections both
//! count). Frames run in parallel batches; a point stops after the batch in which it reached
//! `min_failures` failures or `max_frames` frames. Every frame draws from its own random
//! stream (seed, point, frame index), so the table does not depend on the thread count.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use nandlab_core::engine::rng::mix64;
use nandlab_core::reliability::vth::VthModel;
use serde::{Deserialize, Serialize};

use crate::channel::{Channel, MlcChannel, OperatingPoint, Placement, Sampling};
use crate::code::QcCode;
use crate::decoder::DecoderConfig;
use crate::encoder::Encoder;
use crate::frames::{FrameSetup, Pipeline, Tally};
use crate::stats::clopper_pearson;
use crate::strata_quality::{StrataQuality, THIN_FAILURES};
use crate::strata_run::StrataRun;
use crate::stratified::StratifiedEstimate;
use crate::table::Extension;
use crate::tail::TailModel;

/// Settings of a calibration run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationConfig {
    /// Extra sensing levels per boundary to simulate (0 = hard decision).
    pub levels: Vec<usize>,
    /// Target raw bit error rates (hard decision, page of `page`).
    pub rber_grid: Vec<f64>,
    /// Frame cap per point.
    pub max_frames: u64,
    /// A point stops once this many frames failed.
    pub min_failures: u64,
    /// Frames per parallel batch (the stopping rule is checked between batches).
    pub batch: usize,
    /// Bit of the Vth model's level pattern the codeword's page reads (1 = the
    /// single-reference page, the simulator's page type 0).
    pub page: usize,
    /// Retention time of every point, seconds (wear is varied to reach each RBER).
    pub retention_s: f64,
    /// Decoder.
    pub decoder: DecoderConfig,
    /// Placement of the extra reads.
    pub placement: Placement,
    /// How frames are made (absent in tables written before it existed: `encode`).
    #[serde(default = "encode_pipeline")]
    pub pipeline: Pipeline,
    /// Cell sampling of the `encode` pipeline (the `coset` one always samples regions).
    pub sampling: Sampling,
    /// Run seed.
    pub seed: u64,
    /// Confidence of the reported intervals (0.95 = 95 %).
    pub confidence: f64,
    /// Worker threads (`None` = rayon's default, one per core).
    pub threads: Option<usize>,
}

fn encode_pipeline() -> Pipeline {
    Pipeline::Encode
}

impl Default for CalibrationConfig {
    /// Coset frames, `f32` decoder, 800 frames / 80 failures per point in rounds of 128
    /// frames. (The shipped table was made with the `encode` pipeline, Vth sampling and
    /// rounds of 20; its JSON sidecar records its settings.)
    fn default() -> Self {
        Self {
            levels: (0..=6).collect(),
            rber_grid: default_rber_grid(),
            max_frames: 800,
            min_failures: 80,
            batch: 128,
            page: 1,
            retention_s: 365.0 * 86_400.0,
            decoder: DecoderConfig::default(),
            placement: Placement::default(),
            pipeline: Pipeline::Coset,
            sampling: Sampling::Voltage,
            seed: 2013,
            confidence: 0.95,
            threads: None,
        }
    }
}

/// Default RBER grid: 4e-3 … 2.6e-2, denser across the hard (8e-3 … 1.2e-2) and soft
/// (1.2e-2 … 2.4e-2) waterfalls.
pub fn default_rber_grid() -> Vec<f64> {
    vec![
        4e-3, 6e-3, 7e-3, 8e-3, 8.5e-3, 9e-3, 9.5e-3, 1.0e-2, 1.1e-2, 1.2e-2, 1.3e-2, 1.4e-2, 1.5e-2, 1.6e-2, 1.7e-2,
        1.8e-2, 1.9e-2, 2.0e-2, 2.1e-2, 2.2e-2, 2.3e-2, 2.4e-2, 2.6e-2,
    ]
}

/// One measured point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationPoint {
    /// Extra sensing levels per boundary `k`.
    pub level: usize,
    /// Target RBER from the grid.
    pub target_rber: f64,
    /// Model RBER at the operating point (hard references).
    pub rber: f64,
    /// P/E cycles of the operating point.
    pub pe: f64,
    /// Frames simulated.
    pub frames: u64,
    /// Frames whose decoded word differs from the sent one.
    pub failures: u64,
    /// Of the failures, those that converged to a wrong codeword (miscorrections).
    pub miscorrections: u64,
    /// `failures / frames`, the tail model's FER where `extrapolated`, or the stratified
    /// estimate's where `stratified`.
    pub fer: f64,
    /// Lower end of the Clopper–Pearson interval.
    pub fer_lo: f64,
    /// Upper end of the Clopper–Pearson interval.
    pub fer_hi: f64,
    /// Measured raw bit error rate of the hard decisions.
    pub measured_rber: f64,
    /// Mean decoder iterations.
    pub mean_iterations: f64,
    /// Spacing δ of the extra reads.
    pub delta: f64,
    /// Read voltages (increasing).
    pub voltages: Vec<f64>,
    /// LLR of each sensed region.
    pub llr_table: Vec<f32>,
    /// `I(bit; region)`, bits.
    pub mutual_information: f64,
    /// No frame failed and the point lies below the level's lowest failing point: `fer`
    /// is the [`TailModel`]'s, `fer_hi` the measurement's bound (absent in old tables).
    #[serde(default)]
    pub extrapolated: bool,
    /// The error-count stratified estimate that gives this point its `fer` (`table.rs`),
    /// absent where the Monte Carlo tally (or the tail model) does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stratified: Option<StratifiedPoint>,
}

/// A point's FER from strata ([`CalibrationTable::add_strata`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StratifiedPoint {
    /// Index of the strata in [`CalibrationTable::strata_runs`].
    pub run: usize,
    /// Frames over those strata.
    pub frames: u64,
    /// Failed frames over those strata.
    pub failures: u64,
    /// The estimate at this point's RBER.
    pub estimate: StratifiedEstimate,
    /// Its bootstrap interval and the share resting on thin strata (absent in tables
    /// written before it existed; the CSV then shows the monotone bounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<StrataQuality>,
}

/// Provenance written next to the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Code description.
    pub code: String,
    /// Code length.
    pub n: usize,
    /// Data bits.
    pub k: usize,
    /// Circulant size.
    pub z: usize,
    /// Decoder settings.
    pub decoder: DecoderConfig,
    /// Channel description.
    pub channel: String,
    /// Vth model parameters (serialised).
    pub vth: serde_json::Value,
    /// Calibration settings.
    pub config: CalibrationConfig,
    /// Crate version.
    pub version: String,
    /// Wall time of the run, seconds.
    pub wall_s: f64,
    /// Worker threads used.
    pub threads: usize,
    /// The array device that decoded the frames (`numpy`, `cuda`), absent for this
    /// crate's CPU decoders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A calibration result: provenance and points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationTable {
    /// How the table was made.
    pub provenance: Provenance,
    /// Points, by level then RBER.
    pub points: Vec<CalibrationPoint>,
    /// Later runs pooled into the points ([`CalibrationTable::extend`]).
    #[serde(default)]
    pub extensions: Vec<Extension>,
    /// Each level's model below its measured range ([`CalibrationTable::apply_tails`]).
    #[serde(default)]
    pub tails: Vec<TailModel>,
    /// Strata that give points their FER ([`CalibrationTable::add_strata`]).
    #[serde(default)]
    pub strata_runs: Vec<StrataRun>,
}

/// The P/E count at which page `page` has model RBER `target` after `retention_s` seconds
/// (bisection on log P/E in `[1, 10^7]`; the model RBER grows with wear).
pub fn pe_for_rber(model: &VthModel, page: usize, retention_s: f64, target: f64) -> f64 {
    let rber = |pe: f64| model.page_rber(page, None, pe, retention_s);
    let (mut lo, mut hi) = (0.0f64, 7.0f64);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if rber(10f64.powf(mid)) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    10f64.powf(0.5 * (lo + hi))
}

/// Runs frames of `setup` until the stopping rule of `cfg` holds (checked after every
/// `cfg.batch` frames).
pub fn measure_point(setup: &FrameSetup<'_>, cfg: &CalibrationConfig) -> Tally {
    let run = |first, count| Ok::<_, Infallible>(setup.run(first, count));
    measure_point_with(cfg, run).unwrap_or_else(|e| match e {})
}

/// The stopping rule of `cfg` over batches that `run(first, count)` simulates (frames
/// `first .. first + count`; at most `cfg.batch` frames per call). The first error of
/// `run` ends the point.
pub fn measure_point_with<E>(
    cfg: &CalibrationConfig,
    mut run: impl FnMut(u64, u64) -> Result<Tally, E>,
) -> Result<Tally, E> {
    let mut t = Tally::default();
    while t.frames < cfg.max_frames && t.failures < cfg.min_failures {
        let count = (cfg.batch as u64).min(cfg.max_frames - t.frames);
        t = t.merge(run(t.frames, count)?);
    }
    Ok(t)
}

/// Calibrates FER vs RBER on `code` over the MLC channel of `model` (see the module
/// documentation). `progress` is called after every point.
pub fn calibrate(
    model: &VthModel,
    code: &QcCode,
    cfg: &CalibrationConfig,
    progress: impl FnMut(&CalibrationPoint),
) -> CalibrationTable {
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = cfg.threads {
            b = b.num_threads(t);
        }
        b.build().expect("thread pool")
    };
    let backend = Backend {
        threads: pool.current_num_threads(),
        device: None,
    };
    let run =
        |setup: &FrameSetup<'_>, first: u64, count: u64| Ok::<_, Infallible>(pool.install(|| setup.run(first, count)));
    calibrate_on(model, code, cfg, backend, run, progress).unwrap_or_else(|e| match e {})
}

/// Where a calibration's frames run, as its provenance records it.
#[derive(Debug, Clone)]
pub struct Backend {
    /// Worker threads.
    pub threads: usize,
    /// An array device outside this crate (e.g. `numpy`, `cuda`); `None` = this crate's
    /// CPU decoders.
    pub device: Option<String>,
}

/// [`calibrate`] with the frames of every batch simulated by `run(setup, first, count)`
/// (frames `first .. first + count` of the point `setup` describes), e.g. on a GPU. The
/// first error of `run` ends the calibration.
pub fn calibrate_on<E>(
    model: &VthModel,
    code: &QcCode,
    cfg: &CalibrationConfig,
    backend: Backend,
    mut run: impl FnMut(&FrameSetup<'_>, u64, u64) -> Result<Tally, E>,
    mut progress: impl FnMut(&CalibrationPoint),
) -> Result<CalibrationTable, E> {
    let start = Instant::now();
    let encoder =
        (cfg.pipeline == Pipeline::Encode).then(|| Encoder::new(code).expect("code has a systematic encoder"));
    let mut points = Vec::new();
    let ops: Vec<(f64, f64)> = cfg
        .rber_grid
        .iter()
        .map(|&r| (r, pe_for_rber(model, cfg.page, cfg.retention_s, r)))
        .collect();
    for &level in &cfg.levels {
        for (gi, &(target, pe)) in ops.iter().enumerate() {
            let point = OperatingPoint {
                page: cfg.page,
                pe,
                retention_s: cfg.retention_s,
            };
            let ch = MlcChannel::new(model, point, level, &cfg.placement, cfg.sampling);
            let stream_seed = mix64(cfg.seed ^ mix64(((level as u64) << 32) | gi as u64));
            let setup = FrameSetup {
                code,
                encoder: encoder.as_ref(),
                channel: &ch,
                decoder: cfg.decoder,
                pipeline: cfg.pipeline,
                stream_seed,
            };
            let t = measure_point_with(cfg, |first, count| run(&setup, first, count))?;
            let (frames, failures) = (t.frames, t.failures);
            let per_frame = |x: u64| x as f64 / frames.max(1) as f64;
            let (lo, hi) = clopper_pearson(failures, frames, 1.0 - cfg.confidence);
            let p = CalibrationPoint {
                level,
                target_rber: target,
                rber: ch.rber(),
                pe,
                frames,
                failures,
                miscorrections: t.miscorrections,
                fer: per_frame(failures),
                fer_lo: lo,
                fer_hi: hi,
                measured_rber: per_frame(t.raw_errors) / code.n() as f64,
                mean_iterations: per_frame(t.iterations),
                delta: ch.delta(),
                voltages: ch.voltages().to_vec(),
                llr_table: ch.llr_table().to_vec(),
                mutual_information: ch.mutual_information(),
                extrapolated: false,
                stratified: None,
            };
            progress(&p);
            points.push(p);
        }
    }
    let provenance = Provenance {
        code: format!(
            "QC-LDPC rate-8/9 style: {}x{} base matrix of {}x{} circulant permutations (nandlab-ldpc code::QcCode)",
            code.block_rows(),
            code.block_cols(),
            code.z(),
            code.z()
        ),
        n: code.n(),
        k: code.k(),
        z: code.z(),
        decoder: cfg.decoder,
        channel: format!(
            "MLC Vth model (nandlab-core reliability::vth), page {}, retention {} s, P/E bisected per RBER, \
             hard refs = model read refs, k extra reads per boundary at max-MI spacing, LLR from model region probabilities, \
             {}",
            cfg.page,
            cfg.retention_s,
            match cfg.pipeline {
                Pipeline::Coset => "all-zero view of random words (coset), region sampling".to_string(),
                Pipeline::Encode => format!("encoded random data, {:?} sampling", cfg.sampling),
            }
        ),
        vth: serde_json::to_value(model.params()).unwrap_or(serde_json::Value::Null),
        config: cfg.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        wall_s: start.elapsed().as_secs_f64(),
        threads: backend.threads,
        device: backend.device,
    };
    let mut table = CalibrationTable {
        provenance,
        points,
        extensions: Vec::new(),
        tails: Vec::new(),
        strata_runs: Vec::new(),
    };
    table.apply_tails();
    Ok(table)
}

/// Column header of the FER table.
pub const CSV_HEADER: &str =
    "level,rber,frames,failures,fer,fer_lo,fer_hi,extrapolated,stratified,thin_share,thin,support_failures";

/// The header of tables written before `support_failures` (still read).
const CSV_HEADER_V2: &str = "level,rber,frames,failures,fer,fer_lo,fer_hi,extrapolated,stratified,thin_share,thin";

/// The header of tables written before `thin_share` and `thin` (still read).
const CSV_HEADER_V1: &str = "level,rber,frames,failures,fer,fer_lo,fer_hi,extrapolated,stratified";

impl CalibrationTable {
    /// The table as CSV: `#` comment lines with the provenance summary (and the
    /// extensions and tail models), then [`CSV_HEADER`] rows.
    pub fn to_csv(&self) -> String {
        let p = &self.provenance;
        let c = &p.config;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# nandlab LDPC frame error rate vs raw bit error rate (nandlab-ldpc {})",
            p.version
        );
        let _ = writeln!(s, "# code: {} n={} k={}", p.code, p.n, p.k);
        let _ = writeln!(
            s,
            "# decoder: layered {} {} max_iterations={} early_termination={}",
            p.decoder.rule.label(),
            p.decoder.arithmetic.label(),
            p.decoder.max_iterations,
            p.decoder.early_termination
        );
        let _ = writeln!(s, "# channel: {}", p.channel);
        let _ = writeln!(
            s,
            "# frames: max {} per point, stop after {} failures (batches of {}); seed {}; {:.0}% Clopper-Pearson intervals",
            c.max_frames,
            c.min_failures,
            c.batch,
            c.seed,
            100.0 * c.confidence
        );
        let on = match &p.device {
            Some(d) => format!("on device {d}"),
            None => format!("on {} threads", p.threads),
        };
        let _ = writeln!(
            s,
            "# wall time {:.1} s {on}; full provenance in ldpc_fer.json",
            p.wall_s
        );
        self.write_extension_comments(&mut s);
        let _ = writeln!(s, "{CSV_HEADER}");
        for q in &self.points {
            // A stratified row shows its strata's frames and failures, its bootstrap
            // interval, the share on thin strata and the fewest failures of a stratum it
            // leans on; a Monte Carlo row rests wholly on its tally, thin below
            // THIN_FAILURES; a tail-model row on no failure (flagged `extrapolated`, not
            // thin, support 0).
            let thin_mc = q.failures < THIN_FAILURES && !q.extrapolated;
            let support_mc = if q.extrapolated { 0 } else { q.failures };
            let (frames, failures, lo, hi, share, thin, support) = match q.stratified {
                Some(st) => match st.quality {
                    Some(g) => (
                        st.frames,
                        st.failures,
                        g.ci_lo,
                        g.ci_hi,
                        g.thin_share,
                        !g.meets_rule(),
                        g.support_failures,
                    ),
                    None => (
                        st.frames,
                        st.failures,
                        st.estimate.fer_lo,
                        st.estimate.fer_hi,
                        0.0,
                        false,
                        0,
                    ),
                },
                None => (
                    q.frames,
                    q.failures,
                    q.fer_lo,
                    q.fer_hi,
                    f64::from(u8::from(thin_mc)),
                    thin_mc,
                    support_mc,
                ),
            };
            let _ = writeln!(
                s,
                "{},{:.6e},{},{},{:.6e},{:.6e},{:.6e},{},{},{:.4},{},{}",
                q.level,
                q.rber,
                frames,
                failures,
                q.fer,
                lo,
                hi,
                u8::from(q.extrapolated),
                u8::from(q.stratified.is_some()),
                share,
                u8::from(thin),
                support
            );
        }
        s
    }

    /// The whole table (provenance and every point with its LLR table) as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("serialisable")
    }

    /// Writes `csv_path` and, next to it, the JSON with the same stem.
    pub fn write(&self, csv_path: &Path) -> std::io::Result<()> {
        std::fs::write(csv_path, self.to_csv())?;
        std::fs::write(csv_path.with_extension("json"), self.to_json())
    }
}

/// One row of a FER table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FerRow {
    /// Extra sensing levels `k`.
    pub level: usize,
    /// RBER.
    pub rber: f64,
    /// Frames.
    pub frames: u64,
    /// Failed frames.
    pub failures: u64,
    /// FER.
    pub fer: f64,
    /// Interval low end.
    pub fer_lo: f64,
    /// Interval high end.
    pub fer_hi: f64,
    /// `fer` comes from the tail model (no failure measured).
    pub extrapolated: bool,
    /// `fer` comes from error-count strata; `frames`, `failures` are theirs, `fer_lo`,
    /// `fer_hi` the bootstrap interval (the monotone bounds in tables without `thin_share`).
    pub stratified: bool,
    /// Share of `fer` resting on tallies with fewer than [`THIN_FAILURES`] failures (0 in
    /// tables written before the column).
    pub thin_share: f64,
    /// More than [`crate::strata_quality::MAX_THIN_SHARE`] of `fer` rests on one such tally.
    pub thin: bool,
    /// The fewest failures of a tally `fer` leans on (a Monte Carlo row: its failures; a
    /// tail-model row: 0; a stratified row: `strata_quality`'s support), `None` for a
    /// stratified row of a table written before the column.
    pub support_failures: Option<u64>,
}

/// Parses a FER table CSV (leading `#` lines are skipped; the header must be [`CSV_HEADER`]).
pub fn parse_fer_csv(text: &str) -> Result<Vec<FerRow>, String> {
    let mut lines = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let fields = match lines.next() {
        Some(h) if h.trim() == CSV_HEADER => 12,
        Some(h) if h.trim() == CSV_HEADER_V2 => 11,
        Some(h) if h.trim() == CSV_HEADER_V1 => 9,
        other => return Err(format!("bad header {other:?}")),
    };
    lines
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            if f.len() != fields {
                return Err(format!("row {}: {} fields", i + 1, f.len()));
            }
            let e = |x: &str| format!("row {}: bad value {x:?}", i + 1);
            let (extrapolated, stratified) = (flag(f[7]).ok_or_else(|| e(f[7]))?, flag(f[8]).ok_or_else(|| e(f[8]))?);
            let failures: u64 = f[3].parse().map_err(|_| e(f[3]))?;
            let support_failures = match f.get(11) {
                Some(x) => Some(x.parse().map_err(|_| e(x))?),
                None if stratified => None,
                None => Some(if extrapolated { 0 } else { failures }),
            };
            Ok(FerRow {
                level: f[0].parse().map_err(|_| e(f[0]))?,
                rber: f[1].parse().map_err(|_| e(f[1]))?,
                frames: f[2].parse().map_err(|_| e(f[2]))?,
                failures,
                fer: f[4].parse().map_err(|_| e(f[4]))?,
                fer_lo: f[5].parse().map_err(|_| e(f[5]))?,
                fer_hi: f[6].parse().map_err(|_| e(f[6]))?,
                extrapolated,
                stratified,
                thin_share: f.get(9).map_or(Ok(0.0), |x| x.parse().map_err(|_| e(x)))?,
                thin: f.get(10).map_or(Some(false), |x| flag(x)).ok_or_else(|| e(f[10]))?,
                support_failures,
            })
        })
        .collect()
}

/// A `0`/`1` column.
fn flag(x: &str) -> Option<bool> {
    match x {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::BscChannel;
    use crate::code::testing::array7;

    fn setup<'a>(code: &'a QcCode, channel: &'a BscChannel, stream_seed: u64) -> FrameSetup<'a> {
        FrameSetup {
            code,
            encoder: None,
            channel,
            decoder: CalibrationConfig::default().decoder,
            pipeline: Pipeline::Coset,
            stream_seed,
        }
    }

    fn cfg(max_frames: u64, min_failures: u64, batch: usize) -> CalibrationConfig {
        CalibrationConfig {
            max_frames,
            min_failures,
            batch,
            ..CalibrationConfig::default()
        }
    }

    #[test]
    fn stops_after_the_batch_that_reaches_min_failures() {
        // p = 0.45 on a length-49 code: essentially every frame fails, so the point stops
        // after ceil(10 / 4) = 3 batches of 4 frames.
        let code = array7();
        let t = measure_point(&setup(&code, &BscChannel::new(0.45), 3), &cfg(1000, 10, 4));
        assert_eq!(t.frames, 12);
        assert!(t.failures >= 10);
        assert!((t.raw_errors as f64 / (12.0 * 49.0) - 0.45).abs() < 0.1);
    }

    #[test]
    fn runs_max_frames_when_nothing_fails() {
        // p = 1e-6: P(any error in 30 frames of 49 bits) ≈ 1.5e-3; with the fixed seed none.
        let code = array7();
        let t = measure_point(&setup(&code, &BscChannel::new(1e-6), 4), &cfg(30, 5, 8));
        assert_eq!((t.frames, t.failures, t.iterations), (30, 0, 0));
    }

    #[test]
    fn the_first_error_of_a_batch_ends_the_point() {
        // Batches of 4 up to 12 frames, none failing: the second call errs, so there are
        // exactly two calls and the error comes back.
        let mut calls = Vec::new();
        let r = measure_point_with(&cfg(12, 5, 4), |first, count| {
            calls.push((first, count));
            if calls.len() == 2 {
                return Err("device lost");
            }
            Ok(Tally {
                frames: count,
                ..Tally::default()
            })
        });
        assert_eq!(r, Err("device lost"));
        assert_eq!(calls, vec![(0, 4), (4, 4)]);
    }

    #[test]
    fn an_outside_backend_fills_the_table_and_is_recorded() {
        // One point simulated by a closure that fails every frame: batches of 3 until the
        // 7th failure (3 batches, 9 frames); the provenance and the CSV name the device.
        let m = VthModel::new(nandlab_core::reliability::vth::VthParams::dong_mlc()).unwrap();
        let c = CalibrationConfig {
            levels: vec![0],
            rber_grid: vec![1e-2],
            ..cfg(100, 7, 3)
        };
        let backend = Backend {
            threads: 1,
            device: Some("test".into()),
        };
        let mut seen = Vec::new();
        let run = |s: &FrameSetup<'_>, first: u64, count: u64| {
            seen.push((s.stream_seed, first));
            Ok::<_, Infallible>(Tally {
                frames: count,
                failures: count,
                ..Tally::default()
            })
        };
        let t = calibrate_on(&m, &array7(), &c, backend, run, |_| {}).unwrap();
        assert_eq!((t.points[0].frames, t.points[0].failures), (9, 9));
        assert_eq!(seen.iter().map(|s| s.1).collect::<Vec<_>>(), vec![0, 3, 6]);
        assert!(seen.iter().all(|s| s.0 == seen[0].0));
        assert_eq!(t.provenance.device.as_deref(), Some("test"));
        assert!(t.to_csv().contains("s on device test;"));
    }

    #[test]
    fn pe_for_rber_inverts_the_model() {
        let m = VthModel::new(nandlab_core::reliability::vth::VthParams::dong_mlc()).unwrap();
        let t = 365.0 * 86_400.0;
        let pe = pe_for_rber(&m, 1, t, 1e-2);
        assert!((m.page_rber(1, None, pe, t) / 1e-2 - 1.0).abs() < 1e-3);
    }

    #[test]
    fn csv_round_trip() {
        let text = "# a\n# b\nlevel,rber,frames,failures,fer,fer_lo,fer_hi,extrapolated,stratified\n0,1e-2,10,5,0.5,0.2,0.8,0,1\n";
        let rows = parse_fer_csv(text).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].failures, 5);
        assert!(!rows[0].extrapolated && rows[0].stratified);
        assert_eq!(rows[0].support_failures, None, "a stratified row before the column");
        // A Monte Carlo row of an old table leans on its own tally, a tail row on none.
        let mc = parse_fer_csv(&text.replace(",0,1\n", ",0,0\n")).unwrap();
        assert_eq!(mc[0].support_failures, Some(5));
        let tail = parse_fer_csv(&text.replace(",0,1\n", ",1,0\n")).unwrap();
        assert_eq!(tail[0].support_failures, Some(0));
        let now = format!("{CSV_HEADER}\n0,1e-2,10,5,0.5,0.2,0.8,0,1,0.3000,1,1\n");
        assert_eq!(parse_fer_csv(&now).unwrap()[0].support_failures, Some(1));
        assert!(parse_fer_csv(&now.replace(",1,1\n", ",1,x\n")).is_err());
        assert!(parse_fer_csv(&text.replace(",1\n", ",2\n")).is_err());
        assert!(parse_fer_csv(&text.replace(",0,1\n", ",0\n")).is_err(), "8 fields");
        assert!(parse_fer_csv("level,rber\n").is_err());
    }
}
