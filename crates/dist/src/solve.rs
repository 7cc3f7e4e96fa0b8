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
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::logging_core::Logger;
use timely::progress::Stamp;

use crate::error::DistError;

/// A timely input's container builder.
type Builder<T> = CapacityContainerBuilder<Vec<T>>;
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

/// What process 0 needs at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// Every vertex: process 0 gets the whole [`Solution`].
    All,
    /// One vertex: process 0 gets its outcome, depth and move only.
    Start(Vertex),
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

/// What [`dist_solve`] returns on process 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gathered {
    /// The whole solution ([`Query::All`]).
    All(Solution),
    /// The start vertex's answer ([`Query::Start`]).
    Start(Answer),
}

/// What one process did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// On process 0, the answer to the query; `None` on the others.
    pub gathered: Option<Gathered>,
    /// Rounds of propagation (the greatest depth plus one; 0 for an empty graph).
    pub rounds: u32,
    /// Bytes this process sent to the others (timely message headers and payloads, as
    /// reported by timely's communication log).
    pub bytes_sent: u64,
}

/// Block partition of `n` vertices over `workers` workers.
#[derive(Debug, Clone, Copy)]
struct Blocks {
    size: usize,
}

impl Blocks {
    fn new(n: usize, workers: usize) -> Self {
        Blocks { size: n.div_ceil(workers).max(1) }
    }
    fn owner(self, v: u32) -> usize {
        v as usize / self.size
    }
    fn range(self, w: usize, n: usize) -> (usize, usize) {
        ((w * self.size).min(n), ((w + 1) * self.size).min(n))
    }
}

/// Solves `g` by retrograde analysis on a timely cluster: the outcome, depth and optimal
/// move of every vertex, the same as [`gamegraph_retro::solve`], with process 0 gathering
/// what `query` asks.
///
/// The vertices are split into contiguous blocks, one per worker of the cluster; a worker
/// touches only the successor lists of its own block. A first exchange subscribes each
/// worker to the owners of the distinct targets of its arcs; then round `r` sends every
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
/// [`DistError::Config`] for a bad cluster, [`DistError::Network`] when the network
/// cannot be set up, [`DistError::Worker`] when a worker fails.
///
/// # Complexity
/// O((V + E) / W + W) work per worker in total plus one barrier per round; rounds: the
/// greatest depth plus two. Network: at most 8 bytes per distinct (worker, target) pair
/// twice (the subscription and the answer), 8 bytes per worker pair and round, and with
/// [`Query::All`] 13 bytes per vertex, plus 48 bytes of header per batch.
pub fn dist_solve(
    g: Arc<Graph>,
    cluster: &Cluster,
    query: Query,
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
    if let Query::Start(v) = query
        && v.index() >= g.num_vertices()
    {
        return Err(DistError::Config(format!(
            "start vertex {} is outside the graph",
            v.one_based()
        )));
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
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| {
            formed.store(true, Ordering::SeqCst);
            run_worker(worker, &g, query)
        },
    )
    .map_err(DistError::Network)?;
    let mut results = Vec::new();
    for r in guards.join() {
        results.push(r.map_err(DistError::Worker)?);
    }
    let rounds = results.first().map_or(0, |r| r.1);
    let gathered = results.into_iter().find_map(|r| r.0);
    Ok(Report { gathered, rounds, bytes_sent: sent.load(Ordering::Relaxed) })
}

/// What a worker received, by time: peers may run a round ahead, so messages of the
/// next time can arrive before the current one is complete.
type Inbox<T> = Rc<RefCell<BTreeMap<u64, Vec<T>>>>;

/// Files a batch seen by an inspect operator under its time.
fn keep<T: Copy>(inbox: &Inbox<T>, event: Result<(&Stamp<u64>, &Vec<T>), &[u64]>) {
    if let Ok((stamp, data)) = event
        && let Some(&t) = stamp.elements().first()
    {
        inbox.borrow_mut().entry(t).or_default().extend_from_slice(data);
    }
}

/// The messages of `time` (all of them once the probe has passed it).
fn take<T>(inbox: &Inbox<T>, time: u64) -> Vec<T> {
    inbox.borrow_mut().remove(&time).unwrap_or_default()
}

/// How a worker finds the index of a target among the distinct targets of its arcs.
enum Names {
    /// A table over all vertices (4 bytes per vertex of the graph, O(1) per look-up):
    /// used when that is at most [`DENSE_BYTES_PER_ARC`] per arc of the worker.
    Dense(Vec<u32>),
    /// The distinct targets are sorted: a binary search.
    Sorted,
}

