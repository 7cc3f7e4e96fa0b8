//! The one list syntax of the command line: integers separated by commas, spaces or both,
//! in one value (`--max 2,3,4`, `--max "2 3 4"`, `--heaps "5, 7, 9"`).

use std::fmt;

/// A list of integers given as one command-line value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Numbers(pub(crate) Vec<u64>);

/// Why a list is not a list of integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ListError {
    /// Nothing but separators.
    Empty,
    /// Two commas with nothing between them (or a comma at either end).
    EmptyItem {
        /// The 1-based place of the missing item.
        item: usize,
    },
    /// An item that is no integer from 0 to 2^64 - 1.
    NotNumber {
        /// The 1-based place of the item.
        item: usize,
        /// The item as given.
        text: String,
    },
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListError::Empty => f.write_str("the list is empty (give numbers like 2,3,4)"),
            ListError::EmptyItem { item } => write!(f, "item {item} is missing between commas"),
            ListError::NotNumber { item, text } => write!(
                f,
                "item {item} is {}, not an integer from 0 to 2^64 - 1",
                gamegraph_graph::quote(text)
            ),
        }
    }
}

impl std::error::Error for ListError {}

/// The integers of `text`: items separated by commas, by whitespace, or by a comma with
/// whitespace around it.
pub(crate) fn parse_numbers(text: &str) -> Result<Vec<u64>, ListError> {
    let mut out = Vec::new();
    let pieces: Vec<&str> = text.split(',').collect();
    for piece in &pieces {
        let words: Vec<&str> = piece.split_whitespace().collect();
        if words.is_empty() {
            // "2,,3", ",2" and "2," miss an item; "" and "  " are an empty list.
            if pieces.len() > 1 {
                return Err(ListError::EmptyItem { item: out.len() + 1 });
            }
            continue;
        }
        for w in words {
            let item = out.len() + 1;
            out.push(w.parse().map_err(|_| ListError::NotNumber { item, text: w.to_owned() })?);
        }
    }
    if out.is_empty() {
        return Err(ListError::Empty);
    }
    Ok(out)
}

impl std::str::FromStr for Numbers {
    type Err = ListError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_numbers(text).map(Numbers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_spaces_and_both_are_one_syntax() {
        for text in ["2,3,4", "2 3 4", "2, 3, 4", " 2 ,3\t4 ", "2 3,4"] {
            assert_eq!(parse_numbers(text), Ok(vec![2, 3, 4]), "{text:?}");
        }
        assert_eq!(parse_numbers("18446744073709551615"), Ok(vec![u64::MAX]));
    }

    #[test]
    fn bad_lists_name_the_item() {
        assert_eq!(parse_numbers(""), Err(ListError::Empty));
        assert_eq!(parse_numbers("  "), Err(ListError::Empty));
        assert_eq!(parse_numbers("2,,3"), Err(ListError::EmptyItem { item: 2 }));
        assert_eq!(parse_numbers(",2"), Err(ListError::EmptyItem { item: 1 }));
        assert_eq!(parse_numbers("2,"), Err(ListError::EmptyItem { item: 2 }));
        assert_eq!(
            parse_numbers("2 x 4").unwrap_err().to_string(),
            "item 2 is \"x\", not an integer from 0 to 2^64 - 1"
        );
        assert!(matches!(parse_numbers("2,-3"), Err(ListError::NotNumber { item: 2, .. })));
    }
}
