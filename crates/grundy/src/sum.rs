//! Sums of components: tokens on the vertices of one game graph plus heaps. Normal play
//! by Smith's rules for loopy values; misère play by the misère-Nim rule (heaps only) or
//! by exhaustive search (see the crate documentation).

use gamegraph_graph::{Graph, Outcome, Vertex};

use crate::heaps::heap_value;
use crate::{
    HeapGame, HeapMove, LoopyValues, Method, Nimber, Play, SumError, Value, product, solve_heaps,
};

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
#[derive(Clone, Copy)]
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

/// A sum of components: tokens on the vertices of one game graph, and heaps from which
/// a move takes 1..=mᵢ objects (or any number, without limits: Nim heaps). A move moves
/// one token along an arc or takes from one heap.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SumGame {
    /// The vertices the tokens stand on (a token per component; tokens may share a vertex).
    pub tokens: Vec<Vertex>,
    /// The heap sizes.
    pub heaps: Vec<u64>,
    /// The largest number of objects a move may take from each heap (`None`: no limit;
    /// a limit at least the heap size never binds).
    pub limits: Option<Vec<u64>>,
}

/// One move of a [`SumGame`]: a token moves, or objects are taken from a heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SumMove {
    /// Token `token` (0-based) moves along the arc `from -> to`.
    Token(TokenMove),
    /// `take` objects are taken from heap `heap` (0-based).
    Heap(HeapMove),
}

/// The values Smith's rules combine for a sum in normal play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumValues {
    /// The generalised Sprague–Grundy value of each token's vertex.
    pub tokens: Vec<Value>,
    /// The Grundy value of each heap, nᵢ mod (mᵢ + 1) (nᵢ without a limit).
    pub heaps: Vec<Nimber>,
    /// The digit sum of the finite values (tokens and heaps).
    pub digit_sum: Nimber,
    /// The value of the whole sum: the digit sum when every value is finite; ∞(K ⊕ x)
    /// with one infinite token ∞(K) and digit sum x; ∞(∅) with two or more.
    pub value: Value,
}

/// The solution of a [`SumGame`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SumAnswer {
    /// Who wins with best play.
    pub outcome: Outcome,
    /// From a win, a move to a position lost for the opponent; from a draw, a move that
    /// keeps the draw; `None` from a lost position and from a misère position without a
    /// move (which the player to move has won).
    pub best: Option<SumMove>,
    /// How the answer was found.
    pub method: Method,
    /// Normal play: the values used; `None` in misère play.
    pub values: Option<SumValues>,
}

/// Checks the tokens and the heap limits of `game` against `g`.
pub(crate) fn validate(g: &Graph, game: &SumGame) -> Result<(), SumError> {
    let n = g.num_vertices();
    if let Some((i, v)) = game.tokens.iter().enumerate().find(|(_, v)| v.index() >= n) {
        return Err(SumError::TokenOutOfRange { token: i, vertex: u64::from(v.0), n });
    }
    if let Some(l) = &game.limits {
        if l.len() != game.heaps.len() {
            return Err(SumError::LimitCount { heaps: game.heaps.len(), limits: l.len() });
        }
        if let Some(i) = l.iter().position(|&m| m == 0) {
            return Err(SumError::ZeroLimit { heap: i });
        }
    }
    Ok(())
}

/// The number of objects to take from a heap of `n` (limit `m`, value `g`) to leave a
/// heap of value `target`, which must be reachable (see [`reachable_values`]).
fn take_to(n: u64, m: Option<u64>, g: u64, target: u64) -> u64 {
    match m {
        // Values are residues mod m + 1; the m heaps n − 1, …, n − m have every residue
        // but g's.
        Some(m) if m < n => {
            let modulus = u128::from(m) + 1;
            ((u128::from(g) + modulus - u128::from(target)) % modulus) as u64
        }
        _ => g - target,
    }
}

/// The values a heap of `n` (limit `m`, value `g`) can move to, in increasing order:
/// 0..=m without g when the limit binds, else 0..g.
fn reachable_values(n: u64, m: Option<u64>, g: u64) -> impl Iterator<Item = u64> {
    let (end, skip) = match m {
        Some(m) if m < n => (u128::from(m) + 1, Some(g)),
        _ => (u128::from(g), None),
    };
    (0..end).map(|v| v as u64).filter(move |&v| Some(v) != skip)
}

/// Plays the sum of tokens standing on `tokens` (a token per component; two tokens may
/// share a vertex): the value of the sum, its outcome and a best move. This is
/// [`play_mixed_sum`] without heaps.
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
/// O(t + Σ deg(token vertices) · log) time, O(t) extra space.
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
    let game = SumGame { tokens: tokens.to_vec(), ..SumGame::default() };
    let answer = play_mixed_sum(g, values, &game)?;
    let best = answer.best.map(|m| match m {
        SumMove::Token(m) => m,
        SumMove::Heap(_) => unreachable!("a sum without heaps has no heap move"),
    });
    let value = answer.values.expect("normal play reports its values").value;
    Ok(SumPlay { value, outcome: answer.outcome, best })
}

