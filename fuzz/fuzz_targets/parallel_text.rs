//! The text readers give the same graph, or the same error at the same position, on one
//! thread with the default chunks and on three threads with chunks of a few bytes.
#![no_main]

use std::sync::OnceLock;

use gamegraph_graph::Located;
use gamegraph_graph::format::{self, Format, ReadOptions};
use libfuzzer_sys::fuzz_target;

fn pool(threads: usize) -> &'static rayon::ThreadPool {
    static POOLS: [OnceLock<rayon::ThreadPool>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    POOLS[threads].get_or_init(|| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&knob, text)) = data.split_first() else { return };
    // A small vertex limit keeps every accepted graph small.
    let limit = Some(1 << 16);
    for format in [None, Some(Format::Header), Some(Format::ArcList)] {
        let whole = ReadOptions { format, max_vertices: limit, ..ReadOptions::default() };
        let chunk_bytes = 1 + usize::from(knob % 17);
        let tiny = ReadOptions { chunk_bytes, ..whole };
        let one = pool(1).install(|| format::read(text, &whole));
        let three = pool(3).install(|| format::read(text, &tiny));
        match (&one, &three) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string());
                assert_eq!(a.position(), b.position());
            }
            _ => panic!("one thread {one:?}, three threads {three:?}"),
        }
    }
});
