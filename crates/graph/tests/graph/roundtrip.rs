//! Every writer's output reads back as the same graph, in the format it was written in.

use gamegraph_graph::format::{
    self, DotStyle, Format, GameFile, ReadOptions, write_arc_list, write_binary, write_dot,
    write_header,
};
use gamegraph_graph::{Graph, ReadError, ReadErrorKind, Vertex};
use gamegraph_testkit::graph;
use proptest::prelude::*;

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

/// The format an input is read in when none is given.
fn detected(bytes: &[u8]) -> Format {
    format::read(bytes, &ReadOptions::default()).unwrap().1
}

/// Graphs of 1 to 39 vertices with cycles, self-loops, repeated arcs, isolated vertices and
/// arcs in any order, and a start vertex.
fn graphs_with_start() -> impl Strategy<Value = (Graph, Vertex)> {
    gamegraph_testkit::graphs(1..=39, 6).prop_flat_map(|g| {
        let n = g.num_vertices() as u32;
        (Just(g), (0..n).prop_map(Vertex))
    })
}

/// Whether the arc list of `g` also reads as a header file without a start line: its first
/// arc `N M` is followed by exactly `M` arcs on `1..=N`.
fn is_also_a_header(g: &Graph) -> bool {
    let mut arcs = g.arcs().map(|(u, v)| (u.one_based(), v.one_based()));
    let Some((n, m)) = arcs.next() else { return false };
    let rest: Vec<_> = arcs.collect();
    rest.len() as u64 == m && rest.iter().all(|&(u, v)| u.max(v) <= n)
}

