//! A solve on the cluster: the checks, the connection (with its timeout), the workers,
//! and what the process gets back.

use std::io;
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gamegraph_game::tier::TierError;
use gamegraph_graph::Vertex;
use gamegraph_graph::format::binary::Checksum;
use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::{
    CommsGuard, initialize_networking_from_sockets,
};
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::logging::{CommunicationEvent, CommunicationEventBuilder};
use timely::logging_core::Logger;
use timely::worker::Worker;

use crate::answer::{Gathered, Query, Report};
use crate::error::ClusterError;
use crate::gather::{gather, merge_shards};
use crate::handshake::{self, DATA, Hello, PROTOCOL};
use crate::input::{Input, Role};
use crate::liveness::{Alarm, Watch};
use crate::local::Local;
use crate::part::Blocks;
use crate::quiet::Quiet;
use crate::rounds::{Streams, propagate};
use crate::setup::setup;

/// Bytes of a timely message header on the wire (six `u64` fields).
const HEADER_BYTES: u64 = 48;

/// How long [`Cluster::new`] waits for the other processes to connect.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long [`Cluster::new`] lets a peer process send nothing (not even the heartbeat
/// that each process sends several times per timeout) before giving it up.
pub const DEFAULT_LIVENESS_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the process looks at the alarm while it waits for its threads.
const POLL: Duration = Duration::from_millis(50);

/// How long the process still waits for its threads once the alarm is raised.
const GRACE: Duration = Duration::from_secs(1);

/// Where and how to run: the processes of the cluster and this one's part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of every process, process 0 first.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// Worker threads per process.
    pub workers: usize,
    /// How long to wait for every process to connect: then the solve fails with
    /// [`ClusterError::ConnectTimeout`].
    pub connect_timeout: Duration,
    /// How long a peer process may send nothing, not even its heartbeat, during the solve:
    /// then the solve fails with [`ClusterError::Silent`].
    pub liveness_timeout: Duration,
    /// Send the process's standard output to `/dev/null` while the cluster runs. It is
    /// restored when the solve returns.
    pub silence_stdout: bool,
    /// The query as the front end states it (its arguments, in any fixed form): processes
    /// given different queries refuse each other in their first exchange
    /// ([`Disagreement::Query`](crate::Disagreement::Query)). Default empty.
    pub query: String,
}

