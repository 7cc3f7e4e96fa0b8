//! Exhaustive retrograde search of the explicit product of a sum's components: the
//! positions reachable by each token (a breadth-first search in the game graph) and
//! every size 0..=n of each heap, combined in mixed radix. Each position is labelled win,
//! loss or draw for the player to move by retrograde counting (no recursion), in normal
//! or misère play.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use gamegraph_graph::{Graph, Vertex};

use crate::{HeapMove, Outcome, Play, SumError, SumGame, SumMove, TokenMove};

/// Not labelled (yet): a draw once the propagation is over.
const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

/// The positions reachable by one token, numbered from 0 (where it stands) in
/// breadth-first order, with successor and predecessor lists in local numbers.
struct Token {
    /// Local number -> vertex of the game graph.
    vertices: Vec<Vertex>,
    succ_offsets: Vec<u32>,
    succ: Vec<u32>,
    pred_offsets: Vec<u32>,
    pred: Vec<u32>,
}

impl Token {
    /// The positions reachable from `start`, or `Err(count)` as soon as more than `limit`
    /// are found.
    fn explore(g: &Graph, start: Vertex, limit: u64) -> Result<Token, u64> {
        let mut local: HashMap<Vertex, u32> = HashMap::new();
        let mut vertices = vec![start];
        local.insert(start, 0);
        let mut succ_offsets = vec![0u32];
        let mut succ = Vec::new();
        let mut next = 0;
        while next < vertices.len() {
            for &w in g.successors(vertices[next]) {
                let id = match local.entry(w) {
                    Entry::Occupied(e) => *e.get(),
                    Entry::Vacant(e) => {
                        if vertices.len() as u64 >= limit {
                            return Err(vertices.len() as u64 + 1);
                        }
                        vertices.push(w);
                        *e.insert(vertices.len() as u32 - 1)
                    }
                };
                succ.push(id);
                if succ.len() as u64 > limit {
                    return Err(succ.len() as u64);
                }
            }
            succ_offsets.push(succ.len() as u32);
            next += 1;
        }
        // Predecessor lists by counting.
        let r = vertices.len();
        let mut pred_offsets = vec![0u32; r + 1];
        for &w in &succ {
            pred_offsets[w as usize + 1] += 1;
        }
        for i in 0..r {
            pred_offsets[i + 1] += pred_offsets[i];
        }
        let mut fill = pred_offsets.clone();
        let mut pred = vec![0u32; succ.len()];
        for u in 0..r {
            for &w in &succ[succ_offsets[u] as usize..succ_offsets[u + 1] as usize] {
                pred[fill[w as usize] as usize] = u as u32;
                fill[w as usize] += 1;
            }
        }
        Ok(Token { vertices, succ_offsets, succ, pred_offsets, pred })
    }

    fn successors(&self, d: u32) -> &[u32] {
        &self.succ
            [self.succ_offsets[d as usize] as usize..self.succ_offsets[d as usize + 1] as usize]
    }

    fn predecessors(&self, d: u32) -> &[u32] {
        &self.pred
            [self.pred_offsets[d as usize] as usize..self.pred_offsets[d as usize + 1] as usize]
    }
}

/// One component of the product.
enum Component {
    Token(Token),
    /// A heap of `n` (its start), moves of 1..=`m` (`m <= n`).
    Heap {
        n: u32,
        m: u32,
    },
}

impl Component {
    /// The number of positions.
    fn radix(&self) -> u64 {
        match self {
            Component::Token(t) => t.vertices.len() as u64,
            Component::Heap { n, .. } => u64::from(*n) + 1,
        }
    }

    /// The local position it starts from.
    fn start(&self) -> u32 {
        match self {
            Component::Token(_) => 0,
            Component::Heap { n, .. } => *n,
        }
    }

    fn out_degree(&self, d: u32) -> u32 {
        match self {
            Component::Token(t) => t.successors(d).len() as u32,
            Component::Heap { m, .. } => d.min(*m),
        }
    }
}

