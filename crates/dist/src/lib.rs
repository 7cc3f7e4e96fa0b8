//! Retrograde analysis of game graphs on a cluster, on timely dataflow.
//!
//! [`dist_solve`] labels every position W, L or D with its depth and optimal move, the
//! same [`Solution`](gamegraph_retro::Solution) as [`gamegraph_retro::solve`], with the
//! vertices split over the workers of a timely cluster ([`Cluster`]: one `host:port` per
//! process, from [`parse_hostfile`]) and one dataflow round per depth. Each worker holds
//! only its own block's successor lists, from an [`Input`]: a binary file that every
//! process reads its part of (and that the cluster checks together), or a graph that
//! process 0 read and sends. See docs/distributed.md for the message scheme and its costs.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//! use gamegraph_dist::{Cluster, Gathered, Input, Query, dist_solve};
//! use gamegraph_graph::{Graph, Vertex};
//!
//! // 0 -> 1 -> 2 on one process with two workers.
//! let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2))]).unwrap();
//! let expected = gamegraph_retro::solve(&g);
//! # let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
//! let cluster = Cluster { addresses: vec![format!("127.0.0.1:{port}")], process: 0, workers: 2 };
//! let formed = Arc::new(AtomicBool::new(false));
//! let report = dist_solve(Input::Graph(Arc::new(g)), Query::All, &cluster, formed).unwrap();
//! assert_eq!(report.gathered, Some(Gathered::All(expected)));
//! assert_eq!(report.rounds, 3);
//! ```

mod error;
mod hostfile;
mod input;
pub mod shards;
mod solve;

pub use crate::error::{DistError, HostfileError};
pub use crate::hostfile::parse_hostfile;
pub use crate::input::Input;
pub use crate::solve::{Answer, Cluster, Gathered, Query, Report, Shard, dist_solve};
