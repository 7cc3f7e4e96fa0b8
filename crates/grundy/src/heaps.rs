//! Heap games: single heaps, compound heaps with move limits, misère play, Moore's Nim_k.
//! See the crate documentation for what is answered by theory, by search, or refused.

use std::fmt::Write as _;

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

/// The single game of SPEC §4 answered by congruence: a heap of `n`, moves of 1..=`k`.
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
/// // The thesis: 17 objects, take 1..4: take 2 and keep a multiple of 5.
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
        Play::Misere if n == 0 => (Outcome::Win, None),
        Play::Misere => {
            // (n − 1) mod (k + 1), computed without overflow for k = u64::MAX.
            let t = heap_value(n - 1, Some(k)).0;
            if t == 0 { (Outcome::Loss, None) } else { (Outcome::Win, Some(t)) }
        }
    }
}

/// The game graph of one heap of `n` with moves of 1..=`k`, for reading the answer off its
/// kernel: vertex x is the heap of x objects, with arcs x → x − t for 1 ≤ t ≤ min(k, x).
/// In misère play one more vertex n + 1 ("the game is over, the player to move has won")
/// gets an arc from 0, so that the kernel is again the set of lost positions.
///
/// # Panics
/// If `n >= u32::MAX - 1` (the vertex ids would not fit).
///
/// # Complexity
/// O(n · min(k, n)) time and space.
pub fn heap_graph(n: u32, k: u32, play: Play) -> gamegraph_graph::Graph {
    use gamegraph_graph::{Graph, Vertex};
    let mut arcs = Vec::new();
    for x in 0..=n {
        for t in 1..=k.min(x) {
            arcs.push((Vertex(x), Vertex(x - t)));
        }
    }
    let mut vertices = n as usize + 1;
    if play == Play::Misere {
        arcs.push((Vertex(0), Vertex(n + 1)));
        vertices += 1;
    }
    Graph::from_arcs(vertices, &arcs).expect("arcs within 0..=n+1")
}

