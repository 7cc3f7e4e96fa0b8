//! Whole clusters run as threads of the test process, against the sequential solver.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use gamegraph_graph::Vertex;
use gamegraph_retro::Solution;

use crate::{Answer, Cluster, ClusterError, Gathered, Input, Job, Query, Report, dist_solve};
use gamegraph_graph::Graph;
use gamegraph_graph::format::binary::{BinaryParts, BlockChecksum};
use gamegraph_graph::format::{self, Format, ReadOptions, write_binary};
use gamegraph_testkit::{SplitMix64, random_graph};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use crate::handshake::{self, DATA, Hello, PROTOCOL};
use crate::input::Role;
use crate::wire::Reads;
use gamegraph_graph::Located;

/// Free loopback ports, chosen now.
fn ports(k: usize) -> Vec<String> {
    let listeners: Vec<TcpListener> =
        (0..k).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    listeners.iter().map(|l| l.local_addr().unwrap().to_string()).collect()
}

/// A binary file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn with(bytes: &[u8]) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let k = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("gamegraph-cluster-{}-{k}.bin", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn input(&self) -> Input {
        let file = std::fs::File::open(&self.0).unwrap();
        Input::Binary(Arc::new(BinaryParts::open(file).unwrap()))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn binary(g: &Graph) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_binary(&mut bytes, g, None).unwrap();
    bytes
}

/// Runs every process of a cluster as a thread here, process `p` on `inputs(p)`.
fn run_with(
    processes: usize,
    workers: usize,
    query: Query,
    inputs: impl Fn(usize) -> Input,
) -> Vec<Result<Report, ClusterError>> {
    run_each(processes, |p| (inputs(p), query, workers))
}

