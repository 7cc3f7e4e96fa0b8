//! The SAT solver against exhaustive search on random small formulas, on pigeonhole and
//! random 3-SAT formulas, and under a node limit and a stop flag.

use super::*;
use crate::Config;
use crate::KernelError;
use crate::config::Budget;
use gamegraph_graph::Limit;
use gamegraph_testkit::SplitMix64;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::sync::atomic::AtomicBool;

pub(super) fn random_cnf(rng: &mut SplitMix64, n: usize, m: usize, k: usize) -> Vec<Vec<Lit>> {
    (0..m)
        .map(|_| {
            let len = 1 + rng.below(k as u64) as usize;
            (0..len).map(|_| Lit::new(Var(rng.below(n as u64) as u32), rng.below(2) == 1)).collect()
        })
        .collect()
}

pub(super) fn satisfies(cnf: &[Vec<Lit>], model: &[bool]) -> bool {
    cnf.iter().all(|c| c.iter().any(|&l| model[l.var().index()] != l.is_neg()))
}

pub(super) fn brute(cnf: &[Vec<Lit>], n: usize) -> bool {
    (0..1u32 << n).any(|m| {
        let model: Vec<bool> = (0..n).map(|v| m >> v & 1 == 1).collect();
        satisfies(cnf, &model)
    })
}

fn solve(cnf: &[Vec<Lit>], n: usize, opts: Options) -> Option<Vec<bool>> {
    let mut s = Solver::new(n, opts);
    for c in cnf {
        s.add_clause(c);
    }
    let mut b = Budget::new(&Config::default());
    s.solve(&mut b, None).unwrap().then(|| (0..n as u32).map(|v| s.model_value(Var(v))).collect())
}

#[test]
fn agrees_with_brute_force_on_random_small_cnfs() {
    let mut rng = SplitMix64::new(99);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..3000 {
        let n = 1 + round % 12;
        let m = rng.below(6 * n as u64 + 2) as usize;
        let cnf = random_cnf(&mut rng, n, m, 4);
        let truth = brute(&cnf, n);
        let opts = Options {
            seed: round as u64 % 3,
            initial_phase: round % 2 == 0,
            random_every: if round % 5 == 0 { 3 } else { 0 },
            glucose: round % 4 < 2,
        };
        match solve(&cnf, n, opts) {
            Some(model) => {
                assert!(truth, "model found for an unsatisfiable formula");
                assert!(satisfies(&cnf, &model), "the model breaks a clause");
                sat += 1;
            }
            None => {
                assert!(!truth, "satisfiable formula declared unsatisfiable: {cnf:?}");
                unsat += 1;
            }
        }
    }
    assert!(sat > 500 && unsat > 500, "{sat} satisfiable, {unsat} not");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Random CNFs of up to 10 variables and clauses of 1 to 4 literals: a model is
    /// returned exactly when one exists, and it satisfies every clause.
    #[test]
    fn agrees_with_brute_force_on_random_cnfs(
        n in 1usize..=10,
        raw in prop::collection::vec(prop::collection::vec((0u32..10, any::<bool>()), 1..=4), 0..=48),
        seed in 0u64..4,
        initial_phase: bool,
        random_every in 0u64..4,
    ) {
        let cnf: Vec<Vec<Lit>> = raw
            .iter()
            .map(|c| c.iter().map(|&(v, negated)| Lit::new(Var(v % n as u32), negated)).collect())
            .collect();
        let truth = brute(&cnf, n);
        match solve(&cnf, n, Options { seed, initial_phase, random_every, glucose: initial_phase }) {
            Some(model) => {
                prop_assert!(truth, "model found for an unsatisfiable formula");
                prop_assert!(satisfies(&cnf, &model), "the model breaks a clause");
            }
            None => prop_assert!(!truth, "satisfiable formula declared unsatisfiable"),
        }
    }
}

/// Pigeonhole formulas: n + 1 pigeons into n holes is unsatisfiable, n into n is not;
/// these need many conflicts, so learning, restarts and deletion all run.
#[test]
fn pigeonhole_formulas_are_decided() {
    for holes in 2..=7usize {
        for pigeons in [holes, holes + 1] {
            let var = |p: usize, h: usize| Var((p * holes + h) as u32);
            let mut cnf: Vec<Vec<Lit>> =
                (0..pigeons).map(|p| (0..holes).map(|h| Lit::pos(var(p, h))).collect()).collect();
            for h in 0..holes {
                for p in 0..pigeons {
                    for q in p + 1..pigeons {
                        cnf.push(vec![Lit::neg(var(p, h)), Lit::neg(var(q, h))]);
                    }
                }
            }
            let got = solve(&cnf, pigeons * holes, Options::default());
            assert_eq!(got.is_some(), pigeons == holes);
            if let Some(m) = got {
                assert!(satisfies(&cnf, &m));
            }
        }
    }
}

