//! The certificate check of a four-outcome table: win, loss, tie or draw with remoteness
//! and a move at every vertex, checked by local conditions alone.

use std::fmt;
use std::io::BufRead;

use gamegraph_graph::table::{FieldError, Rows, number};
use gamegraph_graph::{Graph, TableError, Vertex};

use crate::{Counts, Outcome, Solution, Terminal};

/// Outcome, remoteness and move of every vertex of a game graph: what
/// `gamegraph retro --all` prints for a graph with terminal values, one line
/// `V OUTCOME REMOTENESS MOVE` per vertex, and what [`verify`] checks.
///
/// Vertices are 0-based here and 1-based in the text. The fields are public: a table
/// built by hand is checked by [`verify`], which refuses one whose lists do not all have
/// one entry per vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// The outcome of each vertex for the player to move.
    pub outcomes: Vec<Outcome>,
    /// The remoteness of each vertex in plies; `None` for a draw.
    pub remoteness: Vec<Option<u32>>,
    /// The optimal move of each vertex (the smallest-id one); `None` at a finished position.
    pub moves: Vec<Option<Vertex>>,
}

impl Table {
    /// The table of `solution`, which [`solve`](crate::solve) computed for `g`, with the
    /// moves of [`Solution::best_move`].
    ///
    /// # Complexity
    /// O(V + E).
    pub fn of(solution: &Solution, g: &Graph) -> Table {
        let vertices = (0..solution.len()).map(Vertex::from_index);
        Table {
            outcomes: solution.outcomes().to_vec(),
            remoteness: vertices.clone().map(|v| solution.remoteness(v)).collect(),
            moves: vertices.map(|v| solution.best_move(g, v)).collect(),
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// `true` for the table of a graph without vertices.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// How many vertices have each outcome.
    pub fn counts(&self) -> Counts {
        Counts::of(&self.outcomes)
    }

    /// Line `i` of the text.
    fn write_line(&self, f: &mut fmt::Formatter<'_>, i: usize) -> fmt::Result {
        write!(f, "{} {} ", i + 1, self.outcomes[i].letter())?;
        match self.remoteness.get(i).copied().flatten() {
            Some(r) => write!(f, "{r} ")?,
            None => f.write_str("- ")?,
        }
        match self.moves.get(i).copied().flatten() {
            Some(m) => writeln!(f, "{}", m.one_based()),
            None => f.write_str("-\n"),
        }
    }

    /// Reads the table that `gamegraph retro --all` prints for a graph of `n` vertices
    /// with terminal values (what [`Display`](fmt::Display) writes): one line
    /// `V OUTCOME REMOTENESS MOVE` per vertex, the vertices `1, 2, …, n` in this order,
    /// OUTCOME `W`, `L`, `T` or `D`, REMOTENESS a number for W, L and T and `-` for D, MOVE
    /// a vertex id or `-`. Tokens are separated by spaces or tabs; blank lines are skipped;
    /// a line may end with `\r`.
    ///
    /// Only the shape is checked here; whether the values are right is for [`verify`].
    ///
    /// # Errors
    /// The first token that does not fit, with its line and column, or a read error.
    ///
    /// # Complexity
    /// O(length of the text) time, O(n) extra space.
    ///
    /// # Example
    /// ```
    /// use gamegraph_game::Table;
    /// let t = Table::read("1 T 1 2\n2 T 0 -\n".as_bytes(), 2).unwrap();
    /// assert_eq!(t.to_string(), "1 T 1 2\n2 T 0 -\n");
    /// let e = Table::read("1 T - 2\n".as_bytes(), 2).unwrap_err();
    /// assert_eq!(e.to_string(), "expected a remoteness below 4294967295 (W, L and T have one), found \"-\"");
    /// ```
    pub fn read(reader: impl BufRead, n: usize) -> Result<Table, TableError> {
        let mut t = Table { outcomes: Vec::new(), remoteness: Vec::new(), moves: Vec::new() };
        let mut rows = Rows::new(reader);
        while let Some(mut row) = rows.next_row()? {
            row.vertex(t.len(), n)?;
            let (at, token) = row.next_field();
            let outcome = match token {
                Some(&[c]) => Outcome::ALL.into_iter().find(|o| o.letter() as u8 == c),
                _ => None,
            }
            .ok_or_else(|| row.error(at, "an outcome `W`, `L`, `T` or `D`", token))?;
            let (at, token) = row.next_field();
            let remoteness = match (outcome, token) {
                (Outcome::Draw, Some(b"-")) => None,
                (Outcome::Draw, t) => {
                    return Err(row.error(at, "`-` (a draw has no remoteness)", t));
                }
                (_, t) => match t.and_then(number).filter(|&r| r < u64::from(u32::MAX)) {
                    Some(r) => Some(r as u32),
                    None => {
                        let expected =
                            format!("a remoteness below {} (W, L and T have one)", u32::MAX);
                        return Err(row.error(at, expected, t));
                    }
                },
            };
            let (at, token) = row.next_field();
            let mv = match token {
                Some(b"-") => None,
                Some(t) if number(t).is_some_and(|m| m >= 1 && m <= n as u64) => {
                    number(t).map(|m| Vertex((m - 1) as u32))
                }
                t => return Err(row.error(at, format!("a move: a vertex in 1..={n} or `-`"), t)),
            };
            let (at, token) = row.next_field();
            if token.is_some() {
                return Err(row.error(at, "end of line", token));
            }
            t.outcomes.push(outcome);
            t.remoteness.push(remoteness);
            t.moves.push(mv);
        }
        if t.len() < n {
            let expected = format!("vertex {} (the graph has {n} vertices)", t.len() + 1);
            let error = FieldError { expected, found: "end of input".into() };
            return Err(TableError::Field { position: rows.end(), error });
        }
        Ok(t)
    }
}

/// The text of the table: `V OUTCOME REMOTENESS MOVE` per vertex, 1-based, `-` for no
/// remoteness (a draw) or no move (a finished position).
///
/// ```
/// use gamegraph_game::{Table, Outcome};
/// use gamegraph_graph::Vertex;
/// let t = Table {
///     outcomes: vec![Outcome::Tie, Outcome::Tie],
///     remoteness: vec![Some(1), Some(0)],
///     moves: vec![Some(Vertex(1)), None],
/// };
/// assert_eq!(t.to_string(), "1 T 1 2\n2 T 0 -\n");
/// ```
impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (0..self.len()).try_for_each(|i| self.write_line(f, i))
    }
}

