//! The arc-list reader never panics, and what it accepts round-trips through the writer.
#![no_main]

use gamegraph_graph::format::{self, Format, ReadOptions, write_arc_list};
use gamegraph_graph::{Graph, ReadError};
use libfuzzer_sys::fuzz_target;

fn read_arc_list(data: &[u8], vertices: Option<usize>) -> Result<Graph, ReadError> {
    let options = ReadOptions { format: Some(Format::ArcList), vertices, ..ReadOptions::default() };
    format::read(data, &options).map(|(file, _)| file.graph)
}

fuzz_target!(|data: &[u8]| {
    // Keep the vertex count small: an arc list may legitimately name vertex 4294967295,
    // which needs a 32 GiB offset array.
    if let Ok(g) = read_arc_list(data, Some(1 << 16)) {
        let mut out = Vec::new();
        write_arc_list(&mut out, &g).expect("writing to memory");
        let again = read_arc_list(&out[..], Some(g.num_vertices())).expect("reads back");
        assert_eq!(again, g);
        let inferred = read_arc_list(data, None).expect("accepted with a bound, so without");
        assert_eq!(inferred.num_arcs(), g.num_arcs());
    }
});
