//! Independent checks of answers (`gamegraph verify`): retro tables, Grundy values,
//! kernels and stable sets, and claimed periods of octal and subtraction games.

use gamegraph_game::{Outcome as GameOutcome, Table};
use gamegraph_graph::{Limit, Outcome, Vertex};
use gamegraph_grundy::octal::{
    ClaimError, OctalCode, PeriodClaim, Play, Rules, SubtractionSet, verify_period_until,
};
use gamegraph_grundy::{Nimber, Value, ValueTable, verify_values};
use gamegraph_kernel::{DratProof, SetClaim, VertexSet, check_no_kernel, judge_set};
use gamegraph_retro::Solution;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::arrays::{int64_array, u64_items};
use crate::error::{limit_error, type_error, value_error};
use crate::graph::PyGraph;
use crate::grundy::{GrundyValues, Infinite};

/// The verdict of a check: true when the answer holds.
///
/// - ok: whether the answer holds (bool(verdict) is the same);
/// - message: the command's line after "ok: " or "wrong: ";
/// - rule: the rule the answer breaks (as `gamegraph verify --json` names it), None when
///   it holds;
/// - vertex: the first wrong vertex (1-based), or n for a period, when there is one.
#[pyclass(frozen, get_all, name = "Verdict", module = "gamegraph")]
#[derive(Debug, Clone)]
pub(crate) struct Verdict {
    /// Whether the answer holds.
    ok: bool,
    /// What was checked, or what is wrong.
    message: String,
    /// The violated rule.
    rule: Option<String>,
    /// The first wrong vertex (1-based) or heap size n.
    at: Option<u64>,
}

#[pymethods]
impl Verdict {
    fn __bool__(&self) -> bool {
        self.ok
    }

    fn __repr__(&self) -> String {
        let rule = self.rule.as_ref().map_or_else(|| "None".to_owned(), |r| format!("'{r}'"));
        let at = self.at.map_or_else(|| "None".to_owned(), |v| v.to_string());
        let ok = if self.ok { "True" } else { "False" };
        format!("Verdict(ok={ok}, rule={rule}, at={at}, message={:?})", self.message)
    }

    fn __str__(&self) -> String {
        format!("{}: {}", if self.ok { "ok" } else { "wrong" }, self.message)
    }
}

fn holds(message: String) -> Verdict {
    Verdict { ok: true, message, rule: None, at: None }
}

fn fails(message: String, rule: &'static str, at: Option<u64>) -> Verdict {
    Verdict {
        ok: false,
        message: format!("{message} (rule {rule})"),
        rule: Some(rule.to_owned()),
        at,
    }
}

/// The table held by the arrays `outcome`, `depth` and `move` of `s`: outcome codes 1
/// win, 2 loss, 0 draw, and 3 tie when `ties` (a graph with terminal values).
fn retro_table(s: &Bound<'_, PyAny>, n: usize, ties: bool) -> PyResult<Table> {
    let outcome = int64_array(&s.getattr("outcome")?, "outcome")?;
    let depth = int64_array(&s.getattr("depth")?, "depth")?;
    let best = int64_array(&s.getattr("move")?, "move")?;
    let (outcome, depth, best) = (outcome.as_slice()?, depth.as_slice()?, best.as_slice()?);
    for (name, len) in [("outcome", outcome.len()), ("depth", depth.len()), ("move", best.len())] {
        if len != n {
            return Err(value_error(format!("{name} has {len} entries, the graph {n} vertices")));
        }
    }
    let mut t = Table {
        outcomes: Vec::with_capacity(n),
        remoteness: Vec::with_capacity(n),
        moves: Vec::with_capacity(n),
    };
    let codes = if ties { "0, 1, 2 or 3" } else { "0, 1 or 2" };
    for i in 0..n {
        let at = |what: &str, x: i64| value_error(format!("vertex {}: {what} {x}", i + 1));
        t.outcomes.push(
            u8::try_from(outcome[i])
                .ok()
                .and_then(GameOutcome::from_code)
                .filter(|&o| ties || o != GameOutcome::Tie)
                .ok_or_else(|| at(&format!("outcome must be {codes}, found"), outcome[i]))?,
        );
        t.remoteness.push(match depth[i] {
            -1 => None,
            d if (0..i64::from(u32::MAX)).contains(&d) => Some(d as u32),
            d => return Err(at("depth must be -1 or from 0 to 2^32 - 2, found", d)),
        });
        t.moves.push(match best[i] {
            0 => None,
            m if m >= 1 && m <= n as i64 => Some(Vertex((m - 1) as u32)),
            m => return Err(at(&format!("move must be 0 or in 1..={n}, found"), m)),
        });
    }
    Ok(t)
}

