//! Terminal values in graph files: the header format's `terminal` section and the binary
//! format's flag bit 2 read back as written, in every reader, and every error in them.

use std::io::Write;

use gamegraph_graph::format::binary::write_game_binary;
use gamegraph_graph::format::{
    self, Format, GameFile, ReadOptions, Terminals, write_binary, write_header,
};
use gamegraph_graph::open::{self, Options};
use gamegraph_graph::{Graph, Located, Position, ReadError, Terminal, Vertex};
use proptest::prelude::*;

use crate::support::resealed;

fn read(bytes: &[u8], format: Option<Format>, chunk_bytes: usize) -> Result<GameFile, ReadError> {
    let options = ReadOptions { format, chunk_bytes, ..ReadOptions::default() };
    format::read(bytes, &options).map(|(file, _)| file)
}

fn read_auto(bytes: &[u8]) -> Result<(GameFile, Format), ReadError> {
    format::read(bytes, &ReadOptions::default())
}

/// The message and position of the error reading `text` (detected format).
fn err(text: &str) -> (String, Option<(u64, u64)>) {
    let e = read_auto(text.as_bytes()).unwrap_err();
    (e.to_string(), e.position().map(|p| (p.line, p.column)))
}

/// `bytes` opened from a file by path, mapped or read.
fn opened(bytes: &[u8], name: &str, mmap: bool) -> Result<GameFile, String> {
    let path = std::env::temp_dir().join(format!("gamegraph-term-{}-{name}", std::process::id()));
    std::fs::File::create(&path).unwrap().write_all(bytes).unwrap();
    let options = Options { mmap, ..Options::default() };
    let r = open::open(&path, &options).map(|o| o.file).map_err(|e| e.message());
    std::fs::remove_file(&path).unwrap();
    r
}

fn v(i: u32) -> Vertex {
    Vertex(i)
}

/// 1 -> 2, 1 -> 3, 1 -> 4, 4 -> 4: vertices 2 and 3 have no moves.
fn small() -> Graph {
    Graph::from_arcs(4, &[(v(0), v(1)), (v(0), v(2)), (v(0), v(3)), (v(3), v(3))]).unwrap()
}

#[test]
fn the_section_is_read_in_both_header_layouts() {
    let with_start = "4 4\n1\n1 2\n1 3\n1 4\n4 4\nterminal\n2 T # a tie\n3 W\n";
    let (file, format) = read_auto(with_start.as_bytes()).unwrap();
    assert_eq!(format, Format::Header);
    assert_eq!(file.graph, small());
    assert_eq!(file.start, Some(v(0)));
    let t = file.terminal.clone().unwrap();
    assert_eq!(t.iter().collect::<Vec<_>>(), [(v(1), Terminal::Tie), (v(2), Terminal::Win)]);
    // Without a start line the first line `N M` would also be an arc; the keyword says header.
    let without = "4 4\n1 2\n1 3\n1 4\n4 4\n\nterminal\n2 T 3 W\n";
    let (file2, format) = read_auto(without.as_bytes()).unwrap();
    assert_eq!((format, &file2.graph, file2.start), (Format::Header, &small(), None));
    assert_eq!(file2.terminal, Some(t.clone()));
    // No arcs, no start: the keyword is not a start vertex.
    let none = Graph::from_arcs(2, &[]).unwrap();
    let (file3, format) = read_auto(b"2 0\nterminal\n2 L\n").unwrap();
    assert_eq!((format, &file3.graph, file3.start), (Format::Header, &none, None));
    assert_eq!(file3.terminal.unwrap().get(v(1)), Some(Terminal::Loss));
    let (file4, _) = read_auto(b"2 0 terminal").unwrap();
    assert_eq!(file4.terminal, Some(Terminals::empty(2)));
    // The keyword on the line of the last arc, with or without a start line: numbers and
    // the keyword are separated by any white space.
    let same_line = "4 4\n1 2\n1 3\n1 4\n4 4 terminal\n2 T 3 W\n";
    let (file5, format) = read_auto(same_line.as_bytes()).unwrap();
    assert_eq!((format, &file5), (Format::Header, &file2));
    let (file6, _) = read_auto(b"4 4\n1\n1 2\n1 3\n1 4\n4 4 terminal 2 T\n3 W\n").unwrap();
    assert_eq!(file6, file);
    // The same at every chunk size, and with the format given.
    for chunk in [1, 2, 5, 64] {
        assert_eq!(read(same_line.as_bytes(), None, chunk).unwrap(), file2, "chunk {chunk}");
        assert_eq!(read(with_start.as_bytes(), None, chunk).unwrap(), file, "chunk {chunk}");
        assert_eq!(read(without.as_bytes(), None, chunk).unwrap(), file2, "chunk {chunk}");
        let header = read(without.as_bytes(), Some(Format::Header), chunk).unwrap();
        assert_eq!(header, file2, "chunk {chunk}");
    }
}

