//! Heap games: single heaps, compound heaps with move limits, misère play, Moore's Nim_k.
//! See the crate documentation for what is answered by theory, by search, or refused.

mod moore;
mod parse;
mod search;

pub use self::parse::parse_heaps;

use crate::{HeapError, Nimber, Outcome};

/// Normal play (who cannot move loses) or misère play (who cannot move wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Play {
    /// The player who takes the last object wins.
    #[default]
    Normal,
    /// The player who takes the last object loses.
    Misere,
}

/// How an answer was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// A proven rule (see the module documentation), in time linear in the input.
    Theory,
    /// Exhaustive search of every position below the given one.
    Search,
}

/// Taking `take` objects from heap `heap` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HeapMove {
    /// The heap, 0-based.
    pub heap: usize,
    /// How many objects are taken (at least 1).
    pub take: u64,
}

/// `take T from heap I`, with the heap numbered from 1, as every command prints a move.
impl std::fmt::Display for HeapMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "take {} from heap {}", self.take, self.heap + 1)
    }
}

/// A heap game: heap sizes, optional per-heap move limits, normal or misère play, and
/// Moore's k (a move takes from up to k heaps; `None` is k = 1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeapGame {
    /// The heap sizes.
    pub heaps: Vec<u64>,
    /// The largest number of objects a move may take from each heap (`None`: no limit).
    pub limits: Option<Vec<u64>>,
    /// Normal or misère play.
    pub play: Play,
    /// Moore's Nim_k: a move takes from 1..=k heaps. `None` means an ordinary sum.
    pub moore: Option<u64>,
}

/// The answer for a heap game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapAnswer {
    /// [`Outcome::Win`] or [`Outcome::Loss`] for the player to move (heap games end).
    pub outcome: Outcome,
    /// The normal-play Grundy value of each heap on its own, nᵢ mod (mᵢ + 1) (for Moore's
    /// game, the heap sizes, whose binary columns decide it).
    pub values: Vec<Nimber>,
    /// The digit sum of `values`.
    pub digit_sum: Nimber,
    /// A winning move: one heap, or up to k for Moore's game; empty when the position is
    /// lost, or terminal (a terminal misère position is won without moving).
    pub moves: Vec<HeapMove>,
    /// Theory or search.
    pub method: Method,
}

/// The largest exhaustive search [`solve_heaps`] performs (states times moves per state).
pub const SEARCH_LIMIT: u64 = 1 << 26;

/// The normal-play Grundy value of a heap of `n` with moves of 1..=`limit`.
#[inline]
pub fn heap_value(n: u64, limit: Option<u64>) -> Nimber {
    match limit {
        Some(m) if m < n => Nimber(n % (m + 1)),
        _ => Nimber(n),
    }
}

/// One heap answered by congruence: a heap of `n`, moves of 1..=`k`.
///
/// Normal play: lost iff n ≡ 0 (mod k+1), else take n mod (k+1). Misère: lost iff
/// n ≡ 1 (mod k+1), else take (n − 1) mod (k+1) (n = 0 is a won terminal position).
/// Returns the outcome and the winning take.
///
/// # Complexity
/// O(1).
///
/// # Example
/// ```
/// use gamegraph_grundy::{single_heap, Outcome, Play};
///
/// // 17 objects, take 1..4: take 2 and keep a multiple of 5.
/// assert_eq!(single_heap(17, 4, Play::Normal), (Outcome::Win, Some(2)));
/// // 23 matches, take 1..5, who takes the last loses: take 4 and keep 1 mod 6.
/// assert_eq!(single_heap(23, 5, Play::Misere), (Outcome::Win, Some(4)));
/// assert_eq!(single_heap(15, 4, Play::Normal), (Outcome::Loss, None));
/// ```
pub fn single_heap(n: u64, k: u64, play: Play) -> (Outcome, Option<u64>) {
    let r = heap_value(n, Some(k)).0;
    match play {
        Play::Normal if r == 0 => (Outcome::Loss, None),
        Play::Normal => (Outcome::Win, Some(r)),
        // No object left, or no move allowed (k = 0): the player to move has won.
        Play::Misere if n == 0 || k == 0 => (Outcome::Win, None),
        Play::Misere => {
            // (n − 1) mod (k + 1), computed without overflow for k = u64::MAX.
            let t = heap_value(n - 1, Some(k)).0;
            if t == 0 { (Outcome::Loss, None) } else { (Outcome::Win, Some(t)) }
        }
    }
}

