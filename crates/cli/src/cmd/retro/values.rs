//! `gamegraph retro` on a file with terminal values: win, loss, tie or draw with remoteness
//! for every vertex, by the four-outcome solver of the game crate.

use std::io::Write;

use gamegraph_game::{Outcome, Solution, solve};
use gamegraph_graph::format::{DotStyle, Terminals, write_dot};
use gamegraph_graph::{Graph, Vertex};
use serde::Serialize;

use super::Shape;
use crate::common::{CliError, Output, write_json};

/// Solves `g` with the values of `values` at its vertices without moves (a loss where a
/// vertex has none).
pub(super) fn solve_values(g: &Graph, values: &Terminals) -> Solution {
    solve(g, |v| values.value_or_loss(v))
}

/// Writes the DOT drawing: each vertex labelled with its outcome and remoteness, coloured
/// by outcome, the line from `start` bold.
pub(super) fn write_values_dot(
    w: impl Write,
    s: &Solution,
    g: &Graph,
    start: Option<Vertex>,
) -> std::io::Result<()> {
    let labels: Vec<String> = (0..g.num_vertices())
        .map(|i| {
            let v = Vertex::from_index(i);
            match s.remoteness(v) {
                Some(r) => format!("{}\n{} {r}", i + 1, s.outcome(v).letter()),
                None => format!("{}\n{}", i + 1, s.outcome(v).letter()),
            }
        })
        .collect();
    let colors: Vec<&str> = s.outcomes().iter().map(|&o| crate::common::outcome_color(o)).collect();
    let highlight = start.map(|v| s.line(g, v).0).unwrap_or_default();
    let style = DotStyle {
        name: "retro",
        labels: Some(&labels),
        colors: Some(&colors),
        highlight: Some(&highlight),
    };
    write_dot(w, g, &style)
}

/// Writes a four-outcome solution to `out` as `gamegraph retro` prints it, and finishes
/// `out`.
pub(super) fn write_values(
    mut out: Output,
    s: &Solution,
    g: &Graph,
    start: Option<Vertex>,
    shape: Shape,
) -> Result<(), CliError> {
    if shape.json {
        write_json(&mut out, &json(s, g, start, shape))?;
    } else if shape.all {
        let mut text = Vec::with_capacity(1 << 16);
        for i in 0..g.num_vertices() {
            let v = Vertex::from_index(i);
            write!(text, "{} {} ", i + 1, s.outcome(v).letter())?;
            match s.remoteness(v) {
                Some(r) => write!(text, "{r} ")?,
                None => text.extend_from_slice(b"- "),
            }
            match s.best_move(g, v) {
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
            let (positions, repeats) = s.line(g, start);
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
struct JsonCounts {
    win: usize,
    loss: usize,
    tie: usize,
    draw: usize,
}

#[derive(Serialize)]
struct JsonVertex {
    vertex: u64,
    outcome: char,
    /// The remoteness.
    depth: Option<u32>,
    #[serde(rename = "move")]
    best_move: Option<u64>,
}

impl JsonVertex {
    fn new(s: &Solution, g: &Graph, v: Vertex) -> Self {
        JsonVertex {
            vertex: v.one_based(),
            outcome: s.outcome(v).letter(),
            depth: s.remoteness(v),
            best_move: s.best_move(g, v).map(Vertex::one_based),
        }
    }
}

#[derive(Serialize)]
struct JsonStep {
    vertex: u64,
    outcome: char,
}

#[derive(Serialize)]
struct JsonLine {
    positions: Vec<JsonStep>,
    end: &'static str,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<JsonVertex>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<JsonLine>,
}

fn json(s: &Solution, g: &Graph, start: Option<Vertex>, shape: Shape) -> Json {
    let c = s.counts();
    let line = start.filter(|_| shape.line).map(|start| {
        let (positions, repeats) = s.line(g, start);
        JsonLine {
            positions: positions
                .iter()
                .map(|&v| JsonStep { vertex: v.one_based(), outcome: s.outcome(v).letter() })
                .collect(),
            end: if repeats.is_some() { "repeats" } else { "terminal" },
            repeats: repeats.map(Vertex::one_based),
        }
    });
    Json {
        vertices: s.len(),
        arcs: g.num_arcs(),
        counts: JsonCounts { win: c.win, loss: c.loss, tie: c.tie, draw: c.draw },
        start: start.map(|v| JsonVertex::new(s, g, v)),
        answer: start.map(|v| s.outcome(v).code()),
        all: shape
            .all
            .then(|| (0..s.len()).map(|i| JsonVertex::new(s, g, Vertex::from_index(i))).collect()),
        line,
    }
}
