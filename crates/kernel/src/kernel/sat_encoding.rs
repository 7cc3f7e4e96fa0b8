//! Kernel existence of one draw part as a SAT problem: reductions on the graph and on the
//! formula, then the CDCL solver of [`crate::sat`], and the kernel rebuilt from its model.
//!
//! The kernel conditions of a part are, for each vertex v with successors s₁ … s_k,
//! `x_v ⇔ ¬x_{s₁} ∧ … ∧ ¬x_{s_k}`: the clauses `¬x_v ∨ ¬x_s` (internal stability) and
//! `x_v ∨ x_{s₁} ∨ … ∨ x_{s_k}` (external stability), and `¬x_v` when v has a self-loop.
//!
//! Reductions, each exact:
//! 1. *Sources.* A vertex without a self-loop and with no predecessor left occurs only in its
//!    own condition, which defines it from its successors: it is removed, and its value is
//!    computed last (in the reverse order of removal, so its successors are known by then).
//!    Removing it can leave its successors without predecessors in turn.
//! 2. *Units and equivalent literals.* The binary clauses form an implication graph; the
//!    literals of one strongly connected component are equal and are replaced by one
//!    representative (a vertex with a single successor u is `¬x_u`, so chains collapse); a
//!    component holding a literal and its negation proves there is no kernel. Units are
//!    propagated, satisfied clauses and false literals dropped, and both steps repeat until
//!    nothing changes.

use std::sync::atomic::{AtomicBool, Ordering};

use gamegraph_graph::Limit;
use gamegraph_graph::algo::{peel_by, strongly_connected_by};
use rayon::prelude::*;

use crate::KernelError;
use crate::config::Budget;
use crate::induced::Subgraph;
use crate::sat::{Lit, Options, Solver, Var};

/// A formula with its variables renamed after the reductions, and how to rebuild a full
/// assignment from a model of it.
#[derive(Debug, Clone)]
pub(crate) struct Reduced {
    /// Number of variables of the reduced formula.
    pub(crate) vars: usize,
    /// The clauses of the reduced formula (none empty), or `None` when it is unsatisfiable.
    pub(crate) clauses: Option<Vec<Vec<Lit>>>,
    /// For each original variable: a literal of the reduced formula, or a constant
    /// (`FALSE_LIT`, `TRUE_LIT`).
    map: Vec<Lit>,
}

/// The constant false, in the maps of [`Reduced`].
const FALSE_LIT: Lit = Lit::from_code(u32::MAX - 1);
/// The constant true.
const TRUE_LIT: Lit = Lit::from_code(u32::MAX);

impl Reduced {
    /// The value of original variable `v` under a model of the reduced formula.
    pub(crate) fn value(&self, v: usize, model: &[bool]) -> bool {
        match self.map[v] {
            FALSE_LIT => false,
            TRUE_LIT => true,
            l => model[l.var().index()] != l.is_neg(),
        }
    }
}

/// Literal `l` under the substitution `rep` (constants stay constants).
#[inline]
fn subst(rep: &[Lit], l: Lit) -> Lit {
    match rep[l.var().index()] {
        c @ (FALSE_LIT | TRUE_LIT) => {
            if l.is_neg() {
                !c // FALSE ↔ TRUE: the two constants differ in the low bit only
            } else {
                c
            }
        }
        r => r.negate_if(l.is_neg()),
    }
}

/// Simplifies a CNF over `n` variables by unit propagation and equivalent-literal
/// substitution to a fixpoint, then renames the variables left.
///
/// Complexity: O(rounds · total clause length), a few rounds in practice.
pub(crate) fn simplify(
    n: usize,
    clauses: Vec<Vec<Lit>>,
    budget: &mut Budget,
) -> Result<Reduced, KernelError> {
    // rep[v]: the literal v equals (itself at first), or a constant.
    let mut rep: Vec<Lit> = (0..n as u32).map(|v| Lit::pos(Var(v))).collect();
    let mut cls = clauses;
    let unsat = |rep: Vec<Lit>| Reduced { vars: 0, clauses: None, map: rep };
    loop {
        let Some(pass) = substitute(&cls, &rep, budget)? else { return Ok(unsat(rep)) };
        let mut changed = pass.changed;
        cls = pass.clauses;
        let Some(assigned) = assign_units(&mut rep, &pass.units) else { return Ok(unsat(rep)) };
        changed |= assigned;
        follow_constants(&mut rep);
        if !pass.units.is_empty() {
            continue;
        }
        let Some(merged) = merge_equivalent(&cls, &mut rep, budget)? else {
            return Ok(unsat(rep));
        };
        changed |= merged;
        if !changed {
            break;
        }
    }
    Ok(rename(rep, cls))
}

