//! The messages between workers: typed here, and packed for timely's exchange (bincode:
//! little-endian, fields one after the other) as compactly as the protocol needs.
//!
//! | message | sent in | bytes | layout |
//! |---|---|---|---|
//! | [`Note`] | the first time | 41 + text | to `u32`, from `u32`, kind `u8`, a, b, c `u64`, text (`u64` length + UTF-8) |
//! | [`SentArc`] | the first time, slow path | 12 | to, source, target: `u32` |
//! | [`Word`] | the rounds | 8 | one `u64`: bits 0..32 vertex or count, 32..34 kind, 34..64 worker |
//! | [`Record`] | the gathering | 13 | vertex `u32`, outcome `u8` (0 D, 1 W, 2 L), depth `u32`, move `u32` |
//!
//! A [`Note`] by kind:
//!
//! | kind | says | a | b | c | text |
//! |---|---|---|---|---|---|
//! | 0 | [`Says::Hello`] | 0 graph, 1 binary file, 2 file process 0 sends | vertices | arcs | |
//! | 1 | [`Says::Query`] | 0 all, 1 start, 2 shard | start vertex | 0 | |
//! | 2 | [`Says::Failed`] | process | 0 | 0 | message |
//! | 3, 4 | [`Says::Part`], sorted (3) or not (4) | first offset | last offset | largest target + 1, 0 for none | |
//! | 5 | [`Says::Sum`] | block | checksum | 0 | |
//! | 6 | [`Says::Verdict`] | 0 good, 1 bad | 0 | 0 | the error, empty when good |
//!
//! A hello's vertices and arcs are `u64::MAX` when the sender does not know them.

use std::fmt;

use gamegraph_graph::Label;
use gamegraph_graph::format::binary::PartCheck;
use gamegraph_graph::{Outcome, Vertex};
use serde::{Deserialize, Serialize};

use crate::answer::Query;
use crate::part::Blocks;

/// What a process reads, as its workers tell every other worker in the first time:
/// processes that read different graphs stop with
/// [`ClusterError::Mismatch`](crate::ClusterError::Mismatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reads {
    /// The whole graph, which every process holds.
    Graph {
        /// Its vertices.
        vertices: usize,
        /// Its arcs.
        arcs: usize,
    },
    /// A binary file, which every process reads its part of.
    Binary {
        /// Its vertices.
        vertices: usize,
        /// Its arcs.
        arcs: usize,
    },
    /// A file that process 0 read and sends (what process 0 says).
    Sent {
        /// Its vertices.
        vertices: usize,
        /// Its arcs.
        arcs: usize,
    },
    /// A file that process 0 reads and sends (what the other processes, which do not know
    /// its size, say; and process 0 when it could not read it).
    SentByProcess0,
}

impl Reads {
    /// Whether a worker that reads `other` (one of process 0's when `on_process_0`) reads
    /// the same graph as worker 0, which reads `self`: the same kind of input of the same
    /// size, except that the size of a file that process 0 sends is process 0's to say.
    pub(crate) fn admits(self, other: Reads, on_process_0: bool) -> bool {
        match (self, other) {
            (Reads::Sent { .. } | Reads::SentByProcess0, Reads::SentByProcess0) => true,
            (Reads::Sent { .. } | Reads::SentByProcess0, Reads::Sent { .. }) => {
                on_process_0 || self == other
            }
            _ => self == other,
        }
    }

    /// The number of vertices, when known.
    pub(crate) fn vertices(self) -> Option<usize> {
        match self {
            Reads::Graph { vertices, .. }
            | Reads::Binary { vertices, .. }
            | Reads::Sent { vertices, .. } => Some(vertices),
            Reads::SentByProcess0 => None,
        }
    }
}

impl fmt::Display for Reads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reads::Graph { vertices, arcs } => {
                write!(f, "a graph of {vertices} vertices and {arcs} arcs")
            }
            Reads::Binary { vertices, arcs } => {
                write!(f, "a binary file of {vertices} vertices and {arcs} arcs")
            }
            Reads::Sent { vertices, arcs } => {
                write!(f, "a file of {vertices} vertices and {arcs} arcs to send")
            }
            Reads::SentByProcess0 => f.write_str("a file for process 0 to send"),
        }
    }
}

/// A message of the first time, from worker `from` to worker `to`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "NoteWire", try_from = "NoteWire")]
pub(crate) struct Note {
    pub(crate) to: u32,
    pub(crate) from: u32,
    pub(crate) says: Says,
}

/// What a [`Note`] says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Says {
    /// What the sender reads.
    Hello(Reads),
    /// Process 0's query (from worker 0).
    Query(Query),
    /// Process `process` could not read its input.
    Failed { process: usize, message: String },
    /// What the sender found in its part of a binary file.
    Part(PartCheck),
    /// The checksum of one block of a binary file.
    Sum { block: u64, sum: u64 },
    /// The sender's judgement of a binary file: `None` when good, else its error.
    Verdict(Option<String>),
}

