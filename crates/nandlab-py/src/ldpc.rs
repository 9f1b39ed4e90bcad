//! LDPC bindings for the array decoders of `nandlab.ldpc_xp` (numpy on the CPU, CuPy on a
//! GPU): the code's structure, the channel's per-bit law and deterministic frames, the Rust
//! decoders' results on given frames (to test the array decoder bit for bit), calibration
//! with each batch of frames simulated by a Python callback, and error-count strata
//! (measured by Rust for comparison, or written as `ldpc_stratified --out` files).

use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::{pe_for_rber, CalibrationTable};
use nandlab_ldpc::channel::CosetLaw;
use nandlab_ldpc::decoder::decode_frames;
use nandlab_ldpc::input_law::InputLaw;
use nandlab_ldpc::strata_run::StrataRun;
use nandlab_ldpc::stratified::measure_stratum;
use nandlab_ldpc::{
    calibrate_on, Arithmetic, Backend, CalibrationConfig, Channel, DecoderConfig, FixedDecoder, FrameSetup, MlcChannel,
    OperatingPoint, QcCode, Sampling, Stratum, Tally,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::{ConfigError, NandlabError};

/// A code from its circulant size and base matrix (`None` = zero block).
fn code_of(z: usize, shifts: &[Vec<Option<u32>>]) -> PyResult<QcCode> {
    QcCode::new(z, shifts).map_err(|e| ConfigError::new_err(format!("LDPC code: {e}")))
}

/// Decoder settings from their JSON (`DecoderConfig`); a fixed8 one needs a positive scale.
fn decoder_config(decoder_json: &str) -> PyResult<DecoderConfig> {
    let cfg: DecoderConfig =
        serde_json::from_str(decoder_json).map_err(|e| ConfigError::new_err(format!("decoder settings: {e}")))?;
    match cfg.arithmetic {
        Arithmetic::Fixed8 { llr_scale } if llr_scale <= 0.0 || !llr_scale.is_finite() => Err(ConfigError::new_err(
            format!("decoder settings: fixed8 needs a positive llr_scale (got {llr_scale})"),
        )),
        _ => Ok(cfg),
    }
}

/// The calibration's channel at RBER `rber` with `level` extra soft reads (the operating
/// point `nandlab calibrate ldpc` uses: the default page, retention and read placement),
/// sampling regions.
fn channel(model: &VthModel, level: usize, rber: f64) -> PyResult<MlcChannel> {
    if level > 6 {
        return Err(ConfigError::new_err(format!("level {level}: must be 0 … 6")));
    }
    if !(rber > 0.0 && rber < 0.5) {
        return Err(ConfigError::new_err(format!("rber {rber}: must lie in (0, 0.5)")));
    }
    let cfg = CalibrationConfig::default();
    let point = OperatingPoint {
        page: cfg.page,
        pe: pe_for_rber(model, cfg.page, cfg.retention_s, rber),
        retention_s: cfg.retention_s,
    };
    Ok(MlcChannel::new(model, point, level, &cfg.placement, Sampling::Region))
}

/// The per-bit law of [`channel`]'s all-zero view at `(level, rber)`.
fn coset_law(model: &VthModel, level: usize, rber: f64) -> PyResult<CosetLaw> {
    Ok(channel(model, level, rber)?
        .coset_law()
        .expect("the MLC channel has a coset law"))
}

fn model() -> PyResult<VthModel> {
    VthModel::new(VthParams::dong_mlc()).map_err(crate::err)
}

/// The rate-8/9 4 KB code as `(Z, shifts)`, `shifts[row][col]` (`None` = zero block).
#[pyfunction]
pub fn ldpc_code() -> (usize, Vec<Vec<Option<u32>>>) {
    let code = QcCode::rate_8_9_4k();
    let shifts = (0..code.block_rows())
        .map(|r| (0..code.block_cols()).map(|c| code.shift(r, c)).collect())
        .collect();
    (code.z(), shifts)
}

/// The law of one bit in the all-zero (coset) view of the calibration's channel at
/// `(level, rber)`: per outcome its probability, LLR and whether it is a hard error.
#[pyfunction]
pub fn ldpc_coset_law(py: Python<'_>, level: usize, rber: f64) -> PyResult<(Vec<f64>, Vec<f32>, Vec<bool>)> {
    let m = model()?;
    let law = py.allow_threads(|| coset_law(&m, level, rber))?;
    Ok((law.prob, law.llr, law.err))
}

/// Channel LLRs (`count × n`, float32) of frames `first .. first + count` of the coset
/// pipeline at `(level, rber)` on the rate-8/9 code; frame `f` draws from
/// `stream_rng(seed, f)`, as in a calibration.
#[pyfunction]
pub fn ldpc_frames(
    py: Python<'_>,
    level: usize,
    rber: f64,
    seed: u64,
    first: u64,
    count: usize,
) -> PyResult<Bound<'_, PyArray2<f32>>> {
    let m = model()?;
    let n = QcCode::rate_8_9_4k().n();
    let llr = py.allow_threads(|| -> PyResult<Vec<f32>> {
        let ch = channel(&m, level, rber)?;
        let mut llr = vec![0f32; count * n];
        for (i, frame) in llr.chunks_exact_mut(n).enumerate() {
            ch.transmit_coset(frame, &mut stream_rng(seed, first + i as u64));
        }
        Ok(llr)
    })?;
    PyArray1::from_vec(py, llr).reshape([count, n])
}

