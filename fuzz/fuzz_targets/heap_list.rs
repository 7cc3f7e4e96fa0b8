//! The heap-list reader (`grundy --heaps`) never panics, and what it accepts reads back
//! the same from its own text.
#![no_main]

use gamegraph_grundy::parse_heaps;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((heaps, limits)) = parse_heaps(text) else { return };
    if let Some(l) = &limits {
        assert_eq!(l.len(), heaps.len());
    }
    let mut again = String::new();
    for (i, h) in heaps.iter().enumerate() {
        match &limits {
            Some(l) => again.push_str(&format!("{h} {}\n", l[i])),
            None => again.push_str(&format!("{h}\n")),
        }
    }
    if heaps.is_empty() {
        return;
    }
    assert_eq!(parse_heaps(&again).expect("written heaps read back"), (heaps, limits));
});