/// The winning take from a heap of `n`, read off the kernel of [`heap_graph`]: the player
/// to move loses iff `n` is in the kernel, and otherwise moves into it.
///
/// # Complexity
/// O(k) time.
pub fn single_heap_from_kernel(
    n: u64,
    k: u64,
    in_kernel: impl Fn(u64) -> bool,
) -> (Outcome, Option<u64>) {
    if in_kernel(n) {
        return (Outcome::Loss, None);
    }
    match (1..=k.min(n)).find(|&t| in_kernel(n - t)) {
        Some(t) => (Outcome::Win, Some(t)),
        // Only the misère terminal position: out of the kernel, but it has no move.
        None => (Outcome::Win, None),
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
        let (outcome, moves) = moore(&game.heaps, k, game.play);
        return Ok(HeapAnswer {
            outcome,
            values: sizes,
            digit_sum: xor,
            moves,
            method: Method::Theory,
        });
    }
    let (outcome, moves) = search(&game.heaps, |i| limit(i).unwrap_or(u64::MAX), k, game.play)?;
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

/// Moore's Nim_k, normal play: the winning move built bit by bit from the top. Touched
/// heaps are free below the bit where they were lowered; at each bit either enough of
/// them get the bit to make the column ≡ 0 (mod k+1), or r more heaps with the bit are
/// lowered there (r = the column mod k+1), which keeps at most k heaps touched.
fn moore_normal(heaps: &[u64], k: u64) -> Option<Vec<(usize, u64)>> {
    let m = u128::from(k) + 1;
    let mut touched: Vec<(usize, u64)> = Vec::new(); // (heap, new size so far)
    let mut is_touched = vec![false; heaps.len()];
    for bit in (0..64).rev() {
        let mask = 1u64 << bit;
        let c =
            heaps.iter().zip(&is_touched).filter(|(n, t)| *n & mask != 0 && !**t).count() as u128;
        let r = c % m;
        let need = (m - r) % m;
        if need <= touched.len() as u128 {
            for (j, t) in touched.iter_mut().enumerate() {
                if (j as u128) < need {
                    t.1 |= mask;
                }
            }
        } else {
            let fresh: Vec<usize> = heaps
                .iter()
                .enumerate()
                .filter(|(i, n)| *n & mask != 0 && !is_touched[*i])
                .map(|(i, _)| i)
                .take(r as usize)
                .collect();
            for i in fresh {
                is_touched[i] = true;
                // Keep the bits above `bit`, clear it and everything below.
                let high = if bit == 63 { 0 } else { (heaps[i] >> (bit + 1)) << (bit + 1) };
                touched.push((i, high));
            }
        }
    }
    if touched.is_empty() {
        return None;
    }
    touched.sort_unstable();
    Some(touched)
}

/// Moore's Nim_k, normal or misère (Moore 1910).
fn moore(heaps: &[u64], k: u64, play: Play) -> (Outcome, Vec<HeapMove>) {
    let to_moves = |t: &[(usize, u64)]| -> Vec<HeapMove> {
        t.iter().map(|&(i, new)| HeapMove { heap: i, take: heaps[i] - new }).collect()
    };
    let normal = moore_normal(heaps, k);
    if play == Play::Normal {
        return match normal {
            None => (Outcome::Loss, Vec::new()),
            Some(t) => (Outcome::Win, to_moves(&t)),
        };
    }
    let m = u128::from(k) + 1;
    let big: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] >= 2).collect();
    let ones: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] == 1).collect();
    if big.is_empty() {
        let o = ones.len() as u128;
        if o % m == 1 {
            return (Outcome::Loss, Vec::new());
        }
        if o == 0 {
            return (Outcome::Win, Vec::new());
        }
        let z = ((o + m - 1) % m) as usize; // 1 ≤ z ≤ min(k, o − 1)
        return (Outcome::Win, ones[..z].iter().map(|&i| HeapMove { heap: i, take: 1 }).collect());
    }
    let Some(t) = normal else { return (Outcome::Loss, Vec::new()) };
    let mut is_touched = vec![false; heaps.len()];
    for &(j, _) in &t {
        is_touched[j] = true;
    }
    let after_big = t.iter().any(|&(_, new)| new >= 2) || big.iter().any(|&i| !is_touched[i]);
    if after_big {
        return (Outcome::Win, to_moves(&t));
    }
    // The normal move would leave only heaps ≤ 1 (so |big| ≤ k): instead lower the big
    // heaps to 0 or 1 and possibly empty some 1-heaps so that the 1-heaps number ≡ 1.
    let h = big.len() as u128;
    let o = ones.len() as u128;
    for y in (0..=h).rev() {
        let z = (o + y + m - 1) % m; // z ≡ o + y − 1 (mod k+1)
        if z <= o && z + h <= u128::from(k) {
            let mut moves: Vec<HeapMove> = big
                .iter()
                .enumerate()
                .map(|(j, &i)| HeapMove { heap: i, take: heaps[i] - u64::from((j as u128) < y) })
                .collect();
            moves.extend(ones[..z as usize].iter().map(|&i| HeapMove { heap: i, take: 1 }));
            moves.sort_unstable_by_key(|mv| mv.heap);
            return (Outcome::Win, moves);
        }
    }
    unreachable!("y − z covers k + 1 consecutive integers, so every residue")
}