/// Decodes frames (`llr`: `frames × n` float32 channel LLRs) with the Rust decoder that
/// `decoder_json` (a `DecoderConfig`) names on the code `(z, shifts)`: the `f32`
/// `MinSumDecoder` or the 8-bit `FixedDecoder`. Returns per frame whether it converged, its
/// iterations and its decisions (`frames × n`, 0/1).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn ldpc_decode<'py>(
    py: Python<'py>,
    z: usize,
    shifts: Vec<Vec<Option<u32>>>,
    decoder_json: &str,
    llr: PyReadonlyArray2<'py, f32>,
) -> PyResult<(
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray2<u8>>,
)> {
    let code = code_of(z, &shifts)?;
    let cfg = decoder_config(decoder_json)?;
    let llr = llr.as_array();
    let (frames, n) = llr.dim();
    if n != code.n() {
        return Err(ConfigError::new_err(format!(
            "frames have {n} LLRs each, the code has n = {}",
            code.n()
        )));
    }
    let rows: Vec<Vec<f32>> = llr.outer_iter().map(|r| r.to_vec()).collect();
    let out = py.allow_threads(|| match cfg.arithmetic {
        Arithmetic::F32 => decode_frames(&code, cfg, &rows),
        Arithmetic::Fixed8 { llr_scale } => {
            let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
            FixedDecoder::new(&code, cfg, llr_scale).decode(&refs)
        }
    });
    let converged = out.iter().map(|(o, _)| o.converged).collect();
    let iterations = out.iter().map(|(o, _)| o.iterations).collect();
    let words = out.into_iter().flat_map(|(_, w)| w).collect();
    Ok((
        PyArray1::from_vec(py, converged),
        PyArray1::from_vec(py, iterations),
        PyArray1::from_vec(py, words).reshape([frames, n])?,
    ))
}

/// The CSV text of a built-in FER table by its `ecc.curve_path` name (`""`: the shipped one).
#[pyfunction]
pub fn fer_table(name: &str) -> PyResult<&'static str> {
    nandlab_core::ecc::builtin_fer_table(name)
        .ok_or_else(|| crate::ConfigError::new_err(format!("no built-in FER table named {name:?}")))
}

/// The decoder of the shipped table and of soft strata (`CalibrationConfig::default()`),
/// as `DecoderConfig` JSON.
#[pyfunction]
pub fn ldpc_table_decoder() -> String {
    serde_json::to_string(&CalibrationConfig::default().decoder).expect("decoder settings serialise")
}

/// Stratum `w` of the rate-8/9 code at `(level, rber)` measured by the Rust CPU path
/// (`stratified::measure_stratum`, the one `ldpc_stratified` runs): `(frames, failures)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn ldpc_measure_stratum(
    py: Python<'_>,
    level: usize,
    rber: f64,
    decoder_json: &str,
    seed: u64,
    w: usize,
    min_failures: u64,
    max_frames: u64,
    batch: u64,
) -> PyResult<(u64, u64)> {
    let cfg = decoder_config(decoder_json)?;
    let m = model()?;
    let code = QcCode::rate_8_9_4k();
    if w > code.n() {
        return Err(ConfigError::new_err(format!(
            "w = {w}: more errors than n = {}",
            code.n()
        )));
    }
    py.allow_threads(|| {
        let law = coset_law(&m, level, rber)?;
        let s = measure_stratum(&code, &law, cfg, seed, w, min_failures, max_frames, batch);
        Ok((s.frames, s.failures))
    })
}

