//! The generalised Sprague–Grundy function of game graphs with cycles.

use std::fmt;

use gamegraph_graph::{Graph, Vertex};

use crate::Nimber;
use crate::dag::{MexScratch, grundy, par_grundy};

/// Not labelled yet.
const UNLABELLED: u64 = u64::MAX - 1;
/// Labelled ∞.
const INFINITE: u64 = u64::MAX;

/// A value of the generalised Sprague–Grundy function: a finite nimber, or ∞(K) with K
/// the set of finite values among the followers (sorted, without repeats).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// A finite value `n`: the position behaves like a Nim heap of size `n`.
    Finite(Nimber),
    /// ∞(K): the position is a draw on its own unless 0 ∈ K; K is sorted, without repeats.
    Infinite(Vec<Nimber>),
}

impl Value {
    /// The finite value, if any.
    pub fn finite(&self) -> Option<Nimber> {
        match self {
            Value::Finite(x) => Some(*x),
            Value::Infinite(_) => None,
        }
    }
}

impl fmt::Display for Value {
    /// A number, or `inf{0,2}` (the finite follower values of an infinite one).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Finite(x) => write!(f, "{x}"),
            Value::Infinite(k) => {
                f.write_str("inf{")?;
                for (i, x) in k.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// The generalised Sprague–Grundy function of every vertex of a game graph, returned by
/// [`loopy_grundy`] and [`par_loopy_grundy`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopyValues {
    /// The finite value, or [`INFINITE`].
    label: Vec<u64>,
    /// For an infinite vertex `v`, `k_values[k_offsets[v]..k_offsets[v + 1]]` is its K;
    /// both are empty when the graph is acyclic.
    k_offsets: Vec<u64>,
    k_values: Vec<u64>,
    /// The counter function of Fraenkel and Yesha (the labelling order), when the graph
    /// has a cycle; `u64::MAX` for infinite vertices.
    counter: Option<Vec<u64>>,
}

impl LoopyValues {
    fn from_finite(values: Vec<Nimber>) -> LoopyValues {
        LoopyValues {
            label: values.into_iter().map(|x| x.0).collect(),
            k_offsets: Vec::new(),
            k_values: Vec::new(),
            counter: None,
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.label.len()
    }

    /// `true` for the graph without vertices.
    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// The finite value of `v`, or `None` when it is infinite.
    #[inline]
    pub fn finite(&self, v: Vertex) -> Option<Nimber> {
        let x = self.label[v.index()];
        (x != INFINITE).then_some(Nimber(x))
    }

    /// The set K of an infinite vertex (empty for a finite one), sorted.
    pub fn infinite_set(&self, v: Vertex) -> &[u64] {
        if self.k_offsets.is_empty() {
            return &[];
        }
        &self.k_values[self.k_offsets[v.index()] as usize..self.k_offsets[v.index() + 1] as usize]
    }

    /// The value of `v`.
    pub fn value(&self, v: Vertex) -> Value {
        match self.finite(v) {
            Some(x) => Value::Finite(x),
            None => Value::Infinite(self.infinite_set(v).iter().map(|&x| Nimber(x)).collect()),
        }
    }

    /// `true` when every value is finite (always so on an acyclic graph).
    pub fn all_finite(&self) -> bool {
        self.label.iter().all(|&x| x != INFINITE)
    }

    /// The counter function c of a finite vertex on a graph with a cycle: if `v` has value
    /// `a` and a follower `u` has a finite value `b > a`, then `u` has a follower `w` of
    /// value `a` with `c(w) < c(v)` (Fraenkel–Yesha condition B). `None` for infinite
    /// vertices and for acyclic graphs (where any topological order serves).
    pub fn counter(&self, v: Vertex) -> Option<u64> {
        let c = self.counter.as_ref()?[v.index()];
        (c != u64::MAX).then_some(c)
    }
}

/// The generalised Sprague–Grundy function γ of every vertex of any game graph.
///
/// On an acyclic graph γ is the ordinary Grundy function ([`grundy`] is used). Otherwise
/// γ(v) is finite or ∞(K), the unique function with a counter function c such that
/// (A) a finite γ(u) is the mex of the finite values of its followers' values
/// (equivalently of γ(F(u))); (B) if γ(u) is finite and a follower v has γ(v) > γ(u) (∞
/// included), then v has a follower w with γ(w) = γ(u) and c(w) < c(u); (C) if γ(u) = ∞,
/// some follower v has γ(v) = ∞(L) with mex γ(F(u)) ∉ L.
///
/// It is computed by the labelling procedure of Fraenkel and Yesha: for m = 0, 1, 2, …,
/// repeatedly label m an unlabelled vertex u with no follower labelled m each of whose
/// unlabelled or ∞ followers has a follower labelled m (c(u) = the number of labels given
/// so far); then label ∞ every unlabelled vertex without a follower labelled m. Each
/// round is run as a retrograde propagation over the predecessor lists, and the vertices
/// that reach no cycle are valued first by out-degree counting.
///
/// # Complexity
/// O(V + E) on an acyclic graph; otherwise O((V + E) · (1 + r)) time where r is the largest
/// finite value among the vertices that reach a cycle, O(V + E) extra space.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{loopy_grundy, Nimber, Value};
///
/// // 0 -> 0 (a loop) and 0 -> 1 (terminal): γ(1) = 0 and γ(0) = ∞({0}).
/// let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(0)), (Vertex(0), Vertex(1))]).unwrap();
/// let values = loopy_grundy(&g);
/// assert_eq!(values.value(Vertex(1)), Value::Finite(Nimber(0)));
/// assert_eq!(values.value(Vertex(0)), Value::Infinite(vec![Nimber(0)]));
/// assert_eq!(values.value(Vertex(0)).to_string(), "inf{0}");
/// ```
///
/// # Reference
/// C. A. B. Smith, *Graphs and composite games*, J. Combin. Theory 1 (1966) 51–81;
/// A. S. Fraenkel and Y. Yesha, *The generalized Sprague–Grundy function and its
/// invariance under certain mappings*, J. Combin. Theory A 43 (1986) 165–177.
pub fn loopy_grundy(g: &Graph) -> LoopyValues {
    match grundy(g) {
        Ok(values) => LoopyValues::from_finite(values),
        Err(_) => general(g),
    }
}

/// [`loopy_grundy`] with the acyclic fast path run in parallel ([`par_grundy`]); the
/// result is identical for every thread count.
///
/// # Complexity
/// As [`loopy_grundy`].
pub fn par_loopy_grundy(g: &Graph) -> LoopyValues {
    match par_grundy(g) {
        Ok(values) => LoopyValues::from_finite(values),
        Err(_) => general(g),
    }
}

/// [`loopy_grundy`] or [`par_loopy_grundy`], whichever suits the current rayon pool: on a
/// pool of one thread the sequential depth-first search, which needs no predecessor
/// arrays (less memory, no synchronisation); on more threads the parallel algorithm.
/// Call it inside `ThreadPool::install` to choose by that pool. The values are the same
/// either way.
///
/// # Complexity
/// As [`loopy_grundy`].
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{loopy_grundy, loopy_grundy_in_pool};
///
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(0))]).unwrap();
/// let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// assert_eq!(one.install(|| loopy_grundy_in_pool(&g)), loopy_grundy(&g));
/// ```
pub fn loopy_grundy_in_pool(g: &Graph) -> LoopyValues {
    if rayon::current_num_threads() == 1 { loopy_grundy(g) } else { par_loopy_grundy(g) }
}

