//! Thin PyO3 bindings of nandlab-core: JSON in, JSON, NumPy and Arrow columns out. No logic
//! here beyond converting types and errors.

use nandlab_core::content::{analyse_files, CellMapping};
use nandlab_core::metrics::{RecordSink, RequestRecords, TimelineColumns};
use nandlab_core::reliability::vth::{VthModel, VthParams};
use nandlab_core::workload::{self, TimeUnit, TraceFormat, WorkloadContext};
use nandlab_core::{NandError, SimConfig, Simulator};
use nandlab_ldpc::{calibrate, Arithmetic, CalibrationConfig, QcCode};
use numpy::PyArray1;
use pyo3::import_exception;
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod arrow;
mod ldpc;
mod parquet_file;
mod records_parquet;
mod session;
mod timeline_parquet;

// The front end's exception hierarchy (`nandlab.errors`): errors of the core are raised as
// those classes, so one `except nandlab.NandlabError` (or `ConfigError`) catches both.
import_exception!(nandlab.errors, NandlabError);
import_exception!(nandlab.errors, ConfigError);
import_exception!(nandlab.errors, TraceError);

fn err(e: NandError) -> PyErr {
    let msg = e.to_string();
    match e {
        NandError::Config { .. } => ConfigError::new_err(msg),
        NandError::Parse { .. } => TraceError::new_err(msg),
        NandError::Io { .. } | NandError::Invalid(_) => NandlabError::new_err(msg),
    }
}

fn parse_enum<T: serde::de::DeserializeOwned>(what: &str, value: &str) -> PyResult<T> {
    serde_json::from_value(serde_json::Value::String(value.to_string()))
        .map_err(|_| ConfigError::new_err(format!("unknown {what} `{value}`")))
}

/// Runs a binding's body. A panic in the core is a bug, but it must not cross into Python
/// as pyo3's `PanicException` (a `BaseException`, past every `except NandlabError`): it
/// comes back as a `NandlabError` naming it, one line.
fn guard<T>(body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        let what = what.lines().next().unwrap_or_default().to_string();
        Err(NandlabError::new_err(format!(
            "internal error in nandlab's core (a bug: please report it with this input): {what}"
        )))
    })
}

/// Runs a simulation. Returns (summary JSON, request columns or None, every block's P/E
/// cycles at the end as Arrow columns (`pe_cycles`) or None: only with `output.pe_cycles`). With
/// `requests_csv`, request records stream to that CSV file instead (columns: None); with
/// `requests_parquet = (path, arrow_schema)`, to that Parquet file (`arrow_schema`: the
/// `ARROW:schema` value stored with it), written on the record thread. With `timeline_sink = (name, take)` and
/// `output.timeline_ns` set, `take(batch)` is called with each batch of timeline rows (Arrow
/// columns, `arrow::ArrowColumns`) as the run goes; with `timeline_parquet = path` instead,
/// they are written to that Parquet file by Rust (`timeline_parquet.rs`). `progress(done, None)` is called at the first
/// 4,096 requests and then at most every [`PROGRESS_S`] of wall time.
#[pyfunction]
#[pyo3(signature = (config_json, progress=None, requests_csv=None, requests_parquet=None, timeline_sink=None, timeline_parquet=None))]
fn simulate(
    py: Python<'_>,
    config_json: &str,
    progress: Option<PyObject>,
    requests_csv: Option<&str>,
    requests_parquet: Option<(String, String)>,
    timeline_sink: Option<(String, PyObject)>,
    timeline_parquet: Option<std::path::PathBuf>,
) -> PyResult<SimulateOut> {
    let timeline = TimelineOut {
        sink: timeline_sink,
        parquet: timeline_parquet,
    };
    guard(|| simulate_unguarded(py, config_json, progress, requests_csv, requests_parquet, timeline))
}

/// Where the timeline's rows go: a Python callable, or a Parquet file.
struct TimelineOut {
    sink: Option<(String, PyObject)>,
    parquet: Option<std::path::PathBuf>,
}

/// What `simulate` returns.
type SimulateOut = (String, Option<PyObject>, Option<PyObject>);

/// Wall time between progress callbacks (s): the bar moves several times a second
/// without taking the GIL for every batch of requests.
const PROGRESS_S: f64 = 0.25;