/// What a pass of [`substitute`] leaves: the clauses of two literals or more, the units,
/// and whether anything changed.
struct Substituted {
    clauses: Vec<Vec<Lit>>,
    units: Vec<Lit>,
    changed: bool,
}

/// Substitutes `rep` in the clauses, drops satisfied clauses, false literals and repeats,
/// and collects the units; `None` when a clause is left empty.
fn substitute(
    cls: &[Vec<Lit>],
    rep: &[Lit],
    budget: &mut Budget,
) -> Result<Option<Substituted>, KernelError> {
    let mut changed = false;
    let mut next: Vec<Vec<Lit>> = Vec::with_capacity(cls.len());
    let mut units: Vec<Lit> = Vec::new();
    for c in cls {
        budget.spend(1 + c.len() as u64)?;
        let mut d: Vec<Lit> = Vec::with_capacity(c.len());
        let mut sat = false;
        for &l in c {
            match subst(rep, l) {
                TRUE_LIT => sat = true,
                FALSE_LIT => {}
                s => d.push(s),
            }
        }
        if sat {
            changed = true;
            continue;
        }
        d.sort_unstable();
        d.dedup();
        if d.windows(2).any(|w| w[1] == !w[0]) {
            changed = true;
            continue;
        }
        if d.len() != c.len() {
            changed = true;
        }
        match d.len() {
            0 => return Ok(None),
            1 => units.push(d[0]),
            _ => next.push(d),
        }
    }
    Ok(Some(Substituted { clauses: next, units, changed }))
}

/// Makes the variables of the units constants; returns whether any changed, `None` when a
/// unit contradicts a constant.
fn assign_units(rep: &mut [Lit], units: &[Lit]) -> Option<bool> {
    let mut changed = false;
    for &u in units {
        let v = u.var().index();
        let want = if u.is_neg() { FALSE_LIT } else { TRUE_LIT };
        match rep[v] {
            c if c == want => {}
            FALSE_LIT | TRUE_LIT => return None,
            _ => {
                rep[v] = want;
                changed = true;
            }
        }
    }
    Some(changed)
}

/// Variables mapped to a variable that is now constant follow it.
fn follow_constants(rep: &mut [Lit]) {
    for v in 0..rep.len() {
        let r = rep[v];
        if r < FALSE_LIT && r.var().index() != v {
            rep[v] = subst(rep, r);
        }
    }
}

/// Equivalent literals: the literals of one strongly connected component of the implication
/// graph of the binary clauses get one representative. Returns whether any variable got a
/// new one, `None` when a literal and its negation are equivalent.
fn merge_equivalent(
    cls: &[Vec<Lit>],
    rep: &mut [Lit],
    budget: &mut Budget,
) -> Result<Option<bool>, KernelError> {
    let n = rep.len();
    let mut changed = false;
    let mut imp: Vec<Vec<u32>> = vec![Vec::new(); 2 * n];
    let mut any = false;
    for c in cls {
        if c.len() == 2 {
            imp[(!c[0]).index()].push(c[1].code());
            imp[(!c[1]).index()].push(c[0].code());
            any = true;
        }
    }
    if any {
        budget.spend(cls.len() as u64)?;
        let comp = literal_sccs(&imp, budget)?;
        // Representative of each component: its smallest literal.
        let mut best: Vec<Lit> = vec![Lit::from_code(u32::MAX); 2 * n];
        for (l, &c) in comp.iter().enumerate() {
            best[c as usize] = best[c as usize].min(Lit::from_code(l as u32));
        }
        for v in 0..n {
            if rep[v] != Lit::pos(Var(v as u32)) {
                continue; // constant or already substituted: not in any clause
            }
            let (p, q) = (comp[2 * v], comp[2 * v + 1]);
            if p == q {
                return Ok(None);
            }
            let r = best[p as usize];
            // The complement's component has the complement representative, unless the
            // smaller literal sits on the other side: take the smaller variable.
            let rn = !best[q as usize];
            let r = r.min(rn);
            if r != Lit::pos(Var(v as u32)) {
                rep[v] = r;
                changed = true;
            }
        }
        // Normalise chains (a representative is its own representative).
        for v in 0..n {
            let r = rep[v];
            if r < FALSE_LIT {
                let rr = rep[r.var().index()];
                if rr != Lit::pos(r.var()) {
                    rep[v] = subst(rep, r);
                }
            }
        }
    }
    Ok(Some(changed))
}

