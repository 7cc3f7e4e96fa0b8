//! Retrograde analysis of game graphs, and games solved tier by tier, on a cluster of
//! processes, on timely dataflow.
//!
//! [`dist_solve`] labels every position W, L or D with its depth and optimal move, the
//! same [`Solution`](gamegraph_retro::Solution) as [`gamegraph_retro::solve`], with the
//! vertices split over the workers of a timely cluster ([`Cluster`]: one `host:port` per
//! process, from [`parse_hostfile`]) and one dataflow round per depth. Each worker holds
//! only its own block's successor lists, from an [`Input`]: a binary file that every
//! process reads its part of (and that the cluster checks together), or a graph that
//! process 0 read and sends. See docs/distributed.md for the message scheme and its costs.
//!
//! [`dist_solve_tiers`] solves a game given by its rules tier by tier on the same kind of
//! cluster: the solver across workers of [`gamegraph_game::tier`] with its rounds carried by
//! timely, each process holding its slices of each tier, process 0 writing the values
//! files that the one-machine tier solver writes, byte for byte.
//!
//! [`Job`] does what [`dist_solve`] does in two steps: its checks (and the choice of this process's role
//! from its input), then the run. The processes connect to each other with a handshake
//! (a fixed-size hello each way, checked before timely takes the connections), and the
//! run gives up when the other processes have not all connected within
//! [`Cluster::connect_timeout`]; during the run a heartbeat between every pair of
//! processes gives up a peer that ends or falls silent for [`Cluster::liveness_timeout`]
//! on every process. The run can send the process's standard output to `/dev/null`
//! while it lasts ([`Cluster::silence_stdout`]). The messages are typed and packed for
//! the wire in one module, and the labels and the optimal-move rule are the workspace's
//! own ([`gamegraph_graph::outcome`]), as retro's solver uses them.
//!
//! ```
//! use std::sync::Arc;
//! use gamegraph_cluster::{Cluster, Gathered, Input, Query, dist_solve};
//! use gamegraph_graph::{Graph, Vertex};
//!
//! // 0 -> 1 -> 2 on one process with two workers.
//! let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2))]).unwrap();
//! let expected = gamegraph_retro::solve(&g);
//! # let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
//! let cluster = Cluster::new(vec![format!("127.0.0.1:{port}")], 0, 2);
//! let report = dist_solve(Input::Graph(Arc::new(g)), Query::All, &cluster).unwrap();
//! assert_eq!(report.gathered, Some(Gathered::All(expected)));
//! assert_eq!(report.rounds, 3);
//! ```

mod answer;
mod error;
mod exchange;
mod gather;
mod handshake;
mod hostfile;
mod input;
mod liveness;
mod local;
mod part;
mod quiet;
mod rounds;
mod run;
mod setup;
pub mod shards;
mod tiers;
mod wire;

pub use crate::answer::{Answer, Gathered, Query, Report, Shard};
pub use crate::error::{ClusterError, Disagreement, HostfileError};
pub use crate::hostfile::{
    MAX_HOSTFILE_BYTES, parse_hostfile, parse_hostfile_bytes, parse_hostfile_resolved,
};
pub use crate::input::Input;
pub use crate::run::{Cluster, DEFAULT_CONNECT_TIMEOUT, DEFAULT_LIVENESS_TIMEOUT, Job, dist_solve};
pub use crate::tiers::{TierReport, dist_solve_tiers};
pub use crate::wire::Reads;

#[cfg(test)]
mod tests;
