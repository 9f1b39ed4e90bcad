//! Streamed request records handed to a Python writer: the record thread calls it once
//! with an iterator whose `__next__` waits (without the GIL) for the simulator's next
//! column batch.

use nandlab_core::metrics::{Batches, RequestRecords};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};

/// The receiving end, shared with the record thread so that it can hang up once the
/// writer returns (a writer that kept the iterator must not hold the simulator back).
#[derive(Default)]
struct Shared {
    rx: Option<Batches>,
    /// Every batch was taken (the simulator closed the channel).
    ended: bool,
}

/// Iterator of record batches (dicts of NumPy columns, in arrival order).
#[pyclass(module = "nandlab._core")]
pub struct RecordBatches {
    shared: Arc<Mutex<Shared>>,
}

#[pymethods]
impl RecordBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let shared = Arc::clone(&self.shared);
        let batch: Option<RequestRecords> = py.allow_threads(move || {
            let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let next = s.rx.as_ref().and_then(|rx| rx.recv().ok());
            if next.is_none() && s.rx.is_some() {
                s.ended = true;
            }
            next
        });
        batch.map(|b| super::columns(py, b)).transpose()
    }
}

/// Calls `write(batches)` on this (the record) thread; `Err` if it raised or returned
/// before taking every batch.
pub fn consume(write: PyObject, rx: Batches) -> Result<(), String> {
    let shared = Arc::new(Mutex::new(Shared {
        rx: Some(rx),
        ended: false,
    }));
    let called = Python::with_gil(|py| {
        let it = Py::new(
            py,
            RecordBatches {
                shared: Arc::clone(&shared),
            },
        )?;
        write.call1(py, (it,)).map(drop)
    })
    .map_err(|e| e.to_string());
    let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
    s.rx = None;
    match called {
        Err(e) => Err(e),
        Ok(()) if !s.ended => Err("the writer returned before the last batch".to_string()),
        Ok(()) => Ok(()),
    }
}