/// The three-outcome solution a table of a graph without terminal values must be.
fn retro_solution(t: Table) -> PyResult<Solution> {
    let outcomes = t
        .outcomes
        .iter()
        .map(|o| match o {
            GameOutcome::Win => Outcome::Win,
            GameOutcome::Loss => Outcome::Loss,
            _ => Outcome::Draw,
        })
        .collect();
    Solution::from_parts(outcomes, t.remoteness, t.moves).map_err(value_error)
}

/// Checks a retro() answer against the game graph, with code apart from the solver (the
/// check of `gamegraph verify retro`): every outcome, depth and move must follow from the
/// successors' (and from the terminal values, for a graph that has them: four outcomes,
/// 3 a tie, depth the remoteness). s is a Retro, or any object with the arrays outcome,
/// depth and move (-1 and 0 for a draw's depth and a missing move). Returns a Verdict
/// (true when it holds).
///
/// Raises ValueError when the arrays do not describe a table of the graph's size.
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(3, [1, 2], [2, 3])
/// >>> gg.verify_retro(g, gg.retro(g))
/// Verdict(ok=True, rule=None, at=None, message="3 vertices, 2 arcs: 1 W, 2 L, 0 D; every outcome, depth and move follows from the successors'")
/// >>> from types import SimpleNamespace
/// >>> wrong = SimpleNamespace(outcome=[2, 1, 2], depth=[4, 1, 0], move=[2, 3, 0])
/// >>> v = gg.verify_retro(g, wrong)
/// >>> bool(v), v.rule, v.at
/// (False, 'depth', 1)
/// >>> v.message
/// 'vertex 1 has depth 4 but its successors give 2 (rule depth)'
/// >>> t = gg.Graph(3, [1, 2], [2, 3], terminal={3: "T"})
/// >>> str(gg.verify_retro(t, gg.retro(t)))
/// "ok: 3 vertices, 2 arcs: 0 W, 0 L, 3 T, 0 D; every outcome, remoteness and move follows from the successors' and the terminal values"
#[pyfunction]
pub(crate) fn verify_retro(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    s: &Bound<'_, PyAny>,
) -> PyResult<Verdict> {
    let g = g.get();
    let graph = &g.graph;
    let n = graph.num_vertices();
    let table = retro_table(s, n, g.terminal.is_some())?;
    let c = table.counts();
    let result = match &g.terminal {
        Some(values) => {
            let terminal = |v| values.value_or_loss(v);
            let result = py.detach(|| gamegraph_game::verify(graph, terminal, &table));
            result.map_err(|e| (e.to_string(), e.rule()))
        }
        None => {
            let solution = retro_solution(table)?;
            let result = py.detach(|| gamegraph_retro::verify(graph, &solution));
            result.map_err(|e| (e.to_string(), e.rule()))
        }
    };
    Ok(match result {
        Ok(()) => {
            let line = gamegraph_game::verified_retro(c, g.terminal.is_some());
            holds(format!("{n} vertices, {} arcs: {line}", graph.num_arcs()))
        }
        Err((message, (vertex, rule))) => fails(message, rule, vertex.map(Vertex::one_based)),
    })
}

/// The table of a grundy() answer, or of a list of ints and Infinite(K).
fn value_table(values: &Bound<'_, PyAny>) -> PyResult<ValueTable> {
    if let Ok(v) = values.cast::<GrundyValues>() {
        return Ok(ValueTable::from_loopy(&v.get().loopy));
    }
    let mut table = ValueTable::new();
    for (i, item) in values.try_iter()?.enumerate() {
        let item = item?;
        let value = if let Ok(inf) = item.cast::<Infinite>() {
            Value::Infinite(inf.get().k.iter().map(|&x| Nimber(x)).collect())
        } else {
            match item.extract::<u64>() {
                Ok(x) => Value::Finite(Nimber(x)),
                Err(_) => {
                    return Err(type_error(format!(
                        "values: item {} is {}, not a Grundy value (an int from 0 or an \
                         Infinite)",
                        i + 1,
                        item.repr()?
                    )));
                }
            }
        };
        table.push(&value).map_err(|e| value_error(format!("values: item {}: {e}", i + 1)))?;
    }
    Ok(table)
}

