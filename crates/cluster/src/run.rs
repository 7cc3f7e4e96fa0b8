//! A solve on the cluster: the checks, the connection (with its timeout), the workers,
//! and what the process gets back.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use timely::communication::AllocatorBuilder;
use timely::communication::Hooks;
use timely::communication::logging::{CommunicationEvent, CommunicationEventBuilder};
use timely::logging_core::Logger;
use timely::worker::Worker;

use crate::answer::{Gathered, Query, Report};
use crate::error::ClusterError;
use crate::gather::{gather, merge_shards};
use crate::input::{Input, Role};
use crate::local::Local;
use crate::part::Blocks;
use crate::quiet::Quiet;
use crate::rounds::{Streams, propagate};
use crate::setup::setup;

/// Bytes of a timely message header on the wire (six `u64` fields).
const HEADER_BYTES: u64 = 48;

/// How long [`Cluster::new`] waits for the other processes to connect.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Where and how to run: the processes of the cluster and this one's part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of every process, process 0 first.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// Worker threads per process.
    pub workers: usize,
    /// How long to wait for every process to connect (timely retries for ever): then the
    /// solve fails with [`ClusterError::ConnectTimeout`].
    pub connect_timeout: Duration,
    /// Send the process's standard output to `/dev/null` while the cluster runs, where
    /// timely prints its connection progress. It is restored when the solve returns,
    /// except after [`ClusterError::ConnectTimeout`]: timely's connecting thread goes on
    /// (and prints) until the process ends.
    pub silence_stdout: bool,
}

impl Cluster {
    /// Process `process` of the cluster at `addresses`, with `workers` worker threads, the
    /// [`DEFAULT_CONNECT_TIMEOUT`], and standard output left alone.
    pub fn new(addresses: Vec<String>, process: usize, workers: usize) -> Cluster {
        Cluster {
            addresses,
            process,
            workers,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            silence_stdout: false,
        }
    }
}

/// A solve that passed its checks, ready to [`run`](Job::run): what
/// [`dist_solve`] does in two steps, for a caller with something to do in between (such as
/// preparing where the answer goes) that a bad job should not do.
#[derive(Debug)]
pub struct Job {
    role: Role,
    query: Query,
    cluster: Cluster,
}

impl Job {
    /// Checks the cluster, the query and the input, and chooses the process's role: the
    /// whole graph, a reader of a binary file, or on the slow path the sender (process 0,
    /// unless it is alone) or a receiver.
    ///
    /// # Errors
    /// [`ClusterError::NoProcess`], [`ClusterError::ProcessOutside`],
    /// [`ClusterError::Workers`], [`ClusterError::StartOutside`] (on process 0),
    /// [`ClusterError::NotProcess0`] and [`ClusterError::NothingToSend`] for an input of
    /// the slow path on the wrong process, and [`ClusterError::Peer`] when process 0
    /// could not read the graph and is alone.
    pub fn new(input: Input, query: Query, cluster: &Cluster) -> Result<Job, ClusterError> {
        let processes = cluster.addresses.len();
        if processes == 0 {
            return Err(ClusterError::NoProcess);
        }
        if cluster.process >= processes {
            return Err(ClusterError::ProcessOutside { process: cluster.process, processes });
        }
        if cluster.workers == 0
            || cluster.workers.checked_mul(processes).is_none_or(|w| w >= 1 << 30)
        {
            return Err(ClusterError::Workers { workers: cluster.workers });
        }
        if cluster.process == 0
            && let Query::Start(start) = query
            && input.num_vertices().is_some_and(|n| start.index() >= n)
        {
            return Err(ClusterError::StartOutside { start });
        }
        let role = Role::choose(input, cluster.process, processes)?;
        Ok(Job { role, query, cluster: cluster.clone() })
    }