/// A violated condition of the four-outcome certificate, found by [`verify`].
///
/// Vertices are 0-based, as in the library; the messages print them 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CertificateError {
    /// The table does not have one outcome, one remoteness and one move per vertex.
    SizeMismatch {
        /// Vertices of the graph.
        graph: usize,
        /// Entries of the table (the length of its list that differs).
        table: usize,
    },
    /// A vertex without moves is not labelled with its terminal value.
    TerminalValue {
        /// The vertex.
        vertex: Vertex,
        /// Its terminal value.
        expected: Outcome,
        /// Its label.
        found: Outcome,
    },
    /// A W vertex has no L successor.
    WinWithoutLossSuccessor {
        /// The W vertex.
        vertex: Vertex,
    },
    /// An L vertex has a successor that is not W.
    LossWithNonWinSuccessor {
        /// The L vertex.
        vertex: Vertex,
        /// The successor.
        successor: Vertex,
        /// The successor's label.
        found: Outcome,
    },
    /// A T or D vertex has an L successor (it should be W).
    LossSuccessor {
        /// The vertex.
        vertex: Vertex,
        /// Its label, T or D.
        outcome: Outcome,
        /// Its L successor.
        successor: Vertex,
    },
    /// A T vertex with moves has no T successor.
    TieWithoutTieSuccessor {
        /// The T vertex.
        vertex: Vertex,
    },
    /// A D vertex has a T successor (it should be T).
    DrawWithTieSuccessor {
        /// The D vertex.
        vertex: Vertex,
        /// Its T successor.
        successor: Vertex,
    },
    /// A D vertex has no D successor.
    DrawWithoutDrawSuccessor {
        /// The D vertex.
        vertex: Vertex,
    },
    /// A remoteness that is not 0 at a finished position, 1 + the least of the L
    /// successors' (W), 1 + the greatest of the successors' (L), 1 + the least of the T
    /// successors' (T), or a D vertex with one.
    WrongRemoteness {
        /// The vertex.
        vertex: Vertex,
        /// The remoteness the definition gives.
        expected: Option<u32>,
        /// The remoteness in the table.
        found: Option<u32>,
    },
    /// A vertex whose move is not the optimal one with the smallest id.
    WrongMove {
        /// The vertex.
        vertex: Vertex,
        /// The optimal move with the smallest id.
        expected: Option<Vertex>,
        /// The move in the table.
        found: Option<Vertex>,
    },
}

