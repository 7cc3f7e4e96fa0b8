//! The four-outcome retrograde solver: win, loss, tie, draw, with remoteness.

use gamegraph_graph::outcome::{NONE, best_move};
use gamegraph_graph::{Graph, Label, Vertex};

use crate::{Outcome, Terminal};

/// Outcome and remoteness of every vertex of a game graph, from [`solve`].
#[derive(Debug, Clone)]
pub struct Solution {
    outcomes: Vec<Outcome>,
    remoteness: Remoteness,
}

/// The remoteness of every vertex: one byte each when every remoteness is below 255 (the
/// game crate's own solver), or a word each with [`NONE`] for a draw.
#[derive(Debug, Clone)]
enum Remoteness {
    /// Remoteness in plies; the byte of a draw means nothing.
    Bytes(Vec<u8>),
    /// Remoteness in plies, [`NONE`] for a draw.
    Words(Vec<u32>),
}

impl PartialEq for Solution {
    fn eq(&self, other: &Solution) -> bool {
        self.outcomes == other.outcomes
            && (0..self.len()).all(|v| {
                let v = Vertex::from_index(v);
                self.remoteness(v) == other.remoteness(v)
            })
    }
}

impl Eq for Solution {}

/// How many positions have each outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Positions the player to move wins.
    pub win: usize,
    /// Positions the player to move loses.
    pub loss: usize,
    /// Positions that end in a tie.
    pub tie: usize,
    /// Drawn positions.
    pub draw: usize,
}

impl Solution {
    /// The number of vertices solved.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// `true` for the solution of a graph without vertices.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The outcome of `v` for the player to move.
    ///
    /// # Panics
    /// If `v` is not a vertex of the solved graph.
    pub fn outcome(&self, v: Vertex) -> Outcome {
        self.outcomes[v.index()]
    }

    /// The outcomes of all vertices, by vertex.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The remoteness of `v` in plies (moves of either player) to the end of the game
    /// with best play; `None` for a draw.
    ///
    /// # Panics
    /// If `v` is not a vertex of the solved graph.
    pub fn remoteness(&self, v: Vertex) -> Option<u32> {
        match &self.remoteness {
            Remoteness::Bytes(r) => {
                (self.outcomes[v.index()] != Outcome::Draw).then(|| u32::from(r[v.index()]))
            }
            Remoteness::Words(r) => {
                let r = r[v.index()];
                (r != NONE).then_some(r)
            }
        }
    }

    /// A solution from the outcomes and the byte-sized remoteness of the lean solver.
    pub(crate) fn from_bytes(outcomes: Vec<Outcome>, remoteness: Vec<u8>) -> Solution {
        Solution { outcomes, remoteness: Remoteness::Bytes(remoteness) }
    }

    /// An optimal move from `v` in `g` (the graph that was solved), by the workspace's one
    /// rule ([`best_move`](gamegraph_graph::outcome::best_move)): from a win to a loss of
    /// remoteness one less (the least), from a loss to a win of remoteness one less (the
    /// greatest), from a tie to a tie of remoteness one less (the least), from a draw to a
    /// draw; the smallest vertex id among them. `None` at a finished position.
    ///
    /// # Complexity
    /// O(out-degree of `v`).
    pub fn best_move(&self, g: &Graph, v: Vertex) -> Option<Vertex> {
        let depth = |s: Vertex| self.remoteness(s).unwrap_or(NONE);
        let m = best_move(
            self.outcome(v),
            depth(v),
            g.successors(v).iter().map(|&s| (s.0, s)),
            |s| self.outcome(s),
            depth,
        );
        (m != NONE).then_some(Vertex(m))
    }

    /// How many vertices have each outcome.
    pub fn counts(&self) -> Counts {
        Counts::of(&self.outcomes)
    }

