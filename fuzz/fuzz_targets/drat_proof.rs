//! The DRAT reader never panics, what it accepts reads back the same from the text written
//! for it, and the checker never panics on it (against the kernel conditions of a 5-cycle).
#![no_main]

use gamegraph_graph::{Graph, Vertex};
use gamegraph_kernel::{DratProof, check_no_kernel};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(proof) = DratProof::parse(data) else { return };
    let mut out = Vec::new();
    proof.write_to(&mut out).expect("writing to memory");
    let again = DratProof::parse(&out).expect("written proof text reads back");
    assert_eq!(again.steps, proof.steps);
    let arcs: Vec<(Vertex, Vertex)> = (0..5).map(|i| (Vertex(i), Vertex((i + 1) % 5))).collect();
    let c5 = Graph::from_arcs(5, &arcs).expect("a 5-cycle");
    let _ = check_no_kernel(&c5, &proof);
});
