//! The branch-and-reduce search against brute force.

use super::*;
use crate::Config;
use crate::clique::tests::{alpha_of, every_graph, lists, random_edges};
use gamegraph_testkit::SplitMix64;

/// α by brute force.
fn brute(adj: &[Vec<u32>]) -> usize {
    alpha_of(adj, &vec![true; adj.len()])
}

fn independent(adj: &[Vec<u32>], set: &[u32]) -> bool {
    set.iter().all(|&v| adj[v as usize].iter().all(|x| !set.contains(x)))
}

/// Solves with every part branched on (no hand-off to the bitset search).
fn solve_all(adj: &[Vec<u32>]) -> Vec<u32> {
    let mut b = Budget::new(&Config::default());
    solve(Sub::new(adj.to_vec()), -1, Opts { small: 0, greedy: false, sat_min: usize::MAX }, &mut b)
        .unwrap()
        .unwrap()
}

/// Runs only the reductions; returns (taken, folds, vertices left).
fn reduce_only(adj: &[Vec<u32>], domination: bool) -> (Vec<u32>, usize, usize) {
    let mut b = Budget::new(&Config::default());
    let mut g = Sub::new(adj.to_vec());
    let mut log = Log::default();
    let (mut fm, mut dm, mut stamp) = (vec![0; adj.len()], vec![0; adj.len()], 0);
    let mut queue: Vec<u32> = (0..adj.len() as u32).filter(|&v| g.deg[v as usize] <= 2).collect();
    g.reduce_degrees(&mut queue, &mut log, &mut fm, &mut b).unwrap();
    if domination {
        g.reduce_domination(&mut queue, &mut dm, &mut stamp, &mut b).unwrap();
    }
    (log.taken, log.folds.len(), g.left)
}

#[test]
fn degree_one_takes_the_leaf() {
    // A star with three leaves: the leaves are taken.
    let adj = lists(4, &[(0, 1), (0, 2), (0, 3)]);
    let (mut taken, folds, left) = reduce_only(&adj, false);
    taken.sort_unstable();
    assert_eq!((taken, folds, left), (vec![1, 2, 3], 0, 0));
}

#[test]
fn degree_two_in_a_triangle_takes_the_vertex() {
    // K4 minus an edge plus a pendant-free triangle corner: 0 has neighbours 1, 2 joined.
    let adj = lists(5, &[(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (1, 4), (2, 3), (3, 4)]);
    let (taken, folds, _) = reduce_only(&adj, false);
    assert_eq!(taken.first(), Some(&0));
    assert_eq!(folds, 0);
    assert_eq!(solve_all(&adj).len(), brute(&adj));
}

#[test]
fn degree_two_folds_and_unfolds() {
    // A 5-cycle: only folding applies at first; α = 2.
    let adj = lists(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
    let (_, folds, left) = reduce_only(&adj, false);
    assert!(folds >= 1);
    assert_eq!(left, 0);
    let set = solve_all(&adj);
    assert_eq!(set.len(), 2);
    assert!(independent(&adj, &set));
}

#[test]
fn domination_removes_the_dominating_vertex() {
    // K4 on 0..3, 4 joined to 0, 1, 2 and 5, 5 joined to 0 and 3: every degree is at
    // least 3, and N[4] = {0, 1, 2, 4, 5} ⊆ N[0], so 0 goes.
    let adj = lists(
        6,
        &[
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 2),
            (1, 3),
            (2, 3),
            (0, 4),
            (1, 4),
            (2, 4),
            (3, 5),
            (4, 5),
            (0, 5),
        ],
    );
    assert!(adj.iter().all(|a| a.len() >= 3));
    let (_, _, before) = reduce_only(&adj, false);
    let (_, _, after) = reduce_only(&adj, true);
    assert_eq!(before, 6);
    assert!(after < 6);
    assert_eq!(solve_all(&adj).len(), brute(&adj));
}

#[test]
fn mirrors_are_found() {
    // v = 0 with neighbours 1, 2 (not adjacent); 3 is joined to 1 and 2: N(0) \ N(3) is
    // empty, a clique, so 3 is a mirror; 4 is joined to 1 only and 5 to 2 only:
    // N(0) \ N(4) = {2} is a clique too.
    let adj = lists(6, &[(0, 1), (0, 2), (3, 1), (3, 2), (4, 1), (5, 2)]);
    let g = Sub::new(adj);
    let mut b = Budget::new(&Config::default());
    let mut m = g.mirrors(0, &mut b).unwrap();
    m.sort_unstable();
    assert_eq!(m, vec![3, 4, 5]);
}

/// The search of [`sparse_search`] (every part branched on, left to the bitset search
/// from 8 vertices, or decided as satisfiability when close to its bound), the upper bound and the clique covers against brute force.
fn check_all(adj: &[Vec<u32>]) {
    let want = brute(adj);
    let mut b = Budget::new(&Config::default());
    let g = Sub::new(adj.to_vec());
    assert!(upper_bound(g.clone(), &mut b).unwrap() >= want);
    assert!(g.clique_cover_joined(&mut b).unwrap().count >= want);
    assert!(g.clique_cover(&mut b).unwrap() >= want);
    for (small, sat_min) in [(0, usize::MAX), (8, usize::MAX), (0, 0)] {
        let f = sparse_search(adj.to_vec(), small, sat_min, &mut b).unwrap();
        assert!(f.exact && f.bound == want && f.set.len() == want, "{adj:?}");
        assert!(independent(adj, &f.set), "{adj:?}");
        let mut sorted = f.set.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), want);
    }
}