impl Cluster {
    /// Process `process` of the cluster at `addresses`, with `workers` worker threads, the
    /// [`DEFAULT_CONNECT_TIMEOUT`], the [`DEFAULT_LIVENESS_TIMEOUT`], and standard output
    /// left alone.
    pub fn new(addresses: Vec<String>, process: usize, workers: usize) -> Cluster {
        Cluster {
            addresses,
            process,
            workers,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            liveness_timeout: DEFAULT_LIVENESS_TIMEOUT,
            silence_stdout: false,
            query: String::new(),
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
        check_shape(cluster)?;
        let processes = cluster.addresses.len();
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
        let _quiet = quiet(&self.cluster)?;
        let Job { role, query, cluster } = self;
        let wire =
            Wire { shards: query == Query::Shard, reads: role.reads(), digest: digest(&role) };
        let workers = cluster.workers;
        // Each worker takes its role out of the shared slot, so that the graph's memory
        // goes when the last worker has its part.
        let slots: Vec<Mutex<Option<Role>>> =
            (0..workers).map(|_| Mutex::new(Some(role.clone()))).collect();
        drop(role);
        let (done, sent) = on_cluster(&cluster, wire, move |worker, alarm| {
            let role = slots[worker.index() % workers]
                .lock()
                .expect("a role slot")
                .take()
                .expect("each worker takes its role once");
            work(worker, workers, role, query, alarm)
        })?;
        collect(done, sent)
    }
}

/// Checks that the cluster has processes, that this process is one of them, and its
/// number of workers.
pub(crate) fn check_shape(cluster: &Cluster) -> Result<(), ClusterError> {
    let processes = cluster.addresses.len();
    if processes == 0 {
        return Err(ClusterError::NoProcess);
    }
    if cluster.process >= processes {
        return Err(ClusterError::ProcessOutside { process: cluster.process, processes });
    }
    if cluster.workers == 0 || cluster.workers.checked_mul(processes).is_none_or(|w| w >= 1 << 30) {
        return Err(ClusterError::Workers { workers: cluster.workers });
    }
    Ok(())
}

/// Standard output sent to `/dev/null` until the guard goes, when the cluster asks.
pub(crate) fn quiet(cluster: &Cluster) -> Result<Option<Quiet>, ClusterError> {
    if cluster.silence_stdout {
        Quiet::new().map(Some).map_err(ClusterError::Stdout)
    } else {
        Ok(None)
    }
}

/// What a process says of its input in its hello, besides the cluster's shape and query.
pub(crate) struct Wire {
    pub(crate) shards: bool,
    pub(crate) reads: crate::wire::Reads,
    pub(crate) digest: u64,
}

/// What the workers of a process returned: each one's result, or its panic.
pub(crate) type Results<T> = Vec<Result<Result<T, ClusterError>, ClusterError>>;

/// Connects this process to the others (the handshake with `wire`, then the liveness
/// watch) and runs `work` on each of its workers; returns what each worker returned and
/// the bytes this process sent.
pub(crate) fn on_cluster<T: Send + 'static>(
    cluster: &Cluster,
    wire: Wire,
    work: impl Fn(&mut Worker, &Alarm) -> Result<T, ClusterError> + Send + Sync + 'static,
) -> Result<(Results<T>, u64), ClusterError> {
    let hello = Hello {
        protocol: PROTOCOL,
        channel: DATA,
        shards: wire.shards,
        reads: wire.reads,
        process: cluster.process,
        processes: cluster.addresses.len(),
        workers: cluster.workers,
        hosts: handshake::hosts_digest(&cluster.addresses),
        query: handshake::query_digest(&cluster.query),
        digest: wire.digest,
    };
    let mesh = handshake::connect(hello, &cluster.addresses, cluster.connect_timeout)?;
    handshake::judge(&mesh.hellos)?;
    let alarm = Alarm::default();
    let watch = Watch::start(mesh.beats, cluster.liveness_timeout, &alarm)?;
    let sent = Arc::new(AtomicU64::new(0));
    let ran = execute(cluster, mesh.data, &sent, &alarm, work);
    watch.finish(ran.is_ok());
    Ok((ran?, sent.load(Ordering::Relaxed)))
}

/// Runs `work` on the workers of this process on the connections `data` to the other
/// processes, and waits for them and for timely's network threads, unless the alarm goes
/// first.
fn execute<T: Send + 'static>(
    cluster: &Cluster,
    data: Vec<Option<TcpStream>>,
    sent: &Arc<AtomicU64>,
    alarm: &Alarm,
    work: impl Fn(&mut Worker, &Alarm) -> Result<T, ClusterError> + Send + Sync + 'static,
) -> Result<Results<T>, ClusterError> {
    let workers = cluster.workers;
    let hooks = watch_network(Arc::clone(sent), alarm);
    let allocators =
        ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), hooks.spill.clone());
    let (builders, comms) =
        initialize_networking_from_sockets(allocators, data, cluster.process, workers, hooks)
            .map_err(|e| ClusterError::network("connecting the workers", e))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    let worker_alarm = alarm.clone();
    let guards = timely::execute::execute_from(
        builders,
        Box::new(()),
        timely::WorkerConfig::default(),
        move |worker| {
            let done = work(worker, &worker_alarm);
            if done.is_err() && worker_alarm.error().is_some() {
                // Nothing more comes from a lost peer: do not wait for the dataflows.
                for id in worker.installed_dataflows() {
                    worker.drop_dataflow(id);
                }
            }
            done
        },
    )
    .map_err(|e| ClusterError::Threads(io::Error::other(e)))?;
    let joined = wait(move || guards.join(), alarm);
    let results: Results<T> = match joined {
        Ok(results) => results.into_iter().map(|r| r.map_err(ClusterError::Worker)).collect(),
        Err(e) => {
            std::mem::forget(comms);
            return Err(e);
        }
    };
    if results.iter().any(|r| !matches!(r, Ok(Ok(_)))) {
        // A failed process waits a little for its network threads, so that what its
        // workers sent last reaches the peers (the progress with which a peer reaches the
        // same error), but not for a peer that goes on.
        linger(comms);
        if results.iter().any(Result::is_err) {
            // A worker that panicked after one of timely's network threads failed (their
            // queues are poisoned) failed because of a lost peer: the alarm says which.
            let since = Instant::now();
            while alarm.error().is_none() && since.elapsed() < GRACE {
                std::thread::sleep(POLL);
            }
            if let Some(e) = alarm.error() {
                return Err(e);
            }
        }
        return Ok(results);
    }
    wait(move || drop::<CommsGuard>(comms), alarm)?;
    Ok(results)
}