/// The moves of a heap of `n` with moves of 1..=`m` over all its sizes 0..=n:
/// Σ_{s ≤ n} min(s, m), for `m <= n`.
fn heap_arcs(n: u64, m: u64) -> u128 {
    let (n, m) = (u128::from(n), u128::from(m));
    m * (m + 1) / 2 + (n - m) * m
}

/// Labels the product of the components of `game` by retrograde counting and returns the
/// outcome of the start position and the first move, in component order, that reaches a
/// lost position (from a win) or a drawn one (from a draw). `game` must be validated.
pub(crate) fn search(
    g: &Graph,
    game: &SumGame,
    play: Play,
    limit: u64,
) -> Result<(Outcome, Option<SumMove>), SumError> {
    // Positions are numbered by u32.
    let limit = limit.min(u64::from(u32::MAX));
    let too_large = |work: u128| SumError::SearchTooLarge {
        work: u64::try_from(work).unwrap_or(u64::MAX),
        limit,
    };
    // Sizes first, so that a huge heap is refused before any token is explored.
    let mut heap_states: u128 = 1;
    for &n in &game.heaps {
        heap_states = heap_states.saturating_mul(u128::from(n) + 1);
    }
    if heap_states > u128::from(limit) {
        return Err(too_large(heap_states));
    }
    let mut components = Vec::with_capacity(game.tokens.len() + game.heaps.len());
    let mut states: u128 = heap_states;
    for &v in &game.tokens {
        let budget = u64::try_from(u128::from(limit) / states).unwrap_or(u64::MAX);
        let token = Token::explore(g, v, budget)
            .map_err(|found| too_large(states.saturating_mul(u128::from(found))))?;
        states *= token.vertices.len() as u128;
        components.push(Component::Token(token));
    }
    for (i, &n) in game.heaps.iter().enumerate() {
        let m = game.limits.as_ref().map_or(n, |l| l[i].min(n));
        // n + 1 <= states <= limit <= u32::MAX here.
        let (n, m) = (n as u32, m as u32);
        components.push(Component::Heap { n, m });
    }
    let mut arcs: u128 = 0;
    for c in &components {
        let e = match c {
            Component::Token(t) => t.succ.len() as u128,
            Component::Heap { n, m } => heap_arcs(u64::from(*n), u64::from(*m)),
        };
        arcs += e * (states / u128::from(c.radix()));
    }
    let work = states + arcs;
    if work > u128::from(limit) {
        return Err(too_large(work));
    }
    let states = states as usize;
    let radix: Vec<u32> = components.iter().map(|c| c.radix() as u32).collect();
    let mut stride = vec![1usize; components.len()];
    for j in 1..components.len() {
        stride[j] = stride[j - 1] * radix[j - 1] as usize;
    }

    // Out-degrees by an odometer over the digits.
    let mut degree = vec![0u32; states];
    let mut digits = vec![0u32; components.len()];
    for d in degree.iter_mut() {
        *d = components.iter().zip(&digits).map(|(c, &x)| c.out_degree(x)).sum();
        for (x, &r) in digits.iter_mut().zip(&radix) {
            *x += 1;
            if *x < r {
                break;
            }
            *x = 0;
        }
    }

    let terminal = match play {
        Play::Normal => LOSS,
        Play::Misere => WIN,
    };
    let mut label = vec![DRAW; states];
    let mut queue: Vec<u32> = Vec::new();
    for (s, &d) in degree.iter().enumerate() {
        if d == 0 {
            label[s] = terminal;
            queue.push(s as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head] as usize;
        head += 1;
        let lost = label[s] == LOSS;
        let mut reach = |p: usize, label: &mut [u8], queue: &mut Vec<u32>| {
            if label[p] != DRAW {
                return;
            }
            if lost {
                label[p] = WIN;
                queue.push(p as u32);
            } else {
                degree[p] -= 1;
                if degree[p] == 0 {
                    label[p] = LOSS;
                    queue.push(p as u32);
                }
            }
        };
        for (j, c) in components.iter().enumerate() {
            let d = (s / stride[j]) % radix[j] as usize;
            let base = s - d * stride[j];
            match c {
                Component::Token(t) => {
                    for &p in t.predecessors(d as u32) {
                        reach(base + p as usize * stride[j], &mut label, &mut queue);
                    }
                }
                Component::Heap { n, m } => {
                    let top = (d as u64 + u64::from(*m)).min(u64::from(*n)) as usize;
                    for p in d + 1..=top {
                        reach(base + p * stride[j], &mut label, &mut queue);
                    }
                }
            }
        }
    }

    let start: usize = components.iter().zip(&stride).map(|(c, &w)| c.start() as usize * w).sum();
    let (outcome, want) = match label[start] {
        WIN => (Outcome::Win, LOSS),
        LOSS => return Ok((Outcome::Loss, None)),
        _ => (Outcome::Draw, DRAW),
    };
    let tokens = game.tokens.len();
    for (j, c) in components.iter().enumerate() {
        let d = c.start() as usize;
        let base = start - d * stride[j];
        match c {
            Component::Token(t) => {
                for &p in t.successors(0) {
                    if label[base + p as usize * stride[j]] == want {
                        let (from, to) = (t.vertices[0], t.vertices[p as usize]);
                        return Ok((
                            outcome,
                            Some(SumMove::Token(TokenMove { token: j, from, to })),
                        ));
                    }
                }
            }
            Component::Heap { m, .. } => {
                for take in 1..=d.min(*m as usize) {
                    if label[base + (d - take) * stride[j]] == want {
                        let mv = HeapMove { heap: j - tokens, take: take as u64 };
                        return Ok((outcome, Some(SumMove::Heap(mv))));
                    }
                }
            }
        }
    }
    // A misère win without a move (nothing can move), or, by the labelling, impossible.
    debug_assert!(outcome == Outcome::Win && degree[start] == 0 && label[start] == terminal);
    Ok((outcome, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{loopy_grundy, play_mixed_sum};

    /// Normal play by search agrees with Smith's rules on a small loopy graph.
    #[test]
    fn normal_search_agrees_with_smith() {
        let arcs = [(0, 1), (1, 0), (1, 2), (2, 3), (3, 3), (3, 4), (0, 4)];
        let arcs: Vec<_> = arcs.iter().map(|&(u, v)| (Vertex(u), Vertex(v))).collect();
        let g = Graph::from_arcs(5, &arcs).unwrap();
        let values = loopy_grundy(&g);
        for a in 0..5 {
            for b in 0..5 {
                for h in 0..4 {
                    let game = SumGame {
                        tokens: vec![Vertex(a), Vertex(b)],
                        heaps: vec![h],
                        limits: Some(vec![2]),
                    };
                    let smith = play_mixed_sum(&g, &values, &game).unwrap();
                    let (outcome, _) = search(&g, &game, Play::Normal, 1 << 20).unwrap();
                    assert_eq!(outcome, smith.outcome, "{game:?}");
                }
            }
        }
    }

    #[test]
    fn heap_arcs_counts_moves() {
        for n in 0..20u64 {
            for m in 1..=n {
                let naive: u64 = (0..=n).map(|s| s.min(m)).sum();
                assert_eq!(heap_arcs(n, m), u128::from(naive));
            }
        }
    }

    #[test]
    fn refuses_large_products() {
        let g = Graph::from_arcs(2, &[(Vertex(0), Vertex(1))]).unwrap();
        let game = SumGame { tokens: vec![Vertex(0)], heaps: vec![u64::MAX], limits: None };
        let err = search(&g, &game, Play::Misere, 1 << 24).unwrap_err();
        assert_eq!(err, SumError::SearchTooLarge { work: u64::MAX, limit: 1 << 24 });
        let game = SumGame { tokens: vec![Vertex(0)], heaps: vec![5000], limits: Some(vec![3]) };
        assert!(search(&g, &game, Play::Misere, 1 << 14).is_err());
        assert!(search(&g, &game, Play::Misere, 1 << 16).is_ok());
    }
}