/// Whether the arc list of `g` is one mistake away from a header file without a start
/// line: its first arc `N M` is followed by `M - 1` or `M + 1` arcs on `1..=N`, or by `M`
/// arcs with exactly one id above `N`. Such a text is refused as a header with a mistake.
fn is_near_a_header(g: &Graph) -> bool {
    let mut arcs = g.arcs().map(|(u, v)| (u.one_based(), v.one_based()));
    let Some((n, m)) = arcs.next() else { return false };
    let rest: Vec<_> = arcs.collect();
    let above = rest.iter().flat_map(|&(u, v)| [u, v]).filter(|&x| x > n).count();
    let count = rest.len() as u64;
    (above == 0 && count.abs_diff(m) == 1) || (above == 1 && count == m)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn header_round_trips((g, start) in graphs_with_start()) {
        let mut text = Vec::new();
        write_header(&mut text, &g, Some(start)).unwrap();
        let file = read_header(&text[..]).unwrap();
        prop_assert_eq!(&file.graph, &g);
        prop_assert_eq!(file.start, Some(start));
        prop_assert_eq!(detected(&text), Format::Header);
        prop_assert_eq!(read_auto(&text[..]).unwrap(), file);
    }

    #[test]
    fn arc_list_round_trips((g, _) in graphs_with_start()) {
        let mut text = Vec::new();
        write_arc_list(&mut text, &g).unwrap();
        prop_assert_eq!(&read_arc_list(&text[..], Some(g.num_vertices())).unwrap(), &g);
        let inferred = read_arc_list(&text[..], None).unwrap();
        let largest = g.arcs().map(|(u, v)| u.max(v).one_based()).max().unwrap_or(0);
        prop_assert_eq!(inferred.num_vertices() as u64, largest);
        prop_assert!(inferred.arcs().eq(g.arcs()));
        if g.num_arcs() > 0 {
            if is_near_a_header(&g) {
                let e = read_auto(&text[..]).unwrap_err();
                prop_assert!(matches!(e.kind, ReadErrorKind::HeaderMistake { .. }), "{}", e);
                return Ok(());
            }
            let auto = read_auto(&text[..]).unwrap();
            if is_also_a_header(&g) {
                prop_assert_eq!(auto, read_header(&text[..]).unwrap());
            } else {
                prop_assert_eq!(auto.graph, inferred);
            }
        }
    }

    #[test]
    fn binary_round_trips((g, start) in graphs_with_start(), with_start in any::<bool>()) {
        let start = with_start.then_some(start);
        let mut bin = Vec::new();
        write_binary(&mut bin, &g, start).unwrap();
        let file = read_binary(&bin[..]).unwrap();
        prop_assert_eq!(&file.graph, &g);
        prop_assert_eq!(file.start, start);
        prop_assert_eq!(detected(&bin), Format::Binary);
        prop_assert_eq!(read_auto(&bin[..]).unwrap(), file.clone());
        let binary = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
        prop_assert_eq!(format::read(&bin[..], &binary).unwrap(), (file, Format::Binary));
    }

    #[test]
    fn dot_names_every_vertex_and_arc((g, start) in graphs_with_start()) {
        let mut dot = Vec::new();
        write_dot(&mut dot, &g, &DotStyle { highlight: Some(&[start]), ..DotStyle::default() })
            .unwrap();
        let dot = String::from_utf8(dot).unwrap();
        let arcs: Vec<String> = g.arcs().map(|(u, v)| format!("  {} -> {};", u.one_based(), v.one_based())).collect();
        let lines: Vec<&str> = dot.lines().filter(|l| l.contains("->")).collect();
        prop_assert_eq!(lines, arcs.iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(dot.lines().count(), 3 + g.num_vertices() + g.num_arcs());
        let bold = format!("  {} [penwidth=2.5, peripheries=2];", start.one_based());
        prop_assert!(dot.lines().any(|l| l == bold));
    }
}

/// Two self-loops `1 1` are an arc list, and also a header `1 1` (one vertex, one arc)
/// followed by its one arc: without `--format` the header reading wins.
#[test]
fn an_arc_list_that_is_also_a_header_reads_as_the_header() {
    let g = graph(4, &[(0, 0), (0, 0)]);
    assert!(is_also_a_header(&g));
    let mut text = Vec::new();
    write_arc_list(&mut text, &g).unwrap();
    assert_eq!(text, b"1 1\n1 1\n");
    let auto = read_auto(&text[..]).unwrap();
    assert_eq!(auto, GameFile::new(graph(1, &[(0, 0)]), None));
    assert_eq!(read_arc_list(&text[..], None).unwrap(), graph(1, &[(0, 0), (0, 0)]));
}

#[test]
fn the_header_writer_checks_the_start_vertex() {
    let g = Graph::from_arcs(0, &[]).unwrap();
    let e = write_header(Vec::new(), &g, Some(Vertex(0))).unwrap_err();
    assert_eq!(e.to_string(), "the start vertex 1 is not a vertex of the graph (1..0)");
    let mut text = Vec::new();
    write_header(&mut text, &g, None).unwrap();
    assert_eq!(text, b"0 0\n");
    assert_eq!(read_header(&text[..]).unwrap(), GameFile::new(g, None));
}

#[test]
fn dot_style_labels_colours_and_escapes() {
    let g = graph(3, &[(0, 1), (1, 2)]);
    let labels = ["1 W 1".to_owned(), "say \"hi\"\\".to_owned()];
    let colors = ["palegreen", ""];
    let style = DotStyle {
        name: "my \"game\"",
        labels: Some(&labels),
        colors: Some(&colors),
        highlight: Some(&[Vertex(2), Vertex(7)]),
    };
    let mut out = Vec::new();
    write_dot(&mut out, &g, &style).unwrap();
    insta::assert_snapshot!(String::from_utf8(out).unwrap(), @r#"
    digraph "my \"game\"" {
      node [shape=circle];
      1 [label="1 W 1", style=filled, fillcolor="palegreen"];
      2 [label="say \"hi\"\\"];
      3 [penwidth=2.5, peripheries=2];
      1 -> 2;
      2 -> 3;
    }
    "#);
}
