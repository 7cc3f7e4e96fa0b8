//! Proofs of "no kernel" against the checker: odd directed cycles, every subset on small
//! random digraphs, random digraphs of 100 to 2000 vertices; and proofs refused on a graph
//! that has a kernel.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{
    Config, DratProof, ProofRefused, check_no_kernel, find_kernel, find_kernel_with_proof,
    kernel_cnf,
};
use gamegraph_testkit::{SplitMix64, random_dense_graph, random_graph};

fn cycle(k: u32) -> Graph {
    let arcs: Vec<(u32, u32)> = (0..k).map(|i| (i, (i + 1) % k)).collect();
    gamegraph_testkit::graph(k as usize, &arcs)
}

/// Whether some subset of the vertices satisfies every clause of the kernel conditions.
fn cnf_satisfiable_brute(g: &Graph) -> bool {
    let cnf = kernel_cnf(g);
    (0..1u32 << g.num_vertices()).any(|m| {
        cnf.iter().all(|c| c.iter().any(|&l| (m >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0)))
    })
}

fn proof_of(g: &Graph) -> Option<DratProof> {
    let proved = find_kernel_with_proof(g, &Config::default()).unwrap();
    // The same answer (the node count of a race between solvers depends on the timing).
    let plain = find_kernel(g, &Config::default()).unwrap();
    assert_eq!(proved.answer.kernel, plain.kernel);
    assert_eq!(proved.answer.explanation.decided, plain.explanation.decided);
    assert_eq!(proved.proof.is_some(), proved.answer.kernel.is_none());
    proved.proof
}

#[test]
fn odd_cycles_have_accepted_proofs_and_even_ones_have_kernels() {
    for k in 3..=21 {
        let g = cycle(k);
        match proof_of(&g) {
            Some(p) => {
                assert_eq!(k % 2, 1);
                let checked = check_no_kernel(&g, &p).unwrap();
                assert_eq!(checked.clauses, 2 * k as usize);
            }
            None => assert_eq!(k % 2, 0),
        }
    }
}

/// Every proof is accepted, and a proof comes exactly when no subset is a kernel.
#[test]
fn proofs_agree_with_all_subsets() {
    let mut rng = SplitMix64::new(8);
    let mut none = 0;
    for round in 0..400 {
        let g = random_dense_graph(&mut rng, 1 + round % 14, [100, 200, 300][round % 3]);
        let p = proof_of(&g);
        assert_eq!(p.is_none(), cnf_satisfiable_brute(&g), "round {round}");
        if let Some(p) = p {
            assert!(check_no_kernel(&g, &p).is_ok(), "round {round}");
            none += 1;
        }
    }
    assert!(none > 60, "{none} without a kernel");
}

/// Random digraphs of 100 to 2000 vertices and 3 to 7 arcs per vertex, those the library
/// decides within a node limit to have none.
#[test]
fn large_random_digraphs_without_kernel_have_accepted_proofs() {
    let mut rng = SplitMix64::new(4);
    let quick = Config { max_nodes: Some(5000), ..Config::default() };
    let mut sizes = 0;
    for &(n, per) in &[(100, 4), (127, 5), (200, 7), (400, 6), (1000, 4), (2000, 3), (2000, 4)] {
        for _ in 0..20 {
            let g = random_graph(&mut rng, n, n * per, false);
            if !find_kernel(&g, &quick).is_ok_and(|a| a.kernel.is_none()) {
                continue;
            }
            let p = proof_of(&g).expect("no kernel");
            let checked = check_no_kernel(&g, &p).unwrap();
            // Every lemma read, or none when unit propagation alone refutes the conditions.
            assert!(checked.lemmas == p.lemmas() || checked.lemmas == 0, "{checked:?}");
            sizes += 1;
            break;
        }
    }
    assert!(sizes >= 5, "only {sizes} sizes without a kernel");
}

/// A proof of a graph without kernel is refused on a graph with one: the 7-cycle with a
/// sink added below one of its vertices.
#[test]
fn a_proof_is_refused_where_there_is_a_kernel() {
    let g = cycle(7);
    let p = proof_of(&g).unwrap();
    let mut arcs: Vec<(Vertex, Vertex)> = g.arcs().collect();
    arcs.push((Vertex(0), Vertex(7)));
    let h = Graph::from_arcs(8, &arcs).unwrap();
    assert!(find_kernel(&h, &Config::default()).unwrap().kernel.is_some());
    let refused = check_no_kernel(&h, &p).unwrap_err();
    assert!(
        matches!(refused, ProofRefused::NotImplied { .. } | ProofRefused::NoEmptyClause),
        "{refused}"
    );
}
