//! The library starts no thread of its own: in a rayon pool of one thread, kernels (by the
//! SAT solver, and by the solver beside the search), counts, α and β (with its linear
//! program) run on that thread alone, and give the answers they give on 2 and 3 threads.
//!
//! The only test of its own binary, so that no other test starts threads meanwhile: a
//! watcher lists `/proc/self/task` every millisecond while the library runs, and every
//! thread it sees must have been there before.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gamegraph_graph::Graph;
use gamegraph_kernel::{Config, KernelError, alpha, beta, count_kernels, find_kernel};
use gamegraph_testkit::{SplitMix64, graph};

/// n vertices, each ordered pair an arc with probability d / (n - 1): out-degree d on
/// average.
fn out_degree(n: u64, d: u64, seed: u64) -> Graph {
    let mut rng = SplitMix64::new(seed);
    let mut arcs = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v && rng.below(n - 1) < d {
                arcs.push((u as usize, v as usize));
            }
        }
    }
    graph(n as usize, &arcs)
}

/// G(n, p/1000) with one arc per edge, in a random direction.
fn one_arc_per_edge(n: usize, per_mille: u64, seed: u64) -> Graph {
    let mut rng = SplitMix64::new(seed);
    let mut arcs = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(1000) < per_mille {
                arcs.push(if rng.below(2) == 0 { (u, v) } else { (v, u) });
            }
        }
    }
    graph(n, &arcs)
}

/// The threads of this process, by id.
fn tasks() -> BTreeSet<String> {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect()
}

/// What the instances give: the kernels found, the counts, α and β with their sets, and
/// whether β under a deadline (where its linear program runs) stopped at it.
#[derive(Debug, PartialEq, Eq)]
struct Answers {
    kernels: Vec<Option<Vec<u64>>>,
    counts: Vec<u128>,
    alpha: (usize, Vec<u64>),
    beta: (usize, Vec<u64>),
    beta_deadline: bool,
}

/// Runs every instance on the current thread's rayon pool.
fn answers(instances: &Instances) -> Answers {
    let cfg = Config::default();
    let kernels = instances
        .kernel
        .iter()
        .map(|g| find_kernel(g, &cfg).unwrap().kernel.map(|k| k.into_vec()))
        .collect();
    let counts = instances.count.iter().map(|g| count_kernels(g, &cfg).unwrap().count).collect();
    let a = alpha(&instances.alpha, &cfg).unwrap();
    let b = beta(&instances.beta, &cfg).unwrap();
    let limited = Config::with_deadline(Instant::now() + Duration::from_secs(3));
    let beta_deadline = match beta(&instances.lp, &limited) {
        Err(KernelError::BetaLimit { .. }) => true,
        Ok(_) => false,
        Err(e) => panic!("{e:?}"),
    };
    Answers {
        kernels,
        counts,
        alpha: (a.size, a.set.into_vec()),
        beta: (b.size, b.set.into_vec()),
        beta_deadline,
    }
}

struct Instances {
    /// Parts of 150 to 300 vertices: out-degree 4 and 5 go to the SAT solver alone (its
    /// seeds race on several threads), 7 to the solver beside the search.
    kernel: Vec<Graph>,
    /// Parts the count asks the SAT solver about (beside its trial search on several
    /// threads).
    count: Vec<Graph>,
    alpha: Graph,
    beta: Graph,
    /// 600 vertices of out-degree 3: β's search runs its linear program before 3 s.
    lp: Graph,
}

#[test]
fn the_library_runs_on_the_one_thread_of_its_pool_and_answers_as_on_more() {
    let instances = Instances {
        kernel: vec![out_degree(300, 5, 5), out_degree(200, 4, 7), out_degree(200, 7, 3)],
        count: vec![out_degree(300, 5, 5), out_degree(250, 6, 8)],
        alpha: one_arc_per_edge(150, 100, 11),
        beta: out_degree(320, 3, 32),
        lp: out_degree(600, 3, 21),
    };
    let pools: Vec<rayon::ThreadPool> =
        (1..=3).map(|t| rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap()).collect();
    // The pool's thread exists now; the watcher's is started before the list is taken.
    let running = AtomicBool::new(true);
    let (before, seen, one) = std::thread::scope(|sc| {
        let watcher = sc.spawn(|| {
            let mut seen = BTreeSet::new();
            while running.load(Ordering::Relaxed) {
                seen.extend(tasks());
                std::thread::sleep(Duration::from_millis(1));
            }
            seen
        });
        std::thread::sleep(Duration::from_millis(20));
        let before = tasks();
        let one = pools[0].install(|| answers(&instances));
        running.store(false, Ordering::Relaxed);
        (before, watcher.join().unwrap(), one)
    });
    let new: Vec<&String> = seen.difference(&before).collect();
    assert!(new.is_empty(), "threads started during the calls: {new:?}");
    assert!(one.beta_deadline, "β finished before its deadline: the instance is too easy");
    for (t, pool) in pools.iter().enumerate().skip(1) {
        assert_eq!(pool.install(|| answers(&instances)), one, "{} threads", t + 1);
    }
}
