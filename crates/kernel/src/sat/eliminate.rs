//! Bounded variable elimination (Eén and Biere 2005), a preprocessing of a formula before
//! it reaches the [`Solver`](super::Solver).
//!
//! A variable v is eliminated by replacing the clauses that hold it with every
//! non-tautological resolvent on v of a clause holding v and one holding ¬v; the formula
//! stays satisfiable exactly when it was. A variable goes only when this adds no clauses
//! and no resolvent is longer than [`MAX_RESOLVENT`]. A model of what is left extends to
//! the eliminated variables in the reverse order of their elimination, each made true
//! exactly when false leaves one of its removed clauses unsatisfied ([`Eliminated::extend`]).
//!
//! On the formulas of independent sets over clique covers this removes the vertex
//! variables of small cliques whose members have few neighbours, down to a formula on what
//! they meet: a one-hot 3-SAT encoding becomes the 3-SAT formula behind it.

use super::{Lit, Var};
use crate::KernelError;
use crate::config::Budget;

/// Resolvents longer than this keep their variable.
const MAX_RESOLVENT: usize = 24;
/// Variables with more occurrences than this (both signs together) are not tried.
const MAX_OCCURRENCES: usize = 32;

/// The formula left by elimination, and what was removed, to extend a model of it.
#[derive(Debug, Default)]
pub(crate) struct Eliminated {
    /// The clauses left.
    pub(crate) left: Vec<Vec<Lit>>,
    /// The eliminated variables in order, each with the clauses removed with it.
    stack: Vec<(Var, Vec<Vec<Lit>>)>,
}

impl Eliminated {
    /// Extends `model` (a model of the formula left, indexed by variable) to the eliminated
    /// variables, so that it satisfies the formula given to [`eliminate`].
    pub(crate) fn extend(&self, model: &mut [bool]) {
        let holds = |model: &[bool], l: Lit| model[l.var().index()] != l.is_neg();
        for (v, clauses) in self.stack.iter().rev() {
            model[v.index()] = false;
            if clauses.iter().any(|c| !c.iter().any(|&l| holds(model, l))) {
                model[v.index()] = true;
            }
        }
    }
}

/// Eliminates variables of the formula `clauses` over `n` variables; returns the clauses
/// left and what was removed, or `None` when elimination found the formula unsatisfiable
/// (an empty resolvent). Fails with the budget's error when its clock runs out.
pub(crate) fn eliminate(
    n: usize,
    clauses: Vec<Vec<Lit>>,
    budget: &mut Budget,
) -> Result<Option<Eliminated>, KernelError> {
    let mut db: Vec<Option<Vec<Lit>>> = Vec::with_capacity(clauses.len());
    let mut occ: Vec<Vec<u32>> = vec![Vec::new(); 2 * n];
    for mut c in clauses {
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|w| w[1] == !w[0]) {
            continue;
        }
        if c.is_empty() {
            return Ok(None);
        }
        for &l in &c {
            occ[l.index()].push(db.len() as u32);
        }
        db.push(Some(c));
    }
    let mut out = Eliminated::default();
    let mut gone = vec![false; n];
    let mut queue: Vec<u32> = (0..n as u32).rev().collect();
    let mut queued = vec![true; n];
    let mut resolvents: Vec<Vec<Lit>> = Vec::new();
    while let Some(v) = queue.pop() {
        let v = Var(v);
        queued[v.index()] = false;
        if gone[v.index()] {
            continue;
        }
        let (p, q) = (Lit::pos(v), Lit::neg(v));
        for l in [p, q] {
            occ[l.index()].retain(|&c| db[c as usize].is_some());
        }
        let (pos, neg) = (&occ[p.index()], &occ[q.index()]);
        budget.spend(1 + (pos.len() * neg.len()) as u64)?;
        if pos.len() + neg.len() > MAX_OCCURRENCES {
            continue;
        }
        resolvents.clear();
        let mut fits = true;
        'pairs: for &a in pos {
            for &b in neg {
                let (ca, cb) = (db[a as usize].as_ref(), db[b as usize].as_ref());
                let (ca, cb) = (ca.expect("live"), cb.expect("live"));
                if let Some(r) = resolve(ca, cb, v) {
                    if r.len() > MAX_RESOLVENT || resolvents.len() >= pos.len() + neg.len() {
                        fits = false;
                        break 'pairs;
                    }
                    resolvents.push(r);
                }
            }
        }
        if !fits {
            continue;
        }
        if resolvents.iter().any(Vec::is_empty) {
            return Ok(None);
        }
        let mut removed = Vec::with_capacity(pos.len() + neg.len());
        let ids: Vec<u32> = pos.iter().chain(neg).copied().collect();
        for c in ids {
            let clause = db[c as usize].take().expect("live");
            for &l in &clause {
                let u = l.var();
                if u != v && !queued[u.index()] && !gone[u.index()] {
                    queued[u.index()] = true;
                    queue.push(u.0);
                }
            }
            removed.push(clause);
        }
        occ[p.index()].clear();
        occ[q.index()].clear();
        for r in resolvents.drain(..) {
            for &l in &r {
                occ[l.index()].push(db.len() as u32);
            }
            db.push(Some(r));
        }
        gone[v.index()] = true;
        out.stack.push((v, removed));
    }
    out.left = db.into_iter().flatten().collect();
    Ok(Some(out))
}

/// The resolvent of `a` (holding `v`) and `b` (holding ¬`v`) on `v`, both sorted; `None`
/// when it is a tautology.
fn resolve(a: &[Lit], b: &[Lit], v: Var) -> Option<Vec<Lit>> {
    let mut r = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    loop {
        let next = match (a.get(i), b.get(j)) {
            (None, None) => break,
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), Some(&y)) => {
                if x <= y {
                    i += 1;
                    if x == y {
                        j += 1;
                    }
                    x
                } else {
                    j += 1;
                    y
                }
            }
        };
        if next.var() == v {
            continue;
        }
        if r.last() == Some(&!next) {
            return None;
        }
        r.push(next);
    }
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::config::Budget;
    use crate::sat::tests::{brute, random_cnf, satisfies};
    use crate::sat::{Options, Solver};
    use gamegraph_testkit::SplitMix64;

    /// Random small formulas: the formula left is satisfiable exactly when the given one
    /// is, and a model of it, extended, satisfies the given one.
    #[test]
    fn elimination_keeps_satisfiability_and_extends_models() {
        let mut rng = SplitMix64::new(41);
        let mut eliminated = 0;
        for round in 0..4000 {
            let n = 1 + round % 11;
            let m = rng.below(5 * n as u64 + 2) as usize;
            let cnf = random_cnf(&mut rng, n, m, 3);
            let truth = brute(&cnf, n);
            let mut b = Budget::new(&Config::default());
            let found = eliminate(n, cnf.clone(), &mut b).unwrap();
            let Some(removed) = found else {
                assert!(!truth, "{cnf:?}");
                continue;
            };
            eliminated += removed.stack.len();
            let mut s = Solver::new(n, Options::default());
            let ok = removed.left.iter().all(|c| s.add_clause(c));
            let sat = ok && s.solve(&mut b, None).unwrap();
            assert_eq!(sat, truth, "{cnf:?}");
            if sat {
                let mut model: Vec<bool> = (0..n as u32).map(|v| s.model_value(Var(v))).collect();
                removed.extend(&mut model);
                assert!(satisfies(&cnf, &model), "{cnf:?}");
            }
        }
        assert!(eliminated > 1000, "{eliminated}");
    }
}
