//! Where each worker's part of the graph comes from, and the first time of the cluster:
//! every worker says what it reads, the readers of a binary file judge it together, and
//! process 0 of the slow path sends the other processes their parts.

use std::sync::Arc;

use gamegraph_graph::format::binary::{BinaryParts, PartCheck};
use gamegraph_graph::{Graph, Vertex};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::error::DistError;
use crate::solve::{Blocks, Builder, Query, delivered, settle, take};

/// What a process starts from.
#[derive(Debug, Clone)]
pub enum Input {
    /// The whole graph, held by every process (each read the same file, or built it).
    Graph(Arc<Graph>),
    /// A binary file every process can read (the same file, or identical copies): each
    /// worker reads the successor lists of its own block by position, and the checksum is
    /// checked once across the cluster, each worker hashing an equal share of the blocks.
    Binary(Arc<BinaryParts>),
    /// Process 0 of the slow path (a file only it reads, such as a text file): it holds the
    /// graph and sends every other process the successor lists of its blocks.
    Root(Arc<Graph>),
    /// Process 0 of the slow path, which could not read the graph: every process fails,
    /// the others with [`DistError::Peer`] and this message.
    RootFailed(String),
    /// Any other process of the slow path: its part comes from process 0.
    Receiver,
}

/// A worker's vertices `lo..hi` and their successor lists.
pub(crate) struct Part {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
    store: Store,
}

enum Store {
    Shared(Arc<Graph>),
    /// The offsets of `lo..=hi` (from any base) and the targets of those arcs.
    Owned(Vec<u64>, Vec<Vertex>),
}

impl Part {
    /// The offsets of the vertices `lo..=hi` and the targets of their arcs, the first of
    /// them at offset `offsets[0]`.
    pub(crate) fn csr(&self) -> (&[u64], &[Vertex]) {
        match &self.store {
            Store::Shared(g) => {
                let (offsets, targets) = g.successor_csr();
                let offsets = &offsets[self.lo..=self.hi];
                (offsets, &targets[offsets[0] as usize..offsets[self.hi - self.lo] as usize])
            }
            Store::Owned(offsets, targets) => (offsets, targets),
        }
    }
}

