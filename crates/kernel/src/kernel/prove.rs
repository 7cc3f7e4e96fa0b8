//! A proof that a draw part has no kernel: the CDCL solver once more on the part's kernel
//! conditions, logging its learnt and deleted clauses, renamed to the whole graph's
//! variables.
//!
//! The clauses given to the solver are those of [`encode`] (sources removed, no other
//! simplification): for each kept vertex `v`, `¬v ∨ ¬w` for each successor `w`, `¬v` for
//! a self-loop, and `v ∨ w₁ ∨ … ∨ w_k`. Each is a clause of the whole graph's kernel
//! conditions, with the literals of the successors outside the part left out; those
//! successors are W vertices, which unit propagation of the whole conditions makes false
//! (the retrograde labels are unit propagation: a sink is in, a predecessor of a vertex in
//! is out, a vertex all of whose successors are out is in). Removing a source only leaves
//! clauses out. So every clause the solver learns is RUP against the whole conditions and
//! the lemmas before it, and the log, ended by the empty clause, is a DRAT refutation of
//! them.

use crate::KernelError;
use crate::config::Budget;
use crate::induced::Subgraph;
use crate::kernel::sat_encoding::encode;
use crate::proof::{DratProof, DratStep};
use crate::sat::{Lit, Options, Solver};

/// A DRAT refutation of the kernel conditions of the whole graph, from the draw part `part`
/// that has no kernel.
///
/// # Errors
/// The budget's; [`KernelError::NoRefutation`] when the solver finds a kernel of the part
/// (a bug of the method that decided there is none).
pub(crate) fn refute_part(part: &Subgraph, budget: &mut Budget) -> Result<DratProof, KernelError> {
    let enc = encode(part, budget)?;
    let mut s = Solver::new(enc.kept.len(), Options::default());
    s.log_proof();
    for c in &enc.clauses {
        if !s.add_clause(c) {
            break;
        }
    }
    if s.solve(budget, None)? {
        return Err(KernelError::NoRefutation { part: part.n() });
    }
    let log = s.take_proof().expect("the log was started");
    let global = |l: Lit| {
        let v = part.global[enc.kept[l.var().index()] as usize].index() as i32 + 1;
        if l.is_neg() { -v } else { v }
    };
    let steps = log
        .lines()
        .map(|(delete, lits)| DratStep { delete, lits: lits.map(global).collect() })
        .collect();
    Ok(DratProof { steps, lines: Vec::new() })
}

#[cfg(test)]
mod tests {
    use gamegraph_testkit::{SplitMix64, random_dense_graph, random_graph};

    use crate::explain::Decided;
    use crate::kernel::find::{find_kernel_from, find_kernel_with_proof_from};
    use crate::{Config, check_no_kernel, is_kernel};

    use crate::kernel::find::test_routes::{BOTH, SAT, SEARCH, has_kernel_brute};

    /// On each route, the answer with a proof is the answer without, a proof comes exactly
    /// with "none" (all subsets tell), and the checker accepts it.
    #[test]
    fn every_route_gives_a_proof_the_checker_accepts() {
        let mut rng = SplitMix64::new(9001);
        let cfg = Config::default();
        let (mut none, mut bounds) = (0, 0);
        for round in 0..400 {
            let n = 2 + round % 15;
            let g = random_dense_graph(&mut rng, n, [100, 200, 300][round % 3]);
            let truth = has_kernel_brute(&g);
            for (route, races) in [(SEARCH, false), (SAT, false), (BOTH, true)] {
                let mut plain = find_kernel_from(&g, &cfg, route).unwrap();
                let mut proved = find_kernel_with_proof_from(&g, &cfg, route).unwrap();
                // With two threads the race of the search and the solver spends a number of
                // nodes that depends on the threads' timing; the answer does not.
                if races {
                    plain.explanation.nodes = 0;
                    proved.answer.explanation.nodes = 0;
                }
                assert_eq!(proved.answer, plain, "round {round}");
                assert_eq!(plain.kernel.is_some(), truth, "round {round}");
                match (&proved.answer.kernel, &proved.proof) {
                    (Some(k), None) => assert_eq!(is_kernel(&g, k), Ok(Ok(()))),
                    (None, Some(p)) => {
                        let checked = check_no_kernel(&g, p);
                        assert!(checked.is_ok(), "round {round}: {checked:?}");
                        none += 1;
                        bounds += usize::from(matches!(
                            plain.explanation.decided,
                            Decided::AlphaBelowBeta { .. }
                        ));
                    }
                    other => panic!("round {round}: {other:?}"),
                }
            }
        }
        assert!(none > 200 && bounds > 20, "{none} without a kernel, {bounds} by alpha < beta");
    }

    /// A digraph of 300 vertices and 7 arcs per vertex where the solver runs long enough
    /// to delete learnt clauses: the proof has deletions, and is accepted.
    #[test]
    fn proofs_with_deletions_are_accepted() {
        let mut rng = SplitMix64::new(5);
        let g = random_graph(&mut rng, 300, 2100, false);
        for route in [SAT, BOTH] {
            let proved = find_kernel_with_proof_from(&g, &Config::default(), route).unwrap();
            let p = proved.proof.expect("no kernel");
            let deleted = p.steps.iter().filter(|s| s.delete).count();
            assert!(deleted > 100, "{deleted} deletions");
            let checked = check_no_kernel(&g, &p).unwrap();
            assert_eq!(checked.lemmas, p.lemmas());
            assert!(checked.deletions > 100, "{checked:?}");
        }
    }
}
