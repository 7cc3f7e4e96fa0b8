//! The tokenizer of one chunk of text: a run of whole lines (the last one may lack its
//! newline at the end of the input), turned into vertex ids with no allocation per token.
//!
//! A chunk knows nothing of what comes before it, so it reports lines relative to its own
//! start and token indices relative to its own first token; the reader turns them into
//! positions and names ("the source of arc 7 of 10") once it knows the chunks before.

use crate::map::IdBuf;

/// A position: 1-based line and column.
pub(super) type Pos = (u64, u64);

/// A character of the input, quoted for a message.
pub(super) fn quote(c: char) -> String {
    format!("{c:?}")
}

/// The keyword that starts the terminal values of the header format.
pub(super) const KEYWORD: &[u8] = b"terminal";

/// Whether `bytes` starts with [`KEYWORD`] as a whole token (the input may end after it).
pub(super) fn at_keyword(bytes: &[u8]) -> bool {
    bytes.starts_with(KEYWORD) && bytes.get(KEYWORD.len()).is_none_or(|&b| is_space(b) || b == b'#')
}

/// How the tokens of a chunk are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// Numbers separated by any white space, line breaks included (the header format's arcs).
    Stream,
    /// Exactly two numbers on every line that is not blank or a comment (the arc list).
    Lines,
}

/// What is wrong at the first problem of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Problem {
    /// A token that does not start with a digit.
    NotANumber(char),
    /// A digit run followed by something that is not white space or a comment.
    Glued(char),
    /// A number that does not fit in 64 bits.
    Overflow,
    /// A number outside `1..=limit`.
    OutOfRange(u64),
    /// A line of the arc list that ends after one number (`end` when the input ends there).
    OneId { end: bool },
    /// A third token on a line of the arc list.
    ExtraToken(char),
}

/// Where the first problem of a chunk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fault {
    /// What is wrong.
    pub(super) problem: Problem,
    /// The 0-based line inside the chunk.
    pub(super) line: u64,
    /// The 1-based column (on the chunk's first line, counted from the start of that line
    /// as the chunk's caller said).
    pub(super) column: u64,
    /// How many numbers of the chunk come before the problem.
    pub(super) token: u64,
    /// The index in the chunk of the token with the problem.
    pub(super) byte: usize,
}

/// The numbers of a chunk and what the reader needs to place them.
#[derive(Debug, Default)]
pub(super) struct Chunk {
    /// The 0-based vertex ids, in order (pairs: source, target).
    pub(super) ids: IdBuf,
    /// The largest 1-based id seen (0 for none).
    pub(super) max_id: u32,
    /// Where that id is first seen: the 0-based line inside the chunk and the 1-based
    /// column (counted as for [`Fault::column`]).
    pub(super) max_at: (u64, u64),
    /// How many line breaks the chunk holds.
    pub(super) newlines: u64,
    /// The bytes after the chunk's last line break (the whole chunk when it has none).
    pub(super) tail: u64,
    /// The first problem; the chunk is not read past it.
    pub(super) fault: Option<Fault>,
}

#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// The character starting at `bytes[i]` (lossy), for messages.
pub(super) fn char_at(bytes: &[u8], i: usize) -> char {
    let end = bytes.len().min(i + 4);
    String::from_utf8_lossy(&bytes[i..end]).chars().next().unwrap_or('\u{fffd}')
}

/// The leading decimal digits of eight bytes read little-endian (the first byte lowest):
/// their value and how many there are (8 when all eight bytes are digits; the value is
/// then that of the eight).
///
/// Subtracting `'0'` from every byte leaves 0..=9 exactly in the digit bytes; a byte is
/// not a digit when that result has its high bit set or reaches it once 0x76 is added. A
/// borrow or carry between bytes only ever moves towards later bytes, past the first
/// non-digit, so it cannot hide it. The digits are then shifted to the top (the bytes
/// below become leading zeros) and combined pairwise: 8 → 4 → 2 → 1.
#[inline]
pub(super) fn swar_digits(word: u64) -> (u64, usize) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word.wrapping_sub(ONES * u64::from(b'0'));
    let bad = (x.wrapping_add(ONES * 0x76) | x) & (ONES * 0x80);
    let len = (bad.trailing_zeros() / 8) as usize;
    if len == 0 {
        return (0, 0);
    }
    let x = x << (8 * (8 - len));
    let x = (x.wrapping_mul(10) + (x >> 8)) & 0x00ff_00ff_00ff_00ff;
    let x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_ffff_0000_ffff;
    let x = (x.wrapping_mul(10_000) + (x >> 32)) & 0xffff_ffff;
    (x, len)
}

