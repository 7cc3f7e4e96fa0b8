//! The text readers against the reference reader, and their errors one by one.

use std::io::Read;

use super::*;
use crate::format::ReadOptions;
use crate::{Graph, Located, Position};

fn read_text(
    reader: impl Read,
    format: Option<Format>,
    options: &ReadOptions,
) -> Result<(GameFile, Format), ReadError> {
    crate::format::read(reader, &ReadOptions { format, ..*options })
}

fn read_header(reader: impl Read) -> Result<GameFile, ReadError> {
    read_text(reader, Some(Format::Header), &ReadOptions::default()).map(|(file, _)| file)
}

fn read_arc_list(reader: impl Read, n: Option<usize>) -> Result<Graph, ReadError> {
    let options = ReadOptions { vertices: n, ..ReadOptions::default() };
    read_text(reader, Some(Format::ArcList), &options).map(|(file, _)| file.graph)
}

fn err(text: &str) -> (String, Option<(u64, u64)>) {
    let e = read_header(text.as_bytes()).unwrap_err();
    (e.to_string(), e.position().map(|p| (p.line, p.column)))
}

#[test]
fn reads_the_example_graph() {
    let f = read_header("5 5\n1\n1 2\n2 3\n3 1\n1 4\n4 5\n".as_bytes()).unwrap();
    assert_eq!(f.start, Some(Vertex(0)));
    assert_eq!(f.graph.num_arcs(), 5);
    assert_eq!(f.graph.successors(Vertex(0)), &[Vertex(1), Vertex(3)]);
    assert_eq!(f.graph.successors(Vertex(2)), &[Vertex(0)]);
}

#[test]
fn header_errors_have_positions() {
    assert_eq!(err(""), ("the input is empty".into(), Some((1, 1))));
    assert_eq!(err("2 1\n1\n1 3\n").1, Some((3, 3)));
    assert!(err("2 1\n1\n1 3\n").0.contains("vertex 3 is outside 1..2"));
    assert_eq!(err("2 2\n1\n1 2\n").0, "expected the source of arc 2 of 2, found end of input");
    assert_eq!(err("2 1\n1\n1 2\n2 1\n").1, Some((4, 1)));
    assert_eq!(err("2 1\nx\n").0, "expected the start vertex, found 'x'");
    assert_eq!(err("2 1\n1\n1 2x\n").1, Some((3, 4)));
    assert!(err("99999999999999999999999 1\n").0.contains("too large"));
    assert!(err("2 1\n0\n").0.contains("vertex 0 is outside"));
}

#[test]
fn the_start_vertex_is_optional() {
    let with = read_header("3 2 1\n1 2 2 3\n".as_bytes()).unwrap();
    assert_eq!((with.start, with.graph.num_arcs()), (Some(Vertex(0)), 2));
    let without = read_header("3 2\n1 2\n2 3\n".as_bytes()).unwrap();
    assert_eq!((without.start, without.graph.num_arcs()), (None, 2));
    assert_eq!(read_header("3 0\n".as_bytes()).unwrap().graph.num_vertices(), 3);
}

#[test]
fn unsorted_sources_are_sorted_stably() {
    let text = "4 6\n1\n3 1\n1 2\n3 4\n1 3\n2 2\n4 1\n";
    let fast = read_header(text.as_bytes()).unwrap();
    let slow = reference::read_header(text.as_bytes()).unwrap();
    assert_eq!(fast, slow);
    assert_eq!(fast.graph.successors(Vertex(2)), &[Vertex(0), Vertex(3)]);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let f = read_header("\u{feff}3 1\n1\n1 2\n".as_bytes()).unwrap();
    assert_eq!(f.graph.num_arcs(), 1);
    let e = read_header("\u{feff}3 1\n1\n1 x\n".as_bytes()).unwrap_err();
    assert_eq!(e.position(), Some(Position::new(3, 3)));
}