#[test]
fn every_error_of_the_section_has_its_position() {
    let head = "3 1\n1\n1 2\nterminal\n";
    let e = |section: &str| err(&format!("{head}{section}"));
    assert_eq!(e("4 W\n"), ("vertex 4 is outside 1..3".into(), Some((5, 1))));
    assert_eq!(e("0 W\n"), ("vertex 0 is outside 1..3".into(), Some((5, 1))));
    assert_eq!(
        e("2 W\n1 L\n"),
        (
            "vertex 1 has moves: only a vertex without moves has a terminal value".into(),
            Some((6, 1))
        )
    );
    assert_eq!(
        e("2 X\n"),
        ("expected the terminal value of vertex 2 (W, L or T), found 'X'".into(), Some((5, 3)))
    );
    assert_eq!(
        e("3  w\n"),
        ("expected the terminal value of vertex 3 (W, L or T), found 'w'".into(), Some((5, 4)))
    );
    assert_eq!(
        e("2 Win\n"),
        ("expected white space after the terminal value, found 'i'".into(), Some((5, 4)))
    );
    assert_eq!(
        e("2 W\n3 T\n2 L\n"),
        ("vertex 2 is given a terminal value twice".into(), Some((7, 1)))
    );
    assert_eq!(
        e("2 W 3"),
        (
            "expected the terminal value of vertex 3 (W, L or T), found end of input".into(),
            Some((5, 6))
        )
    );
    assert_eq!(
        e("x W"),
        (
            "expected a vertex without moves and its terminal value, or end of input, found 'x'"
                .into(),
            Some((5, 1))
        )
    );
    assert_eq!(e("2W"), ("expected white space after the vertex, found 'W'".into(), Some((5, 2))));
    assert_eq!(e("99999999999999999999 W"), ("the vertex is too large".into(), Some((5, 1))));
    // The keyword before the last arc, or after too few arcs of a header without start.
    assert_eq!(
        err("3 2\n1\n1 2\nterminal\n"),
        ("expected the source of arc 2 of 2, found the terminal values".into(), Some((4, 1)))
    );
    assert_eq!(
        err("3 2\n1 2\nterminal\n3 W\n"),
        (
            "expected the terminal values after the 2 arcs of the header, found them after 1 arc"
                .into(),
            Some((3, 1))
        )
    );
    assert_eq!(err("3 1\n1 4\nterminal\n"), ("vertex 4 is outside 1..3".into(), Some((2, 3))));
    // The arc list has no terminal values; a word that is not the keyword is no section.
    let arcs = read(b"1 2\nterminal\n", Some(Format::ArcList), 1 << 20).unwrap_err();
    assert_eq!(arcs.to_string(), "expected the source vertex of an arc, found 't'");
    assert_eq!(arcs.position(), Some(Position::new(2, 1)));
    assert_eq!(
        err("3 1\n1\n1 2\nterminals\n"),
        ("expected end of input, found 't' after the 1 arcs".into(), Some((4, 1)))
    );
}

