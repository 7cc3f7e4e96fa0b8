//! The rules of playing a sum of heaps move by move: which takes are legal, the position
//! after a move, and the engine's move (a winning move, else the delaying move).

use std::fmt;

use crate::{HeapError, HeapGame, HeapMove, solve_heaps};

/// Why a move is not legal in a heap game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeapMoveError {
    /// The move takes from no heap.
    Empty,
    /// There is no heap with this 0-based index.
    NoHeap {
        /// The 0-based heap index given.
        heap: usize,
        /// The number of heaps.
        heaps: usize,
    },
    /// A move of no object.
    Zero,
    /// More objects than the heap has.
    MoreThanHeap {
        /// The 0-based heap index.
        heap: usize,
        /// The objects the heap has.
        has: u64,
    },
    /// More objects than the heap's limit.
    OverLimit {
        /// The 0-based heap index.
        heap: usize,
        /// The most a move may take from it.
        limit: u64,
    },
    /// Takes from more heaps than one move may (1, or Moore's k).
    TooManyHeaps {
        /// The most heaps one move may take from.
        most: u64,
    },
    /// The same heap twice in one move.
    Twice {
        /// The 0-based heap index.
        heap: usize,
    },
}

impl fmt::Display for HeapMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HeapMoveError::Empty => write!(f, "a move takes from at least one heap"),
            HeapMoveError::NoHeap { heap, heaps } => {
                write!(f, "there is no heap {} (heaps 1..{heaps})", heap.saturating_add(1))
            }
            HeapMoveError::Zero => write!(f, "a move takes at least one object"),
            HeapMoveError::MoreThanHeap { heap, has } => {
                write!(f, "heap {} has only {has} objects", heap + 1)
            }
            HeapMoveError::OverLimit { heap, limit } => {
                write!(f, "at most {limit} may be taken from heap {}", heap + 1)
            }
            HeapMoveError::TooManyHeaps { most } => {
                write!(
                    f,
                    "a move takes from at most {most} heap{}",
                    if most == 1 { "" } else { "s" }
                )
            }
            HeapMoveError::Twice { heap } => write!(f, "heap {} is named twice", heap + 1),
        }
    }
}

impl std::error::Error for HeapMoveError {}

/// The most objects a move may take from heap `i` of `game` now: its size, or its limit
/// when smaller.
///
/// # Panics
/// When `i` is not a heap of `game`.
pub fn max_take(game: &HeapGame, i: usize) -> u64 {
    let limit = game.limits.as_ref().map_or(u64::MAX, |l| l[i]);
    game.heaps[i].min(limit)
}

/// The most heaps one move may take from: 1, or k in Moore's Nim_k.
pub fn heaps_per_move(game: &HeapGame) -> u64 {
    game.moore.unwrap_or(1).max(1)
}

/// Whether the player to move has a move (some heap is not empty).
pub fn has_move(game: &HeapGame) -> bool {
    game.heaps.iter().any(|&h| h > 0)
}

/// Checks `moves` (one take, or up to k takes from different heaps in Moore's Nim_k) and
/// returns the heap sizes after it.
///
/// # Errors
/// [`HeapMoveError`] naming the first rule the move breaks.
///
/// # Example
/// ```
/// use gamegraph_grundy::{HeapGame, HeapMove, play};
///
/// let game = HeapGame { heaps: vec![5, 7], limits: Some(vec![2, 3]), ..HeapGame::default() };
/// assert_eq!(play::apply(&game, &[HeapMove { heap: 1, take: 3 }]), Ok(vec![5, 4]));
/// assert!(play::apply(&game, &[HeapMove { heap: 0, take: 3 }]).is_err());
/// ```
pub fn apply(game: &HeapGame, moves: &[HeapMove]) -> Result<Vec<u64>, HeapMoveError> {
    if moves.is_empty() {
        return Err(HeapMoveError::Empty);
    }
    let most = heaps_per_move(game);
    if moves.len() as u64 > most {
        return Err(HeapMoveError::TooManyHeaps { most });
    }
    let mut after = game.heaps.clone();
    for (n, m) in moves.iter().enumerate() {
        if m.heap >= game.heaps.len() {
            return Err(HeapMoveError::NoHeap { heap: m.heap, heaps: game.heaps.len() });
        }
        if moves[..n].iter().any(|e| e.heap == m.heap) {
            return Err(HeapMoveError::Twice { heap: m.heap });
        }
        if m.take == 0 {
            return Err(HeapMoveError::Zero);
        }
        if m.take > game.heaps[m.heap] {
            return Err(HeapMoveError::MoreThanHeap { heap: m.heap, has: game.heaps[m.heap] });
        }
        let limit = game.limits.as_ref().map_or(u64::MAX, |l| l[m.heap]);
        if m.take > limit {
            return Err(HeapMoveError::OverLimit { heap: m.heap, limit });
        }
        after[m.heap] -= m.take;
    }
    Ok(after)
}

