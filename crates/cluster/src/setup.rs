//! The first time of the cluster: every worker says what it reads, the readers of a
//! binary file judge it together, and process 0 of the slow path sends the other
//! processes their parts.

use gamegraph_graph::format::binary::{BinaryParts, PartCheck};
use gamegraph_graph::{Graph, ReadError, Vertex};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::answer::Query;
use crate::error::ClusterError;
use crate::exchange::{Builder, Inbox, delivered, settle, take};
use crate::input::Role;
use crate::part::{Blocks, Part};
use crate::wire::{Note, Reads, Says, SentArc};

/// What the first time settled for a worker: the graph's size, process 0's query and the
/// worker's part.
pub(crate) struct Setup {
    pub(crate) n: usize,
    pub(crate) query: Query,
    pub(crate) part: Part,
}

/// Arcs the sender of the slow path sends between two steps of its worker.
const SEND_BATCH: usize = 1 << 16;

/// Runs the first time of the cluster on `worker` (one of `workers` per process) for a
/// process of `role`: returns its part, or the error every worker reports alike.
pub(crate) fn setup(
    worker: &mut Worker,
    workers: usize,
    role: &Role,
    query: Query,
) -> Result<Setup, ClusterError> {
    let mut first = FirstTime::new(worker);
    first.tell_all(&Says::Hello(role.reads()));
    if first.me == 0 {
        first.tell_all(&Says::Query(query));
    }
    let own = own_part(&mut first, role, workers);
    if let Role::Sender(g) = role
        && first.me == 0
    {
        send_parts(worker, &mut first.arcs, g, workers);
    }
    let (me, peers) = (first.me, first.peers);
    let (notes, sent) = first.finish(worker);
    let heard = Heard::of(notes);
    if let Some((process, message)) = heard.failure {
        return Err(match own {
            Some(Err(e)) => e,
            _ if matches!(role, Role::FailedSender(_)) => {
                ClusterError::Peer { process: 0, message }
            }
            _ => ClusterError::Peer { process, message },
        });
    }
    agree(&heard.hellos, workers)?;
    let query = heard.query.expect("worker 0 sends the query");
    let n = heard.hellos[0].1.vertices().expect("process 0 knows the size of the graph");
    let part = match (role, own) {
        (Role::Reader(f), Some(Ok(part))) => {
            verdict(f, heard.checks, heard.sums)?;
            part
        }
        (_, Some(Ok(part))) => part,
        _ => received(&sent, n, me, peers),
    };
    Ok(Setup { n, query, part })
}

/// The streams of the first time: notes to any worker, and the arcs of the slow path.
struct FirstTime {
    me: usize,
    peers: usize,
    notes: InputHandle<u64, Builder<Note>>,
    arcs: InputHandle<u64, Builder<SentArc>>,
    note_box: Inbox<Note>,
    arc_box: Inbox<SentArc>,
    probe: ProbeHandle<u64>,
}

impl FirstTime {
    fn new(worker: &mut Worker) -> FirstTime {
        let mut notes = InputHandle::new();
        let mut arcs = InputHandle::new();
        let probe = ProbeHandle::new();
        let (note_box, arc_box) = worker.dataflow::<u64, _, _>(|scope| {
            let note_box = delivered(scope, &mut notes, |n: &Note| u64::from(n.to), &probe);
            let arc_box = delivered(scope, &mut arcs, |a: &SentArc| u64::from(a.to), &probe);
            (note_box, arc_box)
        });
        let (me, peers) = (worker.index(), worker.peers());
        FirstTime { me, peers, notes, arcs, note_box, arc_box, probe }
    }

    /// Sends a note to every worker, this one included.
    fn tell_all(&mut self, says: &Says) {
        for to in 0..self.peers {
            self.notes.send(Note { to: to as u32, from: self.me as u32, says: says.clone() });
        }
    }

    /// Closes the first time and runs the worker until everything sent in it has arrived:
    /// the notes and the arcs this worker received.
    fn finish(self, worker: &mut Worker) -> (Vec<Note>, Vec<SentArc>) {
        let FirstTime { mut notes, mut arcs, note_box, arc_box, probe, .. } = self;
        notes.advance_to(1);
        arcs.advance_to(1);
        drop((notes, arcs));
        settle(worker, &probe, 1);
        (take(&note_box, 0), take(&arc_box, 0))
    }
}

/// This worker's part when its process has it: its block of the whole graph, or its part
/// of a binary file, read now (what it found is told to every worker). `None` when the part
/// comes from process 0, whose failure to read the graph is told to every worker.
fn own_part(
    first: &mut FirstTime,
    role: &Role,
    workers: usize,
) -> Option<Result<Part, ClusterError>> {
    match role {
        Role::Whole(g) | Role::Sender(g) => Some(Ok(Part::shared(g, first.me, first.peers))),
        Role::Reader(f) => Some(read_part(first, f, workers).map_err(ClusterError::Read)),
        Role::FailedSender(message) => {
            if first.me == 0 {
                first.tell_all(&Says::Failed { process: 0, message: message.clone() });
            }
            None
        }
        Role::Receiver => None,
    }
}