/// Exhaustive search of Moore's Nim_k with limits: every position below `heaps`.
fn search(
    heaps: &[u64],
    limit: impl Fn(usize) -> u64,
    k: u64,
    play: Play,
) -> Result<(Outcome, Vec<HeapMove>), HeapError> {
    // Heaps of size 0 take no part.
    let live: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
    let mut states = 1u64;
    let mut moves_bound = 1u64;
    for &i in &live {
        // A heap of u64::MAX has 2^64 sizes: saturate rather than wrap to 0.
        states = states.saturating_mul(heaps[i].saturating_add(1));
        moves_bound = moves_bound.saturating_mul(limit(i).min(heaps[i]).saturating_add(1));
    }
    let work = states.saturating_mul(moves_bound);
    if work > SEARCH_LIMIT {
        return Err(HeapError::SearchTooLarge { work, limit: SEARCH_LIMIT });
    }
    let size: Vec<u64> = live.iter().map(|&i| heaps[i]).collect();
    let cap: Vec<u64> = live.iter().map(|&i| limit(i).min(heaps[i])).collect();
    let mut stride = vec![1u64; live.len()];
    for j in 1..live.len() {
        stride[j] = stride[j - 1] * (size[j - 1] + 1);
    }
    let digits = |mut s: u64| -> Vec<u64> {
        size.iter()
            .map(|&n| {
                let d = s % (n + 1);
                s /= n + 1;
                d
            })
            .collect()
    };
    // The first move (odometer order) from digits `d` into a lost state, if any; and
    // whether `d` has any move at all.
    let k = k.min(live.len() as u64) as usize;
    let first_winning = |d: &[u64], lost: &[bool]| -> (bool, Option<Vec<u64>>) {
        let mut take = vec![0u64; d.len()];
        let mut any = false;
        loop {
            // Advance the odometer.
            let mut j = 0;
            loop {
                if j == d.len() {
                    return (any, None);
                }
                if take[j] < cap[j].min(d[j]) {
                    take[j] += 1;
                    break;
                }
                take[j] = 0;
                j += 1;
            }
            let used = take.iter().filter(|&&t| t > 0).count();
            if used == 0 || used > k {
                continue;
            }
            any = true;
            let target: u64 = (0..d.len()).map(|j| (d[j] - take[j]) * stride[j]).sum();
            if lost[target as usize] {
                return (true, Some(take));
            }
        }
    };
    let mut lost = vec![false; states as usize];
    for s in 0..states {
        let d = digits(s);
        let (any, win) = first_winning(&d, &lost);
        lost[s as usize] = if any { win.is_none() } else { play == Play::Normal };
    }
    let top = states - 1;
    if lost[top as usize] {
        return Ok((Outcome::Loss, Vec::new()));
    }
    let (_, win) = first_winning(&digits(top), &lost);
    let moves = win
        .map(|take| {
            take.iter()
                .enumerate()
                .filter(|(_, t)| **t > 0)
                .map(|(j, &t)| HeapMove { heap: live[j], take: t })
                .collect()
        })
        .unwrap_or_default();
    Ok((Outcome::Win, moves))
}

/// The answer worked out step by step, as the thesis does: each heap's value in decimal
/// and binary, the digit sum column by column, and the winning move.
///
/// # Complexity
/// O(p · 64) time and output for p heaps.
pub fn explain(game: &HeapGame, answer: &HeapAnswer) -> String {
    let mut s = String::new();
    let width =
        answer.values.iter().map(|g| 64 - g.0.leading_zeros()).max().unwrap_or(1).max(1) as usize;
    let bin = |x: u64| format!("{x:0width$b}");
    let misere = game.play == Play::Misere;
    match game.moore {
        Some(k) if k >= 2 => {
            let _ = writeln!(s, "Moore's Nim_{k}: a move takes from 1 to {k} heaps");
            for (i, n) in game.heaps.iter().enumerate() {
                let _ = writeln!(s, "heap {}: {} = {}", i + 1, n, bin(*n));
            }
            let sums: Vec<String> = (0..width)
                .rev()
                .map(|b| {
                    let c = game.heaps.iter().filter(|&&n| n >> b & 1 == 1).count() as u128;
                    (c % (u128::from(k) + 1)).to_string()
                })
                .collect();
            let _ = writeln!(s, "column sums mod {}: {}", u128::from(k) + 1, sums.join(" "));
            if misere {
                let _ = writeln!(
                    s,
                    "misère: with a heap of 2 or more the columns decide; with heaps of 0 and 1 \
                     only, the player to move loses iff the 1-heaps number 1 mod {}",
                    u128::from(k) + 1
                );
            }
        }
        _ => {
            for (i, (n, g)) in game.heaps.iter().zip(&answer.values).enumerate() {
                match game.limits.as_ref().map(|l| l[i]) {
                    Some(m) => {
                        let _ = writeln!(
                            s,
                            "heap {}: {} objects, take 1..{}: g = {} mod {} = {} = {}",
                            i + 1,
                            n,
                            m,
                            n,
                            u128::from(m) + 1,
                            g,
                            bin(g.0)
                        );
                    }
                    None => {
                        let _ =
                            writeln!(s, "heap {}: {} objects: g = {} = {}", i + 1, n, g, bin(g.0));
                    }
                }
            }
            let _ = writeln!(s, "digit sum: {} = {}", bin(answer.digit_sum.0), answer.digit_sum);
            if misere {
                let big = answer.values.iter().filter(|g| g.0 >= 2).count();
                if big > 0 {
                    let _ = writeln!(
                        s,
                        "misère with {big} value(s) of 2 or more: the player to move loses iff the digit sum is 0"
                    );
                } else {
                    let _ = writeln!(
                        s,
                        "misère with every value 0 or 1: the player to move loses iff the digit sum is 1"
                    );
                }
            } else {
                let _ = writeln!(s, "the player to move loses iff the digit sum is 0");
            }
        }
    }
    let _ = match answer.outcome {
        Outcome::Loss => writeln!(s, "the player to move loses"),
        _ if answer.moves.is_empty() => {
            writeln!(s, "the player to move wins: no object is left to take")
        }
        _ => {
            let mut line = String::from("winning move:");
            for mv in &answer.moves {
                let g = answer.values[mv.heap];
                let _ = write!(line, " take {} from heap {}", mv.take, mv.heap + 1);
                if game.moore.is_none_or(|k| k < 2) {
                    let left = game.heaps[mv.heap] - mv.take;
                    let lim = game.limits.as_ref().map(|l| l[mv.heap]);
                    let _ = write!(
                        line,
                        " (value {} -> {}, {} objects left)",
                        g,
                        heap_value(left, lim),
                        left
                    );
                }
            }
            writeln!(s, "{line}")
        }
    };
    if answer.method == Method::Search {
        let _ = writeln!(s, "(found by exhaustive search: no proven theory covers this game)");
    }
    s
}