/// The labelling procedure on a graph with a cycle.
fn general(g: &Graph) -> LoopyValues {
    let n = g.num_vertices();
    let mut label = vec![UNLABELLED; n];
    let mut counter = vec![u64::MAX; n];
    let mut next_counter = 0u64;

    // Vertices that reach no cycle: ordinary Grundy values, by out-degree counting.
    let mut count: Vec<u64> = g.vertices().map(|v| g.out_degree(v) as u64).collect();
    let mut queue: Vec<Vertex> = g.vertices().filter(|&v| count[v.index()] == 0).collect();
    let mut scratch = MexScratch::default();
    while let Some(v) = queue.pop() {
        let succ = g.successors(v);
        label[v.index()] = scratch.mex(succ.len(), succ.iter().map(|w| label[w.index()]));
        counter[v.index()] = next_counter;
        next_counter += 1;
        for &p in g.predecessors(v) {
            count[p.index()] -= 1;
            if count[p.index()] == 0 {
                queue.push(p);
            }
        }
    }
    drop(count);

    // The unlabelled vertices and those labelled ∞: the only ones whose status "has a
    // follower labelled m" (`wm`) matters in round m.
    let mut unlabelled: Vec<Vertex> =
        g.vertices().filter(|v| label[v.index()] == UNLABELLED).collect();
    let mut infinite: Vec<Vertex> = Vec::new();
    let mut wm = vec![false; n];
    let mut cnt = vec![0u64; n];
    let mut ready: Vec<Vertex> = Vec::new();
    let mut m = 0u64;
    while !unlabelled.is_empty() {
        for &v in unlabelled.iter().chain(&infinite) {
            wm[v.index()] = g.successors(v).iter().any(|w| label[w.index()] == m);
        }
        // A follower counts against u while it may still need a reply: unlabelled, ∞, or
        // finite above m (those always have a follower labelled m, so never count).
        for &u in &unlabelled {
            let c = g
                .successors(u)
                .iter()
                .filter(|w| {
                    let l = label[w.index()];
                    (l == UNLABELLED || l == INFINITE) && !wm[w.index()]
                })
                .count() as u64;
            cnt[u.index()] = c;
            if c == 0 && !wm[u.index()] {
                ready.push(u);
            }
        }
        while let Some(u) = ready.pop() {
            if label[u.index()] != UNLABELLED || wm[u.index()] {
                continue;
            }
            label[u.index()] = m;
            counter[u.index()] = next_counter;
            next_counter += 1;
            for &p in g.predecessors(u) {
                let lp = label[p.index()];
                if (lp == UNLABELLED || lp == INFINITE) && !wm[p.index()] {
                    wm[p.index()] = true;
                    for &q in g.predecessors(p) {
                        if label[q.index()] == UNLABELLED && cnt[q.index()] > 0 {
                            cnt[q.index()] -= 1;
                            if cnt[q.index()] == 0 && !wm[q.index()] {
                                ready.push(q);
                            }
                        }
                    }
                }
            }
        }
        let mut still = Vec::new();
        for &u in &unlabelled {
            if label[u.index()] != UNLABELLED {
                continue;
            }
            if wm[u.index()] {
                still.push(u);
            } else {
                label[u.index()] = INFINITE;
                infinite.push(u);
            }
        }
        unlabelled = still;
        m += 1;
    }

    let mut k_offsets = vec![0u64; n + 1];
    let mut k_values = Vec::new();
    let mut set = Vec::new();
    for v in 0..n {
        if label[v] == INFINITE {
            set.clear();
            set.extend(
                g.successors(Vertex::from_index(v))
                    .iter()
                    .map(|w| label[w.index()])
                    .filter(|&x| x != INFINITE),
            );
            set.sort_unstable();
            set.dedup();
            k_values.extend_from_slice(&set);
        }
        k_offsets[v + 1] = k_values.len() as u64;
    }
    LoopyValues { label, k_offsets, k_values, counter: Some(counter) }
}
