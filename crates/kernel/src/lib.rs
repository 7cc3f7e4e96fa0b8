//! Kernels and stable sets of digraphs.
//!
//! For a digraph G, a set S of vertices is *internally stable* when no arc joins two of its
//! vertices (a vertex with a self-loop is never in such a set), *externally stable* when every
//! vertex outside S has an arc into S, and a *kernel* when it is both. α(G) is the largest
//! internally stable set, β(G) the smallest externally stable one.
//!
//! - Checks with a certificate of failure: [`internally_stable`], [`externally_stable`],
//!   [`is_kernel`], [`maximal_internally_stable`].
//! - Kernels: [`find_kernel`] (one, or `None`), [`kernels`] (all, an iterator),
//!   [`count_kernels`]; each says which argument decided ([`Explanation`]).
//! - Stability numbers with witnesses: [`alpha`], [`beta`].
//! - Certificates of "no kernel": [`find_kernel_with_proof`] gives a DRAT proof against
//!   the kernel conditions as a CNF ([`kernel_cnf`], [`write_kernel_cnf`]), and
//!   [`check_no_kernel`] checks one without the solvers ([`check_drat`] for any CNF).
//!
//! Facts the solvers use: every kernel is a maximal internally stable set and a minimal
//! externally stable one, so β(G) ≤ |K| ≤ α(G) and α(G) < β(G) means there is no kernel
//! (Berge, Graphs and Hypergraphs); an acyclic digraph has exactly one kernel, the set of its
//! retrograde L positions; more generally every kernel contains every L position and no W
//! position, so only the draw positions need a search; a digraph without odd directed cycles
//! has a kernel (Richardson 1953), built here without search. Deciding whether a kernel
//! exists is NP-complete (Chvátal 1973), so the general case is an exact search with strong
//! propagation, or a CDCL SAT solver on the kernel conditions for large draw parts. β is a
//! covering problem, solved by branch and bound under Lagrangian and linear-programming
//! bounds; α by reductions, then a colouring branch and bound on dense parts.
//!
//! Nothing here prints, reads the environment, starts a thread or builds a thread pool: the
//! parallel parts (the clique search's tasks, the SAT solvers' race, the solver beside the
//! search) run on the rayon pool they are called on, so a pool of one thread runs all on
//! that thread, and give the same results on every number of threads.
//!
//! Where the code lives:
//! - `kernel/`: kernel existence, counting and enumeration — the
//!   retrograde reduction to draw parts, Richardson's construction, the exact search, the
//!   SAT encoding and the choice between them.
//! - `sat/`: the CDCL SAT solver (literals, clause database, propagation, conflict
//!   analysis, restarts and branching order).
//! - `clique/`: α — the bitset clique search with its colouring, pruning and tasks, a
//!   local search for a starting clique, and the branch-and-reduce search of sparse parts.
//! - `cover/`: β — the set cover reductions, Lagrangian bound, linear-program cuts, local
//!   search and branch and bound.
//! - `proof/`: the kernel conditions as a CNF, DRAT proofs (reader and writer) and their
//!   checker, apart from the solvers.
//! - At the top: the checks (`check`), α and β of a whole graph (`numbers`) and what
//!   their searches share (`stable`), induced subgraphs (`induced`), bitsets (`bits`),
//!   the configuration and budget (`config`), errors and explanations (`error`,
//!   `explain`). Components, strongly connected components, acyclicity and id maps come
//!   from `gamegraph_graph::algo`, run under the search budget through its `visit` hooks.
//!
//! ```
//! use gamegraph_graph::{Graph, Vertex};
//! use gamegraph_kernel::{count_kernels, find_kernel, members, Config};
//!
//! // A heap of 0 to 15 objects, a move takes 1 to 4 of them.
//! let mut arcs = Vec::new();
//! for x in 0..16u32 {
//!     for t in 1..=4.min(x) {
//!         arcs.push((Vertex(x), Vertex(x - t)));
//!     }
//! }
//! let g = Graph::from_arcs(16, &arcs).unwrap();
//! let k = find_kernel(&g, &Config::default()).unwrap().kernel.unwrap();
//! assert_eq!(members(&k), [0, 5, 10, 15].map(Vertex)); // the multiples of 5
//! assert_eq!(count_kernels(&g, &Config::default()).unwrap().count, 1);
//! ```

mod bits;
mod check;
mod clique;
mod config;
mod cover;
mod error;
mod explain;
mod induced;
mod kernel;
mod numbers;
mod proof;
mod sat;
mod stable;

pub use crate::check::{
    SetClaim, SetVerdict, VertexSet, Violation, externally_stable, internally_stable, is_kernel,
    judge_set, maximal_internally_stable, members, vertex_set,
};
pub use crate::config::Config;
pub use crate::error::KernelError;
pub use crate::explain::{Decided, Explanation};
pub use crate::kernel::enumerate::{Kernels, kernels};
pub use crate::kernel::find::{
    KernelAnswer, KernelCount, ProvedAnswer, count_kernels, find_kernel, find_kernel_with_proof,
};
pub use crate::numbers::{StableSet, alpha, beta};
pub use crate::proof::{
    DratChecked, DratError, DratProof, DratStep, ProofRefused, check_drat, check_no_kernel,
    kernel_cnf, write_kernel_cnf,
};
