//! Large parts whose clique cover is close to what they must beat, decided as
//! satisfiability.
//!
//! With a clique cover of k cliques, an independent set meets each clique at most once, so
//! it has t vertices exactly when it meets t cliques. "Some independent set meets all but
//! at most d cliques" is then the formula: per vertex v a variable x_v (v in the set); per
//! edge uv the clause ¬x_u ∨ ¬x_v; per clique C the clause r_C ∨ ⋁_{v ∈ C} x_v, with a
//! relaxation variable r_C; and at most d of the r_C true (a sequential counter, Sinz 2005;
//! no r_C at all when d = 0). The formula is satisfiable exactly when α ≥ k − d.
//!
//! Bounded variable elimination ([`eliminate`]) runs before the solver: on the graphs this
//! serves (triangles whose corners each meet one hub, the hubs in joined pairs: the vertex
//! covers behind 3-SAT formulas) it removes the vertex variables down to the 3-SAT formula
//! behind them, which clause learning decides at once where branching on vertices does
//! not.

use crate::KernelError;
use crate::config::Budget;
use crate::sat::{Lit, Options, Solver, Var, eliminate};

use super::Sub;
use super::cliques::Cover;

/// An independent set of `g` of more than `floor` vertices when α > `floor`, `None`
/// otherwise: one question, at d = k − `floor` − 1 for the cover's k cliques.
pub(super) fn above_by_sat(
    g: &Sub,
    cover: &Cover,
    floor: i64,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let cliques: Vec<&[u32]> = cover.cliques().collect();
    let d = cliques.len() as i64 - floor - 1;
    if d < 0 {
        return Ok(None);
    }
    let set = meets_all_but(g, &cliques, d as usize, budget)?;
    debug_assert!(set.as_ref().is_none_or(|s| s.len() as i64 > floor));
    Ok(set)
}

/// An independent set of `g` meeting all but at most `d` of `cliques`, or `None`.
fn meets_all_but(
    g: &Sub,
    cliques: &[&[u32]],
    d: usize,
    budget: &mut Budget,
) -> Result<Option<Vec<u32>>, KernelError> {
    let n = g.adj.len();
    let k = cliques.len();
    let relax = if d == 0 { 0 } else { k };
    let counter = if d == 0 || k == 0 { 0 } else { (k - 1) * d };
    let vars = n + relax + counter;
    let x = |v: usize| Var(v as u32);
    let mut cnf: Vec<Vec<Lit>> = Vec::new();
    for v in (0..n).filter(|&v| g.alive[v]) {
        for u in g.neighbours(v).filter(|&u| u > v) {
            cnf.push(vec![Lit::neg(x(v)), Lit::neg(x(u))]);
        }
    }
    for (c, members) in cliques.iter().enumerate() {
        let mut clause: Vec<Lit> = members.iter().map(|&v| Lit::pos(x(v as usize))).collect();
        if d > 0 {
            clause.push(Lit::pos(Var((n + c) as u32)));
        }
        cnf.push(clause);
    }
    if d > 0 {
        let r: Vec<Lit> = (0..k).map(|c| Lit::pos(Var((n + c) as u32))).collect();
        at_most(&mut cnf, &r, d, (n + k) as u32);
    }
    budget.spend(cnf.len() as u64)?;
    let Some(eliminated) = eliminate(vars, cnf, budget)? else { return Ok(None) };
    budget.spend(eliminated.left.len() as u64)?;
    let mut s = Solver::new(vars, Options::default());
    let ok = eliminated.left.iter().all(|c| s.add_clause(c));
    if !ok || !s.solve(budget, None)? {
        return Ok(None);
    }
    let mut model: Vec<bool> = (0..vars as u32).map(|v| s.model_value(Var(v))).collect();
    eliminated.extend(&mut model);
    let set: Vec<u32> =
        (0..n as u32).filter(|&v| g.alive[v as usize] && model[v as usize]).collect();
    Ok(Some(set))
}

/// Adds clauses saying at most `d` ≥ 1 of `xs` are true, with the `(len − 1) · d`
/// variables from `first` on as the counter's registers: register (i, j) holds when more
/// than j of `xs[..=i]` are.
fn at_most(cnf: &mut Vec<Vec<Lit>>, xs: &[Lit], d: usize, first: u32) {
    let k = xs.len();
    let reg = |i: usize, j: usize| Lit::pos(Var(first + (i * d + j) as u32));
    for i in 0..k {
        let last = i + 1 == k;
        if i == 0 {
            if !last {
                cnf.push(vec![!xs[0], reg(0, 0)]);
                for j in 1..d {
                    cnf.push(vec![!reg(0, j)]);
                }
            }
            continue;
        }
        if !last {
            cnf.push(vec![!xs[i], reg(i, 0)]);
            for j in 0..d {
                cnf.push(vec![!reg(i - 1, j), reg(i, j)]);
                if j > 0 {
                    cnf.push(vec![!xs[i], !reg(i - 1, j - 1), reg(i, j)]);
                }
            }
        }
        cnf.push(vec![!xs[i], !reg(i - 1, d - 1)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clique::tests::{alpha_of, lists, random_edges};
    use gamegraph_testkit::SplitMix64;

    /// Every assignment of up to 7 variables satisfies the counter exactly when at most `d`
    /// are true.
    #[test]
    fn the_counter_allows_at_most_d() {
        for k in 1..=7usize {
            for d in 1..=k {
                for mask in 0..1u32 << k {
                    let mut s = Solver::new(k + k * d, Options::default());
                    let xs: Vec<Lit> = (0..k as u32).map(|v| Lit::pos(Var(v))).collect();
                    let mut cnf = Vec::new();
                    at_most(&mut cnf, &xs, d, k as u32);
                    for (v, &l) in xs.iter().enumerate() {
                        cnf.push(vec![l.negate_if(mask >> v & 1 == 0)]);
                    }
                    let ok = cnf.iter().all(|c| s.add_clause(c));
                    let mut b = Budget::new(&Config::default());
                    let sat = ok && s.solve(&mut b, None).unwrap();
                    assert_eq!(sat, mask.count_ones() as usize <= d, "k {k} d {d} mask {mask:b}");
                }
            }
        }
    }

    #[test]
    fn a_set_above_the_floor_is_found_exactly_when_alpha_is() {
        let mut rng = SplitMix64::new(5);
        for round in 0..400 {
            let n = 1 + round % 14;
            let per_mille = [100, 250, 400, 600][round % 4];
            let edges = random_edges(&mut rng, n, per_mille);
            let adj = lists(n, &edges);
            let want = alpha_of(&adj, &vec![true; n]) as i64;
            let g = Sub::new(adj.clone());
            let mut b = Budget::new(&Config::default());
            let cover = g.clique_cover_joined(&mut b).unwrap();
            for floor in -1..=cover.count as i64 {
                match above_by_sat(&g, &cover, floor, &mut b).unwrap() {
                    Some(set) => {
                        assert!(floor < want, "{edges:?} floor {floor}");
                        assert!(set.len() as i64 > floor, "{edges:?}");
                        assert!(
                            set.iter().all(|&v| adj[v as usize].iter().all(|u| !set.contains(u)))
                        );
                    }
                    None => assert!(floor >= want, "{edges:?} floor {floor}"),
                }
            }
        }
    }
}