/// Checks Grundy values against the game graph (the check of `gamegraph verify grundy`):
/// a finite value is the mex of its followers' finite values and every follower of larger
/// value can reply to it (with a counter function round cycles); an infinite value ∞(K)
/// has K the finite values of its followers and an infinite follower without mex K in its
/// set. values is a grundy() answer or a list of ints and Infinite(K) indexed by id - 1.
///
/// >>> import gamegraph as gg
/// >>> g = gg.Graph(2, [1, 1], [1, 2])
/// >>> bool(gg.verify_grundy(g, gg.grundy(g)))
/// True
/// >>> gg.verify_grundy(g, [1, 0]).rule
/// 'mex'
#[pyfunction]
pub(crate) fn verify_grundy(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    values: &Bound<'_, PyAny>,
) -> PyResult<Verdict> {
    let graph = g.get().plain("verify_grundy()")?;
    let table = value_table(values)?;
    let result = py.detach(|| verify_values(graph, &table));
    Ok(match result {
        Ok(()) => holds(table.describe(graph)),
        Err(e) => fails(e.to_string(), e.rule(), e.vertex().map(Vertex::one_based)),
    })
}

/// Checks a vertex set (1-based ids) against the graph (the check of `gamegraph verify
/// kernel`): property 'kernel' (internally and externally stable, the default),
/// 'independent' (no arc joins two of its vertices) or 'absorbing' (every other vertex
/// has an arc into it). alpha=K also checks an independent set of K vertices (a witness
/// that alpha >= K), beta=K an absorbing set of K vertices (beta <= K).
///
/// >>> import gamegraph as gg
/// >>> six = gg.Graph(6, [1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 1])
/// >>> bool(gg.verify_kernel(six, [1, 3, 5])), gg.verify_kernel(six, [1, 2]).rule
/// (True, 'internal-stability')
/// >>> bool(gg.verify_kernel(six, [2, 4, 6], alpha=3))
/// True
#[pyfunction]
#[pyo3(signature = (g, set, property = None, *, alpha = None, beta = None))]
pub(crate) fn verify_kernel(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    set: &Bound<'_, PyAny>,
    property: Option<&str>,
    alpha: Option<usize>,
    beta: Option<usize>,
) -> PyResult<Verdict> {
    let graph = g.get().plain("verify_kernel()")?;
    let n = graph.num_vertices();
    if alpha.is_some() && beta.is_some() {
        return Err(value_error("give alpha or beta, not both"));
    }
    let property = match property {
        Some(p) => p,
        None if alpha.is_some() => "independent",
        None if beta.is_some() => "absorbing",
        None => "kernel",
    };
    let claim = match property {
        "kernel" => SetClaim::Kernel,
        "independent" if beta.is_none() => SetClaim::Independent(alpha),
        "absorbing" if alpha.is_none() => SetClaim::Absorbing(beta),
        "independent" | "absorbing" => {
            return Err(value_error(format!("{property} does not go with that bound")));
        }
        other => {
            return Err(value_error(format!(
                "property must be 'kernel', 'independent' or 'absorbing', found {other:?}"
            )));
        }
    };
    let mut bits = VertexSet::repeat(false, n);
    for id in u64_items(set, "set", "a vertex id (a positive integer)")? {
        let v = crate::graph::vertex(i128::from(id), n, "set: vertex")?;
        bits.set(v.index(), true);
    }
    let v = py.detach(|| judge_set(graph, &bits, claim)).map_err(value_error)?;
    Ok(match v.rule {
        None => holds(v.message),
        Some(rule) => fails(v.message, rule, v.vertex.map(Vertex::one_based)),
    })
}

/// Checks a DRAT proof (str or bytes, as kernel(g, proof=True) gives it) that the graph
/// has no kernel (the check of `gamegraph verify kernel --none`): each lemma must be RUP,
/// or RAT on its first literal, against the kernel conditions written from the graph
/// (kernel_cnf) and the lemmas before it, and the empty clause must be derived. A
/// malformed proof raises ValueError with its line and column.
///
/// >>> import gamegraph as gg
/// >>> c5 = gg.Graph(5, [1, 2, 3, 4, 5], [2, 3, 4, 5, 1])
/// >>> kernel, proof = gg.kernel(c5, proof=True)
/// >>> bool(gg.verify_kernel_none(c5, proof)), gg.verify_kernel_none(c5, "1 0").rule
/// (True, 'empty-clause')
#[pyfunction]
pub(crate) fn verify_kernel_none(
    py: Python<'_>,
    g: &Bound<'_, PyGraph>,
    proof: &Bound<'_, PyAny>,
) -> PyResult<Verdict> {
    let graph = g.get().plain("verify_kernel_none()")?;
    let text: Vec<u8> = if proof.is_instance_of::<PyString>() {
        proof.extract::<String>()?.into_bytes()
    } else if let Ok(b) = proof.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(type_error("proof: expected the DRAT text as str or bytes"));
    };
    let proof = DratProof::parse(&text).map_err(|e| value_error(format!("proof: {e}")))?;
    let result = py.detach(|| check_no_kernel(graph, &proof));
    Ok(match result {
        Ok(c) => holds(c.describe(graph)),
        Err(e) => fails(e.to_string(), e.rule(), e.line()),
    })
}

