//! The rounds of the retrograde analysis as a timely dataflow.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use gamegraph_graph::{Graph, Outcome, Vertex};
use gamegraph_retro::Solution;
use timely::communication::Hooks;
use timely::communication::logging::{CommunicationEvent, CommunicationEventBuilder};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input as _, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle, Scope};
use timely::logging_core::Logger;
use timely::progress::Stamp;

use crate::error::DistError;
use crate::input::{Input, Setup, setup};

/// A timely input's container builder.
pub(crate) type Builder<T> = CapacityContainerBuilder<Vec<T>>;
/// A gathered vertex: id, label, depth, move.
type Record = (u32, u8, u32, u32);

/// "No depth" / "no move".
const NONE: u32 = u32::MAX;
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

/// Message kinds, in bits 32..34 of a message word.
const SUBSCRIBE: u64 = 0;
const DECIDED_WIN: u64 = 1;
const DECIDED_LOSS: u64 = 2;
const COUNT: u64 = 3;
/// Bytes of a timely message header on the wire (six `u64` fields).
const HEADER_BYTES: u64 = 48;

/// One message word: bits 0..32 a vertex (or a count), 32..34 the kind, 34..64 a worker
/// (the sender of a subscription, the receiver of anything else).
#[inline]
fn word(worker: usize, kind: u64, value: u32) -> u64 {
    ((worker as u64) << 34) | (kind << 32) | u64::from(value)
}

/// Where and how to run: the processes of the cluster and this one's part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of every process, process 0 first.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// Worker threads per process.
    pub workers: usize,
}

/// What the processes need at the end (the query of process 0 is the one answered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Every vertex: process 0 gets the whole [`Solution`].
    All,
    /// One vertex: process 0 gets its outcome, depth and move only.
    Start(Vertex),
    /// Every vertex, nothing gathered: each process gets the answers for its own
    /// vertices ([`Shard`]).
    Shard,
}

/// The outcomes, depths and moves of the contiguous vertices `first..first + len` (the
/// vertices of one process), as [`Solution::from_parts`] takes them: `u32::MAX` for no
/// depth or no move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shard {
    /// The first vertex.
    pub first: Vertex,
    /// The outcome of each vertex.
    pub outcomes: Vec<Outcome>,
    /// The depth of each vertex, `u32::MAX` for a draw.
    pub depths: Vec<u32>,
    /// The optimal move of each vertex (0-based), `u32::MAX` for none.
    pub moves: Vec<u32>,
}

/// The answer for one vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// Its outcome.
    pub outcome: Outcome,
    /// Its depth, `None` for a draw.
    pub depth: Option<u32>,
    /// Its optimal move, `None` when there is none.
    pub best_move: Option<Vertex>,
}

/// What [`dist_solve`] returns on process 0 (and, for [`Query::Shard`], on every
/// process).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gathered {
    /// The whole solution ([`Query::All`]).
    All(Solution),
    /// The start vertex's answer ([`Query::Start`]).
    Start(Answer),
    /// This process's vertices ([`Query::Shard`]).
    Shard(Shard),
}

/// What one process did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// On process 0, the answer to the query; `None` on the others, except with
    /// [`Query::Shard`], where every process gets its own shard.
    pub gathered: Option<Gathered>,
    /// Rounds of propagation (the greatest depth plus one; 0 for an empty graph).
    pub rounds: u32,
    /// Bytes this process sent to the others (timely message headers and payloads, as
    /// reported by timely's communication log).
    pub bytes_sent: u64,
}

/// Block partition of `n` vertices over `workers` workers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks {
    size: usize,
}

