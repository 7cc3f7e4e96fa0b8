//! Exploration: identical on 1, 2 and 3 threads, the position limit, broken contracts.

use std::sync::atomic::{AtomicU32, Ordering};

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TicTacToe};
use gamegraph_game::{ExploreConfig, ExploreError, Explored, Game, ParseError, explore};
use gamegraph_graph::{Budget, Limit};
use gamegraph_testkit::SplitMix64;

/// A game given by a random table: position `v` moves to `table[v]`.
struct Table(Vec<Vec<u32>>);

impl Game for Table {
    type Position = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.0[p as usize]);
    }
    fn show(&self, p: u32) -> String {
        p.to_string()
    }
    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        s.parse().map_err(|_| ParseError::new(1, "expected a number"))
    }
}

fn on_threads<G: Game>(game: &G, threads: usize) -> Explored<G::Position> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| explore(game, &ExploreConfig::default())).unwrap()
}

fn same_on_1_2_3_threads<G: Game>(game: &G) -> usize {
    let one = on_threads(game, 1);
    for threads in [2, 3] {
        let other = on_threads(game, threads);
        assert_eq!(one.positions(), other.positions());
        assert_eq!(one.graph(), other.graph());
        assert_eq!(one.start(), other.start());
    }
    one.len()
}

#[test]
fn identical_on_1_2_and_3_threads() {
    assert_eq!(same_on_1_2_3_threads(&TicTacToe::new()), 765);
    assert!(same_on_1_2_3_threads(&ConnectFour::new(4, 4).unwrap()) > 10_000);
    assert!(same_on_1_2_3_threads(&OctalRows::kayles(&[20, 7]).unwrap()) > 1000);
    assert!(same_on_1_2_3_threads(&Chase::without_symmetry(9).unwrap()) > 100);
    let mut rng = SplitMix64::new(11);
    let n = 5000;
    let table = (0..n).map(|_| (0..rng.below(4)).map(|_| rng.below(n) as u32).collect()).collect();
    same_on_1_2_3_threads(&Table(table));
}

#[test]
fn graph_follows_the_numbering() {
    let game = TicTacToe::without_symmetry();
    let explored = explore(&game, &ExploreConfig::default()).unwrap();
    assert!(explored.positions().windows(2).all(|w| w[0] < w[1]));
    assert_eq!(explored.position(explored.start()), game.start());
    let mut moves = Vec::new();
    for v in explored.graph().vertices() {
        moves.clear();
        game.moves(explored.position(v), &mut moves);
        let mut ids: Vec<_> = moves.iter().map(|&q| explored.vertex(q).unwrap()).collect();
        ids.sort();
        assert_eq!(explored.graph().successors(v), ids);
    }
}

#[test]
fn the_limit_gives_an_error() {
    let game = TicTacToe::without_symmetry();
    let err = explore(&game, &ExploreConfig { max_positions: 1000, ..ExploreConfig::default() })
        .unwrap_err();
    let ExploreError::Limit { limit, found } = err.clone() else { panic!("{err}") };
    assert_eq!(limit, Limit::Budget { what: Budget::Positions, limit: 1000, needed: None });
    assert!(found > 1000);
    assert!(err.to_string().contains("more than 1000 positions"), "{err}");
    assert!(
        explore(&game, &ExploreConfig { max_positions: 5478, ..ExploreConfig::default() }).is_ok()
    );
    assert!(
        explore(&game, &ExploreConfig { max_positions: 5477, ..ExploreConfig::default() }).is_err()
    );
    assert!(matches!(
        explore(&game, &ExploreConfig { max_positions: 0, ..ExploreConfig::default() }),
        Err(ExploreError::Limit { limit: Limit::Budget { limit: 0, .. }, .. })
    ));
}

/// Moves that change between calls: the second pass finds a position the first did not.
struct Fickle(AtomicU32);

impl Game for Fickle {
    type Position = u32;
    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        if p == 0 {
            out.push(1 + self.0.fetch_add(1, Ordering::Relaxed) % 2);
        }
    }
    fn show(&self, p: u32) -> String {
        format!("#{p}")
    }
    fn parse(&self, _: &str) -> Result<u32, ParseError> {
        Err(ParseError::new(1, "no notation"))
    }
}

#[test]
fn a_broken_contract_is_an_error() {
    let err = explore(&Fickle(AtomicU32::new(0)), &ExploreConfig::default()).unwrap_err();
    assert_eq!(err, ExploreError::Inconsistent { position: "#0".into(), successor: "#2".into() });
}

#[test]
fn a_set_stop_flag_stops_exploring_and_solving() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let stop = Arc::new(AtomicBool::new(true));
    let config = ExploreConfig { stop: Some(Arc::clone(&stop)), ..ExploreConfig::default() };
    let game = TicTacToe::without_symmetry();
    let stopped = ExploreError::Limit { limit: Limit::Stop, found: 1 };
    assert_eq!(explore(&game, &config).unwrap_err(), stopped);
    let err = gamegraph_game::SolvedGame::new(TicTacToe::without_symmetry(), &config).unwrap_err();
    assert_eq!(err, stopped);
    assert_eq!(err.to_string(), "stopped before every position was found");
    // A flag that stays clear changes nothing.
    stop.store(false, Ordering::Relaxed);
    assert_eq!(explore(&game, &config).unwrap().len(), 5478);
}
