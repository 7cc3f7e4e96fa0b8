//! The binary reader never panics and never allocates much more than its input; what it
//! accepts is written back byte for byte. When the first byte is odd the rest of the input
//! gets a correct checksum appended, so that the fuzzer gets past the checksum to the
//! header and array checks.
#![no_main]

use gamegraph_graph::format::binary::BlockChecksum;
use gamegraph_graph::format::{read_binary, write_binary};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let owned;
    let input = match data.split_first() {
        Some((flag, rest)) if flag & 1 == 1 => {
            let mut sum = BlockChecksum::new();
            sum.update(rest);
            let mut v = rest.to_vec();
            v.extend_from_slice(&sum.finish().to_le_bytes());
            owned = v;
            &owned[..]
        }
        Some((_, rest)) => rest,
        None => data,
    };
    if let Ok(file) = read_binary(input) {
        let mut out = Vec::new();
        write_binary(&mut out, &file.graph, file.start).expect("writing to memory");
        assert_eq!(out, input, "accepted binary input is canonical");
    }
});
