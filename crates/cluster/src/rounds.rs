//! The rounds: each worker subscribes to the owners of its arcs' targets, then every
//! round sends the vertices decided at its depth to their subscribers, which update their
//! own predecessors, until a round decides nothing anywhere.

use gamegraph_graph::Label;
use gamegraph_graph::outcome::NONE;
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::exchange::{Builder, Inbox, delivered, settle, take};
use crate::liveness::Alarm;
use crate::local::Local;
use crate::part::Blocks;
use crate::wire::{Message, Record, Word};

/// The streams of the rounds and of the gathering that follows, and the current time.
pub(crate) struct Streams {
    words: InputHandle<u64, Builder<Word>>,
    records: InputHandle<u64, Builder<Record>>,
    word_box: Inbox<Word>,
    record_box: Inbox<Record>,
    probe: ProbeHandle<u64>,
    time: u64,
    alarm: Alarm,
}

impl Streams {
    /// The streams of a worker of a graph partitioned into `blocks`.
    pub(crate) fn new(worker: &mut Worker, blocks: Blocks, alarm: Alarm) -> Streams {
        let mut words = InputHandle::new();
        let mut records = InputHandle::new();
        let probe = ProbeHandle::new();
        let (word_box, record_box) = worker.dataflow::<u64, _, _>(|scope| {
            let word_box = delivered(scope, &mut words, move |w: &Word| w.route(blocks), &probe);
            let record_box = delivered(scope, &mut records, |_| 0, &probe);
            (word_box, record_box)
        });
        Streams { words, records, word_box, record_box, probe, time: 0, alarm }
    }

    #[inline]
    fn send(&mut self, message: Message) {
        self.words.send(Word::new(message));
    }

    /// Sends a record to worker 0.
    pub(crate) fn send_record(&mut self, record: Record) {
        self.records.send(record);
    }

    /// Closes the current time and runs the dataflow until everything sent at it has
    /// arrived; returns that time.
    ///
    /// # Errors
    /// The alarm's error, when a peer process was lost.
    pub(crate) fn step(&mut self, worker: &mut Worker) -> Result<u64, ClusterError> {
        let sent = self.time;
        self.time += 1;
        self.words.advance_to(self.time);
        self.records.advance_to(self.time);
        settle(worker, &self.probe, self.time, &self.alarm)?;
        Ok(sent)
    }

    /// The records received at `time` (all of them once it is stepped past).
    pub(crate) fn records(&self, time: u64) -> Vec<Record> {
        take(&self.record_box, time)
    }
}

/// What the rounds decided: for a worker's own vertices and for the targets of its arcs
/// (by index), the label and the depth ([`NONE`] while undecided).
pub(crate) struct State {
    pub(crate) label: Vec<Label>,
    pub(crate) depth: Vec<u32>,
    pub(crate) their_label: Vec<Label>,
    pub(crate) their_depth: Vec<u32>,
    /// The rounds run: the greatest depth plus one.
    pub(crate) rounds: u32,
}

/// For each of a worker's own vertices, the workers subscribed to it.
struct Subscribers {
    offsets: Vec<usize>,
    workers: Vec<u32>,
}

impl Subscribers {
    fn of(&self, u: usize) -> &[u32] {
        &self.workers[self.offsets[u]..self.offsets[u + 1]]
    }
}