/// Plays a sum of tokens on the vertices of `g` and heaps in normal play (whoever cannot
/// move loses), on any graph (cycles allowed): outcome, a best move and the values used.
///
/// Each token contributes its generalised Sprague–Grundy value from `values` (which must
/// be [`loopy_grundy`](crate::loopy_grundy) of `g`), each heap of n with limit m the
/// finite value n mod (m + 1) (n without a limit); Smith's rules combine them (see
/// [`play_sum`]). The move returned is the first, in token order and successor-list
/// order and then in heap order and increasing value left, that reaches a lost position
/// (from a win) or a drawn one (from a draw).
///
/// # Errors
/// [`SumError::TokenOutOfRange`], [`SumError::LimitCount`], [`SumError::ZeroLimit`] for
/// a malformed sum.
///
/// # Complexity
/// O(t + p + Σ deg(token vertices) · log + p · |K|) time for t tokens and p heaps, K
/// the largest set of an infinite token; O(t + p) extra space.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{loopy_grundy, play_mixed_sum, HeapMove, Nimber, Outcome, SumGame, SumMove};
///
/// // A token on vertex 1 of the path 0 <- 1 (value 1), a heap of 7 with moves of 1..3
/// // (value 3) and a Nim heap of 1: 1 ⊕ 3 ⊕ 1 = 3; take 3 from the second heap.
/// let g = Graph::from_arcs(2, &[(Vertex(1), Vertex(0))]).unwrap();
/// let game = SumGame { tokens: vec![Vertex(1)], heaps: vec![7, 1], limits: Some(vec![3, u64::MAX]) };
/// let answer = play_mixed_sum(&g, &loopy_grundy(&g), &game).unwrap();
/// assert_eq!(answer.outcome, Outcome::Win);
/// assert_eq!(answer.values.unwrap().digit_sum, Nimber(3));
/// assert_eq!(answer.best, Some(SumMove::Heap(HeapMove { heap: 0, take: 3 })));
/// ```
///
/// # Reference
/// C. A. B. Smith, *Graphs and composite games*, J. Combin. Theory 1 (1966) 51–81.
pub fn play_mixed_sum(
    g: &Graph,
    values: &LoopyValues,
    game: &SumGame,
) -> Result<SumAnswer, SumError> {
    validate(g, game)?;
    let tokens = &game.tokens;
    let limit = |i: usize| game.limits.as_ref().map(|l| l[i]);
    let heap_values: Vec<Nimber> =
        game.heaps.iter().enumerate().map(|(i, &n)| heap_value(n, limit(i))).collect();
    let mut x: u64 = heap_values.iter().fold(0, |x, v| x ^ v.0);
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
    let sum_values = SumValues {
        tokens: tokens.iter().map(|&v| values.value(v)).collect(),
        heaps: heap_values,
        digit_sum: Nimber(x),
        value: here.value(),
    };
    let answer = |best| SumAnswer { outcome, best, method: Method::Theory, values: None };
    let want = match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw | Outcome::Tie => outcome,
        Outcome::Loss => return Ok(SumAnswer { values: Some(sum_values), ..answer(None) }),
    };
    let c = infinite.len();
    let best = 'found: {
        for (i, &from) in tokens.iter().enumerate() {
            let own = values.finite(from);
            // The sole infinite token other than i, when there is exactly one.
            // (Constant time: a scan of `infinite` per successor would be quadratic.)
            let other = || match *infinite.as_slice() {
                [j] if j != i => Some(tokens[j]),
                [a, b] if a == i => Some(tokens[b]),
                [a, b] if b == i => Some(tokens[a]),
                _ => None,
            };
            for &to in g.successors(from) {
                // The sum after moving token i from `from` to `to`.
                let next = match (own, values.finite(to)) {
                    (Some(a), Some(b)) => Summary { x: x ^ a.0 ^ b.0, ..here },
                    (Some(a), None) => {
                        Summary { x: x ^ a.0, infinite: c + 1, k: set_of((c == 0).then_some(to)) }
                    }
                    (None, Some(b)) => Summary { x: x ^ b.0, infinite: c - 1, k: set_of(other()) },
                    (None, None) => Summary { x, infinite: c, k: set_of((c == 1).then_some(to)) },
                };
                if next.outcome() == want {
                    break 'found SumMove::Token(TokenMove { token: i, from, to });
                }
            }
        }
        // Heap moves change only the digit sum. From a win they matter only when every
        // value is finite (the Nim move to gᵢ ⊕ x); from a draw with one infinite token
        // ∞(K), a value left with x' ∉ K is among the first |K| + 1 reachable ones.
        for (i, (&n, gi)) in game.heaps.iter().zip(&sum_values.heaps).enumerate() {
            let m = limit(i);
            let candidates = (gi.0 ^ x < gi.0)
                .then_some(gi.0 ^ x)
                .into_iter()
                .chain(reachable_values(n, m, gi.0).take(here.k.len().saturating_add(1)));
            for target in candidates {
                if (Summary { x: x ^ gi.0 ^ target, ..here }).outcome() == want {
                    let take = take_to(n, m, gi.0, target);
                    break 'found SumMove::Heap(HeapMove { heap: i, take });
                }
            }
        }
        unreachable!(
            "Smith's theorem: a won sum has a move to a lost one, a drawn sum to a drawn one"
        )
    };
    Ok(SumAnswer { values: Some(sum_values), ..answer(Some(best)) })
}