/// The number starting at `bytes[i]` (a digit): its value (`None` on overflow) and the
/// index of the first byte after its digits.
#[inline]
pub(super) fn number(bytes: &[u8], i: usize) -> (Option<u64>, usize) {
    if let Some(word) = bytes[i..].first_chunk::<8>() {
        let (v, len) = swar_digits(u64::from_le_bytes(*word));
        if len < 8 {
            return (Some(v), i + len);
        }
    }
    number_slow(bytes, i)
}

#[cold]
fn number_slow(bytes: &[u8], mut i: usize) -> (Option<u64>, usize) {
    let mut v = Some(0u64);
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        let d = u64::from(bytes[i] - b'0');
        v = v.and_then(|v| v.checked_mul(10)).and_then(|v| v.checked_add(d));
        i += 1;
    }
    (v, i)
}

/// Tokenizes `bytes`, which starts at the beginning of a line, or `column - 1` bytes into
/// its first line. Ids must lie in `1..=limit` (`limit` ≤ `u32::MAX`).
pub(super) fn parse(bytes: &[u8], column: u64, layout: Layout, limit: u64) -> Chunk {
    // Every id takes a digit and a separator (the last may lack it), and `align` may
    // append one id: the capacity is never exceeded.
    let mut ids = IdBuf::with_capacity(bytes.len() / 2 + 2);
    let slots = ids.slots_mut();
    let mut count = 0usize;
    let mut newlines = 0u64;
    // The column of `bytes[i]` is `i + 1 - line_start` (line_start may be "negative").
    let mut line_start: i64 = 1 - column as i64;
    let mut on_line = 0u32;
    let mut max_id = 0u64;
    let mut max_at = (0, 0);
    let mut i = 0usize;
    let len = bytes.len();
    let fault = loop {
        // White space and comments.
        let mut ended = None;
        while i < len {
            let b = bytes[i];
            if b == b'\n' {
                if layout == Layout::Lines && on_line == 1 {
                    ended = Some(Problem::OneId { end: false });
                    break;
                }
                on_line = 0;
                i += 1;
                newlines += 1;
                line_start = i as i64;
            } else if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                i += 1;
            } else if b == b'#' {
                if layout == Layout::Lines && on_line == 1 {
                    ended = Some(Problem::OneId { end: false });
                    break;
                }
                i += memchr(b'\n', &bytes[i..]).unwrap_or(len - i);
            } else {
                break;
            }
        }
        if i == len && ended.is_none() {
            if layout == Layout::Lines && on_line == 1 {
                ended = Some(Problem::OneId { end: true });
            } else {
                break None;
            }
        }
        let at = |problem| Fault {
            problem,
            line: newlines,
            column: (i as i64 - line_start + 1) as u64,
            token: count as u64,
            byte: i,
        };
        if let Some(problem) = ended {
            break Some(at(problem));
        }
        let b = bytes[i];
        if layout == Layout::Lines && on_line == 2 {
            break Some(at(Problem::ExtraToken(char_at(bytes, i))));
        }
        if !b.is_ascii_digit() {
            break Some(at(Problem::NotANumber(char_at(bytes, i))));
        }
        let (value, end) = number(bytes, i);
        if end < len && !is_space(bytes[end]) && bytes[end] != b'#' {
            let glued = char_at(bytes, end);
            let mut f = at(Problem::Glued(glued));
            f.column += (end - i) as u64;
            break Some(f);
        }
        let Some(value) = value else { break Some(at(Problem::Overflow)) };
        if value == 0 || value > limit {
            break Some(at(Problem::OutOfRange(value)));
        }
        if value > max_id {
            max_id = value;
            max_at = (newlines, (i as i64 - line_start + 1) as u64);
        }
        slots[count] = (value - 1) as u32;
        count += 1;
        on_line += 1;
        i = end;
    };
    let tail = match fault {
        Some(_) => 0,
        None => (len as i64 - line_start) as u64,
    };
    ids.set_len(count);
    Chunk { ids, max_id: max_id as u32, max_at, newlines, tail, fault }
}