    /// The optimal line of play from `start` in `g` (the graph that was solved): both
    /// players play [`best_move`](Solution::best_move) until a position without moves, or
    /// until the next move would go back to a position of the line (a draw). Returns the
    /// positions, `start` first, and the position the line goes back to (`None` when it
    /// ends at a position without moves).
    ///
    /// # Complexity
    /// O(n / 8 + the out-degrees along the line) time, n / 8 bytes of extra space.
    pub fn line(&self, g: &Graph, start: Vertex) -> (Vec<Vertex>, Option<Vertex>) {
        let mut seen = vec![0u64; g.num_vertices().div_ceil(64)];
        let mut mark = |v: Vertex| {
            let (word, bit) = (v.index() / 64, 1u64 << (v.index() % 64));
            let new = seen[word] & bit == 0;
            seen[word] |= bit;
            new
        };
        mark(start);
        let mut positions = vec![start];
        let mut v = start;
        while let Some(next) = self.best_move(g, v) {
            if !mark(next) {
                return (positions, Some(next));
            }
            positions.push(next);
            v = next;
        }
        (positions, None)
    }
}

impl Counts {
    /// How many of `outcomes` are each outcome.
    pub(crate) fn of(outcomes: &[Outcome]) -> Counts {
        let mut c = Counts::default();
        for &o in outcomes {
            c.count(o);
        }
        c
    }

    /// Counts one position of outcome `o`.
    pub(crate) fn count(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.win += 1,
            Outcome::Loss => self.loss += 1,
            Outcome::Tie => self.tie += 1,
            Outcome::Draw => self.draw += 1,
        }
    }

    /// Adds `other` to these counts.
    pub(crate) fn add(&mut self, other: Counts) {
        self.win += other.win;
        self.loss += other.loss;
        self.tie += other.tie;
        self.draw += other.draw;
    }
}

