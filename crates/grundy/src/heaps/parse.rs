//! The heap-list text format: `SIZE` or `SIZE LIMIT` per line, `#` comments.

use gamegraph_graph::{Position, quote};

/// Parses a heap list: one heap per line, `SIZE` or `SIZE LIMIT`, `#` comments to the end
/// of the line, blank lines ignored. Either every heap has a limit or none has.
///
/// # Errors
/// A [`HeapListError`](crate::HeapListError) with the line and column of the first problem.
///
/// # Complexity
/// O(length of the text).
///
/// # Example
/// ```
/// use gamegraph_grundy::parse_heaps;
///
/// let (heaps, limits) = parse_heaps("# three heaps\n5 2\n7 3\n9 4\n").unwrap();
/// assert_eq!(heaps, [5, 7, 9]);
/// assert_eq!(limits, Some(vec![2, 3, 4]));
/// assert!(parse_heaps("5\n7 x\n").is_err());
/// ```
pub fn parse_heaps(text: &str) -> Result<(Vec<u64>, Option<Vec<u64>>), crate::HeapListError> {
    let mut heaps = Vec::new();
    let mut limits = Vec::new();
    let mut with_limits: Option<bool> = None;
    // A byte-order mark at the start of the text is not part of the first heap.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        // `column` is a byte offset in `line`; the position counts characters.
        let err = |column: usize, message: String| crate::HeapListError {
            position: Position::new(ln as u64 + 1, line[..column].chars().count() as u64 + 1),
            message,
        };
        let mut fields = Vec::new();
        let mut start = None;
        for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    fields.push((s, &line[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        if fields.is_empty() {
            continue;
        }
        if fields.len() > 2 {
            return Err(err(
                fields[2].0,
                "expected `SIZE` or `SIZE LIMIT`, found a third field".into(),
            ));
        }
        let has = fields.len() == 2;
        match with_limits {
            None => with_limits = Some(has),
            Some(w) if w != has => {
                let col = fields.last().map_or(0, |f| f.0 + f.1.len());
                return Err(err(col, "either every heap has a limit or none has".into()));
            }
            _ => {}
        }
        let num = |(col, s): (usize, &str), what: &str| -> Result<u64, crate::HeapListError> {
            s.parse::<u64>().map_err(|_| {
                err(
                    col,
                    format!(
                        "expected a {what} (an integer from 0 to 2^64 - 1), found {}",
                        quote(s)
                    ),
                )
            })
        };
        heaps.push(num(fields[0], "heap size")?);
        if has {
            let m = num(fields[1], "move limit")?;
            if m == 0 {
                return Err(err(fields[1].0, "a move limit must be at least 1".into()));
            }
            limits.push(m);
        }
    }
    Ok((heaps, (with_limits == Some(true)).then_some(limits)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_lists_with_a_bom_crlf_and_long_tokens() {
        assert_eq!(parse_heaps("\u{feff}3\r\n5\r\n6\r\n").unwrap(), (vec![3, 5, 6], None));
        assert_eq!(parse_heaps("3 1\r\n5 2\r\n").unwrap(), (vec![3, 5], Some(vec![1, 2])));
        let long = format!("1\n{}\n", "9".repeat(100_000));
        let err = parse_heaps(&long).unwrap_err();
        assert_eq!(err.position, Position::new(2, 1));
        assert!(err.message.len() < 200, "{}", err.message);
        // A BOM anywhere else is a bad token.
        assert!(parse_heaps("3\n\u{feff}5\n").is_err());
    }
}
