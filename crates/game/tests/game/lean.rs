//! The solver of `SolvedGame::new` (the reverse graph built from the rules in two passes
//! over the moves, keeping nothing of them in between, and the two-byte solver) against
//! `explore` followed by `solve` on the full graph: the same values and remoteness for
//! every position, on the shipped games small enough and on random transition tables, on
//! one to three threads.

use gamegraph_game::games::{Chase, ConnectFour, OctalRows, TabBoard, TicTacToe};
use gamegraph_game::{ExploreConfig, ExploreError, Game, ParseError, SolvedGame};
use gamegraph_game::{explore, solve};
use gamegraph_graph::Vertex;
use gamegraph_testkit::SplitMix64;

use crate::common::random_table;

/// The game solved both ways on `threads` threads; every position must agree.
fn same_values<G: Game + Clone + Send>(game: &G, threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let (explored, full) = pool.install(|| {
        let explored = explore(game, &ExploreConfig::default()).unwrap();
        let full = solve(explored.graph(), |v| game.terminal(explored.position(v)));
        (explored, full)
    });
    let lean = pool.install(|| SolvedGame::new(game.clone(), &ExploreConfig::default())).unwrap();
    assert_eq!(lean.positions(), explored.positions());
    assert_eq!(lean.num_moves(), explored.graph().num_arcs());
    assert_eq!(lean.start(), explored.start());
    for i in 0..explored.len() {
        let v = Vertex::from_index(i);
        assert_eq!(
            (lean.solution().outcome(v), lean.solution().remoteness(v)),
            (full.outcome(v), full.remoteness(v)),
            "position {}",
            game.show(explored.position(v))
        );
    }
}

#[test]
fn shipped_games_agree() {
    for threads in [1, 2, 3] {
        same_values(&TicTacToe::new(), threads);
        same_values(&TicTacToe::without_symmetry(), threads);
        for (w, h) in [(4, 4), (5, 3), (3, 5), (7, 2), (1, 6)] {
            same_values(&ConnectFour::new(w, h).unwrap(), threads);
        }
        same_values(&ConnectFour::without_symmetry(4, 4).unwrap(), threads);
        for n in [3, 4, 7, 12] {
            same_values(&Chase::new(n).unwrap(), threads);
            same_values(&Chase::without_symmetry(n).unwrap(), threads);
        }
        same_values(&OctalRows::kayles(&[7, 5, 4]).unwrap(), threads);
        same_values(&OctalRows::dawson(&[9, 6]).unwrap(), threads);
        same_values(&TabBoard::new(30, 7, 3, 4).unwrap(), threads);
    }
}

#[test]
fn random_tables_agree() {
    let mut rng = SplitMix64::new(41);
    for round in 0..60 {
        // Sizes from a few rows to several chunks of the parallel passes.
        let n = 1 + rng.below([40, 500, 5000][round % 3]) as usize;
        let table = random_table(&mut rng, n, [1, 2, 3, 8][round % 4], true);
        same_values(&table, 1 + round % 3);
    }
}

#[test]
fn positions_with_more_than_255_moves_agree() {
    // Row 0 moves to 300 rows; the others move at random. The lean passes give way to
    // the full graph, with the same values.
    let mut rng = SplitMix64::new(7);
    let mut table = random_table(&mut rng, 400, 3, true);
    table.succ[0] = (1..=300).collect();
    same_values(&table, 2);
}

/// A table whose moves change from one call to the next.
#[derive(Debug)]
struct Shifting {
    calls: std::sync::atomic::AtomicUsize,
}

impl Game for Shifting {
    type Position = u32;

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        // The start's moves: 1 and 2 the first two times, then 1 only.
        if p == 0 {
            let k = self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            out.extend(if k < 2 { &[1, 2][..] } else { &[1][..] });
        }
    }

    fn show(&self, p: u32) -> String {
        p.to_string()
    }

    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        s.parse().map_err(|_| ParseError::new(1, "expected a row"))
    }
}

#[test]
fn moves_that_change_between_the_passes_are_an_error() {
    let game = Shifting { calls: 0.into() };
    let e = SolvedGame::new(game, &ExploreConfig::default()).unwrap_err();
    assert!(
        matches!(e, ExploreError::Inconsistent { ref position, .. } if position == "0"),
        "{e:?}"
    );
}