/// A [`Note`] on the wire (see the table of the module).
#[derive(Serialize, Deserialize)]
struct NoteWire(u32, u32, u8, u64, u64, u64, String);

const HELLO: u8 = 0;
const QUERY: u8 = 1;
const FAILED: u8 = 2;
const PART_SORTED: u8 = 3;
const PART_UNSORTED: u8 = 4;
const SUM: u8 = 5;
const VERDICT: u8 = 6;
/// A size the sender of a hello does not know.
const UNKNOWN: u64 = u64::MAX;

impl From<Note> for NoteWire {
    fn from(note: Note) -> NoteWire {
        let size = |v: usize, a: usize| (v as u64, a as u64);
        let (kind, a, (b, c), text) = match note.says {
            Says::Hello(Reads::Graph { vertices, arcs }) => (HELLO, 0, size(vertices, arcs), ""),
            Says::Hello(Reads::Binary { vertices, arcs }) => (HELLO, 1, size(vertices, arcs), ""),
            Says::Hello(Reads::Sent { vertices, arcs }) => (HELLO, 2, size(vertices, arcs), ""),
            Says::Hello(Reads::SentByProcess0) => (HELLO, 2, (UNKNOWN, UNKNOWN), ""),
            Says::Query(Query::All) => (QUERY, 0, (0, 0), ""),
            Says::Query(Query::Start(v)) => (QUERY, 1, (u64::from(v.0), 0), ""),
            Says::Query(Query::Shard) => (QUERY, 2, (0, 0), ""),
            Says::Failed { process, ref message } => (FAILED, process as u64, (0, 0), &**message),
            Says::Part(p) => {
                let kind = if p.sorted { PART_SORTED } else { PART_UNSORTED };
                (kind, p.first, (p.last, p.max_target.map_or(0, |t| u64::from(t) + 1)), "")
            }
            Says::Sum { block, sum } => (SUM, block, (sum, 0), ""),
            Says::Verdict(None) => (VERDICT, 0, (0, 0), ""),
            Says::Verdict(Some(ref message)) => (VERDICT, 1, (0, 0), &**message),
        };
        NoteWire(note.to, note.from, kind, a, b, c, text.to_owned())
    }
}

impl TryFrom<NoteWire> for Note {
    type Error = String;

    fn try_from(NoteWire(to, from, kind, a, b, c, text): NoteWire) -> Result<Note, String> {
        let (n, m) = (b as usize, c as usize);
        let says = match (kind, a) {
            (HELLO, 0) => Says::Hello(Reads::Graph { vertices: n, arcs: m }),
            (HELLO, 1) => Says::Hello(Reads::Binary { vertices: n, arcs: m }),
            (HELLO, 2) if b == UNKNOWN => Says::Hello(Reads::SentByProcess0),
            (HELLO, 2) => Says::Hello(Reads::Sent { vertices: n, arcs: m }),
            (QUERY, 0) => Says::Query(Query::All),
            (QUERY, 1) => Says::Query(Query::Start(Vertex(b as u32))),
            (QUERY, 2) => Says::Query(Query::Shard),
            (FAILED, _) => Says::Failed { process: a as usize, message: text },
            (PART_SORTED | PART_UNSORTED, _) => Says::Part(PartCheck {
                first: a,
                last: b,
                sorted: kind == PART_SORTED,
                max_target: (c > 0).then(|| (c - 1) as u32),
            }),
            (SUM, _) => Says::Sum { block: a, sum: b },
            (VERDICT, 0) => Says::Verdict(None),
            (VERDICT, 1) => Says::Verdict(Some(text)),
            _ => return Err(format!("a note of kind {kind} ({a}) is not part of the protocol")),
        };
        Ok(Note { to, from, says })
    }
}

/// An arc of the slow path, from process 0 to the worker `to` that owns `source`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct SentArc {
    pub(crate) to: u32,
    pub(crate) source: u32,
    pub(crate) target: u32,
}

/// A message of the rounds, typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Message {
    /// Worker `from` has arcs into `vertex` (to the owner of `vertex`).
    Subscribe { from: usize, vertex: u32 },
    /// `vertex` was decided this round, [`Label::WIN`] or [`Label::LOSS`] (to a subscriber).
    Decided { to: usize, vertex: u32, label: Label },
    /// The sender decided `decided` vertices this round (to every worker).
    Count { to: usize, decided: u32 },
}

/// A [`Message`] as one 64-bit word: bits 0..32 the vertex (or the count), 32..34 the kind,
/// 34..64 a worker (the sender of a subscription, the receiver of anything else).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct Word(u64);

const SUBSCRIBE: u64 = 0;
const DECIDED_WIN: u64 = 1;
const DECIDED_LOSS: u64 = 2;
const COUNT: u64 = 3;