/// The `ldpc_stratified --out` document (`{"run": StrataRun, "points": [...]}`) of strata
/// `(w, frames, failures)` measured elsewhere (an array decoder) at `(level, rber)` with
/// `decoder_json` and `seed`, taking `wall_s` seconds on `device`; its one point is the
/// estimate at `rber`. `ldpc_extend --strata` pools it like the CPU tool's.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn ldpc_strata_json(
    py: Python<'_>,
    level: usize,
    rber: f64,
    decoder_json: &str,
    seed: u64,
    strata: Vec<(usize, u64, u64)>,
    wall_s: f64,
    device: &str,
) -> PyResult<String> {
    let decoder = decoder_config(decoder_json)?;
    let m = model()?;
    let n = QcCode::rate_8_9_4k().n();
    let mut sorted: Vec<Stratum> = strata.iter().map(|&(w, f, x)| Stratum::new(w, f, x)).collect();
    sorted.sort_by_key(|s| s.errors);
    if let Some(s) = sorted.iter().find(|s| s.errors > n || s.failures > s.frames) {
        return Err(ConfigError::new_err(format!(
            "stratum w = {}: {} failures of {} frames (n = {n})",
            s.errors, s.failures, s.frames
        )));
    }
    if sorted.windows(2).any(|p| p[0].errors == p[1].errors) {
        return Err(ConfigError::new_err("strata: an error count appears twice"));
    }
    py.allow_threads(|| {
        let law = coset_law(&m, level, rber)?;
        let run = StrataRun {
            level,
            decoder,
            input_law: InputLaw::new(&law, decoder.arithmetic),
            seeds: vec![seed],
            strata: sorted,
            wall_s,
            device: Some(device.to_string()),
        };
        let alpha = 1.0 - CalibrationConfig::default().confidence;
        Ok(run.out_json(n, &[(rber, &law)], alpha))
    })
}

/// Runs `nandlab calibrate ldpc`'s grid with every batch of frames simulated by
/// `measure(decoder_json, prob, llr, err, stream_seed, first, count)`, which returns
/// `(frames, failures, miscorrections, iterations, raw_errors)` for frames
/// `first .. first + count` of the point whose coset law is `(prob, llr, err)`. The
/// decoder is `cfg.decoder` (fixed8); the provenance records `device`.
pub fn calibrate_on_device(
    py: Python<'_>,
    cfg: &CalibrationConfig,
    device: &str,
    measure: &PyObject,
    mut progress: impl FnMut() + Send,
) -> PyResult<CalibrationTable> {
    let model = model()?;
    let code = QcCode::rate_8_9_4k();
    let decoder_json = serde_json::to_string(&cfg.decoder).expect("decoder settings serialise");
    let backend = Backend {
        threads: 1,
        device: Some(device.to_string()),
    };
    py.allow_threads(|| {
        let run = |setup: &FrameSetup<'_>, first: u64, count: u64| -> PyResult<Tally> {
            let law = setup.channel.coset_law().expect("the MLC channel has a coset law");
            Python::with_gil(|py| {
                let args = (
                    &decoder_json,
                    law.prob,
                    law.llr,
                    law.err,
                    setup.stream_seed,
                    first,
                    count,
                );
                let (frames, failures, miscorrections, iterations, raw_errors) =
                    measure.call1(py, args)?.extract::<(u64, u64, u64, u64, u64)>(py)?;
                if frames != count {
                    return Err(NandlabError::new_err(format!(
                        "device measured {frames} frames, asked for {count}"
                    )));
                }
                Ok(Tally {
                    frames,
                    failures,
                    miscorrections,
                    iterations,
                    raw_errors,
                })
            })
        };
        calibrate_on(&model, &code, cfg, backend, run, |_| progress())
    })
}
