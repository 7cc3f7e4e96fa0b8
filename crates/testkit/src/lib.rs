//! Support for the workspace's tests: a seeded random number generator, builders and
//! proptest strategies for random game graphs, and one helper that snapshots every input of
//! a fixture folder. Used only as a dev-dependency; never published.
//!
//! The strategies draw the graphs the solvers find hard: cycles, self-loops, sinks,
//! repeated arcs and isolated vertices ([`graphs`]), graphs without a cycle
//! ([`acyclic_graphs`]), and dense graphs on few vertices for oracles that try every
//! subset ([`dense_graphs`]).
//!
//! ```
//! use gamegraph_testkit::{SplitMix64, graph, random_graph};
//!
//! let g = graph(3, &[(0, 1), (1, 2), (2, 0)]);
//! assert_eq!(g.num_arcs(), 3);
//! let mut rng = SplitMix64::new(7);
//! let dag = random_graph(&mut rng, 10, 30, true);
//! assert!(dag.arcs().all(|(u, v)| u < v));
//! ```

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use gamegraph_graph::{Graph, Vertex};

/// The workspace's random generator, SplitMix64 (re-exported from
/// [`gamegraph_graph::generate`]): the same numbers for the same seed on every platform and
/// in every version of the dependencies.
pub use gamegraph_graph::generate::SplitMix64;

/// The graph on `n` vertices with `arcs` (0-based ids, in any integer type), in order.
///
/// # Panics
/// If an id is negative, does not fit in `u32`, or is not below `n`.
pub fn graph<T>(n: usize, arcs: &[(T, T)]) -> Graph
where
    T: Copy + TryInto<u32>,
{
    let id = |x: T| Vertex(x.try_into().ok().expect("a vertex id in 0..2^32"));
    let arcs: Vec<(Vertex, Vertex)> = arcs.iter().map(|&(u, v)| (id(u), id(v))).collect();
    Graph::from_arcs(n, &arcs).expect("every arc within 0..n")
}

/// `m` arcs with uniform independent endpoints on `n` vertices (self-loops and repeated
/// arcs included). With `acyclic`, the endpoints are two distinct vertices and the arc goes
/// from the lower to the higher id, so there is no cycle.
///
/// # Panics
/// If `m > 0` and `n` is 0 (or below 2 with `acyclic`).
pub fn random_graph(rng: &mut SplitMix64, n: usize, m: usize, acyclic: bool) -> Graph {
    let n64 = n as u64;
    let arcs: Vec<(u64, u64)> = (0..m)
        .map(|_| {
            let u = rng.below(n64);
            let mut v = rng.below(n64);
            if acyclic {
                while v == u {
                    v = rng.below(n64);
                }
                (u.min(v), u.max(v))
            } else {
                (u, v)
            }
        })
        .collect();
    graph(n, &arcs)
}

/// Each ordered pair of distinct vertices is an arc with probability `per_mille / 1000`,
/// each self-loop with a third of it; an arc drawn is repeated with probability 1/20.
pub fn random_dense_graph(rng: &mut SplitMix64, n: usize, per_mille: u64) -> Graph {
    let mut arcs = Vec::new();
    for u in 0..n {
        for v in 0..n {
            let p = if u == v { per_mille / 3 } else { per_mille };
            if rng.chance(p) {
                arcs.push((u, v));
                if rng.chance(50) {
                    arcs.push((u, v));
                }
            }
        }
    }
    graph(n, &arcs)
}

/// Graphs with `vertices` vertices and up to `arcs_per_vertex` arcs per vertex (the arc
/// count is uniform in `0..=arcs_per_vertex * n`): half of the arcs have uniform endpoints,
/// a third join the first half of the vertices (so cycles and repeated arcs are common),
/// a sixth are self-loops. Sinks and isolated vertices come with the sparse draws.
pub fn graphs(
    vertices: RangeInclusive<usize>,
    arcs_per_vertex: usize,
) -> impl Strategy<Value = Graph> {
    vertices.prop_flat_map(move |n| {
        // The ranges must not be empty even when `n` is 0 (no arc is drawn then).
        let all = n.max(1);
        let hot = 1 + n / 2;
        let arc = prop_oneof![
            3 => (0..all, 0..all),
            2 => (0..hot, 0..hot),
            1 => (0..all).prop_map(|v| (v, v)),
        ];
        prop::collection::vec(arc, 0..=arcs_per_vertex * n).prop_map(move |arcs| graph(n, &arcs))
    })
}

/// Graphs without a cycle, with `vertices` vertices and up to `arcs_per_vertex` arcs per
/// vertex: pairs of distinct uniform vertices (repeats included), each arc oriented along
/// a random order of the vertices, so that arcs go up and down the ids.
pub fn acyclic_graphs(
    vertices: RangeInclusive<usize>,
    arcs_per_vertex: usize,
) -> impl Strategy<Value = Graph> {
    vertices.prop_flat_map(move |n| {
        let all = n.max(1);
        let order = Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
        let pairs = prop::collection::vec((0..all, 0..all), 0..=arcs_per_vertex * n);
        (order, pairs).prop_map(move |(order, pairs)| {
            let mut rank = vec![0; n];
            for (i, &v) in order.iter().enumerate() {
                rank[v] = i;
            }
            let arcs: Vec<(usize, usize)> = pairs
                .into_iter()
                .filter(|(u, v)| u != v)
                .map(|(u, v)| if rank[u] < rank[v] { (u, v) } else { (v, u) })
                .collect();
            graph(n, &arcs)
        })
    })
}

/// Dense graphs for brute-force oracles: `vertices` vertices (keep it small: an oracle
/// over all subsets takes 2^n steps), arc probability in `per_mille` thousandths, drawn by
/// [`random_dense_graph`] from a random seed (shrinking reduces the size and the density).
pub fn dense_graphs(
    vertices: RangeInclusive<usize>,
    per_mille: RangeInclusive<u64>,
) -> impl Strategy<Value = Graph> {
    (vertices, per_mille, any::<u64>())
        .prop_map(|(n, p, seed)| random_dense_graph(&mut SplitMix64::new(seed), n, p))
}

/// The folder `fixtures/<solver>` of the workspace.
pub fn fixture_dir(solver: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(solver);
    root.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", root.display()))
}

/// Runs `f` on every file of `fixtures/<solver>` that matches `pattern` (a glob such as
/// `*.txt`), with the file's path and text, and checks each `(name, text)` it returns
/// against the insta snapshot `fixtures/<solver>/<name>@<file name>.snap`.
///
/// # Panics
/// If the pattern matches no file, a file cannot be read as UTF-8 text, or a snapshot
/// differs (insta's rules: `INSTA_UPDATE=new` writes a `.snap.new` beside it).
pub fn fixtures<S>(solver: &str, pattern: &str, mut f: impl FnMut(&Path, &str) -> S)
where
    S: IntoIterator<Item = (&'static str, String)>,
{
    let dir = fixture_dir(solver);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(&dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_allow_empty_glob(false);
    let mut matched = 0usize;
    settings.bind(|| {
        insta::glob!(&dir, pattern, |path| {
            matched += 1;
            let text =
                std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for (name, text) in f(path, &text) {
                insta::assert_snapshot!(name, text);
            }
        });
    });
    assert!(matched > 0, "no file of {} matches {pattern}", dir.display());
}
