//! Games solved tier by tier on the cluster: the tier solver across workers of
//! [`gamegraph_game::tier`] with its rounds carried by a timely dataflow, so that each
//! process holds only its slices of each tier and process 0 writes the values files.

use std::path::PathBuf;
use std::sync::Arc;

use gamegraph_game::tier::{Exchange, TierConfig, TierSummary, Tiered, solve_tiers_part};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::error::ClusterError;
use crate::exchange::{Builder, Bytes, Inbox, delivered, settle, take};
use crate::liveness::Alarm;
use crate::run::{Cluster, Results, Wire, on_cluster, rank};
use crate::wire::Reads;

/// One message of a round: from, to, bytes.
type Packet = (u32, u32, Bytes);

/// The rounds of one worker on a timely dataflow: a stream routed by addressee, a time a
/// round.
struct Rounds<'w> {
    worker: &'w mut Worker,
    input: InputHandle<u64, Builder<Packet>>,
    inbox: Inbox<Packet>,
    probe: ProbeHandle<u64>,
    time: u64,
    alarm: Alarm,
}

impl<'w> Rounds<'w> {
    fn new(worker: &'w mut Worker, alarm: Alarm) -> Rounds<'w> {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox = worker.dataflow::<u64, _, _>(|scope| {
            delivered(scope, &mut input, |p: &Packet| u64::from(p.1), &probe)
        });
        Rounds { worker, input, inbox, probe, time: 0, alarm }
    }
}

impl Exchange for Rounds<'_> {
    type Error = ClusterError;

    fn worker(&self) -> usize {
        self.worker.index()
    }

    fn workers(&self) -> usize {
        self.worker.peers()
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, ClusterError> {
        self.exchange_during(out, &mut || {})
    }

    fn exchange_during(
        &mut self,
        out: Vec<Vec<u8>>,
        during: &mut dyn FnMut(),
    ) -> Result<Vec<Vec<u8>>, ClusterError> {
        let me = self.worker.index();
        let mut got: Vec<Option<Vec<u8>>> = vec![None; self.worker.peers()];
        for (to, m) in out.into_iter().enumerate() {
            if to == me {
                got[me] = Some(m);
            } else {
                self.input.send((me as u32, to as u32, Bytes(m)));
            }
        }
        let sent = self.time;
        self.time += 1;
        self.input.advance_to(self.time);
        // One step hands the messages and the input's progress to the network threads,
        // which send them while this thread runs `during`.
        self.worker.step();
        during();
        settle(self.worker, &self.probe, self.time, &self.alarm)?;
        for (from, _, Bytes(m)) in take(&self.inbox, sent) {
            if let Some(slot) = got.get_mut(from as usize) {
                *slot = Some(m);
            }
        }
        got.into_iter()
            .map(|m| {
                m.ok_or_else(|| ClusterError::Worker("a message of a round is missing".into()))
            })
            .collect()
    }
    fn concurrently<'a>(
        &mut self,
        jobs: Vec<Box<dyn FnOnce() + Send + 'a>>,
        main: &mut dyn FnMut(&mut Self),
    ) {
        std::thread::scope(|s| {
            for job in jobs {
                s.spawn(job);
            }
            main(self);
        });
    }
}

/// What a process of [`dist_solve_tiers`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierReport {
    /// The solve's summary, the same on every process: what
    /// [`solve_tiers`](gamegraph_game::tier::solve_tiers) returns for the game (its
    /// `file_bytes` are those of process 0's values files).
    pub summary: TierSummary,
    /// Bytes this process sent to the others (timely message headers and payloads).
    pub bytes_sent: u64,
    /// The rounds of the solve: each is a barrier of every worker of the cluster.
    pub rounds: u64,
}

/// Solves `game` tier by tier on the cluster into this process's directory `dir`
/// (created if needed; one per process, on any machine), resuming the solve already
/// there: process 0's directory ends holding the values files and manifest that
/// [`solve_tiers`](gamegraph_game::tier::solve_tiers) writes, byte for byte.
///
/// Each tier's ranks are cut into slices of
/// [`SLICE`](gamegraph_game::tier::SLICE) ranks dealt round the cluster's workers; a worker
/// marks and solves its own slices, asks the owners of the ranks its positions move to for
/// their values in batched rounds, and worker 0 gathers the encoded blocks. See
/// [`solve_tiers_part`] for the rounds and what each process keeps in its directory, and
/// docs/distributed.md for the costs.
///
/// The processes connect as for [`dist_solve`](crate::dist_solve) (the handshake, with
/// the game's identity and `config`'s settings in the query, so that processes given
/// different games or settings refuse each other with
/// [`Disagreement::Query`](crate::Disagreement::Query); the liveness watch, so that a lost
/// process ends every other with [`ClusterError::Lost`] or [`ClusterError::Silent`]).
/// After an interruption, the same call on every process resumes from the steps every
/// process recorded.
///
/// # Errors
/// Those of [`dist_solve`](crate::dist_solve) about the cluster and the network;
/// [`ClusterError::Tier`] for the solve's own (on the process where it happened;
/// [`TierError::Peer`](gamegraph_game::tier::TierError::Peer) on the others).
pub fn dist_solve_tiers<G>(
    game: Arc<G>,
    dir: PathBuf,
    config: TierConfig,
    cluster: &Cluster,
) -> Result<TierReport, ClusterError>
where
    G: Tiered + Send + 'static,
{
    crate::run::check_shape(cluster)?;
    let mut cluster = cluster.clone();
    cluster.query = format!(
        "tiers {} (numbering {}) in {} tiers, remoteness {}; {}",
        game.identity(),
        game.numbering(),
        game.tier_count(),
        !config.no_remoteness,
        cluster.query
    );
    let _quiet = crate::run::quiet(&cluster)?;
    let workers = cluster.workers;
    let wire = Wire { shards: false, reads: Reads::Graph { vertices: 0, arcs: 0 }, digest: 0 };
    let (results, bytes_sent) = on_cluster(&cluster, wire, move |worker, alarm| {
        let mut rounds = Rounds::new(worker, alarm.clone());
        let summary = solve_tiers_part(&*game, &dir, &config, workers, &mut rounds)?;
        Ok((summary, rounds.time))
    })?;
    let (summary, rounds) = first(results)?;
    Ok(TierReport { summary, bytes_sent, rounds })
}

