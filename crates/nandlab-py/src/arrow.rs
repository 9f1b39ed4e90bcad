//! Columns handed to Python as one Arrow struct array through the Arrow PyCapsule interface
//! (`__arrow_c_array__`): `polars.DataFrame(obj)` takes them without a copy and without
//! NumPy, whose import alone (~234 M instructions) cost more than the rest of a 10 s-window
//! timeline of DTRS ×10 (`benchmarks/README.md`).

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, ArrayRef, Float64Array, StructArray, UInt32Array, UInt64Array};
use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use nandlab_core::metrics::timeline::Column;
use nandlab_core::metrics::TimelineColumns;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::ffi::CString;
use std::sync::Arc;

/// A batch of named columns (`polars.DataFrame(batch)`; `len(batch)` rows).
#[pyclass(module = "nandlab._core", frozen)]
pub struct ArrowColumns {
    array: StructArray,
}

#[pymethods]
impl ArrowColumns {
    /// The Arrow PyCapsule interface: the columns as a struct array (schema and array
    /// capsules). The columns keep their own types (`requested_schema` is not honoured:
    /// the interface lets a producer ignore it).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.array.to_data()).map_err(|e| super::NandlabError::new_err(e.to_string()))?;
        let name = |s: &str| CString::new(s).expect("no NUL in a capsule name");
        // The consumer moves the structs out (leaving them released); a capsule dropped
        // unconsumed releases them itself (their `Drop`).
        Ok((
            PyCapsule::new(py, schema, Some(name("arrow_schema")))?,
            PyCapsule::new(py, array, Some(name("arrow_array")))?,
        ))
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }
}

/// The Arrow field of a timeline column: counts UInt64, values Float64 (null where the core
/// has NaN, nothing to average).
pub fn column_field(name: impl Into<String>, float: bool) -> Field {
    match float {
        true => Field::new(name, DataType::Float64, true),
        false => Field::new(name, DataType::UInt64, false),
    }
}

/// Timeline rows as one struct array, a field per column. The vectors move, no copy.
pub fn timeline_array(t: TimelineColumns) -> StructArray {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = t
        .columns
        .into_iter()
        .map(|(name, col)| match col {
            Column::U64(v) => (
                column_field(name, false),
                Arc::new(UInt64Array::new(ScalarBuffer::from(v), None)) as ArrayRef,
            ),
            Column::F64(v) => {
                let nulls = v
                    .iter()
                    .any(|x| x.is_nan())
                    .then(|| NullBuffer::new(BooleanBuffer::collect_bool(v.len(), |i| !v[i].is_nan())));
                (
                    column_field(name, true),
                    Arc::new(Float64Array::new(ScalarBuffer::from(v), nulls)) as ArrayRef,
                )
            }
        })
        .unzip();
    StructArray::new(fields.into(), arrays, None)
}

impl ArrowColumns {
    /// Timeline rows ([`timeline_array`]).
    pub fn timeline(t: TimelineColumns) -> Self {
        ArrowColumns {
            array: timeline_array(t),
        }
    }

    /// One UInt32 column `name` (the vector moves, no copy).
    pub fn u32s(name: &str, v: Vec<u32>) -> Self {
        let field = Field::new(name, DataType::UInt32, false);
        let column = Arc::new(UInt32Array::new(ScalarBuffer::from(v), None)) as ArrayRef;
        ArrowColumns {
            array: StructArray::new(vec![field].into(), vec![column], None),
        }
    }
}