/// Ends timely's network threads as a process that succeeded does (the last messages
/// sent, then the connections closed), but waits at most [`GRACE`] for it: a peer that
/// has not failed alike does not close its connections.
fn linger(comms: CommsGuard) {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("cluster-wait".into()).spawn(move || {
        drop(comms);
        let _ = tx.send(());
    });
    if spawned.is_ok() {
        let _ = rx.recv_timeout(GRACE);
    }
}

/// Runs `f` on a thread of its own and waits for it, unless the alarm goes first (the
/// thread is then left to the end of the process).
fn wait<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
    alarm: &Alarm,
) -> Result<T, ClusterError> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("cluster-wait".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(ClusterError::Threads)?;
    let mut raised: Option<Instant> = None;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(t) => return Ok(t),
            Err(RecvTimeoutError::Timeout) => match (alarm.error(), raised) {
                // A peer that failed as this process is about to fail ends first: let
                // this process reach its own error.
                (Some(_), None) => raised = Some(Instant::now()),
                (Some(e), Some(at)) if at.elapsed() >= GRACE => return Err(e),
                _ => {}
            },
            Err(RecvTimeoutError::Disconnected) => {
                return Err(ClusterError::Worker("a thread of the process failed".into()));
            }
        }
    }
}

/// A checksum of the arcs of the whole graph, when the process holds it (0 otherwise,
/// and for the empty graph): processes that hold different graphs of the same size
/// are told apart before the solve.
pub(crate) fn digest(role: &Role) -> u64 {
    let Role::Whole(g) = role else { return 0 };
    let mut sum = Checksum::new();
    for v in 0..g.num_vertices() {
        let succ = g.successors(Vertex::from_index(v));
        sum.update(&(succ.len() as u64).to_le_bytes());
        for t in succ {
            sum.update(&t.0.to_le_bytes());
        }
    }
    sum.finish() | 1
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
/// errors of [`gamegraph_graph::format::read`]). Then a first exchange subscribes
/// each worker to the owners of the distinct targets of its arcs; round `r` sends every
/// vertex decided at depth `r` once to each subscribed worker, which updates its own
/// predecessors through a local reverse index (an L successor makes a W, a W successor
/// decrements a counter, a counter at zero makes an L), and a count of the decided
/// vertices to every worker; the rounds end when one decides nothing anywhere. The
/// optimal moves follow the rules of [`gamegraph_graph::outcome::best_move`], from the
/// outcomes and depths each worker received for its own successors (a successor never
/// reported is a draw).
///
/// The processes connect to each other with a handshake (a hello each way, with the
/// shape of the cluster and what each process reads) before timely takes the
/// connections; the solve gives up after the cluster's `connect_timeout`. During the run
/// each process sends every other a heartbeat and watches theirs: a peer that ends, or
/// that sends nothing for the cluster's `liveness_timeout`, ends the solve on every
/// process still running.
///
/// # Errors
/// Those of [`Job::new`]; [`ClusterError::Stdout`] when standard output cannot be
/// silenced, [`ClusterError::ConnectTimeout`], [`ClusterError::NotAPeer`] for an address
/// that answers but not as a peer, [`ClusterError::Disagree`] for peers set up
/// differently, [`ClusterError::Network`] when the network cannot be set up,
/// [`ClusterError::Read`] when the binary file is bad (on every process),
/// [`ClusterError::Peer`] when a process could not read its input,
/// [`ClusterError::Mismatch`] and [`ClusterError::Differ`] when the processes read
/// different graphs, [`ClusterError::Shards`] when they are not all asked for shards or
/// all not, [`ClusterError::Lost`] and [`ClusterError::Silent`] for a peer lost during the
/// run, [`ClusterError::Worker`] when a worker fails.
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
    alarm: &Alarm,
) -> Result<Done, ClusterError> {
    let setup = setup(worker, workers, &role, query, alarm)?;
    drop(role);
    let blocks = Blocks::new(setup.n, worker.peers());
    let mut streams = Streams::new(worker, blocks, alarm.clone());
    let local = Local::new(setup.part, setup.n);
    let state = propagate(worker, &mut streams, &local)?;
    let rounds = state.rounds;
    let gathered = gather(worker, &mut streams, &local, state, setup.query, setup.n)?;
    Ok(Done { gathered, rounds })
}