/// The summary and rounds of a process's workers (the same on each), or the error that
/// says the most.
fn first(results: Results<(TierSummary, u64)>) -> Result<(TierSummary, u64), ClusterError> {
    let mut failure: Option<ClusterError> = None;
    let mut summary = None;
    for r in results {
        match r {
            Ok(Ok(s)) => summary = summary.or(Some(s)),
            Ok(Err(e)) | Err(e) => {
                if failure.as_ref().is_none_or(|f| rank(f) > rank(&e)) {
                    failure = Some(e);
                }
            }
        }
    }
    match (failure, summary) {
        (Some(e), _) => Err(e),
        (None, Some(s)) => Ok(s),
        (None, None) => Err(ClusterError::Worker("no worker ran".into())),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::net::TcpListener;
    use std::path::Path;

    use gamegraph_game::games::{Chase, ConnectFour, Quixo};
    use gamegraph_game::tier::solve_tiers;

    use super::*;
    use crate::Disagreement;

    fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
            })
            .filter(|(name, _)| name != "part")
            .collect()
    }

    /// Every process of a cluster as a thread here, process `p` solving `games(p)` with
    /// `configs(p)` into `root/p<p>`.
    fn run<G: Tiered + Send + 'static>(
        root: &Path,
        processes: usize,
        workers: usize,
        games: impl Fn(usize) -> (G, TierConfig),
    ) -> Vec<Result<TierReport, ClusterError>> {
        let listeners: Vec<TcpListener> =
            (0..processes).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
        let addresses: Vec<String> =
            listeners.iter().map(|l| l.local_addr().unwrap().to_string()).collect();
        drop(listeners);
        let handles: Vec<_> = (0..processes)
            .map(|p| {
                let (game, config) = games(p);
                let cluster = Cluster::new(addresses.clone(), p, workers);
                let dir = root.join(format!("p{p}"));
                std::thread::spawn(move || dist_solve_tiers(Arc::new(game), dir, config, &cluster))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    }

    #[test]
    fn processes_on_loopback_write_the_one_machine_files() {
        let one = tempfile::tempdir().unwrap();
        let game = ConnectFour::new(4, 4).unwrap();
        let expected = solve_tiers(&game, one.path(), &TierConfig::default()).unwrap();
        for (processes, workers) in [(1, 2), (2, 1), (3, 2)] {
            let root = tempfile::tempdir().unwrap();
            let reports = run(root.path(), processes, workers, |_| {
                (ConnectFour::new(4, 4).unwrap(), TierConfig::default())
            });
            for r in reports {
                let r = r.unwrap();
                assert_eq!(r.summary, expected);
                assert_eq!(r.bytes_sent > 0, processes > 1);
            }
            assert!(files(&root.path().join("p0")) == files(one.path()));
        }
        // A tier with moves inside it, solved by rounds across the processes.
        same_as_one_machine(|| Chase::new(9).unwrap(), 2, 1);
        // Tiers side by side, several solved at once on the threads of the exchange.
        same_as_one_machine(|| Quixo::new(3).unwrap(), 2, 2);
    }

    /// `game()` on `processes` × `workers` gives the one-machine summary on every process
    /// and the one-machine files in process 0's directory.
    fn same_as_one_machine<G: Tiered + Send + 'static>(
        game: impl Fn() -> G,
        processes: usize,
        workers: usize,
    ) {
        let one = tempfile::tempdir().unwrap();
        let expected = solve_tiers(&game(), one.path(), &TierConfig::default());
        let root = tempfile::tempdir().unwrap();
        for r in run(root.path(), processes, workers, |_| (game(), TierConfig::default())) {
            assert_eq!(r.unwrap().summary, *expected.as_ref().unwrap());
        }
        assert!(files(&root.path().join("p0")) == files(one.path()));
    }

    #[test]
    fn processes_given_other_games_or_settings_refuse_each_other() {
        let root = tempfile::tempdir().unwrap();
        let reports = run(root.path(), 2, 1, |p| {
            (ConnectFour::new(4 + p as u32, 4).unwrap(), TierConfig::default())
        });
        for r in reports {
            assert!(
                matches!(r, Err(ClusterError::Disagree { what: Disagreement::Query, .. })),
                "{r:?}"
            );
        }
        let reports = run(root.path(), 2, 1, |p| {
            let config = TierConfig { no_remoteness: p == 1, ..TierConfig::default() };
            (ConnectFour::new(4, 4).unwrap(), config)
        });
        for r in reports {
            assert!(matches!(r, Err(ClusterError::Disagree { .. })), "{r:?}");
        }
        // Nothing was written.
        assert!(!root.path().join("p0").exists());
    }
}