/// Random 3-SAT near the threshold, with 60 variables: the unsatisfiable answers are
/// cross-checked by a second solver with another seed and phase.
#[test]
fn random_three_sat_answers_agree_across_seeds() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..40 {
        let n = 60;
        let cnf: Vec<Vec<Lit>> = (0..256)
            .map(|_| {
                (0..3)
                    .map(|_| Lit::new(Var(rng.below(n as u64) as u32), rng.below(2) == 1))
                    .collect()
            })
            .collect();
        let a = solve(&cnf, n, Options::default());
        let b = solve(
            &cnf,
            n,
            Options { seed: 7, initial_phase: true, random_every: 50, glucose: true },
        );
        assert_eq!(a.is_some(), b.is_some());
        for m in a.iter().chain(b.iter()) {
            assert!(satisfies(&cnf, m));
        }
    }
}

#[test]
fn the_budget_and_the_stop_flag_end_a_solve() {
    let holes = 9;
    let pigeons = 10;
    let var = |p: usize, h: usize| Var((p * holes + h) as u32);
    let mut s = Solver::new(pigeons * holes, Options::default());
    for p in 0..pigeons {
        s.add_clause(&(0..holes).map(|h| Lit::pos(var(p, h))).collect::<Vec<_>>());
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                s.add_clause(&[Lit::neg(var(p, h)), Lit::neg(var(q, h))]);
            }
        }
    }
    let cfg = Config { max_nodes: Some(100), ..Config::default() };
    let mut b = Budget::new(&cfg);
    let limit = Limit::Budget { what: gamegraph_graph::Budget::Nodes, limit: 100, needed: None };
    assert_eq!(s.solve(&mut b, None), Err(KernelError::Limit { limit, nodes: 100 }));
    let stop = AtomicBool::new(true);
    let mut b = Budget::new(&Config::default());
    assert!(matches!(
        s.solve(&mut b, Some(&stop)),
        Err(KernelError::Limit { limit: Limit::Stop, .. })
    ));
    assert_eq!(s.num_vars(), 90);
}

#[test]
fn solves_under_assumptions_incrementally_as_brute_force_does() {
    let mut rng = SplitMix64::new(7);
    let (mut sat, mut unsat, mut cores) = (0, 0, 0);
    for round in 0..600 {
        let mut n = 2 + round % 8;
        let m = rng.below(3 * n as u64) as usize;
        let mut cnf = random_cnf(&mut rng, n, m, 3);
        let mut s = Solver::new(n, Options { seed: round as u64 % 3, ..Options::default() });
        for c in &cnf {
            s.add_clause(c);
        }
        // A run of solves, each under new assumptions, with a variable and clauses added
        // between them; the learnt clauses carry over.
        for step in 0..6 {
            if step > 0 {
                let v = s.new_var();
                assert_eq!(v.index(), n);
                n += 1;
                for c in random_cnf(&mut rng, n, 2, 3) {
                    s.add_clause(&c);
                    cnf.push(c);
                }
            }
            let k = rng.below(n as u64 + 1) as usize;
            let assumptions: Vec<Lit> = (0..k)
                .map(|_| Lit::new(Var(rng.below(n as u64) as u32), rng.below(2) == 1))
                .collect();
            let with = |set: &[Lit]| {
                let mut f = cnf.clone();
                f.extend(set.iter().map(|&l| vec![l]));
                f
            };
            let truth = brute(&with(&assumptions), n);
            let mut b = Budget::new(&Config::default());
            if s.solve_under(&assumptions, &mut b, None).unwrap() {
                assert!(truth, "model found under contradictory assumptions");
                let model: Vec<bool> = (0..n as u32).map(|v| s.model_value(Var(v))).collect();
                assert!(satisfies(&with(&assumptions), &model));
                sat += 1;
            } else {
                assert!(!truth, "no model found where one exists");
                let core = s.core().to_vec();
                assert!(core.iter().all(|l| assumptions.contains(l)), "core outside assumptions");
                assert!(!brute(&with(&core), n), "the core is not contradictory");
                cores += usize::from(!core.is_empty());
                unsat += 1;
            }
        }
    }
    assert!(sat > 500 && unsat > 500 && cores > 300, "{sat} {unsat} {cores}");
}