#[test]
fn every_graph_up_to_six_vertices() {
    every_graph(6, |_, adj| check_all(adj));
}

#[test]
fn random_graphs_on_seven_and_eight_vertices() {
    let mut rng = SplitMix64::new(17);
    for round in 0..3000 {
        let n = 7 + round % 2;
        let per_mille = [150, 300, 500, 700][round % 4];
        let edges = random_edges(&mut rng, n, per_mille);
        check_all(&lists(n, &edges));
    }
}

#[test]
fn triangles_joined_through_hub_pairs_are_solved_at_the_bound() {
    // The shape of the PACE vertex covers: triangles whose corners each meet one hub,
    // the hubs in joined pairs; the clique cover of triangles and pairs is tight.
    let mut rng = SplitMix64::new(23);
    for round in 0..12 {
        let (pairs, triangles) = (3 + round % 3, 6 + round % 5);
        let hubs = 2 * pairs as u32;
        let mut edges: Vec<(u32, u32)> = (0..pairs as u32).map(|p| (2 * p, 2 * p + 1)).collect();
        for t in 0..triangles as u32 {
            let c = hubs + 3 * t;
            edges.extend([(c, c + 1), (c + 1, c + 2), (c, c + 2)]);
            for k in 0..3 {
                edges.push((c + k, rng.below(u64::from(hubs)) as u32));
            }
        }
        let adj = lists(hubs as usize + 3 * triangles, &edges);
        check_all(&adj);
    }
}

#[test]
fn branch_and_reduce_agrees_with_brute_force() {
    let mut rng = SplitMix64::new(31);
    for round in 0..600 {
        let n = 1 + round % 40;
        let per_mille = [40, 80, 120, 200, 350, 600][round % 6];
        let edges = random_edges(&mut rng, n, per_mille);
        let adj = lists(n, &edges);
        let set = solve_all(&adj);
        assert!(independent(&adj, &set), "{edges:?}");
        assert_eq!(set.len(), brute(&adj), "{edges:?}");
        let mut b = Budget::new(&Config::default());
        let via_small = solve(
            Sub::new(adj.clone()),
            -1,
            Opts { small: 8, greedy: false, sat_min: usize::MAX },
            &mut b,
        )
        .unwrap()
        .unwrap();
        assert_eq!(via_small.len(), set.len());
        check_all(&adj);
    }
}

#[test]
fn a_planted_three_sat_formula_is_decided_at_its_cover() {
    // The vertex cover of a 3-SAT formula: per variable two joined hubs (its literals), per
    // clause a triangle whose corners each meet the hub of their literal. An independent set
    // meeting every pair and every triangle is a model (the hub left out of a pair is the
    // true literal, the corner taken in a triangle a true literal of its clause), so with a
    // planted model α is the number of cliques (branching alone takes seconds here).
    for seed in 0..3 {
        let mut rng = SplitMix64::new(101 + seed);
        let vars = 80u32;
        let clauses = 4 * vars + vars / 5;
        let model: Vec<bool> = (0..vars).map(|_| rng.below(2) == 1).collect();
        let mut edges: Vec<(u32, u32)> = (0..vars).map(|v| (2 * v, 2 * v + 1)).collect();
        let hub = |v: u32, positive: bool| 2 * v + u32::from(!positive);
        for c in 0..clauses {
            let lits = loop {
                let l: Vec<(u32, bool)> =
                    (0..3).map(|_| (rng.below(vars.into()) as u32, rng.below(2) == 1)).collect();
                if l.iter().any(|&(v, p)| model[v as usize] == p) {
                    break l;
                }
            };
            let corner = 2 * vars + 3 * c;
            edges.extend([(corner, corner + 1), (corner + 1, corner + 2), (corner, corner + 2)]);
            for (k, &(v, p)) in lits.iter().enumerate() {
                edges.push((corner + k as u32, hub(v, p)));
            }
        }
        let adj = lists((2 * vars + 3 * clauses) as usize, &edges);
        let mut b = Budget::new(&Config::default());
        let f = max_independent_sparse(adj.clone(), &mut b).unwrap();
        assert!(f.exact && f.set.len() == (vars + clauses) as usize, "seed {seed}");
        assert!(independent(&adj, &f.set));
    }
}