/// The index of the first `needle` in `hay`.
#[inline]
pub(crate) fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&b| b == needle)
}

/// Where the `k`-th number (0-based) of a chunk starts: its 0-based line inside the chunk,
/// its column and its byte index. For the rare message that names a token the chunk
/// parsed without a fault.
pub(super) fn locate(bytes: &[u8], column: u64, k: u64) -> (u64, u64, usize) {
    let mut newlines = 0;
    let mut line_start: i64 = 1 - column as i64;
    let mut seen = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            i += 1;
            newlines += 1;
            line_start = i as i64;
        } else if is_space(b) {
            i += 1;
        } else if b == b'#' {
            i += memchr(b'\n', &bytes[i..]).unwrap_or(bytes.len() - i);
        } else {
            if seen == k {
                return (newlines, (i as i64 - line_start + 1) as u64, i);
            }
            seen += 1;
            while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'#' {
                i += 1;
            }
        }
    }
    (newlines, (i as i64 - line_start + 1) as u64, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swar_digits_equals_a_loop_over_the_bytes() {
        let alphabet = b"0123456789 \t\n#x/:\x00\xff\x2f\x3a\xb0\xb9";
        let mut x = 7u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 9) as usize;
            let mut bytes = [0u8; 8];
            for (i, b) in bytes.iter_mut().enumerate() {
                let r = (x >> (8 + 5 * i)) as usize;
                *b = if i < digits { b'0' + (r % 10) as u8 } else { alphabet[r % alphabet.len()] };
            }
            let len = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let value = bytes[..len].iter().fold(0, |v, &b| v * 10 + u64::from(b - b'0'));
            assert_eq!(swar_digits(u64::from_le_bytes(bytes)), (value, len), "{bytes:?}");
        }
    }

    #[test]
    fn a_chunk_reports_its_first_problem_with_a_local_position() {
        let c = parse(b"1 2\n3 4\n  5 x\n", 1, Layout::Stream, 9);
        assert_eq!(*c.ids, [0, 1, 2, 3, 4]);
        let f = c.fault.unwrap();
        assert_eq!((f.problem, f.line, f.column, f.token), (Problem::NotANumber('x'), 2, 5, 5));

        let c = parse(b"1 2\n3\n", 1, Layout::Lines, 9);
        let f = c.fault.unwrap();
        assert_eq!(
            (f.problem, f.line, f.column, f.token),
            (Problem::OneId { end: false }, 1, 2, 3)
        );

        let c = parse(b"1 2 3", 4, Layout::Lines, 9);
        let f = c.fault.unwrap();
        assert_eq!((f.problem, f.line, f.column), (Problem::ExtraToken('3'), 0, 8));

        let c = parse(b"1 12y\n", 1, Layout::Stream, 99);
        let f = c.fault.unwrap();
        assert_eq!((f.problem, f.column, f.token), (Problem::Glued('y'), 5, 1));

        let c = parse(b"# only\n\n4 1\n", 1, Layout::Lines, 3);
        assert_eq!(c.fault.unwrap().problem, Problem::OutOfRange(4));
    }

    #[test]
    fn a_clean_chunk_counts_its_lines_and_tail() {
        let c = parse(b"1 2\n2 3\n3 1", 1, Layout::Lines, 3);
        assert_eq!((c.ids.len(), c.newlines, c.tail, c.max_id), (6, 2, 3, 3));
        assert!(c.fault.is_none());
        assert_eq!(locate(b"1 2\n2 3\n3 1", 1, 4), (2, 1, 8));
    }
}
