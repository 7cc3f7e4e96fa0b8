//! Text and JSON output of `gamegraph kernel`, and its Graphviz drawing.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use gamegraph_graph::format::{DotStyle, write_dot};
use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{Explanation, VertexSet, Violation, members};
use indicatif::ProgressBar;
use serde_json::json;

use super::{Answer, Args, Listing};
use crate::common::{CliError, Output, create_file, write_json};

/// The sorted 1-based ids of `set`.
pub(super) fn ids(set: &VertexSet) -> Vec<u64> {
    members(set).iter().map(|v| v.one_based()).collect()
}

/// The sorted 1-based ids of `set`, separated by spaces (the text output line).
fn format_set(set: &VertexSet) -> String {
    let ids: Vec<String> = ids(set).iter().map(u64::to_string).collect();
    ids.join(" ")
}

fn explanation_json(e: &Explanation) -> serde_json::Value {
    json!({
        "decided": e.to_string().lines().next().unwrap_or_default(),
        "loss": e.loss,
        "win": e.win,
        "draw": e.draw,
        "parts": e.parts,
        "nodes": e.nodes,
    })
}

/// Writes `answer`; returns the exit code (1 for a `--check` set that is not a kernel).
pub(super) fn answer(out: &mut Output, answer: &Answer, args: &Args) -> Result<ExitCode, CliError> {
    match answer {
        Answer::Check { verdict, .. } => {
            let message = match verdict {
                Ok(()) => "kernel".to_owned(),
                Err(v) => v.to_string(),
            };
            if args.json {
                let offending = match verdict {
                    Ok(()) => json!(null),
                    Err(Violation::Arc { from, to }) => {
                        json!({"arc": [from.one_based(), to.one_based()]})
                    }
                    Err(Violation::NotAbsorbed(v)) => json!({"not_absorbed": v.one_based()}),
                    Err(other) => json!(other.to_string()),
                };
                let v =
                    json!({"kernel": verdict.is_ok(), "message": message, "violation": offending});
                write_json(out, &v)?;
            } else {
                writeln!(out, "{message}")?;
            }
            return Ok(if verdict.is_ok() { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        Answer::Count(c) => {
            if args.json {
                // JSON numbers above u64 are written as strings.
                let count = u64::try_from(c.count)
                    .map_or_else(|_| json!(c.count.to_string()), |x| json!(x));
                let mut v = json!({"count": count});
                if args.explain {
                    v["explanation"] = explanation_json(&c.explanation);
                }
                write_json(out, &v)?;
            } else {
                writeln!(out, "{}", c.count)?;
                if args.explain {
                    writeln!(out, "{}", c.explanation)?;
                }
            }
        }
        Answer::Stable { name, set: s } => {
            if args.json {
                let mut v = json!({*name: s.size, "set": ids(&s.set)});
                if args.explain {
                    v["nodes"] = json!(s.nodes);
                }
                write_json(out, &v)?;
            } else {
                writeln!(out, "{}", s.size)?;
                writeln!(out, "{}", format_set(&s.set))?;
                if args.explain {
                    writeln!(out, "branch and bound: {} nodes", s.nodes)?;
                }
            }
        }
        Answer::Kernel(a) => {
            if args.json {
                let mut v = json!({"kernel": a.kernel.as_ref().map(ids)});
                if args.explain {
                    v["explanation"] = explanation_json(&a.explanation);
                }
                write_json(out, &v)?;
            } else {
                match &a.kernel {
                    Some(k) => writeln!(out, "{}", format_set(k))?,
                    None => writeln!(out, "none")?,
                }
                if args.explain {
                    writeln!(out, "{}", a.explanation)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of `--all` text output, written around the progress bar.
pub(super) fn kernel_line(
    out: &mut Output,
    k: &VertexSet,
    bar: Option<&ProgressBar>,
) -> Result<(), CliError> {
    let line = format_set(k);
    match bar {
        Some(bar) => bar.suspend(|| writeln!(out, "{line}"))?,
        None => writeln!(out, "{line}")?,
    }
    Ok(())
}

/// The end of `--all` output: the JSON document, or the `--explain` summary line.
pub(super) fn listing(
    out: &mut Output,
    l: &Listing,
    json_ids: &[Vec<u64>],
    args: &Args,
) -> Result<(), CliError> {
    if args.json {
        let mut v = json!({"kernels": json_ids, "complete": l.complete});
        if args.explain {
            v["nodes"] = json!(l.nodes);
        }
        write_json(out, &v)?;
    } else if args.explain {
        let why = match (&l.stopped, l.complete) {
            (Some(_), _) => " (time limit reached)",
            (None, false) => " (limit reached)",
            (None, true) => "",
        };
        writeln!(out, "{} kernel(s){why}, search: {} nodes", l.listed, l.nodes)?;
    }
    Ok(())
}

/// Writes a Graphviz drawing of `g` to `path` with `set` filled in.
pub(super) fn draw(path: &Path, g: &Graph, set: Option<&VertexSet>) -> Result<(), CliError> {
    let colors: Vec<&str> = (0..g.num_vertices())
        .map(|i| if set.is_some_and(|s| s[i]) { "palegreen" } else { "" })
        .collect();
    let highlight: Vec<Vertex> = set.map(members).unwrap_or_default();
    let style = DotStyle {
        name: "kernel",
        colors: Some(&colors),
        highlight: Some(&highlight),
        ..DotStyle::default()
    };
    let mut f = create_file(path)?;
    write_dot(&mut f, g, &style)?;
    f.finish()?;
    Ok(())
}
