//! What `gamegraph retro` prints, written once for both solvers: the win/loss/draw solver
//! of a plain graph and the four-outcome solver of a graph with terminal values.

use std::io::Write;

use gamegraph_graph::format::{DotStyle, write_dot};
use gamegraph_graph::{Graph, Outcome, Vertex};
use serde::Serialize;

use super::Shape;
use crate::common::{CliError, JsonCounts, Output, outcome_color, write_json};

/// A solved graph as the output needs it: the outcome, depth (remoteness) and optimal move
/// of every vertex, and the optimal line from a vertex.
pub(super) trait Solved {
    /// The number of vertices.
    fn len(&self) -> usize;
    /// The outcome of `v` for the player to move.
    fn outcome(&self, v: Vertex) -> Outcome;
    /// Plies to the end with best play, `None` for a draw.
    fn depth(&self, v: Vertex) -> Option<u32>;
    /// The optimal move from `v`, `None` at a vertex without moves.
    fn best_move(&self, v: Vertex) -> Option<Vertex>;
    /// The optimal line from `start`, and the vertex it goes back to for a draw.
    fn line(&self, start: Vertex) -> (Vec<Vertex>, Option<Vertex>);
    /// How many vertices have each outcome.
    fn counts(&self) -> JsonCounts;
}

impl Solved for gamegraph_retro::Solution {
    fn len(&self) -> usize {
        self.num_vertices()
    }
    fn outcome(&self, v: Vertex) -> Outcome {
        gamegraph_retro::Solution::outcome(self, v)
    }
    fn depth(&self, v: Vertex) -> Option<u32> {
        gamegraph_retro::Solution::depth(self, v)
    }
    fn best_move(&self, v: Vertex) -> Option<Vertex> {
        gamegraph_retro::Solution::best_move(self, v)
    }
    fn line(&self, start: Vertex) -> (Vec<Vertex>, Option<Vertex>) {
        let line = self.principal_variation(start);
        let repeats = match line.end() {
            gamegraph_retro::LineEnd::Terminal => None,
            gamegraph_retro::LineEnd::Repeats(v) => Some(v),
        };
        (line.positions().to_vec(), repeats)
    }
    fn counts(&self) -> JsonCounts {
        let c = gamegraph_retro::Solution::counts(self);
        JsonCounts { win: c.win, loss: c.loss, tie: 0, draw: c.draw }
    }
}

/// A four-outcome solution with the graph it solves (its moves are read from the graph).
pub(super) struct WithValues<'a> {
    pub(super) solution: &'a gamegraph_game::Solution,
    pub(super) graph: &'a Graph,
}

impl Solved for WithValues<'_> {
    fn len(&self) -> usize {
        self.solution.len()
    }
    fn outcome(&self, v: Vertex) -> Outcome {
        self.solution.outcome(v)
    }
    fn depth(&self, v: Vertex) -> Option<u32> {
        self.solution.remoteness(v)
    }
    fn best_move(&self, v: Vertex) -> Option<Vertex> {
        self.solution.best_move(self.graph, v)
    }
    fn line(&self, start: Vertex) -> (Vec<Vertex>, Option<Vertex>) {
        self.solution.line(self.graph, start)
    }
    fn counts(&self) -> JsonCounts {
        JsonCounts::of(self.solution.counts())
    }
}

/// Writes the DOT drawing of `g`: each vertex labelled with its outcome and depth, coloured
/// by outcome, the line from `start` bold.
pub(super) fn write_solved_dot(
    w: impl Write,
    s: &impl Solved,
    g: &Graph,
    start: Option<Vertex>,
) -> std::io::Result<()> {
    let labels: Vec<String> = (0..s.len())
        .map(|i| {
            let v = Vertex::from_index(i);
            match s.depth(v) {
                Some(d) => format!("{}\n{} {d}", i + 1, s.outcome(v).letter()),
                None => format!("{}\n{}", i + 1, s.outcome(v).letter()),
            }
        })
        .collect();
    let colors: Vec<&str> =
        (0..s.len()).map(|i| outcome_color(s.outcome(Vertex::from_index(i)))).collect();
    let highlight = start.map(|v| s.line(v).0).unwrap_or_default();
    let style = DotStyle {
        name: "retro",
        labels: Some(&labels),
        colors: Some(&colors),
        highlight: Some(&highlight),
    };
    write_dot(w, g, &style)
}