impl CertificateError {
    /// The vertex where the certificate fails (when the failure is at one vertex) and the
    /// short name of the rule it breaks: `terminal-value`, `win-has-loss-successor`,
    /// `loss-has-only-win-successors`, `tie-has-no-loss-successor`,
    /// `tie-has-tie-successor`, `draw-has-no-loss-successor`, `draw-has-no-tie-successor`,
    /// `draw-has-draw-successor`, `remoteness`, `move` or `size`.
    #[must_use]
    pub fn rule(&self) -> (Option<Vertex>, &'static str) {
        match *self {
            CertificateError::SizeMismatch { .. } => (None, "size"),
            CertificateError::TerminalValue { vertex, .. } => (Some(vertex), "terminal-value"),
            CertificateError::WinWithoutLossSuccessor { vertex } => {
                (Some(vertex), "win-has-loss-successor")
            }
            CertificateError::LossWithNonWinSuccessor { vertex, .. } => {
                (Some(vertex), "loss-has-only-win-successors")
            }
            CertificateError::LossSuccessor { vertex, outcome: Outcome::Tie, .. } => {
                (Some(vertex), "tie-has-no-loss-successor")
            }
            CertificateError::LossSuccessor { vertex, .. } => {
                (Some(vertex), "draw-has-no-loss-successor")
            }
            CertificateError::TieWithoutTieSuccessor { vertex } => {
                (Some(vertex), "tie-has-tie-successor")
            }
            CertificateError::DrawWithTieSuccessor { vertex, .. } => {
                (Some(vertex), "draw-has-no-tie-successor")
            }
            CertificateError::DrawWithoutDrawSuccessor { vertex } => {
                (Some(vertex), "draw-has-draw-successor")
            }
            CertificateError::WrongRemoteness { vertex, .. } => (Some(vertex), "remoteness"),
            CertificateError::WrongMove { vertex, .. } => (Some(vertex), "move"),
        }
    }
}

fn or_none(x: Option<impl fmt::Display>) -> String {
    x.map_or_else(|| "none".to_owned(), |x| x.to_string())
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CertificateError::SizeMismatch { graph, table } => {
                write!(f, "the graph has {graph} vertices but the table has {table}")
            }
            CertificateError::TerminalValue { vertex, expected, found } => write!(
                f,
                "vertex {} has no move and the terminal value {} but is labelled {}",
                vertex.one_based(),
                expected.letter(),
                found.letter()
            ),
            CertificateError::WinWithoutLossSuccessor { vertex } => {
                write!(f, "vertex {} is labelled W but has no L successor", vertex.one_based())
            }
            CertificateError::LossWithNonWinSuccessor { vertex, successor, found } => write!(
                f,
                "vertex {} is labelled L but its successor {} is {}",
                vertex.one_based(),
                successor.one_based(),
                found.letter()
            ),
            CertificateError::LossSuccessor { vertex, outcome, successor } => write!(
                f,
                "vertex {} is labelled {} but its successor {} is L",
                vertex.one_based(),
                outcome.letter(),
                successor.one_based()
            ),
            CertificateError::TieWithoutTieSuccessor { vertex } => {
                write!(f, "vertex {} is labelled T but has no T successor", vertex.one_based())
            }
            CertificateError::DrawWithTieSuccessor { vertex, successor } => write!(
                f,
                "vertex {} is labelled D but its successor {} is T",
                vertex.one_based(),
                successor.one_based()
            ),
            CertificateError::DrawWithoutDrawSuccessor { vertex } => {
                write!(f, "vertex {} is labelled D but has no D successor", vertex.one_based())
            }
            CertificateError::WrongRemoteness { vertex, expected, found } => write!(
                f,
                "vertex {} has remoteness {} but its successors give {}",
                vertex.one_based(),
                or_none(found),
                or_none(expected)
            ),
            CertificateError::WrongMove { vertex, expected, found } => write!(
                f,
                "vertex {} has move {} but the optimal move with the smallest id is {}",
                vertex.one_based(),
                or_none(found.map(Vertex::one_based)),
                or_none(expected.map(Vertex::one_based))
            ),
        }
    }
}