/// Solves a heap game exactly: outcome and a winning move.
///
/// Ordinary sums (Moore's k absent or 1) are answered by the digit sum of the values
/// nᵢ mod (mᵢ + 1) (normal play) or by the misère rule proven in the module
/// documentation; Moore's Nim_k by binary column sums mod k + 1 (Moore 1910). Moore's
/// game with limits that bind is searched exhaustively when small, and refused otherwise.
///
/// # Errors
/// [`HeapError::LimitCount`], [`HeapError::ZeroLimit`], [`HeapError::ZeroMooreK`] for a
/// malformed game; [`HeapError::SearchTooLarge`] when no method applies.
///
/// # Complexity
/// Theory: O(p) time for p heaps (O(64 p) for Moore's game), O(p) space.
/// Search: O(states · moves) ≤ [`SEARCH_LIMIT`].
///
/// # Example
/// ```
/// use gamegraph_grundy::{solve_heaps, HeapGame, HeapMove, Nimber, Outcome, Play};
///
/// // Heaps 5, 7, 9 with limits 2, 3, 4: values 2, 3, 4, digit sum 5.
/// let game = HeapGame { heaps: vec![5, 7, 9], limits: Some(vec![2, 3, 4]), ..HeapGame::default() };
/// let answer = solve_heaps(&game).unwrap();
/// assert_eq!(answer.digit_sum, Nimber(5));
/// assert_eq!(answer.outcome, Outcome::Win);
/// assert_eq!(answer.moves, [HeapMove { heap: 2, take: 3 }]);
/// ```
pub fn solve_heaps(game: &HeapGame) -> Result<HeapAnswer, HeapError> {
    let p = game.heaps.len();
    if let Some(l) = &game.limits {
        if l.len() != p {
            return Err(HeapError::LimitCount { heaps: p, limits: l.len() });
        }
        if let Some(i) = l.iter().position(|&m| m == 0) {
            return Err(HeapError::ZeroLimit { heap: i });
        }
    }
    let limit = |i: usize| game.limits.as_ref().map(|l| l[i]);
    let values: Vec<Nimber> = (0..p).map(|i| heap_value(game.heaps[i], limit(i))).collect();
    let digit_sum: Nimber = values.iter().copied().sum();
    let k = match game.moore {
        Some(0) => return Err(HeapError::ZeroMooreK),
        Some(k) if k >= 2 => k,
        _ => {
            let (outcome, moves) = match game.play {
                Play::Normal => normal_sum(&values, digit_sum),
                Play::Misere => misere_sum(&game.heaps, &values, digit_sum, limit),
            };
            return Ok(HeapAnswer { outcome, values, digit_sum, moves, method: Method::Theory });
        }
    };
    let binding = (0..p).any(|i| limit(i).is_some_and(|m| m < game.heaps[i]));
    let sizes: Vec<Nimber> = game.heaps.iter().map(|&n| Nimber(n)).collect();
    let xor: Nimber = sizes.iter().copied().sum();
    if !binding {
        let (outcome, moves) = moore::moore(&game.heaps, k, game.play);
        return Ok(HeapAnswer {
            outcome,
            values: sizes,
            digit_sum: xor,
            moves,
            method: Method::Theory,
        });
    }
    let (outcome, moves) =
        search::search(&game.heaps, |i| limit(i).unwrap_or(u64::MAX), k, game.play)?;
    Ok(HeapAnswer { outcome, values: sizes, digit_sum: xor, moves, method: Method::Search })
}

/// The normal-play Nim move: first heap with gᵢ ⊕ s < gᵢ.
fn normal_sum(values: &[Nimber], s: Nimber) -> (Outcome, Vec<HeapMove>) {
    if s.is_zero() {
        return (Outcome::Loss, Vec::new());
    }
    let i = values.iter().position(|g| (*g ^ s).0 < g.0).expect("the top bit of s is in some gᵢ");
    let g = values[i].0;
    (Outcome::Win, vec![HeapMove { heap: i, take: g - (g ^ s.0) }])
}