impl Blocks {
    pub(crate) fn new(n: usize, workers: usize) -> Self {
        Blocks { size: n.div_ceil(workers).max(1) }
    }
    pub(crate) fn owner(self, v: u32) -> usize {
        v as usize / self.size
    }
    pub(crate) fn range(self, w: usize, n: usize) -> (usize, usize) {
        ((w * self.size).min(n), ((w + 1) * self.size).min(n))
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
/// optimal moves follow the rules of [`gamegraph_retro::solve`], from the outcomes and
/// depths each worker received for its own successors (a successor never reported is a
/// draw).
///
/// `formed` is set once the cluster is connected and the workers run (a caller's watchdog
/// can end the process if it never is: timely retries connecting for ever).
///
/// # Errors
/// [`DistError::Config`] for a bad cluster or query, [`DistError::Network`] when the
/// network cannot be set up, [`DistError::Read`] when the binary file is bad (on every
/// process), [`DistError::Peer`] when another process could not read its input,
/// [`DistError::Mismatch`] when the processes read different graphs,
/// [`DistError::Worker`] when a worker fails.
///
/// # Complexity
/// O((V + E) / W + W) work per worker in total plus one barrier per round; rounds: the
/// greatest depth plus three. Network: at most 8 bytes per distinct (worker, target) pair
/// twice (the subscription and the answer), 8 bytes per worker pair and round, and with
/// [`Query::All`] 13 bytes per vertex, plus 48 bytes of header per batch; the slow path
/// adds 12 bytes per arc that process 0 sends.
pub fn dist_solve(
    input: Input,
    query: Query,
    cluster: &Cluster,
    formed: Arc<AtomicBool>,
) -> Result<Report, DistError> {
    if cluster.addresses.is_empty() {
        return Err(DistError::Config("the cluster has no process".into()));
    }
    if cluster.process >= cluster.addresses.len() {
        return Err(DistError::Config(format!(
            "process {} is outside 0..{}",
            cluster.process,
            cluster.addresses.len() - 1
        )));
    }
    if cluster.workers == 0
        || cluster.workers.checked_mul(cluster.addresses.len()).is_none_or(|w| w >= 1 << 30)
    {
        return Err(DistError::Config("the number of workers must be 1..2^30".into()));
    }
    let n = match &input {
        Input::Graph(g) | Input::Root(g) => Some(g.num_vertices()),
        Input::Binary(f) => Some(f.num_vertices()),
        Input::RootFailed(_) | Input::Receiver => None,
    };
    if cluster.process == 0
        && let Query::Start(v) = query
        && n.is_some_and(|n| v.index() >= n)
    {
        return Err(DistError::Config(format!(
            "start vertex {} is outside the graph",
            v.one_based()
        )));
    }
    if cluster.process != 0 && matches!(input, Input::Root(_) | Input::RootFailed(_)) {
        return Err(DistError::Config("only process 0 sends the graph".into()));
    }
    let sent = Arc::new(AtomicU64::new(0));
    let comm = timely::CommunicationConfig::Cluster {
        threads: cluster.workers,
        process: cluster.process,
        addresses: cluster.addresses.clone(),
        report: false,
        zerocopy: false,
    };
    let mut hooks = Hooks::default();
    let counter = Arc::clone(&sent);
    hooks.log_fn = Arc::new(move |setup| {
        if !setup.sender {
            return None;
        }
        let counter = Arc::clone(&counter);
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
    let (builders, others) = comm.try_build_with(hooks).map_err(DistError::Network)?;
    let workers = cluster.workers;
    // Each worker takes its input out of the shared slot, so that the graph's memory goes
    // when the last worker has its part.
    let slots: Arc<Vec<std::sync::Mutex<Option<Input>>>> =
        Arc::new((0..workers).map(|_| std::sync::Mutex::new(Some(input.clone()))).collect());
    drop(input);
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            formed.store(true, Ordering::SeqCst);
            let input = slots[worker.index() % workers]
                .lock()
                .expect("an input slot")
                .take()
                .expect("each worker takes its input once");
            let setup = setup(worker, workers, &input, query)?;
            drop(input);
            Ok(run_worker(worker, setup))
        },
    )
    .map_err(DistError::Network)?;
    let mut results = Vec::new();
    let mut failure: Option<DistError> = None;
    for r in guards.join() {
        match r.map_err(DistError::Worker) {
            Ok(Ok(r)) => results.push(r),
            Ok(Err(e)) | Err(e) => {
                // A worker's own error says more than a report of another's.
                if failure.as_ref().is_none_or(|f| matches!(f, DistError::Peer { .. })) {
                    failure = Some(e);
                }
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let rounds = results.first().map_or(0, |r| r.1);
    let mut gathered = None;
    let mut shards = Vec::new();
    for r in results {
        match r.0 {
            Some(Gathered::Shard(shard)) => shards.push(shard),
            Some(g) => gathered = Some(g),
            None => {}
        }
    }
    // The workers of a process own consecutive blocks: their shards make one.
    shards.sort_unstable_by_key(|s| s.first);
    let mut shards = shards.into_iter();
    if let Some(mut shard) = shards.next() {
        for s in shards {
            shard.outcomes.extend(s.outcomes);
            shard.depths.extend(s.depths);
            shard.moves.extend(s.moves);
        }
        gathered = Some(Gathered::Shard(shard));
    }
    Ok(Report { gathered, rounds, bytes_sent: sent.load(Ordering::Relaxed) })
}

/// What a worker received, by time: peers may run a round ahead, so messages of the
/// next time can arrive before the current one is complete.
pub(crate) type Inbox<T> = Rc<RefCell<BTreeMap<u64, Vec<T>>>>;

/// Files a batch seen by an inspect operator under its time.
fn keep<T: Clone>(inbox: &Inbox<T>, event: Result<(&Stamp<u64>, &Vec<T>), &[u64]>) {
    if let Ok((stamp, data)) = event
        && let Some(&t) = stamp.elements().first()
    {
        inbox.borrow_mut().entry(t).or_default().extend_from_slice(data);
    }
}

/// Adds to `scope` the stream of `handle`, each item sent to worker `route(item)`, and
/// returns the inbox where what arrives is filed by time (complete for a time once
/// `probe`, which tracks the stream, has passed it).
pub(crate) fn delivered<T: timely::ExchangeData + Clone>(
    scope: Scope<'_, u64>,
    handle: &mut InputHandle<u64, Builder<T>>,
    route: impl Fn(&T) -> u64 + 'static,
    probe: &ProbeHandle<u64>,
) -> Inbox<T> {
    let inbox: Inbox<T> = Rc::default();
    let sink = Rc::clone(&inbox);
    scope
        .input_from(handle)
        .exchange(move |x: &T| route(x))
        .inspect_core(move |event| keep(&sink, event))
        .probe_with(probe);
    inbox
}

/// The messages of `time` (all of them once the probe has passed it).
pub(crate) fn take<T>(inbox: &Inbox<T>, time: u64) -> Vec<T> {
    inbox.borrow_mut().remove(&time).unwrap_or_default()
}

/// Runs `worker` until `probe` has passed `time`, parking it when there is nothing to do.
pub(crate) fn settle(worker: &mut timely::worker::Worker, probe: &ProbeHandle<u64>, time: u64) {
    while probe.less_than(&time) {
        worker.step_or_park(None);
    }
}

/// The distinct targets of a worker's arcs, numbered `0..len`: how a worker finds a
/// target's index and the vertex of an index.
enum Targets {
    /// Every vertex of the graph is its own index: used when the worker has at least as
    /// many arcs as the graph has vertices, where the other two cost more memory (and a
    /// pass of random look-ups) than arrays over all vertices.
    Identity(usize),
    /// A table over all vertices (4 bytes per vertex of the graph, O(1) per look-up), the
    /// targets in the order of first appearance: used when the table is at most
    /// [`DENSE_BYTES_PER_ARC`] per arc of the worker.
    Dense { table: Vec<u32>, distinct: Vec<u32> },
    /// The distinct targets, sorted: a binary search.
    Sorted(Vec<u32>),
}

/// Largest table of [`Targets::Dense`], in bytes per arc of the worker.
const DENSE_BYTES_PER_ARC: usize = 8;

impl Targets {
    /// The distinct targets of `arcs` in a graph of `n` vertices.
    fn of(arcs: &[Vertex], n: usize) -> Targets {
        if arcs.len() >= n {
            Targets::Identity(n)
        } else if n.saturating_mul(4) <= arcs.len().saturating_mul(DENSE_BYTES_PER_ARC) {
            let mut table = vec![NONE; n];
            let mut distinct = Vec::new();
            for t in arcs {
                if table[t.index()] == NONE {
                    table[t.index()] = distinct.len() as u32;
                    distinct.push(t.0);
                }
            }
            Targets::Dense { table, distinct }
        } else {
            let mut distinct: Vec<u32> = arcs.iter().map(|t| t.0).collect();
            distinct.sort_unstable();
            distinct.dedup();
            Targets::Sorted(distinct)
        }
    }

    /// The number of indices.
    fn len(&self) -> usize {
        match self {
            Targets::Identity(n) => *n,
            Targets::Dense { distinct, .. } | Targets::Sorted(distinct) => distinct.len(),
        }
    }

    /// The index of target `v`.
    #[inline]
    fn index(&self, v: u32) -> u32 {
        match self {
            Targets::Identity(_) => v,
            Targets::Dense { table, .. } => table[v as usize],
            Targets::Sorted(distinct) => {
                distinct.binary_search(&v).expect("a target of mine") as u32
            }
        }
    }

    /// The vertex of index `i`.
    #[inline]
    fn vertex(&self, i: u32) -> u32 {
        match self {
            Targets::Identity(_) => i,
            Targets::Dense { distinct, .. } | Targets::Sorted(distinct) => distinct[i as usize],
        }
    }
}

/// One worker's part: returns what worker 0 gathered and the number of rounds.
fn run_worker(worker: &mut timely::worker::Worker, setup: Setup) -> (Option<Gathered>, u32) {
    let me = worker.index();
    let peers = worker.peers();
    let Setup { n, query, part } = setup;
    let blocks = Blocks::new(n, peers);
    let (lo, hi) = (part.lo, part.hi);

    let mut input: InputHandle<u64, Builder<u64>> = InputHandle::new();
    let mut gather_in: InputHandle<u64, Builder<Record>> = InputHandle::new();
    let probe = ProbeHandle::new();
    let (inbox, gathered) = worker.dataflow::<u64, _, _>(|scope| {
        let route = move |&m: &u64| {
            if (m >> 32) & 3 == SUBSCRIBE { blocks.owner(m as u32) as u64 } else { m >> 34 }
        };
        (
            delivered(scope, &mut input, route, &probe),
            delivered(scope, &mut gather_in, |_| 0, &probe),
        )
    });
    // Closes the current time and runs the dataflow until everything sent at it has
    // arrived; returns that time.
    let mut time = 0u64;
    let mut step = |input: &mut InputHandle<u64, Builder<u64>>,
                    gather_in: &mut InputHandle<u64, Builder<Record>>| {
        let sent = time;
        time += 1;
        input.advance_to(time);
        gather_in.advance_to(time);
        settle(worker, &probe, time);
        sent
    };

    // The distinct targets of my arcs, and my successor lists with each target renamed to
    // its index there: a graph on `0..max(indices, my vertices)` whose predecessor lists
    // are the reverse index (for each index, my vertices with an arc into it).
    let (mine, names) = {
        let (offsets, targets) = part.csr();
        let names = Targets::of(targets, n);
        let local: Vec<Vertex> = targets.iter().map(|t| Vertex(names.index(t.0))).collect();
        let mut offsets: Vec<u64> = offsets.iter().map(|&o| o - offsets[0]).collect();
        offsets.resize(names.len().max(hi - lo) + 1, local.len() as u64);
        (Graph::from_csr(offsets, local).expect("indices below the vertex count"), names)
    };
    drop(part);
    let arcs_of = |u: usize| mine.successors(Vertex::from_index(u));
    let (rev_off, rev) = mine.predecessor_csr();

    // Subscriptions, then the subscribers of each of my vertices.
    for i in 0..names.len() {
        if rev_off[i + 1] > rev_off[i] {
            input.send(word(me, SUBSCRIBE, names.vertex(i as u32)));
        }
    }
    let t = step(&mut input, &mut gather_in);
    let subs_in = take(&inbox, t);
    let mut sub_off = vec![0usize; hi - lo + 1];
    for &m in &subs_in {
        sub_off[m as u32 as usize - lo + 1] += 1;
    }
    for i in 0..hi - lo {
        sub_off[i + 1] += sub_off[i];
    }
    let mut fill = sub_off.clone();
    let mut subs = vec![0u32; subs_in.len()];
    for &m in &subs_in {
        let v = m as u32 as usize - lo;
        subs[fill[v]] = (m >> 34) as u32;
        fill[v] += 1;
    }
    drop((fill, subs_in));

    // The rounds.
    let mut counter: Vec<u64> = (0..hi - lo).map(|u| arcs_of(u).len() as u64).collect();
    let mut label = vec![UNKNOWN; hi - lo];
    let mut depth = vec![NONE; hi - lo];
    let mut their_label = vec![UNKNOWN; names.len()];
    let mut their_depth = vec![NONE; names.len()];
    let mut frontier: Vec<u32> = Vec::new();
    for u in 0..hi - lo {
        if counter[u] == 0 {
            label[u] = LOSS;
            depth[u] = 0;
            frontier.push(u as u32);
        }
    }
    let mut rounds = 0u32;
    let mut next: Vec<u32> = Vec::new();
    loop {
        for &u in &frontier {
            let u = u as usize;
            let kind = if label[u] == WIN { DECIDED_WIN } else { DECIDED_LOSS };
            for &w in &subs[sub_off[u]..sub_off[u + 1]] {
                input.send(word(w as usize, kind, (u + lo) as u32));
            }
        }
        for w in 0..peers {
            input.send(word(w, COUNT, frontier.len() as u32));
        }
        let t = step(&mut input, &mut gather_in);
        let d = rounds;
        let mut decided = 0u64;
        for m in take(&inbox, t) {
            let kind = (m >> 32) & 3;
            if kind == COUNT {
                decided += u64::from(m as u32);
                continue;
            }
            let i = names.index(m as u32) as usize;
            their_label[i] = if kind == DECIDED_WIN { WIN } else { LOSS };
            their_depth[i] = d;
            for u in &rev[rev_off[i] as usize..rev_off[i + 1] as usize] {
                let u = u.index();
                if label[u] != UNKNOWN {
                    continue;
                }
                if kind == DECIDED_LOSS {
                    label[u] = WIN;
                } else {
                    counter[u] -= 1;
                    if counter[u] > 0 {
                        continue;
                    }
                    label[u] = LOSS;
                }
                depth[u] = d + 1;
                next.push(u as u32);
            }
        }
        if decided == 0 {
            break;
        }
        rounds += 1;
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    drop((counter, subs, sub_off, frontier, next));

    // The optimal moves, and what worker 0 gathers.
    let best_move = |u: usize| -> u32 {
        let mut best = NONE;
        let (want_label, want_depth) = match label[u] {
            WIN => (Some(LOSS), depth[u] - 1),
            LOSS if depth[u] > 0 => (None, depth[u] - 1),
            LOSS => return NONE,
            _ => (Some(UNKNOWN), NONE),
        };
        for t in arcs_of(u) {
            let v = names.vertex(t.0);
            let t = t.index();
            if v < best
                && their_depth[t] == want_depth
                && want_label.is_none_or(|l| their_label[t] == l)
            {
                best = v;
            }
        }
        best
    };
    let record = |u: usize| ((u + lo) as u32, label[u], depth[u], best_move(u));
    match query {
        Query::All => {
            for u in 0..hi - lo {
                gather_in.send(record(u));
            }
        }
        Query::Start(s) => {
            if (lo..hi).contains(&s.index()) {
                gather_in.send(record(s.index() - lo));
            }
        }
        Query::Shard => {}
    }
    let t = step(&mut input, &mut gather_in);
    let outcome = |l: u8| match l {
        WIN => Outcome::Win,
        LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    };
    if query == Query::Shard {
        let shard = Shard {
            first: Vertex::from_index(lo),
            outcomes: label.iter().map(|&l| outcome(l)).collect(),
            moves: (0..hi - lo).map(best_move).collect(),
            depths: depth,
        };
        return (Some(Gathered::Shard(shard)), rounds);
    }
    if me != 0 {
        return (None, rounds);
    }
    let records = take(&gathered, t);
    let result = match query {
        Query::All => {
            let mut outcomes = vec![Outcome::Draw; n];
            let mut depths = vec![NONE; n];
            let mut moves = vec![NONE; n];
            for (v, l, d, m) in records {
                outcomes[v as usize] = outcome(l);
                depths[v as usize] = d;
                moves[v as usize] = m;
            }
            let solution = Solution::from_parts(outcomes, depths, moves)
                .expect("the gathered records form a solution");
            Gathered::All(solution)
        }
        Query::Shard => unreachable!("answered above"),
        Query::Start(_) => {
            let (_, l, d, m) = records[0];
            Gathered::Start(Answer {
                outcome: outcome(l),
                depth: (d != NONE).then_some(d),
                best_move: (m != NONE).then_some(Vertex(m)),
            })
        }
    };
    (Some(result), rounds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamegraph_graph::Graph;
    use gamegraph_graph::format::binary::{BinaryParts, BlockChecksum};
    use gamegraph_graph::format::{read_binary, write_binary};
    use gamegraph_graph::testgen::{SplitMix64, random_graph};
    use std::net::TcpListener;
    use std::path::PathBuf;
    use std::sync::atomic::AtomicUsize;

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
                std::env::temp_dir().join(format!("gamegraph-dist-{}-{k}.bin", std::process::id()));
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
    ) -> Vec<Result<Report, DistError>> {
        let addresses = ports(processes);
        let handles: Vec<_> = (0..processes)
            .map(|process| {
                let input = inputs(process);
                let cluster = Cluster { addresses: addresses.clone(), process, workers };
                std::thread::spawn(move || {
                    dist_solve(input, query, &cluster, Arc::new(AtomicBool::new(false)))
                })
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
            Mode::Slow if p == 0 => Input::Root(Arc::clone(g)),
            Mode::Slow => Input::Receiver,
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
            let reports =
                run_with(processes, workers, Query::Shard, |_| Input::Graph(Arc::clone(&g)));
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
            let expected = read_binary(&bytes[..]).unwrap_err();
            let file = TempFile::with(&bytes);
            for r in run_with(2, 2, Query::All, |_| file.input()) {
                assert_eq!(r.unwrap_err(), DistError::Read(expected.clone()));
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
            if p == 0 { Input::Root(Arc::clone(&a)) } else { Input::Graph(Arc::clone(&a)) }
        });
        assert!(results.iter().all(|r| matches!(r, Err(DistError::Mismatch(_)))));
        let results = run_with(3, 1, Query::All, |p| {
            if p == 0 {
                Input::RootFailed("g.txt:3:3: vertex 9 is outside 1..3".into())
            } else {
                Input::Receiver
            }
        });
        for r in &results {
            assert_eq!(
                r.as_ref().unwrap_err(),
                &DistError::Peer {
                    process: 0,
                    message: "g.txt:3:3: vertex 9 is outside 1..3".into()
                }
            );
        }
    }

    #[test]
    fn bad_clusters_are_refused() {
        let g = Arc::new(random_graph(&mut SplitMix64::new(1), 3, 3, false));
        let flag = || Arc::new(AtomicBool::new(false));
        let input = || Input::Graph(Arc::clone(&g));
        let c = Cluster { addresses: ports(1), process: 1, workers: 1 };
        assert_eq!(
            dist_solve(input(), Query::All, &c, flag()).unwrap_err(),
            DistError::Config("process 1 is outside 0..0".into())
        );
        let c = Cluster { addresses: ports(1), process: 0, workers: 0 };
        assert!(matches!(dist_solve(input(), Query::All, &c, flag()), Err(DistError::Config(_))));
        let c = Cluster { addresses: ports(1), process: 0, workers: 1 };
        assert!(matches!(
            dist_solve(input(), Query::Start(Vertex(3)), &c, flag()),
            Err(DistError::Config(_))
        ));
    }
}
