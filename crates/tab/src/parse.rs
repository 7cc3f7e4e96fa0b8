//! Reading the tab.inp format (docs/formats.md).

use std::io::BufRead;

use crate::board::{Board, MAX_COLS};
use crate::error::{Field, InputError, InputErrorKind, ShortLine};
use crate::solve::Test;
use crate::tokens::{Token, Tokens};
use gamegraph_graph::Located;
use gamegraph_graph::position::{quote, shorten};

/// Parses a natural number token for `field` of `test`, within `1..=max`.
fn number(t: &Token, test: Option<u64>, field: Field, max: u64) -> Result<u64, InputError> {
    let err = |kind| InputError::new(kind, t.at);
    let s = t.text.as_str();
    if let Some(rest) = s.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(err(InputErrorKind::Negative { test, field, found: shorten(s) }));
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(InputErrorKind::NotANumber { test, field, found: quote(s) }));
    }
    let too_large = || err(InputErrorKind::TooLarge { test, field, found: shorten(s), max });
    let v: u64 = s.parse().map_err(|_| too_large())?;
    if v == 0 {
        return Err(err(InputErrorKind::Zero { test, field }));
    }
    if v > max {
        return Err(too_large());
    }
    Ok(v)
}

/// Reads the tab.inp format (docs/formats.md): a first number s ≥ 1, then s tests
/// `N M x y`, all separated
/// by any white space; `#` starts a comment to the end of the line.
///
/// Nothing is skipped: a token that is not a natural number, a zero, a start cell outside
/// its board, fewer tests than s and anything after the last test are errors naming the
/// test, the line and the column (a byte order mark at the start is allowed; lines may
/// end in CRLF).
///
/// # Complexity
/// O(input length) time, O(s) space.
///
/// # Errors
/// A [`InputError`] with the line and column.
///
/// # Example
/// ```
/// use gamegraph_tab::parse_tests;
/// let tests = parse_tests("1  # one test\n10 4\n 5 3\n".as_bytes())?;
/// assert_eq!((tests[0].start.row, tests[0].start.col), (5, 3));
/// assert!(parse_tests("1\n10 4 11 3\n".as_bytes()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_tests(input: impl BufRead) -> Result<Vec<Test>, InputError> {
    let mut tokens = Tokens::new(input);
    let missing = |tokens: &Tokens<_>, expected, test, field| {
        InputError::new(InputErrorKind::Missing { expected, test, field }, tokens.end())
    };
    let Some(first) = tokens.next()? else {
        return Err(missing(&tokens, 0, None, Field::Count));
    };
    let s = number(&first, None, Field::Count, u64::MAX)?;
    let mut tests = Vec::new();
    let mut last_line = first.at.line;
    for i in 1..=s {
        // The line the test begins on, when it begins a line, and how many of its numbers
        // stand there.
        let mut begins: Option<(u64, u8)> = None;
        let mut first_token = true;
        let mut next = |field| -> Result<Token, InputError> {
            let t = tokens.next()?.ok_or_else(|| missing(&tokens, s, Some(i), field))?;
            if std::mem::take(&mut first_token) {
                begins = (t.at.line != last_line).then_some((t.at.line, 0));
            }
            if let Some((line, count)) = &mut begins
                && *line == t.at.line
            {
                *count += 1;
            }
            last_line = t.at.line;
            Ok(t)
        };
        let test = read_test(i, &mut next).map_err(|mut e| {
            // A test line one number short is read on into the next line, where the error
            // shows up: name the short line too (when the test begins its own line).
            if let (Some((line, numbers)), Some(at)) = (begins, e.position())
                && at.line > line
                && numbers < 4
            {
                e.short_line = Some(ShortLine { test: i, line, numbers });
            }
            e
        })?;
        tests.push(test);
    }
    if let Some(t) = tokens.next()? {
        return Err(InputError::new(InputErrorKind::Trailing { found: quote(&t.text) }, t.at));
    }
    Ok(tests)
}

/// Reads test `i`, taking its tokens from `next`.
fn read_test(
    i: u64,
    next: &mut impl FnMut(Field) -> Result<Token, InputError>,
) -> Result<Test, InputError> {
    {
        let tn = next(Field::Rows)?;
        let n = number(&tn, Some(i), Field::Rows, u64::MAX)?;
        let tm = next(Field::Cols)?;
        let m = number(&tm, Some(i), Field::Cols, u64::from(MAX_COLS))? as u32;
        let tx = next(Field::X)?;
        let x = number(&tx, Some(i), Field::X, u64::MAX)?;
        if x > n {
            let kind =
                InputErrorKind::OutsideBoard { test: i, field: Field::X, value: x, limit: n };
            return Err(InputError::new(kind, tx.at));
        }
        let ty = next(Field::Y)?;
        let y = number(&ty, Some(i), Field::Y, u64::MAX)?;
        if y > u64::from(m) {
            let limit = u64::from(m);
            let kind = InputErrorKind::OutsideBoard { test: i, field: Field::Y, value: y, limit };
            return Err(InputError::new(kind, ty.at));
        }
        let board = Board::new(n, m).expect("validated above");
        let start = board.cell(x, y as u32).expect("validated above");
        Ok(Test { board, start })
    }
}