/// Parses a heap list: one heap per line, `SIZE` or `SIZE LIMIT`, `#` comments to the end
/// of the line, blank lines ignored. Either every heap has a limit or none has.
///
/// # Errors
/// A [`HeapListError`](crate::HeapListError) with the line and column of the first problem.
///
/// # Complexity
/// O(length of the text).
///
/// # Example
/// ```
/// use gamegraph_grundy::parse_heaps;
///
/// let (heaps, limits) = parse_heaps("# three heaps\n5 2\n7 3\n9 4\n").unwrap();
/// assert_eq!(heaps, [5, 7, 9]);
/// assert_eq!(limits, Some(vec![2, 3, 4]));
/// assert!(parse_heaps("5\n7 x\n").is_err());
/// ```
pub fn parse_heaps(text: &str) -> Result<(Vec<u64>, Option<Vec<u64>>), crate::HeapListError> {
    let err = |line: usize, column: usize, message: String| crate::HeapListError {
        line: line as u64 + 1,
        column: column as u64 + 1,
        message,
    };
    let mut heaps = Vec::new();
    let mut limits = Vec::new();
    let mut with_limits: Option<bool> = None;
    // A byte-order mark at the start of the text is not part of the first heap.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut fields = Vec::new();
        let mut start = None;
        for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    fields.push((s, &line[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if fields.is_empty() {
            continue;
        }
        if fields.len() > 2 {
            return Err(err(
                ln,
                fields[2].0,
                "expected `SIZE` or `SIZE LIMIT`, found a third field".into(),
            ));
        }
        let has = fields.len() == 2;
        match with_limits {
            None => with_limits = Some(has),
            Some(w) if w != has => {
                let col = fields.last().map_or(0, |f| f.0 + f.1.len());
                return Err(err(ln, col, "either every heap has a limit or none has".into()));
            }
            _ => {}
        }
        let num = |(col, s): (usize, &str), what: &str| -> Result<u64, crate::HeapListError> {
            s.parse::<u64>().map_err(|_| {
                err(
                    ln,
                    col,
                    format!(
                        "expected a {what} (an integer from 0 to 2^64 - 1), found {}",
                        crate::quote::quote(s)
                    ),
                )
            })
        };
        heaps.push(num(fields[0], "heap size")?);
        if has {
            let m = num(fields[1], "move limit")?;
            if m == 0 {
                return Err(err(ln, fields[1].0, "a move limit must be at least 1".into()));
            }
            limits.push(m);
        }
    }
    Ok((heaps, (with_limits == Some(true)).then_some(limits)))
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

    #[test]
    fn heap_lists_with_a_bom_crlf_and_long_tokens() {
        assert_eq!(parse_heaps("\u{feff}3\r\n5\r\n6\r\n").unwrap(), (vec![3, 5, 6], None));
        assert_eq!(parse_heaps("3 1\r\n5 2\r\n").unwrap(), (vec![3, 5], Some(vec![1, 2])));
        let long = format!("1\n{}\n", "9".repeat(100_000));
        let err = parse_heaps(&long).unwrap_err();
        assert_eq!((err.line, err.column), (2, 1));
        assert!(err.message.len() < 200, "{}", err.message);
        // A BOM anywhere else is a bad token.
        assert!(parse_heaps("3\n\u{feff}5\n").is_err());
    }
}
