//! The reader of `retro --all` tables (`gamegraph verify retro`) never panics, and a table
//! it accepts prints back to a table that reads the same.
#![no_main]

use gamegraph_retro::read_table;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&n, text)) = data.split_first() else { return };
    let n = usize::from(n);
    let Ok(solution) = read_table(text, n) else { return };
    assert_eq!(solution.num_vertices(), n);
    let printed = solution.table().to_string();
    let again = read_table(printed.as_bytes(), n).expect("a printed table reads back");
    assert_eq!(again.table().to_string(), printed);
});
