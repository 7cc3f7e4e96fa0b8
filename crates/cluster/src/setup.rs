//! The first time of the cluster: every worker says what it reads, the readers of a
//! binary file judge it together, and process 0 of the slow path sends the other
//! processes their parts.

use gamegraph_graph::format::binary::{BLOCK, BinaryParts, PartCheck};
use gamegraph_graph::{Graph, ReadError, Vertex};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::answer::Query;
use crate::error::ClusterError;
use crate::exchange::{Builder, Inbox, delivered, settle, take};
use crate::input::Role;
use crate::liveness::Alarm;
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

/// Bytes of a binary file's header: its offsets start there (see the layout table of
/// `gamegraph_graph::format::binary`).
const HEADER_BYTES: u64 = 40;

/// Runs the first time of the cluster on `worker` (one of `workers` per process) for a
/// process of `role`: returns its part, or the error every worker reports alike.
pub(crate) fn setup(
    worker: &mut Worker,
    workers: usize,
    role: &Role,
    query: Query,
    alarm: &Alarm,
) -> Result<Setup, ClusterError> {
    let mut first = FirstTime::new(worker, alarm.clone());
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
    let (notes, sent) = first.close(worker, 0)?;
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
            let mine = verdict(f, &heard, workers);
            first.tell_all(&Says::Verdict(mine.as_ref().err().map(ToString::to_string)));
            let (notes, _) = first.close(worker, 1)?;
            same_verdicts(notes, workers, role.reads())?;
            mine?;
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
    alarm: Alarm,
}

impl FirstTime {
    fn new(worker: &mut Worker, alarm: Alarm) -> FirstTime {
        let mut notes = InputHandle::new();
        let mut arcs = InputHandle::new();
        let probe = ProbeHandle::new();
        let (note_box, arc_box) = worker.dataflow::<u64, _, _>(|scope| {
            let note_box = delivered(scope, &mut notes, |n: &Note| u64::from(n.to), &probe);
            let arc_box = delivered(scope, &mut arcs, |a: &SentArc| u64::from(a.to), &probe);
            (note_box, arc_box)
        });
        let (me, peers) = (worker.index(), worker.peers());
        FirstTime { me, peers, notes, arcs, note_box, arc_box, probe, alarm }
    }

    /// Sends a note to every worker, this one included.
    fn tell_all(&mut self, says: &Says) {
        for to in 0..self.peers {
            self.notes.send(Note { to: to as u32, from: self.me as u32, says: says.clone() });
        }
    }

    /// Closes `time` and runs the worker until everything sent at it has arrived: the
    /// notes and the arcs this worker received.
    fn close(
        &mut self,
        worker: &mut Worker,
        time: u64,
    ) -> Result<(Vec<Note>, Vec<SentArc>), ClusterError> {
        self.notes.advance_to(time + 1);
        self.arcs.advance_to(time + 1);
        settle(worker, &self.probe, time + 1, &self.alarm)?;
        Ok((take(&self.note_box, time), take(&self.arc_box, time)))
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

/// Reads this worker's part of a binary file and hashes the checksum blocks it lies in
/// and an equal share of all the blocks, telling every worker what it found (or its
/// process's failure). A version-1 file, whose checksum is of all its bytes as one
/// stream, is hashed whole by the first worker of each process.
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
    for b in blocks_to_hash(f, me, peers, workers, (lo, hi), read.as_ref().ok().map(|p| p.check)) {
        match f.block_sum(b) {
            Ok(sum) => first.tell_all(&Says::Sum { block: b as u64, sum }),
            Err(e) => first.tell_all(&failed(&e)),
        }
    }
    read.map(|p| Part::owned(lo, hi, p.offsets, p.targets))
}

/// The checksum blocks worker `me` of `peers` (`workers` per process) hashes: its equal
/// share, and the blocks of its part's offsets (vertices `lo..=hi`) and targets, so that
/// what it read is compared with what the others read of the same bytes.
fn blocks_to_hash(
    f: &BinaryParts,
    me: usize,
    peers: usize,
    workers: usize,
    (lo, hi): (usize, usize),
    check: Option<PartCheck>,
) -> Vec<usize> {
    let blocks = f.num_blocks();
    let mut mine: Vec<usize> = (blocks * me / peers..blocks * (me + 1) / peers).collect();
    if f.version() < 2 {
        if me.is_multiple_of(workers) {
            mine.push(0);
        }
    } else {
        let block = BLOCK as u64;
        let mut cover = |from: u64, to: u64| {
            if to > from {
                let last = ((to - 1) / block).min(blocks as u64 - 1);
                mine.extend((from / block) as usize..=last as usize);
            }
        };
        cover(HEADER_BYTES + 8 * lo as u64, HEADER_BYTES + 8 * (hi as u64 + 1));
        if let Some(c) = check.filter(|c| c.sorted) {
            let targets_at = HEADER_BYTES + 8 * (f.num_vertices() as u64 + 1);
            cover(targets_at + 4 * c.first, targets_at + 4 * c.last);
        }
    }
    mine.sort_unstable();
    mine.dedup();
    mine
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
    /// The checksums of the blocks of a binary file: (block, sender, checksum), by block.
    sums: Vec<(u64, u32, u64)>,
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
                Says::Sum { block, sum } => heard.sums.push((block, from, sum)),
                Says::Verdict(_) => {}
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
/// the order a whole-file read judges it, once every block's checksum is the same from
/// every worker that hashed it (else the processes read different files).
fn verdict(f: &BinaryParts, heard: &Heard, workers: usize) -> Result<(), ClusterError> {
    let reads = Reads::Binary { vertices: f.num_vertices(), arcs: f.num_arcs() };
    let mut sums: Vec<Option<(u32, u64)>> = vec![None; f.num_blocks()];
    for &(block, from, sum) in &heard.sums {
        let slot = usize::try_from(block).ok().and_then(|b| sums.get_mut(b));
        match slot {
            Some(slot @ None) => *slot = Some((from, sum)),
            Some(Some((_, s))) if *s == sum => {}
            Some(Some((other, _))) => {
                let (a, b) = (*other as usize / workers, from as usize / workers);
                return Err(ClusterError::Differ { first: a.min(b), second: a.max(b), reads });
            }
            None => {
                return Err(ClusterError::Differ {
                    first: 0,
                    second: from as usize / workers,
                    reads,
                });
            }
        }
    }
    let Some(sums) = sums.iter().map(|s| s.map(|s| s.1)).collect::<Option<Vec<u64>>>() else {
        return Err(ClusterError::Differ { first: 0, second: 0, reads });
    };
    let checks: Vec<PartCheck> = heard.checks.iter().map(|c| c.1).collect();
    f.verdict(&sums, &checks).map_err(ClusterError::Read)
}

/// Checks that every worker judged the binary file alike (the same file is judged alike
/// everywhere): else the processes read different files.
fn same_verdicts(notes: Vec<Note>, workers: usize, reads: Reads) -> Result<(), ClusterError> {
    let mut verdicts: Vec<(u32, Option<String>)> = notes
        .into_iter()
        .filter_map(|n| match n.says {
            Says::Verdict(v) => Some((n.from, v)),
            _ => None,
        })
        .collect();
    verdicts.sort_unstable_by_key(|v| v.0);
    match verdicts.iter().find(|v| v.1 != verdicts[0].1) {
        Some(&(from, _)) => {
            Err(ClusterError::Differ { first: 0, second: from as usize / workers, reads })
        }
        None => Ok(()),
    }
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