fn simulate_unguarded(
    py: Python<'_>,
    config_json: &str,
    progress: Option<PyObject>,
    requests_csv: Option<&str>,
    requests_parquet: Option<(String, String)>,
    timeline: TimelineOut,
) -> PyResult<SimulateOut> {
    let cfg = SimConfig::from_json_str(config_json).map_err(err)?;
    let mut parquet = None;
    // An exception in the callback, or Ctrl-C, stops the run and is re-raised as itself.
    let mut raised: Option<PyErr> = None;
    let out = py.allow_threads(|| {
        let mut sim = Simulator::new(cfg)?;
        if let Some(path) = requests_csv {
            sim.stream_records_to(RecordSink::Csv(path.to_string()))?;
        }
        if let Some((path, arrow_schema)) = requests_parquet {
            let file =
                std::fs::File::create(&path).map_err(|e| NandError::io(&path, format!("cannot write records: {e}")))?;
            let consume = Box::new(move |rx| records_parquet::write(file, arrow_schema, rx).map_err(|e| e.to_string()));
            sim.stream_records_to(RecordSink::Batches { name: path, consume })?;
        }
        if let Some(path) = timeline.parquet {
            let (writer, sink) = timeline_parquet::ParquetTimeline::start(path.clone());
            sim.stream_timeline_to(path.display().to_string(), sink);
            parquet = Some(writer);
        }
        if let Some((name, take)) = timeline.sink {
            let sink = Box::new(move |batch: TimelineColumns| {
                Python::with_gil(|py| {
                    let batch = Py::new(py, arrow::ArrowColumns::timeline(batch))?;
                    take.call1(py, (batch,)).map(drop)
                })
                .map_err(|e| e.to_string())
            });
            sim.stream_timeline_to(name, sink);
        }
        // The first chance calls back at once (a callback sees every run that reaches
        // 4,096 requests); later ones keep to the wall-time pace.
        let mut last: Option<std::time::Instant> = None;
        let mut cb = |done: u64| -> bool {
            if last.is_some_and(|t| t.elapsed().as_secs_f64() < PROGRESS_S) {
                return true;
            }
            last = Some(std::time::Instant::now());
            Python::with_gil(|py| {
                let verdict = py.check_signals().and_then(|()| match &progress {
                    Some(f) => f.call1(py, (done, py.None()))?.is_truthy(py),
                    None => Ok(true),
                });
                verdict.unwrap_or_else(|e| {
                    raised = Some(e);
                    false
                })
            })
        };
        sim.run(&mut cb)
    });
    // The run is over (its timeline sink dropped): the file is complete once its writer
    // ends. The writer's own error says more than the run's "writer stopped".
    if let Some(w) = parquet {
        py.allow_threads(|| w.finish()).map_err(NandlabError::new_err)?;
    }
    if let Some(e) = raised {
        return Err(e);
    }
    let out = out.map_err(err)?;
    let columns = out.requests.map(|r| columns(py, r)).transpose()?;
    let pe = out
        .pe_by_block
        .map(|v| Py::new(py, arrow::ArrowColumns::u32s("pe_cycles", v)).map(Py::into_any))
        .transpose()?;
    Ok((out.summary.to_json().to_string(), columns, pe))
}

/// Request records as a dict of NumPy columns (the vectors move, no copy).
fn columns(py: Python<'_>, r: RequestRecords) -> PyResult<PyObject> {
    let d = PyDict::new(py);
    d.set_item("arrival_ns", PyArray1::from_vec(py, r.arrival_ns))?;
    d.set_item("latency_ns", PyArray1::from_vec(py, r.latency_ns))?;
    d.set_item("offset_bytes", PyArray1::from_vec(py, r.offset_bytes))?;
    d.set_item("size_bytes", PyArray1::from_vec(py, r.size_bytes))?;
    d.set_item("op", PyArray1::from_vec(py, r.op))?;
    Ok(d.into_any().unbind())
}

/// Validates a config as a run does — builds the device and opens the workload (a trace's
/// file and format) — and returns it resolved (every default filled in) as JSON.
#[pyfunction]
fn validate_config(py: Python<'_>, config_json: &str) -> PyResult<String> {
    guard(|| {
        let cfg = SimConfig::from_json_str(config_json).map_err(err)?;
        py.allow_threads(|| {
            let sim = Simulator::new(cfg.clone())?;
            let ctx = WorkloadContext {
                logical_bytes: sim.logical_bytes(),
                seed: cfg.seed,
            };
            workload::open(&cfg.workload, &ctx).map(drop)
        })
        .map_err(err)?;
        Ok(cfg.to_json().to_string())
    })
}