/// The engine's move: the solver's winning move when the position is won, else the move
/// that delays the loss the same way every time (one object from the largest heap, the
/// first of the largest); `None` when there is no move.
///
/// # Errors
/// What [`solve_heaps`] refuses.
///
/// # Example
/// ```
/// use gamegraph_grundy::{HeapGame, HeapMove, play};
///
/// // 3 ⊕ 3 = 0: lost, so the engine takes one object from the first largest heap.
/// let game = HeapGame { heaps: vec![3, 3], ..HeapGame::default() };
/// assert_eq!(play::engine_move(&game), Ok(Some(vec![HeapMove { heap: 0, take: 1 }])));
/// ```
pub fn engine_move(game: &HeapGame) -> Result<Option<Vec<HeapMove>>, HeapError> {
    if !has_move(game) {
        return Ok(None);
    }
    let answer = solve_heaps(game)?;
    if !answer.moves.is_empty() {
        return Ok(Some(answer.moves));
    }
    let h = &game.heaps;
    let heap = (0..h.len()).max_by_key(|&i| (h[i], usize::MAX - i)).unwrap_or(0);
    Ok(Some(vec![HeapMove { heap, take: 1 }]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Play;

    /// Every heap position of up to three heaps of at most 4 (limits up to 3): a move is
    /// legal exactly when a brute-force list of moves holds it, and the engine's move is
    /// legal and, from a won position, leads to a lost one.
    #[test]
    fn legal_moves_and_the_engine_agree_with_brute_force() {
        for a in 0..=4u64 {
            for b in 0..=4u64 {
                for limit in [None, Some(vec![2, 3])] {
                    for play in [Play::Normal, Play::Misere] {
                        let game = HeapGame {
                            heaps: vec![a, b],
                            limits: limit.clone(),
                            play,
                            moore: None,
                        };
                        let lim = |i: usize| limit.as_ref().map_or(u64::MAX, |l| l[i]);
                        for heap in 0..3 {
                            for take in 0..=5 {
                                let m = HeapMove { heap, take };
                                let legal = heap < 2
                                    && take >= 1
                                    && take <= game.heaps[heap]
                                    && take <= lim(heap);
                                assert_eq!(apply(&game, &[m]).is_ok(), legal, "{game:?} {m:?}");
                            }
                        }
                        let e = engine_move(&game).unwrap();
                        assert_eq!(e.is_some(), a + b > 0);
                        if let Some(e) = e {
                            let after = apply(&game, &e).unwrap();
                            let won = solve_heaps(&game).unwrap().outcome == crate::Outcome::Win;
                            let next = HeapGame { heaps: after, ..game.clone() };
                            let next_won =
                                solve_heaps(&next).unwrap().outcome == crate::Outcome::Win;
                            if won {
                                assert!(!next_won, "{game:?} {e:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn moore_moves_take_from_up_to_k_different_heaps() {
        let game = HeapGame { heaps: vec![3, 5, 6], moore: Some(2), ..HeapGame::default() };
        let m = |heap, take| HeapMove { heap, take };
        assert_eq!(apply(&game, &[m(0, 1), m(2, 6)]), Ok(vec![2, 5, 0]));
        assert_eq!(
            apply(&game, &[m(0, 1), m(1, 1), m(2, 1)]),
            Err(HeapMoveError::TooManyHeaps { most: 2 })
        );
        assert_eq!(apply(&game, &[m(0, 1), m(0, 1)]), Err(HeapMoveError::Twice { heap: 0 }));
        assert_eq!(apply(&game, &[]), Err(HeapMoveError::Empty));
    }

    #[test]
    fn large_heaps_are_exact() {
        let game = HeapGame { heaps: vec![1_152_921_504_606_846_977, 5], ..HeapGame::default() };
        let e = engine_move(&game).unwrap().unwrap();
        assert_eq!(e, [HeapMove { heap: 0, take: 1_152_921_504_606_846_972 }]);
        assert_eq!(apply(&game, &e), Ok(vec![5, 5]));
    }
}
