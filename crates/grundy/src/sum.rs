//! Sums of tokens on the vertices of a game graph (Smith's rules for loopy values).

use std::fmt;

use gamegraph_graph::{Graph, Vertex};

use crate::{LoopyValues, Nimber, SumError, Value};

/// Who wins a position with best play, from the point of view of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The player to move wins (SPEC output `1`).
    Win,
    /// The player to move loses (SPEC output `2`).
    Loss,
    /// Neither can force a win: the play goes on for ever (SPEC output `0`).
    Draw,
}

impl Outcome {
    /// The SPEC §1 code: `1` first player wins, `2` second player wins, `0` draw.
    pub const fn code(self) -> u8 {
        match self {
            Outcome::Win => 1,
            Outcome::Loss => 2,
            Outcome::Draw => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        })
    }
}

/// One move of a sum of tokens: token `token` (0-based index in the list) goes from
/// `from` to `to` along an arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenMove {
    /// The index of the token in the list given.
    pub token: usize,
    /// Where it stands.
    pub from: Vertex,
    /// Where it goes.
    pub to: Vertex,
}

/// The solution of a sum of tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumPlay {
    /// The generalised Sprague–Grundy value of the sum.
    pub value: Value,
    /// Who wins with best play.
    pub outcome: Outcome,
    /// From a win, a move to a lost position; from a draw, a move that keeps the draw;
    /// `None` from a lost position.
    pub best: Option<TokenMove>,
}

/// The value of a sum, from the digit sum `x` of its finite components and the sole
/// infinite component's set (if exactly one), or `infinite >= 2`.
struct Summary<'a> {
    x: u64,
    infinite: usize,
    k: &'a [u64],
}

impl Summary<'_> {
    fn outcome(&self) -> Outcome {
        match self.infinite {
            0 if self.x == 0 => Outcome::Loss,
            0 => Outcome::Win,
            1 if self.k.binary_search(&self.x).is_ok() => Outcome::Win,
            _ => Outcome::Draw,
        }
    }

    fn value(&self) -> Value {
        match self.infinite {
            0 => Value::Finite(Nimber(self.x)),
            1 => {
                let mut k: Vec<Nimber> = self.k.iter().map(|&a| Nimber(a ^ self.x)).collect();
                k.sort_unstable();
                Value::Infinite(k)
            }
            _ => Value::Infinite(Vec::new()),
        }
    }
}

/// Plays the sum of tokens standing on `tokens` (a token per component; two tokens may
/// share a vertex): the value of the sum, its outcome and a best move.
///
/// Smith's rules: finite values add by the digit sum; a finite `a` plus ∞(K) is
/// ∞(K ⊕ a); two infinite values sum to ∞(∅). A finite sum is lost exactly when it is
/// 0; an infinite sum ∞(K) is won when 0 ∈ K (move the infinite component to the value
/// that cancels the others) and drawn otherwise. The move returned is the first one, in
/// token order and then successor-list order, that reaches a lost position (from a win)
/// or a drawn one (from a draw).
///
/// # Errors
/// [`SumError::TokenOutOfRange`] for a token beyond the graph.
///
/// # Complexity
/// O(t + Σ deg(token vertices) · log) time, O(1) extra space besides the result.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{loopy_grundy, play_sum, Outcome};
///
/// // A heap of 2 with moves of 1 or 2 (value 2) plus a heap of 1 (value 1): the
/// // digit sum is 3, a win; the winning move takes one object from the first heap.
/// let arcs = [(1, 0), (2, 1), (2, 0)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(3, &arcs).unwrap();
/// let play = play_sum(&g, &loopy_grundy(&g), &[Vertex(2), Vertex(1)]).unwrap();
/// assert_eq!(play.outcome, Outcome::Win);
/// assert_eq!(play.best.unwrap().to, Vertex(1));
/// ```
///
/// # Reference
/// C. A. B. Smith, *Graphs and composite games*, J. Combin. Theory 1 (1966) 51–81;
/// A. S. Fraenkel, *Combinatorial games: selected bibliography*, the sum theorem for γ.
pub fn play_sum(g: &Graph, values: &LoopyValues, tokens: &[Vertex]) -> Result<SumPlay, SumError> {
    let n = g.num_vertices();
    if let Some((i, v)) = tokens.iter().enumerate().find(|(_, v)| v.index() >= n) {
        return Err(SumError::TokenOutOfRange { token: i, vertex: u64::from(v.0), n });
    }
    let mut x = 0u64;
    // The tokens (indices) on infinite vertices.
    let mut infinite: Vec<usize> = Vec::new();
    for (i, &v) in tokens.iter().enumerate() {
        match values.finite(v) {
            Some(a) => x ^= a.0,
            None => infinite.push(i),
        }
    }
    let set_of = |v: Option<Vertex>| v.map_or(&[][..], |v| values.infinite_set(v));
    let here =
        Summary { x, infinite: infinite.len(), k: set_of(infinite.first().map(|&i| tokens[i])) };
    let outcome = here.outcome();
    let value = here.value();
    let want = match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw => Outcome::Draw,
        Outcome::Loss => return Ok(SumPlay { value, outcome, best: None }),
    };
    let c = infinite.len();
    for (i, &from) in tokens.iter().enumerate() {
        let own = values.finite(from);
        // The sole infinite token other than i, when there is exactly one.
        let other = || {
            let mut it = infinite.iter().filter(|&&j| j != i);
            match (it.next(), it.next()) {
                (Some(&j), None) => Some(tokens[j]),
                _ => None,
            }
        };
        for &to in g.successors(from) {
            // The sum after moving token i from `from` to `to`.
            let next = match (own, values.finite(to)) {
                (Some(a), Some(b)) => Summary {
                    x: x ^ a.0 ^ b.0,
                    infinite: c,
                    k: set_of(infinite.first().map(|&j| tokens[j])),
                },
                (Some(a), None) => {
                    Summary { x: x ^ a.0, infinite: c + 1, k: set_of((c == 0).then_some(to)) }
                }
                (None, Some(b)) => Summary { x: x ^ b.0, infinite: c - 1, k: set_of(other()) },
                (None, None) => Summary { x, infinite: c, k: set_of((c == 1).then_some(to)) },
            };
            if next.outcome() == want {
                return Ok(SumPlay {
                    value,
                    outcome,
                    best: Some(TokenMove { token: i, from, to }),
                });
            }
        }
    }
    unreachable!("Smith's theorem: a won sum has a move to a lost one, a drawn sum to a drawn one")
}