/// Labels every vertex of a game graph win, loss, tie or draw for the player to move, with
/// its remoteness, by retrograde analysis from the finished positions.
///
/// Semantics (the outcomes are ordered win > tie > draw > loss for the player to move):
/// - a vertex without moves has the value `terminal(v)` and remoteness 0;
/// - **win**: some move leads to a loss; remoteness 1 + the least remoteness of such a
///   move (the winner hurries);
/// - **loss**: every move leads to a win; remoteness 1 + the greatest remoteness of its
///   moves (the loser delays);
/// - **tie**: neither of these, and a tied finished position can be reached through
///   positions that are neither; remoteness 1 + the least remoteness of a tie move (both
///   players, unable to win, prefer ending tied to playing for ever, and hurry to it);
/// - **draw**: everything else; no remoteness.
///
/// # Arguments
/// * `g`: the game graph (self-loops and repeated arcs are allowed); its predecessor
///   arrays are built if they were not yet.
/// * `terminal`: the value of a vertex without moves; called once for each of them.
///
/// # Returns
/// The [`Solution`]. On a graph whose finished positions are all losses it labels every
/// vertex exactly as `gamegraph_retro::solve` does, with remoteness equal to its depth.
///
/// # Complexity
/// O(V + E) time: every arc is looked at once from its head per phase. Extra space: the
/// predecessor arrays if not yet built, 9 bytes per vertex for the result and 8 during
/// the solve (a move counter and a queue slot).
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_game::{Outcome, Terminal, solve};
///
/// // 0 -> 1 -> 2 (a tie), 0 -> 3 <-> 4 (a cycle), 4 -> 5 (a loss).
/// let arcs = [(0, 1), (1, 2), (0, 3), (3, 4), (4, 3), (4, 5)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(6, &arcs).unwrap();
/// let s = solve(&g, |v| if v == Vertex(2) { Terminal::Tie } else { Terminal::Loss });
/// assert_eq!(s.outcome(Vertex(4)), Outcome::Win);
/// assert_eq!(s.outcome(Vertex(3)), Outcome::Loss);
/// assert_eq!((s.outcome(Vertex(0)), s.remoteness(Vertex(0))), (Outcome::Win, Some(3)));
/// assert_eq!((s.outcome(Vertex(1)), s.remoteness(Vertex(1))), (Outcome::Tie, Some(1)));
/// ```
///
/// # Reference
/// Retrograde analysis with move counters (K. Thompson, "Retrograde analysis of certain
/// endgames", ICCA Journal 9(3), 1986), extended to ties and remoteness as the
/// GamesmanOne solvers define them. The queue takes positions by increasing remoteness,
/// so the first loss found for a predecessor is its nearest and the last win its farthest.
pub fn solve(g: &Graph, terminal: impl Fn(Vertex) -> Terminal) -> Solution {
    let n = g.num_vertices();
    let (soff, _) = g.successor_csr();
    let (poff, preds) = g.predecessor_csr();
    let preds_of = |v: u32| &preds[poff[v as usize] as usize..poff[v as usize + 1] as usize];
    let mut label = vec![Label::UNKNOWN; n];
    let mut remoteness = vec![NONE; n];
    let mut counter: Vec<u32> = (0..n).map(|v| (soff[v + 1] - soff[v]) as u32).collect();
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut ties: Vec<u32> = Vec::new();
    for v in 0..n {
        if counter[v] == 0 {
            remoteness[v] = 0;
            let t = terminal(Vertex::from_index(v));
            label[v] = Label::decided(t.outcome());
            match t {
                Terminal::Win | Terminal::Loss => queue.push(v as u32),
                Terminal::Tie => ties.push(v as u32),
            }
        }
    }
    // Wins and losses, by increasing remoteness.
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let next = remoteness[v as usize] + 1;
        if label[v as usize] == Label::LOSS {
            for &p in preds_of(v) {
                let p = p.index();
                if label[p] == Label::UNKNOWN {
                    label[p] = Label::WIN;
                    remoteness[p] = next;
                    queue.push(p as u32);
                }
            }
        } else {
            for &p in preds_of(v) {
                let p = p.index();
                if label[p] == Label::UNKNOWN {
                    counter[p] -= 1;
                    if counter[p] == 0 {
                        label[p] = Label::LOSS;
                        remoteness[p] = next;
                        queue.push(p as u32);
                    }
                }
            }
        }
    }
    drop(counter);
    // Ties: a breadth-first search back from the tied finished positions through the
    // positions that are neither won nor lost.
    queue.clear();
    queue.extend_from_slice(&ties);
    drop(ties);
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let next = remoteness[v as usize] + 1;
        for &p in preds_of(v) {
            let p = p.index();
            if label[p] == Label::UNKNOWN {
                label[p] = Label::TIE;
                remoteness[p] = next;
                queue.push(p as u32);
            }
        }
    }
    let outcomes = label.into_iter().map(Label::outcome).collect();
    Solution { outcomes, remoteness: Remoteness::Words(remoteness) }
}

/// A level of the lean solver longer than `n / LIST_SHARE` vertices is not listed: the
/// next pass finds it by a scan of the labels, so the lists never take more than
/// 2 · 4 / `LIST_SHARE` bytes per vertex.
const LIST_SHARE: usize = 16;

/// The vertices of one remoteness level: a list, or "scan the labels for them" when the
/// list would have been long.
struct Level {
    list: Vec<u32>,
    scan: bool,
    count: usize,
    cap: usize,
}

impl Level {
    fn new(cap: usize) -> Level {
        Level { list: Vec::new(), scan: false, count: 0, cap }
    }

    fn scanned(cap: usize) -> Level {
        Level { list: Vec::new(), scan: true, count: 1, cap }
    }

    fn push(&mut self, v: u32) {
        self.count += 1;
        if self.scan {
            return;
        }
        if self.list.len() == self.cap {
            self.scan = true;
            self.list = Vec::new();
        } else {
            self.list.push(v);
        }
    }
}

