//! Drawings of a solved board: a text grid and an SVG picture.

use std::fmt::Write as _;

use crate::Outcome;
use crate::board::Value;
use crate::error::SolveError;
use crate::solve::Solution;

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const RESET: &str = "\x1b[0m";

fn all_rows(sol: &Solution) -> Result<Vec<(u64, Vec<Value>)>, SolveError> {
    let rows = sol.board().rows();
    (1..=rows).rev().map(|x| Ok((x, sol.row_values(x)?))).collect()
}

/// The board as a text grid: the top row first, row numbers on the left and right edges,
/// column numbers above and below, each cell its answer d (0 for a lost cell). With
/// `color`, won cells are green and lost cells red (ANSI escapes); the text is otherwise
/// the same.
///
/// # Complexity
/// O(N · M) time and output size.
///
/// # Errors
/// As [`Solution::value`].
///
/// # Example
/// ```
/// use gamegraph_tab::{Board, Config, render_grid, solve};
/// let sol = solve(Board::new(3, 2)?, &Config::default(), &mut |_| {})?;
/// let grid = render_grid(&sol, false)?;
/// assert_eq!(grid.lines().next(), Some("   1 2"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_grid(sol: &Solution, color: bool) -> Result<String, SolveError> {
    let board = sol.board();
    let rows = all_rows(sol)?;
    let max_d = rows.iter().flat_map(|(_, v)| v.iter().map(|v| v.answer())).max().unwrap_or(0);
    let w = digits(max_d).max(digits(u64::from(board.cols())));
    let rw = digits(board.rows());
    let mut out = String::new();
    let header = |out: &mut String| {
        let _ = write!(out, "{:rw$} ", "");
        for c in 1..=board.cols() {
            let _ = write!(out, " {c:>w$}");
        }
        out.push('\n');
    };
    header(&mut out);
    for (x, values) in &rows {
        let _ = write!(out, "{x:>rw$} ");
        for v in values {
            let d = v.answer();
            if color {
                let code = if v.outcome() == Outcome::Win { GREEN } else { RED };
                let _ = write!(out, " {code}{d:>w$}{RESET}");
            } else {
                let _ = write!(out, " {d:>w$}");
            }
        }
        let _ = writeln!(out, "  {x}");
    }
    header(&mut out);
    Ok(out)
}

fn digits(mut n: u64) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

/// The board as an SVG picture: one square per cell, won cells green and lost cells red,
/// each labelled with its answer d; the top row first, row numbers on the left and
/// column numbers above and below.
///
/// # Complexity
/// O(N · M) time and output size.
///
/// # Errors
/// As [`Solution::value`].
pub fn render_svg(sol: &Solution) -> Result<String, SolveError> {
    let board = sol.board();
    let rows = all_rows(sol)?;
    let max_d = rows.iter().flat_map(|(_, v)| v.iter().map(|v| v.answer())).max().unwrap_or(0);
    let chars = digits(max_d).max(digits(board.rows())).max(2);
    let cell = 8 * chars as u64 + 12;
    let margin = cell;
    let width = margin * 2 + cell * u64::from(board.cols());
    let height = margin * 2 + cell * board.rows();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="14" text-anchor="middle" dominant-baseline="central">"#
    );
    let _ =
        writeln!(s, "<title>tab board {} rows × {} columns</title>", board.rows(), board.cols());
    let _ = writeln!(s, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##);
    let half = cell / 2;
    for c in 1..=board.cols() {
        let cx = margin + cell * u64::from(c - 1) + half;
        let _ = writeln!(s, r#"<text x="{cx}" y="{half}">{c}</text>"#);
        let _ = writeln!(s, r#"<text x="{cx}" y="{}">{c}</text>"#, height - half);
    }
    for (i, (x, values)) in rows.iter().enumerate() {
        let y0 = margin + cell * i as u64;
        let _ = writeln!(s, r#"<text x="{half}" y="{}">{x}</text>"#, y0 + half);
        for (j, v) in values.iter().enumerate() {
            let x0 = margin + cell * j as u64;
            let fill = if v.outcome() == Outcome::Win { "#b7e4b0" } else { "#f4b6b6" };
            let _ = writeln!(
                s,
                r##"<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" fill="{fill}" stroke="#555555"/><text x="{}" y="{}">{}</text>"##,
                x0 + half,
                y0 + half,
                v.answer()
            );
        }
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// The periods of the rows for several column counts, as a Markdown table: M, the
/// pre-period and the period in rows, and the growth of the depths per period (a range
/// when the columns grow at different rates), or "none within the bound".
///
/// # Example
/// ```
/// use gamegraph_tab::{Config, find_period, render_periods};
/// let p = find_period(2, &Config::default(), &mut |_| {})?;
/// let table = render_periods(&[(2, p)]);
/// assert_eq!(table.lines().nth(2), Some("| 2 | 1 | 3 | 2 |"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn render_periods(periods: &[(u32, Option<crate::Period>)]) -> String {
    let mut s = String::from(
        "| M | pre-period (rows) | period (rows) | depth growth per period (plies) |\n|---:|---:|---:|---:|\n",
    );
    for (m, p) in periods {
        match p {
            Some(p) if p.min_shift == p.max_shift => {
                let _ = writeln!(s, "| {m} | {} | {} | {} |", p.start, p.length, p.min_shift);
            }
            Some(p) => {
                let _ = writeln!(
                    s,
                    "| {m} | {} | {} | {}..{} |",
                    p.start, p.length, p.min_shift, p.max_shift
                );
            }
            None => {
                let _ = writeln!(s, "| {m} | none within the bound | | |");
            }
        }
    }
    s
}
