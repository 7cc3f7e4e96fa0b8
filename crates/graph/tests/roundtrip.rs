//! Every writer's output reads back as the same graph, and [`detect`] recognises it.

use gamegraph_graph::format::{
    self, DotStyle, Format, GameFile, detect, read_arc_list, read_auto, read_binary, read_header,
    write_arc_list, write_binary, write_dot, write_header,
};
use gamegraph_graph::{Graph, Vertex};
use proptest::prelude::*;

/// Graphs with cycles, self-loops, repeated arcs, isolated vertices and arcs in any order.
fn graphs() -> impl Strategy<Value = (Graph, Vertex)> {
    (1u32..40).prop_flat_map(|n| {
        (prop::collection::vec((0..n, 0..n), 0..120), 0..n).prop_map(move |(arcs, start)| {
            let arcs: Vec<_> = arcs.into_iter().map(|(u, v)| (Vertex(u), Vertex(v))).collect();
            (Graph::from_arcs(n as usize, &arcs).unwrap(), Vertex(start))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn header_round_trips((g, start) in graphs()) {
        let mut text = Vec::new();
        write_header(&mut text, &g, Some(start)).unwrap();
        let file = read_header(&text[..]).unwrap();
        prop_assert_eq!(&file.graph, &g);
        prop_assert_eq!(file.start, Some(start));
        prop_assert_eq!(detect(&text), Format::Header);
        prop_assert_eq!(read_auto(&text[..]).unwrap(), file);
    }

    #[test]
    fn arc_list_round_trips((g, _) in graphs()) {
        let mut text = Vec::new();
        write_arc_list(&mut text, &g).unwrap();
        prop_assert_eq!(&read_arc_list(&text[..], Some(g.num_vertices())).unwrap(), &g);
        let inferred = read_arc_list(&text[..], None).unwrap();
        let largest = g.arcs().map(|(u, v)| u.max(v).one_based()).max().unwrap_or(0);
        prop_assert_eq!(inferred.num_vertices() as u64, largest);
        prop_assert!(inferred.arcs().eq(g.arcs()));
        if g.num_arcs() > 0 {
            prop_assert_eq!(detect(&text), Format::ArcList);
            prop_assert_eq!(read_auto(&text[..]).unwrap().graph, inferred);
        }
    }

    #[test]
    fn binary_round_trips((g, start) in graphs(), with_start in any::<bool>()) {
        let start = with_start.then_some(start);
        let mut bin = Vec::new();
        write_binary(&mut bin, &g, start).unwrap();
        let file = read_binary(&bin[..]).unwrap();
        prop_assert_eq!(&file.graph, &g);
        prop_assert_eq!(file.start, start);
        prop_assert_eq!(detect(&bin), Format::Binary);
        prop_assert_eq!(read_auto(&bin[..]).unwrap(), file.clone());
        prop_assert_eq!(format::read(&bin[..], Format::Binary).unwrap(), file);
    }

    #[test]
    fn dot_names_every_vertex_and_arc((g, start) in graphs()) {
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

#[test]
fn the_header_writer_checks_the_start_vertex() {
    let g = Graph::from_arcs(0, &[]).unwrap();
    let e = write_header(Vec::new(), &g, Some(Vertex(0))).unwrap_err();
    assert_eq!(e.to_string(), "the start vertex 1 is not a vertex of the graph (1..0)");
    let mut text = Vec::new();
    write_header(&mut text, &g, None).unwrap();
    assert_eq!(text, b"0 0\n");
    assert_eq!(read_header(&text[..]).unwrap(), GameFile { graph: g, start: None });
}

#[test]
fn detect_follows_its_rules() {
    assert_eq!(detect(b""), Format::Header);
    assert_eq!(detect(b"\x89GG"), Format::Binary);
    assert_eq!(detect(b"# c\n5 0\n\n# c\n 3 \n"), Format::Header);
    assert_eq!(detect(b"1 2\n"), Format::ArcList);
    assert_eq!(detect(b"1 2\n2 3 # 4\n"), Format::ArcList);
    assert_eq!(detect(b"5 5\n1 # start\n1 2\n"), Format::Header);
}

#[test]
fn dot_style_labels_colours_and_escapes() {
    let g = Graph::from_arcs(3, &[(Vertex(0), Vertex(1)), (Vertex(1), Vertex(2))]).unwrap();
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