/// The reduced formula: the variables that are their own representative renamed `0..`, the
/// clauses and the map rewritten to them.
fn rename(rep: Vec<Lit>, mut cls: Vec<Vec<Lit>>) -> Reduced {
    let n = rep.len();
    // Rename the variables that are their own representative.
    let mut id = vec![u32::MAX; n];
    let mut vars = 0u32;
    for v in 0..n {
        if rep[v] == Lit::pos(Var(v as u32)) {
            id[v] = vars;
            vars += 1;
        }
    }
    let map: Vec<Lit> = rep
        .iter()
        .map(|&r| if r >= FALSE_LIT { r } else { Lit::new(Var(id[r.var().index()]), r.is_neg()) })
        .collect();
    for c in &mut cls {
        for l in c.iter_mut() {
            *l = Lit::new(Var(id[l.var().index()]), l.is_neg());
        }
    }
    Reduced { vars: vars as usize, clauses: Some(cls), map }
}

/// Components of the implication graph over `2n` literals (Tarjan's algorithm), numbered so
/// that a literal and its negation get comparable ids.
fn literal_sccs(imp: &[Vec<u32>], budget: &mut Budget) -> Result<Vec<u32>, KernelError> {
    let mut comp = vec![u32::MAX; imp.len()];
    let mut ncomp = 0u32;
    strongly_connected_by(
        imp.len(),
        |_| true,
        |v| imp[v].iter().copied(),
        |v| budget.spend(1 + imp[v].len() as u64),
        |c| {
            for &w in c {
                comp[w as usize] = ncomp;
            }
            ncomp += 1;
        },
    )?;
    Ok(comp)
}

/// The kernel conditions of a part after removing its sources.
#[derive(Debug, Clone)]
pub(crate) struct Encoding {
    /// Sources removed, in the order of removal.
    pub(crate) removed: Vec<u32>,
    /// The vertices kept, by variable.
    pub(crate) kept: Vec<u32>,
    /// The clauses over the variables of the kept vertices.
    pub(crate) clauses: Vec<Vec<Lit>>,
}

/// Removes the sources of `g` (reduction 1) and writes the kernel conditions of the rest.
pub(crate) fn encode(g: &Subgraph, budget: &mut Budget) -> Result<Encoding, KernelError> {
    let n = g.n();
    budget.spend(n as u64)?;
    // Sources go one at a time, the last found first (Kahn's peeling, `peel_by`); a vertex
    // with a self-loop never goes.
    let mut indeg: Vec<u64> = (0..n).map(|v| g.pred(v).len() as u64).collect();
    let mut gone = vec![false; n];
    let mut removed: Vec<u32> = Vec::new();
    peel_by(
        &mut indeg,
        |v| !g.looped[v],
        |v| g.succ(v).iter().copied(),
        |v| {
            gone[v] = true;
            removed.push(v as u32);
            budget.spend(1 + g.succ(v).len() as u64)
        },
    )?;
    let mut var = vec![u32::MAX; n];
    let mut kept = Vec::new();
    for v in 0..n {
        if !gone[v] {
            var[v] = kept.len() as u32;
            kept.push(v as u32);
        }
    }
    let mut clauses = Vec::new();
    for (x, &v) in kept.iter().enumerate() {
        let x = x as u32;
        budget.spend(1 + g.succ(v as usize).len() as u64)?;
        // A kept vertex has only kept successors: a removed vertex had no predecessor left.
        let mut absorb = vec![Lit::pos(Var(x))];
        for &u in g.succ(v as usize) {
            debug_assert!(!gone[u as usize]);
            absorb.push(Lit::pos(Var(var[u as usize])));
            clauses.push(vec![Lit::neg(Var(x)), Lit::neg(Var(var[u as usize]))]);
        }
        clauses.push(absorb);
        if g.looped[v as usize] {
            clauses.push(vec![Lit::neg(Var(x))]);
        }
    }
    Ok(Encoding { removed, kept, clauses })
}

