//! One test per kind of bad input: the exact message and position of each.

use gamegraph_graph::format::{self, Format, GameFile, ReadOptions, write_binary};
use gamegraph_graph::open;
use gamegraph_graph::{Graph, Located, Position, ReadError, ReadErrorKind, Vertex};

use crate::support::resealed;

fn read_header(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Header), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

fn read_arc_list(reader: impl std::io::Read, n: Option<usize>) -> Result<Graph, ReadError> {
    let options =
        ReadOptions { format: Some(Format::ArcList), vertices: n, ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file.graph)
}

fn read_auto(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    format::read(reader, &ReadOptions::default()).map(|(file, _)| file)
}

fn read_binary(reader: impl std::io::Read) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
    format::read(reader, &options).map(|(file, _)| file)
}

fn header_err(text: &str) -> (String, Option<Position>) {
    let e = read_header(text.as_bytes()).unwrap_err();
    (e.to_string(), e.position())
}

fn arcs_err(text: &str, n: Option<usize>) -> (String, Option<Position>) {
    let e = read_arc_list(text.as_bytes(), n).unwrap_err();
    (e.to_string(), e.position())
}

fn s(msg: &str, line: u64, column: u64) -> (String, Option<Position>) {
    (msg.to_owned(), Some(Position::new(line, column)))
}

#[test]
fn vertex_outside_one_to_n() {
    assert_eq!(header_err("2 1\n1\n1 3\n"), s("vertex 3 is outside 1..2", 3, 3));
    assert_eq!(header_err("2 1\n1\n0 2\n"), s("vertex 0 is outside 1..2", 3, 1));
    assert_eq!(header_err("2 1\n  7\n1 2\n"), s("vertex 7 is outside 1..2", 2, 3));
    assert_eq!(header_err("0 0\n1\n"), s("vertex 1 is outside 1..0", 2, 1));
    assert_eq!(arcs_err("1 2\n3 5\n", Some(4)), s("vertex 5 is outside 1..4", 2, 3));
    assert_eq!(arcs_err("1 0\n", None), s("vertex ids start at 1, found 0", 1, 3));
}

#[test]
fn fewer_arcs_than_m() {
    assert_eq!(
        header_err("3 3\n1\n1 2\n2 3\n"),
        s("expected the source of arc 3 of 3, found end of input", 5, 1)
    );
    assert_eq!(
        header_err("3 3\n1\n1 2\n2 3\n3"),
        s("expected the target of arc 3 of 3, found end of input", 5, 2)
    );
}

#[test]
fn more_arcs_than_m() {
    assert_eq!(
        header_err("3 1\n1\n1 2\n2 3\n"),
        s("expected end of input, found 2 after the 1 arcs", 4, 1)
    );
    assert_eq!(
        header_err("3 1\n1\n1 2\n  # fine\n x\n"),
        s("expected end of input, found 'x' after the 1 arcs", 5, 2)
    );
}

#[test]
fn not_a_number() {
    assert_eq!(header_err("3 x\n"), s("expected the number of arcs M, found 'x'", 1, 3));
    assert_eq!(header_err("-3 1\n"), s("expected the number of vertices N, found '-'", 1, 1));
    assert_eq!(
        header_err("3 1\n1\n1 2z\n"),
        s("expected white space after the target of arc 1 of 1, found 'z'", 3, 4)
    );
    assert_eq!(
        header_err("3 1\n1\n1 é\n"),
        s("expected the target of arc 1 of 1, found 'é'", 3, 3)
    );
    assert_eq!(
        header_err("3 1\n1.5\n"),
        s("expected white space after the start vertex, found '.'", 2, 2)
    );
    assert_eq!(
        arcs_err("1 2\nx 2\n", None),
        s("expected the source vertex of an arc, found 'x'", 2, 1)
    );
}

#[test]
fn arc_list_line_structure() {
    assert_eq!(
        arcs_err("1 2 3\n", None),
        s("expected the end of the line after an arc, found '3'", 1, 5)
    );
    assert_eq!(
        arcs_err("1\n2 3\n", None),
        s("expected the target vertex of an arc on the same line, found the end of the line", 1, 2)
    );
    assert_eq!(
        arcs_err("1 2\n4 # no target\n", None),
        s("expected the target vertex of an arc on the same line, found the end of the line", 2, 3)
    );
    assert_eq!(
        arcs_err("1 2\n4", None),
        s("expected the target vertex of an arc on the same line, found end of input", 2, 2)
    );
}