/// Largest table of [`Names::Dense`], in bytes per arc of the worker.
const DENSE_BYTES_PER_ARC: usize = 8;

impl Names {
    #[inline]
    fn index(&self, distinct: &[u32], v: u32) -> u32 {
        match self {
            Names::Dense(table) => table[v as usize],
            Names::Sorted => distinct.binary_search(&v).expect("a target of mine") as u32,
        }
    }
}

/// The distinct targets of `arcs` (in the order of first appearance with a dense table,
/// sorted otherwise) and how to find a target's index among them.
fn rename(arcs: &[Vertex], n: usize) -> (Vec<u32>, Names) {
    if n.saturating_mul(4) <= arcs.len().saturating_mul(DENSE_BYTES_PER_ARC) {
        let mut table = vec![NONE; n];
        let mut distinct = Vec::new();
        for t in arcs {
            if table[t.index()] == NONE {
                table[t.index()] = distinct.len() as u32;
                distinct.push(t.0);
            }
        }
        (distinct, Names::Dense(table))
    } else {
        let mut distinct: Vec<u32> = arcs.iter().map(|t| t.0).collect();
        distinct.sort_unstable();
        distinct.dedup();
        (distinct, Names::Sorted)
    }
}

/// One worker's part: returns what worker 0 gathered and the number of rounds.
fn run_worker(
    worker: &mut timely::worker::Worker,
    g: &Graph,
    query: Query,
) -> (Option<Gathered>, u32) {
    let me = worker.index();
    let peers = worker.peers();
    let n = g.num_vertices();
    let blocks = Blocks::new(n, peers);
    let (lo, hi) = blocks.range(me, n);
    let (soff, targets) = g.successor_csr();

    let mut input: InputHandle<u64, Builder<u64>> = InputHandle::new();
    let mut gather_in: InputHandle<u64, Builder<Record>> = InputHandle::new();
    let probe = ProbeHandle::new();
    let inbox: Inbox<u64> = Rc::default();
    let gathered: Inbox<Record> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let sink = Rc::clone(&inbox);
        scope
            .input_from(&mut input)
            .exchange(move |&m| {
                if (m >> 32) & 3 == SUBSCRIBE { blocks.owner(m as u32) as u64 } else { m >> 34 }
            })
            .inspect_core(move |event| keep(&sink, event))
            .probe_with(&probe);
        let sink = Rc::clone(&gathered);
        scope
            .input_from(&mut gather_in)
            .exchange(|_| 0)
            .inspect_core(move |event| keep(&sink, event))
            .probe_with(&probe);
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
        while probe.less_than(&time) {
            worker.step();
        }
        sent
    };

    // The distinct targets of my arcs, each arc renamed to its target's index there, and
    // the reverse index: for each distinct target, my vertices with an arc into it.
    let first = soff[lo] as usize;
    let last = soff[hi] as usize;
    let my_arcs = &targets[first..last];
    let (distinct, names) = rename(my_arcs, n);
    let local: Vec<u32> = my_arcs.iter().map(|t| names.index(&distinct, t.0)).collect();
    let mut rev_off = vec![0usize; distinct.len() + 1];
    for &t in &local {
        rev_off[t as usize + 1] += 1;
    }
    for i in 0..distinct.len() {
        rev_off[i + 1] += rev_off[i];
    }
    let mut fill = rev_off.clone();
    let mut rev = vec![0u32; local.len()];
    for u in lo..hi {
        for &t in &local[soff[u] as usize - first..soff[u + 1] as usize - first] {
            rev[fill[t as usize]] = (u - lo) as u32;
            fill[t as usize] += 1;
        }
    }
    drop(fill);

    // Subscriptions, then the subscribers of each of my vertices.
    for &t in &distinct {
        input.send(word(me, SUBSCRIBE, t));
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
    let mut counter: Vec<u64> = (lo..hi).map(|u| soff[u + 1] - soff[u]).collect();
    let mut label = vec![UNKNOWN; hi - lo];
    let mut depth = vec![NONE; hi - lo];
    let mut their_label = vec![UNKNOWN; distinct.len()];
    let mut their_depth = vec![NONE; distinct.len()];
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
            let i = names.index(&distinct, m as u32) as usize;
            their_label[i] = if kind == DECIDED_WIN { WIN } else { LOSS };
            their_depth[i] = d;
            for &u in &rev[rev_off[i]..rev_off[i + 1]] {
                let u = u as usize;
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
    drop((counter, rev, rev_off, subs, sub_off, frontier, next));

    // The optimal moves, and what worker 0 gathers.
    let best_move = |u: usize| -> u32 {
        let arcs = &local[soff[lo + u] as usize - first..soff[lo + u + 1] as usize - first];
        let mut best = NONE;
        let (want_label, want_depth) = match label[u] {
            WIN => (Some(LOSS), depth[u] - 1),
            LOSS if depth[u] > 0 => (None, depth[u] - 1),
            LOSS => return NONE,
            _ => (Some(UNKNOWN), NONE),
        };
        for &t in arcs {
            let t = t as usize;
            if distinct[t] < best
                && their_depth[t] == want_depth
                && want_label.is_none_or(|l| their_label[t] == l)
            {
                best = distinct[t];
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
    }
    let t = step(&mut input, &mut gather_in);
    if me != 0 {
        return (None, rounds);
    }
    let outcome = |l: u8| match l {
        WIN => Outcome::Win,
        LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    };
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
    use gamegraph_graph::testgen::{SplitMix64, random_graph};
    use std::net::TcpListener;

    /// Free loopback ports, chosen now.
    fn ports(k: usize) -> Vec<String> {
        let listeners: Vec<TcpListener> =
            (0..k).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
        listeners.iter().map(|l| l.local_addr().unwrap().to_string()).collect()
    }

    /// Runs every process of a `processes` × `workers` cluster as a thread here.
    fn run(g: &Arc<Graph>, processes: usize, workers: usize, query: Query) -> (Gathered, u32) {
        let addresses = ports(processes);
        let handles: Vec<_> = (0..processes)
            .map(|process| {
                let g = Arc::clone(g);
                let cluster = Cluster { addresses: addresses.clone(), process, workers };
                std::thread::spawn(move || {
                    dist_solve(g, &cluster, query, Arc::new(AtomicBool::new(false))).unwrap()
                })
            })
            .collect();
        let reports: Vec<Report> = handles.into_iter().map(|h| h.join().unwrap()).collect();
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
        for (case, &(processes, workers)) in
            [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (1, 3)].iter().enumerate()
        {
            // Timely connects processes with one-second retries: fewer runs on several.
            let sizes: &[(usize, usize)] = if processes == 1 {
                &[(0, 0), (1, 0), (1, 1), (5, 3), (30, 45), (200, 300), (300, 40)]
            } else {
                &[(1, 1), (30, 45), (200, 300), (300, 40)]
            };
            for &(n, m) in sizes {
                let g = Arc::new(random_graph(&mut rng, n, m, case % 2 == 1 && n > 1));
                let expected = gamegraph_retro::solve(&g);
                let (got, rounds) = run(&g, processes, workers, Query::All);
                assert_eq!(
                    got,
                    Gathered::All(expected.clone()),
                    "{processes}x{workers} n={n} m={m}"
                );
                let max_depth = (0..n).filter_map(|v| expected.depth(Vertex::from_index(v))).max();
                assert_eq!(rounds, max_depth.map_or(0, |d| d + 1));
                if n > 0 {
                    let s = Vertex::from_index(n / 2);
                    let (got, _) = run(&g, processes, workers, Query::Start(s));
                    let want = Answer {
                        outcome: expected.outcome(s),
                        depth: expected.depth(s),
                        best_move: expected.best_move(s),
                    };
                    assert_eq!(got, Gathered::Start(want));
                }
            }
        }
    }

    #[test]
    fn bad_clusters_are_refused() {
        let g = Arc::new(random_graph(&mut SplitMix64::new(1), 3, 3, false));
        let flag = || Arc::new(AtomicBool::new(false));
        let c = Cluster { addresses: ports(1), process: 1, workers: 1 };
        assert_eq!(
            dist_solve(Arc::clone(&g), &c, Query::All, flag()).unwrap_err(),
            DistError::Config("process 1 is outside 0..0".into())
        );
        let c = Cluster { addresses: ports(1), process: 0, workers: 0 };
        assert!(matches!(
            dist_solve(Arc::clone(&g), &c, Query::All, flag()),
            Err(DistError::Config(_))
        ));
        let c = Cluster { addresses: ports(1), process: 0, workers: 1 };
        assert!(matches!(
            dist_solve(g, &c, Query::Start(Vertex(3)), flag()),
            Err(DistError::Config(_))
        ));
    }
}
