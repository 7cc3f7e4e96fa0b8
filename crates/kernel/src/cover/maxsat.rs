//! β's core-guided search of a large part: the set cover as a MaxSAT problem solved by OLL
//! (Andres, Kaufmann, Matheis, Schaub 2012; Morgado, Dodaro, Marques-Silva 2014) with
//! totalizers.
//!
//! One variable per set; the hard clauses say every element is covered, the soft ones that
//! each set is left out. The solver is asked for a model under the soft clauses as
//! assumptions; each time it answers with a core (assumptions that cannot all hold), the
//! lower bound rises by one, the core's assumptions give way to a totalizer counting how
//! many of them fail, and the assumption that at most one does (later at most two, three,
//! … as the totalizer's own assumption turns up in cores). The first model under all the
//! assumptions is a minimum cover.
//!
//! The sets are assumed out in the order of [`assumption_order`]: sets of which at most one
//! can be left out follow one another, so that the first cores fall inside such groups.
//! Cores are found in rounds (weight-aware core extraction): the assumptions a round's cores
//! add wait until the assumptions left are satisfiable, so that each round first collects
//! cores that share no assumption; that model is a cover, an upper bound. Each core is
//! trimmed by asking again under its own assumptions while that shrinks it, and the bound of
//! its totalizer raised at once while the bound alone contradicts the clauses (core
//! exhaustion). A local search from the best cover runs at the start, after each better
//! model and between long solves, taking a fixed share of the solver's work.

use std::collections::{BTreeSet, HashSet};

use crate::KernelError;
use crate::config::Budget;
use crate::sat::{Lit, Options, Solver, Var};

use super::local_search::{Run, local_search};
use super::{CoverFound, CoverInstance};

/// Times a core is trimmed at most.
const TRIMS: usize = 3;
/// Conflicts of a solve before local search runs from the best cover (then twice as many
/// before the next, and so on).
const SAT_ROUND: u64 = 20_000;
/// Local search steps per element of each run, at least.
const LS_STEPS: u64 = 10;
/// The local search's share of the work: a run may take this fraction of the solver's work
/// since the last run.
const LS_SHARE: u64 = 12;
/// Conflicts a solve may take to show an assumption of a core is needed.
const MIN_NODES: u64 = 1000;

/// One node of a totalizer: a leaf is an input literal; an inner node counts the true
/// inputs below it, its `outs[k]` meaning "at least k + 1 of them", built up to a bound.
struct Node {
    kids: Option<(usize, usize)>,
    size: usize,
    outs: Vec<Lit>,
}

/// An assumption of the search: set `set` left out, or at most `k - 1` inputs of the
/// totalizer under `node` true (its output "at least k" false).
#[derive(Clone, Copy)]
enum Soft {
    Out(u32),
    AtMost { node: usize, k: usize },
}

/// The MaxSAT search on one part.
struct Oll<'a> {
    p: &'a CoverInstance,
    sat: Solver,
    nodes: Vec<Node>,
    /// Local searches run so far (each draws from its own generator).
    ls_runs: u64,
    /// The solver's work when the last local search ran.
    ls_mark: u64,
    /// The work of a local search step, about: two sets change, each updating the sets of
    /// its elements.
    step_work: u64,
}

