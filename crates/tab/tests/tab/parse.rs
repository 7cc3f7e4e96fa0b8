//! The tab.inp format reader on hostile input: every mistake is an error with a position,
//! never a panic, and harmless variations (a byte order mark, CRLF) are accepted.

use gamegraph_graph::Located;
use gamegraph_tab::{InputErrorKind, parse_tests};

fn err(input: &[u8]) -> (Option<(u64, u64)>, String) {
    let e = parse_tests(input).unwrap_err();
    (e.position().map(|p| (p.line, p.column)), e.to_string())
}

#[test]
fn a_byte_order_mark_and_crlf_are_accepted() {
    let tests = parse_tests("\u{feff}2\r\n10 4 5 3\r\n10 4 4 3\r\n".as_bytes()).unwrap();
    assert_eq!(tests.len(), 2);
    assert_eq!((tests[1].start.row, tests[1].start.col), (4, 3));
    // A byte order mark anywhere else is a bad token.
    let (pos, msg) = err("1\n\u{feff}10 4 5 3\n".as_bytes());
    assert_eq!(pos, Some((2, 1)));
    assert!(msg.contains("N (rows) must be a natural number"), "{msg}");
}

#[test]
fn bad_bytes_and_long_tokens_are_reported_briefly_where_they_are() {
    let (pos, msg) = err(b"1\n10 4 \xff 3\n");
    assert_eq!(pos, Some((2, 6)));
    assert!(msg.contains("x (start row) must be a natural number"), "{msg}");
    let long = format!("1\n10 {} 5 3\n", "7".repeat(100_000));
    let (pos, msg) = err(long.as_bytes());
    assert_eq!(pos, Some((2, 4)));
    assert!(msg.len() < 200, "the token is quoted in part: {msg}");
    assert!(msg.contains(&format!("{}…", "7".repeat(32))), "{msg}");
    let junk = format!("1\n10 4 5 {}\n", "y".repeat(100));
    let msg = err(junk.as_bytes()).1;
    assert!(msg.ends_with(&format!("found {:?}…", "y".repeat(32))), "{msg}");
    let junk = format!("1\n10 4 5 3 {}\n", "x".repeat(1000));
    assert!(err(junk.as_bytes()).1.len() < 200);
}

#[test]
fn counts_and_numbers_out_of_range() {
    let cases: &[(&str, (u64, u64), &str)] = &[
        ("0\n", (1, 1), "the number of tests s must be at least 1"),
        ("18446744073709551615\n1 1 1 1\n", (2, 8), "test 2: the input ends where N"),
        ("100000000000000000000\n", (1, 1), "the number of tests s is 100000000000000000000, more"),
        ("1\n100000000000000000000 4 1 1\n", (2, 1), "N (rows) is 100000000000000000000"),
        ("10000000000000000000\n", (1, 21), "test 1: the input ends where N (rows)"),
        ("1\n10 0 1 1\n", (2, 4), "M (columns) must be at least 1"),
        ("1\n0 4 1 1\n", (2, 1), "N (rows) must be at least 1"),
        ("1\n10 100001 1 1\n", (2, 4), "more than the largest allowed 100000"),
        ("1\n10 4 1 4294967297\n", (2, 8), "y (start column) = 4294967297 is outside"),
        ("1\n10 4 -1 1\n", (2, 6), "x (start row) must not be negative"),
        ("1\n10 4 +1 1\n", (2, 6), "must be a natural number, found \"+1\""),
        ("2\n10 4 5 3\n", (2, 9), "test 2: the input ends where N (rows) was expected"),
        ("1\n10 4 5 3\n10 4 5 3\n", (3, 1), "unexpected \"10\" after the last test"),
        ("1\n10 4 5\n", (2, 7), "test 1: the input ends where y"),
        ("# only a comment\n", (1, 17), "the input ends where the number of tests s was expected"),
        ("1\n10 4\n", (2, 5), "x (start row) was expected (1 test was announced)"),
    ];
    for &(input, pos, want) in cases {
        let (p, msg) = err(input.as_bytes());
        assert_eq!(p, Some(pos), "{input:?}: {msg}");
        assert!(msg.contains(want), "{input:?}: {msg}");
        assert!(!msg.contains("(0 tests"), "{input:?}: {msg}");
    }
}

#[test]
fn a_read_error_has_no_position() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let e = parse_tests(std::io::BufReader::new(Failing)).unwrap_err();
    assert!(matches!(e.kind, InputErrorKind::Io { .. }));
    assert_eq!(e.position(), None);
    assert!(e.to_string().contains("disk on fire"));
}

proptest::proptest! {
    /// Any bytes: an answer or an error with a position inside the input, never a panic.
    #[test]
    fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(
        proptest::sample::select(b"0123456789 -\n\r\t#x\xef\xbb\xbf\xff".to_vec()), 0..60)
    ) {
        match parse_tests(&bytes[..]) {
            Ok(tests) => {
                proptest::prop_assert!(!tests.is_empty());
                for t in &tests {
                    proptest::prop_assert!(t.start.row <= t.board.rows());
                    proptest::prop_assert!(t.start.col <= t.board.cols());
                }
            }
            Err(e) => {
                let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
                let gamegraph_graph::Position { line, column } = e.position().expect("no read error on a slice");
                proptest::prop_assert!(line >= 1 && line <= lines && column >= 1, "{e}");
            }
        }
    }
}

#[test]
fn a_test_line_one_number_short_is_named_where_the_error_shows_up() {
    // The missing y makes the next test's N the y: the error is on line 3, and the
    // message names line 2.
    let (pos, msg) = err(b"2\n10 4 5\n10 4 5 3\n");
    assert_eq!(pos, Some((3, 1)));
    assert!(msg.contains("y (start column) = 10 is outside"), "{msg}");
    assert!(
        msg.ends_with("(test 1 begins on line 2, which holds only 3 numbers of its four N M x y: is one missing there?)"),
        "{msg}"
    );
    let e = parse_tests(&b"2\n10 4 5\n10 4 5 3\n"[..]).unwrap_err();
    let short = e.short_line.unwrap();
    assert_eq!((short.test, short.line, short.numbers), (1, 2, 3));
    // Tests may be split over lines: an error on the test's own first line, or a complete
    // first line, gets no such note.
    assert!(parse_tests(&b"1\n10 4\n 5 3\n"[..]).is_ok());
    let (pos, msg) = err(b"1\n10 4 5 9\n");
    assert_eq!(pos, Some((2, 8)));
    assert!(!msg.contains("begins on line"), "{msg}");
    assert!(parse_tests(&b"2\n10 4 5 3 10\n4 5 9\n"[..]).unwrap_err().short_line.is_none());
}
