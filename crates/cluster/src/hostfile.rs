//! The hostfile: one `host:port` per line, one line per process.

use crate::error::HostfileError;

/// Parses a hostfile: one `host:port` per line, the line of process `i` being the `i`-th
/// address line (0-based). Blank lines and lines starting with `#` are skipped; spaces
/// around an address are ignored.
///
/// # Errors
/// A [`HostfileError`] with the 1-based line and column of the first bad address, or
/// line 1 for a file without any address.
///
/// # Example
/// ```
/// let hosts = gamegraph_cluster::parse_hostfile("# two processes\n127.0.0.1:7001\n127.0.0.1:7002\n").unwrap();
/// assert_eq!(hosts, ["127.0.0.1:7001", "127.0.0.1:7002"]);
/// assert_eq!(gamegraph_cluster::parse_hostfile("a:1\nb\n").unwrap_err().line, 2);
/// ```
pub fn parse_hostfile(text: &str) -> Result<Vec<String>, HostfileError> {
    let mut hosts = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i as u64 + 1;
        let indent = raw.len() - raw.trim_start().len();
        let entry = raw.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        let col = |offset: usize| (indent + offset) as u64 + 1;
        let bad =
            |offset: usize, message: String| HostfileError { line, column: col(offset), message };
        if let Some(pos) = entry.find(char::is_whitespace) {
            return Err(bad(pos, "expected one host:port per line".into()));
        }
        let Some(colon) = entry.rfind(':') else {
            return Err(bad(0, format!("expected host:port, found `{}`", quote(entry))));
        };
        if colon == 0 {
            return Err(bad(0, "missing host before `:`".into()));
        }
        let port = &entry[colon + 1..];
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => {
                return Err(bad(
                    colon + 1,
                    format!("expected a port 1..65535, found `{}`", quote(port)),
                ));
            }
        }
        hosts.push(entry.to_owned());
    }
    if hosts.is_empty() {
        return Err(HostfileError { line: 1, column: 1, message: "no host:port line".into() });
    }
    Ok(hosts)
}

/// At most 32 characters of a bad token.
fn quote(s: &str) -> String {
    s.chars().take(32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_errors() {
        let e = parse_hostfile("127.0.0.1:7000\n  localhost:x\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 13));
        let e = parse_hostfile("\n\nnoport\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        let e = parse_hostfile("a:1 b:2\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        let e = parse_hostfile("a:0\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        let e = parse_hostfile("# nothing\n").unwrap_err();
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 1, "no host:port line"));
        assert_eq!(parse_hostfile(":5\n").unwrap_err().message, "missing host before `:`");
    }

    #[test]
    fn skips_comments_and_blank_lines() {
        assert_eq!(parse_hostfile("\n# c\n h:1 \n\n[::1]:2").unwrap(), ["h:1", "[::1]:2"]);
    }
}