impl Oll<'_> {
    /// The search on `p`, its solver holding the hard clauses: every element covered.
    fn new(p: &CoverInstance) -> Oll<'_> {
        let mut sat = Solver::new(p.sets.len(), Options { glucose: true, ..Options::default() });
        for sets in &p.elems {
            let c: Vec<Lit> = sets.iter().map(|&s| Lit::pos(Oll::var(s))).collect();
            sat.add_clause(&c);
        }
        let incidences: u64 = p.elems.iter().map(|e| (e.len() * e.len()) as u64).sum();
        let step_work = (2 * incidences / p.sets.len().max(1) as u64).max(1);
        Oll { p, sat, nodes: Vec::new(), ls_runs: 0, ls_mark: 0, step_work }
    }

    /// The variable of set `s`.
    fn var(s: u32) -> Var {
        Var(s)
    }

    /// The literal that holds when `soft` is violated (the assumption is its negation).
    fn violated(&self, soft: Soft) -> Lit {
        match soft {
            Soft::Out(s) => Lit::pos(Self::var(s)),
            Soft::AtMost { node, k } => self.nodes[node].outs[k - 1],
        }
    }

    /// A totalizer over `inputs` (built up to "at least 1"); its root.
    fn totalizer(&mut self, inputs: &[Lit]) -> usize {
        if let [l] = inputs {
            self.nodes.push(Node { kids: None, size: 1, outs: vec![*l] });
            return self.nodes.len() - 1;
        }
        let (a, b) = inputs.split_at(inputs.len() / 2);
        let left = self.totalizer(a);
        let right = self.totalizer(b);
        self.nodes.push(Node { kids: Some((left, right)), size: inputs.len(), outs: Vec::new() });
        let root = self.nodes.len() - 1;
        self.extend(root, 1);
        root
    }

    /// Builds the outputs of `node` up to "at least `bound`" (or its size): an output "at
    /// least k" is implied by "at least i" on the left and "at least k - i" on the right.
    fn extend(&mut self, node: usize, bound: usize) {
        let Some((left, right)) = self.nodes[node].kids else {
            return;
        };
        let bound = bound.min(self.nodes[node].size);
        if self.nodes[node].outs.len() >= bound {
            return;
        }
        self.extend(left, bound);
        self.extend(right, bound);
        for k in self.nodes[node].outs.len() + 1..=bound {
            let out = Lit::pos(self.sat.new_var());
            // Counts are never forced up, only down by the assumptions: leave them false
            // until something makes them true.
            self.sat.set_phase(out.var(), false);
            let (l, r) = (&self.nodes[left].outs, &self.nodes[right].outs);
            let mut clauses = Vec::new();
            for i in 0..=k.min(l.len()) {
                let j = k - i;
                if j > r.len() {
                    continue;
                }
                let mut c = vec![out];
                if i > 0 {
                    c.push(!l[i - 1]);
                }
                if j > 0 {
                    c.push(!r[j - 1]);
                }
                clauses.push(c);
            }
            for c in clauses {
                self.sat.add_clause(&c);
            }
            self.nodes[node].outs.push(out);
        }
    }

    /// Local search from `best` until a cover of `target` sets, for [`LS_STEPS`] steps per
    /// element or, when more, a [`LS_SHARE`]th of the solver's work since the last run (in
    /// steps of the estimated work `step_work`); keeps what it finds in `best`.
    fn improve(
        &mut self,
        best: &mut Vec<u32>,
        target: usize,
        budget: &mut Budget,
    ) -> Result<(), KernelError> {
        let usable = vec![true; self.p.sets.len()];
        let cost = vec![1.0; self.p.sets.len()];
        self.ls_runs += 1;
        let share = (self.sat.visits() - self.ls_mark) / LS_SHARE;
        self.ls_mark = self.sat.visits();
        let steps = (LS_STEPS * self.p.elems.len() as u64).max(share / self.step_work);
        let run = Run {
            usable: &usable,
            cost: &cost,
            start: best,
            limit: best.len(),
            target,
            steps,
            seed: self.ls_runs,
        };
        if let Some(found) = local_search(self.p, &run, None, budget)? {
            *best = found;
        }
        Ok(())
    }

    /// The cover of the solver's model, without the sets it does not need (each dropped in
    /// turn when every element of it is covered twice).
    fn model_cover(&self) -> Vec<u32> {
        let mut chosen: Vec<u32> =
            (0..self.p.sets.len() as u32).filter(|&s| self.sat.model_value(Self::var(s))).collect();
        let mut times = vec![0u32; self.p.elems.len()];
        for &s in &chosen {
            for &e in &self.p.sets[s as usize] {
                times[e as usize] += 1;
            }
        }
        chosen.retain(|&s| {
            let set = &self.p.sets[s as usize];
            if set.iter().any(|&e| times[e as usize] < 2) {
                return true;
            }
            for &e in set {
                times[e as usize] -= 1;
            }
            false
        });
        chosen
    }
}

/// A minimum cover of `p` by OLL, given a cover `best` and a bound `lb` already known:
/// stops once its own bound meets the best cover found. At the deadline, the best cover
/// and the larger bound.
pub(super) fn min_cover_maxsat(
    p: &CoverInstance,
    mut best: Vec<u32>,
    lb: usize,
    budget: &mut Budget,
) -> Result<CoverFound, KernelError> {
    let mut o = Oll::new(p);
    let mut pending: Vec<Soft> = Vec::new();
    let mut cost = 0;
    let mut active: Vec<Soft> =
        assumption_order(&mut o, &mut cost).into_iter().map(Soft::Out).collect();
    // The search first tries the best cover known (the other sets' phases start out).
    for &s in &best {
        o.sat.set_phase(Oll::var(s), true);
    }
    let result = run(&mut o, &mut active, &mut pending, &mut cost, &mut best, lb, budget);
    match result {
        Ok(()) => Ok(CoverFound { bound: best.len(), exact: true, chosen: best }),
        Err(e) if e.is_clock() => {
            let bound = cost.max(lb).min(best.len());
            Ok(CoverFound { exact: bound == best.len(), bound, chosen: best })
        }
        Err(e) => Err(e),
    }
}