    /// Runs the job on the cluster: see [`dist_solve`].
    ///
    /// # Errors
    /// See [`dist_solve`].
    pub fn run(self) -> Result<Report, ClusterError> {
        let quiet = if self.cluster.silence_stdout {
            Some(Quiet::new().map_err(ClusterError::Stdout)?)
        } else {
            None
        };
        let sent = Arc::new(AtomicU64::new(0));
        let (builders, others) = match connect(&self.cluster, Arc::clone(&sent)) {
            Ok(built) => built,
            Err(e @ ClusterError::ConnectTimeout { .. }) => {
                if let Some(quiet) = quiet {
                    quiet.keep();
                }
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let Job { role, query, cluster } = self;
        let workers = cluster.workers;
        // Each worker takes its role out of the shared slot, so that the graph's memory
        // goes when the last worker has its part.
        let slots: Arc<Vec<Mutex<Option<Role>>>> =
            Arc::new((0..workers).map(|_| Mutex::new(Some(role.clone()))).collect());
        drop(role);
        let guards = timely::execute::execute_from(
            builders,
            others,
            timely::WorkerConfig::default(),
            move |worker| {
                let role = slots[worker.index() % workers]
                    .lock()
                    .expect("a role slot")
                    .take()
                    .expect("each worker takes its role once");
                work(worker, workers, role, query)
            },
        )
        .map_err(ClusterError::Network)?;
        let done = guards.join().into_iter().map(|r| r.map_err(ClusterError::Worker));
        let report = collect(done, sent.load(Ordering::Relaxed));
        drop(quiet);
        report
    }
}

/// Solves a game graph by retrograde analysis on a timely cluster: the outcome, depth and
/// optimal move of every vertex, the same as [`gamegraph_retro::solve`], with process 0
/// gathering what its `query` asks (the other processes' `query` is not used).
///
/// The vertices are split into contiguous blocks, one per worker of the cluster; a worker
/// holds and touches only the successor lists of its own block, which come from `input`
/// (see [`Input`]: the whole graph on every process, a binary file read in parts, or
/// process 0 sending each process its part). In the first time of the dataflow every
/// worker says what it reads, so that processes given different graphs fail alike, and
/// the readers of a binary file judge it together (its checksum and structure, with the
/// errors of [`gamegraph_graph::format::read_binary`]). Then a first exchange subscribes
/// each worker to the owners of the distinct targets of its arcs; round `r` sends every
/// vertex decided at depth `r` once to each subscribed worker, which updates its own
/// predecessors through a local reverse index (an L successor makes a W, a W successor
/// decrements a counter, a counter at zero makes an L), and a count of the decided
/// vertices to every worker; the rounds end when one decides nothing anywhere. The
/// optimal moves follow the rules of [`gamegraph_retro::labels::best_move`], from the
/// outcomes and depths each worker received for its own successors (a successor never
/// reported is a draw).
///
/// Timely retries connecting for ever: the solve gives up after the cluster's
/// `connect_timeout`. A peer lost during the run makes timely's network threads panic.
///
/// # Errors
/// Those of [`Job::new`]; [`ClusterError::Stdout`] when standard output cannot be
/// silenced, [`ClusterError::ConnectTimeout`], [`ClusterError::Network`] when the network
/// cannot be set up, [`ClusterError::Read`] when the binary file is bad (on every
/// process), [`ClusterError::Peer`] when a process could not read its input,
/// [`ClusterError::Mismatch`] when the processes read different graphs,
/// [`ClusterError::Worker`] when a worker fails.
///
/// # Complexity
/// O((V + E) / W + W) work per worker in total plus one barrier per round; rounds: the
/// greatest depth plus three. Network: at most 8 bytes per distinct (worker, target) pair
/// twice (the subscription and the answer), 8 bytes per worker pair and round, and with
/// [`Query::All`] 13 bytes per vertex, plus 48 bytes of header per batch; the slow path
/// adds 12 bytes per arc that process 0 sends.
pub fn dist_solve(input: Input, query: Query, cluster: &Cluster) -> Result<Report, ClusterError> {
    Job::new(input, query, cluster)?.run()
}

/// What one worker got: its part of the answer and the rounds.
struct Done {
    gathered: Option<Gathered>,
    rounds: u32,
}

/// One worker's whole solve.
fn work(
    worker: &mut Worker,
    workers: usize,
    role: Role,
    query: Query,
) -> Result<Done, ClusterError> {
    let setup = setup(worker, workers, &role, query)?;
    drop(role);
    let mut streams = Streams::new(worker, Blocks::new(setup.n, worker.peers()));
    let local = Local::new(setup.part, setup.n);
    let state = propagate(worker, &mut streams, &local);
    let rounds = state.rounds;
    let gathered = gather(worker, &mut streams, &local, state, setup.query, setup.n);
    Ok(Done { gathered, rounds })
}

/// The network, built on another thread so that the wait can end: timely retries
/// connecting for ever. On a timeout the thread is left to the end of the process.
fn connect(
    cluster: &Cluster,
    sent: Arc<AtomicU64>,
) -> Result<(Vec<AllocatorBuilder>, Box<dyn Any + Send>), ClusterError> {
    let comm = timely::CommunicationConfig::Cluster {
        threads: cluster.workers,
        process: cluster.process,
        addresses: cluster.addresses.clone(),
        report: false,
        zerocopy: false,
    };
    let hooks = count_sent(sent);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("cluster-connect".into())
        .spawn(move || {
            let _ = tx.send(comm.try_build_with(hooks));
        })
        .map_err(|e| ClusterError::Network(e.to_string()))?;
    match rx.recv_timeout(cluster.connect_timeout) {
        Ok(built) => built.map_err(ClusterError::Network),
        Err(RecvTimeoutError::Timeout) => {
            Err(ClusterError::ConnectTimeout { timeout: cluster.connect_timeout })
        }
        Err(RecvTimeoutError::Disconnected) => {
            Err(ClusterError::Network("the connecting thread failed".into()))
        }
    }
}

/// Hooks that add to `sent` the bytes of every message this process sends (payload and
/// header, from timely's communication log).
fn count_sent(sent: Arc<AtomicU64>) -> Hooks {
    let log_fn = Arc::new(move |setup: timely::communication::logging::CommunicationSetup| {
        if !setup.sender {
            return None;
        }
        let counter = Arc::clone(&sent);
        Some(Logger::<CommunicationEventBuilder>::new(
            Instant::now(),
            Duration::default(),
            move |_, events: &mut Option<Vec<(Duration, CommunicationEvent)>>| {
                for (_, e) in events.iter().flatten() {
                    if let CommunicationEvent::Message(m) = e
                        && m.is_send
                    {
                        counter.fetch_add(m.header.length as u64 + HEADER_BYTES, Ordering::Relaxed);
                    }
                }
            },
        ))
    });
    Hooks { log_fn, ..Hooks::default() }
}

/// The process's report from what its workers got: the first worker's own error if any
/// (a worker's own error says more than a report of another's), else the gathered answer
/// (a process's shards as one) and the rounds.
fn collect(
    done: impl IntoIterator<Item = Result<Result<Done, ClusterError>, ClusterError>>,
    bytes_sent: u64,
) -> Result<Report, ClusterError> {
    let mut results = Vec::new();
    let mut failure: Option<ClusterError> = None;
    for r in done {
        match r {
            Ok(Ok(d)) => results.push(d),
            Ok(Err(e)) | Err(e) => {
                if failure.as_ref().is_none_or(|f| matches!(f, ClusterError::Peer { .. })) {
                    failure = Some(e);
                }
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let rounds = results.first().map_or(0, |d| d.rounds);
    let mut gathered = None;
    let mut shards = Vec::new();
    for d in results {
        match d.gathered {
            Some(Gathered::Shard(shard)) => shards.push(shard),
            Some(g) => gathered = Some(g),
            None => {}
        }
    }
    if let Some(shard) = merge_shards(shards) {
        gathered = Some(Gathered::Shard(shard));
    }
    Ok(Report { gathered, rounds, bytes_sent })
}
