//! The vertex-list reader (`kernel --check`, `--start` lists) never panics, and every
//! vertex it accepts is on the graph.
#![no_main]

use gamegraph_graph::parse_vertex_list;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&n, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let n = usize::from(n);
    if let Ok(list) = parse_vertex_list(text, n) {
        assert!(list.iter().all(|v| (v.0 as usize) < n), "{list:?} on {n} vertices");
        let again: Vec<String> = list.iter().map(|v| (v.0 + 1).to_string()).collect();
        assert_eq!(parse_vertex_list(&again.join(" "), n).expect("reads back"), list);
    }
});
