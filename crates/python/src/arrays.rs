//! Arguments from Python: integer arrays (lists or NumPy arrays of any integer type),
//! integer lists with the CLI's messages, and integers checked against a range.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::{type_error, value_error};

/// `obj` (a list, a tuple or a one-dimensional NumPy array of integers) as a contiguous
/// `int64` array: no copy when it already is one.
pub(crate) fn int64_array<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(type_error(format!(
            "{what} must be a one-dimensional sequence of integers, found {ndim} dimensions"
        )));
    }
    let size: usize = arr.getattr("size")?.extract()?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if size > 0 && kind != "i" && kind != "u" {
        return Err(type_error(format!("{what} must hold integers, found dtype {}", dtype.str()?)));
    }
    if size > 0 && kind == "u" {
        let max: u64 = arr.call_method0("max")?.extract()?;
        if i64::try_from(max).is_err() {
            return Err(value_error(format!("{what}: {max} is not a vertex id")));
        }
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("int64")?)?;
    let arr = np.call_method("ascontiguousarray", (arr,), Some(&kwargs))?;
    Ok(arr.cast_into::<PyArray1<i64>>()?.readonly())
}

/// The items of `obj` as `u64`, each checked: `ValueError("{what}: item I is X, not
/// {expected}")` for an integer out of range (the CLI's message, with the keyword in place
/// of the flag), `TypeError` for an item that is no integer.
pub(crate) fn u64_items(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<Vec<u64>> {
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        let item = item?;
        match item.extract::<u64>() {
            Ok(x) => out.push(x),
            Err(_) => {
                let message =
                    format!("{what}: item {} is {}, not {expected}", i + 1, short(&item.repr()?));
                return Err(if item.call_method0("__index__").is_ok() {
                    value_error(message)
                } else {
                    type_error(message)
                });
            }
        }
    }
    Ok(out)
}

/// At most a few dozen characters of a bad item's repr.
fn short(repr: &Bound<'_, pyo3::types::PyString>) -> String {
    let text = repr.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// An integer argument checked to lie in `lo..=hi`.
pub(crate) fn ranged<T: TryFrom<i128>>(value: i128, name: &str, lo: i128, hi: i128) -> PyResult<T> {
    if (lo..=hi).contains(&value)
        && let Ok(v) = T::try_from(value)
    {
        return Ok(v);
    }
    Err(value_error(format!("{name} must be an integer from {lo} to {hi}, found {value}")))
}