/// Statistics of a trace file as JSON.
#[pyfunction]
#[pyo3(signature = (path, format="auto", time_unit=None))]
fn trace_info(py: Python<'_>, path: &str, format: &str, time_unit: Option<&str>) -> PyResult<String> {
    let fmt: TraceFormat = parse_enum("trace format", format)?;
    let unit: Option<TimeUnit> = time_unit.map(|u| parse_enum("time unit", u)).transpose()?;
    let info = guard(|| py.allow_threads(|| workload::trace_info(path, fmt, unit)).map_err(err))?;
    Ok(serde_json::to_string(&info).expect("trace info serialises"))
}

/// Converts a trace between formats; returns the number of requests written.
#[pyfunction]
fn trace_convert(py: Python<'_>, src: &str, src_format: &str, dst: &str, dst_format: &str) -> PyResult<u64> {
    let sf: TraceFormat = parse_enum("trace format", src_format)?;
    let df: TraceFormat = parse_enum("trace format", dst_format)?;
    guard(|| py.allow_threads(|| workload::convert(src, sf, dst, df)).map_err(err))
}

/// Cell-state analysis of files (`nandlab states`) as JSON.
#[pyfunction]
#[pyo3(signature = (paths, unit_bytes=512, mapping="adjacent"))]
fn states(py: Python<'_>, paths: Vec<String>, unit_bytes: usize, mapping: &str) -> PyResult<String> {
    let mapping: CellMapping = parse_enum("cell mapping", mapping)?;
    let out = guard(|| {
        py.allow_threads(|| analyse_files(&paths, unit_bytes, mapping))
            .map_err(err)
    })?;
    Ok(serde_json::to_string(&out).expect("state analysis serialises"))
}

/// Writes `text` to `path` atomically (a temporary file beside it, then a rename).
fn write_atomic(path: &std::path::Path, text: &str) -> PyResult<()> {
    let tmp = path.with_extension("tmp-nandlab");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| NandlabError::new_err(format!("{}: {e}", path.display())))
}

/// Measures LDPC frame error rate vs RBER per soft level (`nandlab calibrate ldpc`) and
/// writes the table to `out` (CSV) and its provenance beside it (JSON). Returns the JSON.
/// `fixed8` = LLR scale of the 8-bit fixed-point decoder (default: the `f32` decoder);
/// `batch` = frames per batch (the stopping rule is checked between batches). With
/// `device = (name, measure)` every batch is simulated by the Python callback `measure`
/// (see `ldpc::calibrate_on_device`; the decoder must be fixed8) instead of Rust.
#[pyfunction]
#[pyo3(signature = (out, max_frames=None, min_failures=None, levels=None, rber_grid=None, seed=None, threads=None, progress=None, batch=None, fixed8=None, device=None))]
#[allow(clippy::too_many_arguments)]
fn calibrate_ldpc(
    py: Python<'_>,
    out: &str,
    max_frames: Option<u64>,
    min_failures: Option<u64>,
    levels: Option<Vec<usize>>,
    rber_grid: Option<Vec<f64>>,
    seed: Option<u64>,
    threads: Option<usize>,
    progress: Option<PyObject>,
    batch: Option<usize>,
    fixed8: Option<f32>,
    device: Option<(String, PyObject)>,
) -> PyResult<String> {
    let mut cfg = CalibrationConfig::default();
    for (name, v) in [("max_frames", max_frames), ("min_failures", min_failures)] {
        if v == Some(0) {
            return Err(ConfigError::new_err(format!("{name} must be at least 1, got 0")));
        }
    }
    if let Some(v) = max_frames {
        cfg.max_frames = v;
    }
    if let Some(v) = min_failures {
        cfg.min_failures = v;
    }
    if let Some(v) = levels {
        if v.iter().any(|&k| k > 6) || v.is_empty() {
            return Err(ConfigError::new_err("levels must be a non-empty list of 0 … 6"));
        }
        cfg.levels = v;
    }
    if let Some(v) = rber_grid {
        if v.is_empty() || v.iter().any(|&r| !(r > 0.0 && r < 0.5)) {
            return Err(ConfigError::new_err("rber grid values must lie in (0, 0.5)"));
        }
        cfg.rber_grid = v;
    }
    if let Some(v) = seed {
        cfg.seed = v;
    }
    if let Some(v) = batch {
        cfg.batch = v.max(1);
    }
    if let Some(llr_scale) = fixed8 {
        if !(llr_scale > 0.0 && llr_scale.is_finite()) {
            return Err(ConfigError::new_err(format!(
                "fixed8 llr_scale {llr_scale}: must be positive"
            )));
        }
        cfg.decoder.arithmetic = Arithmetic::Fixed8 { llr_scale };
    }
    cfg.threads = threads;
    let total = cfg.levels.len() * cfg.rber_grid.len();
    let mut done = 0usize;
    let mut tick = || {
        done += 1;
        if let Some(f) = &progress {
            Python::with_gil(|py| {
                let _ = f.call1(py, (done, total));
            });
        }
    };
    let table = match &device {
        Some((name, measure)) => {
            if fixed8.is_none() {
                return Err(ConfigError::new_err(format!(
                    "device {name}: the array decoder is the fixed-point one; give fixed8"
                )));
            }
            ldpc::calibrate_on_device(py, &cfg, name, measure, tick)?
        }
        None => {
            let model = VthModel::new(VthParams::dong_mlc()).map_err(err)?;
            let code = QcCode::rate_8_9_4k();
            guard(|| Ok(py.allow_threads(|| calibrate(&model, &code, &cfg, |_| tick()))))?
        }
    };
    let path = std::path::Path::new(out);
    write_atomic(path, &table.to_csv())?;
    let json = table.to_json();
    write_atomic(&path.with_extension("json"), &json)?;
    Ok(json)
}

