//! The binary reader never panics and never allocates much more than its input; what it
//! accepts is written back byte for byte, in the format version it was read in and with the
//! predecessor index and the terminal values when it had them. When the
//! first byte is odd the rest of the input gets a correct checksum appended (of the version
//! its header names), so that the fuzzer gets past the checksum to the header and array
//! checks.
#![no_main]

use gamegraph_graph::format::binary::{
    BlockChecksum, Checksum, write_binary_version, write_binary_with_predecessors,
    write_game_binary,
};
use gamegraph_graph::format::{self, Format, ReadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let owned;
    let input = match data.split_first() {
        Some((flag, rest)) if flag & 1 == 1 => {
            let sum = if rest.get(8..12) == Some(&1u32.to_le_bytes()[..]) {
                Checksum::of(rest)
            } else {
                let mut sum = BlockChecksum::new();
                sum.update(rest);
                sum.finish()
            };
            let mut v = rest.to_vec();
            v.extend_from_slice(&sum.to_le_bytes());
            owned = v;
            &owned[..]
        }
        Some((_, rest)) => rest,
        None => data,
    };
    let binary = ReadOptions { format: Some(Format::Binary), ..ReadOptions::default() };
    if let Ok((file, _)) = format::read(input, &binary) {
        let mut out = Vec::new();
        // Accepted input has a whole header: write it back in the version it was read in.
        let version = u32::from_le_bytes(input[8..12].try_into().expect("4 bytes"));
        let flags = u32::from_le_bytes(input[12..16].try_into().expect("4 bytes"));
        if flags & 4 != 0 {
            write_game_binary(&mut out, &file, flags & 2 != 0)
        } else if flags & 2 != 0 {
            write_binary_with_predecessors(&mut out, &file.graph, file.start)
        } else {
            write_binary_version(&mut out, &file.graph, file.start, version)
        }
        .expect("writing to memory");
        assert_eq!(out, input, "accepted binary input is canonical");
    }
});
