//! Lists of 1-based vertex ids as users type them: `1 3 5`, `1,4,7`, `1, 4, 7`.

use crate::error::VertexListError;
use crate::position::{quote, shorten};
use crate::vertex::Vertex;

/// Reads a list of 1-based vertex ids of a graph with `n` vertices, separated by commas,
/// whitespace or both, into 0-based [`Vertex`] values in the order given (repeats kept).
/// An empty or blank text is the empty list; an empty item between two commas (or after
/// a final comma) is refused.
///
/// # Errors
/// [`VertexListError::NotAVertexId`] for an item that is not a positive integer,
/// [`VertexListError::OutOfRange`] for 0 or an id above `n`; both give the 1-based item
/// number and show at most the first 32 characters of the item (the first quoted by
/// [`quote`], the second, a run of digits, cut by [`shorten`]).
///
/// # Complexity
/// O(length of `text`) time; the list is the only allocation.
///
/// # Examples
/// ```
/// use gamegraph_graph::{Vertex, VertexListError, parse_vertex_list};
///
/// assert_eq!(parse_vertex_list("1 3, 5", 5), Ok(vec![Vertex(0), Vertex(2), Vertex(4)]));
/// assert_eq!(parse_vertex_list("", 5), Ok(vec![]));
/// let e = parse_vertex_list("1,9", 5).unwrap_err();
/// assert!(matches!(e, VertexListError::OutOfRange { item: 2, .. }));
/// assert_eq!(e.to_string(), "item 2: vertex 9 is not in the graph (vertices are 1..5)");
/// ```
pub fn parse_vertex_list(text: &str, n: usize) -> Result<Vec<Vertex>, VertexListError> {
    let mut list = Vec::new();
    let items = text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty());
    for (i, item) in items.enumerate() {
        list.push(parse_one(item, i + 1, n)?);
    }
    Ok(list)
}

/// One item of a list, `token`, the `item`-th.
fn parse_one(token: &str, item: usize, n: usize) -> Result<Vertex, VertexListError> {
    if !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(VertexListError::NotAVertexId { item, token: quote(token) });
    }
    token
        .parse::<u64>()
        .ok()
        .and_then(Vertex::from_one_based)
        .filter(|v| v.index() < n)
        .ok_or_else(|| VertexListError::OutOfRange { item, token: shorten(token), n })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[u32]) -> Vec<Vertex> {
        list.iter().map(|&i| Vertex(i)).collect()
    }

    #[test]
    fn separators_are_commas_whitespace_or_both() {
        assert_eq!(parse_vertex_list("1 3 5", 5), Ok(ids(&[0, 2, 4])));
        assert_eq!(parse_vertex_list("1,4,4", 5), Ok(ids(&[0, 3, 3])));
        assert_eq!(parse_vertex_list(" 2 ,\t3  1 ", 3), Ok(ids(&[1, 2, 0])));
        assert_eq!(parse_vertex_list("  ", 0), Ok(vec![]));
    }

    #[test]
    fn bad_items_name_their_number() {
        assert_eq!(parse_vertex_list("1,,2 ,", 5), Ok(ids(&[0, 1])));
        assert_eq!(
            parse_vertex_list("1 -2", 5),
            Err(VertexListError::NotAVertexId { item: 2, token: "\"-2\"".into() })
        );
        assert_eq!(
            parse_vertex_list("1 -2", 5).unwrap_err().to_string(),
            "item 2 is \"-2\", not a vertex id (a positive integer)"
        );
        // Control characters show escaped.
        assert_eq!(
            parse_vertex_list("3,\u{1b}[2J", 5).unwrap_err().to_string(),
            "item 2 is \"\\u{1b}[2J\", not a vertex id (a positive integer)"
        );
        for (text, token) in
            [("0", "0"), ("6", "6"), ("99999999999999999999", "99999999999999999999")]
        {
            assert_eq!(
                parse_vertex_list(text, 5),
                Err(VertexListError::OutOfRange { item: 1, token: token.into(), n: 5 })
            );
        }
        assert_eq!(
            parse_vertex_list("1", 0).unwrap_err().to_string(),
            "item 1: vertex 1 is not in the graph (it has no vertices)"
        );
    }

    #[test]
    fn a_long_item_is_quoted_in_part() {
        let long = "x".repeat(10_000);
        assert_eq!(
            parse_vertex_list(&long, 5),
            Err(VertexListError::NotAVertexId {
                item: 1,
                token: format!("\"{}\"…", "x".repeat(32))
            })
        );
        let digits = "7".repeat(100);
        let e = parse_vertex_list(&format!("1 {digits}"), 5).unwrap_err();
        assert!(e.to_string().starts_with(&format!("item 2: vertex {}… is", "7".repeat(32))));
    }
}
