//! The seed reader never panics, and what it accepts round-trips through the writer.
#![no_main]

use gamegraph_graph::format::{read_auto, read_seed, write_seed};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = read_auto(data);
    if let Ok(file) = read_seed(data) {
        let start = file.start.expect("the seed format has a start vertex");
        let mut out = Vec::new();
        write_seed(&mut out, &file.graph, start).expect("writing to memory");
        let again = read_seed(&out[..]).expect("written seed text reads back");
        assert_eq!(again, file);
    }
});
