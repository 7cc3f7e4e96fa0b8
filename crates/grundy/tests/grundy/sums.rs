//! Sums of tokens and heaps, normal and misère, against a deliberately naive fixpoint on
//! the explicit product graph (every vertex for every token, every size for every heap),
//! and normal play also against `gamegraph-retro` on the same explicit graph.

use gamegraph_graph::{Graph, Vertex};
use gamegraph_grundy::{
    HeapGame, HeapMove, Method, Nimber, Outcome, Play, SUM_SEARCH_LIMIT, SumError, SumGame,
    SumMove, TokenMove, loopy_grundy, play_misere_sum, play_mixed_sum, solve_heaps,
};
use gamegraph_testkit::{graph, graphs};
use proptest::prelude::*;

/// The explicit product of a sum: a position is (token vertices, heap sizes), numbered
/// in mixed radix (n for each token, size + 1 for each heap).
struct Product {
    radix: Vec<usize>,
    /// The successors of each position.
    succ: Vec<Vec<usize>>,
}

impl Product {
    fn new(g: &Graph, tokens: usize, heaps: &[u64], limits: &[u64]) -> Product {
        let n = g.num_vertices();
        let mut radix = vec![n; tokens];
        radix.extend(heaps.iter().map(|&h| h as usize + 1));
        let states: usize = radix.iter().product();
        let mut succ = vec![Vec::new(); states];
        for (s, out) in succ.iter_mut().enumerate() {
            let mut d = Vec::new();
            let mut x = s;
            for &r in &radix {
                d.push(x % r);
                x /= r;
            }
            let mut weight = 1;
            for (j, &dj) in d.iter().enumerate() {
                if j < tokens {
                    for &w in g.successors(Vertex(dj as u32)) {
                        out.push(s - dj * weight + w.index() * weight);
                    }
                } else {
                    let m = limits[j - tokens] as usize;
                    for t in 1..=dj.min(m) {
                        out.push(s - t * weight);
                    }
                }
                weight *= radix[j];
            }
        }
        Product { radix, succ }
    }

    /// Every position of the product as a sum with `game`'s token count and limits.
    fn games(&self, game: &SumGame) -> Vec<SumGame> {
        (0..self.succ.len())
            .map(|mut s| {
                let mut d = Vec::new();
                for &r in &self.radix {
                    d.push(s % r);
                    s /= r;
                }
                let t = game.tokens.len();
                SumGame {
                    tokens: d[..t].iter().map(|&v| Vertex(v as u32)).collect(),
                    heaps: d[t..].iter().map(|&h| h as u64).collect(),
                    limits: game.limits.clone(),
                }
            })
            .collect()
    }

    fn encode(&self, digits: &[usize]) -> usize {
        let mut s = 0;
        for (d, r) in digits.iter().zip(&self.radix).rev() {
            s = s * r + d;
        }
        s
    }

    /// Win/loss/draw by iterating the definition to a fixpoint: a position is won when
    /// some move reaches a lost one, lost when every move reaches a won one; a position
    /// without a move is lost in normal play and won in misère play.
    fn naive(&self, play: Play) -> Vec<Outcome> {
        let mut label: Vec<Option<Outcome>> = vec![None; self.succ.len()];
        loop {
            let mut changed = false;
            for s in 0..self.succ.len() {
                if label[s].is_some() {
                    continue;
                }
                let next = if self.succ[s].is_empty() {
                    Some(if play == Play::Normal { Outcome::Loss } else { Outcome::Win })
                } else if self.succ[s].iter().any(|&t| label[t] == Some(Outcome::Loss)) {
                    Some(Outcome::Win)
                } else if self.succ[s].iter().all(|&t| label[t] == Some(Outcome::Win)) {
                    Some(Outcome::Loss)
                } else {
                    None
                };
                if next.is_some() {
                    label[s] = next;
                    changed = true;
                }
            }
            if !changed {
                return label.into_iter().map(|l| l.unwrap_or(Outcome::Draw)).collect();
            }
        }
    }
}