#[test]
fn the_vertex_count_is_bounded_by_the_input() {
    let e = read_header("1000000000 3\n1\n1 2\n2 3\n3 1\n".as_bytes()).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::TooManyVertices { n: 1_000_000_000, .. }), "{e}");
    assert_eq!(e.position(), Some(Position::new(1, 1)));
    let e = read_arc_list("1 4294967295\n".as_bytes(), None).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::TooManyVertices { .. }), "{e}");
    assert_eq!(e.position(), Some(Position::new(1, 3)));
    // At the first place of the largest id, also when the format was told by the text.
    let text = "1 2\n7 4000000000 # far\n2 4000000000\n";
    let e = read_arc_list(text.as_bytes(), None).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::TooManyVertices { n: 4_000_000_000, .. }), "{e}");
    assert_eq!(e.position(), Some(Position::new(2, 3)));
    let e = read_text(text.as_bytes(), None, &ReadOptions::default()).unwrap_err();
    assert_eq!(e.position(), Some(Position::new(2, 3)));
    let options = ReadOptions { chunk_bytes: 3, ..ReadOptions::default() };
    let e = read_text(text.as_bytes(), Some(Format::ArcList), &options).unwrap_err();
    assert_eq!(e.position(), Some(Position::new(2, 3)));
    let options = ReadOptions { max_vertices: Some(1 << 30), ..ReadOptions::default() };
    let (f, _) = read_text("1000000 0\n".as_bytes(), None, &options).unwrap();
    assert_eq!(f.graph.num_vertices(), 1_000_000);
}

#[test]
fn detection_of_the_header_without_a_start() {
    let auto = |t: &str| read_text(t.as_bytes(), None, &ReadOptions::default());
    let (f, format) = auto("3 3\n1 2\n2 3\n3 1\n").unwrap();
    assert_eq!((format, f.graph.num_vertices(), f.graph.num_arcs()), (Format::Header, 3, 3));
    let (f, format) = auto("3 0\n").unwrap();
    assert_eq!((format, f.graph.num_vertices(), f.graph.num_arcs()), (Format::Header, 3, 0));
    // Not M arcs after the first line, or an id above N: an arc list.
    let (f, format) = auto("1 2\n2 3\n").unwrap();
    assert_eq!((format, f.graph.num_arcs()), (Format::ArcList, 2));
    let (f, format) = auto("2 1\n2 3\n1 3\n").unwrap();
    assert_eq!((format, f.graph.num_arcs()), (Format::ArcList, 3));
    // One arc missing, one too many, or one id above N: a header with a mistake.
    for (text, at, message) in [
        (
            "5 5\n1 2\n2 3\n3 1\n1 4\n",
            (6, 1),
            "expected the source of arc 5 of 5, found end of input",
        ),
        ("3 2\n1 2\n2 5\n", (3, 3), "vertex 5 is outside 1..3"),
        ("2 1\n2 3\n", (2, 3), "vertex 3 is outside 1..2"),
        ("3 1\n1 2\n2 3\n", (3, 1), "expected end of input"),
    ] {
        let e = auto(text).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::HeaderMistake { .. }), "{text:?}: {e}");
        assert_eq!(e.position(), Some(Position::new(at.0, at.1)), "{text:?}: {e}");
        assert!(e.to_string().starts_with(message), "{text:?}: {e}");
        // The message names no option of a program: each adds its own advice.
        assert!(
            e.to_string().ends_with(" (read as a header N M without a start vertex)"),
            "{text:?}: {e}"
        );
        assert!(!e.to_string().contains("--"), "{text:?}: {e}");
    }
    let e = auto("3 0\n1 2\n2 3\n").unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::Ambiguous { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "the first line '3 0' is neither a header N M (it is followed by 2 arcs, not M on \
         vertices 1..N) nor an arc (vertex ids start at 1 (column 3))"
    );
}

/// A reader that hands out at most `step` bytes per call, to exercise every refill.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.step.min(buf.len()).min(self.data.len());
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