/// Plays a sum of tokens on the vertices of `g` and heaps in misère play: whoever cannot
/// move **wins**. Outcome (win, loss, or draw when the graph has cycles) and a move that
/// wins or keeps the draw.
///
/// Tokens on vertices without a move take no part. When no token can move, the sum is a
/// sum of heaps, answered for any sizes by the misère-Nim rule proven in the crate
/// documentation ([`Method::Theory`]). Otherwise no proven theory applies to an arbitrary
/// graph, and the explicit product of the positions reachable by each component is
/// labelled win, loss or draw by retrograde counting ([`Method::Search`]), when its
/// positions plus moves number at most `limit` (use [`SUM_SEARCH_LIMIT`]; a limit above
/// 2³² − 1 acts as 2³² − 1). The move
/// returned is the first, in token order, successor-list order, then heap order and
/// increasing take, that reaches a lost position (from a win) or a drawn one (from a
/// draw).
///
/// # Errors
/// [`SumError::TokenOutOfRange`], [`SumError::LimitCount`], [`SumError::ZeroLimit`] for
/// a malformed sum; [`SumError::SearchTooLarge`] when the search would exceed `limit`
/// (never a guess).
///
/// # Complexity
/// Theory: O(t + p) time. Search: O(S · (c + d)) time for S = Π rᵢ positions, where rᵢ
/// is the number of positions reachable by component i (heaps: nᵢ + 1), c the number of
/// components and d the average number of moves; O(S) extra space (5 bytes a position).
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_grundy::{
///     play_misere_sum, HeapMove, Method, Outcome, SumGame, SumMove, TokenMove, SUM_SEARCH_LIMIT,
/// };
///
/// // A token on the cycle 0 <-> 1 with an exit 1 -> 2. Misère: whoever moves the token
/// // to 2 leaves the opponent without a move, a win for the opponent; so both keep the
/// // token on the cycle, a draw.
/// let arcs = [(0, 1), (1, 0), (1, 2)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(3, &arcs).unwrap();
/// let game = SumGame { tokens: vec![Vertex(1)], ..SumGame::default() };
/// let answer = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap();
/// assert_eq!(answer.outcome, Outcome::Draw);
/// let token = TokenMove { token: 0, from: Vertex(1), to: Vertex(0) };
/// assert_eq!(answer.best, Some(SumMove::Token(token)));
/// // With a Nim heap of 1 beside it, moving the token to 2 wins: the opponent must empty
/// // the heap.
/// let game = SumGame { tokens: vec![Vertex(1)], heaps: vec![1], limits: None };
/// let answer = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap();
/// assert_eq!((answer.outcome, answer.method), (Outcome::Win, Method::Search));
/// let token = TokenMove { token: 0, from: Vertex(1), to: Vertex(2) };
/// assert_eq!(answer.best, Some(SumMove::Token(token)));
/// // No token can move: the misère-Nim rule (1 ⊕ 1 = 0 with every heap ≤ 1: a win).
/// let game = SumGame { tokens: vec![Vertex(2)], heaps: vec![1, 1], limits: None };
/// let answer = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap();
/// assert_eq!(answer.outcome, Outcome::Win);
/// assert_eq!(answer.best, Some(SumMove::Heap(HeapMove { heap: 0, take: 1 })));
/// ```
///
/// # Reference
/// C. L. Bouton, *Nim, a game with a complete mathematical theory*, Ann. of Math. 3
/// (1901) 35–39 (the misère rule); retrograde analysis as in `gamegraph-retro`.
pub fn play_misere_sum(g: &Graph, game: &SumGame, limit: u64) -> Result<SumAnswer, SumError> {
    validate(g, game)?;
    if game.tokens.iter().all(|&v| g.out_degree(v) == 0) {
        let heaps = HeapGame {
            heaps: game.heaps.clone(),
            limits: game.limits.clone(),
            play: Play::Misere,
            moore: None,
        };
        let answer = solve_heaps(&heaps).expect("the limits were validated");
        return Ok(SumAnswer {
            outcome: answer.outcome,
            best: answer.moves.first().map(|&m| SumMove::Heap(m)),
            method: Method::Theory,
            values: None,
        });
    }
    let (outcome, best) = product::search(g, game, Play::Misere, limit)?;
    Ok(SumAnswer { outcome, best, method: Method::Search, values: None })
}

/// The largest exhaustive search [`play_misere_sum`] is meant to run: positions plus
/// moves of the explicit product (2²⁴; about 85 MB at most).
pub const SUM_SEARCH_LIMIT: u64 = 1 << 24;
