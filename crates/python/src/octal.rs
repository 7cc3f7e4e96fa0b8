//! Grundy sequences of octal and subtraction games, with proven periods.

use gamegraph_grundy::octal::{
    Algorithm, Analysis, Config, OctalCode, Play, SequenceError, SubtractionSet,
    analyse_octal_until, analyse_subtraction_until,
};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrays::{ranged, u64_items};
use crate::error::{limit_error, value_error};
use crate::interrupt;

/// The Grundy sequence of a heap game, from octal() or subtraction().
///
/// - values: int64 array g(0) ... g(upto) (without upto: every value computed);
/// - preperiod, period: the proven pre-period P and smallest period Q (g(n + Q) = g(n) for
///   every n >= P), or None when no period was proven within the values computed;
/// - computed: how many values were computed;
/// - game: the game in normal form ('0.77', '1,3,4', '1,3,4 misere');
/// - value(n): g(n) for any n below 2^64 once a period is proven.
#[pyclass(frozen, name = "Sequence", module = "gamegraph")]
pub(crate) struct Sequence {
    analysis: Analysis,
    /// The values asked for.
    #[pyo3(get)]
    values: Py<PyArray1<i64>>,
}

fn sequence_error(e: SequenceError) -> PyErr {
    match e {
        SequenceError::Limit { limit, .. } => limit_error(limit, e),
        other => value_error(other),
    }
}

#[pymethods]
impl Sequence {
    /// The game in normal form.
    #[getter]
    fn game(&self) -> &str {
        self.analysis.game()
    }

    /// The proven pre-period P, or None.
    #[getter]
    fn preperiod(&self) -> Option<usize> {
        self.analysis.period().map(|p| p.preperiod)
    }

    /// The proven smallest period Q, or None.
    #[getter]
    fn period(&self) -> Option<usize> {
        self.analysis.period().map(|p| p.period)
    }

    /// How many values were computed.
    #[getter]
    fn computed(&self) -> usize {
        self.analysis.computed()
    }

    /// g(n): from the values computed, or from the proven period for larger n.
    ///
    /// Raises ValueError when n is past the values computed and no period is proven.
    fn value(&self, n: i128) -> PyResult<u64> {
        let n: u64 = ranged(n, "n", 0, i128::from(u64::MAX))?;
        Ok(self.analysis.value(n).map_err(sequence_error)?.0)
    }

    /// A plot of the values with the pre-period and period marked (Jupyter).
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("gamegraph._display")?.call_method1("sequence_svg", (slf,))?.extract()
    }

    fn __repr__(&self) -> String {
        let opt = |x: Option<usize>| x.map_or_else(|| "None".to_owned(), |x| x.to_string());
        format!(
            "Sequence(game='{}', computed={}, preperiod={}, period={})",
            self.analysis.game(),
            self.analysis.computed(),
            opt(self.preperiod()),
            opt(self.period())
        )
    }
}

/// The configuration of a call: at least `upto + 1` values, at most `limit` more while
/// looking for a period (the CLI's `--upto N --period --limit L`).
fn config(
    upto: Option<i128>,
    limit: i128,
    full: bool,
    method: Algorithm,
    time_limit: Option<f64>,
) -> PyResult<Config> {
    let deadline = interrupt::deadline(time_limit)?;
    let upto: Option<u64> = upto.map(|u| ranged(u, "upto", 0, i128::from(u64::MAX))).transpose()?;
    let limit: u64 = ranged(limit, "limit", 0, i128::from(u64::MAX))?;
    let wanted = upto.map_or(0, |u| u.saturating_add(1)).max(limit);
    let limit =
        usize::try_from(wanted).ok().filter(|&l| u32::try_from(l).is_ok()).ok_or_else(|| {
            value_error(format!(
                "cannot compute {wanted} values (at most {}); a proven period gives larger \
                 heaps with value(n)",
                u32::MAX
            ))
        })?;
    Ok(Config { limit, stop_at_period: !full, algorithm: method, deadline, ..Config::default() })
}

/// The sequence object of an analysis: `g(0) … g(upto)`, or every value computed.
fn sequence(py: Python<'_>, analysis: Analysis, upto: Option<i128>) -> PyResult<Sequence> {
    let values: Vec<i64> = match upto {
        None => analysis.prefix().iter().map(|&v| i64::from(v)).collect(),
        Some(u) => {
            let u = u as u64; // checked by `config`
            (0..=u)
                .map(|n| analysis.value(n).map(|v| v.0 as i64))
                .collect::<Result<_, _>>()
                .map_err(sequence_error)?
        }
    };
    let array = PyArray1::from_vec(py, values);
    array.as_any().call_method1("setflags", (false,))?;
    Ok(Sequence { analysis, values: array.unbind() })
}