#[test]
fn empty_input() {
    assert_eq!(header_err(""), s("the input is empty", 1, 1));
    assert_eq!(header_err("  \n# only a comment\n\n"), s("the input is empty", 1, 1));
    let e = read_auto("".as_bytes()).unwrap_err();
    assert_eq!((e.to_string(), e.position()), s("the input is empty", 1, 1));
    // An empty arc list is a graph without vertices, not an error.
    assert_eq!(read_arc_list("# nothing\n".as_bytes(), None).unwrap().num_vertices(), 0);
}

#[test]
fn overflowing_numbers() {
    assert_eq!(
        header_err("18446744073709551616 1\n"),
        s("the number of vertices N is too large", 1, 1)
    );
    assert_eq!(header_err("4294967296 0\n1\n"), s("N is too large", 1, 1));
    assert_eq!(header_err("3 9999999999999999999\n1\n"), s("M is too large", 1, 3));
    assert_eq!(
        header_err("3 1\n1\n1 99999999999999999999999999999999999\n"),
        s("the target of arc 1 of 1 is too large", 3, 3)
    );
    assert_eq!(
        arcs_err("18446744073709551616 1\n", None),
        s("the source vertex of an arc is too large", 1, 1)
    );
    // 18446744073709551615 fits in u64 but is no vertex.
    assert_eq!(
        header_err("3 1\n18446744073709551615\n"),
        s("vertex 18446744073709551615 is outside 1..3", 2, 1)
    );
}

fn sample_binary() -> (Graph, Vec<u8>) {
    let arcs = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4)].map(|(u, v)| (Vertex(u), Vertex(v)));
    let g = Graph::from_arcs(5, &arcs).unwrap();
    let mut bin = Vec::new();
    write_binary(&mut bin, &g, Some(Vertex(0))).unwrap();
    (g, bin)
}

fn bin_err(bytes: &[u8]) -> String {
    let e = read_binary(bytes).unwrap_err();
    assert_eq!(e.position(), None);
    e.to_string()
}

#[test]
fn truncated_binary() {
    let (_, bin) = sample_binary();
    // 40 header bytes, 6 offsets (48 bytes), 5 targets (20 bytes), 8 checksum bytes.
    assert_eq!(bin.len(), 40 + 48 + 20 + 8);
    assert_eq!(
        bin_err(&[]),
        "the file is truncated: it ends after 0 bytes, inside the magic number"
    );
    assert_eq!(
        bin_err(&bin[..20]),
        "the file is truncated: it ends after 20 bytes, inside the header"
    );
    assert_eq!(
        bin_err(&bin[..50]),
        "the file is truncated: it ends after 50 bytes, inside the CSR offsets"
    );
    assert_eq!(
        bin_err(&bin[..100]),
        "the file is truncated: it ends after 100 bytes, inside the arc targets"
    );
    assert_eq!(
        bin_err(&bin[..110]),
        "the file is truncated: it ends after 110 bytes, inside the checksum"
    );
    for cut in 0..bin.len() {
        let e = read_binary(&bin[..cut]).unwrap_err();
        assert!(
            matches!(e.kind, ReadErrorKind::Truncated { offset, .. } if offset == cut as u64),
            "{cut}"
        );
    }
}

#[test]
fn corrupt_binary() {
    let (g, bin) = sample_binary();
    assert_eq!(read_binary(&bin[..]).unwrap().graph, g);
    let mut magic = bin.clone();
    magic[1] = b'X';
    assert_eq!(
        bin_err(&magic),
        "the file is corrupt: not a gamegraph binary graph (wrong magic number)"
    );
    let mut version = bin.clone();
    version[8] = 3;
    assert_eq!(
        bin_err(&version),
        "unsupported binary format version 3 (this build reads versions 1 to 2)"
    );
    let mut flags = bin.clone();
    flags[13] = 1;
    assert_eq!(bin_err(&flags), "the file is corrupt: unknown flags 0x101 in the header");
    let mut start = bin.clone();
    start[32] = 5;
    assert_eq!(bin_err(&start), "the file is corrupt: the start vertex 6 is outside 1..5");
    // Every single flipped bit after the header is caught by the checksum.
    for i in 40 * 8..bin.len() * 8 {
        let mut b = bin.clone();
        b[i / 8] ^= 1 << (i % 8);
        let msg = bin_err(&b);
        assert!(
            msg.starts_with("the file is corrupt: checksum mismatch (stored 0x"),
            "bit {i}: {msg}"
        );
    }
    let mut trailing = bin.clone();
    trailing.push(0);
    assert_eq!(
        bin_err(&trailing),
        "the file is corrupt: unexpected bytes after the checksum at byte 116"
    );
}