/// The OLL loop of [`min_cover_maxsat`]: `cost` is its lower bound, `best` the best cover.
fn run(
    o: &mut Oll<'_>,
    active: &mut Vec<Soft>,
    pending: &mut Vec<Soft>,
    cost: &mut usize,
    best: &mut Vec<u32>,
    lb: usize,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    o.improve(best, lb, budget)?;
    loop {
        if (*cost).max(lb) >= best.len() {
            return Ok(());
        }
        let assumptions: Vec<Lit> = active.iter().map(|&s| !o.violated(s)).collect();
        let mut round = SAT_ROUND;
        let sat = loop {
            if let Some(sat) = budget.capped(round, |b| o.sat.solve_under(&assumptions, b, None))? {
                break sat;
            }
            // A long solve: perhaps the best cover is already minimum.
            o.improve(best, (*cost).max(lb), budget)?;
            if (*cost).max(lb) >= best.len() {
                return Ok(());
            }
            round *= 2;
        };
        if sat {
            let cover = o.model_cover();
            if cover.len() < best.len() {
                *best = cover;
                o.improve(best, (*cost).max(lb), budget)?;
            }
            if pending.is_empty() {
                // A model under every assumption costs exactly the bound.
                return Ok(());
            }
            active.append(pending);
            continue;
        }
        let mut core = o.sat.core().to_vec();
        assert!(!core.is_empty(), "every element is in some set");
        for _ in 0..TRIMS {
            if core.len() <= 1 || o.sat.solve_under(&core, budget, None)? {
                break;
            }
            if o.sat.core().len() >= core.len() {
                break;
            }
            core = o.sat.core().to_vec();
        }
        minimise(o, &mut core, budget)?;
        *cost += 1;
        relax(o, active, pending, &core, cost, budget)?;
    }
}

/// The sets that can be left out, in the order the search assumes them out: groups of sets
/// of which at most one can be left out (cliques of the conflict graph, where leaving out
/// one set forces the other in by unit propagation, as RC2's intrinsic at-most-one
/// constraints: Ignatiev, Morgado, Marques-Silva 2019) come one after another, sets in no
/// conflict first, then the groups of a greedy clique partition, the set of fewest
/// conflicts left starting each group. Assumed in this order the cores fall inside groups.
/// A set that cannot be left out at all is taken at once, at `cost` one each.
fn assumption_order(o: &mut Oll<'_>, cost: &mut usize) -> Vec<u32> {
    let n = o.p.sets.len();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut alive = vec![true; n];
    for s in 0..n as u32 {
        let Some(implied) = o.sat.implied(!Lit::pos(Oll::var(s))) else {
            alive[s as usize] = false;
            continue;
        };
        for l in implied {
            let t = l.var().index();
            if !l.is_neg() && t < n && t != s as usize {
                adj[s as usize].push(t as u32);
                adj[t].push(s);
            }
        }
    }
    for s in (0..n as u32).filter(|&s| !alive[s as usize]) {
        o.sat.add_clause(&[Lit::pos(Oll::var(s))]);
        *cost += 1;
    }
    let mut order = Vec::with_capacity(n);
    for (s, list) in adj.iter_mut().enumerate() {
        list.retain(|&t| alive[t as usize]);
        list.sort_unstable();
        list.dedup();
        if alive[s] && list.is_empty() {
            order.push(s as u32);
            alive[s] = false;
        }
    }
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut queue: BTreeSet<(usize, u32)> =
        (0..n as u32).filter(|&s| alive[s as usize]).map(|s| (degree[s as usize], s)).collect();
    // `hits[t]`: the sets of the group growing that `t` conflicts with.
    let mut hits = vec![0usize; n];
    while let Some((_, first)) = queue.pop_first() {
        let start = order.len();
        order.push(first);
        let mut candidates: Vec<u32> =
            adj[first as usize].iter().copied().filter(|&t| alive[t as usize]).collect();
        candidates.sort_unstable_by_key(|&t| (degree[t as usize], t));
        for &t in &adj[first as usize] {
            hits[t as usize] += 1;
        }
        for t in candidates {
            if hits[t as usize] == order.len() - start {
                order.push(t);
                for &u in &adj[t as usize] {
                    hits[u as usize] += 1;
                }
            }
        }
        for &s in &order[start..] {
            alive[s as usize] = false;
            queue.remove(&(degree[s as usize], s));
            for &t in &adj[s as usize] {
                hits[t as usize] = 0;
                if alive[t as usize] {
                    queue.remove(&(degree[t as usize], t));
                    degree[t as usize] -= 1;
                    queue.insert((degree[t as usize], t));
                }
            }
        }
    }
    order
}