fn retro(p: &Product) -> Vec<Outcome> {
    let arcs: Vec<(Vertex, Vertex)> = p
        .succ
        .iter()
        .enumerate()
        .flat_map(|(s, out)| out.iter().map(move |&t| (Vertex(s as u32), Vertex(t as u32))))
        .collect();
    let big = Graph::from_arcs(p.succ.len(), &arcs).unwrap();
    let solution = gamegraph_retro::solve(&big);
    solution.outcomes().to_vec()
}

/// A graph, 1–3 tokens, 0–2 heaps of 0..=4 with limits 1..=4 (4 never binds: a Nim heap),
/// and whether the limits are given at all.
fn arb_sum() -> impl Strategy<Value = (Graph, SumGame)> {
    graphs(1..=5, 2).prop_flat_map(|g| {
        let n = g.num_vertices() as u32;
        (
            prop::collection::vec(0..n, 1..=3),
            prop::collection::vec((0u64..=4, 1u64..=4), 0..=2),
            any::<bool>(),
        )
            .prop_map(move |(tokens, heaps, limited)| {
                let game = SumGame {
                    tokens: tokens.into_iter().map(Vertex).collect(),
                    heaps: heaps.iter().map(|h| h.0).collect(),
                    limits: limited.then(|| heaps.iter().map(|h| h.1).collect()),
                };
                (g.clone(), game)
            })
    })
}

/// Checks `answer` for `game` against the labels of the explicit product.
fn check(
    g: &Graph,
    game: &SumGame,
    product: &Product,
    labels: &[Outcome],
    outcome: Outcome,
    best: Option<SumMove>,
) -> Result<(), TestCaseError> {
    let mut digits: Vec<usize> = game.tokens.iter().map(|v| v.index()).collect();
    digits.extend(game.heaps.iter().map(|&h| h as usize));
    let here = product.encode(&digits);
    prop_assert_eq!(outcome, labels[here], "{:?}", game);
    let Some(mv) = best else {
        // No move: lost, or a won misère position where nothing can move.
        prop_assert!(
            outcome == Outcome::Loss || (outcome == Outcome::Win && product.succ[here].is_empty()),
            "{:?}: {:?} without a move",
            game,
            outcome
        );
        return Ok(());
    };
    prop_assert!(outcome != Outcome::Loss);
    let t = game.tokens.len();
    match mv {
        SumMove::Token(m) => {
            prop_assert_eq!(m.from, game.tokens[m.token]);
            prop_assert!(g.successors(m.from).contains(&m.to), "{:?} is not a move", m);
            digits[m.token] = m.to.index();
        }
        SumMove::Heap(HeapMove { heap, take }) => {
            let m = game.limits.as_ref().map_or(u64::MAX, |l| l[heap]);
            prop_assert!(take >= 1 && take <= m && take <= game.heaps[heap], "{:?}", mv);
            digits[t + heap] -= take as usize;
        }
    }
    let want = if outcome == Outcome::Win { Outcome::Loss } else { Outcome::Draw };
    prop_assert_eq!(labels[product.encode(&digits)], want, "{:?}: move {:?}", game, mv);
    Ok(())
}

fn limits_of(game: &SumGame) -> Vec<u64> {
    game.limits.clone().unwrap_or_else(|| vec![u64::MAX; game.heaps.len()])
}

/// Products up to this many positions are checked at every position.
const SMALL: usize = 100;