/// The reverse game graph that [`solve_reverse`] works on: the predecessors of vertex `v`
/// are `preds[offsets[v]..offsets[v + 1]]`, and `degrees[v]` is its number of distinct
/// successors.
pub(crate) struct Reverse {
    pub(crate) offsets: Vec<u32>,
    pub(crate) preds: Vec<u32>,
    pub(crate) degrees: Vec<u8>,
}

/// Outcomes packed four to a byte by [`Outcome::code`] (0, a draw, is the undecided state).
struct Packed(Vec<u8>);

impl Packed {
    fn new(n: usize) -> Packed {
        Packed(vec![0; n.div_ceil(4)])
    }

    #[inline]
    fn get(&self, v: usize) -> Outcome {
        Outcome::ALL[usize::from((self.0[v >> 2] >> ((v & 3) * 2)) & 3)]
    }

    #[inline]
    fn set(&mut self, v: usize, o: Outcome) {
        let shift = (v & 3) * 2;
        let b = &mut self.0[v >> 2];
        *b = (*b & !(3 << shift)) | (o.code() << shift);
    }
}

/// [`solve`] on the reverse graph alone, in a byte and a quarter per vertex: the outcome
/// in two bits, and one byte that counts the undecided moves of an undecided vertex and
/// holds the remoteness of a decided one. Levels are taken in increasing remoteness, as
/// listed vertices or by a scan of the labels (see [`LIST_SHARE`]); the order of the
/// predecessor lists does not change the result. The reverse graph is freed before the
/// outcomes are unpacked into the [`Solution`]. `None` when a remoteness reaches 256 (the
/// caller then uses [`solve`]).
pub(crate) fn solve_reverse(
    reverse: Reverse,
    terminal: impl Fn(usize) -> Terminal,
) -> Option<Solution> {
    let Reverse { offsets, preds, degrees: mut byte } = reverse;
    let n = byte.len();
    let cap = (n / LIST_SHARE).max(1 << 10);
    let mut outcome = Packed::new(n);
    let mut any_tie = false;
    for (v, _) in byte.iter().enumerate().filter(|&(_, &d)| d == 0) {
        let o = Outcome::from(terminal(v));
        any_tie |= o == Outcome::Tie;
        outcome.set(v, o);
    }
    let preds_of = |v: usize| &preds[offsets[v] as usize..offsets[v + 1] as usize];
    for tie_phase in [false, true] {
        if tie_phase && !any_tie {
            break;
        }
        let wanted = |o: Outcome| {
            if tie_phase { o == Outcome::Tie } else { o == Outcome::Win || o == Outcome::Loss }
        };
        let mut level = Level::scanned(cap);
        let mut r: u8 = 0;
        while level.count > 0 {
            let mut next = Level::new(cap);
            let mut visit = |v: usize, outcome: &mut Packed, byte: &mut [u8]| -> Option<()> {
                let won = outcome.get(v) == Outcome::Win;
                for &p in preds_of(v) {
                    let p = p as usize;
                    if outcome.get(p) != Outcome::Draw {
                        continue;
                    }
                    if tie_phase || !won {
                        outcome.set(p, if tie_phase { Outcome::Tie } else { Outcome::Win });
                    } else {
                        byte[p] -= 1;
                        if byte[p] != 0 {
                            continue;
                        }
                        outcome.set(p, Outcome::Loss);
                    }
                    byte[p] = r.checked_add(1)?;
                    next.push(p as u32);
                }
                Some(())
            };
            if level.scan {
                for v in 0..n {
                    if byte[v] == r && wanted(outcome.get(v)) {
                        visit(v, &mut outcome, &mut byte)?;
                    }
                }
            } else {
                for &v in &level.list {
                    visit(v as usize, &mut outcome, &mut byte)?;
                }
            }
            level = next;
            r = r.wrapping_add(1);
        }
    }
    drop((offsets, preds));
    let outcomes = (0..n).map(|v| outcome.get(v)).collect();
    Some(Solution::from_bytes(outcomes, byte))
}