/// The verdict of a claimed period.
fn claim_verdict(
    py: Python<'_>,
    rules: Rules<'_>,
    claim: PeriodClaim,
    time_limit: Option<f64>,
) -> PyResult<Verdict> {
    let deadline = crate::interrupt::deadline(time_limit)?;
    // The check reads its deadline itself; the stop flag is Ctrl-C's.
    let result = crate::interrupt::run(py, None, |stop| {
        verify_period_until(rules, claim, deadline, Some(stop))
    })?
    .value;
    Ok(match result {
        Ok(check) => holds(check.describe(rules, claim)),
        Err(e @ (ClaimError::ZeroPeriod | ClaimError::TooManyValues { .. })) => {
            return Err(value_error(e));
        }
        Err(ClaimError::Limit { limit: Limit::Time, computed }) => {
            let seconds = time_limit.unwrap_or(0.0);
            return Err(limit_error(
                Limit::Time,
                format_args!("time limit of {seconds} s reached after computing {computed} values"),
            ));
        }
        Err(e @ ClaimError::Limit { limit, .. }) => return Err(limit_error(limit, e)),
        Err(e) => {
            let n = match e {
                ClaimError::NotPeriodic { n, .. } => Some(n as u64),
                _ => None,
            };
            fails(e.to_string(), e.rule(), n)
        }
    })
}

/// Checks a claimed pre-period P and period Q of an octal game (the check of `gamegraph
/// verify octal`): the values are computed here by the plain definition and compared for
/// P <= n < 2·max(P, 1) + Q + t (t the largest take), which by Guy and Smith's theorem
/// proves g(n + Q) = g(n) for every n >= P. least=True (the default) also checks that P
/// is the least pre-period and Q the smallest period, as octal() reports them.
///
/// Raises ValueError for a bad code, a period of 0, or a check of more than 2^24 values;
/// TimeoutError after time_limit seconds (default none); Ctrl-C stops the check
/// (KeyboardInterrupt). Misère play is not covered: the misère values of one heap do not
/// give those of sums.
///
/// >>> import gamegraph as gg
/// >>> bool(gg.verify_octal("0.77", 71, 12)), gg.verify_octal("0.77", 70, 12).at
/// (True, 70)
#[pyfunction]
#[pyo3(signature = (code, preperiod, period, *, least = true, time_limit = None))]
pub(crate) fn verify_octal(
    py: Python<'_>,
    code: &str,
    preperiod: usize,
    period: usize,
    least: bool,
    time_limit: Option<f64>,
) -> PyResult<Verdict> {
    let parsed: OctalCode =
        code.parse().map_err(|e| value_error(format!("invalid octal code {code:?}: {e}")))?;
    let claim = PeriodClaim { preperiod, period, least };
    claim_verdict(py, Rules::Octal(&parsed), claim, time_limit)
}

/// Checks a claimed pre-period P and period Q of a subtraction game (misere=True: of its
/// misère values, as subtraction(..., misere=True) gives them): the values are compared
/// for the max S heaps P <= n < P + max S, which proves the period for every n >= P.
/// least and time_limit as for verify_octal().
///
/// >>> import gamegraph as gg
/// >>> bool(gg.verify_subtraction([1, 3, 4], 0, 7)), gg.verify_subtraction("1,3,4", 0, 14).rule
/// (True, 'smallest-period')
#[pyfunction]
#[pyo3(signature = (set, preperiod, period, *, misere = false, least = true, time_limit = None))]
pub(crate) fn verify_subtraction(
    py: Python<'_>,
    set: &Bound<'_, PyAny>,
    preperiod: usize,
    period: usize,
    misere: bool,
    least: bool,
    time_limit: Option<f64>,
) -> PyResult<Verdict> {
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
    let claim = PeriodClaim { preperiod, period, least };
    claim_verdict(py, Rules::Subtraction(&parsed, play), claim, time_limit)
}
