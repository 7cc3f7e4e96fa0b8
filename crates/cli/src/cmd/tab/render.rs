//! Drawings of a solved board (a text grid, an SVG picture) and the table of periods.

use std::io::Write;

use gamegraph_tab::{Outcome, Period, Solution, Value};

use super::solve_error;
use crate::common::CliError;

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const RESET: &str = "\x1b[0m";

/// The SVG fill of a won cell.
const WIN_FILL: &str = "#b7e4b0";
/// The SVG fill of a lost cell.
const LOSS_FILL: &str = "#f4b6b6";

/// Every row's values, top row first, one row at a time (O(M) memory).
fn for_each_row(
    sol: &Solution,
    mut f: impl FnMut(u64, &[Value]) -> Result<(), CliError>,
) -> Result<(), CliError> {
    for x in (1..=sol.board().rows()).rev() {
        f(x, &sol.row_values(x).map_err(solve_error)?)?;
    }
    Ok(())
}

/// The largest answer d on the board.
fn max_answer(sol: &Solution) -> Result<u64, CliError> {
    let mut max = 0;
    for_each_row(sol, |_, values| {
        max = values.iter().map(|v| v.answer()).fold(max, u64::max);
        Ok(())
    })?;
    Ok(max)
}

/// The board as a text grid: the top row first, row numbers on the left and right edges,
/// column numbers above and below, each cell its answer d (0 for a lost cell). With
/// `color`, won cells are green and lost cells red (ANSI escapes); the text is otherwise
/// the same. O(N · M) time, O(M) memory.
pub(super) fn write_grid(
    out: &mut impl Write,
    sol: &Solution,
    color: bool,
) -> Result<(), CliError> {
    let board = sol.board();
    let w = digits(max_answer(sol)?).max(digits(u64::from(board.cols())));
    let rw = digits(board.rows());
    let header = |out: &mut dyn Write| -> Result<(), CliError> {
        write!(out, "{:rw$} ", "")?;
        for c in 1..=board.cols() {
            write!(out, " {c:>w$}")?;
        }
        writeln!(out)?;
        Ok(())
    };
    header(out)?;
    for_each_row(sol, |x, values| {
        write!(out, "{x:>rw$} ")?;
        for v in values {
            let d = v.answer();
            if color {
                let code = if v.outcome() == Outcome::Win { GREEN } else { RED };
                write!(out, " {code}{d:>w$}{RESET}")?;
            } else {
                write!(out, " {d:>w$}")?;
            }
        }
        writeln!(out, "  {x}")?;
        Ok(())
    })?;
    header(out)
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
/// column numbers above and below. O(N · M) time, O(M) memory.
pub(super) fn write_svg(s: &mut impl Write, sol: &Solution) -> Result<(), CliError> {
    let board = sol.board();
    let chars = digits(max_answer(sol)?).max(digits(board.rows())).max(2);
    let cell = 8 * chars as u64 + 12;
    let margin = cell;
    let width = margin * 2 + cell * u64::from(board.cols());
    let height = margin * 2 + cell * board.rows();
    writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="14" text-anchor="middle" dominant-baseline="central">"#
    )?;
    writeln!(s, "<title>tab board {} rows × {} columns</title>", board.rows(), board.cols())?;
    writeln!(s, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##)?;
    let half = cell / 2;
    for c in 1..=board.cols() {
        let cx = margin + cell * u64::from(c - 1) + half;
        writeln!(s, r#"<text x="{cx}" y="{half}">{c}</text>"#)?;
        writeln!(s, r#"<text x="{cx}" y="{}">{c}</text>"#, height - half)?;
    }
    let mut i = 0u64;
    for_each_row(sol, |x, values| {
        let y0 = margin + cell * i;
        i += 1;
        writeln!(s, r#"<text x="{half}" y="{}">{x}</text>"#, y0 + half)?;
        for (j, v) in values.iter().enumerate() {
            let x0 = margin + cell * j as u64;
            let fill = if v.outcome() == Outcome::Win { WIN_FILL } else { LOSS_FILL };
            writeln!(
                s,
                r##"<rect x="{x0}" y="{y0}" width="{cell}" height="{cell}" fill="{fill}" stroke="#555555"/><text x="{}" y="{}">{}</text>"##,
                x0 + half,
                y0 + half,
                v.answer()
            )?;
        }
        Ok(())
    })?;
    writeln!(s, "</svg>")?;
    Ok(())
}

/// The periods of the rows for several column counts, as a Markdown table: M, the
/// pre-period and the period in rows, and the growth of the depths per period (a range
/// when the columns grow at different rates), or "none within the bound".
pub(super) fn write_periods(
    s: &mut impl Write,
    periods: &[(u32, Option<Period>)],
) -> Result<(), CliError> {
    writeln!(s, "| M | pre-period (rows) | period (rows) | depth growth per period (plies) |")?;
    writeln!(s, "|---:|---:|---:|---:|")?;
    for (m, p) in periods {
        match p {
            Some(p) if p.min_shift == p.max_shift => {
                writeln!(s, "| {m} | {} | {} | {} |", p.start, p.length, p.min_shift)?;
            }
            Some(p) => writeln!(
                s,
                "| {m} | {} | {} | {}..{} |",
                p.start, p.length, p.min_shift, p.max_shift
            )?,
            None => writeln!(s, "| {m} | none within the bound | | |")?,
        }
    }
    Ok(())
}