/// Text made of pieces that stress the tokenizer: numbers of every length (and
/// overflowing ones), white space of every kind, comments, stray characters.
fn noisy_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let piece = prop_oneof![
        4 => (0u64..12).prop_map(|x| x.to_string()),
        1 => any::<u64>().prop_map(|x| x.to_string()),
        1 => "[0-9]{18,25}",
        4 => Just(" ".to_owned()),
        3 => Just("\n".to_owned()),
        1 => prop::sample::select(vec!["\t", "\r\n", "  ", "\x0b", "\x0c"]).prop_map(str::to_owned),
        1 => Just("# note 12\n".to_owned()),
        1 => Just("#x".to_owned()),
        1 => Just("\u{feff}".to_owned()),
        1 => prop::sample::select(vec!["x", "-", "é", "+1", "3a", "\u{fffd}"]).prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// A valid header text (with or without its start line), possibly damaged in one place.
fn headerish_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    (
        1u64..8,
        prop::collection::vec((1u64..9, 1u64..9), 0..12),
        0usize..40,
        any::<u8>(),
        any::<bool>(),
    )
        .prop_map(|(n, arcs, cut, byte, start)| {
            let mut s = format!("{n} {}\n", arcs.len());
            if start {
                s.push_str("1\n");
            }
            for (k, (u, v)) in arcs.iter().enumerate() {
                let sep = if k % 3 == 2 {
                    "\r\n"
                } else if k % 5 == 4 {
                    " "
                } else {
                    "\n"
                };
                s.push_str(&format!("{u}\t{v}{sep}"));
            }
            // Sometimes damage the text: overwrite or cut it.
            let mut b = s.into_bytes();
            match byte % 4 {
                0 if cut < b.len() => b[cut] = b"x 9\n#0"[usize::from(byte) % 6],
                1 if cut < b.len() => b.truncate(cut),
                _ => {}
            }
            String::from_utf8_lossy(&b).into_owned()
        })
}

/// The parallel reader on pools of 1 to 3 threads and several chunk sizes gives the
/// reference's graph, or its error at its position.
fn same_as_reference(text: &str, step: usize) {
    let slow = reference::read_header(text.as_bytes());
    for threads in 1..=3 {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        for chunk_bytes in [1, 3, 8, 64, 1 << 20] {
            let options = ReadOptions { chunk_bytes, ..ReadOptions::default() };
            let data = Trickle { data: text.as_bytes(), step };
            let fast = pool.install(|| read_text(data, Some(Format::Header), &options));
            match (&fast, &slow) {
                (Ok((a, _)), Ok(b)) => assert_eq!(a, b, "{text:?}"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string(), "{text:?} chunk {chunk_bytes}");
                    assert_eq!(a.position(), b.position(), "{text:?} chunk {chunk_bytes}");
                }
                _ => panic!("{text:?}: parallel {fast:?}, reference {slow:?}"),
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    #[test]
    fn header_reader_matches_the_reference_on_noise(text in noisy_text(), step in 1usize..9) {
        same_as_reference(&text, step);
    }

    #[test]
    fn header_reader_matches_the_reference_on_damaged_headers(text in headerish_text(), step in 1usize..9) {
        same_as_reference(&text, step);
    }

    #[test]
    fn arcs_in_order_of_source_are_read_like_any_others(
        mut arcs in proptest::collection::vec((1u32..30, 1u32..30), 0..60),
        extra in 0u32..4,
        separators in proptest::collection::vec(proptest::sample::select(vec![" ", "\n", " # c\n"]), 60),
        step in 1usize..9,
    ) {
        // Stable: the targets of a source keep their order, which the graph keeps too.
        arcs.sort_by_key(|a| a.0);
        let n = arcs.iter().map(|a| a.0.max(a.1)).max().unwrap_or(1) + extra;
        let mut text = format!("{n} {}\n1\n", arcs.len());
        for ((u, v), sep) in arcs.iter().zip(&separators) {
            text += &format!("{u} {v}{sep}");
        }
        same_as_reference(&text, step);
    }

    #[test]
    fn arc_list_reader_matches_the_reference_on_valid_lists(
        arcs in proptest::collection::vec((1u32..20, 1u32..20), 0..30),
        step in 1usize..9,
        chunk_bytes in 1usize..20,
    ) {
        let text: String = arcs.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
        let options = ReadOptions { chunk_bytes, ..ReadOptions::default() };
        let slow = reference::read_arc_list(text.as_bytes(), None).unwrap();
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let data = Trickle { data: text.as_bytes(), step };
            let (fast, _) = pool.install(|| read_text(data, Some(Format::ArcList), &options)).unwrap();
            proptest::prop_assert_eq!(&fast.graph, &slow);
        }
    }
}
