//! Oracles shared by the tests, written from the definitions and independent of the solver.

#![allow(dead_code, unreachable_pub)]

use gamegraph_game::{Game, Outcome, ParseError, Terminal};
use gamegraph_testkit::SplitMix64;

/// The value of every vertex of an explicit game (`succ[v]` the moves of `v`, `terminal[v]`
/// the value of a vertex without moves) from the definition, by horizons: `v` is won
/// within `k` plies if a move leads to a position lost within `k − 1`, lost within `k` if
/// it is a lost terminal or every move leads to a position won within `k − 1`; the
/// remoteness is the least such `k`. Among the rest, tied within `k` if it is a tied
/// terminal or a move leads to a non-won, non-lost position tied within `k − 1`.
/// O(V · (V + E)).
pub fn fixpoint(succ: &[Vec<usize>], terminal: &[Terminal]) -> Vec<(Outcome, Option<u32>)> {
    let n = succ.len();
    let mut value: Vec<Option<(Outcome, u32)>> = vec![None; n];
    for v in 0..n {
        if succ[v].is_empty() {
            match terminal[v] {
                Terminal::Win => value[v] = Some((Outcome::Win, 0)),
                Terminal::Loss => value[v] = Some((Outcome::Loss, 0)),
                Terminal::Tie => {}
            }
        }
    }
    // won_within[v] / lost_within[v] for the current horizon k.
    for k in 1..=(2 * n as u32 + 2) {
        let prev = value.clone();
        let won = |s: usize| matches!(prev[s], Some((Outcome::Win, _)));
        let lost = |s: usize| matches!(prev[s], Some((Outcome::Loss, _)));
        for v in 0..n {
            if value[v].is_some() || succ[v].is_empty() {
                continue;
            }
            if succ[v].iter().any(|&s| lost(s)) {
                value[v] = Some((Outcome::Win, k));
            } else if succ[v].iter().all(|&s| won(s)) {
                value[v] = Some((Outcome::Loss, k));
            }
        }
    }
    let mut tie: Vec<Option<u32>> = vec![None; n];
    for v in 0..n {
        if succ[v].is_empty() && terminal[v] == Terminal::Tie {
            tie[v] = Some(0);
        }
    }
    for k in 1..=(n as u32 + 1) {
        let prev = tie.clone();
        for v in 0..n {
            if value[v].is_some() || tie[v].is_some() {
                continue;
            }
            if succ[v].iter().any(|&s| value[s].is_none() && prev[s].is_some()) {
                tie[v] = Some(k);
            }
        }
    }
    (0..n)
        .map(|v| match (value[v], tie[v]) {
            (Some((o, r)), _) => (o, Some(r)),
            (None, Some(r)) => (Outcome::Tie, Some(r)),
            (None, None) => (Outcome::Draw, None),
        })
        .collect()
}

/// Four-outcome minimax of one position of a game that always ends, from the values of its
/// children (for the player to move there): a loss child makes a win (least remoteness),
/// else a tie child makes a tie (least remoteness), else every child is a win and the
/// position is lost (greatest remoteness).
pub fn minimax_step(children: &[(Outcome, u32)]) -> (Outcome, u32) {
    let best = |o: Outcome| children.iter().filter(|c| c.0 == o).map(|c| c.1).min();
    if let Some(r) = best(Outcome::Loss) {
        return (Outcome::Win, r + 1);
    }
    if let Some(r) = best(Outcome::Tie) {
        return (Outcome::Tie, r + 1);
    }
    assert!(children.iter().all(|c| c.0 == Outcome::Win), "a game that always ends");
    (Outcome::Loss, children.iter().map(|c| c.1).max().expect("children") + 1)
}

/// A game whose positions are the rows of a transition table, starting at row 0.
#[derive(Clone)]
pub struct Table {
    /// The moves of each row.
    pub succ: Vec<Vec<usize>>,
    /// The value of each row without moves.
    pub terminal: Vec<Terminal>,
}

impl Game for Table {
    type Position = u32;

    fn start(&self) -> u32 {
        0
    }

    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        out.extend(self.succ[p as usize].iter().map(|&q| q as u32));
    }

    fn terminal(&self, p: u32) -> Terminal {
        self.terminal[p as usize]
    }

    fn show(&self, p: u32) -> String {
        p.to_string()
    }

    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        s.parse().map_err(|_| ParseError::new(1, "expected a row"))
    }
}

/// `n` rows of up to `max_degree` random moves each (repeats and self-loops included),
/// finished rows won, lost or tied at random (`ties`) or all lost.
pub fn random_table(rng: &mut SplitMix64, n: usize, max_degree: u64, ties: bool) -> Table {
    let succ = (0..n)
        .map(|_| (0..rng.below(max_degree + 1)).map(|_| rng.below(n as u64) as usize).collect())
        .collect();
    let terminal = (0..n)
        .map(|_| {
            if ties {
                [Terminal::Win, Terminal::Loss, Terminal::Tie][rng.below(3) as usize]
            } else {
                Terminal::Loss
            }
        })
        .collect();
    Table { succ, terminal }
}

/// One heap; a move takes 1 or 2 objects; whoever cannot move loses. Every position but
/// the multiples of 3 is a win, and the remoteness grows with the heap. A game without an
/// identity of its own.
#[derive(Clone)]
pub struct TakeOneOrTwo(pub u32);

impl Game for TakeOneOrTwo {
    type Position = u32;
    fn start(&self) -> u32 {
        self.0
    }
    fn moves(&self, p: u32, out: &mut Vec<u32>) {
        out.extend((1..=2).filter(|&k| k <= p).map(|k| p - k));
    }
    fn show(&self, p: u32) -> String {
        p.to_string()
    }
    fn parse(&self, s: &str) -> Result<u32, ParseError> {
        s.parse().map_err(|_| ParseError::new(1, "expected a number of objects"))
    }
}

/// The column of a position's parse error, for tests of one-line notations.
pub trait Column {
    fn column(&self) -> u64;
}

impl Column for gamegraph_game::ParseError {
    fn column(&self) -> u64 {
        use gamegraph_graph::Located;
        self.position().expect("a parse error has a position").column
    }
}