impl std::error::Error for CertificateError {}

/// The line of `gamegraph verify retro` (and of Python's `verify_retro`) for a table that
/// passed, after `N vertices, M arcs: `: the counts, and what was checked — three outcomes
/// with depth, or four with remoteness for a graph with `terminal_values`.
///
/// ```
/// use gamegraph_game::{Counts, verified_retro};
///
/// let c = Counts { win: 1, loss: 2, tie: 0, draw: 0 };
/// assert_eq!(
///     verified_retro(c, false),
///     "1 W, 2 L, 0 D; every outcome, depth and move follows from the successors'"
/// );
/// ```
pub fn verified_retro(c: Counts, terminal_values: bool) -> String {
    if terminal_values {
        format!(
            "{} W, {} L, {} T, {} D; every outcome, remoteness and move follows from the \
             successors' and the terminal values",
            c.win, c.loss, c.tie, c.draw
        )
    } else {
        format!(
            "{} W, {} L, {} D; every outcome, depth and move follows from the successors'",
            c.win, c.loss, c.draw
        )
    }
}

/// Checks that `table` is the exact four-outcome solution of `g` ([`solve`](crate::solve)
/// with the same `terminal`), using only local conditions at every vertex (no solving):
/// - a vertex without moves is labelled `terminal(v)`, with remoteness 0 and no move;
/// - a W vertex has an L successor, its remoteness is 1 + the least remoteness of its L
///   successors and its move is the smallest-id L successor of that remoteness;
/// - an L vertex with moves has only W successors, its remoteness is 1 + their greatest
///   remoteness and its move is the smallest-id successor of that remoteness;
/// - a T vertex with moves has no L successor and a T successor, its remoteness is 1 + the
///   least remoteness of its T successors and its move is the smallest-id T successor of
///   that remoteness;
/// - a D vertex has no L and no T successor and a D successor, no remoteness, and its move
///   is its smallest-id D successor.
///
/// # Why this is a certificate
/// Labels alone are not (on a 2-cycle both "D, D" and "W, L" are locally consistent); the
/// remoteness makes them one. By induction on `k`: every vertex labelled W or L with
/// remoteness `k` is won or lost in `k` plies, and every vertex won or lost in `k` plies
/// is labelled so. A label W or L at `k` rests on successors labelled at `k − 1` or less,
/// right by induction, so the vertex is won or lost, and not in fewer plies (it would be
/// labelled with that number). A vertex lost in `k` plies has only successors won in
/// fewer, labelled W by induction, so it can be neither W (no L successor), nor T (no T
/// successor) nor D (no D successor): it is L, at `k`. A vertex won in `k` plies has a
/// successor lost in `k − 1`, labelled L, so it is W, and an L successor labelled below
/// `k − 1` would be lost in fewer plies: its remoteness is `k`. So the W and L labels are
/// exactly the won and lost vertices; the others are labelled T or D. A T label at `r`
/// starts a chain of T labels of decreasing remoteness, through vertices neither won nor
/// lost, down to a finished tie: the tie is reached in at most `r` plies. Conversely, by
/// induction on the least number `k` of plies to a finished tie through such vertices,
/// a vertex with one has a T successor at `k − 1` and cannot be D: it is T, at `k` (a T
/// successor at less would give a shorter way). What is left, the D labels, is exactly
/// the draws, and every move is the one the rules name.
///
/// # Errors
/// The first violated condition, by vertex order, as a [`CertificateError`];
/// [`CertificateError::SizeMismatch`] when a list of the table does not have one entry per
/// vertex of `g`.
///
/// # Complexity
/// O(V + E) time, O(1) extra space; `terminal` is called once per vertex without moves.
///
/// # Example
/// ```
/// use gamegraph_graph::{Graph, Vertex};
/// use gamegraph_game::{Outcome, Table, Terminal, solve, verify};
///
/// // 0 -> 1 -> 2 (a tie), 0 -> 3 <-> 4 (a cycle), 4 -> 5 (a loss).
/// let arcs = [(0, 1), (1, 2), (0, 3), (3, 4), (4, 3), (4, 5)].map(|(u, v)| (Vertex(u), Vertex(v)));
/// let g = Graph::from_arcs(6, &arcs).unwrap();
/// let terminal = |v| if v == Vertex(2) { Terminal::Tie } else { Terminal::Loss };
/// let mut table = Table::of(&solve(&g, terminal), &g);
/// assert_eq!(verify(&g, terminal, &table), Ok(()));
/// table.outcomes[1] = Outcome::Draw;
/// table.remoteness[1] = None;
/// assert_eq!(verify(&g, terminal, &table).unwrap_err().rule(), (Some(Vertex(1)), "draw-has-no-tie-successor"));
/// ```
pub fn verify(
    g: &Graph,
    terminal: impl Fn(Vertex) -> Terminal,
    table: &Table,
) -> Result<(), CertificateError> {
    let n = g.num_vertices();
    if let Some(len) = [table.outcomes.len(), table.remoteness.len(), table.moves.len()]
        .into_iter()
        .find(|&l| l != n)
    {
        return Err(CertificateError::SizeMismatch { graph: n, table: len });
    }
    g.vertices().try_for_each(|v| check_vertex(g, &terminal, table, v))
}

