//! The tier solver across workers against the one-machine tier solver: the same values
//! files byte for byte for every shipped game with tiers and random tiered games, on 1 to
//! 4 processes of 1 to 3 workers, with the workers talking through memory; resumes after a
//! stop; a worker's failure ends every worker.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, Quixo, TabBoard, TicTacToe};
use gamegraph_game::tier::{
    Exchange, TierConfig, TierError, TierSummary, Tiered, solve_tiers, solve_tiers_part,
};
use gamegraph_graph::Limit;
use proptest::prelude::*;

use crate::tier::{RandomTiers, files};

/// The messages of a round: `[to][from]`.
type Table = Arc<Mutex<Vec<Vec<Option<Vec<u8>>>>>>;

/// Workers of one test that talk through memory: a round writes every worker's messages
/// into a table and waits for all of them.
struct Memory {
    me: usize,
    n: usize,
    table: Table,
    barrier: Arc<Barrier>,
}

impl Exchange for Memory {
    type Error = TierError;

    fn worker(&self) -> usize {
        self.me
    }

    fn workers(&self) -> usize {
        self.n
    }

    fn exchange(&mut self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, TierError> {
        assert_eq!(out.len(), self.n);
        {
            let mut table = self.table.lock().unwrap();
            for (to, m) in out.into_iter().enumerate() {
                table[to][self.me] = Some(m);
            }
        }
        self.barrier.wait();
        let got = {
            let mut table = self.table.lock().unwrap();
            table[self.me].iter_mut().map(|m| m.take().expect("a message")).collect()
        };
        self.barrier.wait();
        Ok(got)
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

/// Solves `game` on `dirs.len()` processes of `workers` workers each (process `i` in
/// `dirs[i]`); every worker's result.
fn solve_across<G: Tiered>(
    game: &G,
    dirs: &[PathBuf],
    workers: usize,
    config: &TierConfig,
) -> Vec<Result<TierSummary, TierError>> {
    let n = dirs.len() * workers;
    let table = Arc::new(Mutex::new(vec![vec![None; n]; n]));
    let barrier = Arc::new(Barrier::new(n));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|me| {
                let mut x =
                    Memory { me, n, table: Arc::clone(&table), barrier: Arc::clone(&barrier) };
                let dir = &dirs[me / workers];
                s.spawn(move || solve_tiers_part(game, dir, config, workers, &mut x))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn dirs(root: &Path, processes: usize) -> Vec<PathBuf> {
    (0..processes).map(|i| root.join(format!("p{i}"))).collect()
}

/// The layouts tried: (processes, workers a process).
const LAYOUTS: [(usize, usize); 7] = [(1, 1), (1, 2), (2, 1), (3, 1), (2, 2), (4, 1), (1, 3)];

/// The one-machine solve's files, and the same on every layout: process 0's directory
/// holds them (and its `part` file), the others only their manifest and `part` file.
fn same_files_as_one_machine<G: Tiered>(game: &G, config: &TierConfig, layouts: &[(usize, usize)]) {
    let one = tempfile::tempdir().unwrap();
    let expected = solve_tiers(game, one.path(), config).unwrap();
    let want = files(one.path());
    for &(processes, workers) in layouts {
        let root = tempfile::tempdir().unwrap();
        let dirs = dirs(root.path(), processes);
        for r in solve_across(game, &dirs, workers, config) {
            assert_eq!(r.unwrap(), expected, "{processes} × {workers}");
        }
        let mut got = files(&dirs[0]);
        assert!(got.remove("part").is_some());
        assert!(got == want, "{processes} × {workers}: the files differ");
        for d in &dirs[1..] {
            let names: Vec<String> = files(d).into_keys().collect();
            assert_eq!(names, ["manifest", "part"]);
            assert_eq!(std::fs::read(d.join("manifest")).unwrap(), want["manifest"]);
        }
    }
}

#[test]
fn shipped_games_give_the_one_machine_files_on_every_layout() {
    let plain = TierConfig::default();
    let outcomes = TierConfig { no_remoteness: true, ..TierConfig::default() };
    same_files_as_one_machine(&ConnectFour::new(4, 4).unwrap(), &plain, &LAYOUTS);
    same_files_as_one_machine(&ConnectFour::new(4, 4).unwrap(), &outcomes, &LAYOUTS[..3]);
    same_files_as_one_machine(&ConnectFour::new(5, 4).unwrap(), &plain, &[(2, 1), (3, 1)]);
    same_files_as_one_machine(&TicTacToe::new(), &plain, &LAYOUTS);
    same_files_as_one_machine(&TicTacToe::without_symmetry(), &outcomes, &LAYOUTS[..3]);
    same_files_as_one_machine(&Chase::new(9).unwrap(), &plain, &LAYOUTS);
    same_files_as_one_machine(&Chase::without_symmetry(7).unwrap(), &outcomes, &LAYOUTS[..3]);
    same_files_as_one_machine(&TabBoard::new(40, 4, 1, 2).unwrap(), &plain, &LAYOUTS);
    for code in ["0.137", "4.07", "0.77"] {
        let game = OctalRows::new(code.parse().unwrap(), &[7, 3]).unwrap();
        same_files_as_one_machine(&game, &plain, &LAYOUTS[..5]);
    }
    same_files_as_one_machine(&Quixo::new(3).unwrap(), &plain, &LAYOUTS[..5]);
    same_files_as_one_machine(&Quixo::without_symmetry(3).unwrap(), &outcomes, &[(2, 1)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn random_tiered_games_give_the_one_machine_files_on_two_processes(
        tiers in 1u32..9,
        per_tier in prop::collection::vec(any::<u8>(), 8),
        stay in prop::collection::vec(any::<bool>(), 8),
        arcs in prop::collection::vec((any::<u16>(), any::<u16>()), 0..80),
        ends in prop::collection::vec(0u8..3, 1..8),
        no_remoteness in any::<bool>(),
        spread in prop::sample::select(vec![2u64, 1500, 5000]),
        workers in 1usize..3,
        exact in any::<bool>(),
    ) {
        let game = RandomTiers::new(tiers, &per_tier, &stay, &arcs, &ends, spread);
        // Child tiers that moves reach, rather than every later tier: tiers side by side,
        // solved in one step.
        let game = if exact { game.with_exact_children() } else { game };
        let config = TierConfig { no_remoteness, ..TierConfig::default() };
        same_files_as_one_machine(&game, &config, &[(2, workers)]);
    }
}

#[test]
fn a_stopped_solve_resumes_on_every_process_to_the_same_files() {
    // Tiers in a chain, and tiers side by side solved in steps of several.
    stopped_solves_resume(&ConnectFour::new(4, 4).unwrap(), &[1, 3_000, 20_000, 60_000]);
    stopped_solves_resume(&Quixo::new(3).unwrap(), &[1, 2_000, 8_000, 30_000]);
}

/// Stops solves of `game` on two processes after each of `afters` progress reports, and
/// resumes them.
fn stopped_solves_resume<G: Tiered>(game: &G, afters: &[u64]) {
    let one = tempfile::tempdir().unwrap();
    solve_tiers(game, one.path(), &TierConfig::default()).unwrap();
    let want = files(one.path());
    // Stopped after more and more ranks, on one process only: every worker ends, and the
    // next run finishes from the steps all processes recorded.
    let mut stopped = 0;
    for &after in afters {
        let root = tempfile::tempdir().unwrap();
        let dirs = dirs(root.path(), 2);
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU64::new(0));
        let (s, n) = (Arc::clone(&stop), Arc::clone(&seen));
        let config = TierConfig {
            stop: Some(Arc::clone(&stop)),
            progress: Some(Arc::new(move |p| {
                if n.fetch_add(1, Ordering::Relaxed) * 64 >= after && p.done > 0 {
                    s.store(true, Ordering::Relaxed);
                }
            })),
            ..TierConfig::default()
        };
        let results = solve_across(game, &dirs, 1, &config);
        if results.iter().all(Result::is_ok) {
            continue;
        }
        stopped += 1;
        assert!(
            results.iter().any(|r| matches!(r, Err(TierError::Limit { limit: Limit::Stop, .. })))
        );
        assert!(results.iter().all(Result::is_err));
        let resumed = solve_across(game, &dirs, 1, &TierConfig::default());
        for r in &resumed {
            assert!(r.as_ref().unwrap().resumed > 0 || after == 1);
        }
        let mut got = files(&dirs[0]);
        got.remove("part");
        assert!(got == want, "stopped after {after}: the files differ");
    }
    assert!(stopped >= 2, "{stopped} runs stopped");
}

#[test]
fn a_directory_of_another_layout_or_game_is_refused_on_every_worker() {
    let game = ConnectFour::new(4, 4).unwrap();
    let root = tempfile::tempdir().unwrap();
    let two = dirs(root.path(), 2);
    for r in solve_across(&game, &two, 1, &TierConfig::default()) {
        r.unwrap();
    }
    // The same directories, one process more: process 0 and 1 find another layout.
    let three = dirs(root.path(), 3);
    let results = solve_across(&game, &three, 1, &TierConfig::default());
    assert!(matches!(results[0], Err(TierError::OtherGame { .. })));
    assert!(results.iter().all(Result::is_err));
    // Another game in process 1's directory.
    let other = ConnectFour::new(5, 4).unwrap();
    let results = solve_across(&other, &two, 1, &TierConfig::default());
    assert!(results.iter().all(Result::is_err));
    assert!(matches!(results[0], Err(TierError::OtherGame { .. })));
    // A one-machine directory is not a part of a solve across workers.
    let one = tempfile::tempdir().unwrap();
    solve_tiers(&game, one.path(), &TierConfig::default()).unwrap();
    let results = solve_across(&game, &[one.path().to_owned()], 1, &TierConfig::default());
    assert!(matches!(results[0], Err(TierError::OtherGame { .. })));
}

#[test]
fn a_tier_past_the_memory_of_one_process_fits_the_shares_of_four() {
    let game = ConnectFour::new(5, 4).unwrap();
    // What the one-machine solve needs at most, in bytes: raised until it is enough.
    let mut one = 1;
    loop {
        let dir = tempfile::tempdir().unwrap();
        let config = TierConfig { max_memory: Some(one), ..TierConfig::default() };
        match solve_tiers(&game, dir.path(), &config) {
            Err(TierError::Limit { limit: Limit::Memory { needed, .. }, .. }) => one = needed,
            Ok(_) => break,
            Err(e) => panic!("{e}"),
        }
    }
    let limit = TierConfig { max_memory: Some(one / 3), ..TierConfig::default() };
    let root = tempfile::tempdir().unwrap();
    // One process is refused before any work, on every worker.
    let results = solve_across(&game, &dirs(root.path(), 1), 1, &limit);
    assert!(matches!(results[0], Err(TierError::Limit { limit: Limit::Memory { .. }, .. })));
    assert!(!root.path().join("p0").join("part-0-reach-0.bits").exists());
    // Four processes of one worker each hold a quarter of each tier: the solve fits.
    let four = dirs(root.path(), 4);
    for r in solve_across(&game, &four, 1, &limit) {
        r.unwrap();
    }
}
