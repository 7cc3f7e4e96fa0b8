//! Certificates: is a vertex set internally stable, externally stable, a kernel?

use std::fmt;

use bitvec::vec::BitVec;
use gamegraph_graph::{Graph, Vertex};

use crate::KernelError;

/// A set of vertices: bit `v` is set when vertex `v` (0-based) belongs to it.
pub type VertexSet = BitVec<u64>;

/// Why a vertex set fails a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Violation {
    /// Both ends of this arc are in the set (`from == to` for a self-loop).
    Arc {
        /// The tail of the arc.
        from: Vertex,
        /// The head of the arc.
        to: Vertex,
    },
    /// This vertex is outside the set and has no arc into it.
    NotAbsorbed(Vertex),
    /// This vertex is outside the set and could be added without breaking internal stability.
    CanAdd(Vertex),
}

impl fmt::Display for Violation {
    /// Renders the violation with 1-based vertex ids, as the CLI prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Arc { from, to } => {
                write!(f, "not internally stable: arc {} -> {}", from.one_based(), to.one_based())
            }
            Violation::NotAbsorbed(v) => {
                write!(f, "not externally stable: vertex {} has no arc into the set", v.one_based())
            }
            Violation::CanAdd(v) => {
                write!(f, "not maximal: vertex {} can be added", v.one_based())
            }
        }
    }
}

fn check_len(g: &Graph, set: &VertexSet) -> Result<(), KernelError> {
    if set.len() == g.num_vertices() {
        Ok(())
    } else {
        Err(KernelError::SetLength { expected: g.num_vertices(), found: set.len() })
    }
}

/// Checks that no arc of `g` joins two vertices of `set` (a self-loop counts).
///
/// # Returns
/// `Ok(Ok(()))` when the set is internally stable, `Ok(Err(Violation::Arc { .. }))` with the
/// first offending arc (in [`Graph::arcs`] order) otherwise.
///
/// # Errors
/// [`KernelError::SetLength`] if `set.len()` is not the number of vertices.
///
/// # Complexity
/// O(n + m) time, no extra space.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{internally_stable, vertex_set, Violation};
///
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2))]).unwrap();
/// assert_eq!(internally_stable(&g, &vertex_set(3, [0, 2])), Ok(Ok(())));
/// assert_eq!(
///     internally_stable(&g, &vertex_set(3, [0, 1])),
///     Ok(Err(Violation::Arc { from: Vertex(0), to: Vertex(1) }))
/// );
/// ```
pub fn internally_stable(g: &Graph, set: &VertexSet) -> Result<Result<(), Violation>, KernelError> {
    check_len(g, set)?;
    for u in set.iter_ones() {
        let u = Vertex::from_index(u);
        if let Some(&v) = g.successors(u).iter().find(|v| set[v.index()]) {
            return Ok(Err(Violation::Arc { from: u, to: v }));
        }
    }
    Ok(Ok(()))
}

/// Checks that every vertex outside `set` has an arc into `set`.
///
/// # Returns
/// `Ok(Err(Violation::NotAbsorbed(v)))` with the smallest offending vertex, `Ok(Ok(()))` if
/// there is none.
///
/// # Errors
/// [`KernelError::SetLength`] if `set.len()` is not the number of vertices.
///
/// # Complexity
/// O(n + m) time, no extra space.
pub fn externally_stable(g: &Graph, set: &VertexSet) -> Result<Result<(), Violation>, KernelError> {
    check_len(g, set)?;
    for x in set.iter_zeros() {
        let x = Vertex::from_index(x);
        if !g.successors(x).iter().any(|y| set[y.index()]) {
            return Ok(Err(Violation::NotAbsorbed(x)));
        }
    }
    Ok(Ok(()))
}

/// Checks that `set` is a kernel: internally stable (checked first) and externally stable.
///
/// # Errors
/// [`KernelError::SetLength`] if `set.len()` is not the number of vertices.
///
/// # Complexity
/// O(n + m) time, no extra space.
pub fn is_kernel(g: &Graph, set: &VertexSet) -> Result<Result<(), Violation>, KernelError> {
    match internally_stable(g, set)? {
        Ok(()) => externally_stable(g, set),
        e => Ok(e),
    }
}

/// Checks that `set` is a maximal internally stable set: internally stable (checked first),
/// and every vertex outside it has a self-loop or an arc to or from the set.
///
/// # Returns
/// `Ok(Err(Violation::CanAdd(v)))` with the smallest vertex that could be added.
///
/// # Errors
/// [`KernelError::SetLength`] if `set.len()` is not the number of vertices.
///
/// # Complexity
/// O(n + m) time, O(n) extra space.
pub fn maximal_internally_stable(
    g: &Graph,
    set: &VertexSet,
) -> Result<Result<(), Violation>, KernelError> {
    if let Err(v) = internally_stable(g, set)? {
        return Ok(Err(v));
    }
    let mut blocked: VertexSet = set.clone();
    for u in g.vertices() {
        for &v in g.successors(u) {
            if v == u || set[v.index()] {
                blocked.set(u.index(), true);
            }
            if set[u.index()] {
                blocked.set(v.index(), true);
            }
        }
    }
    match blocked.first_zero() {
        Some(v) => Ok(Err(Violation::CanAdd(Vertex::from_index(v)))),
        None => Ok(Ok(())),
    }
}