/// Writes a solution to `out` as `gamegraph retro` prints it, and finishes `out`.
pub(super) fn write_solved(
    mut out: Output,
    s: &impl Solved,
    arcs: usize,
    start: Option<Vertex>,
    shape: Shape,
) -> Result<(), CliError> {
    if shape.json {
        write_json(&mut out, &json(s, arcs, start, shape))?;
    } else if shape.all {
        let mut text = Vec::with_capacity(1 << 16);
        for i in 0..s.len() {
            let v = Vertex::from_index(i);
            write!(text, "{} {} ", i + 1, s.outcome(v).letter())?;
            match s.depth(v) {
                Some(d) => write!(text, "{d} ")?,
                None => text.extend_from_slice(b"- "),
            }
            match s.best_move(v) {
                Some(m) => writeln!(text, "{}", m.one_based())?,
                None => text.extend_from_slice(b"-\n"),
            }
            if text.len() >= 1 << 16 {
                out.write_all(&text)?;
                text.clear();
            }
        }
        out.write_all(&text)?;
    } else if let Some(start) = start {
        if shape.line {
            let (positions, repeats) = s.line(start);
            for &v in &positions {
                writeln!(out, "{} {}", v.one_based(), s.outcome(v).letter())?;
            }
            let last = *positions.last().expect("a line has a start");
            let moves = positions.len() - 1;
            match repeats {
                None => {
                    let how = match s.outcome(last) {
                        Outcome::Win => "the player to move there wins",
                        Outcome::Tie => "the game ends in a tie",
                        _ => "the player to move there loses",
                    };
                    let plural = if moves == 1 { "" } else { "s" };
                    writeln!(
                        out,
                        "# {} has no move: {how} after {moves} move{plural}",
                        last.one_based()
                    )?;
                }
                Some(v) => writeln!(
                    out,
                    "# draw: the optimal move from {} goes back to {}, and play repeats for ever",
                    last.one_based(),
                    v.one_based()
                )?,
            }
        } else {
            writeln!(out, "{}", s.outcome(start).code())?;
        }
    }
    out.finish()?;
    Ok(())
}

#[derive(Serialize)]
struct JsonVertex {
    vertex: u64,
    outcome: &'static str,
    depth: Option<u32>,
    #[serde(rename = "move")]
    best_move: Option<u64>,
}

impl JsonVertex {
    fn new(s: &impl Solved, v: Vertex) -> Self {
        JsonVertex {
            vertex: v.one_based(),
            outcome: s.outcome(v).word(),
            depth: s.depth(v),
            best_move: s.best_move(v).map(Vertex::one_based),
        }
    }
}

#[derive(Serialize)]
struct JsonStep {
    vertex: u64,
    outcome: &'static str,
}

#[derive(Serialize)]
struct JsonLine {
    positions: Vec<JsonStep>,
    /// `terminal` (the last position has no move) or `repeats` (a draw).
    end: &'static str,
    /// For a draw, the earlier position the next optimal move goes back to.
    #[serde(skip_serializing_if = "Option::is_none")]
    repeats: Option<u64>,
}

#[derive(Serialize)]
struct Json {
    vertices: usize,
    arcs: usize,
    counts: JsonCounts,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<JsonVertex>,
    /// The outcome code of the start vertex: 1, 2, 3 or 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<JsonVertex>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<JsonLine>,
}

fn json(s: &impl Solved, arcs: usize, start: Option<Vertex>, shape: Shape) -> Json {
    let line = start.filter(|_| shape.line).map(|start| {
        let (positions, repeats) = s.line(start);
        JsonLine {
            positions: positions
                .iter()
                .map(|&v| JsonStep { vertex: v.one_based(), outcome: s.outcome(v).word() })
                .collect(),
            end: if repeats.is_some() { "repeats" } else { "terminal" },
            repeats: repeats.map(Vertex::one_based),
        }
    });
    Json {
        vertices: s.len(),
        arcs,
        counts: s.counts(),
        start: start.map(|v| JsonVertex::new(s, v)),
        answer: start.map(|v| s.outcome(v).code()),
        all: shape
            .all
            .then(|| (0..s.len()).map(|i| JsonVertex::new(s, Vertex::from_index(i))).collect()),
        line,
    }
}
