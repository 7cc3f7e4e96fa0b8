//! Quoting a bad token in an error message, shortened when it is long.

/// The most characters of a bad token an error message quotes.
const QUOTED_CHARS: usize = 32;

/// `token` quoted as Rust debug text, cut to its first [`QUOTED_CHARS`] characters
/// followed by `…` when it is longer.
pub(crate) fn quote(token: &str) -> String {
    match token.char_indices().nth(QUOTED_CHARS) {
        None => format!("{token:?}"),
        Some((cut, _)) => format!("{:?}…", &token[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn long_tokens_are_cut() {
        assert_eq!(quote("x1"), "\"x1\"");
        let long = "7".repeat(1000);
        assert_eq!(quote(&long), format!("{:?}…", "7".repeat(32)));
        assert_eq!(quote(&"é".repeat(40)), format!("{:?}…", "é".repeat(32)));
    }
}