impl Word {
    #[inline]
    pub(crate) fn new(message: Message) -> Word {
        let (worker, kind, value) = match message {
            Message::Subscribe { from, vertex } => (from, SUBSCRIBE, vertex),
            Message::Decided { to, vertex, label } => {
                (to, if label == Label::WIN { DECIDED_WIN } else { DECIDED_LOSS }, vertex)
            }
            Message::Count { to, decided } => (to, COUNT, decided),
        };
        Word(((worker as u64) << 34) | (kind << 32) | u64::from(value))
    }

    #[inline]
    pub(crate) fn message(self) -> Message {
        let (worker, value) = ((self.0 >> 34) as usize, self.0 as u32);
        match (self.0 >> 32) & 3 {
            SUBSCRIBE => Message::Subscribe { from: worker, vertex: value },
            DECIDED_WIN => Message::Decided { to: worker, vertex: value, label: Label::WIN },
            DECIDED_LOSS => Message::Decided { to: worker, vertex: value, label: Label::LOSS },
            _ => Message::Count { to: worker, decided: value },
        }
    }

    /// The worker the word goes to: the owner of a subscription's vertex, or the worker
    /// it names.
    #[inline]
    pub(crate) fn route(self, blocks: Blocks) -> u64 {
        if (self.0 >> 32) & 3 == SUBSCRIBE {
            blocks.owner(self.0 as u32) as u64
        } else {
            self.0 >> 34
        }
    }
}

/// One vertex's answer, gathered on worker 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "RecordWire", try_from = "RecordWire")]
pub(crate) struct Record {
    pub(crate) vertex: u32,
    pub(crate) outcome: Outcome,
    /// `u32::MAX` for none.
    pub(crate) depth: u32,
    /// `u32::MAX` for none.
    pub(crate) best_move: u32,
}

/// A [`Record`] on the wire: the outcome as its [`Outcome::code`].
#[derive(Serialize, Deserialize)]
struct RecordWire(u32, u8, u32, u32);

impl From<Record> for RecordWire {
    fn from(r: Record) -> RecordWire {
        RecordWire(r.vertex, r.outcome.code(), r.depth, r.best_move)
    }
}

impl TryFrom<RecordWire> for Record {
    type Error = String;

    fn try_from(RecordWire(vertex, code, depth, best_move): RecordWire) -> Result<Record, String> {
        let outcome = match code {
            1 => Outcome::Win,
            2 => Outcome::Loss,
            0 => Outcome::Draw,
            _ => return Err(format!("{code} is not an outcome code")),
        };
        Ok(Record { vertex, outcome, depth, best_move })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_note_survives_its_wire_form() {
        let check = PartCheck { first: 3, last: 90, sorted: false, max_target: Some(0) };
        let says = [
            Says::Hello(Reads::Graph { vertices: 5, arcs: 7 }),
            Says::Hello(Reads::Binary { vertices: 0, arcs: 0 }),
            Says::Hello(Reads::Sent { vertices: 1, arcs: 2 }),
            Says::Hello(Reads::SentByProcess0),
            Says::Query(Query::All),
            Says::Query(Query::Start(Vertex(9))),
            Says::Query(Query::Shard),
            Says::Failed { process: 2, message: "g.txt:1:1: bad".into() },
            Says::Part(check),
            Says::Part(PartCheck { sorted: true, max_target: None, ..check }),
            Says::Sum { block: 4, sum: u64::MAX - 1 },
            Says::Verdict(None),
            Says::Verdict(Some("checksum mismatch".into())),
        ];
        for says in says {
            let note = Note { to: 1, from: 2, says: says.clone() };
            let back = Note::try_from(NoteWire::from(note)).unwrap();
            assert_eq!((back.to, back.from, back.says), (1, 2, says));
        }
        assert!(Note::try_from(NoteWire(0, 0, 9, 0, 0, 0, String::new())).is_err());
    }

    #[test]
    fn every_message_survives_its_word() {
        let blocks = Blocks::new(100, 4);
        let messages = [
            Message::Subscribe { from: (1 << 30) - 1, vertex: 99 },
            Message::Decided { to: 3, vertex: u32::MAX, label: Label::WIN },
            Message::Decided { to: 0, vertex: 0, label: Label::LOSS },
            Message::Count { to: 2, decided: 17 },
        ];
        for m in messages {
            assert_eq!(Word::new(m).message(), m);
        }
        assert_eq!(Word::new(messages[0]).route(blocks), 3);
        assert_eq!(Word::new(messages[1]).route(blocks), 3);
        let r = Record { vertex: 4, outcome: Outcome::Loss, depth: 2, best_move: u32::MAX };
        assert_eq!(Record::try_from(RecordWire::from(r)).unwrap(), r);
    }

    #[test]
    fn process_0_says_the_size_of_a_file_it_sends() {
        let sent = Reads::Sent { vertices: 4, arcs: 5 };
        assert!(sent.admits(Reads::SentByProcess0, false));
        assert!(sent.admits(sent, false));
        assert!(!sent.admits(Reads::Graph { vertices: 4, arcs: 5 }, false));
        assert!(!Reads::SentByProcess0.admits(sent, false));
        assert!(Reads::SentByProcess0.admits(sent, true));
    }
}
