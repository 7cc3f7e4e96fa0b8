//! `gamegraph kernel --proof` and `--cnf`, and `gamegraph verify kernel --none`: proofs of
//! "no kernel" accepted on odd cycles and random digraphs, broken proofs refused with the
//! line at fault, malformed files refused as input errors.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use gamegraph_graph::Graph;
use gamegraph_kernel::{Config, DratProof, KernelAnswer, check_no_kernel, find_kernel};
use gamegraph_testkit::{SplitMix64, random_graph};
use support::TempDir;

fn run(dir: &Path, args: &[&str]) -> Output {
    support::gamegraph(dir, args, None)
}

fn stdout(o: &Output) -> String {
    support::text(&o.stdout)
}

fn stderr(o: &Output) -> String {
    support::text(&o.stderr)
}

/// The graph in the header format.
fn graph_text(n: usize, arcs: &[(usize, usize)]) -> String {
    let mut s = format!("{n} {}\n1\n", arcs.len());
    for (u, v) in arcs {
        s.push_str(&format!("{} {}\n", u + 1, v + 1));
    }
    s
}

fn cycle(k: usize) -> Vec<(usize, usize)> {
    (0..k).map(|i| (i, (i + 1) % k)).collect()
}

/// `kernel FILE --proof P`: the answer's stdout and the proof, `None` when not written.
fn prove(dir: &Path, graph: &Path, tag: &str) -> (String, Option<String>) {
    let proof = dir.join(format!("{tag}.drat"));
    let o = run(dir, &["kernel", graph.to_str().unwrap(), "--proof", proof.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    (stdout(&o), std::fs::read_to_string(&proof).ok())
}

/// `verify kernel GRAPH --none PROOF` with the proof text written to a file.
fn verify(dir: &Path, graph: &Path, proof: &str, extra: &[&str]) -> Output {
    let p = dir.join("check.drat");
    std::fs::write(&p, proof).unwrap();
    let args =
        [&["verify", "kernel", graph.to_str().unwrap(), "--none", p.to_str().unwrap()], extra];
    run(dir, &args.concat())
}

#[test]
fn odd_cycles_have_proofs_that_verify_accepts() {
    let dir = TempDir::new("odd");
    for k in (3..=21).step_by(2) {
        let g = dir.file(&format!("c{k}.txt"), &graph_text(k, &cycle(k)));
        let (answer, proof) = prove(&dir, &g, &format!("c{k}"));
        assert_eq!(answer, "none\n");
        let proof = proof.expect("a proof is written for `none`");
        assert!(proof.ends_with("0\n") && proof.lines().last() == Some("0"), "{proof}");
        let o = verify(&dir, &g, &proof, &[]);
        assert_eq!(o.status.code(), Some(0), "C{k}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).starts_with("ok: "), "{}", stdout(&o));
    }
}

/// Random digraphs of 100 to 2000 vertices without kernel, of the sizes each way of
/// deciding takes: the search (below 128 vertices), the solver and the search side by side
/// (6 to 9 arcs per vertex), the solver alone (fewer). Those taken are the first of each
/// size that the library decides within a few thousand nodes to have no kernel (a node
/// limit, so the same ones on every machine).
#[test]
fn random_digraphs_without_kernel_have_proofs_that_verify_accepts() {
    let dir = TempDir::new("random");
    let mut rng = SplitMix64::new(2026);
    let quick = Config { max_nodes: Some(5000), ..Config::default() };
    let mut found = 0;
    for &(n, per) in &[(100, 4), (120, 5), (300, 7), (1000, 4), (2000, 3), (2000, 4)] {
        for attempt in 0..20 {
            let g = random_graph(&mut rng, n, n * per, false);
            if !matches!(find_kernel(&g, &quick), Ok(KernelAnswer { kernel: None, .. })) {
                continue;
            }
            let text = graph_text(n, &arcs(&g));
            let file = dir.file(&format!("r{n}-{per}-{attempt}.txt"), &text);
            let (answer, proof) = prove(&dir, &file, &format!("r{n}-{per}-{attempt}"));
            assert_eq!(answer, "none\n");
            let proof = proof.expect("a proof is written for `none`");
            let o = verify(&dir, &file, &proof, &["--json"]);
            assert_eq!(o.status.code(), Some(0), "{n} x {per}: {}{}", stdout(&o), stderr(&o));
            assert!(stdout(&o).contains("\"ok\": true"), "{}", stdout(&o));
            found += 1;
            break;
        }
    }
    assert!(found >= 5, "only {found} sizes gave a digraph without kernel");
}

fn arcs(g: &Graph) -> Vec<(usize, usize)> {
    g.arcs().map(|(u, v)| (u.index(), v.index())).collect()
}

/// The lines of a proof with line `i` (0-based) changed by `f` (removed when it gives
/// `None`).
fn edit(proof: &str, i: usize, f: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    for (k, line) in proof.lines().enumerate() {
        let line = if k == i { f(line) } else { Some(line.to_owned()) };
        if let Some(l) = line {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// Broken proofs of a 300-vertex digraph without kernel: the refusals name the line at
/// fault and exit 1; a malformed file exits 2 with its line and column.
#[test]
fn broken_proofs_are_refused() {
    let dir = TempDir::new("broken");
    let mut rng = SplitMix64::new(99);
    let (g, file, proof) = loop {
        let g = random_graph(&mut rng, 300, 1200, false);
        let file = dir.file("g.txt", &graph_text(300, &arcs(&g)));
        if let (_, Some(proof)) = prove(&dir, &file, "g") {
            break (g, file, proof);
        }
    };
    let lines = proof.lines().count();
    assert!(lines > 3, "{proof}");
    let refused_by_library =
        |text: &str| check_no_kernel(&g, &DratProof::parse(text.as_bytes()).unwrap()).err();
    // Without the final empty clause.
    let o = verify(&dir, &file, &edit(&proof, lines - 1, |_| None), &[]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "wrong: the proof ends without the empty clause (rule empty-clause)\n");
    // A lemma dropped, a literal negated: the first whose loss the checker notices.
    let dropped = (0..lines - 1)
        .map(|i| edit(&proof, i, |_| None))
        .find(|t| refused_by_library(t).is_some())
        .expect("some lemma is needed");
    let o = verify(&dir, &file, &dropped, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("is not RUP nor RAT") && stdout(&o).starts_with("wrong: line "));
    let negate = |l: &str| {
        let mut w: Vec<String> = l.split(' ').map(str::to_owned).collect();
        w[0] = (-w[0].parse::<i64>().unwrap()).to_string();
        Some(w.join(" "))
    };
    let negated = (0..lines - 1)
        .filter(|&i| !proof.lines().nth(i).unwrap().starts_with('d'))
        .map(|i| edit(&proof, i, negate))
        .find(|t| refused_by_library(t).is_some())
        .expect("some negated lemma is not implied");
    let o = verify(&dir, &file, &negated, &["--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("\"rule\": \"rup-rat\""), "{}", stdout(&o));
    // A variable above the 300 of the graph, not as a first literal.
    let big = edit(&proof, 0, |l| Some(l.replacen(" 0", " 301 0", 1)));
    let o = verify(&dir, &file, &big, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("variable 301"), "{}", stdout(&o));
    // Malformed: exit 2, with line and column.
    let o = verify(&dir, &file, "1 2 0\n3 x 0\n", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("check.drat:2:3: "), "{}", stderr(&o));
    let o = verify(&dir, &file, "-1 2", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no terminating 0"), "{}", stderr(&o));
}

/// A proof for one graph is refused on another that has a kernel: the 5-cycle with a new
/// vertex 6 and the arc 1 -> 6 has the kernel {3, 5, 6}.
#[test]
fn a_proof_is_refused_on_a_graph_with_a_kernel() {
    let dir = TempDir::new("other");
    let c5 = dir.file("c5.txt", &graph_text(5, &cycle(5)));
    let (_, proof) = prove(&dir, &c5, "c5");
    let proof = proof.unwrap();
    let mut arcs = cycle(5);
    arcs.push((0, 5));
    let more = dir.file("more.txt", &graph_text(6, &arcs));
    let o = run(&dir, &["kernel", more.to_str().unwrap()]);
    assert_eq!(stdout(&o), "3 5 6\n");
    let o = verify(&dir, &more, &proof, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("wrong: "), "{}", stdout(&o));
}

/// With a kernel, --proof changes nothing and writes no file; --cnf writes the DIMACS
/// conditions whatever the answer.
#[test]
fn kernel_answers_are_unchanged_and_the_cnf_is_written() {
    let dir = TempDir::new("same");
    let mut rng = SplitMix64::new(5);
    for round in 0..8 {
        let g = random_graph(&mut rng, 40, 80, false);
        let file = dir.file(&format!("g{round}.txt"), &graph_text(40, &arcs(&g)));
        let plain = run(&dir, &["kernel", file.to_str().unwrap(), "--explain"]);
        let proof: PathBuf = dir.join(format!("g{round}.drat"));
        let with = run(
            &dir,
            &["kernel", file.to_str().unwrap(), "--explain", "--proof", proof.to_str().unwrap()],
        );
        assert_eq!(stdout(&with), stdout(&plain));
        assert_eq!(proof.exists(), stdout(&plain).starts_with("none"));
    }
    let c3 = dir.file("c3.txt", &graph_text(3, &[(0, 1), (1, 2), (2, 0), (0, 0)]));
    let cnf = dir.join("c3.cnf");
    let o = run(&dir, &["kernel", c3.to_str().unwrap(), "--cnf", cnf.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(&cnf).unwrap(),
        "p cnf 3 7\n-1 -2 0\n-1 0\n1 2 0\n-2 -3 0\n2 3 0\n-3 -1 0\n3 1 0\n"
    );
}

#[test]
fn set_and_none_are_exclusive_and_proof_only_finds() {
    let dir = TempDir::new("usage");
    let c5 = dir.file("c5.txt", &graph_text(5, &cycle(5)));
    let c5 = c5.to_str().unwrap();
    let o = run(&dir, &["verify", "kernel", c5, "1 3", "--none", "p.drat"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&dir, &["verify", "kernel", c5]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&dir, &["verify", "kernel", c5, "--none", "p.drat", "--alpha", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&dir, &["kernel", c5, "--count", "--proof", "p.drat"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&dir, &["kernel", c5, "--proof", c5]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