/// Runs the subscriptions and the rounds on `worker`.
pub(crate) fn propagate(
    worker: &mut Worker,
    streams: &mut Streams,
    local: &Local,
) -> Result<State, ClusterError> {
    let peers = worker.peers();
    let subs = subscribe(worker, streams, local)?;
    let len = local.len();
    let mut counter: Vec<u64> = (0..len).map(|u| local.arcs_of(u).len() as u64).collect();
    let mut state = State {
        label: vec![Label::UNKNOWN; len],
        depth: vec![NONE; len],
        their_label: vec![Label::UNKNOWN; local.names.len()],
        their_depth: vec![NONE; local.names.len()],
        rounds: 0,
    };
    let mut frontier: Vec<u32> = Vec::new();
    for (u, &moves) in counter.iter().enumerate() {
        if moves == 0 {
            state.label[u] = Label::LOSS;
            state.depth[u] = 0;
            frontier.push(u as u32);
        }
    }
    let mut next: Vec<u32> = Vec::new();
    loop {
        announce(streams, &subs, &state.label, &frontier, local.lo, peers);
        let t = streams.step(worker)?;
        let decided = state.receive(take(&streams.word_box, t), local, &mut counter, &mut next);
        if decided == 0 {
            break;
        }
        state.rounds += 1;
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Ok(state)
}

/// Subscribes to the owner of every distinct target of the worker's arcs, and indexes
/// the subscriptions that its own vertices received.
fn subscribe(
    worker: &mut Worker,
    streams: &mut Streams,
    local: &Local,
) -> Result<Subscribers, ClusterError> {
    let me = worker.index();
    let (rev_off, _) = local.graph.predecessor_csr();
    for i in 0..local.names.len() {
        if rev_off[i + 1] > rev_off[i] {
            let vertex = local.names.vertex(i as u32);
            streams.send(Message::Subscribe { from: me, vertex });
        }
    }
    let t = streams.step(worker)?;
    // Kept as words (8 bytes each) until indexed.
    let received = take(&streams.word_box, t);
    let subscription = |w: &Word| match w.message() {
        Message::Subscribe { from, vertex } => (vertex as usize - local.lo, from as u32),
        m => unreachable!("only subscriptions are sent at time 0, not {m:?}"),
    };
    let mut offsets = vec![0usize; local.len() + 1];
    for (u, _) in received.iter().map(subscription) {
        offsets[u + 1] += 1;
    }
    for i in 0..local.len() {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut workers = vec![0u32; received.len()];
    for (u, from) in received.iter().map(subscription) {
        workers[fill[u]] = from;
        fill[u] += 1;
    }
    Ok(Subscribers { offsets, workers })
}

/// Sends each vertex of the frontier (own vertices `lo + u`) to its subscribers, and the
/// size of the frontier to every worker.
fn announce(
    streams: &mut Streams,
    subs: &Subscribers,
    label: &[Label],
    frontier: &[u32],
    lo: usize,
    peers: usize,
) {
    for &u in frontier {
        let u = u as usize;
        let (vertex, label) = ((u + lo) as u32, label[u]);
        for &w in subs.of(u) {
            streams.send(Message::Decided { to: w as usize, vertex, label });
        }
    }
    for to in 0..peers {
        streams.send(Message::Count { to, decided: frontier.len() as u32 });
    }
}

impl State {
    /// Applies the messages of a round: an L target makes its undecided predecessors W,
    /// a W target decrements their counters and makes those at zero L, at depth
    /// `rounds + 1`, pushed onto `next`. Returns the vertices decided in the round by
    /// all workers together.
    fn receive(
        &mut self,
        messages: Vec<Word>,
        local: &Local,
        counter: &mut [u64],
        next: &mut Vec<u32>,
    ) -> u64 {
        let d = self.rounds;
        let (rev_off, rev) = local.graph.predecessor_csr();
        let mut decided = 0u64;
        for m in messages {
            let (vertex, label) = match m.message() {
                Message::Count { decided: count, .. } => {
                    decided += u64::from(count);
                    continue;
                }
                Message::Decided { vertex, label, .. } => (vertex, label),
                m @ Message::Subscribe { .. } => unreachable!("a subscription in a round: {m:?}"),
            };
            let i = local.names.index(vertex) as usize;
            self.their_label[i] = label;
            self.their_depth[i] = d;
            for u in &rev[rev_off[i] as usize..rev_off[i + 1] as usize] {
                let u = u.index();
                if self.label[u] != Label::UNKNOWN {
                    continue;
                }
                if label == Label::LOSS {
                    self.label[u] = Label::WIN;
                } else {
                    counter[u] -= 1;
                    if counter[u] > 0 {
                        continue;
                    }
                    self.label[u] = Label::LOSS;
                }
                self.depth[u] = d + 1;
                next.push(u as u32);
            }
        }
        decided
    }
}
