//! Reading back the `--all` table of a solution, for an independent check.

use std::io::BufRead;

use gamegraph_graph::TableError;
use gamegraph_graph::table::{FieldError, Rows, number};

use crate::{Outcome, Solution};
use gamegraph_graph::outcome::NONE;

/// Reads the table [`Solution::table`] prints (what `gamegraph retro --all` prints) for a
/// graph of `n` vertices: one line `V OUTCOME DEPTH MOVE` per vertex, the vertices
/// `1, 2, …, n` in this order, OUTCOME `W`, `L` or `D`, DEPTH a number for W and L and
/// `-` for D, MOVE a vertex id or `-`. Tokens are separated by spaces or tabs; blank
/// lines are skipped; a line may end with `\r`.
///
/// Only the shape is checked here: a missing, repeated or extra vertex is an error at
/// its line, as is a move outside `1..=n`; whether the labels, depths and moves are
/// right is for [`verify`](crate::verify).
///
/// # Errors
/// The first token that does not fit, with its line and column, or a read error.
///
/// # Complexity
/// O(length of the text) time, O(n) extra space (the solution).
///
/// # Example
/// ```
/// use gamegraph_graph::Located;
/// use gamegraph_retro::read_table;
/// let s = read_table("1 W 1 2\n2 L 0 -\n".as_bytes(), 2).unwrap();
/// assert_eq!(s.table().to_string(), "1 W 1 2\n2 L 0 -\n");
/// let e = read_table("1 W 1 2\n3 L 0 -\n".as_bytes(), 2).unwrap_err();
/// assert_eq!(e.to_string(), "expected vertex 2, found \"3\"");
/// assert_eq!(e.position(), Some(gamegraph_graph::Position::new(2, 1)));
/// ```
pub fn read_table(reader: impl BufRead, n: usize) -> Result<Solution, TableError> {
    let mut outcomes = Vec::with_capacity(n);
    let mut depths = Vec::with_capacity(n);
    let mut moves = Vec::with_capacity(n);
    let mut rows = Rows::new(reader);
    while let Some(mut row) = rows.next_row()? {
        row.vertex(outcomes.len(), n)?;
        let (at, token) = row.next_field();
        let outcome = match token {
            Some(b"W") => Outcome::Win,
            Some(b"L") => Outcome::Loss,
            Some(b"D") => Outcome::Draw,
            t => return Err(row.error(at, "an outcome `W`, `L` or `D`", t)),
        };
        let (at, token) = row.next_field();
        let depth = match (outcome, token) {
            (Outcome::Draw, Some(b"-")) => NONE,
            (Outcome::Draw, t) => return Err(row.error(at, "`-` (a draw has no depth)", t)),
            (_, Some(t)) if number(t).is_some_and(|d| d < u64::from(NONE)) => {
                number(t).map_or(NONE, |d| d as u32)
            }
            (_, t) => {
                return Err(row.error(at, format!("a depth below {NONE} (W and L have one)"), t));
            }
        };
        let (at, token) = row.next_field();
        let mv = match token {
            Some(b"-") => NONE,
            Some(t) if number(t).is_some_and(|m| m >= 1 && m <= n as u64) => {
                number(t).map_or(NONE, |m| (m - 1) as u32)
            }
            t => return Err(row.error(at, format!("a move: a vertex in 1..={n} or `-`"), t)),
        };
        let (at, token) = row.next_field();
        if token.is_some() {
            return Err(row.error(at, "end of line", token));
        }
        outcomes.push(outcome);
        depths.push(depth);
        moves.push(mv);
    }
    if outcomes.len() < n {
        let expected = format!("vertex {} (the graph has {n} vertices)", outcomes.len() + 1);
        let error = FieldError { expected, found: "end of input".into() };
        return Err(TableError::Field { position: rows.end(), error });
    }
    // Every row was checked above: a depth exactly for W and L, moves in 0..n.
    Ok(Solution::from_parts_unchecked(outcomes, depths, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, verify};
    use gamegraph_graph::Located;
    use gamegraph_testkit::{SplitMix64, random_graph};

    fn err(text: &str, n: usize) -> (Option<(u64, u64)>, String) {
        let e = read_table(text.as_bytes(), n).unwrap_err();
        (e.position().map(|p| (p.line, p.column)), e.to_string())
    }

    #[test]
    fn reads_back_what_the_solver_prints() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            let n = 1 + rng.below(30) as usize;
            let m = rng.below(80) as usize;
            let g = random_graph(&mut rng, n, m, false);
            let s = solve(&g);
            let text = s.table().to_string();
            let back = read_table(text.as_bytes(), n).unwrap();
            assert_eq!(back, s);
            assert_eq!(verify(&g, &back), Ok(()));
        }
    }

    #[test]
    fn names_the_first_token_that_does_not_fit() {
        let ok = "1 W 1 2\n2 L 0 -\n";
        assert!(read_table(ok.as_bytes(), 2).is_ok());
        assert!(read_table("1 W 1 2\r\n\n  2\tL 0 -  \n\n".as_bytes(), 2).is_ok());
        assert_eq!(
            err("1 W 1 2\n", 2),
            (
                Some((2, 1)),
                "expected vertex 2 (the graph has 2 vertices), found end of input".into()
            )
        );
        assert_eq!(
            err("1 W 1 2\n2 L 0 -\n3 L 0 -\n", 2),
            (Some((3, 1)), "expected end of input: the graph has 2 vertices, found \"3\"".into())
        );
        assert_eq!(
            err("1 W 1 2\n1 L 0 -\n", 2),
            (Some((2, 1)), "expected vertex 2, found \"1\"".into())
        );
        assert_eq!(
            err("1 X 1 2\n", 2),
            (Some((1, 3)), "expected an outcome `W`, `L` or `D`, found \"X\"".into())
        );
        assert_eq!(
            err("1 D 1 2\n", 2),
            (Some((1, 5)), "expected `-` (a draw has no depth), found \"1\"".into())
        );
        assert_eq!(
            err("1 W - 2\n", 2),
            (
                Some((1, 5)),
                "expected a depth below 4294967295 (W and L have one), found \"-\"".into()
            )
        );
        assert_eq!(
            err("1 W 1 3\n", 2),
            (Some((1, 7)), "expected a move: a vertex in 1..=2 or `-`, found \"3\"".into())
        );
        assert_eq!(
            err("1 W 1\n", 2).1,
            "expected a move: a vertex in 1..=2 or `-`, found end of line"
        );
        assert_eq!(
            err("1 W 1 2 x\n", 2),
            (Some((1, 9)), "expected end of line, found \"x\"".into())
        );
    }
}
