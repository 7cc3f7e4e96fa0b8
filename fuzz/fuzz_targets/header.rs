//! The header reader never panics, and what it accepts round-trips through the writer.
#![no_main]

use gamegraph_graph::format::{Format, detect, read_auto, read_header, write_header};
use libfuzzer_sys::fuzz_target;

/// The first number of the input (after white space and `#` comments): a header file's N.
fn leading_number(data: &[u8]) -> Option<u64> {
    let mut i = 0;
    loop {
        match data.get(i)? {
            b'#' => i += data[i..].iter().position(|&b| b == b'\n')?,
            b if b.is_ascii_whitespace() || *b == 0x0b => i += 1,
            _ => break,
        }
    }
    let digits: Vec<u8> = data[i..].iter().take_while(|b| b.is_ascii_digit()).copied().collect();
    // An overflowing N is rejected before anything is allocated.
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

fuzz_target!(|data: &[u8]| {
    // A valid file may announce up to 2^32 - 1 vertices, which takes 32 GiB of offsets;
    // keep the fuzzer within its memory limit.
    if leading_number(data).is_some_and(|n| n > 1 << 20) {
        return;
    }
    // Detection must not panic. An input detected as an arc list is left to the arc_list
    // target: a valid arc list may name vertex 4294967295 (32 GiB of offsets).
    if detect(data) != Format::ArcList {
        let _ = read_auto(data);
    }
    if let Ok(file) = read_header(data) {
        let mut out = Vec::new();
        write_header(&mut out, &file.graph, file.start).expect("writing to memory");
        let again = read_header(&out[..]).expect("written header text reads back");
        assert_eq!(again, file);
    }
});