/// The kernel of a part rebuilt from the values of its kept vertices: the removed sources
/// get their values in the reverse order of removal.
fn rebuild(g: &Subgraph, enc: &Encoding, kept_value: impl Fn(usize) -> bool) -> Vec<bool> {
    let n = g.n();
    let mut inside = vec![false; n];
    for (x, &v) in enc.kept.iter().enumerate() {
        inside[v as usize] = kept_value(x);
    }
    for &v in enc.removed.iter().rev() {
        inside[v as usize] = !g.succ(v as usize).iter().any(|&u| inside[u as usize]);
    }
    inside
}

/// One CDCL solver on the kernel conditions of a part, to be run in steps: a
/// [`SatKernel::run`] stopped by the node limit carries on where it stopped when called
/// again.
#[derive(Debug)]
pub(crate) struct SatKernel {
    enc: Encoding,
    red: Reduced,
    /// `None` when the simplification alone proved that there is no kernel.
    solver: Option<Solver>,
}

impl SatKernel {
    /// Encodes and simplifies the kernel conditions of `g` for a solver with `opts`.
    pub(crate) fn new(
        g: &Subgraph,
        opts: Options,
        budget: &mut Budget,
    ) -> Result<Self, KernelError> {
        let mut enc = encode(g, budget)?;
        let clauses = std::mem::take(&mut enc.clauses);
        let red = simplify(enc.kept.len(), clauses, budget)?;
        let solver = red.clauses.as_ref().map(|clauses| {
            let mut s = Solver::new(red.vars, opts);
            for c in clauses {
                s.add_clause(c);
            }
            s
        });
        Ok(SatKernel { enc, red, solver })
    }

    /// Solves on: the membership of a kernel of `g` (the graph given to [`SatKernel::new`]),
    /// or `None` when it has none; [`Limit::Stop`] once `stop` is set.
    pub(crate) fn run(
        &mut self,
        g: &Subgraph,
        budget: &mut Budget,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Vec<bool>>, KernelError> {
        let Some(s) = &mut self.solver else {
            return Ok(None);
        };
        if !s.solve(budget, stop)? {
            return Ok(None);
        }
        let model: Vec<bool> = (0..self.red.vars as u32).map(|v| s.model_value(Var(v))).collect();
        Ok(Some(rebuild(g, &self.enc, |x| self.red.value(x, &model))))
    }
}

/// Sizes met on the way, for the timing example and the tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// Vertices of the part.
    pub(crate) vertices: usize,
    /// Vertices left after removing sources.
    pub(crate) kept: usize,
    /// Variables left after units and equivalent literals.
    pub(crate) vars: usize,
    /// Clauses left.
    pub(crate) clauses: usize,
}

/// Decides whether the part `g` has a kernel; returns its membership when it has one.
///
/// With more than one thread in the current rayon pool, as many solvers of different seeds
/// race on it: the first proof that there is no kernel ends the race, while a kernel is
/// always the one solver 0 finds, so the answer is the same for every number of threads
/// (the other solvers only shorten proofs of absence).
pub(crate) fn kernel_by_sat(
    g: &Subgraph,
    budget: &mut Budget,
) -> Result<(Option<Vec<bool>>, Sizes), KernelError> {
    let enc = encode(g, budget)?;
    let mut sizes = Sizes { vertices: g.n(), kept: enc.kept.len(), ..Sizes::default() };
    let red = simplify(enc.kept.len(), enc.clauses.clone(), budget)?;
    let Some(clauses) = &red.clauses else {
        return Ok((None, sizes));
    };
    sizes.vars = red.vars;
    sizes.clauses = clauses.len();
    let build = |opts: Options| {
        let mut s = Solver::new(red.vars, opts);
        for c in clauses {
            s.add_clause(c);
        }
        s
    };
    let threads = rayon::current_num_threads();
    let model: Option<Vec<bool>> = if threads == 1 || !budget.unlimited_nodes() {
        let mut s = build(Options::default());
        s.solve(budget, None)?
            .then(|| (0..red.vars as u32).map(|v| s.model_value(Var(v))).collect())
    } else {
        race(threads, red.vars, &build, budget)?
    };
    let Some(model) = model else {
        return Ok((None, sizes));
    };
    let inside = rebuild(g, &enc, |x| red.value(x, &model));
    Ok((Some(inside), sizes))
}

