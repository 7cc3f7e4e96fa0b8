//! Terminal values: what a vertex without moves is worth to the player to move there (win,
//! loss or tie), as graph files may record them.

use std::fmt;

use crate::{Graph, Terminal, Vertex};

/// The terminal values of some vertices without moves of a graph of `n` vertices, two bits
/// per vertex. A vertex without moves and without a value is a loss for the player to move.
///
/// ```
/// use gamegraph_graph::Terminal;
/// use gamegraph_graph::format::Terminals;
/// use gamegraph_graph::{Graph, Vertex};
///
/// let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(0), Vertex(2))]).unwrap();
/// let t = Terminals::new(&g, &[(Vertex(2), Terminal::Tie)]).unwrap();
/// assert_eq!((t.get(Vertex(2)), t.get(Vertex(1)), t.len()), (Some(Terminal::Tie), None, 1));
/// assert_eq!(t.value_or_loss(Vertex(1)), Terminal::Loss);
/// let e = Terminals::new(&g, &[(Vertex(0), Terminal::Win)]).unwrap_err();
/// assert_eq!(e.to_string(), "vertex 1 has moves: only a vertex without moves has a terminal value");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terminals {
    n: usize,
    /// Vertex `v` has the code `(bits[v / 4] >> (2 * (v % 4))) & 3`.
    bits: Vec<u8>,
    count: usize,
}

/// Why a list of terminal values does not fit a graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TerminalsError {
    /// A vertex outside the graph (1-based, as printed).
    OutOfRange {
        /// The 1-based vertex.
        vertex: u64,
        /// The number of vertices.
        n: usize,
    },
    /// A vertex that has moves (1-based).
    HasMoves {
        /// The 1-based vertex.
        vertex: u64,
    },
    /// A vertex given twice (1-based).
    Twice {
        /// The 1-based vertex.
        vertex: u64,
    },
}

impl fmt::Display for TerminalsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TerminalsError::OutOfRange { vertex, n } => {
                write!(f, "vertex {vertex} is outside 1..{n}")
            }
            TerminalsError::HasMoves { vertex } => write!(
                f,
                "vertex {vertex} has moves: only a vertex without moves has a terminal value"
            ),
            TerminalsError::Twice { vertex } => {
                write!(f, "vertex {vertex} is given a terminal value twice")
            }
        }
    }
}

impl std::error::Error for TerminalsError {}

impl Terminals {
    /// No values, for a graph of `n` vertices.
    pub fn empty(n: usize) -> Terminals {
        Terminals { n, bits: vec![0; n.div_ceil(4)], count: 0 }
    }

    /// The values `entries` (in any order) for vertices without moves of `g`.
    ///
    /// # Errors
    /// The first entry that names a vertex outside `g`, one with moves, or one given
    /// before.
    ///
    /// # Complexity
    /// O(n + k) for k entries.
    pub fn new(g: &Graph, entries: &[(Vertex, Terminal)]) -> Result<Terminals, TerminalsError> {
        let mut t = Terminals::empty(g.num_vertices());
        for &(v, value) in entries {
            t.insert(g, v, value)?;
        }
        Ok(t)
    }

    /// Gives `v` the value `value`.
    pub(crate) fn insert(
        &mut self,
        g: &Graph,
        v: Vertex,
        value: Terminal,
    ) -> Result<(), TerminalsError> {
        let vertex = v.one_based();
        if v.index() >= self.n {
            return Err(TerminalsError::OutOfRange { vertex, n: self.n });
        }
        if g.out_degree(v) > 0 {
            return Err(TerminalsError::HasMoves { vertex });
        }
        if self.get(v).is_some() {
            return Err(TerminalsError::Twice { vertex });
        }
        self.bits[v.index() / 4] |= value.outcome().code() << (2 * (v.index() % 4));
        self.count += 1;
        Ok(())
    }

    /// The terminal values as the binary format stores them: `n` codes of 2 bits, vertex
    /// `v` at bits `2 (v mod 4)` of byte `v / 4` (0 none, 1 win, 2 loss, 3 tie), checked
    /// against `g`: a value only at vertices without moves, unused bits zero.
    pub(crate) fn from_bits(g: &Graph, bits: Vec<u8>) -> Result<Terminals, String> {
        let n = g.num_vertices();
        debug_assert_eq!(bits.len(), n.div_ceil(4));
        if !n.is_multiple_of(4) && bits[n / 4] >> (2 * (n % 4)) != 0 {
            return Err("the unused bits after the terminal values are not zero".into());
        }
        let mut count = 0;
        for (i, &b) in bits.iter().enumerate() {
            if b == 0 {
                continue;
            }
            for k in 0..4 {
                if (b >> (2 * k)) & 3 != 0 {
                    let v = Vertex::from_index(4 * i + k);
                    if g.out_degree(v) > 0 {
                        return Err(format!(
                            "vertex {} has moves but is given a terminal value",
                            v.one_based()
                        ));
                    }
                    count += 1;
                }
            }
        }
        Ok(Terminals { n, bits, count })
    }

    /// The packed codes (see [`Terminals::from_bits`]).
    pub(crate) fn bits(&self) -> &[u8] {
        &self.bits
    }

    /// The number of vertices of the graph the values are for.
    pub fn num_vertices(&self) -> usize {
        self.n
    }

    /// How many vertices have a value.
    pub fn len(&self) -> usize {
        self.count
    }

    /// `true` when no vertex has a value.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The value of `v`, `None` when it has none.
    ///
    /// # Panics
    /// If `v` is not a vertex of the graph.
    pub fn get(&self, v: Vertex) -> Option<Terminal> {
        assert!(v.index() < self.n, "vertex {} outside 1..{}", v.one_based(), self.n);
        Terminal::from_code((self.bits[v.index() / 4] >> (2 * (v.index() % 4))) & 3)
    }

    /// The value of `v`, a loss when it has none (the value of every vertex without moves
    /// in a file without terminal values).
    pub fn value_or_loss(&self, v: Vertex) -> Terminal {
        self.get(v).unwrap_or(Terminal::Loss)
    }

    /// The vertices with a value, in increasing order, with their values.
    pub fn iter(&self) -> impl Iterator<Item = (Vertex, Terminal)> + '_ {
        self.bits.iter().enumerate().filter(|(_, b)| **b != 0).flat_map(|(i, &b)| {
            (0..4).filter_map(move |k| {
                Terminal::from_code((b >> (2 * k)) & 3).map(|t| (Vertex::from_index(4 * i + k), t))
            })
        })
    }
}
