//! The checker against a plain one (unit propagation by scanning every clause until
//! nothing changes, no watches) on proofs of random digraphs and on their mutations, and
//! the CNF against all subsets.

use gamegraph_graph::Graph;
use gamegraph_testkit::{SplitMix64, random_dense_graph};

use super::{DratProof, DratStep, ProofRefused, check_drat, kernel_cnf};
use crate::{Config, find_kernel_with_proof};

/// The value of DIMACS literal `l` under `a` (indexed by variable): `None` when unassigned.
fn value(a: &[Option<bool>], l: i32) -> Option<bool> {
    a[l.unsigned_abs() as usize].map(|x| x == (l > 0))
}

/// Unit propagation of `clauses` from `a` by scanning; true on a conflict.
fn plain_up(clauses: &[Vec<i32>], a: &mut [Option<bool>]) -> bool {
    loop {
        let mut changed = false;
        for c in clauses {
            if c.iter().any(|&l| value(a, l) == Some(true)) {
                continue;
            }
            let open: Vec<i32> = c.iter().copied().filter(|&l| value(a, l).is_none()).collect();
            match open.as_slice() {
                [] => return true,
                [l] => {
                    a[l.unsigned_abs() as usize] = Some(*l > 0);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return false;
        }
    }
}

fn plain_rup(clauses: &[Vec<i32>], vars: usize, lemma: &[i32]) -> bool {
    let mut a = vec![None; vars + 1];
    for &l in lemma {
        match value(&a, l) {
            Some(true) => return true,
            Some(false) => {}
            None => a[l.unsigned_abs() as usize] = Some(l < 0),
        }
    }
    plain_up(clauses, &mut a)
}

/// The plain checker: the same rules as [`check_drat`] (deleting a unit is ignored; a
/// variable above the formula's must first appear as a lemma's first literal).
fn plain_check(vars: usize, cnf: &[Vec<i32>], proof: &DratProof) -> Result<(), ProofRefused> {
    let mut clauses: Vec<Vec<i32>> = cnf.to_vec();
    let mut known = vars;
    let mut a = vec![None; known + 1];
    if plain_up(&clauses, &mut a) {
        return Ok(());
    }
    let norm = |c: &[i32]| {
        let mut c = c.to_vec();
        c.sort_unstable();
        c.dedup();
        c
    };
    let mut aux: Vec<u32> = Vec::new();
    for (i, s) in proof.steps.iter().enumerate() {
        let line = proof.line_of(i);
        if s.delete {
            let key = norm(&s.lits);
            if key.len() > 1
                && let Some(at) = clauses.iter().rposition(|c| norm(c) == key)
            {
                clauses.remove(at);
            }
            continue;
        }
        for (k, &l) in s.lits.iter().enumerate() {
            let v = l.unsigned_abs();
            if v as usize > vars && !aux.contains(&v) {
                if k > 0 {
                    return Err(ProofRefused::UnknownVariable { line, var: v, vars });
                }
                aux.push(v);
            }
        }
        known = known.max(s.lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0));
        let all = known;
        let rup = |clauses: &[Vec<i32>], lemma: &[i32]| plain_rup(clauses, all, lemma);
        let ok = rup(&clauses, &s.lits)
            || s.lits.first().is_some_and(|&p| {
                clauses.iter().filter(|c| c.contains(&-p)).all(|c| {
                    let mut r = s.lits.clone();
                    r.extend(c.iter().filter(|&&l| l != -p));
                    r.iter().any(|&l| r.contains(&-l)) || rup(&clauses, &r)
                })
            });
        if !ok {
            return Err(ProofRefused::NotImplied { line });
        }
        if s.lits.is_empty() {
            return Ok(());
        }
        clauses.push(s.lits.clone());
    }
    Err(ProofRefused::NoEmptyClause)
}

fn has_kernel_brute(g: &Graph) -> bool {
    let cnf = kernel_cnf(g);
    let n = g.num_vertices();
    (0..1u32 << n).any(|m| {
        cnf.iter().all(|c| c.iter().any(|&l| (m >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0)))
    })
}

/// The models of the CNF are the kernels: all subsets agree with `find_kernel`.
#[test]
fn the_cnf_has_a_model_exactly_when_there_is_a_kernel() {
    let mut rng = SplitMix64::new(12);
    for round in 0..500 {
        let g = random_dense_graph(&mut rng, 1 + round % 12, [100, 250, 400][round % 3]);
        let a = find_kernel_with_proof(&g, &Config::default()).unwrap();
        assert_eq!(a.answer.kernel.is_some(), has_kernel_brute(&g), "round {round}");
    }
}

/// Mutations of a proof: the last step dropped, each lemma dropped, a literal of each
/// lemma negated, a literal replaced by a variable above the formula's, a stray lemma.
fn mutations(p: &DratProof, vars: usize) -> Vec<DratProof> {
    let mut out = Vec::new();
    let with = |steps: Vec<DratStep>| DratProof { steps, lines: Vec::new() };
    out.push(with(p.steps[..p.steps.len() - 1].to_vec()));
    for i in 0..p.steps.len() {
        let mut s = p.steps.clone();
        s.remove(i);
        out.push(with(s));
        if !p.steps[i].lits.is_empty() {
            for k in 0..p.steps[i].lits.len() {
                let mut s = p.steps.clone();
                s[i].lits[k] = -s[i].lits[k];
                out.push(with(s.clone()));
                s[i].lits[k] = vars as i32 + 1;
                out.push(with(s));
            }
        }
    }
    let mut s = p.steps.clone();
    s.insert(0, DratStep { delete: false, lits: vec![1] });
    out.push(with(s));
    out
}

/// The checker and the plain one agree on every proof found and on each of its
/// mutations: both accept, or both refuse at the same line for the same reason.
#[test]
fn the_checker_agrees_with_a_plain_one_on_proofs_and_their_mutations() {
    let mut rng = SplitMix64::new(31);
    let (mut proofs, mut refused, mut accepted) = (0, 0, 0);
    for round in 0..500 {
        let n = 3 + round % 12;
        let g = random_dense_graph(&mut rng, n, [150, 250, 350][round % 3]);
        let Some(p) = find_kernel_with_proof(&g, &Config::default()).unwrap().proof else {
            continue;
        };
        proofs += 1;
        let cnf = kernel_cnf(&g);
        assert_eq!(check_drat(n, &cnf, &p).map(|_| ()), Ok(()), "round {round}");
        assert_eq!(plain_check(n, &cnf, &p), Ok(()), "round {round}");
        for m in mutations(&p, n) {
            let fast = check_drat(n, &cnf, &m).map(|_| ());
            assert_eq!(fast, plain_check(n, &cnf, &m), "round {round}: {m:?}");
            if fast.is_ok() {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
    }
    assert!(proofs > 100 && refused > 100 && accepted > 100, "{proofs} {refused} {accepted}");
}

/// RAT lemmas: a fresh variable introduced as a unit, a lemma whose resolvents are all
/// tautologies, one that is not RAT, and a fresh variable used before it is introduced.
#[test]
fn rat_lemmas_and_fresh_variables() {
    let cnf = vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]];
    let step = |lits: &[i32]| DratStep { delete: false, lits: lits.to_vec() };
    let p = DratProof {
        steps: vec![step(&[3]), step(&[-3, 1]), step(&[1]), step(&[])],
        lines: Vec::new(),
    };
    let checked = check_drat(2, &cnf, &p).unwrap();
    assert_eq!((checked.rat, checked.lemmas), (1, 4));
    assert_eq!(plain_check(2, &cnf, &p), Ok(()));
    // The variable used before it is introduced.
    let p = DratProof { steps: vec![step(&[-1, 3]), step(&[1]), step(&[])], lines: Vec::new() };
    let refused = check_drat(2, &cnf, &p).unwrap_err();
    assert_eq!(refused, ProofRefused::UnknownVariable { line: 1, var: 3, vars: 2 });
    assert_eq!(plain_check(2, &cnf, &p), Err(refused));
    // On (1 ∨ 2) alone: ¬1 ∨ ¬2 is RAT on ¬1 (its one resolvent is a tautology), ¬1 is not.
    let sat = vec![vec![1, 2]];
    let p = DratProof { steps: vec![step(&[-1, -2]), step(&[-1])], lines: Vec::new() };
    let refused = check_drat(2, &sat, &p).unwrap_err();
    assert_eq!(refused, ProofRefused::NotImplied { line: 2 });
    assert_eq!(plain_check(2, &sat, &p), Err(refused));
}

/// Deletions: of a clause of the formula (then it no longer helps), of a unit (ignored),
/// of a clause that is not there (ignored).
#[test]
fn deletions_remove_one_copy() {
    let cnf = vec![vec![1, 2], vec![1, 2], vec![-1], vec![-2, 3], vec![-3, -2]];
    let step = |delete: bool, lits: &[i32]| DratStep { delete, lits: lits.to_vec() };
    // Unit propagation of the formula already conflicts: accepted with no lemma.
    assert_eq!(check_drat(3, &cnf, &DratProof::default()).unwrap().lemmas, 0);
    let cnf = vec![vec![1, 2], vec![1, 2], vec![-1, 3], vec![-1, -3], vec![-2, 3], vec![-2, -3]];
    let ok = DratProof {
        steps: vec![step(true, &[2, 1]), step(false, &[-1]), step(false, &[])],
        lines: Vec::new(),
    };
    let c = check_drat(3, &cnf, &ok).unwrap();
    assert_eq!((c.deletions, c.lemmas), (1, 2));
    let gone = DratProof {
        steps: vec![
            step(true, &[1, 2]),
            step(true, &[1, 2]),
            step(true, &[9, 9]),
            step(false, &[-1]),
            step(false, &[]),
        ],
        lines: Vec::new(),
    };
    let refused = check_drat(3, &cnf, &gone).unwrap_err();
    assert_eq!(refused, ProofRefused::NotImplied { line: 5 });
    assert_eq!(plain_check(3, &cnf, &gone), Err(ProofRefused::NotImplied { line: 5 }));
}