/// Solvers of different seeds as `threads` tasks of the current rayon pool, each on the formula `build` gives them
/// over `vars` variables: a model from solver 0, `None` when any of them proves the
/// formula unsatisfiable first; the conflicts of all count as the budget's nodes.
fn race(
    threads: usize,
    vars: usize,
    build: &(dyn Fn(Options) -> Solver + Sync),
    budget: &mut Budget,
) -> Result<Option<Vec<bool>>, KernelError> {
    let stop = AtomicBool::new(false);
    // Each solver's answer (a model, or `None` for a proof of absence) and conflicts.
    type Outcome = Result<Option<Vec<bool>>, KernelError>;
    // No solver waits for another (each only reads `stop`), so the race gives the same
    // answer when the pool runs the solvers one after the other.
    let results: Vec<(Outcome, u64)> = (0..threads)
        .into_par_iter()
        .map(|t| {
            let mut b = budget.fork();
            let opts = if t == 0 {
                Options::default()
            } else {
                Options {
                    seed: t as u64,
                    initial_phase: t % 2 == 1,
                    random_every: 64,
                    ..Options::default()
                }
            };
            let mut s = build(opts);
            let r = match s.solve(&mut b, Some(&stop)) {
                Ok(false) => {
                    stop.store(true, Ordering::Relaxed);
                    Ok(None)
                }
                Ok(true) if t == 0 => {
                    stop.store(true, Ordering::Relaxed);
                    Ok(Some((0..vars as u32).map(|v| s.model_value(Var(v))).collect()))
                }
                // A helper's model only shows that one exists: solver 0 finds its own, so
                // the kernel does not depend on the timing.
                Ok(true) => Err(KernelError::Limit { limit: Limit::Stop, nodes: 0 }),
                Err(e) => Err(e),
            };
            (r, b.nodes)
        })
        .collect();
    // The conflicts of every solver count as the search's nodes.
    let results: Vec<Outcome> = results
        .into_iter()
        .map(|(r, nodes)| {
            budget.nodes += nodes;
            r
        })
        .collect();
    // A proof of absence from any solver, else solver 0's answer.
    if results.iter().any(|r| matches!(r, Ok(None))) {
        Ok(None)
    } else {
        match results.into_iter().next().expect("one thread at least") {
            Ok(m) => Ok(m),
            Err(e) => {
                budget.check_clock()?;
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use gamegraph_testkit::{SplitMix64, random_dense_graph};

    fn satisfies(cnf: &[Vec<Lit>], model: &[bool]) -> bool {
        cnf.iter().all(|c| c.iter().any(|&l| model[l.var().index()] != l.is_neg()))
    }

    fn brute(cnf: &[Vec<Lit>], n: usize) -> Option<Vec<bool>> {
        (0..1u32 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<_>>())
            .find(|m| satisfies(cnf, m))
    }

    /// The reduced formula is satisfiable exactly when the original is, and every model of
    /// it extends to a model of the original.
    #[test]
    fn simplification_keeps_satisfiability_and_models_extend() {
        let mut rng = SplitMix64::new(4242);
        let mut shrunk = 0;
        for round in 0..3000 {
            let n = 1 + round % 11;
            let m = rng.below(5 * n as u64 + 1) as usize;
            let cnf: Vec<Vec<Lit>> = (0..m)
                .map(|_| {
                    let k = if rng.chance(600) { 2 } else { 4 };
                    let len = 1 + rng.below(k) as usize;
                    (0..len)
                        .map(|_| Lit::new(Var(rng.below(n as u64) as u32), rng.below(2) == 1))
                        .collect()
                })
                .collect();
            let mut b = Budget::new(&Config::default());
            let red = simplify(n, cnf.clone(), &mut b).unwrap();
            let truth = brute(&cnf, n);
            match &red.clauses {
                None => assert!(truth.is_none(), "declared unsatisfiable: {cnf:?}"),
                Some(rc) => {
                    assert!(rc.iter().all(|c| c.len() >= 2));
                    let rm = brute(rc, red.vars);
                    assert_eq!(rm.is_some(), truth.is_some(), "{cnf:?} -> {rc:?}");
                    if let Some(rm) = rm {
                        let full: Vec<bool> = (0..n).map(|v| red.value(v, &rm)).collect();
                        assert!(satisfies(&cnf, &full), "{cnf:?} -> {rc:?}");
                    }
                    if red.vars < n {
                        shrunk += 1;
                    }
                }
            }
        }
        assert!(shrunk > 500, "only {shrunk} formulas shrank");
    }

    fn kernels_brute(g: &Subgraph) -> Vec<Vec<bool>> {
        let n = g.n();
        (0..1u32 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<bool>>())
            .filter(|s| {
                (0..n).all(|v| {
                    let any = g.succ(v).iter().any(|&u| s[u as usize]);
                    s[v] != any && !(s[v] && g.looped[v])
                })
            })
            .collect()
    }

    /// Sources removed, then units and equivalences, then CDCL: the answer agrees with all
    /// subsets, the kernel found is one of them, and 1, 2 and 3 threads give the same set.
    #[test]
    fn kernels_by_sat_agree_with_all_subsets() {
        let pools: Vec<rayon::ThreadPool> = (1..=3)
            .map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap())
            .collect();
        let mut rng = SplitMix64::new(31337);
        let (mut yes, mut no, mut removed, mut merged) = (0, 0, 0, 0);
        for round in 0..1500 {
            let n = 1 + round % 14;
            let per_mille = [80, 150, 250, 400][round % 4];
            let g = random_dense_graph(&mut rng, n, per_mille);
            let mut b = Budget::new(&Config::default());
            let local = Subgraph::whole(&g, &mut b).unwrap();
            let all = kernels_brute(&local);
            let (k1, sizes) = pools[0].install(|| kernel_by_sat(&local, &mut b)).unwrap();
            assert_eq!(k1.is_some(), !all.is_empty(), "round {round}");
            if let Some(k) = &k1 {
                assert!(all.contains(k));
                yes += 1;
            } else {
                no += 1;
            }
            for pool in &pools[1..] {
                assert_eq!(pool.install(|| kernel_by_sat(&local, &mut b)).unwrap().0, k1);
            }
            removed += usize::from(sizes.kept < sizes.vertices);
            merged += usize::from(sizes.vars < sizes.kept && k1.is_some());
        }
        assert!(yes > 300 && no > 300, "{yes} with a kernel, {no} without");
        assert!(removed > 100 && merged > 100, "{removed} with sources, {merged} merged");
    }

    /// A source removed leaves its successor a source: a path into a 2-cycle is removed whole.
    #[test]
    fn sources_are_removed_in_chains() {
        let g = gamegraph_testkit::graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 3)]);
        let mut b = Budget::new(&Config::default());
        let local = Subgraph::whole(&g, &mut b).unwrap();
        let enc = encode(&local, &mut b).unwrap();
        assert_eq!(enc.removed, [0, 1, 2]);
        assert_eq!(enc.kept, [3, 4]);
        let inside = rebuild(&local, &enc, |x| x == 0);
        assert_eq!(inside, [false, true, false, true, false]);
    }

    /// An odd chain of single successors closing on itself is a contradiction found by the
    /// equivalences alone (x = ¬y = z = ¬x on a directed triangle).
    #[test]
    fn an_odd_cycle_of_single_successors_is_refuted_without_search() {
        let g = gamegraph_testkit::graph(3, &[(0, 1), (1, 2), (2, 0)]);
        let mut b = Budget::new(&Config::default());
        let local = Subgraph::whole(&g, &mut b).unwrap();
        let enc = encode(&local, &mut b).unwrap();
        assert!(simplify(enc.kept.len(), enc.clauses, &mut b).unwrap().clauses.is_none());
        assert_eq!(b.nodes, 0);
    }
}
