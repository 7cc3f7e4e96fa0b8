//! Text forms the front ends share.

use std::fmt::{Display, Write as _};

/// At most `max` items joined by ", ", with a count of the rest: `1, 2, 3, … (40 in all)`.
pub fn list<T: Display>(items: impl ExactSizeIterator<Item = T>, max: usize) -> String {
    let total = items.len();
    let mut s = String::new();
    for (i, x) in items.take(max).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{x}");
    }
    if total > max {
        let _ = write!(s, ", … ({total} in all)");
    }
    s
}
