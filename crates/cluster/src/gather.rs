//! The optimal moves of a worker's vertices, by the rules of `gamegraph retro`, and what
//! is gathered for the query.

use gamegraph_graph::outcome::{self, NONE};
use gamegraph_graph::{Outcome, Vertex};
use gamegraph_retro::Solution;
use timely::worker::Worker;

use crate::answer::{Answer, Gathered, Query, Shard};
use crate::error::ClusterError;
use crate::local::Local;
use crate::rounds::{State, Streams};
use crate::wire::Record;

/// Sends what the query asks of this worker's vertices to worker 0 and returns what this
/// worker gets: on worker 0 the answer to the query, with [`Query::Shard`] this worker's
/// own vertices on every worker, `None` otherwise.
pub(crate) fn gather(
    worker: &mut Worker,
    streams: &mut Streams,
    local: &Local,
    state: State,
    query: Query,
    n: usize,
) -> Result<Option<Gathered>, ClusterError> {
    let record = |u: usize| Record {
        vertex: (u + local.lo) as u32,
        outcome: state.label[u].outcome(),
        depth: state.depth[u],
        best_move: best_move(local, &state, u),
    };
    match query {
        Query::All => {
            for u in 0..local.len() {
                streams.send_record(record(u));
            }
        }
        Query::Start(s) => {
            if (local.lo..local.hi).contains(&s.index()) {
                streams.send_record(record(s.index() - local.lo));
            }
        }
        Query::Shard => {}
    }
    let t = streams.step(worker)?;
    Ok(match query {
        Query::Shard => Some(Gathered::Shard(shard(local, state))),
        _ if worker.index() != 0 => None,
        Query::All => Some(Gathered::All(solution(streams.records(t), n))),
        Query::Start(_) => Some(Gathered::Start(answer(streams.records(t)[0]))),
    })
}

/// The optimal move of own vertex `u`, from what the worker heard of its targets (a
/// target never reported is a draw).
fn best_move(local: &Local, state: &State, u: usize) -> u32 {
    outcome::best_move(
        state.label[u].outcome(),
        state.depth[u],
        local.arcs_of(u).iter().map(|t| (local.names.vertex(t.0), t.index())),
        |t| state.their_label[t].outcome(),
        |t| state.their_depth[t],
    )
}

/// The worker's own vertices.
fn shard(local: &Local, state: State) -> Shard {
    let moves = (0..local.len()).map(|u| some(best_move(local, &state, u)).map(Vertex)).collect();
    Shard {
        first: Vertex::from_index(local.lo),
        outcomes: state.label.iter().map(|l| l.outcome()).collect(),
        depths: state.depth.iter().map(|&d| some(d)).collect(),
        moves,
    }
}

/// The solution of a graph of `n` vertices from the records of all of them.
fn solution(records: Vec<Record>, n: usize) -> Solution {
    let mut outcomes = vec![Outcome::Draw; n];
    let mut depths = vec![None; n];
    let mut moves = vec![None; n];
    for r in records {
        let v = r.vertex as usize;
        outcomes[v] = r.outcome;
        depths[v] = some(r.depth);
        moves[v] = some(r.best_move).map(Vertex);
    }
    Solution::from_parts(outcomes, depths, moves).expect("the gathered records form a solution")
}

fn answer(r: Record) -> Answer {
    Answer { outcome: r.outcome, depth: some(r.depth), best_move: some(r.best_move).map(Vertex) }
}

/// A depth or a move of the labels' encoding: `None` for [`NONE`].
fn some(x: u32) -> Option<u32> {
    (x != NONE).then_some(x)
}

/// The shards of a process's workers, which own consecutive blocks, as one.
pub(crate) fn merge_shards(mut shards: Vec<Shard>) -> Option<Shard> {
    shards.sort_unstable_by_key(|s| s.first);
    let mut shards = shards.into_iter();
    let mut shard = shards.next()?;
    for s in shards {
        shard.outcomes.extend(s.outcomes);
        shard.depths.extend(s.depths);
        shard.moves.extend(s.moves);
    }
    Some(shard)
}