/// The Grundy sequence of an octal game d0.d1d2... (Kayles '0.77', Dawson's Kayles
/// '0.07', '4.07'), with its period when Guy and Smith's theorem proves one.
///
/// Digit d_j (j >= 1) says what may remain after taking j objects from a heap: 1 nothing,
/// 2 one heap, 4 two heaps (added up); d0 is 0 or 4 (4: a heap may be split in two
/// without taking anything). Values g(0) ... g(upto) come back in seq.values; the search
/// for a period computes at most max(upto + 1, limit) values and stops as soon as one is
/// proven (full=True computes them all). method='plain' uses the quadratic definition
/// instead of the rare/common method; the values are the same. time_limit (seconds,
/// default none) bounds the computation, which then raises TimeoutError; Ctrl-C stops it
/// (KeyboardInterrupt).
///
/// Raises ValueError for a bad code (the CLI's message) or a value that is unknown.
///
/// >>> import gamegraph as gg
/// >>> kayles = gg.octal("0.77", upto=12)
/// >>> kayles.values.tolist()
/// [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
/// >>> kayles.preperiod, kayles.period, kayles.value(10**18)
/// (71, 12, 1)
/// >>> gg.octal("0.8")
/// Traceback (most recent call last):
///     ...
/// ValueError: invalid octal code "0.8": column 3: '8' is not an octal digit (0 to 7)
#[pyfunction]
#[pyo3(signature = (
    code, *, upto = None, limit = 1_000_000, full = false, method = "sparse", time_limit = None
))]
pub(crate) fn octal(
    py: Python<'_>,
    code: &str,
    upto: Option<i128>,
    limit: i128,
    full: bool,
    method: &str,
    time_limit: Option<f64>,
) -> PyResult<Sequence> {
    let parsed: OctalCode =
        code.parse().map_err(|e| value_error(format!("invalid octal code {code:?}: {e}")))?;
    let method = match method {
        "sparse" => Algorithm::Sparse,
        "plain" => Algorithm::Plain,
        _ => {
            return Err(value_error(format!(
                "method must be 'sparse' or 'plain', found {method:?}"
            )));
        }
    };
    let config = config(upto, limit, full, method, time_limit)?;
    let analysis =
        interrupt::run(py, None, |stop| analyse_octal_until(&parsed, &config, &mut |_| {}, stop))?
            .value
            .map_err(sequence_error)?;
    sequence(py, analysis, upto)
}

/// The Grundy sequence of a subtraction game (a move takes s objects, s in the set),
/// with its proven period (every subtraction game has one).
///
/// set is a list of distinct positive integers or a string '1,3,4'. misere=True gives
/// the misère Grundy values of a single heap: 1 for a heap without a move, else the mex
/// of the values after one move; a heap is lost for the player to move exactly when its
/// value is 0. upto, limit, full and time_limit as for octal().
///
/// >>> import gamegraph as gg
/// >>> s = gg.subtraction([1, 3, 4], upto=13)
/// >>> s.values.tolist(), s.preperiod, s.period
/// ([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2], 0, 7)
#[pyfunction]
#[pyo3(signature = (
    set, *, upto = None, misere = false, limit = 1_000_000, full = false, time_limit = None
))]
pub(crate) fn subtraction(
    py: Python<'_>,
    set: &Bound<'_, PyAny>,
    upto: Option<i128>,
    misere: bool,
    limit: i128,
    full: bool,
    time_limit: Option<f64>,
) -> PyResult<Sequence> {
    let (text, parsed) = if set.is_instance_of::<PyString>() {
        let text: String = set.extract()?;
        let parsed = text.parse::<SubtractionSet>();
        (text, parsed)
    } else {
        let items = u64_items(set, "set", "a positive integer")?;
        let text: Vec<String> = items.iter().map(u64::to_string).collect();
        (text.join(","), SubtractionSet::new(items))
    };
    let parsed =
        parsed.map_err(|e| value_error(format!("invalid subtraction set {text:?}: {e}")))?;
    let play = if misere { Play::Misere } else { Play::Normal };
    let config = config(upto, limit, full, Algorithm::Sparse, time_limit)?;
    let analysis = interrupt::run(py, None, |stop| {
        analyse_subtraction_until(&parsed, play, &config, &mut |_| {}, stop)
    })?
    .value
    .map_err(sequence_error)?;
    sequence(py, analysis, upto)
}