/// Reads this worker's part of a binary file and hashes its equal share of the file's
/// checksum blocks, telling every worker what it found (or its process's failure).
fn read_part(first: &mut FirstTime, f: &BinaryParts, workers: usize) -> Result<Part, ReadError> {
    let (me, peers) = (first.me, first.peers);
    let failed = |e: &ReadError| Says::Failed { process: me / workers, message: e.to_string() };
    let n = f.num_vertices();
    let (lo, hi) = Blocks::new(n, peers).range(me, n);
    let read = f.read_part(lo..hi);
    match &read {
        Ok(p) => first.tell_all(&Says::Part(p.check)),
        Err(e) => first.tell_all(&failed(e)),
    }
    let blocks = f.num_blocks();
    for b in blocks * me / peers..blocks * (me + 1) / peers {
        match f.block_sum(b) {
            Ok(sum) => first.tell_all(&Says::Sum { block: b as u64, sum }),
            Err(e) => first.tell_all(&failed(&e)),
        }
    }
    read.map(|p| Part::owned(lo, hi, p.offsets, p.targets))
}

/// Process 0's first worker on the slow path: sends the successor lists of every vertex
/// that another process owns, stepping the worker between batches.
fn send_parts(
    worker: &mut Worker,
    arcs: &mut InputHandle<u64, Builder<SentArc>>,
    g: &Graph,
    workers: usize,
) {
    let n = g.num_vertices();
    let peers = worker.peers();
    let blocks = Blocks::new(n, peers);
    let mut batch = 0;
    for v in blocks.range(workers.min(peers), n).0..n {
        let to = blocks.owner(v as u32) as u32;
        for t in g.successors(Vertex::from_index(v)) {
            arcs.send(SentArc { to, source: v as u32, target: t.0 });
        }
        batch += g.out_degree(Vertex::from_index(v));
        if batch >= SEND_BATCH {
            batch = 0;
            worker.step();
        }
    }
}

/// What a worker heard in the first time. Every worker hears the same notes, so every
/// worker judges them alike.
#[derive(Default)]
struct Heard {
    /// What each worker reads, by worker.
    hellos: Vec<(u32, Reads)>,
    query: Option<Query>,
    /// The failure of the lowest process that failed.
    failure: Option<(usize, String)>,
    /// What each reader of a binary file found in its part, by worker.
    checks: Vec<(u32, PartCheck)>,
    /// The checksums of the blocks of a binary file, by block.
    sums: Vec<(u64, u64)>,
}

impl Heard {
    fn of(notes: Vec<Note>) -> Heard {
        let mut heard = Heard::default();
        for Note { from, says, .. } in notes {
            match says {
                Says::Hello(reads) => heard.hellos.push((from, reads)),
                Says::Query(q) => heard.query = Some(q),
                Says::Failed { process, message } => {
                    if heard.failure.as_ref().is_none_or(|(p, _)| process < *p) {
                        heard.failure = Some((process, message));
                    }
                }
                Says::Part(check) => heard.checks.push((from, check)),
                Says::Sum { block, sum } => heard.sums.push((block, sum)),
            }
        }
        heard.hellos.sort_unstable_by_key(|h| h.0);
        heard.checks.sort_unstable_by_key(|c| c.0);
        heard.sums.sort_unstable();
        heard
    }
}

/// Checks that every worker reads what worker 0 reads (see [`Reads::admits`]).
fn agree(hellos: &[(u32, Reads)], workers: usize) -> Result<(), ClusterError> {
    let process_0 = hellos[0].1;
    for &(from, reads) in hellos {
        let process = from as usize / workers;
        if !process_0.admits(reads, process == 0) {
            return Err(ClusterError::Mismatch { process_0, process, reads });
        }
    }
    Ok(())
}

/// Judges a binary file from the checksums of its blocks and the checks of its parts, in
/// the order a whole-file read judges it.
fn verdict(
    f: &BinaryParts,
    checks: Vec<(u32, PartCheck)>,
    sums: Vec<(u64, u64)>,
) -> Result<(), ClusterError> {
    let sums: Vec<u64> = sums.into_iter().map(|s| s.1).collect();
    let checks: Vec<PartCheck> = checks.into_iter().map(|c| c.1).collect();
    f.verdict(&sums, &checks).map_err(ClusterError::Read)
}

/// Worker `me`'s part, of `peers` workers in a graph of `n` vertices, from the arcs
/// process 0 sent it.
fn received(sent: &[SentArc], n: usize, me: usize, peers: usize) -> Part {
    let (lo, hi) = Blocks::new(n, peers).range(me, n);
    let mut offsets = vec![0u64; hi - lo + 1];
    for a in sent {
        offsets[a.source as usize - lo + 1] += 1;
    }
    for i in 0..hi - lo {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut targets = vec![Vertex(0); sent.len()];
    for a in sent {
        let slot = &mut fill[a.source as usize - lo];
        targets[*slot as usize] = Vertex(a.target);
        *slot += 1;
    }
    Part::owned(lo, hi, offsets, targets)
}
