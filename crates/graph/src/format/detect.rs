//! Telling the formats apart by the first bytes of an input: the one place that decides,
//! whose answer the readers are given.

use super::Format;
use super::binary::MAGIC;
use super::text::chunk::{is_space, memchr};

/// The UTF-8 byte order mark, skipped at the start of a text.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// How to read an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// The binary format.
    Binary,
    /// The header format.
    Header,
    /// The arc list.
    Arcs,
    /// A text whose first line is `N M`: the header format without a start vertex or an
    /// arc list, decided by what follows.
    Ambiguous,
}

impl From<Format> for Plan {
    fn from(format: Format) -> Plan {
        match format {
            Format::Header => Plan::Header,
            Format::ArcList => Plan::Arcs,
            Format::Binary => Plan::Binary,
        }
    }
}

/// The plan for an input that starts with `head` (the whole input when `eof`); `None` when
/// `head` ends before it tells and more input follows.
///
/// Binary when the input starts with the binary magic number (or, at its end, with a
/// prefix of it). A text (after a byte order mark) is read in the header format when the
/// second line that is neither blank nor only a `#` comment holds a single number (the
/// start vertex), when the first line does not hold exactly two numbers (no arc list's line
/// does) or when there is no line at all; otherwise (`N M` on the first line) it is left to
/// what follows ([`Plan::Ambiguous`]).
///
/// # Complexity
/// O(`head.len()`) time, no allocation.
pub(crate) fn detect(head: &[u8], eof: bool) -> Option<Plan> {
    let k = head.len().min(MAGIC.len());
    if k > 0 && head[..k] == MAGIC[..k] {
        return (k == MAGIC.len() || eof).then_some(Plan::Binary);
    }
    if head.len() < BOM.len() && BOM.starts_with(head) && !eof {
        return None;
    }
    text_plan(head.strip_prefix(BOM).unwrap_or(head), eof)
}

/// The plan for a text from its first two content lines; `None` when `head` ends before
/// they do and more input follows.
pub(crate) fn text_plan(head: &[u8], eof: bool) -> Option<Plan> {
    let mut counts = [0usize; 2];
    let mut lines = 0;
    let mut i = 0;
    let mut tokens = 0;
    while lines < 2 {
        if i == head.len() {
            if !eof {
                return None;
            }
            if tokens > 0 {
                counts[lines] = tokens;
            }
            break;
        }
        match head[i] {
            b'\n' => {
                if tokens > 0 {
                    counts[lines] = tokens;
                    lines += 1;
                    tokens = 0;
                }
                i += 1;
            }
            b'#' => i += memchr(b'\n', &head[i..]).unwrap_or(head.len() - i),
            b if is_space(b) => i += 1,
            _ => {
                tokens += 1;
                while i < head.len() && !is_space(head[i]) && head[i] != b'#' {
                    i += 1;
                }
            }
        }
    }
    // A line of an arc list holds exactly two ids: a first line of one or of three or more
    // numbers (`N M S`, or a whole header on one line) can only be a header.
    Some(match counts {
        [2, n] if n != 1 => Plan::Ambiguous,
        _ => Plan::Header,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format an input of `head` alone is read in (the ambiguous first line as the
    /// arc list it is unless the arcs after it say otherwise).
    fn format(head: &[u8]) -> Format {
        match detect(head, true).unwrap() {
            Plan::Binary => Format::Binary,
            Plan::Header => Format::Header,
            Plan::Arcs | Plan::Ambiguous => Format::ArcList,
        }
    }

    #[test]
    fn formats_are_told_apart_by_their_first_bytes() {
        assert_eq!(format(b""), Format::Header);
        assert_eq!(format(b"\x89GG"), Format::Binary);
        assert_eq!(format(b"# c\n5 0\n\n# c\n 3 \n"), Format::Header);
        assert_eq!(format(b"1 2\n"), Format::ArcList);
        assert_eq!(format(b"1 2\n2 3 # 4\n"), Format::ArcList);
        assert_eq!(format(b"5 5\n1 # start\n1 2\n"), Format::Header);
        assert_eq!(format(b"6 665844584"), Format::ArcList);
        // The start vertex on the `N M` line, a header on one line, a lone number.
        assert_eq!(format(b"5 5 1\n1 2\n"), Format::Header);
        assert_eq!(format(b"5 5 1 1 2 2 3 3 1 1 4 4 5"), Format::Header);
        assert_eq!(format(b"# c\n7\n1 2\n"), Format::Header);
        assert_eq!(detect(b"\x89GG", false), None);
        assert_eq!(detect(b"5 5\n", false), None);
        assert_eq!(detect(b"\xef\xbb", false), None);
        assert_eq!(detect(b"\xef\xbb\xbf5 5\n1\n", false), Some(Plan::Header));
    }
}