impl Part {
    /// The part of the vertices `lo..hi` from the arcs process 0 sent.
    fn received(sent: &[SentArc], lo: usize, hi: usize) -> Part {
        let mut offsets = vec![0u64; hi - lo + 1];
        for &(_, u, _) in sent {
            offsets[u as usize - lo + 1] += 1;
        }
        for i in 0..hi - lo {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![Vertex(0); sent.len()];
        for &(_, u, t) in sent {
            let slot = &mut fill[u as usize - lo];
            targets[*slot as usize] = Vertex(t);
            *slot += 1;
        }
        Part { lo, hi, store: Store::Owned(offsets, targets) }
    }
}

/// What the first time settled for a worker: the graph's size, process 0's query and the
/// worker's part.
pub(crate) struct Setup {
    pub(crate) n: usize,
    pub(crate) query: Query,
    pub(crate) part: Part,
}

/// A note of the first time: (to worker, from worker, kind, three numbers, a text).
type Note = (u32, u32, u8, u64, u64, u64, String);
/// An arc of the slow path: (to worker, source, target).
type SentArc = (u32, u32, u32);

/// "What I read": the kind of input, the vertices and the arcs ([`UNKNOWN`] if unknown).
const HELLO: u8 = 0;
/// Process 0's query: 0 for all, 1 and a vertex for one.
const QUERY: u8 = 1;
/// A failure, in words, with the failing process.
const FAIL: u8 = 2;
/// A part's check: first and last offsets, largest target + 1 (0 for none); sorted or not.
const PART_SORTED: u8 = 3;
const PART_UNSORTED: u8 = 4;
/// A block's checksum: the block and its sum.
const SUM: u8 = 5;

const GRAPH: u64 = 0;
const BINARY: u64 = 1;
const SLOW: u64 = 2;
const UNKNOWN: u64 = u64::MAX;

/// Arcs the sender of the slow path sends between two steps of its worker.
const SEND_BATCH: usize = 1 << 16;

/// Runs the first time of the cluster on `worker` (one of `workers` per process): returns
/// its part, or the error every worker reports alike.
pub(crate) fn setup(
    worker: &mut Worker,
    workers: usize,
    input: &Input,
    query: Query,
) -> Result<Setup, DistError> {
    let me = worker.index();
    let peers = worker.peers();
    let mut notes: InputHandle<u64, Builder<Note>> = InputHandle::new();
    let mut arcs: InputHandle<u64, Builder<SentArc>> = InputHandle::new();
    let probe = ProbeHandle::new();
    let (note_box, arc_box) = worker.dataflow::<u64, _, _>(|scope| {
        let notes = delivered(scope, &mut notes, |n: &Note| u64::from(n.0), &probe);
        let arcs = delivered(scope, &mut arcs, |a: &SentArc| u64::from(a.0), &probe);
        (notes, arcs)
    });
    let all = |notes: &mut InputHandle<u64, Builder<Note>>,
               kind: u8,
               a: u64,
               b: u64,
               c: u64,
               text: &str| {
        for to in 0..peers {
            notes.send((to as u32, me as u32, kind, a, b, c, text.to_owned()));
        }
    };

    let (kind, n, m) = match input {
        Input::Graph(g) => (GRAPH, g.num_vertices() as u64, g.num_arcs() as u64),
        Input::Binary(f) => (BINARY, f.num_vertices() as u64, f.num_arcs() as u64),
        Input::Root(g) => (SLOW, g.num_vertices() as u64, g.num_arcs() as u64),
        Input::RootFailed(_) | Input::Receiver => (SLOW, UNKNOWN, UNKNOWN),
    };
    all(&mut notes, HELLO, kind, n, m, "");
    if me == 0 {
        match query {
            Query::All => all(&mut notes, QUERY, 0, 0, 0, ""),
            Query::Start(v) => all(&mut notes, QUERY, 1, u64::from(v.0), 0, ""),
            Query::Shard => all(&mut notes, QUERY, 2, 0, 0, ""),
        }
    }
    let own: Option<Result<Part, DistError>> = match input {
        Input::Graph(g) | Input::Root(g) => {
            let (lo, hi) = Blocks::new(g.num_vertices(), peers).range(me, g.num_vertices());
            Some(Ok(Part { lo, hi, store: Store::Shared(Arc::clone(g)) }))
        }
        Input::Binary(f) => {
            let n = f.num_vertices();
            let (lo, hi) = Blocks::new(n, peers).range(me, n);
            let read = f.read_part(lo..hi).map_err(DistError::Read);
            match &read {
                Ok(p) => {
                    let c = p.check;
                    let kind = if c.sorted { PART_SORTED } else { PART_UNSORTED };
                    let max = c.max_target.map_or(0, |t| u64::from(t) + 1);
                    all(&mut notes, kind, c.first, c.last, max, "");
                }
                Err(e) => all(&mut notes, FAIL, (me / workers) as u64, 0, 0, &e.to_string()),
            }
            let blocks = f.num_blocks();
            for b in blocks * me / peers..blocks * (me + 1) / peers {
                match f.block_sum(b) {
                    Ok(sum) => all(&mut notes, SUM, b as u64, sum, 0, ""),
                    Err(e) => all(&mut notes, FAIL, (me / workers) as u64, 0, 0, &e.to_string()),
                }
            }
            Some(read.map(|p| Part { lo, hi, store: Store::Owned(p.offsets, p.targets) }))
        }
        Input::RootFailed(message) => {
            if me == 0 {
                all(&mut notes, FAIL, 0, 0, 0, message);
            }
            None
        }
        Input::Receiver => None,
    };
    if let Input::Root(g) = input
        && me == 0
    {
        // The successor lists of every vertex owned by another process.
        let n = g.num_vertices();
        let blocks = Blocks::new(n, peers);
        let mut batch = 0;
        for v in blocks.range(workers.min(peers), n).0..n {
            let to = blocks.owner(v as u32) as u32;
            for t in g.successors(Vertex::from_index(v)) {
                arcs.send((to, v as u32, t.0));
            }
            batch += g.out_degree(Vertex::from_index(v));
            if batch >= SEND_BATCH {
                batch = 0;
                worker.step();
            }
        }
    }
    notes.advance_to(1);
    arcs.advance_to(1);
    drop((notes, arcs));
    settle(worker, &probe, 1);
    let got = take(&note_box, 0);
    let sent = take(&arc_box, 0);

    // Every worker got the same notes; each judges them alike.
    let mut hellos: Vec<(u32, u64, u64, u64)> = Vec::new();
    let mut query = None;
    let mut failure: Option<(u64, &str)> = None;
    let mut checks: Vec<(u32, PartCheck)> = Vec::new();
    let mut sums: Vec<(u64, u64)> = Vec::new();
    for (_, from, kind, a, b, c, text) in &got {
        match *kind {
            HELLO => hellos.push((*from, *a, *b, *c)),
            QUERY => {
                query = Some(match *a {
                    0 => Query::All,
                    1 => Query::Start(Vertex(*b as u32)),
                    _ => Query::Shard,
                });
            }
            FAIL => {
                if failure.is_none_or(|(p, _)| *a < p) {
                    failure = Some((*a, text));
                }
            }
            PART_SORTED | PART_UNSORTED => {
                let max_target = (*c > 0).then(|| (*c - 1) as u32);
                let sorted = *kind == PART_SORTED;
                checks.push((*from, PartCheck { first: *a, last: *b, sorted, max_target }));
            }
            _ => sums.push((*a, *b)),
        }
    }
    if let Some((process, message)) = failure {
        return Err(match own {
            Some(Err(e)) => e,
            _ if matches!(input, Input::RootFailed(_)) => {
                DistError::Peer { process: 0, message: message.to_owned() }
            }
            _ => DistError::Peer { process: process as usize, message: message.to_owned() },
        });
    }
    hellos.sort_unstable();
    agree(&hellos, workers)?;
    let query = query.expect("worker 0 sends the query");
    let part = match (input, own) {
        (Input::Binary(f), Some(Ok(part))) => {
            checks.sort_unstable_by_key(|c| c.0);
            sums.sort_unstable();
            let sums: Vec<u64> = sums.into_iter().map(|s| s.1).collect();
            let checks: Vec<PartCheck> = checks.into_iter().map(|c| c.1).collect();
            f.verdict(&sums, &checks).map_err(DistError::Read)?;
            part
        }
        (_, Some(Ok(part))) => part,
        _ => {
            // A receiver of the slow path: the size comes from process 0's hello.
            let n = hellos[0].2 as usize;
            let (lo, hi) = Blocks::new(n, peers).range(me, n);
            Part::received(&sent, lo, hi)
        }
    };
    let n = hellos[0].2 as usize;
    Ok(Setup { n, query, part })
}

/// Checks that every process reads the same kind of input, of the same size.
fn agree(hellos: &[(u32, u64, u64, u64)], workers: usize) -> Result<(), DistError> {
    let describe = |(_, kind, n, m): (u32, u64, u64, u64)| match kind {
        GRAPH => format!("a graph of {n} vertices and {m} arcs"),
        BINARY => format!("a binary file of {n} vertices and {m} arcs"),
        _ if n == UNKNOWN => "a file for process 0 to send".to_owned(),
        _ => format!("a file of {n} vertices and {m} arcs to send"),
    };
    let first = hellos[0];
    for &h in hellos {
        let slow =
            first.1 == SLOW && h.1 == SLOW && (h.2 == UNKNOWN || h.0 as usize / workers == 0);
        if h.1 != first.1 || (!slow && (h.2, h.3) != (first.2, first.3)) {
            return Err(DistError::Mismatch(format!(
                "the processes do not read the same graph: process 0 reads {}, process {} reads {}",
                describe(first),
                h.0 as usize / workers,
                describe(h)
            )));
        }
    }
    Ok(())
}