/// Core exhaustion (Ignatiev, Morgado, Marques-Silva 2019): the first bound from `k` of the
/// totalizer under `node` that may hold alone, as far as a short solve (at most
/// [`MIN_NODES`] conflicts) can tell; each bound found contradictory raises `cost` at once.
/// `None` when not even all of its inputs violated is contradictory (a unit clause then says
/// they are).
fn exhaust(
    o: &mut Oll<'_>,
    node: usize,
    mut k: usize,
    cost: &mut usize,
    budget: &mut Budget,
) -> Result<Option<usize>, KernelError> {
    loop {
        let bound = !o.violated(Soft::AtMost { node, k });
        if budget.capped(MIN_NODES, |b| o.sat.solve_under(&[bound], b, None))? != Some(false) {
            return Ok(Some(k));
        }
        *cost += 1;
        if k == o.nodes[node].size {
            o.sat.add_clause(&[!bound]);
            return Ok(None);
        }
        k += 1;
        o.extend(node, k);
    }
}

/// Drops from `core` each assumption without which the rest is still contradictory, as far
/// as a short solve (at most [`MIN_NODES`] conflicts) can tell.
fn minimise(o: &mut Oll<'_>, core: &mut Vec<Lit>, budget: &mut Budget) -> Result<(), KernelError> {
    let mut i = 0;
    while i < core.len() && core.len() > 1 {
        let mut rest = core.clone();
        rest.remove(i);
        let unsat = budget.capped(MIN_NODES, |b| o.sat.solve_under(&rest, b, None))?;
        if unsat == Some(false) {
            // The new core is a subset of the rest, in its order.
            let smaller: Vec<Lit> = o.sat.core().to_vec();
            core.retain(|l| smaller.contains(l));
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Takes the assumptions of `core` out of `active`: a totalizer counts their violations and
/// the assumption that at most one is violated (or more, after [`exhaust`] raised `cost`)
/// waits in `pending`, with the next bound of each totalizer in the core.
fn relax(
    o: &mut Oll<'_>,
    active: &mut Vec<Soft>,
    pending: &mut Vec<Soft>,
    core: &[Lit],
    cost: &mut usize,
    budget: &mut Budget,
) -> Result<(), KernelError> {
    let in_core: HashSet<Lit> = core.iter().copied().collect();
    let mut inputs = Vec::with_capacity(core.len());
    active.retain(|&s| {
        let a = !o.violated(s);
        if !in_core.contains(&a) {
            return true;
        }
        inputs.push(!a);
        if let Soft::AtMost { node, k } = s
            && k < o.nodes[node].size
        {
            pending.push(Soft::AtMost { node, k: k + 1 });
        }
        false
    });
    for s in pending.iter() {
        if let &Soft::AtMost { node, k } = s {
            o.extend(node, k);
        }
    }
    if let [l] = inputs[..] {
        o.sat.add_clause(&[l]);
        return Ok(());
    }
    let root = o.totalizer(&inputs);
    o.extend(root, 2);
    if let Some(k) = exhaust(o, root, 2, cost, budget)? {
        pending.push(Soft::AtMost { node: root, k });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Oll, Soft, assumption_order, min_cover_maxsat, relax};
    use crate::Config;
    use crate::config::{Budget, Cap};
    use crate::cover::CoverInstance;
    use crate::cover::search::branch_and_bound;
    use crate::cover::tests::{brute, is_cover, random_instance};
    use crate::sat::Lit;
    use gamegraph_testkit::SplitMix64;

    #[test]
    fn covers_are_minimum_on_random_set_systems() {
        let mut rng = SplitMix64::new(31);
        for round in 0..600 {
            let sets = 1 + round % 14;
            let elems = 1 + (round * 7) % 24;
            let p = random_instance(&mut rng, sets, elems, 100 + 50 * (round as u64 % 5));
            let all: Vec<u32> = (0..sets as u32).collect();
            let f = min_cover_maxsat(&p, all, 0, &mut Budget::new(&Config::default())).unwrap();
            assert!(f.exact && f.bound == f.chosen.len());
            assert_eq!(f.chosen.len(), brute(&p), "{p:?}");
            assert!(is_cover(&p, &f.chosen), "{p:?}: {:?}", f.chosen);
        }
    }

    #[test]
    fn agrees_with_the_branch_and_bound_on_larger_set_systems() {
        let mut rng = SplitMix64::new(5);
        for round in 0..40 {
            let p = random_instance(&mut rng, 30 + round, 100 + 2 * round, 60);
            let bb =
                branch_and_bound(&p, &mut Budget::new(&Config::default()), &mut Cap::new(None));
            let bb = bb.unwrap();
            assert!(bb.exact);
            let all: Vec<u32> = (0..p.sets.len() as u32).collect();
            let f = min_cover_maxsat(&p, all, 0, &mut Budget::new(&Config::default())).unwrap();
            assert!(f.exact && is_cover(&p, &f.chosen));
            assert_eq!(f.chosen.len(), bb.chosen.len());
        }
    }

    #[test]
    fn sets_in_conflict_are_assumed_one_group_after_another() {
        // The vertex covers of a triangle and of a complete graph on five vertices, and a
        // vertex alone with an edge of its own to a forced vertex: each edge an element in
        // the sets of its two ends (the last only in the forced one's).
        let mut sets = vec![Vec::new(); 10];
        let mut edges = 0;
        for (lo, hi) in [(0, 3), (3, 8)] {
            for a in lo..hi {
                for b in a + 1..hi {
                    sets[a].push(edges);
                    sets[b].push(edges);
                    edges += 1;
                }
            }
        }
        sets[9].push(edges);
        sets[8].push(edges + 1);
        sets[9].push(edges + 1);
        let p = CoverInstance::new(sets, edges as usize + 2);
        let mut o = Oll::new(&p);
        let mut cost = 0;
        let order = assumption_order(&mut o, &mut cost);
        assert_eq!((cost, order.len()), (1, 9));
        assert_eq!(order[0], 8);
        let mut groups: Vec<Vec<u32>> = vec![order[1..4].to_vec(), order[4..].to_vec()];
        groups.iter_mut().for_each(|g| g.sort_unstable());
        assert_eq!(groups, [vec![0, 1, 2], vec![3, 4, 5, 6, 7]]);
        let all: Vec<u32> = (0..10).collect();
        let f = min_cover_maxsat(&p, all, 0, &mut Budget::new(&Config::default())).unwrap();
        assert_eq!((f.exact, f.chosen.len()), (true, 2 + 4 + 1));
    }

    #[test]
    fn a_core_whose_bound_cannot_hold_is_exhausted_at_once() {
        // The vertex covers of a complete graph on five vertices: the core of all five sets
        // left out costs one, and exhaustion finds that at least four must be taken.
        let mut sets = vec![Vec::new(); 5];
        let mut edges = 0;
        for a in 0..5 {
            for b in a + 1..5 {
                sets[a].push(edges);
                sets[b].push(edges);
                edges += 1;
            }
        }
        let p = CoverInstance::new(sets, edges as usize);
        let mut o = Oll::new(&p);
        let mut active: Vec<Soft> = (0..5).map(Soft::Out).collect();
        let mut pending = Vec::new();
        let core: Vec<Lit> = active.iter().map(|&s| !o.violated(s)).collect();
        let mut cost = 1;
        let mut budget = Budget::new(&Config::default());
        relax(&mut o, &mut active, &mut pending, &core, &mut cost, &mut budget).unwrap();
        assert!(active.is_empty());
        assert_eq!(cost, 4);
        assert!(matches!(pending[..], [Soft::AtMost { k: 5, .. }]));
    }

    #[test]
    fn the_deadline_leaves_a_cover_and_a_sound_bound() {
        let mut rng = SplitMix64::new(8);
        let mut cut = 0;
        for round in 0..60 {
            let p = random_instance(&mut rng, 40 + round, 150, 50);
            let exact =
                branch_and_bound(&p, &mut Budget::new(&Config::default()), &mut Cap::new(None));
            let exact = exact.unwrap().chosen.len();
            let mut b = Budget::new(&Config::default());
            b.trip = Some((1 + round as u64 % 7, 0));
            let all: Vec<u32> = (0..p.sets.len() as u32).collect();
            let f = min_cover_maxsat(&p, all, 0, &mut b).unwrap();
            assert!(is_cover(&p, &f.chosen));
            assert!(f.bound <= exact && exact <= f.chosen.len());
            assert_eq!(f.exact, f.bound == f.chosen.len());
            cut += usize::from(!f.exact);
        }
        assert!(cut > 30, "{cut}");
    }
}