/// Probability that a page of `codewords` BCH codewords of `n_bits` bits, each correcting
/// `t` bits, is uncorrectable at raw bit error rate `rber` (the binomial tail).
#[pyfunction]
fn bch_page_fail(t: u64, n_bits: u64, codewords: u32, rber: f64) -> PyResult<f64> {
    if !(0.0..=1.0).contains(&rber) || t >= n_bits || codewords == 0 {
        return Err(ConfigError::new_err(format!(
            "bch_page_fail: need 0 <= rber <= 1, t < n_bits and codewords >= 1 (got rber {rber}, t {t}, n_bits \
             {n_bits}, codewords {codewords})"
        )));
    }
    Ok(nandlab_core::ecc::Bch { n_bits, t }.page_fail_prob(rber, codewords))
}

/// The UBER (and RBER) of a drive's data after `retention_days` powered off at
/// `storage_c`, on blocks with the P/E cycles `pe_by_block`, for the device, error model
/// and ECC of `config_json` (`nandlab endurance`).
#[pyfunction]
fn retention_uber(config_json: &str, pe_by_block: Vec<f64>, retention_days: f64, storage_c: f64) -> PyResult<String> {
    guard(|| {
        let cfg = SimConfig::from_json_str(config_json).map_err(err)?;
        let check = cfg
            .retention_uber(&pe_by_block, retention_days, storage_c)
            .map_err(err)?;
        Ok(serde_json::to_string(&check).expect("plain numbers serialise"))
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", nandlab_core::VERSION)?;
    m.add("NandlabError", m.py().get_type::<NandlabError>())?;
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("TraceError", m.py().get_type::<TraceError>())?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(validate_config, m)?)?;
    m.add_function(wrap_pyfunction!(trace_info, m)?)?;
    m.add_function(wrap_pyfunction!(trace_convert, m)?)?;
    m.add_function(wrap_pyfunction!(states, m)?)?;
    m.add_function(wrap_pyfunction!(calibrate_ldpc, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_code, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_coset_law, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_frames, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_table_decoder, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::fer_table, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_measure_stratum, m)?)?;
    m.add_function(wrap_pyfunction!(ldpc::ldpc_strata_json, m)?)?;
    m.add_function(wrap_pyfunction!(bch_page_fail, m)?)?;
    m.add_function(wrap_pyfunction!(retention_uber, m)?)?;
    m.add_class::<session::PySession>()?;
    Ok(())
}
