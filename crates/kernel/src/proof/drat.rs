//! DRAT proofs in the text format: lines of nonzero integers ending in `0`, a line starting
//! with `d` deleting a clause; the reader and the writer.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use gamegraph_graph::{Located, Position};

/// One step of a DRAT proof: a clause added (a lemma) or deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DratStep {
    /// Whether the clause is deleted (`d ... 0`) rather than added.
    pub delete: bool,
    /// The clause's literals, DIMACS style: `v` for variable `v` true, `-v` for it false.
    pub lits: Vec<i32>,
}

/// A DRAT proof: its steps in order, and where each starts in the text it was read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DratProof {
    /// The steps, in order.
    pub steps: Vec<DratStep>,
    /// The 1-based line of each step in the text read ([`DratProof::parse`]); empty for a
    /// proof built in memory, whose step `i` is line `i + 1` of [`DratProof::write_to`].
    pub lines: Vec<u64>,
}

impl DratProof {
    /// The 1-based line of step `i`: where it was read, or where [`DratProof::write_to`]
    /// writes it.
    pub fn line_of(&self, i: usize) -> u64 {
        self.lines.get(i).copied().unwrap_or(i as u64 + 1)
    }

    /// The number of clauses added (the lemmas, the empty clause included).
    pub fn lemmas(&self) -> usize {
        self.steps.iter().filter(|s| !s.delete).count()
    }

    /// Writes the proof, one step per line.
    ///
    /// # Errors
    /// The writer's.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        let mut line = String::new();
        for s in &self.steps {
            line.clear();
            if s.delete {
                line.push_str("d ");
            }
            for l in &s.lits {
                let _ = write!(line, "{l} "); // writing to a String cannot fail
            }
            line.push_str("0\n");
            w.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Reads a proof in the DRAT text format: integers separated by white space, each
    /// clause ended by `0`, a deletion starting with `d`; a line whose first character is
    /// `c` is a comment. A literal is a nonzero integer of absolute value below 2³¹.
    ///
    /// # Errors
    /// The first malformed token, with its line and column: not an integer, out of range,
    /// `d` inside a clause, or a last clause without its `0`.
    pub fn parse(text: &[u8]) -> Result<DratProof, DratError> {
        let mut proof = DratProof::default();
        let mut clause: Option<(u64, bool, Vec<i32>)> = None;
        let (mut line, mut col) = (1u64, 1u64);
        let mut i = 0usize;
        while i < text.len() {
            let b = text[i];
            if b == b'\n' {
                line += 1;
                col = 1;
                i += 1;
                continue;
            }
            if b.is_ascii_whitespace() {
                i += 1;
                col += 1;
                continue;
            }
            let start = i;
            while i < text.len() && !text[i].is_ascii_whitespace() {
                i += 1;
            }
            let token = &text[start..i];
            let at = (line, col);
            col += (i - start) as u64;
            let error = |message: String| DratError { at: Position::new(at.0, at.1), message };
            if token[0] == b'c' && at.1 == 1 && clause.is_none() {
                // A comment: skip to the end of the line.
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if token == b"d" {
                if clause.is_some() {
                    return Err(error("`d` inside a clause (the clause before has no 0)".into()));
                }
                clause = Some((line, true, Vec::new()));
                continue;
            }
            let value = parse_literal(token).map_err(error)?;
            let (at_line, delete, mut lits) = clause.take().unwrap_or((line, false, Vec::new()));
            if value == 0 {
                proof.steps.push(DratStep { delete, lits });
                proof.lines.push(at_line);
            } else {
                lits.push(value);
                clause = Some((at_line, delete, lits));
            }
        }
        if let Some((at_line, _, _)) = clause {
            return Err(DratError {
                at: Position::new(line, col),
                message: format!("the clause starting on line {at_line} has no terminating 0"),
            });
        }
        Ok(proof)
    }
}

/// A literal: an optional `-` and decimal digits, of absolute value below 2³¹.
fn parse_literal(token: &[u8]) -> Result<i32, String> {
    let shown = String::from_utf8_lossy(&token[..token.len().min(24)]).into_owned();
    let (neg, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(format!("expected a literal (an integer) or `d`, found {shown:?}"));
    }
    let mut v: i64 = 0;
    for &d in digits {
        v = v * 10 + i64::from(d - b'0');
        if v > i64::from(i32::MAX) {
            return Err(format!(
                "literal {shown} out of range (at most {} in absolute value)",
                i32::MAX
            ));
        }
    }
    if neg && v == 0 {
        return Err("`-0` is not a literal".into());
    }
    Ok(if neg { -(v as i32) } else { v as i32 })
}

/// A malformed DRAT text: where ([`Located`]; the column in bytes) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DratError {
    at: Position,
    message: String,
}

impl DratError {
    /// What is wrong, without the line and column.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl Located for DratError {
    /// The 1-based line and column (in bytes); always known.
    fn position(&self) -> Option<Position> {
        Some(self.at)
    }
}

impl fmt::Display for DratError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for DratError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let p = DratProof {
            steps: vec![
                DratStep { delete: false, lits: vec![1, -2] },
                DratStep { delete: true, lits: vec![3] },
                DratStep { delete: false, lits: vec![] },
            ],
            lines: vec![],
        };
        let mut text = Vec::new();
        p.write_to(&mut text).unwrap();
        assert_eq!(text, b"1 -2 0\nd 3 0\n0\n");
        let q = DratProof::parse(&text).unwrap();
        assert_eq!(q.steps, p.steps);
        assert_eq!(q.lines, [1, 2, 3]);
    }

    #[test]
    fn clauses_may_span_lines_and_comments_are_skipped() {
        let q = DratProof::parse(b"c a comment 1 2\n1\n 2 0 d -1\n0 0\n").unwrap();
        assert_eq!(q.steps.len(), 3);
        assert_eq!(q.steps[0].lits, [1, 2]);
        assert!(q.steps[1].delete);
        assert_eq!(q.lines, [2, 3, 4]);
    }

    #[test]
    fn malformed_texts_give_line_and_column() {
        let e = DratProof::parse(b"1 2 0\n3 x 0\n").unwrap_err();
        assert_eq!(e.position(), Some(Position::new(2, 3)));
        let e = DratProof::parse(b"1 2 0\n3 4").unwrap_err();
        assert!(e.message().contains("no terminating 0"), "{e}");
        let e = DratProof::parse(b"1 d 2 0").unwrap_err();
        assert_eq!(e.position(), Some(Position::new(1, 3)));
        let e = DratProof::parse(b"2147483648 0").unwrap_err();
        assert!(e.message().contains("out of range"), "{e}");
        assert!(DratProof::parse(b"-2147483647 0").is_ok());
        assert!(DratProof::parse(b"-0").is_err());
        assert!(DratProof::parse(b"1 - 0").is_err());
        assert!(DratProof::parse("1 é 0".as_bytes()).is_err());
    }
}