/// Runs every process of a cluster as a thread here, process `p` with `each(p)`: its
/// input, its query and its workers.
fn run_each(
    processes: usize,
    each: impl Fn(usize) -> (Input, Query, usize),
) -> Vec<Result<Report, ClusterError>> {
    let addresses = ports(processes);
    let handles: Vec<_> = (0..processes)
        .map(|process| {
            let (input, query, workers) = each(process);
            let cluster = Cluster {
                connect_timeout: Duration::from_secs(20),
                ..Cluster::new(addresses.clone(), process, workers)
            };
            std::thread::spawn(move || dist_solve(input, query, &cluster))
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// How the processes of a run get the graph.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Graph,
    Binary,
    Slow,
}

fn run(
    g: &Arc<Graph>,
    processes: usize,
    workers: usize,
    query: Query,
    mode: Mode,
) -> (Gathered, u32) {
    let file = TempFile::with(&binary(g));
    let reports = run_with(processes, workers, query, |p| match mode {
        Mode::Graph => Input::Graph(Arc::clone(g)),
        Mode::Binary => file.input(),
        Mode::Slow if p == 0 => Input::ReadByProcess0(Some(Ok(Arc::clone(g)))),
        Mode::Slow => Input::ReadByProcess0(None),
    });
    let reports: Vec<Report> = reports.into_iter().map(Result::unwrap).collect();
    assert!(reports[1..].iter().all(|r| r.gathered.is_none()));
    assert!(reports.iter().all(|r| r.rounds == reports[0].rounds));
    if processes > 1 {
        assert!(reports.iter().all(|r| r.bytes_sent > 0));
    }
    (reports[0].gathered.clone().unwrap(), reports[0].rounds)
}

#[test]
fn equals_the_sequential_solver_on_random_graphs() {
    let mut rng = SplitMix64::new(7);
    let modes = [Mode::Graph, Mode::Binary, Mode::Slow];
    let mut k = 0;
    for (case, &(processes, workers)) in
        [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (1, 3)].iter().enumerate()
    {
        // Timely connects processes with one-second retries: fewer runs on several.
        let sizes: &[(usize, usize)] = if processes == 1 {
            &[(0, 0), (1, 0), (1, 1), (5, 3), (30, 45), (200, 300), (300, 40), (50, 400)]
        } else {
            &[(1, 1), (30, 45), (200, 300), (300, 40)]
        };
        for &(n, m) in sizes {
            let g = Arc::new(random_graph(&mut rng, n, m, case % 2 == 1 && n > 1));
            let expected = gamegraph_retro::solve(&g);
            let mode = modes[k % 3];
            k += 1;
            let what = format!("{processes}x{workers} n={n} m={m} {mode:?}");
            let (got, rounds) = run(&g, processes, workers, Query::All, mode);
            assert_eq!(got, Gathered::All(expected.clone()), "{what}");
            let max_depth = (0..n).filter_map(|v| expected.depth(Vertex::from_index(v))).max();
            assert_eq!(rounds, max_depth.map_or(0, |d| d + 1), "{what}");
            if n > 0 {
                let s = Vertex::from_index(n / 2);
                let (got, _) = run(&g, processes, workers, Query::Start(s), modes[k % 3]);
                let want = Answer {
                    outcome: expected.outcome(s),
                    depth: expected.depth(s),
                    best_move: expected.best_move(s),
                };
                assert_eq!(got, Gathered::Start(want), "{what}");
            }
        }
    }
}

#[test]
fn the_shards_of_the_processes_make_the_solution() {
    let mut rng = SplitMix64::new(9);
    for &(processes, workers, n, m) in &[(1, 1, 40, 70), (2, 2, 301, 450), (3, 1, 2, 3)] {
        let g = Arc::new(random_graph(&mut rng, n, m, false));
        let expected = gamegraph_retro::solve(&g);
        let reports = run_with(processes, workers, Query::Shard, |_| Input::Graph(Arc::clone(&g)));
        let (mut outcomes, mut depths, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        for r in reports {
            let Some(Gathered::Shard(shard)) = r.unwrap().gathered else {
                panic!("every process gets its shard")
            };
            assert_eq!(shard.first.index(), outcomes.len());
            outcomes.extend(shard.outcomes);
            depths.extend(shard.depths);
            moves.extend(shard.moves);
        }
        let got = Solution::from_parts(outcomes, depths, moves).unwrap();
        assert_eq!(got, expected, "{processes}x{workers} n={n}");
    }
}

#[test]
fn a_bad_binary_file_fails_alike_everywhere() {
    let g = random_graph(&mut SplitMix64::new(3), 400, 900, false);
    let good = binary(&g);
    let targets_at = 40 + 8 * 401;
    // A target out of range in the last worker's part, resealed so that only the
    // structure is wrong; and a flipped bit that the checksum catches.
    let mut target = good.clone();
    let at = targets_at + 4 * 890;
    target[at..at + 4].copy_from_slice(&400u32.to_le_bytes());
    let body = target.len() - 8;
    let mut sum = BlockChecksum::new();
    sum.update(&target[..body]);
    target[body..].copy_from_slice(&sum.finish().to_le_bytes());
    let mut flipped = good.clone();
    flipped[100] ^= 2;
    for bytes in [target, flipped] {
        let binary = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
        let expected = format::read(&bytes[..], &binary).unwrap_err();
        let file = TempFile::with(&bytes);
        for r in run_with(2, 2, Query::All, |_| file.input()) {
            assert!(
                matches!(&r, Err(ClusterError::Read(e))
                    if e.to_string() == expected.to_string() && e.position() == expected.position()),
                "{r:?}"
            );
        }
    }
}

#[test]
fn processes_that_read_different_graphs_or_fail_to_read_stop_alike() {
    let mut rng = SplitMix64::new(5);
    let a = Arc::new(random_graph(&mut rng, 50, 80, false));
    let b = Arc::new(random_graph(&mut rng, 60, 80, false));
    let results = run_with(2, 1, Query::All, |p| {
        Input::Graph(if p == 0 { Arc::clone(&a) } else { Arc::clone(&b) })
    });
    for r in results {
        let e = r.unwrap_err();
        assert_eq!(
            e.to_string(),
            "the processes do not read the same graph: process 0 reads a graph of 50 vertices \
             and 80 arcs, process 1 reads a graph of 60 vertices and 80 arcs"
        );
    }
    let results = run_with(2, 1, Query::All, |p| {
        if p == 0 {
            Input::ReadByProcess0(Some(Ok(Arc::clone(&a))))
        } else {
            Input::Graph(Arc::clone(&a))
        }
    });
    assert!(results.iter().all(|r| matches!(r, Err(ClusterError::Mismatch { .. }))));
    let results = run_with(3, 1, Query::All, |p| {
        if p == 0 {
            Input::ReadByProcess0(Some(Err("g.txt:3:3: vertex 9 is outside 1..3".into())))
        } else {
            Input::ReadByProcess0(None)
        }
    });
    for r in &results {
        assert!(
            matches!(r, Err(ClusterError::Peer { process: 0, message })
                if message == "g.txt:3:3: vertex 9 is outside 1..3"),
            "{r:?}"
        );
    }
}

#[test]
fn bad_clusters_and_inputs_are_refused() {
    let g = Arc::new(random_graph(&mut SplitMix64::new(1), 3, 3, false));
    let input = || Input::Graph(Arc::clone(&g));
    let refused = |input: Input, query: Query, c: &Cluster| match Job::new(input, query, c) {
        Err(e) => e,
        Ok(job) => panic!("accepted {job:?}"),
    };
    let c = Cluster::new(ports(1), 1, 1);
    let e = refused(input(), Query::All, &c);
    assert!(matches!(e, ClusterError::ProcessOutside { process: 1, processes: 1 }));
    assert_eq!(e.to_string(), "process 1 is outside 0..0");
    let c = Cluster::new(ports(1), 0, 0);
    assert!(matches!(refused(input(), Query::All, &c), ClusterError::Workers { workers: 0 }));
    let c = Cluster::new(ports(1), 0, 1);
    let e = refused(input(), Query::Start(Vertex(3)), &c);
    assert_eq!(e.to_string(), "start vertex 4 is outside the graph");
    // The slow path: only process 0 reads, and alone it has nobody to tell its error.
    let c = Cluster::new(ports(2), 1, 1);
    let sent = Input::ReadByProcess0(Some(Ok(Arc::clone(&g))));
    assert!(matches!(refused(sent, Query::All, &c), ClusterError::NotProcess0 { process: 1 }));
    let c = Cluster::new(ports(2), 0, 1);
    let e = refused(Input::ReadByProcess0(None), Query::All, &c);
    assert!(matches!(e, ClusterError::NothingToSend));
    let c = Cluster::new(ports(1), 0, 1);
    let e = refused(Input::ReadByProcess0(Some(Err("bad".into()))), Query::All, &c);
    assert_eq!(e.to_string(), "process 0: bad");
}

#[test]
fn a_cluster_that_never_forms_times_out() {
    // Process 0 only listens: its connecting thread, left behind, never dials a port that
    // another test may be using.
    let g = Arc::new(random_graph(&mut SplitMix64::new(2), 3, 3, false));
    let mut c = Cluster::new(ports(2), 0, 1);
    c.connect_timeout = std::time::Duration::from_millis(300);
    let e = dist_solve(Input::Graph(g), Query::All, &c).unwrap_err();
    assert!(matches!(e, ClusterError::ConnectTimeout { .. }), "{e:?}");
}

/// Two graphs of 4 vertices and 4 arcs, one move from each vertex, to other targets.
fn same_shape() -> (Arc<Graph>, Arc<Graph>) {
    let arcs = |k: u32| -> Vec<(Vertex, Vertex)> {
        (0..4).map(|v| (Vertex(v), Vertex((v + k) % 4))).collect()
    };
    (
        Arc::new(Graph::from_arcs(4, &arcs(1)).unwrap()),
        Arc::new(Graph::from_arcs(4, &arcs(2)).unwrap()),
    )
}

#[test]
fn same_size_different_graphs_are_told_apart() {
    let (a, b) = same_shape();
    let pick = |p: usize| if p == 0 { Arc::clone(&a) } else { Arc::clone(&b) };
    for r in run_with(2, 1, Query::All, |p| Input::Graph(pick(p))) {
        assert!(matches!(r, Err(ClusterError::Differ { first: 0, second: 1, .. })), "{r:?}");
    }
    let (fa, fb) = (TempFile::with(&binary(&a)), TempFile::with(&binary(&b)));
    for workers in [1, 2] {
        let results =
            run_with(2, workers, Query::All, |p| if p == 0 { fa.input() } else { fb.input() });
        for r in results {
            assert_eq!(
                r.unwrap_err().to_string(),
                "the processes do not read the same graph: process 0 and process 1 each read a \
                 binary file of 4 vertices and 4 arcs, with different contents"
            );
        }
    }
}

#[test]
fn peers_with_other_workers_or_queries_are_refused() {
    let (g, _) = same_shape();
    let results = run_each(2, |p| (Input::Graph(Arc::clone(&g)), Query::All, p + 1));
    for (p, r) in results.into_iter().enumerate() {
        let e = r.unwrap_err();
        assert!(
            matches!(e, ClusterError::Disagree { process, what: crate::Disagreement::Workers { .. }, .. } if process == 1 - p),
            "{e:?}"
        );
    }
    let results = run_each(2, |p| {
        (Input::Graph(Arc::clone(&g)), if p == 0 { Query::Shard } else { Query::All }, 1)
    });
    for r in results {
        assert!(matches!(r, Err(ClusterError::Shards { process: 1, process_0: true })), "{r:?}");
    }
}

/// Process 0 of a cluster of two, on `g`, with a short liveness timeout, and the hello
/// of process 1 for the test to connect as it.
fn process_0_alone(
    g: &Arc<Graph>,
) -> (std::thread::JoinHandle<Result<Report, ClusterError>>, Hello, Vec<String>) {
    let addresses = ports(2);
    let cluster = Cluster {
        connect_timeout: Duration::from_secs(20),
        liveness_timeout: Duration::from_millis(400),
        ..Cluster::new(addresses.clone(), 0, 1)
    };
    let input = Input::Graph(Arc::clone(g));
    let zero = std::thread::spawn(move || dist_solve(input, Query::All, &cluster));
    let hello = Hello {
        protocol: PROTOCOL,
        channel: DATA,
        shards: false,
        reads: Reads::Graph { vertices: 4, arcs: 4 },
        process: 1,
        processes: 2,
        workers: 1,
        hosts: handshake::hosts_digest(&addresses),
        query: handshake::query_digest(""),
        digest: crate::run::digest(&Role::Whole(Arc::clone(g))),
    };
    (zero, hello, addresses)
}

#[test]
fn a_peer_that_falls_silent_or_goes_is_given_up() {
    let (g, _) = same_shape();
    // Connects as process 1, then says nothing.
    let (zero, hello, addresses) = process_0_alone(&g);
    let mesh = handshake::connect(hello, &addresses, Duration::from_secs(20)).unwrap();
    let started = Instant::now();
    let e = zero.join().unwrap().unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(e, ClusterError::Silent { process: 1, .. }), "{e:?}");
    drop(mesh);
    // Connects as process 1, then goes.
    let (zero, hello, addresses) = process_0_alone(&g);
    drop(handshake::connect(hello, &addresses, Duration::from_secs(20)).unwrap());
    let e = zero.join().unwrap().unwrap_err();
    assert!(matches!(e, ClusterError::Lost { process: 1 }), "{e:?}");
}