#[test]
fn the_binary_format_holds_the_values_under_flag_bit_2() {
    let g = small();
    let t = Terminals::new(&g, &[(v(2), Terminal::Tie)]).unwrap();
    let file = GameFile { graph: g.clone(), start: Some(v(0)), terminal: Some(t) };
    let mut bin = Vec::new();
    write_game_binary(&mut bin, &file, false).unwrap();
    assert_eq!(u32::from_le_bytes(bin[12..16].try_into().unwrap()), 0b101);
    // 40 + 8 * 5 + 4 * 4 bytes of graph, one byte of values (vertex 3 at bits 4-5), checksum.
    assert_eq!(bin.len(), 40 + 40 + 16 + 1 + 8);
    assert_eq!(bin[96], 3 << 4);
    assert_eq!(read(&bin, None, 1 << 20).unwrap(), file);
    for mmap in [true, false] {
        assert_eq!(opened(&bin, "small", mmap).unwrap(), file, "mmap {mmap}");
    }
    let mut pred = Vec::new();
    write_game_binary(&mut pred, &file, true).unwrap();
    assert_eq!(read(&pred, None, 1 << 20).unwrap(), file);
    assert_eq!(opened(&pred, "pred", true).unwrap(), file);
    // Without values, the bytes of the plain writer.
    let plain = GameFile::new(g.clone(), Some(v(0)));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    write_game_binary(&mut a, &plain, false).unwrap();
    write_binary(&mut b, &g, Some(v(0))).unwrap();
    assert_eq!(a, b);

    // A value at a vertex with moves, and bits after the last vertex: refused by every
    // reader, past the checksum.
    let mut moves = bin.clone();
    moves[96] |= 1;
    // Three vertices: the fourth code of the byte is unused.
    let g3 = Graph::from_arcs(3, &[(v(0), v(1))]).unwrap();
    let t3 = Terminals::new(&g3, &[(v(2), Terminal::Win)]).unwrap();
    let mut unused = Vec::new();
    write_game_binary(&mut unused, &GameFile { graph: g3, start: None, terminal: Some(t3) }, false)
        .unwrap();
    let at = unused.len() - 9;
    assert_eq!(unused[at], 1 << 4);
    unused[at] |= 1 << 6;
    let mut flag = b.clone();
    flag[12] |= 8;
    for (bad, want) in [
        (resealed(moves), "the file is corrupt: vertex 1 has moves but is given a terminal value"),
        (
            resealed(unused),
            "the file is corrupt: the unused bits after the terminal values are not zero",
        ),
        (resealed(flag), "the file is corrupt: unknown flags 0x9 in the header"),
    ] {
        assert_eq!(read(&bad, None, 1 << 20).unwrap_err().to_string(), want);
        for mmap in [true, false] {
            let e = opened(&bad, "bad", mmap).unwrap_err();
            assert!(e.ends_with(want), "mmap {mmap}: {e}");
        }
    }
    // Damage the checksum catches.
    let mut flipped = bin.clone();
    flipped[96] ^= 0x10;
    assert!(read(&flipped, None, 1 << 20).unwrap_err().to_string().contains("checksum mismatch"));
}

#[test]
fn the_arcs_format_cannot_hold_terminal_values() {
    let g = small();
    let t = Terminals::new(&g, &[(v(1), Terminal::Win)]).unwrap();
    let file = GameFile { graph: g, start: None, terminal: Some(t) };
    let e = format::write_game(Vec::new(), &file, Format::ArcList).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    // Values that do not fit the graph are refused by the writers.
    let other = Graph::from_arcs(4, &[(v(1), v(0))]).unwrap();
    let wrong = GameFile { graph: other, ..file };
    for format in [Format::Header, Format::Binary] {
        let e = format::write_game(Vec::new(), &wrong, format).unwrap_err();
        assert_eq!(
            e.to_string(),
            "vertex 2 has moves: only a vertex without moves has a terminal value"
        );
    }
}

/// A graph of 1 to 30 vertices, a start vertex or none, and a value or none for each of
/// its vertices without moves.
fn files() -> impl Strategy<Value = GameFile> {
    gamegraph_testkit::graphs(1..=30, 2).prop_flat_map(|g| {
        let n = g.num_vertices();
        let values = proptest::collection::vec(0u8..4, n);
        (Just(g), proptest::option::of(0..n as u32), values, any::<bool>()).prop_map(
            |(g, start, values, some)| {
                let entries: Vec<_> = g
                    .vertices()
                    .filter(|&u| g.out_degree(u) == 0)
                    .filter_map(|u| {
                        let value =
                            [None, Some(Terminal::Win), Some(Terminal::Loss), Some(Terminal::Tie)]
                                [values[u.index()] as usize];
                        value.map(|t| (u, t))
                    })
                    .collect();
                let terminal = some.then(|| Terminals::new(&g, &entries).unwrap());
                GameFile { graph: g, start: start.map(Vertex), terminal }
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn text_to_binary_to_text_round_trips(file in files()) {
        let mut text = Vec::new();
        format::write_game(&mut text, &file, Format::Header).unwrap();
        let (back, detected) = read_auto(&text).unwrap();
        prop_assert_eq!(detected, Format::Header);
        prop_assert_eq!(&back, &file);
        prop_assert_eq!(&read(&text, Some(Format::Header), 3).unwrap(), &file);
        let mut bin = Vec::new();
        format::write_game(&mut bin, &back, Format::Binary).unwrap();
        let from_bin = read(&bin, None, 1 << 20).unwrap();
        prop_assert_eq!(&from_bin, &file);
        let mut again = Vec::new();
        format::write_game(&mut again, &from_bin, Format::Header).unwrap();
        prop_assert_eq!(&again, &text);
        // Without values, exactly the plain header writer's text.
        if file.terminal.is_none() {
            let mut plain = Vec::new();
            write_header(&mut plain, &file.graph, file.start).unwrap();
            prop_assert_eq!(&plain, &text);
        }
    }
}