fn check_vertex(
    g: &Graph,
    terminal: &impl Fn(Vertex) -> Terminal,
    t: &Table,
    v: Vertex,
) -> Result<(), CertificateError> {
    let succ = g.successors(v);
    let outcome = t.outcomes[v.index()];
    let found = t.remoteness[v.index()];
    let label = |s: Vertex| t.outcomes[s.index()];
    // A successor's remoteness as a key: a W, L or T successor has one (a missing one is
    // u32::MAX here, which no remoteness plus one matches).
    let key = |s: Vertex| t.remoteness[s.index()].unwrap_or(u32::MAX);
    let check = |expected: Option<u32>, best: Option<Vertex>| {
        if found != expected || expected.is_none() && outcome != Outcome::Draw {
            return Err(CertificateError::WrongRemoteness { vertex: v, expected, found });
        }
        let mv = t.moves[v.index()];
        if mv != best {
            return Err(CertificateError::WrongMove { vertex: v, expected: best, found: mv });
        }
        Ok(())
    };
    // The smallest-id successor of the least (or greatest) key among those kept.
    let best_by = |keep: &dyn Fn(Vertex) -> bool, greatest: bool| -> Option<(u32, Vertex)> {
        succ.iter().copied().filter(|&s| keep(s)).fold(None, |best, s| {
            let d = key(s);
            match best {
                Some((bd, bv)) if d == bd && bv < s => best,
                Some((bd, _)) if d != bd && (d > bd) != greatest => best,
                _ => Some((d, s)),
            }
        })
    };
    let plus_one = |(d, s): (u32, Vertex)| (d.checked_add(1), Some(s));
    if succ.is_empty() {
        let expected = Outcome::from(terminal(v));
        if outcome != expected {
            return Err(CertificateError::TerminalValue { vertex: v, expected, found: outcome });
        }
        return check(Some(0), None);
    }
    let loss_successor = || succ.iter().copied().find(|&s| label(s) == Outcome::Loss);
    let (expected, best) = match outcome {
        Outcome::Win => {
            let Some(best) = best_by(&|s| label(s) == Outcome::Loss, false) else {
                return Err(CertificateError::WinWithoutLossSuccessor { vertex: v });
            };
            plus_one(best)
        }
        Outcome::Loss => {
            if let Some(s) = succ.iter().copied().find(|&s| label(s) != Outcome::Win) {
                return Err(CertificateError::LossWithNonWinSuccessor {
                    vertex: v,
                    successor: s,
                    found: label(s),
                });
            }
            plus_one(best_by(&|_| true, true).expect("a vertex with moves"))
        }
        Outcome::Tie | Outcome::Draw => {
            if let Some(successor) = loss_successor() {
                return Err(CertificateError::LossSuccessor { vertex: v, outcome, successor });
            }
            let tie = best_by(&|s| label(s) == Outcome::Tie, false);
            if outcome == Outcome::Tie {
                let Some(best) = tie else {
                    return Err(CertificateError::TieWithoutTieSuccessor { vertex: v });
                };
                plus_one(best)
            } else {
                if let Some((_, successor)) = tie {
                    return Err(CertificateError::DrawWithTieSuccessor { vertex: v, successor });
                }
                let draw = succ.iter().copied().filter(|&s| label(s) == Outcome::Draw).min();
                if draw.is_none() {
                    return Err(CertificateError::DrawWithoutDrawSuccessor { vertex: v });
                }
                (None, draw)
            }
        }
    };
    check(expected, best)
}
