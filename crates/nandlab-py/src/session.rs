//! A run in steps for `nandlab endurance` (`nandlab_core::Session`): the drive's state
//! stays in the handle between steps, so the next epoch starts where the last ended.

use crate::{err, guard, NandlabError};
use nandlab_core::{Session, SimConfig, Simulator};
use pyo3::prelude::*;

/// A simulation paused between requests (one per config; not shared across threads).
#[pyclass(name = "Session", unsendable)]
pub struct PySession {
    inner: Option<Session>,
}

impl PySession {
    fn session(&mut self) -> PyResult<&mut Session> {
        self.inner
            .as_mut()
            .ok_or_else(|| NandlabError::new_err("the session has finished"))
    }
}

/// Ctrl-C stops a step (checked every 4,096 requests) and is raised as itself.
fn step<T>(py: Python<'_>, body: impl FnOnce(&mut dyn FnMut(u64) -> bool) -> nandlab_core::Result<T>) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let mut cb = |_: u64| match py.check_signals() {
        Ok(()) => true,
        Err(e) => {
            raised = Some(e);
            false
        }
    };
    let out = body(&mut cb);
    if let Some(e) = raised {
        return Err(e);
    }
    out.map_err(err)
}

#[pymethods]
impl PySession {
    /// Builds the device of `config_json` (preconditioned as a run's) and opens its workload.
    #[new]
    fn new(config_json: &str) -> PyResult<Self> {
        guard(|| {
            let cfg = SimConfig::from_json_str(config_json).map_err(err)?;
            let session = Simulator::new(cfg).and_then(Session::new).map_err(err)?;
            Ok(PySession { inner: Some(session) })
        })
    }

    /// Replays `requests` more requests of the workload; returns whether it has more.
    fn advance(&mut self, py: Python<'_>, requests: u64) -> PyResult<bool> {
        let s = self.session()?;
        guard(|| step(py, |cb| s.advance(requests, cb)))
    }

    /// Requests taken from the workload so far.
    fn requests(&mut self) -> PyResult<u64> {
        Ok(self.session()?.requests())
    }

    /// The summary so far (JSON; every counter since the start).
    fn summary(&mut self) -> PyResult<String> {
        let s = self.session()?;
        guard(|| Ok(s.summary().map_err(err)?.to_json().to_string()))
    }

    /// Read latency (ns) at quantile `q` of the host reads completed since the last call
    /// (or the start); `None` when none.
    fn read_quantile_since_mark(&mut self, q: f64) -> PyResult<Option<u64>> {
        let s = self.session()?;
        guard(|| s.read_quantile_since_mark(q).map_err(err))
    }

    /// Adds `delta[b]` P/E cycles to every block in service, in place.
    fn add_wear(&mut self, delta: Vec<u32>) -> PyResult<()> {
        let s = self.session()?;
        guard(|| s.add_wear(&delta).map_err(err))
    }

    /// Runs the rest of the workload; returns the final summary (JSON). The session ends.
    fn finish(&mut self, py: Python<'_>) -> PyResult<String> {
        let s = self
            .inner
            .take()
            .ok_or_else(|| NandlabError::new_err("the session has finished"))?;
        guard(|| Ok(step(py, |cb| s.finish(cb))?.summary.to_json().to_string()))
    }
}