/// Normal play of `game` on `g` against the explicit product: the position drawn and,
/// for small products, every position.
fn check_normal(g: &Graph, game: &SumGame) -> Result<(), TestCaseError> {
    let product = Product::new(g, game.tokens.len(), &game.heaps, &limits_of(game));
    let labels = product.naive(Play::Normal);
    prop_assert_eq!(&labels, &retro(&product));
    let values = loopy_grundy(g);
    let answer = play_mixed_sum(g, &values, game).unwrap();
    prop_assert_eq!(answer.method, Method::Theory);
    check(g, game, &product, &labels, answer.outcome, answer.best)?;
    // Small products: every position, not only the one drawn.
    if labels.len() <= SMALL {
        for other in product.games(game) {
            let a = play_mixed_sum(g, &values, &other).unwrap();
            check(g, &other, &product, &labels, a.outcome, a.best)?;
        }
    }
    let values = answer.values.unwrap();
    let x = values.heaps.iter().copied().chain(values.tokens.iter().filter_map(|v| v.finite()));
    prop_assert_eq!(values.digit_sum, x.sum::<Nimber>());
    Ok(())
}

/// Misère play of `game` on `g` against the explicit product, as [`check_normal`].
fn check_misere(g: &Graph, game: &SumGame) -> Result<(), TestCaseError> {
    let product = Product::new(g, game.tokens.len(), &game.heaps, &limits_of(game));
    let labels = product.naive(Play::Misere);
    let answer = play_misere_sum(g, game, SUM_SEARCH_LIMIT).unwrap();
    let frozen = game.tokens.iter().all(|&v| g.out_degree(v) == 0);
    prop_assert_eq!(answer.method, if frozen { Method::Theory } else { Method::Search });
    prop_assert!(answer.values.is_none());
    check(g, game, &product, &labels, answer.outcome, answer.best)?;
    if labels.len() <= SMALL {
        for other in product.games(game) {
            let a = play_misere_sum(g, &other, SUM_SEARCH_LIMIT).unwrap();
            check(g, &other, &product, &labels, a.outcome, a.best)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn normal_play_matches_the_explicit_product((g, game) in arb_sum()) {
        check_normal(&g, &game)?;
    }

    #[test]
    fn misere_play_matches_the_explicit_product((g, game) in arb_sum()) {
        check_misere(&g, &game)?;
    }
}

/// Cases proptest once shrank failures to: a token beside a sink, and a token on an
/// isolated vertex beside two heaps.
#[test]
fn recorded_small_sums() {
    let cases = [
        (graph(3, &[(0, 1)]), SumGame { tokens: vec![Vertex(0)], heaps: vec![], limits: None }),
        (
            Graph::from_arcs(2, &[]).unwrap(),
            SumGame { tokens: vec![Vertex(0)], heaps: vec![2, 1], limits: None },
        ),
    ];
    for (g, game) in &cases {
        check_normal(g, game).unwrap();
        check_misere(g, game).unwrap();
    }
}

/// Heaps of up to 10¹⁸ beside tokens in normal play: the move is legal and leaves a
/// digit sum of 0 (every value finite here).
#[test]
fn huge_heaps_in_normal_play() {
    // A Nim heap of 3 as a graph: u -> v for every v < u, values 0, 1, 2, 3.
    let g = graph(4, &[(3, 2), (3, 1), (3, 0), (2, 1), (2, 0), (1, 0)]);
    let values = loopy_grundy(&g);
    let heaps = vec![1_000_000_000_000_000_000, u64::MAX, 999_999_999_999_999_989];
    let limits = vec![6, u64::MAX, 1_000_000_000];
    let game = SumGame { tokens: vec![Vertex(3)], heaps: heaps.clone(), limits: Some(limits) };
    let answer = play_mixed_sum(&g, &values, &game).unwrap();
    let v = answer.values.unwrap();
    let expect = [heaps[0] % 7, u64::MAX, heaps[2] % 1_000_000_001];
    assert_eq!(v.heaps, expect.map(Nimber));
    assert_eq!(v.digit_sum, Nimber(3 ^ expect[0] ^ expect[1] ^ expect[2]));
    assert_eq!(answer.outcome, Outcome::Win);
    // The only value with the top bit of the digit sum is the Nim heap's.
    let Some(SumMove::Heap(HeapMove { heap: 1, take })) = answer.best else {
        panic!("{:?}", answer.best)
    };
    assert_eq!(u64::MAX - take, 3 ^ expect[0] ^ expect[2]);
}

/// Misère sums whose tokens cannot move are heap sums: the misère-Nim rule answers them
/// for any sizes, as `solve_heaps` does.
#[test]
fn frozen_tokens_leave_the_misere_nim_rule() {
    let g = Graph::from_arcs(2, &[(Vertex(1), Vertex(0))]).unwrap();
    for heaps in [vec![], vec![1, 1], vec![1, 1, 1], vec![u64::MAX, 1_000_000_000_000_000_000]] {
        let game =
            SumGame { tokens: vec![Vertex(0), Vertex(0)], heaps: heaps.clone(), limits: None };
        let answer = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap();
        let heaps_only =
            solve_heaps(&HeapGame { heaps, play: Play::Misere, ..HeapGame::default() }).unwrap();
        assert_eq!(answer.method, Method::Theory);
        assert_eq!(answer.outcome, heaps_only.outcome);
        assert_eq!(answer.best, heaps_only.moves.first().map(|&m| SumMove::Heap(m)));
    }
}

/// A misère sum with a token that can move and a heap of 10¹⁸ is refused, never guessed;
/// so is one whose token explores too much of a large graph.
#[test]
fn misere_search_too_large_is_an_error() {
    let g = Graph::from_arcs(2, &[(Vertex(1), Vertex(0))]).unwrap();
    let game =
        SumGame { tokens: vec![Vertex(1)], heaps: vec![1_000_000_000_000_000_000], limits: None };
    match play_misere_sum(&g, &game, SUM_SEARCH_LIMIT) {
        Err(SumError::SearchTooLarge { work, limit }) => {
            assert_eq!(limit, SUM_SEARCH_LIMIT);
            assert!(work > limit);
        }
        other => panic!("{other:?}"),
    }
    // A path of 2000 vertices, three tokens at its top: 2000³ positions.
    let arcs: Vec<_> = (1..2000).map(|v| (Vertex(v), Vertex(v - 1))).collect();
    let g = Graph::from_arcs(2000, &arcs).unwrap();
    let game = SumGame { tokens: vec![Vertex(1999); 3], ..SumGame::default() };
    let err = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap_err();
    assert!(matches!(err, SumError::SearchTooLarge { .. }), "{err}");
    // Two tokens: 4·10⁶ positions and 8·10⁶ moves, within the limit. Every play lasts
    // 2 · 1999 moves, so the opponent makes the last one and the player to move, left
    // without a move, wins; any move keeps that parity.
    let game = SumGame { tokens: vec![Vertex(1999); 2], ..SumGame::default() };
    let answer = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap();
    assert_eq!(answer.outcome, Outcome::Win);
    let token = TokenMove { token: 0, from: Vertex(1999), to: Vertex(1998) };
    assert_eq!(answer.best, Some(SumMove::Token(token)));
}

#[test]
fn malformed_sums_are_errors() {
    let g = Graph::from_arcs(2, &[(Vertex(1), Vertex(0))]).unwrap();
    let values = loopy_grundy(&g);
    let bad = [
        (SumGame { tokens: vec![Vertex(2)], ..SumGame::default() }, "vertex 3"),
        (SumGame { heaps: vec![1, 2], limits: Some(vec![1]), ..SumGame::default() }, "2 heaps"),
        (SumGame { heaps: vec![1, 2], limits: Some(vec![1, 0]), ..SumGame::default() }, "heap 2"),
    ];
    for (game, needle) in bad {
        let a = play_mixed_sum(&g, &values, &game).unwrap_err();
        let b = play_misere_sum(&g, &game, SUM_SEARCH_LIMIT).unwrap_err();
        assert_eq!(a, b);
        assert!(a.to_string().contains(needle), "{a}");
    }
}