/// The misère rule of the module documentation.
fn misere_sum(
    heaps: &[u64],
    values: &[Nimber],
    s: Nimber,
    limit: impl Fn(usize) -> Option<u64>,
) -> (Outcome, Vec<HeapMove>) {
    let mut big = values.iter().enumerate().filter(|(_, g)| g.0 >= 2);
    match (big.next(), big.next()) {
        (Some(_), Some(_)) => normal_sum(values, s),
        (Some((j, g)), None) => {
            // s ≠ 0 here; move heap j to value r ⊕ 1 ≤ 1, leaving only values ≤ 1 with sum 1.
            let target = (s ^ *g).0 ^ 1;
            (Outcome::Win, vec![HeapMove { heap: j, take: g.0 - target }])
        }
        (None, _) if s.0 == 1 => (Outcome::Loss, Vec::new()),
        (None, _) => {
            if let Some(i) = values.iter().position(|g| g.0 == 1) {
                return (Outcome::Win, vec![HeapMove { heap: i, take: 1 }]);
            }
            match heaps.iter().position(|&n| n > 0) {
                // Value 0 and non-empty: nᵢ ≥ mᵢ + 1, and taking mᵢ leaves value 1.
                Some(i) => {
                    let m = limit(i).expect("an unlimited non-empty heap has a value >= 1");
                    (Outcome::Win, vec![HeapMove { heap: i, take: m }])
                }
                None => (Outcome::Win, Vec::new()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heap of 2⁶⁴ − 1 has 2⁶⁴ sizes: the state count saturates instead of wrapping to
    /// 0 and slipping past the size check.
    #[test]
    fn search_of_the_largest_heaps_is_refused() {
        for heaps in [vec![u64::MAX], vec![u64::MAX, u64::MAX], vec![u64::MAX, 0, 7]] {
            let limits = Some(vec![3; heaps.len()]);
            let game = HeapGame { heaps, limits, moore: Some(2), ..HeapGame::default() };
            let err = solve_heaps(&game).unwrap_err();
            assert_eq!(err, HeapError::SearchTooLarge { work: u64::MAX, limit: SEARCH_LIMIT });
        }
    }

    /// With k = 0 no move is legal: the player to move loses in normal play and wins in
    /// misère play, whatever the heap.
    #[test]
    fn single_heaps_without_moves() {
        for n in [0, 1, 2, 17, u64::MAX] {
            assert_eq!(single_heap(n, 0, Play::Normal), (Outcome::Loss, None), "{n}");
            assert_eq!(single_heap(n, 0, Play::Misere), (Outcome::Win, None), "{n}");
        }
        // Against the definition on small heaps and limits, misère play.
        for k in 0..6u64 {
            let mut lost: Vec<bool> = Vec::new();
            for n in 0..40u64 {
                let moves = (1..=k.min(n)).map(|t| n - t);
                let has_move = k.min(n) > 0;
                let l = has_move && moves.clone().all(|m| !lost[m as usize]);
                lost.push(l);
                let expected = if l { Outcome::Loss } else { Outcome::Win };
                assert_eq!(single_heap(n, k, Play::Misere).0, expected, "n {n} k {k}");
            }
        }
    }

    /// Moore's misère game with many heaps that all end up touched stays linear in the
    /// heaps (the membership test is a table, not a scan).
    #[test]
    fn moore_misere_with_many_touched_heaps() {
        let game = HeapGame {
            heaps: vec![2; 200_000],
            play: Play::Misere,
            moore: Some(u64::MAX),
            ..HeapGame::default()
        };
        let answer = solve_heaps(&game).unwrap();
        assert_eq!(answer.outcome, Outcome::Win);
        // Leave exactly one heap of 1: the player to move then loses.
        let left: u64 = answer.moves.iter().map(|m| 2 - m.take).sum::<u64>()
            + 2 * (game.heaps.len() - answer.moves.len()) as u64;
        assert_eq!(left, 1);
    }
}