/// The set of `n` vertices holding the given 0-based indices.
///
/// # Panics
/// If an index is `>= n`.
pub fn vertex_set(n: usize, members: impl IntoIterator<Item = usize>) -> VertexSet {
    let mut s = VertexSet::repeat(false, n);
    for i in members {
        s.set(i, true);
    }
    s
}

/// The members of `set` as vertices, in increasing order.
pub fn members(set: &VertexSet) -> Vec<Vertex> {
    set.iter_ones().map(Vertex::from_index).collect()
}

impl Violation {
    /// The name of the rule the set breaks, as `verify kernel` reports it:
    /// `internal-stability`, `external-stability` or `maximality`.
    pub fn rule(&self) -> &'static str {
        match self {
            Violation::Arc { .. } => "internal-stability",
            Violation::NotAbsorbed(_) => "external-stability",
            Violation::CanAdd(_) => "maximality",
        }
    }

    /// The vertex the violation is at (the tail of an arc).
    pub fn vertex(&self) -> Vertex {
        match *self {
            Violation::Arc { from, .. } => from,
            Violation::NotAbsorbed(v) | Violation::CanAdd(v) => v,
        }
    }
}

/// What a set is claimed to be, for [`judge_set`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetClaim {
    /// A kernel: internally and externally stable.
    Kernel,
    /// Internally stable, and with `Some(k)` a witness that α ≥ k (k vertices).
    Independent(Option<usize>),
    /// Externally stable, and with `Some(k)` a witness that β ≤ k (k vertices).
    Absorbing(Option<usize>),
}

impl SetClaim {
    /// The property in words: `a kernel`, `internally stable`, `externally stable`.
    pub fn property(self) -> &'static str {
        match self {
            SetClaim::Kernel => "a kernel",
            SetClaim::Independent(_) => "internally stable",
            SetClaim::Absorbing(_) => "externally stable",
        }
    }
}

/// The verdict of [`judge_set`], worded once for every front end: `message` follows
/// "ok: " or "wrong: ", and a failure names its `rule` (a [`Violation::rule`], or `size`
/// for a set of another size than claimed) and, when there is one, its vertex and arc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetVerdict {
    /// Whether the set is what it is claimed to be.
    pub ok: bool,
    /// The sentence, without the rule.
    pub message: String,
    /// The rule a wrong set breaks.
    pub rule: Option<&'static str>,
    /// The vertex a wrong set fails at.
    pub vertex: Option<Vertex>,
    /// The arc inside a set that is not internally stable.
    pub arc: Option<(Vertex, Vertex)>,
    /// The number of vertices of the set.
    pub size: usize,
}

/// Checks that `set` is what `claim` says, as `verify kernel` does: the property first,
/// then the size a bound claims.
///
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_kernel::{SetClaim, judge_set, vertex_set};
///
/// let g = Graph::from_arcs(4, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2)), (Vertex(2), Vertex(3)), (Vertex(3), Vertex(0))]).unwrap();
/// let v = judge_set(&g, &vertex_set(4, [0, 2]), SetClaim::Independent(Some(2))).unwrap();
/// assert_eq!((v.ok, v.message.as_str()), (true, "the set of 2 vertices is internally stable: a witness that alpha >= 2"));
/// let v = judge_set(&g, &vertex_set(4, [0, 1]), SetClaim::Kernel).unwrap();
/// assert_eq!((v.ok, v.rule, v.arc), (false, Some("internal-stability"), Some((Vertex(0), Vertex(1)))));
/// ```
///
/// # Errors
/// [`KernelError`] when the set's length is not the graph's number of vertices.
pub fn judge_set(g: &Graph, set: &VertexSet, claim: SetClaim) -> Result<SetVerdict, KernelError> {
    let check = match claim {
        SetClaim::Kernel => is_kernel,
        SetClaim::Independent(_) => internally_stable,
        SetClaim::Absorbing(_) => externally_stable,
    };
    let size = set.count_ones();
    let verdict =
        |ok, message, rule, vertex, arc| SetVerdict { ok, message, rule, vertex, arc, size };
    Ok(match check(g, set)? {
        Err(v) => {
            let arc = match v {
                Violation::Arc { from, to } => Some((from, to)),
                _ => None,
            };
            verdict(false, v.to_string(), Some(v.rule()), Some(v.vertex()), arc)
        }
        Ok(()) => match claim {
            SetClaim::Independent(Some(k)) | SetClaim::Absorbing(Some(k)) if k != size => {
                let what = if matches!(claim, SetClaim::Independent(_)) { "alpha" } else { "beta" };
                let message =
                    format!("the set has {size} vertices, not the {k} claimed for {what}");
                verdict(false, message, Some("size"), None, None)
            }
            _ => {
                let witness = match claim {
                    SetClaim::Independent(Some(k)) => format!(": a witness that alpha >= {k}"),
                    SetClaim::Absorbing(Some(k)) => format!(": a witness that beta <= {k}"),
                    _ => String::new(),
                };
                let noun = if size == 1 { "vertex" } else { "vertices" };
                let message = format!("the set of {size} {noun} is {}{witness}", claim.property());
                verdict(true, message, None, None, None)
            }
        },
    })
}
