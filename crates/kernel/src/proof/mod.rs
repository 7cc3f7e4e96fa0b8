//! Certificates that a digraph has no kernel: the kernel conditions as a CNF, DRAT proofs
//! of their unsatisfiability, and a checker of such proofs that does not use the solvers.
//!
//! The CNF of a digraph on `n` vertices has variable `i + 1` for "vertex `i` (0-based) is in
//! the kernel" and, for each vertex `v` in order: the clause `-u -w` of each arc `u → w` out
//! of it (`u = v`, `w ≠ v`), the unit `-v` for a self-loop, and then `v w₁ … w_k` over its
//! successors (each literal once). Repeated arcs give repeated clauses. Its models are the
//! kernels ([`kernel_cnf`], written in DIMACS by [`write_kernel_cnf`]).
//!
//! [`find_kernel_with_proof`](crate::find_kernel_with_proof) gives, when there is no
//! kernel, a DRAT proof of that CNF's unsatisfiability ([`DratProof`]), and
//! [`check_no_kernel`] checks one ([`check_drat`] for any CNF).

mod check;
mod drat;
#[cfg(test)]
mod tests;

use std::io::{self, Write};

use gamegraph_graph::Graph;

pub use check::{DratChecked, ProofRefused, check_drat};
pub use drat::{DratError, DratProof, DratStep};

/// The kernel conditions of `g` as a CNF over variables `1..=n` (see the module docs): its
/// models are the kernels of `g`. Written apart from the solvers' encoding.
///
/// # Panics
/// When `g` has 2³¹ vertices or more.
pub fn kernel_cnf(g: &Graph) -> Vec<Vec<i32>> {
    let var =
        |v: gamegraph_graph::Vertex| i32::try_from(v.index() + 1).expect("below 2^31 vertices");
    let mut cnf = Vec::new();
    // in_clause[w]: the last vertex whose absorbing clause got w.
    let mut in_clause = vec![usize::MAX; g.num_vertices()];
    for v in g.vertices() {
        let mut absorb = vec![var(v)];
        in_clause[v.index()] = v.index();
        for &w in g.successors(v) {
            cnf.push(if w == v { vec![-var(v)] } else { vec![-var(v), -var(w)] });
            if in_clause[w.index()] != v.index() {
                in_clause[w.index()] = v.index();
                absorb.push(var(w));
            }
        }
        cnf.push(absorb);
    }
    cnf
}

/// Writes [`kernel_cnf`] in DIMACS: `p cnf n m`, then one clause per line ending in `0`.
///
/// # Errors
/// The writer's.
pub fn write_kernel_cnf(g: &Graph, w: &mut dyn Write) -> io::Result<()> {
    let cnf = kernel_cnf(g);
    writeln!(w, "p cnf {} {}", g.num_vertices(), cnf.len())?;
    let mut line = String::new();
    for c in &cnf {
        line.clear();
        for l in c {
            line.push_str(&l.to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        w.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Checks that `proof` shows that `g` has no kernel: a DRAT refutation of [`kernel_cnf`]
/// (see [`check_drat`]).
///
/// # Errors
/// The first lemma that is neither RUP nor RAT, or the missing empty clause.
pub fn check_no_kernel(g: &Graph, proof: &DratProof) -> Result<DratChecked, ProofRefused> {
    check_drat(g.num_vertices(), &kernel_cnf(g), proof)
}