/// Hooks that add to `sent` the bytes of every message this process sends (payload and
/// header, from timely's communication log), and raise the alarm when one of timely's
/// network threads fails (it panics: its logger is dropped while it unwinds).
fn watch_network(sent: Arc<AtomicU64>, alarm: &Alarm) -> Hooks {
    let alarm = alarm.clone();
    let log_fn = Arc::new(move |setup: timely::communication::logging::CommunicationSetup| {
        let guard = OnPanic { alarm: alarm.clone(), remote: setup.remote.unwrap_or(0) };
        let counter = setup.sender.then(|| Arc::clone(&sent));
        Some(Logger::<CommunicationEventBuilder>::new(
            Instant::now(),
            Duration::default(),
            move |_, events: &mut Option<Vec<(Duration, CommunicationEvent)>>| {
                guard.keep();
                let Some(counter) = &counter else { return };
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

/// Raises the alarm for `remote` when dropped by a thread that panics.
struct OnPanic {
    alarm: Alarm,
    remote: usize,
}

impl OnPanic {
    /// Keeps the guard alive as long as what holds it.
    fn keep(&self) {}
}

impl Drop for OnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.alarm.lost(self.remote);
        }
    }
}

/// The process's report from what its workers got: the first worker's own error if any
/// (a worker's own error says more than a report of another's or a lost peer), else the
/// gathered answer (a process's shards as one) and the rounds.
fn collect(done: Results<Done>, bytes_sent: u64) -> Result<Report, ClusterError> {
    let mut results = Vec::new();
    let mut failure: Option<ClusterError> = None;
    for r in done {
        match r {
            Ok(Ok(d)) => results.push(d),
            Ok(Err(e)) | Err(e) => {
                if failure.as_ref().is_none_or(|f| rank(f) > rank(&e)) {
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

/// How much an error of a worker says about the failure, 0 the most: its own error, then
/// another process's report, then a lost peer (which may have failed as this one did).
pub(crate) fn rank(e: &ClusterError) -> u8 {
    match e {
        ClusterError::Peer { .. } | ClusterError::Tier(TierError::Peer { .. }) => 1,
        ClusterError::Lost { .. } | ClusterError::Silent { .. } => 2,
        _ => 0,
    }
}
