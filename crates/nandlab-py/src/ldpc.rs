//! LDPC bindings for the array decoders of `nandlab.ldpc_xp` (numpy on the CPU, CuPy on a
//! GPU): the code's structure, the channel's per-bit law and deterministic frames, the Rust
//! fixed-point decoder's results on given frames (to test the array decoder bit for bit),
//! and calibration with each batch of frames simulated by a Python callback.

use nandlab_core::engine::rng::stream_rng;
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_ldpc::calibrate::{pe_for_rber, CalibrationTable};
use nandlab_ldpc::{
    calibrate_on, Arithmetic, Backend, CalibrationConfig, Channel, DecoderConfig, FixedDecoder, FrameSetup, MlcChannel,
    OperatingPoint, QcCode, Sampling, Tally,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::{ConfigError, NandlabError};

/// A code from its circulant size and base matrix (`None` = zero block).
fn code_of(z: usize, shifts: &[Vec<Option<u32>>]) -> PyResult<QcCode> {
    QcCode::new(z, shifts).map_err(|e| ConfigError::new_err(format!("LDPC code: {e}")))
}

/// A fixed-point decoder's settings from their JSON (`DecoderConfig`) and its LLR scale.
fn fixed8_config(decoder_json: &str) -> PyResult<(DecoderConfig, f32)> {
    let cfg: DecoderConfig =
        serde_json::from_str(decoder_json).map_err(|e| ConfigError::new_err(format!("decoder settings: {e}")))?;
    match cfg.arithmetic {
        Arithmetic::Fixed8 { llr_scale } if llr_scale > 0.0 => Ok((cfg, llr_scale)),
        a => Err(ConfigError::new_err(format!(
            "decoder settings: arithmetic must be fixed8 with a positive llr_scale (got {})",
            a.label()
        ))),
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
    let ch = py.allow_threads(|| channel(&m, level, rber))?;
    let law = ch.coset_law().expect("the MLC channel has a coset law");
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

/// Decodes frames (`llr`: `frames × n` float32 channel LLRs) with the Rust 8-bit
/// fixed-point decoder on the code `(z, shifts)`; `decoder_json` is a `DecoderConfig`
/// whose arithmetic is `fixed8`. Returns per frame whether it converged, its iterations
/// and its decisions (`frames × n`, 0/1).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn ldpc_decode_fixed8<'py>(
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
    let (cfg, scale) = fixed8_config(decoder_json)?;
    let llr = llr.as_array();
    let (frames, n) = llr.dim();
    if n != code.n() {
        return Err(ConfigError::new_err(format!(
            "frames have {n} LLRs each, the code has n = {}",
            code.n()
        )));
    }
    let rows: Vec<Vec<f32>> = llr.outer_iter().map(|r| r.to_vec()).collect();
    let out = py.allow_threads(|| {
        let refs: Vec<&[f32]> = rows.iter().map(Vec::as_slice).collect();
        FixedDecoder::new(&code, cfg, scale).decode(&refs)
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