#[test]
fn binary_with_a_valid_checksum_but_bad_arrays() {
    let (_, bin) = sample_binary();
    let mut target = bin.clone();
    target[88] = 9; // first target: vertex 10 of 5
    assert_eq!(bin_err(&resealed(target)), "the file is corrupt: an arc target 10 is outside 1..5");
    let mut offsets = bin.clone();
    offsets[48] = 7; // offsets[1] = 7 > offsets[2]
    assert_eq!(
        bin_err(&resealed(offsets)),
        "the file is corrupt: the CSR offsets do not run from 0 up to the number of arcs"
    );
}

#[test]
fn lying_binary_header_costs_only_what_is_there() {
    let (_, bin) = sample_binary();
    let mut huge = bin[..40].to_vec();
    huge[16..24].copy_from_slice(&u64::from(u32::MAX).to_le_bytes()); // n
    huge[24..32].copy_from_slice(&(1u64 << 50).to_le_bytes()); // m
    huge.extend_from_slice(&[0; 64]);
    assert_eq!(
        bin_err(&huge),
        "the file is truncated: it ends after 104 bytes, inside the CSR offsets"
    );
    let mut too_many = bin[..40].to_vec();
    too_many[16..24].copy_from_slice(&(1u64 << 33).to_le_bytes());
    assert_eq!(
        bin_err(&too_many),
        "the file is corrupt: the header says 8589934592 vertices, more than 4294967295"
    );
}

/// Found by fuzzing the reader: `6 665844584` is
/// a valid one-arc arc list whose graph has 665844584 vertices, so reading it allocates
/// 5.3 GB of offsets. Not a bug of the reader; callers that want a bound pass `n`.
#[test]
fn fuzz_regression_large_ids_in_an_arc_list() {
    let options = ReadOptions { max_vertices: Some(1 << 30), ..ReadOptions::default() };
    let (file, format) = format::read("6 665844584".as_bytes(), &options).unwrap();
    assert_eq!((format, file.graph.num_vertices()), (Format::ArcList, 665_844_584));
    assert_eq!(arcs_err("6 665844584", Some(1000)), s("vertex 665844584 is outside 1..1000", 1, 3));
    let g = read_arc_list("6 4424".as_bytes(), None).unwrap();
    assert_eq!((g.num_vertices(), g.num_arcs()), (4424, 1));
}

/// A reader that yields `data`, then fails with `kind`.
struct Failing {
    data: &'static [u8],
    kind: std::io::ErrorKind,
}

impl std::io::Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() {
            return Err(std::io::Error::new(self.kind, "the disk is on fire"));
        }
        let k = buf.len().min(self.data.len());
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

#[test]
fn a_failed_read_keeps_the_system_error_as_its_source() {
    use std::error::Error;
    use std::io::ErrorKind;
    for (data, format) in [
        (&b"3 2\n1\n1 2\n"[..], Some(Format::Header)),
        (b"1 2\n", Some(Format::ArcList)),
        (b"", None),
        (b"GGRAPH", Some(Format::Binary)),
    ] {
        let reader = Failing { data, kind: ErrorKind::PermissionDenied };
        let options = ReadOptions { format, ..ReadOptions::default() };
        let e = format::read(reader, &options).unwrap_err();
        assert_eq!(e.to_string(), "read failed: the disk is on fire", "{data:?}");
        assert_eq!(e.position(), None);
        let ReadErrorKind::Io(io) = &e.kind else { panic!("{data:?}: {e:?}") };
        assert_eq!(io.kind(), ErrorKind::PermissionDenied);
        let source = e.source().expect("an I/O error has a source");
        let source = source.downcast_ref::<std::io::Error>().expect("the system's error");
        assert_eq!(source.kind(), ErrorKind::PermissionDenied);
        // Opened by name, the same failure is an I/O error of the input with that kind.
        let reader = Failing { data, kind: ErrorKind::PermissionDenied };
        let options = open::Options { format, ..open::Options::default() };
        match open::read_stream(reader, "in.txt", &options) {
            Err(open::OpenError::Io { name, error }) => {
                assert_eq!((name.as_str(), error.kind()), ("in.txt", ErrorKind::PermissionDenied));
            }
            other => panic!("{data:?}: {other:?}"),
        }
    }
    // Other errors have no source.
    assert!(read_header("".as_bytes()).unwrap_err().source().is_none());
}
